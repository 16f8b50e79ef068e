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
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

from ..errors import RookError
from ..rng import hand_seed
from ..variant import Variant, as_variant
from .chunks import Inline, process_pool, run_chunks

__all__ = ["odds_many", "review_many"]


def _pool(workers: int, executor: Executor | None) -> tuple[Executor | Inline, bool]:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RookError(f"workers must be a positive int, not {workers!r}")
    return process_pool(workers, executor)


def _review_chunk(documents: Sequence[str], node_budget: int, first: int, count: int) -> list[list[dict[str, Any]]]:
    from ..review import played_hands, review_hand
    return [[review_hand(h, node_budget=node_budget).to_json() for h in played_hands(documents[i])]
            for i in range(first, first + count)]


def review_many(documents: Sequence[Any], *, node_budget: int = 0, workers: int = 1,
                executor: Executor | None = None, chunk: int = 8,
                progress: Callable[[int, int], None] | None = None) -> list[list[dict[str, Any]]]:
    """Return, for each document (a hand, game or history, as ``rook analyse``
    reads it), the JSON reviews of its played hands, in order.

    :raises RookError: for a bad document (naming it by its index) or count.
    """
    texts = []
    for i, d in enumerate(documents):
        try:
            texts.append(d if isinstance(d, str) else json.dumps(d))
        except (TypeError, ValueError) as e:
            raise RookError(f"document {i} is not JSON data: {e}") from None
    pool, own = _pool(workers, executor)
    parts = run_chunks(partial(_review_chunk, tuple(texts), node_budget), len(texts), max(1, chunk), pool, own,
                       progress)
    return [r for part in parts for r in part]


def _odds_chunk(variant: Variant, hands: Sequence[tuple[tuple[int, ...], int]], worlds: int, seed: int,
                node_budget: int, first: int, count: int) -> list[dict[str, Any]]:
    from ..odds import bid_odds
    return [bid_odds(variant, list(hands[i][0]), seat=hands[i][1], worlds=worlds, seed=hand_seed(seed, i),
                     node_budget=node_budget).to_json() for i in range(first, first + count)]


def odds_many(variant: Variant | str, hands: Sequence[tuple[Sequence[int], int]], *, worlds: int = 200,
              seed: int = 0, node_budget: int = 0, workers: int = 1, executor: Executor | None = None,
              chunk: int = 4, progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Return the bid odds (``BidOdds.to_json``) of each ``(cards, seat)`` of
    ``hands`` (card ids), in order; hand ``i`` draws its worlds from
    ``hand_seed(seed, i)``.

    :raises RookError: for a bad count; the odds' own errors for a bad hand.
    """
    v = as_variant(variant)
    items = tuple((tuple(int(c) for c in cards), int(seat)) for cards, seat in hands)
    pool, own = _pool(workers, executor)
    parts = run_chunks(partial(_odds_chunk, v, items, worlds, seed, node_budget), len(items), max(1, chunk),
                       pool, own, progress)
    return [r for part in parts for r in part]
