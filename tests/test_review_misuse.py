"""Misuse of the analysis features for people: the review (``rook_core.review``),
the analysis answers (``rook_core.analysis``), the nest decision
(``rook_core.nest``), the bid odds (``rook_core.odds``) and their studies
(``rook_core.sim.studies``).

Bad input gets a RookError naming what is wrong, never a bare TypeError or a
silently wrong answer, and no parameter makes one call's work unbounded.
(tests/test_analysis_misuse.py covers the checks made before these.)
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from _support import MINI_FIELDS, played_to_end

from rook_core import HandState, RookError, Variant, odds
from rook_core.actions import Phase
from rook_core.analysis import review_answer, solve_answer
from rook_core.nest import best_looking_discards, discard_order, nest_decision, play_after
from rook_core.odds import bid_odds
from rook_core.review import played_hands, review_hand
from rook_core.sim.chunks import MOST_WORKERS
from rook_core.sim.studies import odds_many, review_many

BASE = MINI_FIELDS
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


# ------------------------------------------------------------------ odds

ODDS_HAND = ["B11", "G12", "Y12", "Y13", "Y14"]


@pytest.mark.parametrize("workers", [257, 10**6, 2**70])
def test_bid_odds_refuses_more_workers_than_rook_odds_takes(workers: int) -> None:
    # each worker keeps a solver's table (24 MiB) after the call: 1,000
    # workers used to take a gigabyte for 300 worlds
    with pytest.raises(RookError, match="workers must be an int 1 .. 256"):
        bid_odds(MINI, ODDS_HAND, worlds=1, trumps=(0,), workers=workers)
    assert odds.MOST_WORKERS == MOST_WORKERS      # the CLI's bound, kept a layer down


def test_bid_odds_deals_and_solves_a_bounded_number_of_positions_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # every world's four play positions used to be dealt before the first
    # search: about 3 GB for the 100,000 worlds it takes
    whole = bid_odds(MINI, ODDS_HAND, worlds=7, seed=2, trumps=(0, 2), node_budget=500)
    sizes: list[int] = []
    real = odds.solve_many

    def solve_many(positions: list[HandState], **kw: Any) -> Any:
        sizes.append(len(positions))
        return real(positions, **kw)
    monkeypatch.setattr(odds, "solve_many", solve_many)
    monkeypatch.setattr(odds, "POSITIONS_AT_ONCE", 4)
    seen: list[tuple[int, int]] = []
    parts = bid_odds(MINI, ODDS_HAND, worlds=7, seed=2, trumps=(0, 2), node_budget=500,
                     progress=lambda done, total: seen.append((done, total)))
    assert sizes == [4, 4, 4, 2]
    assert parts == whole and parts.to_json() == whole.to_json()
    assert seen == [(i, 14) for i in range(1, 15)]


@pytest.mark.parametrize("worlds", [0, "x", 1.5, True, None, 10**9])
def test_odds_many_refuses_a_bad_count_of_worlds_before_any_hand_is_drawn(worlds: object) -> None:
    # with no hand it answered [] silently; with hands it was found in the
    # first chunk, on the workers, after the pool had started
    with pytest.raises(RookError, match="worlds must be an int 1..100000"):
        odds_many("tournament", [], worlds=worlds)  # type: ignore[arg-type]


# ---------------------------------------------------------------- review

POSITION: dict[str, Any] = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
                            "hands": [["B6", "R5"], ["B7", "Rook"], ["B8", "R6"], ["B9", "G5"]]}



def test_T8_a_review_of_a_hand_from_a_position_says_it_has_no_declarer() -> None:
    # a position played to its end was called "thrown in before any card was
    # played (T-6)", one under way "not one in the play phase", and rook
    # analyse answered no review of its document at all
    h = HandState.from_position(POSITION)
    with pytest.raises(RookError, match="starts from a position"):
        review_hand(h)
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    with pytest.raises(RookError, match="starts from a position"):
        review_hand(h)
    with pytest.raises(RookError, match="starts from a position"):
        played_hands(h.to_json())
    with pytest.raises(RookError, match="starts from a position"):
        review_answer(0)(h.to_json())


@pytest.mark.parametrize("nest", ["yes", 1, None, "false"])
def test_review_hand_refuses_a_nest_that_is_no_bool(nest: object) -> None:
    # "false" used to ask for the nest review
    with pytest.raises(RookError, match="nest must be True or False"):
        review_hand(played_to_end(MINI), nest=nest)  # type: ignore[arg-type]


# -------------------------------------------------------------- analysis

@pytest.mark.parametrize("max_hands", ["x", -1, 1.5, True, None])
def test_review_answer_refuses_a_max_hands_that_is_no_count(max_hands: object) -> None:
    # "x" raised a bare TypeError; -1 refused every document, "at most -1"
    with pytest.raises(RookError, match="max_hands must be an int >= 0"):
        review_answer(1000, max_hands)(played_to_end(MINI).to_json())  # type: ignore[arg-type]


def test_review_answer_refuses_a_searching_that_is_no_function() -> None:
    with pytest.raises(RookError, match="searching must be a function"):     # was a bare TypeError
        review_answer(1000, searching=5)(played_to_end(MINI).to_json())  # type: ignore[arg-type]


@pytest.mark.parametrize("solver", ["x", 5, object()])
def test_solve_answer_refuses_a_solver_that_is_no_solver(solver: object) -> None:
    with pytest.raises(RookError, match="solver must be a rook_core.solver.Solver"):   # was AttributeError
        solve_answer(0, 0.0, solver=solver)(POSITION)  # type: ignore[arg-type]


def test_review_many_reads_a_document_of_bytes_as_played_hands_does() -> None:
    # played_hands reads JSON text as str or bytes; review_many refused bytes
    # as "not JSON data: Object of type bytes is not JSON serializable"
    text = json.dumps(played_to_end(MINI).to_json())
    assert review_many([text.encode()], node_budget=10_000) == review_many([text], node_budget=10_000)
    assert len(review_many([text.encode()], node_budget=10_000)[0]) == 1
    with pytest.raises(RookError, match="document 0 is not JSON data"):
        review_many([b"\xff\xfe"])
