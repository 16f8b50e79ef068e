"""A pure-Python copy of the native random stream (``src/rook/rng.h``).

``NativeStream`` draws exactly the numbers ``rook_rng`` draws from the same
seed (splitmix64 seeding, xoshiro256**, Lemire's bounded draw with
rejection), bit for bit.  Agents that choose in Python use it, so that the
native hand loop (``src/rook/sim.h``) and a Python run of the same agents
make the same choices; the reference twin of the playout kernel replays
with it too.

>>> a, b = NativeStream(7), NativeStream(7)
>>> [a.below(52) for _ in range(5)] == [b.below(52) for _ in range(5)]
True
"""

from __future__ import annotations

__all__ = ["NativeStream", "splitmix64"]

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """Return (output, advanced state) of splitmix64 (rng.h)."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31), x


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M64


class NativeStream:
    """A pure-Python copy of ``rook_rng`` (xoshiro256** seeded by splitmix64)."""

    def __init__(self, seed: int) -> None:
        x = seed & M64
        s = []
        for _ in range(4):
            z, x = splitmix64(x)
            s.append(z)
        self.s = s

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & M64, 7) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """Lemire's multiply-shift with rejection, as ``rook_rng_below``."""
        m = (self.next() >> 32) * n
        low = m & M32
        if low < n:
            threshold = ((-n) & M32) % n
            while low < threshold:
                m = (self.next() >> 32) * n
                low = m & M32
        return m >> 32
