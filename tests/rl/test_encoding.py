"""The observation tensor and the action mask of rook_core.rl.encoding (T-15)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rook_core import HandState
from rook_core.actions import BID
from rook_core.observation import Observation
from rook_core.rl.encoding import (
    OBS_FIELDS,
    OBS_SIZE,
    action_count,
    action_mask,
    describe,
    encode,
    encode_state,
    field_slices,
    obs_bounds,
)
from rook_core.variant import PRESETS

AT = field_slices()


def _random_states(preset: str, n: int, seed: int) -> list[HandState]:
    """States met along random hands, every phase."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        h = HandState.deal(preset, seed * 1000 + k, dealer=k % 4)
        stop = rng.randrange(60)
        while h.to_move is not None and stop:
            h.apply(rng.choice(h.legal_actions()))
            stop -= 1
        out.append(h)
    return out


def _mask_of(bits: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(bits))


def test_the_fields_tile_the_vector() -> None:
    assert sum(w for _, w, _ in OBS_FIELDS) == OBS_SIZE == AT["game"].stop
    assert [AT[n].start for n, _, _ in OBS_FIELDS] == sorted(AT[n].start for n, _, _ in OBS_FIELDS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_the_tensor_says_what_the_seat_sees_and_nothing_else(preset: str) -> None:
    low, high = obs_bounds()
    for h in _random_states(preset, 12, 5):
        for seat in range(4):
            o = h.observe(seat)
            x = encode(o)
            assert x.dtype == np.float32 and x.shape == (OBS_SIZE,)
            assert (x >= low).all() and (x <= high).all()
            assert _mask_of(x[AT["hand"]]) == o.hand
            played = x[AT["played"]].reshape(4, 64)
            for t in o.tricks:
                for s, c in t.cards:
                    assert played[(s - seat) % 4, c] == 1
            assert played.sum() == sum(len(t.cards) for t in o.tricks)
            trick = x[AT["trick"]].reshape(4, 64)
            assert trick.sum() == len(o.trick) and all(trick[(s - seat) % 4, c] for s, c in o.trick)
            voids = x[AT["voids"]].reshape(4, 64)
            assert [_mask_of(voids[(s - seat) % 4]) for s in range(4)] == list(o.voids)
            assert _mask_of(x[AT["nest"]]) == (o.nest or 0)
            assert _mask_of(x[AT["discarded"]]) == (o.discarded or 0)
            assert x[AT["phase"]].sum() == (1 if o.phase < 5 else 0)
            assert x[AT["dealer"]][(o.dealer - seat) % 4] == 1
            # the JSON form carries the same knowledge: the same tensor from it
            again = Observation.from_json(o.to_json(), o.variant)
            assert np.array_equal(encode(again), x)


def test_the_mask_marks_the_legal_actions_in_the_cut_action_space() -> None:
    for h in _random_states("tournament", 20, 9):
        if h.to_move is None:
            continue
        o = h.observe(h.to_move)
        n = action_count(h.variant)
        assert n == BID + h.variant.max_bid + 1
        m = action_mask(o, n)
        assert m.dtype == np.int8 and sorted(np.flatnonzero(m)) == sorted(h.legal_actions())
        other = h.observe((h.to_move + 1) % 4)
        assert not action_mask(other, n).any()


def test_T33_game_scores_are_scaled_by_the_target_and_clipped() -> None:
    h = HandState.deal("tournament", 1)
    o = h.observe(1)
    x = encode(o, game_scores=(150, -900))
    g = x[AT["game"]]
    # seat 1 is team 1: its own score (-900, clipped to -1) first
    assert g[0] == -1.0 and g[1] == pytest.approx(150 / 300)


def test_the_manuals_table_is_the_layout() -> None:
    """docs/rl.md lists every field with its entries and meaning, as OBS_FIELDS says."""
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    want = [f"| `{n}` | {AT[n].start}-{AT[n].stop - 1} | {what} |" for n, _, what in OBS_FIELDS]
    assert rows == want


def test_the_native_encoder_uses_the_same_blocks() -> None:
    from rook_core._native.hand import OBS_OFFSETS
    assert OBS_OFFSETS == {**{n: AT[n].start for n, _, _ in OBS_FIELDS}, "size": OBS_SIZE}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_the_native_encoder_equals_the_reference(preset: str) -> None:
    """encode_state (one native pass over the state and its history) ==
    encode(observe(seat)) on random states of every phase, every seat, with
    and without game scores."""
    rng = random.Random(preset)
    for h in _random_states(preset, 30, 11):
        for seat in range(4):
            game = None if rng.random() < 0.5 else (rng.randrange(-900, 900), rng.randrange(-900, 900))
            want = encode(h.observe(seat), game)
            assert np.array_equal(encode_state(h, seat, game), want), (preset, seat, describe(want))


def test_the_state_mask_equals_the_observations() -> None:
    from rook_core.rl.encoding import state_mask
    for h in _random_states("partnership-57", 20, 12):
        n = action_count(h.variant)
        for seat in range(4):
            assert np.array_equal(state_mask(h, seat, n), action_mask(h.observe(seat), n))
