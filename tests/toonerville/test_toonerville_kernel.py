"""The native Toonerville contract kernel against the brute-force reference
(TV-1, TV-2, TV-4, TV-5, TV-7, TV-12).

``rook_core.toonerville.solver`` (C kernel ``src/rook/contract/``) must give
exactly the reference's ``can_meet`` and ``deadwood``
(``rook_core._reference.contract``) on hands dealt from shoes of 3-5 full
decks (duplicates, up to five birds), on hands built to meet each round's
contract, with birds forced in, under several wild fractions (TV-5), by
Hypothesis, and on the vectors of ``tests/data/contract.jsonl``.  Its own
lay-down must be valid on its own terms: each meld a set or a run of the
kind the kernel says, the contract's sets then its runs first, all cards
from the hand, and the deadwood the points of what is left.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rook_core import _layout as L
from rook_core._native import contract as native
from rook_core._reference.contract import solve_contract as reference
from rook_core.errors import RookError
from rook_core.toonerville.contracts import CONTRACTS, Contract, contract_for
from rook_core.toonerville.hand import FULL_DECK, MultiHand
from rook_core.toonerville.melds import is_run, is_set
from rook_core.toonerville.solver import MAX_CARDS, MAX_COPIES, ContractResult, contract_deadwood_many, solve_contract

FRACTIONS = [0.5, 1 / 3, 2 / 3, 1.0]


# ------------------------------------------------------------------ helpers

def _num_den(fraction: float) -> tuple[int, int]:
    q = Fraction(fraction).limit_denominator(1000)
    return q.numerator, q.denominator


def _shoe_hand(rng: random.Random, size: int, birds: int = 0) -> MultiHand:
    """``size`` cards from a shoe of 3-5 full decks (TV-1), ``birds`` of them
    forced to be birds."""
    decks = rng.randint(3, 5)
    shoe = list(FULL_DECK) * decks
    if birds:
        shoe = [c for c in shoe if c != L.BIRD]
    return MultiHand(rng.sample(shoe, size - birds) + [L.BIRD] * birds)


def _built_hand(rng: random.Random, rnd: int, bird_chance: float = 0.3) -> MultiHand:
    """A hand holding round ``rnd``'s contract (TV-2), a bird in some of its
    melds, topped up from the deck to the round's deal size."""
    con = CONTRACTS[rnd]
    cards: list[int] = []
    for _ in range(con.sets):
        rank = rng.randint(1, 14)
        meld = [L.card_id(rng.randrange(4), rank) for _ in range(3)]
        if rng.random() < bird_chance:
            meld[0] = L.BIRD
        cards += meld
    for _ in range(con.runs):
        color, lo = rng.randrange(4), rng.randint(1, 11)
        meld = [L.card_id(color, r) for r in range(lo, lo + 4)]
        if rng.random() < bird_chance:
            meld[rng.randrange(4)] = L.BIRD
        cards += meld
    while len(cards) < con.dealt:
        cards.append(rng.choice(FULL_DECK))
    return MultiHand(cards)


def _check_layout(hand: MultiHand, con: Contract, fraction: float, deadwood: int,
                  melds: list[tuple[int, list[int]]]) -> None:
    """The kernel's lay-down: valid melds of the kinds it says (TV-4, TV-5),
    the contract's sets then runs first (TV-7), cards from the hand, and the
    deadwood the TV-12 points of the rest."""
    kinds = [k for k, _ in melds]
    for kind, cards in melds:
        assert (is_set(cards, fraction) if kind == 0 else is_run(cards, fraction)), (kind, cards)
    assert kinds[:con.sets] == [0] * con.sets, kinds
    assert kinds[con.sets:con.sets + con.runs] == [1] * con.runs, kinds
    used = MultiHand([c for _, cards in melds for c in cards])
    assert used <= hand
    assert (hand - used).points() == deadwood


def _assert_parity(hand: MultiHand, con: Contract, fraction: float = 0.5) -> ContractResult:
    """Native == reference on ``hand``; the lay-downs checked.  Returns the
    public API's result."""
    want = reference(hand, con, fraction)
    got = solve_contract(hand, con, fraction)
    assert (got.can_meet, got.deadwood) == (want.can_meet, want.deadwood), (hand, con, fraction)
    deadwood, melds = native.solve(hand.counts(), con.sets, con.runs, *_num_den(fraction))
    assert deadwood == (want.deadwood if want.can_meet else -1)
    if want.can_meet:
        _check_layout(hand, con, fraction, deadwood, melds)
        assert got.melds == [cards for _, cards in melds]
    else:
        assert got.melds == [] and melds == []
    return got


# ------------------------------------------------------ parity: random hands

@pytest.mark.parametrize("rnd", range(1, 12))
def test_TV2_TV4_TV5_native_matches_reference_on_random_hands(rnd: int) -> None:
    """Every round at its deal size (TV-2), from shoes of 3-5 decks (TV-1)."""
    rng = random.Random(1000 + rnd)
    con = CONTRACTS[rnd]
    for _ in range(40):
        _assert_parity(_shoe_hand(rng, con.dealt), con)


@pytest.mark.parametrize("rnd", range(1, 12))
def test_TV5_native_matches_reference_with_birds_forced_in(rnd: int) -> None:
    """One to five birds in the hand: the only wild resource (TV-5)."""
    rng = random.Random(2000 + rnd)
    con = CONTRACTS[rnd]
    for i in range(20):
        birds = 1 + i % 3 if con.dealt > 12 else 1 + i % 5
        _assert_parity(_shoe_hand(rng, con.dealt, birds), con)


@pytest.mark.parametrize("rnd", range(1, 12))
def test_TV2_TV7_native_matches_reference_on_hands_built_to_meet_the_contract(rnd: int) -> None:
    rng = random.Random(3000 + rnd)
    for _ in range(12):
        hand = _built_hand(rng, rnd)
        assert _assert_parity(hand, CONTRACTS[rnd]).can_meet, hand


@pytest.mark.parametrize("fraction", [1 / 3, 2 / 3, 1.0, 0.75, 0.34])
def test_TV5_native_matches_reference_under_other_wild_fractions(fraction: float) -> None:
    """The parameter ``max_wild_fraction`` (TV-5): fewer birds allowed (1/3)
    or more (2/3, 3/4, 1: a meld of one natural and three birds)."""
    rng = random.Random(int(fraction * 1000))
    for i in range(60):
        rnd = 1 + i % 8
        if i % 2:
            hand = _built_hand(rng, rnd, bird_chance=0.6)
        else:
            hand = _shoe_hand(rng, 12, birds=i % 4)
        _assert_parity(hand, CONTRACTS[rnd], fraction)


def _dense_hand(rng: random.Random, size: int) -> MultiHand:
    """Cards of one or two colors over a few ranks and some birds: many
    overlapping sets and runs, where the choices interact."""
    colors = rng.sample(range(4), rng.randint(1, 2))
    lo = rng.randint(1, 9)
    hi = min(14, lo + rng.randint(3, 6))
    deck = [L.card_id(c, r) for c in colors for r in range(lo, hi + 1)] * 3
    birds = rng.randint(0, 3)
    return MultiHand(rng.sample(deck, min(size - birds, len(deck))) + [L.BIRD] * birds)


@pytest.mark.parametrize("rnd", range(1, 9))
def test_TV4_TV5_TV12_native_matches_reference_on_dense_hands(rnd: int) -> None:
    """Runs of one color sharing ranks with sets, duplicates, birds that
    may stand in a gap whose natural goes to a set (TV-4, TV-5)."""
    rng = random.Random(4000 + rnd)
    for i in range(30):
        fraction = FRACTIONS[i % len(FRACTIONS)]
        _assert_parity(_dense_hand(rng, rng.randint(8, 12)), CONTRACTS[rnd], fraction)


def _hands_strategy() -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from(FULL_DECK), min_size=4, max_size=12).filter(
        lambda cards: max(Counter(cards).values()) <= MAX_COPIES)


@settings(max_examples=300, deadline=None)
@given(_hands_strategy(), st.integers(1, 8), st.sampled_from(FRACTIONS), st.integers(0, 3))
def test_TV4_TV5_TV7_TV12_native_matches_reference_hypothesis(cards: list[int], rnd: int,
                                                               fraction: float, birds: int) -> None:
    cards = cards[:12 - birds] + [L.BIRD] * birds
    assume(max(Counter(cards).values()) <= MAX_COPIES)
    _assert_parity(MultiHand(cards), CONTRACTS[rnd], fraction)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 14), min_size=3, max_size=10), st.integers(0, 3), st.integers(0, 2),
       st.integers(0, 2), st.sampled_from(FRACTIONS))
def test_TV4_TV5_native_matches_reference_on_one_color_with_sets_hypothesis(
        ranks: list[int], color: int, birds: int, runs: int, fraction: float) -> None:
    """Ranks of one color (runs) with copies in others (sets at the same
    ranks); any mix of sets and runs asked for."""
    cards = [L.card_id(color, r) for r in ranks] + [L.card_id((color + 1) % 4, r) for r in ranks[::3]]
    cards = cards[:12 - birds] + [L.BIRD] * birds
    assume(max(Counter(cards).values()) <= MAX_COPIES)
    _assert_parity(MultiHand(cards), Contract(0, 0, 2 - runs, runs), fraction)


def test_TV2_TV12_native_reproduces_the_contract_vectors() -> None:
    """tests/data/contract.jsonl (written by the reference): can_meet and
    deadwood equal; the native lay-downs are valid."""
    from _support import ROOT, read_jsonl
    records = read_jsonl(ROOT / "tests" / "data" / "contract.jsonl")
    assert len(records) >= 60
    for r in records:
        hand = MultiHand.parse(r["hand"])
        con = contract_for(r["contract"])
        res = solve_contract(hand, con)
        assert (res.can_meet, res.deadwood) == (r["can_meet"], r["deadwood"]), r["id"]
        deadwood, melds = native.solve(hand.counts(), con.sets, con.runs, 1, 2)
        if res.can_meet:
            _check_layout(hand, con, 0.5, deadwood, melds)


def test_TV7_a_contract_of_no_meld_is_the_least_deadwood_of_any_lay_down() -> None:
    rng = random.Random(7)
    for _ in range(40):
        hand = _shoe_hand(rng, rng.randint(3, 11), birds=rng.randint(0, 2))
        res = _assert_parity(hand, Contract(0, 0, 0, 0))
        assert res.can_meet


# ------------------------------------------------------------------- batch

def test_TV2_batch_equals_one_by_one_and_both_representations_agree() -> None:
    rng = random.Random(11)
    for rnd in range(1, 12):
        con = CONTRACTS[rnd]
        hands = [_shoe_hand(rng, con.dealt, birds=i % 3) for i in range(60)]
        hands += [_built_hand(rng, rnd) for _ in range(30)]
        counts = np.array([h.counts() for h in hands], dtype=np.uint8)
        met, deadwood = contract_deadwood_many(counts, rnd)
        assert met.dtype == np.bool_ and deadwood.dtype == np.int32
        one = [solve_contract(h, rnd) for h in hands]
        assert met.tolist() == [r.can_meet for r in one]
        assert deadwood.tolist() == [r.deadwood if r.can_meet else -1 for r in one]
        for rep in (native.REPR_PLANES, native.REPR_COUNTS):
            m2 = np.zeros(len(hands), np.uint8)
            d2 = np.zeros(len(hands), np.int32)
            native.solve_many(counts, con.sets, con.runs, 1, 2, m2, d2, rep)
            assert (m2.astype(bool) == met).all() and (d2 == deadwood).all()
    met, deadwood = contract_deadwood_many(np.zeros((0, 64), np.int64), 1)
    assert met.shape == deadwood.shape == (0,)
    met, deadwood = contract_deadwood_many([list(MultiHand.parse("B7 G7 R7 B9 B9 Y9").counts())],
                                           {"sets": 2, "runs": 0})
    assert met.tolist() == [True] and deadwood.tolist() == [0]


def test_TV1_TV5_richest_hands_within_the_limits_are_solved() -> None:
    """A whole color and all five birds (the most candidate runs a hand
    within the limits has), and other crowded hands: solved, lay-downs
    valid.  Too big for the reference; checked on their own terms."""
    whole = [L.card_id(2, r) for r in range(1, 15)] + [L.BIRD] * 5 + [L.card_id(0, r) for r in range(1, 6)]
    pairs = [L.card_id(1, r) for r in range(1, 10)] * 2 + [L.BIRD] * 5
    sets = [L.card_id(c, r) for r in (3, 4, 5, 6, 7, 8) for c in range(4)]
    for cards in (whole, pairs, sets):
        hand = MultiHand(cards)
        assert len(hand) <= MAX_CARDS
        for fraction in (0.5, 1.0):
            for con in (Contract(0, 0, 2, 2), Contract(0, 0, 0, 4), Contract(0, 0, 6, 0),
                        Contract(0, 0, 1, 3)):
                deadwood, melds = native.solve(hand.counts(), con.sets, con.runs, *_num_den(fraction))
                if deadwood >= 0:
                    _check_layout(hand, con, fraction, deadwood, melds)
    deadwood, melds = native.solve(MultiHand(whole).counts(), 0, 2, 1, 2)
    assert deadwood == 0                                   # runs take every card, birds as pads


# ---------------------------------------------------------- examples by rule

@pytest.mark.parametrize("cards,contract,fraction,deadwood", [
    ("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook", 1, 0.5, 5),   # the bird joins a set, R7 the run
    ("R3 R4 R5 R6 R7 R8 R9 R10", 3, 0.5, 0),                # two runs of one color (TV-4)
    ("R3 R4 R5 R6 R7 R8 R9", 3, 0.5, None),
    ("B2 B3 Rook B5 G7 G7 G7", 2, 0.5, 0),                  # a bird in a gap (TV-5)
    ("B2 Rook Rook B5 G7 G7 G7", 2, 0.5, None),             # two birds of four
    ("B2 Rook Rook B5 G7 G7 G7", 2, 0.6, 0),                # ... allowed at 3/5
    ("R3 R4 R5 R6 G5 Y5 Rook", 2, 0.5, 0),                  # bird for R5 in the run, R5 to the set
    ("R11 R12 R13 R14 Rook", {"sets": 0, "runs": 1}, 0.5, 0),   # the bird goes below, at 10
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 Rook", {"sets": 0, "runs": 1}, 0.5, 0),
    ("B14 G14 R14 Y14 Y14 Y14", {"sets": 2, "runs": 0}, 0.5, 0),   # two sets of one rank
    ("B5 Rook Rook Rook", {"sets": 1, "runs": 0}, 1.0, 0),  # fraction 1: one natural is enough
    ("Rook Rook Rook Rook", {"sets": 1, "runs": 0}, 1.0, None),
])
def test_TV4_TV5_TV12_examples(cards: str, contract, fraction: float, deadwood) -> None:
    hand = MultiHand.parse(cards)
    res = _assert_parity(hand, contract_for(contract), fraction)
    assert res.deadwood == deadwood and res.can_meet is (deadwood is not None)


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("fraction,message", [
    (0, r"\(0, 1\]"), (1.5, r"\(0, 1\]"), (-0.5, r"\(0, 1\]"), (float("nan"), "max_wild_fraction"),
    (True, "max_wild_fraction"), ("1/2", "max_wild_fraction"),
])
def test_TV5_bad_wild_fractions_are_refused(fraction, message) -> None:
    hand = MultiHand.parse("B7 G7 R7")
    with pytest.raises(RookError, match=message):
        solve_contract(hand, 1, fraction)
    with pytest.raises(RookError, match=message):
        contract_deadwood_many([hand.counts()], 1, fraction)


def test_TV1_bad_hands_are_refused_naming_what_is_wrong() -> None:
    six = MultiHand.parse(["B7"] * 6)
    with pytest.raises(RookError, match="6 copies of B7"):
        solve_contract(six, 1)
    big = MultiHand([L.card_id(c, r) for c in range(4) for r in range(1, 8)])     # 28 cards
    with pytest.raises(RookError, match=f"28 cards.*at most {MAX_CARDS}"):
        solve_contract(big, 1)
    with pytest.raises(RookError, match="MultiHand"):
        solve_contract(["B7", "G7", "R7"], 1)  # type: ignore[arg-type]
    with pytest.raises(RookError, match="1..11"):
        solve_contract(MultiHand(), 12)
    good = np.array([MultiHand.parse("B7 G7 R7").counts()] * 3, dtype=np.int64)
    bad = good.copy()
    bad[2, 16] = 1                                        # id 16: no card there
    with pytest.raises(RookError, match="hand 2: card id 16 is not in the full-57 deck"):
        contract_deadwood_many(bad, 1)
    bad = good.copy()
    bad[1, 7] = 9
    with pytest.raises(RookError, match="hand 1: count 9 of card id 7"):
        contract_deadwood_many(bad, 1)
    bad = good.copy()
    bad[0, 7] = -1
    with pytest.raises(RookError, match="hand 0: count -1"):
        contract_deadwood_many(bad, 1)
    with pytest.raises(RookError, match="hand 1: 6 copies of B7"):
        contract_deadwood_many(np.array([good[0], six.counts()], dtype=np.uint8), 1)
    with pytest.raises(RookError, match="shape"):
        contract_deadwood_many(np.zeros((2, 63), np.uint8), 1)
    with pytest.raises(RookError, match="integers"):
        contract_deadwood_many(np.zeros((2, 64), np.float64), 1)
    with pytest.raises(RookError, match="sets"):
        native.solve(good[0].tolist(), 9, 0, 1, 2)
    with pytest.raises(RookError, match="wild fraction"):
        native.solve(good[0].tolist(), 1, 0, 3, 2)
