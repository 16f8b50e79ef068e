"""The actions of a Toonerville turn (TV-6 .. TV-10) and their text forms.

A rummy action carries a meld, a multiset of cards, so the actions are small
frozen values rather than ints; each has one canonical text form, which
:func:`parse_action` reads back to an equal value.

=====================================  ==============================================
text                                   action
=====================================  ==============================================
``draw``                               draw the top card of the stock (TV-6); the
                                       other players may first buy the discard (TV-8)
``take``                               take the top card of the discard pile (TV-6)
``buy`` / ``pass``                     buy the discard, or let it go (TV-8)
``lay R3 R4 R5 R6 / B7 G7 Rook``       lay the whole contract at once (TV-7)
``meld B9 G9 Y9``                      lay a further meld (TV-7)
``layoff R7 2`` (``layoff Rook 2 low``) add a card to table meld 2; a bird added to
                                       a run says which end (TV-7)
``swap R5 2 / Rook G5 B5``             put R5 in place of the bird in run 2 and lay
                                       the new meld holding that bird at once (TV-9)
``discard G2``                         end the turn (TV-6, TV-10)
=====================================  ==============================================

Runs are written from their lowest rank up, so a bird's place says which card
it stands for; table melds are numbered from 0 in the order they were laid.

>>> parse_action("lay R3 R4 R5 R6 / B7 G7 Rook")
Lay(melds=((7, 23, 15), (35, 36, 37, 38)))
>>> str(parse_action("layoff rook 2 LOW")), str(parse_action("discard g2"))
('layoff Rook 2 low', 'discard G2')
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import ClassVar

from ..cards import card_name, parse_card
from ..errors import NotationError

__all__ = ["Draw", "Take", "Buy", "Pass", "Lay", "Meld", "LayOff", "Swap", "Discard", "Action",
           "parse_action", "meld_text", "MAX_ACTION_TEXT"]

MAX_ACTION_TEXT = 4000
"""The longest action text read: five decks hold 285 cards, and an action
laying every one of them is under 2,000 characters (TV-1)."""

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxtuple = _SHORT.maxlist = 24


def quoted(x: object) -> str:
    """``repr(x)``, cut short in the middle when long (for messages)."""
    return _SHORT.repr(x)


def meld_text(cards: tuple[int, ...]) -> str:
    """Return the cards of a meld as text, in the given order."""
    return " ".join(card_name(c) for c in cards)


@dataclass(frozen=True)
class _Word:
    """An action that is one word."""

    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Draw(_Word):
    word: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Take(_Word):
    word: ClassVar[str] = "take"


@dataclass(frozen=True)
class Buy(_Word):
    word: ClassVar[str] = "buy"


@dataclass(frozen=True)
class Pass(_Word):
    word: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Lay:
    """Lay the contract: its melds, each in table order, sorted (TV-7)."""

    melds: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "lay " + " / ".join(meld_text(m) for m in self.melds)


@dataclass(frozen=True)
class Meld:
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "meld " + meld_text(self.cards)


@dataclass(frozen=True)
class LayOff:
    """Add ``card`` to table meld ``meld``; ``end`` ("low"/"high") only for a bird on a run."""

    card: int
    meld: int
    end: str | None = None

    def __str__(self) -> str:
        return f"layoff {card_name(self.card)} {self.meld}" + (f" {self.end}" if self.end else "")


@dataclass(frozen=True)
class Swap:
    """Put ``card`` in place of the bird it stands for in run ``meld``, and lay
    ``new_meld`` (which holds that bird) at once (TV-9)."""

    card: int
    meld: int
    new_meld: tuple[int, ...]

    def __str__(self) -> str:
        return f"swap {card_name(self.card)} {self.meld} / {meld_text(self.new_meld)}"


@dataclass(frozen=True)
class Discard:
    card: int

    def __str__(self) -> str:
        return f"discard {card_name(self.card)}"


Action = Draw | Take | Buy | Pass | Lay | Meld | LayOff | Swap | Discard
_BARE: dict[str, Action] = {a.word: a for a in (Draw(), Take(), Buy(), Pass())}


def _cards(words: list[str], text: str) -> tuple[int, ...]:
    if not words:
        raise NotationError(f"no cards in {text!r}", text)
    return tuple(int(parse_card(w)) for w in words)


def _index(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise NotationError(f"a table meld is a number 0, 1, ..., not {word!r} in {text!r}", text)
    return int(word)


_CARD_IDS = frozenset(int(parse_card(n)) for n in ["Rook"] + [f"{c}{r}" for c in "BGRY" for r in range(1, 15)])


def _card(x: object, action: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x not in _CARD_IDS:
        raise NotationError(f"{quoted(action)} holds {quoted(x)}, which is not a card id of the full-57 deck", action)
    return x


def _cards_of(xs: object, action: object) -> tuple[int, ...]:
    if not isinstance(xs, tuple) or not xs:
        raise NotationError(f"{quoted(action)}: cards are a non-empty tuple of card ids", action)
    return tuple(_card(x, action) for x in xs)


def _checked(a: Action) -> Action:
    """An action object built by hand, its fields checked (and a Lay's melds sorted)."""
    if isinstance(a, Lay):
        if not isinstance(a.melds, tuple) or not a.melds:
            raise NotationError(f"{quoted(a)}: a lay holds a non-empty tuple of melds", a)
        return Lay(tuple(sorted(_cards_of(m, a) for m in a.melds)))
    if isinstance(a, Meld):
        _cards_of(a.cards, a)
    elif isinstance(a, Discard):
        _card(a.card, a)
    elif isinstance(a, (LayOff, Swap)):
        _card(a.card, a)
        if isinstance(a.meld, bool) or not isinstance(a.meld, int) or a.meld < 0:
            raise NotationError(f"{quoted(a)}: a table meld is a number 0, 1, ...", a)
        if isinstance(a, LayOff) and a.end not in (None, "low", "high"):
            raise NotationError(f"{quoted(a)}: a layoff's end is None, 'low' or 'high'", a)
        if isinstance(a, Swap):
            _cards_of(a.new_meld, a)
    return a


def parse_action(text: str | Action) -> Action:
    """Return the action written ``text`` (an action is returned as is).

    :raises NotationError: quoting text that is not an action.
    """
    if not isinstance(text, str):
        if isinstance(text, (Draw, Take, Buy, Pass, Lay, Meld, LayOff, Swap, Discard)):
            return _checked(text)
        raise NotationError(f"a Toonerville action is text like 'draw' or 'discard G2', not {quoted(text)}", text)
    if len(text) > MAX_ACTION_TEXT:
        raise NotationError(f"cannot read the Toonerville action {quoted(text)}: no action's text is "
                            f"longer than {MAX_ACTION_TEXT} characters", text)
    words = text.replace("/", " / ").split()
    if not words:
        raise NotationError("an empty action", text)
    head, rest = words[0].lower(), words[1:]
    if head in _BARE and not rest:
        return _BARE[head]
    if head == "lay":
        groups: list[list[str]] = [[]]
        for w in rest:
            if w == "/":
                groups.append([])
            else:
                groups[-1].append(w)
        return Lay(tuple(sorted(_cards(g, text) for g in groups)))
    if head == "meld" and "/" not in rest:
        return Meld(_cards(rest, text))
    if head == "layoff" and len(rest) in (2, 3):
        end = rest[2].lower() if len(rest) == 3 else None
        if end not in (None, "low", "high"):
            raise NotationError(f"a layoff's end is 'low' or 'high', not {rest[2]!r}", text)
        return LayOff(int(parse_card(rest[0])), _index(rest[1], text), end)
    if head == "swap" and len(rest) >= 4 and rest[2] == "/":
        return Swap(int(parse_card(rest[0])), _index(rest[1], text), _cards(rest[3:], text))
    if head == "discard" and len(rest) == 1:
        return Discard(int(parse_card(rest[0])))
    raise NotationError(f"cannot read the Toonerville action {quoted(text)}: expected draw, take, buy, pass, "
                        "lay ..., meld ..., layoff CARD N [low|high], swap CARD N / MELD, discard CARD", text)

