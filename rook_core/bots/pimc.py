"""Card play by double-dummy search: the PIMC player and the cheating ``dd`` player.

:class:`PIMCAgent` (perfect-information Monte Carlo) plays a card this way:
draw ``worlds`` deals of the cards it has not seen that agree with what it
has seen (:mod:`rook_core.bots.worlds`), solve each one double dummy
(:func:`rook_core.solver.solve_many`: the value of every legal card), and
play the card that is worth most to its team on average.  By default a
card's worth in a world is what the hand then scores: each team's points at
the end of that world's best play give the scores of T-30 .. T-32 and H-1
(the engine's own scoring, ``Rules.hand_score``), and the worth is the
team's score less the other team's, so a card that makes (or sets) the bid
in more worlds wins over one that only takes more points; among cards that
score alike the points decide, and then the cheapest card (fewest points,
then lowest).  ``objective="points"`` plays for the points alone.  The
game's score (how near each team is to the target) is not weighed.  Bidding, the
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

import math
import os
import random
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..actions import TRUMP
from ..errors import RookError
from ..rng import check_agent_seed
from ..solver import BudgetExceeded, Solver, SolveResult, solve_many
from ..variant import Variant
from ._turns import TakesTurns
from .bid_signal import auction_calls, bid_weights, weighted_choice
from .declaring import NestPlan, plan_by_worlds
from .heuristic import HeuristicAgent
from .knowledge import NEST, Holder, Knowledge, agent_variant, read_observation
from .worlds import MAX_WORLDS, sample_world, world_position

if TYPE_CHECKING:
    from ..cards import Card
    from ..hand import HandState
    from ..observation import Observation
    from ..position import Position

__all__ = ["PIMCAgent", "DDAgent", "card_means"]

BID_DRAWS = 4   # with a bid signal: worlds drawn for each world kept


def _complete(results: Sequence[SolveResult | int | dict[Card, tuple[int, int]] | RookError],
              legal: list[int]) -> list[tuple[int, dict[int, int]]]:
    """Return (world index, {card: team 0's value}) for each result of
    :func:`~rook_core.solver.solve_many` with a value for every legal card
    (a :class:`SolveResult`, a :class:`BudgetExceeded` that kept them, or
    the bounds of ``what="bounds"``, each card taken at the middle of its
    bounds)."""
    out = []
    for i, r in enumerate(results):
        if isinstance(r, BudgetExceeded):
            found = r.move_values or {}
        elif isinstance(r, SolveResult):
            found = r.move_values
        elif isinstance(r, dict):
            found = {c: (lo + hi) // 2 for c, (lo, hi) in r.items()}
        else:
            continue
        values: dict[int, int] = {int(c): v for c, v in found.items()}
        if all(c in values for c in legal):
            out.append((i, values))
    return out


def card_means(results: Sequence[SolveResult | int | dict[Card, tuple[int, int]] | RookError],
               legal: list[int]) -> tuple[dict[int, float], int]:
    """Return each legal card's mean value for team 0 over the complete
    results of :func:`~rook_core.solver.solve_many` (a :class:`SolveResult`,
    or a :class:`BudgetExceeded` that kept them, with a value for every legal
    card), and how many results were complete."""
    complete = _complete(results, legal)
    return _means(complete, legal), len(complete)


def _means(complete: list[tuple[int, dict[int, int]]], legal: list[int]) -> dict[int, float]:
    """Each legal card's mean value for team 0 over the complete worlds ({} for none)."""
    if not complete:
        return {}
    return {c: sum(values[c] for _, values in complete) / len(complete) for c in legal}


def _tie_break(variant: Variant, c: int) -> tuple[int, int, int]:
    """Among cards of equal worth, the cheapest: fewest points, then weakest, then lowest id."""
    return (-variant.points_table[c], -variant.strength_table[c], -c)


def _choose(means: dict[int, float], team: int, variant: Variant) -> int:
    sign = 1.0 if team == 0 else -1.0
    return max(means, key=lambda c: (round(sign * means[c], 9),) + _tie_break(variant, c))


class PIMCAgent(TakesTurns):
    """Perfect-information Monte Carlo card play (see the module docstring).

    A copy (``copy.copy``, ``copy.deepcopy``, ``pickle``) is an agent in the
    same state with a random generator, counts (``stats``) and plan of its
    own: from the same observations it draws the same worlds and makes the
    same choices as the original would, and neither's decisions move the
    other's generator.  Threads that share one agent take turns with it,
    in an order of their own, so each thread needs its own agent (or copy)
    for play that repeats from the seed.

    :param worlds: deals sampled per card decision (1 ..
        :data:`~rook_core.bots.worlds.MAX_WORLDS`).
    :param node_budget: nodes per world's search (0: no limit).
    :param time_budget: seconds per world's search (0: no limit).
    :param tolerance: 0 (the default): each world's every card's exact
        value; ``t`` > 0 (points): each card's value only to within ``t``
        times the share of the hand's points not yet taken
        (:meth:`Solver.card_bounds <rook_core.solver.Solver.card_bounds>`),
        taken at the middle of its bounds, which costs fewer nodes.  The
        worlds' errors partly average out; docs/bots.md has what it costs
        in play.
    :param decision_time: seconds per card decision (0: none): worlds are
        solved a batch at a time (``workers`` of them) until the time is up,
        the last batch within what is left, and the card is chosen from the
        worlds solved by then (at most ``worlds``; at least one batch is
        tried).  Anytime, so the choice depends on the machine's speed: a
        simulation with it is not reproducible from its seed alone.
    :param workers: threads solving the worlds (1 inside a simulator
        worker; None: every core).
    :param objective: ``"score"`` (the default) weighs each card by what the
        hand will score in each world: the bid made or set, the moon (T-30 ..
        T-32, H-1), the team's score against the other's; cards that score
        alike are split by the points.  ``"points"`` weighs by the points alone.
    :param rollouts_above: while the seat holds more cards than this, each
        world is judged by heuristic playouts instead of solved: after each
        legal card every seat plays the rest of that world as the native
        heuristic (``HandCore.heuristic_playout``), which costs tens of
        microseconds where an early 13-card search runs out of its budget.
        0 (the default): always solve.  In ``house-180`` it has not beaten
        plain PIMC (docs/LADDER.md), so it is off by default.
    :param playout_fallback: judge by a heuristic playout only the worlds
        whose search ran out of its budget, instead of leaving them out.
    :param nest: ``"heuristic"`` (the default): the declarer buries and names
        trump as the heuristic does; ``"worlds"``: by simulation over
        ``worlds`` sampled deals, each trump with the heuristic's discards for
        it, scored with the real contract (:mod:`rook_core.bots.declaring`).
    :param nest_worlds: with ``nest="worlds"``, the deals that plan samples
        (0, the default: ``worlds``); a plan is made once a hand, so it can
        afford more worlds than a card.
    :param nest_discards: with ``nest="worlds"``, how many of the nest
        decision's best-looking discards the plan also judges for each trump,
        beside the heuristic's (0, the default: the heuristic's alone; at most
        the ways the declarer can bury its cards).
    :param nest_margin: with ``nest="worlds"``, keep the heuristic's own
        trump and discard unless the plan's best beats it by more than this
        many standard errors over the worlds (0, the default: the best mean).
    :param nest_budget: nodes per solve of that plan (one world under one
        trump and discard; 0: none); a
        world with a search cut short is left out, and with none solved the
        heuristic chooses (so in 13- and 14-card games, where a full deal
        takes seconds to solve, it mostly does).
    :param bid_signal: 0 (the default): the worlds are drawn without regard
        to the bids; ``tau`` > 0 (points): ``BID_DRAWS`` times as many are
        drawn and ``worlds`` of them kept with odds by how well they explain
        the auction (:mod:`rook_core.bots.bid_signal`), ``tau`` the points of
        shortfall that divide a world's odds by e.
    :raises RookError: for a bad parameter.
    """

    name = "pimc"
    _own = ("rng", "stats")

    def __init__(self, variant: Variant, seed: int = 0, worlds: int = 16, node_budget: int = 300_000,
                 time_budget: float = 0.0, workers: int | None = 1, tt_bytes: int = 8 << 20,
                 objective: str = "score", rollouts_above: int = 0, playout_fallback: bool = False,
                 nest: str = "heuristic", nest_budget: int = 2_000_000, decision_time: float = 0.0,
                 bid_signal: float = 0.0, nest_worlds: int = 0, nest_discards: int = 0,
                 nest_margin: float = 0.0, tolerance: int = 0) -> None:
        variant = agent_variant(variant)
        seed = check_agent_seed(seed)
        for name, n, low in (("worlds", worlds, 1), ("nest_worlds", nest_worlds, 0)):
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= MAX_WORLDS:
                raise RookError(f"{name} must be an int {low} .. {MAX_WORLDS:,}, not {n!r}")
        for name, x, top in (("time_budget", time_budget, 1e9), ("decision_time", decision_time, 1e18),
                             ("bid_signal", bid_signal, 1e18), ("nest_margin", nest_margin, 1e18)):
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < top:
                raise RookError(f"{name} must be a number >= 0 (never negative), less than {top:g}, not {x!r}")
        for name, n in (("node_budget", node_budget), ("nest_budget", nest_budget)):
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 2 ** 63:
                raise RookError(f"{name} must be an int 0 .. 2**63-1 (0: no limit), not {n!r}")
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise RookError(f"workers must be None (every core) or an int >= 1, not {workers!r}")
        if isinstance(tt_bytes, bool) or not isinstance(tt_bytes, int) or not 0 < tt_bytes <= 1 << 40:
            raise RookError(f"tt_bytes must be an int 1 .. 2**40 (bytes of the table), not {tt_bytes!r}")
        if not isinstance(playout_fallback, bool):
            raise RookError(f"playout_fallback must be True or False, not {playout_fallback!r}")
        if objective not in ("score", "points"):
            raise RookError(f"objective must be 'score' or 'points', not {objective!r}")
        if isinstance(rollouts_above, bool) or not isinstance(rollouts_above, int) or rollouts_above < 0:
            raise RookError(f"rollouts_above must be an int >= 0, not {rollouts_above!r}")
        if nest not in ("heuristic", "worlds"):
            raise RookError(f"nest must be 'heuristic' or 'worlds', not {nest!r}")
        for name, n in (("nest_discards", nest_discards), ("tolerance", tolerance)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RookError(f"{name} must be an int >= 0, not {n!r}")
        ways = math.comb(variant.hand_size + variant.nest_size, variant.nest_size)
        if nest_discards > ways:
            raise RookError(f"nest_discards must be at most {ways:,}, the ways a declarer of "
                            f"{variant.name!r} can bury its cards (T-20), not {nest_discards:,}")
        self.nest = nest
        self.tolerance = tolerance
        self.bid_signal = float(bid_signal)
        self.nest_budget = nest_budget
        self.nest_discards = nest_discards
        self.nest_worlds = nest_worlds or worlds
        self.nest_margin = float(nest_margin)
        self._plan: tuple[tuple[Any, ...], NestPlan] | None = None   # (the hand it is for, the plan)
        self.rollouts_above = rollouts_above
        self.playout_fallback = playout_fallback
        self.variant = variant
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.node_budget = node_budget
        self.time_budget = time_budget
        self.decision_time = float(decision_time)
        self.workers = workers
        self.tt_bytes = tt_bytes
        self.objective = objective
        self.fallback = HeuristicAgent(variant, seed)
        self.last_used = 0        # complete worlds behind the last card decision
        self.stats = {"decisions": 0, "worlds": 0, "solved": 0, "fallbacks": 0,   # card decisions searched
                      "rolled_out": 0, "played_out": 0}   # decisions, and worlds, judged by playouts
        self._start_turns()

    def act(self, observation: Mapping[str, Any]) -> int:
        """Return the action for ``observation``."""
        observation = read_observation(observation, self.variant)
        with self._turn:       # the decision's clock (decision_time) counts the sampling too, not the wait
            return self._act(observation, time.perf_counter())

    def _act(self, observation: Observation, started: float) -> int:
        legal = list(observation.legal_actions or ())
        if self.nest == "worlds" and observation["phase"] in ("nest", "trump") and len(legal) > 1:
            planned = self._planned(observation, legal)
            if planned is not None:
                return planned
        if observation["phase"] != "play" or len(legal) == 1:
            return self.fallback.act(observation)
        k = Knowledge.from_observation(observation, self.variant)
        calls = auction_calls(k, observation["bids"], int(observation["dealer"])) if self.bid_signal else []
        if calls:
            drawn = [sample_world(k, self.rng) for _ in range(self.worlds * BID_DRAWS)]
            weights = bid_weights(k, calls, drawn, self.bid_signal, self.fallback)
            worlds = weighted_choice(drawn, weights, self.worlds, self.rng)
        else:
            worlds = [sample_world(k, self.rng) for _ in range(self.worlds)]
        positions = [world_position(k, observation, w) for w in worlds]
        if self.rollouts_above and k.hand.bit_count() > self.rollouts_above:
            complete = self._rollouts(k, positions, observation, legal)
            self.stats["rolled_out"] += 1
        else:
            results = self._solve(positions, started, self._tolerance_for(observation))
            complete = _complete(results, legal)
            self.stats["solved"] += len(complete)
            if self.playout_fallback and len(complete) < len(positions):
                solved = {i for i, _ in complete}
                rest = [i for i in range(len(positions)) if i not in solved]
                played = self._rollouts(k, [positions[i] for i in rest], observation, legal)
                complete = sorted(complete + [(rest[j], values) for j, values in played])
                self.stats["played_out"] += len(rest)
        self.last_used = len(complete)
        self.stats["decisions"] += 1
        self.stats["worlds"] += len(worlds)
        if not complete:
            self.stats["fallbacks"] += 1
            return self.fallback.act(observation)
        means = _means(complete, legal)
        declarer = observation.get("declarer")
        if self.objective == "points" or declarer is None:
            return _choose(means, k.team, self.variant)
        worth = self._score_means(k, observation, int(declarer), worlds, complete, legal)
        sign = 1.0 if k.team == 0 else -1.0
        return max(legal, key=lambda c: (round(worth[c], 9), round(sign * means[c], 9))
                   + _tie_break(self.variant, c))

    def _tolerance_for(self, observation: Mapping[str, Any]) -> int:
        """This decision's tolerance: ``tolerance`` times the share of the
        hand's points not yet taken.  Late in a hand the cards' values lie a
        few points apart, and a tolerance as wide as the points still in play
        would tell none of them apart."""
        total = self.variant.total_points
        left = max(0, total - sum(int(p) for p in observation["points"]))
        return self.tolerance * left // total if total > 0 else 0

    def _solve(self, positions: list[Position], started: float,
               tolerance: int = 0) -> list[SolveResult | int | dict[Card, tuple[int, int]] | RookError]:
        """Every world's answer (solve_many's), or with ``decision_time`` those
        of the worlds solved by ``started`` + the time, a batch at a time (the
        rest left out); with a tolerance, each card's bounds."""
        what = "bounds" if tolerance else "solve"
        if not self.decision_time:
            return solve_many(positions, workers=self.workers, tt_bytes=self.tt_bytes, what=what,
                              tolerance=tolerance, node_budget=self.node_budget, time_budget=self.time_budget)
        deadline = started + self.decision_time
        batch = self.workers or os.cpu_count() or 1
        out: list[SolveResult | int | dict[Card, tuple[int, int]] | RookError] = []
        for i in range(0, len(positions), batch):
            left = deadline - time.perf_counter()
            if left <= 0 and out:
                break
            limit = min(left, self.time_budget) if self.time_budget else left
            out += solve_many(positions[i:i + batch], workers=self.workers, tt_bytes=self.tt_bytes, what=what,
                              tolerance=tolerance, node_budget=self.node_budget,
                              time_budget=max(limit, 1e-3))
        return out

    def _planned(self, observation: Mapping[str, Any], legal: list[int]) -> int | None:
        """The declarer's next step of its plan by worlds (made at its first step
        after taking the nest, kept for the rest of the hand), or None: not the
        declarer, a variant the plan does not serve, or nothing solved."""
        hand = frozenset(observation["hand"]) | frozenset(observation.get("discarded") or ())
        key = (observation["seat"], hand, tuple(map(tuple, observation["bids"])))
        if self._plan is None or self._plan[0] != key:
            plan = plan_by_worlds(self.variant, observation, self.fallback, worlds=self.nest_worlds, rng=self.rng,
                                  discards=self.nest_discards, margin=self.nest_margin,
                                  workers=self.workers, tt_bytes=self.tt_bytes,
                                  node_budget=self.nest_budget)
            if plan is None:
                return None
            self._plan = (key, plan)
            self.stats["nest_plans"] = self.stats.get("nest_plans", 0) + 1
        plan = self._plan[1]
        if observation["phase"] == "trump":
            return TRUMP + plan.trump if TRUMP + plan.trump in legal else None
        return next((c for c in legal if c < 64 and plan.discard >> c & 1), None)

    def _rollouts(self, k: Knowledge, positions: list[Position], observation: Mapping[str, Any],
                  legal: list[int]) -> list[tuple[int, dict[int, int]]]:
        """Each world's value of each legal card by one heuristic playout:
        team 0's points from the position on, as a double-dummy value counts
        them (``taken`` left out)."""
        from ..hand import HandState
        params = self.fallback.native_params()
        taken0 = int(observation["points"][0])
        declarer = -1 if k.declarer is None else k.declarer
        out = []
        for i, pos in enumerate(positions):
            state = HandState.from_position(pos)
            values = {}
            for c in legal:
                s = state.clone()
                s.apply(c)
                p0 = (s.heuristic_playout(*params, declarer=declarer, lacks=k.lacks)[0]   # the voids shown
                      if s.to_move is not None else s.points[0])
                values[c] = p0 - taken0
            out.append((i, values))
        return out

    def _score_means(self, k: Knowledge, observation: Mapping[str, Any], declarer: int,
                     worlds: list[dict[Holder, int]], complete: list[tuple[int, dict[int, int]]],
                     legal: list[int]) -> dict[int, float]:
        """Return each card's mean, over the complete worlds, of the seat's
        team's hand score less the other team's (T-30 .. T-32, H-1), from the
        points each team ends with in that world after the card."""
        v = self.variant
        bid = int(observation["high_bid"])
        taken0 = int(observation["points"][0])
        team = declarer & 1
        sums = {c: 0.0 for c in legal}
        for i, values in complete:
            nest = k.rules.points(worlds[i].get(NEST, 0)) if v.nest_to == "declarer" else 0
            for c in legal:
                p0 = taken0 + values[c] + (nest if team == 0 else 0)
                score = k.rules.hand_score(declarer, bid, (p0, v.total_points - p0))
                sums[c] += score[k.team] - score[1 - k.team]
        return {c: s / len(complete) for c, s in sums.items()}


class DDAgent(TakesTurns):
    """Play a best card of the true deal (double dummy); bid, discard and
    name trump like :class:`~rook_core.bots.heuristic.HeuristicAgent`.

    It sees every card: call :meth:`act_with_state`.  The search is bounded
    by ``node_budget`` (default 5,000,000 nodes; 0: none); past it the
    agent plays the best of the cards whose values were proven, or the
    heuristic's card when none was.

    A copy (``copy.copy``, ``copy.deepcopy``, ``pickle``) has a solver of
    its own (same budget and table size); every decision starts from an
    empty table, so it decides as the original does.  Threads that share one
    agent take turns with it.
    """

    name = "dd"
    sees_all = True
    _own = ("solver",)

    def __init__(self, variant: Variant, seed: int = 0, node_budget: int = 5_000_000,
                 tt_bytes: int = 8 << 20) -> None:
        if isinstance(node_budget, bool) or not isinstance(node_budget, int) or node_budget < 0:
            raise RookError(f"node_budget must be an int >= 0 (never negative), not {node_budget!r}")
        self.variant = variant = agent_variant(variant)
        self.fallback = HeuristicAgent(variant, seed)
        self.solver = Solver(tt_bytes, node_budget)
        self._start_turns()

    def act(self, observation: Mapping[str, Any]) -> int:
        raise RookError("the dd agent sees every card: call act_with_state(state)")

    def act_with_state(self, state: HandState) -> int:
        """Return the action of the seat to move in ``state`` (a ``HandState``).

        :raises RookError: for what is no hand of the agent's variant, or a hand that is over."""
        from ..hand import HandState
        if not isinstance(state, HandState):
            raise RookError(f"act_with_state takes a HandState, not {type(state).__name__}")
        if state.variant is not self.variant and state.variant != self.variant:
            raise RookError(f"an agent made for {self.variant.name!r} was handed a hand of {state.variant.name!r}")
        seat = state.seat_to_move()
        obs = state.observe(seat)
        legal = obs["legal_actions"]
        if obs["phase"] != "play" or len(legal) == 1:
            return self.fallback.act(obs)
        with self._turn:         # the table is cleared for each decision: another thread's search would fill it
            self.solver.clear()
            try:
                values = self.solver.solve(state).move_values
            except BudgetExceeded as e:
                values = e.move_values or {}
        if not values:
            return self.fallback.act(obs)
        return _choose({int(c): float(v) for c, v in values.items()}, seat & 1, self.variant)
