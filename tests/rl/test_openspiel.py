"""The presets as OpenSpiel games (rook_core.rl.openspiel): its own simulation test, resampling, a bot."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import rook_core.rl.openspiel as O
from rook_core.actions import Phase
from rook_core.rl.encoding import OBS_SIZE, action_count
from rook_core.variant import PRESETS


def test_every_preset_is_registered_under_its_short_name() -> None:
    names = set(pyspiel.registered_names())
    for name, v in PRESETS.items():
        assert O.short_name(name) in names
        g = pyspiel.load_game(O.short_name(name))
        assert g.num_players() == 4 and g.num_distinct_actions() == action_count(v)
        assert g.information_state_tensor_shape() == [OBS_SIZE]


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "house-180"])
def test_openspiels_random_simulation_test_passes(preset: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(O.short_name(preset)), num_sims=3, serialize=False, verbose=False)


def _play(game, rng: random.Random, every: int, check) -> list[float]:  # type: ignore[no-untyped-def]
    st = game.new_initial_state()
    k = 0
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            st.apply_action(rng.choice(outcomes)[0])
            continue
        if k % every == 0:
            check(st)
        st.apply_action(rng.choice(st.legal_actions()))
        k += 1
    return st.returns()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_T15_a_resampled_state_looks_the_same_to_the_player_and_plays_on(preset: str) -> None:
    """resample_from_infostate keeps the player's information state (its
    string and tensor), its legal actions, and deals the hidden cards anew."""
    game = pyspiel.load_game(O.short_name(preset))
    rng = random.Random(preset)
    moved = [0, 0]

    def check(st) -> None:  # type: ignore[no-untyped-def]
        p = st.current_player()
        r = st.resample_from_infostate(p, rng.random)
        assert r.information_state_string(p) == st.information_state_string(p)
        assert r.information_state_tensor(p) == st.information_state_tensor(p)
        assert r.current_player() == p and r.legal_actions() == st.legal_actions()
        others = [s for s in range(4) if s != p]
        moved[0] += 1
        moved[1] += any(r.hand.hand_mask(s) != st.hand.hand_mask(s) for s in others)
    for _ in range(3):
        ret = _play(game, rng, 5, check)
        assert sum(ret) == 0 and ret[0] == ret[2] and ret[1] == ret[3]
    assert moved[1] > moved[0] // 2      # the hidden cards really move


def test_T30_returns_are_the_hand_score_difference() -> None:
    game = pyspiel.load_game("python_rook_tournament")
    rng = random.Random(3)
    for _ in range(4):
        st = game.new_initial_state()
        while not st.is_terminal():
            st.apply_action(rng.choice(st.chance_outcomes())[0] if st.is_chance_node()
                            else rng.choice(st.legal_actions()))
        s = st.hand.score if st.hand.phase == Phase.DONE else (0, 0)
        assert st.returns() == [s[0] - s[1], s[1] - s[0], s[0] - s[1], s[1] - s[0]]


def test_the_dealer_parameter_seats_the_dealer() -> None:
    st = pyspiel.load_game("python_rook_tournament(dealer=2)").new_initial_state()
    rng = random.Random(1)
    while st.is_chance_node():
        st.apply_action(rng.choice(st.chance_outcomes())[0])
    assert st.hand.dealer == 2 and st.current_player() == 3


def test_openspiels_ismcts_bot_plays_a_hand() -> None:
    """OpenSpiel's information-set MCTS samples worlds through resample_from_infostate."""
    game = pyspiel.load_game("python_rook_tournament")
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(4)), 2.0, 20,
                           random_state=np.random.RandomState(5))
    rng = random.Random(1)
    st = game.new_initial_state()
    decisions = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        elif st.current_player() == 0:
            a = bot.step(st)
            assert a in st.legal_actions()
            st.apply_action(a)
            decisions += 1
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert decisions >= 9 and sum(st.returns()) == 0


def test_openspiels_evaluate_bots_plays_rook() -> None:
    from open_spiel.python.algorithms import evaluate_bots
    game = pyspiel.load_game("python_rook_crowsnest")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(4)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert len(returns) == 4 and sum(returns) == 0 and returns[0] == returns[2]


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "house-180"])
def test_openspiels_random_simulation_test_passes_with_serialization(preset: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(O.short_name(preset)), num_sims=2, serialize=True, verbose=False)


def test_a_state_pickles_and_clones_at_every_stage() -> None:
    import pickle
    game = pyspiel.load_game("python_rook_crowsnest(dealer=1)")
    rng = random.Random(6)
    st = game.new_initial_state()
    while True:
        for again in (pickle.loads(pickle.dumps(st)), pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, st))[1], st.clone()):
            assert again.history() == st.history() and str(again) == str(st)
            assert again.is_terminal() == st.is_terminal() and again.returns() == st.returns()
            if not st.is_chance_node() and not st.is_terminal():
                p = st.current_player()
                assert again.information_state_string(p) == st.information_state_string(p)
                assert again.legal_actions() == st.legal_actions()
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.chance_outcomes())[0] if st.is_chance_node() else rng.choice(st.legal_actions()))
    c = st.clone()
    assert c.hand is not st.hand and c.hand == st.hand


def test_a_chance_outcome_that_is_not_an_undealt_card_is_refused() -> None:
    from rook_core import IllegalActionError
    game = pyspiel.load_game("python_rook_tournament")
    st = game.new_initial_state()
    rng = random.Random(2)
    while st.is_chance_node():
        outcomes = {c for c, _ in st.chance_outcomes()}
        for bad in [c for c in range(64) if c not in outcomes][:6] + [64, 999]:
            history = st.history()
            with pytest.raises(IllegalActionError, match="deal"):
                st.apply_action(bad)
            assert st.history() == history and {c for c, _ in st.chance_outcomes()} == outcomes
        st.apply_action(rng.choice(sorted(outcomes)))
    assert sum(1 << c for c in st.dealt) == PRESETS["tournament"].deck_mask
