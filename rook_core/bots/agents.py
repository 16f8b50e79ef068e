"""Players that choose actions for one seat, and the registry of their kinds.

Every agent answers ``act(observation) -> action``, where ``observation``
is ``HandState.observe(seat)`` (T-15): the seat's own cards and what is
public, never another seat's unplayed cards, as a typed
:class:`~rook_core.observation.Observation` that also reads as its JSON
form (so an agent may be handed ``HandState.observation(seat)`` too).  Actions are the integers of
:mod:`rook_core.actions`.  An agent is built from the variant and a seed
and is deterministic given them, so a game between agents depends only on
the seeds.

Kinds (``make_agent(kind, variant, seed, **options)``):

* ``random`` (:class:`RandomAgent`): uniform over the legal actions.
* ``heuristic`` (:class:`~rook_core.bots.heuristic.HeuristicAgent`): a
  rule-of-thumb player for every phase.
* ``pimc`` (:class:`~rook_core.bots.pimc.PIMCAgent`): plays cards by sampling the
  hidden cards and solving each sample double dummy; bids, discards and
  names trump like ``heuristic``.
* ``modelbid`` (:class:`~rook_core.bots.bidding.ModelBidder`): plays like
  ``heuristic`` but bids from a double-dummy evaluator fitted by simulation
  (the presets with a model in ``bots/bid_models.json``).
* ``dd`` (:class:`~rook_core.bots.pimc.DDAgent`): the cheating upper bound.  It is
  the one kind that sees every card: its ``sees_all`` is true, and callers
  hand it the whole state through ``act_with_state(state)``.

With uniform bids random declarers overbid and get set, and a game between
random agents may never reach its target; ``rook play`` and the simulator
cap the number of hands for that reason.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import RookError
from ..rng import M64, NativeStream, check_agent_seed
from ..variant import Variant
from ._turns import TakesTurns
from .knowledge import agent_variant, read_observation

if TYPE_CHECKING:
    from ..hand import HandState

__all__ = ["Agent", "RandomAgent", "AGENTS", "agent_kinds", "make_agent", "act_for"]


class Agent(Protocol):
    """Anything that picks an action for its seat from an observation."""

    name: str

    def act(self, observation: Mapping[str, Any]) -> int: ...


class RandomAgent(TakesTurns):
    """Choose uniformly among the legal actions.

    It draws from :class:`~rook_core.rng.NativeStream` seeded by ``seed``:
    the ``k``-th legal action (ascending) with ``k`` a bounded draw, exactly
    as the native hand loop's random policy (``src/rook/sim.c``), so a
    simulation of random agents gives the same hands on both paths.

    A copy (``copy.copy``, ``copy.deepcopy``, ``pickle``) has a stream of
    its own in the same state: it goes on drawing what the original would
    draw, and neither's draws move the other's.  Threads that share one
    agent take turns with it, in an order of their own, so each thread
    needs its own agent (or copy) for draws that repeat from the seed.
    """

    name = "random"
    _own = ("stream",)

    def __init__(self, variant: Variant, seed: int = 0) -> None:
        self.variant = agent_variant(variant)
        self.stream = NativeStream(check_agent_seed(seed) & M64)
        self._start_turns()

    def act(self, observation: Mapping[str, Any]) -> int:
        legal = read_observation(observation, self.variant).legal_actions or ()
        with self._turn:
            return legal[self.stream.below(len(legal))]


def _heuristic(variant: Variant, seed: int, **options: Any) -> Agent:
    from .heuristic import HeuristicAgent
    return HeuristicAgent(variant, seed, **options)


def _pimc(variant: Variant, seed: int, **options: Any) -> Agent:
    from .pimc import PIMCAgent
    return PIMCAgent(variant, seed, **options)


def _dd(variant: Variant, seed: int, **options: Any) -> Agent:
    from .pimc import DDAgent
    return DDAgent(variant, seed, **options)


def _modelbid(variant: Variant, seed: int, **options: Any) -> Agent:
    from .bidding import ModelBidder
    return ModelBidder(variant, seed, **options)


def _random(variant: Variant, seed: int, **options: Any) -> Agent:
    if options:
        raise RookError(f"agent 'random' takes no options, got {sorted(options)}")
    return RandomAgent(variant, seed)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": _random, "heuristic": _heuristic, "pimc": _pimc, "dd": _dd, "modelbid": _modelbid,
}


def agent_kinds() -> list[str]:
    """Return the names of the agent kinds."""
    return list(AGENTS)


def make_agent(kind: str, variant: Variant | str, seed: int = 0, **options: Any) -> Agent:
    """Return a new agent of ``kind`` (see the module docstring) for
    ``variant`` (a :class:`Variant` or a preset name).

    :raises RookError: naming the known kinds, or a bad option or seed.
    :raises VariantError: for an unknown preset.
    """
    variant = agent_variant(variant)
    try:
        factory = AGENTS[kind]
    except (KeyError, TypeError):
        raise RookError(f"unknown agent {kind!r}; known: {', '.join(AGENTS)}") from None
    try:
        return factory(variant, seed, **options)
    except TypeError as e:
        raise RookError(f"bad options for agent {kind!r}: {e}") from None


def act_for(agent: Agent, state: HandState, seat: int) -> int:
    """Return ``agent``'s action for ``seat`` in ``state`` (a ``HandState``):
    from the seat's observation, or, for an agent with ``act_with_state``
    (``dd``, which sees every card, and native policies, which read the
    seat's native view), from the state.

    :raises RookError: when ``seat`` is not the seat to move (or the hand is over)."""
    if seat != state.seat_to_move():
        raise RookError(f"seat {reprlib.repr(seat)} is not to move: seat {state.seat_to_move()} is")
    with_state = getattr(agent, "act_with_state", None)
    if with_state is not None:
        return int(with_state(state))
    return int(agent.act(state.observe(seat)))
