"""The batch simulator: seeds, workers, duplicate mode, columns, summary, output, CLI.

Rule ids: hands are dealt (T-2) by the dealer ``unit % 4`` (T-1), bid
(T-3 .. T-6), scored (T-14, T-30 .. T-32); games end at the target (T-34).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

from rook_core import HandState
from rook_core.bots.agents import act_for, make_agent
from rook_core.cards import CardSet, parse_cards
from rook_core.errors import RookError
from rook_core.rng import agent_seed, hand_seed
from rook_core.sim.report import format_summary, write_report
from rook_core.sim.simulate import GAME_COLUMNS, HAND_COLUMNS, simulate
from rook_core.variant import get_preset

HR = ["heuristic", "random", "heuristic", "random"]


@pytest.fixture(scope="module")
def games_dup():
    return simulate("crowsnest", HR, games=6, seed=11, duplicate=True)


def test_results_do_not_depend_on_workers_chunks_or_executor() -> None:
    base = simulate("tournament", HR, hands=40, seed=3)
    assert simulate("tournament", HR, hands=40, seed=3, chunk=7) == base
    assert simulate("tournament", HR, hands=40, seed=3, workers=2, chunk=5) == base
    with ThreadPoolExecutor(3) as ex:
        assert simulate("tournament", HR, hands=40, seed=3, executor=ex, chunk=9) == base
    assert simulate("tournament", HR, hands=40, seed=4) != base
    # a prefix of a run is the shorter run
    short = simulate("tournament", HR, hands=15, seed=3)
    assert all(np.array_equal(short.hands[k], base.hands[k][:15]) for k in HAND_COLUMNS)


@pytest.mark.parametrize("method", [m for m in ("spawn", "forkserver") if m in multiprocessing.get_all_start_methods()])
def test_python_agents_on_processes_that_start_afresh_give_the_same_results(method: str) -> None:
    """A process pool whose workers import rook_core anew (spawn; forkserver,
    which Python 3.14 makes Linux's default) runs Python agents' chunks with
    the results of this thread: the work pickles, the seeds travel."""
    base = simulate("crowsnest", HR, hands=12, seed=3, native=False)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method)) as ex:
        assert simulate("crowsnest", HR, hands=12, seed=3, native=False, executor=ex, chunk=4) == base


def test_games_do_not_depend_on_workers(games_dup) -> None:
    again = simulate("crowsnest", HR, games=6, seed=11, duplicate=True, workers=2, chunk=2)
    assert again == games_dup


@pytest.mark.parametrize("preset", ["tournament", "partnership-57", "crowsnest-100"])
def test_T2_T14_T31_rows_replay_from_their_seeds(preset: str) -> None:
    """Each row is what replaying its deal with its agents gives."""
    r = simulate(preset, HR, hands=12, seed=5)
    v = get_preset(preset)
    for i in range(12):
        ds = int(r.hands["deal_seed"][i])
        assert ds == hand_seed(5, i) and r.hands["dealer"][i] == i % 4
        h = HandState.deal(v, ds, i % 4)
        bots = [make_agent(HR[s], v, agent_seed(5, i, s)) for s in range(4)]
        while not h.is_over:
            h.apply(act_for(bots[h.to_move], h, h.to_move))
        if h.phase.label == "thrown_in":
            assert r.hands["declarer"][i] == -1 and r.hands["made"][i] == -1
            continue
        assert r.hands["declarer"][i] == h.declarer and r.hands["bid"][i] == h.high_bid
        assert (r.hands["points_0"][i], r.hands["points_1"][i]) == h.points
        assert r.hands["points_0"][i] + r.hands["points_1"][i] == v.total_points    # T-14
        assert (r.hands["score_0"][i], r.hands["score_1"][i]) == h.score
        team = h.declarer % 2
        assert r.hands["made"][i] == (h.points[team] >= h.high_bid)                 # T-31, T-32
        assert max(r.hands[f"bid_{s}"][i] for s in range(4)) == h.high_bid


def test_T34_game_rows_add_up(games_dup) -> None:
    g, h = games_dup.games, games_dup.hands
    target = get_preset("crowsnest").target
    for j in range(len(g["unit"])):
        rows = (h["unit"] == g["unit"][j]) & (h["copy"] == g["copy"][j])
        assert rows.sum() == g["hands"][j]
        assert list(h["hand"][rows]) == list(range(1, g["hands"][j] + 1))
        t0, t1 = int(h["score_0"][rows].sum()), int(h["score_1"][rows].sum())
        assert (t0, t1) == (g["total_0"][j], g["total_1"][j])
        if g["winner"][j] >= 0:
            assert max(t0, t1) >= target and t0 != t1
            assert g["winner"][j] == (0 if t0 > t1 else 1)


def test_duplicate_replays_each_deal_with_the_sides_swapped(games_dup) -> None:
    r = simulate("tournament", HR, hands=10, seed=2, duplicate=True)
    h = r.hands
    assert list(h["copy"]) == [0, 1] * 10
    assert np.array_equal(h["deal_seed"][0::2], h["deal_seed"][1::2])
    s = r.summary()
    d = s["side_a_minus_b"]["score_per_hand"]
    a = np.where(h["copy"] == 0, h["score_0"] - h["score_1"], h["score_1"] - h["score_0"])
    assert math.isclose(d[0], a.reshape(10, 2).mean(axis=1).mean())
    assert d[1] <= d[0] <= d[2]


def test_heuristic_beats_random_in_duplicate() -> None:
    s = simulate("tournament", HR, hands=60, seed=9, duplicate=True).summary()
    m, lo, hi = s["side_a_minus_b"]["score_per_hand"]
    assert lo > 0, s["side_a_minus_b"]


def test_summary_intervals_and_table(games_dup) -> None:
    s = games_dup.summary()
    for t in (0, 1):
        for key in ("points_per_hand", "score_per_hand", "make_rate"):
            m, lo, hi = s[f"team_{t}"][key]
            assert lo <= m <= hi
    p, lo, hi = s["team_0_win_rate"]
    assert 0 <= lo <= p <= hi <= 1
    text = format_summary(s)
    assert "side A (heuristic + heuristic)" in text and "make rate" in text
    json.dumps(s)      # JSON-ready


def test_save_parquet_csv_npz_round_trip(tmp_path, games_dup) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    written = games_dup.save(tmp_path / "r.parquet")
    assert [p.split("/")[-1] for p in written] == ["r.parquet", "r.games.parquet"]
    t = pq.read_table(written[0])
    cards = ("hand_0", "hand_1", "hand_2", "hand_3", "nest")
    file_columns = [c for k in HAND_COLUMNS for c in ((k, f"{k}_cards") if k in cards else (k,))]
    assert t.column_names == file_columns
    assert t.schema.metadata[b"rook.agents"] == b"heuristic,random,heuristic,random"
    assert t.column("score_0").to_pylist() == games_dup.hands["score_0"].tolist()
    for k in cards:      # each mask also as the cards' names (issue 18): CardSet's own spelling, read back to the mask
        names = t.column(f"{k}_cards").to_pylist()
        assert names == [str(CardSet(int(m))) for m in games_dup.hands[k]]
        assert [parse_cards(x) for x in names] == games_dup.hands[k].tolist()
    assert pq.read_table(written[1]).column_names == list(GAME_COLUMNS)
    csv = games_dup.save(tmp_path / "r.csv")
    lines = open(csv[0]).read().splitlines()
    assert lines[0].split(",") == file_columns and len(lines) == len(games_dup.hands["unit"]) + 1
    first = dict(zip(file_columns, lines[1].split(",")))
    assert parse_cards(first["hand_2_cards"]) == int(first["hand_2"]) == int(games_dup.hands["hand_2"][0])
    npz = np.load(games_dup.save(tmp_path / "r.npz")[0])
    assert np.array_equal(npz["games.winner"], games_dup.games["winner"])
    with pytest.raises(RookError, match=r"\.parquet, \.csv or \.npz"):
        games_dup.save(tmp_path / "r.xlsx")


def test_report_draws_an_image(tmp_path, games_dup) -> None:
    pytest.importorskip("matplotlib")
    out = write_report(games_dup, tmp_path / "rep.png")
    data = open(out, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    with pytest.raises(RookError, match="png"):
        write_report(games_dup, tmp_path / "rep.txt")


@pytest.mark.parametrize("kwargs,message", [
    ({"hands": 5, "agents": HR[:3]}, "four kinds"),
    ({"hands": 5, "agents": ["heuristic", "wizard", "random", "random"]}, "unknown agent 'wizard'"),
    ({}, "exactly one of hands= and games="),
    ({"hands": 3, "games": 3}, "exactly one"),
    ({"hands": -1}, "int >= 0"),
    ({"hands": 2, "seed": "x"}, "seed"),
    ({"hands": 2, "workers": 0}, "workers"),
    ({"hands": 2, "chunk": 0}, "chunk"),
    ({"hands": 2, "agent_options": {"heuristic": {"depth": 2}}}, "bad options"),
    ({"hands": 2, "agent_options": {"oracle": {}}}, "unknown agent 'oracle'"),
    ({"hands": 2, "agent_options": {"heuristic": 5}}, r"agent_options\['heuristic'\] must be a dict"),
    ({"hands": 2, "agent_options": [("heuristic", {})]}, "agent_options must be a dict"),
    ({"games": 1, "max_hands": 10**30}, "max_hands must be an int"),
    ({"games": 1, "max_hands": True}, "max_hands must be an int"),
    ({"games": 1, "max_hands": 0}, "max_hands must be an int"),
    ({"hands": 2, "progress": 5}, "progress must be a function"),
])
def test_bad_arguments_are_refused_by_name(kwargs, message) -> None:
    args = {"agents": HR, **kwargs}
    agents = args.pop("agents")
    with pytest.raises(RookError, match=message):
        simulate("tournament", agents, **args)


def test_zero_units_give_empty_columns() -> None:
    r = simulate("tournament", HR, hands=0)
    assert len(r) == 0 and all(len(c) == 0 for c in r.hands.values())


def _rook(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rook_core", *args], capture_output=True, text=True,
                          timeout=600)


def test_cli_simulate_prints_a_summary_and_writes_files(tmp_path) -> None:
    out = tmp_path / "res.npz"
    rep = tmp_path / "rep.png"
    p = _rook("simulate", "--preset", "tournament", "--hands", "30", "--seed", "4", "--duplicate",
              "--out", str(out), "--report", str(rep), "--no-progress")
    assert p.returncode == 0, p.stderr
    assert "side A (heuristic + heuristic) minus side B (random + random)" in p.stdout
    assert out.exists() and rep.exists()
    j = _rook("simulate", "--hands", "30", "--seed", "4", "--duplicate", "--json", "--no-progress")
    s = json.loads(j.stdout)
    again = simulate("tournament", HR, hands=30, seed=4, duplicate=True).summary()
    assert s["side_a_minus_b"]["score_per_hand"] == pytest.approx(again["side_a_minus_b"]["score_per_hand"])


def test_cli_simulate_gives_pimc_agents_their_options(monkeypatch) -> None:
    """--worlds, --tolerance and --decision-time reach the pimc agents (and
    only the options given); a run with a millisecond a decision plays."""
    import rook_core.sim.simulate as module
    from rook_core import cli

    class Reached(Exception):
        pass
    seen: dict = {}

    def fake(*args, **kwargs):
        seen.update(kwargs)
        raise Reached
    monkeypatch.setattr(module, "simulate", fake)
    with pytest.raises(Reached):
        cli.main(["simulate", "--agents", "pimc,heuristic,pimc,heuristic", "--hands", "1", "--worlds", "3",
                  "--tolerance", "10", "--decision-time", "0.25", "--no-progress"])
    assert seen["agent_options"] == {"pimc": {"worlds": 3, "tolerance": 10, "decision_time": 0.25}}
    with pytest.raises(Reached):
        cli.main(["simulate", "--agents", "pimc,heuristic,pimc,heuristic", "--hands", "1", "--decision-time", "0",
                  "--no-progress"])
    assert seen["agent_options"] == {"pimc": {"decision_time": 0.0}}
    monkeypatch.undo()
    p = _rook("simulate", "--agents", "pimc,random,pimc,random", "--hands", "2", "--decision-time", "0.001",
              "--json", "--no-progress")
    assert p.returncode == 0 and json.loads(p.stdout)["hands"] == 2, p.stderr


@pytest.mark.parametrize("args,message", [
    (["--agents", "heuristic,random"], "four kinds"),
    (["--decision-time", "-1"], "--decision-time"),
    (["--agents", "heuristic,random,heuristic,wizard"], "unknown agent 'wizard'"),
    (["--hands", "-3"], "argument --hands: must be an int in 0 .."),
    (["--hands", "3", "--out", "x.xlsx"], ".parquet, .csv or .npz"),
])
def test_cli_simulate_bad_input_exits_2_with_a_message(args, message) -> None:
    p = _rook("simulate", "--no-progress", *args)
    assert p.returncode == 2 and message in p.stderr


def test_cli_demo_deals_solves_and_simulates() -> None:
    p = _rook("demo", "--hands", "5")
    assert p.returncode == 0, p.stderr
    for section in ("== 1. A seeded deal", "== 2. Double-dummy solution", "== 3. Simulation",
                    "== 4. 1,000,000 random playouts"):
        assert section in p.stdout
    assert "side A (heuristic + heuristic)" in p.stdout
    assert _rook("demo", "--hands", "0").returncode == 2


def test_T2_report_strength_of_a_custom_variant() -> None:
    """The declarer's hand strength is valued under the run's own variant, a custom one too."""
    from rook_core.bots.heuristic import hand_estimate
    from rook_core.sim.report import declarer_strength
    from rook_core.variant import Variant
    v = Variant.from_preset("tournament", target=500)
    r = simulate(v, HR, hands=12, seed=3)
    s = declarer_strength(r)
    for i in range(12):
        d = int(r.hands["declarer"][i])
        if d < 0:
            assert np.isnan(s[i])
        else:
            assert s[i] == hand_estimate(v, int(r.hands[f"hand_{d}"][i]), int(r.hands["trump"][i]))


def test_wilson_interval_holds_the_share_and_stays_within_zero_and_one() -> None:
    from rook_core.sim.stats import wilson as _wilson
    # every k of every n up to 300: at k = n the upper end once fell an ulp under the share
    for n in range(1, 301):
        for k in range(n + 1):
            p, lo, hi = _wilson(k, n)
            assert 0.0 <= lo <= p <= hi <= 1.0 and str(lo) != "-0.0", (k, n)
            assert lo < hi
    assert all(math.isnan(x) for x in _wilson(0, 0))


def test_results_are_equal_when_the_run_and_every_column_are_whatever_the_meta() -> None:
    """``SimResult ==`` compares preset, agents, seed, mode, duplicate and each
    column; ``meta`` (the path, max_hands, options) is not compared."""
    import dataclasses

    import numpy as np
    a = simulate("tournament", ["heuristic"] * 4, games=3, seed=4)
    b = simulate("tournament", ["heuristic"] * 4, games=3, seed=4, max_hands=500, native=False)
    assert a.meta != b.meta and a == b
    assert a != simulate("tournament", ["heuristic"] * 4, games=3, seed=5)
    assert a != dataclasses.replace(a, duplicate=True)
    bumped = {k: np.array(v) for k, v in a.hands.items()}
    bumped["points_0"][0] += 5
    assert a != dataclasses.replace(a, hands=bumped)
