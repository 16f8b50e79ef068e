"""Double-dummy solver benchmarks.

* ``solver-endings``: ``Solver.solve`` (value and every card) against the
  exhaustive reference minimax (``rook_core._reference.minimax``) on the
  same fixed 3-trick endings; both must agree; the ratio is reported.
* ``solver-full``: full ``tournament`` and ``crowsnest`` deals right after the
  nest (9 tricks): value only and every card scored, per deal; mean, median,
  p90, max and nodes/s are printed with the issue's targets.  A node-count
  signature (nodes of the value search per deal) is printed so that a change
  in search behaviour shows in review.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest

from rook_core import HandState
from rook_core._reference import minimax as M
from rook_core.solver import Solver

N_ENDINGS = 40
N_FULL = 5


def _play_until(preset: str, seed: int, cards_left: int) -> HandState:
    rng = random.Random(seed)
    h = HandState.deal(preset, seed=seed)
    while h.phase.label != "play":
        h.apply(rng.choice(h.legal_actions()))
    while sum(len(h.hand(s)) for s in range(4)) > cards_left:
        h.apply(rng.choice(h.legal_actions()))
    return h


def _position(h: HandState) -> dict[str, object]:
    return {"preset": h.variant.name, "trump": "BGRY"[h.trump], "leader": h.leader,
            "trick": [str(c) for c in h.trick], "hands": [h.hand(s).names() for s in range(4)],
            "nest_points": h.nest_points}


ENDINGS = [_position(_play_until("tournament", 1000 + i, 12 - i % 3)) for i in range(N_ENDINGS)]


@pytest.mark.benchmark(group="solver-endings")
def test_solver_endings_reference(benchmark, ledger):  # type: ignore[no-untyped-def]
    values = benchmark(lambda: [M.dd_value(p) for p in ENDINGS])
    ledger.record("solver-endings/reference", benchmark, items=N_ENDINGS, unit="position")
    test_solver_endings_reference.values = values  # type: ignore[attr-defined]


@pytest.mark.benchmark(group="solver-endings")
def test_solver_endings_native(benchmark, ledger):  # type: ignore[no-untyped-def]
    solver = Solver()
    results = benchmark(lambda: [solver.solve(p) for p in ENDINGS])
    ledger.record("solver-endings/native", benchmark, items=N_ENDINGS, unit="position")
    ledger.pair("solver, 3-trick endings, every card (vs reference minimax value only)",
                "solver-endings/native", "solver-endings/reference", benchmark)
    assert [r.value for r in results] == [M.dd_value(p) for p in ENDINGS]


def _full_deals(preset: str) -> list[HandState]:
    return [_play_until(preset, 2000 + i, 36) for i in range(N_FULL)]


@pytest.mark.parametrize("preset", ["tournament", "crowsnest"])
@pytest.mark.benchmark(group="solver-full")
def test_solver_full_deals(benchmark, ledger, preset):  # type: ignore[no-untyped-def]
    deals = _full_deals(preset)
    value_t: list[float] = []
    all_t: list[float] = []
    nodes: list[int] = []

    def run() -> None:
        for h in deals:
            s = Solver()
            t = time.perf_counter()
            v = s.value(h)
            value_t.append(time.perf_counter() - t)
            nodes.append(s.last_nodes)
            s2 = Solver()
            t = time.perf_counter()
            r = s2.solve(h)
            all_t.append(time.perf_counter() - t)
            assert r.value == v

    benchmark.pedantic(run, rounds=1, iterations=1)
    ordered = sorted(value_t)
    p90 = ordered[max(0, -(-9 * len(ordered) // 10) - 1)]
    ledger.target(
        f"solver {preset} full deals ({N_FULL}): value median {statistics.median(value_t) * 1e3:.1f} ms "
        f"(target <= 1 ms), p90 {p90 * 1e3:.1f} ms, max {max(value_t) * 1e3:.1f} ms; every card "
        f"mean {statistics.mean(all_t) * 1e3:.1f} ms (target <= 2 ms), max {max(all_t) * 1e3:.1f} ms; "
        f"{sum(nodes) / sum(value_t):,.0f} nodes/s")
    ledger.target(f"solver {preset} node signature (value search per deal): {nodes}")
