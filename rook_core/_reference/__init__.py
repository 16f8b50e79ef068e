"""The pure-Python oracle of rook_core: slow, plain, obviously correct.

``tricks`` is the twin of the native trick rules (RULES.md C-3, C-4, T-8 ..
T-14): legal cards, trick winners, card points, a play-out model and perft.
``around_play`` is the twin of the rules around the play: the bidding (T-3 ..
T-6, H-2), the discard (T-20, H-4) and the score (T-30 .. T-32, H-1).
Tests compare the native engine against them (``tests/test_parity.py``,
``tests/test_perft.py``, ``tests/test_rules_house.py``); the product never
imports them.
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
