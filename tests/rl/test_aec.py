"""The PettingZoo AEC environment (rook_core.rl.aec): PettingZoo's own checks, rewards, refusals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rook_core import HandState, IllegalActionError, RookError
from rook_core.bots.agents import act_for, make_agent
from rook_core.rl import aec_env
from rook_core.rl.aec import play_random
from rook_core.variant import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pettingzoo_api_and_seed_tests_pass(preset: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation (its own card games get the same)
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(preset), num_cycles=200)
        seed_test(lambda: aec_env(preset), num_cycles=200)


def test_game_episodes_pass_the_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env("crowsnest-100", rewards="game"), num_cycles=3000)


def _play(env, seed: int, pick) -> tuple[list[int], dict[str, float]]:  # type: ignore[no-untyped-def]
    env.reset(seed=seed)
    actions, total = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        a = pick(obs["action_mask"])
        actions.append(a)
        env.step(a)
    return actions, total


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "house-180"])
def test_T30_a_hand_pays_each_team_its_score_less_the_others(preset: str) -> None:
    rng = np.random.default_rng(4)
    env = aec_env(preset, reward_scale=0.5)
    for seed in range(6):
        actions, total = _play(env, seed, lambda m: int(rng.choice(np.flatnonzero(m))))
        # the same hand again from its actions, by the rules alone
        h = env.hand.at_start()
        for a in actions:
            h.apply(a)
        s = h.score if h.phase.label == "done" else (0, 0)
        assert total == {f"player_{i}": 0.5 * (s[i & 1] - s[1 - (i & 1)]) for i in range(4)}


def test_T34_a_game_pays_plus_one_to_the_winners() -> None:
    env = aec_env("crowsnest-100", rewards="game", max_hands=200)
    bots = [make_agent("heuristic", env.variant, s) for s in range(4)]
    _, total = _play(env, 3, lambda m: act_for(bots[env.hand.to_move], env.hand, env.hand.to_move))
    winner = env._episode.winner  # type: ignore[union-attr]
    assert winner in (0, 1)
    assert total == {f"player_{i}": 1.0 if i % 2 == winner else -1.0 for i in range(4)}


def test_a_game_that_runs_past_max_hands_is_truncated_with_nothing_paid() -> None:
    rng = np.random.default_rng(5)
    env = aec_env("tournament", rewards="game", max_hands=2)
    _, total = _play(env, 3, lambda m: int(rng.choice(np.flatnonzero(m))))
    assert env._episode.hand_number == 3 and not env._episode.is_over  # type: ignore[union-attr]
    assert total == {f"player_{i}": 0.0 for i in range(4)}


def test_each_agent_sees_only_its_own_cards() -> None:
    env = aec_env("tournament")
    env.reset(seed=8)
    for i, agent in enumerate(env.possible_agents):
        x = env.observe(agent)["observation"]
        assert sum(1 << int(c) for c in np.flatnonzero(x[:64])) == env.hand.hand_mask(i)


def test_a_refused_action_raises_and_changes_nothing() -> None:
    env = aec_env("tournament")
    env.reset(seed=2)
    before = env.hand.clone()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(illegal)
    for bad in (None, "pass", 1.5, True):
        with pytest.raises(IllegalActionError, match="action id"):
            env.step(bad)
    assert env.hand == before and env.agent_selection == agent


def test_the_same_seed_gives_the_same_episodes_and_other_seeds_others() -> None:
    def run(seed: int) -> list[int]:
        rng = np.random.default_rng(0)
        env = aec_env("tournament")
        out: list[int] = []
        env.reset(seed=seed)
        for _ in range(3):   # later episodes continue the seeded generator
            out += play_random(env, rng)
            env.reset()
        return out

    assert run(11) == run(11) and run(11) != run(12)


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(RookError, match="rewards"):
        aec_env("tournament", rewards="trick")
    with pytest.raises(RookError, match="reward_scale"):
        aec_env("tournament", reward_scale=0)
    with pytest.raises(RookError, match="render_mode"):
        aec_env("tournament", render_mode="rgb_array")
    with pytest.raises(RookError, match="max_hands"):
        aec_env("tournament", max_hands=0)
    with pytest.raises(RookError, match="bad option"):
        aec_env("tournament", seats=3)
    with pytest.raises(RookError, match="reset"):
        aec_env("tournament").observe("player_0")


def test_render_shows_the_table_as_text() -> None:
    env = aec_env("tournament", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and str(env.hand) in text
    assert HandState.deal("tournament", 1).variant.name in text


def test_calls_before_reset_and_after_the_episode_are_refused_by_name() -> None:
    env = aec_env("tournament")
    for call in (lambda: env.step(64), env.last, lambda: env.observe("player_0")):
        with pytest.raises(RookError, match="reset"):
            call()
    env.reset(seed=4)
    play_random(env, np.random.default_rng(4))
    assert env.agents == []
    ended = env.hand.clone()
    for call in (lambda: env.step(None), lambda: env.step(64), env.last):
        with pytest.raises(RookError, match="episode is over"):
            call()
    assert env.hand == ended
    with pytest.raises(RookError, match="player_9"):
        env.observe("player_9")
    with pytest.raises(RookError, match="player_9"):
        env.action_space("player_9")


def test_numpy_seeds_and_actions_act_as_ints_and_other_seeds_are_refused() -> None:
    """A NumPy integer seed deals what the same int deals; a 0-d integer
    array (a member of the Discrete action space) plays as its int."""
    def run(seed: object, wrap) -> list[int]:  # type: ignore[no-untyped-def]
        env = aec_env("crowsnest")
        env.reset(seed=seed)  # type: ignore[arg-type]
        rng = np.random.default_rng(0)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            assert env.action_space(agent).contains(wrap(a))
            env.step(wrap(a))
        return env.hand.history

    for seed in range(-2, 3):
        want = run(seed, int)
        assert run(np.int64(seed), np.int64) == want
        assert run(np.int32(seed), np.array) == want
    env = aec_env("tournament")
    for bad in (1.5, "7", True, [1]):
        with pytest.raises(RookError, match="seed"):
            env.reset(seed=bad)  # type: ignore[arg-type]


def test_reward_scale_is_a_finite_positive_number_numpy_ones_included() -> None:
    for bad in (float("inf"), float("nan"), np.float64("inf"), 0, True):
        with pytest.raises(RookError, match="reward_scale"):
            aec_env("tournament", reward_scale=bad)
    env = aec_env("tournament", reward_scale=np.float32(0.5), max_hands=np.int64(3))
    assert env.reward_scale == 0.5 and type(env.reward_scale) is float and env.max_hands == 3
