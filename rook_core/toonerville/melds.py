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

from collections.abc import Iterable
from fractions import Fraction

from .. import _layout as L
from ..cards import parse_card
from ..errors import RookError

__all__ = ["is_set", "is_run", "meld_kind", "run_ranks", "MIN_SET", "MIN_RUN"]

MIN_SET = 3
MIN_RUN = 4


def _ids(cards: Iterable[int | str]) -> list[int]:
    return [int(parse_card(c)) if isinstance(c, str) else int(c) for c in cards]


def _wild_ok(n: int, birds: int, max_wild_fraction: float | Fraction) -> bool:
    """TV-5: fewer than ``max_wild_fraction`` of the ``n`` cards are birds."""
    if not 0 < max_wild_fraction <= 1:
        raise RookError(f"max_wild_fraction must be in (0, 1], not {max_wild_fraction!r}")
    return birds < Fraction(max_wild_fraction).limit_denominator(1000) * n


def is_set(cards: Iterable[int | str], max_wild_fraction: float = 0.5) -> bool:
    """Return whether ``cards`` form a set (TV-4, TV-5)."""
    ids = _ids(cards)
    naturals = [c for c in ids if c != L.BIRD]
    birds = len(ids) - len(naturals)
    if len(ids) < MIN_SET or not _wild_ok(len(ids), birds, max_wild_fraction):
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
    if n < MIN_RUN or n > L.MAX_RANK - L.MIN_RANK + 1 or not _wild_ok(n, birds, max_wild_fraction):
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
    """Return ``"set"``, ``"run"`` or None for ``cards``.  No meld is both: a
    set's naturals share a rank, a run's have distinct ranks, and TV-5 asks
    for at least two naturals in a meld of three or more."""
    ids = _ids(cards)
    if is_set(ids, max_wild_fraction):
        return "set"
    if is_run(ids, max_wild_fraction):
        return "run"
    return None
