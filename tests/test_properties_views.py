"""Hypothesis properties of what a hand shows and keeps, for every preset
(the walks and variants of tests/_walks.py, as in tests/test_properties.py):

* T-15, T-22: an observation never names another seat's unplayed card except
  the cards the seat itself passed; the nest is shown to the declarer only;
  and relabelling the cards a seat cannot know leaves its observation as it was.
* JSON round trips of a hand and a game rebuild equal states; a game's
  dealers, totals and end follow T-1, T-6, T-34, and undo crosses hands.
* C-3: the cards are conserved: hands, nest, played cards and the cards in
  transit while passing partition the deck.
* The legal list is never empty before the end and each listed action is
  accepted (and agrees with ``is_legal`` over the whole action space).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from _walks import (
    ALL_PRESETS,
    DEALERS,
    FAST,
    MAX_PENALTIES,
    SEEDS,
    SLOW,
    VARIANTS,
    _bits,
    _card_names_in,
    _choose,
    _deal,
    _mask,
    _walk,
    _where,
    preset_param,
)
from hypothesis import event, given
from hypothesis import strategies as st

from rook_core import (
    HandState,
    IllegalActionError,
    Phase,
    action_name,
    parse_action,
)
from rook_core.actions import N_ACTIONS, PENALTY
from rook_core.cards import CardSet
from rook_core.game import Game


# ------------------------------------------------------ T-15 observations
def _check_observations(h: HandState, where: object) -> None:
    decl = h.declarer
    played = h.played.mask
    dealt = h.dealt_nest.mask
    # H-5: an exposed nest is face up to every seat once the bidding is over
    exposed = dealt if (h.variant.exposed_nest and decl is not None
                        and h.phase not in (Phase.BID, Phase.THROWN_IN)) else 0
    for seat in range(4):
        obs = h.observation(seat)
        json.dumps(obs)  # JSON-ready
        seen = _mask(_card_names_in(obs))
        own = h.hand(seat).mask
        passed = h.passing(seat).mask
        others = 0
        for s in range(4):
            if s != seat:
                others |= h.hand(s).mask
        leak = seen & others & ~passed & ~exposed
        assert leak == 0, (f"seat {seat} sees {CardSet(leak)} of another seat's hand: "
                           f"{where}\nobservation: {obs}")
        assert CardSet.parse(obs["hand"]).mask == own, where
        if passed:  # T-22: a seat knows what it passed
            assert CardSet.parse(obs.get("passed", [])).mask == passed, where
        nest_now = h.nest.mask
        knows_nest = "discarded" in obs
        if knows_nest:
            assert seat == decl, f"seat {seat} (declarer {decl}) is shown the nest: {where}"
            assert h.phase not in (Phase.BID, Phase.THROWN_IN), where
        else:
            # T-15: the nest (discards) and the dealt nest's unseen cards stay hidden
            hidden = (nest_now | dealt) & ~(own | played | passed | exposed)
            assert seen & hidden == 0, (f"seat {seat} sees nest cards {CardSet(seen & hidden)} "
                                        f"without being shown the nest: {where}\nobservation: {obs}")
        if seat != decl:
            assert not knows_nest
        if exposed:
            assert CardSet.parse(obs.get("nest", [])).mask == exposed, where
        elif not knows_nest:
            assert "nest" not in obs, where
        allowed = own | played | passed | exposed | (dealt | nest_now if knows_nest else 0)
        assert seen & ~allowed == 0, (f"seat {seat} sees {CardSet(seen & ~allowed)}, which it "
                                      f"cannot know: {where}\nobservation: {obs}")
        if h.to_move == seat:
            assert obs.get("legal_actions") == h.legal_actions(), where
        else:
            assert "legal_actions" not in obs, where


@preset_param
@FAST
@given(data=st.data())
def test_T15_T22_observation_hides_other_hands_and_nest(preset: str, data: st.DataObject) -> None:
    """T-15, T-22, H-5: no observation names another seat's unplayed card, except
    the cards this seat passed and an exposed nest; only the declarer (once it
    took it) sees the discards."""
    h, seed, dealer = _deal(preset, data)

    def after(h: HandState) -> None:
        _check_observations(h, _where(h, seed, dealer))

    _walk(data, h, after=after)


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if VARIANTS[p].nest_size])
@FAST
@given(data=st.data())
def test_T15_declarer_sees_dealt_nest_after_taking_it(preset: str, data: st.DataObject) -> None:
    """T-15, T-20, T-21: from the nest step on, the declarer's observation
    shows the nest as dealt and the cards discarded so far."""
    h, seed, dealer = _deal(preset, data)
    dealt = h.dealt_nest

    order = h.variant.post_bid_order
    nest_first = "discard" in order   # H-3: the nest joins the hand when the bidding ends
    steps = {Phase.NEST: "discard" if nest_first else "nest", Phase.TRUMP: "trump", Phase.PASS: "pass"}

    def after(h: HandState) -> None:
        if h.phase in (Phase.PLAY, Phase.DONE) or (
                h.phase in steps and order.index(steps[h.phase]) >= order.index("nest")):
            assert h.declarer is not None
            obs = h.observation(h.declarer)
            assert CardSet.parse(obs.get("nest", [])) == dealt, _where(h, seed, dealer)
            assert CardSet.parse(obs.get("discarded", [])) == h.nest, _where(h, seed, dealer)

    _walk(data, h, after=after)


def _relabel(h: HandState, seat: int, data: st.DataObject) -> tuple[HandState, dict[int, int]]:
    """Return the hand ``h`` with the cards ``seat`` cannot know permuted, and the permutation.

    Only cards of the same printed color and the same points are exchanged
    (the bird and permanent trumps stay put), and played cards never move, so
    every rule that looked at a moved card (T-9 follow counts, T-20 counters,
    T-22 passing) answers the same and the relabelled history stays legal.
    The start deal and the card actions of the history are relabelled alike."""
    v = h.variant
    obs = h.observation(seat)
    known = h.hand(seat).mask | h.played.mask | h.passing(seat).mask
    if "nest" in obs or "discarded" in obs:
        known |= h.dealt_nest.mask | h.nest.mask
    unknown = v.deck_mask & ~known & ~v.special_trumps_mask
    classes: dict[tuple[int, int], list[int]] = {}
    for c in _bits(unknown):
        classes.setdefault((c >> 4, v.points_table[c]), []).append(c)
    sigma = {c: c for c in _bits(v.deck_mask)}
    for key in sorted(classes):
        cards = classes[key]
        if len(cards) > 1:
            perm = data.draw(st.permutations(cards), label=f"relabel {key}")
            if perm == cards:  # Hypothesis favours the identity; rotate instead
                perm = cards[1:] + cards[:1]
            for a, b in zip(cards, perm):
                sigma[a] = b
    start = HandState.from_json(h.to_json() | {"actions": []})
    hands = [[sigma[c] for c in start.hand(s)] for s in range(4)]
    nest = [sigma[c] for c in start.nest]
    other = HandState.from_hands(v, hands, nest, dealer=h.dealer)
    for a in h.history:
        other.apply(sigma[a] if a < 64 else a)
    return other, sigma


@preset_param
@FAST
@given(data=st.data())
def test_T15_observation_depends_only_on_what_the_seat_knows(preset: str, data: st.DataObject) -> None:
    """T-15, T-22: permuting the cards a seat cannot know (within color and
    points, so the same actions stay legal) leaves its observation unchanged;
    OpenSpiel's "resample the information state" check."""
    h, seed, dealer = _deal(preset, data)
    stop = data.draw(st.integers(0, 120), label="stop after")
    n = 0
    while not h.is_over and n < stop:
        h.apply(_choose(data, h, penalties=False))
        n += 1
    for seat in range(4):
        other, sigma = _relabel(h, seat, data)
        moved = {CardSet([a]).names()[0]: CardSet([b]).names()[0]
                 for a, b in sigma.items() if a != b}
        event("relabelled some cards" if moved else "nothing to relabel")
        assert other.observation(seat) == h.observation(seat), (
            f"seat {seat}'s observation changes when cards it cannot see are relabelled "
            f"{moved}: {_where(h, seed, dealer)}")


# ------------------------------------------------------------ JSON
@preset_param
@FAST
@given(data=st.data())
def test_hand_json_round_trip(preset: str, data: st.DataObject) -> None:
    """to_json / from_json (through JSON text) rebuilds an equal hand at random points."""
    h, seed, dealer = _deal(preset, data)

    def after(h: HandState) -> None:
        if data.draw(st.integers(0, 7), label="round trip here?") == 0 or h.is_over:
            doc = h.to_json()
            back = HandState.from_json(json.loads(json.dumps(doc)))
            assert back == h and back.raw_bytes() == h.raw_bytes(), _where(h, seed, dealer)
            assert back.history == h.history and back.to_json() == doc
            assert HandState.from_json(json.dumps(doc)) == h
            for s in range(4):
                assert back.observation(s) == h.observation(s)

    _walk(data, h, penalties=True, after=after)


class _Lazy:
    """Text for an assertion message, built only when it is printed."""

    def __init__(self, fn: Callable[[], str]) -> None:
        self.fn = fn

    def __str__(self) -> str:
        return self.fn()


def _check_game(g: Game, where: object) -> None:
    """T-1, T-6, T-33, T-34: dealers rotate, thrown-in hands are redealt by the
    same dealer, totals add the hand scores, and the game ends exactly when it should."""
    hands = g.hands
    assert hands[0].dealer == g.first_dealer
    t = [0, 0]
    for i, h in enumerate(hands):
        if i + 1 < len(hands):
            assert h.is_over, where
            expected = h.dealer if h.phase == Phase.THROWN_IN else (h.dealer + 1) % 4
            assert hands[i + 1].dealer == expected, f"hand {i + 1} dealt by the wrong seat: {where}"
        t[0] += h.score[0]
        t[1] += h.score[1]
        if h.phase == Phase.DONE and i + 1 < len(hands):
            assert not (max(t) >= g.variant.target and t[0] != t[1]), \
                f"the game should have ended after hand {i + 1}: {where}"
    assert g.totals == tuple(t)
    if g.is_over:
        assert g.current.phase == Phase.DONE and max(t) >= g.variant.target and t[0] != t[1]
        assert g.winner == (0 if t[0] > t[1] else 1) and g.legal_actions() == []
    else:
        assert g.winner is None and not g.current.is_over and g.legal_actions()


@preset_param
@SLOW
@given(data=st.data())
def test_T1_T34_game_json_round_trip_and_undo(preset: str, data: st.DataObject) -> None:
    """A Game round-trips through JSON at random points; undo crosses hand
    boundaries back to the fresh game; the game bookkeeping holds (T-1, T-6, T-34)."""
    seed = data.draw(SEEDS, label="game seed")
    first = data.draw(DEALERS, label="first dealer")
    g = Game(VARIANTS[preset], seed=seed, first_dealer=first)
    n_actions = data.draw(st.integers(0, 260), label="actions")
    where = _Lazy(lambda: f"Game({preset!r}, seed={seed}, first_dealer={first}) "
                          f"history={[action_name(a) for a in g.history()]}")
    done = n_pen = 0
    while done < n_actions and not g.is_over:
        h = g.current
        a = _choose(data, h, penalties=n_pen < MAX_PENALTIES)
        n_pen += a in (PENALTY, PENALTY + 1)
        g.apply(a)
        done += 1
        _check_game(g, where)
        if data.draw(st.integers(0, 15), label="round trip here?") == 0:
            doc = g.to_json()
            back = Game.from_json(json.loads(json.dumps(doc)))
            assert back == g and back.to_json() == doc, where
    back = Game.from_json(json.dumps(g.to_json()))
    assert back == g, where
    if g.is_over:
        with pytest.raises(IllegalActionError):
            g.apply(PENALTY)
    hist = g.history()
    for _ in hist:
        g.undo()
    assert g == Game(VARIANTS[preset], seed=seed, first_dealer=first), where
    with pytest.raises(IllegalActionError):
        g.undo()


# --------------------------------------------------- C-3 conservation
def _check_conservation(h: HandState, where: object) -> None:
    deck = h.variant.deck_mask
    hands = [h.hand(s).mask for s in range(4)]
    passing = [h.passing(s).mask for s in range(4)]
    nest = h.nest.mask
    played = h.played.mask
    in_transit = passing if h.phase == Phase.PASS else [0, 0, 0, 0]
    parts = hands + [nest, played] + in_transit
    names = [f"hand {s}" for s in range(4)] + ["nest", "played"] + [f"passing {s}" for s in range(4)]
    union = 0
    for name, m in zip(names, parts):
        assert union & m == 0, f"{name} overlaps other cards on {CardSet(union & m)}: {where}"
        union |= m
    assert union == deck, (f"cards missing {CardSet(deck & ~union)} / extra "
                           f"{CardSet(union & ~deck)}: {where}")
    trick = _mask({int(c) for c in h.trick})
    assert len(h.trick) == trick.bit_count() and trick & ~played == 0, where
    won0, won1 = h.won(0).mask, h.won(1).mask
    assert won0 & won1 == 0 and won0 | won1 | trick == played, where
    assert (won0 | won1).bit_count() == 4 * sum(h.tricks_won), where
    if h.phase != Phase.PASS:
        # T-22: after the exchange a passed card is in the right-hand neighbour's hand or played
        for s in range(4):
            assert passing[s] & ~(hands[(s + 3) % 4] | played) == 0, where
    if h.phase == Phase.PLAY:
        assert h.leader is not None
        sizes = [m.bit_count() for m in hands]
        cards_left = h.variant.hand_size - sum(h.tricks_won)
        for i in range(4):
            s = (h.leader + i) % 4
            assert sizes[s] == cards_left - (1 if i < len(h.trick) else 0), where


@preset_param
@FAST
@given(data=st.data())
def test_C3_T2_cards_are_conserved(preset: str, data: st.DataObject) -> None:
    """C-3: at every step hands, nest, played cards and cards in transit while
    passing (T-22) partition the deck; tricks won and the current trick make up
    the played cards."""
    h, seed, dealer = _deal(preset, data)

    def after(h: HandState) -> None:
        _check_conservation(h, _where(h, seed, dealer))

    _walk(data, h, penalties=True, after=after)


# ------------------------------------------------ legal actions
@preset_param
@FAST
@given(data=st.data())
def test_legal_actions_nonempty_and_all_accepted(preset: str, data: st.DataObject) -> None:
    """Before the end the legal list is non-empty, sorted, free of penalties, and
    every listed action is accepted (apply then undo); is_legal agrees with it
    over the whole action space at a few drawn steps."""
    h, seed, dealer = _deal(preset, data)

    def before(h: HandState, _a: int) -> None:
        legal = h.legal_actions()
        assert legal and legal == sorted(set(legal)), _where(h, seed, dealer)
        assert PENALTY not in legal and PENALTY + 1 not in legal
        raw = h.raw_bytes()
        for a in legal:
            assert h.is_legal(a) and parse_action(action_name(a)) == a
            h.apply(a)
            h.undo()
            assert h.raw_bytes() == raw
        if data.draw(st.integers(0, 9), label="sweep here?") == 0:
            listed = set(legal) | {PENALTY, PENALTY + 1}
            bad = [a for a in range(-2, N_ACTIONS + 2) if h.is_legal(a) != (a in listed)]
            assert not bad, f"is_legal disagrees with legal_actions on {bad[:10]}: {_where(h, seed, dealer)}"
        if h.phase == Phase.PLAY or h.phase in (Phase.NEST, Phase.PASS):
            assert CardSet(h.legal_mask()).mask == _mask(set(legal))
            assert h.to_move is not None
            assert set(legal) <= set(_bits(h.hand(h.to_move).mask)), _where(h, seed, dealer)

    _walk(data, h, before=before)
    assert h.legal_actions() == [] and h.to_move is None
