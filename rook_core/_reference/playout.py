"""The pure-Python twin of the native random stream and of the random playout.

``NativeStream`` (:mod:`rook_core.rng`) copies ``src/rook/rng.h`` bit for
bit, and :func:`replay_random_hand` replays hand ``index`` of
``Rules.random_hands`` (``src/rook/batch.c``) on the reference trick
engine (:mod:`rook_core._reference.tricks`), so the native playout kernel
can be checked hand by hand.

>>> NativeStream(0).below(10) == NativeStream(0).below(10)
True
"""

from __future__ import annotations

from ..rng import M64, NativeStream, splitmix64
from ..variant import Variant
from .tricks import RefPlay, card_points, deck_cards, play_card

__all__ = ["NativeStream", "replay_random_hand"]


def replay_random_hand(variant: Variant, trump: int, seed: int, index: int) -> tuple[int, int]:
    """Replay hand ``index`` of ``Rules.random_hands(trump, seed, ...)`` on the
    reference engine (src/rook/batch.c): the stream seeded by
    splitmix64(seed + index), a Fisher-Yates deal of the ascending deck, dealer
    ``index % 4``, the seat after the dealer leads, the k-th lowest legal card
    where k is a uniform draw."""
    z, _ = splitmix64((seed + index) & M64)
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
