"""Double-dummy values by exhaustive minimax: the oracle of the native solver.

This is the slow, obviously correct twin of ``src/rook/solve.c``.  It plays
every legal card (T-9, T-10) at every turn with the reference play-out model
of :mod:`rook_core._reference.tricks` (:class:`RefPlay`,
``_play_legal_card``), which also decides who wins each trick (T-11) and
scores it (T-12, T-13, T-14).  There is no alpha-beta, no move ordering, no
equivalent-card merging and no bound: the only shortcut is a memo of exact
values keyed by the whole remaining state (see :func:`_future_points`), which
cannot change any answer because the points still to come are a function of
that key alone.

The value follows FORMATS.md ``rook solve``: the number of points team 0
(seats 0 and 2) takes from the position to the end of the hand when team 0
maximises and team 1 minimises (T-8: seats move clockwise from the leader,
the winner of a trick leads the next), counting

* the counters of the cards already in ``trick`` and of every later card, for
  the team that wins their trick (T-11, T-12);
* ``nest_points`` and the variant's ``last_trick_bonus`` for the team that
  takes the last trick (T-13, T-14);

and not counting ``taken`` (the points of tricks completed before the
position).  Variants with a ``most_tricks_bonus`` (``dixie``, RULES.md
section 4) are refused with :class:`~rook_core.errors.PositionError`: that
bonus depends on the tricks won before the position, which a position does
not record.

>>> pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
...        "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
>>> dd_value(pos)
15
>>> from rook_core.cards import card_name
>>> {card_name(c): v for c, v in sorted(dd_move_values(pos).items())}
{'B5': 15, 'R14': 15}
>>> dd_at_least(pos, 15), dd_at_least(pos, 16), dd_at_least(pos, 25, team=1)
(True, False, True)
"""

from __future__ import annotations

from typing import Any

from rook_core.errors import PositionError

from .tricks import RefPlay, _play_legal_card, card_points, ref_play_from_position

__all__ = ["dd_at_least", "dd_best", "dd_move_values", "dd_total", "dd_value", "ref_state"]

# The memo key at a trick boundary: each seat's remaining cards and the leader.
_Key = tuple[tuple[frozenset[int], ...], int]


def ref_state(position: Any) -> RefPlay:
    """Return the :class:`RefPlay` of ``position`` with no points taken yet.

    ``position`` is a FORMATS.md trick-play position (dict, JSON text or
    :class:`~rook_core.position.Position`), a :class:`RefPlay`, or a
    ``HandState`` in the play phase (read through its public fields: hands,
    trump, leader, trick, nest points).  ``taken`` is dropped: the value does
    not count it (FORMATS.md ``rook solve``).

    :raises PositionError: for an inconsistent position, a ``HandState`` not
        in the play phase, or a variant with a ``most_tricks_bonus``.
    """
    if isinstance(position, RefPlay):
        state = position.copy()
    elif hasattr(position, "hand_mask") and hasattr(position, "phase"):
        state = _from_hand_state(position)
    else:
        state = ref_play_from_position(position)
    if state.variant.most_tricks_bonus:
        raise PositionError(
            f"variant {state.variant.name!r}: the most-tricks bonus depends on the tricks "
            f"won before the position, which a position does not record")
    state.points = [0, 0]
    state.tricks_won = [0, 0]
    return state


def _from_hand_state(hand: Any) -> RefPlay:
    """Return the play-out of a ``HandState`` in the play phase (T-8)."""
    if hand.phase.label != "play":
        raise PositionError(f"a double-dummy value needs a hand in the play phase, "
                            f"not {hand.phase.label}")
    hands = [{c for c in range(64) if hand.hand_mask(s) >> c & 1} for s in range(4)]
    return RefPlay(hand.variant, hand.trump, hand.leader, [int(c) for c in hand.trick],
                   hands, [0, 0], hand.nest_points)


def dd_total(position: Any) -> int:
    """Return every point still to be taken from ``position``: the counters in
    the hands and in the current trick (T-12), the nest points and the
    last-trick bonus (T-13, T-14).  The two teams' values sum to this."""
    return _points_to_come(ref_state(position))


def _key(state: RefPlay) -> _Key:
    return tuple(frozenset(h) for h in state.hands), state.leader


def _future_points(state: RefPlay, memo: dict[_Key, int]) -> int:
    """Return the points team 0 takes from ``state`` to the end of the hand
    under double-dummy play (points already in ``state.points`` not counted).

    Team 0 (seats 0, 2) picks the card with the largest result, team 1 the
    smallest (FORMATS.md ``rook solve``); every legal card is tried (T-9,
    T-10) except that a team stops looking once a card gives it every point
    still to come (:func:`_points_to_come`; team 1: none of them), since no
    card can do better than that.

    At a trick boundary the result depends only on the remaining hands and
    the leader (trump, variant and nest points are fixed for the whole
    search, and the most-tricks bonus is refused), so it is memoised by them.
    A state inside a trick is reached only from its trick's first state, so
    it is not memoised.
    """
    if state.is_over:
        return 0
    key = _key(state) if not state.trick else None
    if key is not None and key in memo:
        return memo[key]
    team0_moves = state.to_move % 2 == 0
    everything = _points_to_come(state)
    best: int | None = None
    for card in sorted(state.legal()):
        result = _gain(state, card, memo)
        if best is None or (result > best if team0_moves else result < best):
            best = result
        if best == (everything if team0_moves else 0):
            break  # nothing can beat taking all (or none) of what is left
    assert best is not None, "a seat to move always holds a legal card (T-9)"
    if key is not None:
        memo[key] = best
    return best


def _points_to_come(state: RefPlay) -> int:
    """Return every point still to be taken from ``state``: the counters in
    the hands and in the current trick (T-12), the nest points and the
    last-trick bonus (T-13, T-14)."""
    cards = [c for hand in state.hands for c in hand] + list(state.trick)
    return card_points(state.variant, cards) + state.nest_points + state.variant.last_trick_bonus


def _gain(state: RefPlay, card: int, memo: dict[_Key, int]) -> int:
    """Return the points team 0 takes from ``state`` to the end of the hand
    when the seat to move plays ``card`` and play goes on double dummy: what
    completing the trick gives at once (T-11 .. T-14), plus the rest."""
    child = _play_legal_card(state, card)
    return child.points[0] - state.points[0] + _future_points(child, memo)


def dd_move_values(position: Any) -> dict[int, int]:
    """Return ``{card: value}`` for every legal card of the seat to move
    (T-9, T-10): the double-dummy value of the position after that card
    (FORMATS.md ``move_values``).

    :raises PositionError: see :func:`ref_state`.
    """
    state = ref_state(position)
    memo: dict[_Key, int] = {}
    return {card: _gain(state, card, memo) for card in sorted(state.legal())}


def dd_value(position: Any) -> int:
    """Return the double-dummy value of ``position`` (FORMATS.md ``value``):
    the best of :func:`dd_move_values` for the team of the seat to move,
    the largest for team 0 (seats 0, 2) and the smallest for team 1.

    :raises PositionError: see :func:`ref_state`.
    """
    state = ref_state(position)
    return _future_points(state, {})


def dd_best(position: Any) -> tuple[int, dict[int, int], list[int]]:
    """Return ``(value, move_values, best)`` as FORMATS.md ``rook solve``
    defines them; ``best`` lists, in card-id order, exactly the legal cards
    whose value is the position's value."""
    state = ref_state(position)
    values = dd_move_values(state)
    value = max(values.values()) if state.to_move % 2 == 0 else min(values.values())
    return value, values, [c for c in sorted(values) if values[c] == value]


def dd_at_least(position: Any, target: int, team: int = 0) -> bool:
    """Return whether ``team`` can take at least ``target`` points from
    ``position`` under double-dummy play (team 0 = seats 0, 2).

    Team 0 takes :func:`dd_value` points; team 1 takes the rest of
    :func:`dd_total` (T-14: every point goes to one team or the other).

    :raises PositionError: see :func:`ref_state`.
    :raises ValueError: for a team other than 0 or 1.
    """
    if team not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    value = dd_value(position)
    taken = value if team == 0 else dd_total(position) - value
    return taken >= target
