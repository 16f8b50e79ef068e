"""``solve_many``: the batch call gives the single-solver answers in order,
whatever the number of workers, and reports bad positions in place."""

from __future__ import annotations

import random

import pytest

from rook_core import HandState
from rook_core import solver as solver_module
from rook_core.errors import PositionError, RookError
from rook_core.solver import BudgetExceeded, Solver, SolveResult, release_solvers, solve_many


def _positions(n: int, cards_left: int) -> list[dict[str, object]]:
    out = []
    for i in range(n):
        rng = random.Random(i)
        h = HandState.deal("crowsnest" if i % 2 else "tournament", seed=i)
        while h.phase.label != "play":
            h.apply(rng.choice(h.legal_actions()))
        while sum(len(h.hand(s)) for s in range(4)) > cards_left:
            h.apply(rng.choice(h.legal_actions()))
        out.append({"preset": h.variant.name, "trump": "BGRY"[h.trump], "leader": h.leader,
                    "trick": [str(c) for c in h.trick], "hands": [h.hand(s).names() for s in range(4)],
                    "nest_points": h.nest_points})
    return out


POSITIONS = _positions(24, 14)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_solve_many_equals_one_solver_in_order(workers: int) -> None:
    solver = Solver()
    want = [solver.solve(p) for p in POSITIONS]
    seen: list[tuple[int, int]] = []
    got = solve_many(POSITIONS, workers=workers, progress=lambda d, t: seen.append((d, t)))
    assert all(isinstance(g, SolveResult) for g in got)
    assert [(g.value, g.move_values, g.best) for g in got] == [  # type: ignore[union-attr]
        (w.value, w.move_values, w.best) for w in want]
    assert sorted(d for d, _ in seen) == list(range(1, len(POSITIONS) + 1))
    assert {t for _, t in seen} == {len(POSITIONS)}
    assert solve_many(POSITIONS, workers=workers, what="value") == [w.value for w in want]


@pytest.mark.parametrize("workers", [1, 2])
def test_solve_many_bounds_equal_card_bounds_one_by_one(workers: int) -> None:
    solver = Solver()
    want = []
    for p in POSITIONS:
        solver.clear()
        want.append(solver.card_bounds(p, 20))
    assert solve_many(POSITIONS, workers=workers, what="bounds", tolerance=20) == want


def test_solve_many_reports_bad_positions_in_place() -> None:
    bad = dict(POSITIONS[0], hands=[["R14"], [], [], []])
    got = solve_many([POSITIONS[0], bad, POSITIONS[1]], workers=2, what="value")
    assert isinstance(got[0], int) and isinstance(got[2], int)
    assert isinstance(got[1], PositionError)


def test_solve_many_budget_errors_in_place() -> None:
    big = _positions(1, 36)[0]
    got = solve_many([big, POSITIONS[0]], workers=2, what="value", node_budget=20)
    assert isinstance(got[0], BudgetExceeded) and got[0].lo <= got[0].hi


def test_solve_many_answers_do_not_depend_on_workers_order_or_history() -> None:
    """Every position starts from an empty table: whole answers, node counts
    included, are the same for any number of workers, in any order, in a
    repeated call, and the same as a fresh solver's."""
    positions = POSITIONS[:10]
    fresh = [Solver().solve(p) for p in positions]
    assert solve_many(positions, workers=1) == fresh
    assert solve_many(positions, workers=2) == fresh
    assert solve_many(positions[::-1], workers=3) == fresh[::-1]
    release_solvers()
    assert not solver_module._POOL
    assert solve_many(positions, workers=2) == fresh


def test_solve_many_budget_stops_do_not_depend_on_history() -> None:
    """Under a node budget, whether a position is stopped does not depend on
    what the kept tables saw before."""
    positions = POSITIONS[:8]
    counts = []
    for p in positions:
        fresh = Solver()
        fresh.value(p)
        counts.append(fresh.last_nodes)
    budget = sorted(counts)[len(counts) // 2]   # some positions stop, some do not
    once = solve_many(positions, workers=1, what="value", node_budget=budget)
    solve_many(POSITIONS, workers=2, what="value", node_budget=budget)   # warm the kept tables
    again = solve_many(positions, workers=2, what="value", node_budget=budget)
    assert [type(x) for x in once] == [type(x) for x in again]
    assert any(isinstance(x, BudgetExceeded) for x in once) and any(isinstance(x, int) for x in once)
    assert [x if isinstance(x, int) else (x.lo, x.hi) for x in once] == [
        x if isinstance(x, int) else (x.lo, x.hi) for x in again]  # type: ignore[union-attr]


def test_solve_many_keeps_the_tables_of_a_bigger_call() -> None:
    """A call with fewer workers than the one before keeps the tables that
    call left (however many threads it really used), so calls that
    alternate do not make a fresh table, and pay its page faults, every
    time."""
    release_solvers()
    key = (24 << 20, 0, 0.0)                      # solve_many's defaults
    a, b = Solver(key[0], key[1], time_budget=key[2]), Solver(key[0], key[1], time_budget=key[2])
    solver_module._give_back(key, a, 2)           # as a two-worker call leaves them
    solver_module._give_back(key, b, 2)
    assert solve_many(POSITIONS[:4], workers=1, what="value") == [Solver().value(p) for p in POSITIONS[:4]]
    assert {id(a), id(b)} <= set(map(id, solver_module._POOL[key]))
    release_solvers()
    assert not solver_module._POOL


@pytest.mark.parametrize("kwargs", [{"what": "nope"}, {"workers": 0}, {"time_budget": -1.0},
                                    {"what": "bounds", "tolerance": -5}, {"what": "bounds", "tolerance": 2.5}])
def test_solve_many_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(RookError):
        solve_many(POSITIONS[:1], **kwargs)  # type: ignore[arg-type]
