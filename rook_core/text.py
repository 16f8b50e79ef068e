"""Text for people: hands by color and a solved position as a table
(``rook solve --show``, ``rook play``, ``rook demo``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .position import Position
    from .solver import SolveResult

__all__ = ["fmt_hand", "show_solution"]


def fmt_hand(mask_cards: Iterable[Any]) -> str:
    """Return cards grouped by color, highest first (``B:14,10  Rook``): :meth:`CardSet.by_color`."""
    from .cards import CardSet
    cards = mask_cards if isinstance(mask_cards, CardSet) else CardSet(int(c) for c in mask_cards)
    return cards.by_color()


def show_solution(pos: Position, res: SolveResult) -> str:
    """Return a solved position (``res``: a SolveResult of ``pos``) as a table."""
    from . import _layout as L
    from .cards import Card, CardSet
    lines = [f"{pos.variant.name}: trump {L.COLOR_NAMES[pos.trump]}, "
             + (f"seat {pos.leader} led {' '.join(str(Card(c)) for c in pos.trick)}" if pos.trick
                else f"seat {pos.leader} leads")
             + (f", nest {pos.nest_points} points" if pos.nest_points else "")]
    for s in range(4):
        mark = "  <- to move" if s == res.to_move else ""
        lines.append(f"  seat {s} (team {s % 2}): {fmt_hand(CardSet(pos.hands[s]))}{mark}")
    lines.append(f"value: team 0 takes {res.value} points from here (double dummy)")
    lines.append("  card    value")
    for c, v in sorted(res.move_values.items(), key=lambda kv: (-kv[1] if res.to_move % 2 == 0 else kv[1])):
        lines.append(f"  {str(c):<6} {v:>6}" + ("   best" if c in res.best else ""))
    return "\n".join(lines)
