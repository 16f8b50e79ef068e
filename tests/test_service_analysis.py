"""The analysis routes of ``rook serve``: positions read as the command line reads
them (every field of docs/FORMATS.md), reviews bounded in time, searches dropped
when their client hangs up, and a ``retry_after`` that says how long to wait."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from _server import Server

from rook_core.bots.agents import make_agent
from rook_core.game import Game
from rook_core.review import played_hands, review_hand
from rook_core.service import searches
from rook_core.service.limits import Busy
from rook_core.service.searches import ReviewTimeOut, SearchQueue, review_hands
from rook_core.variant import get_preset

ROOT = Path(__file__).resolve().parent.parent
DIXIE = {"preset": "dixie", "trump": "R", "leader": 0, "trick": [], "hands": [["B5"], ["B13"], ["R6"], ["G14"]],
         "tricks": [7, 5]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("analysis") / "games.sqlite",
               args=("--requests-per-second", "0", "--games-per-minute", "0", "--analysis-queue", "2"))
    yield s
    s.stop()


def _without(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}


# Positions that use each field of FORMATS.md, and some that the library refuses.
POSITIONS = [
    DIXIE,                                                                      # tricks (the audit's line)
    {"id": "v", **_without(DIXIE, "preset"), "variant": get_preset("dixie").to_dict()},      # variant
    {"id": "t", "preset": "tournament", "trump": "R", "leader": 3, "trick": ["B5"], "nest_points": 20,
     "taken": [30, 15], "hands": [["B6", "G5"], ["B7", "Rook"], ["B8", "R5"], ["G14"]]},
    {"id": "no trick", "preset": "tournament", "trump": "G", "leader": 1,
     "hands": [["B5", "G5"], ["B6", "R14"], ["B10", "Y5"], ["G10", "Y14"]]},
    {"id": "custom", "variant": {"preset": "tournament", "name": "bonus", "last_trick_bonus": 20}, "trump": "Y",
     "leader": 0, "trick": [], "hands": [["B14"], ["B6"], ["B7"], ["B5"]]},
    _without(DIXIE, "tricks"),                                                  # dixie needs tricks
    {**DIXIE, "tricks": [1, 1]},                                                # tricks that do not add up
    {**DIXIE, "colour": "R"},                                                   # not a FORMATS.md field
]


def _cli(command: list[str], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "rook_core", *command], capture_output=True, text=True,
                          input="".join(json.dumps(x) + "\n" for x in items), timeout=300)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize(("route", "command"), [
    ("/analysis/legal", ["legal"]),
    ("/analysis/perft?depth=3", ["perft", "--depth", "3"]),
    # the service's default budgets, given to the command line
    ("/analysis/solve", ["solve", "--budget", "2000000", "--time-budget", "10"]),
])
def test_every_position_field_of_formats_md_is_read_as_the_command_line_reads_it(
        server: Server, route: str, command: list[str]) -> None:
    want = _cli(command, POSITIONS)
    assert len(want) == len(POSITIONS)
    with server.client() as c:
        for pos, line in zip(POSITIONS, want):
            r = c.post(route, json=pos)
            if "error" in line:
                assert r.status_code == 400 and r.json()["error"] == line["error"], (pos, r.text, line)
            else:
                assert r.status_code == 200 and r.json() == line, (pos, r.text, line)
        if route == "/analysis/solve":
            assert [c.post(route, json=p).json().get("value") for p in POSITIONS[:5]] == [35, 35, 5, 25, 35]
    assert all("error" not in line for line in want[:5]) and all("error" in line for line in want[6:])


def test_the_openapi_document_shows_every_position_field_of_formats_md(server: Server) -> None:
    text = (ROOT / "docs" / "FORMATS.md").read_text()
    section = text.split("## A trick-play position (JSON)")[1].split("\n## ")[0]
    fields = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    assert {"id", "preset", "variant", "trump", "leader", "trick", "hands", "tricks"} <= fields
    with server.client() as c:
        doc = c.get("/openapi.json").json()
    for route in ("/analysis/legal", "/analysis/perft", "/analysis/solve"):
        schema = doc["paths"][route]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert set(schema["properties"]) == fields, route
        assert all(p.get("description") for p in schema["properties"].values()), route


# ------------------------------------------------------------------ reviews
def _played(preset: str, seed: int, hands: int) -> Game:
    g = Game(preset, seed)
    bots = [make_agent("heuristic", g.variant, s) for s in range(4)]
    while g.hand_number <= hands and not g.is_over:
        h = g.current
        g.apply(bots[h.to_move].act(h.observe(h.to_move)))
    return g


def test_a_review_stops_at_its_time_bound_with_the_hands_it_reviewed_whole() -> None:
    hands = played_hands(_played("tournament", 3, 3).to_json())
    assert len(hands) >= 2
    ticks = iter(range(10**6))

    def clock() -> float:               # a tenth of a second a look: the second hand runs out of time
        return next(ticks) / 10
    first = review_hand(hands[0], node_budget=200_000)
    with pytest.raises(ReviewTimeOut, match=r"ran out in hand 2 of \d+ after card \d+ of \d+") as cut:
        review_hands(hands, 200_000, seconds=len(first.cards) / 10 + 1, clock=clock)
    assert cut.value.hands == [first.to_json()]
    assert review_hands(hands[:1], 200_000) == cut.value.hands        # within the bound: the whole review


def test_a_review_past_its_time_bound_answers_422_with_the_hands_reviewed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    monkeypatch.setattr(searches, "REVIEW_SECONDS", 1e-9)
    with TestClient(create_app(str(tmp_path / "g.sqlite"))) as c:
        r = c.post("/analysis/review", json=_played("tournament", 3, 2).to_json())
    assert r.status_code == 422, r.text
    assert r.json()["budget"] == "time" and r.json()["hands"] == [] and "time bound" in r.json()["error"]


# ------------------------------------------------------ the solver's queue
def _request(port: int, path: str, body: bytes) -> socket.socket:
    """A request sent on a socket of its own, whose answer nobody reads."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    return s


def _searches(server: Server) -> dict[str, int]:
    with server.client() as c:
        out: dict[str, int] = c.get("/health").json()["searches"]
        return out


def test_searches_whose_client_hung_up_are_dropped_and_free_the_queue(server: Server) -> None:
    """The audit's case: long reviews whose clients hang up.  The one under way
    stops after its card, the one waiting never begins, and the next client's
    solve is answered."""
    doc = json.dumps(_played("partnership-57", 1, 8).to_json()).encode()
    before = _searches(server)
    assert before["waiting"] == 0
    socks = [_request(server.port, "/analysis/review?budget=5000000", doc) for _ in range(2)]
    try:
        deadline = time.time() + 60
        while _searches(server)["waiting"] < 2 and time.time() < deadline:
            time.sleep(0.01)
        with server.client() as c:                                  # the queue (2) is full meanwhile
            busy = c.post("/analysis/solve", json=DIXIE)
        assert busy.status_code == 429 and busy.json()["retry_after"] == int(busy.headers["retry-after"]) >= 1
    finally:
        for s in socks:
            s.close()
    deadline = time.time() + 120
    while _searches(server)["waiting"] and time.time() < deadline:
        time.sleep(0.05)
    after = _searches(server)
    assert after == {"waiting": 0, "abandoned": before["abandoned"] + 2}
    with server.client() as c:
        assert c.post("/analysis/solve", json=DIXIE).json()["value"] == 35


def test_a_solve_whose_client_hung_up_is_stopped_under_way(tmp_path: Path) -> None:
    """A solve of a full ``partnership-57`` deal, which would run to its time
    cap, is stopped once its client hangs up (Solver.stop): it counts as
    abandoned, where a solve that ran to its cap would count as finished,
    and the next client's solve is answered."""
    sys.path.insert(0, str(ROOT / "tools"))
    from solver_sides import play_until
    h = play_until("partnership-57", 5, 56)
    pos = {"preset": "partnership-57", "trump": "RBGY"[h.trump], "leader": h.leader, "trick": [],
           "hands": [h.hand(i).names() for i in range(4)]}
    s = Server(tmp_path / "g.sqlite", args=("--requests-per-second", "0", "--games-per-minute", "0",
                                            "--analysis-queue", "1", "--solve-budget", "10000000000"))
    try:
        before = _searches(s)
        sock = _request(s.port, "/analysis/solve?budget=10000000000", json.dumps(pos).encode())
        try:
            deadline = time.time() + 60
            while _searches(s)["waiting"] < 1 and time.time() < deadline:
                time.sleep(0.01)
            with s.client() as c:           # the queue (1) is full: the solve is under way
                assert c.post("/analysis/solve", json=DIXIE).status_code == 429
        finally:
            sock.close()
        deadline = time.time() + 60
        while _searches(s)["waiting"] and time.time() < deadline:
            time.sleep(0.05)
        assert _searches(s) == {"waiting": 0, "abandoned": before["abandoned"] + 1}
        with s.client() as c:
            assert c.post("/analysis/solve", json=DIXIE).json()["value"] == 35
    finally:
        s.stop()


def test_retry_after_is_the_time_the_running_search_is_expected_to_take_yet() -> None:
    now = [0.0]
    q = SearchQueue(1, clock=lambda: now[0])
    release = threading.Event()
    began = threading.Event()

    def search(stop: threading.Event) -> dict[str, Any]:
        began.set()
        release.wait(30)
        return {}

    async def refused(most: float | None) -> int:
        """The retry_after of a search refused while another runs (for up to ``most`` s)."""
        out = 0
        async with anyio.create_task_group() as tg:
            began.clear()
            release.clear()
            tg.start_soon(q.run, search, None, most)
            await anyio.to_thread.run_sync(began.wait)
            try:
                now[0] += 3                                         # it has run 3 s
                await q.run(search, None, most)
            except Busy as e:
                out = e.retry_after
            now[0] += 1                                             # and took 4 s in all
            release.set()
        return out
    assert anyio.run(refused, 10.0) == 7                # no search ended yet: up to its 10 s
    assert anyio.run(refused, 10.0) == 1                # searches take 4 s: 4 - 3
    assert anyio.run(refused, None) == 1
    now[0] += 100
    assert q.retry_after() == 4.0                       # nothing runs: as long as one takes


def test_custom_variants_do_not_pile_up_in_memory() -> None:
    from rook_core._native import rules
    from rook_core.analysis import legal_answer
    answer = searches.answer_of(legal_answer)
    for i in range(rules.RULES_KEPT * 2):
        pos = {"id": str(i), "variant": {"preset": "tournament", "name": f"v{i}"},
               "trump": "R", "leader": 0, "hands": [["B5"], ["B6"], ["B7"], ["B8"]]}
        assert answer(pos) == {"id": str(i), "to_move": 0, "legal": ["B5"]}
        assert len(rules._CACHE) <= rules.RULES_KEPT
    assert answer({"id": "p", "preset": "tournament", "trump": "R", "leader": 0,        # a preset read again
                   "hands": [["B5"], ["B6"], ["B7"], ["B8"]]})["legal"] == ["B5"]
