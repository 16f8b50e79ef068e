"""Trick-play positions: the FORMATS.md JSON form of a moment in the play.

>>> p = parse_position({"preset": "tournament", "trump": "R", "leader": 0,
...     "trick": ["B5"], "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]})
>>> p.to_move, p.trump
(1, 2)
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, TypeAlias

from .cards import Card, CardSet, parse_card, parse_cards, parse_color
from .errors import NotationError, PositionError, RookError
from .jsonio import check_id, read_object
from .variant import Variant, get_preset

__all__ = ["Position", "PositionData", "parse_position"]

_FIELDS = {"id", "preset", "variant", "trump", "leader", "trick", "hands", "nest_points", "taken",
           "tricks"}


@dataclass(frozen=True)
class Position:
    """A validated trick-play position (every hand visible)."""

    variant: Variant
    trump: int
    leader: int
    trick: tuple[int, ...]
    hands: tuple[int, int, int, int]
    nest_points: int = 0
    taken: tuple[int, int] = (0, 0)
    id: Any = None
    tricks: tuple[int, int] | None = None

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_done(self) -> int:
        """Return the number of tricks completed before the current one (T-8)."""
        return self.variant.hand_size - self.hands[self.leader].bit_count() - (1 if self.trick else 0)

    def tricks_won(self) -> tuple[int, int]:
        """Return the tricks each team took before the current trick: the
        ``tricks`` field, or (0, 0) when it is missing (like ``taken``, what
        the position does not say starts at zero; only the most-tricks bonus
        of section 4 depends on it, and the solver refuses to guess: see
        :meth:`known_tricks_won`)."""
        return self.tricks if self.tricks is not None else (0, 0)

    def known_tricks_won(self) -> tuple[int, int]:
        """Return :meth:`tricks_won` when the value of the position depends
        on it only as far as the position says.

        :raises PositionError: for a position after the first trick of a
            variant with a ``most_tricks_bonus`` (section 4) and no ``tricks``.
        """
        if self.tricks is None and self.tricks_done and self.variant.most_tricks_bonus:
            raise PositionError(
                f"variant {self.variant.name!r} gives a most-tricks bonus, so a position after "
                f"the first trick must say how many tricks each team took: the field 'tricks'")
        return self.tricks_won()

    def to_dict(self) -> dict[str, Any]:
        """Return the FORMATS.md JSON object of this position."""
        from .variant import PRESETS
        out: dict[str, Any] = {}
        if self.id is not None:
            out["id"] = self.id
        if PRESETS.get(self.variant.name) == self.variant:
            out["preset"] = self.variant.name
        else:
            out["variant"] = self.variant.to_dict()
        out.update({
            "trump": "BGRY"[self.trump],
            "leader": self.leader,
            "trick": [str(Card(c)) for c in self.trick],
            "hands": [CardSet(h).names() for h in self.hands],
            "nest_points": self.nest_points,
            "taken": list(self.taken),
        })
        if self.tricks is not None:
            out["tricks"] = list(self.tricks)
        return out


def _int(value: Any, what: str, lo: int, hi: int, why: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise PositionError(f"{what} must be an integer {lo}..{hi}{why}, not {reprlib.repr(value)}")
    return value


PositionData: TypeAlias = "Position | dict[str, Any] | str | bytes"
"""A trick-play position as callers give it: a :class:`Position`, its dict or its JSON text."""


def parse_position(data: PositionData) -> Position:
    """Return the :class:`Position` described by ``data`` (a dict or JSON text).

    :raises PositionError: naming the inconsistent field (sizes that do not fit
        the seat order, duplicate cards, cards outside the deck, an illegal
        card already in the trick).
    """
    if isinstance(data, Position):
        return data
    data = read_object(data, "position", _FIELDS, error=PositionError)
    ident = data.get("id")
    check_id(ident, PositionError)
    if "variant" in data and "preset" in data:
        raise PositionError("give 'preset' or 'variant', not both: a 'variant' object is instead of "
                            "the 'preset' (FORMATS.md)")
    if "variant" not in data and "preset" not in data:
        raise PositionError("the field 'preset' is required")
    field = "variant" if "variant" in data else "preset"
    try:
        if field == "variant":
            variant = Variant.from_dict(data["variant"], complete=True)
        else:
            variant = get_preset(data["preset"])
    except RookError as e:
        raise PositionError(f"{field}: {e}") from None
    for k in ("trump", "leader", "hands"):
        if k not in data:
            raise PositionError(f"the field {k!r} is required")
    try:
        trump = parse_color(data["trump"])
    except NotationError as e:
        raise PositionError(f"trump: {e}") from None
    leader = _int(data["leader"], "leader", 0, 3)
    hands_in = data["hands"]
    if not isinstance(hands_in, list) or len(hands_in) != 4:
        raise PositionError("hands must be a list of 4 lists of cards")
    deck = variant.deck_mask
    field = "trick"
    try:
        trick_cards = parse_cards(data.get("trick", []), deck_mask=deck, what="trick")
        trick_list = data.get("trick", [])
        if not isinstance(trick_list, list):
            raise PositionError("trick must be a list of cards")
        trick = tuple(int(parse_card(t) if isinstance(t, str) else Card(t)) for t in trick_list)
        hands = []
        for s in range(4):
            field = f"hands[{s}]"
            if not isinstance(hands_in[s], list):
                raise PositionError(f"hands[{s}] must be a list of cards")
            hands.append(parse_cards(hands_in[s], deck_mask=deck, what=f"hands[{s}]"))
    except NotationError as e:   # the message names the field the card is in
        raise PositionError(str(e) if field in str(e) else f"{field}: {e}") from None
    if len(trick) > 3:
        raise PositionError(f"the trick holds {len(trick)} cards; a trick in progress holds 0 to 3")
    seen = trick_cards
    for s in range(4):
        dup = seen & hands[s]
        if dup:
            raise PositionError(f"card(s) {CardSet(dup)} of hands[{s}] appear twice in the position")
        seen |= hands[s]
    to_move = (leader + len(trick)) % 4
    m = hands[to_move].bit_count()
    if m < 1:
        raise PositionError(f"seat {to_move} is to move but holds no card")
    if m > variant.hand_size:
        raise PositionError(f"seat {to_move} holds {m} cards, more than the hand size {variant.hand_size}")
    for s in range(4):
        played = (s - leader) % 4 < len(trick)
        want = m - 1 if played else m
        if hands[s].bit_count() != want:
            raise PositionError(
                f"hands[{s}] holds {hands[s].bit_count()} cards but should hold {want}: the seat "
                f"to move holds {m} and seats that played to the trick one fewer")
    if trick:
        from ._native import rules_for
        rules = rules_for(variant)
        for i, c in enumerate(trick):
            seat = (leader + i) % 4
            had = hands[seat] | (1 << c)
            legal = rules.legal_mask(had, -1 if i == 0 else trick[0], trump)
            if not legal >> c & 1:
                raise PositionError(
                    f"trick card {Card(c)} of seat {seat} was illegal: that seat held "
                    f"{CardSet(legal & ~(1 << c))} which it had to play (T-9, T-10)")
    deck_points = sum(variant.points_table)
    nest_points = _int(data.get("nest_points", 0), "nest_points", 0, deck_points,
                       f" (the cards of the deck of {variant.name!r} hold {deck_points} points, T-12, T-13)")
    taken_in = data.get("taken", [0, 0])
    if not isinstance(taken_in, list) or len(taken_in) != 2:
        raise PositionError("taken must be a list of two integers")
    most, why = variant.total_points, f" (a hand of {variant.name!r} holds {variant.total_points} points, T-14)"
    taken = (_int(taken_in[0], "taken[0]", 0, most, why), _int(taken_in[1], "taken[1]", 0, most, why))
    done = variant.hand_size - hands[leader].bit_count() - (1 if trick else 0)
    tricks = None
    if "tricks" in data:
        tricks_in = data["tricks"]
        if not isinstance(tricks_in, list) or len(tricks_in) != 2:
            raise PositionError("tricks must be a list of two integers")
        tricks = (_int(tricks_in[0], "tricks[0]", 0, done), _int(tricks_in[1], "tricks[1]", 0, done))
        if sum(tricks) != done:
            raise PositionError(f"tricks says {tricks[0]} + {tricks[1]} tricks were taken, but the "
                                f"hands show {done} completed tricks")
    return Position(variant, trump, leader, trick, tuple(hands), nest_points, taken,  # type: ignore[arg-type]
                    ident, tricks)
