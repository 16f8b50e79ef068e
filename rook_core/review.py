"""A double-dummy review of a played hand: what each card cost against the best.

For every card of the play (T-8 .. T-11) the review solves the position
before it, with every hand open, and gives the points team 0 ends the hand
with under best play from there (``before``), the same after the card
(``after``), and so the card's ``cost``: the points the mover's team gave
away with it (0 for a best card; never negative, since double-dummy play
cannot be beaten).  A card that cost points also names the best cards of
its position.  The totals by seat are the mistakes a player asks about.

"Points team 0 ends the hand with" is the points already taken plus the
position's double-dummy value (FORMATS.md ``value``: the rest of the play,
the nest with the last trick and the bonuses), plus the nest when it goes to
the declarer (T-13, section 4).  So ``before`` of the first card is what the
deal was worth to each team after the bidding and the nest, and the last
card's ``after`` is what the teams really took.

With ``nest=True`` the review also asks the nest decision
(:func:`rook_core.nest.nest_decision`) what the declarer's hand was worth
for each trump with its best discard, beside what was chosen
(``nest_budget`` and ``nest_time_limit`` are its ``node_budget`` and
``time_limit``).

Each search is bounded by ``node_budget`` and ``time_budget`` (0: none); a search cut short
gives the bounds it proved (``exact`` false), and the costs it touches are
then lower bounds.  One solver serves the whole hand: the positions of one
hand share most of their subtrees, and each search starts from the
previous position's value as its guess.

>>> from rook_core import HandState
>>> from rook_core.bots.agents import make_agent
>>> h = HandState.deal("tournament", seed=3)
>>> bots = [make_agent("heuristic", h.variant, s) for s in range(4)]
>>> while h.to_move is not None:
...     h.apply(bots[h.to_move].act(h.observe(h.to_move)))
>>> r = review_hand(h)
>>> len(r.cards), r.cards[-1].after == h.points[0], all(c.cost >= 0 for c in r.cards)
(36, True, True)
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._layout import COLOR_NAMES
from .actions import Phase
from .cards import CardSet, card_name, color_name
from .errors import RookError, check_progress
from .jsonio import check_id
from .solver import BudgetExceeded, SearchStopped, Solver

if TYPE_CHECKING:
    from .game import Game
    from .hand import HandState
    from .nest import NestDecision

__all__ = ["CardReview", "HandReview", "ReviewStopped", "played_hands", "review_game", "review_hand",
           "review_table_bytes"]


class ReviewStopped(RookError):
    """A review of several hands that its caller stopped under way
    (:meth:`Solver.stop`): ``hands`` holds the reviews (``to_json``) of the
    hands it finished before the stop."""

    def __init__(self, message: str, hands: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.hands = hands

    def details(self) -> dict[str, object]:
        return {"budget": "stopped", "hands": self.hands}


@dataclass(frozen=True)
class CardReview:
    """One card of the play, reviewed (see the module docstring).

    ``before`` and ``after`` are team 0's final points under best play from
    the position before and after the card (bounds ``(lo, hi)`` when a budget
    cut the search short: then ``exact`` is false); ``cost`` is what the
    mover's team gave away (a lower bound when not exact); ``best`` the best
    cards of the position when ``cost`` > 0.
    """

    trick: int          # 1-based trick number
    seat: int
    card: int
    before: tuple[int, int]
    after: tuple[int, int]
    cost: int
    best: tuple[int, ...] = ()
    exact: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"trick": self.trick, "seat": self.seat, "card": card_name(self.card),
                               "before": _one(self.before), "after": _one(self.after), "cost": self.cost}
        if self.best:
            out["best"] = [card_name(c) for c in self.best]
        if not self.exact:
            out["exact"] = False
        return out


def _one(bounds: tuple[int, int]) -> int | list[int]:
    return bounds[0] if bounds[0] == bounds[1] else list(bounds)


@dataclass(frozen=True)
class HandReview:
    """The review of one played hand: its contract, each card's cost, the
    mistakes by seat and (when asked) the nest review."""

    variant: str
    declarer: int
    bid: int
    trump: int
    points: tuple[int, int]         # what the teams took (T-14)
    total: int                      # the points of a hand (T-14)
    cards: list[CardReview] = field(default_factory=list)
    nest: NestDecision | None = None
    discard: int = 0                # the declarer's discards (T-20)
    nodes: int = 0
    nest_skipped: str = ""          # why a nest review that was asked for is not there

    @property
    def worth(self) -> tuple[int, int] | None:
        """Team 0's final points under best play from the first lead (bounds), None without a play."""
        return self.cards[0].before if self.cards else None

    def mistakes(self) -> dict[int, tuple[int, int]]:
        """Return, for each seat, (cards that cost points, points they cost)."""
        out = {s: (0, 0) for s in range(4)}
        for c in self.cards:
            if c.cost > 0:
                n, p = out[c.seat]
                out[c.seat] = (n + 1, p + c.cost)
        return out

    def mistakes_exact(self) -> dict[int, bool]:
        """Return, for each seat, whether :meth:`mistakes` is exact for it: false
        when a budget cut the search of one of its cards short, whose cost is
        then a lower bound (so are the seat's count and points)."""
        return {s: all(c.exact for c in self.cards if c.seat == s) for s in range(4)}

    def _mistakes_json(self) -> dict[str, dict[str, Any]]:
        exact = self.mistakes_exact()
        return {str(s): {"cards": n, "cost": p, **({} if exact[s] else {"exact": False})}
                for s, (n, p) in self.mistakes().items()}

    def to_json(self) -> dict[str, Any]:
        """Return the review as JSON-ready data (docs/FORMATS.md, ``rook analyse``)."""
        worth = self.worth
        out: dict[str, Any] = {
            "variant": self.variant, "declarer": self.declarer, "bid": self.bid,
            "trump": color_name(self.trump), "points": list(self.points), "total": self.total,
            "worth": None if worth is None else _one(worth),
            "cards": [c.to_json() for c in self.cards],
            "mistakes": self._mistakes_json(),
            "nodes": self.nodes,
        }
        if self.nest_skipped:
            out["nest_skipped"] = self.nest_skipped
        if self.nest is not None:
            out["nest"] = self.nest.to_json()
            out["nest"]["chosen"] = {"trump": color_name(self.trump),
                                     "discard": CardSet(self.discard).names()}
        return out

    def text(self) -> str:
        """Return the review as lines for people."""
        d = self.declarer
        worth = self.worth
        lines = [f"{self.variant}: seat {d} (team {d % 2}) declared {self.bid}, trump "
                 f"{COLOR_NAMES[self.trump]}; the teams took {self.points[0]} and {self.points[1]}"]
        if worth is not None:
            team = d % 2
            lo, hi = worth if team == 0 else (self.total - worth[1], self.total - worth[0])
            w = str(lo) if lo == hi else f"{lo}..{hi}"
            verdict = ("the bid was makeable" if lo >= self.bid else "the bid could not be made"
                       if hi < self.bid else "the bid may have been makeable")
            took = self.points[team]
            lines.append(f"  with every hand open, best play from the first lead gives team {team} {w} "
                         f"({verdict}); it took {took}: {'made' if took >= self.bid else 'set'}")
        for c in self.cards:
            if c.cost > 0:
                best = " ".join(card_name(b) for b in c.best)
                more = "" if c.exact else " or more"
                lines.append(f"  trick {c.trick}: seat {c.seat} played {card_name(c.card)}, "
                             f"{c.cost}{more} points given away (best: {best})")
        exact = self.mistakes_exact()
        for s, (n, p) in self.mistakes().items():
            least = "" if exact[s] else "at least "
            lines.append(f"  seat {s} (team {s % 2}): {least}{n} costly card(s), {least}{p} points")
        if self.nest_skipped:
            lines.append(f"  no nest review: {self.nest_skipped}")
        if self.nest is not None:
            lines.append(f"  the nest: seat {d} buried {CardSet(self.discard)} under "
                         f"{COLOR_NAMES[self.trump]}; double dummy, each trump with its best discard:")
            for t in self.nest.choices:
                mark = " <- chosen trump" if t.trump == self.trump else ""
                bound = "" if t.proven else " (at least)"
                lines.append(f"    {COLOR_NAMES[t.trump]}: {t.points}{bound} points, burying {t.discard}{mark}")
        return "\n".join(lines)


def _has_play(h: HandState) -> bool:
    """Whether the play of ``h`` began (a declarer, trump named, T-8): what a review reads."""
    return h.declarer is not None and h.trump is not None and h.phase in (Phase.PLAY, Phase.DONE)


_NO_CONTRACT = ("this one starts from a position (FORMATS.md), which has no declarer or bid to "
                "review against")

BIG_TABLE = 256 << 20        # the table of hands of 13 cards or more (see review_hand)


def review_table_bytes(h: HandState) -> int:
    """The solver table a review of ``h`` takes by default: 24 MiB, and
    :data:`BIG_TABLE` for hands of 13 cards or more (see :func:`review_hand`)."""
    return BIG_TABLE if h.variant.hand_size >= 13 else 24 << 20


def review_hand(h: HandState, *, node_budget: int = 0, time_budget: float = 0.0, workers: int = 1,
                nest: bool = False, nest_budget: int = 0, nest_time_limit: float = 0.0,
                tt_bytes: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                solver: Solver | None = None) -> HandReview:
    """Return the double-dummy review of the played hand ``h`` (any state
    whose play has begun: the cards played so far are reviewed).

    ``workers`` threads search each position's value (the first positions
    cost the most: two threads take about 0.55 of the time of one on a
    ``partnership-57`` hand); ``tt_bytes`` is the solver's table, by
    default 24 MiB, and 256 MiB for hands of 13 cards or more, whose first
    searches then need fewer nodes (``partnership-57``, deal 0: 60M nodes
    and 8.5 s against 107M and 13.8 s; 512 MiB was slower again);
    ``progress(done, total)`` is called after each card.  Most
    ``partnership-57`` hands take seconds on one core (twelve hands of
    heuristic bots: median 1.5 s, p90 5.3 s), but the hardest take minutes:
    one of those twelve took 126 s, most of it the first card's value and
    its best cards.  ``node_budget`` (nodes) and ``time_budget`` (seconds,
    0: none) bound each search: a review of such a hand under a time budget
    ends in about the budget times the positions that need it, with bounds
    where a search ran out (a time budget makes the answers depend on the
    machine's speed; a node budget does not).

    ``solver``: the solver to search with, one the caller keeps so as to
    stop the review from another thread (:meth:`Solver.stop`); its own
    table and budgets hold, so ``tt_bytes``, ``node_budget`` and
    ``time_budget`` are then not given (None: a new solver of those).
    A stopped search ends the review: it raises
    :class:`~rook_core.solver.SearchStopped`, where a budget that runs out
    only leaves bounds.

    :raises RookError: for a hand whose play has not begun (thrown in, or
        still in the bidding or the nest), one built from a position (it has
        no declarer), a ``nest`` that is no bool, or a ``solver`` given with
        budgets or a table size.
    :raises SearchStopped: the caller stopped ``solver``.
    """
    from .hand import HandState
    if not isinstance(h, HandState):
        hint = " (review_game reviews a game's hands)" if type(h).__name__ == "Game" else ""
        raise RookError(f"review_hand reads a HandState, not {type(h).__name__}{hint}")
    if solver is not None and not isinstance(solver, Solver):
        raise RookError(f"solver must be a rook_core.solver.Solver or None, not {solver!r}")
    check_progress(progress)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RookError(f"workers must be a positive int, not {workers!r}")
    if not isinstance(nest, bool):
        raise RookError(f"nest must be True or False, not {nest!r}")
    if nest:
        from .nest import check_time_limit
        check_time_limit(nest_time_limit, "nest_time_limit")     # before the play's review, not after it
        if isinstance(nest_budget, bool) or not isinstance(nest_budget, int) or not 0 <= nest_budget < 2**63:
            raise RookError(f"nest_budget must be an int 0 .. 2**63-1 (0: no limit), not {nest_budget!r}")
    if not _has_play(h):
        if h.start_info is not None:
            raise RookError(f"a review needs a dealt hand with its bidding: {_NO_CONTRACT}")
        if h.is_over:
            raise RookError("a review needs a hand whose play has begun; this one was thrown in "
                            "before any card was played (T-6)")
        raise RookError(f"a review needs a hand whose play has begun, not one in the "
                        f"{h.phase.label} phase")
    if solver is not None and (tt_bytes is not None or node_budget or time_budget):
        raise RookError("review_hand takes a solver or its table and budgets (tt_bytes, node_budget, "
                        "time_budget), not both: the solver's own hold")
    declarer, trump = h.declarer, h.trump
    assert declarer is not None and trump is not None          # _has_play
    v = h.variant
    state = h.at_start()
    history = list(h.history)
    if solver is None:
        solver = Solver(review_table_bytes(h) if tt_bytes is None else tt_bytes,
                        node_budget=node_budget, time_budget=time_budget)
    declarer_team = declarer % 2
    plays = sum(1 for ph, _, a in h.events() if ph == Phase.PLAY and a < 64)
    cards: list[CardReview] = []
    at_nest: HandState | None = None
    nodes = 0
    guess: int | None = None
    before: tuple[int, int] | None = None
    for a in history:
        if state.phase == Phase.NEST and at_nest is None:
            at_nest = state.clone()
        if state.phase == Phase.TRUMP and "discard" in v.post_bid_order and at_nest is None:
            at_nest = state.clone()          # H-3: the decision starts at trump
        if state.phase != Phase.PLAY or a >= 64:
            state.apply(a)
            continue
        if before is None:
            before, guess, n = _final(solver, state, declarer_team, guess, workers)
            nodes += n
        seat = state.seat_to_move()
        trick = sum(state.tricks_won) + 1
        prev = state.clone()
        state.apply(a)
        if state.is_over:               # the last card: what the teams took
            after = (state.points[0], state.points[0])
            n = 0
        else:
            after, guess, n = _final(solver, state, declarer_team, guess, workers)
        nodes += n
        lost = (before[0] - after[1]) if seat % 2 == 0 else (after[0] - before[1])
        exact = before[0] == before[1] and after[0] == after[1]
        best: tuple[int, ...] = ()
        if lost > 0:
            try:
                found = solver.best_cards(prev)
                best = tuple(int(c) for c in found.best)
            except SearchStopped:
                raise
            except BudgetExceeded as e:
                nodes += e.nodes
            nodes += solver.last_nodes
        cards.append(CardReview(trick, seat, a, before, after, max(lost, 0), best, exact))
        before = after
        if progress is not None:
            progress(len(cards), plays)
    decision = None
    skipped = ""
    if nest:
        if v.nest_exchange != "discard" or at_nest is None:
            skipped = "the variant has no nest to bury (T-20, T-21)"
        elif "pass" in v.post_bid_order:
            skipped = "cards are passed after the nest, so the hands of the play are not known then (T-22)"
        else:
            from .nest import nest_decision
            decision = nest_decision(at_nest, node_budget=nest_budget, time_limit=nest_time_limit)
    discard = h.nest_mask if v.nest_size and v.nest_exchange == "discard" else 0
    return HandReview(v.name, declarer, h.high_bid, trump, (h.points[0], h.points[1]), v.total_points,
                      cards, decision, discard, nodes, skipped)


def _final(solver: Solver, state: HandState, declarer_team: int, guess: int | None,
           workers: int) -> tuple[tuple[int, int], int | None, int]:
    """Return team 0's final points under best play from ``state`` as
    (lo, hi), the value to guess next, and the nodes spent."""
    offset = state.points[0]
    if state.variant.nest_to == "declarer" and declarer_team == 0:
        offset += state.nest_points       # section 4: the nest is the declarer's already
    g = None if guess is None else guess - offset
    try:
        value = solver.value(state, guess=g, workers=workers)
        return (offset + value, offset + value), offset + value, solver.last_nodes
    except SearchStopped:
        raise                             # the caller's stop ends the review (review_hand)
    except BudgetExceeded as e:
        return (offset + e.lo, offset + e.hi), None, e.nodes


def played_hands(document: Any) -> list[HandState]:
    """Return the hands of a JSON document (a dict or its text) whose play
    began: a hand (``rook-hand/1``, ``HandState.to_json``), a game
    (``rook-game/1``, ``Game.to_json``, as ``rook play --json`` writes it) or
    the history of a finished game of ``rook serve`` (``GET
    /games/ID/history``: ``game``, ``seed`` and the actions with their seats),
    each with an optional ``id`` (a request's name for it, not read here).

    :raises RookError: for a document of none of these forms, a hand that
        starts from a position (it has no declarer), or an action the rules
        refuse.
    """
    from .game import Game
    from .hand import HandState
    if isinstance(document, (str, bytes)):
        try:
            document = json.loads(document)
        except (ValueError, RecursionError) as e:
            raise RookError(f"a hand, game or history document: not valid JSON: {e}") from None
    if not isinstance(document, dict):
        raise RookError(f"a hand, game or history JSON document is an object, not {type(document).__name__}")
    # a request's "id" names the document for the answer; it is not part of it
    check_id(document.get("id"))
    document = {k: v for k, v in document.items() if k != "id"}
    kind = document.get("format")
    if kind == "rook-hand/1":
        hands = [HandState.from_json(document)]
        if hands[0].start_info is not None:
            raise RookError(f"a review needs a dealt hand with its bidding: {_NO_CONTRACT}")
    elif kind == "rook-game/1":
        hands = Game.from_json(document).hands
    elif "game" in document and "seed" in document and isinstance(document.get("actions"), list):
        name, seed = document["game"], document["seed"]
        if name == "toonerville":
            raise RookError("a review is of trick-taking hands; Toonerville has none")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RookError(f"the history's seed must be an int, not {seed!r} (is the game over?)")
        g = Game(name, seed)
        for item in document["actions"]:
            if not isinstance(item, dict) or not isinstance(item.get("action"), str):
                raise RookError(f"a history action is {{'seat': .., 'action': text}}, not {item!r}")
            g.apply_text(item["action"], item.get("seat"))
        hands = g.hands
    else:
        raise RookError("not a hand (format rook-hand/1), a game (format rook-game/1) or a "
                        "service history (game, seed, actions)")
    return [h for h in hands if _has_play(h)]


def review_game(g: Game, **options: Any) -> list[HandReview]:
    """Return the review of every hand of ``g`` that was played (thrown-in
    hands have no play); ``options`` as :func:`review_hand`.

    :raises RookError: for a ``g`` that is not a :class:`~rook_core.game.Game`
        or an option :func:`review_hand` does not take (even when no hand was
        played), and as :func:`review_hand`."""
    from .game import Game
    if not isinstance(g, Game):
        raise RookError(f"review_game reads a Game, not {type(g).__name__}")
    known = list(inspect.signature(review_hand).parameters)[1:]     # review_hand's keywords
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise RookError(f"review_game has no option {', '.join(unknown)}; it takes {', '.join(known)}")
    return [review_hand(h, **options) for h in g.hands if _has_play(h)]
