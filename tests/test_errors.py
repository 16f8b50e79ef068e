"""Every refused action raises IllegalActionError naming the reason, with
``.rule`` set to the RULES.md id it breaks, and leaves the state exactly as it
was: same raw C state, same history, equal to a clone taken before, same
legal actions and observations.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _support import nest_phase, pass_phase, trump_phase

from rook_core import PRESETS, CardSet, HandState, IllegalActionError, Phase, RookError, Variant
from rook_core.actions import BID, PASS, TRUMP
from rook_core.game import Game

# ------------------------------------------------------------------ states

def bidding(preset: str = "tournament") -> HandState:
    return HandState.deal(preset, seed=1, dealer=0)








def position(preset: str, trump: str, trick: list[str], hands: list[list[str]]) -> HandState:
    return HandState.from_position({"preset": preset, "trump": trump, "leader": 0,
                                    "trick": trick, "hands": hands})


def follow_spot() -> HandState:
    # seat 1 must follow black (B9); it also holds R5 (trump) and G5
    return position("tournament", "R", ["B14"],
                    [["Y5", "Y6"], ["B9", "R5", "G5"], ["G6", "G7", "G8"], ["Y8", "Y9", "Y10"]])


def trump_led_spot() -> HandState:
    # trump led; seat 1's only trump is the bird
    return position("tournament", "R", ["R14"],
                    [["Y5", "Y6"], ["Rook", "B9", "G5"], ["G6", "G7", "G8"], ["Y8", "Y9", "Y10"]])


def bird_led_spot() -> HandState:
    return position("partnership-57", "G", ["Rook"],
                    [["Y5", "Y6"], ["G2", "B9", "R5"], ["B6", "B7", "B8"], ["Y8", "Y9", "Y10"]])


def must_trump_spot() -> HandState:
    # partnership-57: seat 1 is void in black and holds R5: it must trump
    return position("partnership-57", "R", ["B14"],
                    [["Y5", "Y6"], ["R5", "G5", "Y1"], ["G6", "G7", "G8"], ["Y8", "Y9", "Y10"]])


def bird_not_anytime_spot() -> HandState:
    return position("partnership-57", "R", ["B14"],
                    [["Y5", "Y6"], ["B2", "Rook", "G5"], ["G6", "G7", "G8"], ["Y8", "Y9", "Y10"]])


def play_phase() -> HandState:
    h = trump_phase()
    h.name_trump("R")
    assert h.phase == Phase.PLAY
    return h


def done_hand() -> HandState:
    h = play_phase()
    while not h.is_over:
        h.apply(h.legal_actions()[0])
    assert h.phase == Phase.DONE
    return h


def thrown_in() -> HandState:
    h = bidding()
    for _ in range(4):
        h.pass_bid()
    assert h.phase == Phase.THROWN_IN
    return h


def stuck_dealer() -> HandState:
    h = HandState.deal("kentucky-rook", seed=1, dealer=0)
    for _ in range(3):
        h.pass_bid()
    assert h.to_move == 0
    return h


def no_counter_discards() -> HandState:
    return nest_phase(Variant.from_preset("tournament", discard_counters=False))


def not_in_hand(h: HandState, seat: int) -> str:
    """A card of the deck that ``seat`` does not hold, the last in card order."""
    others = CardSet(h.variant.deck_mask) - h.hand(seat)
    return others.names()[-1]


def bad_discard(h: HandState) -> None:
    # four of the declarer's own cards, then one it does not hold (applied last):
    # the first four must be rolled back
    cards = h.hand(1).names()[:4] + [not_in_hand(h, 1)]
    assert CardSet.parse(cards).names()[-1] == cards[-1]
    h.discard(cards)


def counter_discard(h: HandState) -> None:
    hand = h.hand(1)
    plain = [c for c in hand if h.variant.card_points(int(c)) == 0]
    counters = [c for c in hand if h.variant.card_points(int(c)) > 0]
    assert len(plain) >= 5 and counters
    h.discard([str(c) for c in plain[:4]] + [str(counters[-1])])


# ---------------------------------------------------------------- scenarios

Scenario = tuple[Callable[[], HandState], Callable[[HandState], None], str | None, list[str]]

SCENARIOS: dict[str, Scenario] = {
    # T-3 bidding
    "bid below min": (bidding, lambda h: h.bid(65), "T-3", ["bid 65", "70"]),
    "bid off step": (bidding, lambda h: h.bid(72), "T-3", ["bid 72", "multiples of 5"]),
    "bid above max": (bidding, lambda h: h.bid(125), "T-3", ["bid 125", "120"]),
    "bid zero": (bidding, lambda h: h.bid(0), "T-3", ["0"]),
    "bid over limit": (bidding, lambda h: h.bid(1005), "T-3", ["1005"]),
    "bid not higher": (lambda: _after(bidding(), lambda h: h.bid(80)),
                       lambda h: h.bid(80), "T-3", ["bid 80", "higher", "80"]),
    "bid lower": (lambda: _after(bidding(), lambda h: h.bid(80)),
                  lambda h: h.bid(75), "T-3", ["bid 75", "higher", "80"]),
    "jump bid": (lambda: _after(bidding("partnership-57"), lambda h: h.bid(70)),
                 lambda h: h.bid(80), "T-3", ["bid 80", "jump", "75"]),
    # T-6
    "opener passes": (lambda: bidding("partnership-57"), lambda h: h.pass_bid(), "T-6",
                      ["pass", "opener must bid"]),
    "stuck dealer passes": (stuck_dealer, lambda h: h.pass_bid(), "T-6",
                            ["pass", "dealer must bid"]),
    # T-7 wrong phase
    "card in bidding": (bidding, lambda h: h.play(h.hand(1).names()[0]), "T-7", ["bid phase"]),
    "trump in bidding": (bidding, lambda h: h.name_trump("R"), "T-7", ["trump R", "bid phase"]),
    "trump in nest phase": (nest_phase, lambda h: h.name_trump("R"), "T-7", ["trump R", "nest phase"]),
    "bid in nest phase": (nest_phase, lambda h: h.bid(75), "T-7", ["bid 75", "nest phase"]),
    "card in trump phase": (trump_phase, lambda h: h.play(h.hand(1).names()[0]), "T-7",
                            ["trump phase"]),
    "pass in trump phase": (trump_phase, lambda h: h.pass_bid(), "T-7", ["pass", "trump phase"]),
    "bid in play": (play_phase, lambda h: h.bid(90), "T-7", ["bid 90", "play phase"]),
    "trump again in play": (play_phase, lambda h: h.name_trump("G"), "T-7", ["trump G", "play phase"]),
    "discard in bidding": (bidding, lambda h: h.discard(h.hand(1).names()[:5]), "T-20",
                           ["discard", "bid phase"]),
    "pass cards in play": (play_phase, lambda h: h.pass_cards(h.hand(1).names()[:3]), "T-22",
                           ["pass", "play phase"]),
    # T-14 hand over
    "card after the end": (done_hand, lambda h: h.play("B5"), "T-14", ["over"]),
    "bid after throw-in": (thrown_in, lambda h: h.bid(70), "T-14", ["bid 70", "over"]),
    "pass after throw-in": (thrown_in, lambda h: h.pass_bid(), "T-14", ["pass", "over"]),
    "seat after the end": (done_hand, lambda h: h.play("B5", seat=1), "T-14", ["over"]),
    # T-20 nest
    "discard too few": (nest_phase, lambda h: h.discard(h.hand(1).names()[:4]), "T-20",
                        ["exactly 5", "not 4"]),
    "discard too many": (nest_phase, lambda h: h.discard(h.hand(1).names()[:6]), "T-20",
                         ["exactly 5", "not 6"]),
    "discard none": (nest_phase, lambda h: h.discard([]), "T-20", ["exactly 5", "not 0"]),
    "discard a card not held": (nest_phase, bad_discard, "T-20", ["not in seat 1's hand"]),
    "discard a counter": (no_counter_discards, counter_discard, "T-20", ["counters"]),
    # T-22 passing
    "pass too few": (pass_phase, lambda h: h.pass_cards(h.hand(1).names()[:2]), "T-22",
                     ["exactly 3", "not 2"]),
    "pass a card not held": (pass_phase,
                             lambda h: h.pass_cards(h.hand(1).names()[:2] + [not_in_hand(h, 1)]),
                             "T-22", ["not in seat 1's hand"]),
    # T-8 .. T-10 play
    "card not held": (follow_spot, lambda h: h.play("B10"), "T-8", ["B10", "not in seat 1's hand"]),
    "revoke": (follow_spot, lambda h: h.play("G5"), "T-9", ["G5", "seat 1", "must follow", "B14"]),
    "revoke with trump": (follow_spot, lambda h: h.play("R5"), "T-9", ["R5", "must follow"]),
    "bird not anytime": (bird_not_anytime_spot, lambda h: h.play("Rook"), "T-9",
                         ["Rook", "must follow"]),
    "must trump": (must_trump_spot, lambda h: h.play("G5"), "T-9", ["G5", "must_trump"]),
    "trump led, bird kept": (trump_led_spot, lambda h: h.play("B9"), "T-10", ["B9", "trump"]),
    "bird led, trump kept": (bird_led_spot, lambda h: h.play("B9"), "T-10", ["B9", "trump"]),
    "play out of turn": (follow_spot, lambda h: h.play("Y8", seat=3), "T-8", ["seat 3", "seat 1"]),
    # T-35
    "penalty bad team": (bidding, lambda h: h.penalty(2), "T-35", ["team 0 or 1", "2"]),
}


def _after(h: HandState, f: Callable[[HandState], None]) -> HandState:
    f(h)
    return h


def snapshot(h: HandState) -> tuple:
    return (h.raw_bytes(), list(h.history), h.clone(), h.legal_actions(),
            [h.observation(s) for s in range(4)], h.to_json())


def assert_unchanged(h: HandState, snap: tuple) -> None:
    raw, hist, clone, legal, obs, js = snap
    assert h.raw_bytes() == raw
    assert h.history == hist
    assert h == clone
    assert h.legal_actions() == legal
    assert [h.observation(s) for s in range(4)] == obs
    assert h.to_json() == js


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_refused_action_names_reason_cites_rule_and_changes_nothing(name: str) -> None:
    make, act, rule, words = SCENARIOS[name]
    h = make()
    snap = snapshot(h)
    with pytest.raises(IllegalActionError) as e:
        act(h)
    msg = str(e.value)
    assert e.value.rule == rule, msg
    assert rule is None or rule in msg, msg
    for w in words:
        assert w in msg, (w, msg)
    assert_unchanged(h, snap)
    # and the state still plays on exactly like the clone
    c = snap[2]
    if not h.is_over:
        a = h.legal_actions()[0]
        h.apply(a)
        c.apply(a)
        assert h == c and h.raw_bytes() == c.raw_bytes()


def test_refused_play_keeps_the_undo_stack_intact() -> None:
    h = play_phase()
    h.apply(h.legal_actions()[0])
    before = h.clone()
    led = h.trick[0]
    bad = [c for c in h.hand(h.to_move) if c not in h.legal_cards()]
    for c in bad:
        with pytest.raises(IllegalActionError) as e:
            h.play(int(c))
        assert e.value.rule in ("T-9", "T-10")
        assert e.value.action == int(c)
    assert h == before
    h.undo()
    assert h.trick == [] and h.to_move == 1
    assert led not in h.played


# ---------------------------------------------- out of turn: which rule?

OUT_OF_TURN = {
    # bidding goes clockwise from the dealer's left (T-3)
    "bid": (bidding, lambda h: h.bid(70, seat=2), "T-3"),
    "pass": (bidding, lambda h: h.pass_bid(seat=3), "T-3"),
    # the declarer handles the nest (T-20)
    "discard": (nest_phase, lambda h: h.discard(h.hand(2).names()[:5], seat=2), "T-20"),
    # passing cards (T-22)
    "pass cards": (pass_phase, lambda h: h.pass_cards(h.hand(2).names()[:3], seat=2), "T-22"),
    # playing clockwise (T-8)
    "play": (play_phase, lambda h: h.play(h.hand(3).names()[0], seat=3), "T-8"),
}


@pytest.mark.parametrize("name", list(OUT_OF_TURN))
def test_out_of_turn_action_cites_the_rule_of_its_phase(name: str) -> None:
    make, act, rule = OUT_OF_TURN[name]
    h = make()
    snap = snapshot(h)
    with pytest.raises(IllegalActionError) as e:
        act(h)
    assert "not to move" in str(e.value)
    assert e.value.rule == rule, str(e.value)
    assert_unchanged(h, snap)


def test_T4_passed_seat_bidding_again_is_refused_citing_T4() -> None:
    h = bidding()
    h.pass_bid()          # seat 1 passes
    h.bid(70)             # seat 2
    snap = snapshot(h)
    with pytest.raises(IllegalActionError) as e:
        h.bid(75, seat=1)
    assert e.value.rule in ("T-4", "T-3"), str(e.value)
    assert_unchanged(h, snap)


# ---------------------------------------------------------- other refusals

def test_unknown_action_number_is_refused_and_changes_nothing() -> None:
    h = bidding()
    snap = snapshot(h)
    for a in (71, -1, 5000):
        with pytest.raises(RookError) as e:
            h.apply(a)
        assert str(a) in str(e.value)
        assert_unchanged(h, snap)


@pytest.mark.parametrize("action", [True, False, 1.0, "1", None])
def test_an_action_that_is_not_an_int_is_refused_in_every_phase_and_changes_nothing(action: object) -> None:
    """``True`` is no action, though Python counts it as the int 1 (the card B1)."""
    h = HandState.deal("tournament", seed=3)
    for _ in range(3):
        snap = snapshot(h)
        with pytest.raises(IllegalActionError, match="is not an action"):
            h.apply(action)
        assert_unchanged(h, snap)
        h.apply(h.legal_actions()[-1])


def test_undo_with_nothing_to_undo_is_refused() -> None:
    h = bidding()
    snap = snapshot(h)
    with pytest.raises(IllegalActionError) as e:
        h.undo()
    assert "nothing" in str(e.value) or "no action" in str(e.value)
    assert_unchanged(h, snap)


def test_is_legal_agrees_with_refusals() -> None:
    for name, (make, _act, _rule, _) in SCENARIOS.items():
        h = make()
        for a in range(BID + 130):
            if a in (69, 70, 71):
                continue
            assert h.is_legal(a) == (a in h.legal_actions()), (name, a)


def test_T34_game_over_refuses_further_actions_and_changes_nothing() -> None:
    v = Variant.from_preset("tournament", target=1)
    for seed in range(40):
        g = Game(v, seed=seed)
        while not g.is_over and g.hand_number == 1:
            h = g.current
            if h.phase == Phase.BID:
                g.apply(BID + 70 if h.high_bid == 0 else PASS)
            else:
                g.apply(h.legal_actions()[0])
        if g.is_over:
            break
    assert g.is_over
    before = g.clone()
    js = g.to_json()
    for a in (PASS, BID + 70, TRUMP, 5):
        with pytest.raises(IllegalActionError) as e:
            g.apply(a)
        assert e.value.rule == "T-34" and "over" in str(e.value)
    assert g == before and g.to_json() == js


def test_game_refusal_inside_a_hand_changes_nothing() -> None:
    g = Game("partnership-57", seed=2)
    before = g.clone()
    with pytest.raises(IllegalActionError) as e:
        g.apply(PASS)
    assert e.value.rule == "T-6"
    assert g == before
    g.apply(BID + 70)
    with pytest.raises(IllegalActionError) as e:
        g.apply(BID + 80)
    assert e.value.rule == "T-3"
    assert len(g.current.history) == 1


def test_from_json_replays_and_refuses_an_illegal_action() -> None:
    h = play_phase()
    for _ in range(5):
        h.apply(h.legal_actions()[0])
    again = HandState.from_json(h.to_json())
    assert again == h
    doc = h.to_json()
    doc["actions"] = doc["actions"] + ["bid 75"]
    with pytest.raises(IllegalActionError) as e:
        HandState.from_json(doc)
    assert "bid 75" in str(e.value)


def test_all_presets_refuse_the_same_way() -> None:
    for name in PRESETS:
        h = HandState.deal(name, seed=3)
        snap = snapshot(h)
        with pytest.raises(IllegalActionError) as e:
            h.bid(PRESETS[name].max_bid + PRESETS[name].bid_step)
        assert e.value.rule == "T-3"
        assert_unchanged(h, snap)
