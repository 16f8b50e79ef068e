"""Toonerville hands, melds and contracts (RULES.md section 3: TV-1, TV-2, TV-4, TV-5, TV-12).

Sets and runs are checked by name per rule, and against a brute force that
tries every way to give the birds a rank (Hypothesis).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rook_core import _layout as L
from rook_core.cards import parse_card
from rook_core.errors import NotationError, RookError
from rook_core.toonerville.contracts import CONTRACTS, contract_for
from rook_core.toonerville.hand import FULL_DECK, MultiHand, card_points
from rook_core.toonerville.melds import arrange_meld, is_run, is_set, meld_kind, run_ranks

# ------------------------------------------------------------------ TV-4

@pytest.mark.parametrize("cards,ok", [
    (["B7", "G7", "R7"], True),
    (["B7", "B7", "B7"], True),                 # duplicates: several decks (TV-1)
    (["B7", "G7"], False),                      # too short
    (["B7", "G7", "R8"], False),
    (["B7", "G7", "R7", "Y7", "Y7", "B7"], True),
])
def test_TV4_sets(cards, ok) -> None:
    assert is_set(cards) is ok


@pytest.mark.parametrize("cards,ok", [
    (["R3", "R4", "R5", "R6"], True),
    (["R6", "R4", "R3", "R5"], True),           # any order
    (["R3", "R4", "R5"], False),                # too short
    (["R3", "R4", "R5", "G6"], False),          # one color
    (["R3", "R4", "R4", "R5"], False),          # one card per rank
    (["R11", "R12", "R13", "R14"], True),
    (["R13", "R14", "R1", "R2"], False),        # ranks do not wrap
    (["R1", "R2", "R3", "R4"], True),
    ([f"Y{r}" for r in range(1, 15)], True),
])
def test_TV4_runs(cards, ok) -> None:
    assert is_run(cards) is ok


# ------------------------------------------------------------------ TV-5

@pytest.mark.parametrize("cards,kind", [
    (["B7", "G7", "Rook"], "set"),
    (["B7", "Rook", "Rook"], None),             # as many birds as naturals
    (["B7", "G7", "Rook", "Rook"], None),
    (["B7", "G7", "R7", "Rook", "Rook"], "set"),
    (["R3", "Rook", "R5", "R6"], "run"),        # the bird fills a gap
    (["R3", "R4", "R5", "Rook"], "run"),        # or an end
    (["R3", "Rook", "Rook", "R6"], None),       # two birds of four
    (["R12", "R13", "R14", "Rook"], "run"),     # the bird goes below: 11
    (["Rook", "Rook", "Rook"], None),
])
def test_TV5_the_bird_is_wild_but_never_half(cards, kind) -> None:
    assert meld_kind(cards) == kind


def test_TV5_max_wild_fraction_is_a_parameter() -> None:
    assert not is_set(["B7", "Rook", "Rook"])
    assert is_set(["B7", "Rook", "Rook"], max_wild_fraction=0.7)
    assert is_run(["R3", "Rook", "Rook", "R6"], max_wild_fraction=0.6)
    with pytest.raises(RookError, match="max_wild_fraction"):
        is_set(["B7", "G7", "R7"], max_wild_fraction=0)


def test_TV4_TV5_run_ranks_place_the_birds() -> None:
    assert run_ranks(["R3", "Rook", "R5", "R6"]) == (3, 6)
    assert run_ranks(["R12", "R13", "R14", "Rook"]) == (11, 14)
    assert run_ranks(["R3", "R4", "R5", "Rook"]) == (3, 6)
    assert run_ranks(["R3", "R4"]) is None


def _brute_run(cards: list[int], fraction: float) -> bool:
    """A run exists iff some start rank and length take every natural once and
    the birds fill the rest (TV-4, TV-5)."""
    n = len(cards)
    naturals = [c for c in cards if c != L.BIRD]
    birds = n - len(naturals)
    if n < 4 or not naturals or not birds < fraction * n:
        return False
    for color in range(4):
        for lo in range(1, 15 - n + 1):
            need = {L.card_id(color, r) for r in range(lo, lo + n)}
            if sorted(naturals) == sorted(set(naturals)) and set(naturals) <= need:
                return True
    return False


def _brute_set(cards: list[int], fraction: float) -> bool:
    n = len(cards)
    naturals = [c for c in cards if c != L.BIRD]
    return (n >= 3 and bool(naturals) and n - len(naturals) < fraction * n
            and len({L.rank_of(c) for c in naturals}) == 1)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=0, max_size=9), st.sampled_from([0.5, 0.34, 0.75]),
       st.integers(0, 3), st.integers(1, 14), st.integers(0, 3))
def test_TV4_TV5_melds_equal_a_brute_force(cards, fraction, color, start, birds) -> None:
    run_like = [L.card_id(color, r) for r in range(start, min(15, start + len(cards)))] + [L.BIRD] * birds
    for hand in (cards, run_like, cards[:3] + [L.BIRD] * birds):
        assert is_run(hand, fraction) == _brute_run(hand, fraction), hand
        assert is_set(hand, fraction) == _brute_set(hand, fraction), hand


# ------------------------------------------------------------ TV-1, TV-12

def test_TV1_multiset_hands_and_TV12_points() -> None:
    h = MultiHand.parse("B5 B5 Rook Y14 G10 R9")
    assert len(h) == 6 and h.count("B5") == 2
    assert h.points() == 5 + 5 + 25 + 10 + 10 + 5
    assert [card_points(c) for c in (L.card_id(0, 1), L.card_id(0, 9), L.card_id(0, 10), L.BIRD)] == [5, 5, 10, 25]
    assert h - MultiHand.parse(["B5", "Rook"]) == MultiHand.parse("B5 Y14 G10 R9")
    assert MultiHand.parse(["B5"]) <= h and not MultiHand.parse(["B5"] * 3) <= h
    with pytest.raises(ValueError, match="B6"):
        h - MultiHand.parse(["B6"])
    with pytest.raises(NotationError, match="Q3"):
        MultiHand.parse(["Q3"])
    assert len(FULL_DECK) == 57


# ------------------------------------------------------------------ TV-2

def test_TV2_eleven_contracts() -> None:
    assert [(c.dealt, c.sets, c.runs) for c in CONTRACTS.values()] == [
        (12, 2, 0), (12, 1, 1), (12, 0, 2), (12, 3, 0), (12, 2, 1), (12, 1, 2),
        (12, 4, 0), (12, 0, 3), (15, 5, 0), (16, 0, 4), (14, 2, 2)]
    assert [c.discard_out for c in CONTRACTS.values()] == [True] * 10 + [False]   # TV-10
    assert contract_for({"sets": 2, "runs": 1}).round == 0


@pytest.mark.parametrize("spec,message", [
    (0, "1..11"), (12, "1..11"), ({"sets": 0, "runs": 0}, "at least one"),
    ({"sets": -1}, "sets"), ({"sets": 1, "melds": 2}, "only 'sets' and 'runs'"), ("5", "round 1..11"),
])
def test_TV2_bad_contracts_are_refused(spec, message) -> None:
    with pytest.raises(RookError, match=message):
        contract_for(spec)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["B3", "B4", "B5", "B6", "G4", "G5", "R4", "Y4", "B4", "Rook"]),
                min_size=3, max_size=8).filter(lambda cs: max(map(cs.count, cs)) <= 5),   # TV-1: 5 decks at most
       st.sampled_from([0.5, 1 / 3, 1.0]))
def test_TV4_TV5_candidate_melds_are_every_meld_in_the_hand(cards: list[str], fraction: float) -> None:
    """candidate_melds lists exactly the sub-multisets of the hand that are melds."""
    from itertools import combinations

    from rook_core.toonerville.melds import candidate_melds
    ids = sorted(int(parse_card(c)) for c in cards)
    counts = [0] * 64
    for c in ids:
        counts[c] += 1
    listed = {(k, tuple(sorted(m))) for k, m in candidate_melds(counts, fraction)}
    for k, m in candidate_melds(counts, fraction):
        if not (is_set(m, fraction) and is_run(m, fraction)):           # both only above one half
            assert arrange_meld(m, fraction) == (k, m)                   # valid, and in table order
    every = {(kind, sub) for n in range(3, len(ids) + 1) for sub in set(combinations(ids, n))
             for kind, test in (("set", is_set), ("run", is_run)) if test(sub, fraction)}
    assert listed == every


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["B3", "B4", "B5", "B6", "B7", "B9", "B14", "G4", "G5", "G6", "R4", "Y4",
                                 "Y13", "Y14", "Rook"]), min_size=4, max_size=14),
       st.sampled_from([0.5, 1 / 3, 2 / 3, 1.0]))
def test_TV4_TV5_candidate_melds_equal_the_reference_enumeration(cards: list[str], fraction: float) -> None:
    """The product's meld generator and the reference's enumeration by the rules' words
    (rook_core._reference.contract, which shares no code with it) list the same melds."""
    from fractions import Fraction

    from rook_core._reference.contract import candidate_melds as reference
    from rook_core.toonerville.melds import candidate_melds
    counts = [0] * 64
    for c in cards:
        counts[int(parse_card(c))] = min(5, counts[int(parse_card(c))] + 1)
    fr = Fraction(fraction).limit_denominator(1000)
    listed = set()
    for kind, meld in candidate_melds(counts, fr):
        vec = [0] * 64
        for c in meld:
            vec[c] += 1
        listed.add((kind, tuple(vec)))
    assert listed == set(reference(tuple(counts), fr))
