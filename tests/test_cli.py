"""The ``rook`` command line: FORMATS.md JSON lines and the play log."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rook_core import Game, HandState
from rook_core._reference.tricks import legal_cards
from rook_core.cards import CardSet, card_name
from rook_core.position import parse_position
from rook_core.solver import Solver
from rook_core.variant import PRESETS

ROOT = Path(__file__).resolve().parent.parent
PERFT = [json.loads(line) for line in (ROOT / "tests" / "data" / "perft.jsonl").read_text().splitlines()
         if line.strip()]


def rook(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rook_core.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def _position(rec: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in rec.items() if k != "perft"}


def test_legal_answers_every_line_in_order_with_reference_cards() -> None:
    """``rook legal`` (FORMATS.md): the exact legal cards (T-9, T-10), id echoed."""
    recs = [_position(r) for r in PERFT]
    for i, r in enumerate(recs):
        r["id"] = f"p{i}"
    res = rook("legal", stdin="".join(json.dumps(r) + "\n" for r in recs))
    assert res.returncode == 0, res.stderr
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x["id"] for x in lines] == [r["id"] for r in recs]
    for rec, ans in zip(recs, lines):
        p = parse_position(rec)
        want = legal_cards(p.variant, list(CardSet(p.hands[p.to_move])), list(p.trick), p.trump)
        assert sorted(ans["legal"]) == sorted(card_name(c) for c in want), rec["id"]
        assert ans["to_move"] == p.to_move


def test_legal_bad_lines_get_errors_and_the_run_goes_on() -> None:
    good = _position(PERFT[0]) | {"id": "good"}
    bad_card = dict(good, id="bad-card", trick=["X99"])
    bad_sizes = dict(good, id="bad-sizes", hands=[["B5"], [], [], []])
    lines = ["not json", json.dumps(bad_card), json.dumps(good), json.dumps(bad_sizes),
             json.dumps({"id": "no-preset"}), json.dumps(dict(good, id="bad-preset", preset="bridge"))]
    res = rook("legal", stdin="\n".join(lines) + "\n")
    assert res.returncode == 1
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(out) == 6
    assert out[0]["id"] is None and "JSON" in out[0]["error"]
    assert out[1]["id"] == "bad-card" and "X99" in out[1]["error"]
    assert out[2]["id"] == "good" and "legal" in out[2]
    assert out[3]["id"] == "bad-sizes" and "error" in out[3]
    assert "preset" in out[4]["error"]
    assert "bridge" in out[5]["error"]


def test_legal_rejects_an_illegal_card_already_in_the_trick() -> None:
    """FORMATS.md: an illegal card already in the trick is an error (T-9)."""
    pos = {"id": "x", "preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5", "G5"],
           "hands": [["B6"], ["B7"], ["B8", "R5"], ["B9", "G6"]]}
    res = rook("legal", stdin=json.dumps(pos) + "\n")
    out = json.loads(res.stdout)
    assert res.returncode == 1 and "G5" in out["error"] and "T-9" in out["error"]


def test_perft_matches_the_reference_vectors() -> None:
    """``rook perft --depth D``: counts per depth, equal to the generated vectors."""
    depth = 3
    recs = [_position(r) | {"id": i} for i, r in enumerate(PERFT)]
    res = rook("perft", "--depth", str(depth), stdin="".join(json.dumps(r) + "\n" for r in recs))
    assert res.returncode == 0, res.stderr
    for rec, line in zip(PERFT, res.stdout.splitlines()):
        ans = json.loads(line)
        stored = rec["perft"]
        n = min(depth, len(stored))
        assert ans["perft"][:n] == stored[:n]
        assert len(ans["perft"]) == depth


def test_perft_past_the_end_repeats_the_last_count() -> None:
    """FORMATS.md: counts past the end of the hand repeat the last one."""
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["B5"], ["B6"], ["B7"], ["Rook"]]}
    assert HandState.from_position(pos).perft(6) == [1, 1, 1, 1, 1, 1]
    res = rook("perft", "--depth", "6", stdin=json.dumps(pos) + "\n")
    assert json.loads(res.stdout)["perft"] == [1, 1, 1, 1, 1, 1]


def test_perft_of_a_full_deal_to_depth_64_ends_at_its_node_limit_with_an_error_line() -> None:
    """``rook perft --depth 64`` of a full deal once ran for ever: now each
    position's perft stops past --max-nodes (200,000,000 by default) with an
    error line naming the depth and the limit, and the next line is answered."""
    full = _position(next(r for r in PERFT if r["id"] == "partnership-57/start-0")) | {"id": "full"}
    end = {"id": "end", "preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["B5"], ["B6"], ["B7"], ["Rook"]]}
    stdin = json.dumps(full) + "\n" + json.dumps(end) + "\n"
    res = rook("perft", "--depth", "64", stdin=stdin, timeout=120)   # a few seconds; it once never returned
    assert res.returncode == 1, res.stderr
    first, second = (json.loads(line) for line in res.stdout.splitlines())
    assert first["id"] == "full" and first["kind"] == "RookError"
    assert "depth 64" in first["error"] and "200,000,000 nodes" in first["error"]
    assert second == {"id": "end", "perft": [1] * 64}
    res = rook("perft", "--depth", "4", "--max-nodes", "100", stdin=stdin, timeout=120)
    first, second = (json.loads(line) for line in res.stdout.splitlines())
    assert "depth 4" in first["error"] and "100 nodes" in first["error"]
    assert second["perft"] == [1, 1, 1, 1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_is_reproducible_byte_for_byte(preset: str) -> None:
    a = rook("play", "--preset", preset, "--seed", "11")
    b = rook("play", "--preset", preset, "--seed", "11")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert "wins" in a.stdout.splitlines()[-1]
    assert "trick 1:" in a.stdout and "bidding:" in a.stdout and "totals:" in a.stdout
    c = rook("play", "--preset", preset, "--seed", "12")
    assert c.stdout != a.stdout


def test_play_log_shows_every_step_of_partnership_57() -> None:
    out = rook("play", "--preset", "partnership-57", "--seed", "3").stdout
    for needle in ("trump:", "takes the nest", "passes", "last-trick bonus 20", "points: team 0"):
        assert needle in out


def test_play_with_random_agents_stops_at_max_hands() -> None:
    res = rook("play", "--seed", "1", "--agents", "random,random,random,random", "--max-hands", "3")
    assert res.returncode == 0
    last = res.stdout.splitlines()[-1]
    assert "wins" in last or "--max-hands" in last


@pytest.mark.parametrize("seed,most", [(2, 1), (3, 2)])
def test_play_json_counts_the_hands_played_when_max_hands_stops_it(seed: int, most: int) -> None:
    """The game's summary counts the hands begun, not the next one dealt after the last."""
    game = json.loads(rook("play", "--seed", str(seed), "--max-hands", str(most), "--json").stdout)
    replayed = Game.from_json(game)
    assert not replayed.is_over and game["summary"]["hands"] == most == replayed.hand_number - 1


@pytest.mark.parametrize("args,needle", [
    (["play", "--agents", "random,random"], "four"),
    (["play", "--agents", "random,random,random,bogus"], "bogus"),
    (["play", "--max-hands", "0"], "max-hands"),
    (["perft", "--depth", "0"], "depth"),
    (["perft", "--depth", "3", "--max-nodes", "0"], "max-nodes"),
])
def test_bad_arguments_are_clear_errors(args: list[str], needle: str) -> None:
    res = rook(*args)
    assert res.returncode == 2 and needle in res.stderr


def test_solve_answers_per_formats_and_agrees_with_minimax() -> None:
    """``rook solve`` (FORMATS.md): value, move_values, best; id echoed (T-11..T-13)."""
    from rook_core._reference.tricks import _play_legal_card, ref_play_from_position

    def minimax(s):  # type: ignore[no-untyped-def]
        if s.is_over:
            return s.points[0]
        vals = [minimax(_play_legal_card(s, c)) for c in s.legal()]
        return max(vals) if s.to_move % 2 == 0 else min(vals)

    recs = [_position(r) | {"id": i} for i, r in enumerate(PERFT)
            if r["preset"] != "dixie" and sum(len(h) for h in r["hands"]) <= 10]
    assert len(recs) >= 10
    res = rook("solve", "--at-least", "20", stdin="".join(json.dumps(r) + "\n" for r in recs))
    assert res.returncode == 0, res.stderr
    for rec, line in zip(recs, res.stdout.splitlines()):
        ans = json.loads(line)
        ref = ref_play_from_position(rec)
        ref.points = [0, 0]  # FORMATS.md: the value does not count ``taken``
        assert ans["id"] == rec["id"]
        assert ans["value"] == minimax(ref)
        want = {card_name(c): minimax(_play_legal_card(ref, c)) for c in ref.legal()}
        assert ans["move_values"] == want
        assert sorted(ans["best"]) == sorted(c for c, v in want.items() if v == ans["value"])
        assert ans["at_least"]["team0"] == (ans["value"] >= 20)


def test_solve_show_and_errors() -> None:
    pos = {"id": "s", "preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    shown = rook("solve", "--show", stdin=json.dumps(pos) + "\n")
    assert shown.returncode == 0 and "value: team 0 takes 15 points" in shown.stdout
    for target, word in ((15, "yes"), (20, "no")):
        shown = rook("solve", "--show", "--at-least", str(target), stdin=json.dumps(pos) + "\n")
        assert f"team 0 takes at least {target} points: {word}" in shown.stdout
    answer = json.loads(rook("solve", stdin=json.dumps(pos) + "\n").stdout)
    assert answer == Solver().solve(pos).to_json("s")      # the API's answer is the command's, to_move and nodes too
    assert answer["to_move"] == 0 and answer["nodes"] > 0
    bad = rook("solve", stdin=json.dumps(dict(pos, hands=[["R14"], [], [], []])) + "\n")
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]
    assert json.loads(bad.stdout)["kind"] == "PositionError"
    big = HandState.deal("tournament", seed=1)
    while big.phase.label != "play":
        big.apply(big.legal_actions()[-1] if big.phase.label == "bid" and big.high_bid == 0 else big.legal_actions()[0])
    full = {"id": "big", "preset": "tournament", "trump": "BGRY"[big.trump], "leader": big.leader,
            "trick": [], "hands": [big.hand(s).names() for s in range(4)]}
    out = rook("solve", "--budget", "50", stdin=json.dumps(full) + "\n")
    ans = json.loads(out.stdout)
    assert out.returncode == 1 and "node budget" in ans["error"] and ans["id"] == "big"
    # a budget stop says what it proved in fields, as rook engine and the service do
    assert ans["kind"] == "BudgetExceeded" and ans["budget"] == "nodes" and ans["nodes"] > 50
    assert 0 <= ans["lo"] <= ans["hi"] <= 120
    out = rook("solve", "--time-budget", "1e-9", stdin=json.dumps(full) + "\n")
    ans = json.loads(out.stdout)
    assert out.returncode == 1 and "time budget" in ans["error"] and ans["id"] == "big"
    out = rook("solve", "--time-budget", "-1", stdin=json.dumps(full) + "\n")
    assert out.returncode == 2 and "--time-budget" in out.stderr


def test_solve_show_prints_the_bounds_as_they_narrow() -> None:
    """``rook solve --show``: on a terminal, a live line on stderr with the
    bounds proven on the value, narrowing to the value the table then shows;
    nothing on stderr when it is not a terminal (a log, a pipe)."""
    big = HandState.deal("tournament", seed=3)
    while big.phase.label != "play":
        big.apply(big.legal_actions()[-1] if big.phase.label == "bid" and big.high_bid == 0 else big.legal_actions()[0])
    full = {"id": "big", "preset": "tournament", "trump": "BGRY"[big.trump], "leader": big.leader,
            "trick": [], "hands": [big.hand(s).names() for s in range(4)],
            "nest_points": big.nest_points}
    import os
    import pty
    value = Solver().value(full)
    piped = rook("solve", "--show", stdin=json.dumps(full) + "\n")       # stderr not a terminal: no live line
    assert piped.returncode == 0 and f"value: team 0 takes {value} points" in piped.stdout and piped.stderr == ""
    master, slave = pty.openpty()                                      # stderr a terminal: the live line
    proc = subprocess.Popen([sys.executable, "-m", "rook_core.cli", "solve", "--show"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    out, _ = proc.communicate(json.dumps(full) + "\n", timeout=300)
    assert proc.returncode == 0 and out == piped.stdout
    err = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:                                                # the terminal's other end has closed
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    steps = [part.strip() for part in err.decode().splitlines() if part.strip()]  # \r read as a line end
    bounds = []
    for step in steps:
        what = step.split(" after ")[0]
        if what.startswith("value in ["):
            lo, hi = map(int, what[len("value in ["):-1].split(", "))
        else:
            lo = hi = int(what.split()[1])
        bounds.append((lo, hi))
    assert len(bounds) >= 2 and bounds[-1] == (value, value)
    assert all(lo <= value <= hi for lo, hi in bounds)
    assert all(a[0] <= b[0] and b[1] <= a[1] for a, b in zip(bounds, bounds[1:]))


def test_version_and_module_entry_point() -> None:
    from rook_core import __version__
    res = subprocess.run([sys.executable, "-m", "rook_core", "--version"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == f"rook_core {__version__}"


def test_every_subcommand_says_what_it_reads_and_writes_with_an_example_and_its_defaults() -> None:
    """Issue 18: ``rook X --help`` describes the command, ends with an example and shows every default."""
    from rook_core.cli import subcommands
    for name, _, p in subcommands():
        text = p.format_help()
        assert p.description and len(p.description) > 40, name
        assert "\nexample:\n  " in text and ("rook " + p.prog.split()[-1]) in text.split("example:")[1], name
        assert text.count("example:") == 1 and "Example:" not in text, name      # one example, not two
        for action in p._actions:
            # by identity: a default of 0 equals False, and must be shown too
            if action.option_strings and not any(action.default is x for x in (None, False)) \
                    and action.default != argparse.SUPPRESS:
                assert action.help, (name, action.dest)        # argparse prints no line for a flag without help
                assert "default" in (p._get_formatter()._get_help_string(action) or ""), (name, action.dest)


def test_pimc_flags_without_a_pimc_agent_are_refused_not_ignored() -> None:
    for flags in (["--worlds", "5"], ["--tolerance", "3"], ["--decision-time", "1"]):
        done = rook("simulate", "--hands", "4", *flags)
        assert done.returncode == 2 and flags[0] in done.stderr and "pimc" in done.stderr, done.stderr
    done = rook("simulate", "--hands", "2", "--worlds", "2", "--agents", "pimc,random,random,random",
                "--no-progress", "--json")
    assert done.returncode == 0, done.stderr


def test_serve_prints_its_address_once_it_listens(tmp_path: Path) -> None:
    import httpx
    proc = subprocess.Popen([sys.executable, "-m", "rook_core", "serve", "--port", "0", "--db",
                             str(tmp_path / "g.sqlite")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("rook serve: listening on http://127.0.0.1:"), line
        url = line.split()[4]
        assert httpx.get(url + "health", timeout=10).status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
