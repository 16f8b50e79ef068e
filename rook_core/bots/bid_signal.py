"""The bidding as a soft signal about the hidden hands (T-3 .. T-6).

A seat that bid 100 probably holds a strong hand; one that passed at 75
probably does not.  :func:`bid_weights` scores each world drawn by
:func:`~rook_core.bots.worlds.sample_world` by how well its hands explain
the auction, read as the heuristic bidder would have played it
(:meth:`HeuristicAgent.bid_value <rook_core.bots.heuristic.HeuristicAgent.bid_value>`):

* a bid of ``b`` that was a choice says the seat's hand was worth at least
  ``b`` (a bid the rules forced, T-6 and the dealer stuck with the hand, says
  nothing);
* a pass when the lowest bid open was ``b`` says the hand was worth less than
  ``b`` (a pass with no bid left says nothing).

A world's hand for a seat is what it holds in that world plus what it has
played; for the declarer this is its hand after the nest, so its bids are
read against a hand a little stronger than the one it bid with.  A world's
weight is ``exp(-shortfall / tau)``, the shortfall being the points by which
its hands miss what the auction says, summed over the other three seats: a
world that explains every call weighs 1.  :func:`weighted_choice` keeps
``n`` worlds of many drawn, each with odds by its weight and none twice, so
that with no signal (every weight 1) the worlds kept are as uniform as the
ones drawn.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from .heuristic import HeuristicAgent
from .knowledge import Holder, Knowledge

__all__ = ["Call", "auction_calls", "bid_weights", "weighted_choice"]

T = TypeVar("T")


class Call(NamedTuple):
    """What one call of the auction says about the hand of ``seat``."""

    seat: int
    sign: int          # +1: the hand was worth at least ``level`` points; -1: less than it
    level: int
    partner_bid: bool  # whether the seat's partner had bid before this call


def auction_calls(k: Knowledge, bids: Sequence[Sequence[Any]], dealer: int) -> list[Call]:
    """Return the calls of ``bids`` (the observation's ``[seat, bid or None]``
    list, in order) that say something about a hand other than ``k``'s."""
    v = k.variant
    calls: list[Call] = []
    high: int | None = None
    passed: set[int] = set()
    bidders: set[int] = set()
    for entry in bids:
        seat, bid = int(entry[0]), entry[1]
        partner_bid = (seat + 2) % 4 in bidders
        lowest = v.min_bid if high is None else high + v.bid_step
        if bid is None:
            if seat != k.seat and lowest <= v.max_bid:
                calls.append(Call(seat, -1, lowest, partner_bid))
            passed.add(seat)
            continue
        forced = high is None and (v.opener_must_bid and not passed or seat == dealer and len(passed) == 3)
        if seat != k.seat and not forced:
            calls.append(Call(seat, 1, int(bid), partner_bid))
        bidders.add(seat)
        high = int(bid)
    return calls


def bid_weights(k: Knowledge, calls: Sequence[Call], worlds: Sequence[Mapping[Holder, int]],
                tau: float, judge: HeuristicAgent | None = None) -> list[float]:
    """Return each world's weight against the auction's ``calls``
    (:func:`auction_calls`), ``exp(-shortfall / tau)`` (see the module
    docstring); ``tau`` is in points, > 0."""
    judge = judge if judge is not None else HeuristicAgent(k.variant)
    out = []
    for w in worlds:
        short = 0
        values: dict[tuple[int, bool], int] = {}
        for seat, sign, level, partner_bid in calls:
            key = (seat, partner_bid)
            if key not in values:
                values[key] = judge.bid_value(w[seat] | k.played_by[seat], partner_bid)
            miss = 100 * level - values[key] if sign > 0 else values[key] - 100 * level + 1
            short += max(0, miss)
        out.append(math.exp(-short / (100 * tau)))
    return out


def weighted_choice(items: Sequence[T], weights: Sequence[float], n: int, rng: random.Random) -> list[T]:
    """Return ``n`` of ``items`` (all when there are fewer), none twice, each
    drawn with odds by its weight among those left (the order kept)."""
    if n >= len(items):
        return list(items)
    keys = []
    for i, w in enumerate(weights):
        u = rng.random()
        keys.append((math.log(u) / w if w > 0 and u > 0 else -math.inf, i))
    keep = sorted(i for _, i in sorted(keys, reverse=True)[:n])
    return [items[i] for i in keep]
