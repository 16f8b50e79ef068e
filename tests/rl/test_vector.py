"""The native batched environment (rook_core.rl.vector, src/rook/venv.c) against the Python path."""

from __future__ import annotations

import numpy as np
import pytest

from rook_core import HandState, RookError
from rook_core.bots.agents import RandomAgent, act_for, make_agent
from rook_core.bots.policy import example_policy
from rook_core.rl import aec_env
from rook_core.rl.encoding import action_mask, encode
from rook_core.rl.vector import VectorEnv
from rook_core.rng import agent_seed, hand_seed
from rook_core.variant import PRESETS

EXAMPLE = example_policy()


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row."""
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int32)


class _PythonTable:
    """Table i of a VectorEnv, replayed in Python: the same deal, the opponents
    as Python agents with the simulator's seeds, the reference encoder."""

    def __init__(self, env: VectorEnv, seed: int, kind: str) -> None:
        self.env, self.seed, self.kind, self.episode = env, seed, kind, -1
        self.next_hand()

    def next_hand(self) -> None:
        while True:
            self.episode += 1
            v, e = self.env.variant, self.episode
            self.h = HandState.deal(v, hand_seed(self.seed, e), dealer=e % 4)
            seeds = [agent_seed(self.seed, e, s) for s in range(4)]
            self.bots = {s: self._agent(v, seeds[s]) for s in range(4) if s != self.env.seat}
            self.others()
            if self.h.to_move is not None:
                return

    def _agent(self, v, seed: int):  # type: ignore[no-untyped-def]
        if self.kind == "random":
            return RandomAgent(v, seed)
        if self.kind == "example":
            return EXAMPLE.agent(v, seed)
        return make_agent(self.kind, v, seed)

    def others(self) -> None:
        while self.h.to_move is not None and self.h.to_move != self.env.seat:
            self.h.apply(act_for(self.bots[self.h.to_move], self.h, self.h.to_move))

    def step(self, a: int) -> tuple[float, bool]:
        self.h.apply(a)
        self.others()
        if self.h.to_move is not None:
            return 0.0, False
        t = self.env.seat & 1
        s = self.h.score if self.h.phase.label == "done" else (0, 0)
        self.next_hand()
        return float(s[t] - s[1 - t]), True


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("kind", ["random", "heuristic", "example"])
def test_the_batched_environment_equals_the_python_path(preset: str, kind: str) -> None:
    """Observations, masks, rewards and auto-resets of every table equal a
    Python replay of the same seeds with the reference encoder; the
    opponents are native random, heuristic or a Numba @cfunc policy (their
    Python twins on the Python side)."""
    seat = sorted(PRESETS).index(preset) % 4
    env = VectorEnv(preset, 6, seat=seat, opponents=EXAMPLE if kind == "example" else kind)
    obs, mask = env.reset(seed=40)
    tables = [_PythonTable(env, 40 + i, kind) for i in range(env.n)]
    aec = aec_env(preset)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(90):
        for i, t in enumerate(tables):
            o = t.h.observe(seat)
            assert np.array_equal(obs[i], encode(o)), (preset, i, t.episode)
            aec._episode = t.h          # the PettingZoo environment at the same hand sees the same
            assert np.array_equal(obs[i], aec.observe(f"player_{seat}")["observation"])
            assert np.array_equal(mask[i], action_mask(o, env.n_actions))
            assert env.episode(i) == t.episode
        actions = _pick(mask, rng)
        want = [t.step(int(a)) for t, a in zip(tables, actions)]
        obs, mask, reward, done = env.step(actions)
        assert not env.error.any()
        assert reward.tolist() == [w[0] for w in want] and done.tolist() == [int(w[1]) for w in want]
        ends += int(done.sum())
    assert ends > 6


def test_a_refused_action_leaves_its_table_and_steps_the_others() -> None:
    env = VectorEnv("tournament", 3)
    obs, mask = env.reset(seed=5)
    before = obs.copy()
    actions = _pick(mask, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    env.step(actions)
    assert env.error[1] > 0 and env.error[0] == env.error[2] == 0
    assert np.array_equal(env.obs[1], before[1]) and not np.array_equal(env.obs[0], before[0])
    actions[1] = 5000
    env.step(np.where(np.arange(3) == 1, 5000, _pick(env.mask, np.random.default_rng(1))))
    assert env.error[1] > 0


def test_the_same_seed_gives_the_same_run() -> None:
    def run(seed: int) -> float:
        env = VectorEnv("crowsnest", 16, opponents="heuristic")
        _, mask = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        total = 0.0
        for _ in range(60):
            _, mask, reward, _ = env.step(_pick(mask, rng))
            total += float(reward.sum())
        return total
    assert run(3) == run(3) != run(4)


def test_bad_options_and_calls_are_refused_by_name() -> None:
    with pytest.raises(RookError, match="n must"):
        VectorEnv("tournament", 0)
    with pytest.raises(RookError, match="seat"):
        VectorEnv("tournament", 2, seat=4)
    with pytest.raises(RookError, match="NativePolicy"):
        VectorEnv("tournament", 2, opponents="pimc")
    with pytest.raises(RookError, match="three"):
        VectorEnv("tournament", 2, opponents=["random"] * 2)
    env = VectorEnv("tournament", 2)
    with pytest.raises(RookError, match="reset"):
        env.step([0, 0])
    env.reset()
    with pytest.raises(RookError, match="one action per table"):
        env.step([0, 0, 0])
    with pytest.raises(RookError, match="table 9"):
        env.episode(9)


def test_actions_are_integer_ids_and_ids_beyond_32_bits_are_refused_not_wrapped() -> None:
    env = VectorEnv("tournament", 4)
    obs, mask = env.reset(seed=7)
    before = obs.copy()
    legal = _pick(mask, np.random.default_rng(0)).astype(np.int64)
    for huge in (legal + (1 << 32), legal - (1 << 32), legal.astype(np.uint64) + np.uint64(1 << 63)):
        env.step(huge)
        assert (env.error > 0).all() and np.array_equal(env.obs, before) and not env.done.any()
    for bad in (legal.astype(np.float64), legal.astype(np.float32) + 0.5, legal > 0, legal.astype(object),
                [None] * 4):
        with pytest.raises(RookError, match="integer action ids"):
            env.step(bad)
        assert np.array_equal(env.obs, before)
    env.step(legal.astype(np.uint16))          # any integer dtype that holds the ids is taken
    assert not env.error.any() and not np.array_equal(env.obs, before)


def test_seeds_are_ints_numpy_and_none_included_and_tables_and_seats_are_checked() -> None:
    def first(seed: object) -> np.ndarray:
        env = VectorEnv("crowsnest", 3)
        return env.reset(seed)[0].copy()  # type: ignore[arg-type]

    for seed in (-1, 0, 5):
        assert np.array_equal(first(np.int64(seed)), first(seed))
        assert np.array_equal(first(np.uint64(seed & (2**64 - 1))), first(seed))
    assert first(None).shape == first(0).shape
    env = VectorEnv("tournament", 2)
    for bad in (1.5, "3", True):
        with pytest.raises(RookError, match="seed"):
            env.reset(bad)  # type: ignore[arg-type]
    env.reset(1)
    for seat in (-1, 4, 7, 1.0):
        with pytest.raises(RookError, match="seat"):
            env.hand_mask(0, seat)  # type: ignore[arg-type]
    for i in (1.0, True, 2):
        with pytest.raises(RookError, match="table"):
            env.episode(i)  # type: ignore[arg-type]
    assert env.hand_mask(np.int64(1), np.int8(3)) == env.hand_mask(1, 3)  # type: ignore[arg-type]
    with pytest.raises(RookError, match="seat"):
        VectorEnv("tournament", 2, seat=1.0)  # type: ignore[arg-type]
    with pytest.raises(RookError, match="reward_scale"):
        VectorEnv("tournament", 2, reward_scale=float("inf"))
    assert VectorEnv("tournament", np.int64(2), seat=np.int64(3)).seat == 3  # type: ignore[arg-type]
