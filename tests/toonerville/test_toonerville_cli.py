"""``rook play --preset toonerville`` and ``rook simulate --preset toonerville``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from rook_core.cli import main
from rook_core.errors import RookError
from rook_core.rng import agent_seed
from rook_core.sim.toonerville import simulate_toonerville
from rook_core.toonerville.agents import make_toonerville_agent, play_game
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.playlog import write_game_log
from rook_core.toonerville.rules import ToonervilleRules


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:          # argparse refused a flag's value
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_play_prints_a_readable_game_that_matches_the_engine() -> None:
    code, out, _ = run(["play", "--preset", "toonerville", "--players", "4", "--seed", "3", "--rounds", "1,2"])
    assert code == 0
    assert out.startswith("rook play: toonerville, 4 players (heuristic, heuristic, heuristic, heuristic), seed 3")
    assert out.count("=== Round ") == 2 and "two sets; 12 cards each" in out
    for what in (r"p\d \(heuristic\): ", r"p\d draws ", r"p\d discards ", r"p\d lays the contract: ",
                 r"totals: p0 \d+"):
        assert re.search(what, out), what
    # the totals printed are those of the same game played through the API
    last = [int(x) for x in re.findall(r"totals: p0 (\d+), p1 (\d+), p2 (\d+), p3 (\d+)", out)[-1]]
    g = ToonervilleGame(ToonervilleRules(players=4, rounds=(1, 2), turn_limit=1000), 3)
    play_game(g, [make_toonerville_agent("heuristic", g.rules, agent_seed(3, 0, p)) for p in range(4)])
    assert g.totals == last
    assert f"p{g.winners[0]} win" in out.splitlines()[-1]
    again = io.StringIO()
    assert write_game_log(4, 3, ["heuristic"] * 4, again, rounds=(1, 2)) == g.winners
    assert again.getvalue() == out


def test_play_json_writes_the_game_that_the_log_shows() -> None:
    """``--json`` writes the same seeded game as the log, as rook-toonerville/1."""
    code, out, _ = run(["play", "--preset", "toonerville", "--players", "3", "--seed", "1", "--rounds", "1",
                        "--json"])
    assert code == 0 and len(out.splitlines()) == 1
    doc = json.loads(out)
    game = ToonervilleGame.from_json(doc)
    assert doc["format"] == "rook-toonerville/1" and game.is_over
    _, log, _ = run(["play", "--preset", "toonerville", "--players", "3", "--seed", "1", "--rounds", "1"])
    assert f"p{game.winners[0]} win" in log.splitlines()[-1]
    assert re.findall(r"totals: (.*)", log)[-1] == ", ".join(f"p{q} {t}" for q, t in enumerate(game.totals))


def test_play_shows_buys_with_their_penalty_card() -> None:
    _, out, _ = run(["play", "--preset", "toonerville", "--players", "5", "--seed", "1", "--rounds", "9",
                     "--agents", "heuristic,random,heuristic,random,random"])
    buys = re.findall(r"p\d buys (\S+) and takes a penalty card \((\S+)\)", out)
    assert buys                                                          # random bots buy now and then
    assert "stock " in out and "the discard pile starts with" in out


def test_play_and_simulate_refuse_bad_options() -> None:
    for argv, message in [
        (["play", "--preset", "toonerville", "--players", "6"], "--players: must be an int in 3 .. 5"),
        (["play", "--preset", "toonerville", "--players", "3", "--agents", "heuristic,heuristic"], "needs 3 agents"),
        (["play", "--preset", "toonerville", "--agents", "heuristic,pimc,heuristic"], "unknown Toonerville agent"),
        (["play", "--preset", "toonerville", "--rounds", "1,x"], "--rounds"),
        (["play", "--preset", "toonerville", "--rounds", "12"], "rounds"),
        (["play", "--preset", "tournament", "--players", "3"], "for --preset toonerville"),
        (["simulate", "--preset", "toonerville", "--hands", "3"], "--hands is for the trick-taking"),
        (["simulate", "--preset", "toonerville", "--games", "0"], "games must be"),
    ]:
        code, out, err = run(argv)
        assert code == 2 and message in err, (argv, err)


def test_simulate_toonerville_columns_summary_and_files(tmp_path) -> None:
    out_file = tmp_path / "tv.npz"
    code, out, err = run(["simulate", "--preset", "toonerville", "--games", "3", "--agents",
                          "heuristic,random,heuristic", "--rounds", "1,4", "--seed", "5", "--no-progress",
                          "--json", "--out", str(out_file)])
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 3 and summary["rounds"] == 6
    assert summary["player_0"]["agent"] == "heuristic" and "player_3" not in summary
    data = np.load(out_file)
    assert data["rounds.round"].tolist() == [1, 4] * 3
    assert (data["rounds.score_3"] == -1).all() and (data["games.total_4"] == -1).all()
    for p in range(3):
        totals = [data[f"rounds.score_{p}"][data["rounds.unit"] == u].sum() for u in range(3)]
        assert totals == data[f"games.total_{p}"].tolist()                  # TV-12: totals add the rounds


def test_simulate_results_depend_only_on_the_seed() -> None:
    kinds = ["heuristic", "random", "heuristic", "random"]
    a = simulate_toonerville(kinds, games=4, seed=9, rounds=(1, 3), turn_limit=300)
    b = simulate_toonerville(kinds, games=4, seed=9, rounds=(1, 3), turn_limit=300, workers=2)
    c = simulate_toonerville(kinds, games=4, seed=10, rounds=(1, 3), turn_limit=300)
    assert a == b and a != c
    # game 2 alone, replayed through the API, gives the same row
    g = ToonervilleGame(ToonervilleRules(players=4, rounds=(1, 3), turn_limit=300),
                        int(a.games["game_seed"][2]), first_dealer=2)
    play_game(g, [make_toonerville_agent(k, g.rules, agent_seed(9, 2, p)) for p, k in enumerate(kinds)])
    assert g.totals == [int(a.games[f"total_{p}"][2]) for p in range(4)]


def test_simulate_refuses_unknown_agents() -> None:
    with pytest.raises(RookError, match="unknown Toonerville agent"):
        simulate_toonerville(["heuristic", "dd", "random"], games=1)


def test_rook_play_toonerville_as_a_subprocess() -> None:
    r = subprocess.run([sys.executable, "-m", "rook_core", "play", "--preset", "toonerville", "--players", "3",
                        "--seed", "2", "--rounds", "1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "wins (TV-12)" in r.stdout


def test_the_toonerville_result_has_its_own_rounds_table(tmp_path) -> None:
    """ToonervilleSimResult keeps one row per round in ``rounds`` (TV-2) and one per
    game in ``games``, and writes both: the rounds at the path, the games beside it."""
    r = simulate_toonerville(["heuristic", "random", "heuristic"], games=3, seed=4, rounds=(1, 2),
                             turn_limit=300)
    assert len(r) == 3 and r.rounds["round"].tolist() == [1, 2] * 3
    assert not hasattr(r, "hands") and list(r.tables()) == ["rounds", "games"]
    written = r.save(tmp_path / "tv.csv")
    assert [p.rsplit("/", 1)[1] for p in written] == ["tv.csv", "tv.games.csv"]
    header = (tmp_path / "tv.csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["unit", "round", "dealer"] and len((tmp_path / "tv.csv").read_text().splitlines()) == 7
    with pytest.raises(RookError, match="no table 'hands'"):
        r.to_arrow("hands")
