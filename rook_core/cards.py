"""Colors, cards and card sets (RULES.md C-1, C-2; notation per FORMATS.md).

A card is a small int: its bit position in a 64-bit hand mask (the layout of
``tools/gen_layout.py``).  :class:`Card` is an ``int`` with a readable
``str``; :class:`CardSet` is an immutable set-like view over a mask.

>>> c = parse_card("r14")
>>> str(c), c.color, c.rank
('R14', 2, 14)
>>> hand = CardSet.parse("B5 B10 Rook G14")
>>> str(hand), len(hand), parse_card("Crow") in hand
('B5 B10 G14 Rook', 4, True)
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Iterable, Iterator

from . import _layout as L
from .errors import NotationError, as_int

__all__ = [
    "BIRD", "COLORS", "Card", "CardSet", "card_name", "parse_card", "parse_cards",
    "parse_color", "color_name",
]

BIRD = L.BIRD
COLORS = tuple(range(L.N_COLORS))
_COLOR_BY_LETTER = {letter: i for i, letter in enumerate(L.COLOR_LETTERS)}
_BIRD_NAMES = {"rook": BIRD, "crow": BIRD}
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


def _show(value: object) -> str:
    """``repr(value)`` cut short: error messages quote text that can be any length."""
    return _SHORT.repr(value)




def _card_id(card: object) -> int | None:
    """``card`` as a card id (an integer that names a card), else None."""
    i = as_int(card)
    return i if i in _NAMES else None


class Card(int):
    """A card id with a readable form: ``Card(34)`` is ``R2``.

    >>> Card.of(3, 5), Card(15)
    (Card('Y5'), Card('Rook'))
    """

    __slots__ = ()

    def __new__(cls, card: int) -> Card:
        i = _card_id(card)
        if i is None:
            raise NotationError(f"no card has id {_show(card)}", card)
        return _CARDS[i]

    @classmethod
    def of(cls, color: int, rank: int) -> Card:
        """Return the colored card of ``color`` (0..3) and ``rank`` (1..14)."""
        c, r = as_int(color), as_int(rank)
        if c not in COLORS or r is None or not L.MIN_RANK <= r <= L.MAX_RANK:
            raise NotationError(f"no card of color {_show(color)} and rank {_show(rank)}", (color, rank))
        return _CARDS[L.card_id(c, r)]

    @property
    def is_bird(self) -> bool:
        return int(self) == BIRD

    @property
    def color(self) -> int | None:
        """The printed color (0..3), or None for the bird."""
        return None if self.is_bird else L.color_of(self)

    @property
    def rank(self) -> int | None:
        """The printed rank (1..14), or None for the bird."""
        return None if self.is_bird else L.rank_of(self)

    @property
    def mask(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        return _NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Card({_NAMES[int(self)]!r})"


_NAMES: dict[int, str] = {BIRD: L.card_name(BIRD)}
for _c in COLORS:
    for _r in range(L.MIN_RANK, L.MAX_RANK + 1):
        _NAMES[L.card_id(_c, _r)] = L.card_name(L.card_id(_c, _r))
_CARDS: dict[int, Card] = {i: int.__new__(Card, i) for i in _NAMES}
_BY_TEXT: dict[str, Card] = {n.lower(): _CARDS[i] for i, n in _NAMES.items()}
_BY_TEXT["crow"] = _CARDS[BIRD]
# no card's text is longer, whitespace around it included (a longer text is no card)
_LONGEST_CARD_TEXT = 1000
# The canonical spellings as they are written (R14, Rook): one lookup for the usual case.
_BIT_BY_NAME: dict[str, int] = {n: 1 << i for i, n in _NAMES.items()}
# Every bit of a 64-bit mask that is a card (the others are no card: rank 0, rank 15).
_CARD_BITS = sum(1 << i for i in _NAMES)


def card_name(card: int) -> str:
    """Return the FORMATS.md spelling of a card id (``R14``, ``Rook``)."""
    i = _card_id(card)
    if i is None:
        raise NotationError(f"no card has id {_show(card)}", card)
    return _NAMES[i]


def parse_card(text: str) -> Card:
    """Return the card written ``text`` (case-insensitive; ``Crow`` is the bird).

    :raises NotationError: quoting ``text`` when it names no card.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise NotationError(f"a card must be written as text, not {_show(text)}", text)
    card = _BY_TEXT.get(text.strip().lower()) if len(text) <= _LONGEST_CARD_TEXT else None
    if card is None:
        raise NotationError(f"unknown card {_show(text)} (expected B/G/R/Y + rank 1-14, or Rook)", text)
    return card


def parse_color(text: str | int) -> int:
    """Return the color index of ``B``/``G``/``R``/``Y`` (or a color name, or 0..3).

    :raises NotationError: quoting ``text`` when it is not a color.
    """
    if not isinstance(text, str):
        color = as_int(text)
        if color in COLORS:
            return color
    else:
        if text in _COLOR_BY_LETTER:
            return _COLOR_BY_LETTER[text]
        t = text.strip().lower()
        for i, (letter, name) in enumerate(zip(L.COLOR_LETTERS, L.COLOR_NAMES)):
            if t in (letter.lower(), name.lower()):
                return i
    raise NotationError(f"unknown color {_show(text)} (expected B, G, R or Y)", text)


def color_name(color: int) -> str:
    """Return the letter of a color index (``2`` → ``R``)."""
    return L.COLOR_LETTERS[color]


def parse_cards(cards: str | Iterable[str | int], *, deck_mask: int | None = None,
                what: str = "cards") -> int:
    """Return the mask of ``cards`` (a space/comma separated string or a list).

    :raises NotationError: for an unknown card, a card outside ``deck_mask``,
        or a card written twice; the message names the offending text.
    """
    if isinstance(cards, str):
        items: list[str | int] = [t for t in cards.replace(",", " ").split() if t]
    elif isinstance(cards, CardSet):
        return cards.mask if deck_mask is None or not cards.mask & ~deck_mask else \
            parse_cards(list(cards), deck_mask=deck_mask, what=what)
    else:
        try:
            if isinstance(cards, (bytes, bytearray)):   # not a list of small ints
                raise TypeError
            items = list(cards)
        except TypeError:
            raise NotationError(f"{what} must be a list of cards, not {_show(cards)}", cards) from None
    mask = 0
    for item in items:
        bit = _BIT_BY_NAME.get(item) if isinstance(item, str) else None
        if bit is None:
            # an id names a card (Card says which ids do); anything else must be text
            card = Card(item) if as_int(item) is not None else parse_card(item)  # type: ignore[arg-type]
            bit = 1 << card
        if deck_mask is not None and not deck_mask & bit:
            raise NotationError(f"card {_show(item)} in {what} is not in this variant's deck", item)
        if mask & bit:
            raise NotationError(f"card {_show(item)} appears twice in {what}", item)
        mask |= bit
    return mask


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the card ids in ``mask``: colored cards lowest id first, the bird last."""
    bird = mask >> BIRD & 1
    mask &= ~(1 << BIRD)
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
    if bird:
        yield BIRD


def _mask_of(cards: object) -> int:
    """The mask of ``cards``: a mask (an int or a NumPy integer, never a bool)
    or an iterable of card ids."""
    if isinstance(cards, bool) or isinstance(cards, (str, bytes, bytearray, float)):
        raise NotationError(f"a CardSet is a mask or card ids, not {_show(cards)} "
                            f"(CardSet.parse reads text)", cards)
    try:
        return operator.index(cards)   # type: ignore[arg-type]
    except TypeError:
        pass
    try:
        ids = iter(cards)   # type: ignore[call-overload]
    except TypeError:
        raise NotationError(f"a CardSet is a mask or card ids, not {_show(cards)}", cards) from None
    m = 0
    for c in ids:
        m |= 1 << Card(c)
    return m


class CardSet:
    """An immutable set of cards over a 64-bit mask (colors in order B G R Y, then the bird).

    >>> a = CardSet.parse("B5 B10 G14")
    >>> b = CardSet.parse("B10 Rook")
    >>> str(a | b), str(a & b), str(a - b), a.mask == CardSet(a.mask).mask
    ('B5 B10 G14 Rook', 'B10', 'B5 G14', True)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, mask: int | Iterable[int] = 0) -> None:
        if type(mask) is not int:
            mask = _mask_of(mask)
        if mask & ~_CARD_BITS:
            if mask < 0 or mask >> 64:
                raise NotationError(f"a card mask must fit in 64 bits, not {_show(mask)}", mask)
            raise NotationError(f"a card mask holds only the bits of cards, not {mask:#x} "
                                f"(bits {mask & ~_CARD_BITS:#x} are no card)", mask)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str | Iterable[str | int], *, deck_mask: int | None = None) -> CardSet:
        """Return the set written ``text`` (see :func:`parse_cards`)."""
        return cls(parse_cards(text, deck_mask=deck_mask))

    def __iter__(self) -> Iterator[Card]:
        return (_CARDS[b] for b in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except NotationError:
                return False
        if not isinstance(card, int) or not 0 <= card < 64:
            return False
        return bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):   # a set of card ids; anything else in it is no card
            try:
                return self.mask == CardSet(other).mask
            except NotationError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of the frozenset of the card ids, which a CardSet equals."""
        return hash(frozenset(iter_bits(self.mask)))

    def _other(self, other: object) -> int:
        if isinstance(other, CardSet):
            return other.mask
        if isinstance(other, int):
            return other
        return CardSet(other).mask  # type: ignore[arg-type]

    def __or__(self, other: object) -> CardSet:
        return CardSet(self.mask | self._other(other))

    def __and__(self, other: object) -> CardSet:
        return CardSet(self.mask & self._other(other))

    def __sub__(self, other: object) -> CardSet:
        return CardSet(self.mask & ~self._other(other))

    def __xor__(self, other: object) -> CardSet:
        return CardSet(self.mask ^ self._other(other))

    __ror__, __rand__, __rxor__ = __or__, __and__, __xor__

    def issubset(self, other: object) -> bool:
        return self.mask & ~self._other(other) == 0

    def __le__(self, other: object) -> bool:
        return self.issubset(other)

    def __ge__(self, other: object) -> bool:
        return self._other(other) & ~self.mask == 0

    def __str__(self) -> str:
        return " ".join(_NAMES[b] for b in iter_bits(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def names(self) -> list[str]:
        """Return the cards' FORMATS.md spellings in iteration order."""
        return [_NAMES[b] for b in iter_bits(self.mask)]

    def by_color(self) -> str:
        """Return the cards grouped by color, highest first, for people (``B:14,10  G:5  Rook``; ``-``: none)."""
        groups = []
        for c in range(L.N_COLORS):
            ranks = sorted((b & 15 for b in iter_bits(self.mask) if b != L.BIRD and b >> 4 == c), reverse=True)
            if ranks:
                groups.append(L.COLOR_LETTERS[c] + ":" + ",".join(str(r) for r in ranks))
        if self.mask >> L.BIRD & 1:
            groups.append("Rook")
        return "  ".join(groups) if groups else "-"
