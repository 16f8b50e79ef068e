"""Fit ``rook_core/bots/bid_models.json``: the bidding evaluator of rook_core.bots.bidding.

THE DATA FILE IS WRITTEN BY THIS SCRIPT AND NEVER EDITED BY HAND.

For each preset, ``--deals`` random deals (seeded by the preset's name):
seat 0 declares at the lowest bid, takes the nest, buries and names trump
as the heuristic bot does (RULES.md T-7, T-20 .. T-22, H-3, H-4); then

* the play is solved double dummy (what the declaring team takes under best
  play: ``rook_core.solver.solve_many``) -- in the 13- and 14-card presets
  only the last ``--solved-tricks`` tricks (11) are, the tricks before them
  played by four heuristic bots (a full deal of 13 cards can take minutes to
  solve; eleven tricks take a tenth of a second), and the model records how
  many tricks were solved (``solved_tricks``); and
* played out by four heuristic bots (what they really take).

A least-squares fit of the double-dummy points on the declarer's dealt
hand's :func:`~rook_core.bots.bidding.features` (for the trump it named)
gives the weights; the residuals' standard deviation gives ``sigma``; the
mean of double dummy less heuristic play gives ``margin``.  The fit's R^2
and the figures are printed.  Deals are reproducible: the same arguments
write the same file (the solver is exact).

Usage: ``python tools/fit_bidding.py [--deals N] [--presets a,b] [--workers W] [--solved-tricks K]``
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from rook_core.bots.bidding import FEATURES, MODELS, features  # noqa: E402
from rook_core.bots.heuristic import HeuristicAgent  # noqa: E402
from rook_core.odds import declared_at_lowest, play_position  # noqa: E402
from rook_core.solver import solve_many  # noqa: E402
from rook_core.variant import PRESETS as ALL_PRESETS  # noqa: E402
from rook_core.variant import get_preset  # noqa: E402

PRESETS = tuple(ALL_PRESETS)
SOLVED_TRICKS = 11


def fit(preset: str, deals: int, workers: int, solved_tricks: int = SOLVED_TRICKS) -> dict[str, object]:
    v = get_preset(preset)
    rng = random.Random(zlib.crc32(f"fit_bidding/{preset}".encode()))
    deck = [c for c in range(64) if v.deck_mask >> c & 1]
    agents = [HeuristicAgent(v, s) for s in range(4)]
    rows, played, held, positions = [], [], [], []
    for _ in range(deals):
        rng.shuffle(deck)
        n = v.hand_size
        hands = [sum(1 << c for c in deck[s * n:(s + 1) * n]) for s in range(4)]
        nest = sum(1 << c for c in deck[4 * n:])
        p = play_position(declared_at_lowest(v, 0, hands, nest), None, agents)
        assert p.trump is not None
        rows.append(features(v, hands[0], p.trump))
        end = p.clone()
        while end.to_move is not None:
            end.apply(agents[end.to_move].act(end.observe(end.to_move)))
        played.append(end.points[0])
        # the tricks before the last SOLVED_TRICKS: the heuristic bots'
        while len(p.trick_records()) < v.hand_size - solved_tricks:
            p.apply(agents[p.to_move].act(p.observe(p.to_move)))
        held.append(p.points[0] + (p.nest_points if v.nest_to == "declarer" else 0))
        positions.append(p)
    values = solve_many(positions, workers=workers, what="value")
    dd = np.array([int(x) + h for x, h in zip(values, held)], dtype=float)
    x = np.array(rows)
    w, *_ = np.linalg.lstsq(x, dd, rcond=None)
    resid = dd - x @ w
    r2 = 1 - resid.var() / dd.var()
    margin = float(np.mean(dd - np.array(played, dtype=float)))
    print(f"{preset}: {deals} deals, double dummy mean {dd.mean():.1f}, heuristic play mean "
          f"{np.mean(played):.1f} (margin {margin:.1f}), R^2 {r2:.3f}, sigma {resid.std():.1f}", flush=True)
    return {"weights": [round(float(a), 6) for a in w], "sigma": round(float(resid.std()), 4),
            "margin": round(margin, 4), "deals": deals, "r2": round(float(r2), 4),
            "solved_tricks": min(v.hand_size, solved_tricks)}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=4000)
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--solved-tricks", type=int, default=SOLVED_TRICKS,
                   help="solve at most this many last tricks double dummy (default %(default)s)")
    args = p.parse_args(argv)
    models = {name: fit(name, args.deals, args.workers, args.solved_tricks) for name in args.presets.split(",")}
    MODELS.write_text(json.dumps({
        "written_by": f"python tools/fit_bidding.py --deals {args.deals} --presets {args.presets} "
                      f"--solved-tricks {args.solved_tricks}",
        "features": list(FEATURES), "models": models}, indent=1) + "\n")
    print(f"wrote {MODELS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
