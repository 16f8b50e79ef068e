"""Double-dummy solving (the search: ``src/rook/solve/``, behind :class:`rook_core._native.SolverCore`).

:class:`Solver` solves one position at a time and owns its table; its
answers are :class:`SolveResult` and :class:`BestCards`, and a budget that
runs out raises :class:`BudgetExceeded` with the bounds proven;
:func:`solve_many` spreads many positions over threads, one solver per
thread (the native search releases the GIL, so the threads use every core).
The answers do not depend on the number of workers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ._html import html_table
from ._native import SolverCore, interrupt_count, work_begun_at
from .cards import Card
from .errors import PositionError, RookError, check_progress, int_arg, list_arg

if TYPE_CHECKING:
    from .hand import HandState
    from .position import PositionData

__all__ = ["BestCards", "BudgetExceeded", "SearchStopped", "SolveResult", "Solver", "map_on_threads", "solve_many",
           "release_solvers"]

_T = TypeVar("_T")
_R = TypeVar("_R")

class BudgetExceeded(RookError):
    """A budget ran out before the answer was proven: ``kind`` says which
    (``"nodes"`` or ``"time"``; ``"stopped"``: :class:`SearchStopped`), ``lo``/``hi`` bound team 0's value of the
    position as far as it was proven, ``nodes`` were searched."""

    def __init__(self, message: str, lo: int, hi: int, nodes: int, kind: str = "nodes",
                 move_values: dict[Card, int] | None = None) -> None:
        super().__init__(message)
        self.lo = lo
        self.hi = hi
        self.nodes = nodes
        self.kind = kind
        self.move_values = move_values or {}   # solve(): the cards' values proven before the stop

    def details(self) -> dict[str, object]:
        return {"budget": self.kind, "lo": self.lo, "hi": self.hi, "nodes": self.nodes}


class SearchStopped(BudgetExceeded):
    """The caller stopped the search (:meth:`Solver.stop`): as a budget stop,
    with the bounds proven (``kind`` ``"stopped"``)."""


@dataclass(frozen=True)
class BestCards:
    """The answer of :meth:`Solver.best_cards`: the value and the legal cards
    that achieve it (found without every card's exact value)."""

    value: int
    best: list[Card] = field(default_factory=list)    # cards that achieve value
    to_move: int = 0
    nodes: int = 0

    def to_json(self, ident: Any = None) -> dict[str, Any]:
        return {"id": ident, "value": self.value, "best": [str(c) for c in self.best]}


@dataclass(frozen=True)
class SolveResult:
    """The answer of :meth:`Solver.solve` (the ``rook solve`` answer of docs/formats)."""

    value: int
    move_values: dict[Card, int] = field(default_factory=dict)  # the value after each card
    best: list[Card] = field(default_factory=list)    # cards that achieve value
    to_move: int = 0
    nodes: int = 0

    def to_json(self, ident: Any = None) -> dict[str, Any]:
        return {"id": ident, "value": self.value,
                "move_values": {str(c): v for c, v in self.move_values.items()},
                "best": [str(c) for c in self.best], "to_move": self.to_move, "nodes": self.nodes}

    def _head(self) -> str:
        return (f"team 0 takes {self.value} points from here with best play; seat {self.to_move} "
                f"(team {self.to_move % 2}) to move")

    def _order(self) -> list[tuple[Card, int]]:
        """The cards of the seat to move with their values, best for its team first."""
        team = self.to_move % 2
        return sorted(self.move_values.items(), key=lambda cv: (-cv[1] if team == 0 else cv[1], int(cv[0])))

    def __str__(self) -> str:
        """For people: the value, then each card of the seat to move with its value, best first."""
        cards = "  ".join(f"{c} {v}{'*' if c in self.best else ''}" for c, v in self._order())
        return f"{self._head()}, its cards (team 0's points after each, * best): {cards or '-'}"

    def _repr_html_(self) -> str:
        """The same for Jupyter: the value over a table of the cards, best first."""
        rows = [(str(c), str(v), "*" if c in self.best else "") for c, v in self._order()] or [("-", "", "")]
        return html_table(rows, "rook-solve", title=self._head(), header=("card", "team 0's points after it", "best"))


class Solver(SolverCore):
    """A double-dummy solver context with its own table.

    :param tt_bytes: size of the transposition table (default 24 MiB).
        Under 128 MiB, for a deal of at most 40 cards (``tournament``), an
        entry also stands for the positions whose low cards carry other
        points (about 1.1x fewer nodes) and takes twice the memory.  A table
        of 128 MiB or more, or a bigger deal, holds twice the entries
        instead, which pays on long searches that fill a table (a 14-trick
        deal, :func:`~rook_core.nest.nest_decision`); on full ``tournament``
        deals, every card scored, 128 MiB takes about 7% more nodes than
        the default.  A big table costs the first touch of its memory pages
        in every new solver, and threads touching fresh pages at once slow
        each other down: reuse a solver, one per thread (threads that share
        one take turns: its calls search one at a time).  On Linux a table of 4 MiB or
        more asks for 2 MiB pages (where the system allows them): a long
        search then runs 2-9% faster, while a short one on a fresh table
        pays for zeroing whole 2 MiB pages (a 20-card ending on a fresh
        512 MiB table: about 12 ms instead of 0.7 ms);
        ``ROOK_NO_HUGE_PAGES=1`` in the environment keeps 4 KiB pages.
    :param node_budget: stop a search after this many nodes (0: no limit);
        the call then raises :class:`BudgetExceeded` with proven bounds (a
        budget does not change the search, so a call that ends within it
        costs what it costs without one, except :meth:`solve`, which under a
        budget finds the position's value before the cards' so that a stop
        still bounds it; the bounds of a value stopped
        early are those of the moves searched so far, on one side only,
        unless the call asks for ``anytime`` bounds).
    :param time_budget: stop a call after this many seconds (0: no limit),
        the same way.  A node budget gives the same answer on every
        machine; a time budget does not (checked every 1,024 nodes).
    :param generalize: let one table entry stand for every position that
        differs only in cards whose rank the search did not rely on, and
        skip a card whose sibling's search showed it gives the same bound
        (the default); ``False`` keys entries by the exact position and
        searches every class of equivalent cards, a slower mode kept as the
        baseline the tests compare against.

    Positions are a :class:`~rook_core.hand.HandState` in the play phase,
    a :class:`~rook_core.position.Position`, or its dict or JSON text.
    A copy (``copy``, ``deepcopy``, ``pickle``) is a new solver of the same
    options (``tt_bytes``, ``node_budget``, ``time_budget``, ``generalize``)
    with an empty table.

    Ctrl-C (SIGINT, while Python handles it) stops a search under way at
    its next look at the budgets, on every thread, and the call raises
    what Python's handler raises (KeyboardInterrupt); the solver stays
    usable.

    >>> pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
    ...        "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    >>> Solver().solve(pos).value
    15
    """

    if TYPE_CHECKING:   # the positions it reads and the answers the hooks below build, for type checkers
        def best_cards(self, position: HandState | PositionData, *, guess: int | None = None) -> BestCards: ...
        def solve_batch(self, positions: Iterable[HandState | PositionData], *, keep_table: bool = False,
                        guesses: bool = False) -> list[SolveResult | RookError]: ...
        def solve(self, position: HandState | PositionData, *, guess: int | None = None, anytime: bool = False,
                  progress: Callable[[int, int, int], object] | None = None,
                  workers: int = 1) -> SolveResult: ...
        def card_bounds(self, position: HandState | PositionData,
                        tolerance: int) -> dict[Card, tuple[int, int]]: ...

    def _raw_position(self, position: HandState | PositionData) -> tuple[Any, ...]:
        from .hand import HandState
        from .position import parse_position
        if isinstance(position, HandState):
            h = position
            if h.phase.label != "play":
                raise PositionError(f"the solver needs a hand in the play phase, not {h.phase.label}")
            variant = h.variant
            # T-13: the nest goes with the last trick; nest_to = "declarer"
            # (section 4) has already given it away: not part of the play.
            nest = h.nest_points if variant.nest_to == "last_trick" else 0
            return (variant, [h.hand_mask(i) for i in range(4)], h.trick_ids, h.leader, h.trump, nest,
                    h.tricks_won)
        pos = parse_position(position)
        return (pos.variant, list(pos.hands), list(pos.trick), pos.leader, pos.trump, pos.nest_points,
                pos.known_tricks_won())

    def _card(self, card: int) -> Card:
        return Card(card)

    def _result(self, value: int, move_values: dict[Card, int], best: list[Card], to_move: int,
                nodes: int) -> SolveResult:
        return SolveResult(value, move_values, best, to_move, nodes)

    def _best_cards(self, value: int, best: list[Card], to_move: int, nodes: int) -> BestCards:
        return BestCards(value, best, to_move, nodes)

    def _budget_exceeded(self, message: str, lo: int, hi: int, nodes: int, kind: str,
                         move_values: dict[Card, int]) -> BudgetExceeded:
        if kind == "stopped":
            return SearchStopped(message, lo, hi, nodes, kind, move_values)
        return BudgetExceeded(message, lo, hi, nodes, kind, move_values)


# Solvers kept between solve_many calls, by (tt_bytes, node_budget,
# time_budget): a fresh table costs its page faults on every call (about
# 15 ms for 24 MiB on a VM, and two threads faulting at once slow each
# other down).  Each solver is used by one thread at a time.
_POOL: dict[tuple[int, int, float], list[Solver]] = {}
_POOL_MOST: dict[tuple[int, int, float], int] = {}   # the most workers asked, by key
_POOL_LOCK = threading.Lock()
_POOL_KEYS = 2           # table sizes kept; the oldest is dropped first


def _take_solver(key: tuple[int, int, float]) -> Solver:
    with _POOL_LOCK:
        kept = _POOL.get(key)
        if kept:
            return kept.pop()
    return Solver(key[0], key[1], time_budget=key[2])


def _give_back(key: tuple[int, int, float], solver: Solver, most: int) -> None:
    """Keep ``solver`` for later calls: as many of its kind as the most
    workers a call has asked for (``most`` this time), so that a call with
    fewer workers than the last does not drop tables the next call would
    fault in again."""
    with _POOL_LOCK:
        if key not in _POOL and len(_POOL) >= _POOL_KEYS:
            old = next(iter(_POOL))
            del _POOL[old]
            _POOL_MOST.pop(old, None)
        kept = _POOL.setdefault(key, [])
        _POOL_MOST[key] = limit = max(most, _POOL_MOST.get(key, 0))
        if len(kept) < limit:
            kept.append(solver)


def release_solvers() -> None:
    """Free the tables :func:`solve_many` keeps between calls."""
    with _POOL_LOCK:
        _POOL.clear()
        _POOL_MOST.clear()


def solve_many(positions: Iterable[HandState | PositionData], *, workers: int | None = None, what: str = "solve",
               tt_bytes: int = 24 << 20, node_budget: int = 0, time_budget: float = 0.0,
               progress: Callable[[int, int], None] | None = None,
               windows: Iterable[tuple[int, int] | None] | None = None,
               tolerance: int = 0) -> list[SolveResult | int | dict[Card, tuple[int, int]] | RookError]:
    """Solve every position on ``workers`` threads (default: every core).

    ``what`` is ``"solve"`` (a :class:`SolveResult` each), ``"value"`` (an
    int each) or ``"bounds"`` (:meth:`Solver.card_bounds` each, every legal
    card's value to within ``tolerance`` points).  Each position starts from an empty table, so every answer
    (node counts and budget stops included) is the same whatever the
    workers, the order or earlier calls; the tables themselves are kept
    for the next call (:func:`release_solvers` frees them).  A position that cannot be solved (bad input, budget) gives
    its :class:`~rook_core.errors.RookError` in its place instead of
    stopping the batch.  ``node_budget`` and ``time_budget`` bound each
    position's search (see :class:`Solver`).  ``progress(done, total)`` is
    called as positions finish.  With ``what="value"``, ``windows`` gives
    each position a window ``(lo, hi)`` (or None): its value clipped to it,
    which costs less than the exact value (:meth:`Solver.value`).  Ctrl-C
    stops the searches under way and raises KeyboardInterrupt; the
    positions not yet begun are dropped.

    :raises RookError: for ``positions`` or ``windows`` that are not
        iterables, a bad ``what``, ``workers``, ``tolerance`` or ``progress``.
    """
    items: Sequence[HandState | PositionData] = list_arg(positions, "positions")
    window_list = None if windows is None else list_arg(windows, "windows")
    if window_list is not None and (what != "value" or len(window_list) != len(items)):
        raise RookError("windows go with what='value', one window (or None) per position")
    if what not in ("solve", "value", "bounds"):
        raise RookError(f"what must be 'solve', 'value' or 'bounds', not {what!r}")
    if int_arg(tolerance, "tolerance must be an int >= 0 (points)") < 0:
        raise RookError(f"tolerance must be an int >= 0 (points), not {tolerance!r}")
    n_workers = int_arg(workers, "workers must be a positive int", 1) if workers is not None else (os.cpu_count() or 1)
    check_progress(progress)
    key = (tt_bytes, node_budget, time_budget)
    _give_back(key, _take_solver(key), n_workers)   # a bad budget fails here, once
    done = [0]
    lock = threading.Lock()

    def one(i: int) -> SolveResult | int | dict[Card, tuple[int, int]] | RookError:
        pos = items[i]
        solver = _take_solver(key)
        solver.clear()
        try:
            out: SolveResult | int | dict[Card, tuple[int, int]] | RookError = (
                solver.solve(pos) if what == "solve"
                else solver.card_bounds(pos, tolerance) if what == "bounds"
                else solver.value(pos, window=None if window_list is None else window_list[i]))
        except RookError as e:
            out = e
        finally:
            _give_back(key, solver, n_workers)
        if progress is not None:
            with lock:
                done[0] += 1
                progress(done[0], len(items))
        return out

    return map_on_threads(one, range(len(items)), n_workers if len(items) > 1 else 1)


def map_on_threads(fn: Callable[[_T], _R], items: Iterable[_T], workers: int) -> list[_R]:
    """Return ``[fn(x) for x in items]``, computed on ``workers`` threads
    (in this one when 1).  Ctrl-C stops every search of the work under way
    on every thread, also one that begins after it (src/rook/solve/interrupt.c),
    and raises KeyboardInterrupt here; an exception of ``fn`` too drops the
    items not yet begun."""
    if workers <= 1:
        return [fn(x) for x in items]
    start = interrupt_count()

    def guarded(x: _T) -> _R:
        if interrupt_count() != start:
            raise KeyboardInterrupt
        work_begun_at(start)
        try:
            return fn(x)
        finally:
            work_begun_at(None)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            return list(pool.map(guarded, items))
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
