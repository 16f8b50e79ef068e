"""The solver's generalised table against exact keys, on long endings.

``Solver()`` lets one table entry stand for every position that differs only
in cards whose rank its search did not rely on (``src/rook/solve/table.h``:
relevant cards, interchangeable low cards by seat, suit and kind).
``Solver(generalize=False)`` keys each entry by the exact position.  Both
must give the same value and the same value for every legal card: the
reference minimax cannot reach these lengths, but the exact-key search is
the simpler one and is checked against it on short endings
(``tests/test_solver.py``).

Positions: for each of the nine presets, ``PER_PRESET`` hands played through
``HandState`` with random bidding, nest, trump and passing (T-3 .. T-22),
then random cards down to 5-9 tricks left (``dixie``: its ``tricks`` come
with the state), at a trick boundary or inside a trick.  Both solvers get
a small table (256 KiB) on half the positions, so that entries of different
generality replace each other.

Deals of more than 36 cards keep quasi-symmetry entries with 64-bit tag
planes (``quasi.h``), which answer positions of more than 32 cards too: on
endings of 9-10 tricks of those presets, the solver must agree with the
exact-key search, and a solver that has just solved an ending must answer a
point variant of it (one card swapped for one of other points, answered
through its twin's entries widened by the points that moved) as a fresh
solver does.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import zlib

import pytest

from rook_core import HandState
from rook_core._reference.tricks import card_points, deck_cards
from rook_core.actions import Phase
from rook_core.cards import Card
from rook_core.solver import BudgetExceeded, Solver
from rook_core.variant import PRESETS

PER_PRESET = 16
BUDGET = 3_000_000  # nodes: a position past it is replaced by another


def _ending(name: str, rng: random.Random, tricks: int | None = None) -> HandState:
    while True:
        hand = HandState.deal(name, rng.randrange(1 << 31))
        while hand.phase not in (Phase.PLAY, Phase.THROWN_IN, Phase.DONE):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.phase == Phase.PLAY:
            break
    if tricks is None:
        tricks = rng.randint(5, min(9, PRESETS[name].hand_size))
    cards_left = 4 * tricks - rng.choice((0, 1, 2, 3))
    while sum(hand.hand_mask(s).bit_count() for s in range(4)) > cards_left:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def _differences_from_exact_keys(name: str, rng: random.Random, count: int,
                                 tricks: tuple[int, int] | None = None) -> list[str]:
    """Solve ``count`` endings of ``name`` (``tricks``: the range of tricks
    left, else 5-9) with the generalised table and with exact keys (a small
    table on every other one); return a line for each that differs."""
    bad = []
    checked = 0
    while checked < count:
        hand = _ending(name, rng, tricks=rng.randint(*tricks) if tricks else None)
        size = 256 << 10 if checked % 2 else 32 << 20
        fast, exact = Solver(size, BUDGET), Solver(size, 4 * BUDGET, generalize=False)
        try:
            got = fast.solve(hand)
            want = exact.solve(hand)
        except BudgetExceeded:  # too long for a unit test: take another
            continue
        checked += 1
        if (got.value, got.move_values) != (want.value, want.move_values):
            bad.append(f"{got.value} {dict(got.move_values)} != {want.value} "
                       f"{dict(want.move_values)}: {hand.to_json()}")
    return bad


@pytest.mark.parametrize("name", list(PRESETS))
def test_T8_T14_generalised_table_equals_exact_keys(name: str) -> None:
    rng = random.Random(zlib.crc32(f"solver-table/{name}".encode()))
    bad = _differences_from_exact_keys(name, rng, PER_PRESET)
    assert not bad, f"{name}: {len(bad)} of {PER_PRESET} differ:\n" + "\n".join(bad[:3])


@pytest.mark.parametrize("name", ["tournament", "crowsnest", "dixie"])
def test_T13_table_shared_between_nest_points_equals_fresh(name: str) -> None:
    """T-13: the nest points go with the last trick, and an entry proven with
    other nest points still bounds the value (widened by the difference).
    One solver taking the same endings with nest points 0, 30, 10, 55, 5 in
    turn (so its table holds entries of every other amount) must answer as
    a fresh solver does for each."""
    rng = random.Random(zlib.crc32(f"solver-table-nest/{name}".encode()))
    shared = Solver(4 << 20)
    bad = []
    for _ in range(6):
        hand = _ending(name, rng)
        position = {
            "preset": name, "trump": "BGRY"[hand.trump], "leader": hand.leader,
            "trick": [str(c) for c in hand.trick], "hands": [hand.hand(s).names() for s in range(4)],
            "tricks": list(hand.tricks_won)}
        for nest_points in (0, 30, 10, 55, 5):
            p = dict(position, nest_points=nest_points)
            got, want = shared.solve(p), Solver(4 << 20).solve(p)
            if (got.value, got.move_values) != (want.value, want.move_values):
                bad.append(f"nest {nest_points}: {got.value} != {want.value}: {p}")
    assert not bad, "\n".join(bad[:3])


WIDE = [n for n, v in PRESETS.items() if 4 * v.hand_size > 36]


@pytest.mark.parametrize("name", WIDE)
def test_T8_T14_wide_quasi_symmetry_entries_equal_exact_keys(name: str) -> None:
    """A deal of more than 36 cards (``quasi.h``: ``DD_QS_NARROW_DEAL``; the
    cards dealt are counted from the position: in hands, in the trick, in
    the tricks taken) keeps its quasi-symmetry entries with 64-bit tag
    planes, so that positions of more than 32 cards in hands have them too.
    On endings of 9-10 tricks (33-40 cards in hands), the solver with them
    gives the value and every card's value of the exact-key search (no
    generalised or quasi-symmetric entries)."""
    rng = random.Random(zlib.crc32(f"solver-table-wide/{name}".encode()))
    bad = _differences_from_exact_keys(name, rng, 4, tricks=(9, 10))
    assert not bad, f"{name}: {len(bad)} differ:\n" + "\n".join(bad[:3])


def _point_variant(hand: HandState, rng: random.Random) -> dict | None:
    """The position of ``hand`` (FORMATS.md) with one card in a hand replaced
    by a card out of play of the same colour and the nearest rank but other
    points: a position of the same shape that differs in points, as the
    quasi-symmetry table pairs them; None when no card has such a partner."""
    variant = hand.variant
    in_play = set(hand.trick) | {c for s in range(4) for c in hand.hand(s)}
    out = [c for c in deck_cards(variant) if c not in in_play and not Card(c).is_bird]
    hands = [[int(c) for c in hand.hand(s)] for s in range(4)]
    swaps = []
    for seat in range(4):
        for c in hands[seat]:
            if Card(c).is_bird:
                continue
            partners = [o for o in out if Card(o).color == Card(c).color
                        and card_points(variant, [o]) != card_points(variant, [c])]
            if partners:
                o = min(partners, key=lambda o: abs(Card(o).rank - Card(c).rank))
                swaps.append((seat, c, o))
    if not swaps:
        return None
    seat, c, o = rng.choice(swaps)
    hands[seat] = [o if x == c else x for x in hands[seat]]
    return {"preset": variant.name, "trump": "BGRY"[hand.trump], "leader": hand.leader,
            "trick": [str(x) for x in hand.trick], "hands": [[str(Card(x)) for x in h] for h in hands],
            "tricks": list(hand.tricks_won), "nest_points": hand.nest_points}


@pytest.mark.parametrize("name", WIDE)
def test_T8_T14_point_variant_after_its_twin_equals_fresh(name: str) -> None:
    """One solver takes an ending of 9-10 tricks (more than 32 cards in
    hands: wide quasi-symmetry entries), then the same ending with one card
    swapped for a card of other points (``_point_variant``), whose positions
    its table answers through quasi-symmetric entries widened by the points
    that moved.  Its answer for the variant must be a fresh solver's."""
    rng = random.Random(zlib.crc32(f"solver-table-twin/{name}".encode()))
    bad = []
    checked = 0
    while checked < 6:
        hand = _ending(name, rng, tricks=rng.randint(9, 10))
        twin = _point_variant(hand, rng)
        if twin is None:
            continue
        shared = Solver(32 << 20, BUDGET)
        try:
            shared.solve(hand)
            got = shared.solve(twin)
            want = Solver(32 << 20, BUDGET).solve(twin)
        except BudgetExceeded:  # too long for a unit test: take another
            continue
        checked += 1
        if (got.value, got.move_values) != (want.value, want.move_values):
            bad.append(f"{got.value} {dict(got.move_values)} != {want.value} {dict(want.move_values)}: {twin}")
    assert not bad, f"{name}: {len(bad)} differ:\n" + "\n".join(bad[:3])


def test_keys_by_bit_extraction_equal_the_portable_keys() -> None:
    """Where the CPU extracts bits fast (BMI2), table keys are made by bit
    extraction (``table.h``, ``dd_key_make_pext``) and the cache of the last
    two tricks is keyed by the order of the eight cards within their suits
    (``endgame.c``); ``ROOK_NO_PEXT=1`` makes both the portable way (the
    cache then keyed by the cards themselves).  Both must give the same value
    and every card's value on endings of every preset."""
    rng = random.Random(zlib.crc32(b"solver-keys-pext"))
    positions = []
    for name in PRESETS:
        for _ in range(3):
            hand = _ending(name, rng)
            positions.append({
                "preset": name, "trump": "BGRY"[hand.trump], "leader": hand.leader,
                "trick": [str(c) for c in hand.trick], "hands": [hand.hand(s).names() for s in range(4)],
                "tricks": list(hand.tricks_won), "nest_points": hand.nest_points})
    script = (
        "import json, sys\n"
        "from rook_core.solver import Solver\n"
        "out = []\n"
        "for p in json.load(sys.stdin):\n"
        "    s = Solver(node_budget=2_000_000)\n"
        "    try:\n"
        "        r = s.solve(p)\n"
        "        out.append([r.value, sorted((str(c), v) for c, v in r.move_values.items())])\n"
        "    except Exception as e:\n"
        "        out.append(repr(e))\n"
        "print(json.dumps(out))\n")
    runs = []
    for no_pext in ("0", "1"):
        env = dict(os.environ, ROOK_NO_PEXT=no_pext)
        done = subprocess.run([sys.executable, "-c", script], input=json.dumps(positions), env=env,
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert sum(isinstance(r, list) for r in runs[0]) >= 2 * len(PRESETS)


def _huge_pages_mode() -> str:
    """The system's transparent huge pages mode (always, madvise, never), '' when unknown."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
    except OSError:
        return ""
    return text.split("[", 1)[1].split("]", 1)[0] if "[" in text else ""


@pytest.mark.skipif(not sys.platform.startswith("linux") or _huge_pages_mode() not in ("always", "madvise"),
                    reason="2 MiB pages are asked for on Linux with transparent huge pages on")
def test_a_big_table_lives_on_huge_pages_and_a_small_one_does_not() -> None:
    """On Linux a table of 4 MiB or more is mapped on its own and asks for
    2 MiB pages (``context.c``'s table_memory); a smaller one comes from
    calloc.  In a fresh process: a 64 MiB solver's full deal adds 2 MiB pages
    to the process, a 1 MiB solver's adds none (where the system gives them
    only to memory that asks, ``madvise`` mode), and both give the same
    value and move values.  ``ROOK_NO_HUGE_PAGES=1`` in the environment
    keeps a big table on 4 KiB pages, with the same answers."""
    script = (
        "import json\n"
        "from rook_core import HandState\n"
        "from rook_core.solver import Solver\n"
        "def huge():\n"
        "    with open('/proc/self/smaps_rollup') as f:\n"
        "        return next(int(l.split()[1]) for l in f if l.startswith('AnonHugePages:'))\n"
        "h = HandState.deal('tournament', seed=11)\n"
        "while h.phase.label != 'play':\n"
        "    h.apply(h.legal_actions()[-1])\n"
        "out = {}\n"
        "for mib in (1, 64):\n"
        "    before = huge()\n"
        "    s = Solver(mib << 20)\n"
        "    r = s.solve(h)\n"
        "    out[mib] = [huge() - before, r.value, sorted((str(c), v) for c, v in r.move_values.items())]\n"
        "    del s\n"
        "print(json.dumps(out))\n")
    runs = {}
    for no_huge in ("0", "1"):
        env = dict(os.environ, ROOK_NO_HUGE_PAGES=no_huge)
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        runs[no_huge] = json.loads(done.stdout)
    out = runs["0"]
    if _huge_pages_mode() == "madvise":
        assert out["1"][0] == 0, out
        assert runs["1"]["64"][0] == 0, runs   # ROOK_NO_HUGE_PAGES=1: 4 KiB pages
    assert out["64"][0] >= 2048, out   # kB: at least one 2 MiB page
    assert out["1"][1:] == out["64"][1:] == runs["1"]["64"][1:]
