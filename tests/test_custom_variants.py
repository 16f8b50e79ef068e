"""Custom rule sets: every ``Variant`` that validation accepts works everywhere.

Hypothesis draws whole rule sets (tests/_variants.py: every field within
and at the edges of its range, the draws ``Variant`` refuses counted and
thrown away) and checks, on each:

* a hand dealt and played at random to its end agrees with the plain
  reference at every step: the bidding calls (T-3 .. T-6, H-2), the discards
  (T-20, T-21, H-4), the cards passed (T-22), the legal cards and the points
  of the trick play (T-8 .. T-14), the score (T-30 .. T-32, H-1); every
  seat's observation can be taken (T-15) and the hand's JSON reads back;
* games between random and heuristic bots end or stop at their last hand,
  with totals that are the sum of the hands' scores (T-30 .. T-35) and a
  winner as T-34, H-6 and H-7 say; the game's JSON reads back;
* the double-dummy solver equals the reference minimax on late endings;
* ``simulate`` plays hands and games, the native loop equal to the Python one;
* the variant reads back from its dict and from JSON text.

The named cases after the properties are rule sets that validation once
accepted though some part of the engine could not play them, or refused
though RULES.md allows them.
"""

from __future__ import annotations

import json
import math
import os
import random
from typing import Any

import pytest
from _variants import DRAWN, variants
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parity import _play_out

from rook_core import HandState, Phase, Variant, VariantError
from rook_core._reference.around_play import Auction, discard_options, hand_score
from rook_core._reference.minimax import dd_move_values, dd_value
from rook_core._reference.tricks import RefPlay, card_points, play_card
from rook_core.actions import BID, PASS, TRUMP
from rook_core.bots.agents import act_for, make_agent
from rook_core.game import Game, game_winner
from rook_core.sim.simulate import simulate
from rook_core.solver import Solver
from rook_core.variant import PRESETS

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
# ROOK_PROPERTY_SCALE (e.g. 50) runs a deeper hunt with the same tests (as tests/_walks.py)
SCALE = float(os.environ.get("ROOK_PROPERTY_SCALE", "1"))
SETTINGS = settings(max_examples=max(1, round(60 * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example, HealthCheck.data_too_large])
FEW = settings(SETTINGS, max_examples=max(1, round(25 * SCALE)))
DISCARD_SETS = 20_000   # the reference's discard check tries every set of cards: only while that few


def _ids(mask: int) -> list[int]:
    return [i for i in range(64) if mask >> i & 1]


def _call(action: int) -> int | None:
    return None if action == PASS else action - BID


def _ref_play(h: HandState) -> RefPlay:
    """The reference's trick play from the first lead of ``h`` (T-8); the nest
    goes with the last trick there, as T-13 says, or stays out of the play."""
    v = h.variant
    assert h.trump is not None and h.leader is not None
    return RefPlay(v, h.trump, h.leader, [], [set(_ids(h.hand_mask(s))) for s in range(4)], [0, 0],
                   h.nest_points if v.nest_to == "last_trick" else 0)


def play_against_the_reference(v: Variant, rng: random.Random, seed: int, dealer: int) -> HandState:
    """Deal a hand of ``v`` and play it at random to its end, checking the
    engine against the reference at every step; return the finished hand."""
    h = HandState.deal(v, seed=seed, dealer=dealer)
    where = f"{v!r} seed={seed} dealer={dealer}"
    auction = Auction(v, dealer)
    while h.phase == Phase.BID:                                                   # T-3 .. T-6, H-2
        legal = h.legal_actions()
        assert [_call(a) for a in legal] == auction.legal() and h.to_move == auction.to_move, where
        a = PASS if PASS in legal and rng.random() < 0.6 else rng.choice(legal)
        h.apply(a)
        auction = auction.call(_call(a))
    assert auction.over and (h.phase == Phase.THROWN_IN) == auction.thrown_in, where
    if auction.thrown_in:
        assert h.points == (0, 0) and h.score == (0, 0) and h.declarer is None, where
        return h
    assert (h.declarer, h.high_bid) == (auction.declarer, auction.high_bid), where   # T-5, H-2
    ref: RefPlay | None = None
    while h.phase != Phase.DONE:
        legal_mask = h.legal_mask()
        seat = h.to_move
        assert seat is not None, where
        if h.phase == Phase.NEST:                                                 # T-20, T-21, H-4
            hand = _ids(h.hand_mask(seat))
            assert seat == h.declarer, where
            if v.discard_counters:
                assert _ids(legal_mask) == hand, where
            elif math.comb(len(hand), h.remaining) <= DISCARD_SETS:
                assert set(_ids(legal_mask)) == discard_options(v, hand, h.trump, h.remaining), where
        elif h.phase == Phase.PASS:                                               # T-22
            assert legal_mask == h.hand_mask(seat), where
        elif h.phase == Phase.TRUMP:                                              # T-7
            assert h.legal_actions() == [TRUMP + c for c in range(4)] and seat == h.declarer, where
        elif h.phase == Phase.PLAY:                                               # T-8 .. T-14
            if ref is None:
                ref = _ref_play(h)
            assert seat == ref.to_move and _ids(legal_mask) == sorted(ref.legal()), where
        a = rng.choice(h.legal_actions())
        h.apply(a)
        if ref is not None:
            ref = play_card(ref, a)
            if h.phase == Phase.PLAY:
                assert list(h.points) == ref.points, where
        for s in range(4):                                                        # T-15
            h.observe(s)
    assert ref is not None and ref.is_over, where
    points = list(ref.points)
    if v.nest_to == "declarer":                                                   # section 4
        assert h.declarer is not None
        points[h.declarer & 1] += card_points(v, _ids(h.nest_mask))
    assert list(h.points) == points and sum(h.points) == v.total_points, where    # T-12 .. T-14
    assert h.declarer is not None
    assert h.score == hand_score(v, h.declarer, h.high_bid, h.points), where       # T-30 .. T-32, H-1
    return h


# ------------------------------------------------------------------ properties
@SETTINGS
@given(v=variants(), seed=SEEDS, dealer=st.integers(0, 3), choices=st.randoms(use_true_random=False))
def test_T3_T22_T30_H1_H4_a_custom_hand_plays_as_the_reference_says(v: Variant, seed: int, dealer: int,
                                                                  choices: random.Random) -> None:
    """T-3 .. T-22, T-30 .. T-32, H-1 .. H-4: a random hand of a drawn rule set
    agrees with the reference at every step, and its JSON reads back (T-2)."""
    h = play_against_the_reference(v, choices, seed, dealer)
    back = HandState.from_json(json.loads(json.dumps(h.to_json())))
    assert back == h and back.variant == v and back.raw_bytes() == h.raw_bytes()


@FEW
@given(v=variants(), seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(["random", "heuristic"]),
                                                              min_size=4, max_size=4))
def test_T30_T35_H6_H7_custom_games_between_bots_end_with_consistent_totals(v: Variant, seed: int,
                                                                           kinds: list[str]) -> None:
    """T-1, T-6, T-30 .. T-35, H-6, H-7: a game between random and heuristic
    bots ends or stops at its last hand; its totals are the hands' scores and
    its winner is the one the rules name; its JSON reads back."""
    game = Game(v, seed)
    bots = [make_agent(kind, v, seed * 4 + i) for i, kind in enumerate(kinds)]
    while not game.is_over and game.hand_number <= 4:
        seat = game.to_move
        assert seat is not None
        game.apply(act_for(bots[seat], game.current, seat))
    assert game.totals == tuple(sum(h.score[t] for h in game.hands) for t in (0, 1))
    last = game.current
    if game.is_over:
        assert last.phase == Phase.DONE and max(game.totals) >= v.target                 # T-34
        assert game.winner == game_winner(v, game.totals, last.declarer)
    back = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert back == game and back.totals == game.totals


@FEW
@given(v=variants(), seed=SEEDS, choices=st.randoms(use_true_random=False), tricks_left=st.integers(1, 3))
def test_custom_solver_equals_the_reference_minimax_on_late_endings(v: Variant, seed: int,
                                                                    choices: random.Random,
                                                                    tricks_left: int) -> None:
    """T-8 .. T-14, section 4: the solver's value and card values of an ending
    of a drawn rule set are the exhaustive minimax's."""
    h = HandState.deal(v, seed=seed)
    while not h.is_over and (h.phase != Phase.PLAY or v.hand_size - sum(h.tricks_won) > tricks_left):
        h.apply(choices.choice(h.legal_actions()))
    if h.phase != Phase.PLAY:
        return
    result = Solver().solve(h)
    assert result.value == dd_value(h), repr(v)
    assert {int(c): x for c, x in result.move_values.items()} == dd_move_values(h), repr(v)


@FEW
@given(v=variants(), seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(["random", "heuristic"]),
                                                              min_size=4, max_size=4))
def test_custom_simulate_plays_hands_and_games_alike_natively_and_in_python(v: Variant, seed: int,
                                                                            kinds: list[str]) -> None:
    """T-1 .. T-35: simulate() plays hands and games of a drawn rule set, and
    the native loop gives the rows the Python one gives."""
    for run in ({"hands": 3}, {"games": 1, "max_hands": 3}):
        fast = simulate(v, kinds, seed=seed, **run)  # type: ignore[arg-type]
        slow = simulate(v, kinds, seed=seed, native=False, **run)  # type: ignore[arg-type]
        assert fast == slow and len(fast) >= 1, (repr(v), run)


@SETTINGS
@given(v=variants())
def test_custom_variant_reads_back_from_its_dict_and_json(v: Variant) -> None:
    """A drawn rule set reads back equal, with the same hash, from to_dict()
    and from that dict as JSON text (FORMATS.md: a whole variant)."""
    d = v.to_dict()
    for data in (d, json.loads(json.dumps(d))):
        back = Variant.from_dict(data, complete=True)
        assert back == v and hash(back) == hash(v) and back.to_dict() == d


def test_the_drawn_rule_sets_are_mostly_accepted() -> None:
    """The strategy's refusals are counted: most draws are rule sets that
    validation accepts, so the properties above see many."""
    drawn = DRAWN["drawn"]
    if drawn:   # (run alone, nothing was drawn)
        assert DRAWN["refused"] < drawn / 2, DRAWN.most_common(8)


@SETTINGS
@given(v=variants(), seed=st.integers(0, 2**32))
def test_T8_T14_a_custom_deal_position_plays_as_the_reference_says(v: Variant, seed: int) -> None:
    """T-8 .. T-14: a trick-play position of a drawn rule set, given as a
    whole variant (FORMATS.md), plays card by card as the reference does
    (tests/test_parity.py's play-out)."""
    bad: list[str] = []

    def check(ok: bool, message: str) -> None:
        if not ok:
            bad.append(message)

    _play_out(v, random.Random(seed), check)
    assert not bad, bad[:3]


# ------------------------------------------------ named rule sets at the limits
def _ending(v: Variant, seed: int, tricks_left: int = 2) -> HandState:
    """A hand of ``v`` played at random (from ``seed``) until ``tricks_left`` tricks are left."""
    rng = random.Random(seed)
    while True:
        h = HandState.deal(v, seed=seed)
        while not h.is_over and (h.phase != Phase.PLAY or v.hand_size - sum(h.tricks_won) > tricks_left):
            h.apply(rng.choice(h.legal_actions()))
        if h.phase == Phase.PLAY:
            return h
        seed += 1


def _solves_as_the_reference(v: Variant, seeds: range = range(4)) -> None:
    for seed in seeds:
        h = _ending(v, seed)
        assert Solver().solve(h).value == dd_value(h), (v, seed)


NINE_WORTHS = ((5, 1), (6, 2), (7, 3), (8, 4), (9, 5), (10, 6), (11, 7), (12, 8), (13, 9))


def test_T12_counters_of_more_worths_than_the_engine_keeps_are_refused_by_the_variant() -> None:
    """T-12: nine different worths were accepted, and then every deal of the
    variant failed (the native rules keep 8 groups of worths)."""
    with pytest.raises(VariantError, match=r"9 different worths.*at most 8 \(T-12\)"):
        Variant.from_preset("tournament", counters=NINE_WORTHS, max_bid=100)
    eight = Variant.from_preset("tournament", counters=NINE_WORTHS[:8], min_bid=5, max_bid=30)
    h = play_against_the_reference(eight, random.Random(1), seed=1, dealer=0)
    assert h.is_over
    _solves_as_the_reference(eight)


FULL_57 = PRESETS["partnership-57"]


def test_C3_T10_a_trump_suit_longer_than_the_solver_plays_is_refused_by_the_variant() -> None:
    """C-3, T-10: the full deck with two permanent trumps makes a trump suit
    of 17 cards (14, the bird, R1 and G1), which the solver refused to search
    (PositionError on every ending); a suit of 16 is still played and solved."""
    with pytest.raises(VariantError, match=r"B trump the trump suit holds 17 cards.*at most 16"):
        FULL_57.replace(permanent_trumps=("R1", "G1"))
    with pytest.raises(VariantError, match=r"trump suit holds 17 cards"):
        Variant(ranks=tuple(range(1, 15)), bird=False, bird_rank=None, bird_anytime=False, hand_size=14,
                nest_size=0, post_bid_order=("trump",), permanent_trumps=("R1", "G1", "Y1"),
                counters=((5, 5), (10, 10), (14, 10)), max_bid=100)
    sixteen = FULL_57.replace(permanent_trumps=("R1",))
    _solves_as_the_reference(sixteen)


def test_T14_a_hand_of_more_points_than_the_solver_counts_is_refused_by_the_variant() -> None:
    """T-14: a hand of 20,100 points (each 5 worth 5,000) was accepted though
    the solver counts at most 16,383 and refused every ending of it."""
    with pytest.raises(VariantError, match=r"a hand holds 20100 points.*at most 16383 \(T-14\)"):
        Variant.from_preset("tournament", counters=((5, 5000), (10, 10), (14, 10), ("Rook", 20)),
                            nest_to="declarer")
    most = Variant.from_preset("tournament", counters=((5, 4000), (10, 10), (14, 10), ("Rook", 20)),
                               nest_to="declarer", last_trick_bonus=283)
    assert most.total_points == 16_383
    _solves_as_the_reference(most)


@pytest.mark.parametrize(("changes", "fine"), [
    ({"last_trick_bonus": 1_100}, {"last_trick_bonus": 1_023, "nest_to": "declarer"}),
    ({"counters": ((5, 5), (10, 10), (14, 10), ("Rook", 2_000))}, {"nest_to": "declarer"}),
    # four 5s and a 10 buried: 1,210
    ({"counters": ((5, 300), (10, 10), (14, 10), ("Rook", 20))}, {"nest_to": "declarer"}),
])
def test_T13_points_of_the_last_trick_beyond_the_solver_are_refused_by_the_variant(
        changes: dict[str, Any], fine: dict[str, Any]) -> None:
    """T-13: the last trick brings the nest and last_trick_bonus, which the
    solver holds in 10 bits (at most 1,023); more was accepted, and every
    ending whose nest held that much was refused by the solver.  The same
    cards are fine when the nest goes to the declarer (section 4)."""
    with pytest.raises(VariantError, match=r"the last trick can bring .* at most 1023 \(T-13\)"):
        Variant.from_preset("tournament", **changes)
    _solves_as_the_reference(Variant.from_preset("tournament", **(changes | fine)))
