"""How much the root's first move costs the value's wide search.

    python tools/root_order.py                       # 300 tournament deals from seed 2000
    python tools/root_order.py --deals 60 --seed 1000 --preset crowsnest
    python tools/root_order.py --breakdown --deals 60 --seed 1000

The value of a position is found by one wide-window search (principal
variation search, ``src/rook/solve/driver.c``).  Its root searches the first
move with the whole window, so that move's exact value is proven; when it is
not a best move, that proof is work the answer did not need (the other
moves only need bounds).  This tool measures that cost on full deals: for
each deal it finds every card's value, then times the value twice on an
empty table, once in the order of the rules (``moves.h``) and once with a
best card tried first at the root (the rules' first card when it is one of
the best), on a build with ``-D DD_FORCE_ROOT`` (``search.c``); the two
runs alternate which goes first from deal to deal.  It prints
how often the rules' first card is a best card, the medians, p90 and total
nodes of both, and the node signature of each (node counts do not depend
on the machine).  A best card first is an upper bound on what any cheap
predictor of the root's best move could save.

With ``--breakdown`` it prints instead where the value's nodes go among the
root's moves, in the rules' order and on one thread: the first card (its
exact value, by the whole window), and each later card by what its value is
against the best of the cards before it: better (the test fails high and
the card is searched again), tied, one grain of points worse (the
variant's smallest step of points) or worse than that.  A later card's
test proves its bound at the best value so far, so a tied card or one a
grain worse costs a proof at the value, where a card far worse is refuted
cheaply.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_sides import Side, add_deal_arguments, build, play_until, pos_of, quantile, signature, spec_of  # noqa: E402

from rook_core.variant import Variant  # noqa: E402


@dataclass
class RootRun:
    """One deal: the rules' first card at the root, whether it is a best
    card, and (seconds, nodes) of the value in the rules' order and with a
    best card first."""

    seed: int
    value: int
    first: int
    first_is_best: bool
    rules: tuple[float, int]
    best_first: tuple[float, int]


def root_runs(side: Side, preset: str, seed: int, deals: int, cards_left: int = 36) -> list[RootRun]:
    """Run the two orders on ``deals`` deals (``side`` built with ``DD_FORCE_ROOT``)."""
    force = ctypes.c_int.in_dll(side.lib, "dd_force_root_card")
    first = ctypes.c_int.in_dll(side.lib, "dd_root_first_card")
    out = []
    for i in range(deals):
        h = play_until(preset, seed + i, cards_left)
        spec, pos = spec_of(h.variant), pos_of(h)
        force.value = -1
        (value, values), _, _ = side.run("cards", spec, pos)
        best = [c for c in range(64) if values[c] == value]
        side.run("value", spec, pos)  # untimed: the rules' first card, and warm caches
        rules_first = first.value
        pick = rules_first if rules_first in best else best[0]
        # the two orders in turns (which goes first alternates from deal to
        # deal: a run leaves the table's memory in the cache for the next)
        runs: dict[int, tuple[int, float, int]] = {}
        for order in ((-1, pick) if i % 2 else (pick, -1)):
            force.value = order
            runs[order] = side.run("value", spec, pos)
        force.value = -1
        (v1, t1, n1), (v2, t2, n2) = runs[-1], runs[pick]
        if not v1 == v2 == value:
            raise SystemExit(f"root_order: deal {seed + i}: values {v1}, {v2}, every card's best {value}")
        out.append(RootRun(seed + i, value, rules_first, rules_first in best, (t1, n1), (t2, n2)))
    return out


def report(runs: list[RootRun]) -> list[str]:
    """The lines the tool prints for ``runs``."""
    lines = [f"{len(runs)} deals: the rules' first root card is a best card in "
             f"{sum(r.first_is_best for r in runs)}"]
    for name, pick in (("rules' order", lambda r: r.rules), ("best card first", lambda r: r.best_first)):
        ts = [pick(r)[0] for r in runs]
        lines.append(f"  {name:>16}: median {statistics.median(ts) * 1e3:7.2f} ms  "
                     f"p90 {quantile(ts, 0.9) * 1e3:7.2f}  {signature([pick(r)[1] for r in runs])}")
    med = statistics.median(r.rules[0] for r in runs) / statistics.median(r.best_first[0] for r in runs)
    nodes = sum(r.rules[1] for r in runs) / sum(r.best_first[1] for r in runs)
    lines.append(f"  best card first: {med:.2f}x by the median time, {nodes:.2f}x fewer nodes in all")
    return lines


KINDS = ("first", "better", "tied", "a grain worse", "worse")


def grain_of(variant: Variant) -> int:
    """The variant's smallest step of points: the gcd of its counters' points and bonuses."""
    steps = [p for p in variant.points_table if p]
    steps += [b for b in (variant.last_trick_bonus, variant.most_tricks_bonus) if b]
    return math.gcd(*steps) if steps else 1


def root_breakdown(side: Side, preset: str, seed: int, deals: int, cards_left: int = 36
                   ) -> list[tuple[int, list[tuple[str, int]]]]:
    """For each deal, (the value's nodes, [(kind, nodes)] of the root's moves
    in the order searched): ``KINDS`` says what each kind is (``side`` built
    with ``DD_FORCE_ROOT``, the rules' order)."""
    lib = side.lib
    ctypes.c_int.in_dll(lib, "dd_force_root_card").value = -1
    count = ctypes.c_int.in_dll(lib, "dd_root_moves_n")
    cards = (ctypes.c_int * 64).in_dll(lib, "dd_root_move_card")
    nodes = (ctypes.c_uint64 * 64).in_dll(lib, "dd_root_move_nodes")
    out = []
    for i in range(deals):
        h = play_until(preset, seed + i, cards_left)
        spec, pos, grain = spec_of(h.variant), pos_of(h), grain_of(h.variant)
        sign = 1 if h.to_move % 2 == 0 else -1   # team 0 moves: it takes the most
        (_, values), _, _ = side.run("cards", spec, pos)
        count.value = 0
        _, _, total = side.run("value", spec, pos)
        moves, best = [], 0
        for k in range(count.value):
            v = sign * values[cards[k]]
            if k == 0:
                kind = "first"
            else:
                kind = ("better" if v > best else "tied" if v == best
                        else "a grain worse" if v == best - grain else "worse")
            best = v if k == 0 else max(best, v)
            moves.append((kind, int(nodes[k])))
        out.append((total, moves))
    return out


def breakdown_report(deals: list[tuple[int, list[tuple[str, int]]]]) -> list[str]:
    """The lines the tool prints with ``--breakdown``."""
    total = sum(t for t, _ in deals)
    spent: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    for _, ms in deals:
        for kind, n in ms:
            spent[kind] += n
            moves[kind] += 1
    lines = [f"{len(deals)} deals, the value of each: {signature([t for t, _ in deals])}"]
    for kind in KINDS:
        if moves[kind]:
            lines.append(f"  {kind:>13}: {moves[kind]:5d} moves  {spent[kind]:11,d} nodes  "
                         f"{spent[kind] / total:6.1%}  {spent[kind] / moves[kind]:9,.0f} a move")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_deal_arguments(ap, deals=300, seed=2000)
    ap.add_argument("--breakdown", action="store_true",
                    help="where the value's nodes go among the root's moves, instead of the two orders")
    a = ap.parse_args(argv)
    side = Side("root", build("worktree", extra=["-DDD_FORCE_ROOT"]))
    if a.breakdown:
        lines = breakdown_report(root_breakdown(side, a.preset, a.seed, a.deals, a.cards_left))
    else:
        lines = report(root_runs(side, a.preset, a.seed, a.deals, a.cards_left))
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
