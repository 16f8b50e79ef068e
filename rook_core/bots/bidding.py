"""Bidding from double-dummy prospects: a fast evaluator calibrated by simulation.

:func:`rook_core.odds.bid_odds` gives a hand's odds of making each bid by
solving hundreds of deals -- far too slow for a simulator's millions of
hands.  So ``tools/fit_bidding.py`` measures, once, on thousands of random
deals, what the declaring team really ends the hand with under double-dummy
play when the declarer took the nest and named trump as the heuristic
does (in the 13- and 14-card presets the first two or three tricks are
played by the heuristic bots and only the last eleven solved:
:attr:`BidModel.solved_tricks`), and fits a linear model of it on a few
numbers of the declarer's dealt hand and trump (:func:`features`); the
residuals give a spread.  Every preset has a model.  The
model (``bid_models.json``, written by the tool, never by hand) then says in
microseconds what the hand is expected to take (:meth:`BidModel.expected`)
and the odds of making a bid (:meth:`BidModel.make_rate`, a normal tail).

:class:`ModelBidder` (agent kind ``modelbid``) plays like
:class:`~rook_core.bots.heuristic.HeuristicAgent` but bids from the model:
it makes the lowest legal bid while the odds of making it with its best
trump are at least ``threshold``, and passes otherwise.  The default, 0.7,
did best of 0.5 .. 0.8 in a duplicate match against the heuristic's bidding
(``tournament``, 1,500 deals, seed 3: +3.9 [+2.0, +5.9] points of score a
deal; 0.5 gave -0.9 [-3.4, +1.6]); the ladder (docs/LADDER.md) measures it
on other deals.
Double dummy is the upper end of what the bots take, so ``margin`` points
are taken off the expectation first (``tools/fit_bidding.py`` fits it too:
the mean gap between double-dummy and heuristic play on its deals).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .. import _layout as L
from .._native import rules_for
from ..cards import iter_bits
from ..errors import RookError
from ..variant import Variant
from .heuristic import HeuristicAgent, estimate_units
from .knowledge import Knowledge, agent_variant

__all__ = ["FEATURES", "BidModel", "ModelBidder", "bid_model", "calibration", "features"]

MODELS = Path(__file__).with_name("bid_models.json")
FEATURES = ("one", "estimate", "counters", "trumps", "top_trumps", "short_suits")


def features(variant: Variant, hand: int, trump: int) -> tuple[float, ...]:
    """The numbers of a hand the model weighs, with ``trump``: 1, the
    heuristic's estimate (points), the hand's counters (T-12), its trumps
    (T-10), how many of the trump suit's four top cards it holds, and its
    side suits of at most one card."""
    rules = rules_for(variant)
    tm = rules.trump_mask(trump) & variant.deck_mask
    strength = variant.strength_table
    top = sorted(iter_bits(tm), key=lambda c: -strength[c])[:4]
    short = 0
    for color in range(L.N_COLORS):
        side = variant.deck_mask & L.BB_COLORS[color] & ~tm
        if color != trump and side and (hand & side).bit_count() <= 1:
            short += 1
    return (1.0, estimate_units(variant, hand, trump) / 100, float(rules.points(hand)),
            float((hand & tm).bit_count()), float(sum(1 for c in top if hand >> c & 1)), float(short))


@dataclass(frozen=True)
class BidModel:
    """A fitted evaluator of one preset (see the module docstring)."""

    preset: str
    weights: tuple[float, ...]
    sigma: float          # the spread of the residuals (points)
    margin: float         # double dummy less heuristic play, mean points over the deals
    deals: int
    solved_tricks: int    # the last tricks the fit solved double dummy (the earlier ones: heuristic play)

    def expected(self, variant: Variant, hand: int, trump: int) -> float:
        """The declaring team's expected double-dummy points with ``hand`` and ``trump``."""
        return sum(w * f for w, f in zip(self.weights, features(variant, hand, trump)))

    def best(self, variant: Variant, hand: int) -> tuple[int, float]:
        """The trump with the highest expectation (the lowest color of equals) and that expectation."""
        values = [self.expected(variant, hand, t) for t in range(L.N_COLORS)]
        t = max(range(L.N_COLORS), key=lambda x: (values[x], -x))
        return t, values[t]

    def make_rate(self, variant: Variant, hand: int, trump: int, bid: int, margin: float = 0.0) -> float:
        """The odds of taking at least ``bid`` (a normal tail around the expectation less ``margin``)."""
        z = (self.expected(variant, hand, trump) - margin - (bid - 0.5)) / self.sigma
        return 0.5 * math.erfc(-z / math.sqrt(2))


@cache
def _models() -> dict[str, BidModel]:
    if not MODELS.exists():
        return {}
    data = json.loads(MODELS.read_text())
    return {name: BidModel(name, tuple(m["weights"]), m["sigma"], m["margin"], m["deals"], m["solved_tricks"])
            for name, m in data["models"].items()}


def bid_model(variant: Variant) -> BidModel:
    """Return the fitted model of ``variant`` (by its preset name).

    :raises RookError: for a variant without one.
    """
    variant = agent_variant(variant)
    m = _models().get(variant.name)
    if m is None:
        raise RookError(f"no bidding model for {variant.name!r} (models: {', '.join(sorted(_models()))}); "
                        f"tools/fit_bidding.py fits one")
    return m


class ModelBidder(HeuristicAgent):
    """The heuristic player with bids from the fitted model (see the module docstring).

    :param threshold: the least odds of making a bid worth making it.
    :param dd_margin: take the model's double-dummy margin off the expectation (True by default).
    :raises RookError: for a variant without a model, or a threshold outside (0, 1).
    """

    name = "modelbid"

    def __init__(self, variant: Variant, seed: int = 0, threshold: float = 0.7, dd_margin: bool = True,
                 **options: Any) -> None:
        super().__init__(variant, seed, **options)
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold < 1:
            raise RookError(f"threshold must be between 0 and 1, not {threshold!r}")
        if not isinstance(dd_margin, bool):
            raise RookError(f"dd_margin must be True or False, not {dd_margin!r}")
        self.model = bid_model(self.variant)
        self.threshold = threshold
        self.margin = self.model.margin if dd_margin else 0.0

    def _would_bid(self, obs: Mapping[str, Any], k: Knowledge, bid: int) -> bool:
        """Whether the model's odds of making ``bid`` with the best trump reach the threshold."""
        trump, _ = self.model.best(self.variant, k.hand)
        return self.model.make_rate(self.variant, k.hand, trump, bid, self.margin) >= self.threshold


def calibration(result: Any, model: BidModel | None = None) -> list[dict[str, Any]]:
    """Return, per winning bid of a simulation's declared hands
    (:class:`~rook_core.sim.simulate.SimResult`), how many hands were
    declared at it, the share made, and the model's mean odds of making it
    (the declarer's dealt hand, the trump it named, the margin taken off):
    a bidder whose hands make about as often as the odds say is calibrated."""
    import numpy as np
    v = result.meta.get("variant")
    m = model or bid_model(v)
    h = result.hands
    rows = []
    decl = np.flatnonzero(h["made"] >= 0)
    for b in sorted(set(int(x) for x in h["bid"][decl])):
        idx = decl[h["bid"][decl] == b]
        odds = [m.make_rate(v, int(h[f"hand_{int(h['declarer'][i])}"][i]), int(h["trump"][i]), b, m.margin)
                for i in idx]
        rows.append({"bid": b, "hands": int(len(idx)), "made": float((h["made"][idx] == 1).mean()),
                     "odds": float(sum(odds) / len(odds))})
    return rows
