"""Golden playthroughs: seeded hands and games replayed against the engine.

``tests/data/playthroughs/<preset>.txt`` is written by
``tools/gen_playthroughs.py`` and never edited by hand; the last test here
regenerates every file in-process and compares.  Each file lists whole hands
(T-1 .. T-35) and, for the seed presets, whole games (T-1, T-6, T-33, T-34)
as action lists; the replay checks at every step the phase, the seat to move,
that the action is legal, and the hash of all four observations after it
(T-15: what each seat sees, including its legal actions), then the final
points and scores (T-14, T-30 .. T-32) or game totals and winner (T-34).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from _support import load_tool

from rook_core import PRESETS, HandState, parse_action
from rook_core.cards import CardSet
from rook_core.game import Game

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "playthroughs"
TOOL = ROOT / "tools" / "gen_playthroughs.py"


def _load_tool() -> Any:
    return load_tool("gen_playthroughs")


TOOL_MODULE = _load_tool()


@dataclass
class Case:
    file: str
    kind: str  # "hand" or "game"
    head: dict[str, str]
    lines: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.kind}:{self.head['seed']}:{self.head['policy']}"


def _head(line: str) -> tuple[str, dict[str, str]]:
    kind, preset, *rest = line.split()
    head = dict(item.split("=", 1) for item in rest)
    head["preset"] = preset
    return kind, head


def _cases() -> list[Case]:
    out: list[Case] = []
    for path in sorted(DATA.glob("*.txt")):
        cur: Case | None = None
        for line in path.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            if line.startswith(("hand ", "game ")):
                kind, head = _head(line)
                cur = Case(path.name, kind, head)
                out.append(cur)
            else:
                assert cur is not None, f"{path.name}: line before any case: {line!r}"
                cur.lines.append(line)
    return out


CASES = _cases()
END_HAND = re.compile(r"end phase=(\w+) points=(-?\d+) (-?\d+) score=(-?\d+) (-?\d+)$")
END_GAME = re.compile(r"end hands=(\d+) totals=(-?\d+) (-?\d+) winner=(\w+)$")


def _split_action(rest: str) -> tuple[str, str]:
    """Split '<action text> obs=<hash>' (action texts may hold a space: 'bid 70')."""
    text, _, h = rest.rpartition(" obs=")
    return text, h


def _replay_hand(case: Case) -> None:
    hd = case.head
    h = HandState.deal(hd["preset"], seed=int(hd["seed"]), dealer=int(hd["dealer"]))
    lines = list(case.lines)
    for s in range(4):  # T-2: the seeded deal
        label, _, cards = lines.pop(0).partition(": ")
        assert label == f"deal {s}" and h.hand(s) == CardSet.parse(cards), case.id
    label, _, cards = lines.pop(0).partition(":")
    assert label == "nest" and h.nest == CardSet.parse(cards), case.id
    end = lines.pop()
    for line in lines:
        step, phase, seat, rest = line.split(" ", 3)
        text, expected = _split_action(rest)
        where = f"{case.id} step {step} ({line!r})"
        assert h.phase.label == phase and h.to_move == int(seat), where
        a = parse_action(text)
        assert a in h.legal_actions(), f"{where}: not legal now"
        h.apply(a)
        got = TOOL_MODULE.hand_obs_hash(h)
        assert got == expected, f"{where}: observation hash {got} != {expected}"
    assert h.is_over, case.id
    m = END_HAND.match(end)
    assert m, f"{case.id}: bad end line {end!r}"
    assert h.phase.label == m[1], case.id
    assert h.points == (int(m[2]), int(m[3])) and h.score == (int(m[4]), int(m[5])), case.id
    if h.phase.label == "done":  # T-14
        assert sum(h.points) == PRESETS[hd["preset"]].total_points, case.id


def _replay_game(case: Case) -> None:
    hd = case.head
    g = Game(hd["preset"], seed=int(hd["seed"]), first_dealer=int(hd["first_dealer"]))
    lines = list(case.lines)
    end = lines.pop()
    for line in lines:
        step, number, phase, seat, rest = line.split(" ", 4)
        text, expected = _split_action(rest)
        where = f"{case.id} step {step} ({line!r})"
        assert g.hand_number == int(number) and g.current.phase.label == phase, where
        assert g.to_move == int(seat), where
        a = parse_action(text)
        assert a in g.legal_actions(), f"{where}: not legal now"
        g.apply(a)
        got = TOOL_MODULE.game_obs_hash(g)
        assert got == expected, f"{where}: observation hash {got} != {expected}"
    m = END_GAME.match(end)
    assert m, f"{case.id}: bad end line {end!r}"
    assert g.is_over and g.hand_number == int(m[1]), case.id
    assert g.totals == (int(m[2]), int(m[3])) and str(g.winner) == m[4], case.id


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_T1_T35_playthrough_replays(case: Case) -> None:
    """Every recorded action is legal and each seat sees exactly what was recorded."""
    if case.kind == "hand":
        _replay_hand(case)
    else:
        _replay_game(case)


def test_playthroughs_cover_every_preset() -> None:
    files = {c.file for c in CASES}
    assert files == {f"{name}.txt" for name in PRESETS}
    phases = {(c.file, c.lines[-1].split()[1]) for c in CASES if c.kind == "hand"}
    for name in PRESETS:
        assert (f"{name}.txt", "phase=done") in phases, f"no scored hand for {name}"
    kinds = {c.file for c in CASES if c.kind == "game"}
    from rook_core import SEED_PRESETS
    assert kinds == {f"{name}.txt" for name in SEED_PRESETS + ("house-180",)}


def test_playthroughs_are_generated_not_hand_edited() -> None:
    """Generated data, never edited by hand: each file is exactly what the tool writes."""
    files = TOOL_MODULE.generate_files()
    on_disk = {p.name for p in DATA.glob("*.txt")}
    assert on_disk == set(files), "tests/data/playthroughs/ holds files the tool does not write"
    for name, text in files.items():
        assert (DATA / name).read_text() == text, (
            f"tests/data/playthroughs/{name} differs from what tools/gen_playthroughs.py "
            f"generates; do not edit it by hand, run: python tools/gen_playthroughs.py")
