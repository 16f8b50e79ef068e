"""Hypothesis properties of a trick-taking hand and a game, for every preset.

Each test runs for every preset (the seed presets first, then section 4)
and for two ``KNOBS`` variants that turn parameters no preset uses.
Hypothesis draws a seed, a dealer and, step by step, the index of the action
to take in ``legal_actions()``; a hand therefore always ends (bids only rise
and a pass is final, T-3 .. T-6, and every play removes a card, T-8).  Some
walks also slip in up to three T-35 penalty actions, which are allowed in any
phase and never listed.  The invariants checked:

* T-14: a scored hand's team points sum to the variant's total; a thrown-in
  hand (T-6) has none.  T-12/T-13: the points are the counters won plus the
  nest and bonuses; T-30 .. T-32: the score follows from points and bid;
  T-35: a penalty changes the score and nothing else.
* T-3 .. T-8, T-20 .. T-22: the phase and seat to move after every action
  follow an independent model of the rule book.
* apply/undo restores the C state bit for bit, and undoing a whole hand gives
  back the fresh deal (T-2: the deal is a function of the seed).
* A refused action (a card not held, a card that breaks T-9/T-10, an action
  of another phase, a bid off the T-3 grid, any other number, a wrong seat)
  raises ``IllegalActionError`` and changes nothing.
* T-15, T-22: an observation never names another seat's unplayed card except
  the cards the seat itself passed; the nest is shown to the declarer only;
  and relabelling the cards a seat cannot know leaves its observation as it was.
* JSON round trips of a hand and a game rebuild equal states; a game's
  dealers, totals and end follow T-1, T-6, T-34, and undo crosses hands.
* C-3: the cards are conserved: hands, nest, played cards and the cards in
  transit while passing partition the deck.
* The legal list is never empty before the end and each listed action is
  accepted (and agrees with ``is_legal`` over the whole action space).

Failures print the preset, seed, dealer and action history, which replay the
case with ``HandState.deal(preset, seed=..., dealer=...)`` and ``apply`` (for the
``KNOBS`` variants, pass the ``Variant`` instead of the name).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rook_core import (
    PRESETS,
    SEED_PRESETS,
    HandState,
    IllegalActionError,
    Phase,
    RookError,
    Variant,
    action_name,
    parse_action,
)
from rook_core.actions import BID, N_ACTIONS, PASS, PENALTY, TRUMP
from rook_core.cards import CardSet, card_name, parse_card
from rook_core.errors import NotationError
from rook_core.game import Game

# The seed presets, then section 4, then variants that turn the knobs the
# presets leave alone (first lead, nest to declarer, buried counters, step order).
KNOBS: dict[str, Variant] = {
    "tournament+declarer-leads+nest-to-declarer+no-counter-discards": Variant.from_preset(
        "tournament", first_lead="declarer", nest_to="declarer", discard_counters=False),
    "partnership-57+nest-pass-trump+declarer-leads+jumps": Variant.from_preset(
        "partnership-57", post_bid_order=("nest", "pass", "trump"), first_lead="declarer",
        jump_bids=True, opener_must_bid=False, bird_rank=10.5),
}
VARIANTS: dict[str, Variant] = {p: PRESETS[p] for p in SEED_PRESETS}
VARIANTS.update({p: v for p, v in PRESETS.items() if p not in SEED_PRESETS})
VARIANTS.update(KNOBS)
ALL_PRESETS = list(VARIANTS)

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
DEALERS = st.integers(min_value=0, max_value=3)
C_INT_MIN, C_INT_MAX = -(2**31), 2**31 - 1

# One budget for the whole file (about 30 s on a small machine): every test
# runs once per variant (11), so the per-test counts are small.  Set
# ROOK_PROPERTY_SCALE (e.g. 50) for a deeper hunt with the same tests.
SCALE = float(os.environ.get("ROOK_PROPERTY_SCALE", "1"))
HEALTH = [HealthCheck.too_slow, HealthCheck.large_base_example]
FAST = settings(max_examples=max(1, round(10 * SCALE)), deadline=None, suppress_health_check=HEALTH)
SLOW = settings(max_examples=max(1, round(5 * SCALE)), deadline=None, suppress_health_check=HEALTH)

preset_param = pytest.mark.parametrize("preset", ALL_PRESETS)


# ----------------------------------------------------------------- helpers
class _Where:
    """A replayable description of a hand for assertion messages, built only
    when a message is printed (the hand's state at that moment)."""

    def __init__(self, h: HandState, seed: int, dealer: int, prefix: str = "") -> None:
        self.h, self.seed, self.dealer, self.prefix = h, seed, dealer, prefix

    def __str__(self) -> str:
        h = self.h
        return (f"{self.prefix}{h.variant.name} seed={self.seed} dealer={self.dealer} "
                f"phase={h.phase.label} history={[action_name(a) for a in h.history]}")


def _where(h: HandState, seed: int, dealer: int, prefix: str = "") -> _Where:
    """Return a lazy replayable description of ``h`` (see :class:`_Where`)."""
    return _Where(h, seed, dealer, prefix)


MAX_PENALTIES = 3  # per walk: Hypothesis likes repeating a choice, which would make walks endless


def _choose(data: st.DataObject, h: HandState, penalties: bool) -> int:
    """Draw the next action: an index into the legal list, or now and then a penalty (T-35)."""
    legal = h.legal_actions()
    assert legal, f"no legal action before the end of the hand ({h!r})"
    if penalties and data.draw(st.integers(0, 15), label="penalty?") == 7:
        return PENALTY + data.draw(st.integers(0, 1), label="penalty team")
    return legal[data.draw(st.integers(0, len(legal) - 1), label="legal index")]


def _walk(data: st.DataObject, h: HandState, *, penalties: bool = False,
          before: Callable[[HandState, int], None] | None = None,
          after: Callable[[HandState], None] | None = None) -> HandState:
    """Play drawn actions on ``h`` until the hand is over; call the hooks around each.

    At most ``MAX_PENALTIES`` penalty actions are drawn, so the walk is finite."""
    if after is not None:
        after(h)
    n_pen = 0
    while not h.is_over:
        a = _choose(data, h, penalties and n_pen < MAX_PENALTIES)
        n_pen += a in (PENALTY, PENALTY + 1)
        if before is not None:
            before(h, a)
        h.apply(a)
        if after is not None:
            after(h)
    event(f"hand ends {h.phase.label}")
    return h


def _deal(preset: str, data: st.DataObject) -> tuple[HandState, int, int]:
    seed = data.draw(SEEDS, label="seed")
    dealer = data.draw(DEALERS, label="dealer")
    return HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer), seed, dealer


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CARD_IDS: dict[str, int] = {}
for _c in range(64):
    try:
        _CARD_IDS[card_name(_c).lower()] = _c
    except NotationError:
        pass
_CARD_IDS["crow"] = int(parse_card("Crow"))


def _card_names_in(obj: Any) -> set[int]:
    """Return the ids of every card written anywhere in ``obj`` (keys and values)."""
    found: set[int] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str):
            c = _CARD_IDS.get(x.strip().lower())
            if c is not None:
                found.add(c)
    return found


def _mask(cards: set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ------------------------------------------------- T-14: points and scores
@preset_param
@FAST
@given(data=st.data())
def test_T14_points_sum_to_total(preset: str, data: st.DataObject) -> None:
    """T-14: both teams' hand points sum to the total; T-6: a thrown-in hand has none."""
    h, seed, dealer = _deal(preset, data)
    _walk(data, h, penalties=True)
    v = h.variant
    if h.phase == Phase.DONE:
        assert sum(h.points) == v.total_points, (
            f"points {h.points} sum to {sum(h.points)}, not {v.total_points}: {_where(h, seed, dealer)}")
    else:
        assert h.phase == Phase.THROWN_IN
        assert h.points == (0, 0), f"thrown-in hand has points {h.points}: {_where(h, seed, dealer)}"
        assert h.declarer is None and h.high_bid == 0
        assert h.score == h.penalties, _where(h, seed, dealer)
    assert h.to_move is None and h.legal_actions() == []


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS
                                    if not VARIANTS[p].opener_must_bid
                                    and not VARIANTS[p].stick_the_dealer])
@FAST
@given(seed=SEEDS, dealer=DEALERS)
def test_T6_all_pass_throws_the_hand_in(preset: str, seed: int, dealer: int) -> None:
    """T-6: four passes throw the hand in, with no declarer, points or score."""
    h = HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer)
    for i in range(4):
        assert h.to_move == (dealer + 1 + i) % 4  # T-3
        h.apply(PASS)
    assert h.phase == Phase.THROWN_IN and h.is_over
    assert h.points == (0, 0) and h.score == (0, 0) and h.declarer is None


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if VARIANTS[p].opener_must_bid])
@FAST
@given(seed=SEEDS, dealer=DEALERS)
def test_T6_opener_must_bid(preset: str, seed: int, dealer: int) -> None:
    """T-6: with opener_must_bid the first seat cannot pass, so no hand is thrown in."""
    h = HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer)
    assert PASS not in h.legal_actions()
    with pytest.raises(IllegalActionError):
        h.apply(PASS)


@preset_param
@FAST
@given(data=st.data())
def test_T12_T13_points_are_counters_won_plus_nest_and_bonuses(preset: str, data: st.DataObject) -> None:
    """T-12, T-13: during play a team's points are the counters in its tricks;
    at the end the nest goes with the last trick (or the declarer) plus the bonuses."""
    h, seed, dealer = _deal(preset, data)
    v = h.variant
    pts = v.points_table

    def check(h: HandState) -> None:
        if h.phase == Phase.PLAY:
            for t in (0, 1):
                assert h.points[t] == sum(pts[c] for c in h.won(t)), _where(h, seed, dealer)

    _walk(data, h, after=check)
    assume(h.phase == Phase.DONE)
    expected = [sum(pts[c] for c in h.won(t)) for t in (0, 1)]
    assert h.leader is not None and h.declarer is not None
    last = h.leader & 1  # the winner of the last trick leads the (empty) next one
    nest_team = h.declarer & 1 if v.nest_to == "declarer" else last
    expected[nest_team] += sum(pts[c] for c in h.nest)
    expected[last] += v.last_trick_bonus
    if h.tricks_won[0] != h.tricks_won[1]:
        expected[0 if h.tricks_won[0] > h.tricks_won[1] else 1] += v.most_tricks_bonus
    assert list(h.points) == expected, _where(h, seed, dealer)
    assert h.nest_points == sum(pts[c] for c in h.nest)
    assert sum(h.tricks_won) == v.hand_size


@preset_param
@FAST
@given(data=st.data())
def test_T30_T32_hand_score_follows_points_and_bid(preset: str, data: st.DataObject) -> None:
    """T-30 .. T-32, T-35: the defenders score their points; the declarer's team
    scores points or bid when made, minus bid or points when set; penalties add."""
    h, seed, dealer = _deal(preset, data)
    _walk(data, h, penalties=True)
    assume(h.phase == Phase.DONE)
    v = h.variant
    assert h.declarer is not None
    d = h.declarer & 1
    expected = [0, 0]
    expected[1 - d] = h.points[1 - d]
    if h.points[d] >= h.high_bid:
        assert h.made is True
        expected[d] = h.high_bid if v.made_scores == "bid" else h.points[d]
    else:
        assert h.made is False
        expected[d] = -h.high_bid if v.set_loses == "bid" else -h.points[d]
    n_pen = [h.history.count(PENALTY), h.history.count(PENALTY + 1)]
    assert h.penalties == (-v.penalty_points * n_pen[0], -v.penalty_points * n_pen[1])
    assert list(h.score) == [expected[t] + h.penalties[t] for t in (0, 1)], _where(h, seed, dealer)


# ------------------------------------------- T-3 .. T-8, T-20 .. T-22: turn order
def _enter_step(h: HandState, idx: int, decl: int | None) -> tuple[Phase, int | None]:
    """Return the (phase, seat to move) that post-bid step ``idx`` starts with (T-7, T-8)."""
    v = h.variant
    order = v.post_bid_order
    if idx >= len(order):
        return Phase.PLAY, (decl if v.first_lead == "declarer" else (h.dealer + 1) % 4)
    step = order[idx]
    if step == "pass":
        return Phase.PASS, (h.dealer + 1) % 4  # T-22: every seat in turn from the dealer's left
    return (Phase.NEST if step == "nest" else Phase.TRUMP), decl


def _expected_next(h: HandState, a: int) -> tuple[Phase, int | None]:
    """Return the (phase, seat to move) RULES.md gives after ``a`` (None: the trick winner)."""
    v = h.variant
    s = h.to_move
    assert s is not None
    order = v.post_bid_order
    if a in (PENALTY, PENALTY + 1):  # T-35: does not change the turn
        return h.phase, s
    if h.phase == Phase.BID:
        passed = set(h.passed_seats)
        high = h.high_bid
        if a == PASS:
            passed.add(s)  # T-4
        else:
            high = a - BID
        active = 4 - len(passed)
        if high == v.max_bid or (high and active == 1):  # T-5: the last bidder declares
            return _enter_step(h, 0, s if a != PASS else h.declarer)
        if active == 0:  # T-6
            return Phase.THROWN_IN, None
        t = (s + 1) % 4  # T-3: clockwise, skipping passed seats
        while t in passed:
            t = (t + 1) % 4
        return Phase.BID, t
    if h.phase == Phase.TRUMP:
        return _enter_step(h, order.index("trump") + 1, h.declarer)
    if h.phase == Phase.NEST:  # T-20, T-21
        return (Phase.NEST, s) if h.remaining > 1 else _enter_step(h, order.index("nest") + 1, h.declarer)
    if h.phase == Phase.PASS:  # T-22
        if h.remaining > 1:
            return Phase.PASS, s
        return (Phase.PASS, (s + 1) % 4) if s != h.dealer else _enter_step(h, order.index("pass") + 1, h.declarer)
    assert h.phase == Phase.PLAY
    if len(h.trick) < 3:  # T-8: clockwise
        return Phase.PLAY, (s + 1) % 4
    if sum(h.tricks_won) + 1 == v.hand_size:
        return Phase.DONE, None
    return Phase.PLAY, None  # the trick's winner leads (T-8, T-11: parity-tested elsewhere)


@preset_param
@FAST
@given(data=st.data())
def test_T3_T8_T20_T22_phase_and_turn_order(preset: str, data: st.DataObject) -> None:
    """T-3 .. T-8, T-20 .. T-22: the phase and the seat to move after each
    action follow the rule book; bids only rise; the declarer is the last
    bidder; the nest joins the declarer's hand (T-20, T-21); passed cards
    reach the right-hand neighbour (T-22); the trick winner leads the next trick."""
    h, seed, dealer = _deal(preset, data)
    v = h.variant

    def before(h: HandState, a: int) -> None:
        where = _where(h, seed, dealer, f"after {action_name(a)}: ")
        want_phase, want_seat = _expected_next(h, a)
        prev = h.clone()
        h.apply(a)
        try:
            assert h.phase == want_phase, f"phase {h.phase.label}, expected {want_phase.label} {where}"
            if want_seat is not None:
                assert h.to_move == want_seat, f"seat {h.to_move} to move, expected {want_seat} {where}"
            if prev.phase == Phase.BID and a not in (PENALTY, PENALTY + 1):
                if a != PASS:
                    assert h.high_bid == a - BID > prev.high_bid and h.declarer == prev.to_move, where
                else:
                    assert h.high_bid == prev.high_bid and prev.to_move in h.passed_seats, where
                    assert h.declarer == prev.declarer, where
            if prev.phase == Phase.PLAY and a < 64 and len(prev.trick) == 3 and h.phase == Phase.PLAY:
                last = h.tricks()[-1]
                assert h.to_move == h.leader == last["winner"], where
            if h.phase == Phase.NEST and prev.phase != Phase.NEST:  # T-20, T-21: nest taken
                d = h.declarer
                assert d is not None
                assert h.hand(d).mask == prev.hand(d).mask | prev.nest.mask, where
                assert len(h.hand(d)) == v.hand_size + v.nest_size and h.remaining == v.nest_size
            if prev.phase == Phase.NEST and h.phase != Phase.NEST:  # discards done
                assert h.declarer is not None
                assert len(h.hand(h.declarer)) == v.hand_size and len(h.nest) == v.nest_size, where
            if prev.phase == Phase.PASS and h.phase != Phase.PASS:  # T-22: to seat - 1
                for t in range(4):
                    kept = prev.hand(t).mask & ~(1 << a if t == prev.to_move else 0)
                    gave, received = h.passing(t).mask, h.passing((t + 1) % 4).mask
                    assert gave.bit_count() == v.pass_cards and gave & kept == 0, where
                    assert h.hand(t).mask == kept | received, where
        finally:
            h.undo()

    _walk(data, h, penalties=True, before=before)


@preset_param
@FAST
@given(data=st.data())
def test_T35_penalty_changes_only_the_score(preset: str, data: st.DataObject) -> None:
    """T-35: a penalty takes penalty_points from that team's score at once, in
    any phase (the end included), and changes nothing else."""
    h, seed, dealer = _deal(preset, data)
    v = h.variant

    def check(h: HandState) -> None:
        team = len(h) % 2
        prev = h.clone()
        h.apply(PENALTY + team)
        where = _where(h, seed, dealer)
        want = list(prev.score)
        want[team] -= v.penalty_points
        assert list(h.score) == want and h.points == prev.points, where
        assert h.phase == prev.phase and h.to_move == prev.to_move, where
        assert h.legal_actions() == prev.legal_actions(), where
        seat = len(h) % 4
        o1, o2 = h.observation(seat), prev.observation(seat)
        o1.pop("score"), o2.pop("score")
        assert o1 == o2, where
        h.undo()
        assert h == prev

    _walk(data, h, after=check)


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if VARIANTS[p].nest_size
                                    or VARIANTS[p].pass_cards])
@FAST
@given(data=st.data())
def test_T20_T22_T35_discard_and_pass_take_exactly_the_due_cards(preset: str,
                                                                  data: st.DataObject) -> None:
    """T-20, T-21, T-22, T-35: ``discard``/``pass_cards`` with a wrong number of
    cards (the misplay of T-35), or with a card the rules refuse, change nothing;
    with exactly the due cards they equal applying the cards one by one."""
    h, seed, dealer = _deal(preset, data)

    def before(h: HandState, _a: int) -> None:
        if h.phase not in (Phase.NEST, Phase.PASS) or h.remaining != (
                h.variant.nest_size if h.phase == Phase.NEST else h.variant.pass_cards):
            return
        assert h.to_move is not None
        method = h.discard if h.phase == Phase.NEST else h.pass_cards
        held = sorted(_bits(h.hand(h.to_move).mask))
        raw, n = h.raw_bytes(), len(h)
        k = data.draw(st.integers(0, len(held)).filter(lambda k: k != h.remaining), label="k")
        cards = data.draw(st.lists(st.sampled_from(held), min_size=k, max_size=k, unique=True),
                          label="wrong count")
        with pytest.raises(IllegalActionError):
            method([card_name(c) for c in cards])
        assert h.raw_bytes() == raw and len(h) == n, _where(h, seed, dealer)
        wrong = data.draw(st.integers(0, 3).filter(lambda x: x != h.to_move), label="wrong seat")
        some = data.draw(st.lists(st.sampled_from(held), min_size=h.remaining,
                                  max_size=h.remaining, unique=True), label="due cards")
        with pytest.raises(IllegalActionError):
            method([card_name(c) for c in some], seat=wrong)
        assert h.raw_bytes() == raw and len(h) == n, _where(h, seed, dealer)
        ref = h.clone()
        try:
            for c in sorted(some, key=lambda c: (c == 15, c)):  # CardSet order: bird last
                ref.apply(c)
        except IllegalActionError:
            with pytest.raises(IllegalActionError):  # T-20 discard_counters: all or nothing
                method(" ".join(card_name(c) for c in some), seat=h.to_move)
            assert h.raw_bytes() == raw and len(h) == n, _where(h, seed, dealer)
            return
        method(" ".join(card_name(c) for c in some), seat=h.to_move)
        assert h == ref, _where(h, seed, dealer)
        while len(h) > n:
            h.undo()

    _walk(data, h, before=before)


# -------------------------------------------------------- apply / undo
@preset_param
@FAST
@given(data=st.data())
def test_undo_restores_state_bit_for_bit(preset: str, data: st.DataObject) -> None:
    """Undo after every apply gives back the exact C state, history and equality."""
    h, seed, dealer = _deal(preset, data)

    def before(h: HandState, a: int) -> None:
        snap = h.clone()
        raw = h.raw_bytes()
        hist = h.history
        h.apply(a)
        assert h.history == hist + [a]
        assert h != snap, f"{action_name(a)} changed nothing: {_where(h, seed, dealer)}"
        assert snap.raw_bytes() == raw, "the clone shares state with the original"
        h.undo()
        assert h.raw_bytes() == raw, f"undo of {action_name(a)} differs: {_where(h, seed, dealer)}"
        assert h == snap and h.history == hist, _where(h, seed, dealer)
        h.apply(a)
        assert h.pop() == a
        assert h.raw_bytes() == raw and h == snap

    _walk(data, h, penalties=True, before=before)


@preset_param
@FAST
@given(data=st.data())
def test_T2_undo_whole_hand_equals_fresh_deal(preset: str, data: st.DataObject) -> None:
    """T-2: undoing every action returns to the seeded deal exactly."""
    h, seed, dealer = _deal(preset, data)
    fresh = HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer)
    assert h == fresh and h.raw_bytes() == fresh.raw_bytes()  # the deal is reproducible
    _walk(data, h, penalties=True)
    final = h.clone()
    n = len(h)
    for _ in range(n):
        h.undo()
    assert h == fresh and h.raw_bytes() == fresh.raw_bytes() and h.history == [], \
        _where(final, seed, dealer)
    with pytest.raises(IllegalActionError):
        h.undo()
    assert h == fresh
    for a in final.history:  # and replaying the history gives the same end
        h.apply(a)
    assert h == final and h.raw_bytes() == final.raw_bytes()


@preset_param
@FAST
@given(seed=SEEDS, dealer=DEALERS)
def test_T2_deal_is_a_partition_of_the_deck(preset: str, seed: int, dealer: int) -> None:
    """T-2, C-3: every seat gets hand_size cards, the nest nest_size, from one deck."""
    h = HandState.deal(VARIANTS[preset], seed=seed, dealer=dealer)
    v = h.variant
    masks = [h.hand(s).mask for s in range(4)] + [h.nest.mask]
    assert [m.bit_count() for m in masks] == [v.hand_size] * 4 + [v.nest_size]
    union = 0
    for m in masks:
        assert union & m == 0
        union |= m
    assert union == v.deck_mask
    assert h.dealt_nest == h.nest
    assert h.phase == Phase.BID and h.to_move == (dealer + 1) % 4 and h.dealer == dealer


# ----------------------------------------------------- refused actions
def _refusal_targets(h: HandState) -> list[int]:
    """Return actions that the rules refuse now, chosen to probe each rule:
    held cards that break T-9/T-10/T-20, other seats' cards, cards outside the
    deck, actions of the other phases, bids off the T-3 grid, unknown numbers."""
    v = h.variant
    legal = set(h.legal_actions()) | {PENALTY, PENALTY + 1}
    out: list[int] = []
    if h.to_move is not None:
        out += list(_bits(h.hand(h.to_move).mask))  # held (legal ones are dropped below)
        others = [c for s in range(4) if s != h.to_move for c in _bits(h.hand(s).mask)]
        out += others[:: max(1, len(others) // 4)]
    out += [c for c in range(64) if not v.deck_mask >> c & 1][:3]  # not in the deck
    out += [c for c in _bits(h.played.mask)][-2:] + list(_bits(h.nest.mask))[:2]
    out += [PASS, TRUMP, TRUMP + 3, 71, -1, C_INT_MIN, C_INT_MAX, N_ACTIONS, N_ACTIONS + 1,
            BID, BID + v.min_bid - v.bid_step, BID + v.max_bid + v.bid_step,
            BID + v.min_bid + 1, BID + h.high_bid, BID + h.high_bid + v.bid_step,
            BID + v.max_bid, BID + 1000, N_ACTIONS - 1]
    return [a for a in dict.fromkeys(out) if a not in legal]


def _assert_refused(h: HandState, a: int, seat: int | None, where: object) -> None:
    raw, n = h.raw_bytes(), len(h)
    hist = h.history[-1:]
    try:
        if seat is None:
            h.apply(a)
        else:
            h.apply(a, seat=seat)
    except IllegalActionError:
        pass
    except Exception as e:  # noqa: BLE001 - report what was raised instead
        raise AssertionError(f"apply({a}, seat={seat}) raised {type(e).__name__}: {e}, "
                             f"not IllegalActionError: {where}") from e
    else:
        raise AssertionError(f"apply({a}, seat={seat}) was accepted: {where}")
    assert h.raw_bytes() == raw and len(h) == n and (n == 0 or h.history[-1] == hist[-1]), (
        f"refused action {a} (seat={seat}) changed the state: {where}")


@preset_param
@FAST
@given(data=st.data())
def test_refused_action_changes_nothing(preset: str, data: st.DataObject) -> None:
    """Every action outside the legal list (penalties aside) is refused with
    IllegalActionError and leaves the state and history unchanged: at every
    step a fixed probe of each rule plus a drawn number of the action space."""
    h, seed, dealer = _deal(preset, data)
    drawn = st.one_of(st.integers(0, N_ACTIONS + 2), st.integers(C_INT_MIN, C_INT_MAX))

    def probe(h: HandState) -> None:
        legal = set(h.legal_actions()) | {PENALTY, PENALTY + 1}
        extra = data.draw(drawn, label="random action")
        for a in _refusal_targets(h) + ([extra] if extra not in legal else []):
            assert not h.is_legal(a), f"is_legal({a}) but not listed: {_where(h, seed, dealer)}"
            _assert_refused(h, a, None, _where(h, seed, dealer, f"action {a}: "))

    _walk(data, h, after=probe)  # the last call probes the finished hand


@preset_param
@FAST
@given(data=st.data())
def test_wrong_seat_refused_changes_nothing(preset: str, data: st.DataObject) -> None:
    """T-3, T-8: a legal action offered by a seat that is not to move is
    refused and changes nothing; after the end every seat is refused."""
    h, seed, dealer = _deal(preset, data)

    def before(h: HandState, a: int) -> None:
        for wrong in range(4):
            if wrong != h.to_move:
                _assert_refused(h, a, wrong, _where(h, seed, dealer, f"seat {wrong} tries "
                                                                     f"{action_name(a)}: "))

    _walk(data, h, before=before)
    for s in range(4):
        _assert_refused(h, PASS, s, _where(h, seed, dealer, f"seat {s} after the end: "))


@pytest.mark.parametrize("preset", list(SEED_PRESETS))
@FAST
@given(data=st.data(), a=st.one_of(st.integers(max_value=C_INT_MIN - 1),
                                   st.integers(min_value=C_INT_MAX + 1)))
def test_refused_huge_action_number_raises_rook_error(preset: str, data: st.DataObject, a: int) -> None:
    """An action number outside every encoding, however large, is refused with a
    RookError (errors.py: every public entry point raises one of these)."""
    h, seed, dealer = _deal(preset, data)
    raw = h.raw_bytes()
    with pytest.raises(RookError):
        h.apply(a)
    assert h.raw_bytes() == raw and h.history == []


# ------------------------------------------------------ T-15 observations
def _check_observations(h: HandState, where: object) -> None:
    decl = h.declarer
    played = h.played.mask
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
        leak = seen & others & ~passed
        assert leak == 0, (f"seat {seat} sees {CardSet(leak)} of another seat's hand: "
                           f"{where}\nobservation: {obs}")
        assert CardSet.parse(obs["hand"]).mask == own, where
        if passed:  # T-22: a seat knows what it passed
            assert CardSet.parse(obs.get("passed", [])).mask == passed, where
        nest_now = h.nest.mask
        dealt = h.dealt_nest.mask
        knows_nest = "nest" in obs or "discarded" in obs
        if knows_nest:
            assert seat == decl, f"seat {seat} (declarer {decl}) is shown the nest: {where}"
            assert h.phase not in (Phase.BID, Phase.THROWN_IN), where
        else:
            # T-15: the nest (discards) and the dealt nest's unseen cards stay hidden
            hidden = (nest_now | dealt) & ~(own | played | passed)
            assert seen & hidden == 0, (f"seat {seat} sees nest cards {CardSet(seen & hidden)} "
                                        f"without being shown the nest: {where}\nobservation: {obs}")
        if seat != decl:
            assert not knows_nest
        allowed = own | played | passed | (dealt | nest_now if knows_nest else 0)
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
    """T-15, T-22: no observation names another seat's unplayed card, except the
    cards this seat passed; only the declarer (once it took it) sees the nest."""
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
    steps = {Phase.NEST: "nest", Phase.TRUMP: "trump", Phase.PASS: "pass"}

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
