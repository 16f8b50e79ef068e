"""Games on disk: SQLite in WAL mode, an append-only action log per game.

Tables:

* ``games(id, spec, created)``: the game's spec (JSON: game, seed, players);
* ``seats(game_id, seat, kind, bot, token_hash)``: ``human`` or ``bot``
  (with its kind); a human seat's token is kept only as its SHA-256, so the
  file never holds a usable token;
* ``actions(game_id, n, seat, action)``: every action in order, ``n`` from 0.

A game's state is its spec replayed through its actions, so a server killed
at any moment and started again finds every action that was answered.
Each append is one transaction; ``(game_id, n)`` is the primary key, so two
writers can never both append action ``n``.

>>> import tempfile, os
>>> s = Store(os.path.join(tempfile.mkdtemp(), "games.sqlite"))
>>> s.create_game("g1", {"game": "tournament", "seed": 1}, [("human", None)] * 4)
>>> s.append("g1", 0, 1, "pass"); s.actions("g1")
[(1, 'pass')]
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from typing import Any

__all__ = ["Store", "hash_token"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, spec TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
                                  bot TEXT, token_hash TEXT, PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
                                    action TEXT NOT NULL, PRIMARY KEY (game_id, n));
"""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """The service's SQLite file; one connection per thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._db().executescript(_SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")     # WAL: a killed process loses no commit
            self._local.db = db
        return db

    def _write(self, *statements: tuple[str, list[tuple[Any, ...]]]) -> None:
        """Run ``(sql, rows)`` statements in one transaction."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, rows in statements:
                db.executemany(sql, rows)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def create_game(self, game_id: str, spec: dict[str, Any], seats: list[tuple[str, str | None]]) -> None:
        self._write(("INSERT INTO games VALUES (?, ?, ?)", [(game_id, json.dumps(spec), time.time())]),
                    ("INSERT INTO seats VALUES (?, ?, ?, ?, NULL)",
                     [(game_id, i, kind, bot) for i, (kind, bot) in enumerate(seats)]))

    def game(self, game_id: str) -> tuple[dict[str, Any], list[tuple[str, str | None, str | None]]] | None:
        """The spec and the seats (kind, bot, token hash) of a game, or None."""
        row = self._db().execute("SELECT spec FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        seats = self._db().execute("SELECT kind, bot, token_hash FROM seats WHERE game_id = ? ORDER BY seat",
                                   (game_id,)).fetchall()
        return json.loads(row[0]), [(str(k), b, t) for k, b, t in seats]

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give a free human seat its token; False when it was taken already."""
        db = self._db()
        cur = db.execute("UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? AND kind = 'human' "
                         "AND token_hash IS NULL", (token_hash, game_id, seat))
        return cur.rowcount == 1

    def append(self, game_id: str, n: int, seat: int, action: str) -> None:
        """Append action ``n`` (raises sqlite3.IntegrityError if ``n`` exists)."""
        self._write(("INSERT INTO actions VALUES (?, ?, ?, ?)", [(game_id, n, seat, action)]))

    def append_many(self, game_id: str, first: int, items: list[tuple[int, str]]) -> None:
        """Append actions ``first``, ``first + 1``, ... in one transaction."""
        if items:
            self._write(("INSERT INTO actions VALUES (?, ?, ?, ?)",
                         [(game_id, first + i, seat, a) for i, (seat, a) in enumerate(items)]))

    def actions(self, game_id: str) -> list[tuple[int, str]]:
        rows = self._db().execute("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n",
                                  (game_id,)).fetchall()
        return [(int(s), str(a)) for s, a in rows]

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._db().execute("SELECT id FROM games ORDER BY created")]
