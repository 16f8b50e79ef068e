"""A PettingZoo AEC environment: four learners take turns at one table.

:func:`aec_env` returns a :class:`RookAECEnv` for any trick-taking preset
(or :class:`~rook_core.variant.Variant`).  The agents are ``player_0`` ..
``player_3`` (seats 0..3; 0 and 2 are team 0).  Each turn the agent of the
seat to move acts in every phase -- bid, nest, trump, pass, play -- with
an action id of :mod:`rook_core.actions`.  Its observation is a dict:
``"observation"``, the tensor of :mod:`rook_core.rl.encoding`, and
``"action_mask"``, 1 at its legal actions.  An action the rules refuse
raises :class:`~rook_core.errors.IllegalActionError` and changes nothing.

Episodes and rewards (``rewards=``):

- ``"hand"`` (the default): an episode is one hand; when it ends each agent
  gets its team's hand score less the other team's (T-30 .. T-32), times
  ``reward_scale``.  A hand thrown in (T-6) ends with 0 for all.
- ``"game"``: an episode is a game to the target (T-33, T-34); each agent gets
  +1 if its team won and -1 if not, at the end.  A game still going after
  ``max_hands`` hands (40; random players may never reach the target) is
  truncated with 0 for all.

``reset(seed=n)`` makes the episodes that follow reproducible: each draws its
deal seed and dealer from a generator seeded with ``n``.  ``reset`` takes no
options (everything else is set when the environment is made):
``options=None`` or ``{}`` is accepted; anything that is not a dict is
refused with a :class:`~rook_core.errors.RookError` naming its type, and
the environment is then as it was; a dict with keys resets as without them
and warns (``UserWarning``) naming the keys ignored, since PettingZoo's
``api_test`` calls ``reset(seed=0, options={"options": 1})`` and an AEC
environment must take it (:func:`check_reset_options`).

>>> env = aec_env("tournament")
>>> env.reset(seed=1)
>>> agent = env.agent_selection
>>> obs, reward, done, _, _ = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, done
((1056,), True, False)
"""

from __future__ import annotations

import math
import random
import reprlib
import warnings
from numbers import Real
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from ..actions import Phase
from ..errors import IllegalActionError, RookError, as_int, int_arg
from ..game import Game
from ..hand import HandState
from ..rng import M64
from ..rng import check_seed as check_any_seed
from ..variant import Variant, as_variant
from .encoding import OBS_SIZE, action_count, encode_state, obs_bounds, state_mask

__all__ = ["EpisodeView", "MAX_HANDS", "RENDER_MODES", "RookAECEnv", "action_id", "aec_env", "check_int",
           "check_max_hands", "check_number", "check_options", "check_reset_options", "check_rewards", "check_seat",
           "check_seed", "deal_for", "play_random", "truncated"]

REWARDS = ("hand", "game")
RENDER_MODES = ("human", "ansi")
MAX_HANDS = 40


def check_int(x: object, what: str, low: int, high: int | None = None) -> int:
    """Return ``x`` as an int when it is an integer (Python or NumPy) in
    ``low .. high`` (no upper limit when ``high`` is None).

    :raises RookError: for anything else, naming ``what``.
    """
    want = f"an int {low}..{high}" if high is not None else f"an int >= {low}"
    return int_arg(x, f"{what} must be {want}", low, high)


def check_seat(seat: object) -> int:
    """Return ``seat`` as an int when it is a seat 0..3.

    :raises RookError: for anything else.
    """
    return check_int(seat, "seat", 0, 3)


def check_max_hands(n: object) -> int:
    """Return ``n`` when it is a positive int.

    :raises RookError: for anything else.
    """
    return check_int(n, "max_hands", 1)


def check_number(x: object, what: str, positive: bool = False, top: float = math.inf) -> float:
    """Return ``x`` as a float when it is a finite real number (positive
    when asked, at most ``top``; Python or NumPy, not a bool).

    :raises RookError: for anything else, naming ``what``.
    """
    value = float(x) if isinstance(x, Real) and not isinstance(x, (bool, np.bool_)) else math.nan
    if not math.isfinite(value) or positive and not value > 0 or value > top:
        limit = f" at most {top:g}" if math.isfinite(top) else ""
        raise RookError(f"{what} must be a finite {'positive ' if positive else ''}number{limit}, not {x!r}")
    return value


# A reward is a hand's score difference (tens of thousands of points at most)
# times the scale, kept as a float32: a scale up to this keeps it finite.
MAX_REWARD_SCALE = 1e30


def check_seed(seed: object) -> int | None:
    """Return a ``reset`` seed as an int >= 0 (or None: no new seed); a
    negative one becomes its 64-bit two's complement, as in
    :class:`~rook_core.rl.vector.VectorEnv` (so -3 and 3 deal differently).

    :raises RookError: for anything but None or an integer (Python or NumPy)
        from -2**63 to 2**64-1.
    """
    if seed is None:
        return None
    n = as_int(seed)
    if n is None:
        raise RookError(f"seed must be an int or None, not {seed!r}")
    if n < -(1 << 63):    # (its two's complement would wrap onto the seed of another run)
        raise RookError(f"seed must be an int from -2**63 to 2**64-1 or None, not {seed!r}")
    # then the project's one rule of seeds (0 .. 2**64-1): a seed past it is refused here, by name
    return check_any_seed(n if n >= 0 else n & M64, "seed")


def truncated(episode: HandState | Game, max_hands: int) -> bool:
    """Whether a game episode has run past ``max_hands`` hands without ending."""
    return isinstance(episode, Game) and not episode.is_over and episode.hand_number > max_hands


def check_rewards(rewards: object) -> str:
    """Return ``rewards`` when it is ``"hand"`` or ``"game"``.

    :raises RookError: for anything else.
    """
    if rewards not in REWARDS:
        raise RookError(f"rewards must be 'hand' or 'game', not {rewards!r}")
    return str(rewards)


def deal_for(variant: Variant, rng: random.Random, rewards: str) -> HandState | Game:
    """Start an episode: a hand (or, for ``rewards="game"``, a game) whose
    seed and first dealer come from ``rng``."""
    seed, dealer = rng.getrandbits(63), rng.randrange(4)
    if rewards == "game":
        return Game(variant, seed=seed, first_dealer=dealer)
    return HandState.deal(variant, seed, dealer=dealer)


def action_id(action: Any, who: str) -> int:
    """Return ``action`` as an int action id: an integer (Python or NumPy), or
    a 0-d integer array (what ``Discrete.contains`` takes too).

    :raises IllegalActionError: for None, a bool or anything not an integer.
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    n = as_int(action)
    if n is None:
        raise IllegalActionError(f"{who} must act with an action id (an int), not {action!r}")
    return n


def check_options(reward_scale: object, render_mode: object) -> tuple[float, str | None]:
    """Return ``reward_scale`` (a positive number) and ``render_mode`` (one
    of :data:`RENDER_MODES` or None).

    :raises RookError: for anything else.
    """
    scale = check_number(reward_scale, "reward_scale", positive=True, top=MAX_REWARD_SCALE)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RookError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
    return scale, None if render_mode is None else str(render_mode)


def check_reset_options(options: object, keys: str = "refuse") -> None:
    """Refuse the ``options`` of an environment's ``reset`` unless they are
    None or an empty dict: the environments take no reset options (the
    episodes come from ``seed``, everything else from the options the
    environment was made with).  ``keys="warn"``: a dict with keys gives a
    ``UserWarning`` naming them instead (the AEC environment's, for
    PettingZoo's ``api_test``).

    :raises RookError: for a dict with keys (under ``keys="refuse"``),
        naming them, or for anything that is not a dict, naming its type.
    """
    if options is None:
        return
    if not isinstance(options, dict):
        raise RookError(f"reset options must be a dict or None, not {type(options).__name__} "
                        f"{reprlib.repr(options)}")
    if options:
        names = ", ".join(reprlib.repr(k) for k in list(options)[:8]) + (", ..." if len(options) > 8 else "")
        why = (f"reset takes no options, only options=None or {{}}: unknown option(s) {names} (seed= sets the "
               f"episodes; rewards, max_hands and the rest are set when the environment is made)")
        if keys != "warn":
            raise RookError(why)
        warnings.warn(why + "; they are ignored", UserWarning, stacklevel=3)


class EpisodeView:
    """What the environments share: the episode being played and its text."""

    _episode: HandState | Game | None
    render_mode: str | None
    reward_scale: float

    @property
    def hand(self) -> HandState:
        """The hand being played (the last one of a game)."""
        ep = self._need_episode()
        return ep.current if isinstance(ep, Game) else ep

    def _need_episode(self) -> HandState | Game:
        if self._episode is None:
            raise RookError("call reset() before using the environment")
        return self._episode

    def _over(self) -> bool:
        """Whether the episode has ended: the game won, or the hand played or thrown in (T-6, T-14, T-34)."""
        ep = self._need_episode()
        return ep.is_over if isinstance(ep, Game) else ep.to_move is None

    def _team_rewards(self) -> tuple[float, float]:
        """Team 0's and team 1's reward for the episode that just ended: +1/-1
        for a game, each team's hand score less the other's for a hand (T-30 ..
        T-32; 0 for a hand thrown in, T-6), times ``reward_scale``."""
        ep = self._need_episode()
        if isinstance(ep, Game):
            return (1.0, -1.0) if ep.winner == 0 else (-1.0, 1.0)
        s = ep.score if ep.phase == Phase.DONE else (0, 0)
        return ((s[0] - s[1]) * self.reward_scale, (s[1] - s[0]) * self.reward_scale)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), printed (``"human"``), or None."""
        if self.render_mode is None:
            return None
        text = str(self._need_episode())
        if self.render_mode == "human":
            print(text)
            return None
        return text


class RookAECEnv(EpisodeView, AECEnv):  # type: ignore[misc]
    """The AEC environment of one variant (see the module docstring).

    :param variant: a trick-taking preset name or a :class:`Variant`.
    :param rewards: ``"hand"`` or ``"game"``.
    :param reward_scale: multiplies the hand rewards (``rewards="hand"``).
    :param max_hands: the hands after which a game episode is truncated.
    :param render_mode: ``"ansi"`` (``render()`` returns the table as text),
        ``"human"`` (prints it) or None.
    :raises RookError: for a bad option; VariantError for an unknown preset.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "rook_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(self, variant: Variant | str = "tournament", *, rewards: str = "hand", reward_scale: float = 1.0,
                 max_hands: int = MAX_HANDS, render_mode: str | None = None) -> None:
        super().__init__()
        self.variant = as_variant(variant)
        self.rewards_kind = check_rewards(rewards)
        self.max_hands = check_max_hands(max_hands)
        self.reward_scale, self.render_mode = check_options(reward_scale, render_mode)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.n_actions = action_count(self.variant)
        low, high = obs_bounds()
        self._obs_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8)}) for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self._episode: HandState | Game | None = None

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            raise RookError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None

    # ----------------------------------------------------------------- state
    def _game_scores(self) -> tuple[int, int] | None:
        return self._episode.totals if isinstance(self._episode, Game) else None

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seat(agent)
        h = self.hand
        return {"observation": encode_state(h, seat, self._game_scores()),
                "action_mask": state_mask(h, seat, self.n_actions)}

    def _to_move(self) -> int | None:
        ep = self._need_episode()
        return ep.to_move

    # --------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` (an int) seeds it and those that follow.
        ``options`` must be None or a dict, and keys in it are ignored with a
        ``UserWarning`` naming them (:func:`check_reset_options`).

        :raises RookError: for a bad seed or options that are not a dict;
            nothing changes then.
        """
        seed = check_seed(seed)
        check_reset_options(options, keys="warn")
        if seed is not None:
            self._rng = random.Random(seed)
        self._episode = deal_for(self.variant, self._rng, self.rewards_kind)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self._to_move()
        self.agent_selection = self.possible_agents[0 if seat is None else seat]

    def _need_agents(self) -> None:
        """Refuse a call before :meth:`reset` or after every agent has left the ended episode."""
        self._need_episode()
        if not self.agents:
            raise RookError("the episode is over: call reset()")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._need_agents()
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        self._need_agents()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self._need_episode()
        ep.apply(action_id(action, agent))     # the rules' own refusal, naming its rule; nothing changes then
        self._cumulative_rewards[agent] = 0.0
        seat = ep.to_move
        if seat is None or isinstance(ep, Game) and (ep.current.to_move is None or truncated(ep, self.max_hands)):
            self._end_or_truncate(ep)
        else:
            self.agent_selection = self.possible_agents[seat]

    def _end_or_truncate(self, ep: HandState | Game) -> None:
        """After an action that may have ended the episode: pay, or truncate a long game."""
        self.rewards = {x: 0.0 for x in self.agents}
        if self._over():
            self._finish()
        elif truncated(ep, self.max_hands):
            self.truncations = {x: True for x in self.agents}
        else:
            seat = ep.to_move
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()

    def _finish(self) -> None:
        team_reward = self._team_rewards()
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = team_reward[i & 1]
            self.terminations[a] = True

    def close(self) -> None:
        self._episode = None


def play_random(env: RookAECEnv, rng: np.random.Generator) -> list[int]:
    """Play the environment's episode under way to its end, every agent a
    uniform choice among its legal actions drawn from ``rng``; return the
    actions played (to replay them, or to time the environment)."""
    actions = []
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        env.step(a)
    return actions


def aec_env(preset: Variant | str = "tournament", **options: Any) -> RookAECEnv:
    """Return the PettingZoo AEC environment of ``preset`` (see the module docstring).

    :raises RookError: for a bad option; VariantError for an unknown preset.
    """
    try:
        return RookAECEnv(preset, **options)
    except TypeError as e:
        raise RookError(f"bad option for aec_env: {e}") from None
