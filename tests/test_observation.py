"""The typed observation (T-15) and its JSON form agree: ``HandState.observe``
and ``HandState.observation`` give the same facts, the JSON form reads back
into the same observation, and reading it as a mapping gives the JSON values."""

from __future__ import annotations

import random

import pytest

from rook_core import PRESETS, HandState, RookError
from rook_core.bots.knowledge import Knowledge
from rook_core.observation import Observation, inferred_voids


def _walk(preset: str, seed: int):  # type: ignore[no-untyped-def]
    h = HandState.deal(preset, seed=seed)
    rng = random.Random(seed)
    while True:
        yield h
        if h.is_over:
            return
        h.apply(rng.choice(h.legal_actions()))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_observe_and_its_json_form_agree_at_every_step(preset: str) -> None:
    for seed in range(3):
        for h in _walk(preset, seed):
            for seat in range(4):
                o = h.observe(seat)
                j = h.observation(seat)
                assert o.to_json() == j and dict(o) == j
                assert Observation.from_json(j, h.variant) == o
                assert {k: o[k] for k in ("phase", "to_move", "bids", "points", "tricks_won")} == \
                    {k: j[k] for k in ("phase", "to_move", "bids", "points", "tricks_won")}
                assert ("legal_actions" in o) == (h.to_move == seat)
                if h.to_move == seat:
                    assert o["legal_actions"] == j["legal_actions"] == h.legal_actions()
                assert Knowledge.from_observation(o) == Knowledge.from_observation(j)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T9_T10_the_known_voids_come_with_the_observation(preset: str) -> None:
    shown = 0
    for seed in range(4):
        for h in _walk(preset, seed):
            voids = {h.observe(seat).voids for seat in range(4)}
            assert len(voids) == 1, "the voids are public: every seat sees the same"
            (v,) = voids
            assert v == inferred_voids(h.observe(0)), "native and inferred voids differ"
            for s in range(4):
                assert not v[s] & h.hand_mask(s), f"seat {s} holds a card it showed it lacks"
            shown += sum(m != 0 for m in v)
    assert shown, "random play showed no void at all"


def test_T15_an_observation_names_no_card_of_another_seat() -> None:
    h = HandState.deal("tournament", seed=3)
    o = h.observe(1)
    assert o.hand == h.hand_mask(1) and o.nest is None
    for other in (0, 2, 3):
        assert not o.hand & h.hand_mask(other)


def test_a_document_that_is_not_an_observation_is_refused() -> None:
    with pytest.raises(RookError, match="not an observation"):
        Observation.from_json({"seat": 0})
    with pytest.raises(RookError, match="not an observation"):
        Knowledge.from_observation({"variant": "tournament", "seat": "x"})
