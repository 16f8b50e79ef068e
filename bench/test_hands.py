"""Groups 3 and 4: whole random hands (deal, every trick with random legal
cards under a fixed trump, points), ``tournament``.

3. One full hand three ways, reported per hand:
   * native batch: ``Rules.random_hands(trump, seed, first, out)`` filling
     ``N_BATCH`` rows of an ``(n, 2)`` int32 array in one call (C loop, no
     Python per hand);
   * native single hand through the Python API: a ``random.Random`` deal, a
     ``Position`` at the start of play, ``HandState.from_position`` then
     ``legal_actions``/``apply`` to the end (the middle baseline);
   * reference: the same ``random.Random`` deal played with ``RefPlay`` /
     ``play_card`` (``rook_core/_reference/tricks.py``).
   The API path and the reference draw identically from the same seeded
   ``random.Random``, so they must give the same points hand by hand; the
   native batch is replayed on the reference with a Python copy of the C
   random stream (``rookbench.replay_random_hand``) and must match exactly.

4. Macro: ``random_hands`` on ``N_MACRO`` hands at once, hands/s on one core
   (the kernel is single-threaded); target >= 1,000,000 hands/s, printed and
   judged on the median wall time.  The best round and the rate per CPU
   second of the calling thread (``time.thread_time``) are printed beside it
   to tell a slow kernel from a busy machine.  Then the same hands on two
   threads (``rook_core.sim.playout.random_playouts(workers=2)``), against one
   thread in alternating slots, on N_TWO hands a call; target >= 1.8x.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
import pytest
import rookbench as B

from rook_core._native.rules import playout_kernels, rules_for
from rook_core.sim.playout import random_playouts

NAME = "tournament"
TRUMP = 2            # R
SEED = 20_240_601
N_BATCH = 2_000      # native hands per benchmarked call (group 3)
N_PY = 50            # API / reference hands per benchmarked call (group 3)
N_REPLAY = 100       # native batch hands replayed on the reference (assertion)
N_MACRO = 200_000    # group 4
N_TWO = 1_000_000    # group 4, two threads against one (a call long enough that starting threads is noise)
MACRO_TARGET = 1_000_000
TWO_CORE_TARGET = 1.8


def _python_hands(play) -> list[tuple[int, int]]:
    v = B.get_preset(NAME)
    rng = B.rng_for("bench-hand", NAME)
    return [tuple(play(v, TRUMP, (i + 1) % 4, rng)) for i in range(N_PY)]


def _hands_per_s(ledger, key: str) -> str:
    m = ledger.get(key)
    return "n/a" if m is None else f"{1 / m.per_item:,.0f} hands/s"


# ------------------------------------------------------------ 3. full hand

@pytest.mark.benchmark(group="3-full-hand")
def test_full_hand_reference(benchmark, ledger):
    got = benchmark(_python_hands, B.reference_random_hand)
    ledger.record(f"hand/{NAME}/reference", benchmark, N_PY, "hand")
    total = B.get_preset(NAME).total_points
    assert all(a + b == total for a, b in got)
    assert got == _python_hands(B.handstate_random_hand)


@pytest.mark.benchmark(group="3-full-hand")
def test_full_hand_handstate_api(benchmark, ledger):
    got = benchmark(_python_hands, B.handstate_random_hand)
    ledger.record(f"hand/{NAME}/handstate", benchmark, N_PY, "hand")
    title = f"3 full hand {NAME}: HandState API vs reference"
    ledger.pair(title, f"hand/{NAME}/handstate", f"hand/{NAME}/reference", benchmark)
    ledger.interleave(title, lambda: _python_hands(B.handstate_random_hand),
                      lambda: _python_hands(B.reference_random_hand), N_PY, N_PY,
                      benchmark, pairs=9)
    assert got == _python_hands(B.reference_random_hand)


@pytest.mark.benchmark(group="3-full-hand")
def test_full_hand_native_batch(benchmark, ledger):
    v = B.get_preset(NAME)
    rules = rules_for(v)
    out = np.zeros((N_BATCH, 2), dtype=np.int32)
    benchmark(rules.random_hands, TRUMP, SEED, 0, out)
    ledger.record(f"hand/{NAME}/native", benchmark, N_BATCH, "hand")
    title = f"3 full hand {NAME}: native batch vs reference"
    ledger.pair(title, f"hand/{NAME}/native", f"hand/{NAME}/reference", benchmark)
    ledger.interleave(title, lambda: rules.random_hands(TRUMP, SEED, 0, out),
                      lambda: _python_hands(B.reference_random_hand), N_BATCH, N_PY,
                      benchmark, pairs=9)
    ledger.pair(f"3 full hand {NAME}: native batch vs HandState API",
                f"hand/{NAME}/native", f"hand/{NAME}/handstate")
    for who in ("native", "handstate", "reference"):
        ledger.target(f"3 full hand {NAME} {who:<9}: "
                      f"{_hands_per_s(ledger, f'hand/{NAME}/{who}')}")
    assert (out.sum(axis=1) == v.total_points).all()
    replay = [B.replay_random_hand(v, TRUMP, SEED, i) for i in range(N_REPLAY)]
    assert [tuple(r) for r in out[:N_REPLAY].tolist()] == replay
    split = np.zeros((N_BATCH // 2, 2), dtype=np.int32)
    rules.random_hands(TRUMP, SEED, N_BATCH // 2, split)
    assert (split == out[N_BATCH // 2:]).all(), "hand i must depend only on (seed, i)"


# ---------------------------------------------------------------- 4. macro

@pytest.mark.benchmark(group="4-macro")
def test_macro_random_hands(benchmark, ledger):
    v = B.get_preset(NAME)
    rules = rules_for(v)
    out = np.zeros((N_MACRO, 2), dtype=np.int32)
    cpu: list[float] = []

    def run():
        t = time.thread_time()
        rules.random_hands(TRUMP, SEED, 0, out)
        cpu.append(time.thread_time() - t)

    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    m = ledger.record(f"macro/{NAME}/native", benchmark, N_MACRO, "hand")
    if m is not None:
        rate = 1 / m.per_item
        cpu_rate = N_MACRO / statistics.median(cpu[1:])  # [0]: the warmup round
        best = N_MACRO / benchmark.stats.stats.min
        benchmark.extra_info.update({"hands_per_s": rate, "hands_per_cpu_s": cpu_rate,
                                     "best_round_hands_per_s": best,
                                     "target_hands_per_s": MACRO_TARGET})
        ledger.target(f"4 macro random_hands {NAME} x{N_MACRO:,} (one core): {rate:,.0f} hands/s "
                      f"(median wall {m.median:.3f} s/call; best round {best:,.0f}/s; "
                      f"per CPU-second {cpu_rate:,.0f}/s); target >= {MACRO_TARGET:,}: "
                      f"{'MET' if rate >= MACRO_TARGET else 'NOT MET'} by the wall-clock median, "
                      f"{'MET' if cpu_rate >= MACRO_TARGET else 'NOT MET'} per CPU-second")
    if playout_kernels() == 2:
        k_ratio = ledger.interleave(f"4 macro random_hands {NAME}: x86-64-v3 kernel vs baseline kernel",
                                    lambda: rules.random_hands(TRUMP, SEED, 0, out, 2),
                                    lambda: rules.random_hands(TRUMP, SEED, 0, out, 1),
                                    N_MACRO, N_MACRO, benchmark, pairs=5)
        if k_ratio:
            ledger.target(f"4 macro random_hands {NAME}: this CPU runs the x86-64-v3 kernel, "
                          f"{k_ratio:.2f}x the baseline build")
    assert (out.sum(axis=1) == v.total_points).all()
    head = np.zeros((N_BATCH, 2), dtype=np.int32)
    rules.random_hands(TRUMP, SEED, 0, head)
    assert (head == out[:N_BATCH]).all()
    assert 0 < out[:, 0].mean() < v.total_points


@pytest.mark.benchmark(group="4-macro")
def test_macro_random_hands_two_cores(benchmark, ledger):
    v = B.get_preset(NAME)

    def run(workers: int):
        return random_playouts(v, N_TWO, seed=SEED, trump=TRUMP, workers=workers)

    two = benchmark.pedantic(run, args=(2,), rounds=5, iterations=1, warmup_rounds=1)
    m = ledger.record(f"macro/{NAME}/native-2", benchmark, N_TWO, "hand")
    title = f"4 macro random_hands {NAME}: two threads vs one"
    ledger.pair(title, f"macro/{NAME}/native-2", f"macro/{NAME}/native", benchmark)
    ratio = ledger.interleave(title, lambda: run(2), lambda: run(1), N_TWO, N_TWO, benchmark,
                              pairs=9)
    if m is not None and ratio is not None:
        ledger.target(f"4 macro random_hands {NAME} x{N_TWO:,} (two cores): "
                      f"{1 / m.per_item:,.0f} hands/s; {ratio:.2f}x one core (interleaved median); "
                      f"target >= {TWO_CORE_TARGET}x: {'MET' if ratio >= TWO_CORE_TARGET else 'NOT MET'}")
    assert (two == run(1)).all(), "the rows must not depend on the number of threads"
