"""The simulator's runs that go wrong: bad arguments, bots and executors that
fail, progress callbacks, and the memory a chunk of games sets aside.

Every failure is a RookError that names what is wrong, before any hand is
played where it can be, and never a hang or a pool of idle processes.
"""

from __future__ import annotations

from concurrent.futures import Executor, Future, ThreadPoolExecutor

import numpy as np
import pytest

import rook_core._native as native
from rook_core.bots.outside import python_bot
from rook_core.errors import IllegalActionError, RookError
from rook_core.sim.chunks import Inline, process_pool, run_chunks
from rook_core.sim.simulate import simulate
from rook_core.variant import get_preset

HR = ["heuristic", "random", "heuristic", "random"]
WATCHDOG_S = 120

ACTIONS: list[int] = []


def first_legal(observation):
    """A module-level bot (it pickles): the first legal action, counted."""
    ACTIONS.append(1)
    return observation["legal_actions"][0]


def failing_bot(observation):
    raise ZeroDivisionError("the bot divided by zero")


def test_first_legal_bot_plays() -> None:
    r = simulate("tournament", [python_bot(first_legal)] + HR[1:], hands=3, seed=1)
    assert len(r) == 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_progress_is_reported_as_each_chunk_finishes_in_this_thread(seed: int) -> None:
    """With one worker the chunks run one after another, and each is reported
    before the next begins: the actions counted at each report grow."""
    seen: list[tuple[int, int, int]] = []
    ACTIONS.clear()
    simulate("tournament", [python_bot(first_legal)] + HR[1:], hands=12, seed=seed, chunk=3,
             progress=lambda done, total: seen.append((done, total, len(ACTIONS))))
    assert [(d, t) for d, t, _ in seen] == [(3, 12), (6, 12), (9, 12), (12, 12)]
    counts = [a for _, _, a in seen]
    assert counts == sorted(set(counts)) and counts[-1] == len(ACTIONS)


@pytest.mark.parametrize("native_path", [None, False])
def test_progress_in_the_native_loop_and_python_path_moves_chunk_by_chunk(monkeypatch, native_path) -> None:
    import rook_core.sim.simulate as module
    ran: list[int] = []
    name = "_native_chunk" if native_path is None else "_run_chunk"
    real = getattr(module, name)

    def counted(*args):
        ran.append(args[-1])
        return real(*args)
    monkeypatch.setattr(module, name, counted)
    seen: list[tuple[int, int]] = []
    r = simulate("tournament", HR, hands=20, seed=4, chunk=6, native=native_path,
                 progress=lambda done, total: seen.append((done, sum(ran))))
    assert seen == [(6, 6), (12, 12), (18, 18), (20, 20)]
    assert r == simulate("tournament", HR, hands=20, seed=4)


@pytest.mark.parametrize("native_path", [None, False])
def test_a_progress_that_raises_stops_the_run_with_a_rook_error(native_path) -> None:
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done >= 4:
            raise KeyError("the bar broke")
    with pytest.raises(RookError, match=r"progress\(4, 10\) raised KeyError"):
        simulate("tournament", HR, hands=10, seed=2, chunk=2, native=native_path, progress=progress)
    assert calls == [2, 4]         # the run stopped there


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_raises_is_named_by_hand_seat_and_agent(workers: int) -> None:
    bad = python_bot(failing_bot)
    for seat in (0, 3):
        agents = list(HR)
        agents[seat] = bad
        with pytest.raises(RookError, match=rf"hand 0: seat {seat} \(failing_bot\) raised ZeroDivisionError: "
                                            "the bot divided by zero"):
            simulate("crowsnest", agents, hands=4, seed=1, workers=workers, chunk=2)


def test_a_bot_that_does_not_pickle_is_refused_before_a_pool_starts() -> None:
    """A lambda cannot reach a pool's processes: refused at once, never a hang."""
    from concurrent.futures import ProcessPoolExecutor
    local = python_bot(lambda observation: observation["legal_actions"][0], name="local")
    with ThreadPoolExecutor(1) as watch:
        for kwargs in ({"workers": 2, "chunk": 1},):
            f = watch.submit(simulate, "tournament", [local] + HR[1:], hands=3, seed=1, **kwargs)
            with pytest.raises(RookError, match=r"seat 0 \(local\) cannot go to a pool's processes"):
                f.result(timeout=WATCHDOG_S)
        with ProcessPoolExecutor(1) as pool:
            f = watch.submit(simulate, "tournament", [local] + HR[1:], hands=3, seed=1, executor=pool)
            with pytest.raises(RookError, match="does not pickle"):
                f.result(timeout=WATCHDOG_S)
    # in this process, and on a thread pool, it plays
    assert len(simulate("tournament", [local] + HR[1:], hands=3, seed=1)) == 3


class _Broken(Executor):
    """An executor whose work fails from chunk ``fail_at`` on."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at, self.calls = fail_at, 0

    def submit(self, fn, *args, **kwargs):  # type: ignore[override]
        f: Future = Future()
        self.calls += 1
        if self.calls > self.fail_at:
            f.set_exception(OSError("the worker went away"))
        else:
            f.set_result(fn(*args))
        return f


@pytest.mark.parametrize("native_path", [None, False])
def test_a_failing_executor_is_a_rook_error_naming_the_units(native_path) -> None:
    with pytest.raises(RookError, match=r"units 6 \.\. 8 failed: OSError: the worker went away"):
        simulate("tournament", HR, hands=10, seed=1, chunk=3, executor=_Broken(2), native=native_path)
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    with pytest.raises(RookError, match="the executor refused units 0 .. 4: RuntimeError"):
        simulate("tournament", HR, hands=10, seed=1, chunk=5, executor=pool, native=native_path)


def test_an_illegal_action_keeps_its_type_through_the_chunks() -> None:
    bad = python_bot(lambda observation: 9999, name="nine")
    with pytest.raises(IllegalActionError, match=r"hand 0: seat 1 \(nine\)"):
        simulate("tournament", [HR[0], bad, *HR[2:]], hands=2, seed=1)


def test_run_chunks_runs_each_chunk_after_the_last_is_reported() -> None:
    log: list[str] = []

    def work(first: int, count: int) -> list[int]:
        log.append(f"work {first}")
        return list(range(first, first + count))
    parts = run_chunks(work, 7, 3, Inline(), False, lambda d, n: log.append(f"done {d}"))
    assert [x for p in parts for x in p] == list(range(7))
    assert log == ["work 0", "done 3", "work 3", "done 6", "work 6", "done 7"]


def test_a_pool_has_no_more_processes_than_chunks() -> None:
    pool, own = process_pool(10_000, None, 3)
    try:
        assert own and pool._max_workers == 3  # type: ignore[union-attr]
    finally:
        pool.shutdown()
    assert isinstance(process_pool(8, None, 1)[0], Inline)
    assert isinstance(process_pool(8, None, 0)[0], Inline)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_large_chunk_of_long_games_sets_aside_bounded_memory(monkeypatch, seed: int) -> None:
    """The native loop sets aside max_hands rows a game: a chunk of many games
    with a large max_hands is played a few games at a time, with the same rows."""
    base = simulate("tournament", ["heuristic"] * 4, games=30, seed=seed, max_hands=5000, duplicate=True)
    real = native.sim_games
    set_aside: list[int] = []

    def watched(rules, policies, s, first, n, duplicate, max_hands, *rest):
        set_aside.append(n * (2 if duplicate else 1) * max_hands)
        return real(rules, policies, s, first, n, duplicate, max_hands, *rest)
    monkeypatch.setattr(native, "sim_games", watched)
    big = simulate("tournament", ["heuristic"] * 4, games=30, seed=seed, max_hands=5000, duplicate=True,
                   chunk=30)
    assert big == base
    assert set_aside and max(set_aside) <= 65_536


@pytest.mark.parametrize("native_path", [True, False])
def test_games_whose_rows_outgrow_memory_stop_by_name_as_they_come(monkeypatch, native_path: bool) -> None:
    """How long a game lasts is known only once played (random bots' bids are
    mostly set, so their games seldom end): the rows are weighed as the chunks
    come, and past a quarter of the machine's memory (here made 8 MiB, or
    4 MiB for the slower Python path) the run stops with a RookError naming
    max_hands, not the machine's end; games that end, under the same memory,
    are not stopped."""
    import rook_core.sim.tables as tables
    monkeypatch.setattr(tables, "_memory", lambda: (8 if native_path else 4) << 20)
    max_hands = 20_000 if native_path else 300
    progress: list[int] = []
    with pytest.raises(RookError, match=r"8 games of at most .* hands: stopped.*lower max_hands"):
        simulate("tournament", ["random"] * 4, games=8, seed=1, max_hands=max_hands, chunk=1,
                 native=native_path, progress=lambda done, n: progress.append(done))
    assert progress and progress[-1] < 8            # stopped before the end
    r = simulate("tournament", ["heuristic"] * 4, games=4, seed=1, native=native_path)
    assert len(r.games["unit"]) == 4


@pytest.mark.parametrize("kwargs,message", [
    ({"agents": None}, "agents must be a list of four agents"),
    ({"agents": 4}, "agents must be a list of four agents"),
    ({"duplicate": "no"}, "duplicate must be True or False, not 'no'"),
    ({"duplicate": 1}, "duplicate must be True or False"),
    ({"native": "yes"}, "native must be True, False or None, not 'yes'"),
    ({"agent_options": {"heuristic": {1: 2}}}, r"agent_options\['heuristic'\] must be a dict of keyword"),
    ({"agent_options": {"pimc": {"wordls": 4}}}, "bad options for agent 'pimc'"),
    ({"executor": 5}, "executor must be a concurrent.futures.Executor"),
    ({"executor": "dask"}, "executor must be a concurrent.futures.Executor"),
])
def test_bad_arguments_are_refused_by_name_before_any_hand(kwargs, message) -> None:
    args = {"agents": HR, "hands": 4, **kwargs}
    with pytest.raises(RookError, match=message):
        simulate("tournament", args.pop("agents"), **args)


@pytest.mark.parametrize("agents", [HR, ["random"] * 4, ["heuristic"] * 4])
def test_bid_columns_agree_with_the_contract(agents) -> None:
    """The winning bid is the declarer's highest bid, except where the dealer
    is stuck at the minimum (H-2): then nobody bid and the contract is min_bid."""
    for preset in ("tournament", "house-180", "partnership-57"):
        v = get_preset(preset)
        h = simulate(preset, agents, hands=300, seed=6).hands
        played = h["declarer"] >= 0
        bids = np.stack([h[f"bid_{s}"] for s in range(4)])
        highest = bids.max(axis=0)
        declarer_bid = bids[np.maximum(h["declarer"], 0), np.arange(len(h["bid"]))]
        stuck = played & (highest == 0)
        assert np.array_equal(h["bid"][played & ~stuck], declarer_bid[played & ~stuck])
        assert np.array_equal(h["bid"][played & ~stuck], highest[played & ~stuck])
        if stuck.any():
            assert v.dealer_takes_minimum
            assert (h["bid"][stuck] == v.min_bid).all() and (h["declarer"][stuck] == h["dealer"][stuck]).all()


# ----------------------------------------------------------------- studies and Toonerville

def _crowsnest_hands(k: int) -> list[tuple[list[int], int]]:
    from rook_core import Game
    return [([int(c) for c in Game("crowsnest", s).current.hand(1)], 1) for s in range(k)]


@pytest.mark.parametrize("kwargs,message", [
    ({"seed": -1}, "a seed must be an int in 0 .. 2\\*\\*64-1, not -1"),
    ({"seed": 1.5}, "a seed must be an int"),
    ({"chunk": 0}, "chunk must be a positive int, not 0"),
    ({"chunk": 1.5}, "chunk must be a positive int"),
    ({"progress": 5}, "progress must be a function"),
    ({"executor": 3}, "executor must be a concurrent.futures.Executor"),
    ({"hands": None}, "hands must be a list, not None"),
    ({"hands": [(1, 2, 3)]}, r"hand 0 must be a pair \(cards, seat\)"),
    ({"hands": "bad"}, "hands must be a list"),
    ({"bad_seat": 1.7}, "hand 1: seat must be 0..3, not 1.7"),
    ({"bad_seat": "a"}, "hand 1: seat must be 0..3, not 'a'"),
    ({"bad_cards": [0.5] * 9}, "hand 1: a card must be written"),
    ({"bad_cards": 5}, "hand 1: the cards must be a list"),
    ({"bad_cards": "B5 B6"}, "hand 1 has 2 cards; crowsnest deals 9"),
])
def test_odds_many_refuses_bad_arguments_by_name(kwargs, message) -> None:
    from rook_core.sim.studies import odds_many
    hands = _crowsnest_hands(2)
    if "bad_seat" in kwargs:
        hands[1] = (hands[1][0], kwargs.pop("bad_seat"))
    if "bad_cards" in kwargs:
        hands[1] = (kwargs.pop("bad_cards"), 1)
    args = {"hands": hands, "worlds": 2, **kwargs}
    with pytest.raises(RookError, match=message):
        odds_many("crowsnest", args.pop("hands"), **args)


def test_odds_many_takes_numpy_cards_and_seats_alike() -> None:
    from rook_core.sim.studies import odds_many
    hands = _crowsnest_hands(3)
    base = odds_many("crowsnest", hands, worlds=2, seed=4)
    assert odds_many("crowsnest", [(np.array(c), np.int64(s)) for c, s in hands], worlds=2, seed=4) == base
    assert odds_many("crowsnest", hands, worlds=2, seed=4, chunk=1, workers=2) == base


def test_review_many_names_a_bad_document_by_its_index_before_any_review() -> None:
    from rook_core import Game
    from rook_core.sim.studies import review_many
    g = Game("tournament", 1)
    while g.hand_number < 2 and not g.is_over:
        g.apply(g.legal_actions()[0])
    good = g.to_json()
    with pytest.raises(RookError, match="document 1: a hand, game or history document: not valid JSON"):
        review_many([good, "{nope"])
    with pytest.raises(RookError, match="document 2: not a hand"):
        review_many([good, good, {"a": 1}])
    for kwargs, message in (({"node_budget": -1}, "node_budget must be"), ({"node_budget": "x"}, "node_budget"),
                            ({"chunk": 0}, "chunk must be a positive int"), ({"progress": 1}, "progress must")):
        with pytest.raises(RookError, match=message):
            review_many([good], **kwargs)
    with pytest.raises(RookError, match="documents must be a list"):
        review_many(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs,message", [
    ({"agents": None}, "agents must be a list of Toonerville agents"),
    ({"rounds": None}, "rounds must be a non-empty list of rounds"),
    ({"executor": "x"}, "executor must be a concurrent.futures.Executor"),
    ({"progress": 5}, "progress must be a function"),
])
def test_toonerville_refuses_bad_arguments_by_name(kwargs, message) -> None:
    from rook_core.sim.toonerville import simulate_toonerville
    args = {"agents": ["random"] * 3, "games": 1, **kwargs}
    with pytest.raises(RookError, match=message):
        simulate_toonerville(args.pop("agents"), **args)
