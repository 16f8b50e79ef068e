"""Multiset hands of Toonerville (TV-1) and their points (TV-12).

Several full-57 decks are shuffled together, so a hand may hold the same card
more than once.  A :class:`MultiHand` keeps a count per card id (the card
layout of :mod:`rook_core._layout`: color ``c`` rank ``r`` is ``16 c + r``, the
bird is 15), which makes adding, removing and comparing hands a matter of
counts.

>>> h = MultiHand.parse(["B5", "B5", "Rook", "Y14"])
>>> len(h), h.count("B5"), h.points(), h.names()
(4, 2, 45, ['B5', 'B5', 'Y14', 'Rook'])
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Iterator
from numbers import Integral

from .. import _layout as L
from ..cards import Card, card_name, parse_card
from ..errors import NotationError, RookError

__all__ = ["MultiHand", "card_points", "FULL_DECK"]

FULL_DECK: tuple[int, ...] = tuple([L.card_id(c, r) for c in range(L.N_COLORS)
                                    for r in range(L.MIN_RANK, L.MAX_RANK + 1)] + [L.BIRD])
"""The 57 card ids of one full deck (C-3), colors in order, the bird last."""

_IN_DECK = frozenset(FULL_DECK)


def card_points(card: int | str) -> int:
    """Return the TV-12 points of ``card`` (an id or a name) left in hand:
    ranks 1-9 -> 5, 10-14 -> 10, the bird -> 25.

    :raises NotationError: for a name that is no card, or what is neither an id nor a name."""
    if type(card) is not int or card not in _IN_DECK:
        card = _card_id(card)
    if card == L.BIRD:
        return 25
    return 5 if L.rank_of(card) <= 9 else 10


def _card_id(card: object, shown: object = None) -> int:
    """``card`` (an id, numpy ints taken, or a name) as a card id of the full
    deck; the error quotes ``shown`` when given."""
    if isinstance(card, str):
        return int(parse_card(card))
    if isinstance(card, bool) or not isinstance(card, Integral) or int(card) not in _IN_DECK:
        shown = card if shown is None else shown
        raise NotationError(f"card id {reprlib.repr(shown)} is not in the full-57 deck", str(shown)[:100])
    return int(card)


def _order(card: int) -> tuple[int, int]:
    return (1, 0) if card == L.BIRD else (0, card)


class MultiHand:
    """A multiset of cards of the full-57 deck (TV-1): a count per card id.

    :raises NotationError: for text that is not a card of the full deck.
    """

    __slots__ = ("_counts",)

    def __init__(self, cards: Iterable[int] = ()) -> None:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise RookError(f"a hand is made of card ids (MultiHand.parse reads names), not {reprlib.repr(cards)}")
        counts = [0] * L.N_CARD_IDS
        for c in cards:
            counts[c if type(c) is int and c in _IN_DECK else _card_id(None if isinstance(c, str) else c, c)] += 1
        self._counts = counts

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> MultiHand:
        """Return the hand holding ``counts[c]`` copies of each card id ``c`` (64 counts).

        :raises RookError: unless ``counts`` are 64 ints >= 0, 0 on every id
            that is not a card of the full deck.
        """
        try:
            values = list(counts)
        except TypeError:
            raise RookError(f"a hand is {L.N_CARD_IDS} counts, one per card id, not {counts!r}") from None
        if len(values) != L.N_CARD_IDS or any(isinstance(k, bool) or not isinstance(k, Integral) or k < 0
                                              for k in values):
            raise RookError(f"a hand is {L.N_CARD_IDS} ints >= 0, one per card id, not {values!r}")
        stray = [c for c, k in enumerate(values) if k and c not in _IN_DECK]
        if stray:
            raise NotationError(f"card id {stray[0]} is not in the full-57 deck", str(stray[0]))
        out = cls()
        out._counts = [int(k) for k in values]
        return out

    @classmethod
    def parse(cls, names: Iterable[str | int]) -> MultiHand:
        """Return the hand written as card names (``"Rook"`` for the bird).

        :raises NotationError: for a name that is no card; RookError for what is no list of them."""
        if isinstance(names, str):
            names = names.split()
        if not isinstance(names, Iterable):
            raise RookError(f"a hand is a list of card names, not {reprlib.repr(names)}")
        return cls(int(parse_card(n)) if isinstance(n, str) else int(Card(n)) for n in names)

    def count(self, card: int | str) -> int:
        """Return how many copies of ``card`` the hand holds.

        :raises NotationError: for what is not a card of the full deck.
        """
        return self._counts[_card_id(card)]

    def counts(self) -> tuple[int, ...]:
        """Return the 64 counts, indexed by card id."""
        return tuple(self._counts)

    def __iter__(self) -> Iterator[int]:
        for c in sorted(range(L.N_CARD_IDS), key=_order):
            for _ in range(self._counts[c]):
                yield c

    def __len__(self) -> int:
        return sum(self._counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiHand) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(tuple(self._counts))

    def __add__(self, other: MultiHand) -> MultiHand:
        if not isinstance(other, MultiHand):
            return NotImplemented
        out = MultiHand()
        out._counts = [a + b for a, b in zip(self._counts, other._counts)]
        return out

    def __sub__(self, other: MultiHand) -> MultiHand:
        """Return the cards of this hand less ``other``'s.

        :raises RookError: when ``other`` holds a card this hand does not.
        """
        if not isinstance(other, MultiHand):
            return NotImplemented
        diff = [a - b for a, b in zip(self._counts, other._counts)]
        if min(diff) < 0:
            missing = [card_name(c) for c, d in enumerate(diff) if d < 0]
            raise RookError(f"cannot take away cards the hand does not hold: {', '.join(missing)}")
        out = MultiHand()
        out._counts = diff
        return out

    def __le__(self, other: MultiHand) -> bool:
        """Whether every card of this hand is in ``other`` (as many times)."""
        if not isinstance(other, MultiHand):
            return NotImplemented
        return all(a <= b for a, b in zip(self._counts, other._counts))

    def points(self) -> int:
        """Return the TV-12 points of the cards (what is left in hand at the end of a round)."""
        return sum(card_points(c) * n for c, n in enumerate(self._counts) if n)

    def names(self) -> list[str]:
        """Return the card names, colors and ranks in order, birds last."""
        return [card_name(c) for c in self]

    def __repr__(self) -> str:
        return f"MultiHand({' '.join(self.names())})"

    def __str__(self) -> str:
        """For people: the cards by name, colors and ranks in order, birds last (``-``: none)."""
        return " ".join(self.names()) or "-"
