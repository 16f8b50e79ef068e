"""The native hand loop (src/rook/sim.c) against the Python path of the simulator.

Both paths deal unit ``u`` from ``hand_seed(seed, u)`` (T-2) and draw each
agent's choices from the same seeded stream, so the rows must be equal,
column for column: deals, bids (T-3 .. T-6), exchange and passing (T-20 ..
T-22), play (T-8 .. T-11) and scores (T-14, T-30 .. T-32).
"""

from __future__ import annotations

import numpy as np
import pytest

from rook_core import HandState
from rook_core._native import sim as S
from rook_core.bots.policy import VIEW, NativePolicy, example_policy
from rook_core.errors import IllegalActionError, RookError
from rook_core.rng import hand_seed
from rook_core.sim.simulate import simulate
from rook_core.variant import PRESETS

NAMES = sorted(PRESETS)


@pytest.fixture(scope="module")
def example() -> NativePolicy:
    pytest.importorskip("numba")
    return example_policy()


@pytest.mark.parametrize("preset", NAMES)
def test_T2_T32_native_random_hands_equal_the_python_path(preset: str) -> None:
    agents = ["random"] * 4
    fast = simulate(preset, agents, hands=60, seed=17)
    assert fast.meta.get("native") is True
    slow = simulate(preset, agents, hands=60, seed=17, native=False)
    assert "native" not in slow.meta
    assert fast == slow


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "red-one"])
def test_T20_T22_native_callback_policy_equals_the_python_path(preset: str, example) -> None:
    agents = [example, "random", example, "random"]
    fast = simulate(preset, agents, hands=40, seed=5, duplicate=True)
    slow = simulate(preset, agents, hands=40, seed=5, duplicate=True, native=False)
    assert fast == slow
    assert fast.agents == ("example", "random", "example", "random")
    assert (fast.hands["made"] >= -1).all() and len(fast) == 80


def test_native_rows_do_not_depend_on_threads_or_chunks() -> None:
    base = simulate("tournament", ["random"] * 4, hands=3000, seed=8)
    assert simulate("tournament", ["random"] * 4, hands=3000, seed=8, workers=2, chunk=257) == base
    assert (base.hands["deal_seed"] == np.array([hand_seed(8, u) for u in range(3000)],
                                                dtype=np.uint64)).all()
    assert (base.hands["points_0"] + base.hands["points_1"] == 120)[base.hands["made"] >= 0].all()


def test_view_holds_what_the_seat_may_know() -> None:
    """T-15: the view has the seat's own cards and the public play, never another hand."""
    h = HandState.deal("tournament", 3)
    v = S.view_of(h, 1, random=12345)
    assert v[VIEW.seat] == 1 and v[VIEW.phase] == 0 and v[VIEW.to_move] == 1
    assert np.uint64(v[VIEW.hand]) == h.hand_mask(1)
    assert v[VIEW.can_pass] == 1 and v[VIEW.min_bid] == 70 and v[VIEW.max_bid] == 120
    assert v[VIEW.random] == 12345 and v[VIEW.nest] == 0 and v[VIEW.legal_cards] == 0
    other = S.view_of(h, 2)
    assert other[VIEW.min_bid] == 0 and other[VIEW.can_pass] == 0    # not its turn
    assert S.hand_seed(7, 3) == hand_seed(7, 3)


def test_a_refused_action_names_the_seat_and_hand_on_both_paths(example) -> None:
    from numba import cfunc, types

    @cfunc(types.int64(types.CPointer(types.int64), types.int64))
    def always_trump_red(view_ptr, n):
        return 67                   # "trump R", refused in the bidding

    bad = NativePolicy(always_trump_red)
    agents = ["random", bad, "random", "random"]
    with pytest.raises(IllegalActionError, match=r"hand 0: seat 1 \(always_trump_red\) chose action 67"):
        simulate("tournament", agents, hands=3, seed=1)
    with pytest.raises(IllegalActionError, match=r"hand 0: seat 1 \(always_trump_red\) chose action 67"):
        simulate("tournament", agents, hands=3, seed=1, native=False)


def test_native_path_refusals() -> None:
    with pytest.raises(RookError, match="native=True"):
        simulate("tournament", ["pimc"] + ["random"] * 3, hands=2, native=True)
    with pytest.raises(RookError, match="NativePolicy"):
        simulate("tournament", ["random", object(), "random", "random"], hands=2)
    with pytest.raises(RookError, match="C function address"):
        NativePolicy(lambda v, n: 0)


def test_python_path_with_a_native_policy_needs_this_process(example) -> None:
    agents = [example, "heuristic", example, "heuristic"]
    with pytest.raises(RookError, match="workers=1"):
        simulate("tournament", agents, hands=2, workers=2, native=False)
    r = simulate("tournament", agents, games=2, seed=2, workers=1)
    assert len(r) == 2


@pytest.mark.parametrize("preset", NAMES)
def test_T3_T22_native_heuristic_equals_the_python_agent(preset: str) -> None:
    """The C twin of HeuristicAgent (src/rook/heuristic.c) decides exactly alike:
    whole simulations of heuristic against random agents, both ways round."""
    agents = ["heuristic", "random", "heuristic", "random"]
    fast = simulate(preset, agents, hands=40, seed=31, duplicate=True)
    assert fast.meta.get("native") is True
    slow = simulate(preset, agents, hands=40, seed=31, duplicate=True, native=False)
    diff = [k for k in fast.hands if not np.array_equal(fast.hands[k], slow.hands[k])]
    assert fast == slow, f"columns that differ: {diff}"


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "crowsnest", "dixie"])
def test_T8_T11_native_heuristic_self_play_equals_the_python_agent(preset: str) -> None:
    fast = simulate(preset, ["heuristic"] * 4, hands=80, seed=77)
    assert fast == simulate(preset, ["heuristic"] * 4, hands=80, seed=77, native=False)


@pytest.mark.parametrize("options", [{"bid_margin": -10}, {"bid_margin": 15, "bird_threshold": 30}])
def test_native_heuristic_takes_its_options(options) -> None:
    agents = ["heuristic"] * 4
    opts = {"heuristic": options}
    fast = simulate("tournament", agents, hands=60, seed=2, agent_options=opts)
    assert fast == simulate("tournament", agents, hands=60, seed=2, agent_options=opts, native=False)
    assert fast != simulate("tournament", agents, hands=60, seed=2)


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "crowsnest-100", "kentucky-rook", "house-180"])
def test_T1_T6_T34_native_games_equal_the_python_path(preset: str) -> None:
    """Games to the target: dealer rotation, redeal by the same dealer, totals, winner."""
    agents = ["heuristic", "random", "heuristic", "random"]
    fast = simulate(preset, agents, games=6, seed=3, duplicate=True)
    assert fast.meta.get("native") is True and len(fast.games["unit"]) == 12
    assert fast == simulate(preset, agents, games=6, seed=3, duplicate=True, native=False)
    selfplay = simulate(preset, ["heuristic"] * 4, games=5, seed=4, workers=2, chunk=2)
    assert selfplay == simulate(preset, ["heuristic"] * 4, games=5, seed=4, native=False)


def test_T34_native_games_stop_at_max_hands() -> None:
    fast = simulate("tournament", ["random"] * 4, games=10, seed=6, max_hands=3)
    assert fast == simulate("tournament", ["random"] * 4, games=10, seed=6, max_hands=3, native=False)
    assert (fast.games["hands"] <= 3).all() and (fast.games["winner"] == -1).any()
