"""Hand-written checks of the pure-Python reference itself (RULES.md C-3,
C-4, T-9 .. T-14, section 4), so that the oracle of the parity and perft
tests is seen to follow the rule book, not merely to agree with the engine."""

from __future__ import annotations

import random

import pytest

from rook_core._reference.tricks import (
    RefPlay,
    card_points,
    card_value,
    deck_cards,
    legal_cards,
    perft,
    play_card,
    trick_winner,
    trump_order,
)
from rook_core.cards import card_name, parse_card, parse_color
from rook_core.variant import PRESETS, Variant

B, G, R, Y = 0, 1, 2, 3


def cards(text: str) -> list[int]:
    return [int(parse_card(t)) for t in text.split()]


def legal(preset: str | Variant, hand: str, trick: str, trump: str) -> set[str]:
    v = PRESETS[preset] if isinstance(preset, str) else preset
    return {card_name(c) for c in legal_cards(v, cards(hand), cards(trick), parse_color(trump))}


def winner(preset: str | Variant, trick: str, trump: str) -> str:
    v = PRESETS[preset] if isinstance(preset, str) else preset
    t = cards(trick)
    return card_name(t[trick_winner(v, t, parse_color(trump))])


# ------------------------------------------------------------------ T-9

@pytest.mark.parametrize("preset", list(PRESETS))
def test_T9_leader_may_lead_any_card(preset: str) -> None:
    v = PRESETS[preset]
    hand = sorted(deck_cards(v))[:5]
    assert legal_cards(v, hand, [], R) == set(hand)


def test_T9_must_follow_led_color() -> None:
    assert legal("partnership-57", "B5 B9 R5 G14", "B14", "R") == {"B5", "B9"}
    assert legal("crowsnest-100", "B5 B9 R5 G14", "B14", "R") == {"B5", "B9"}


def test_T9_bird_anytime_may_be_played_instead_of_following() -> None:
    assert legal("tournament", "B5 R5 Rook", "B14", "R") == {"B5", "Rook"}
    assert legal("crowsnest", "B5 R5 Rook", "B14", "R") == {"B5", "Rook"}
    # Without bird_anytime (source 000) the bird is a trump like any other.
    assert legal("partnership-57", "B5 R5 Rook", "B14", "R") == {"B5"}


def test_T9_void_plays_anything_without_must_trump() -> None:
    assert legal("tournament", "G5 R5 Y9", "B14", "R") == {"G5", "R5", "Y9"}


def test_T9_must_trump_in_partnership57() -> None:
    # Void in the led color and holding trump: a trump, any trump.
    assert legal("partnership-57", "G5 R2 R14 Y3", "B9", "R") == {"R2", "R14"}
    # The bird is a trump (T-10), so it alone must be played.
    assert legal("partnership-57", "G5 Y3 Rook", "B9", "R") == {"Rook"}
    assert legal("partnership-57", "G5 R7 Rook", "B9", "R") == {"R7", "Rook"}
    # No duty to beat a trump already played.
    assert legal("partnership-57", "G5 R2 R14", "B9 R13", "R") == {"R2", "R14"}
    # Void in both: any card.
    assert legal("partnership-57", "G5 Y3", "B9", "R") == {"G5", "Y3"}


# ----------------------------------------------------------------- T-10

@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest"])
def test_T10_bird_led_asks_for_trump(preset: str) -> None:
    assert legal(preset, "R5 B7 G9", "Rook", "R") == {"R5"}
    assert legal(preset, "R5 R9 B7 G9", "Rook G10", "R") == {"R5", "R9"}
    assert legal(preset, "B7 G9", "Rook", "R") == {"B7", "G9"}


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest"])
def test_T10_bird_as_only_trump_must_be_played_to_a_trump_lead(preset: str) -> None:
    assert legal(preset, "Rook B5 G7", "R9", "R") == {"Rook"}


def test_T10_bird_is_trump_not_the_led_color() -> None:
    # The bird belongs to the trump color: it does not follow a black lead,
    # so with black cards in hand (and no bird_anytime) it may not be played...
    v = Variant.from_preset("tournament", bird_anytime=False)
    assert legal(v, "Rook B5 G7", "B9", "R") == {"B5"}
    # ...and void in black the player may play anything (no must_trump).
    assert legal(v, "Rook G7", "B9", "R") == {"Rook", "G7"}


# ------------------------------------------------------------ C-4, T-11

def test_T11_highest_of_led_color_wins_off_colors_never() -> None:
    assert winner("tournament", "B5 B9 G14 Y14", "R") == "B9"
    assert winner("tournament", "B5", "R") == "B5"


def test_T11_any_trump_beats_the_led_color() -> None:
    assert winner("tournament", "B14 R5 B13", "R") == "R5"
    assert winner("tournament", "B14 R5 R6 B13", "R") == "R6"


@pytest.mark.parametrize("preset", ["partnership-57", "tournament"])
def test_C4_bird_high_beats_every_trump(preset: str) -> None:
    assert winner(preset, "R14 Rook", "R") == "Rook"
    assert winner(preset, "Rook R14", "R") == "Rook"


def test_C4_crowsnest_bird_is_the_lowest_trump() -> None:
    assert winner("crowsnest", "R5 Rook", "R") == "R5"
    assert winner("crowsnest", "Rook R5", "R") == "R5"
    # ... but still a trump, so it beats every card of another color.
    assert winner("crowsnest", "B14 Rook", "R") == "Rook"
    assert trump_order(PRESETS["crowsnest"], R)[0] == parse_card("Rook")


def test_C4_bird_rank_10_5_sits_between_the_trump_10_and_11() -> None:
    v = Variant.from_preset("tournament", bird_rank=10.5)
    assert winner(v, "R10 Rook", "R") == "Rook"
    assert winner(v, "R11 Rook", "R") == "R11"
    assert winner(v, "B14 Rook R9", "R") == "Rook"
    order = [card_name(c) for c in trump_order(v, R)]
    assert order[order.index("Rook") - 1] == "R10" and order[order.index("Rook") + 1] == "R11"


def test_C4_partnership57_ace_is_lowest() -> None:
    assert winner("partnership-57", "G14 G1", "R") == "G14"
    assert winner("partnership-57", "G1 G2", "R") == "G2"


@pytest.mark.parametrize("preset", ["buckeye", "kentucky-rook"])
def test_C4_one_high_ranks_the_1_above_the_14(preset: str) -> None:
    assert winner(preset, "G14 G1", "B") == "G1"
    assert winner(preset, "G1 G14", "B") == "G1"
    # As a trump the 1 is still below the bird (bird high).
    assert winner(preset, "G1 Rook", "G") == "Rook"
    assert winner(preset, "B14 G14 G1", "G") == "G1"


def test_section4_red_one_R1_is_always_trump_above_the_bird() -> None:
    v = "red-one"
    assert winner(v, "Rook R1", "B") == "R1"
    assert winner(v, "R1 Rook", "G") == "R1"
    assert winner(v, "B14 R1", "B") == "R1"
    assert winner(v, "R14 R1", "Y") == "R1"  # a trump, not a low red
    order = [card_name(c) for c in trump_order(PRESETS[v], Y)]
    assert order[-2:] == ["Rook", "R1"]


def test_section4_red_one_R1_follows_the_trump_color() -> None:
    v = "red-one"
    # A red lead with black trump: R1 is not red (T-10 applies to it).
    assert legal(v, "R1 R5", "R14", "B") == {"R5"}
    assert legal(v, "R1 G5", "R14", "B") == {"R1", "G5"}
    # A trump lead: the R1 is the player's only trump, so it must be played.
    assert legal(v, "R1 G5", "B5", "B") == {"R1"}
    # The R1 led asks for trump.
    assert legal(v, "B5 R9", "R1", "B") == {"B5"}
    # With red trump too the R1 is simply the top trump.
    assert legal(v, "R1 G5", "R5", "R") == {"R1"}


# ----------------------------------------------------------------- T-12

@pytest.mark.parametrize("preset, total", [
    ("partnership-57", 180), ("tournament", 120), ("crowsnest", 120), ("crowsnest-100", 100),
    ("kentucky-discard-original", 100), ("red-one", 150), ("buckeye", 180),
    ("kentucky-rook", 180), ("dixie", 100)])
def test_T12_deck_counter_points(preset: str, total: int) -> None:
    v = PRESETS[preset]
    assert card_points(v, deck_cards(v)) == total
    assert card_points(v, deck_cards(v)) + v.last_trick_bonus + v.most_tricks_bonus \
        == v.total_points


def test_T12_card_values() -> None:
    p57, t = PRESETS["partnership-57"], PRESETS["tournament"]
    assert [card_value(p57, c) for c in cards("B1 G5 R10 Y14 Rook B13 G2")] == [15, 5, 10, 10, 20, 0, 0]
    assert [card_value(t, c) for c in cards("B5 G10 R14 Rook B13 Y9")] == [5, 10, 10, 20, 0, 0]
    assert card_value(PRESETS["red-one"], parse_card("R1")) == 30
    assert card_value(PRESETS["dixie"], parse_card("G13")) == 10
    assert card_value(PRESETS["dixie"], parse_card("G14")) == 0
    with pytest.raises(ValueError, match="not in the deck"):
        card_value(t, parse_card("B1"))


# ---------------------------------------------------------- T-13, T-14

def test_T13_nest_and_last_trick_bonus_go_to_the_last_tricks_team() -> None:
    v = PRESETS["partnership-57"]
    # Seat 1 leads its R14 as trump and takes the last trick.
    state = RefPlay(v, R, 1, [], [set(cards("B2")), set(cards("R14")), set(cards("B5")),
                                  set(cards("G10"))], [40, 35], nest_points=15)
    for c in cards("R14 B5 G10 B2"):
        state = play_card(state, c)
    assert state.is_over and state.last_winner == 1
    assert state.points == [40, 35 + (10 + 5 + 10) + 15 + 20]  # R14 B5 G10, nest, bonus


def test_play_card_refuses_an_illegal_card_and_keeps_the_state() -> None:
    v = PRESETS["tournament"]
    state = RefPlay(v, R, 0, cards("B5"), [set(), set(cards("B9 R5")), set(cards("G5 Y5")),
                                           set(cards("G6 Y6"))])
    with pytest.raises(ValueError, match="T-9"):
        play_card(state, parse_card("R5"))
    assert state.hands[1] == set(cards("B9 R5")) and state.trick == cards("B5")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_T14_random_hands_share_the_variant_total(preset: str) -> None:
    v = PRESETS[preset]
    rng = random.Random(preset)
    for _ in range(20):
        deck = sorted(deck_cards(v))
        rng.shuffle(deck)
        n = v.hand_size
        state = RefPlay(v, rng.randrange(4), rng.randrange(4), [],
                        [set(deck[s * n:(s + 1) * n]) for s in range(4)], [0, 0],
                        card_points(v, deck[4 * n:]))
        while not state.is_over:
            state = play_card(state, rng.choice(sorted(state.legal())))
        # dixie's 13 tricks can never split evenly, so its bonus is always paid.
        assert sum(state.points) == v.total_points


# ------------------------------------------------------------ perft

def test_perft_counts_repeat_past_the_end_of_the_hand() -> None:
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["B5"], ["B6"], ["G7"], ["Rook"]]}
    assert perft(pos, 6) == [1, 1, 1, 1, 1, 1]
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["B5", "G5"], ["B6", "R6"], ["G7", "Y7"], ["Rook", "Y9"]]}
    # B5 led: seat 1 must follow B6, seats 2 and 3 (void) play either card;
    # G5 led: seat 1 (void) either, seat 2 must follow G7, seat 3 either.
    # The last trick is forced; counts then repeat past the end.
    assert perft(pos, 10) == [2, 1 + 2, 2 + 2, 4 + 4, 8, 8, 8, 8, 8, 8]
