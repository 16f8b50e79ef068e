"""What PIMC's card choices cost in the true deal, option against option, paired.

A duplicate match measures a bot by whole hands, so a small change in card
play drowns in the noise of the hands.  This tool measures the cards alone:
it deals ``--hands`` hands, lets heuristic bots bid, take the nest and play
the first ``--tricks`` tricks, and at every card decision with a choice it
asks each PIMC configuration for its card and solves the true deal double
dummy: a card's cost is the points its team gives away against the best
card of the true deal.  Every configuration answers the same decisions, so
the differences are paired; the tool prints each one's mean cost and its
gain over the first (the baseline) with a 95% interval.

Usage: ``python tools/pimc_cost.py [--preset P] [--hands N] [--tricks T]
[--worlds W] [--bid-signal 0,4,10]`` (one configuration per ``bid_signal``
value; 0 is plain PIMC).  A run is deterministic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from rook_core import HandState  # noqa: E402
from rook_core.actions import Phase  # noqa: E402
from rook_core.bots.heuristic import HeuristicAgent  # noqa: E402
from rook_core.bots.pimc import PIMCAgent  # noqa: E402
from rook_core.solver import Solver  # noqa: E402
from rook_core.variant import PRESETS  # noqa: E402


def costs(preset: str, hands: int, tricks: int, worlds: int, signals: list[float]) -> dict[float, list[int]]:
    """Each configuration's cost at every decision, in the same order for all."""
    v = PRESETS[preset]
    solver = Solver()
    out: dict[float, list[int]] = {t: [] for t in signals}
    for seed in range(hands):
        h = HandState.deal(v, seed=seed)
        bots = [HeuristicAgent(v, i) for i in range(4)]
        while h.to_move is not None and h.phase != Phase.PLAY:
            h.apply(bots[h.seat_to_move()].act(h.observe(h.seat_to_move())))
        for step in range(4 * tricks):
            if h.phase != Phase.PLAY:
                break
            seat = h.seat_to_move()
            obs = h.observe(seat)
            if len(obs.legal_actions) > 1:
                solver.clear()
                values = {int(c): x for c, x in solver.solve(h).move_values.items()}
                best = max(values.values()) if seat % 2 == 0 else min(values.values())
                for t in signals:
                    card = PIMCAgent(v, seed=seed * 100 + step, worlds=worlds, bid_signal=t).act(obs)
                    out[t].append(abs(best - values[card]))
            h.apply(bots[seat].act(obs))
    return out


def table(result: dict[float, list[int]]) -> list[str]:
    """The mean cost of each configuration and its paired gain over the first."""
    signals = list(result)
    base = result[signals[0]]
    lines = ["| bid_signal | decisions | mean cost (points) | gain over the first, 95% interval |",
             "|---|---|---|---|"]
    for t in signals:
        d = [a - b for a, b in zip(base, result[t])]
        m = statistics.mean(d)
        half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
        gain = "-" if t == signals[0] else f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"
        lines.append(f"| {t:g} | {len(d)} | {statistics.mean(result[t]):.3f} | {gain} |")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="tournament", choices=sorted(PRESETS))
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--tricks", type=int, default=3, help="the first tricks whose decisions are measured")
    p.add_argument("--worlds", type=int, default=8)
    p.add_argument("--bid-signal", default="0,10", help="bid_signal values, the first the baseline")
    args = p.parse_args(argv)
    signals = [float(x) for x in args.bid_signal.split(",")]
    print("\n".join(table(costs(args.preset, args.hands, args.tricks, args.worlds, signals))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
