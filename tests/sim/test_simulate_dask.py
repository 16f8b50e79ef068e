"""The simulator on a Dask cluster (a local one, two worker processes):
the same seed gives the same results as the local run (T-2: deals depend
only on their seeds)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from rook_core.sim.simulate import simulate

distributed = pytest.importorskip("distributed")

AGENTS = ["heuristic", "random", "heuristic", "random"]


WATCHDOG_S = 300      # a cluster that stops answering fails the test instead of hanging it


@pytest.fixture(scope="module")
def dask_executor():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            client.wait_for_workers(2, timeout=120)
            yield client.get_executor()


def _watched(**kwargs):
    """Run simulate(**kwargs) with a watchdog."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(simulate, **kwargs).result(timeout=WATCHDOG_S)


@pytest.mark.parametrize("native", [None, False])
def test_dask_cluster_gives_the_local_results(dask_executor, native) -> None:
    """Both the native loop's chunks and the Python agents run on the cluster."""
    local = simulate("tournament", AGENTS, hands=120, seed=21, duplicate=True)
    remote = _watched(preset="tournament", agents=AGENTS, hands=120, seed=21, duplicate=True,
                      executor=dask_executor, chunk=13, native=native)
    assert remote == local


def test_dask_cluster_games_and_progress(dask_executor) -> None:
    seen: list[tuple[int, int]] = []
    remote = _watched(preset="crowsnest", agents=AGENTS, games=6, seed=4, executor=dask_executor,
                      chunk=2, progress=lambda done, total: seen.append((done, total)), native=False)
    assert remote == simulate("crowsnest", AGENTS, games=6, seed=4)
    assert seen == [(2, 6), (4, 6), (6, 6)]


def test_reviews_and_odds_run_on_the_cluster_as_at_home(dask_executor) -> None:
    """Studies of many hands (rook_core.sim.studies) give the local answers on a cluster."""
    from rook_core import Game
    from rook_core.sim.studies import odds_many, review_many
    docs = []
    for seed in range(3):
        g = Game("tournament", seed)
        while g.hand_number < 3 and not g.is_over:
            g.apply(g.legal_actions()[len(g.history()) % len(g.legal_actions())])
        docs.append(g.to_json())
    with ThreadPoolExecutor(1) as pool:
        remote = pool.submit(review_many, docs, executor=dask_executor, chunk=1).result(timeout=WATCHDOG_S)
    assert remote == review_many(docs)
    hands = [([int(c) for c in Game("crowsnest", s).current.hand(1)], 1) for s in range(3)]
    with ThreadPoolExecutor(1) as pool:
        far = pool.submit(odds_many, "crowsnest", hands, worlds=4, seed=2, executor=dask_executor,
                          chunk=1).result(timeout=WATCHDOG_S)
    assert far == odds_many("crowsnest", hands, worlds=4, seed=2)
