"""Players that choose actions from one seat's observation.

Every agent sees only ``HandState.observation(seat)`` (T-15) and answers
with one action of the integer space (:mod:`rook_core.actions`).  Agents are
seeded, so a game between agents depends only on the seeds.

* :class:`RandomAgent`: uniform over the legal actions.  With uniform bids
  declarers overbid and get set, and a game may then never reach its
  target; ``rook play`` uses it with a hand cap for that reason.
* :class:`GreedyAgent`: a small rule-of-thumb player (bids from hand length
  and high cards, trumps its longest color, discards low cards, wins tricks
  cheaply, feeds counters to a partner who is winning).  It is a baseline,
  not a strong player.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from . import _layout as L
from .actions import BID, PASS, TRUMP
from .cards import BIRD, parse_card
from .variant import Variant
from ._native.rules import rules_for

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "AGENTS", "make_agent"]


class Agent(Protocol):
    """Anything that picks an action for its seat from an observation."""

    name: str

    def act(self, observation: dict[str, Any]) -> int: ...


class RandomAgent:
    """Choose uniformly among the legal actions."""

    name = "random"

    def __init__(self, variant: Variant, seed: int = 0) -> None:
        self.variant = variant
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> int:
        return int(self.rng.choice(observation["legal_actions"]))


def _cards(names: list[str]) -> list[int]:
    return [int(parse_card(n)) for n in names]


class GreedyAgent:
    """A simple rule-of-thumb player (see the module docstring)."""

    name = "greedy"

    def __init__(self, variant: Variant, seed: int = 0) -> None:
        self.variant = variant
        self.rules = rules_for(variant)
        self.rng = random.Random(seed)
        self.strength = variant.strength_table
        self.points = variant.points_table

    # -------------------------------------------------------------- helpers
    def _color_lengths(self, hand: list[int]) -> list[int]:
        lengths = [0] * L.N_COLORS
        for c in hand:
            if c != BIRD:
                lengths[L.color_of(c)] += 1
        return lengths

    def _best_color(self, hand: list[int]) -> int:
        lengths = self._color_lengths(hand)
        return max(range(L.N_COLORS), key=lambda c: (lengths[c], sum(
            self.strength[x] for x in hand if x != BIRD and L.color_of(x) == c)))

    def _estimate(self, hand: list[int]) -> int:
        """A rough guess of the points the hand's team takes as declarer."""
        v = self.variant
        longest = max(self._color_lengths(hand))
        high = sum(1 for c in hand if c == BIRD or self.strength[c] >= 2 * 13)
        share = v.total_points * (0.25 + 0.07 * longest + 0.04 * high)
        return int(share)

    def _low(self, cards: list[int]) -> int:
        return min(cards, key=lambda c: (self.points[c], self.strength[c]))

    # ----------------------------------------------------------------- act
    def act(self, observation: dict[str, Any]) -> int:
        legal: list[int] = [int(a) for a in observation["legal_actions"]]
        phase = observation["phase"]
        hand = _cards(observation["hand"])
        if phase == "bid":
            bids = [a for a in legal if a > BID]
            if PASS not in legal:
                return min(bids)
            if bids and min(bids) - BID <= self._estimate(hand):
                return min(bids)
            return PASS
        if phase == "trump":
            return TRUMP + self._best_color(hand)
        if phase in ("nest", "pass"):
            keep = self._best_color(hand)
            trump = observation.get("trump")
            if trump is not None:
                keep = "BGRY".index(trump)
            pool = [c for c in legal if c != BIRD and L.color_of(c) != keep] or legal
            return self._low(pool)
        # play
        trump = "BGRY".index(observation["trump"])
        trick = observation["trick"]
        seat = observation["seat"]
        if not trick:
            top = max(legal, key=lambda c: self.strength[c])
            return top if self.strength[top] >= 2 * 13 else self._low(legal)
        cards = _cards([c for _, c in trick])
        win = self.rules.trick_winner(cards, trump)
        partner_winning = trick[win][0] == (seat + 2) % 4
        winners = [c for c in legal if self.rules.trick_winner(cards + [c], trump) == len(cards)]
        if partner_winning and len(trick) == 3:
            return max(legal, key=lambda c: (self.points[c], -self.strength[c]))
        if winners and not partner_winning:
            return min(winners, key=lambda c: (self.strength[c] + (64 if c in
                       (BIRD,) else 0)))
        return self._low(legal)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(kind: str, variant: Variant, seed: int = 0) -> Agent:
    """Return a new agent of ``kind`` (``random`` or ``greedy``).

    :raises ValueError: naming the known kinds.
    """
    try:
        cls = AGENTS[kind]
    except KeyError:
        from .errors import RookError
        raise RookError(f"unknown agent {kind!r}; known: {', '.join(AGENTS)}") from None
    agent: Agent = cls(variant, seed)  # type: ignore[assignment]
    return agent
