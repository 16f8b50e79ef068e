"""Shared inputs and helpers of the benchmark suite (not a test module).

Everything here is deterministic: each input list comes from a
``random.Random`` seeded by a fixed string, so every run (and every machine)
benchmarks exactly the same cases.

``NativeStream`` mirrors the C random stream of ``src/rook/rng.h``
(splitmix64 seeding, xoshiro256**, Lemire's bounded draw) so that the
reference engine can replay ``Rules.random_hands`` hand by hand: the
benchmark of group 3 asserts that the native batch and the reference give
identical points for the same hands.

>>> NativeStream(0).below(10) == NativeStream(0).below(10)
True
>>> replay_random_hand(get_preset("tournament"), 2, seed=5, index=0)[0] >= 0
True
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from rook_core._reference.tricks import (RefPlay, card_points, deck_cards, legal_cards,
                                         play_card)
from rook_core.cards import BIRD
from rook_core.position import Position
from rook_core.variant import Variant, get_preset

__all__ = [
    "NativeStream", "deal_random", "legal_cases", "mask_of", "replay_random_hand", "rng_for",
    "trick_cases", "get_preset",
]

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def rng_for(*parts: Any) -> random.Random:
    """Return a ``random.Random`` seeded by the CRC-32 of ``parts``."""
    return random.Random(zlib.crc32("/".join(map(str, parts)).encode()))


def mask_of(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ------------------------------------------------------------ group 1 inputs

def legal_cases(variant: Variant, n: int, rng: random.Random
                ) -> tuple[list[tuple[int, int, int]], list[tuple[list[int], list[int], int]]]:
    """Return ``n`` legal-card cases as (native, reference) argument tuples.

    A hand of 1..hand_size cards (the bird put in it a third of the time), a
    led card not in the hand 90% of the time (else the seat leads: -1 / []),
    a random trump.  Native: ``(hand_mask, led_or_-1, trump)``; reference:
    ``(hand_ids, trick, trump)``.
    """
    deck = sorted(deck_cards(variant))
    native, ref = [], []
    for _ in range(n):
        trump = rng.randrange(4)
        k = rng.randint(1, variant.hand_size)
        leading = rng.random() < 0.1
        cards = rng.sample(deck, k + (0 if leading else 1))
        hand, trick = cards[:k], cards[k:]
        if variant.bird and BIRD not in cards and rng.random() < 0.33:
            hand[0] = BIRD
        native.append((mask_of(hand), trick[0] if trick else -1, trump))
        ref.append((hand, trick, trump))
    return native, ref


# ------------------------------------------------------------ group 2 inputs

def trick_cases(variant: Variant, n: int, rng: random.Random) -> list[tuple[tuple[int, ...], int]]:
    """Return ``n`` complete tricks ``(cards, trump)`` as legal play makes them:
    four random hands are dealt, a random lead, then each seat a random legal
    card (so following suit and trumping happen as often as in real play)."""
    deck = sorted(deck_cards(variant))
    out = []
    for _ in range(n):
        trump = rng.randrange(4)
        cards = rng.sample(deck, 4 * variant.hand_size)
        hands = [cards[s * variant.hand_size:(s + 1) * variant.hand_size] for s in range(4)]
        trick: list[int] = [rng.choice(hands[0])]
        for s in (1, 2, 3):
            trick.append(rng.choice(sorted(legal_cards(variant, hands[s], trick, trump))))
        out.append((tuple(trick), trump))
    return out


# ------------------------------------------------------------ group 3 inputs

def deal_random(variant: Variant, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Deal the variant's deck with ``rng`` (T-2): four hands and the nest."""
    deck = sorted(deck_cards(variant))
    rng.shuffle(deck)
    n = variant.hand_size
    return [deck[s * n:(s + 1) * n] for s in range(4)], deck[4 * n:]


def reference_random_hand(variant: Variant, trump: int, leader: int,
                          rng: random.Random) -> tuple[int, int]:
    """Deal with ``rng`` and play the hand out with random legal cards on the
    reference engine; return the two teams' points (T-8 .. T-14)."""
    hands, nest = deal_random(variant, rng)
    state = RefPlay(variant, trump, leader, [], [set(h) for h in hands], [0, 0],
                    card_points(variant, nest))
    while not state.is_over:
        state = play_card(state, rng.choice(sorted(state.legal())))
    return state.points[0], state.points[1]


def handstate_random_hand(variant: Variant, trump: int, leader: int,
                          rng: random.Random) -> tuple[int, int]:
    """The same hand as :func:`reference_random_hand` (same ``rng`` draws),
    played through the Python API of the native ``HandState``."""
    from rook_core._native.hand import HandState
    hands, nest = deal_random(variant, rng)
    pos = Position(variant, trump, leader, (), tuple(mask_of(h) for h in hands),  # type: ignore[arg-type]
                   card_points(variant, nest))
    h = HandState.from_position(pos)
    legal, apply = h.legal_actions, h.apply
    while not h.is_over:
        apply(rng.choice(legal()))
    return h.points


# ---------------------------------------------------- the native random stream

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
