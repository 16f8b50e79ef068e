"""``rook serve``'s storage under faults (issue 16.7): an answered action is
durable, whatever happens to the journal after a kill, and damage is refused
with a clear JSON error naming the game, never served as a silent loss."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from _server import Server, bearer, free_port

SEATS = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]


def _answered_until_killed(s: Server, games: int, seconds: float, seed: int) -> dict[str, int]:
    """Play ``games`` games at once until ``s`` is killed after ``seconds``;
    return each game's move number as its last answer gave it."""
    answered: dict[str, int] = {}
    lock = threading.Lock()

    def player(k: int) -> None:
        rng = random.Random(seed * 100 + k)
        try:
            with s.client() as c:
                g = c.post("/games", json={"game": "tournament", "seats": SEATS}).json()["game_id"]
                t = c.post(f"/games/{g}/seats/0/join").json()["token"]
                while True:
                    v = c.get(f"/games/{g}/view", headers=bearer(t)).json()
                    with lock:
                        answered[g] = max(answered.get(g, 0), v["move"])
                    if v["over"]:
                        return
                    r = c.post(f"/games/{g}/actions", json={"action": rng.choice(v["legal"]), "move": v["move"]},
                               headers=bearer(t))
                    if r.status_code == 200:
                        with lock:
                            answered[g] = max(answered[g], r.json()["move"])
        except (httpx.HTTPError, KeyError, ValueError):
            return                                        # the server was killed under it

    threads = [threading.Thread(target=player, args=(k,)) for k in range(games)]
    for th in threads:
        th.start()
    time.sleep(seconds)
    s.kill()
    for th in threads:
        th.join(30)
    with lock:
        return dict(answered)


@pytest.mark.parametrize("lose_journal", [False, True])
def test_answered_actions_survive_a_kill_at_random_points(tmp_path: Path, lose_journal: bool) -> None:
    db = tmp_path / "games.sqlite"
    rng = random.Random(7)
    for round_ in range(3):
        s = Server(db)
        answered = _answered_until_killed(s, games=6, seconds=rng.uniform(0.5, 2.0), seed=round_)
        assert answered, "no game was answered before the kill"
        if lose_journal:
            for extra in tmp_path.glob("games.sqlite-*"):          # the journal, a WAL, its index
                extra.unlink()
        s = Server(db, port=s.port)
        try:
            with s.client() as c:
                for g, move in answered.items():
                    now = c.get(f"/games/{g}")
                    assert now.status_code == 200, now.text
                    assert now.json()["move"] >= move, f"game {g}: answered move {move} lost"
        finally:
            s.stop()


def test_a_changed_or_lost_row_is_refused_with_json_naming_its_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    s = Server(db)
    games = []
    with s.client() as c:
        for _ in range(4):
            g = c.post("/games", json={"game": "tournament", "seats": SEATS}).json()["game_id"]
            t = c.post(f"/games/{g}/seats/0/join").json()["token"]
            for _ in range(3):
                v = c.get(f"/games/{g}/view", headers=bearer(t)).json()
                c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=bearer(t))
            games.append(g)
    s.stop()
    changed, lost, spec, fine = games
    con = sqlite3.connect(db)
    con.execute("UPDATE actions SET action = 'R14' WHERE game_id = ? AND n = 2", (changed,))
    con.execute("DELETE FROM actions WHERE game_id = ? AND n = 1", (lost,))
    con.execute("UPDATE games SET spec = '{\"game\": \"tournament\", \"seed\": 1}' WHERE id = ?", (spec,))
    con.commit()
    con.close()
    s = Server(db, port=s.port)
    try:
        with s.client() as c:                                      # one connection throughout
            for g, words in ((changed, "was changed"), (lost, "missing"), (spec, "was changed")):
                r = c.get(f"/games/{g}")
                assert r.status_code == 500 and r.headers["content-type"] == "application/json"
                assert r.json()["game_id"] == g and words in r.json()["error"], r.text
                assert c.get("/health").status_code == 200           # the connection goes on
            assert c.get(f"/games/{fine}").status_code == 200
    finally:
        s.stop()


def test_a_damaged_file_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    s = Server(db)
    with s.client() as c:
        for _ in range(30):
            c.post("/games", json={"game": "tournament", "seats": SEATS})
    s.stop()
    data = bytearray(db.read_bytes())
    assert len(data) > 3 * 4096
    data[4096:4096 + 64] = bytes(random.Random(1).randrange(256) for _ in range(64))   # page 2's header
    db.write_bytes(bytes(data))
    out = subprocess.run([sys.executable, "-m", "rook_core", "serve", "--port", str(free_port()), "--db", str(db)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert str(db) in out.stderr and ("integrity" in out.stderr or "not a readable database" in out.stderr)


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        out |= {int(x) for x in (task / "children").read_text().split()}
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _job(c: httpx.Client, spec: dict[str, object], until: tuple[str, ...]) -> str:
    j = c.post("/jobs", json=spec)
    assert j.status_code == 202, j.text
    job = j.json()["job_id"]
    for _ in range(600):
        if c.get(f"/jobs/{job}").json()["state"] in until:
            return str(job)
        time.sleep(0.1)
    raise AssertionError(f"job {job} never reached {until}")


def test_jobs_outlive_a_restart_their_worker_dies_with_the_server_and_old_ones_are_deleted(
        tmp_path: Path) -> None:
    """Issue 16.5: a killed server leaves no worker running; after a restart a
    finished job is still there and an unfinished one is failed with its files
    removed; past the retention, games and jobs are deleted with their files."""
    db = tmp_path / "games.sqlite"
    jobs_dir = tmp_path / "rook-jobs"
    s = Server(db)
    with s.client() as c:
        game = c.post("/games", json={"game": "tournament", "seats": SEATS}).json()["game_id"]
        small = _job(c, {"preset": "tournament", "agents": ["random"] * 4, "hands": 50, "seed": 1}, ("done",))
        big = _job(c, {"preset": "tournament", "agents": ["heuristic"] * 4, "hands": 1_000_000, "seed": 1},
                   ("running",))
    workers = _children(s.proc.pid)
    assert workers, "no job worker process"
    s.kill()
    deadline = time.time() + 15
    while any(_alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a job worker outlived its server"

    s = Server(db, port=s.port)
    try:
        with s.client() as c:
            assert c.get(f"/jobs/{small}").json()["state"] == "done"
            assert c.get(f"/jobs/{small}/result", params={"format": "csv"}).status_code == 200
            failed = c.get(f"/jobs/{big}").json()
            assert failed["state"] == "failed" and "stopped" in failed["error"]
            left = [p.name for p in jobs_dir.glob(f"{big}.*") if p.suffix != ".json"]
            assert not left, f"the unfinished job left files: {left}"                    # only its record
            assert c.get(f"/games/{game}").status_code == 200
    finally:
        s.stop()
    time.sleep(2)
    s = Server(db, port=s.port, args=("--requests-per-second", "0", "--keep-games-days", "0.00001",
                                      "--keep-jobs-hours", "0.0002"))
    try:
        with s.client() as c:
            assert c.get(f"/games/{game}").status_code == 404
            assert c.get(f"/jobs/{small}").status_code == 404
        assert not list(jobs_dir.glob(f"{small}.*")), "a deleted job left files"
    finally:
        s.stop()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")   # the test client's own notice about httpx
def test_a_store_that_cannot_make_an_answer_durable_answers_503(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16.7: an action that could not be made durable is not answered as a success."""
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    from rook_core.service.store import Store, StoreDamaged

    app = create_app(str(tmp_path / "games.sqlite"))
    with TestClient(app) as c:
        g = c.post("/games", json={"game": "tournament", "seats": SEATS}).json()["game_id"]
        t = c.post(f"/games/{g}/seats/0/join").json()["token"]
        v = c.get(f"/games/{g}/view", headers=bearer(t)).json()

        def cannot(self: Store) -> None:
            raise StoreDamaged(f"{self.path}: the write-ahead log could not be folded into the file")
        monkeypatch.setattr(Store, "make_durable", cannot)
        r = c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=bearer(t))
        assert r.status_code == 503 and "could not be folded" in r.json()["error"]


def test_a_database_path_no_file_can_have_is_refused_by_name() -> None:
    from rook_core.errors import RookError
    from rook_core.service.store import Store
    with pytest.raises(RookError, match="NUL character"):
        Store("games\x00.sqlite")
