"""No input gives a traceback: each case that once did (issue 18) now gets a
one-line error naming what is wrong, exit status 2 on the command line, and
loses nothing; the seed rule is one rule with one message everywhere; JSON
output is strict JSON; and a Hypothesis fuzz of the command line's flags
finds no traceback."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rook_core import Game, HandState, IllegalActionError, RookError
from rook_core import cli as rook_cli
from rook_core.jsonio import json_line, json_safe
from rook_core.rng import check_seed
from rook_core.sim.simulate import simulate
from rook_core.solver import Solver

HUGE = "99999999999999999999999"
SEED_MESSAGE = "a seed must be an int in 0 .. 2**64-1, not"


def rook(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rook_core.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def _one_line_error(res: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    last = res.stderr.strip().splitlines()[-1]
    assert "error" in last and all(n in last for n in needles), last


@pytest.mark.parametrize("args,needles", [
    (["solve", "--budget", HUGE], ["--budget", "2**63-1"]),
    (["simulate", "--hands", HUGE], ["--hands"]),
    (["demo", "--hands", "99999999999999999999"], ["--hands"]),
    (["demo", "--seed", HUGE], ["--seed", SEED_MESSAGE]),
    (["play", "--seed", "-1"], ["--seed", SEED_MESSAGE]),
    (["demo", "--seed", "-3"], ["--seed", SEED_MESSAGE]),
    (["simulate", "--seed", "x"], ["--seed", SEED_MESSAGE]),
    (["odds", "--deal", "-1"], ["--deal", SEED_MESSAGE]),
    (["simulate", "--hands", "1000000000000"], ["GiB", "fewer"]),
    (["serve", "--port", "70000"], ["--port"]),
    (["serve", "--solve-budget", HUGE], ["solve_budget"]),
    (["solve", "--time-budget", "nan"], ["--time-budget"]),
])
def test_bad_numbers_get_one_line_errors(args: list[str], needles: list[str]) -> None:
    _one_line_error(rook(*args), *needles)


def test_output_paths_are_checked_before_the_work_starts(tmp_path: Path) -> None:
    for flag, name in (("--out", "x.parquet"), ("--report", "x.png")):
        res = rook("simulate", "--hands", "1000000", "--agents", "random,random,random,random",
                   "--no-progress", flag, str(tmp_path / "missing_dir" / name))
        _one_line_error(res, "missing_dir", "does not exist")
        assert res.stdout == ""                      # refused before the run: nothing was simulated
    _one_line_error(rook("odds", "--hand", "R14 R13 R12 R11 R10 R9 R8 R7 R6", "--plot",
                         str(tmp_path / "nowhere" / "odds.png")), "nowhere")


def test_a_path_with_a_control_character_is_quoted_in_its_one_line_error(tmp_path: Path) -> None:
    """A raw control character (U+001E here) in an error would split it into
    lines (str.splitlines) and reach the terminal as it is: paths are quoted."""
    odd = str(tmp_path / "a\x1eb" / "x.db")
    res = rook("serve", "--port", "0", "--db", odd)
    _one_line_error(res, "--db", repr(odd), "does not exist")
    assert "\x1e" not in res.stderr
    res = rook("simulate", "--hands", "10", "--no-progress", "--out", str(tmp_path / "c\x1ed" / "x.csv"))
    _one_line_error(res, "c\\x1ed", "does not exist")
    assert "\x1e" not in res.stderr


def test_every_error_the_command_prints_is_one_line_whatever_its_text(monkeypatch, capsys) -> None:
    """The printer itself escapes what is not printable, for messages that
    echo the user's text without quoting it."""
    def refuse(args: object) -> int:
        raise RookError("a\x1eb\nc\td é")
    monkeypatch.setattr(rook_cli, "_serve", refuse)
    assert rook_cli.main(["serve"]) == 2
    assert capsys.readouterr().err == "rook: error: a\\x1eb\\nc\\td é\n"


def test_serve_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("these are my notes, not a database\n" * 50)
    _one_line_error(rook("serve", "--db", str(bad), "--port", "0"), "not a readable database")
    assert bad.read_text().startswith("these are my notes")            # nothing lost
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(bad).execute("PRAGMA quick_check").fetchall()     # and it is still what it was


def test_T3_the_solver_and_the_hand_refuse_numbers_out_of_range_with_rook_errors() -> None:
    for kw in ({"node_budget": -1}, {"node_budget": 10**30}, {"tt_bytes": 10**30}, {"tt_bytes": 0},
               {"time_budget": float("nan")}, {"node_budget": 1.5}):
        with pytest.raises(RookError, match=next(iter(kw))):
            Solver(**kw)  # type: ignore[arg-type]
    h = HandState.deal("tournament", seed=1)
    before = h.to_json()
    for amount in (10**30, -(10**30), 0, 1001, True, 75.0, "75"):
        with pytest.raises(IllegalActionError, match="T-3"):
            h.bid(amount)  # type: ignore[arg-type]
    assert h.to_json() == before


@pytest.mark.parametrize("seed", [-1, -3, 2**64, 10**30, True, 1.0, "7", None])
def test_one_seed_rule_and_message_everywhere(seed: Any) -> None:
    """The API, the simulator and the service refuse the same seeds with the same words."""
    expected = f"{SEED_MESSAGE} {seed!r}"
    for make in (lambda: HandState.deal("tournament", seed=seed), lambda: Game("tournament", seed),
                 lambda: simulate("tournament", ["random"] * 4, hands=1, seed=seed), lambda: check_seed(seed)):
        with pytest.raises(RookError) as e:
            make()
        assert str(e.value) == expected
    for ok in (0, 1, 2**64 - 1):
        assert check_seed(ok) == ok and HandState.deal("tournament", seed=ok).variant.name == "tournament"


def test_the_service_refuses_a_bad_seed_with_the_same_message(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    with TestClient(create_app(str(tmp_path / "games.sqlite"))) as c:
        seats = ["human"] + ["bot:random"] * 3
        for seed in (-1, 2**64):
            r = c.post("/games", json={"game": "tournament", "seed": seed, "seats": seats})
            assert r.status_code == 400 and r.json()["error"] == f"{SEED_MESSAGE} {seed!r}"
        assert c.post("/games", json={"game": "tournament", "seed": 2**64 - 1, "seats": seats}).status_code == 201
        r = c.post("/jobs", json={"preset": "tournament", "agents": ["random"] * 4, "hands": 2, "seed": -5})
        assert r.status_code == 400 and r.json()["error"] == f"{SEED_MESSAGE} -5"


def test_simulate_json_is_strict_json_when_a_team_never_declares() -> None:
    res = rook("simulate", "--hands", "3", "--agents", "random,random,random,random", "--json", "--no-progress")
    assert res.returncode == 0
    summary = json.loads(res.stdout, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert summary["hands"] == 3
    assert json_safe({"a": [float("nan"), 1.5, (float("inf"), 2)]}) == {"a": [None, 1.5, [None, 2]]}
    assert json_line({"a": [float("nan"), 1.5]}) == '{"a": [null, 1.5]}'
    assert json_line({"b": [1, "x", 2.5]}) == json.dumps({"b": [1, "x", 2.5]})


def test_demo_goes_on_past_a_thrown_in_deal() -> None:
    """Seed 60 deals a hand every seat passes (T-6): the demo says so and plays the next deal."""
    res = rook("demo", "--seed", "60", "--hands", "4")
    assert res.returncode == 0, res.stderr
    assert "thrown in (T-6); the next deal" in res.stdout
    for section in ("== 2.", "== 3.", "== 4."):
        assert section in res.stdout


def test_demo_runs_at_the_largest_seed() -> None:
    res = rook("demo", "--seed", str(2**64 - 1), "--hands", "4")
    assert res.returncode == 0 and "== 4." in res.stdout, res.stderr


# ---------------------------------------------------------------- fuzz
# Every subcommand with the flags that take a value; the work itself is
# replaced by a stub that only records it was reached, so that the fuzz runs
# the whole of argument checking (argparse and main's own checks) in-process.
FLAGS: dict[str, list[str]] = {
    "perft": ["--depth", "--max-nodes"], "solve": ["--budget", "--time-budget", "--at-least"],
    "nest": ["--seed", "--workers", "--budget", "--preset", "--time-limit"],
    "play": ["--preset", "--seed", "--agents", "--max-hands", "--players", "--rounds", "--turn-limit"],
    "analyse": ["--budget", "--workers", "--nest-budget", "--time-budget", "--nest-time-limit"],
    "odds": ["--preset", "--hand", "--deal", "--seat", "--worlds", "--seed", "--workers", "--budget", "--plot",
             "--time-budget"],
    "demo": ["--seed", "--hands"],
    "simulate": ["--preset", "--agents", "--hands", "--games", "--seed", "--workers", "--max-hands", "--worlds",
                 "--out", "--report", "--players", "--rounds", "--turn-limit", "--tolerance", "--decision-time"],
    "serve": ["--port", "--db", "--solve-budget", "--read-timeout", "--requests-per-second"],
}
GOOD = {  # values each flag is meant to take, so that the fuzz also reaches the checks after argparse
    "--depth": ["1", "2"], "--max-nodes": ["1", "1000000"], "--budget": ["0", "1000"],
    "--time-budget": ["0", "0.5"], "--at-least": ["60"],
    "--seed": ["0", "7"], "--workers": ["1", "2"], "--preset": ["tournament", "toonerville", "crowsnest"],
    "--agents": ["random,random,random,random", "heuristic,random,heuristic,random", "random,random,random",
                 "random,pimc,random,bogus"],
    "--max-hands": ["3"], "--players": ["3", "4"], "--rounds": ["1,2", "1", "12", "1,x"], "--turn-limit": ["50"],
    "--nest-budget": ["0"], "--hand": ["R14 R13 R12 R11 R10 R9 R8 R7 R6", "R14", "R14 R14"], "--deal": ["3"],
    "--seat": ["0", "2"], "--worlds": ["2"], "--plot": ["a.png", "a.txt", "no/dir/a.png"], "--hands": ["2", "0"],
    "--games": ["1"], "--out": ["a.parquet", "a.csv", "x.txt", "no/dir/a.csv"], "--report": ["r.png", "r.gif"],
    "--port": ["0"], "--db": ["g.sqlite", "no/dir/g.sqlite", "."], "--solve-budget": ["1000"],
    "--read-timeout": ["5"], "--requests-per-second": ["0"], "--time-limit": ["0", "0.5"],
    "--nest-time-limit": ["0", "1"], "--decision-time": ["0", "0.1"], "--tolerance": ["0", "20"],
}
GARBAGE = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["0", "1", "-1", "nan", "inf", "-inf", "1e400", "", " ", "x", "1.5", "0x10", "--"]),
    st.text(max_size=12),
)


def _value(flag: str) -> st.SearchStrategy[str]:
    good = st.sampled_from(GOOD[flag])
    return st.one_of(good, good, GARBAGE)          # two draws in three are values the flag is meant to take


@pytest.fixture()
def stubbed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    reached: list[str] = []

    def stub(name: str) -> Any:
        def f(*args: Any, **kwargs: Any) -> Any:
            reached.append(name)
            raise _Reached
        return f
    import rook_core.demo
    import rook_core.odds
    import rook_core.service.serving
    import rook_core.sim.simulate
    import rook_core.sim.toonerville
    import rook_core.toonerville.playlog
    for mod, name in ((rook_core.sim.simulate, "simulate"), (rook_core.sim.toonerville, "simulate_toonerville"),
                      (rook_core.toonerville.playlog, "write_game_log"), (rook_cli, "_nest_answer"),
                      (rook_core.demo, "run_demo"), (rook_core.odds, "bid_odds"),
                      (rook_core.service.serving, "serve"), (rook_cli, "play_game"),
                      (rook_cli, "play_game_log")):
        monkeypatch.setattr(mod, name, stub(name))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    return reached


class _Reached(Exception):
    """The stubbed work was reached: the arguments passed every check."""


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_flags_never_give_a_traceback(stubbed: list[str], data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(sorted(FLAGS)))
    flags = data.draw(st.lists(st.sampled_from(FLAGS[command]), max_size=5, unique=True))
    argv = [command]
    for f in flags:
        argv += [f, data.draw(_value(f))]
    err, out = io.StringIO(), io.StringIO()
    try:
        with redirect_stderr(err), redirect_stdout(out):
            code = rook_cli.main(argv)
    except SystemExit as e:              # argparse's own refusal: a usage line and one error line
        assert e.code == 2, (argv, err.getvalue())
        assert "error:" in err.getvalue().strip().splitlines()[-1], (argv, err.getvalue())
        return
    except _Reached:                     # every check passed and the work began
        return
    assert code in (0, 1, 2), (argv, code)
    if code == 2:
        assert err.getvalue().startswith("rook: error: "), (argv, err.getvalue())
        assert len(err.getvalue().strip().splitlines()) == 1, (argv, err.getvalue())
    assert "Traceback" not in err.getvalue() + out.getvalue()


@pytest.mark.parametrize("argv", [["serve", "--db", "a\x00b"], ["serve", "--jobs-dir", "\x00"],
                                  ["simulate", "--out", "x\x00.csv"], ["simulate", "--report", "r\x00.png"],
                                  ["odds", "--hand", "R1", "--plot", "\x00.png"]])
def test_a_file_name_with_a_nul_character_is_refused_by_its_flag(stubbed: list[str], argv: list[str]) -> None:
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as e:
        rook_cli.main(argv)
    assert e.value.code == 2 and "NUL character" in err.getvalue() and argv[-2] in err.getvalue()
