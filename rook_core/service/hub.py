"""The games being played: seats, tokens, moves, bots, and the log behind them.

:class:`Hub` keeps each game in memory once loaded (its spec replayed
through its action log from the :class:`~.store.Store`), one lock per game.
An action is checked against the move number the client expects (the count
of actions so far), applied, written to the log, and then the bots move
until a person is to move or the game is over; their actions go to the log
too.  The log is written before the answer goes out, so an answered action
is never lost.

One request plays at most ``limits.bot_slice`` bot actions.  A game whose
bots have more to play (a table of bots, say) plays on in the background, a
slice at a time, one game after another; ``bots_moving`` in its views says
so.  While ``limits.bot_queue`` games do, a new table of bots alone is
refused with :class:`~.limits.Busy` (a game with a person plays on anyway:
its bots stop at the person's turn).

* A retried request (same seat, same move number, same action, already
  applied) gets the same answer again: requests are idempotent.
* A request for a move number that is not the current one is stale: 409.

A refused request (no token, a wrong token, a stale move, an action the
rules refuse) changes nothing: the game stays in memory as it was.  A bot's
decision is seeded by the game's seed, its seat and the move number alone,
so a game rebuilt from its log plays on exactly as one that never left memory.

Memory is bounded: the newest ``keep_finished`` finished games and the
``keep_playing`` games used most recently stay in memory; others are dropped
and rebuilt from their log when they are asked for again (a rebuild holds
only that game's loading lock, never the whole hub).  A rebuild replays the
game's whole log, tens of thousands of actions for a long table of bots:
the actions replayed for a caller are added to its :data:`REPLAYED` meter,
which the service charges to the client that asked (docs/SERVICE.md).

>>> import tempfile, os
>>> hub = Hub(Store(os.path.join(tempfile.mkdtemp(), "g.sqlite")))
>>> g = hub.create({"game": "tournament", "seed": 3}, ["human", "bot:random", "bot:random", "bot:random"])
>>> token = hub.join(g, 0)
>>> view = hub.view(g, token)
>>> view["seat"], view["move"] > 0, view["to_move"]          # the bots bid first, then seat 0
(0, True, 0)
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import RookError
from ..hosting import BOT_KINDS, HostedGame
from ..rng import agent_seed
from .limits import Busy, Limits
from .store import GameDamaged, Store, hash_token

if TYPE_CHECKING:
    from ..hand import HandState

_log = logging.getLogger("rook_core.service")

__all__ = ["Hub", "NotFound", "Forbidden", "Conflict", "seed_commitment"]

KEEP_FINISHED = 256                 # finished games kept in memory; older ones reload from the log
KEEP_PLAYING = 4096                 # games in play kept in memory, the least recently used dropped first
# The caller's meter of actions replayed to rebuild games for it (a one-item
# list, shared with the threads the caller's work runs on; None: nobody counts).
REPLAYED: ContextVar[list[int] | None] = ContextVar("rook_core_replayed", default=None)


class NotFound(RookError):
    """No such game (or seat)."""


class Forbidden(RookError):
    """A token that is not this game's seat token."""


class Conflict(RookError):
    """A stale move number, a seat taken, a move out of turn."""


@dataclass
class _Live:
    game: HostedGame
    seats: list[tuple[str, str | None, str | None]]           # kind, bot kind, token hash
    log: list[tuple[int, str]]
    answers: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)   # seat -> its last move, answer
    lock: threading.Lock = field(default_factory=threading.Lock)


def _seat_spec(text: object) -> tuple[str, str | None]:
    if not isinstance(text, str):
        raise RookError(f"a seat is 'human' or 'bot:KIND', not {text!r}")
    if text == "human":
        return ("human", None)
    if text.startswith("bot:") and text[4:] in BOT_KINDS:
        return ("bot", text[4:])
    raise RookError(f"a seat is 'human' or 'bot:KIND' with KIND one of {', '.join(BOT_KINDS)}, not {text!r}")


class Hub:
    """Every hosted game, backed by ``store``; at most ``keep_finished``
    finished games and about ``keep_playing`` games in play stay in memory
    (a game being worked on is never dropped)."""

    def __init__(self, store: Store, keep_finished: int = KEEP_FINISHED, keep_playing: int = KEEP_PLAYING,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.keep_finished = keep_finished
        self.keep_playing = keep_playing
        self.limits = limits or Limits()
        self._live: OrderedDict[str, _Live] = OrderedDict()          # least recently used first
        self._finished: OrderedDict[str, None] = OrderedDict()     # oldest first
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self.rebuilds = 0                   # games rebuilt from their log since the hub started
        self._moving: OrderedDict[str, None] = OrderedDict()   # games whose bots play on, oldest turn first
        self._queued: OrderedDict[str, None] = OrderedDict()   # of those, the ones waiting for their slice
        self._clocks: dict[str, tuple[float, int]] = {}          # game -> (deadline, move) of a person's clock
        self._wake = threading.Condition(self._lock)
        self._runner: threading.Thread | None = None
        self._closing = False

    @property
    def in_memory(self) -> int:
        """How many games are held in memory now."""
        return len(self._live)

    def _note_if_over(self, game_id: str, live: _Live) -> None:
        """Count a finished game among the ones kept; drop the oldest beyond
        ``keep_finished`` (a finished game never changes, so its log rebuilds it)."""
        if not live.game.is_over:
            return
        with self._lock:
            self._finished[game_id] = None
            self._finished.move_to_end(game_id)
            while len(self._finished) > self.keep_finished:
                old, _ = self._finished.popitem(last=False)
                self._live.pop(old, None)

    def _drop_idle(self) -> None:
        """Drop the least recently used games in play beyond ``keep_playing``
        whose lock is free (hub lock held).  Their log rebuilds them exactly,
        bots included (see :func:`_bot_seed`)."""
        if len(self._live) <= self.keep_playing:
            return                                                        # the common case: nothing to do
        playing = [g for g in self._live if g not in self._finished]       # least recently used first
        for game_id in playing[:max(0, len(playing) - self.keep_playing)]:
            if not self._live[game_id].lock.locked():
                del self._live[game_id]

    # ---------------------------------------------------------------- games
    def create(self, spec: dict[str, Any], seats: list[str]) -> str:
        """Create a game (``spec``: game, seed, players) with its seats
        (``"human"`` or ``"bot:random"`` / ``"bot:heuristic"``); return its id.
        Bots that move first move at once (a slice of them: see the module's note).

        :raises RookError: for a bad spec or seats.  :raises Busy: too many games' bots playing on.
        """
        return str(self.create_view(spec, seats)["game_id"])

    def create_view(self, spec: dict[str, Any], seats: list[str]) -> dict[str, Any]:
        """:meth:`create`, returning the game's public view as this request left it,
        with the game's owner token (shown this once: :meth:`reset_seat` takes it).

        :raises RookError: for a bad spec or seats.
        """
        if not isinstance(seats, list):
            raise RookError(f"seats must be a list, one per seat, not {seats!r}")
        spec = dict(spec)
        _check_clock(spec.get("move_clock"))
        chosen = spec.get("seed") is not None
        if not chosen:
            spec["seed"] = secrets.randbits(63)         # a secret deal from the OS's source: shown at the end
        game = HostedGame.create(spec)
        spec = game.spec                                 # with every rule it was built with
        spec["seed_chosen"] = chosen
        spec["seed_salt"] = secrets.token_hex(16)      # the commitment's salt, shown with the seed
        if len(seats) != game.seats:
            raise RookError(f"{spec['game']} has {game.seats} seats, and {len(seats)} were given")
        kinds = [_seat_spec(s) for s in seats]
        if all(k == "bot" for k, _ in kinds):          # a table of bots plays on by itself: bounded
            with self._lock:
                if len(self._moving) >= self.limits.bot_queue:
                    raise Busy(f"{len(self._moving)} games' bots are playing on; try again shortly", 2.0)
        game_id = uuid.uuid4().hex
        owner = secrets.token_urlsafe(24)               # lets the creator free a seat whose token was lost
        self.store.create_game(game_id, spec, kinds, hash_token(owner))
        live = _Live(game, [(k, b, None) for k, b in kinds], [])
        with self._lock:
            self._live[game_id] = live
            self._drop_idle()
        with live.lock, self._evict_on_error(game_id):
            self._run_bots(game_id, live)
            self.store.make_durable()
            view = self._public(game_id, live)
        return {**view, "owner_token": owner}

    @contextmanager
    def _evict_on_error(self, game_id: str) -> Iterator[None]:
        """On any failure, forget the game in memory: the next request rebuilds
        it from the log, which holds exactly the actions that were answered."""
        try:
            yield
        except BaseException:
            with self._lock:
                self._live.pop(game_id, None)
            raise

    def _load(self, game_id: str) -> _Live:
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)
                return live
            if not isinstance(game_id, str) or len(game_id) != 32:
                raise NotFound(f"no game {str(game_id)[:64]!r}")
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:                       # one rebuild per game; other games go on meanwhile
            with self._lock:
                live = self._live.get(game_id)
            if live is None:
                try:
                    live = self._rebuild(game_id)
                except BaseException:
                    with self._lock:
                        self._loading.pop(game_id, None)
                    raise
                with self._lock:
                    self._live[game_id] = live
                    self._loading.pop(game_id, None)
                    self.rebuilds += 1
                    self._drop_idle()
                with live.lock, self._evict_on_error(game_id):      # a restart may find a bot to move
                    self._run_bots(game_id, live)
        return live

    @contextmanager
    def _locked(self, game_id: str) -> Iterator[_Live]:
        """The game, loaded and locked.  A game dropped from memory between its
        load and its lock is loaded again, so that no request ever works on a
        copy that is no longer the hub's."""
        while True:
            live = self._load(game_id)
            live.lock.acquire()
            with self._lock:
                if self._live.get(game_id) is live:
                    break
            live.lock.release()
        try:
            yield live
        finally:
            live.lock.release()

    def _rebuild(self, game_id: str) -> _Live:
        """The game replayed from its spec and log in the store."""
        found = self.store.game(game_id)
        if found is None:
            raise NotFound(f"no game {game_id[:64]!r}")
        spec, seats = found
        log = self.store.actions(game_id)                # checked against its chain
        try:
            game = HostedGame.load(spec)
            _check_clock(spec.get("move_clock"))
        except RookError as e:
            raise GameDamaged(game_id, f"its stored spec no longer builds a game ({e})") from None
        if len(seats) != game.seats or any((k, b) != ("human", None) and (k != "bot" or b not in BOT_KINDS)
                                           for k, b, _ in seats):
            raise GameDamaged(game_id, f"its stored seats are not {game.seats} seats, each 'human' or a bot of "
                                       f"{', '.join(BOT_KINDS)}")
        n = 0
        try:
            for n, (seat, action) in enumerate(log):      # noqa: B007 - n names the action refused
                game.apply(action, seat)
        except RookError as e:                            # every stored action was accepted once
            raise GameDamaged(game_id, f"its stored log no longer replays (action {n}: {e})") from None
        finally:
            meter = REPLAYED.get()
            if meter is not None:
                meter[0] += len(log)
        return _Live(game, seats, log)

    def _run_bots(self, game_id: str, live: _Live) -> None:
        """Let the bots move until a person is to move or the game is over, at
        most ``limits.bot_slice`` actions (lock held); a game whose bots still
        have moves then plays on in the background, a slice at a time."""
        done: list[tuple[int, str]] = []
        first = len(live.log)
        try:
            for _ in range(self.limits.bot_slice):
                seat = _bot_to_move(live)
                if seat is None:
                    break
                bot = live.game.bot(str(live.seats[seat][1]), _bot_seed(live, seat, first + len(done)))
                action = live.game.apply(live.game.bot_action(bot, seat), seat)
                done.append((seat, action))
        finally:
            self.store.append_many(game_id, first, done)     # a failure here evicts the game (callers)
            live.log.extend(done)
        if _bot_to_move(live) is None:
            self._note_if_over(game_id, live)            # before the game stops counting as moving
            clock = live.game.spec.get("move_clock")
            with self._lock:
                self._moving.pop(game_id, None)
                self._clocks.pop(game_id, None)
                if clock and not live.game.is_over and live.game.to_move is not None:   # a person to move
                    self._clocks[game_id] = (time.monotonic() + clock, len(live.log))
                    self._start_runner()
            return
        with self._lock:
            self._moving[game_id] = None
            self._queued[game_id] = None
            self._start_runner()

    def _start_runner(self) -> None:
        """Start the background runner if it is not running, and wake it (hub lock held)."""
        if self._runner is None and not self._closing:
            self._runner = threading.Thread(target=self._play_on, name="rook-bots", daemon=True)
            self._runner.start()
        self._wake.notify()

    def _play_on(self) -> None:
        """The background runner: one slice of bot play for each waiting game in
        turn, and the move of a person whose clock ran out."""
        while True:
            late: tuple[str, int] | None = None
            with self._wake:
                while not self._closing:
                    now = time.monotonic()          # a clock run out first: bots playing on never hold it up
                    due = min(self._clocks.items(), key=lambda kv: kv[1][0], default=None)
                    if due is not None and due[1][0] <= now:
                        late = (due[0], due[1][1])
                        del self._clocks[due[0]]
                        break
                    if self._queued:
                        break
                    self._wake.wait(None if due is None else due[1][0] - now)
                if self._closing:
                    return
                game_id = late[0] if late else self._queued.popitem(last=False)[0]
            try:
                with self._locked(game_id) as live, self._evict_on_error(game_id):
                    if late is not None:
                        self._play_for_the_late(game_id, live, late[1])
                    self._run_bots(game_id, live)
            except Exception:                         # the game is evicted; its log holds what was played
                with self._lock:
                    self._moving.pop(game_id, None)
                _log.exception("the bots of game %s stopped", game_id)

    def _play_for_the_late(self, game_id: str, live: _Live, move: int) -> None:
        """The person to move at ``move`` let the clock run out: the heuristic bot
        plays that one move for the seat (lock held; nothing if the game moved on)."""
        seat = live.game.to_move
        if len(live.log) != move or seat is None or live.game.is_over or live.seats[seat][0] == "bot":
            return
        bot = live.game.bot("heuristic", _bot_seed(live, seat, move))
        action = live.game.apply(live.game.bot_action(bot, seat), seat)
        self.store.append(game_id, move, seat, action)
        live.log.append((seat, action))
        self.store.make_durable()                   # when it came is not in the log: keep it

    def sweep(self) -> list[str]:
        """Delete the games older than ``limits.keep_games_days`` from the store and
        from memory; return their ids."""
        gone = self.store.delete_games_before(time.time() - self.limits.keep_games_days * 86400)
        with self._lock:
            for game_id in gone:
                for held in (self._live, self._finished, self._moving, self._queued, self._clocks):
                    held.pop(game_id, None)
        return gone

    def bots_moving(self, game_id: str) -> bool:
        """Whether the bots of ``game_id`` are playing on in the background."""
        with self._lock:
            return game_id in self._moving

    def wait_for_bots(self, game_id: str, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the bots of ``game_id`` to be done
        (a person to move, or the game over); return whether they are."""
        deadline = time.monotonic() + timeout
        while self.bots_moving(game_id):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        """Stop the background runner (after the slice it is playing)."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
            runner = self._runner
        if runner is not None:
            runner.join(10)

    # ---------------------------------------------------------------- seats
    def join(self, game_id: str, seat: int) -> str:
        """Take a free human seat; return its secret token (shown once).

        :raises NotFound: no such game or seat.  :raises Conflict: the seat is a bot's or taken.
        """
        token = secrets.token_urlsafe(24)
        with self._locked(game_id) as live:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.seats):
                raise NotFound(f"game {game_id} has seats 0..{len(live.seats) - 1}, not {seat!r}")
            kind, bot, taken = live.seats[seat]
            if kind != "human":
                raise Conflict(f"seat {seat} is played by a bot ({bot})")
            if taken is not None or not self.store.claim_seat(game_id, seat, hash_token(token)):
                raise Conflict(f"seat {seat} is taken")
            live.seats[seat] = (kind, bot, hash_token(token))
            try:
                self.store.make_durable()
            except BaseException:      # the token is never given: the seat must not stay taken by it
                live.seats[seat] = (kind, bot, None)
                try:
                    self.store.release_seat(game_id, seat)
                except Exception:      # noqa: BLE001 - the store is failing; the owner's reset frees it then
                    _log.exception("freeing seat %s of game %s after a failed join", seat, game_id)
                raise
        return token

    def reset_seat(self, game_id: str, owner_token: str | None, seat: int) -> None:
        """Free human seat ``seat`` for the game's owner (the token :meth:`create_view`
        gave): the seat's token stops working and the seat can be joined again,
        so a player who lost a token takes the seat back with a new one.

        :raises Forbidden: not the owner token.  :raises NotFound: no such seat.
        :raises Conflict: a bot's seat.
        """
        with self._locked(game_id) as live:
            owner = self.store.owner_hash(game_id)
            if not owner_token or owner is None or not secrets.compare_digest(owner, hash_token(owner_token)):
                raise Forbidden("the owner token of this game is needed (header 'Authorization: Bearer TOKEN')")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.seats):
                raise NotFound(f"game {game_id} has seats 0..{len(live.seats) - 1}, not {seat!r}")
            kind, bot, _ = live.seats[seat]
            if kind != "human":
                raise Conflict(f"seat {seat} is played by a bot ({bot})")
            self.store.release_seat(game_id, seat)
            self.store.make_durable()
            live.seats[seat] = (kind, bot, None)
            live.answers.pop(seat, None)

    def _seat_of(self, live: _Live, token: str | None) -> int:
        if not token:
            raise Forbidden("a seat token is needed (header 'Authorization: Bearer TOKEN')")
        h = hash_token(token)
        for i, (_, _, t) in enumerate(live.seats):
            if t is not None and secrets.compare_digest(t, h):
                return i
        raise Forbidden("this token is not a seat token of this game")

    # ---------------------------------------------------------------- views
    def public(self, game_id: str) -> dict[str, Any]:
        """What anyone may see: the game, its seats (who is a bot, which are
        taken), the move number, whose move, and the result once over."""
        with self._locked(game_id) as live:
            return self._public(game_id, live)

    def _public(self, game_id: str, live: _Live) -> dict[str, Any]:
        g = live.game
        return {"game_id": game_id, "game": g.spec["game"], **_deal(g),
                "seats": [{"seat": i, "kind": k, "bot": b, "taken": k == "bot" or t is not None}
                          for i, (k, b, t) in enumerate(live.seats)],
                "move": len(live.log), "to_move": g.to_move, "over": g.is_over,
                "bots_moving": game_id in self._moving, **self._clock_of(game_id, g), "result": g.result()}

    def _clock_of(self, game_id: str, game: HostedGame) -> dict[str, Any]:
        """The game's move clock: seconds a move, and the seconds left to the person to move."""
        due = self._clocks.get(game_id)
        return {"move_clock": game.spec.get("move_clock"),
                "clock_left": None if due is None else round(max(0.0, due[0] - time.monotonic()), 1)}

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The token's seat: its observation, its legal actions when it is to move, the move number."""
        with self._locked(game_id) as live:
            return self._view(game_id, live, self._seat_of(live, token))

    def _view(self, game_id: str, live: _Live, seat: int) -> dict[str, Any]:
        g = live.game
        return {"game_id": game_id, "seat": seat, "move": len(live.log), "to_move": g.to_move,
                "over": g.is_over, "bots_moving": game_id in self._moving, **self._clock_of(game_id, g),
                "legal": g.legal(seat),
                "observation": g.observation(seat), "result": g.result()}

    def _answer_of(self, game_id: str, live: _Live, seat: int, move: int) -> dict[str, Any]:
        """The answer that move number ``move`` of ``seat`` got (lock held): kept
        for each seat's last move, else rebuilt from the log as that request left
        the game (the action, then the bots' actions up to a person's turn, one
        slice at most)."""
        kept = live.answers.get(seat)
        if kept is not None and kept[0] == move:
            return dict(kept[1])
        end = move + 1
        while end < len(live.log) and end - move - 1 < self.limits.bot_slice \
                and live.seats[live.log[end][0]][0] == "bot":
            end += 1
        then = HostedGame.load(live.game.spec)
        for s, a in live.log[:end]:
            then.apply(a, s)
        past = _Live(then, live.seats, live.log[:end])
        return {**self._view(game_id, past, seat), "bots_moving": _bot_to_move(past) is not None}

    def history(self, game_id: str) -> dict[str, Any]:
        """Every action with its seat and the seed, once the game is over (before,
        they would show cards not yet public).

        :raises Conflict: while the game is being played.
        """
        with self._locked(game_id) as live:
            if not live.game.is_over:
                raise Conflict("the history is shown when the game is over")
            return {"game_id": game_id, "game": live.game.spec["game"], **_deal(live.game),
                    "actions": [{"seat": s, "action": a} for s, a in live.log], "result": live.game.result()}

    def finished_hand(self, game_id: str, token: str | None, number: int) -> HandState:
        """A copy of hand ``number`` of the game once it is over, for a seat of the game
        (a review: every card of it has been played).

        :raises Conflict: while that hand is being played.
        """
        with self._locked(game_id) as live:
            self._seat_of(live, token)
            h = live.game.finished_hand(number)
        if h is None:
            raise Conflict(f"hand {number} is being played; it can be reviewed once it is over")
        return h

    # --------------------------------------------------------------- acting
    def act(self, game_id: str, token: str | None, action: str, move: int) -> dict[str, Any]:
        """Apply ``action`` for the token's seat as move number ``move``, then the bots' moves.

        :raises Conflict: a stale move number or not the seat's turn.
        :raises IllegalActionError: the rules refuse it (nothing changes).
        """
        if isinstance(move, bool) or not isinstance(move, int) or move < 0:
            raise RookError(f"a move number is an int >= 0, not {move!r}")
        if not isinstance(action, str):
            raise RookError(f"an action is a text, not {action!r}")
        with self._locked(game_id) as live:
            seat = self._seat_of(live, token)
            n = len(live.log)
            if move < n:
                if live.log[move][0] == seat and _same(live.game, live.log[move][1], action):
                    return {**self._answer_of(game_id, live, seat, move), "replayed": True}   # a retry
                raise Conflict(f"stale move {move}: the game is at move {n}")
            if move > n:
                raise Conflict(f"move {move} is ahead of the game, which is at move {n}")
            if live.game.is_over:
                raise Conflict("the game is over")
            if live.game.to_move != seat:
                raise Conflict(f"it is seat {live.game.to_move}'s move, not seat {seat}'s")
            done = live.game.apply(action, seat, penalties=False)    # refused: nothing changed
            with self._evict_on_error(game_id):          # memory never runs ahead of the log
                self.store.append(game_id, n, seat, done)
                live.log.append((seat, done))
                self._run_bots(game_id, live)
                self.store.make_durable()                   # the answer shows it: in the file itself
                view = self._view(game_id, live, seat)
                live.answers[seat] = (n, view)
        return view


def seed_commitment(seed: int, salt: str) -> str:
    """The published commitment to a deal: the SHA-256 of ``"SALT:SEED"`` in hex."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def _deal(game: HostedGame) -> dict[str, Any]:
    """What anyone may know of a game's deal: whether its creator chose the seed,
    the commitment to it from the start, and the seed and salt once the game is
    over (a game stored before commitments has none: None)."""
    spec = game.spec
    salt = spec.get("seed_salt")
    over = game.is_over
    return {"seed_chosen": spec.get("seed_chosen"),
            "seed_commitment": None if salt is None else seed_commitment(int(spec["seed"]), str(salt)),
            "seed": spec["seed"] if over else None, "seed_salt": salt if over else None}


def _check_clock(clock: object) -> None:
    """Refuse a ``move_clock`` that is no seconds per move (None: no clock).

    :raises RookError: naming it."""
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int) or not 1 <= clock <= 86_400):
        raise RookError(f"move_clock is seconds per move, an int 1..86400, not {clock!r}")


def _bot_to_move(live: _Live) -> int | None:
    """The seat of the bot to move in ``live``, or None (a person to move, or the game over)."""
    seat = live.game.to_move
    if seat is None or live.game.is_over or live.seats[seat][0] != "bot":
        return None
    return seat


def _bot_seed(live: _Live, seat: int, move: int) -> int:
    """The seed of the bot deciding move number ``move`` for ``seat``: a function
    of the game's seed, the seat and the move alone, so that a game rebuilt from
    its log plays on exactly as if it had never left memory, and no request
    (refused or not) can shift a bot's random choices."""
    return agent_seed(int(live.game.spec.get("seed", 0)), move, seat)


def _same(game: HostedGame, logged: str, action: str) -> bool:
    """Whether ``action`` is the text of the logged action."""
    try:
        if game.is_toonerville:
            from ..toonerville.actions import parse_action as parse_tv
            return str(parse_tv(action)) == logged
        from ..actions import action_name, parse_action
        return action_name(parse_action(action)) == logged
    except RookError:
        return False

