"""An example native policy written with Numba (see rook_core.bots.policy).

Phases are the C core's numbers (rook_core.actions.Phase): 0 bid, 1 nest,
2 trump, 3 pass, 4 play.  Strength is taken as the card's rank, the bird
above all: a simple player, for showing the interface, not for strength.
"""

# mypy: ignore-errors
# (Numba code: its decorators and carray are untyped, and the body is typed by Numba)
from __future__ import annotations

from typing import Any

# the view's slot numbers and the action offsets, from the generated table (plain ints: Numba constants)
from rook_core._layout import ACTION_BID as BID
from rook_core._layout import ACTION_PASS as PASS
from rook_core._layout import ACTION_TRUMP as TRUMP
from rook_core._layout import V_CAN_PASS as CAN_PASS
from rook_core._layout import V_HAND as HAND
from rook_core._layout import V_LEGAL_CARDS as LEGAL
from rook_core._layout import V_MIN_BID as MIN_BID
from rook_core._layout import V_PHASE as PHASE
from rook_core._layout import V_TRICK_N as TRICK_N


def compile_example() -> Any:
    """Return the compiled @cfunc."""
    from numba import carray, cfunc, types

    @cfunc(types.int64(types.CPointer(types.int64), types.int64))
    def example(view_ptr, n):
        v = carray(view_ptr, n)
        phase = v[PHASE]
        if phase == 0:                                   # bid: pass unless the opener must bid
            if v[CAN_PASS]:
                return PASS
            return BID + v[MIN_BID]
        hand = v[HAND]
        if phase == 2:                                   # trump: the longest color
            best, best_n = 0, -1
            for c in range(4):
                k = 0
                for r in range(1, 15):
                    if (hand >> (16 * c + r)) & 1:
                        k += 1
                if k > best_n:
                    best, best_n = c, k
            return TRUMP + best
        legal = v[LEGAL]
        lo, hi, lo_key, hi_key = -1, -1, 99, -1
        for card in range(64):
            if (legal >> card) & 1:
                key = 20 if card == 15 else card & 15
                if key < lo_key:
                    lo, lo_key = card, key
                if key > hi_key:
                    hi, hi_key = card, key
        if phase == 4 and v[TRICK_N] == 0:
            return hi
        if phase == 4:
            return hi if hi_key >= 13 else lo
        return lo                                        # nest and pass: the lowest card

    return example
