"""The duplicate ladder of the bots: which bot beats which, with 95% intervals.

Each rung is a duplicate match (``simulate(..., duplicate=True)``): every
deal is played twice on the same cards with the sides swapped, so the luck
of the cards cancels and what is left is the play.  For each preset and
each pair of bots the tool prints side A's advantage over side B per deal,
in score and in card points, each with its 95% interval; an interval that
lies above 0 says A is the stronger bot there.

The rungs: ``heuristic`` against ``random``; ``pimc`` at 8 worlds a
decision against ``heuristic``; ``pimc`` at 32 worlds against ``pimc`` at
8; ``pimc`` playing for the hand's score (the default) against ``pimc``
playing for the points alone; ``pimc`` taking each world's card values only
to within 10, 20 or 40 points (``tolerance``, scaled by the points still in
play) against plain ``pimc-8``, and in the 9-card presets at 20 points with
32 worlds against ``pimc-32``; ``pimc`` with its worlds weighted by how well
they explain the auction (``bid_signal``) against plain ``pimc-8``; in the 9-card presets, ``pimc`` choosing its
trump and discards as declarer by simulation (``nest="worlds"``) against
plain ``pimc-8``; in the 13- and 14-card presets, ``pimc`` at
32 worlds judging them by heuristic playouts while more than 6 cards are in
hand against plain ``pimc-8``; and, where a bidding model was fitted
(``tools/fit_bidding.py``), ``modelbid`` (bids from the model, plays as the
heuristic) against ``heuristic``.  The bids, the nest and trump are the
heuristic's for every bot but ``random``, ``modelbid`` and ``pimc-8-nest``,
so the other rungs measure card play.

Usage: ``python tools/ladder.py [--deals N] [--presets a,b] [--workers W] [--only TEXT]
[--no-calibration]``; docs/LADDER.md holds the tables of its runs, with their
commands.  A run is deterministic: the same arguments give the same table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from rook_core.bots.bidding import bid_model, calibration  # noqa: E402
from rook_core.bots.outside import configured_bot  # noqa: E402
from rook_core.errors import RookError  # noqa: E402
from rook_core.sim.simulate import simulate  # noqa: E402
from rook_core.variant import get_preset  # noqa: E402

PRESETS = ("tournament", "crowsnest", "crowsnest-100", "partnership-57", "house-180")
SEED = 2026
BID_TAU = 10.0   # pimc-8-bids: points of shortfall against the auction that divide a world's odds by e


def rungs(preset: str) -> list[tuple[str, Any, Any]]:
    pimc8 = configured_bot("pimc", "pimc-8", worlds=8)
    pimc32 = configured_bot("pimc", "pimc-32", worlds=32)
    points8 = configured_bot("pimc", "pimc-8-points", worlds=8, objective="points")
    out: list[tuple[str, Any, Any]] = [("heuristic vs random", "heuristic", "random"),
                                       ("pimc-8 vs heuristic", pimc8, "heuristic"),
                                       ("pimc-32 vs pimc-8", pimc32, pimc8),
                                       ("pimc-8 (score) vs pimc-8 (points)", pimc8, points8)]
    for t in (10, 20, 40):
        tol8 = configured_bot("pimc", f"pimc-8-tol{t}", worlds=8, tolerance=t)
        out.append((f"pimc-8-tol{t} (each world's card values to within {t} points, scaled) vs pimc-8",
                    tol8, pimc8))
    bids8 = configured_bot("pimc", "pimc-8-bids", worlds=8, bid_signal=BID_TAU)
    out.append(("pimc-8-bids (worlds weighted by the auction) vs pimc-8", bids8, pimc8))
    if get_preset(preset).hand_size < 13:       # more worlds average the tolerance's errors out more
        tol32 = configured_bot("pimc", "pimc-32-tol20", worlds=32, tolerance=20)
        out.append(("pimc-32-tol20 (card values to within 20 points, scaled) vs pimc-32", tol32, pimc32))
    if get_preset(preset).hand_size < 13:       # a full deal solves in milliseconds: plan the nest by worlds
        nest8 = configured_bot("pimc", "pimc-8-nest", worlds=8, nest="worlds")
        out.append(("pimc-8-nest (trump and discards by worlds) vs pimc-8", nest8, pimc8))
    if get_preset(preset).hand_size >= 13:      # early tricks too long to solve: playouts
        rolls = configured_bot("pimc", "pimc-32-rollouts", worlds=32, rollouts_above=6)
        out.append(("pimc-32-rollouts vs pimc-8", rolls, pimc8))
        rescue = configured_bot("pimc", "pimc-8-fallback", worlds=8, playout_fallback=True)
        out.append(("pimc-8-fallback (playouts for the worlds a search gave up) vs pimc-8", rescue, pimc8))
    try:
        bid_model(get_preset(preset))
        out.append(("modelbid vs heuristic (the new bidding against the old)", "modelbid", "heuristic"))
    except RookError:
        pass
    return out


def _ci(x: list[float]) -> str:
    value, lo, hi = x
    mark = " **" if lo > 0 else ""
    return f"{value:+.1f} [{lo:+.1f}, {hi:+.1f}]{mark}"


def run(presets: list[str], deals: dict[str, int], workers: int, only: str = "") -> list[str]:
    """Play the rungs and print each row as it is measured; return the table."""
    lines = ["| preset | side A vs side B | deals | score per deal, A - B | points per deal, A - B | minutes |",
             "|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for preset in presets:
        for title, a, b in rungs(preset):
            if only and only not in title:
                continue
            n = deals[preset]
            t0 = time.perf_counter()
            r = simulate(preset, [a, b, a, b], hands=n, seed=SEED, duplicate=True, workers=workers)
            d = r.summary()["side_a_minus_b"]
            minutes = (time.perf_counter() - t0) / 60
            line = (f"| {preset} | {title} | {n} | {_ci(d['score_per_hand'])} | "
                    f"{_ci(d['points_per_hand'])} | {minutes:.1f} |")
            print(line, flush=True)
            lines.append(line)
    return lines


def calibration_lines(preset: str = "tournament", hands: int = 3000) -> list[str]:
    """Make rates by winning bid of the two bidders against the model's odds."""
    out = [f"Make rate by winning bid in `{preset}` ({hands} hands each, seed {SEED}; the odds are the "
           "model's, for the declarer's dealt hand and named trump):", "",
           "| bid | heuristic bidder: hands | made | model odds | modelbid: hands | made | model odds |",
           "|---|---|---|---|---|---|---|"]
    rows = {}
    for kind in ("heuristic", "modelbid"):
        r = simulate(preset, [kind, "heuristic", kind, "heuristic"], hands=hands, seed=SEED)
        rows[kind] = {row["bid"]: row for row in calibration(r)}
    for b in sorted(set(rows["heuristic"]) | set(rows["modelbid"])):
        cells = []
        for kind in ("heuristic", "modelbid"):
            row = rows[kind].get(b)
            cells += ([str(row["hands"]), f"{100 * row['made']:.0f}%", f"{100 * row['odds']:.0f}%"]
                      if row else ["0", "-", "-"])
        out.append(f"| {b} | " + " | ".join(cells) + " |")
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200, help="deals per rung (each played twice); the "
                   "14- and 13-card presets get a quarter of them")
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--only", default="", help="run only the rungs whose title holds this text")
    p.add_argument("--no-calibration", action="store_true", help="leave out the make-rate table")
    args = p.parse_args(argv)
    presets = [x.strip() for x in args.presets.split(",")]
    deals = {x: args.deals if x not in ("partnership-57", "house-180") else max(1, args.deals // 4)
             for x in presets}
    run(presets, deals, args.workers, args.only)
    if "tournament" in presets and not args.no_calibration:
        print("\n" + "\n".join(calibration_lines()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
