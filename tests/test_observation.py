"""The typed observation (T-15) and its JSON form agree: ``HandState.observe``
and ``HandState.observation`` give the same facts, the JSON form reads back
into the same observation, and reading it as a mapping gives the JSON values."""

from __future__ import annotations

import random

import pytest
from _walks import random_hand_states

from rook_core import PRESETS, HandState, RookError
from rook_core.actions import Phase
from rook_core.bots.knowledge import Knowledge
from rook_core.observation import Observation, inferred_voids

_walk = random_hand_states


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


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_the_state_and_the_observation_use_the_same_names_and_values(preset: str) -> None:
    """Issue 17 section 2b: ``phase``, ``trick`` and ``tricks`` mean the same on a
    ``HandState``, a typed observation and its JSON form (phases equal their labels;
    ``tricks`` is a property, as ``trick`` is)."""
    for seed in range(2):
        for h in _walk(preset, seed):
            j, o = h.observation(0), h.observe(0)
            assert h.phase == j["phase"] == o.phase and str(h.phase) == j["phase"] == h.phase.label
            assert h.phase == Phase.parse(j["phase"]) == int(h.phase)
            assert [[s, str(c)] for s, c in h.trick_seats] == j["trick"]
            assert [[[s, str(c)] for s, c in t["cards"]] for t in h.tricks] == [t["cards"] for t in j["tricks"]]
            assert [(t["leader"], t["winner"]) for t in h.tricks] == [(t["leader"], t["winner"]) for t in j["tricks"]]


def test_the_old_tricks_call_still_works_with_a_warning() -> None:
    h = HandState.deal("tournament", seed=2)
    rng = random.Random(2)
    while len(h.tricks) < 2:
        h.apply(rng.choice(h.legal_actions()))
    with pytest.warns(DeprecationWarning, match="property"):
        assert h.tricks() == h.tricks and len(h.tricks) == 2


def test_a_phase_is_its_number_and_its_label_and_nothing_else() -> None:
    for p in Phase:
        assert p == p.label and p == int(p) and f"{p}" == p.label and hash(p) == hash(int(p))
        assert Phase.parse(p.label) is Phase.parse(int(p)) is Phase.parse(p) is p
        assert p != "Play" and p != p.label + " " and {p: 1}[int(p)] == 1
    for bad in ("PLAY", "", 7, -1, True, None, 4.0):
        with pytest.raises(RookError, match="no phase"):
            Phase.parse(bad)  # type: ignore[arg-type]
