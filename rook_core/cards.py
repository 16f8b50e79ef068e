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

from collections.abc import Iterable, Iterator

from . import _layout as L
from .errors import NotationError

__all__ = [
    "BIRD", "COLORS", "Card", "CardSet", "card_name", "parse_card", "parse_cards",
    "parse_color", "color_name",
]

BIRD = L.BIRD
COLORS = tuple(range(L.N_COLORS))
_COLOR_BY_LETTER = {letter: i for i, letter in enumerate(L.COLOR_LETTERS)}
_BIRD_NAMES = {"rook": BIRD, "crow": BIRD}


class Card(int):
    """A card id with a readable form: ``Card(34)`` is ``R2``.

    >>> Card.of(3, 5), Card(15)
    (Card('Y5'), Card('Rook'))
    """

    __slots__ = ()

    def __new__(cls, card: int) -> Card:
        if card not in _NAMES:
            raise NotationError(f"no card has id {card!r}", card)
        return _CARDS[card]

    @classmethod
    def of(cls, color: int, rank: int) -> Card:
        """Return the colored card of ``color`` (0..3) and ``rank`` (1..14)."""
        if color not in COLORS or not L.MIN_RANK <= rank <= L.MAX_RANK:
            raise NotationError(f"no card of color {color!r} and rank {rank!r}", (color, rank))
        return _CARDS[L.card_id(color, rank)]

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
# The canonical spellings as they are written (R14, Rook): one lookup for the usual case.
_BIT_BY_NAME: dict[str, int] = {n: 1 << i for i, n in _NAMES.items()}


def card_name(card: int) -> str:
    """Return the FORMATS.md spelling of a card id (``R14``, ``Rook``)."""
    try:
        return _NAMES[card]
    except KeyError:
        raise NotationError(f"no card has id {card!r}", card) from None


def parse_card(text: str) -> Card:
    """Return the card written ``text`` (case-insensitive; ``Crow`` is the bird).

    :raises NotationError: quoting ``text`` when it names no card.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise NotationError(f"a card must be written as text, not {text!r}", text)
    card = _BY_TEXT.get(text.strip().lower())
    if card is None:
        raise NotationError(f"unknown card {text!r} (expected B/G/R/Y + rank 1-14, or Rook)", text)
    return card


def parse_color(text: str | int) -> int:
    """Return the color index of ``B``/``G``/``R``/``Y`` (or a color name, or 0..3).

    :raises NotationError: quoting ``text`` when it is not a color.
    """
    if isinstance(text, int) and not isinstance(text, bool) and text in COLORS:
        return text
    if isinstance(text, str):
        if text in _COLOR_BY_LETTER:
            return _COLOR_BY_LETTER[text]
        t = text.strip().lower()
        for i, (letter, name) in enumerate(zip(L.COLOR_LETTERS, L.COLOR_NAMES)):
            if t in (letter.lower(), name.lower()):
                return i
    raise NotationError(f"unknown color {text!r} (expected B, G, R or Y)", text)


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
        items = list(cards)
    else:
        try:
            items = list(cards)
        except TypeError:
            raise NotationError(f"{what} must be a list of cards, not {cards!r}", cards) from None
    mask = 0
    for item in items:
        bit = _BIT_BY_NAME.get(item) if isinstance(item, str) else None
        if bit is None:
            card = Card(item) if isinstance(item, int) and not isinstance(item, bool) else parse_card(item)  # type: ignore[arg-type]
            bit = 1 << card
        if deck_mask is not None and not deck_mask & bit:
            raise NotationError(f"card {item!r} in {what} is not in this variant's deck", item)
        if mask & bit:
            raise NotationError(f"card {item!r} appears twice in {what}", item)
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
        if not isinstance(mask, int):
            m = 0
            for c in mask:
                m |= 1 << Card(c)
            mask = m
        if mask < 0 or mask >> 64:
            raise NotationError(f"a card mask must fit in 64 bits, not {mask!r}", mask)
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
        if isinstance(other, (set, frozenset)):
            return self == CardSet(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

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
