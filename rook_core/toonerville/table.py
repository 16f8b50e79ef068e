"""Melds on the table and how they grow: laying off (TV-7) and replacing a bird (TV-9).

A table meld keeps its cards in table order (see
:func:`~rook_core.toonerville.melds.arrange_meld`): a set its naturals then
its birds, a run one card per rank from its lowest rank up, so a bird's place
in a run says which card it stands for.

>>> m = TableMeld("run", 0, (35, 36, 15, 38))          # R3 R4 Rook R6: the bird is R5
>>> m.lowest_rank(), m.bird_stands_for(37), m.lay_off(39, None, 0.5).cards
(3, 2, (35, 36, 15, 38, 39))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import _layout as L
from ..cards import card_name
from ..errors import RookError
from .melds import MIN_RUN, MIN_SET, wild_ok

__all__ = ["TableMeld", "fits_table"]


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: ``kind`` ("set" or "run"), the player who laid it, its cards."""

    kind: str
    owner: int
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        """Refuse a meld no table can hold: a kind other than "set" or "run" ("" while
        a bot has not yet arranged it), no natural card (TV-5), a card no deck has."""
        cards = self.cards
        if self.kind not in ("set", "run", ""):
            raise RookError(f"a table meld is a 'set' or a 'run', not {self.kind!r}")
        if not isinstance(cards, tuple) or any(isinstance(c, bool) or not isinstance(c, int) or not (
                c == L.BIRD or (0 <= c < L.N_CARD_IDS and L.MIN_RANK <= c % L.LANE_BITS <= L.MAX_RANK)) for c in cards):
            raise RookError(f"a table meld's cards are a tuple of card ids, not {cards!r}")
        if all(c == L.BIRD for c in cards):
            raise RookError(f"a table meld holds a natural card (TV-5), not only birds: {cards!r}")
        if isinstance(self.owner, bool) or not isinstance(self.owner, int) or self.owner < 0:
            raise RookError(f"a table meld's owner is a player 0, 1, ..., not {self.owner!r}")
        if self.kind and not _in_table_order(self.kind, cards):
            raise RookError(f"{' '.join(card_name(c) for c in cards)} is not a {self.kind} in table order "
                            "(a set: three cards or more of one rank; a run: four or more of one color, one "
                            "a rank from its lowest up, a bird's place the card it stands for; TV-4)")

    def lowest_rank(self) -> int:
        """The rank of a run's first card (its birds count by their place)."""
        for i, c in enumerate(self.cards):
            if c != L.BIRD:
                return L.rank_of(c) - i
        raise AssertionError("a meld holds a natural card (TV-5)")

    def color(self) -> int:
        return next(L.color_of(c) for c in self.cards if c != L.BIRD)

    def rank(self) -> int:
        return next(L.rank_of(c) for c in self.cards if c != L.BIRD)

    def lay_off(self, card: int, end: str | None, max_wild_fraction: float) -> TableMeld | None:
        """Return this meld with ``card`` added (TV-7), or None when it does not fit.

        A natural goes on a run just below or above it; a bird on a run needs
        ``end`` ("low" or "high"); every meld keeps the wild limit (TV-5).
        """
        n, birds = len(self.cards) + 1, self.cards.count(L.BIRD) + (card == L.BIRD)
        if not wild_ok(n, birds, max_wild_fraction):
            return None
        if self.kind == "set":
            if end is not None or (card != L.BIRD and L.rank_of(card) != self.rank()):
                return None
            nat = sorted(c for c in self.cards + (card,) if c != L.BIRD)
            return replace(self, cards=tuple(nat) + (L.BIRD,) * birds)
        lo, hi = self.lowest_rank(), self.lowest_rank() + len(self.cards) - 1
        if card == L.BIRD:
            if end == "low" and lo > L.MIN_RANK:
                return replace(self, cards=(card,) + self.cards)
            if end == "high" and hi < L.MAX_RANK:
                return replace(self, cards=self.cards + (card,))
            return None
        if end is not None or L.color_of(card) != self.color():
            return None
        if L.rank_of(card) == lo - 1:
            return replace(self, cards=(card,) + self.cards)
        if L.rank_of(card) == hi + 1:
            return replace(self, cards=self.cards + (card,))
        return None

    def bird_stands_for(self, card: int) -> int | None:
        """Return the place of the bird in this run that stands for ``card``, else None (TV-9;
        a bird in a set is never replaced)."""
        if self.kind != "run" or card == L.BIRD or L.color_of(card) != self.color():
            return None
        i = L.rank_of(card) - self.lowest_rank()
        return i if 0 <= i < len(self.cards) and self.cards[i] == L.BIRD else None

    def replace_bird(self, card: int) -> TableMeld:
        """Return this run with ``card`` in place of the bird standing for it (TV-9)."""
        i = self.bird_stands_for(card)
        assert i is not None
        return replace(self, cards=self.cards[:i] + (card,) + self.cards[i + 1:])

    def text(self) -> str:
        return " ".join(card_name(c) for c in self.cards)


def _in_table_order(kind: str, cards: tuple[int, ...]) -> bool:
    """Whether ``cards`` are a ``kind`` meld as the table holds one (TV-4): a set
    of three cards or more whose naturals share a rank; a run of four or more
    whose naturals share a color and stand each on its rank, counted from the
    run's lowest rank, within 1..14."""
    nat = [(i, c) for i, c in enumerate(cards) if c != L.BIRD]
    if kind == "set":
        return len(cards) >= MIN_SET and len({L.rank_of(c) for _, c in nat}) == 1
    lo = L.rank_of(nat[0][1]) - nat[0][0]
    return (MIN_RUN <= len(cards) and lo >= L.MIN_RANK and lo + len(cards) - 1 <= L.MAX_RANK
            and len({L.color_of(c) for _, c in nat}) == 1 and all(L.rank_of(c) == lo + i for i, c in nat))


def fits_table(card: int, table: list[TableMeld], max_wild_fraction: float) -> bool:
    """Whether ``card`` can be laid off on some meld of ``table`` (TV-7)."""
    return any(m.lay_off(card, end, max_wild_fraction) is not None
               for m in table for end in ((None, "low", "high") if card == L.BIRD else (None,)))
