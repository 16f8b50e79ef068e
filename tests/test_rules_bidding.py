"""Behaviour tests of the deal, the bidding and what follows it: RULES.md
T-1 .. T-7, T-20 .. T-22 and the section-4 bidding knobs
(stick_the_dealer, jump_bids, opener_must_bid).
"""

from __future__ import annotations

from collections import Counter

import pytest
from _support import finish_game_hand

from rook_core import PRESETS, CardSet, HandState, IllegalActionError, Phase, Variant
from rook_core.actions import BID, PASS, TRUMP
from rook_core.game import Game

TOURNAMENT_LIKE = ["tournament", "crowsnest", "crowsnest-100"]


def bids(lo: int, hi: int, step: int = 5) -> list[int]:
    return [BID + b for b in range(lo, hi + 1, step)]


def open_and_pass(h: HandState) -> None:
    """The first bidder opens at the minimum, everybody else passes."""
    while h.phase == Phase.BID:
        if h.high_bid == 0:
            h.bid(h.variant.min_bid)
        else:
            h.pass_bid()


def finish(h: HandState) -> None:
    """Play the hand to its end with the first legal action each time."""
    while not h.is_over:
        if h.phase == Phase.BID:
            open_and_pass(h)
        else:
            h.apply(h.legal_actions()[0])


# --------------------------------------------------------------------- T-1

def test_T1_first_dealer_defaults_to_seat_0() -> None:
    g = Game("tournament", seed=5)
    assert g.current.dealer == 0
    assert g.current.to_move == 1
    assert HandState.deal("partnership-57", seed=5).dealer == 0


def test_T1_first_dealer_is_a_parameter() -> None:
    v = Variant.from_preset("tournament", first_dealer=2)
    assert HandState.deal(v, seed=1).dealer == 2
    assert Game(v, seed=1).current.dealer == 2
    assert Game("tournament", seed=1, first_dealer=3).current.dealer == 3
    assert HandState.deal("tournament", seed=1, dealer=1).dealer == 1


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T1_deal_passes_left_after_every_played_hand(preset: str) -> None:
    g = Game(preset, seed=9, first_dealer=2)
    for k in range(5):
        assert g.current.dealer == (2 + k) % 4
        finish_game_hand(g)
        assert g.hands[k].phase == Phase.DONE
        if g.is_over:
            break
    assert g.hand_number >= 2


@pytest.mark.parametrize("preset", TOURNAMENT_LIKE)
def test_T1_thrown_in_hand_is_redealt_by_the_same_dealer(preset: str) -> None:
    g = Game(preset, seed=4, first_dealer=1)
    first = g.current
    for _ in range(4):
        g.apply(PASS)
    assert first.phase == Phase.THROWN_IN
    assert g.hand_number == 2
    assert g.current.dealer == 1  # same dealer (T-1, T-6)
    assert g.current.phase == Phase.BID and g.current.to_move == 2
    assert g.totals == (0, 0)
    # a new deal, not the same cards again
    assert any(g.current.hand(s) != first.hand(s) for s in range(4))
    # after the redeal is played the deal passes left
    finish_game_hand(g)
    assert g.current.dealer == 2


# --------------------------------------------------------------------- T-2

@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T2_deal_sizes(preset: str) -> None:
    v = PRESETS[preset]
    h = HandState.deal(preset, seed=123)
    for s in range(4):
        assert len(h.hand(s)) == v.hand_size
    assert len(h.nest) == v.nest_size
    assert h.dealt_nest == h.nest


def test_T2_seeded_deal_is_reproducible() -> None:
    a = HandState.deal("tournament", seed=77, dealer=3)
    b = HandState.deal("tournament", seed=77, dealer=3)
    assert a == b and a.raw_bytes() == b.raw_bytes()
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    others = [HandState.deal("tournament", seed=s, dealer=3) for s in range(78, 83)]
    assert any(o.hand(0) != a.hand(0) for o in others)


def test_T2_deal_distribution_is_even() -> None:
    # every card is equally likely in every place: over N deals each card
    # lands in the 5-card nest about 5/41 of the time and in each hand 9/41
    v = PRESETS["tournament"]
    n = 3000
    nest = Counter()
    seat0 = Counter()
    for seed in range(n):
        h = HandState.deal(v, seed=seed)
        nest.update(int(c) for c in h.nest)
        seat0.update(int(c) for c in h.hand(0))
    for c in CardSet(v.deck_mask):
        assert abs(nest[int(c)] / n - 5 / 41) < 0.045, str(c)
        assert abs(seat0[int(c)] / n - 9 / 41) < 0.06, str(c)


def test_T2_from_hands_checks_hand_sizes() -> None:
    hands = ["B5 B6 B7 B8 B9 B10 B11 B12",  # 8 cards
             "B13 B14 G5 G6 G7 G8 G9 G10 G11",
             "G12 G13 G14 R5 R6 R7 R8 R9 R10",
             "R11 R12 R13 R14 Y5 Y6 Y7 Y8 Y9"]
    with pytest.raises(Exception) as e:
        HandState.from_hands("tournament", hands, nest="Y10 Y11 Y12 Y13 Y14 Rook")
    assert "T-2" in str(e.value)


# --------------------------------------------------------------------- T-3

@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_T3_bidding_starts_left_of_dealer_and_goes_clockwise(dealer: int) -> None:
    h = HandState.deal("tournament", seed=2, dealer=dealer)
    assert h.to_move == (dealer + 1) % 4
    h.bid(70)
    assert h.to_move == (dealer + 2) % 4
    h.bid(75)
    assert h.to_move == (dealer + 3) % 4
    h.bid(80)
    assert h.to_move == dealer
    h.bid(85)
    assert h.to_move == (dealer + 1) % 4  # round after round
    assert h.bids() == [((dealer + 1) % 4, 70), ((dealer + 2) % 4, 75),
                        ((dealer + 3) % 4, 80), (dealer, 85)]


def test_T3_legal_bids_with_jump_bids() -> None:
    h = HandState.deal("tournament", seed=2)
    assert h.legal_actions() == [PASS] + bids(70, 120)
    h.bid(85)  # a jump opening is fine
    assert h.high_bid == 85
    assert h.legal_actions() == [PASS] + bids(90, 120)
    h.bid(110)
    assert h.legal_actions() == [PASS] + bids(115, 120)


def test_T3_crowsnest_100_max_bid_is_100() -> None:
    h = HandState.deal("crowsnest-100", seed=2)
    assert h.legal_actions() == [PASS] + bids(70, 100)


@pytest.mark.parametrize("amount, reason", [
    (65, "start at 70"), (72, "multiples of 5"), (125, "exceed 120"), (0, "1..1000"),
])
def test_T3_opening_bid_rules(amount: int, reason: str) -> None:
    h = HandState.deal("tournament", seed=2)
    with pytest.raises(IllegalActionError) as e:
        h.bid(amount)
    assert e.value.rule == "T-3" and reason in str(e.value)
    assert h.high_bid == 0 and h.to_move == 1


def test_T3_a_bid_must_be_higher_than_the_high_bid() -> None:
    h = HandState.deal("tournament", seed=2)
    h.bid(80)
    for amount in (70, 75, 80):
        with pytest.raises(IllegalActionError) as e:
            h.bid(amount)
        assert e.value.rule == "T-3" and "higher than the current 80" in str(e.value)
    h.bid(85)
    assert h.high_bid == 85 and h.declarer == 2  # the high bidder so far


def test_T3_no_jump_bids_raise_exactly_one_step_but_the_opening_bid_is_any_from_the_minimum() -> None:
    """T-3: the opening bid is at least min_bid; with jump_bids false each
    *raise* is one step (the opener must bid, T-6)."""
    v = PRESETS["partnership-57"]
    h = HandState.deal(v, seed=2)
    assert h.legal_actions() == [BID + b for b in range(v.min_bid, v.max_bid + 1, v.bid_step)]
    h.bid(70)
    assert h.legal_actions() == [PASS, BID + 75]
    with pytest.raises(IllegalActionError) as e:
        h.bid(80)
    assert e.value.rule == "T-3" and "jump" in str(e.value) and "75" in str(e.value)
    h.bid(75)
    assert h.legal_actions() == [PASS, BID + 80]
    h = HandState.deal(v, seed=2)
    h.bid(120)                                    # an opening above the minimum
    assert h.legal_actions() == [PASS, BID + 125]


def test_T3_no_bid_may_exceed_max_bid() -> None:
    h = HandState.deal("tournament", seed=2)
    h.bid(115)
    assert h.legal_actions() == [PASS, BID + 120]
    with pytest.raises(IllegalActionError) as e:
        h.bid(125)
    assert e.value.rule == "T-3" and "120" in str(e.value)


# --------------------------------------------------------------------- T-4

def test_T4_passing_is_final() -> None:
    h = HandState.deal("tournament", seed=3)  # dealer 0
    h.pass_bid()        # seat 1 passes
    h.bid(70)           # seat 2
    h.bid(75)           # seat 3
    h.bid(80)           # seat 0
    assert h.passed_seats == [1]
    assert h.to_move == 2  # seat 1 is skipped
    h.bid(85)           # seat 2
    assert h.to_move == 3
    h.pass_bid()        # seat 3
    assert h.to_move == 0
    h.bid(90)           # seat 0
    assert h.to_move == 2  # seats 1 and 3 skipped from now on
    with pytest.raises(IllegalActionError):
        h.bid(95, seat=1)
    with pytest.raises(IllegalActionError):
        h.bid(95, seat=3)
    assert h.passed_seats == [1, 3]
    assert h.phase == Phase.BID


def test_T4_passed_seat_never_gets_the_turn_again() -> None:
    h = HandState.deal("tournament", seed=3)
    h.pass_bid()        # 1
    h.pass_bid()        # 2
    h.bid(70)           # 3
    seen = []
    while h.phase == Phase.BID:
        seen.append(h.to_move)
        h.bid(h.high_bid + 5)
        if h.high_bid >= 100:
            break
    assert set(seen) == {0, 3}


# --------------------------------------------------------------------- T-5

def test_T5_bidding_ends_when_all_but_one_passed() -> None:
    h = HandState.deal("tournament", seed=3)
    h.bid(70)           # 1
    h.bid(80)           # 2
    h.pass_bid()        # 3
    assert h.phase == Phase.BID
    h.pass_bid()        # 0
    assert h.phase == Phase.BID
    h.pass_bid()        # 1 -> only seat 2 is left
    assert h.phase == Phase.NEST
    assert h.declarer == 2 and h.high_bid == 80
    assert h.to_move == 2


def test_T5_last_seat_bidding_after_three_passes_is_declarer_at_once() -> None:
    h = HandState.deal("tournament", seed=3)
    h.pass_bid()
    h.pass_bid()
    h.pass_bid()
    assert h.phase == Phase.BID and h.to_move == 0
    h.bid(70)
    assert h.phase == Phase.NEST
    assert h.declarer == 0 and h.high_bid == 70


def test_T5_max_bid_ends_bidding_at_once() -> None:
    h = HandState.deal("tournament", seed=3)
    h.bid(70)           # 1
    h.bid(120)          # 2: max bid, no one else may speak
    assert h.phase == Phase.NEST
    assert h.declarer == 2 and h.high_bid == 120
    assert h.passed_seats == []


def test_T5_max_bid_ends_bidding_without_jump_bids() -> None:
    h = HandState.deal("partnership-57", seed=3)
    amount = 70
    while h.phase == Phase.BID:
        h.bid(amount)
        amount += 5
    assert h.high_bid == 200
    # 70..200 is 27 bids by seats 1, 2, 3, 0, 1, ...: the 27th is seat 3
    assert len(h.bids()) == 27
    assert h.declarer == 3
    assert h.phase == Phase.TRUMP and h.to_move == 3


def test_T5_declarer_partner_is_on_the_same_team() -> None:
    h = HandState.deal("tournament", seed=3)
    h.pass_bid()
    h.bid(70)           # seat 2
    h.pass_bid()
    h.pass_bid()
    assert h.declarer == 2
    finish(h)
    # team 0 (seats 0 and 2) is scored as the declarer's team
    pts = h.points
    if pts[0] >= 70:
        assert h.score[0] == pts[0] and h.made is True
    else:
        assert h.score[0] == -70 and h.made is False
    assert h.score[1] == pts[1]


# --------------------------------------------------------------------- T-6

@pytest.mark.parametrize("preset", TOURNAMENT_LIKE)
def test_T6_all_pass_throws_the_hand_in(preset: str) -> None:
    h = HandState.deal(preset, seed=8, dealer=3)
    for seat in (0, 1, 2, 3):
        assert h.to_move == seat
        h.pass_bid()
    assert h.phase == Phase.THROWN_IN
    assert h.is_over and h.to_move is None and h.declarer is None
    assert h.legal_actions() == []
    assert h.score == (0, 0)
    with pytest.raises(IllegalActionError) as e:
        h.bid(70)
    assert e.value.rule == "T-14"


def test_T6_opener_must_bid_in_partnership_57() -> None:
    h = HandState.deal("partnership-57", seed=8)
    assert PASS not in h.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        h.pass_bid()
    assert e.value.rule == "T-6" and "opener must bid" in str(e.value)
    h.bid(70)
    # after the opening, passing is allowed
    assert PASS in h.legal_actions()
    h.pass_bid()
    h.pass_bid()
    h.pass_bid()
    assert h.phase == Phase.TRUMP and h.declarer == 1


# --------------------------------------------------------------------- T-7

def test_T7_order_nest_then_trump_in_tournament() -> None:
    for preset in TOURNAMENT_LIKE:
        v = PRESETS[preset]
        h = HandState.deal(preset, seed=4)
        h.pass_bid()
        h.bid(75)           # seat 2
        h.pass_bid()
        h.pass_bid()
        assert h.phase == Phase.NEST and h.to_move == 2
        with pytest.raises(IllegalActionError) as e:
            h.name_trump("R")
        assert e.value.rule == "T-7"
        h.discard(list(h.hand(2))[:v.nest_size])
        assert h.phase == Phase.TRUMP and h.to_move == 2
        assert h.legal_actions() == [TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3]
        h.name_trump("G")
        assert h.trump == 1
        assert h.phase == Phase.PLAY


def test_T7_order_trump_widow_pass_in_partnership_57() -> None:
    h = HandState.deal("partnership-57", seed=4)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    assert h.phase == Phase.TRUMP and h.to_move == 1
    assert len(h.hand(1)) == 14  # the widow is not taken yet
    h.name_trump("Y")
    assert h.trump == 3
    assert h.phase == Phase.NEST and h.to_move == 1
    assert len(h.hand(1)) == 15
    h.discard([list(h.hand(1))[0]])
    assert h.phase == Phase.PASS
    for _ in range(4):
        h.pass_cards(list(h.hand(h.to_move))[:3])
    assert h.phase == Phase.PLAY
    assert all(len(h.hand(s)) == 14 for s in range(4))


# --------------------------------------------------------------------- T-20

def test_T20_declarer_takes_the_whole_nest_and_discards_exactly_nest_size() -> None:
    h = HandState.deal("tournament", seed=21)
    nest = h.nest
    hand1 = h.hand(1)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    assert h.phase == Phase.NEST
    assert h.hand(1) == hand1 | nest
    assert len(h.hand(1)) == 14
    assert h.dealt_nest == nest
    assert h.legal_cards() == hand1 | nest  # any card may be discarded
    for wrong in (4, 6):
        with pytest.raises(IllegalActionError) as e:
            h.discard(list(h.hand(1))[:wrong])
        assert e.value.rule in ("T-20", "T-35")
        assert "exactly 5" in str(e.value)
    assert len(h.hand(1)) == 14


def test_T20_discarding_counters_and_the_bird_is_allowed() -> None:
    hands = ["B5 B10 B14 G5 G10 G14 R5 R10 R14",
             "Y5 Y10 Y14 B6 B7 B8 B9 B11 B12",
             "B13 G6 G7 G8 G9 G11 G12 G13 R6",
             "R7 R8 R9 R11 R12 R13 Y6 Y7 Y8"]
    h = HandState.from_hands("tournament", hands, nest="Y9 Y11 Y12 Y13 Rook", dealer=3)
    h.bid(70)           # seat 0
    for _ in range(3):
        h.pass_bid()
    assert h.declarer == 0
    h.discard("B5 B10 B14 G14 Rook")  # 5 + 10 + 10 + 10 + 20 = 55 points
    assert h.nest == CardSet.parse("B5 B10 B14 G14 Rook")
    assert h.nest_points == 55
    assert h.hand(0) == CardSet.parse("G5 G10 R5 R10 R14 Y9 Y11 Y12 Y13")
    assert h.dealt_nest == CardSet.parse("Y9 Y11 Y12 Y13 Rook")
    assert h.phase == Phase.TRUMP


def test_T20_discard_counters_false_forbids_counters_while_plain_cards_remain() -> None:
    v = Variant.from_preset("tournament", discard_counters=False)
    hands = ["B5 B10 B14 G5 G10 G14 R5 R10 R14",
             "Y5 Y10 Y14 B6 B7 B8 B9 B11 B12",
             "B13 G6 G7 G8 G9 G11 G12 G13 R6",
             "R7 R8 R9 R11 R12 R13 Y6 Y7 Y8"]
    h = HandState.from_hands(v, hands, nest="Y9 Y11 Y12 Y13 Rook", dealer=3)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    # seat 0 holds 14 cards; the plain ones: Y9 Y11 Y12 Y13 (4 < 5), so a
    # counter must go, and every card is allowed for the first discard
    assert h.legal_cards() == h.hand(0)
    with pytest.raises(IllegalActionError) as e:
        h.discard("B5 B10 B14 G14 Rook")
    assert e.value.rule == "T-20" and "counters" in str(e.value)
    h.discard("B5 Y9 Y11 Y12 Y13")
    assert h.nest_points == 5


# --------------------------------------------------------------------- T-21

def p57_hands() -> tuple[list[str], str]:
    cards = [f"{c}{r}" for c in "BGRY" for r in range(1, 15)] + ["Rook"]
    hands = [" ".join(cards[14 * s:14 * s + 14]) for s in range(4)]
    return hands, cards[56]


def test_T21_swap_one_takes_the_widow_and_puts_one_card_back() -> None:
    hands, widow = p57_hands()  # seat 1: G1..G14, widow: the Rook
    assert widow == "Rook"
    h = HandState.from_hands("partnership-57", hands, nest=[widow])
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.name_trump("G")
    assert h.phase == Phase.NEST and h.to_move == 1
    assert h.hand(1) == CardSet.parse(hands[1]) | CardSet.parse("Rook")
    with pytest.raises(IllegalActionError):
        h.discard("G2 G3")
    h.discard(["G2"])
    assert h.nest == CardSet.parse("G2")
    assert h.hand(1) == (CardSet.parse(hands[1]) - CardSet.parse("G2")) | CardSet.parse("Rook")
    assert h.nest_points == 0
    assert h.phase == Phase.PASS


def test_T21_swapping_back_the_same_widow_card() -> None:
    hands, widow = p57_hands()
    h = HandState.from_hands("partnership-57", hands, nest=[widow])
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.name_trump("R")
    h.discard(["Rook"])  # the widow goes straight back
    assert h.nest == CardSet.parse("Rook")
    assert h.hand(1) == CardSet.parse(hands[1])
    assert h.nest_points == 20
    assert h.phase == Phase.PASS


# --------------------------------------------------------------------- T-22

def p57_at_pass() -> HandState:
    """partnership-57 with p57_hands(): seat 1 declares at 70, names red, swaps the bird back."""
    hands, widow = p57_hands()
    h = HandState.from_hands("partnership-57", hands, nest=[widow], dealer=0)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.name_trump("R")
    h.discard(["Rook"])
    return h


def test_T22_every_player_passes_three_cards_to_the_right() -> None:
    h = p57_at_pass()
    assert h.phase == Phase.PASS
    passes = {1: "G1 G2 G3", 2: "R1 R2 R3", 3: "Y1 Y2 Y3", 0: "B1 B2 B3"}
    dealt = {s: h.hand(s) for s in range(4)}
    order = []
    while h.phase == Phase.PASS:
        s = h.to_move
        order.append(s)
        assert h.remaining == 3
        assert h.legal_cards() == h.hand(s)
        h.pass_cards(passes[s])
    assert order == [1, 2, 3, 0]  # starting left of the dealer, clockwise
    for s in range(4):
        gives = CardSet.parse(passes[s])
        gets = CardSet.parse(passes[(s + 1) % 4])  # from the player on the left
        assert h.hand(s) == (dealt[s] - gives) | gets
        assert h.passing(s) == gives
    # seat 0 now holds seat 1's G1 G2 G3
    assert CardSet.parse("G1 G2 G3") <= h.hand(0)
    assert h.phase == Phase.PLAY and h.to_move == 1


def test_T22_passing_is_simultaneous_received_cards_come_after_all_passed() -> None:
    h = p57_at_pass()
    h.pass_cards("G1 G2 G3")          # seat 1 -> seat 0
    h.pass_cards("R1 R2 R3")          # seat 2 -> seat 1
    h.pass_cards("Y1 Y2 Y3")          # seat 3 -> seat 2
    assert h.to_move == 0
    assert h.hand(0) == CardSet.parse(p57_hands()[0][0])  # nothing received yet
    assert "G1" not in h.hand(1) and "R1" not in h.hand(1)
    with pytest.raises(IllegalActionError) as e:
        h.pass_cards("G1 B1 B2")      # seat 0 cannot pass what it has not received
    assert e.value.rule == "T-22"
    with pytest.raises(IllegalActionError) as e:
        h.pass_cards("B1 B2")
    assert e.value.rule == "T-22" and "exactly 3" in str(e.value)
    h.pass_cards("B1 B2 B3")
    assert h.phase == Phase.PLAY


def test_T22_no_passing_in_tournament() -> None:
    h = HandState.deal("tournament", seed=1)
    open_and_pass(h)
    h.discard(list(h.hand(1))[:5])
    h.name_trump("B")
    assert h.phase == Phase.PLAY
    assert all(len(h.hand(s)) == 9 for s in range(4))


# ------------------------------------------------------- section 4 knobs

def test_section4_stick_the_dealer_kentucky_rook() -> None:
    h = HandState.deal("kentucky-rook", seed=5, dealer=2)
    assert h.legal_actions()[:2] == [PASS, BID + 100]
    h.pass_bid()        # 3
    h.pass_bid()        # 0
    h.pass_bid()        # 1
    assert h.to_move == 2
    assert PASS not in h.legal_actions()
    assert h.legal_actions()[0] == BID + 100
    with pytest.raises(IllegalActionError) as e:
        h.pass_bid()
    assert "dealer must bid" in str(e.value) and e.value.rule is not None
    assert h.phase == Phase.BID and h.to_move == 2
    h.bid(100)
    assert h.declarer == 2 and h.phase == Phase.NEST


def test_section4_stick_the_dealer_only_when_nobody_bid() -> None:
    v = Variant.from_preset("tournament", stick_the_dealer=True)
    h = HandState.deal(v, seed=5)
    h.bid(70)           # 1
    h.pass_bid()        # 2
    h.pass_bid()        # 3
    assert PASS in h.legal_actions()  # the dealer is not stuck: there is a bid
    h.pass_bid()        # 0
    assert h.declarer == 1


def test_section4_jump_bids_knob() -> None:
    no_jump = Variant.from_preset("tournament", jump_bids=False)
    h = HandState.deal(no_jump, seed=5)
    assert h.legal_actions() == [PASS] + [BID + b for b in range(70, 121, 5)]   # T-3: any opening bid
    h.bid(70)
    assert h.legal_actions() == [PASS, BID + 75]
    with pytest.raises(IllegalActionError) as e:
        h.bid(90)
    assert e.value.rule == "T-3"
    jump = Variant.from_preset("partnership-57", jump_bids=True)
    h = HandState.deal(jump, seed=5)
    h.bid(150)
    assert h.high_bid == 150


def test_section4_opener_must_bid_knob() -> None:
    v = Variant.from_preset("tournament", opener_must_bid=True)
    h = HandState.deal(v, seed=5)
    assert PASS not in h.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        h.pass_bid()
    assert e.value.rule == "T-6"
    h.bid(70)
    h.pass_bid()
    h.pass_bid()
    h.pass_bid()
    assert h.declarer == 1
    relaxed = Variant.from_preset("partnership-57", opener_must_bid=False)
    h = HandState.deal(relaxed, seed=5)
    for _ in range(4):
        h.pass_bid()
    assert h.phase == Phase.THROWN_IN
