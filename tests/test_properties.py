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
* What a hand shows and keeps (observations, JSON, conservation, the legal
  list): tests/test_properties_views.py, on the same walks (tests/_walks.py).

Failures print the preset, seed, dealer and action history, which replay the
case with ``HandState.deal(preset, seed=..., dealer=...)`` and ``apply`` (for the
``KNOBS`` variants, pass the ``Variant`` instead of the name).
"""

from __future__ import annotations

import pytest
from _walks import (
    ALL_PRESETS,
    C_INT_MAX,
    C_INT_MIN,
    DEALERS,
    FAST,
    SEEDS,
    VARIANTS,
    _bits,
    _deal,
    _walk,
    _where,
    preset_param,
)
from hypothesis import assume, given
from hypothesis import strategies as st

from rook_core import (
    SEED_PRESETS,
    HandState,
    IllegalActionError,
    Phase,
    RookError,
    action_name,
)
from rook_core.actions import BID, N_ACTIONS, PASS, PENALTY, TRUMP
from rook_core.cards import card_name


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
                                    and not VARIANTS[p].stick_the_dealer
                                    and not VARIANTS[p].dealer_takes_minimum])
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


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS if VARIANTS[p].dealer_takes_minimum])
@FAST
@given(seed=SEEDS, dealer=DEALERS)
def test_H2_three_passes_make_the_dealer_declare_at_the_minimum(preset: str, seed: int, dealer: int) -> None:
    """H-2: when the other three pass, the dealer declares at min_bid, and no call is asked of it."""
    v = VARIANTS[preset]
    h = HandState.deal(v, seed=seed, dealer=dealer)
    for i in range(3):
        assert h.to_move == (dealer + 1 + i) % 4  # T-3
        h.apply(PASS)
    assert (h.declarer, h.high_bid) == (dealer, v.min_bid) and h.phase != Phase.BID
    assert len(h.history) == 3


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
    for t in (0, 1):   # H-1: a team that took every point scores the moon instead
        if v.moon_score and h.points[t] and not h.points[1 - t]:
            expected[t] = v.moon_score
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
    if step == "nest" and "discard" in order:  # H-3: the nest is taken, nothing is asked
        return _enter_step(h, idx + 1, decl)
    return (Phase.NEST if step in ("nest", "discard") else Phase.TRUMP), decl


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
        if not high and active == 1 and v.dealer_takes_minimum:  # H-2: the dealer, at min_bid
            return _enter_step(h, 0, h.dealer)
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
    if h.phase == Phase.NEST:  # T-20, T-21 (H-3: the discard step)
        step = "discard" if "discard" in order else "nest"
        return (Phase.NEST, s) if h.remaining > 1 else _enter_step(h, order.index(step) + 1, h.declarer)
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
                elif prev.high_bid == 0 and len(h.passed_seats) == 3 and v.dealer_takes_minimum:
                    assert (h.high_bid, h.declarer) == (v.min_bid, h.dealer), where   # H-2
                else:
                    assert h.high_bid == prev.high_bid and prev.to_move in h.passed_seats, where
                    assert h.declarer == prev.declarer, where
            if prev.phase == Phase.PLAY and a < 64 and len(prev.trick) == 3 and h.phase == Phase.PLAY:
                last = h.tricks[-1]
                assert h.to_move == h.leader == last["winner"], where
            nest_first = "discard" in v.post_bid_order     # H-3: taken as the bidding ends
            if prev.phase == Phase.BID and h.phase != Phase.BID and nest_first:
                d = h.declarer
                assert d is not None
                assert h.hand(d).mask == prev.hand(d).mask | prev.nest.mask and not h.nest, where
            if h.phase == Phase.NEST and prev.phase != Phase.NEST and not nest_first:  # T-20, T-21: nest taken
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

