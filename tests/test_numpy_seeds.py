"""A NumPy integer is a seed like the Python int of its value (the one rule
of seeds, ``rng.check_seed``): every seeded entry point deals, plays and
records the same, and what it records holds a plain int.  Bools, floats and
integers outside 0 .. 2**64-1 stay refused, NumPy or not."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from rook_core import Game, HandState
from rook_core.errors import RookError
from rook_core.odds import bid_odds
from rook_core.sim.playout import random_playouts
from rook_core.sim.simulate import simulate
from rook_core.toonerville.game import ToonervilleGame

NUMPY_SEEDS = [np.int64(7), np.uint64(7), np.int32(7), np.uint8(7)]


def _same(call: Callable[[Any], Any]) -> None:
    want = call(7)
    for seed in NUMPY_SEEDS:
        assert call(seed) == want, type(seed)


def test_T2_a_numpy_seed_deals_the_same_hand() -> None:
    _same(lambda s: HandState.deal("tournament", seed=s).to_json())
    h = HandState.deal("tournament", seed=np.uint64(2**64 - 1))
    assert h == HandState.deal("tournament", seed=2**64 - 1)


def test_a_numpy_seed_starts_the_same_game_and_records_a_plain_int() -> None:
    _same(lambda s: Game("tournament", seed=s).to_json())
    g = Game("tournament", seed=np.int64(7))
    assert type(g.seed) is int and json.loads(json.dumps(g.to_json())) == g.to_json()


def test_a_numpy_seed_plays_the_same_toonerville_game() -> None:
    _same(lambda s: ToonervilleGame(4, seed=s).to_json())
    assert type(ToonervilleGame(4, seed=np.int32(3)).seed) is int


def test_a_numpy_seed_simulates_and_plays_out_the_same() -> None:
    _same(lambda s: simulate("tournament", hands=3, seed=s))
    assert type(simulate("tournament", hands=1, seed=np.int64(7)).seed) is int
    _same(lambda s: random_playouts("tournament", 50, seed=s, first=s).tolist())


def test_a_numpy_seed_gives_the_same_odds() -> None:
    hand = HandState.deal("tournament", seed=1).hand(0)
    _same(lambda s: bid_odds("tournament", hand, worlds=4, seed=s, trumps=(0,)).to_json())


@pytest.mark.parametrize("seed", [np.bool_(True), True, np.float64(7.0), 7.0, np.int64(-1), -1, "7",
                                  2**64])
def test_other_seeds_stay_refused_by_name(seed: Any) -> None:
    with pytest.raises(RookError, match="seed"):
        HandState.deal("tournament", seed=seed)
    with pytest.raises(RookError, match="seed"):
        Game("tournament", seed=seed)
    with pytest.raises(RookError, match="seed"):
        simulate("tournament", hands=1, seed=seed)
