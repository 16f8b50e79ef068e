"""Double-dummy values by exhaustive minimax: the oracle of the native solver.

This is the slow, obviously correct twin of ``src/rook/solve/``.  The value
follows FORMATS.md ``rook solve``: the number of points team 0 (seats 0 and
2) takes from the position to the end of the hand when team 0 maximises and
team 1 minimises, counting

* the counters (T-12) of the cards already in ``trick`` and of every later
  card, for the team whose seat wins their trick (T-11);
* ``nest_points`` and the variant's ``last_trick_bonus`` for the team that
  takes the last trick (T-13, T-14);
* a ``most_tricks_bonus`` (``dixie``, RULES.md section 4) for the team that
  takes more tricks in the whole hand, the tricks before the position
  included (the position's ``tricks``);

and not counting ``taken`` (the points of tricks completed before the
position).  Seats play clockwise from the leader and the winner of a trick
leads the next (T-8); every legal card (T-9, T-10) is tried at every turn.
A variant whose most-tricks bonus can be tied (an even number of tricks) is
refused with :class:`~rook_core.errors.PositionError`: a tie gives the bonus
to nobody, so the play is not zero-sum and has no double-dummy value.

There are two searches, and the tests check that they agree:

* :func:`plain_value` is the textbook definition over :class:`RefPlay`:
  every card through :func:`~rook_core._reference.tricks.play_card`, no memo,
  no cut-off.  It is exponential and only used on short endings.
* :class:`_Search` (behind :func:`dd_value`, :func:`dd_move_values`,
  :func:`dd_at_least`) is the same minimax over plain tuples, using only the
  reference kernels :func:`~rook_core._reference.tricks.legal_cards`,
  :func:`~rook_core._reference.tricks.trick_winner` and
  :func:`~rook_core._reference.tricks.card_points`, with two shortcuts that
  cannot change an answer: the value at a trick boundary is remembered by
  (remaining hands, leader), which is all it depends on; and a team stops
  trying cards once one gives it every point still to come (team 0) or none
  of them (team 1), since no card can do better.  There is no alpha-beta, no
  move ordering, no equivalent-card merging and no bound table.

>>> pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
...        "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
>>> dd_value(pos), plain_value(pos), dd_total(pos)
(15, 15, 40)
>>> from rook_core.cards import card_name
>>> {card_name(c): v for c, v in dd_move_values(pos).items()}
{'B5': 15, 'R14': 15}
>>> dd_at_least(pos, 15), dd_at_least(pos, 16), dd_at_least(pos, 25, team=1)
(True, False, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from rook_core.errors import PositionError
from rook_core.position import Position, PositionData, parse_position

from .tricks import RefPlay, card_points, legal_cards, play_card, ref_play_from_position, trick_winner

__all__ = ["dd_at_least", "dd_best", "dd_move_values", "dd_total", "dd_value", "plain_value",
           "ref_state"]

if TYPE_CHECKING:
    from rook_core.hand import HandState

RefInput: TypeAlias = "PositionData | RefPlay | HandState"
"""What the oracle reads: a trick-play position in any form ``parse_position``
takes, a :class:`RefPlay`, or a ``HandState`` in the play phase."""

Hands = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]
Won = tuple[int, int]


# ------------------------------------------------------------------ input

def ref_state(position: RefInput) -> RefPlay:
    """Return the :class:`RefPlay` of ``position`` with no points taken yet
    (the tricks taken before it are kept: the most-tricks bonus needs them).

    ``position`` is a FORMATS.md trick-play position (dict, JSON text or
    :class:`~rook_core.position.Position`, read by ``parse_position``), a
    :class:`RefPlay`, or a ``HandState`` in the play phase (read through its
    public fields: hands, trump, leader, trick, nest points).  ``taken`` is
    dropped: the value does not count it (FORMATS.md ``rook solve``).

    :raises PositionError: for an inconsistent position, a ``HandState`` not
        in the play phase, or a most-tricks bonus that can be tied.
    """
    if isinstance(position, RefPlay):
        state = position.copy()
    elif isinstance(position, (Position, dict, str, bytes)):
        parse_position(position).known_tricks_won()  # raises when the bonus needs them
        state = ref_play_from_position(position)
    elif hasattr(position, "hand_mask") and hasattr(position, "phase"):
        state = _from_hand_state(position)
    else:
        raise PositionError("position must be a JSON object")
    if state.variant.most_tricks_bonus and state.variant.hand_size % 2 == 0:
        raise PositionError(
            f"variant {state.variant.name!r}: with an even number of tricks the most-tricks "
            f"bonus can go to nobody, so the play is not zero-sum")
    state.points = [0, 0]
    return state


def _from_hand_state(hand: HandState) -> RefPlay:
    """Return the play-out of a ``HandState`` in the play phase (T-8).  The
    nest is part of the play when it goes to the last trick (T-13); with
    ``nest_to = "declarer"`` (section 4) the declarer's team holds it
    already, outside the play."""
    if hand.phase.label != "play":
        raise PositionError(f"a double-dummy value needs a hand in the play phase, "
                            f"not {hand.phase.label}")
    hands = [{c for c in range(64) if hand.hand_mask(s) >> c & 1} for s in range(4)]
    assert hand.trump is not None and hand.leader is not None, "the play phase has a trump and a leader"
    return RefPlay(hand.variant, hand.trump, hand.leader, [int(c) for c in hand.trick],
                   hands, [0, 0], hand.nest_points if hand.variant.nest_to == "last_trick" else 0,
                   tricks_won=list(hand.tricks_won))


def _points_to_come(state: RefPlay) -> int:
    """Return every point still to be taken from ``state``: the counters in the
    hands and in the current trick (T-12), the nest points and the last-trick
    bonus (T-13, T-14), the most-tricks bonus (section 4)."""
    cards = [c for hand in state.hands for c in hand] + list(state.trick)
    return (card_points(state.variant, cards) + state.nest_points + state.variant.last_trick_bonus
            + state.variant.most_tricks_bonus)


def dd_total(position: RefInput) -> int:
    """Return every point still to be taken from ``position`` (counters in the
    hands and the trick, nest points, last-trick bonus: T-12 .. T-14).  Team 0
    takes :func:`dd_value` of them and team 1 the rest.

    :raises PositionError: see :func:`ref_state`.
    """
    return _points_to_come(ref_state(position))


# ------------------------------------------------------- the textbook search

def plain_value(position: RefInput) -> int:
    """Return the double-dummy value by the plain definition: play every legal
    card with :func:`~rook_core._reference.tricks.play_card` (T-8 .. T-14) down
    to the end of the hand; team 0 takes the largest result, team 1 the
    smallest.  No memo, no cut-off: only for endings of a few tricks.

    :raises PositionError: see :func:`ref_state`.
    """
    def walk(state: RefPlay) -> int:
        if state.is_over:
            return state.points[0]
        results = [walk(play_card(state, card)) for card in sorted(state.legal())]
        return max(results) if state.to_move % 2 == 0 else min(results)

    return walk(ref_state(position))  # points start at [0, 0]: taken is not counted


# ---------------------------------------------------------- the used search

class _Search:
    """Exhaustive minimax of one position's variant, trump and nest points.

    A state is ``(hands, leader, trick, won)``: ``hands`` four frozensets of
    card ids, ``trick`` a tuple of the cards of the current trick (led card
    first, card i from seat leader + i), ``won`` the tricks each team took
    before it.  :meth:`future` returns the points team 0 takes from a state
    to the end of the hand, the cards in ``trick`` included.
    """

    def __init__(self, state: RefPlay) -> None:
        self.variant = state.variant
        self.trump = state.trump
        self.end_points = state.nest_points + state.variant.last_trick_bonus  # T-13
        self.most_tricks_bonus = state.variant.most_tricks_bonus             # section 4
        self.memo: dict[tuple[Hands, int, Won], int] = {}      # trick boundaries only
        self.legal_memo: dict[tuple[frozenset[int], int | None], list[int]] = {}
        self.winner_memo: dict[tuple[int, ...], int] = {}

    def legal(self, hand: frozenset[int], trick: tuple[int, ...]) -> list[int]:
        """Return the legal cards of ``hand`` (T-9, T-10), in card-id order;
        ``legal_cards`` looks only at the led card, so that is the memo key."""
        led = trick[0] if trick else None
        key = (hand, led)
        cards = self.legal_memo.get(key)
        if cards is None:
            cards = self.legal_memo[key] = sorted(legal_cards(self.variant, hand, trick[:1],
                                                              self.trump))
        return cards

    def winner(self, trick: tuple[int, ...]) -> int:
        """Return the index in a full ``trick`` of the card that wins it (T-11)."""
        index = self.winner_memo.get(trick)
        if index is None:
            index = self.winner_memo[trick] = trick_winner(self.variant, trick, self.trump)
        return index

    def future(self, hands: Hands, leader: int, trick: tuple[int, ...], won: Won) -> int:
        """Return the points team 0 takes from this state to the end of the
        hand when team 0 maximises and team 1 minimises."""
        if not trick and not any(hands):
            return 0
        if not trick and (hands, leader, won) in self.memo:
            return self.memo[hands, leader, won]
        seat = (leader + len(trick)) % 4
        team0_moves = seat % 2 == 0
        everything = (card_points(self.variant, [c for h in hands for c in h] + list(trick))
                      + self.end_points + self.most_tricks_bonus)
        best: int | None = None
        for card in self.legal(hands[seat], trick):
            result = self.after(hands, leader, trick, won, card)
            if best is None or (result > best if team0_moves else result < best):
                best = result
            if best == (everything if team0_moves else 0):
                break  # no card can beat taking all (team 0) or none (team 1) of the rest
        assert best is not None, "the seat to move holds a legal card (T-9)"
        if not trick:
            self.memo[hands, leader, won] = best
        return best

    def after(self, hands: Hands, leader: int, trick: tuple[int, ...], won: Won, card: int) -> int:
        """Return the points team 0 takes from this state to the end of the
        hand when the seat to move plays ``card`` and play goes on double
        dummy.  A fourth card completes the trick: its winner's team takes
        its counters (T-11, T-12), and after the last trick also the nest
        points and the last-trick bonus (T-13, T-14), and the team with more
        tricks the most-tricks bonus (section 4); the winner leads next
        (T-8)."""
        seat = (leader + len(trick)) % 4
        new_hands: Hands = tuple(h - {card} if s == seat else h  # type: ignore[assignment]
                                 for s, h in enumerate(hands))
        new_trick = trick + (card,)
        if len(new_trick) < 4:
            return self.future(new_hands, leader, new_trick, won)
        winner = (leader + self.winner(new_trick)) % 4
        points = card_points(self.variant, new_trick)
        new_won: Won = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
        bonus = 0
        if not any(new_hands):
            points += self.end_points
            bonus = self.most_tricks_bonus if new_won[0] > new_won[1] else 0
        return ((points if winner % 2 == 0 else 0) + bonus
                + self.future(new_hands, winner, (), new_won))


def _start(state: RefPlay) -> tuple[_Search, Hands, int, tuple[int, ...], Won]:
    hands: Hands = tuple(frozenset(h) for h in state.hands)  # type: ignore[assignment]
    won: Won = (state.tricks_won[0], state.tricks_won[1])
    return _Search(state), hands, state.leader, tuple(state.trick), won


def dd_move_values(position: RefInput) -> dict[int, int]:
    """Return ``{card: value}`` for every legal card of the seat to move
    (T-9, T-10), in card-id order: the double-dummy value of the position
    after that card (FORMATS.md ``move_values``).

    :raises PositionError: see :func:`ref_state`.
    """
    search, hands, leader, trick, won = _start(ref_state(position))
    seat = (leader + len(trick)) % 4
    return {card: search.after(hands, leader, trick, won, card)
            for card in search.legal(hands[seat], trick)}


def dd_value(position: RefInput) -> int:
    """Return the double-dummy value of ``position`` (FORMATS.md ``value``).

    :raises PositionError: see :func:`ref_state`.
    """
    search, hands, leader, trick, won = _start(ref_state(position))
    return search.future(hands, leader, trick, won)


def dd_best(position: RefInput) -> tuple[int, dict[int, int], list[int]]:
    """Return ``(value, move_values, best)`` as FORMATS.md ``rook solve``
    defines them: the value is the best of the move values for the team of
    the seat to move (largest for team 0, smallest for team 1), and ``best``
    lists, in card-id order, exactly the legal cards that achieve it.

    :raises PositionError: see :func:`ref_state`.
    """
    state = ref_state(position)
    values = dd_move_values(state)
    value = max(values.values()) if state.to_move % 2 == 0 else min(values.values())
    return value, values, [c for c in values if values[c] == value]


def dd_at_least(position: RefInput, target: int, team: int = 0) -> bool:
    """Return whether ``team`` can take at least ``target`` points from
    ``position`` under double-dummy play (team 0 = seats 0 and 2).

    Team 0 takes :func:`dd_value` points and team 1 the rest of
    :func:`dd_total` (T-14: every point goes to one team or the other).

    :raises PositionError: see :func:`ref_state`.
    :raises ValueError: for a team other than 0 or 1.
    """
    if team not in (0, 1):
        raise ValueError(f"team must be 0 or 1, not {team!r}")
    state = ref_state(position)
    value = dd_value(state)
    taken = value if team == 0 else _points_to_come(state) - value
    return taken >= target
