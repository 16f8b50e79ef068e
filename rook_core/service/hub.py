"""The games being played: seats, tokens, moves, bots, and the log behind them.

:class:`Hub` keeps each game in memory once loaded (its spec replayed
through its action log from the :class:`~.store.Store`), one lock per game.
An action is checked against the move number the client expects (the count
of actions so far), applied, written to the log, and then the bots move
until a person is to move or the game is over; their actions go to the log
too.  The log is written before the answer goes out, so an answered action
is never lost.

* A retried request (same seat, same move number, same action, already
  applied) gets the same answer again: requests are idempotent.
* A request for a move number that is not the current one is stale: 409.

Finished games stay in memory for a while (the newest ``keep_finished``);
older ones are dropped and rebuilt from the log if they are asked for again,
so a long-running server does not grow without bound.

>>> import tempfile, os
>>> hub = Hub(Store(os.path.join(tempfile.mkdtemp(), "g.sqlite")))
>>> g = hub.create({"game": "tournament", "seed": 3}, ["human", "bot:random", "bot:random", "bot:random"])
>>> token = hub.join(g, 0)
>>> view = hub.view(g, token)
>>> view["seat"], view["move"] > 0, view["to_move"]          # the bots bid first, then seat 0
(0, True, 0)
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import RookError
from ..game import hand_seed
from .adapters import BOT_KINDS, HostedGame
from .store import Store, hash_token

__all__ = ["Hub", "NotFound", "Forbidden", "Conflict"]

MAX_BOT_ACTIONS = 100_000           # a guard: bots never run away in one request
KEEP_FINISHED = 256                 # finished games kept in memory; older ones reload from the log


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
    bots: dict[int, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _seat_spec(text: str) -> tuple[str, str | None]:
    if text == "human":
        return ("human", None)
    if text.startswith("bot:") and text[4:] in BOT_KINDS:
        return ("bot", text[4:])
    raise RookError(f"a seat is 'human' or 'bot:KIND' with KIND one of {', '.join(BOT_KINDS)}, not {text!r}")


class Hub:
    """Every hosted game, backed by ``store``; at most ``keep_finished``
    finished games stay in memory."""

    def __init__(self, store: Store, keep_finished: int = KEEP_FINISHED) -> None:
        self.store = store
        self.keep_finished = keep_finished
        self._live: dict[str, _Live] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()     # oldest first
        self._lock = threading.Lock()

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

    # ---------------------------------------------------------------- games
    def create(self, spec: dict[str, Any], seats: list[str]) -> str:
        """Create a game (``spec``: game, seed, players) with its seats
        (``"human"`` or ``"bot:random"`` / ``"bot:heuristic"``); return its id.
        Bots that move first move at once.

        :raises RookError: for a bad spec or seats.
        """
        spec = dict(spec)
        if spec.get("seed") is None:
            spec["seed"] = secrets.randbits(63)         # a secret deal: the seed is shown at the end
        game = HostedGame.create(spec)
        spec = game.spec                                 # with every rule it was built with
        if len(seats) != game.seats:
            raise RookError(f"{spec['game']} has {game.seats} seats, and {len(seats)} were given")
        kinds = [_seat_spec(s) for s in seats]
        game_id = uuid.uuid4().hex
        self.store.create_game(game_id, spec, kinds)
        live = _Live(game, [(k, b, None) for k, b in kinds], [])
        with self._lock:
            self._live[game_id] = live
        with live.lock, self._evict_on_error(game_id):
            self._run_bots(game_id, live)
        self._note_if_over(game_id, live)
        return game_id

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
                return live
            found = self.store.game(game_id) if isinstance(game_id, str) and len(game_id) == 32 else None
            if found is None:
                raise NotFound(f"no game {str(game_id)[:64]!r}")
            spec, seats = found
            game = HostedGame.create(spec)
            log = self.store.actions(game_id)
            for seat, action in log:
                game.apply(action, seat)
            live = self._live[game_id] = _Live(game, seats, log)
        with live.lock, self._evict_on_error(game_id):      # a restart may find a bot to move
            self._run_bots(game_id, live)
        self._note_if_over(game_id, live)
        return live

    def _run_bots(self, game_id: str, live: _Live) -> None:
        """Let the bots move until a person is to move or the game is over (lock held)."""
        done: list[tuple[int, str]] = []
        first = len(live.log)
        try:
            for _ in range(MAX_BOT_ACTIONS):
                seat = live.game.to_move
                if seat is None or live.game.is_over or live.seats[seat][0] != "bot":
                    break
                bot = live.bots.get(seat)
                if bot is None:
                    bot = live.bots[seat] = live.game.bot(str(live.seats[seat][1]),
                                                          hand_seed(live.game.spec.get("seed", 0), 1000 + seat))
                action = live.game.apply(live.game.bot_action(bot, seat), seat)
                done.append((seat, action))
        finally:
            self.store.append_many(game_id, first, done)     # a failure here evicts the game (callers)
            live.log.extend(done)

    # ---------------------------------------------------------------- seats
    def join(self, game_id: str, seat: int) -> str:
        """Take a free human seat; return its secret token (shown once).

        :raises NotFound: no such game or seat.  :raises Conflict: the seat is a bot's or taken.
        """
        live = self._load(game_id)
        if not isinstance(seat, int) or not 0 <= seat < len(live.seats):
            raise NotFound(f"game {game_id} has seats 0..{len(live.seats) - 1}, not {seat!r}")
        token = secrets.token_urlsafe(24)
        with live.lock:
            kind, bot, taken = live.seats[seat]
            if kind != "human":
                raise Conflict(f"seat {seat} is played by a bot ({bot})")
            if taken is not None or not self.store.claim_seat(game_id, seat, hash_token(token)):
                raise Conflict(f"seat {seat} is taken")
            live.seats[seat] = (kind, bot, hash_token(token))
        return token

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
        live = self._load(game_id)
        with live.lock:
            g = live.game
            return {"game_id": game_id, "game": g.spec["game"], "seed": g.spec["seed"] if g.is_over else None,
                    "seats": [{"seat": i, "kind": k, "bot": b, "taken": k == "bot" or t is not None}
                              for i, (k, b, t) in enumerate(live.seats)],
                    "move": len(live.log), "to_move": g.to_move, "over": g.is_over, "result": g.result()}

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The token's seat: its observation, its legal actions when it is to move, the move number."""
        live = self._load(game_id)
        with live.lock:
            return self._view(game_id, live, self._seat_of(live, token))

    def _view(self, game_id: str, live: _Live, seat: int) -> dict[str, Any]:
        g = live.game
        return {"game_id": game_id, "seat": seat, "move": len(live.log), "to_move": g.to_move,
                "over": g.is_over, "legal": g.legal(seat), "observation": g.observation(seat),
                "result": g.result()}

    def history(self, game_id: str) -> dict[str, Any]:
        """Every action with its seat and the seed, once the game is over (before,
        they would show cards not yet public).

        :raises Conflict: while the game is being played.
        """
        live = self._load(game_id)
        with live.lock:
            if not live.game.is_over:
                raise Conflict("the history is shown when the game is over")
            return {"game_id": game_id, "game": live.game.spec["game"], "seed": live.game.spec["seed"],
                    "actions": [{"seat": s, "action": a} for s, a in live.log], "result": live.game.result()}

    # --------------------------------------------------------------- acting
    def act(self, game_id: str, token: str | None, action: str, move: int) -> dict[str, Any]:
        """Apply ``action`` for the token's seat as move number ``move``, then the bots' moves.

        :raises Conflict: a stale move number or not the seat's turn.
        :raises IllegalActionError: the rules refuse it (nothing changes).
        """
        live = self._load(game_id)
        with live.lock, self._evict_on_error(game_id):
            seat = self._seat_of(live, token)
            n = len(live.log)
            if move < n:
                if live.log[move][0] == seat and _same(live.game, live.log[move][1], action):
                    view = self._view(game_id, live, seat)               # a retry: the same answer
                    view["replayed"] = True
                    return view
                raise Conflict(f"stale move {move}: the game is at move {n}")
            if move > n:
                raise Conflict(f"move {move} is ahead of the game, which is at move {n}")
            if live.game.is_over:
                raise Conflict("the game is over")
            if live.game.to_move != seat:
                raise Conflict(f"it is seat {live.game.to_move}'s move, not seat {seat}'s")
            done = live.game.apply(action, seat, penalties=False)
            self.store.append(game_id, n, seat, done)    # a failure evicts the game: memory never runs ahead
            live.log.append((seat, done))
            self._run_bots(game_id, live)
            view = self._view(game_id, live, seat)
        self._note_if_over(game_id, live)
        return view


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

