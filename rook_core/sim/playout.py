"""Random playouts in bulk: deal and play whole hands with random legal cards, natively.

:func:`random_playouts` fills an ``(n, 2)`` array with the points of team 0
and team 1 for hands ``first .. first+n-1`` of a seeded stream, with a
fixed trump and no bidding (the nest goes to the last trick, T-13), on
``workers`` threads.  Each hand has its own random stream seeded from
(seed, index), so the rows depend only on the seed and the index, never on
the number of workers (``src/rook/batch.h``).  The native loop holds no
Python object and releases the GIL.

>>> pts = random_playouts("tournament", 1000, seed=1)
>>> pts.shape, bool((pts.sum(axis=1) == 120).all())
((1000, 2), True)
>>> bool((random_playouts("tournament", 1000, seed=1, workers=2) == pts).all())
True
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from .._native import rules_for
from ..cards import parse_color
from ..errors import int_arg
from ..rng import check_seed
from ..variant import Variant, as_variant
from .chunks import MOST_WORKERS, check_workers
from .tables import check_rows_fit

__all__ = ["random_playouts"]


def random_playouts(preset: str | Variant, n: int, *, seed: int = 0, trump: int | str = "R",
                    first: int = 0, workers: int | None = 1) -> npt.NDArray[np.int32]:
    """Return the points of ``n`` random hands as an ``(n, 2)`` int32 array
    (see the module docstring).  ``workers=None`` uses every core.

    :raises RookError: for a bad count (or one whose points would not fit in memory), seed,
        trump or number of workers.
    """
    v = as_variant(preset)
    n = int_arg(n, "n must be an int >= 0", 0)
    seed = check_seed(seed)
    first = check_seed(first, "first")
    t = parse_color(trump)
    w = min(os.cpu_count() or 1, MOST_WORKERS) if workers is None else check_workers(workers)
    check_rows_fit(n, 8, f"{n:,} playouts")
    rules = rules_for(v)
    out = np.empty((n, 2), dtype=np.int32)
    if n == 0:
        return out
    w = min(w, n)
    if w == 1:
        rules.random_hands(t, seed, first, out)
        return out
    bounds = [n * i // w for i in range(w + 1)]
    with ThreadPoolExecutor(w) as pool:
        list(pool.map(lambda i: rules.random_hands(t, seed, first + bounds[i], out[bounds[i]:bounds[i + 1]]),
                      range(w)))
    return out
