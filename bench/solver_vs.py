"""Two solver builds on the same deals, in turns: times, node counts, agreement.

    python bench/solver_vs.py                          # worktree vs 649b7bd, 60 tournament deals
    python bench/solver_vs.py --base 649b7bd --deals 300 --what value,cards
    python bench/solver_vs.py --preset crowsnest --cards-left 36 --what value

Each side is a shared library built by ``tools/build_solver_side.py`` from
one commit (or the working tree); both load into this process.  For each
deal the two sides run one after the other (which one goes first alternates
from deal to deal), each with a fresh table, so a load that drifts during
the run hits both alike.  Every answer must agree: the value, and in
``cards`` mode every legal card's value; a disagreement stops the run.

Printed per mode: for each side the median, p90, p99 and max time per deal
and the nodes per second; then the ratio base/new of the medians, of the
total time, and the median of the per-deal ratios; and a node signature of
the new side (the sum and a CRC of its node counts) that changes whenever
the search does.

Deals: ``_play_until`` of ``bench/test_solver.py``'s kind: a seeded
``HandState`` played at random (bids, nest, trump) until ``--cards-left``
cards are in the hands (36 = a full ``tournament`` deal after the nest).
"""

from __future__ import annotations

import argparse
import ctypes
import random
import statistics
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_solver_side  # noqa: E402

from rook_core import HandState  # noqa: E402
from rook_core.variant import Variant  # noqa: E402


class Spec(ctypes.Structure):
    _fields_ = [("deck", ctypes.c_uint64), ("special_trumps", ctypes.c_uint64),
                ("anytime", ctypes.c_uint64), ("counter_masks", ctypes.c_uint64 * 8),
                ("counter_values", ctypes.c_int32 * 8), ("n_counter_groups", ctypes.c_int32),
                ("must_trump", ctypes.c_int32), ("last_trick_bonus", ctypes.c_int32),
                ("most_tricks_bonus", ctypes.c_int32), ("strength", ctypes.c_uint8 * 64)]


class Pos(ctypes.Structure):
    _fields_ = [("hands", ctypes.c_uint64 * 4), ("trick", ctypes.c_uint8 * 4),
                ("trick_n", ctypes.c_uint8), ("leader", ctypes.c_uint8), ("trump", ctypes.c_uint8),
                ("pad", ctypes.c_uint8), ("nest_points", ctypes.c_int32),
                ("tricks", ctypes.c_uint8 * 2)]


def spec_of(v: Variant) -> Spec:
    """Return the solver's view of the rules of ``v`` (as rules.pyx builds it)."""
    s = Spec()
    s.deck = v.deck_mask
    s.special_trumps = v.special_trumps_mask
    s.anytime = (1 << 15) if v.bird_anytime else 0
    pts = v.points_table
    values = sorted({p for p in pts if p})
    s.n_counter_groups = len(values)
    for g, val in enumerate(values):
        s.counter_values[g] = val
        s.counter_masks[g] = sum(1 << i for i in range(64) if pts[i] == val)
    for i, st in enumerate(v.strength_table):
        s.strength[i] = st
    s.must_trump = int(v.must_trump)
    s.last_trick_bonus = v.last_trick_bonus
    s.most_tricks_bonus = v.most_tricks_bonus
    return s


def pos_of(h: HandState) -> Pos:
    """Return the solver position of a ``HandState`` in the play phase."""
    p = Pos()
    for i in range(4):
        p.hands[i] = h.hand_mask(i)
    trick = [int(c) for c in h.trick]
    for i in range(4):
        p.trick[i] = trick[i] if i < len(trick) else 255
    p.trick_n = len(trick)
    p.leader = h.leader
    p.trump = h.trump
    p.nest_points = h.nest_points if h.variant.nest_to == "last_trick" else 0
    won = h.tricks_won
    p.tricks[0], p.tricks[1] = won[0], won[1]
    return p


def play_until(preset: str, seed: int, cards_left: int) -> HandState:
    """Return a seeded hand played at random until ``cards_left`` cards are in hands."""
    rng = random.Random(seed)
    while True:
        h = HandState.deal(preset, seed=seed)
        while h.phase.label not in ("play", "thrown_in"):
            h.apply(rng.choice(h.legal_actions()))
        if h.phase.label == "play":
            break
        seed += 1_000_003
    while sum(len(h.hand(s)) for s in range(4)) > cards_left:
        h.apply(rng.choice(h.legal_actions()))
    return h


class Side:
    """One solver build, loaded from its shared library."""

    def __init__(self, name: str, lib: Path, tt_bytes: int = 24 << 20) -> None:
        self.name = name
        self.lib = ctypes.CDLL(str(lib), mode=ctypes.RTLD_LOCAL)
        L = self.lib
        L.side_new.restype = ctypes.c_void_p
        L.side_new.argtypes = [ctypes.c_uint64]
        for f in ("side_free", "side_clear"):
            getattr(L, f).argtypes = [ctypes.c_void_p]
        L.side_set_budget.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
        L.side_nodes.restype = ctypes.c_uint64
        L.side_nodes.argtypes = [ctypes.c_void_p]
        L.side_value.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos)]
        L.side_move_values.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos),
                                       ctypes.POINTER(ctypes.c_int32)]
        L.side_at_least.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos),
                                    ctypes.c_int]
        self.s = L.side_new(tt_bytes)
        if not self.s:
            raise MemoryError("cannot allocate a solver table")

    def set_budget(self, nodes: int) -> None:
        self.lib.side_set_budget(self.s, nodes)

    def run(self, what: str, spec: Spec, pos: Pos, target: int = 0) -> tuple[Any, float, int]:
        """Return (answer, seconds, nodes) of one call from an empty table."""
        L = self.lib
        L.side_clear(self.s)
        if what == "value":
            t = time.perf_counter()
            v = L.side_value(self.s, ctypes.byref(spec), ctypes.byref(pos))
            dt = time.perf_counter() - t
            out: Any = v
        elif what == "cards":
            vals = (ctypes.c_int32 * 64)()
            t = time.perf_counter()
            v = L.side_move_values(self.s, ctypes.byref(spec), ctypes.byref(pos), vals)
            dt = time.perf_counter() - t
            out = (v, tuple(vals))
        elif what == "at_least":
            t = time.perf_counter()
            v = L.side_at_least(self.s, ctypes.byref(spec), ctypes.byref(pos), target)
            dt = time.perf_counter() - t
            out = v
        else:
            raise ValueError(what)
        return out, dt, L.side_nodes(self.s)


def quantile(values: Sequence[float], q: float) -> float:
    """Return the q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-int(round(q * 100)) * len(ordered) // 100) - 1))]


@dataclass
class Tally:
    times: list[float]
    nodes: list[int]

    def line(self, name: str) -> str:
        t = self.times
        ms = 1e3
        return (f"{name:>10}: median {statistics.median(t) * ms:8.2f} ms  p90 {quantile(t, .9) * ms:8.2f}"
                f"  p99 {quantile(t, .99) * ms:8.2f}  max {max(t) * ms:8.2f}  mean "
                f"{statistics.mean(t) * ms:8.2f} ms  nodes median {statistics.median(self.nodes):,.0f}"
                f"  {sum(self.nodes) / sum(t) / 1e6:.2f} M nodes/s")


def compare(new: Side, base: Side | None, deals: list[HandState], what: str,
            targets: list[int] | None = None, quiet: bool = False) -> dict[str, Tally]:
    """Run both sides on every deal (alternating which goes first); return their tallies.

    :raises SystemExit: when the two sides disagree on a deal.
    """
    tallies = {"new": Tally([], []), "base": Tally([], [])}
    for i, h in enumerate(deals):
        spec, pos = spec_of(h.variant), pos_of(h)
        target = targets[i] if targets else 0
        order = [("new", new), ("base", base)] if i % 2 == 0 else [("base", base), ("new", new)]
        answers = {}
        for key, side in order:
            if side is None:
                continue
            out, dt, nodes = side.run(what, spec, pos, target)
            tallies[key].times.append(dt)
            tallies[key].nodes.append(nodes)
            answers[key] = out
        if base is not None and answers["new"] != answers["base"]:
            raise SystemExit(f"deal {i}: {what} differs: new {answers['new']} base {answers['base']}")
        if not quiet and (i + 1) % 25 == 0:
            print(f"  {what}: {i + 1}/{len(deals)} deals", file=sys.stderr)
    return tallies


def signature(nodes: list[int]) -> str:
    """Return a short deterministic summary of node counts."""
    return f"{sum(nodes)} nodes, crc {zlib.crc32(','.join(map(str, nodes)).encode()):08x}"


def report(what: str, tallies: dict[str, Tally], new_name: str, base_name: str) -> list[str]:
    new, base = tallies["new"], tallies["base"]
    lines = [f"== {what}: {len(new.times)} deals", new.line(new_name)]
    if base.times:
        lines.append(base.line(base_name))
        per = [b / n for b, n in zip(base.times, new.times) if n > 0]
        pern = [b / n for b, n in zip(base.nodes, new.nodes) if n > 0]
        lines.append(
            f"     ratio: median {statistics.median(base.times) / statistics.median(new.times):.2f}x"
            f"  mean {statistics.mean(base.times) / statistics.mean(new.times):.2f}x"
            f"  per-deal median {statistics.median(per):.2f}x (p10 {quantile(per, .1):.2f}x, p90 "
            f"{quantile(per, .9):.2f}x); nodes total {sum(base.nodes) / sum(new.nodes):.2f}x, "
            f"per-deal median {statistics.median(pern):.2f}x")
    lines.append(f" signature: {signature(new.nodes)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", default="worktree", help="commit of the new side (default: worktree)")
    ap.add_argument("--base", default="649b7bd", help="commit of the base side ('none': no base)")
    ap.add_argument("--preset", default="tournament")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2000, help="seed of the first deal")
    ap.add_argument("--cards-left", type=int, default=36)
    ap.add_argument("--what", default="value", help="comma list of value, cards, at_value")
    ap.add_argument("--tt-mib", type=int, default=24)
    ap.add_argument("--budget", type=int, default=0, help="node budget per call (0: none)")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="-D definition for the new side's build (experiments)")
    ap.add_argument("--base-D", dest="base_defines", action="append", default=[],
                    help="-D definition for the base side's build (experiments)")
    a = ap.parse_args(argv)
    new_lib = build_solver_side.build(a.new, extra=[f"-D{d}" for d in a.defines])
    new = Side(a.new, new_lib, a.tt_mib << 20)
    base = None
    if a.base != "none":
        base = Side(a.base, build_solver_side.build(a.base, extra=[f"-D{d}" for d in a.base_defines]),
                    a.tt_mib << 20)
    for side in (new, base):
        if side is not None and a.budget:
            side.set_budget(a.budget)
    deals = [play_until(a.preset, a.seed + i, a.cards_left) for i in range(a.deals)]
    print(f"{a.preset}, {a.deals} deals from seed {a.seed}, {a.cards_left} cards in hands; "
          f"new = {a.new}, base = {a.base}; {a.tt_mib} MiB tables")
    for what in a.what.split(","):
        targets = None
        run_what = what
        if what == "at_value":
            # "does team 0 take at least the exact value?" (the hardest target)
            ref = base or new
            targets = [ref.run("value", spec_of(h.variant), pos_of(h))[0] for h in deals]
            run_what = "at_least"
        tallies = compare(new, base, deals, run_what, targets)
        print("\n".join(report(what, tallies, a.new, a.base)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
