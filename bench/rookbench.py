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

from rook_core._reference.playout import NativeStream, replay_random_hand
from rook_core._reference.tricks import RefPlay, card_points, deck_cards, legal_cards, play_card
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
    from rook_core.hand import HandState
    hands, nest = deal_random(variant, rng)
    pos = Position(variant, trump, leader, (), tuple(mask_of(h) for h in hands),  # type: ignore[arg-type]
                   card_points(variant, nest))
    h = HandState.from_position(pos)
    legal, apply = h.legal_actions, h.apply
    while not h.is_over:
        apply(rng.choice(legal()))
    return h.points


# ---------------------------------------------------- the native random stream
# (the pure-Python twin lives in rook_core._reference.playout)
