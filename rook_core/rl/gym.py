"""A Gymnasium environment: one seat learns, rook_core bots play the other three.

:class:`RookGymEnv` is registered as ``rook_core/<Preset>-v0`` for every
trick-taking preset (:data:`GYM_IDS`: ``rook_core/Tournament-v0``,
``rook_core/Partnership57-v0``, ...) when :mod:`rook_core.rl` is imported;
``gymnasium.make(id, seat=..., opponents=...)`` passes its options.

Observations are the tensor of :mod:`rook_core.rl.encoding` (a ``Box``),
actions the ids of :mod:`rook_core.actions` up to the highest bid (a
``Discrete``); ``info["action_mask"]`` marks the legal ones.  Each
``step`` plays the learner's action, then the bots' turns until the
learner is to move again or the episode ends.  Episodes and rewards are
those of :mod:`rook_core.rl.aec`: a hand and the learner's team's score less
the other's (``rewards="hand"``), or a game and +1/-1 (``rewards="game"``,
truncated after ``max_hands`` hands).

``opponents`` is one spec for all three other seats or a list of three (in
seat order, skipping the learner's): a kind of
:func:`~rook_core.bots.agents.make_agent` (``"random"``, ``"heuristic"``,
``"pimc"``, ...), a :class:`~rook_core.bots.outside.BotFactory`
(``configured_bot("pimc", worlds=8)``, ``python_bot(f)``), or a plain
function ``f(observation) -> action``.  Bots are built afresh for each
episode with seeds drawn from the environment's generator, so
``reset(seed=n)`` reproduces the episodes that follow.

An action outside the rules: with ``illegal_action="lose"`` (the default,
for learners that do not read the mask) nothing is played, the episode ends,
the reward is ``illegal_reward`` and ``info["illegal_action"]`` names the
action; with ``"raise"`` it raises
:class:`~rook_core.errors.IllegalActionError` and nothing changes.  Something
that is not an action id (None, a float, a text, an array of several) raises
:class:`~rook_core.errors.IllegalActionError` under either, and nothing changes.
An opponent that fails (its bot raises, or the rules refuse its action) ends
the episode with a :class:`~rook_core.errors.RookError` naming its seat.

``reset(seed=n, options=None)``: ``options`` must be None or ``{}``; a dict
with any key, or anything that is not a dict, is refused with a
:class:`~rook_core.errors.RookError` naming it, and the environment is then
as it was.

>>> import gymnasium, rook_core.rl
>>> env = gymnasium.make("rook_core/Tournament-v0", opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].dtype.name
((1056,), 'int8')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots.agents import Agent, act_for, make_agent
from ..bots.outside import BotFactory, python_bot
from ..errors import IllegalActionError, RookError
from ..game import Game
from ..hand import HandState
from ..variant import PRESETS, Variant, as_variant
from .aec import (
    MAX_HANDS,
    RENDER_MODES,
    EpisodeView,
    action_id,
    check_max_hands,
    check_number,
    check_options,
    check_reset_options,
    check_rewards,
    check_seat,
    check_seed,
    deal_for,
    truncated,
)
from .encoding import OBS_SIZE, action_count, encode_state, obs_bounds, state_mask

__all__ = ["GYM_IDS", "RookGymEnv", "gym_id", "register_gym_ids"]

OpponentSpec = str | BotFactory | Callable[..., Any]


def gym_id(preset: str) -> str:
    """The Gymnasium id of a preset: ``partnership-57`` -> ``rook_core/Partnership57-v0``."""
    return "rook_core/" + "".join(part.capitalize() for part in preset.split("-")) + "-v0"


#: preset name -> its Gymnasium id
GYM_IDS: dict[str, str] = {name: gym_id(name) for name in PRESETS}


def register_gym_ids() -> None:
    """Register :data:`GYM_IDS` with Gymnasium (again: no harm)."""
    for name, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="rook_core.rl.gym:RookGymEnv", kwargs={"variant": name})


def _factory(spec: OpponentSpec, variant: Variant) -> Callable[[int], Agent]:
    """The maker of one opponent seat's agent from its seed (a partial, so
    that the environment pickles whenever its opponents do)."""
    if isinstance(spec, str):
        make_agent(spec, variant, 0)          # an unknown kind fails now, by name
        return partial(make_agent, spec, variant)
    if isinstance(spec, BotFactory):
        return partial(spec.agent, variant)
    if callable(spec):
        return partial(python_bot(spec).agent, variant)
    raise RookError(f"an opponent is a kind name, a BotFactory or a function, not {spec!r}")


class RookGymEnv(EpisodeView, gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One learning seat against three bots (see the module docstring).

    :param variant: a trick-taking preset name or a :class:`Variant`.
    :param seat: the learner's seat, 0..3.
    :param opponents: one spec, or three in seat order (module docstring).
    :param rewards: ``"hand"`` or ``"game"``.
    :param reward_scale: multiplies the hand rewards.
    :param max_hands: the hands after which a game episode is truncated (reward 0).
    :param illegal_action: ``"lose"`` or ``"raise"``.
    :param illegal_reward: the reward of an illegal action under ``"lose"``
        (default: minus twice the deck's points, worse than any hand).
    :param render_mode: ``"ansi"``, ``"human"`` or None.
    :raises RookError: for a bad option; VariantError for an unknown preset.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, variant: Variant | str = "tournament", *, seat: int = 0,
                 opponents: OpponentSpec | Sequence[OpponentSpec] = "heuristic", rewards: str = "hand",
                 reward_scale: float = 1.0, max_hands: int = MAX_HANDS, illegal_action: str = "lose",
                 illegal_reward: float | None = None, render_mode: str | None = None) -> None:
        self.variant = as_variant(variant)
        self.seat = check_seat(seat)
        self.rewards_kind = check_rewards(rewards)
        self.max_hands = check_max_hands(max_hands)
        if illegal_action not in ("lose", "raise"):
            raise RookError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.reward_scale, self.render_mode = check_options(reward_scale, render_mode)
        self.illegal_reward = (-2.0 * self.variant.total_points if illegal_reward is None
                               else check_number(illegal_reward, "illegal_reward"))
        specs: list[OpponentSpec] = (list(opponents) if isinstance(opponents, (list, tuple))
                                     else [cast(OpponentSpec, opponents)] * 3)
        if len(specs) != 3:
            raise RookError(f"opponents: one spec or three (the other seats in order), not {len(specs)}")
        self._makers = [_factory(s, self.variant) for s in specs]
        self.n_actions = action_count(self.variant)
        low, high = obs_bounds()
        self.observation_space = spaces.Box(low, high, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(self.n_actions)
        self._rng = random.Random()
        self._episode: HandState | Game | None = None
        self._bots: dict[int, Agent] = {}

    # ----------------------------------------------------------------- state
    def _observe(self, **extra: Any) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        ep = self._need_episode()
        h = self.hand
        scores = ep.totals if isinstance(ep, Game) else None
        return encode_state(h, self.seat, scores), {"action_mask": state_mask(h, self.seat, self.n_actions), **extra}

    def _bots_play(self) -> None:
        """The other seats' turns, until the learner is to move or the episode is over.

        :raises RookError: when an opponent fails (its bot raises, or the rules
            refuse its action); the episode is then over, as the learner could
            not move again in it.
        """
        ep = self._need_episode()
        while not self._over() and not truncated(ep, self.max_hands) and ep.to_move != self.seat:
            s = ep.to_move
            assert s is not None
            try:
                ep.apply(act_for(self._bots[s], self.hand, s))
            except Exception as e:
                self._episode = None
                raise RookError(f"the opponent at seat {s} failed, so the episode is over (call reset()): "
                                f"{type(e).__name__}: {e}") from e

    # --------------------------------------------------------------- episode
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        """Start an episode; ``seed`` (an int) seeds it and those that follow.
        ``options`` must be None or ``{}``: the environment takes no reset
        options (:func:`~rook_core.rl.aec.check_reset_options`).

        :raises RookError: for a bad seed or options; nothing changes then.
        """
        seed = check_seed(seed)
        check_reset_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._episode = deal_for(self.variant, self._rng, self.rewards_kind)
        others = [s for s in range(4) if s != self.seat]
        self._bots = {s: make(self._rng.getrandbits(63)) for s, make in zip(others, self._makers)}
        self._bots_play()
        return self._observe()

    def step(self, action: Any) -> tuple[npt.NDArray[Any], float, bool, bool, dict[str, Any]]:
        ep = self._need_episode()
        if self._over() or truncated(ep, self.max_hands):
            raise RookError("the episode is over: call reset()")
        a = action_id(action, "the learner")     # (not an action id at all: refused, whatever illegal_action says)
        try:
            ep.apply(a, self.seat)
        except IllegalActionError as e:
            if self.illegal_action == "raise":
                raise
            obs, info = self._observe(illegal_action=str(e))
            self._episode = None
            return obs, self.illegal_reward, True, False, info
        self._bots_play()
        done = self._over()
        obs, info = self._observe()
        reward = self._team_rewards()[self.seat & 1] if done else 0.0
        return obs, reward, done, not done and truncated(ep, self.max_hands), info
