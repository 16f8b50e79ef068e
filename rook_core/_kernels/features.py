"""Numba kernels over arrays of 64-bit hand masks (see rook_core.bots.features).

Every kernel takes a 1-d ``uint64`` array of hands and plain tables, loops
once over the hands and writes one row per hand; no Python object is
touched inside the loop (``nopython`` mode), and the compiled code is cached
on disk beside this file.  A card is bit ``16 * color + rank``; the bird is
bit 15 (``src/rook/layout.h``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

BIRD_BIT = np.uint64(1) << np.uint64(15)


@njit(cache=True, nogil=True)
def popcount64(x):  # type: ignore[no-untyped-def]
    """Return the number of set bits of a uint64 (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def color_lengths(hands, color_masks, out):  # type: ignore[no-untyped-def]
    """out[i, c] = cards of color c in hands[i] (the bird has no color)."""
    for i in range(hands.shape[0]):
        h = hands[i]
        for c in range(4):
            out[i, c] = popcount64(h & color_masks[c])


@njit(cache=True, nogil=True)
def masked_sums(hands, group_masks, group_values, out):  # type: ignore[no-untyped-def]
    """out[i] = sum over groups g of group_values[g] * |hands[i] & group_masks[g]|
    (counter points when the groups are the counter groups of T-12)."""
    for i in range(hands.shape[0]):
        h = hands[i]
        s = 0
        for g in range(group_masks.shape[0]):
            s += group_values[g] * popcount64(h & group_masks[g])
        out[i] = s


@njit(cache=True, nogil=True)
def masked_counts(hands, mask, out):  # type: ignore[no-untyped-def]
    """out[i] = |hands[i] & mask|."""
    for i in range(hands.shape[0]):
        out[i] = popcount64(hands[i] & mask)
