"""The native random-playout kernel against its pure-Python twin (T-2, T-8 .. T-14).

``rook_core._reference.playout.replay_random_hand`` replays hand ``i`` of a
seeded batch on the reference trick engine with a bit-for-bit copy of the C
random stream; the native rows must equal it hand by hand on every preset
and trump.
"""

from __future__ import annotations

import numpy as np
import pytest

from rook_core._reference.playout import replay_random_hand
from rook_core.errors import NotationError, RookError
from rook_core.sim.playout import random_playouts
from rook_core.variant import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("trump", range(4))
def test_T2_T14_native_playouts_equal_the_reference_replay(preset: str, trump: int) -> None:
    v = PRESETS[preset]
    seed = 1000 + 7 * trump
    got = random_playouts(v, 40, seed=seed, trump=trump, first=5)
    want = [replay_random_hand(v, trump, seed, 5 + i) for i in range(40)]
    assert [tuple(r) for r in got.tolist()] == want


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T14_playout_points_add_up_to_the_total(preset: str) -> None:
    pts = random_playouts(preset, 5000, seed=3)
    assert (pts.sum(axis=1) == PRESETS[preset].total_points).all()


def test_rows_depend_only_on_seed_and_index() -> None:
    whole = random_playouts("tournament", 10_001, seed=9)
    assert (random_playouts("tournament", 10_001, seed=9, workers=3) == whole).all()
    assert (random_playouts("tournament", 1_000, seed=9, first=9_001) == whole[9_001:]).all()
    assert not (random_playouts("tournament", 10_001, seed=10) == whole).all()
    assert random_playouts("tournament", 0).shape == (0, 2)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"n": -1}, RookError, "n must be"),
    ({"n": 5, "seed": -2}, RookError, "seed"),
    ({"n": 5, "first": 1 << 64}, RookError, "first"),
    ({"n": 5, "workers": 0}, RookError, "workers"),
    ({"n": 5, "trump": "Purple"}, NotationError, "Purple"),
])
def test_bad_arguments_are_refused(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        random_playouts("tournament", **kwargs)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T2_T14_every_playout_kernel_gives_the_same_points(preset: str) -> None:
    """The kernel is built for two instruction sets (src/rook/playout.h); each
    one this CPU runs equals the reference replay."""
    from rook_core._native.rules import playout_kernels, rules_for
    v = PRESETS[preset]
    rules = rules_for(v)
    want = [replay_random_hand(v, 1, 99, i) for i in range(30)]
    for kernel in range(1, playout_kernels() + 1):
        out = np.zeros((30, 2), dtype=np.int32)
        rules.random_hands(1, 99, 0, out, kernel)
        assert [tuple(r) for r in out.tolist()] == want, f"kernel {kernel}"
    with pytest.raises(RookError, match="kernel 3"):
        rules.random_hands(1, 99, 0, np.zeros((1, 2), dtype=np.int32), 3)
