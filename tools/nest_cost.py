"""What the declarer's trump and discard cost in the true deal, plan against plan, paired.

A duplicate match measures a declarer's plan by whole hands, and the plan
is one decision among a hundred, so its effect drowns in the noise of the
hands.  This tool measures the plan alone: it deals ``--hands`` hands, lets
heuristic bots bid (T-3 .. T-6) until a declarer holds the nest (T-20),
asks each configuration for its trump (T-7) and discard, and solves the
true deal's play after each double dummy (the heuristic bots' view is not
used past the plan).  A plan's worth is the declarer's team's hand score
less the other team's (T-30 .. T-32, H-1) in that solved play; with
``--best``, the true deal's best plan (:func:`rook_core.nest.nest_decision`)
gives each configuration's cost: what it gives away against that best.

Configurations, named by ``--plans`` (comma-separated, the first the baseline):

* ``heuristic``: the heuristic's trump and discard;
* ``worlds``: trump by simulation, the heuristic's discard for each trump
  (``plan_by_worlds``, ``--worlds`` sampled deals);
* ``worldsN``: the same, judging also the nest decision's ``N``
  best-looking discards for each trump (``discards=N``);
* ``worldsNzM`` (or ``worldszM``): keeping the heuristic's own trump and
  discard unless the best beats it by ``M`` standard errors (``margin=M``).

Every configuration answers the same hands, so the differences are paired;
the tool prints each one's mean worth, make rate and cost, and its gain
over the baseline with a 95% interval.  A run is deterministic.

Usage: ``python tools/nest_cost.py [--preset P] [--hands N] [--seed S]
[--worlds W] [--plans heuristic,worlds,worlds4] [--best] [--workers K]``
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from rook_core import HandState  # noqa: E402
from rook_core.actions import Phase  # noqa: E402
from rook_core.bots.declaring import plan_by_worlds, plannable, play_worth, points_worth  # noqa: E402
from rook_core.bots.heuristic import HeuristicAgent  # noqa: E402
from rook_core.cards import CardSet  # noqa: E402
from rook_core.nest import nest_decision, play_after  # noqa: E402
from rook_core.odds import play_position  # noqa: E402
from rook_core.solver import Solver  # noqa: E402
from rook_core.variant import PRESETS, Variant  # noqa: E402


def declared_hands(v: Variant, seed: int, count: int) -> list[HandState]:
    """``count`` deals from ``seed`` on, bid by heuristics, at the declarer's
    first step after taking the nest (deals thrown in are skipped)."""
    out: list[HandState] = []
    s = seed
    while len(out) < count:
        h = HandState.deal(v, seed=s)
        s += 1
        bots = [HeuristicAgent(v, i) for i in range(4)]
        while h.phase == Phase.BID:
            h.apply(bots[h.seat_to_move()].act(h.observe(h.seat_to_move())))
        if h.declarer is not None and h.phase in (Phase.NEST, Phase.TRUMP):
            out.append(h)
    return out


def worth(v: Variant, h: HandState, play: HandState, value: int) -> tuple[int, int]:
    """(the declarer's team's score less the other's, its points) for a play
    position of ``h`` whose double-dummy value (team 0's points) is ``value``."""
    return play_worth(v, h.seat_to_move(), int(h.high_bid), play, value)


def best_worth(v: Variant, h: HandState, workers: int) -> int:
    """The score difference of the true deal's best plan: most points is best
    score, as a hand's score grows with the declarer's team's points."""
    seat = h.seat_to_move()
    points = nest_decision(h, workers=workers).best.points
    return points_worth(v, seat, int(h.high_bid), points if seat % 2 == 0 else v.total_points - points)[0]


def plan_play(v: Variant, h: HandState, plan: str, worlds: int, seed: int, workers: int) -> HandState:
    """The true deal's play position after the configuration ``plan``'s choice."""
    seat = h.seat_to_move()
    chosen = None
    if plan != "heuristic":
        extra, margin = _plan_name(plan)
        chosen = plan_by_worlds(v, h.observe(seat), HeuristicAgent(v, seat), worlds=worlds,
                                rng=random.Random(seed), discards=extra, margin=margin, workers=workers)
    if chosen is None:
        return play_position(h, None, [HeuristicAgent(v, i) for i in range(4)])
    return play_after(h, chosen.trump, tuple(int(c) for c in CardSet(chosen.discard)))


def _plan_name(plan: str) -> tuple[int, float]:
    """(discards, margin) of a configuration named ``worlds[N][zM]``."""
    m = re.fullmatch(r"worlds(\d*)(?:z(\d+(?:\.\d+)?))?", plan)
    if m is None:
        raise ValueError(f"unknown plan {plan!r}: heuristic, worlds, worldsN or worldsNzM")
    return int(m.group(1) or 0), float(m.group(2) or 0)


def run(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    v = PRESETS[args.preset]
    if not plannable(v):
        raise SystemExit(f"{args.preset}: the declarer's plan by worlds does not serve this variant")
    plans = args.plans.split(",")
    solver = Solver(256 << 20)
    out: dict[str, dict[str, list[float]]] = {p: {"worth": [], "points": [], "made": [], "cost": [],
                                                   "seconds": []} for p in plans}
    for i, h in enumerate(declared_hands(v, args.seed, args.hands)):
        best = best_worth(v, h, args.workers) if args.best else None
        for p in plans:
            t0 = time.perf_counter()
            play = plan_play(v, h, p, args.worlds, args.seed * 1000 + i, args.workers)
            took = time.perf_counter() - t0
            w, pts = worth(v, h, play, solver.value(play))
            row = out[p]
            row["worth"].append(w)
            row["points"].append(pts)
            row["made"].append(float(pts >= int(h.high_bid)))
            row["seconds"].append(took)
            if best is not None:
                row["cost"].append(best - w)
        if args.verbose:
            print(i, " ".join(f"{p}={out[p]['worth'][-1]}" for p in plans), "" if best is None else f"best={best}",
                  file=sys.stderr)
    return out


def _interval(d: list[float]) -> str:
    m = statistics.mean(d)
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
    return f"{m:+.2f} [{m - half:+.2f}, {m + half:+.2f}]"


def table(result: dict[str, dict[str, list[float]]]) -> list[str]:
    """Each configuration's means and its paired gain over the first."""
    plans = list(result)
    base = result[plans[0]]
    lines = ["| plan | hands | worth (score difference) | points | made | cost vs best | "
             "gain in worth over the first, 95% interval | seconds a plan (median) |",
             "|---|---|---|---|---|---|---|---|"]
    for p in plans:
        r = result[p]
        gain = "-" if p == plans[0] else _interval([b - a for a, b in zip(base["worth"], r["worth"])])
        cost = f"{statistics.mean(r['cost']):.2f}" if r["cost"] else "-"
        lines.append(f"| {p} | {len(r['worth'])} | {statistics.mean(r['worth']):.2f} | "
                     f"{statistics.mean(r['points']):.2f} | {statistics.mean(r['made']):.3f} | {cost} | {gain} | "
                     f"{statistics.median(r['seconds']):.2f} |")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="tournament", choices=sorted(PRESETS))
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--worlds", type=int, default=8)
    p.add_argument("--plans", default="heuristic,worlds,worlds4")
    p.add_argument("--best", action="store_true", help="also solve each true deal's best plan (slower)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--verbose", action="store_true", help="a line per hand on stderr")
    args = p.parse_args(argv)
    for name in args.plans.split(","):
        try:
            if name != "heuristic":
                _plan_name(name)
        except ValueError as e:
            p.error(str(e))
    print("\n".join(table(run(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
