"""The Gymnasium environment (rook_core.rl.gym): Gymnasium's checker, opponents, illegal actions."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rook_core.rl  # noqa: F401  (registers the ids)
from rook_core import IllegalActionError, RookError
from rook_core.bots.outside import configured_bot
from rook_core.rl.gym import GYM_IDS, RookGymEnv, gym_id
from rook_core.variant import PRESETS


def test_every_preset_has_a_registered_id() -> None:
    assert set(GYM_IDS) == set(PRESETS) and GYM_IDS["tournament"] == "rook_core/Tournament-v0"
    assert gym_id("partnership-57") == "rook_core/Partnership57-v0"
    for env_id in GYM_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "house-180", "crowsnest-100"])
def test_gymnasium_env_checker_passes(preset: str) -> None:
    env = gymnasium.make(GYM_IDS[preset], opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)


def _episode(env: RookGymEnv, seed: int, rng: np.random.Generator) -> tuple[list[int], float]:
    obs, info = env.reset(seed=seed)
    acts, total = [], 0.0
    while True:
        assert env.observation_space.contains(obs)
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        acts.append(a)
        obs, reward, term, trunc, info = env.step(a)
        total += reward
        if term or trunc:
            return acts, total


@pytest.mark.parametrize("seat", [0, 3])
def test_T30_the_learner_is_paid_its_teams_score_less_the_others(seat: int) -> None:
    env = RookGymEnv("tournament", seat=seat, opponents="heuristic")
    rng = np.random.default_rng(1)
    for seed in range(5):
        _, total = _episode(env, seed, rng)
        h = env.hand
        s = h.score if h.phase.label == "done" else (0, 0)
        assert total == s[seat & 1] - s[1 - (seat & 1)]
        assert h.to_move is None


def test_the_bots_play_every_other_seat_and_the_learner_only_its_own() -> None:
    seen: list[int] = []

    def bot(observation):  # type: ignore[no-untyped-def]
        seen.append(observation["seat"])
        return observation["legal_actions"][0]
    env = RookGymEnv("tournament", seat=1, opponents=[bot, "random", configured_bot("heuristic")])
    _episode(env, 4, np.random.default_rng(2))
    assert seen and set(seen) == {0}
    learner = [s for _, s, _ in env.hand.event_ids() if s == 1]
    assert learner


def test_the_same_seed_plays_the_same_episode() -> None:
    def run(seed: int) -> tuple[list[int], float, list[int]]:
        env = RookGymEnv("crowsnest", opponents="heuristic")
        acts, total = _episode(env, seed, np.random.default_rng(0))
        return acts, total, env.hand.history
    assert run(5) == run(5) and run(5) != run(6)


def test_an_illegal_action_loses_or_raises_as_asked() -> None:
    env = RookGymEnv("tournament", opponents="random")
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert term and not trunc and reward == -2 * env.variant.total_points and "illegal action" in info["illegal_action"]
    with pytest.raises(RookError, match="reset"):
        env.step(0)
    strict = RookGymEnv("tournament", opponents="random", illegal_action="raise")
    _, info = strict.reset(seed=2)
    before = strict.hand.clone()
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.hand == before


def test_a_game_episode_ends_with_plus_or_minus_one_or_is_truncated() -> None:
    env = RookGymEnv("crowsnest-100", opponents="heuristic", rewards="game", max_hands=3)
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=1)
    while True:
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            break
    assert (term and reward in (1.0, -1.0)) or (trunc and reward == 0.0)


def test_bad_options_are_refused_by_name() -> None:
    for kw, what in [({"seat": 4}, "seat"), ({"opponents": ["random"] * 2}, "three"),
                     ({"opponents": "nobody"}, "unknown agent"), ({"opponents": 3}, "opponent"),
                     ({"illegal_action": "ignore"}, "illegal_action"), ({"rewards": "x"}, "rewards"),
                     ({"max_hands": -1}, "max_hands"), ({"reward_scale": -1}, "reward_scale")]:
        with pytest.raises(RookError, match=what):
            RookGymEnv("tournament", **kw)
    with pytest.raises(RookError, match="reset"):
        RookGymEnv("tournament").step(0)


def test_numeric_options_are_checked_and_numpy_ints_accepted() -> None:
    for kw, what in [({"seat": 1.0}, "seat"), ({"seat": True}, "seat"), ({"illegal_reward": "x"}, "illegal_reward"),
                     ({"illegal_reward": [1]}, "illegal_reward"), ({"illegal_reward": float("nan")}, "illegal_reward"),
                     ({"reward_scale": float("inf")}, "reward_scale")]:
        with pytest.raises(RookError, match=what):
            RookGymEnv("tournament", opponents="random", **kw)  # type: ignore[arg-type]
    env = RookGymEnv("tournament", seat=np.int64(2), opponents="random", illegal_reward=np.float32(-5))  # type: ignore[arg-type]
    assert env.seat == 2 and type(env.seat) is int and env.illegal_reward == -5.0


def test_every_int_seed_is_taken_numpy_and_negative_ones_included() -> None:
    def run(seed: object, wrap) -> tuple[list[int], float]:  # type: ignore[no-untyped-def]
        env = RookGymEnv("tournament", opponents="heuristic", illegal_action="raise")
        obs, info = env.reset(seed=seed)  # type: ignore[arg-type]
        rng = np.random.default_rng(0)
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            assert env.action_space.contains(wrap(a))
            obs, reward, term, trunc, info = env.step(wrap(a))
            if term or trunc:
                return env.hand.history, reward

    for seed in (-3, 0, 2):
        want = run(seed, int)
        assert run(np.int64(seed), np.array) == want and run(np.int32(seed), np.int64) == want
    assert run(-3, int) != run(3, int)
    for bad in (1.5, "7", True):
        with pytest.raises(RookError, match="seed"):
            RookGymEnv("tournament", opponents="random").reset(seed=bad)  # type: ignore[arg-type]
