"""HandState: one trick-taking hand, from the deal to the score (T-1 .. T-35).

The state machine is native (:class:`rook_core._native.HandCore`: a C
struct, an undo stack, apply and the legal actions over ints).  This class
adds what people and other programs read and write: card names, the text
forms of actions, the JSON form, the observation of a seat.  Every public
method validates its input; a refused action raises
:class:`~rook_core.errors.IllegalActionError` citing the rule and leaves the
state unchanged.
"""

from __future__ import annotations

import reprlib
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from . import _layout as L
from ._html import html_table
from ._native import HandCore, check_seat, rules_for
from .actions import Phase, action_name, parse_action, replay
from .cards import Card, CardSet, card_name, color_name, parse_card, parse_cards, parse_color
from .errors import IllegalActionError, NotationError, RookError, VariantError, as_int
from .jsonio import read_document
from .observation import Observation, TrickSeen
from .rng import check_seed
from .variant import PRESETS, Variant, as_variant

if TYPE_CHECKING:
    from .position import Position

__all__ = ["HandState"]

# the rule of each phase a seat acts out of turn in, and why (T-3 .. T-22)
_TURN_RULES = {
    Phase.BID: ("T-3", "the bidding goes clockwise"),
    Phase.NEST: ("T-20", "only the declarer handles the nest"),
    Phase.TRUMP: ("T-7", "the declarer names trump"),
    Phase.PASS: ("T-22", "seats pass their cards in turn"),
    Phase.PLAY: ("T-8", "play goes clockwise from the leader"),
}

# a card that is not in the mover's hand cites the rule of the phase
_NOT_IN_HAND_RULES = {Phase.NEST: "T-20", Phase.PASS: "T-22"}


HAND_FORMAT = "rook-hand/1"
# the longest action text (``trump Y``, ``penalty 0``, ``bid 1000``) is far shorter
_MAX_ACTION_TEXT = 40


def _number(value: object, what: str, top: int, error: type[RookError]) -> int:
    """``value`` as an int 0..``top``: an int or a NumPy integer, never a bool,
    a float or text (``what`` names the argument in the error)."""
    if type(value) is int and 0 <= value <= top:    # the usual case, at once
        return value
    n = as_int(value)
    if n is None or not 0 <= n <= top:
        kind = "a seat 0..3" if top == 3 else "0 (seats 0 and 2) or 1 (seats 1 and 3)"
        raise error(f"{what} must be {kind}, not {reprlib.repr(value)}")
    return n


def _seat(seat: object, what: str = "seat") -> int:
    """``seat`` checked to be a seat 0..3 (RULES.md: seats 0, 1, 2, 3)."""
    return _number(seat, what, 3, RookError)


def _actor(seat: object) -> None:
    """Refuse an action's ``seat`` argument that is neither None nor a seat 0..3."""
    if seat is not None:
        _number(seat, "the seat of an action", 3, IllegalActionError)


def _parse_action_text(text: str | int) -> int:
    """The action written ``text`` (as :func:`~rook_core.actions.parse_action`);
    a text far longer than any action's is refused at once, quoted short."""
    if isinstance(text, str) and len(text) > _MAX_ACTION_TEXT:
        raise NotationError(f"unknown action {reprlib.repr(text)}: no action's text is longer than "
                            f"{_MAX_ACTION_TEXT} characters", text)
    return parse_action(text)


def _check_actions(actions: object, what: str) -> None:
    """Refuse a document's ``actions`` entry that is neither an action's text nor its number."""
    if isinstance(actions, list):
        for i, a in enumerate(actions):
            if isinstance(a, bool) or not isinstance(a, (int, str)) or (
                    isinstance(a, str) and len(a) > _MAX_ACTION_TEXT):
                raise NotationError(f"{what} action {i} must be an action's text or number, "
                                    f"not {reprlib.repr(a)}", a)


def _rebuild(cls: type[HandState], doc: dict[str, Any]) -> HandState:
    """Unpickle a hand: the state its JSON form replays (see :meth:`HandState.__reduce__`)."""
    return cls.from_json(doc)


def _card_action(card: int | str) -> int:
    if isinstance(card, int) and not isinstance(card, bool):
        Card(card)
        return card
    return int(parse_card(cast(str, card)))   # parse_card names what it cannot read


class _CalledOnce(list):  # type: ignore[type-arg]
    """A list that can still be called as the method it used to be: the call
    warns (:class:`DeprecationWarning`) and returns the list itself."""

    def __init__(self, items: list[Any], name: str) -> None:
        super().__init__(items)
        self._name = name

    def __call__(self) -> list[Any]:
        warnings.warn(f"{self._name} is a property now: drop the call's parentheses", DeprecationWarning,
                      stacklevel=2)
        return self


class HandState(HandCore):
    """One hand of a trick-taking variant, from the deal to the score.

    >>> from rook_core import HandState
    >>> h = HandState.deal("tournament", seed=1)
    >>> h.phase.label, h.to_move, len(h.hand(1))
    ('bid', 1, 9)
    >>> h.apply_text("bid 70"); h.to_move
    2
    >>> h.undo(); h.to_move
    1
    """

    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Refuse ``HandState()``: a hand is dealt (:meth:`deal`, :meth:`from_hands`)
        or read (:meth:`from_position`, :meth:`from_json`), never built empty."""
        raise RookError("a HandState is made by HandState.deal, from_hands, from_position or from_json, "
                        "not by calling the class")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the JSON form, which :meth:`from_json` replays to an equal state."""
        return (_rebuild, (type(self), self.to_json()))

    # ------------------------------------------------------------ creation
    @classmethod
    def deal(cls, variant: Variant | str, seed: int = 0, dealer: int | None = None) -> HandState:
        """Return a new hand dealt from ``seed`` (T-2) by ``dealer``
        (default: the variant's first dealer, T-1).

        :raises VariantError: for an unknown preset name.
        :raises RookError: for a seed that is not an int 0 .. 2**64-1.
        """
        v = as_variant(variant)
        seed = check_seed(seed)
        st = cls.__new__(cls)
        st._start_deal(rules_for(v), v.first_dealer if dealer is None else dealer, seed)
        return st

    @classmethod
    def from_hands(cls, variant: Variant | str, hands: list[Any], nest: Iterable[Any] = (),
                   dealer: int | None = None) -> HandState:
        """Return a hand at the start of bidding with the given cards dealt.

        :raises NotationError: naming a bad, foreign or repeated card.
        :raises RookError: for hand sizes that do not fit the variant (T-2).
        """
        v = as_variant(variant)
        if dealer is None:
            dealer = v.first_dealer
        check_seat(dealer, "dealer")
        rules = rules_for(v)
        try:
            if isinstance(hands, (str, bytes, Mapping)):
                raise TypeError
            hands = list(hands)
        except TypeError:
            hands = []
        if len(hands) != 4:
            raise RookError("hands must be a list of 4 hands (T-2)")
        seen = 0
        masks = []
        for s in range(4):
            m = parse_cards(hands[s], deck_mask=v.deck_mask, what=f"hand {s}")
            if m & seen:
                raise NotationError(f"hand {s} repeats a card of another hand: "
                                    f"{CardSet(m & seen)}", str(CardSet(m & seen)))
            if m.bit_count() != v.hand_size:
                raise RookError(f"hand {s} has {m.bit_count()} cards, the variant deals "
                                f"{v.hand_size} (T-2)")
            seen |= m
            masks.append(m)
        nm = parse_cards(nest, deck_mask=v.deck_mask, what="nest")
        if nm & seen:
            raise NotationError(f"the nest repeats a dealt card: {CardSet(nm & seen)}",
                                str(CardSet(nm & seen)))
        if nm.bit_count() != v.nest_size:
            raise RookError(f"the nest has {nm.bit_count()} cards, the variant puts "
                            f"{v.nest_size} there (T-2)")
        st = cls.__new__(cls)
        st._start_hands(rules, dealer, masks, nm)
        return st

    @classmethod
    def from_position(cls, position: dict[str, Any] | str | Position) -> HandState:
        """Return the play-phase state of a trick-play position (docs/formats:
        a dict, its JSON text, or a :class:`~rook_core.position.Position`).

        :raises PositionError: saying which field is inconsistent.
        """
        from .position import parse_position
        p = parse_position(position)
        v = p.variant
        done = v.hand_size - (p.hands[p.leader].bit_count() + (1 if p.trick else 0))
        st = cls.__new__(cls)
        st._start_position(rules_for(v), p.hands, p.trump, p.leader, p.trick, p.nest_points,
                           p.taken, done, p.tricks_won(), p)
        return st

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | bytes) -> HandState:
        """Return the state that :meth:`to_json` wrote (a dict or JSON text).

        :raises RookError: for a malformed document, naming the field that is
            wrong, or an action the rules refuse.
        """
        what = "hand JSON"
        data = read_document(data, what, HAND_FORMAT, ("variant", "start", "actions"), ("variant", "start", "actions"))
        v = data["variant"]
        try:
            if isinstance(v, dict):
                v = Variant.from_dict(v, complete=True)
            elif not isinstance(v, str):
                raise VariantError(f"must be a preset's name or a variant object, not {reprlib.repr(v)}")
            v = as_variant(v)
        except RookError as e:
            raise type(e)(f"{what} 'variant': {e}") from None
        start = data["start"]
        if not isinstance(start, dict) or len(start) != 1 or not {"deal", "position"} & set(start):
            raise RookError(f"{what} 'start' must be {{'deal': ...}} or {{'position': ...}}, "
                            f"not {reprlib.repr(start)}")
        if "deal" in start:
            st = cls._from_deal(v, start["deal"], f"{what} 'start.deal'")
        else:
            pos = start["position"]
            if not isinstance(pos, dict):
                raise RookError(f"{what} 'start.position' must be a position object (FORMATS.md), "
                                f"not {reprlib.repr(pos)}")
            try:
                st = cls.from_position(pos)
            except RookError as e:
                raise type(e)(f"{what} 'start.position': {e}") from None
            if st.variant != v:
                raise RookError(f"{what} 'start.position' is a position of {st.variant.name!r}, "
                                f"but the hand's 'variant' is {v.name!r}")
        actions = data["actions"]
        _check_actions(actions, what)
        replay(st, actions, what)
        return st

    @classmethod
    def _from_deal(cls, variant: Variant, deal: object, what: str) -> HandState:
        """The hand a document's ``start.deal`` object deals (``what`` names it)."""
        if not isinstance(deal, dict) or set(deal) != {"dealer", "hands", "nest"}:
            raise RookError(f"{what} needs exactly dealer, hands, nest, not {reprlib.repr(deal)}")
        hands, nest = deal["hands"], deal["nest"]
        if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, list) for h in hands):
            raise RookError(f"{what} 'hands' must be a list of 4 lists of cards, not {reprlib.repr(hands)}")
        if not isinstance(nest, list):
            raise RookError(f"{what} 'nest' must be a list of cards, not {reprlib.repr(nest)}")
        for name, cards in [(f"hands[{s}]", hands[s]) for s in range(4)] + [("nest", nest)]:
            for c in cards:
                if isinstance(c, bool) or not isinstance(c, (int, str)):
                    raise NotationError(f"{what} '{name}' holds {reprlib.repr(c)}, not a card", c)
        try:
            _seat(deal["dealer"], "dealer")
            return cls.from_hands(variant, hands, nest, deal["dealer"])
        except RookError as e:
            raise type(e)(f"{what}: {e}") from None

    def _start_dict(self) -> dict[str, Any]:
        """The start of this hand: the deal, or the position it was built from."""
        if self.start_info is not None:
            return {"position": self.start_info.to_dict()}
        dealer, hands, nest = self.start_masks
        return {"deal": {"dealer": dealer, "hands": [CardSet(m).names() for m in hands],
                         "nest": CardSet(nest).names()}}

    # ------------------------------------------------------------- actions
    def at_start(self) -> HandState:
        """Return a copy of this hand at its start: the deal before the first
        call, or the position it was built from (every action undone)."""
        start = self.clone()
        while len(start):
            start.undo()
        return start

    def legal_cards(self) -> CardSet:
        """Return the legal cards as a :class:`CardSet`."""
        return CardSet(self.legal_mask())

    def apply_text(self, text: str, seat: int | None = None) -> None:
        """Apply the action written ``text`` (``R14``, ``pass``, ``bid 75``, ``trump G``).

        :raises NotationError: for unreadable text.
        :raises IllegalActionError: as :meth:`apply`.
        """
        _actor(seat)
        self.apply(_parse_action_text(text), seat)

    def bid(self, amount: int, seat: int | None = None) -> None:
        """Bid ``amount`` points (T-3).

        :raises IllegalActionError: for anything but an int 1..1000, a seat
            that is not 0..3, or a bid the rules refuse.
        """
        _actor(seat)
        HandCore.bid(self, amount, seat)

    def pass_bid(self, seat: int | None = None) -> None:
        """Pass in the bidding (T-4)."""
        _actor(seat)
        HandCore.pass_bid(self, seat)

    def name_trump(self, color: int | str, seat: int | None = None) -> None:
        """Name ``color`` (``B``/``G``/``R``/``Y`` or 0..3) trump (T-7)."""
        _actor(seat)
        self.apply(L.ACTION_TRUMP + parse_color(color), seat)

    def play(self, card: int | str, seat: int | None = None) -> None:
        """Play ``card`` (text or id) to the trick (T-8 .. T-11).

        Only in the play phase: a card of the nest or pass phase is put away
        with :meth:`discard` or :meth:`pass_cards` (T-7).
        """
        _actor(seat)
        action = _card_action(card)
        ph = self.phase_id
        if ph == Phase.NEST or ph == Phase.PASS:
            other = "discard" if ph == Phase.NEST else "pass_cards"
            raise IllegalActionError(
                f"illegal action {card_name(action)}: cannot play a card in the {Phase(ph).label} phase; "
                f"cards go to tricks only in the play phase, and this phase's cards go with {other}() (T-7)",
                rule="T-7", action=action)
        self.apply(action, seat)

    def _apply_cards(self, phase: Phase, cards: Iterable[int | str] | str, seat: int | None, what: str,
                     rule: str) -> None:
        _actor(seat)
        if self.phase_id != phase:
            raise IllegalActionError(f"cannot {what} in the {self.phase.label} phase ({rule})", rule=rule)
        m = parse_cards(cards, deck_mask=self.variant.deck_mask, what=what)
        if m.bit_count() != self.remaining:
            raise IllegalActionError(
                f"{what}: exactly {self.remaining} card(s) are due, not {m.bit_count()} ({rule})",
                rule=rule)
        if seat is not None and seat != self.to_move:
            self._wrong_seat(seat, (m & -m).bit_length() - 1 if m else -1)
        snapshot = len(self)
        try:
            for c in CardSet(m):
                self.apply(int(c))
        except IllegalActionError:
            while len(self) > snapshot:
                self.undo()
            raise

    def discard(self, cards: Iterable[int | str] | str, seat: int | None = None) -> None:
        """Discard exactly the nest's size of cards as the declarer (T-20, T-21);
        a wrong count is refused (the T-35 misplay) and nothing changes."""
        self._apply_cards(Phase.NEST, cards, seat, "discard", "T-20")

    def pass_cards(self, cards: Iterable[int | str] | str, seat: int | None = None) -> None:
        """Put aside exactly the variant's number of cards to pass right (T-22)."""
        self._apply_cards(Phase.PASS, cards, seat, "pass", "T-22")

    # -------------------------------------------------------------- errors
    def _action_text(self, action: int, fallback: str) -> str:
        try:
            return action_name(action)
        except NotationError:
            return fallback

    def _wrong_seat(self, seat: object, action: int) -> None:
        """Refuse ``action`` offered by ``seat``, which is not to move (T-3 .. T-22)."""
        _actor(seat)
        what = self._action_text(action, "this action")
        if self.to_move is None:
            raise IllegalActionError(f"illegal action {what}: the hand is over, no seat is to "
                                     f"move (T-14)", rule="T-14", action=action)
        ph = self.phase
        if ph == Phase.BID and isinstance(seat, int) and seat in self.passed_seats:
            raise IllegalActionError(f"illegal action {what}: seat {seat} has passed and may not "
                                     f"bid again in this hand (T-4)", rule="T-4", action=action)
        rule, why = _TURN_RULES[ph]
        raise IllegalActionError(
            f"illegal action {what}: seat {seat} is not to move, seat {self.to_move} is "
            f"({why}, {rule})", rule=rule, action=action)

    def _ended_game(self, action: object) -> None:
        """Refuse ``action``: this is the last hand of a :class:`~rook_core.game.Game` that is over (T-34)."""
        num = action if type(action) is int else None
        what = reprlib.repr(action) if num is None else self._action_text(num, repr(num))
        raise IllegalActionError(f"illegal action {what}: the game is over (T-34); its last hand takes no more "
                                 f"actions (Game.undo() reopens it)", rule="T-34", action=num)

    def _refused(self, err: int, action: int) -> None:
        """Refuse ``action``, answered with code ``err``: the code's rule and
        message come from the one table of refusals (rook_core._layout)."""
        if not 0 < err <= len(L.REFUSALS):
            raise IllegalActionError(f"illegal action {self._action_text(action, repr(action))}: "
                                     f"refused (code {err})", action=action)
        _, rule, message = L.REFUSALS[err - 1]
        if rule == "by phase":
            rule = _NOT_IN_HAND_RULES.get(self.phase, "T-8")
        v = self.variant
        high = self.high_bid
        led = self.led_card
        text = message.format(
            name=self._action_text(action, repr(action)), action=action, seat=self.to_move,
            phase=self.phase.label, led=card_name(led) if led is not None else "",
            trump=color_name(self.trump) if self.trump is not None else "",
            min_bid=v.min_bid, max_bid=v.max_bid, step=v.bid_step, high=high,
            next=high + v.bid_step if high else v.min_bid)
        raise IllegalActionError(f"illegal action {text} ({rule})" if rule else f"illegal action {text}",
                                 rule=rule, action=action)

    # --------------------------------------------------------------- views
    if TYPE_CHECKING:   # the core's variant is the Variant it was dealt with
        @property
        def variant(self) -> Variant: ...

    @property
    def phase(self) -> Phase:
        """The current :class:`~rook_core.actions.Phase`."""
        return Phase(self.phase_id)

    def seat_to_move(self) -> int:
        """Return the seat to act (``to_move``, never None).

        :raises IllegalActionError: once the hand is over (T-14).
        """
        seat = self.to_move
        if seat is None:
            raise IllegalActionError(f"the hand is over ({self.phase.label}): no seat is to move (T-14)",
                                     rule="T-14")
        return seat

    def hand(self, seat: int) -> CardSet:
        """Return seat's cards as a :class:`CardSet`."""
        return CardSet(self.hand_mask(_seat(seat)))

    @property
    def nest(self) -> CardSet:
        """The nest: as dealt before the exchange, the discards after it (T-20)."""
        return CardSet(self.nest_mask)

    @property
    def dealt_nest(self) -> CardSet:
        return CardSet(self.dealt_nest_mask)

    @property
    def trick(self) -> list[Card]:
        """The cards of the current trick in play order."""
        return [Card(c) for c in self.trick_ids]

    @property
    def trick_seats(self) -> list[tuple[int, Card]]:
        """(seat, card) pairs of the current trick."""
        lead = self.leader or 0
        return [((lead + i) % 4, Card(c)) for i, c in enumerate(self.trick_ids)]

    @property
    def played(self) -> CardSet:
        return CardSet(self.played_mask)

    def won(self, team: int) -> CardSet:
        """Cards in the tricks team ``team`` took: team 0 is seats 0 and 2, team 1 seats 1 and 3.

        :raises RookError: for a team that is not 0 or 1.
        """
        return CardSet(self.won_mask(_number(team, "team", 1, RookError)))

    def passing(self, seat: int) -> CardSet:
        """Cards seat put aside to pass (T-22)."""
        return CardSet(self.passing_mask(_seat(seat)))

    def events(self) -> list[tuple[Phase, int, int]]:
        """Return the history as (phase, seat, action) triples."""
        return [(Phase(ph), seat, a) for ph, seat, a in self.event_ids()]

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """The completed tricks as dicts: leader, cards (with seats), winner, points.

        A property, as ``trick`` (the current one) is and as an observation's
        ``tricks`` is a field.  It was once a method: ``h.tricks`` still
        works, with a :class:`DeprecationWarning`.
        """
        return _CalledOnce([{"leader": lead, "cards": [(s, Card(c)) for s, c in cards], "winner": w, "points": pts}
                            for lead, cards, w, pts in self.trick_records()], "HandState.tricks")

    def observe(self, seat: int) -> Observation:
        """Return what ``seat`` may know now (T-15), as a typed :class:`~rook_core.observation.Observation`.

        It holds the seat's own cards, the public bidding, trump and tricks,
        and the nest only for the declarer once taken; never another seat's
        unplayed cards, except the ones this seat itself passed (T-22), which it knows.
        """
        (seat, phase, dealer, to_move, hand, bids, high_bid, declarer, trump, trick, tricks, tricks_won, points,
         score, nest, discarded, passed, legal, voids) = self.observe_raw(_seat(seat))
        return Observation(self.variant, seat, Phase(phase), dealer, to_move, hand, bids, high_bid, declarer, trump,
                           trick, tuple(TrickSeen(*t) for t in tricks), tricks_won, points, score, nest, discarded,
                           passed, legal, voids)

    def observation(self, seat: int) -> dict[str, Any]:
        """Return :meth:`observe`'s observation of ``seat`` as JSON-ready data (T-15)."""
        return self.observe(seat).to_json()

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON-ready data: variant, start and actions
        (:meth:`from_json` rebuilds it exactly) plus a readable summary."""
        v = self.variant
        vj = v.name if PRESETS.get(v.name) == v else v.to_dict()
        return {
            "format": "rook-hand/1",
            "variant": vj,
            "start": self._start_dict(),
            "actions": [action_name(a) for a in self.history],
            "summary": {"phase": self.phase.label, "to_move": self.to_move,
                        "points": list(self.points), "score": list(self.score)},
        }

    def __repr__(self) -> str:
        return f"<HandState {self.variant.name} {self.phase.label} to_move={self.to_move} actions={len(self)}>"

    def _lines(self) -> list[tuple[str, str]]:
        """The hand for people as (label, text) rows: the contract, the four
        hands by color, the nest, the trick, the tricks and points so far."""
        v = self.variant
        d, trump = self.declarer, self.trump
        move = "over" if self.is_over else f"seat {self.to_move} to move"
        rows = [("hand", f"{v.name}, {self.phase.label} phase, {move}, dealer seat {self.dealer}")]
        if d is not None:
            rows.append(("contract", f"seat {d} (team {d % 2}) bid {self.high_bid}"
                         + (f", trump {L.COLOR_NAMES[trump]}" if trump is not None else "")))
        elif self.bids():
            rows.append(("bidding", ", ".join(f"seat {s} {'pass' if b is None else b}" for s, b in self.bids())))
        for s in range(4):
            rows.append((f"seat {s} (team {s % 2})", self.hand(s).by_color()))
        if v.nest_size:
            buried = any(ph == Phase.NEST and a < 64 for ph, _, a in self.events())    # T-20: a card went back
            rows.append(("discards" if buried else "nest", self.nest.by_color()))
        if self.trick_ids:
            rows.append(("trick", ", ".join(f"seat {s} {c}" for s, c in self.trick_seats)))
        done = self.tricks
        if done:
            last = done[-1]
            rows.append(("last trick", ", ".join(f"seat {s} {c}" for s, c in last["cards"])
                         + f"; seat {last['winner']} took it"))
        won, pts = self.tricks_won, self.points
        rows.append(("taken", f"tricks {won[0]} / {won[1]}, points {pts[0]} / {pts[1]} (team 0 / team 1)"))
        if self.is_over:
            rows.append(("score", f"{self.score[0]} / {self.score[1]}"))
        return rows

    def __str__(self) -> str:
        """The hand for people: the contract, the four hands by color, the trick, the points."""
        rows = self._lines()
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:>{width}}: {t}" for k, t in rows)

    def _repr_html_(self) -> str:
        """The same as a small HTML table, for Jupyter."""
        return html_table(self._lines(), "rook-hand")
