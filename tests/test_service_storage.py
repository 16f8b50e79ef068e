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

from rook_core.service.store import GameDamaged, Store, StoreDamaged

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
    """With its log, the file keeps every answered action.  Without it, a kill
    that cut a fold short leaves a file only the log could have mended: the
    next server then refuses it at start by name (it reads the whole file after
    a server that did not close it), and otherwise keeps every answered action."""
    db = tmp_path / "games.sqlite"
    rng = random.Random(7)
    for round_ in range(3):
        s = Server(db)
        answered = _answered_until_killed(s, games=6, seconds=rng.uniform(0.5, 2.0), seed=round_)
        assert answered, "no game was answered before the kill"
        if lose_journal:
            for extra in tmp_path.glob("games.sqlite-*"):          # the journal, a WAL, its index
                extra.unlink()
        try:
            s = Server(db, port=s.port)
        except RuntimeError as refused:
            assert lose_journal, str(refused)
            assert str(db) in str(refused) and "integrity" in str(refused) and "did not close" in str(refused)
            for old in tmp_path.glob("games.sqlite*"):              # moved aside, as it says: a new file
                old.unlink()
            continue
        try:
            with s.client() as c:
                for g, move in answered.items():
                    now = c.get(f"/games/{g}")
                    assert now.status_code == 200, now.text
                    assert now.json()["move"] >= move, f"game {g}: answered move {move} lost"
        finally:
            s.stop()


def _a_fold_cut_short(tmp_path: Path) -> tuple[Path, list[str]]:
    """A file as a kill in the middle of a fold leaves it once its log is lost:
    some pages of after the fold, the others of before, mixed so that
    ``quick_check`` passes; and the games whose reads SQLite finds damaged."""
    db = tmp_path / "games.sqlite"
    s = Store(str(db))
    ids = [f"{k:032x}" for k in range(80)]                     # 32 characters, as the service gives them
    for k, g in enumerate(ids[:40]):
        s.create_game(g, {"game": "tournament", "seed": k}, [("human", None)] * 4)
        s.append_many(g, 0, [(i % 4, f"a{i}") for i in range(5 + 7 * k % 35)])
    s.make_durable()
    before = db.read_bytes()
    for k, g in enumerate(ids[40:]):
        s.create_game(g, {"game": "tournament", "seed": k}, [("human", None)] * 4)
        s.append_many(g, 0, [(i % 4, f"a{i}") for i in range(5 + 11 * k % 35)])
    for g in ids[:40:3]:
        s.append_many(g, len(s.actions(g)), [(0, "b")] * 20)
    s.make_durable()
    after = db.read_bytes()
    page = 4096
    for seed in range(400):                                      # which pages the fold had reached
        rng = random.Random(seed)
        cut = bytearray(after)
        for start in range(0, len(before), page):
            if rng.random() < 0.5:
                cut[start:start + page] = before[start:start + page]
        trial = tmp_path / f"cut{seed}.sqlite"
        trial.write_bytes(bytes(cut))
        try:
            store = Store(str(trial))                            # reads it with quick_check
        except StoreDamaged:
            continue
        unreadable = []
        for g in ids:
            try:
                store.game(g)
                store.actions(g)
            except sqlite3.DatabaseError:
                unreadable.append(g)
            except GameDamaged:
                pass
        if unreadable:
            return trial, unreadable
    raise AssertionError("no mix of the two files passed quick_check with a damaged read")


def test_a_fold_cut_short_with_its_log_lost_is_refused_at_start_after_a_kill(tmp_path: Path) -> None:
    """After a server that did not close the file (its process id left in the
    lock file), the start reads the whole file and refuses it by name."""
    db, _ = _a_fold_cut_short(tmp_path)
    Path(f"{db}.lock").write_text("4242")
    try:
        served = Server(db)
    except RuntimeError as refused:
        assert str(db) in str(refused) and "fails its integrity check" in str(refused)
        assert "did not close it" in str(refused)
    else:
        served.stop()                                              # (no server left behind)
        pytest.fail("the server started on a damaged file")


def test_a_damaged_read_is_refused_with_503_naming_the_file(tmp_path: Path) -> None:
    """After a clean stop the start checks quickly, which such a file passes; a
    read that meets the damage is then a 503 naming the file, and the server
    goes on answering the rest."""
    db, unreadable = _a_fold_cut_short(tmp_path)
    s = Server(db)
    try:
        with s.client() as c:
            r = c.get(f"/games/{unreadable[0]}")
            assert r.status_code == 503 and r.headers["content-type"] == "application/json", r.text
            assert str(db) in r.json()["error"] and "could not be read" in r.json()["error"]
            assert c.get("/health").status_code == 200
    finally:
        s.stop()
    assert Path(f"{db}.lock").read_text() == ""                   # stopped cleanly: the next start checks quickly


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


@pytest.mark.parametrize("error,status,words", [
    (sqlite3.DatabaseError("database disk image is malformed"), 503, "could not be read"),
    (sqlite3.IntegrityError("UNIQUE constraint failed: actions.game_id, actions.n"), 500, "internal error"),
])
def test_a_database_error_under_a_request_is_named_for_what_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  error: Exception, status: int, words: str) -> None:
    """A read SQLite finds damaged is a 503 naming the file; a key taken (no read
    failed) stays the plain internal error, not a damaged file."""
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    app = create_app(str(tmp_path / "games.sqlite"))

    def fails(*args: object, **kw: object) -> None:
        raise error
    monkeypatch.setattr(app.state.hub, "public", fails)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get(f"/games/{'0' * 32}")
        assert r.status_code == status and words in r.json()["error"], r.text
