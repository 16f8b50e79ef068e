"""Behaviour tests of RULES.md section 1 (C-1 .. C-4), the card and action
notation of FORMATS.md, the preset table 2.4 and Variant validation.

Every test is named after the rule it checks; expected values are written
out by hand from RULES.md, not computed by the engine.
"""

from __future__ import annotations

import dataclasses

import pytest

from rook_core import (
    BIRD,
    PRESETS,
    SEED_PRESETS,
    Card,
    CardSet,
    HandState,
    NotationError,
    Variant,
    VariantError,
    card_name,
    parse_action,
    parse_card,
    parse_cards,
    rules_for,
)
from rook_core.actions import BID, PASS, PENALTY, TRUMP, action_name

COLORS = "BGRY"


def ids(text: str) -> list[int]:
    return [int(parse_card(t)) for t in text.split()]


def winner(variant: Variant | str, trick: str, trump: str) -> str:
    """The winning card of ``trick`` (led card first) by the native kernel (T-11)."""
    v = PRESETS[variant] if isinstance(variant, str) else variant
    cards = ids(trick)
    return card_name(cards[rules_for(v).trick_winner(cards, COLORS.index(trump))])


# --------------------------------------------------------------------- C-1

def test_C1_four_colors_ranks_1_to_14_and_card_ids() -> None:
    # color c in 0..3 = B, G, R, Y; rank r -> id 16c + r
    for c, letter in enumerate(COLORS):
        for r in range(1, 15):
            card = parse_card(f"{letter}{r}")
            assert int(card) == 16 * c + r
            assert card.color == c and card.rank == r
            assert str(card) == f"{letter}{r}"
            assert Card.of(c, r) == card
    assert int(parse_card("B1")) == 1
    assert int(parse_card("G5")) == 21
    assert int(parse_card("R14")) == 46
    assert int(parse_card("Y10")) == 58


@pytest.mark.parametrize("bad", ["R0", "R15", "X5", "B", "14", "", "R 14", "Rook14", "G-5", "Y1.0"])
def test_C1_unknown_card_text_raises_notation_error_quoting_it(bad: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)
    assert e.value.text == bad


def test_C1_card_of_rejects_bad_color_or_rank() -> None:
    with pytest.raises(NotationError):
        Card.of(4, 5)
    with pytest.raises(NotationError):
        Card.of(0, 15)
    with pytest.raises(NotationError):
        Card.of(0, 0)


# --------------------------------------------------------------------- C-2

def test_C2_bird_is_rook_and_crow_is_an_alias() -> None:
    rook = parse_card("Rook")
    assert int(rook) == BIRD == 15
    assert parse_card("Crow") == rook
    assert parse_card("crow") == rook and parse_card("ROOK") == rook
    assert str(rook) == "Rook"  # output spelling is always Rook
    assert rook.is_bird and rook.color is None and rook.rank is None
    assert card_name(15) == "Rook"


def test_C2_notation_is_case_insensitive_on_input_exact_on_output() -> None:
    assert str(parse_card("r14")) == "R14"
    assert str(parse_card(" g5 ")) == "G5"
    assert str(parse_card("y10")) == "Y10"
    s = CardSet.parse("crow b1 R14 g5")
    assert str(s) == "B1 G5 R14 Rook"
    assert s.names() == ["B1", "G5", "R14", "Rook"]
    assert "Crow" in s and "r14" in s and "R13" not in s


def test_C2_parse_cards_mask_and_repeated_card_error_names_text() -> None:
    assert parse_cards("B5 R14 Rook") == (1 << 5) | (1 << 46) | (1 << 15)
    assert parse_cards(["B5", "r14"]) == (1 << 5) | (1 << 46)
    assert parse_cards("B5, R14") == (1 << 5) | (1 << 46)
    with pytest.raises(NotationError) as e:
        parse_cards("R14 B5 r14")
    assert "'r14'" in str(e.value) and "twice" in str(e.value)
    with pytest.raises(NotationError) as e:
        parse_cards("Rook Crow")
    assert "'Crow'" in str(e.value)
    with pytest.raises(NotationError) as e:
        parse_cards("B5 Q7")
    assert "'Q7'" in str(e.value)


def test_C2_card_set_operations() -> None:
    a = CardSet.parse("B5 B10 G14")
    b = CardSet.parse("B10 Rook")
    assert str(a | b) == "B5 B10 G14 Rook"
    assert str(a & b) == "B10"
    assert str(a - b) == "B5 G14"
    assert len(a | b) == 4
    assert CardSet.parse("G14 B10 B5") == a


# --------------------------------------------------------------------- C-3

def deck_text(v: Variant) -> set[str]:
    return set(CardSet(v.deck_mask).names())


def test_C3_full_57_deck() -> None:
    v = PRESETS["partnership-57"]
    expected = {f"{c}{r}" for c in COLORS for r in range(1, 15)} | {"Rook"}
    assert len(expected) == 57
    assert deck_text(v) == expected
    assert v.deck_size == 57


@pytest.mark.parametrize("preset", ["tournament", "crowsnest"])
def test_C3_tournament_41_deck(preset: str) -> None:
    v = PRESETS[preset]
    expected = {f"{c}{r}" for c in COLORS for r in range(5, 15)} | {"Rook"}
    assert len(expected) == 41
    assert deck_text(v) == expected
    assert v.deck_size == 41


def test_C3_tournament_40_deck_has_no_bird() -> None:
    v = PRESETS["crowsnest-100"]
    expected = {f"{c}{r}" for c in COLORS for r in range(5, 15)}
    assert deck_text(v) == expected
    assert v.deck_size == 40
    assert "Rook" not in CardSet(v.deck_mask)


def test_C3_cards_outside_the_deck_are_refused_naming_the_card() -> None:
    v = PRESETS["tournament"]
    with pytest.raises(NotationError) as e:
        parse_cards("B5 B4", deck_mask=v.deck_mask)
    assert "'B4'" in str(e.value)
    with pytest.raises(NotationError) as e:
        parse_cards("Rook", deck_mask=PRESETS["crowsnest-100"].deck_mask)
    assert "'Rook'" in str(e.value)


def test_C3_from_hands_refuses_a_card_outside_the_deck() -> None:
    hands = [
        "B1 B5 B6 B7 B8 B9 B10 B11 B12",  # B1 is not in tournament-41
        "B13 B14 G5 G6 G7 G8 G9 G10 G11",
        "G12 G13 G14 R5 R6 R7 R8 R9 R10",
        "R11 R12 R13 R14 Y5 Y6 Y7 Y8 Y9",
    ]
    with pytest.raises(NotationError) as e:
        HandState.from_hands("tournament", hands, nest="Y10 Y11 Y12 Y13 Y14")
    assert "'B1'" in str(e.value)


def test_C3_deal_uses_exactly_the_deck() -> None:
    for name in SEED_PRESETS:
        v = PRESETS[name]
        h = HandState.deal(name, seed=11)
        union = 0
        for s in range(4):
            m = h.hand(s).mask
            assert union & m == 0
            union |= m
        assert union & h.nest.mask == 0
        assert union | h.nest.mask == v.deck_mask


def test_C3_T2_a_permanent_trump_among_the_ranks_is_one_card_of_the_deck() -> None:
    # R5 is in the ranks 5-14 already: making it a permanent trump adds no
    # card, so the deck holds 41 cards and 9 each leave a nest of 5, not 6.
    base = PRESETS["red-one"]
    changes = dict(permanent_trumps=("R5",), counters=((5, 5), (10, 10), (14, 10), ("Rook", 20)), max_bid=120)
    with pytest.raises(VariantError, match="T-2"):
        base.replace(**changes)                       # a nest of 6 (red-one's) no longer fits
    v = base.replace(nest_size=5, **changes)
    assert v.deck_size == len(CardSet(v.deck_mask)) == 41
    h = HandState.deal(v, seed=1)
    assert [len(h.hand(s)) for s in range(4)] == [9] * 4 and len(h.nest) == 5
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    h.discard(list(h.hand(h.declarer))[:5])
    h.name_trump("G")
    assert [len(h.hand(s)) for s in range(4)] == [9] * 4


# --------------------------------------------------------------------- C-4

def test_C4_rank_order_14_high_down_to_lowest() -> None:
    # no trump played: the highest card of the led color wins
    assert winner("tournament", "B5 B14 B13 B6", "R") == "B14"
    assert winner("tournament", "B5 B6 B7 B8", "R") == "B8"
    assert winner("tournament", "B9 B10 B12 B11", "R") == "B12"
    assert winner("partnership-57", "B1 B2 B3 B4", "R") == "B4"


def test_C4_one_is_lowest_without_one_high() -> None:
    # source 000: the 14 is highest, the ace lowest
    assert winner("partnership-57", "G1 G2 G3 G4", "R") == "G4"
    assert winner("partnership-57", "G14 G1 G13 G2", "R") == "G14"
    assert winner("partnership-57", "R2 R1 B3 B4", "R") == "R2"


def test_C4_one_high_ranks_the_1_above_the_14() -> None:
    v = PRESETS["buckeye"]
    assert v.one_high
    assert winner(v, "G14 G1 G13 G5", "R") == "G1"
    assert winner(v, "R14 B1 R1 R13", "R") == "R1"
    custom = Variant.from_preset("partnership-57", one_high=True)
    assert winner(custom, "G1 G14 G2 G3", "R") == "G1"


def test_C4_bird_rank_high() -> None:
    # tournament, partnership-57: the bird is above every trump
    for name in ("tournament", "partnership-57"):
        assert winner(name, "R14 Rook R13 R5", "R") == "Rook"
        assert winner(name, "Rook R14 R13 R12", "R") == "Rook"
        assert winner(name, "B14 Rook R14 B13", "R") == "Rook"


def test_C4_bird_rank_low() -> None:
    # crowsnest: the bird is below every trump, but still a trump
    assert winner("crowsnest", "R5 Rook R6 R7", "R") == "R7"
    assert winner("crowsnest", "Rook R5 B14 G14", "R") == "R5"
    assert winner("crowsnest", "B14 Rook B13 G14", "R") == "Rook"


def test_C4_bird_rank_half() -> None:
    # 10.5: above the trump 10, below the trump 11
    v = Variant.from_preset("tournament", bird_rank=10.5)
    assert winner(v, "R10 Rook R9 R5", "R") == "Rook"
    assert winner(v, "R10 Rook R11 R5", "R") == "R11"
    assert winner(v, "Rook R10 R9 R8", "R") == "Rook"
    assert winner(v, "Rook R12 R10 R5", "R") == "R12"
    assert winner(v, "B14 Rook B13 B12", "Y") == "Rook"  # still a trump
    low = Variant.from_preset("tournament", bird_rank=5.5)
    assert winner(low, "R5 Rook B14 G14", "R") == "Rook"
    assert winner(low, "R6 Rook B14 G14", "R") == "R6"


@pytest.mark.parametrize("bad", [10.25, 4.5, 14.5, 10, "middle", True, float("nan"), None])
def test_C4_bad_bird_rank_is_a_variant_error(bad: object) -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("tournament", bird_rank=bad)
    assert "bird_rank" in str(e.value)


def test_C4_bird_rank_without_bird_is_a_variant_error() -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("crowsnest-100", bird_rank="high")
    assert "bird" in str(e.value)


# ----------------------------------------------------------- action notation

def test_notation_action_text_forms() -> None:
    assert parse_action("pass") == PASS == 64
    assert parse_action("bid 70") == BID + 70 == 142
    assert parse_action("70") == 142
    assert parse_action("BID 75") == 147
    assert parse_action("trump R") == TRUMP + 2 == 67
    assert parse_action("trump Yellow") == 68
    assert parse_action("trump b") == 65
    assert parse_action("penalty 1") == PENALTY + 1 == 70
    assert parse_action("r14") == 46
    assert parse_action("Crow") == 15
    assert action_name(142) == "bid 70"
    assert action_name(67) == "trump R"
    assert action_name(64) == "pass"
    assert action_name(15) == "Rook"
    assert action_name(69) == "penalty 0"


@pytest.mark.parametrize("bad", ["bid", "bid x", "trump Q", "penalty 2", "R15", "fold", "bid -5"])
def test_notation_bad_action_text_raises_notation_error_quoting_it(bad: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_action(bad)
    # FORMATS.md: the error names the offending text as it was written -- the
    # whole action, or at least the bad token in its original spelling
    bad_token = bad.split()[-1]
    assert repr(bad) in str(e.value) or repr(bad_token) in str(e.value)


def test_notation_apply_text_refuses_unreadable_text_and_changes_nothing() -> None:
    h = HandState.deal("tournament", seed=3)
    before = h.raw_bytes()
    with pytest.raises(NotationError) as e:
        h.apply_text("bid seventy")
    assert "'bid seventy'" in str(e.value)
    assert h.raw_bytes() == before and h.history == []


# ----------------------------------------------------------- preset table 2.4

COUNTERS_57 = {1: 15, 5: 5, 10: 10, 14: 10}
COUNTERS_41 = {5: 5, 10: 10, 14: 10}


def expected_points(v: Variant, table: dict[int, int], bird: int | None) -> None:
    for c in COLORS:
        for r in v.ranks:
            assert v.card_points(f"{c}{r}") == table.get(r, 0), f"{c}{r}"
    if bird is not None:
        assert v.card_points("Rook") == bird


# RULES.md table 2.4, one column per seed preset.
PRESET_TABLE = {
    "partnership-57": dict(deck=57, sizes=(14, 1), bids=(70, 5, 200), jump_bids=False,
                           opener_must_bid=True, order=("trump", "nest", "pass"),
                           nest_exchange="swap_one", pass_cards=3, must_trump=True,
                           bird=("high", False), counters=COUNTERS_57, bird_points=20,
                           last_trick_bonus=20, total=200, scoring=("points", "points", 500)),
    "tournament": dict(deck=41, sizes=(9, 5), bids=(70, 5, 120), jump_bids=True,
                       opener_must_bid=False, order=("nest", "trump"), nest_exchange="discard",
                       pass_cards=0, must_trump=False, bird=("high", True), counters=COUNTERS_41,
                       bird_points=20, last_trick_bonus=0, total=120,
                       scoring=("points", "bid", 300)),
    "crowsnest": dict(deck=41, sizes=(9, 5), bids=(70, 5, 120), jump_bids=True,
                      opener_must_bid=False, order=("nest", "trump"), nest_exchange="discard",
                      pass_cards=0, must_trump=False, bird=("low", True), counters=COUNTERS_41,
                      bird_points=20, last_trick_bonus=0, total=120, scoring=("bid", "bid", 300)),
    "crowsnest-100": dict(deck=40, sizes=(9, 4), bids=(70, 5, 100), jump_bids=True,
                          opener_must_bid=False, order=("nest", "trump"), nest_exchange="discard",
                          pass_cards=0, must_trump=False, bird=(None, False), counters=COUNTERS_41,
                          bird_points=None, last_trick_bonus=0, total=100,
                          scoring=("bid", "bid", 300)),
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets_table_2_4(name: str) -> None:
    """Every row of RULES.md table 2.4 for each seed preset (C-3, T-2, T-3, T-6, T-7,
    T-9, T-12, T-13, T-20..T-22, T-31..T-33)."""
    want = PRESET_TABLE[name]
    v = PRESETS[name]
    assert len(CardSet(v.deck_mask)) == v.deck_size == want["deck"]
    assert (v.hand_size, v.nest_size) == want["sizes"]
    assert (v.min_bid, v.bid_step, v.max_bid) == want["bids"]
    assert (v.jump_bids, v.opener_must_bid) == (want["jump_bids"], want["opener_must_bid"])
    assert v.post_bid_order == want["order"]
    assert (v.nest_exchange, v.pass_cards) == (want["nest_exchange"], want["pass_cards"])
    assert v.must_trump is want["must_trump"] and v.one_high is False
    assert (v.bird_rank, v.bird_anytime) == want["bird"]
    assert v.bird is (want["bird_points"] is not None)
    expected_points(v, want["counters"], want["bird_points"])
    assert v.card_points("B13") == 0  # T-12: the 13 is not a counter
    assert (v.last_trick_bonus, v.total_points) == (want["last_trick_bonus"], want["total"])
    assert (v.made_scores, v.set_loses, v.target) == want["scoring"]


def test_presets_seed_list() -> None:
    assert tuple(SEED_PRESETS) == ("partnership-57", "tournament", "crowsnest", "crowsnest-100")
    assert all(PRESETS[n].first_dealer == 0 for n in SEED_PRESETS)  # T-1 default


# ----------------------------------------------------------- Variant validation

def test_variant_is_frozen_and_replace_validates() -> None:
    v = PRESETS["tournament"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.target = 500  # type: ignore[misc]
    w = v.replace(target=500)
    assert w.target == 500 and v.target == 300
    assert Variant.from_preset("crowsnest", target=1000).target == 1000
    assert Variant.from_preset("tournament") is PRESETS["tournament"]


@pytest.mark.parametrize("changes, words", [
    ({"hand_size": 10}, ["T-2"]),                       # 4*10 + 5 != 41
    ({"nest_size": 4}, ["T-2"]),
    ({"min_bid": 72}, ["T-3"]),                         # not a multiple of 5
    ({"max_bid": 125}, ["T-3"]),                        # over the 120 points, not a multiple
    ({"max_bid": 130}, ["T-3"]),                        # more than the hand holds
    ({"min_bid": 0}, ["T-3"]),
    ({"bid_step": 0}, ["T-3"]),
    ({"post_bid_order": ("nest",)}, ["T-7"]),
    ({"post_bid_order": ("trump",)}, ["T-7"]),          # nest_size 5 needs a nest step
    ({"post_bid_order": ("nest", "trump", "pass")}, ["T-7"]),  # pass_cards 0
    ({"nest_exchange": "swap_one"}, ["T-21"]),          # widow of 5
    ({"nest_exchange": "burn"}, ["T-20"]),
    ({"first_dealer": 4}, ["T-1"]),
    ({"target": 0}, ["T-33"]),
    ({"made_scores": "double"}, ["T-31"]),
    ({"set_loses": "nothing"}, ["T-32"]),
    ({"stick_the_dealer": True, "opener_must_bid": True}, ["T-6"]),
    ({"counters": ((4, 5),)}, ["T-12"]),                # rank 4 not in the deck
    ({"ranks": (5, 5, 6)}, ["C-3"]),
    ({"jump_bids": 1}, ["jump_bids"]),
    ({"must_trump": "yes"}, ["must_trump"]),
])
def test_variant_bad_configuration_names_field_and_rule(changes: dict, words: list[str]) -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("tournament", **changes)
    for w in words:
        assert w in str(e.value)


def test_variant_unknown_field_and_unknown_preset() -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("tournament", trumps=2)
    assert "trumps" in str(e.value)
    with pytest.raises(VariantError) as e:
        Variant.from_preset("rummy")
    assert "'rummy'" in str(e.value) and "tournament" in str(e.value)
    with pytest.raises(VariantError):
        HandState.deal("no-such-preset", seed=1)


def test_variant_bird_anytime_without_bird_is_refused() -> None:
    with pytest.raises(VariantError) as e:
        Variant.from_preset("crowsnest-100", bird_anytime=True)
    assert "T-9" in str(e.value)


def test_variant_dict_round_trip() -> None:
    for name in PRESETS:
        v = PRESETS[name]
        assert Variant.from_dict(v.to_dict()) == v
    assert Variant.from_dict({"preset": "crowsnest", "target": 500}).target == 500
    with pytest.raises(VariantError):
        Variant.from_dict({"preset": "crowsnest", "colour": 1})
