"""Benchmark plumbing: a ledger of medians and the end-of-session ratio table.

Each benchmark test, after ``benchmark(...)`` ran, records its median with
``ledger.record(key, benchmark, items=...)`` (seconds per call divided by the
number of items the call handles: cases, hands, operations).  A native test
then names its baseline with ``ledger.pair(...)``, which also stores the
ratio in ``benchmark.extra_info`` (so it lands in ``--benchmark-json``).
``pytest_terminal_summary`` prints every pair as

    name: native <median>, baseline <median>, ratio <baseline/native>x

and, when the test also called ``ledger.interleave(...)``, the median of
per-pair ratios from calls of the two sides made alternately (the figure
least disturbed by a load that changes during the run); then the target
lines (``ledger.target(...)``).  Timings are never asserted:
the machines are shared and noisy, and a ratio of two medians taken in the
same process moments apart is the figure worth comparing between runs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # for ``import rookbench`` (--import-mode=importlib)


def fmt_time(seconds: float) -> str:
    """Return ``seconds`` in the unit that suits it (ns, us, ms, s)."""
    for unit, scale in (("ns", 1e-9), ("us", 1e-6), ("ms", 1e-3)):
        if seconds < 1000 * scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds:.4g} s"


@dataclass
class Measure:
    key: str
    median: float          # seconds per benchmarked call (pytest-benchmark median)
    iqr: float
    rounds: int
    items: int             # items handled per call
    unit: str              # what an item is ("case", "hand", "op", ...)

    @property
    def per_item(self) -> float:
        return self.median / self.items


@dataclass
class Ledger:
    measures: dict[str, Measure] = field(default_factory=dict)
    pairs: list[tuple[str, str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    interleaved: dict[str, tuple[float, float, float, int]] = field(default_factory=dict)

    def record(self, key: str, benchmark: Any, items: int = 1, unit: str = "call") -> Measure | None:
        """Store the median of the benchmark that just ran (None when
        benchmarking is disabled, e.g. ``--benchmark-disable``, or when
        the call handled no items, e.g. a count of deals set to 0)."""
        stats = getattr(getattr(benchmark, "stats", None), "stats", None)
        if stats is None or not getattr(stats, "rounds", 0) or items <= 0:
            return None
        m = Measure(key, stats.median, stats.iqr, stats.rounds, items, unit)
        self.measures[key] = m
        benchmark.extra_info.update({"items_per_call": items, "unit": unit,
                                     f"median_per_{unit}_s": m.per_item})
        return m

    def derive(self, key: str, per_item: float, unit: str) -> Measure:
        """Store a figure computed from other medians (e.g. a difference)."""
        m = self.measures[key] = Measure(key, per_item, float("nan"), 0, 1, unit)
        return m

    def get(self, key: str) -> Measure | None:
        return self.measures.get(key)

    def pair(self, name: str, native: str, baseline: str, benchmark: Any = None) -> float | None:
        """Declare ``native`` vs ``baseline``; return baseline/native per item
        (> 1: the native side is that many times faster) when both ran."""
        self.pairs.append((name, native, baseline))
        n, b = self.measures.get(native), self.measures.get(baseline)
        if n is None or b is None:
            return None
        ratio = b.per_item / n.per_item
        if benchmark is not None:
            benchmark.extra_info.update({
                f"baseline[{baseline}]_median_per_{b.unit}_s": b.per_item,
                f"ratio_vs[{baseline}]": ratio})
        return ratio

    def interleave(self, name: str, native: Callable[[], Any], baseline: Callable[[], Any],
                   native_items: int, baseline_items: int, benchmark: Any,
                   pairs: int = 15, reps: int = 3) -> float | None:
        """Time ``baseline`` and ``native`` in alternating slots, ``pairs``
        pairs of slots (which side goes first alternates too); a slot calls
        its function ``reps`` times in a row and keeps the median call, so
        the first, cold call after the other side's code does not count.
        Store the median of the per-pair ratios baseline/native per item
        under ``name`` (the title of a :meth:`pair`).  The two slots of a
        pair see the same machine load, so this ratio drifts less with a
        changing load than the ratio of two separate medians.  Nothing runs
        when benchmarking is disabled."""
        if getattr(benchmark, "disabled", False):
            return None

        def slot(fn: Callable[[], Any]) -> float:
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
            return statistics.median(times)

        ratios = []
        for i in range(pairs):
            if i % 2 == 0:
                tb, tn = slot(baseline), slot(native)
            else:
                tn, tb = slot(native), slot(baseline)
            ratios.append((tb / baseline_items) / (tn / native_items))
        q1, _, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        med = statistics.median(ratios)
        self.interleaved[name] = (med, q1, q3, pairs)
        benchmark.extra_info.update({"interleaved_ratio_median": med,
                                     "interleaved_ratio_q1": q1, "interleaved_ratio_q3": q3,
                                     "interleaved_pairs": pairs})
        return med

    def target(self, line: str) -> None:
        self.lines.append(line)


_LEDGER = Ledger()


@pytest.fixture(scope="session")
def ledger() -> Ledger:
    return _LEDGER


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the ratio table and the targets (also under ``-q``)."""
    led = _LEDGER
    tr = terminalreporter
    if led.measures:
        _ratio_table(tr, led)
    if led.lines:
        tr.write_sep("-", "throughput and targets (printed, never asserted)")
        for line in led.lines:
            tr.write_line(line)


def _ratio_table(tr: Any, led: Ledger) -> None:
    tr.write_sep("=", "rook_core native vs baseline (medians, same run; ratio = baseline/native)")
    width = max((len(p[0]) for p in led.pairs), default=10)
    for name, native, baseline in led.pairs:
        n, b = led.measures.get(native), led.measures.get(baseline)
        if n is None or b is None:
            tr.write_line(f"{name:<{width}}: (not measured)")
            continue
        line = (f"{name:<{width}}: native {fmt_time(n.per_item)}/{n.unit}, "
                f"baseline {fmt_time(b.per_item)}/{b.unit}, ratio {b.per_item / n.per_item:,.1f}x")
        if name in led.interleaved:
            med, q1, q3, k = led.interleaved[name]
            line += f"  [interleaved {med:,.1f}x, IQR {q1:,.1f}-{q3:,.1f}, {k} pairs]"
        tr.write_line(line)
