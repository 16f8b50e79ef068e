"""The pure-Python oracle of rook_core: slow, plain, obviously correct.

``tricks`` is the twin of the native trick rules (RULES.md C-3, C-4, T-8 ..
T-14): legal cards, trick winners, card points, a play-out model and perft.
Tests compare the native engine against it (``tests/test_parity.py``,
``tests/test_perft.py``); the product never imports it.
"""

from .tricks import (
                     RefPlay,
                     card_points,
                     card_value,
                     deck_cards,
                     is_trump,
                     legal_cards,
                     perft,
                     play_card,
                     rank_value,
                     ref_play_from_position,
                     suit_of,
                     trick_winner,
                     trump_order,
)

__all__ = [
    "RefPlay", "card_points", "card_value", "deck_cards", "is_trump", "legal_cards",
    "perft", "play_card", "rank_value", "ref_play_from_position", "suit_of",
    "trick_winner", "trump_order",
]
