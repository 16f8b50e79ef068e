"""Card play by double-dummy search: the PIMC player and the cheating ``dd`` player.

:class:`PIMCAgent` (perfect-information Monte Carlo) plays a card this way:
draw ``worlds`` deals of the cards it has not seen that agree with what it
has seen (:mod:`rook_core.bots.worlds`), solve each one double dummy
(:func:`rook_core.solver.solve_many`: the value of every legal card), and
play the card with the best mean value for its team.  Cards of equal mean
are split by the cheapest card (fewest points, then lowest).  Bidding, the
nest and trump are left to :class:`~rook_core.bots.heuristic.HeuristicAgent`.

Each world's search is bounded by a node budget (default 300,000 nodes,
a few tenths of a second) or a time budget; a world whose search runs out
of budget before every card has a value is left out of the mean, and when
no world is complete the heuristic plays the card.  Early in a
``partnership-57`` hand (14 tricks) no world finishes within such a budget,
so the first tricks are played by the heuristic.  The worlds
drawn depend only on the agent's seed and the observations it has seen.

:class:`DDAgent` sees every card (``sees_all``): it plays a best card of the
true deal.  It is an upper bound for analysis, not a fair player.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import RookError
from ..solver import BudgetExceeded, Solver, SolveResult, solve_many
from ..variant import Variant
from .heuristic import HeuristicAgent
from .knowledge import Knowledge
from .worlds import world_positions

if TYPE_CHECKING:
    from ..hand import HandState

__all__ = ["PIMCAgent", "DDAgent", "card_means"]


def card_means(results: Sequence[SolveResult | int | RookError], legal: list[int]) -> tuple[dict[int, float], int]:
    """Return each legal card's mean value for team 0 over the complete
    results of :func:`~rook_core.solver.solve_many` (a :class:`SolveResult`,
    or a :class:`BudgetExceeded` that kept them, with a value for every legal
    card), and how many results were complete."""
    sums = {c: 0.0 for c in legal}
    used = 0
    for r in results:
        if isinstance(r, BudgetExceeded):
            found = r.move_values or {}
        elif isinstance(r, SolveResult):
            found = r.move_values
        else:
            continue
        values: dict[int, int] = {int(c): v for c, v in found.items()}
        if any(c not in values for c in legal):
            continue
        used += 1
        for c in legal:
            sums[c] += values[c]
    return ({c: s / used for c, s in sums.items()} if used else {}), used


def _choose(means: dict[int, float], team: int, variant: Variant) -> int:
    sign = 1.0 if team == 0 else -1.0
    pts = variant.points_table
    st = variant.strength_table
    return max(means, key=lambda c: (round(sign * means[c], 9), -pts[c], -st[c], -c))


class PIMCAgent:
    """Perfect-information Monte Carlo card play (see the module docstring).

    :param worlds: deals sampled per card decision.
    :param node_budget: nodes per world's search (0: no limit).
    :param time_budget: seconds per world's search (0: no limit).
    :param workers: threads solving the worlds (1 inside a simulator
        worker; None: every core).
    :raises RookError: for a bad parameter.
    """

    name = "pimc"

    def __init__(self, variant: Variant, seed: int = 0, worlds: int = 16, node_budget: int = 300_000,
                 time_budget: float = 0.0, workers: int | None = 1, tt_bytes: int = 8 << 20) -> None:
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise RookError(f"worlds must be a positive int, not {worlds!r}")
        if node_budget < 0 or time_budget < 0:
            raise RookError("budgets must not be negative")
        self.variant = variant
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.node_budget = node_budget
        self.time_budget = time_budget
        self.workers = workers
        self.tt_bytes = tt_bytes
        self.fallback = HeuristicAgent(variant, seed)
        self.last_used = 0        # complete worlds behind the last card decision

    def act(self, observation: Mapping[str, Any]) -> int:
        """Return the action for ``observation``."""
        legal = [int(a) for a in observation["legal_actions"]]
        if observation["phase"] != "play" or len(legal) == 1:
            return self.fallback.act(observation)
        k = Knowledge.from_observation(observation, self.variant)
        positions = world_positions(observation, self.worlds, self.rng, k)
        results = solve_many(positions, workers=self.workers, tt_bytes=self.tt_bytes,
                             node_budget=self.node_budget, time_budget=self.time_budget)
        means, self.last_used = card_means(results, legal)
        if not means:
            return self.fallback.act(observation)
        return _choose(means, k.team, self.variant)


class DDAgent:
    """Play a best card of the true deal (double dummy); bid, discard and
    name trump like :class:`~rook_core.bots.heuristic.HeuristicAgent`.

    It sees every card: call :meth:`act_with_state`.  The search is bounded
    by ``node_budget`` (default 5,000,000 nodes; 0: none); past it the
    agent plays the best of the cards whose values were proven, or the
    heuristic's card when none was.
    """

    name = "dd"
    sees_all = True

    def __init__(self, variant: Variant, seed: int = 0, node_budget: int = 5_000_000,
                 tt_bytes: int = 8 << 20) -> None:
        if node_budget < 0:
            raise RookError("node_budget must not be negative")
        self.variant = variant
        self.fallback = HeuristicAgent(variant, seed)
        self.solver = Solver(tt_bytes, node_budget)

    def act(self, observation: Mapping[str, Any]) -> int:
        raise RookError("the dd agent sees every card: call act_with_state(state)")

    def act_with_state(self, state: HandState) -> int:
        """Return the action of the seat to move in ``state`` (a ``HandState``)."""
        seat = state.seat_to_move()
        obs = state.observe(seat)
        legal = obs["legal_actions"]
        if obs["phase"] != "play" or len(legal) == 1:
            return self.fallback.act(obs)
        self.solver.clear()
        try:
            values = self.solver.solve(state).move_values
        except BudgetExceeded as e:
            values = e.move_values or {}
        if not values:
            return self.fallback.act(obs)
        return _choose({int(c): float(v) for c, v in values.items()}, seat & 1, self.variant)
