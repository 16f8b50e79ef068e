"""Whole Toonerville games between heuristic bots (RULES.md section 3), games per second.

Group ``tv-games``: four ``heuristic`` bots play the same seeded games
(all eleven rounds, ``simulate_toonerville``'s seeds) twice in one run:

* with the native contract kernel (the default ``solver``), and
* with the brute-force reference solver (``solver=`` the reference's), the
  baseline: the same bots, the same decisions, so both runs must give the
  same totals (asserted).

Reported: games per second of each, the ratio (and interleaved), and
``simulate_toonerville`` with two worker processes against one
(``workers=2``, the same games).
"""

from __future__ import annotations

import pytest

from rook_core._reference.contract import solve_contract as reference_solver
from rook_core.rng import agent_seed, hand_seed
from rook_core.sim.toonerville import simulate_toonerville
from rook_core.toonerville.agents import make_toonerville_agent, play_game
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.rules import ToonervilleRules
from rook_core.toonerville.solver import solve_contract as native_solver

SEED = 2026
N_GAMES = 4          # games per benchmarked call
N_TWO = 16           # games per call, one process against two
RULES = ToonervilleRules(players=4, turn_limit=1000)


SOLVERS = {"native": native_solver, "reference": reference_solver}


def _games(solver: str, n: int = N_GAMES, first: int = 0) -> list[list[int]]:
    totals = []
    for unit in range(first, first + n):
        g = ToonervilleGame(RULES, hand_seed(SEED, unit), first_dealer=unit % 4)
        play_game(g, [make_toonerville_agent("heuristic", RULES, agent_seed(SEED, unit, p),
                                                     solver=SOLVERS[solver])
                      for p in range(4)])
        totals.append(g.totals)
    return totals


@pytest.mark.benchmark(group="tv-games")
def test_tv_games_reference_solver(benchmark, ledger) -> None:
    totals = benchmark.pedantic(_games, args=("reference",), rounds=3, iterations=1)
    assert totals == _games("native")                     # the same games, whichever solver
    ledger.record("tv games, heuristic, reference solver", benchmark, items=N_GAMES, unit="game")


@pytest.mark.benchmark(group="tv-games")
def test_tv_games_native_solver(benchmark, ledger) -> None:
    benchmark.pedantic(_games, args=("native",), rounds=3, iterations=1)
    m = ledger.record("tv games, heuristic, native solver", benchmark, items=N_GAMES, unit="game")
    name = "tv games, heuristic bots: native contract kernel vs reference solver"
    ratio = ledger.pair(name, "tv games, heuristic, native solver", "tv games, heuristic, reference solver",
                        benchmark)
    ledger.interleave(name, lambda: _games("native", 1, 100), lambda: _games("reference", 1, 100),
                      1, 1, benchmark, pairs=5, reps=1)
    if m is not None:
        ledger.target(f"Toonerville whole games, four heuristic bots, one core: {1 / m.per_item:,.2f} games/s"
                      + (f"; {ratio:,.2f}x the same bots with the reference solver" if ratio else ""))


def _simulate(workers: int) -> None:
    simulate_toonerville(["heuristic"] * 4, games=N_TWO, seed=SEED, workers=workers)


@pytest.mark.benchmark(group="tv-games")
def test_tv_games_one_worker(benchmark, ledger) -> None:
    benchmark.pedantic(_simulate, args=(1,), rounds=1, iterations=1)
    ledger.record("tv games, simulate, one worker", benchmark, items=N_TWO, unit="game")


@pytest.mark.benchmark(group="tv-games")
def test_tv_games_two_workers(benchmark, ledger) -> None:
    benchmark.pedantic(_simulate, args=(2,), rounds=1, iterations=1)
    ledger.record("tv games, simulate, two workers", benchmark, items=N_TWO, unit="game")
    name = "tv games: simulate on two worker processes vs one"
    ratio = ledger.pair(name, "tv games, simulate, two workers", "tv games, simulate, one worker", benchmark)
    ledger.interleave(name, lambda: _simulate(2), lambda: _simulate(1), N_TWO, N_TWO, benchmark,
                      pairs=2, reps=1)
    if ratio:
        ledger.target(f"Toonerville games on two worker processes: {ratio:.2f}x one")
