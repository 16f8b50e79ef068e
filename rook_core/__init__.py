"""rook_core: a native-accelerated engine for the Rook family of card games.

>>> from rook_core import HandState
>>> h = HandState.deal("tournament", seed=7)
>>> h.phase.label, len(h.legal_actions())
('bid', 12)
"""

from ._native import Rules, rules_for
from ._version import __version__
from .actions import Phase, action_name, parse_action
from .cards import BIRD, Card, CardSet, card_name, parse_card, parse_cards
from .errors import BotActionError, BotError, IllegalActionError, NotationError, PositionError, RookError, VariantError
from .game import Game
from .hand import HandState
from .variant import PRESETS, SEED_PRESETS, Variant, get_preset

__all__ = [
    "__version__",
    "BIRD", "BotActionError", "BotError", "Card", "CardSet", "Game", "HandState", "IllegalActionError",
    "NotationError", "PRESETS", "Phase", "PositionError", "RookError", "Rules", "SEED_PRESETS", "Variant",
    "VariantError",
    "action_name", "card_name", "get_preset", "parse_action", "parse_card", "parse_cards",
    "rules_for",
]
