"""Misuse of the analysis features for people: the review (``rook_core.review``),
the analysis answers (``rook_core.analysis``), the nest decision
(``rook_core.nest``), the bid odds (``rook_core.odds``) and their studies
(``rook_core.sim.studies``).

Bad input gets a RookError naming what is wrong, never a bare TypeError or a
silently wrong answer, and no parameter makes one call's work unbounded.
(tests/test_analysis_misuse.py covers the checks made before these.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rook_core import HandState, RookError, Variant
from rook_core.actions import Phase
from rook_core.nest import best_looking_discards, discard_order, nest_decision, play_after

BASE: dict[str, Any] = dict(ranks=tuple(range(9, 15)), hand_size=5, nest_size=5,
                            counters=((10, 10), (14, 10), ("Rook", 20)), min_bid=20, max_bid=60, bid_step=5)
MINI = Variant(name="mini", **BASE)
# the declarer leads the first trick (section 4): a card past the discard would be its lead
LEADS_H3 = Variant(name="mini-leads-h3", **BASE, first_lead="declarer", post_bid_order=("nest", "trump", "discard"))
LEADS_TRUMP_FIRST = Variant(name="mini-leads-trump-first", **BASE, first_lead="declarer",
                            post_bid_order=("trump", "nest"))


def _at_decision(variant: Variant | str, seed: int = 1) -> HandState:
    """A hand of ``variant`` at the declarer's nest decision as :func:`nest_decision`
    takes it (the nest phase, or trump under H-3), the bidding at random."""
    rng = random.Random(seed)
    while True:
        h = HandState.deal(variant, seed)
        h3 = "discard" in h.variant.post_bid_order
        while not (h.phase == Phase.NEST or (h3 and h.phase == Phase.TRUMP)) and not h.is_over:
            h.apply(rng.choice(h.legal_actions()))
        if not h.is_over:
            return h
        seed += 1


# ------------------------------------------------------------------ nest

@pytest.mark.parametrize("variant", ["house-180", LEADS_H3, LEADS_TRUMP_FIRST, MINI])
def test_T20_play_after_refuses_a_discard_of_more_cards_than_are_due(variant: Variant | str) -> None:
    # one card more used to be played as the declarer's lead of the first
    # trick (T-8, section 4): a play position one card in, silently
    h = _at_decision(variant)
    before = h.to_json()
    trump, discard = best_looking_discards(h, 1)[0]
    rest = [int(c) for c in h.hand(h.seat_to_move()) if int(c) not in discard]
    for extra in rest:
        with pytest.raises(RookError, match="T-20"):
            play_after(h, trump, discard + (extra,))
    with pytest.raises(RookError, match="T-20"):
        play_after(h, trump, discard[:-1])
    assert h.to_json() == before
    assert play_after(h, trump, discard).phase == Phase.PLAY


@pytest.mark.parametrize("preset", ["tournament", "crowsnest-100", "kentucky-rook"])
def test_T20_discard_order_refuses_more_cards_than_are_still_to_bury(preset: str) -> None:
    # k = the nest size + 1 used to give thousands of "legal" discards of a
    # card more than may be buried, none of which play_after can play
    h = _at_decision(preset, 3)
    k = h.remaining
    with pytest.raises(RookError, match=f"k must be an int 0..{k}"):
        discard_order(h, 0, k + 1)
    assert discard_order(h, 0, k) and discard_order(h, 0, 0) == [()]


@pytest.mark.parametrize("tt_bytes", ["x", None, 1.5, -5, True, 2**45])
def test_nest_decision_under_a_time_limit_refuses_a_bad_table_size(tt_bytes: object) -> None:
    # with a time limit the size was compared before the solver read it:
    # "x" and None raised a bare TypeError, 2**45 was taken
    h = _at_decision(MINI)
    with pytest.raises(RookError, match="tt_bytes must be an int"):
        nest_decision(h, tt_bytes=tt_bytes, time_limit=0.5)  # type: ignore[arg-type]
