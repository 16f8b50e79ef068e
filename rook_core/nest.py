"""The nest decision, double dummy: which cards to bury and which trump to name.

A declarer who has just taken the nest (T-20) holds ``hand_size +
nest_size`` cards, buries ``nest_size`` of them and names trump (T-7); then
the play begins.  With every hand visible, :func:`nest_decision` finds, for
each trump, the discard that gives the declarer's team the most points from
the play (counters, the nest and the last-trick bonus, T-12 .. T-14), and
that many points.

How it stays far below 2,002 x 4 exact solves (``tournament``):

* equivalent discards are tried once.  Under a given trump, two of the
  declarer's cards of one suit with no other player's card ranked between
  them and the same points play the same part (they are equivalent cards of
  the solver), so a discard is only a number of cards taken from each such
  class;
* the best-looking discards of a trump are tried first, in turns: the
  cheapest (low cards of short side suits, no trumps, no counters) and the
  best-banking (the most counters buried, no trumps: the nest's points go
  to the last trick's team); each discard after the first is
  asked the yes/no question "can the declarer's team take more than the best
  so far?" (:meth:`Solver.at_least`), which usually costs much less than an
  exact value; only a "yes" is solved exactly; once the best takes every
  point of the hand, the rest cannot beat it and are not searched;
* one solver table (256 MiB by default) serves every discard of a trump
  (and, emptied, the next trump searched on the same thread):
  positions a few tricks on often coincide, and an entry proven with other
  nest points still bounds the value (see ``src/rook/solve/table.h``).

The four trumps are independent searches, spread over ``workers`` threads
(one solver each; the search releases the GIL).  The answer depends on
neither the number of workers nor the timing: ties go to the discard tried
first, in a fixed order.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._layout import BB_COLORS
from ._native import rules_for
from .actions import TRUMP, Phase
from .cards import CardSet, color_name
from .errors import PositionError, RookError, check_progress
from .solver import BudgetExceeded, Solver, map_on_threads

if TYPE_CHECKING:
    from .hand import HandState

__all__ = ["NestDecision", "TrumpChoice", "best_looking_discards", "discard_order", "nest_decision", "play_after"]

# Under a time limit, the table of each thread is at most this many bytes
# for each second of a trump's share (at least MIN_TIMED_TABLE): about what
# the searches of that time can fill.
TABLE_BYTES_PER_SECOND = 128 << 20
MIN_TIMED_TABLE = 24 << 20
FIRST_LOOKS = 10   # discards tried first, cheapest-looking first (see _best_for_trump)
FIRST_BANKS = 20   # and, in turns with them, the best-banking (_banked)


@dataclass(frozen=True)
class TrumpChoice:
    """The best discard under one trump.

    ``points``: what the declarer's team takes from the play (double dummy)
    after burying ``discard`` and naming ``trump``, the nest included when it
    goes to the last trick (T-13) or to the declarer (section 4).
    ``value``: the FORMATS.md value of that play position (team 0's points).
    ``discards``: distinct discards considered; ``solved``: how many of them
    were solved exactly (a search that a budget or the time limit cut short
    is not counted); ``nodes``: search nodes spent on this trump.

    Under a node budget: ``exact`` is False when the budget cut short the
    chosen discard's own solve; ``points`` is then what that discard surely
    gives (a lower bound) and ``value`` the matching bound on team 0's value.
    ``unsettled`` counts the discards the budget left undecided: any of them
    might beat the choice.  Under a time limit (:func:`nest_decision`'s
    ``time_limit``) the same holds, the discards not reached counted in
    ``unsettled``.  Without either, ``exact`` is True and ``unsettled`` 0.
    """

    trump: int
    discard: CardSet
    points: int
    value: int
    discards: int = 0
    solved: int = 0
    nodes: int = 0
    exact: bool = True
    unsettled: int = 0

    @property
    def proven(self) -> bool:
        """Whether ``points`` is proven to be the best under this trump."""
        return self.exact and not self.unsettled

    def to_json(self) -> dict[str, Any]:
        return {"trump": color_name(self.trump), "discard": self.discard.names(),
                "points": self.points, "value": self.value, "discards": self.discards,
                "solved": self.solved, "nodes": self.nodes, "exact": self.exact,
                "unsettled": self.unsettled}


@dataclass(frozen=True)
class NestDecision:
    """The declarer's best discard for each trump, and the best of them."""

    declarer: int
    choices: list[TrumpChoice] = field(default_factory=list)

    @property
    def best(self) -> TrumpChoice:
        """The choice with the most points (the first trump in color order on a tie)."""
        return max(self.choices, key=lambda c: (c.points, -c.trump))

    @property
    def nodes(self) -> int:
        return sum(c.nodes for c in self.choices)

    @property
    def proven(self) -> bool:
        """Whether every trump's choice is proven best (no budget ran out)."""
        return all(c.proven for c in self.choices)

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {"declarer": self.declarer, "best": {"trump": color_name(best.trump),
                                                    "discard": best.discard.names(),
                                                    "points": best.points},
                "trumps": [c.to_json() for c in self.choices], "nodes": self.nodes,
                "proven": self.proven}


# ---------------------------------------------------------------- discards

def _classes(hand: HandState, trump: int, allowed: int) -> list[list[int]]:
    """Return the declarer's discardable cards in classes of equivalent cards
    under ``trump``: one suit (T-10), no other seat's card ranked between
    them, the same points (T-12); the bird and any card playable at any time
    (T-9) stand alone.  Each class is ordered weakest first."""
    rules = rules_for(hand.variant)
    me = hand.seat_to_move()
    mine = hand.hand_mask(me)
    others = 0
    for s in range(4):
        if s != me:
            others |= hand.hand_mask(s)
    classes: dict[tuple[int, int, int], list[int]] = {}
    singles: list[list[int]] = []
    done = 0
    for c in CardSet(mine):
        card = int(c)
        if done >> card & 1:
            continue
        suit = rules.suit_mask(card, trump)
        done |= suit & mine
        order = sorted(CardSet(suit & (mine | others)), key=lambda x: rules.strength(int(x)))
        run = 0
        for x in order:
            xi = int(x)
            if others >> xi & 1:
                run += 1
                continue
            if not allowed >> xi & 1:
                continue
            if x.is_bird:
                singles.append([xi])
                continue
            classes.setdefault((suit, run, rules.points(1 << xi)), []).append(xi)
    return list(classes.values()) + singles


def _discards(classes: list[list[int]], k: int) -> Iterator[tuple[int, ...]]:
    """Yield every way of burying ``k`` cards, as the weakest cards of each
    class taken (one discard per choice of counts)."""
    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(classes):
            return
        cls = classes[i]
        for take in range(min(left, len(cls)), -1, -1):
            for rest in rec(i + 1, left - take):
                yield tuple(cls[:take]) + rest
    yield from rec(0, k)


def _looks_cheap(hand: HandState, trump: int, discard: tuple[int, ...]) -> tuple[Any, ...]:
    """Sort key, best-looking discard first: fewest trumps and points buried,
    then the most side suits emptied, then the weakest cards."""
    rules = rules_for(hand.variant)
    mine = hand.hand_mask(hand.seat_to_move())
    gone = 0
    for c in discard:
        gone |= 1 << c
    trumps = rules.trump_mask(trump)
    kept = mine & ~gone
    voids = 0
    for color in range(4):
        side = BB_COLORS[color] & ~trumps
        if color != trump and mine & side and not kept & side:
            voids += 1
    return (bin(gone & trumps).count("1"), rules.points(gone), -voids,
            sum(rules.strength(c) for c in discard), discard)


def _banked(cheap: tuple[Any, ...]) -> tuple[Any, ...]:
    """Sort key from a discard's :func:`_looks_cheap` key: most points buried
    first (no trumps buried first, then the most side suits emptied, then
    the weakest cards): the nest goes to the team of the last trick (T-13)
    or to the declarer, so counters buried are often banked -- the best
    discard of a hand that holds the last trick."""
    trumps, points, voids, strength, cards = cheap
    return (trumps, -points, voids, strength, cards)


def _interleave(a: list[int], b: list[int]) -> Iterator[int]:
    """Yield a[0], b[0], a[1], b[1], ... then what is left of the longer."""
    for i in range(max(len(a), len(b))):
        if i < len(a):
            yield a[i]
        if i < len(b):
            yield b[i]


# ------------------------------------------------------------------ search

def _is_hand(hand: object) -> None:
    """Refuse anything but a :class:`~rook_core.hand.HandState`.

    :raises RookError: naming what was given."""
    from .hand import HandState
    if not isinstance(hand, HandState):
        raise RookError(f"the nest decision reads a HandState, not {type(hand).__name__}")


def _is_trump(trump: object) -> int:
    """Return ``trump`` if it is a color 0..3 (T-7).

    :raises RookError: naming it."""
    if isinstance(trump, bool) or not isinstance(trump, int) or trump not in range(4):
        raise RookError(f"trump must be a color 0..3 (T-7), not {trump!r}")
    return trump


def _at_decision(hand: HandState) -> None:
    """Refuse a hand that is not at the declarer's nest decision as
    :func:`nest_decision` takes it (see :func:`_check`).

    :raises PositionError: saying why."""
    _is_hand(hand)
    v = hand.variant
    h3 = "discard" in v.post_bid_order
    if not (hand.phase == Phase.NEST or (hand.phase == Phase.TRUMP and h3)):
        raise PositionError(f"the nest decision needs a hand in the nest phase (the declarer "
                            f"has taken the nest, T-20), or at trump with the nest taken (H-3), "
                            f"not {hand.phase.label}")
    steps = list(v.post_bid_order)
    if "pass" in steps[steps.index("nest"):]:
        raise PositionError(f"variant {v.name!r}: cards are passed after the nest "
                            f"(T-22), so the hands the play starts from are not known yet")


def _check(hand: HandState) -> tuple[int, int, list[tuple[int, HandState]]]:
    """Return (declarer, cards to bury, [(trump, the hand in the nest phase
    under it)]) for a hand whose play follows the discard (and the trump)
    directly: a hand in the nest phase (T-20), or, under H-3, a hand at
    trump whose declarer holds the nest already."""
    _at_decision(hand)
    v = hand.variant
    declarer = hand.seat_to_move()
    if hand.phase == Phase.TRUMP:      # H-3: each trump, then its discard
        return declarer, v.nest_size, [(t, _trump_named(hand, t)) for t in range(4)]
    if hand.trump is not None:
        return declarer, hand.remaining, [(hand.trump, hand)]
    return declarer, hand.remaining, [(t, hand) for t in range(4)]


def _trump_named(hand: HandState, trump: int) -> HandState:
    """A copy of ``hand`` (at trump, H-3) with ``trump`` named: the discard follows."""
    state = hand.clone()
    state.apply(TRUMP + trump)
    return state


def _options(hand: HandState, trump: int, k: int) -> list[tuple[int, ...]]:
    """Return the distinct legal ways of burying the ``k`` cards still due
    under ``trump`` (T-20, H-4): one per choice of how many cards of each
    class of equivalent cards go (:func:`_classes`).  A card is legal now
    exactly when some legal discard holds it (src/rook/hand.c), so the
    classes are built from the legal cards and a set is kept when its cards
    go in one after another."""
    allowed = 0
    for a in hand.legal_actions():
        if a < 64:
            allowed |= 1 << a
    options = list(_discards(_classes(hand, trump, allowed), k))
    if hand.variant.discard_counters:
        return options
    return [o for o in options if _buries(hand, o)]


def _buries(hand: HandState, discard: tuple[int, ...]) -> bool:
    """Whether the declarer may bury all of ``discard`` (T-20, H-4)."""
    state = hand.clone()
    for c in discard:
        if not state.legal_mask() >> c & 1:
            return False
        state.apply(c)
    return True


def _play_state(hand: HandState, discard: tuple[int, ...], trump: int) -> HandState:
    state = hand.clone()
    for c in discard:
        state.apply(c)
    if state.phase == Phase.TRUMP:
        state.apply(TRUMP + trump)
    if state.phase != Phase.PLAY:
        raise PositionError(f"after the discard and the trump the hand is in the "
                            f"{state.phase.label} phase, not play")
    return state


def _declarer_points(state: HandState, value: int, total: int, declarer: int) -> int:
    team = declarer % 2
    points = value if team == 0 else total - value
    if state.variant.nest_to == "declarer":
        points += state.nest_points  # section 4: the nest is the declarer's already
    return points


def _total(state: HandState) -> int:
    rules = rules_for(state.variant)
    cards = 0
    for s in range(4):
        cards |= state.hand_mask(s)
    total: int = rules.points(cards) + state.variant.last_trick_bonus + state.variant.most_tricks_bonus
    if state.variant.nest_to == "last_trick":
        total += state.nest_points
    return total


def discard_order(hand: HandState, trump: int, k: int) -> list[tuple[int, ...]]:
    """Return the distinct legal ways of burying ``k`` cards under ``trump``
    (:func:`_options`), best-looking first: the ``FIRST_LOOKS``
    cheapest-looking and the ``FIRST_BANKS`` best-banking discards in turns,
    then the rest in the order :func:`_discards` makes them.

    The order reads only the declarer's cards and which cards are elsewhere,
    so in the nest phase (every other card in another hand) it is the same
    in every deal that gives the declarer these cards.

    :raises RookError: for a ``hand`` not in the nest phase (T-20), a
        ``trump`` that is no color 0..3 or a ``k`` other than an int from 0 to
        the cards the declarer still has to bury (``hand.remaining``: a
        discard of more is no legal discard)."""
    _is_hand(hand)
    if hand.phase != Phase.NEST:
        raise PositionError(f"discards are ordered in the nest phase (T-20), not {hand.phase.label}")
    _is_trump(trump)
    due = hand.remaining
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= due:
        raise RookError(f"k must be an int 0..{due} (the cards still to bury, T-20), not {k!r}")
    options = _options(hand, trump, k)
    keys = [_looks_cheap(hand, trump, o) for o in options]
    looks = sorted(range(len(options)), key=lambda i: keys[i])
    banks = sorted(range(len(options)), key=lambda i: _banked(keys[i]))
    first: list[int] = []
    for i in _interleave(looks[:FIRST_LOOKS], banks[:FIRST_BANKS]):
        if i not in first:
            first.append(i)
    chosen = set(first)
    return [options[i] for i in first] + [o for i, o in enumerate(options) if i not in chosen]


def best_looking_discards(hand: HandState, count: int) -> list[tuple[int, tuple[int, ...]]]:
    """Return ``(trump, discard)`` for the first ``count`` discards of
    :func:`discard_order` under each trump :func:`nest_decision` would try,
    for a hand at the declarer's nest decision (as :func:`nest_decision`
    takes it); :func:`play_after` gives the play that follows one.

    :raises PositionError: as :func:`nest_decision`.
    :raises RookError: for a ``count`` that is not an int >= 0."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RookError(f"count must be an int >= 0, not {count!r}")
    _, k, starts = _check(hand)
    return [(t, d) for t, state in starts for d in discard_order(state, t, k)[:count]]


def play_after(hand: HandState, trump: int, discard: tuple[int, ...]) -> HandState:
    """Return the play position after the declarer of ``hand`` (at its nest
    decision, as :func:`nest_decision` takes it) names ``trump`` and buries
    ``discard``, in the variant's order of the two steps (T-7, H-3).

    :raises PositionError: as :func:`nest_decision`, for a ``trump`` other
        than the one already named (T-7: trump before the nest), or a
        ``discard`` that does not start the play.
    :raises RookError: for a ``trump`` that is no color 0..3, a
        ``discard`` that is not a list of card ids, or one of another number
        of cards than are still to bury (T-20: one more would be played to
        the first trick where the declarer leads it).
    :raises IllegalActionError: for a card the declarer may not bury (T-20, H-4)."""
    _at_decision(hand)
    _is_trump(trump)
    if hand.trump is not None and trump != hand.trump:
        raise PositionError(f"trump was named {color_name(hand.trump)} before the nest (T-7), "
                            f"not {color_name(trump)}")
    if isinstance(discard, (str, bytes)) or not isinstance(discard, Iterable):
        raise RookError(f"discard must be a list of card ids 0..63, not {discard!r}")
    discard = tuple(discard)
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 64 for c in discard):
        raise RookError(f"discard must be a list of card ids 0..63, not {discard!r}")
    due = hand.variant.nest_size if hand.phase == Phase.TRUMP else hand.remaining   # H-3: none buried yet
    if len(discard) != due:
        raise RookError(f"discard must be the {due} card(s) still to bury (T-20), not {len(discard)}: "
                        f"{list(discard)!r}")
    if hand.phase == Phase.TRUMP:     # H-3: trump, then the discard
        hand = _trump_named(hand, trump)
    return _play_state(hand, discard, trump)


def _best_for_trump(hand: HandState, declarer: int, k: int, trump: int, solver: Solver,
                    tick: Callable[[], None], deadline: float = 0.0) -> TrumpChoice:
    # The best-looking discards first (a high bar early makes the others
    # cheap to refute: with the best discard first, 2.8x fewer nodes on seed
    # 6006), then the rest in the order _discards makes them: neighbours
    # differ in few cards, so their searches meet the same positions in the table.
    options = discard_order(hand, trump, k)
    if not options:
        raise PositionError(f"the declarer cannot bury {k} cards")
    ceiling = hand.variant.total_points   # no discard gives the declarer's team more
    team = declarer % 2
    best: tuple[int, int, tuple[int, ...], bool] | None = None  # (points, value, discard, exact)
    solved = nodes = 0

    def consider(discard: tuple[int, ...]) -> bool:
        """Compare one discard with the best so far (solving it exactly when
        it beats it); return False when the node budget left it undecided:
        not compared, or not solved exactly (then it may be the best with
        what its declarer's team is sure of, and its other end may still beat
        the final best)."""
        nonlocal best, solved, nodes
        state = _play_state(hand, discard, trump)
        total = _total(state)
        extra = state.nest_points if state.variant.nest_to == "declarer" else 0
        lo, hi = 0, total        # team 0's value, as far as it is proven
        if best is not None:
            # Can the declarer's team beat the best so far?  Team 0's value
            # must reach `want` (team 0 declares) or stay under total - want.
            want = best[0] + 1 - extra
            try:
                better = solver.at_least(state, want, team)
            except BudgetExceeded as e:
                nodes += e.nodes
                return False
            nodes += solver.last_nodes
            if not better:
                return True
            if team == 0:
                lo = want
            else:
                hi = total - want
        exact = True
        try:
            lo = hi = solver.value(state)
            nodes += solver.last_nodes
        except BudgetExceeded as e:
            # keep what is proven: the declarer's team is sure of its end
            nodes += e.nodes
            lo, hi, exact = max(lo, e.lo), min(hi, e.hi), False
        solved += exact
        value = lo if team == 0 else hi
        points = _declarer_points(state, value, total, declarer)
        if best is None or points > best[0]:
            best = (points, value, discard, exact)
        return exact

    def late() -> bool:
        """Whether the trump's share of a time limit is used up (never
        before its first discard, which sets the bar)."""
        return bool(deadline) and best is not None and time.monotonic() >= deadline

    undecided: list[tuple[tuple[int, ...], int]] = []   # (discard, the bar it was asked about)
    for discard in options:
        bar = best[0] if best is not None else -1
        if bar < ceiling and (late() or not consider(discard)):
            undecided.append((discard, bar))
        tick()
    # A budget may have left discards undecided against an earlier, lower
    # bar: ask again against the final one, which is often easier to refute.
    # (The choice itself may be among them: its inexactness is `exact`.)
    assert best is not None
    still = [discard for discard, bar in undecided
             if not (best[0] > bar and not late() and consider(discard))]
    unsettled = sum(1 for discard in still if discard != best[2])
    mask = 0
    for c in best[2]:
        mask |= 1 << c
    return TrumpChoice(trump, CardSet(mask), best[0], best[1], len(options), solved, nodes,
                       best[3], unsettled)


def check_time_limit(time_limit: object, what: str = "time_limit") -> float:
    """Return ``time_limit`` (seconds, 0: none) as :func:`nest_decision` takes it.

    :raises RookError: naming ``what``, for anything but a number in 0 .. 1e9.
    """
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 <= time_limit < 1e9:
        raise RookError(f"{what} must be a number of seconds >= 0, not {time_limit!r}")
    return float(time_limit)


def nest_decision(hand: HandState, *, workers: int = 1, tt_bytes: int = 256 << 20,
                  node_budget: int = 0, time_limit: float = 0.0,
                  progress: Callable[[int, int], None] | None = None) -> NestDecision:
    """Return the declarer's best discard and its points for every trump.

    ``hand``: a ``HandState`` in the nest phase (T-20), the declarer to bury
    (some cards may already be buried; the rest are chosen), or, in the order
    "nest, trump, discard" (H-3), at trump with the nest in the declarer's
    hand.  When trump was named before the discard (T-7, H-3), only that
    trump is tried.  ``workers``
    threads search the trumps side by side, each with a ``tt_bytes`` table
    (its pages are only taken as they are used); ``node_budget`` bounds each
    single search: past it the decision goes on with what that search proved
    and says so (:attr:`TrumpChoice.exact`, :attr:`TrumpChoice.unsettled`,
    :attr:`NestDecision.proven`) instead of losing the work done;
    ``time_limit`` (seconds, 0: none) bounds the whole decision: each trump
    gets an equal share of it (the trumps one thread searches one after
    another share its time), on a table of at most
    ``TABLE_BYTES_PER_SECOND`` a second of the share (a share cannot fill
    more) whose pages are touched before the shares begin, so that the
    first trump does not pay for them; each search stops at that share, and past it
    the discards not yet compared are left undecided, counted in
    :attr:`TrumpChoice.unsettled`, the best found so far standing (the first
    discard of each trump is always compared).  The decision then ends in
    about ``time_limit``, at most about twice that, and depends on the
    machine's speed, where a node budget does not;
    ``progress(done, total)`` is called as discards are settled.

    :raises PositionError: for a hand not in the nest phase, or a variant
        that passes cards after the nest (T-22: the hands of the play are not
        known then).
    :raises RookError: for a ``hand`` that is no HandState, or bad
        ``workers``, ``tt_bytes``, ``time_limit`` or ``progress``.
    """
    declarer, k, starts = _check(hand)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RookError(f"workers must be a positive int, not {workers!r}")
    if isinstance(tt_bytes, bool) or not isinstance(tt_bytes, int) or not 1 <= tt_bytes <= 2**40:
        # (the solver checks it too, but a time limit compares it first)
        raise RookError(f"tt_bytes must be an int 1 .. 2**40 (bytes of the table), not {tt_bytes!r}")
    check_time_limit(time_limit)
    check_progress(progress)
    lock = threading.Lock()
    counts = [0, 0]
    if progress is not None:
        counts[1] = sum(len(_options(state, t, k)) for t, state in starts)

    def tick() -> None:
        if progress is not None:
            with lock:
                counts[0] += 1
                progress(counts[0], counts[1])

    # One solver per thread, reused from trump to trump: a new trump empties
    # its table (a new generation), but the memory is only taken once.
    n = min(workers, len(starts))
    share = time_limit / -(-len(starts) // n)    # each trump's seconds: a thread's trumps share the limit
    if share:
        # A share fills at most about TABLE_BYTES_PER_SECOND of table; a bigger
        # table only costs the first touch of its pages.
        tt_bytes = min(tt_bytes, max(MIN_TIMED_TABLE, int(share * TABLE_BYTES_PER_SECOND)))
    solvers = [Solver(tt_bytes, node_budget, time_budget=max(share, 1e-9) if share else 0.0)  # 0 would be none
               for _ in range(n)]
    if share:
        # the pages' first touch before the clocks start, not in the first trump's share
        map_on_threads(Solver.touch, solvers, n)
    free: queue.SimpleQueue[Solver] = queue.SimpleQueue()
    for solver in solvers:
        free.put(solver)

    def one(start: tuple[int, HandState]) -> TrumpChoice:
        trump, state = start
        solver = free.get()
        deadline = time.monotonic() + share if share else 0.0
        try:
            return _best_for_trump(state.clone(), declarer, k, trump, solver, tick, deadline)
        finally:
            free.put(solver)

    return NestDecision(declarer, map_on_threads(one, starts, n))


