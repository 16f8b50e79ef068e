"""The pure-Python twin of the native random stream and of the random playout.

``NativeStream`` copies ``src/rook/rng.h`` (splitmix64 seeding,
xoshiro256**, Lemire's bounded draw with rejection) bit for bit, and
:func:`replay_random_hand` replays hand ``index`` of
``Rules.random_hands`` (``src/rook/batch.c``) on the reference trick
engine (:mod:`rook_core._reference.tricks`), so the native playout kernel
can be checked hand by hand.

>>> NativeStream(0).below(10) == NativeStream(0).below(10)
True
"""

from __future__ import annotations

from .tricks import RefPlay, card_points, deck_cards, play_card
from ..variant import Variant

__all__ = ["NativeStream", "replay_random_hand"]

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1



def _splitmix64(x: int) -> tuple[int, int]:
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
            z, x = _splitmix64(x)
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


def replay_random_hand(variant: Variant, trump: int, seed: int, index: int) -> tuple[int, int]:
    """Replay hand ``index`` of ``Rules.random_hands(trump, seed, ...)`` on the
    reference engine (src/rook/batch.c): the stream seeded by
    splitmix64(seed + index), a Fisher-Yates deal of the ascending deck, dealer
    ``index % 4``, the seat after the dealer leads, the k-th lowest legal card
    where k is a uniform draw."""
    z, _ = _splitmix64((seed + index) & M64)
    g = NativeStream(z)
    deck = sorted(deck_cards(variant))
    for i in range(len(deck) - 1, 0, -1):
        j = g.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    n = variant.hand_size
    hands = [set(deck[s * n:(s + 1) * n]) for s in range(4)]
    dealer = index & 3
    state = RefPlay(variant, trump, (dealer + 1) & 3, [], hands, [0, 0],
                    card_points(variant, deck[4 * n:]))
    while not state.is_over:
        legal = sorted(state.legal())
        state = play_card(state, legal[g.below(len(legal))])
    return state.points[0], state.points[1]
