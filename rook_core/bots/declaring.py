"""The declarer's trump and discard, chosen by simulation over sampled worlds.

Once the declarer holds the nest (T-20) it knows its own cards, the nest as
dealt and the bidding, but not how the other cards lie.  :func:`plan_by_worlds`
draws ``worlds`` deals of the unseen cards consistent with what the seat has
seen (:func:`~rook_core.bots.worlds.sample_world`), and for each trump
(T-7) buries what the heuristic would bury with that trump
(:meth:`HeuristicAgent.discard_for
<rook_core.bots.heuristic.HeuristicAgent.discard_for>`, within H-4 where it
applies), solves the play of each world double dummy, and scores the hand
with the real contract (T-30 .. T-32, H-1): the seat's team's score less the
other team's.  The plan is the trump, with its discards, of the best mean
over the worlds that were solved within the budget.

Double dummy is what both sides would do seeing every card, so this is the
same approximation as PIMC's in the play (:mod:`rook_core.bots.pimc`).

It serves variants whose nest is buried (``nest_exchange == "discard"``)
and that pass no cards (T-22): elsewhere :func:`plan_by_worlds` returns
None and the caller keeps its own choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._layout import N_COLORS
from ..actions import BID, PASS, Phase
from ..cards import CardSet, parse_cards
from ..solver import solve_many
from .knowledge import Knowledge
from .worlds import sample_world

if TYPE_CHECKING:
    from ..hand import HandState
    from ..variant import Variant
    from .heuristic import HeuristicAgent

__all__ = ["NestPlan", "plan_by_worlds"]


@dataclass(frozen=True)
class NestPlan:
    """A trump with the cards to bury for it, and what the worlds said: each
    trump's mean score difference (the seat's team's score less the other
    team's) over the worlds solved, in the order of the trumps asked."""

    trump: int
    discard: int                   # mask of the cards to bury (T-20)
    means: tuple[float, ...]
    solved: int                    # worlds whose every trump was solved
    worlds: int


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


def _play_start(h: HandState, trump: int, agent: HeuristicAgent) -> HandState:
    """The world's play position with ``trump``, the heuristic burying for it."""
    from ..actions import TRUMP
    s = h.clone()
    while s.phase != Phase.PLAY:
        seat = s.seat_to_move()
        s.apply(TRUMP + trump if s.phase == Phase.TRUMP else agent.discard_for(s.observe(seat), trump))
    return s


def plan_by_worlds(v: Variant, observation: Mapping[str, Any], agent: HeuristicAgent, *, worlds: int,
                   rng: random.Random, trumps: Sequence[int] = tuple(range(N_COLORS)), workers: int | None = 1,
                   tt_bytes: int = 8 << 20, node_budget: int = 0, time_budget: float = 0.0) -> NestPlan | None:
    """Return the declarer's plan (see the module docstring) for ``observation``,
    the declarer's view between taking the nest and burying its first card or
    naming trump; None where the variant is not served or nothing was solved.
    ``agent`` is the heuristic that buries for each trump."""
    if not plannable(v) or observation.get("discarded"):
        return None
    seat, declarer = int(observation["seat"]), observation.get("declarer")
    if declarer != seat or observation.get("phase") not in ("nest", "trump") or observation.get("trump"):
        return None
    k = Knowledge.from_observation(observation, v)
    nest = parse_cards(list(observation.get("nest") or []), deck_mask=v.deck_mask, what="nest")
    dealt = k.hand & ~nest
    bid, team = int(observation["high_bid"]), seat % 2
    starts: list[HandState] = []
    for _ in range(worlds):
        h = _world_hand(v, observation, sample_world(k, rng), seat, dealt, nest)
        starts += [_play_start(h, t, agent) for t in trumps]
    values = solve_many(starts, what="value", workers=workers, tt_bytes=tt_bytes, node_budget=node_budget,
                        time_budget=time_budget)
    sums = [0.0] * len(trumps)
    solved = 0
    for w in range(worlds):
        row = values[w * len(trumps):(w + 1) * len(trumps)]
        if not all(isinstance(x, int) for x in row):
            continue                       # a world is judged on every trump or not at all
        solved += 1
        for i, (start, value) in enumerate(zip(starts[w * len(trumps):], row)):
            assert isinstance(value, int)
            held = start.nest_points if v.nest_to == "declarer" and team == 0 else 0
            p0 = value + held
            score = k.rules.hand_score(seat, bid, (p0, v.total_points - p0))
            sums[i] += score[team] - score[1 - team]
    if not solved:
        return None
    means = tuple(s / solved for s in sums)
    best = max(range(len(trumps)), key=lambda i: (round(means[i], 9), -trumps[i]))
    return NestPlan(trumps[best], starts[best].nest_mask, means, solved, worlds)
