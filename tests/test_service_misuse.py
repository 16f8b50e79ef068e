"""``rook serve`` used carelessly or with ill intent: clients that name another
address, an operator who starts two servers on one file, a disk that fills up,
rows changed in the SQLite file behind the server's back."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from _server import Server, bearer, free_port

from rook_core.errors import RookError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")   # the test client's notice about httpx

SEATS = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]


@contextmanager
def _client(db: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    with TestClient(create_app(str(db)), raise_server_exceptions=False) as c:
        yield c


def _actions(db: Path, game_id: str) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(db)
    try:
        return list(con.execute("SELECT n, seat, action FROM actions WHERE game_id = ? ORDER BY n", (game_id,)))
    finally:
        con.close()


def test_a_forwarded_for_header_gives_a_client_no_fresh_address(tmp_path: Path) -> None:
    """The rate of a client is its connection's address: naming another in
    X-Forwarded-For (or Forwarded) on each request does not start a fresh bucket."""
    s = Server(tmp_path / "g.sqlite", args=("--requests-per-second", "0.01", "--requests-burst", "5",
                                            "--games-per-minute", "0.01", "--games-burst", "2"))
    try:
        with s.client() as c:
            codes = [c.get("/games/" + "0" * 32, headers={"X-Forwarded-For": f"10.0.0.{i}",
                                                           "Forwarded": f"for=10.0.1.{i}"}).status_code
                     for i in range(8)]
    finally:
        s.stop()
    assert codes == [404] * 5 + [429] * 3


def test_a_second_server_on_the_same_file_is_refused_by_name_and_the_first_goes_on(tmp_path: Path) -> None:
    """Two servers on one file would each answer from its own memory: tokens of one
    refused by the other, moves of one clashing with the other's."""
    db = tmp_path / "games.sqlite"
    s = Server(db)
    try:
        with s.client() as c:
            g = c.post("/games", json={"game": "tournament", "seed": 3, "seats": SEATS}).json()["game_id"]
            t = c.post(f"/games/{g}/seats/0/join").json()["token"]
            second = subprocess.run([sys.executable, "-m", "rook_core", "serve", "--port", str(free_port()),
                                     "--db", str(db)], capture_output=True, text=True, timeout=120)
            assert second.returncode != 0
            assert "in use by another rook serve" in second.stderr and str(db) in second.stderr, second.stderr
            v = c.get(f"/games/{g}/view", headers=bearer(t)).json()
            r = c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=bearer(t))
            assert r.status_code == 200, r.text
    finally:
        s.stop()
    again = Server(db)                                   # once the first has stopped, the file is free
    again.stop()


def test_an_app_has_its_file_until_it_shuts_down(tmp_path: Path) -> None:
    from rook_core.service.app import create_app
    db = tmp_path / "games.sqlite"
    with _client(db) as c:
        assert c.get("/health").status_code == 200
        with pytest.raises(RookError, match="in use by another rook serve"):
            create_app(str(db))
    with _client(db) as c:
        assert c.get("/health").status_code == 200


@pytest.mark.parametrize("change, words", [
    ("UPDATE seats SET bot = 'genius' WHERE game_id = ? AND seat = 1", "seats"),     # a bot of no kind
    ("DELETE FROM seats WHERE game_id = ? AND seat = 3", "seats"),                     # a seat lost
    ("UPDATE seats SET kind = 'alien', bot = NULL WHERE game_id = ? AND seat = 2", "seats"),
])
def test_seats_changed_behind_the_servers_back_refuse_the_game_by_name_and_take_no_action(
        tmp_path: Path, change: str, words: str) -> None:
    db = tmp_path / "games.sqlite"
    with _client(db) as c:
        g = c.post("/games", json={"game": "tournament", "seed": 1, "seats": SEATS}).json()["game_id"]
        t = c.post(f"/games/{g}/seats/0/join").json()["token"]
        v = c.get(f"/games/{g}/view", headers=bearer(t)).json()
    before = _actions(db, g)
    con = sqlite3.connect(db)
    con.execute(change, (g,))
    con.commit()
    con.close()
    with _client(db) as c:
        for r in (c.get(f"/games/{g}"),
                  c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]},
                         headers=bearer(t))):
            assert r.status_code == 500 and r.json()["game_id"] == g and words in r.json()["error"], r.text
    assert _actions(db, g) == before


def test_a_full_disk_answers_503_naming_it_and_changes_nothing(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite refuses a write on a full disk (here: a file held at its size); the
    answer says so, the game is where it was, and once there is room it goes on."""
    from rook_core.service.store import Store
    db = tmp_path / "games.sqlite"
    full = False
    connect = Store._db

    def held_at_its_size(self: Store) -> sqlite3.Connection:
        con = connect(self)
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        con.execute(f"PRAGMA max_page_count = {pages if full else 1 << 30}")
        return con
    monkeypatch.setattr(Store, "_db", held_at_its_size)
    with _client(db) as c:
        g = c.post("/games", json={"game": "tournament", "seed": 1, "seats": SEATS}).json()["game_id"]
        t = c.post(f"/games/{g}/seats/0/join").json()["token"]
        full = True
        refused: list[Any] = []
        for _ in range(200):                              # until the pages already there are full
            v = c.get(f"/games/{g}/view", headers=bearer(t)).json()
            r = c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=bearer(t))
            if r.status_code != 200:
                refused.append(r)
                break
        for _ in range(15):                               # until a new game's rows need a page
            made = c.post("/games", json={"game": "tournament", "seats": SEATS})
            if made.status_code != 201:
                break
        assert refused and refused[0].status_code == 503 and "full" in refused[0].json()["error"], refused
        assert made.status_code == 503 and "full" in made.json()["error"], made.text
        full = False                                      # room again: the move is played once, retried or not
        r = c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=bearer(t))
        assert r.status_code == 200, r.text
        assert _actions(db, g)[v["move"]][1:] == (0, v["legal"][0])
        assert len(_actions(db, g)) == r.json()["move"]


def test_a_move_clock_runs_out_while_tables_of_bots_play_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The background runner plays a person's late move when its clock runs out,
    not once every table of bots has played to its end."""
    from types import SimpleNamespace

    from rook_core.service import hub as hub_module
    from rook_core.service.hub import Hub
    from rook_core.service.limits import Limits
    from rook_core.service.store import Store

    shift = [0.0]
    monkeypatch.setattr(hub_module, "time", SimpleNamespace(monotonic=lambda: time.monotonic() + shift[0],
                                                            time=time.time, sleep=time.sleep))
    hub = Hub(Store(str(tmp_path / "games.sqlite")), limits=Limits(bot_slice=1))
    try:
        bots = hub.create({"game": "tournament", "seed": 1, "max_hands": 1000}, ["bot:random"] * 4)
        late_played, bots_then = threading.Event(), []
        play_for_the_late = hub._play_for_the_late

        def noted(game_id: str, live: Any, move: int) -> None:
            bots_then.append(hub.bots_moving(bots))
            play_for_the_late(game_id, live, move)
            late_played.set()
        monkeypatch.setattr(hub, "_play_for_the_late", noted)
        g = hub.create({"game": "tournament", "seed": 6, "move_clock": 1}, SEATS)
        shift[0] = 10.0 ** 6                          # every clock has run out
        assert late_played.wait(300), "the clock ran out and nothing was played"
        assert bots_then[0], "the late move waited for the table of bots to play its 1,000 hands"
        assert hub.public(g)["move"] > 0
    finally:
        hub.close()


def _waiting_searches(s: Server, n: int) -> None:
    """Wait until ``n`` searches wait or run on ``s``."""
    with s.client() as c:
        for _ in range(6000):
            if c.get("/health").json()["searches"]["waiting"] == n:
                return
            time.sleep(0.01)
    raise AssertionError(f"never {n} searches waiting")


def test_one_client_cannot_take_the_whole_solver_queue(tmp_path: Path) -> None:
    """Past --analysis-per-client searches of its own, a client gets 429 while
    another client's search is still taken into the queue."""
    from rook_core.game import Game
    deal = Game("partnership-57", 9).current
    early = json.dumps({"preset": "partnership-57", "trump": "G", "leader": 0, "trick": [],
                        "hands": [deal.hand(seat).names() for seat in range(4)]}).encode()
    dixie = {"preset": "dixie", "trump": "R", "leader": 0, "trick": [], "hands": [["B5"], ["B13"], ["R6"], ["G14"]],
             "tricks": [7, 5]}
    s = Server(tmp_path / "g.sqlite", args=("--requests-per-second", "0", "--analysis-queue", "3",
                                            "--analysis-per-client", "1", "--solve-budget", "10000000000"))
    try:
        hog = socket.create_connection(("127.0.0.1", s.port), source_address=("127.0.0.2", 0))
        hog.sendall(f"POST /analysis/solve?budget=10000000000 HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    f"application/json\r\nContent-Length: {len(early)}\r\n\r\n".encode() + early)
        try:
            _waiting_searches(s, 1)
            with httpx.Client(base_url=s.url, timeout=60,
                              transport=httpx.HTTPTransport(local_address="127.0.0.2")) as again:
                refused = again.post("/analysis/solve", json=dixie)
            assert refused.status_code == 429 and "this client" in refused.json()["error"], refused.text
            answers: list[httpx.Response] = []

            def other() -> None:
                with s.client() as c:
                    answers.append(c.post("/analysis/solve", json=dixie))
            th = threading.Thread(target=other)
            th.start()
            _waiting_searches(s, 2)                         # taken into the queue behind the long solve
        finally:
            hog.close()                                     # its solve is dropped: the other's goes on
        th.join(120)
        assert answers and answers[0].status_code == 200 and answers[0].json()["value"] == 35
    finally:
        s.stop()


def test_a_game_rebuilt_from_a_long_log_costs_its_client_requests_in_proportion() -> None:
    """A finished game leaves memory after newer ones and is rebuilt from its
    whole log when asked for: tens of thousands of actions for a long table of
    bots, half a second of work, for a plain GET that cost one request.  A
    client cycling through old games could make the server replay without
    bound; now each 100 actions replayed cost it one request more."""
    import tempfile

    from fastapi.testclient import TestClient

    from rook_core.service.app import REPLAY_PER_REQUEST, create_app
    from rook_core.service.limits import Limits
    with tempfile.TemporaryDirectory() as d:
        app = create_app(str(Path(d) / "g.sqlite"), limits=Limits(requests_per_second=0.001, requests_burst=10))
        with TestClient(app) as c:
            r = c.post("/games", json={"game": "tournament", "seats": ["bot:random"] * 4, "seed": 2, "max_hands": 40})
            game_id = r.json()["game_id"]
            state = c.get(f"/games/{game_id}", params={"wait": 30}).json()
            assert state["over"] and state["move"] > 10 * REPLAY_PER_REQUEST, state
            app.state.hub._live.pop(game_id)                  # as a finished game past keep_finished is dropped
            assert c.get(f"/games/{game_id}").json() == state     # rebuilt: the same game
            refused = c.get(f"/games/{game_id}")
            assert refused.status_code == 429 and "too many requests" in refused.json()["error"], refused.text


def test_a_stored_move_clock_that_is_no_seconds_refuses_the_game_by_name(tmp_path: Path) -> None:
    """A game with no action yet has no chain to catch a changed spec: a
    move_clock of "x" in the file gave a bare internal error on every request."""
    db = tmp_path / "games.sqlite"
    with _client(db) as c:
        g = c.post("/games", json={"game": "tournament", "seed": 1, "seats": ["human"] * 4,
                                   "move_clock": 60}).json()["game_id"]
    con = sqlite3.connect(db)
    spec = json.loads(con.execute("SELECT spec FROM games WHERE id = ?", (g,)).fetchone()[0])
    con.execute("UPDATE games SET spec = ? WHERE id = ?", (json.dumps({**spec, "move_clock": "x"}), g))
    con.commit()
    con.close()
    with _client(db) as c:
        r = c.get(f"/games/{g}")
    assert r.status_code == 500 and r.json()["game_id"] == g and "move_clock" in r.json()["error"], r.text


def test_a_join_whose_answer_could_not_be_made_durable_leaves_the_seat_free(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat was claimed, then making it durable failed (503): the token was
    never given, yet the seat stayed taken by it until the owner reset it."""
    from rook_core.service.hub import Conflict, Hub
    from rook_core.service.store import Store, StoreDamaged

    store = Store(str(tmp_path / "games.sqlite"))
    hub = Hub(store)
    try:
        g = hub.create({"game": "tournament", "seed": 1}, SEATS)
        durable = store.make_durable
        failing = [True]

        def once(*args: Any, **kw: Any) -> None:
            if failing.pop() if failing else False:
                raise StoreDamaged("the disk is full")
            durable(*args, **kw)
        monkeypatch.setattr(store, "make_durable", once)
        with pytest.raises(StoreDamaged):
            hub.join(g, 0)
        token = hub.join(g, 0)                        # the seat is free: taken now, by the token given
        assert hub.view(g, token)["seat"] == 0
        with pytest.raises(Conflict):
            hub.join(g, 0)
    finally:
        hub.close()
