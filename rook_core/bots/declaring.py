"""The declarer's trump and discard, chosen by simulation over sampled worlds.

Once the declarer holds the nest (T-20) it knows its own cards, the nest as
dealt and the bidding, but not how the other cards lie.  :func:`plan_by_worlds`
draws ``worlds`` deals of the unseen cards consistent with what the seat has
seen (:func:`~rook_core.bots.worlds.sample_world`), and for each trump
(T-7) buries what the heuristic would bury with that trump
(:meth:`HeuristicAgent.discard_for
<rook_core.bots.heuristic.HeuristicAgent.discard_for>`, within H-4 where it
applies) and, with ``discards`` > 0, also each of the first ``discards``
discards the double-dummy nest decision tries first for that trump
(:func:`~rook_core.nest.discard_order`: the cheapest-looking and the
best-banking in turns).  It solves the play of each world double dummy
after each of these, and scores the hand with the real contract (T-30 ..
T-32, H-1): the seat's team's score less the other team's.  The plan is the
trump and discard of the best mean over the worlds that were solved within
the budget.

Double dummy is what both sides would do seeing every card, so this is the
same approximation as PIMC's in the play (:mod:`rook_core.bots.pimc`).

It serves variants whose nest is buried (``nest_exchange == "discard"``)
and that pass no cards (T-22): elsewhere :func:`plan_by_worlds` returns
None and the caller keeps its own choice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._layout import N_COLORS
from .._native import rules_for
from ..actions import BID, PASS, Phase
from ..cards import CardSet, parse_cards
from ..nest import best_looking_discards, play_after
from ..solver import solve_many
from .knowledge import Knowledge
from .worlds import sample_world

if TYPE_CHECKING:
    from ..hand import HandState
    from ..variant import Variant
    from .heuristic import HeuristicAgent

__all__ = ["NestPlan", "plan_by_worlds", "play_worth", "points_worth"]


@dataclass(frozen=True)
class NestPlan:
    """A trump with the cards to bury for it, and what the worlds said: each
    trump's mean score difference (the seat's team's score less the other
    team's) over the worlds solved, in the order of the trumps asked."""

    trump: int
    discard: int                   # mask of the cards to bury (T-20)
    means: tuple[float, ...]       # each trump's, with its best discard
    solved: int                    # worlds whose every trump and discard was solved
    worlds: int
    options: int = 0               # (trump, discard) pairs judged in each world


def plannable(v: Variant) -> bool:
    """Whether :func:`plan_by_worlds` serves the variant: a buried nest, no cards passed."""
    return v.nest_size > 0 and v.nest_exchange == "discard" and "pass" not in v.post_bid_order


def _world_hand(v: Variant, observation: Mapping[str, Any], world: Mapping[Any, int],
                seat: int, dealt: int, nest: int) -> HandState:
    """The world's deal, bid as it was bid, at the declarer's first step after the bidding."""
    from ..hand import HandState
    hands = [dealt if s == seat else world[s] for s in range(4)]
    h = HandState.from_hands(v, [CardSet(m).names() for m in hands], CardSet(nest).names(),
                             dealer=int(observation["dealer"]))
    for _, amount in observation["bids"]:
        h.apply(PASS if amount is None else BID + int(amount))
    return h


def _play_start(h: HandState, trump: int | None, agent: HeuristicAgent) -> HandState:
    """The world's play position with ``trump``, the heuristic burying for it
    (None: the heuristic's own trump and discard)."""
    from ..actions import TRUMP
    s = h.clone()
    while s.phase != Phase.PLAY:
        seat = s.seat_to_move()
        if trump is None:
            s.apply(agent.act(s.observe(seat)))
        else:
            s.apply(TRUMP + trump if s.phase == Phase.TRUMP else agent.discard_for(s.observe(seat), trump))
    return s


def plan_by_worlds(v: Variant, observation: Mapping[str, Any], agent: HeuristicAgent, *, worlds: int,
                   rng: random.Random, trumps: Sequence[int] = tuple(range(N_COLORS)), discards: int = 0,
                   margin: float = 0.0, workers: int | None = 1, tt_bytes: int = 8 << 20,
                   node_budget: int = 0, time_budget: float = 0.0) -> NestPlan | None:
    """Return the declarer's plan (see the module docstring) for ``observation``,
    the declarer's view between taking the nest and burying its first card or
    naming trump; None where the variant is not served or nothing was solved.
    ``agent`` is the heuristic that buries for each trump; ``discards`` the
    nest decision's best-looking discards judged beside it for each trump.
    With ``margin`` > 0 the plan keeps the heuristic's own trump and discard
    unless the best pair beats it, world by world, by more than ``margin``
    standard errors of the mean difference (few worlds make a noisy best)."""
    if not plannable(v) or observation.get("discarded"):
        return None
    seat, declarer = int(observation["seat"]), observation.get("declarer")
    if declarer != seat or observation.get("phase") not in ("nest", "trump") or observation.get("trump"):
        return None
    k = Knowledge.from_observation(observation, v)
    nest = parse_cards(list(observation.get("nest") or []), deck_mask=v.deck_mask, what="nest")
    dealt = k.hand & ~nest
    bid = int(observation["high_bid"])
    options: list[tuple[int, tuple[int, ...] | None]] = []   # (trump, discard; None: the heuristic's)
    starts: list[HandState] = []
    own = None                                                 # the heuristic's own plan, for a margin
    for w in range(worlds):
        h = _world_hand(v, observation, sample_world(k, rng), seat, dealt, nest)
        heuristic = {t: _play_start(h, t, agent) for t in trumps}
        if w == 0:
            # The options are the same in every world: the order of the
            # discards reads only the declarer's cards (nest.discard_order).
            options = [(t, None) for t in trumps]
            if discards:
                options += [(t, d) for t, d in best_looking_discards(h, discards)
                            if t in heuristic and CardSet(d).mask != heuristic[t].nest_mask]
            if margin > 0:
                own = _play_start(h, None, agent)
        starts += [heuristic[t] if d is None else play_after(h, t, d) for t, d in options]
    values = solve_many(starts, what="value", workers=workers, tt_bytes=tt_bytes, node_budget=node_budget,
                        time_budget=time_budget)
    n = len(options)
    rows: list[list[int]] = []             # each solved world's score difference for each option
    for w in range(worlds):
        row = values[w * n:(w + 1) * n]
        if not all(isinstance(x, int) for x in row):
            continue                       # a world is judged on every option or not at all
        rows.append([play_worth(v, seat, bid, start, value)[0]
                     for start, value in zip(starts[w * n:], row) if isinstance(value, int)])
    if not rows:
        return None
    means = [sum(r[i] for r in rows) / len(rows) for i in range(n)]
    best = max(range(n), key=lambda i: (round(means[i], 9), -options[i][0], -i))
    if own is not None:
        mine = next((i for i in range(n) if (options[i][0], starts[i].nest_mask) == (own.trump, own.nest_mask)),
                    None)
        if mine is not None and best != mine and not _beats(rows, best, mine, margin):
            best = mine
    per_trump = tuple(max(means[i] for i in range(n) if options[i][0] == t) for t in trumps)
    return NestPlan(options[best][0], starts[best].nest_mask, per_trump, len(rows), worlds, n)


def play_worth(v: Variant, seat: int, bid: int, start: HandState, value: int) -> tuple[int, int]:
    """Return (the hand score of ``seat``'s team less the other team's, the
    points ``seat``'s team takes) when it declared at ``bid`` and the play
    from ``start`` gives team 0 ``value`` points (a double-dummy value):
    T-30 .. T-32, H-1, with a nest that goes to the declarer (section 4)
    counted for its team."""
    held = start.nest_points if v.nest_to == "declarer" and seat % 2 == 0 else 0
    return points_worth(v, seat, bid, value + held)


def points_worth(v: Variant, seat: int, bid: int, team0: int) -> tuple[int, int]:
    """Return (the hand score of ``seat``'s team less the other team's, the
    points ``seat``'s team takes) when it declared at ``bid`` and team 0
    ends the hand with ``team0`` points of ``v.total_points`` (T-30 ..
    T-32, H-1)."""
    team = seat % 2
    points = (team0, v.total_points - team0)
    score = rules_for(v).hand_score(seat, bid, points)
    return score[team] - score[1 - team], points[team]


def _beats(rows: Sequence[Sequence[int]], a: int, b: int, margin: float) -> bool:
    """Whether option ``a``'s mean over the worlds ``rows`` beats ``b``'s by
    more than ``margin`` standard errors of their paired difference."""
    d = [r[a] - r[b] for r in rows]
    mean = sum(d) / len(d)
    if len(d) < 2:
        return mean > 0
    var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
    return mean > margin * math.sqrt(var / len(d))
