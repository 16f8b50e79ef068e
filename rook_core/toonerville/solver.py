"""The Toonerville contract problem, solved natively (TV-2, TV-4, TV-5, TV-7, TV-12).

Given a hand (a multiset, TV-1) and a round's contract of ``s`` sets and
``r`` runs (TV-2): can the hand lay down ``s`` sets and ``r`` runs, disjoint
and each valid (TV-4; the bird wild but never as many as
``max_wild_fraction`` of a meld's cards, TV-5), and what is the least
deadwood, the TV-12 points of the cards left in hand, once the further
melds of the same hand are laid too (TV-7)?

The answers equal the brute-force reference
(:func:`rook_core._reference.contract.solve_contract`, which the tests
check them against); the work is done by the C kernel
``src/rook/contract/``: about 0.1 us a random 12-card hand in a batch
(:func:`contract_deadwood_many`), a few us a call one hand at a time.

>>> r = solve_contract(MultiHand.parse("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook"), 1)
>>> r.can_meet, r.deadwood                  # B7 G7 Rook, B9 Y9 Y9, then R3-R7: G2 is left
(True, 5)
>>> from rook_core.cards import card_name
>>> [" ".join(card_name(c) for c in m) for m in r.melds]
['B7 G7 Rook', 'B9 Y9 Y9', 'R3 R4 R5 R6 R7']
>>> hands = [MultiHand.parse("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook").counts(),
...          MultiHand.parse("B7 G7 R7 Y9 Y9 G2").counts()]
>>> met, deadwood = contract_deadwood_many(hands, 1)
>>> met.tolist(), deadwood.tolist()
([True, False], [5, -1])
"""

from __future__ import annotations

import math
import reprlib
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import CONTRACT_MAX_CARDS, CONTRACT_MAX_COPIES, contract_solve, contract_solve_many
from ..errors import RookError
from .contracts import Contract, ContractResult, contract_for
from .hand import MultiHand

__all__ = ["ContractResult", "solve_contract", "contract_deadwood_many", "MAX_CARDS", "MAX_COPIES"]

MAX_CARDS: int = CONTRACT_MAX_CARDS
"""The most cards a hand may hold for the solver (16 are dealt at most, TV-2)."""
MAX_COPIES: int = CONTRACT_MAX_COPIES
"""The most copies of one card: one deck per player, at most five players (TV-1)."""


def _fraction(max_wild_fraction: float) -> tuple[int, int]:
    """TV-5: the wild fraction as (num, den), limited to a denominator of
    1000 as :mod:`.melds` does."""
    f = max_wild_fraction
    if isinstance(f, bool) or not isinstance(f, (int, float, Fraction)):
        raise RookError(f"max_wild_fraction must be a number in (0, 1], not {f!r} (TV-5)")
    if isinstance(f, float) and not math.isfinite(f):
        raise RookError(f"max_wild_fraction must be in (0, 1], not {f!r} (TV-5)")
    if not 0 < f <= 1:
        raise RookError(f"max_wild_fraction must be in (0, 1], not {f!r} (TV-5)")
    q = max(Fraction(f).limit_denominator(1000), Fraction(1, 1000))   # never 0: see melds._limited
    return q.numerator, q.denominator


def _contract(contract: Contract | int | dict[str, int]) -> Contract:
    if not isinstance(contract, Contract):
        return contract_for(contract)
    for name in ("sets", "runs"):
        x = getattr(contract, name)
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 8:
            raise RookError(f"a contract's {name} must be an int 0..8, not {reprlib.repr(x)} (TV-2)")
    return contract


def solve_contract(hand: MultiHand, contract: Contract | int | dict[str, int],
                   max_wild_fraction: float = 0.5) -> ContractResult:
    """Return whether ``hand`` meets ``contract`` (a round 1..11, a
    :class:`Contract`, or ``{"sets": s, "runs": r}``; TV-2, TV-7), its least
    TV-12 deadwood, and one best lay-down: the contract's sets, then its
    runs, then the further melds (TV-7), each a list of card ids, birds
    last, a bird standing for whatever card its meld needs (TV-4, TV-5).
    When the contract cannot be met: ``can_meet`` False, ``deadwood`` None,
    no melds.  The signature and the result are the reference's.

    A :class:`Contract` built directly may ask for no meld at all
    (``Contract(0, 0, 0, 0)``): the answer is then the least deadwood of
    any lay-down, e.g. of what is left after the contract is down.

    :raises RookError: for a bad contract or wild fraction, a hand of more
        than :data:`MAX_CARDS` cards or with more than :data:`MAX_COPIES`
        copies of a card, naming what is wrong.
    """
    con = _contract(contract)
    num, den = _fraction(max_wild_fraction)
    if not isinstance(hand, MultiHand):
        raise RookError(f"hand must be a MultiHand, not {type(hand).__name__}")
    deadwood, melds = contract_solve(hand.counts(), con.sets, con.runs, num, den)
    if deadwood < 0:
        return ContractResult(False, None, [])
    return ContractResult(True, deadwood, [cards for _, cards in melds])


def contract_deadwood_many(counts: Any, contract: Contract | int | dict[str, int],
                           max_wild_fraction: float = 0.5
                           ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
    """Return ``(can_meet, deadwood)`` for many hands under one contract:
    ``counts`` is an (n, 64) array of counts by card id (rows of
    :meth:`MultiHand.counts`), ``can_meet`` a bool array and ``deadwood``
    an int32 array holding the least TV-12 deadwood, -1 where the contract
    cannot be met (TV-2, TV-4, TV-5, TV-7, TV-12).  The hands are solved in
    one native loop without the GIL (so threads may share the work).

    :raises RookError: for a bad contract or wild fraction, or an array that
        is not (n, 64) counts in 0..:data:`MAX_COPIES` on the ids of the
        full-57 deck with at most :data:`MAX_CARDS` cards a row; the message
        names the row and the card.
    """
    con = _contract(contract)
    num, den = _fraction(max_wild_fraction)
    try:
        arr = np.asarray(counts)
    except (ValueError, TypeError) as e:           # rows of different lengths
        raise RookError(f"counts must be an (n, 64) array of counts by card id: {e}") from None
    if arr.ndim != 2 or arr.shape[1] != 64:
        raise RookError(f"counts must be an (n, 64) array of counts by card id, not shape {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.dtype.kind not in "iub":
            raise RookError(f"counts must hold integers, not {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > MAX_COPIES):
            bad = np.argwhere((arr < 0) | (arr > MAX_COPIES))[0]
            raise RookError(f"hand {bad[0]}: count {arr[bad[0], bad[1]]} of card id {bad[1]} is out "
                            f"of range 0..{MAX_COPIES} (TV-1)")
    arr = np.ascontiguousarray(arr, dtype=np.uint8)
    n = arr.shape[0]
    met = np.zeros(n, dtype=np.uint8)
    deadwood = np.zeros(n, dtype=np.int32)
    contract_solve_many(arr, con.sets, con.runs, num, den, met, deadwood)
    return met.astype(bool), deadwood
