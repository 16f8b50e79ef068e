"""Hand features over arrays (Numba kernels) against a plain Python count (C-1, C-4, T-12)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rook_core import _layout as L
from rook_core.bots.features import hand_features
from rook_core.errors import RookError
from rook_core.sim.simulate import simulate
from rook_core.variant import PRESETS

NAMES = sorted(PRESETS)


def _python_features(mask: int, v, top_ranks: int) -> tuple:
    cards = [c for c in range(64) if mask >> c & 1]
    lengths = [sum(1 for c in cards if c != L.BIRD and L.color_of(c) == col) for col in range(4)]
    counters = sum(v.points_table[c] for c in cards)
    top = 0
    for col in range(4):
        ranked = sorted((x for x in range(64) if v.deck_mask >> x & 1 and x != L.BIRD
                         and L.color_of(x) == col), key=lambda x: -v.strength_table[x])
        top += sum(1 for x in ranked[:top_ranks] if x in cards)
    return lengths, max(lengths), counters, top, L.BIRD in cards


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES), st.lists(st.integers(0, (1 << 64) - 1), max_size=30),
       st.integers(1, 4))
def test_C1_T12_features_equal_a_python_count(name: str, raw: list[int], top_ranks: int) -> None:
    v = PRESETS[name]
    hands = [x & v.deck_mask for x in raw]
    f = hand_features(np.array(hands, dtype=np.uint64), v, top_ranks)
    for i, m in enumerate(hands):
        lengths, longest, counters, top, bird = _python_features(m, v, top_ranks)
        assert f["lengths"][i].tolist() == lengths
        assert f["longest"][i] == longest
        assert f["counters"][i] == counters
        assert f["top"][i] == top
        assert bool(f["bird"][i]) == bird


def test_T2_features_of_simulated_deals() -> None:
    """The dealt-hand columns of a simulation feed the kernels; four hands and
    the nest hold every counter of the deck."""
    r = simulate("tournament", ["heuristic"] * 4, hands=50, seed=1)
    total = sum(hand_features(r.hands[f"hand_{s}"], "tournament")["counters"].astype(int)
                for s in range(4)) + hand_features(r.hands["nest"], "tournament")["counters"]
    assert (total == PRESETS["tournament"].total_points).all()


@pytest.mark.parametrize("hands,message", [
    (np.zeros((2, 2), dtype=np.uint64), "1-d"),
    (np.array([-1]), "negative"),
    (np.array([1.5]), "integers"),
    (np.array([1], dtype=np.uint64), "outside this variant's deck"),
])
def test_bad_hands_are_refused(hands, message) -> None:
    with pytest.raises(RookError, match=message):
        hand_features(hands, "tournament")
    with pytest.raises(RookError, match="top_ranks"):
        hand_features([0], "tournament", top_ranks=0)
