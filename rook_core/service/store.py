"""Games on disk: SQLite in WAL mode, an append-only action log per game.

Tables:

* ``games(id, spec, created, owner_hash)``: the game's spec (JSON: game, seed,
  players) and the SHA-256 of its owner token (see ``Hub.reset_seat``);
* ``seats(game_id, seat, kind, bot, token_hash)``: ``human`` or ``bot``
  (with its kind); a human seat's token is kept only as its SHA-256, so the
  file never holds a usable token;
* ``actions(game_id, n, seat, action, chain)``: every action in order, ``n``
  from 0; ``chain`` is the SHA-256 of the previous action's chain (for action
  0, of the game's id and spec) and this action, so a row or spec changed
  behind the server's back is found when the game is read.

A game's state is its spec replayed through its actions.  Answered means
durable: before a person's request is answered, :meth:`Store.make_durable`
folds the write-ahead log into the database file itself and syncs it
(``wal_checkpoint(FULL)``), so losing the ``-wal`` file after a crash can
only take bot actions that no person was answered with, and those the bots
play again, the same, from the log (their choices depend on the log alone),
unless the crash cut a fold short: the file then holds some pages of after
the fold and some of before, which only the lost log could have mended.
The integrity check at start refuses a damaged file instead of serving from
it: ``PRAGMA quick_check`` after a server that closed the file, the whole
``PRAGMA integrity_check`` (which also reads every index against its table,
where a cut fold shows) after one that did not (its process id is still in
``PATH.lock``).  A read that SQLite finds damaged later is refused with 503.
A server's store is ``exclusive``: it holds a lock on ``PATH.lock`` while it
lives, and a second server on the same file is refused at start (each keeps
its games in memory and would answer from a copy the other no longer
matches).  Each append is one transaction; ``(game_id, n)`` is the primary
key, so two writers can never both append action ``n``.

>>> import tempfile, os
>>> s = Store(os.path.join(tempfile.mkdtemp(), "games.sqlite"))
>>> s.create_game("g1", {"game": "tournament", "seed": 1}, [("human", None)] * 4)
>>> s.append("g1", 0, 1, "pass"); s.actions("g1")
[(1, 'pass')]
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from typing import Any

from ..errors import RookError

__all__ = ["Store", "StoreDamaged", "GameDamaged", "hash_token"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, spec TEXT NOT NULL, created REAL NOT NULL,
                                  owner_hash TEXT);
CREATE TABLE IF NOT EXISTS seats (game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
                                  bot TEXT, token_hash TEXT, PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS actions (game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
                                    action TEXT NOT NULL, chain TEXT, PRIMARY KEY (game_id, n));
"""


class StoreDamaged(RookError):
    """The database file fails its integrity check, or could not take a write (a full
    disk, a file locked by another program): the server will not answer from it (HTTP 503)."""


class GameDamaged(RookError):
    """One game's stored spec or log was changed or lost behind the server's back."""

    def __init__(self, game_id: str, message: str) -> None:
        super().__init__(f"game {game_id}: {message}; it is refused rather than replayed wrong")
        self.game_id = game_id


def _link(prev: str, n: int, seat: int, action: str) -> str:
    return hashlib.sha256(f"{prev}\n{n}\n{seat}\n{action}".encode()).hexdigest()


def _genesis(game_id: str, spec_text: str) -> str:
    return hashlib.sha256(f"{game_id}\n{spec_text}".encode()).hexdigest()


def _hold(lock_path: str) -> tuple[Any, bool]:
    """The open file ``lock_path``, locked for this process until it is closed (where
    the system has ``flock``: elsewhere, not locked), and whether the store that
    held it last let it go (:meth:`Store.release` empties it; a store that was
    killed leaves its process id in it).

    :raises RookError: another process, or another store of this one, holds the lock.
    """
    try:
        import fcntl
    except ImportError:                      # no flock (Windows): one server a file is up to the operator
        return None, True
    f = open(lock_path, "a+", encoding="ascii")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read(20).strip()
        f.close()
        raise RookError(f"{lock_path[:-5]!r} is in use by another rook serve (process {holder or '?'} holds "
                        f"{lock_path!r}); give each server a database file of its own") from None
    f.seek(0)
    released = not f.read(20).strip()
    f.truncate(0)
    f.write(str(os.getpid()))
    f.flush()
    return f, released


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """The service's SQLite file; one connection per thread.  ``exclusive``: no other
    exclusive store, in this process or another, may have the file while this one lives.

    :raises RookError: for an exclusive store of a file another one has.
    """

    def __init__(self, path: str, exclusive: bool = False) -> None:
        if "\x00" in path:
            raise RookError(f"the database path {path!r} holds a NUL character, which no file name can")
        self.path = path
        self._held: Any
        self._held, released = _hold(path + ".lock") if exclusive else (None, True)
        self._local = threading.local()
        self._commits = 0                         # write transactions committed by this store
        self._folded = 0                          # of them, the ones folded into the file (make_durable)
        self._folding = threading.Lock()
        self._counting = threading.Lock()
        try:
            db = self._db()
            db.execute("PRAGMA journal_mode=WAL")
            check = "quick_check" if released else "integrity_check"    # a killed server: read it all
            found = [str(r[0]) for r in db.execute(f"PRAGMA {check}").fetchall()]
        except sqlite3.DatabaseError as e:
            raise StoreDamaged(f"{str(path)!r} is not a readable database ({e}); move it aside or restore "
                               "it from a copy") from None
        if found != ["ok"]:
            after = "" if released else ", after a server that did not close it (killed, or its machine stopped)"
            raise StoreDamaged(f"{str(path)!r} fails its integrity check ({'; '.join(found[:3])}){after}; move it "
                               "aside or restore it from a copy")
        db.executescript(_SCHEMA)
        if "chain" not in [r[1] for r in db.execute("PRAGMA table_info(actions)")]:
            db.execute("ALTER TABLE actions ADD COLUMN chain TEXT")    # a file of before the chains
        if "owner_hash" not in [r[1] for r in db.execute("PRAGMA table_info(games)")]:
            db.execute("ALTER TABLE games ADD COLUMN owner_hash TEXT")  # a file of before owner tokens

    def release(self) -> None:
        """Let another exclusive store have the file (this one is done with it)."""
        held, self._held = self._held, None
        if held is not None:
            held.truncate(0)                     # closed cleanly: the next store checks the file quickly
            held.close()

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("PRAGMA synchronous=NORMAL")     # WAL: a killed process loses no commit
            self._local.db = db
        return db

    def make_durable(self) -> None:
        """Fold every commit so far into the database file itself and sync it, so
        that it outlives the loss of the ``-wal`` file (it waits for a writer
        in the middle of a transaction, then copies the whole log).

        :raises StoreDamaged: when the log could not be folded in.
        """
        want = self._commits                     # every commit up to here must be folded in
        with self._folding:                      # one checkpoint at a time; a later one covers us too
            if self._folded >= want:
                return
            for attempt in range(50):
                upto = self._commits
                try:
                    busy, log, done = self._db().execute("PRAGMA wal_checkpoint(FULL)").fetchone()
                except sqlite3.OperationalError as e:
                    raise StoreDamaged(f"{self.path}: the write-ahead log could not be folded into the file "
                                       f"({e})") from None
                if not busy and done >= log >= 0:
                    self._folded = upto
                    return
                time.sleep(0.002 * (attempt + 1))
        raise StoreDamaged(f"{self.path}: the write-ahead log could not be folded into the file "
                           f"({done} of {log} pages)")

    def _write(self, *statements: tuple[str, list[tuple[Any, ...]]]) -> None:
        """Run ``(sql, rows)`` statements in one transaction."""
        self._transaction(lambda db: [db.executemany(sql, rows) for sql, rows in statements])

    def _transaction(self, work: Any) -> Any:
        """Run ``work(connection)`` in one write transaction; return what it returns.

        :raises StoreDamaged: when SQLite could not write (a full disk, say); nothing was written.
        """
        db = self._db()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                out = work(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:            # SQLite ends some failed transactions by itself
                    db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise                                # a key taken: the caller's answer, not damage
        except sqlite3.DatabaseError as e:       # a full disk, a locked or a damaged file
            raise StoreDamaged(f"{self.path}: could not write ({e})") from None
        self._count_commit()
        return out

    def _count_commit(self) -> None:
        """Count a commit that has returned (make_durable folds in every one counted)."""
        with self._counting:
            self._commits += 1

    def create_game(self, game_id: str, spec: dict[str, Any], seats: list[tuple[str, str | None]],
                    owner_hash: str | None = None) -> None:
        self._write(("INSERT INTO games VALUES (?, ?, ?, ?)",
                     [(game_id, json.dumps(spec), time.time(), owner_hash)]),
                    ("INSERT INTO seats VALUES (?, ?, ?, ?, NULL)",
                     [(game_id, i, kind, bot) for i, (kind, bot) in enumerate(seats)]))

    def game(self, game_id: str) -> tuple[dict[str, Any], list[tuple[str, str | None, str | None]]] | None:
        """The spec and the seats (kind, bot, token hash) of a game, or None.

        :raises GameDamaged: for a spec that is no longer a JSON object.
        """
        row = self._db().execute("SELECT spec FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            spec = json.loads(row[0])
        except (TypeError, ValueError):
            spec = None
        if not isinstance(spec, dict):
            raise GameDamaged(game_id, "its stored spec is not a JSON object")
        seats = self._db().execute("SELECT kind, bot, token_hash FROM seats WHERE game_id = ? ORDER BY seat",
                                   (game_id,)).fetchall()
        return spec, [(str(k), b, t) for k, b, t in seats]

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give a free human seat its token; False when it was taken already."""
        return bool(self._transaction(lambda db: db.execute(
            "UPDATE seats SET token_hash = ? WHERE game_id = ? AND seat = ? AND kind = 'human' AND token_hash IS NULL",
            (token_hash, game_id, seat)).rowcount == 1))

    def owner_hash(self, game_id: str) -> str | None:
        """The SHA-256 of the game's owner token (None for a game of before owner tokens)."""
        row = self._db().execute("SELECT owner_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def release_seat(self, game_id: str, seat: int) -> None:
        """Free a human seat: its token stops working and the seat can be joined again."""
        self._write(("UPDATE seats SET token_hash = NULL WHERE game_id = ? AND seat = ? AND kind = 'human'",
                     [(game_id, seat)]))

    def append(self, game_id: str, n: int, seat: int, action: str) -> None:
        """Append action ``n`` (raises sqlite3.IntegrityError if ``n`` exists)."""
        self.append_many(game_id, n, [(seat, action)])

    def append_many(self, game_id: str, first: int, items: list[tuple[int, str]]) -> None:
        """Append actions ``first``, ``first + 1``, ... in one transaction, each
        chained to the one before it."""
        if not items:
            return

        def work(db: sqlite3.Connection) -> None:
            if first == 0:
                row = db.execute("SELECT spec FROM games WHERE id = ?", (game_id,)).fetchone()
                prev = _genesis(game_id, row[0] if row else "")
            else:
                row = db.execute("SELECT chain FROM actions WHERE game_id = ? AND n = ?",
                                 (game_id, first - 1)).fetchone()
                prev = row[0] if row and row[0] else ""
            rows = []
            for i, (seat, a) in enumerate(items):
                prev = _link(prev, first + i, seat, a)
                rows.append((game_id, first + i, seat, a, prev))
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", rows)
        self._transaction(work)

    def actions(self, game_id: str) -> list[tuple[int, str]]:
        """The game's actions as (seat, action), checked against their chain.

        :raises GameDamaged: when a row, a gap or the spec does not match the chain.
        """
        db = self._db()
        spec = db.execute("SELECT spec FROM games WHERE id = ?", (game_id,)).fetchone()
        rows = db.execute("SELECT n, seat, action, chain FROM actions WHERE game_id = ? ORDER BY n",
                          (game_id,)).fetchall()
        prev = _genesis(game_id, spec[0] if spec else "")
        out = []
        for i, (n, seat, action, chain) in enumerate(rows):
            if n != i:
                raise GameDamaged(game_id, f"action {i} is missing from its stored log")
            if chain is not None:                     # rows written before the chains carry none
                if not isinstance(seat, int) or not isinstance(action, str) or chain != _link(prev, n, seat, action):
                    raise GameDamaged(game_id, f"action {n} of its stored log was changed")
            prev = chain if chain is not None else prev
            out.append((int(seat), str(action)))
        return out

    def delete_games_before(self, created: float) -> list[str]:
        """Delete the games created before ``created`` (a time.time()), with their seats and
        log; return their ids."""
        def work(db: sqlite3.Connection) -> list[str]:
            ids = [str(r[0]) for r in db.execute("SELECT id FROM games WHERE created < ?", (created,))]
            for table, key in (("actions", "game_id"), ("seats", "game_id"), ("games", "id")):
                db.executemany(f"DELETE FROM {table} WHERE {key} = ?", [(i,) for i in ids])
            return ids
        return list(self._transaction(work))

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._db().execute("SELECT id FROM games ORDER BY created")]
