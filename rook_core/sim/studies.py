"""Studies of many hands: reviews and bid odds in bulk, on the simulator's executors.

A study of a million deals does not fit one process: :func:`review_many`
reviews the played hands of many documents (``rook analyse``,
:mod:`rook_core.review`) and :func:`odds_many` gives the bid odds of many
hands (``rook odds``, :mod:`rook_core.odds`), both in chunks on ``workers``
processes or on any :class:`concurrent.futures.Executor` (a Dask cluster
through ``distributed.Client(...).get_executor()``), the chunks put back in
order (:func:`~rook_core.sim.chunks.run_chunks`).  Every answer depends only
on its own input (a review is exact, the odds of hand ``i`` are drawn from
the seed ``hand_seed(seed, i)``), so the results never depend on the
workers, the chunks or the executor.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

from ..cards import parse_cards
from ..errors import RookError, check_progress
from ..rng import check_seed, hand_seed
from ..variant import Variant, as_variant
from .chunks import Inline, check_executor, check_workers, chunk_count, process_pool, run_chunks

__all__ = ["odds_many", "review_many"]


def _pool(workers: int, executor: Executor | None, chunk: int, n: int, node_budget: int,
          progress: Callable[[int, int], None] | None) -> tuple[Executor | Inline, bool]:
    """Check a study's shared arguments; return its pool and whether it owns it."""
    workers = check_workers(workers)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise RookError(f"chunk must be a positive int, not {chunk!r}")
    if isinstance(node_budget, bool) or not isinstance(node_budget, int) or not 0 <= node_budget < 2**63:
        raise RookError(f"node_budget must be an int 0 .. 2**63-1 (0: no limit), not {node_budget!r}")
    check_executor(executor)
    check_progress(progress)
    return process_pool(workers, executor, chunk_count(n, chunk))


def _listed(items: object, what: str) -> list[Any]:
    if isinstance(items, (str, bytes, dict)) or not isinstance(items, Iterable):
        raise RookError(f"{what} must be a list, not {items!r}")
    out: list[Any] = list(items)
    return out


def _review_chunk(documents: Sequence[str], node_budget: int, first: int, count: int) -> list[list[dict[str, Any]]]:
    from ..review import played_hands, review_hand
    return [[review_hand(h, node_budget=node_budget).to_json() for h in played_hands(documents[i])]
            for i in range(first, first + count)]


def review_many(documents: Sequence[Any], *, node_budget: int = 0, workers: int = 1,
                executor: Executor | None = None, chunk: int = 8,
                progress: Callable[[int, int], None] | None = None) -> list[list[dict[str, Any]]]:
    """Return, for each document (a hand, game or history, as ``rook analyse``
    reads it), the JSON reviews of its played hands, in order.

    :raises RookError: for a bad document (naming it by its index) or count;
        the documents are read before any review begins.
    """
    from ..review import played_hands
    texts = []
    for i, d in enumerate(_listed(documents, "documents")):
        try:
            # text as played_hands reads it (bytes too), anything else as the JSON data it holds
            texts.append(d if isinstance(d, str) else d.decode() if isinstance(d, bytes) else json.dumps(d))
            played_hands(texts[-1])
        except RookError as e:     # (a ValueError too)
            raise RookError(f"document {i}: {e}") from None
        except (TypeError, ValueError, RecursionError) as e:    # (UnicodeDecodeError too)
            raise RookError(f"document {i} is not JSON data: {e}") from None
    pool, own = _pool(workers, executor, chunk, len(texts), node_budget, progress)
    parts = run_chunks(partial(_review_chunk, tuple(texts), node_budget), len(texts), chunk, pool, own,
                       progress)
    return [r for part in parts for r in part]


def _odds_item(v: Variant, i: int, item: Any) -> tuple[tuple[Any, ...] | str, int]:
    """Hand ``i`` of :func:`odds_many` checked: its cards (ids or names) and its seat.

    :raises RookError: naming the hand by its index.
    """
    try:
        cards, seat = item
    except (TypeError, ValueError):
        raise RookError(f"hand {i} must be a pair (cards, seat), not {item!r}") from None
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= int(seat) <= 3:
        raise RookError(f"hand {i}: seat must be 0..3, not {seat!r}")
    try:
        cards = cards if isinstance(cards, str) else tuple(
            int(c) if isinstance(c, numbers.Integral) and not isinstance(c, bool) else c for c in cards)
        mine = parse_cards(cards, deck_mask=v.deck_mask, what="hand")
    except TypeError:
        raise RookError(f"hand {i}: the cards must be a list of card ids or names, not {cards!r}") from None
    except RookError as e:
        raise RookError(f"hand {i}: {e}") from None
    if mine.bit_count() != v.hand_size:
        raise RookError(f"hand {i} has {mine.bit_count()} cards; {v.name} deals {v.hand_size} (T-2)")
    return cards, int(seat)


def _odds_chunk(variant: Variant, hands: Sequence[tuple[tuple[Any, ...] | str, int]], worlds: int, seed: int,
                node_budget: int, first: int, count: int) -> list[dict[str, Any]]:
    from ..odds import bid_odds
    return [bid_odds(variant, hands[i][0], seat=hands[i][1], worlds=worlds, seed=hand_seed(seed, i),
                     node_budget=node_budget).to_json() for i in range(first, first + count)]


def odds_many(variant: Variant | str, hands: Sequence[tuple[Sequence[int], int]], *, worlds: int = 200,
              seed: int = 0, node_budget: int = 0, workers: int = 1, executor: Executor | None = None,
              chunk: int = 4, progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Return the bid odds (``BidOdds.to_json``) of each ``(cards, seat)`` of
    ``hands`` (card ids), in order; hand ``i`` draws its worlds from
    ``hand_seed(seed, i)``.

    :raises RookError: for a bad count (``worlds`` too, even with no hand)
        or seed, or a bad hand (naming it by its index); every hand is read
        before any odds are drawn.
    """
    from ..odds import check_worlds
    v = as_variant(variant)
    seed = check_seed(seed)
    check_worlds(worlds)
    items = tuple(_odds_item(v, i, h) for i, h in enumerate(_listed(hands, "hands")))
    pool, own = _pool(workers, executor, chunk, len(items), node_budget, progress)
    parts = run_chunks(partial(_odds_chunk, v, items, worlds, seed, node_budget), len(items), chunk,
                       pool, own, progress)
    return [r for part in parts for r in part]
