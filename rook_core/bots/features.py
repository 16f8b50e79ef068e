"""Hand features over arrays of hands, for bidding studies (Numba kernels).

:func:`hand_features` takes many hands at once (64-bit masks, e.g. the
``hand_0`` .. ``hand_3`` columns of :func:`rook_core.sim.simulate.simulate`)
and returns one NumPy column per feature:

* ``lengths`` ``(n, 4)``: cards of each color (C-1; the bird has no color);
* ``longest``: the longest color's length;
* ``counters``: counter points in the hand (T-12);
* ``top``: cards among the ``top_ranks`` highest ranks of each color (C-4);
* ``bird``: whether the hand holds the bird.

The loops are Numba kernels (``rook_core/_kernels/features.py``), compiled
on first use and cached on disk.

>>> import numpy as np
>>> from rook_core.cards import CardSet
>>> f = hand_features([CardSet.parse("B14 B13 B5 G10 Rook").mask], "tournament")
>>> f["lengths"].tolist(), int(f["counters"][0]), int(f["top"][0]), bool(f["bird"][0])
([[3, 1, 0, 0]], 45, 2, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _layout as L
from ..errors import RookError
from ..variant import Variant, as_variant

__all__ = ["hand_features"]


def _as_hands(hands: Any, deck: int) -> npt.NDArray[np.uint64]:
    try:
        arr = np.asarray(hands)
    except (TypeError, ValueError, OverflowError) as e:
        raise RookError(f"hands must be an array of 64-bit card masks: {e}") from None
    if arr.ndim != 1:
        raise RookError(f"hands must be a 1-d array of card masks, not of shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "ui":
        raise RookError(f"hands must hold integers (card masks), not {arr.dtype}")
    if arr.size and arr.dtype.kind == "i" and (arr < 0).any():
        raise RookError(f"hand {int(np.argmax(arr < 0))} is negative: not a card mask")
    out = arr.astype(np.uint64)
    bad = (out & np.uint64(~deck & (1 << 64) - 1)) != 0
    if bad.any():
        i = int(np.argmax(bad))
        raise RookError(f"hand {i} ({int(out[i]):#x}) holds cards outside this variant's deck")
    return out


def hand_features(hands: Any, variant: Variant | str, top_ranks: int = 2) -> dict[str, Any]:
    """Return the features of the module docstring for every hand.

    :raises RookError: for hands that are not card masks of the variant's deck,
        or ``top_ranks`` outside 1..14.
    """
    from .._kernels import features as K
    v = as_variant(variant)
    if isinstance(top_ranks, bool) or not isinstance(top_ranks, int) or not 1 <= top_ranks <= 14:
        raise RookError(f"top_ranks must be 1..14, not {top_ranks!r}")
    h = _as_hands(hands, v.deck_mask)
    n = h.shape[0]
    colors = np.array(L.BB_COLORS, dtype=np.uint64)
    lengths = np.zeros((n, 4), dtype=np.int8)
    K.color_lengths(h, colors, lengths)
    pts = v.points_table
    values = sorted({p for p in pts if p})
    group_masks = np.array([sum(1 << c for c in range(64) if pts[c] == p) for p in values] or [0],
                           dtype=np.uint64)
    group_values = np.array(values or [0], dtype=np.int64)
    counters = np.zeros(n, dtype=np.int16)
    K.masked_sums(h, group_masks, group_values, counters)
    top_mask = 0
    for c in range(L.N_COLORS):
        ranked = sorted((x for x in range(64) if v.deck_mask >> x & 1 and x != L.BIRD
                         and L.BB_COLORS[c] >> x & 1), key=lambda x: -v.strength_table[x])
        for x in ranked[:top_ranks]:
            top_mask |= 1 << x
    top = np.zeros(n, dtype=np.int8)
    K.masked_counts(h, np.uint64(top_mask), top)
    return {"lengths": lengths, "longest": lengths.max(axis=1) if n else np.zeros(0, np.int8),
            "counters": counters, "top": top,
            "bird": (h & np.uint64(L.BB_BIRD)) != 0}
