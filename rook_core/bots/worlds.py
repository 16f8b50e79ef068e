"""Deals of the hidden cards consistent with what one seat has seen.

A *world* gives every card the seat has not seen a place: another seat's
hand or the hidden nest.  :func:`sample_world` draws one that agrees with
everything in the seat's :class:`~rook_core.bots.knowledge.Knowledge`:

* each holder gets exactly as many cards as it holds now;
* a seat never gets a card of a suit it showed it lacks (T-9, T-10), nor,
  unless it declared, a card of a nest shown face up (H-5); the hidden nest
  never gets a counter that H-4 forbids the declarer to bury;
* cards the seat passed stay with the seat it passed them to (T-22), and
  the declarer's own discards stay in the nest (T-20, T-21).

The draw goes card by card in a random order; each card goes to one of the
holders that may take it, with odds proportional to the room they have
left, and only where the cards still to place can all be placed (Hall's
condition over the at most 2^4 sets of holders, checked on counts of cards
by the holders they may go to).  So every world drawn is possible, no draw
is ever rejected, and when nothing is known beyond the hand sizes the deal
is uniform.  With voids it is close to uniform, not exactly so.  The bids
are not used here; :mod:`rook_core.bots.bid_signal` weighs the worlds drawn
by how well they explain the auction.

:func:`world_position` and :func:`world_positions` turn worlds into solver positions
(:class:`~rook_core.position.Position`).
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Mapping
from typing import Any

from ..cards import iter_bits
from ..errors import RookError
from ..position import Position
from .knowledge import NEST, Holder, Knowledge

__all__ = ["sample_world", "world_position", "world_positions", "MAX_WORLDS"]

MAX_WORLDS = 100_000
"""The most worlds drawn at once (:func:`world_positions`, a PIMC decision):
each is a deal held in memory, and solved by PIMC, so 10**9 would never end."""


def _check_rng(rng: object) -> None:
    if not isinstance(rng, random.Random):
        raise RookError(f"rng must be a random.Random, not {reprlib.repr(rng)}")


def _feasible(counts: dict[int, int], caps: list[int]) -> bool:
    """Hall's condition: every set S of holders has room for the cards that may go only to S."""
    n = len(caps)
    for s in range(1, 1 << n):
        need = sum(c for a, c in counts.items() if a & ~s == 0)
        room = sum(caps[i] for i in range(n) if s >> i & 1)
        if need > room:
            return False
    return not counts.get(0, 0)


def sample_world(k: Knowledge, rng: random.Random) -> dict[Holder, int]:
    """Return one world: holder (seat or ``"nest"``) -> the cards it holds,
    the seat's own hand and every known card included.

    :raises RookError: when no deal fits what the seat knows (an observation
        that contradicts itself), or for a ``k`` or ``rng`` of the wrong kind.
    """
    if not isinstance(k, Knowledge):
        raise RookError(f"k must be a Knowledge (Knowledge.from_observation), not {type(k).__name__}")
    _check_rng(rng)
    sizes = k.hidden_sizes()
    holders = list(sizes)
    caps = [sizes[h] for h in holders]
    barred = [k.cannot_hold(h) for h in holders]
    allowed_by: dict[int, int] = {}
    for c in iter_bits(k.unseen):
        a = 0
        for i in range(len(holders)):
            if not (barred[i] >> c) & 1:
                a |= 1 << i
        allowed_by[c] = a
    counts: dict[int, int] = {}
    for a in allowed_by.values():
        counts[a] = counts.get(a, 0) + 1
    if sum(caps) != k.unseen.bit_count() or not _feasible(counts, caps):
        raise RookError(f"no deal of the {k.unseen.bit_count()} unseen cards fits what seat "
                        f"{k.seat} has seen (hidden hand sizes {sizes})")
    world: dict[Holder, int] = {h: 0 for h in holders}
    cards = list(allowed_by)
    rng.shuffle(cards)
    for c in cards:
        a = allowed_by[c]
        counts[a] -= 1
        options = [i for i in range(len(holders)) if a >> i & 1 and caps[i]]
        while True:
            pick = rng.random() * sum(caps[i] for i in options)
            for i in options:
                pick -= caps[i]
                if pick < 0:
                    break
            caps[i] -= 1
            if _feasible(counts, caps):
                break
            caps[i] += 1
            options.remove(i)     # Hall's condition held before this card: some holder fits
        world[holders[i]] |= 1 << c
    world[k.seat] = k.hand
    for h, m in k.known.items():
        world[h] = world.get(h, 0) | (m & ~k.played)
    return world


def world_positions(observation: Mapping[str, Any], n: int, rng: random.Random,
                    k: Knowledge | None = None) -> list[Position]:
    """Return ``n`` solver positions, one per world drawn for the seat of
    ``observation`` (a play-phase observation, T-8 .. T-15).

    :raises RookError: outside the play phase, for an ``n`` that is no int
        0 .. :data:`MAX_WORLDS`, or as :func:`sample_world`.
    """
    if not isinstance(observation, Mapping):
        raise RookError(f"worlds are drawn for a seat's observation, not {reprlib.repr(observation)}")
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_WORLDS:
        raise RookError(f"n must be an int 0 .. {MAX_WORLDS:,} (worlds), not {reprlib.repr(n)}")
    _check_rng(rng)
    if observation.get("phase") != "play":
        raise RookError(f"worlds are drawn in the play phase, not {observation.get('phase')!r}")
    if k is None:
        k = Knowledge.from_observation(observation)
    return [world_position(k, observation, sample_world(k, rng)) for _ in range(n)]


def world_position(k: Knowledge, observation: Mapping[str, Any], world: Mapping[Holder, int]) -> Position:
    """Return the solver position of one ``world`` (:func:`sample_world`) of
    the seat of the play-phase ``observation`` it was drawn for.  The nest's
    points are in it when they go to the last trick (T-13); when they go to
    the declarer (section 4) they are the world's ``"nest"`` cards' points,
    added to the declarer's team after the play."""
    v = k.variant
    assert k.trump is not None
    leader = k.trick[0][0] if k.trick else int(observation["to_move"])
    trick = tuple(c for _, c in k.trick)
    taken = (int(observation["points"][0]), int(observation["points"][1]))
    tricks = (int(observation["tricks_won"][0]), int(observation["tricks_won"][1]))
    nest_points = k.rules.points(world.get(NEST, 0)) if v.nest_to == "last_trick" else 0
    hands = (world[0], world[1], world[2], world[3])
    return Position(v, k.trump, leader, trick, hands, nest_points, taken, tricks=tricks)
