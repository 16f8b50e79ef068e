"""Group rl-step: one ``step`` + ``observe`` of the PettingZoo AEC environment
(``rook_core.rl.aec_env``, ``tournament``), in microseconds.

The same recorded hands are replayed both ways, actions chosen up front (a
random legal action each turn, seeded), so the two sides do the same work:

* ``aec``: ``env.step(a)`` and then ``env.last()`` (the next agent's
  observation: the tensor and the mask), one hand after another, each
  episode started by ``reset`` (not timed separately: it is part of the loop);
* baseline ``state``: ``HandState.apply(a)`` and ``observe(seat)`` (the
  typed Observation, no tensor): what a wrapper written around the engine
  in Python does each step.

Target: step + observe <= 5 us (printed, never asserted).
"""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from rook_core import HandState
from rook_core.rl import aec_env
from rook_core.rl.aec import play_random

HANDS = 20
TARGET_US = 5.0


def _recorded() -> list[tuple[int, list[int]]]:
    """(reset seed, actions) of HANDS random hands, as the environment deals them."""
    env = aec_env("tournament")
    rng = np.random.default_rng(7)
    out = []
    for k in range(HANDS):
        env.reset(seed=k)
        out.append((k, play_random(env, rng)))
    return out


RECORDED = _recorded()
STEPS = sum(len(a) for _, a in RECORDED)


def _aec() -> None:
    env = aec_env("tournament")
    for seed, acts in RECORDED:
        env.reset(seed=seed)
        for a in acts:
            env.step(a)
            env.last()


def _states() -> None:
    env = aec_env("tournament")
    for seed, acts in RECORDED:
        env.reset(seed=seed)
        h: HandState = env.hand.clone()
        for a in acts:
            h.apply(a)
            if h.to_move is not None:
                h.observe(h.to_move)


@pytest.mark.benchmark(group="rl-step")
def test_state_apply_observe(benchmark, ledger):
    benchmark.pedantic(_states, rounds=5, iterations=1)
    ledger.record("rl/state", benchmark, STEPS, "step")


@pytest.mark.benchmark(group="rl-step")
def test_aec_step_observe(benchmark, ledger):
    benchmark.pedantic(_aec, rounds=5, iterations=1)
    m = ledger.record("rl/aec", benchmark, STEPS, "step")
    ratio = ledger.pair("AEC step + observe vs HandState.apply + observe (an Observation a step)", "rl/aec", "rl/state",
                        benchmark)
    if m is not None:
        us = m.per_item * 1e6
        ledger.target(f"PettingZoo AEC step + observe (tournament): median {us:.1f} us; target <= {TARGET_US:.0f} us: "
                      f"{'MET' if us <= TARGET_US else 'NOT MET'}"
                      + (f"; HandState.apply + observe takes {ratio:.2f}x of it" if ratio else ""))


# -------------------------------------------------------------- batched
BATCH = 1024
VSTEPS = 200
TARGET_STEPS_S = 2_000_000


def _vector_steps(envs: list, steps: int) -> float:  # type: ignore[type-arg]
    """Step each env ``steps`` times with random legal actions; return the
    seconds spent inside env.step (summed over envs stepped in this thread)."""
    import time
    spent = 0.0
    for env in envs:
        rng = np.random.default_rng(0)
        _, mask = env.reset(seed=1)
        for _ in range(steps):
            actions = (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int32)
            t0 = time.perf_counter()
            _, mask, _, _ = env.step(actions)
            spent += time.perf_counter() - t0
    return spent


def _aec_learner_steps(n_hands: int) -> tuple[float, int]:
    """The same work through the PettingZoo environment: seat 0 learns, the
    other seats pick random legal actions from their masks in Python; return
    (seconds, learner steps)."""
    import time
    env = aec_env("tournament")
    rng = np.random.default_rng(0)
    learner = 0
    t0 = time.perf_counter()
    for k in range(n_hands):
        env.reset(seed=k)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            learner += agent == "player_0"
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return time.perf_counter() - t0, learner


@pytest.mark.benchmark(group="rl-batched")
def test_batched_environment_one_core(benchmark, ledger):
    from rook_core.rl import VectorEnv
    env = VectorEnv("tournament", BATCH)
    spent = [0.0]

    def run() -> None:
        spent[0] = _vector_steps([env], VSTEPS)
    benchmark.pedantic(run, rounds=3, iterations=1)
    rate = BATCH * VSTEPS / spent[0]
    aec_s, aec_steps = _aec_learner_steps(40)
    aec_rate = aec_steps / aec_s
    ledger.target(f"batched environment, tournament, batch {BATCH}, one core, random learner actions: "
                  f"{rate / 1e6:.2f} M table-steps/s in step() (target >= 2 M: "
                  f"{'MET' if rate >= TARGET_STEPS_S else 'NOT MET'}); the PettingZoo environment on the same "
                  f"work: {aec_rate / 1e3:.1f} k learner steps/s: {rate / aec_rate:.0f}x (target >= 50x)")


@pytest.mark.benchmark(group="rl-batched")
def test_batched_environment_two_threads(benchmark, ledger):
    import threading
    import time

    from rook_core.rl import VectorEnv
    envs = [VectorEnv("tournament", BATCH), VectorEnv("tournament", BATCH)]

    def both() -> float:
        t0 = time.perf_counter()
        th = [threading.Thread(target=_vector_steps, args=([e], VSTEPS)) for e in envs]
        for t in th:
            t.start()
        for t in th:
            t.join()
        return time.perf_counter() - t0

    def one() -> float:
        t0 = time.perf_counter()
        _vector_steps(envs, VSTEPS)
        return time.perf_counter() - t0
    ratios = []
    benchmark.pedantic(lambda: ratios.append(one() / both()), rounds=3, iterations=1)
    ledger.target(f"batched environment, two threads against one on the same two batches (whole loop, the "
                  f"Python action picking included): median {statistics.median(ratios):.2f}x (target >= 1.8x)")
