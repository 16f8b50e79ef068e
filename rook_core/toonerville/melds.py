"""Melds of Toonerville: sets and runs (TV-4), the bird wild (TV-5).

* A **set** is 3 or more cards of one rank, colors free; the same card may
  appear twice, since the decks are mixed (TV-1, TV-4).
* A **run** is 4 or more cards of one color in consecutive ranks, 1 the
  bottom and 14 the top, never wrapping (TV-4).
* The **bird** stands for any card of its meld, but a meld holds fewer birds
  than ``max_wild_fraction`` of its cards (default one half: more natural
  cards than birds, TV-5).

>>> is_set(["B7", "G7", "G7"]), is_set(["B7", "G7", "Rook"]), is_set(["B7", "Rook", "Rook"])
(True, True, False)
>>> is_run(["R3", "R4", "Rook", "R6"]), is_run(["R13", "R14", "R1", "R2"])
(True, False)
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from numbers import Integral

from .. import _layout as L
from ..cards import parse_card
from ..errors import NotationError, RookError

__all__ = ["is_set", "is_run", "meld_kind", "run_ranks", "arrange_meld", "candidate_melds",
           "wild_ok", "MIN_SET", "MIN_RUN"]

MIN_SET = 3
MIN_RUN = 4
MAX_COPIES = 5
"""The most copies of a card: one deck per player, at most five players (TV-1)."""


_CARD_IDS = frozenset([L.card_id(c, r) for c in range(L.N_COLORS) for r in range(L.MIN_RANK, L.MAX_RANK + 1)]
                      + [L.BIRD])


def _ids(cards: Iterable[int | str]) -> list[int]:
    """The card ids of ``cards`` (names or ids of the full-57 deck).

    :raises NotationError: for what is not a card; RookError for what is not a list of cards.
    """
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise RookError(f"a meld is a list of cards, not {cards!r}")
    out = []
    for c in cards:
        if isinstance(c, str):
            out.append(int(parse_card(c)))
        elif isinstance(c, bool) or not isinstance(c, Integral) or int(c) not in _CARD_IDS:
            raise NotationError(f"{c!r} is not a card id of the full-57 deck", str(c))
        else:
            out.append(int(c))
    return out


def _counts(counts: Sequence[int]) -> list[int]:
    """``counts`` checked to be a hand's 64 counts by card id (TV-1)."""
    try:
        values = [operator.index(k) if not isinstance(k, bool) else -1 for k in counts]
    except TypeError:
        raise RookError(f"counts must be 64 ints, one per card id, not {reprlib.repr(counts)}") from None
    if len(values) != L.N_CARD_IDS or any(not 0 <= k <= MAX_COPIES for k in values) \
            or any(k and c not in _CARD_IDS for c, k in enumerate(values)):
        raise RookError(f"counts must be 64 ints 0..{MAX_COPIES}, one per card id, 0 where no card of the "
                        f"full-57 deck is (TV-1), not {reprlib.repr(counts)}")
    return values


def _fraction(max_wild_fraction: float | Fraction) -> Fraction:
    f = max_wild_fraction
    if isinstance(f, bool) or not isinstance(f, (int, float, Fraction)) or not 0 < f <= 1:
        raise RookError(f"max_wild_fraction must be a number in (0, 1], not {f!r} (TV-5)")
    return _limited(f)


@lru_cache(maxsize=64)
def _limited(max_wild_fraction: float | Fraction) -> Fraction:
    """The fraction with a denominator of at most 1000 (the native solver's
    limit), never 0: a fraction below 1/2000 would round to 0 and refuse
    every meld, even one without a bird; 1/1000 allows no bird in a meld of
    up to 1000 cards, as the fraction itself does (TV-5)."""
    return max(Fraction(max_wild_fraction).limit_denominator(1000), Fraction(1, 1000))


def wild_ok(n: int, birds: int, max_wild_fraction: float | Fraction) -> bool:
    """TV-5: fewer than ``max_wild_fraction`` of the ``n`` cards are birds."""
    return birds < _fraction(max_wild_fraction) * n


def is_set(cards: Iterable[int | str], max_wild_fraction: float = 0.5) -> bool:
    """Return whether ``cards`` form a set (TV-4, TV-5)."""
    ids = _ids(cards)
    naturals = [c for c in ids if c != L.BIRD]
    birds = len(ids) - len(naturals)
    if len(ids) < MIN_SET or not wild_ok(len(ids), birds, max_wild_fraction):
        return False
    return len({L.rank_of(c) for c in naturals}) == 1


def run_ranks(cards: Iterable[int | str], max_wild_fraction: float = 0.5) -> tuple[int, int] | None:
    """Return the lowest and highest rank the run ``cards`` covers, its birds
    placed in the gaps and then as high as they fit; None when ``cards`` are
    not a run (TV-4, TV-5)."""
    ids = _ids(cards)
    naturals = [c for c in ids if c != L.BIRD]
    birds = len(ids) - len(naturals)
    n = len(ids)
    if n < MIN_RUN or n > L.MAX_RANK - L.MIN_RANK + 1 or not wild_ok(n, birds, max_wild_fraction):
        return None
    if len({L.color_of(c) for c in naturals}) != 1:
        return None
    ranks = sorted(L.rank_of(c) for c in naturals)
    if len(set(ranks)) != len(ranks):
        return None                                   # one card per rank in a run
    gaps = ranks[-1] - ranks[0] + 1 - len(ranks)
    if gaps > birds:
        return None
    hi = min(L.MAX_RANK, ranks[-1] + birds - gaps)    # spare birds above, then below
    lo = hi - n + 1
    return (lo, hi) if lo >= L.MIN_RANK else None


def is_run(cards: Iterable[int | str], max_wild_fraction: float = 0.5) -> bool:
    """Return whether ``cards`` form a run (TV-4, TV-5)."""
    return run_ranks(cards, max_wild_fraction) is not None


def meld_kind(cards: Iterable[int | str], max_wild_fraction: float = 0.5) -> str | None:
    """Return ``"set"``, ``"run"`` or None for ``cards``.  Up to the default
    fraction of one half no meld is both: a set's naturals share a rank, a
    run's have distinct ranks, and TV-5 then asks for at least two naturals
    in a meld of three or more.  Above one half (``B3 Rook Rook Rook``) a
    meld can be both, and this returns ``"set"``."""
    ids = _ids(cards)
    if is_set(ids, max_wild_fraction):
        return "set"
    if is_run(ids, max_wild_fraction):
        return "run"
    return None


def arrange_meld(cards: Iterable[int | str], max_wild_fraction: float = 0.5
                 ) -> tuple[str, tuple[int, ...]] | None:
    """Return ``(kind, cards)`` with the meld's cards in their table order, or
    None when ``cards`` are not a meld (TV-4, TV-5).

    A set lists its naturals in order, then its birds.  A run lists one card
    per rank from its lowest rank up, so a bird's place says which card it
    stands for (TV-9).  A run given in that order keeps it; otherwise its
    birds fill the gaps, then go as high as they fit, then below.

    >>> arrange_meld(["Rook", "R4", "R5", "R6"])        # the bird stands for R3
    ('run', (15, 36, 37, 38))
    >>> arrange_meld(["R5", "R4", "Rook", "R6"])        # no order: the bird goes on top (R7)
    ('run', (36, 37, 38, 15))
    """
    ids = _ids(cards)
    if is_set(ids, max_wild_fraction):
        return "set", tuple(sorted(c for c in ids if c != L.BIRD)) + (L.BIRD,) * ids.count(L.BIRD)
    span = run_ranks(ids, max_wild_fraction)
    if span is None:
        return None
    nat = [(i, c) for i, c in enumerate(ids) if c != L.BIRD]
    lo = L.rank_of(nat[0][1]) - nat[0][0]
    if lo >= L.MIN_RANK and lo + len(ids) - 1 <= L.MAX_RANK and all(L.rank_of(c) == lo + i for i, c in nat):
        return "run", tuple(ids)
    lo, hi = span
    color = L.color_of(nat[0][1])
    held = {L.rank_of(c) for _, c in nat}
    return "run", tuple(L.card_id(color, r) if r in held else L.BIRD for r in range(lo, hi + 1))


def candidate_melds(counts: Sequence[int], max_wild_fraction: float | Fraction = 0.5
                    ) -> list[tuple[str, tuple[int, ...]]]:
    """Return every meld the multiset ``counts`` (a count per card id) can lay,
    each as ``(kind, cards)`` in table order (TV-4, TV-5).

    * a set: for a rank, any choice of that rank's naturals (by color) and of
      birds, 3 cards or more, within the wild limit;
    * a run: for a color and a span of 4 ranks or more, each rank given by the
      natural card (if held) or by a bird, within the wild limit.

    :raises RookError: unless ``counts`` are 64 ints 0..:data:`MAX_COPIES`, 0 on
        every id that is no card of the full deck (TV-1).
    """
    counts = _counts(counts)
    _fraction(max_wild_fraction)
    out: list[tuple[str, tuple[int, ...]]] = []
    n_birds = counts[L.BIRD]
    for rank in range(L.MIN_RANK, L.MAX_RANK + 1):                       # sets
        ids = [L.card_id(c, rank) for c in range(L.N_COLORS)]
        for take in product(*(range(counts[i] + 1) for i in ids)):
            naturals = sum(take)
            if not naturals:
                continue
            nat = tuple(i for i, k in zip(ids, take) for _ in range(k))
            for b in range(n_birds + 1):
                if naturals + b >= MIN_SET and wild_ok(naturals + b, b, max_wild_fraction):
                    out.append(("set", nat + (L.BIRD,) * b))
    for color in range(L.N_COLORS):                                       # runs
        for lo in range(L.MIN_RANK, L.MAX_RANK - MIN_RUN + 2):
            span: list[int] = []
            held: list[int] = []                       # places in span held as naturals
            for hi in range(lo, L.MAX_RANK + 1):
                card = L.card_id(color, hi)
                if counts[card]:
                    held.append(len(span))
                span.append(card)
                missing = len(span) - len(held)
                if missing > n_birds:
                    break                              # a longer span misses as many or more
                if len(span) < MIN_RUN:
                    continue
                for extra in range(n_birds - missing + 1):     # birds also where a natural is held
                    if not wild_ok(len(span), missing + extra, max_wild_fraction):
                        break
                    for wild in combinations(held, extra):
                        use = [card if counts[card] else L.BIRD for card in span]
                        for i in wild:
                            use[i] = L.BIRD
                        out.append(("run", tuple(use)))
    return out
