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
