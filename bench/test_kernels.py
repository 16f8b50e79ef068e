"""Groups 1 and 2: the raw trick kernels over a fixed list of cases.

Each benchmarked call loops over the same N_CASES cases (built once from a
fixed seed), so one call = N_CASES kernel calls through Python.  The native
side goes through ``rules_for(variant)`` (``rook_core/_native/rules.pyx``);
the baseline is the pure-Python reference (``rook_core/_reference/tricks.py``)
on the very same cases.  Tests are ordered reference, native per preset, so
the two medians of a ratio are taken moments apart and the native test can
put the ratio in its ``extra_info``; the native test then also times the two
sides alternately (``ledger.interleave``) for the median of per-pair
ratios.  Both sides' answers are asserted equal.
"""

from __future__ import annotations

import pytest
import rookbench as B

from rook_core._native.rules import rules_for
from rook_core._reference.tricks import legal_cards, trick_winner

N_CASES = 1_000
PAIRS = 15  # alternating (reference, native) calls for the interleaved ratio
PRESETS = ("tournament", "partnership-57")
SIDES = [(name, side) for name in PRESETS for side in ("reference", "native")]
IDS = [f"{name}-{side}" for name, side in SIDES]

_CASES: dict[tuple[str, str], object] = {}


def _legal(name: str):
    key = ("legal", name)
    if key not in _CASES:
        _CASES[key] = B.legal_cases(B.get_preset(name), N_CASES, B.rng_for("bench-legal", name))
    return _CASES[key]


def _tricks(name: str):
    key = ("trick", name)
    if key not in _CASES:
        _CASES[key] = B.trick_cases(B.get_preset(name), N_CASES, B.rng_for("bench-trick", name))
    return _CASES[key]


# ------------------------------------------------------------- 1. legal mask

def _legal_runs(name: str) -> dict:
    """Return the benchmarked calls of group 1: side -> function."""
    v = B.get_preset(name)
    native_cases, ref_cases = _legal(name)
    lm = rules_for(v).legal_mask

    def reference():
        return [legal_cards(v, hand, trick, trump) for hand, trick, trump in ref_cases]

    def native():
        return [lm(hand, led, trump) for hand, led, trump in native_cases]

    return {"reference": reference, "native": native}


def _trick_runs(name: str) -> dict:
    """Return the benchmarked calls of group 2: side -> function."""
    v = B.get_preset(name)
    cases = _tricks(name)
    tw = rules_for(v).trick_winner

    def reference():
        return [trick_winner(v, cards, trump) for cards, trump in cases]

    def native():
        return [tw(cards, trump) for cards, trump in cases]

    return {"reference": reference, "native": native}


# ------------------------------------------------------------- 1. legal mask

@pytest.mark.benchmark(group="1-legal-mask")
@pytest.mark.parametrize(("name", "side"), SIDES, ids=IDS)
def test_legal_mask(benchmark, ledger, name, side):
    """``Rules.legal_mask(hand_mask, led_or_-1, trump)`` vs the reference
    ``legal_cards(variant, hand_ids, trick, trump)``."""
    v = B.get_preset(name)
    native_cases, ref_cases = _legal(name)
    runs = _legal_runs(name)
    got = benchmark(runs[side])
    ledger.record(f"legal/{name}/{side}", benchmark, N_CASES, "case")
    native = [rules_for(v).legal_mask(*c) for c in native_cases]
    reference = [B.mask_of(legal_cards(v, *c)) for c in ref_cases]
    if side == "native":
        title = f"1 legal_mask {name} vs reference legal_cards"
        ledger.pair(title, f"legal/{name}/native", f"legal/{name}/reference", benchmark)
        ledger.interleave(title, runs["native"], runs["reference"], N_CASES, N_CASES,
                          benchmark, pairs=PAIRS, reps=5)
        assert got == reference
    else:
        assert [B.mask_of(s) for s in got] == native
    assert native == reference
    assert any(m != c[0] for m, c in zip(native, native_cases)), "every case was unconstrained"


# ------------------------------------------------------- 2. trick resolution

@pytest.mark.benchmark(group="2-trick-winner")
@pytest.mark.parametrize(("name", "side"), SIDES, ids=IDS)
def test_trick_winner(benchmark, ledger, name, side):
    """``Rules.trick_winner(cards, trump)`` vs the reference
    ``trick_winner(variant, trick, trump)`` on complete tricks of legal play."""
    v = B.get_preset(name)
    cases = _tricks(name)
    runs = _trick_runs(name)
    got = benchmark(runs[side])
    ledger.record(f"trick/{name}/{side}", benchmark, N_CASES, "trick")
    if side == "native":
        title = f"2 trick_winner {name} vs reference trick_winner"
        ledger.pair(title, f"trick/{name}/native", f"trick/{name}/reference", benchmark)
        ledger.interleave(title, runs["native"], runs["reference"], N_CASES, N_CASES,
                          benchmark, pairs=PAIRS, reps=5)
    tw = rules_for(v).trick_winner
    assert got == [tw(cards, trump) for cards, trump in cases]
    assert got == [trick_winner(v, cards, trump) for cards, trump in cases]
    assert len(set(got)) == 4, "the cases never let some seat win"
