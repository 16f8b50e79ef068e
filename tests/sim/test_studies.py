"""Reviews and bid odds in bulk (rook_core.sim.studies): the same answers
whatever the workers and chunks, equal to one-by-one calls."""

from __future__ import annotations

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from rook_core import Game, HandState, RookError
from rook_core.odds import bid_odds
from rook_core.review import review_game
from rook_core.rng import hand_seed
from rook_core.sim.studies import odds_many, review_many


def _games(n: int) -> list[Game]:
    out = []
    for seed in range(n):
        g = Game("tournament", seed)
        rng = random.Random(seed)
        while g.hand_number < 3 and not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        out.append(g)
    return out


def test_review_many_equals_one_review_at_a_time_on_any_workers() -> None:
    games = _games(4)
    docs = [g.to_json() for g in games]
    one = review_many(docs)
    assert one == [[r.to_json() for r in review_game(g)] for g in games]
    assert review_many(docs, workers=2, chunk=1) == one
    seen: list[tuple[int, int]] = []
    review_many(docs, chunk=3, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(3, 4), (4, 4)]


def test_odds_many_draws_hand_i_from_its_own_seed() -> None:
    hands = [([int(c) for c in HandState.deal("tournament", s).hand(2)], 2) for s in range(3)]
    many = odds_many("tournament", hands, worlds=3, seed=5)
    assert many == odds_many("tournament", hands, worlds=3, seed=5, workers=2, chunk=1)
    for i, (cards, seat) in enumerate(hands):
        assert many[i] == bid_odds("tournament", cards, seat=seat, worlds=3, seed=hand_seed(5, i)).to_json()


def test_studies_on_processes_started_by_forkserver_give_the_same_answers() -> None:
    """forkserver (Linux's default from Python 3.14): the workers import
    rook_core anew; the reviews and odds are those of one thread."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no forkserver start method on this platform")
    docs = [g.to_json() for g in _games(2)]
    hands = [([int(c) for c in HandState.deal("tournament", 1).hand(0)], 0)]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as ex:
        assert review_many(docs, executor=ex, chunk=1) == review_many(docs)
        assert odds_many("tournament", hands, worlds=3, seed=2, executor=ex) == odds_many("tournament", hands,
                                                                                          worlds=3, seed=2)


def test_bad_studies_are_refused_by_name() -> None:
    with pytest.raises(RookError, match="workers"):
        review_many([], workers=0)
    with pytest.raises(RookError, match="document 0"):
        review_many([object()])
