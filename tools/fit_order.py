"""Fit the solver's move-ordering weights (src/rook/solve/moves.h) to node counts.

    python tools/fit_order.py                     # 2 rounds, 60 + 30 + 12 positions, 2 processes
    python tools/fit_order.py --rounds 3 --deals 80 --jobs 2

The working tree's solver is built by ``tools/solver_sides.py`` with
``DD_ORDER_TUNABLE``, which makes every weight a variable of the library
(``dd_order_w``, named by ``dd_order_names``), so a weight is tried without
a build.  The objective is deterministic: the nodes the search needs, per
fitting set relative to the set's nodes with the starting weights, summed
over the sets.  The sets (seeds from ``--seed``, away from the held-out
seeds 1000-1149 that ``bench/solver_vs.py`` measures on):

* ``tournament`` full deals: the value, and "does team 0 take at least the
  value?" (the hardest yes/no target);
* ``crowsnest`` full deals: the value;
* ``partnership-57`` from 10 tricks: the value.

A coordinate search: each weight in turn is moved up and down by its step
(the two tried at once in two processes); the better move is kept when it
lowers the objective by more than ``--min-gain``; a round without a kept
move halves the steps.  Every kept move is printed, and at the end the
weights as they would stand in moves.h.  Check a fit on the held-out deals
(``bench/solver_vs.py --base <commit>``) before landing it: a gain on the
fitting sets alone is not one.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_sides import Side, build, play_until, pos_of, spec_of  # noqa: E402

# (preset, cards in hands, question, share of --deals)
SETS = [("tournament", 36, "value", 1.0), ("tournament", 36, "at_value", 1.0),
        ("crowsnest", 36, "value", 0.5), ("partnership-57", 40, "value", 0.2)]

_side: Side | None = None
_work: list[list[tuple[Any, Any, str, int]]] = []


def _weights(side: Side) -> tuple[Any, list[str]]:
    """The library's weight array and the weights' names."""
    n = ctypes.c_int.in_dll(side.lib, "dd_order_n").value
    names = [x.decode() for x in (ctypes.c_char_p * n).in_dll(side.lib, "dd_order_names")]
    return (ctypes.c_int * n).in_dll(side.lib, "dd_order_w"), names


def _init(lib: str, deals: int, seed: int) -> None:
    """A process's solver and positions (with the targets of the yes/no set)."""
    global _side, _work
    _side = Side("fit", Path(lib))
    _work = []
    for k, (preset, cards, what, share) in enumerate(SETS):
        items = []
        for i in range(max(1, int(deals * share))):
            h = play_until(preset, seed + 10_000 * k + i, cards)
            spec, pos = spec_of(h.variant), pos_of(h)
            target = _side.run("value", spec, pos)[0] if what == "at_value" else 0
            items.append((spec, pos, "at_least" if what == "at_value" else "value", target))
        _work.append(items)


def _nodes(weights: list[int]) -> list[int]:
    """The nodes of each fitting set with these weights."""
    assert _side is not None
    w, _ = _weights(_side)
    for i, x in enumerate(weights):
        w[i] = x
    return [sum(_side.run(what, spec, pos, target)[2] for spec, pos, what, target in items)
            for items in _work]


def _score(nodes: list[int], base: list[int]) -> float:
    return sum(n / b for n, b in zip(nodes, base))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--deals", type=int, default=60, help="tournament deals (the other sets scale)")
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min-gain", type=float, default=0.002, help="smallest relative gain kept")
    a = ap.parse_args(argv)
    lib = build("worktree", extra=["-DDD_ORDER_TUNABLE"])
    names = _weights(Side("names", lib))[1]
    with ProcessPoolExecutor(a.jobs, initializer=_init, initargs=(str(lib), a.deals, a.seed)) as pool:
        start = list(pool.map(_default_weights, [None]))[0]
        base = pool.submit(_nodes, start).result()
        print(f"{len(names)} weights; sets {[f'{p}/{w}' for p, _, w, _ in SETS]}: nodes {base}")
        cur, cur_score = list(start), float(len(base))
        steps = [max(1, abs(x) // 4) if abs(x) >= 8 else 1 for x in start]
        for rnd in range(a.rounds):
            kept = 0
            for i, name in enumerate(names):
                tries = []
                for d in (steps[i], -steps[i]):
                    w = list(cur)
                    w[i] += d
                    tries.append((w, pool.submit(_nodes, w)))
                for w, fut in tries:
                    nodes = fut.result()
                    sc = _score(nodes, base)
                    if sc < cur_score * (1 - a.min_gain):
                        print(f"round {rnd + 1}: {name} {cur[i]} -> {w[i]}: objective {cur_score:.4f} -> "
                              f"{sc:.4f} (sets {', '.join(f'{n / b:.3f}' for n, b in zip(nodes, base))})")
                        sys.stdout.flush()
                        cur, cur_score = w, sc
                        kept += 1
            if not kept:
                steps = [max(1, s // 2) for s in steps]
        print(f"objective {cur_score:.4f} of {len(base)} (each set 1 at the start); weights:")
        for name, x0, x in zip(names, start, cur):
            print(f"    X({name}, {x}){'' if x == x0 else f'   (was {x0})'}")
    return 0


def _default_weights(_: Any) -> list[int]:
    assert _side is not None
    w, _names = _weights(_side)
    return list(w)


if __name__ == "__main__":
    sys.exit(main())
