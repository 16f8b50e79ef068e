"""Group odds: ``rook odds`` (``rook_core.odds.bid_odds``), one core.

odds-200.  The odds of one ``tournament`` hand (deal 5, seat 1) over 200
  deals of the unseen cards, four trumps each: 800 full-deal searches,
  windowed to the bid range.  Baseline in the same run: the same 800
  positions solved exactly (no window), one at a time, with what the
  slowest searches' share of that time is (the tail decides the total).
  Target: <= 2 s for 200 worlds.
"""

from __future__ import annotations

import statistics
import time

import pytest

import rook_core.odds as O
from rook_core import HandState
from rook_core.solver import Solver

WORLDS = 200
TARGET_S = 2.0


def _hand() -> list[str]:
    return HandState.deal("tournament", 5).hand(1).names()


def _exact(positions: list[HandState], times: list[float]) -> int:
    """Solve each position exactly from an empty table, on one thread (as
    ``solve_many`` does), noting each one's time."""
    s, total = Solver(), 0
    for p in positions:
        t = time.perf_counter()
        s.clear()
        total += s.value(p)
        times.append(time.perf_counter() - t)
    return total


def tail_share(times: list[float], top: float) -> float:
    """The share of the total time that the slowest ``top`` of the searches take."""
    ordered = sorted(times, reverse=True)
    return sum(ordered[:max(1, round(top * len(ordered)))]) / sum(ordered)


@pytest.mark.benchmark(group="odds-200")
def test_odds_exact_positions(benchmark, ledger, monkeypatch):
    captured: list[HandState] = []
    real = O.solve_many

    def capture(positions, **kw):
        captured.extend(positions)
        return real(positions, **kw)
    monkeypatch.setattr(O, "solve_many", capture)
    O.bid_odds("tournament", _hand(), seat=1, worlds=WORLDS, seed=1)
    monkeypatch.undo()
    times: list[float] = []
    benchmark.pedantic(_exact, args=(captured, times), rounds=1, iterations=1)
    ledger.record("odds/exact", benchmark, 1, "hand")
    ledger.target(f"odds' {len(times)} exact searches, one at a time: median {statistics.median(times) * 1e3:.2f} ms, "
                  f"mean {statistics.mean(times) * 1e3:.2f} ms; the slowest 5% take {100 * tail_share(times, .05):.0f}%"
                  f" of the time, the slowest 10% {100 * tail_share(times, .1):.0f}%")


@pytest.mark.benchmark(group="odds-200")
def test_odds_200_worlds(benchmark, ledger):
    odds = benchmark.pedantic(O.bid_odds, args=("tournament", _hand()),
                              kwargs={"seat": 1, "worlds": WORLDS, "seed": 1}, rounds=3, iterations=1)
    m = ledger.record("odds/windowed", benchmark, 1, "hand")
    ratio = ledger.pair("odds of one hand, 200 worlds: windowed searches vs exact values",
                        "odds/windowed", "odds/exact", benchmark)
    if m is not None:
        ledger.target(f"rook odds, tournament, {WORLDS} worlds x 4 trumps (one core): median "
                      f"{m.median:.2f} s; target <= {TARGET_S:.0f} s: {'MET' if m.median <= TARGET_S else 'NOT MET'}"
                      + (f"; {ratio:.2f}x the exact values" if ratio else ""))
    assert all(len(s) == WORLDS for s in odds.samples.values())
