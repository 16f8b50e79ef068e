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
from .errors import RookError, check_progress, int_arg
from .intervals import wilson
from .solver import BudgetExceeded, solve_many
from .variant import Variant, as_variant

if TYPE_CHECKING:
    from .hand import HandState

__all__ = ["BidOdds", "bid_odds", "check_worlds", "declared_at_lowest", "play_position"]


@dataclass(frozen=True)
class BidOdds:
    """The samples of :func:`bid_odds`: for each trump, what the declaring
    team ended the hand with in each world, clipped to ``min_bid - 1`` (no
    bid made) .. ``max_bid`` (every bid made), or None where a budget cut
    the search short; ``bounds`` holds, for each trump and world, what was
    proven of that figure: ``(x, x)`` where it was solved, the bounds the
    search had proven (within the same clip) where a budget stopped it.

    A world that a budget left open counts for every bid its bounds settle
    (made when the lower bound reaches the bid, failed when the upper bound
    is under it); at a bid between its bounds it is undecided, and the
    share of worlds making that bid is then a range
    (:meth:`make_rate_range`): leaving such worlds out would bias the
    shares toward the deals that are quick to solve."""

    variant: Variant
    seat: int
    hand: int
    worlds: int
    seed: int
    samples: dict[int, list[int | None]] = field(default_factory=dict)
    bounds: dict[int, list[tuple[int, int]]] = field(default_factory=dict)

    @property
    def levels(self) -> list[int]:
        """The bids of the variant (T-3)."""
        v = self.variant
        return list(range(v.min_bid, v.max_bid + 1, v.bid_step))

    def _samples(self, trump: object) -> list[int | None]:
        """The samples of ``trump``.

        :raises RookError: for a trump these odds were not drawn for."""
        if isinstance(trump, bool) or not isinstance(trump, int) or trump not in self.samples:
            raise RookError(f"trump must be one of the colors these odds were drawn for "
                            f"({', '.join(map(str, sorted(self.samples)))}), not {trump!r}")
        return self.samples[trump]

    def _bid(self, bid: object) -> int:
        """Return ``bid`` if its odds can be read from the clipped figures.

        :raises RookError: for anything but an int min_bid .. max_bid (T-3)."""
        v = self.variant
        if isinstance(bid, bool) or not isinstance(bid, int) or not v.min_bid <= bid <= v.max_bid:
            raise RookError(f"bid must be an int {v.min_bid}..{v.max_bid} (T-3: the figures are "
                            f"clipped to {v.min_bid - 1}..{v.max_bid}), not {bid!r}")
        return bid

    def solved(self, trump: int) -> list[int]:
        """The figures of the worlds solved exactly."""
        return [x for x in self._samples(trump) if x is not None]

    def proven(self, trump: int) -> list[tuple[int, int]]:
        """Every world's proven bounds on the clipped figure (see the class)."""
        self._samples(trump)
        if trump in self.bounds:
            return self.bounds[trump]
        none = (self.variant.min_bid - 1, self.variant.max_bid)
        return [none if x is None else (x, x) for x in self.samples[trump]]

    def undecided(self, trump: int) -> int:
        """How many worlds a budget left without an exact figure."""
        return sum(1 for x in self._samples(trump) if x is None)

    def _made(self, trump: int, bid: int) -> tuple[int, int, int]:
        """The worlds in which ``bid`` is surely made with ``trump``, those
        still open at that bid, and all the worlds.

        :raises RookError: for a trump these odds were not drawn for, or a bid
            outside min_bid .. max_bid, whose odds the clipped figures do not
            tell."""
        got = self.proven(trump)
        self._bid(bid)
        made = sum(1 for lo, _ in got if lo >= bid)
        return made, sum(1 for lo, hi in got if lo < bid <= hi), len(got)

    def make_rate_range(self, trump: int, bid: int) -> tuple[float, float]:
        """The share of the worlds in which the declaring team surely takes
        at least ``bid`` with ``trump``, and the share in which it may (the
        worlds a budget left open at that bid counted as made); equal when
        every world is decided."""
        made, open_, n = self._made(trump, bid)
        return (made / n, (made + open_) / n) if n else (math.nan, math.nan)

    def make_rate(self, trump: int, bid: int) -> float:
        """The share of the worlds in which the declaring team takes at least
        ``bid`` with ``trump`` (the middle of :meth:`make_rate_range` when a
        budget left some open)."""
        lo, hi = self.make_rate_range(trump, bid)
        return (lo + hi) / 2

    def make_rate_95(self, trump: int, bid: int) -> tuple[float, float]:
        """The 95% interval (Wilson's) of :meth:`make_rate`: where the share
        over every deal of the unseen cards lies, judged from the ``worlds``
        sampled (from the low end of :meth:`make_rate_range` to the high end
        when worlds are open).  With 200 worlds a share near one half is
        known to about 7 points of percentage either way."""
        made, open_, n = self._made(trump, bid)
        return (wilson(made, n)[1], wilson(made + open_, n)[2])

    def widest_95(self) -> float:
        """The widest half-width of the 95% intervals of every trump's
        make rates (a share, 0..1)."""
        widths = [hi - lo for t in self.samples for lo, hi in (self.make_rate_95(t, b) for b in self.levels)]
        widths = [w for w in widths if not math.isnan(w)]  # NaN: a trump of no world
        return max(widths) / 2 if widths else float("nan")

    def mean_range(self, trump: int) -> tuple[float, float]:
        """The mean of the worlds' clipped figures as far as proven: the
        mean of their lower bounds and of their upper bounds."""
        got = self.proven(trump)
        if not got:
            return (math.nan, math.nan)
        return (sum(lo for lo, _ in got) / len(got), sum(hi for _, hi in got) / len(got))

    def mean(self, trump: int) -> float:
        """The mean of the clipped figures (the middle of
        :meth:`mean_range` when a budget left worlds open): a figure to
        rank the trumps by."""
        lo, hi = self.mean_range(trump)
        return (lo + hi) / 2

    @property
    def best_trump(self) -> int | None:
        """The trump whose figures are surely the highest on average: the
        highest mean of the lower bounds (then of the upper bounds, then the
        lowest color); with every world solved, the highest mean.  None when
        a budget left no world of any trump with a bound."""
        none = (self.variant.min_bid - 1, self.variant.max_bid)
        if all(b == none for t in self.samples for b in self.proven(t)):
            return None
        # (a trump whose searches all stopped stays in: hard searches are no sign of a bad trump)
        return max(self.samples, key=lambda t: (self.mean_range(t)[0], self.mean_range(t)[1], -t))

    @property
    def best_trump_proven(self) -> bool:
        """Whether :attr:`best_trump` is the best on average over these
        worlds whatever the open worlds hold: its lower mean reaches every
        other trump's upper mean."""
        best = self.best_trump
        return best is not None and all(self.mean_range(best)[0] >= self.mean_range(t)[1]
                                        for t in self.samples if t != best)

    def to_json(self) -> dict[str, Any]:
        best = self.best_trump
        out: dict[str, Any] = {
            "variant": self.variant.name, "seat": self.seat, "hand": CardSet(self.hand).names(),
            "worlds": self.worlds, "seed": self.seed, "best_trump": None if best is None else color_name(best),
            "best_trump_proven": self.best_trump_proven, "trumps": {}}
        for t in sorted(self.samples):
            row: dict[str, Any] = {
                "mean": round(self.mean(t), 2), "solved": len(self.solved(t)),
                "make_rate": {str(b): round(self.make_rate(t, b), 4) for b in self.levels},
                "make_rate_95": {str(b): [round(x, 4) for x in self.make_rate_95(t, b)] for b in self.levels}}
            if self.undecided(t):
                row["mean_range"] = [round(x, 2) for x in self.mean_range(t)]
                row["make_rate_range"] = {str(b): [round(x, 4) for x in self.make_rate_range(t, b)]
                                          for b in self.levels}
            out["trumps"][color_name(t)] = row
        return out

    def text(self) -> str:
        """A table for people: the odds of making each bid, a column per trump
        (a range where worlds a budget left open could go either way)."""
        ts = sorted(self.samples)
        lines = [f"{self.variant.name}: seat {self.seat} holds {CardSet(self.hand)}; "
                 f"{self.worlds} deals of the unseen cards, double dummy",
                 "  bid   " + "".join(f"{COLOR_NAMES[t]:>9}" for t in ts)]

        def cell(t: int, b: int) -> str:
            lo, hi = self.make_rate_range(t, b)
            if math.isnan(lo):
                return f"{'-':>9}"
            if round(100 * lo) == round(100 * hi):
                return f"{100 * lo:8.0f}%"
            return f"{f'{100 * lo:.0f}-{100 * hi:.0f}':>8}%"
        for b in self.levels:
            lines.append(f"  {b:<5} " + "".join(cell(t, b) for t in ts))
        def mean_cell(t: int) -> str:
            lo, hi = self.mean_range(t)
            return f"{lo:9.1f}" if lo == hi else f"{f'{lo:.0f}-{hi:.0f}':>9}"
        lines.append("  mean* " + "".join(mean_cell(t) for t in ts))
        lines.append(f"  (* points clipped to {self.variant.min_bid - 1} .. {self.variant.max_bid})")
        open_ = sum(self.undecided(t) for t in ts)
        if open_:
            lines.append(f"  ({open_} of {self.worlds * len(ts)} searches stopped on the budget: a share is "
                         "a range where their deals could go either way)")
        lines.append(f"  (95% intervals: each at most {200 * self.widest_95():.0f} points of percentage wide, "
                     f"from {self.worlds} deals)")
        best = self.best_trump
        if best is None:
            lines.append("  best trump: none (no search proved anything within the budget)")
        else:
            sure = "" if self.best_trump_proven else " (not proven: the open deals could change it)"
            lines.append(f"  best trump: {COLOR_NAMES[best]}{sure}")
        return "\n".join(lines)


MOST_WORLDS = 100_000       # the most worlds of one call of bid_odds
MOST_WORKERS = 256          # its most threads (each keeps a solver's table): sim.chunks.MOST_WORKERS, a layer up
POSITIONS_AT_ONCE = 2048    # the play positions bid_odds deals and solves at a time (about 8 KiB each)


def check_worlds(worlds: object) -> int:
    """Return ``worlds`` if it is a count of worlds :func:`bid_odds` takes (1 .. :data:`MOST_WORLDS`).

    :raises RookError: naming it."""
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MOST_WORLDS:
        raise RookError(f"worlds must be an int 1..{MOST_WORLDS}, not {worlds!r}")
    return worlds


def _counted(progress: Callable[[int, int], None] | None, before: int,
             total: int) -> Callable[[int, int], None] | None:
    """``progress`` of one batch of searches, counting the ``before`` done in
    the batches before it, out of ``total``."""
    if progress is None:
        return None
    report = progress
    return lambda done, _n: report(before + done, total)


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
    search runs out keeps the bounds it proved: see :class:`BidOdds`); ``progress(done, total)`` is
    called as the ``worlds * len(trumps)`` searches finish.  ``workers``
    (1 .. :data:`MOST_WORKERS`, as ``rook odds --workers``) threads each
    keep a solver's table.  The worlds are dealt
    and solved :data:`POSITIONS_AT_ONCE` positions at a time, so the memory
    does not grow with ``worlds``.  Ctrl-C stops the searches and raises
    KeyboardInterrupt.

    :raises NotationError: for a bad or foreign card.
    :raises RookError: for a hand of the wrong size, a bad count, seed,
        ``workers`` or ``progress``, or ``trumps`` that are not distinct
        colors 0..3.
    """
    from .bots.heuristic import HeuristicAgent
    from .rng import check_seed
    v = as_variant(variant)
    mine = parse_cards(hand, deck_mask=v.deck_mask, what="hand")
    if mine.bit_count() != v.hand_size:
        raise RookError(f"the hand has {mine.bit_count()} cards; {v.name} deals {v.hand_size} (T-2)")
    check_worlds(worlds)
    workers = int_arg(workers, f"workers must be an int 1 .. {MOST_WORKERS}", 1, MOST_WORKERS)
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):   # 1.0 and True are no seats
        raise RookError(f"seat must be an int 0..3, not {seat!r}")
    asked = tuple(trumps) if isinstance(trumps, Iterable) and not isinstance(trumps, (str, bytes)) else ()
    if not asked or len(set(asked)) != len(asked) or \
            any(isinstance(t, bool) or not isinstance(t, int) or t not in range(4) for t in asked):
        raise RookError(f"trumps are distinct colors 0..3, not {trumps!r}")
    trumps = asked
    seed = check_seed(seed)
    check_progress(progress)
    rng = random.Random(seed)
    unseen = [c for c in range(64) if v.deck_mask >> c & 1 and not mine >> c & 1]
    agents = [HeuristicAgent(v, s) for s in range(4)]
    keys: list[tuple[int, int]] = []     # (trump, the nest points the declarer's team holds)
    values: list[int | tuple[int, int] | None] = []   # a value, the bounds a budget left, or None
    team = seat % 2
    # Only the declaring team's points from min_bid - 1 (not made) to
    # max_bid matter: each search is windowed to them, about 2.5x cheaper
    # than the exact value (tournament).
    lo, hi = v.min_bid - 1, v.max_bid
    total = worlds * len(trumps)
    per_batch = max(1, POSITIONS_AT_ONCE // len(trumps))
    for first in range(0, worlds, per_batch):
        positions: list[HandState] = []
        held_of: list[int] = []
        for _ in range(min(per_batch, worlds - first)):
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
                held_of.append(p.nest_points if v.nest_to == "declarer" else 0)
                keys.append((t, held_of[-1]))
        windows = [(lo - held, hi - held) if team == 0 else (v.total_points - hi, v.total_points - lo)
                   for held in held_of]
        found = solve_many(positions, workers=workers, what="value", node_budget=node_budget,
                           time_budget=time_budget, progress=_counted(progress, len(values), total),
                           windows=windows)
        # an error holds its traceback, and with it the position: keep only what it proved
        values += [x if isinstance(x, int) else (x.lo, x.hi) if isinstance(x, BudgetExceeded) else None
                   for x in found]
    samples: dict[int, list[int | None]] = {t: [] for t in trumps}
    bounds: dict[int, list[tuple[int, int]]] = {t: [] for t in trumps}

    def declarers(team0_value: int, held: int) -> int:
        """The declaring team's points, clipped, of team 0's value of the play."""
        team0 = team0_value + (held if team == 0 else 0)
        return min(max(team0 if team == 0 else v.total_points - team0, lo), hi)
    for (t, held), value in zip(keys, values):
        if isinstance(value, int):
            x = declarers(value, held)
            samples[t].append(x)
            bounds[t].append((x, x))
        else:    # stopped by a budget: keep what it proved, a RookError of another kind (None) proves nothing
            samples[t].append(None)
            b = (0, v.total_points) if value is None else value
            ends = sorted((declarers(b[0], held), declarers(b[1], held)))
            bounds[t].append((ends[0], ends[1]))
    return BidOdds(v, seat, mine, worlds, seed, samples, bounds)
