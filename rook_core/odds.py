"""The odds of making each bid: a hand's double-dummy prospects, by simulation.

For one seat's cards before the bidding, :func:`bid_odds` deals the cards
it cannot see at random (``worlds`` deals: the other three hands and the
nest, each deal equally likely), makes the seat the declarer, and for each
trump plays the steps after the bidding as a good declarer would with that
trump -- the nest taken and the cards least worth keeping buried
(:meth:`HeuristicAgent.discard_for <rook_core.bots.heuristic.HeuristicAgent.discard_for>`,
within H-4 where it applies), cards passed by the heuristic (T-22) -- and
solves the play double dummy (:func:`rook_core.solver.solve_many`, on
``workers`` threads without the GIL).  What the declaring team then ends the
hand with (its tricks, the nest when it goes to the declarer) is one sample
of what the hand is worth with that trump; the share of samples at or above
a bid is the odds of making it.

Double dummy is the upper end of what a real declarer takes (every card is
seen, by the defenders as well), and the bidding says nothing here about the
other hands: each deal of the unseen cards is as likely as any other.

>>> o = bid_odds("tournament", [f"R{r}" for r in range(6, 15)], worlds=8, seed=1)
>>> o.best_trump, 0.0 <= o.make_rate(2, 100) <= 1.0
(2, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._layout import COLOR_NAMES
from .actions import BID, PASS, TRUMP, Phase
from .cards import CardSet, color_name, parse_cards
from .errors import RookError
from .intervals import wilson
from .solver import solve_many
from .variant import Variant, as_variant

if TYPE_CHECKING:
    from .hand import HandState

__all__ = ["BidOdds", "bid_odds", "declared_at_lowest", "play_position"]


@dataclass(frozen=True)
class BidOdds:
    """The samples of :func:`bid_odds`: for each trump, what the declaring
    team ended the hand with in each world, clipped to ``min_bid - 1`` (no
    bid made) .. ``max_bid`` (every bid made), or None where a budget cut
    the search short."""

    variant: Variant
    seat: int
    hand: int
    worlds: int
    seed: int
    samples: dict[int, list[int | None]] = field(default_factory=dict)

    @property
    def levels(self) -> list[int]:
        """The bids of the variant (T-3)."""
        v = self.variant
        return list(range(v.min_bid, v.max_bid + 1, v.bid_step))

    def solved(self, trump: int) -> list[int]:
        return [x for x in self.samples[trump] if x is not None]

    def _made(self, trump: int, bid: int) -> tuple[int, int]:
        """The solved worlds in which ``bid`` is made with ``trump``, and the solved worlds."""
        got = self.solved(trump)
        return sum(1 for x in got if x >= bid), len(got)

    def make_rate(self, trump: int, bid: int) -> float:
        """The share of the solved worlds in which the declaring team takes at least ``bid`` with ``trump``."""
        return wilson(*self._made(trump, bid))[0]

    def make_rate_95(self, trump: int, bid: int) -> tuple[float, float]:
        """The 95% interval (Wilson's) of :meth:`make_rate`: where the share
        over every deal of the unseen cards lies, judged from the ``worlds``
        sampled.  With 200 worlds a share near one half is known to about 7
        points of percentage either way."""
        _, lo, hi = wilson(*self._made(trump, bid))
        return (lo, hi)

    def widest_95(self) -> float:
        """The widest half-width of the 95% intervals of every trump's
        make rates (a share, 0..1): the figure the table of :meth:`text`
        quotes for all its cells."""
        widths = [hi - lo for t in self.samples for lo, hi in (self.make_rate_95(t, b) for b in self.levels)]
        widths = [w for w in widths if not math.isnan(w)]  # NaN: no world of the trump solved
        return max(widths) / 2 if widths else float("nan")

    def mean(self, trump: int) -> float:
        """The mean of the clipped samples: a figure to rank the trumps by."""
        got = self.solved(trump)
        return sum(got) / len(got) if got else float("nan")

    @property
    def best_trump(self) -> int | None:
        """The trump with the most points on average (the lowest color of
        equals) among those with a solved world; None when a budget left no
        world solved under any trump."""
        tried = [t for t in self.samples if self.solved(t)]
        return max(tried, key=lambda t: (self.mean(t), -t)) if tried else None

    def to_json(self) -> dict[str, Any]:
        best = self.best_trump
        return {"variant": self.variant.name, "seat": self.seat, "hand": CardSet(self.hand).names(),
                "worlds": self.worlds, "seed": self.seed, "best_trump": None if best is None else color_name(best),
                "trumps": {color_name(t): {"mean": round(self.mean(t), 2), "solved": len(self.solved(t)),
                                           "make_rate": {str(b): round(self.make_rate(t, b), 4)
                                                         for b in self.levels},
                                           "make_rate_95": {str(b): [round(x, 4) for x in self.make_rate_95(t, b)]
                                                            for b in self.levels}}
                           for t in sorted(self.samples)}}

    def text(self) -> str:
        """A table for people: the odds of making each bid, a column per trump."""
        ts = sorted(self.samples)
        lines = [f"{self.variant.name}: seat {self.seat} holds {CardSet(self.hand)}; "
                 f"{self.worlds} deals of the unseen cards, double dummy",
                 "  bid   " + "".join(f"{COLOR_NAMES[t]:>8}" for t in ts)]
        for b in self.levels:
            lines.append(f"  {b:<5} " + "".join(f"{100 * self.make_rate(t, b):7.0f}%" for t in ts))
        lines.append("  mean* " + "".join(f"{self.mean(t):8.1f}" for t in ts))
        lines.append(f"  (* points clipped to {self.variant.min_bid - 1} .. {self.variant.max_bid})")
        counts = [len(self.solved(t)) for t in ts if self.solved(t)]   # of the trumps with a solved world
        if not counts:
            lines.append("  (no deal was solved within the budget: no shares, no intervals)")
        else:
            fewest = min(counts)
            source = (f"{self.worlds} deals" if fewest == self.worlds
                      else f"as few as {fewest} deals of {self.worlds}: a budget left the others out")
            lines.append(f"  (95% intervals: each share within {100 * self.widest_95():.0f} points of percentage "
                         f"at most, from {source})")
        best = self.best_trump
        lines.append(f"  best trump: {'none (no deal solved)' if best is None else COLOR_NAMES[best]}")
        return "\n".join(lines)


def declared_at_lowest(v: Variant, seat: int, hands: Sequence[int], nest: int) -> HandState:
    """The deal with ``seat`` as declarer at the lowest bid: it speaks
    first (the dealer sits at its right) and the others pass (T-3 .. T-5)."""
    from .hand import HandState
    h = HandState.from_hands(v, [CardSet(m).names() for m in hands], CardSet(nest).names(),
                             dealer=(seat + 3) % 4)
    h.apply(BID + v.min_bid)
    while h.phase == Phase.BID:
        h.apply(PASS)
    return h


def play_position(h: HandState, trump: int | None, agents: list[Any]) -> HandState:
    """The hand's play position with ``trump`` (None: the heuristic's
    choice), the steps between played by the heuristic declarer (and the
    heuristic seats when cards are passed)."""
    s = h.clone()
    while s.phase != Phase.PLAY:
        seat = s.seat_to_move()
        if s.phase == Phase.TRUMP and trump is not None:
            s.apply(TRUMP + trump)
        elif s.phase == Phase.NEST and trump is not None:
            s.apply(agents[seat].discard_for(s.observe(seat), trump))
        else:
            s.apply(agents[seat].act(s.observe(seat)))
    return s


def bid_odds(variant: Variant | str, hand: Iterable[str | int] | str, *, seat: int = 0, worlds: int = 200,
             seed: int = 0, trumps: Sequence[int] = (0, 1, 2, 3), workers: int = 1,
             node_budget: int = 0, time_budget: float = 0.0,
             progress: Callable[[int, int], None] | None = None) -> BidOdds:
    """Return the double-dummy odds of ``hand`` (the seat's cards before the
    bidding) making each bid, per trump (see the module docstring).

    ``node_budget`` and ``time_budget`` bound each search (a world whose
    search runs out counts as not solved); ``progress(done, total)`` is
    called as the ``worlds * len(trumps)`` searches finish.  Ctrl-C stops
    the searches and raises KeyboardInterrupt.

    :raises NotationError: for a bad or foreign card.
    :raises RookError: for a hand of the wrong size or a bad count.
    """
    from .bots.heuristic import HeuristicAgent
    v = as_variant(variant)
    mine = parse_cards(hand, deck_mask=v.deck_mask, what="hand")
    if mine.bit_count() != v.hand_size:
        raise RookError(f"the hand has {mine.bit_count()} cards; {v.name} deals {v.hand_size} (T-2)")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= 100_000:
        raise RookError(f"worlds must be an int 1..100000, not {worlds!r}")
    if seat not in range(4):
        raise RookError(f"seat must be 0..3, not {seat!r}")
    if not trumps or any(t not in range(4) for t in trumps):
        raise RookError(f"trumps are colors 0..3, not {trumps!r}")
    rng = random.Random(seed)
    unseen = [c for c in range(64) if v.deck_mask >> c & 1 and not mine >> c & 1]
    agents = [HeuristicAgent(v, s) for s in range(4)]
    positions: list[HandState] = []
    keys: list[tuple[int, int]] = []     # (trump, the nest points the declarer's team holds)
    team = seat % 2
    for _ in range(worlds):
        rng.shuffle(unseen)
        hands, k = [0, 0, 0, 0], 0
        for s in range(4):
            if s == seat:
                hands[s] = mine
                continue
            for c in unseen[k:k + v.hand_size]:
                hands[s] |= 1 << c
            k += v.hand_size
        nest = sum(1 << c for c in unseen[k:])
        h = declared_at_lowest(v, seat, hands, nest)
        for t in trumps:
            p = play_position(h, t, agents)
            positions.append(p)
            keys.append((t, p.nest_points if v.nest_to == "declarer" else 0))
    # Only the declaring team's points from min_bid - 1 (not made) to
    # max_bid matter: each search is windowed to them, about 2.5x cheaper
    # than the exact value (tournament).
    lo, hi = v.min_bid - 1, v.max_bid
    windows = [(lo - held, hi - held) if team == 0 else (v.total_points - hi, v.total_points - lo)
               for _, held in keys]
    values = solve_many(positions, workers=workers, what="value", node_budget=node_budget,
                        time_budget=time_budget, progress=progress, windows=windows)
    samples: dict[int, list[int | None]] = {t: [] for t in trumps}
    for (t, held), value in zip(keys, values):
        if not isinstance(value, int):
            samples[t].append(None)
            continue
        team0 = value + (held if team == 0 else 0)
        samples[t].append(team0 if team == 0 else v.total_points - team0)
    return BidOdds(v, seat, mine, worlds, seed, samples)
