"""The house rules H-1 .. H-5 and the preset ``house-180`` (RULES.md 4.1).

The engine's bidding, discard and scoring (src/rook/hand.c) are held to the
plain reference of :mod:`rook_core._reference.around_play` on random hands
of every preset and of variants that turn the house rules on one by one:
the legal calls at every turn (T-3 .. T-6, H-2), the legal discards at every
card (T-20, H-4: the reference derives them by trying every set of cards),
and the score of every played hand (T-30 .. T-32, H-1).  The exposed nest
(H-5), the order "nest, trump, discard" (H-3) and the checks of the
configuration have their own tests.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rook_core import HandState, IllegalActionError, Variant, VariantError
from rook_core._native import rules_for
from rook_core._native import sim as S
from rook_core._reference.around_play import Auction, discard_is_legal, discard_options, hand_score
from rook_core.actions import BID, PASS, TRUMP, Phase
from rook_core.bots.knowledge import Knowledge
from rook_core.bots.policy import VIEW
from rook_core.bots.worlds import sample_world
from rook_core.cards import CardSet
from rook_core.game import Game
from rook_core.nest import nest_decision
from rook_core.observation import Observation
from rook_core.solver import Solver
from rook_core.variant import PRESETS

HOUSE = PRESETS["house-180"]
# A small deck where every house rule shows up often: 2 cards each and a
# nest of 4, the 12s the only cards worth 0 (so the discard often runs
# short of them, and of trump counters too), 40 points that one team often
# takes alone.
TINY = Variant(name="tiny", ranks=(12, 13, 14), bird=False, bird_rank=None, bird_anytime=False,
               hand_size=2, nest_size=4, min_bid=10, bid_step=5, max_bid=30,
               dealer_takes_minimum=True, post_bid_order=("nest", "trump", "discard"),
               discard_counters=False, discard_trump_counters=True, exposed_nest=True,
               counters=((13, 5), (14, 5)), moon_score=100, target=200)
VARIANTS = dict(PRESETS) | {
    "tiny": TINY,
    "tournament+H-2": PRESETS["tournament"].replace(dealer_takes_minimum=True),
    "tournament+H-3+H-4": PRESETS["tournament"].replace(
        post_bid_order=("nest", "trump", "discard"), discard_counters=False, discard_trump_counters=True),
    "crowsnest+T-20": PRESETS["crowsnest"].replace(discard_counters=False),
    "kentucky-rook+H-1": PRESETS["kentucky-rook"].replace(moon_score=360),
}


def _ids(mask: int) -> list[int]:
    return [i for i in range(64) if mask >> i & 1]


def _call(action: int) -> int | None:
    return None if action == PASS else action - BID


def play_checked(v: Variant, seed: int, rng: random.Random) -> Counter[str]:
    """Play one random hand of ``v``, checking the engine against the
    reference at every bidding call and every discard, and the score at the
    end; return what happened (for the coverage checks)."""
    seen: Counter[str] = Counter()
    h = HandState.deal(v, seed=seed, dealer=rng.randrange(4))
    auction = Auction(v, h.dealer)
    while h.phase == Phase.BID:
        legal = h.legal_actions()
        assert [_call(a) for a in legal] == auction.legal(), auction.calls       # T-3 .. T-6
        assert h.to_move == auction.to_move
        a = PASS if PASS in legal and rng.random() < 0.7 else rng.choice(legal)
        h.apply(a)
        auction = auction.call(_call(a))
    assert auction.over
    assert (h.phase == Phase.THROWN_IN) == auction.thrown_in
    if auction.thrown_in:
        seen["thrown in"] += 1
        return seen
    assert (h.declarer, h.high_bid) == (auction.declarer, auction.high_bid)       # T-5, H-2
    if not any(b for _, b in auction.calls):
        seen["H-2"] += 1
    held: int | None = None
    while h.phase != Phase.DONE:
        if h.phase == Phase.NEST and v.nest_exchange == "discard":
            mine = h.hand_mask(h.declarer)
            if held is None:
                held = mine
            want = discard_options(v, _ids(mine), h.trump, h.remaining)
            assert set(_ids(h.legal_mask())) == want, (h.trump, h.remaining)    # T-20, H-4
        h.apply(rng.choice(h.legal_actions()))
    if held is not None:
        assert discard_is_legal(v, _ids(held), h.trump, _ids(h.nest_mask))
        if v.discard_trump_counters and any(v.card_points(c) for c in _ids(h.nest_mask)):
            seen["H-4 counters buried"] += 1
    assert h.score == hand_score(v, h.declarer, h.high_bid, h.points)                # T-30 .. T-32, H-1
    if v.moon_score and 0 in h.points:
        seen["H-1"] += 1
    return seen


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_T3_T6_T20_T30_H1_H2_H4_the_engine_equals_the_reference_on_random_hands(name: str) -> None:
    v = VARIANTS[name]
    rng = random.Random(name)
    hands = 200 if name == "tiny" else 12
    seen: Counter[str] = Counter()
    for _ in range(hands):
        seen += play_checked(v, rng.randrange(2**32), rng)
    if v.dealer_takes_minimum:
        assert seen["H-2"], seen         # the house rules really were exercised
    if name == "tiny":
        assert seen["H-1"] and seen["H-4 counters buried"], seen


def test_H1_the_moon_replaces_the_score_of_the_team_that_took_every_point() -> None:
    assert hand_score(HOUSE, 0, 150, (180, 0)) == (360, 0)       # the declarer's team shoots the moon
    assert hand_score(HOUSE, 1, 120, (180, 0)) == (360, -120)    # the defenders take it all: set, and 360
    assert hand_score(HOUSE, 0, 150, (140, 40)) == (-150, 40)    # set loses the bid (T-32)
    plain = PRESETS["kentucky-rook"]
    assert hand_score(plain, 0, 150, (180, 0)) == (180, 0)        # H-1 off: the points (T-31)


def test_H2_the_dealer_declares_at_the_minimum_after_three_passes() -> None:
    h = HandState.deal("house-180", seed=5, dealer=2)
    for _ in range(3):
        assert h.to_move != 2
        h.pass_bid()
    assert (h.declarer, h.high_bid, h.phase) == (2, 100, Phase.TRUMP)   # nothing for the dealer to decide
    assert h.bids() == [(3, None), (0, None), (1, None)]
    h2 = HandState.deal("house-180", seed=5, dealer=2)
    h2.pass_bid()
    h2.bid(105)
    h2.pass_bid()
    assert h2.to_move == 2 and PASS in h2.legal_actions()    # a bid was made: the dealer may pass
    h2.pass_bid()
    assert (h2.declarer, h2.high_bid) == (0, 105)


def test_H3_the_declarer_sees_the_nest_names_trump_then_discards() -> None:
    h = HandState.deal("house-180", seed=9, dealer=0)
    h.bid(120)
    for _ in range(3):
        h.pass_bid()
    d = h.declarer
    assert h.phase == Phase.TRUMP and h.to_move == d
    assert h.hand(d).mask == h.start_masks[1][d] | h.dealt_nest.mask     # the nest is in the hand
    assert h.observe(d).nest == h.dealt_nest.mask
    assert h.legal_actions() == [TRUMP + c for c in range(4)]
    h.name_trump("R")
    assert h.phase == Phase.NEST and h.remaining == 5
    zero = [c for c in _ids(h.hand_mask(d)) if HOUSE.card_points(c) == 0]
    h.discard(zero[-5:])
    assert h.phase == Phase.PLAY and h.to_move == d                      # the declarer leads
    assert all(len(h.hand(s)) == 13 for s in range(4))


def _house_at_discard(seed: int, trump: str) -> HandState:
    h = HandState.deal("house-180", seed=seed, dealer=3)
    for _ in range(3):
        h.pass_bid()
    h.name_trump(trump)
    return h


def test_H4_short_of_cards_worth_nothing_the_declarer_buries_trump_counters() -> None:
    # seat 3 takes the nest with one card worth 0 (Y13); red is trump
    hands = ["B2 B3 B4 B6 B7 B8 B9 B11 B12 B13 G2 G3 G4",
             "G6 G7 G8 G9 G11 G12 G13 R2 R3 R4 R6 R7 R8",
             "R9 R11 R12 R13 Y2 Y3 Y4 Y6 Y7 Y8 Y9 Y11 Y12",
             "Y13 B1 B5 B10 B14 G1 G5 G10 G14 R1 R5 R10 R14"]
    h = HandState.from_hands("house-180", hands, "Y1 Y5 Y10 Y14 Rook", dealer=3)
    for _ in range(3):
        h.pass_bid()
    h.name_trump("R")
    legal = set(CardSet(h.legal_mask()).names())
    assert legal == {"Y13", "R1", "R5", "R10", "R14", "Rook"}   # Y13, then 4 of the 5 trump counters
    before = (len(h), h.legal_actions())
    with pytest.raises(IllegalActionError) as e:
        h.discard("Y13 B1 R1 R5 R10")                           # B1 is no trump
    assert e.value.rule == "H-4" and "trump counters" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        h.discard("R1 R5 R10 R14 Rook")                         # keeps Y13, which must go first
    assert e.value.rule == "H-4"
    assert (len(h), h.legal_actions()) == before                  # refused: nothing changed
    h.discard("R14 Y13 Rook R1 R5")                              # any order of a legal set
    assert set(h.nest.names()) == {"R1", "R5", "R14", "Y13", "Rook"}
    assert h.phase == Phase.PLAY


def test_H4_with_enough_cards_worth_nothing_only_they_go() -> None:
    h = _house_at_discard(4, "B")
    mine = _ids(h.hand_mask(h.declarer))
    zero = {c for c in mine if HOUSE.card_points(c) == 0}
    assert len(zero) >= 5 and set(_ids(h.legal_mask())) == zero
    counter = next(c for c in mine if HOUSE.card_points(c))
    with pytest.raises(IllegalActionError) as e:
        h.apply(counter)                                          # a card in the nest phase is a discard
    assert e.value.rule == "H-4"


def test_H5_the_exposed_nest_is_seen_by_every_seat_once_the_bidding_ends() -> None:
    h = HandState.deal("house-180", seed=11, dealer=1)
    assert all(h.observe(s).nest is None for s in range(4))         # face down in the bidding
    h.bid(100)
    assert all(h.observe(s).nest is None and S.view_of(h, s)[VIEW.nest] == 0 for s in range(4))
    for _ in range(3):
        h.pass_bid()
    d = h.declarer
    for s in range(4):
        o = h.observe(s)
        assert o.nest == h.dealt_nest.mask                           # H-5
        assert (o.discarded is not None) == (s == d)                 # the discards stay the declarer's (T-15)
        assert Observation.from_json(o.to_json()) == o
        assert ("discarded" in o.to_json()) == (s == d)
    h.name_trump("G")
    h.discard(_ids(h.legal_mask())[:5])
    o = h.observe((d + 1) % 4)
    assert o.nest == h.dealt_nest.mask and o.discarded is None
    view = S.view_of(h, (d + 1) % 4)                                 # the native policies see it too
    assert np.uint64(view[VIEW.nest]) == h.dealt_nest.mask and view[VIEW.discarded] == 0
    plain = HandState.deal("tournament", seed=11)
    plain.bid(70)
    for _ in range(3):
        plain.pass_bid()
    assert [plain.observe(s).nest is None for s in range(4)] == [s != plain.declarer for s in range(4)]


def test_H4_H5_worlds_keep_the_exposed_nest_with_the_declarer_and_bury_no_forbidden_counter() -> None:
    h = _house_at_discard(12, "Y")
    d = h.declarer
    h.discard(_ids(h.legal_mask())[:5])
    seat = (d + 1) % 4
    k = Knowledge.from_observation(h.observe(seat))
    exposed = h.dealt_nest.mask
    assert k.exposed == exposed and k.cannot_hold((d + 2) % 4) & exposed == exposed
    assert k.cannot_hold(d) & exposed == 0
    rng = random.Random(3)
    forbidden = HOUSE.counters_mask & ~rules_for(HOUSE).trump_mask(3)    # H-4: no such counter is buried
    assert k.cannot_hold("nest") == forbidden
    places: Counter[object] = Counter()
    for _ in range(200):
        world = sample_world(k, rng)
        for holder, cards in world.items():
            if holder not in (d, "nest", seat):
                assert cards & exposed == 0
            places[holder] += (cards & exposed).bit_count()
        assert world["nest"] & forbidden == 0
    assert places[d] and places["nest"]         # both places really occur
    assert Knowledge.from_observation(plain_observation()).cannot_hold("nest") == 0


def plain_observation() -> Observation:
    h = HandState.deal("tournament", seed=2)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.discard(_ids(h.hand_mask(h.declarer))[:5])
    h.name_trump("B")
    return h.observe((h.declarer + 1) % 4)


def test_H3_H4_the_nest_decision_starts_at_trump_and_buries_only_legal_sets() -> None:
    """Under H-3 the decision is asked at trump: each trump with its best legal
    discard, equal to solving every legal discard (H-4) of every trump."""
    rng = random.Random(5)
    solver = Solver()
    for seed in range(6):
        h = HandState.deal(TINY, seed=seed, dealer=rng.randrange(4))
        for _ in range(3):
            h.pass_bid()
        assert h.phase == Phase.TRUMP
        decision = nest_decision(h)
        d = h.declarer
        for choice in decision.choices:
            state = h.clone()
            state.apply(TRUMP + choice.trump)
            mine = _ids(state.hand_mask(d))
            best = -1
            for buried in _sets(mine, TINY.nest_size):
                if not discard_is_legal(TINY, mine, choice.trump, buried):
                    continue
                s = state.clone()
                s.discard(buried)
                value = solver.value(s)
                points = value if d % 2 == 0 else TINY.total_points - value   # the nest goes to the last trick
                best = max(best, points)
            assert choice.points == best, (seed, choice)
            assert discard_is_legal(TINY, mine, choice.trump, _ids(choice.discard.mask))


def _sets(cards: list[int], k: int) -> list[list[int]]:
    from itertools import combinations
    return [list(c) for c in combinations(cards, k)]


def test_C4_T12_house_180_is_the_preset_of_section_4_1() -> None:
    v = HOUSE
    assert (v.deck_size, v.hand_size, v.nest_size, v.total_points) == (57, 13, 5, 180)
    assert (v.min_bid, v.max_bid, v.bid_step, v.jump_bids) == (100, 150, 5, True)
    h = HandState.from_hands(v, [["R1"] + [f"B{r}" for r in range(2, 14)],
                                 [f"G{r}" for r in range(1, 14)], [f"Y{r}" for r in range(1, 14)],
                                 ["Rook", "B1", "B14", "G14", "Y14"] + [f"R{r}" for r in range(2, 10)]],
                             ["R10", "R11", "R12", "R13", "R14"], dealer=0)
    assert v.card_points("R1") == 15 and v.card_points("Rook") == 20
    from rook_core._reference.tricks import trick_winner
    from rook_core.cards import parse_card
    assert trick_winner(v, [parse_card("R1"), parse_card("Rook")], trump=2) == 0   # the bird is the lowest trump
    assert trick_winner(v, [parse_card("B2"), parse_card("B1")], trump=2) == 0     # the 1 is the lowest card
    assert h.phase == Phase.BID


def test_T33_T34_house_180_games_play_to_the_target() -> None:
    rng = random.Random(8)
    g = Game("house-180", 8)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    played = [h for h in g.hands if h.phase == Phase.DONE]
    assert max(g.totals) >= 500 and len(played) > 1
    assert list(g.totals) == [sum(h.score[t] for h in played) for t in (0, 1)]


@pytest.mark.parametrize(("changes", "rule"), [
    ({"moon_score": -5}, "H-1"),
    ({"dealer_takes_minimum": True, "stick_the_dealer": True}, "H-2"),
    ({"post_bid_order": ("trump", "nest", "discard")}, "H-3"),
    ({"discard_counters": True}, "H-4"),
    ({"post_bid_order": ("nest", "trump"), "discard_trump_counters": True}, "H-4"),
    ({"exposed_nest": "yes"}, "exposed_nest"),
])
def test_H1_H5_a_configuration_that_breaks_a_house_rule_is_refused(changes: dict, rule: str) -> None:
    with pytest.raises(VariantError) as e:
        HOUSE.replace(**changes)
    assert rule in str(e.value)
    assert Variant.from_dict(HOUSE.to_dict()) == HOUSE.replace(name="house-180")


@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 3), st.integers(0, 400), st.integers(0, 400),
       st.integers(0, 400))
def test_T30_T32_H1_the_bots_scoring_is_the_engines_and_the_references(name: str, declarer: int, bid: int,
                                                                       p0: int, p1: int) -> None:
    """Rules.hand_score (what PIMC weighs cards by) is the engine's rook_hand_score, held to the reference."""
    v = VARIANTS[name].replace(moon_score=360) if name == "tournament" else VARIANTS[name]
    assert rules_for(v).hand_score(declarer, bid, (p0, p1)) == hand_score(v, declarer, bid, (p0, p1))
