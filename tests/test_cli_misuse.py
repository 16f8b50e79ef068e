"""The command line used carelessly: an output it cannot write is refused
before the run, with exit status 2 and one line, and a file it fails to
write after the run is an error line too, never a traceback; a demo too
large for memory prints nothing before its error."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from rook_core import cli


def rook(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rook_core", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("flag,name", [("--out", "res.csv"), ("--out", "res.parquet"), ("--report", "rep.png")])
def test_simulate_refuses_an_output_that_is_a_folder_before_the_run(tmp_path: Path, flag: str, name: str) -> None:
    (tmp_path / name).mkdir()
    p = rook("simulate", "--hands", "5", "--no-progress", flag, str(tmp_path / name))
    assert p.returncode == 2 and p.stdout == ""
    assert "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("rook: error: cannot write") and "it is a folder" in p.stderr


def test_simulate_that_fails_to_write_after_the_run_says_so_in_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    """The disk fills while the columns are written: an error line, exit 2, and
    the file that was there is still there."""
    out = tmp_path / "res.csv"
    out.write_text("earlier results\n")

    def full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    assert cli.main(["simulate", "--hands", "3", "--no-progress", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "rook: error: cannot write" in err and "No space left on device" in err
    assert out.read_text() == "earlier results\n" and os.listdir(tmp_path) == ["res.csv"]


def test_demo_too_large_for_memory_prints_nothing_before_its_error() -> None:
    p = rook("demo", "--hands", "1000000000000")
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert "rook: error: 1,000,000,000,000 hands: the results would need" in p.stderr


@pytest.mark.parametrize("args", [("play", "--preset", "tournament", "--seed", "1"),
                                  ("simulate", "--preset", "tournament", "--hands", "200",
                                   "--agents", "random,random,random,random")])
def test_output_the_system_refuses_to_take_is_an_error_line_with_exit_1_not_a_traceback(args: tuple[str, ...]) -> None:
    """stdout on a full disk (/dev/full): an OSError traceback from the first print."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "rook_core", *args], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    assert r.returncode == 1 and r.stderr == "rook: error: No space left on device\n", r.stderr


# (the timeout counts from the first request, which starts the program: the programs that
# crash or answer have 30 s, far from what a loaded machine's interpreter start takes)
@pytest.mark.parametrize("program,timeout,what", [
    ("import sys; sys.exit(3)", "30", "ended (exit status 3;"),
    ("import sys; [print('garbage', flush=True) for line in sys.stdin]", "30", "answered 'garbage', not JSON"),
    ("import time; time.sleep(60)", "0.5", "gave no answer within 0.5 s"),
])
def test_simulate_with_an_outside_bot_that_fails_ends_with_exit_1_naming_the_bot_and_seat(
        program: str, timeout: str, what: str) -> None:
    """An --engine program that crashes, answers garbage or is silent is a
    failure during the run: exit status 1 (not 2, a bad argument's) and one
    line naming the bot, its seat and what it did."""
    engine = f"bad={shlex.quote(sys.executable)} -c {shlex.quote(program)}"
    p = rook("simulate", "--hands", "2", "--no-progress", "--engine", engine, "--engine-timeout", timeout,
             "--agents", "heuristic,bad,heuristic,heuristic")
    assert p.returncode == 1 and p.stdout == "", (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith("rook: error: hand 0: bot 'bad' at seat 1 " + what), p.stderr
