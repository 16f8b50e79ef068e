"""Seeds and random streams: the one definition of how a run's seed becomes
the seeds of its hands and agents, and a pure-Python copy of the native
random stream (``src/rook/rng.h``).

:func:`hand_seed` (and its vectorised :func:`hand_seeds`) gives the deal
seed of hand ``index`` of a game or run; ``src/rook/sim.c`` computes the
same natively (``rook_hand_seed``; tests/sim/test_sim_native.py checks they
agree).  :func:`agent_seed` gives the seed of a seat's bot.

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

import numpy as np
import numpy.typing as npt

from . import _layout as L
from .errors import RookError, as_int, int_arg

__all__ = ["NativeStream", "agent_seed", "check_agent_seed", "check_seed", "hand_seed", "hand_seeds", "splitmix64"]

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def check_seed(seed: object, what: str = "a seed") -> int:
    """Return ``seed`` as an int if it is a seed: an integer 0 .. 2**64-1 (a
    Python int or a NumPy integer, such as one drawn from an array of
    seeds), the one rule of every deal, game, simulation and service request
    (the command line says the same).  Callers keep the int returned, so
    that what they record (JSON, pickles) holds a plain int.

    :raises RookError: for anything else (bools included), naming it.
    """
    n = as_int(seed)
    if n is None or not 0 <= n <= M64:
        raise RookError(f"{what} must be an int in 0 .. 2**64-1, not {seed!r}")
    return n


def check_agent_seed(seed: object) -> int:
    """Return an agent's ``seed`` as an int: any int (its stream takes every
    one; a numpy int is taken), never a bool, a float, a text or None (which
    would seed from the clock, and the agent would not decide the same way twice).

    :raises RookError: for anything else, naming it.
    """
    return int_arg(seed, "an agent's seed must be an int")


def splitmix64(x: int) -> tuple[int, int]:
    """Return (output, advanced state) of splitmix64 (rng.h)."""
    x = (x + L.GOLDEN_GAMMA) & M64
    z = x
    z = ((z ^ (z >> 30)) * L.MIX_1) & M64
    z = ((z ^ (z >> 27)) * L.MIX_2) & M64
    return z ^ (z >> 31), x


def hand_seed(game_seed: int, index: int) -> int:
    """Return the deal seed of hand ``index`` (0-based, redeals counted) of a game."""
    z = (game_seed * L.GOLDEN_GAMMA + (index + 1) * L.SEED_STEP) & M64
    z = ((z ^ (z >> 30)) * L.MIX_1) & M64
    z = ((z ^ (z >> 27)) * L.MIX_2) & M64
    return z ^ (z >> 31)


def hand_seeds(seed: int | npt.NDArray[np.uint64], units: npt.NDArray[np.integer]) -> npt.NDArray[np.uint64]:
    """Vectorised :func:`hand_seed` (uint64 arithmetic wraps mod 2**64);
    ``seed`` is one seed or one per unit."""
    base = np.uint64(seed & M64) if isinstance(seed, int) else np.asarray(seed, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = base * np.uint64(L.GOLDEN_GAMMA) + (units.astype(np.uint64) + np.uint64(1)) * np.uint64(L.SEED_STEP)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(L.MIX_1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(L.MIX_2)
        out: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
        return out


def agent_seed(seed: int, unit: int, seat: int) -> int:
    """Return the seed of the agent at ``seat`` for unit ``unit`` of a run."""
    return hand_seed(hand_seed(seed, unit) ^ L.AGENT_SALT, seat)


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
