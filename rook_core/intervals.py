"""Intervals of estimates from samples: a proportion's 95% Wilson interval.

Simulations (:mod:`rook_core.sim`) and the odds of a bid
(:mod:`rook_core.odds`) both report shares of a finite sample of deals; this
module gives each share its 95% interval: where the share over every deal
lies, judged from the sample.

>>> p, lo, hi = wilson(30, 100)
>>> p, round(lo, 3), round(hi, 3)
(0.3, 0.219, 0.396)
>>> wilson(0, 10)[1], wilson(10, 10)[2]
(0.0, 1.0)
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Return the proportion ``k/n`` and its 95% Wilson interval, which
    holds it and lies within [0, 1] (unlike the normal interval it stays
    sensible at 0 and n); NaNs when ``n`` is 0."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    z = Z95
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # (clamped to hold p: at k = 0 or n the rounding of c -+ h may miss it by an ulp)
    return (p, max(0.0, min(p, c - h)), min(1.0, max(p, c + h)))
