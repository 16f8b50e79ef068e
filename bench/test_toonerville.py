"""Toonerville contract checks (TV-2, TV-4, TV-5, TV-7, TV-12): the native
kernel (``src/rook/contract/``) against the brute-force reference.

Hands are dealt from a shoe of four full-57 decks (a four-player game,
TV-1), 12 cards for rounds 1-8 and the round's deal for 9-11 (TV-2); every
input comes from a fixed seed.  Groups:

* ``tv-contract``: the reference (``rook_core._reference.contract``) and
  the native batch (``contract_deadwood_many``, one C loop per round) on the
  very same ``N_REF`` hands a round, rounds 1-8; both answers asserted equal;
  the ratio per hand, and interleaved.  Then the public one-hand API
  (``solve_contract``, with its Python overhead) on the same hands.
* ``tv-batch``: the native batch alone on ``N_BATCH`` random hands a round,
  rounds 1-8 (12 cards) and 9-11 (14-16 cards); microseconds per hand on one
  core, target <= 5 us for the 12-card hands (printed, never asserted),
  with the per-round medians and the rate per CPU second of the thread.
  For rounds 9-11 the reference runs on the first ``N_REF`` hands of each
  round's batch, for the ratio and to check the answers.
  Also hands built to meet each round's contract (birds in some melds),
  where the search has the most to do.
* ``tv-repr``: the kernel's two representations of a multiset hand, count
  vectors (``REPR_COUNTS``) and bit planes (``REPR_PLANES``), on the same
  12-card hands; same answers asserted, the ratio printed.  The kernel's
  default (``ROOK_TV_REPR_DEFAULT``) is the faster here.
"""

from __future__ import annotations

import statistics
import time
import zlib

import numpy as np
import pytest
import rookbench as B

from rook_core import _layout as L
from rook_core._native import contract as native
from rook_core._reference.contract import solve_contract as reference
from rook_core.toonerville.contracts import CONTRACTS
from rook_core.toonerville.hand import FULL_DECK, MultiHand
from rook_core.toonerville.solver import contract_deadwood_many, solve_contract

DECKS = 4
N_REF = 25                 # hands a round for the reference (about 1-2 ms each)
N_BATCH = 20_000           # hands a round for the native batch
N_BUILT = 2_000            # built hands a round
SHORT = range(1, 9)        # rounds 1-8: 12 cards
LONG = range(9, 12)        # rounds 9-11: 15, 16, 14 cards
TARGET_US = 5.0

_DATA: dict[str, object] = {}


def _np_rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, parts)).encode()))


def _deal(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` hands of ``size`` cards from a shoe of DECKS decks, as (n, 64) counts."""
    shoe = np.array(list(FULL_DECK) * DECKS, dtype=np.int64)
    picks = np.argsort(rng.random((n, len(shoe))), axis=1)[:, :size]
    out = np.zeros((n, 64), dtype=np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), shoe[picks].ravel()), 1)
    return out


def _random_hands(rnd: int, n: int) -> np.ndarray:
    key = f"random/{rnd}/{n}"
    if key not in _DATA:
        size = 12 if rnd <= 8 else CONTRACTS[rnd].dealt
        _DATA[key] = _deal(n, size, _np_rng("bench-tv", rnd, n))
    return _DATA[key]  # type: ignore[return-value]


def _built_hands(rnd: int, n: int) -> np.ndarray:
    """Hands holding round ``rnd``'s contract, a bird in a third of the melds."""
    key = f"built/{rnd}/{n}"
    if key not in _DATA:
        rng = B.rng_for("bench-tv-built", rnd)
        con = CONTRACTS[rnd]
        out = np.zeros((n, 64), dtype=np.uint8)
        for i in range(n):
            cards: list[int] = []
            for _ in range(con.sets):
                rank = rng.randint(1, 14)
                cards += [L.card_id(rng.randrange(4), rank) for _ in range(3)]
                if rng.random() < 0.33:
                    cards[-1] = L.BIRD
            for _ in range(con.runs):
                color, lo = rng.randrange(4), rng.randint(1, 11)
                cards += [L.card_id(color, r) for r in range(lo, lo + 4)]
                if rng.random() < 0.33:
                    cards[-1 - rng.randrange(4)] = L.BIRD
            while len(cards) < con.dealt:
                cards.append(rng.choice(FULL_DECK))
            np.add.at(out[i], cards, 1)
        out = np.minimum(out, native.MAX_COPIES)       # TV-1: at most one copy per deck
        _DATA[key] = out
    return _DATA[key]  # type: ignore[return-value]


def _multihands(counts: np.ndarray) -> list[MultiHand]:
    hands = []
    for row in counts:
        hands.append(MultiHand(c for c in range(64) for _ in range(int(row[c]))))
    return hands


def _ref_set() -> dict[int, tuple[np.ndarray, list[MultiHand]]]:
    if "ref" not in _DATA:
        _DATA["ref"] = {rnd: (_random_hands(rnd, N_REF), _multihands(_random_hands(rnd, N_REF)))
                        for rnd in SHORT}
    return _DATA["ref"]  # type: ignore[return-value]


def _answers(met: np.ndarray, deadwood: np.ndarray) -> list[tuple[bool, int | None]]:
    return [(bool(m), int(d) if m else None) for m, d in zip(met, deadwood)]


# ------------------------------------------------- reference vs native, same hands

def _run_reference() -> dict[int, list[tuple[bool, int | None]]]:
    return {rnd: [(r.can_meet, r.deadwood) for r in (reference(h, rnd) for h in hands)]
            for rnd, (_, hands) in _ref_set().items()}


def _run_native_same() -> dict[int, list[tuple[bool, int | None]]]:
    return {rnd: _answers(*contract_deadwood_many(counts, rnd)) for rnd, (counts, _) in _ref_set().items()}


def _run_api_same() -> dict[int, list[tuple[bool, int | None]]]:
    return {rnd: [(r.can_meet, r.deadwood) for r in (solve_contract(h, rnd) for h in hands)]
            for rnd, (_, hands) in _ref_set().items()}


N_SAME = N_REF * len(SHORT)


@pytest.mark.benchmark(group="tv-contract")
def test_contract_reference(benchmark, ledger):
    got = benchmark.pedantic(_run_reference, rounds=5, iterations=1, warmup_rounds=0)
    ledger.record("tv/same/reference", benchmark, N_SAME, "hand")
    _DATA["ref-answers"] = got
    assert sum(m for answers in got.values() for m, _ in answers) > 0


@pytest.mark.benchmark(group="tv-contract")
def test_contract_native_batch_same_hands(benchmark, ledger):
    got = benchmark(_run_native_same)
    ledger.record("tv/same/native", benchmark, N_SAME, "hand")
    title = "tv contract, 12-card hands rounds 1-8: native batch vs reference (same hands)"
    ledger.pair(title, "tv/same/native", "tv/same/reference", benchmark)
    ledger.interleave(title, _run_native_same, _run_reference, N_SAME, N_SAME, benchmark, pairs=5)
    assert got == _DATA.get("ref-answers", _run_reference())


@pytest.mark.benchmark(group="tv-contract")
def test_contract_api_one_hand_same_hands(benchmark, ledger):
    got = benchmark(_run_api_same)
    ledger.record("tv/same/api", benchmark, N_SAME, "hand")
    ledger.pair("tv contract, 12-card hands rounds 1-8: solve_contract one hand a call vs reference",
                "tv/same/api", "tv/same/reference", benchmark)
    assert got == _DATA.get("ref-answers", _run_reference())


# ----------------------------------------------------------- native batch alone

def _solve_rounds(rounds, hands_of, repr_: int = native.REPR_COUNTS):
    """One call: every round's hands through the native batch; returns the outputs."""
    out = {}
    for rnd in rounds:
        counts = hands_of(rnd)
        con = CONTRACTS[rnd]
        met = np.zeros(len(counts), np.uint8)
        deadwood = np.zeros(len(counts), np.int32)
        native.solve_many(counts, con.sets, con.runs, 1, 2, met, deadwood, repr_)
        out[rnd] = (met, deadwood)
    return out


def _per_round_us(rounds, hands_of, reps: int = 5) -> dict[int, float]:
    """Median microseconds a hand of each round alone (reps calls each)."""
    res = {}
    for rnd in rounds:
        counts = hands_of(rnd)
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            _solve_rounds([rnd], hands_of)
            times.append(time.perf_counter() - t)
        res[rnd] = statistics.median(times) / len(counts) * 1e6
    return res


def _batch_case(benchmark, ledger, key: str, label: str, rounds, hands_of, n_each: int,
                target: float | None):
    cpu: list[float] = []

    def run():
        t = time.thread_time()
        out = _solve_rounds(rounds, hands_of)
        cpu.append(time.thread_time() - t)
        return out

    out = benchmark.pedantic(run, rounds=7, iterations=1, warmup_rounds=1)
    n = n_each * len(rounds)
    m = ledger.record(key, benchmark, n, "hand")
    if m is not None:
        us = m.per_item * 1e6
        cpu_us = statistics.median(cpu[1:]) / n * 1e6
        per = _per_round_us(rounds, hands_of)
        benchmark.extra_info.update({"us_per_hand": us, "us_per_hand_cpu": cpu_us,
                                     "us_per_hand_by_round": per})
        line = (f"tv batch {label}: {us:.3f} us/hand median wall ({1 / m.per_item:,.0f} checks/s, "
                f"one core; {cpu_us:.3f} us per CPU-second); by round: "
                + ", ".join(f"{r}: {v:.3f}" for r, v in per.items()))
        if target is not None:
            line += f"; target <= {target} us: {'MET' if us <= target else 'NOT MET'}"
        ledger.target(line)
    return out


@pytest.mark.benchmark(group="tv-batch")
def test_contract_batch_12_cards_rounds_1_8(benchmark, ledger):
    out = _batch_case(benchmark, ledger, "tv/batch/12", f"random 12-card hands, rounds 1-8, "
                      f"x{N_BATCH:,} a round", SHORT, lambda r: _random_hands(r, N_BATCH), N_BATCH,
                      TARGET_US)
    ledger.pair("tv contract: native batch (20,000 a round) vs reference", "tv/batch/12",
                "tv/same/reference")
    for rnd, (met, deadwood) in out.items():       # the first hands against the reference
        hands = _multihands(_random_hands(rnd, N_BATCH)[:10])
        want = [(r.can_meet, r.deadwood) for r in (reference(h, rnd) for h in hands)]
        assert _answers(met[:10], deadwood[:10]) == want
        assert ((deadwood >= 0) == (met == 1)).all()


def _long_reference() -> dict[int, list[tuple[bool, int | None]]]:
    """The reference on the first N_REF hands of each of rounds 9-11's batch."""
    if "long-hands" not in _DATA:
        _DATA["long-hands"] = {rnd: _multihands(_random_hands(rnd, N_BATCH)[:N_REF]) for rnd in LONG}
    hands = _DATA["long-hands"]
    return {rnd: [(r.can_meet, r.deadwood) for r in (reference(h, rnd) for h in hands[rnd])]  # type: ignore[index]
            for rnd in LONG}


@pytest.mark.benchmark(group="tv-batch")
def test_contract_reference_rounds_9_11(benchmark, ledger):
    _DATA["long-answers"] = benchmark.pedantic(_long_reference, rounds=3, iterations=1, warmup_rounds=0)
    ledger.record("tv/long/reference", benchmark, N_REF * len(LONG), "hand")


@pytest.mark.benchmark(group="tv-batch")
def test_contract_batch_rounds_9_11(benchmark, ledger):
    out = _batch_case(benchmark, ledger, "tv/batch/long", f"random 14-16-card hands, rounds 9-11, "
                      f"x{N_BATCH:,} a round", LONG, lambda r: _random_hands(r, N_BATCH), N_BATCH, None)
    ledger.pair("tv contract, 14-16-card hands rounds 9-11: native batch vs reference",
                "tv/batch/long", "tv/long/reference")
    want = _DATA.get("long-answers") or _long_reference()
    for rnd in LONG:                                   # the first hands against the reference
        assert _answers(out[rnd][0][:N_REF], out[rnd][1][:N_REF]) == want[rnd]  # type: ignore[index]


@pytest.mark.benchmark(group="tv-batch")
def test_contract_batch_built_hands(benchmark, ledger):
    out = _batch_case(benchmark, ledger, "tv/batch/built", f"hands built to meet the contract, "
                      f"rounds 1-11, x{N_BUILT:,} a round", range(1, 12),
                      lambda r: _built_hands(r, N_BUILT), N_BUILT, None)
    for rnd in range(1, 12):
        assert out[rnd][0].mean() > 0.9                # nearly all still meet it (a few lost copies)
    hands = _multihands(_built_hands(2, N_BUILT)[:10])
    want = [(r.can_meet, r.deadwood) for r in (reference(h, 2) for h in hands)]
    assert _answers(out[2][0][:10], out[2][1][:10]) == want


# -------------------------------------------------------------- representation

REPR_SETS = {
    "random-12": (SHORT, lambda r: _random_hands(r, N_BATCH), N_BATCH),
    "built": (range(1, 12), lambda r: _built_hands(r, N_BUILT), N_BUILT),
}
REPR_CASES = [(hands, side) for hands in REPR_SETS for side in ("planes", "counts")]


def _repr_run(hands: str, side: str):
    rounds, hands_of, _ = REPR_SETS[hands]
    repr_ = native.REPR_PLANES if side == "planes" else native.REPR_COUNTS
    return lambda: _solve_rounds(rounds, hands_of, repr_)


@pytest.mark.benchmark(group="tv-repr")
@pytest.mark.parametrize(("hands", "side"), REPR_CASES, ids=[f"{h}-{s}" for h, s in REPR_CASES])
def test_contract_representation(benchmark, ledger, hands, side):
    rounds, _, n_each = REPR_SETS[hands]
    n = n_each * len(rounds)
    out = benchmark.pedantic(_repr_run(hands, side), rounds=7, iterations=1, warmup_rounds=1)
    ledger.record(f"tv/repr/{hands}/{side}", benchmark, n, "hand")
    _DATA[f"repr-out/{hands}/{side}"] = out
    if side == "planes":
        return
    title = f"tv contract representation, {hands} hands: count vectors vs bit planes"
    ledger.pair(title, f"tv/repr/{hands}/counts", f"tv/repr/{hands}/planes", benchmark)
    ratio = ledger.interleave(title, _repr_run(hands, "counts"), _repr_run(hands, "planes"),
                              n, n, benchmark, pairs=7, reps=1)
    if ratio is not None:
        ledger.target(f"tv contract representation, {hands} hands: bit planes take {ratio:.2f}x the "
                      f"time of count vectors (interleaved median; > 1: count vectors faster)")
    planes = _DATA.get(f"repr-out/{hands}/planes") or _repr_run(hands, "planes")()
    for rnd in rounds:
        assert (planes[rnd][0] == out[rnd][0]).all() and (planes[rnd][1] == out[rnd][1]).all()
