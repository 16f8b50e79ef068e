"""Summary statistics of simulation runs: a mean with its interval, a proportion with its interval
(:func:`rook_core.intervals.wilson`).

Both return ``(estimate, low, high)`` at 95%; an empty sample gives NaNs.

>>> mean_ci([1.0, 2.0, 3.0])[0], wilson(0, 10)[1]
(2.0, 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..intervals import Z95, wilson

__all__ = ["mean_ci", "wilson"]   # wilson: rook_core.intervals, shared with the odds of a bid


def mean_ci(x: npt.NDArray[np.floating] | Sequence[float]) -> tuple[float, float, float]:
    """Return the mean of ``x`` and its 95% normal interval (NaN bounds for fewer than 2 values)."""
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(np.mean(x))
    if n < 2:
        return (m, math.nan, math.nan)
    h = Z95 * float(np.std(x, ddof=1)) / math.sqrt(n)
    return (m, m - h, m + h)

