"""Behaviour tests of trick play: RULES.md T-8 .. T-15.

Legal sets and trick winners are written out by hand; the positions are
FORMATS.md trick-play positions loaded with ``HandState.from_position`` or
whole hands dealt with ``HandState.from_hands``.
"""

from __future__ import annotations

import pytest

from rook_core import PRESETS, CardSet, HandState, IllegalActionError, Phase, PositionError, Variant, parse_card

COLORS = "BGRY"
BIRD_PRESETS = ["partnership-57", "tournament", "crowsnest"]


def names(cs: CardSet) -> set[str]:
    return set(cs.names())


def fillers(preset: str | Variant, trump: str, led: str | None, used: set[str], n: int) -> list[str]:
    """``n`` unused cards of colors that are neither the led color nor trump,
    so that they never change what a seat must play."""
    v = PRESETS[preset] if isinstance(preset, str) else preset
    bad = {trump}
    if led is not None and led != "Rook":
        bad.add(led[0])
    out = []
    for r in sorted(v.ranks, reverse=True):
        for c in COLORS:
            name = f"{c}{r}"
            if c not in bad and name not in used and name not in out:
                out.append(name)
                if len(out) == n:
                    return out
    raise AssertionError("not enough filler cards")


def position(preset: str | Variant, trump: str, trick: list[str], hand: list[str]) -> HandState:
    """Seat 0 led ``trick``; the seat to move (len(trick)) holds ``hand``; the
    other seats hold harmless filler cards."""
    mover = len(trick)
    used = set(trick) | set(hand)
    led = trick[0] if trick else None
    m = len(hand)
    hands: list[list[str]] = []
    for s in range(4):
        if s == mover:
            hands.append(list(hand))
            continue
        k = m - 1 if s < mover else m
        f = fillers(preset, trump, led, used, k)
        used |= set(f)
        hands.append(f)
    data = {"trump": trump, "leader": 0, "trick": trick, "hands": hands}
    if isinstance(preset, str):
        data["preset"] = preset
    else:
        data["variant"] = preset.to_dict()
    return HandState.from_position(data)


def legal(preset: str | Variant, trump: str, trick: str, hand: str) -> set[str]:
    h = position(preset, trump, trick.split(), hand.split())
    assert h.to_move == len(trick.split())
    got = names(h.legal_cards())
    assert got == names(CardSet([a for a in h.legal_actions()]))
    return got


def play_trick(preset: str | Variant, trump: str, cards: str) -> HandState:
    """Seats 0..3 play ``cards`` in order (seat 0 leads); each seat keeps one
    filler card so that the hand goes on and the winner is the next leader."""
    cs = cards.split()
    used = set(cs)
    hands = []
    for s in range(4):
        f = fillers(preset, trump, cs[0], used, 1)
        used |= set(f)
        hands.append([cs[s]] + f)
    data = {"trump": trump, "leader": 0, "trick": [], "hands": hands}
    if isinstance(preset, str):
        data["preset"] = preset
    else:
        data["variant"] = preset.to_dict()
    h = HandState.from_position(data)
    for s, c in enumerate(cs):
        assert h.to_move == s
        h.play(c)
    return h


def trick_winner(preset: str | Variant, trump: str, cards: str) -> str:
    h = play_trick(preset, trump, cards)
    t = h.tricks[-1]
    assert h.to_move == t["winner"] == h.leader  # T-8: the winner leads next
    return str(dict(t["cards"])[t["winner"]])


# --------------------------------------------------------------------- T-8

def bid_to(h: HandState, declarer: int) -> None:
    """Everybody passes but ``declarer``, who bids the minimum."""
    while h.phase == Phase.BID:
        if h.to_move == declarer:
            h.bid(h.variant.min_bid)
        else:
            h.pass_bid()


def to_play(h: HandState, declarer: int, trump: str = "R") -> None:
    bid_to(h, declarer)
    while h.phase != Phase.PLAY:
        if h.phase == Phase.TRUMP:
            h.name_trump(trump)
        else:
            h.apply(h.legal_actions()[0])


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
@pytest.mark.parametrize("dealer, declarer", [(0, 2), (1, 2), (3, 0), (2, 1)])
def test_T8_left_of_dealer_leads_first_trick_not_declarer(preset: str, dealer: int,
                                                           declarer: int) -> None:
    h = HandState.deal(preset, seed=31, dealer=dealer)
    if preset == "partnership-57" and declarer != (dealer + 1) % 4:
        # opener must bid: the opener bids 70, the declarer 75, others pass
        h.bid(70)
        while h.phase == Phase.BID:
            if h.to_move == declarer:
                h.bid(h.high_bid + 5)
            else:
                h.pass_bid()
    else:
        bid_to(h, declarer)
    assert h.declarer == declarer
    while h.phase != Phase.PLAY:
        h.apply(h.legal_actions()[0])
    assert h.leader == h.to_move == (dealer + 1) % 4


def test_T8_first_lead_by_declarer_knob() -> None:
    v = Variant.from_preset("tournament", first_lead="declarer")
    h = HandState.deal(v, seed=31, dealer=0)
    to_play(h, 3)
    assert h.to_move == 3


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T8_play_is_clockwise_winner_leads_and_hand_has_hand_size_tricks(preset: str) -> None:
    h = HandState.deal(preset, seed=5)
    to_play(h, 1)
    prev_winner = None
    while h.phase == Phase.PLAY:
        leader = h.to_move
        if prev_winner is not None:
            assert leader == prev_winner
        for k in range(4):
            assert h.to_move == (leader + k) % 4
            h.apply(h.legal_actions()[0])
        prev_winner = h.tricks[-1]["winner"]
        assert h.tricks[-1]["leader"] == leader
    assert h.phase == Phase.DONE
    assert len(h.tricks) == PRESETS[preset].hand_size
    assert all(len(h.hand(s)) == 0 for s in range(4))


def test_T8_playing_out_of_turn_is_refused() -> None:
    h = position("tournament", "R", [], ["B5", "B6"])
    with pytest.raises(IllegalActionError) as e:
        h.play("B5", seat=1)
    assert e.value.rule == "T-8"
    h.play("B5", seat=0)
    assert h.to_move == 1


# --------------------------------------------------------------------- T-9

@pytest.mark.parametrize("preset", list(PRESETS))
def test_T9_leader_may_lead_any_card_bird_and_trumps_included(preset: str) -> None:
    v = PRESETS[preset]
    hand = ["R14", "R5", "B10", "G14", "Y5"] + (["Rook"] if v.bird else [])
    assert legal(preset, "R", "", " ".join(hand)) == set(hand)


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T9_must_follow_color(preset: str) -> None:
    assert legal(preset, "R", "B14", "B5 B9 R5 G14") == {"B5", "B9"}
    assert legal(preset, "R", "G5 G6", "G14 B10 R14 Y14") == {"G14"}
    assert legal(preset, "Y", "B5 B7 B6", "B14 B13 Y14 R10") == {"B14", "B13"}


@pytest.mark.parametrize("preset", ["tournament", "crowsnest"])
def test_T9_bird_anytime_may_be_played_instead_of_following(preset: str) -> None:
    assert legal(preset, "R", "B14", "B5 B9 Rook G14") == {"B5", "B9", "Rook"}
    assert legal(preset, "G", "Y5 Y14", "Y7 Rook R14") == {"Y7", "Rook"}


def test_T9_bird_follows_like_a_trump_without_bird_anytime() -> None:
    # partnership-57: the bird is not black, so a player holding black follows black
    assert legal("partnership-57", "R", "B14", "B5 B9 Rook G14") == {"B5", "B9"}
    assert legal("partnership-57", "G", "Y1", "Y7 Rook R14") == {"Y7"}


@pytest.mark.parametrize("preset", ["tournament", "crowsnest", "crowsnest-100"])
def test_T9_void_in_led_color_may_play_any_card(preset: str) -> None:
    # must_trump = false: holding trump does not oblige a void player to trump
    assert legal(preset, "R", "B14", "R5 R9 G14 Y5") == {"R5", "R9", "G14", "Y5"}
    assert legal(preset, "R", "B14 R10", "G5 Y14") == {"G5", "Y14"}


def test_T9_must_trump_when_void_in_led_color() -> None:
    assert legal("partnership-57", "R", "B14", "R5 R9 G14 Y5") == {"R5", "R9"}
    assert legal("partnership-57", "G", "Y1 Y2", "G2 B14 R14") == {"G2"}


def test_T9_must_trump_void_in_led_color_and_trump_plays_any() -> None:
    assert legal("partnership-57", "R", "B14", "G14 Y5 G1") == {"G14", "Y5", "G1"}


def test_T9_no_duty_to_over_trump() -> None:
    # seat 1 trumped with R12; seat 2 is void in black: any trump will do
    assert legal("partnership-57", "R", "B14 R12", "R3 R13 G5") == {"R3", "R13"}
    # trump led: follow with any trump, higher or not
    for preset in ["partnership-57", "tournament", "crowsnest", "crowsnest-100"]:
        assert legal(preset, "R", "R12", "R6 R13 B5") == {"R6", "R13"}


def test_T9_must_trump_knob_on_tournament() -> None:
    v = Variant.from_preset("tournament", must_trump=True)
    assert legal(v, "R", "B14", "R5 G14 Y5") == {"R5"}
    # void in the led color with only the bird as trump: the bird is trump
    assert legal(v, "R", "B14", "Rook G14 Y5") == {"Rook"}


def test_T9_revoke_is_refused() -> None:
    h = position("tournament", "R", ["B14"], ["B5", "R5", "G14"])
    for card in ("R5", "G14"):
        with pytest.raises(IllegalActionError) as e:
            h.play(card)
        assert e.value.rule == "T-9" and "must follow" in str(e.value)
    h.play("B5")


def test_T9_position_with_an_illegal_card_in_the_trick_is_rejected() -> None:
    # seat 1 played G5 although it still holds B9
    data = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B14", "G5"],
            "hands": [["Y5"], ["B9"], ["Y6", "Y7"], ["Y8", "Y9"]]}
    with pytest.raises(PositionError) as e:
        HandState.from_position(data)
    assert "G5" in str(e.value) and "B9" in str(e.value)


# -------------------------------------------------------------------- T-10

@pytest.mark.parametrize("preset", BIRD_PRESETS)
def test_T10_bird_led_means_trump_led(preset: str) -> None:
    assert legal(preset, "R", "Rook", "B5 R7 R9 G14") == {"R7", "R9"}
    assert legal(preset, "G", "Rook", "G5 B14 R14") == {"G5"}


def test_T10_bird_led_void_in_trump() -> None:
    assert legal("tournament", "R", "Rook", "B5 G7 Y14") == {"B5", "G7", "Y14"}
    assert legal("crowsnest", "R", "Rook", "B5 G7") == {"B5", "G7"}
    assert legal("partnership-57", "R", "Rook", "B5 G7") == {"B5", "G7"}


@pytest.mark.parametrize("preset", BIRD_PRESETS)
def test_T10_trump_led_only_trump_is_the_bird_must_play_it(preset: str) -> None:
    assert legal(preset, "R", "R5", "Rook B14 G14") == {"Rook"}
    assert legal(preset, "Y", "Y14 Y5", "G10 Rook B10") == {"Rook"}


@pytest.mark.parametrize("preset", BIRD_PRESETS)
def test_T10_trump_led_bird_and_trumps_may_be_played(preset: str) -> None:
    assert legal(preset, "R", "R5", "Rook R14 G14") == {"Rook", "R14"}


def test_T10_bird_counts_as_trump_for_must_trump() -> None:
    assert legal("partnership-57", "R", "B14", "Rook G14 Y5") == {"Rook"}
    assert legal("partnership-57", "R", "B14", "Rook R6 G14") == {"Rook", "R6"}


def test_T10_not_following_trump_is_refused() -> None:
    h = position("partnership-57", "R", ["R5"], ["Rook", "B14"])
    with pytest.raises(IllegalActionError) as e:
        h.play("B14")
    assert e.value.rule == "T-10" and "trump" in str(e.value)
    h.play("Rook")
    h = position("tournament", "R", ["Rook"], ["R6", "B14"])
    with pytest.raises(IllegalActionError) as e:
        h.play("B14")
    assert e.value.rule == "T-10"


def test_T10_bird_led_wins_as_trump() -> None:
    assert trick_winner("tournament", "R", "Rook R14 R13 B14") == "Rook"
    # crowsnest: the bird is the lowest trump, so any other trump beats it
    assert trick_winner("crowsnest", "R", "Rook R5 B14 G14") == "R5"
    assert trick_winner("crowsnest", "R", "Rook B14 G14 Y14") == "Rook"


# -------------------------------------------------------------------- T-11

def test_T11_highest_card_of_led_color_wins_without_trump() -> None:
    assert trick_winner("tournament", "R", "B5 B14 B10 B13") == "B14"
    assert trick_winner("tournament", "R", "B5 B6 B7 B8") == "B8"
    assert trick_winner("partnership-57", "R", "G1 G2 Y14 B14") == "G2"


def test_T11_cards_of_other_colors_never_win() -> None:
    # void players discard high cards of other colors: the led color still wins
    assert trick_winner("tournament", "R", "B5 G14 Y14 B6") == "B6"
    assert trick_winner("crowsnest-100", "R", "B5 G14 Y14 G13") == "B5"
    assert trick_winner("partnership-57", "Y", "G1 B14 R14 B13") == "G1"


def test_T11_any_trump_beats_the_led_color() -> None:
    assert trick_winner("tournament", "R", "B14 R5 B13 B12") == "R5"
    assert trick_winner("crowsnest-100", "Y", "B14 Y5 Y6 B13") == "Y6"
    assert trick_winner("partnership-57", "R", "B14 R1 B13 G14") == "R1"


def test_T11_highest_trump_wins() -> None:
    assert trick_winner("tournament", "R", "B14 R5 R13 R12") == "R13"
    assert trick_winner("tournament", "R", "R5 R14 R6 R7") == "R14"
    assert trick_winner("partnership-57", "G", "G1 G2 G14 G13") == "G14"


def test_T11_bird_high_beats_every_trump() -> None:
    assert trick_winner("tournament", "R", "R14 Rook R13 R5") == "Rook"
    assert trick_winner("partnership-57", "R", "R14 R13 R12 Rook") == "Rook"
    assert trick_winner("tournament", "R", "B14 Rook B13 R14") == "Rook"


def test_T11_bird_low_loses_to_every_trump_but_beats_other_colors() -> None:
    assert trick_winner("crowsnest", "R", "R5 Rook R6 B14") == "R6"
    assert trick_winner("crowsnest", "R", "B14 Rook B13 B12") == "Rook"
    assert trick_winner("crowsnest", "R", "B14 Rook R5 B12") == "R5"


def test_T11_bird_at_10_5() -> None:
    v = Variant.from_preset("tournament", bird_rank=10.5)
    assert trick_winner(v, "R", "R10 Rook R9 B14") == "Rook"
    assert trick_winner(v, "R", "R10 Rook R11 B14") == "R11"


# -------------------------------------------------------------------- T-12

def test_T12_trick_points_go_to_the_winners_team() -> None:
    h = play_trick("tournament", "R", "B5 B14 B10 B13")  # seat 1 wins: 5 + 10 + 10
    assert h.to_move == 1
    assert h.points == (0, 25)
    h = play_trick("tournament", "R", "B5 B10 Rook B6")  # seat 2 wins: 5 + 10 + 20
    assert h.to_move == 2
    assert h.points == (35, 0)


def test_T12_partnership_57_counts_the_1_and_not_the_13() -> None:
    h = play_trick("partnership-57", "R", "B1 B13 B5 B14")  # seat 3: 15 + 0 + 5 + 10
    assert h.to_move == 3
    assert h.points == (0, 30)
    h = play_trick("partnership-57", "R", "B13 B12 B11 B2")
    assert h.points == (0, 0)


def test_T12_crowsnest_100_counters() -> None:
    h = play_trick("crowsnest-100", "Y", "G14 G10 G5 G13")  # seat 0: 10 + 10 + 5
    assert h.to_move == 0
    assert h.points == (25, 0)


# -------------------------------------------------------------------- T-15

def card_names_in(obj: object) -> set[str]:
    """Every string in ``obj`` that names a card, in its FORMATS spelling."""
    out: set[str] = set()
    if isinstance(obj, str):
        try:
            out.add(str(parse_card(obj)))
        except Exception:
            pass
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= card_names_in(k) | card_names_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= card_names_in(v)
    return out


def check_observations(h: HandState, took_nest: bool) -> None:
    played = names(h.played)
    for seat in range(4):
        obs = h.observation(seat)
        allowed = names(h.hand(seat)) | played | names(h.passing(seat))
        if seat == h.declarer and took_nest:
            allowed |= names(h.dealt_nest) | names(h.nest)
        seen = card_names_in(obs)
        assert seen <= allowed, (seat, h.phase, seen - allowed)
        assert set(obs["hand"]) == names(h.hand(seat))
        if seat != h.declarer or not took_nest:
            assert "nest" not in obs and "discarded" not in obs
        assert obs["trick"] == [[s, str(c)] for s, c in h.trick_seats]
        if h.to_move == seat:
            assert obs["legal_actions"] == h.legal_actions()
        else:
            assert "legal_actions" not in obs


@pytest.mark.parametrize("preset", ["partnership-57", "tournament", "crowsnest", "crowsnest-100"])
def test_T15_observation_hides_other_hands_and_shows_nest_only_to_declarer(preset: str) -> None:
    h = HandState.deal(preset, seed=42)
    took_nest = False
    check_observations(h, took_nest)
    while not h.is_over:
        if h.phase == Phase.BID:
            if h.high_bid == 0:
                h.bid(h.variant.min_bid)
            else:
                h.pass_bid()
        else:
            if h.phase == Phase.NEST:
                took_nest = True
            h.apply(h.legal_actions()[-1])
        if h.phase == Phase.NEST:
            took_nest = True
        check_observations(h, took_nest)
    assert h.phase == Phase.DONE
    decl = h.declarer
    if PRESETS[preset].nest_size:
        assert set(h.observation(decl)["nest"]) == names(h.dealt_nest)
        for s in range(4):
            if s != decl:
                obs = h.observation(s)
                assert "nest" not in obs
                # the discards are never played: no other seat ever sees them
                assert not (card_names_in(obs) & names(h.nest))


def test_T15_observation_shows_current_trick_and_public_history() -> None:
    h = HandState.deal("tournament", seed=8)
    to_play(h, 1)
    first = []
    for _ in range(4):
        c = h.legal_actions()[0]
        first.append((h.to_move, str(CardSet([c]))))
        h.apply(c)
    h.apply(h.legal_actions()[0])
    h.apply(h.legal_actions()[0])
    for seat in range(4):
        obs = h.observation(seat)
        assert [[s, c] for s, c in first] == obs["tricks"][0]["cards"]
        assert obs["tricks"][0]["winner"] == h.tricks[0]["winner"]
        assert len(obs["trick"]) == 2
        assert obs["trick"] == [[s, str(c)] for s, c in h.trick_seats]
        assert obs["trump"] == "R" and obs["declarer"] == 1
        assert obs["bids"] == [[1, 70], [2, None], [3, None], [0, None]]
        assert "hands" not in obs


def test_T15_nest_is_known_to_the_declarer_only_after_taking_it() -> None:
    h = HandState.deal("partnership-57", seed=8)
    h.bid(70)
    for _ in range(3):
        h.pass_bid()
    # trump comes before the widow in partnership-57: not seen yet
    assert "nest" not in h.observation(1)
    h.name_trump("R")
    assert h.observation(1)["nest"] == h.dealt_nest.names()
    for s in (0, 2, 3):
        assert "nest" not in h.observation(s)
        assert not (card_names_in(h.observation(s)) & names(h.dealt_nest))


# ------------------------------------------------------------- T-13, T-14

def test_T13_T14_last_trick_takes_the_nest_points() -> None:
    # tournament: seat 1 takes the last trick (B5 B14 G14 Y10 = 35 points)
    # and the nest's 25; 20 + 40 were taken before: 20 + (40 + 35 + 25) = 120
    h = HandState.from_position({"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
                                 "hands": [["B5"], ["B14"], ["G14"], ["Y10"]],
                                 "nest_points": 25, "taken": [20, 40]})
    for c in ("B5", "B14", "G14", "Y10"):
        h.play(c)
    assert h.phase == Phase.DONE
    assert h.points == (20, 100)
    assert sum(h.points) == 120


def test_T13_T14_partnership_57_last_trick_bonus_and_widow() -> None:
    # seat 2 is void in black and must trump with R2: B1 + B14 = 25 points,
    # + widow 15 + bonus 20 for team 0: 80 + 60 = 140; team 1 keeps 60
    h = HandState.from_position({"preset": "partnership-57", "trump": "R", "leader": 0,
                                 "trick": [], "hands": [["B1"], ["B14"], ["R2"], ["G13"]],
                                 "nest_points": 15, "taken": [80, 60]})
    for c in ("B1", "B14", "R2", "G13"):
        h.play(c)
    assert h.tricks[-1]["winner"] == 2
    assert h.points == (140, 60)
    assert sum(h.points) == 200
