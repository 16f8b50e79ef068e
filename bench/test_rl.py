"""Group rl-step: one ``step`` + ``observe`` of the PettingZoo AEC environment
(``rook_core.rl.aec_env``, ``tournament``), in microseconds.

The same recorded hands are replayed both ways, actions chosen up front (a
random legal action each turn, seeded), so the two sides do the same work:

* ``aec``: ``env.step(a)`` and then ``env.last()`` (the next agent's
  observation: the tensor and the mask), one hand after another, each
  episode started by ``reset`` (not timed separately: it is part of the loop);
* baseline ``state``: ``HandState.apply(a)`` and ``observe(seat)`` on the
  engine's state with no tensor, the floor under any Python environment.

Target: step + observe <= 5 us (printed, never asserted).
"""

from __future__ import annotations

import numpy as np
import pytest

from rook_core import HandState
from rook_core.rl import aec_env

HANDS = 20
TARGET_US = 5.0


def _recorded() -> list[tuple[int, list[int]]]:
    """(reset seed, actions) of HANDS random hands, as the environment deals them."""
    env = aec_env("tournament")
    rng = np.random.default_rng(7)
    out = []
    for k in range(HANDS):
        env.reset(seed=k)
        acts = []
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            acts.append(a)
            env.step(a)
        out.append((k, acts))
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
    ratio = ledger.pair("AEC step + observe vs the engine's apply + observe (the floor)", "rl/aec", "rl/state",
                        benchmark)
    if m is not None:
        us = m.per_item * 1e6
        ledger.target(f"PettingZoo AEC step + observe (tournament): median {us:.1f} us; target <= {TARGET_US:.0f} us: "
                      f"{'MET' if us <= TARGET_US else 'NOT MET'}"
                      + (f"; the engine's apply + observe alone takes {ratio:.2f}x of it" if ratio else ""))
