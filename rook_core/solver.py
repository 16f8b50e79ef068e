"""Double-dummy solving (see :mod:`rook_core._native.solver` and ``src/rook/solve.h``).

:class:`Solver` solves one position at a time and owns its table;
:func:`solve_many` spreads many positions over threads, one solver per
thread (the native search releases the GIL, so the threads use every core).
The answers do not depend on the number of workers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ._native.solver import BestCards, BudgetExceeded, SolveResult, Solver
from .errors import RookError

__all__ = ["BestCards", "BudgetExceeded", "SolveResult", "Solver", "solve_many", "release_solvers"]

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


def solve_many(positions: Iterable[Any], *, workers: int | None = None, what: str = "solve",
               tt_bytes: int = 24 << 20, node_budget: int = 0, time_budget: float = 0.0,
               progress: Callable[[int, int], None] | None = None) -> list[SolveResult | int | RookError]:
    """Solve every position on ``workers`` threads (default: every core).

    ``what`` is ``"solve"`` (a :class:`SolveResult` each) or ``"value"`` (an
    int each).  Each position starts from an empty table, so every answer
    (node counts and budget stops included) is the same whatever the
    workers, the order or earlier calls; the tables themselves are kept
    for the next call (:func:`release_solvers` frees them).  A position that cannot be solved (bad input, budget) gives
    its :class:`~rook_core.errors.RookError` in its place instead of
    stopping the batch.  ``node_budget`` and ``time_budget`` bound each
    position's search (see :class:`Solver`).  ``progress(done, total)`` is
    called as positions finish.

    :raises RookError: for a bad ``what`` or ``workers``.
    """
    items: Sequence[Any] = list(positions)
    if what not in ("solve", "value"):
        raise RookError(f"what must be 'solve' or 'value', not {what!r}")
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    if not isinstance(n_workers, int) or n_workers < 1:
        raise RookError(f"workers must be a positive int, not {workers!r}")
    key = (tt_bytes, node_budget, time_budget)
    _give_back(key, _take_solver(key), n_workers)   # a bad budget fails here, once
    done = [0]
    lock = threading.Lock()

    def one(pos: Any) -> SolveResult | int | RookError:
        solver = _take_solver(key)
        solver.clear()
        try:
            out: SolveResult | int | RookError = solver.solve(pos) if what == "solve" else solver.value(pos)
        except RookError as e:
            out = e
        finally:
            _give_back(key, solver, n_workers)
        if progress is not None:
            with lock:
                done[0] += 1
                progress(done[0], len(items))
        return out

    if n_workers == 1 or len(items) <= 1:
        return [one(p) for p in items]
    with ThreadPoolExecutor(max_workers=n_workers) as pool:
        return list(pool.map(one, items))
