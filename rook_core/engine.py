"""``rook engine``: the engine over stdin/stdout, one JSON message per line.

For apps that embed the engine as a subprocess, the way chess GUIs talk to
chess engines.  Every request is a JSON object with a ``cmd`` and the fields
of its row below (and an optional ``id``); every answer is one JSON line,
echoing ``id`` when the request had one, in order.  The engine holds one game
at a time.

A bad request gets ``{"id": ..., "error": message, "kind": K}`` and the engine
goes on, the game unchanged.  ``K`` is the class name of the error
(``IllegalActionError``, ``NotationError``, ``PositionError``,
``BudgetExceeded``, ``RookError``...), ``RequestError`` for a line that is
not a request (not JSON, not an object, an unknown ``cmd`` or a field its
command does not take) and ``InternalError`` for a bug.  An illegal action's
answer adds the ``rule`` it breaks (RULES.md, e.g. ``"T-3"``); a ``solve``
cut by its budget adds ``budget`` (``"nodes"``), ``lo``, ``hi`` and ``nodes``,
as the service does.

An ``id`` in the ``input`` of an analysis request is returned as ``rook
legal`` etc. return it (FORMATS.md), in every answer: as the answer's ``id``,
or as ``input_id`` when the request has an ``id`` of its own.

==============================================  ===========================================
request                                         answer
==============================================  ===========================================
``{"cmd": "hello"}``                            ``{"engine": "rook_core", "version",
                                                "games": [...], "bots": [...]}``
``{"cmd": "new", "game": G, "seed": S,``        the new game's state: ``{"game", "seats",
``"players": P, "rounds": R, "max_hands": H}``  "move", "to_move", "over"}``
``{"cmd": "state"}``                            the same, for the game now
``{"cmd": "observe", "seat": N}``               seat N's view: ``{"observation", "legal"}``
``{"cmd": "legal"}``                            ``{"to_move", "legal": [actions]}``
``{"cmd": "act", "action": A}``                 apply A for the seat to move: the state
``{"cmd": "undo"}``                             undo the last action: the state
``{"cmd": "bot", "kind": K, "seed": S}``        the action bot K would take (not applied)
``{"cmd": "result"}``                           the final scores (null while playing)
``{"cmd": "legal"|"perft"|"solve"|"contract",``  a FORMATS.md position or Toonerville hand:
``"input": {...}}``; perft ``"depth": D``,       the answer of ``rook legal`` etc.
``"max_nodes": N``; solve ``"budget": B``
``{"cmd": "review", "input": {...},``            the double-dummy review of each played hand
``"budget": B}``                                 (``rook analyse``); without ``input``, of the game in play
``{"cmd": "stop"}``                             ``{"stop": true}``: every ``solve``, ``review`` and
                                                ``perft`` sent before it ends at once (read while one runs)
``{"cmd": "quit"}``                             ``{"bye": true}``, then the engine exits
==============================================  ===========================================

``stop`` is read as soon as it arrives, while a search runs: each ``solve``
sent before it that has not ended stops within a thousand nodes and answers
``SearchStopped``, a budget stop with ``budget`` ``"stopped"`` and the bounds
proven (one not yet begun stops at its start); each such ``review`` answers
``ReviewStopped`` with ``budget`` ``"stopped"`` and the ``hands`` it reviewed
whole; each such ``perft`` answers a ``RookError`` saying it was stopped,
within about a million nodes (some 30 ms).  Its own answer comes in its
turn, after theirs.

A ``perft`` makes at most ``max_nodes`` nodes (default 200,000,000, a few
seconds): one that needs more answers a ``RookError`` naming its depth and
the limit.

>>> import io, json
>>> out = io.StringIO()
>>> run_engine(io.StringIO('{"cmd":"new","game":"toonerville","seed":2,"players":3,"id":1}\\n'
...                         '{"cmd":"act","action":"take"}\\n{"cmd":"act","action":"fly"}\\n'), out)
1
>>> [sorted(json.loads(line))[:3] for line in out.getvalue().splitlines()]
[['game', 'id', 'move'], ['game', 'move', 'over'], ['error', 'kind']]
>>> json.loads(out.getvalue().splitlines()[-1])["kind"]
'NotationError'
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TextIO, TypeVar

from ._version import __version__
from .errors import RookError
from .game import Game
from .hosting import BOT_KINDS, GAMES, HostedGame
from .jsonio import clean_id, read_object, run_jsonl
from .rng import check_seed

__all__ = ["RequestError", "run_engine"]


class RequestError(RookError):
    """A line that is not a request of the engine: not JSON, not an object, an
    unknown ``cmd`` or a field its command does not take."""


# each request's fields besides "cmd" and "id", in the order the unknown-cmd refusal names them
_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": (), "new": ("game", "seed", "players", "rounds", "max_hands"), "state": (), "observe": ("seat",),
    "legal": ("input",), "act": ("action",), "undo": (), "bot": ("kind", "seed"), "result": (),
    "perft": ("input", "depth", "max_nodes"), "solve": ("input", "budget"), "contract": ("input",),
    "review": ("input", "budget"), "stop": (), "quit": ()}
_ANALYSES = ("legal", "perft", "solve", "contract", "review")     # the requests whose "input" may hold an id


class _Stoppable(Protocol):
    def stop(self) -> object: ...


_S = TypeVar("_S", bound=_Stoppable)


class _PerftStop:
    """A perft's stop: set by :class:`_Stops` as it stops a solver, asked by the count."""

    def __init__(self) -> None:
        self._set = threading.Event()

    def stop(self) -> None:
        self._set.set()

    def __call__(self) -> bool:
        return self._set.is_set()


class _Stops:
    """The ``stop`` requests, read ahead of the requests before them: the
    search of request ``seq`` runs under :meth:`searching`, and while a stop
    sent after it (:meth:`stop_through`) is pending, a thread stops its
    solver (or perft) every 10 ms until it returns (a solver forgets a stop
    asked before its search began, so one stop is not enough)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._through = 0                                     # requests up to this one are to stop
        self._running: tuple[int, _Stoppable] | None = None   # the request searching now, its solver
        self._stopper: threading.Thread | None = None

    def stop_through(self, seq: int) -> None:
        with self._lock:
            self._through = max(self._through, seq)
            self._kick()

    @contextmanager
    def searching(self, seq: int, solver: _S) -> Iterator[_S]:
        """Request ``seq`` searches with ``solver`` (or counts with a perft's stop) within the with-block."""
        self._set((seq, solver))
        try:
            yield solver
        finally:
            self._set(None)

    def _set(self, running: tuple[int, _Stoppable] | None) -> None:
        with self._lock:
            self._running = running
            self._kick()

    def _due(self) -> _Stoppable | None:
        r = self._running
        return r[1] if r is not None and r[0] < self._through else None

    def _kick(self) -> None:
        """Start the stopping thread when a search is due to stop (under the lock)."""
        if self._due() is not None and (self._stopper is None or not self._stopper.is_alive()):
            self._stopper = threading.Thread(target=self._stop_until_done, name="rook-engine-stop", daemon=True)
            self._stopper.start()

    def _stop_until_done(self) -> None:
        while True:
            with self._lock:
                solver = self._due()
                if solver is None:
                    self._stopper = None
                    return
            solver.stop()
            time.sleep(0.01)


class _Engine:
    def __init__(self) -> None:
        self.game: HostedGame | None = None
        self.stops = _Stops()
        self.seq = 0                  # the number of the request being answered (from 1)

    def _game(self) -> HostedGame:
        if self.game is None:
            raise RookError("no game: send {\"cmd\": \"new\", \"game\": ...} first")
        return self.game

    def state(self) -> dict[str, Any]:
        g = self._game()
        return {"game": g.spec["game"], "seats": g.seats, "move": g.moves, "to_move": g.to_move, "over": g.is_over}

    def answer(self, msg: dict[str, Any]) -> dict[str, Any]:
        cmd = msg.get("cmd")
        if isinstance(cmd, str) and cmd in _FIELDS:
            read_object(msg, cmd, ("cmd", "id") + _FIELDS[cmd], error=RequestError)
        if cmd == "quit":
            return {"bye": True}
        if cmd == "stop":
            return {"stop": True}
        if cmd == "hello":
            return {"engine": "rook_core", "version": __version__, "games": list(GAMES), "bots": list(BOT_KINDS)}
        if cmd == "new":
            keys = _FIELDS["new"]
            data = read_object(msg, "new", ("cmd", "id") + keys, ("game",))
            spec: dict[str, Any] = {k: data[k] for k in keys if k in data}
            self.game = HostedGame.create(spec)
            return self.state()
        if cmd == "state":
            return self.state()
        if cmd == "observe":
            g = self._game()
            seat = msg.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.seats:
                raise RookError(f"observe needs a 'seat' 0..{g.seats - 1}, not {seat!r}")
            return {"seat": seat, "observation": g.observation(seat), "legal": g.legal(seat)}
        if cmd == "legal" and "input" not in msg:
            g = self._game()
            return {"to_move": g.to_move, "legal": [] if g.to_move is None else g.legal(g.to_move)}
        if cmd == "act":
            g = self._game()
            action = msg.get("action")
            if not isinstance(action, str):
                raise RookError(f"act needs an 'action' text, not {action!r}")
            if g.to_move is None:
                raise RookError("the game is over")
            g.apply(action, g.to_move)
            return self.state()
        if cmd == "undo":
            self._game().undo()
            return self.state()
        if cmd == "bot":
            g = self._game()
            if g.to_move is None:
                raise RookError("the game is over")
            seed = check_seed(msg.get("seed", 0), "a bot's 'seed'")
            bot = g.bot(str(msg.get("kind", "heuristic")), seed)
            return {"seat": g.to_move, "action": g.bot_action(bot, g.to_move)}
        if cmd == "result":
            return {"result": self._game().result()}
        if cmd == "review":
            from .analysis import review_answer
            doc = msg.get("input")
            if doc is None:                       # the engine's own game
                state = self._game().state
                if not isinstance(state, Game):
                    raise RookError("a review is of trick-taking hands; this game has none")
                doc = state.to_json()
            if not isinstance(doc, dict):
                raise RookError("review needs an 'input' object (a hand, game or history) or a game in play")
            budget = _budget(msg, "review")
            return review_answer(budget, searching=lambda solver: self.stops.searching(self.seq, solver))(doc)
        if cmd in ("legal", "perft", "solve", "contract"):
            from .analysis import contract_answer, legal_answer, perft_answer, solve_answer
            item = msg.get("input")
            if not isinstance(item, dict):
                raise RookError(f"{cmd} needs an 'input' object (FORMATS.md)")
            depth = msg.get("depth", 1)
            if cmd == "perft" and (isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 64):
                raise RookError(f"perft 'depth' must be an int 1..64, not {depth!r}")
            max_nodes = msg.get("max_nodes")
            if cmd == "perft" and max_nodes is not None and (
                    isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or not 1 <= max_nodes < 2**63):
                raise RookError(f"perft 'max_nodes' must be an int 1..2**63-1, not {max_nodes!r}")
            if cmd == "solve":
                from .solver import Solver
                budget = _budget(msg, "solve")
                with self.stops.searching(self.seq, Solver(node_budget=budget)) as solver:
                    return solve_answer(budget, 0.0, solver=solver)(item)
            if cmd == "perft":
                with self.stops.searching(self.seq, _PerftStop()) as stop:
                    return perft_answer(depth, max_nodes, stop)(item)
            return {"legal": legal_answer, "contract": contract_answer}[cmd](item)
        raise RequestError(f"unknown cmd {cmd!r}: {', '.join(_FIELDS)}")


def _budget(msg: dict[str, Any], cmd: str) -> int:
    b = msg.get("budget", 0)
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        raise RookError(f"{cmd} 'budget' is a node count >= 0 (0: none), not {b!r}")
    return b


def _ids(msg: Any) -> dict[str, Any]:
    """The ids an answer to ``msg`` starts with: the request's ``id``, and the
    ``id`` of an analysis request's ``input`` (FORMATS.md) -- as ``id`` when the
    request has none, as ``input_id`` when it has one."""
    if not isinstance(msg, dict):
        return {}
    item = msg.get("input") if msg.get("cmd") in _ANALYSES else None
    own, inner = clean_id(msg.get("id")), clean_id(item.get("id")) if isinstance(item, dict) else None
    ids = {"id": own, "input_id": inner} if own is not None else {"id": inner}
    return {k: v for k, v in ids.items() if v is not None}


def _is_stop(line: str) -> bool:
    """Whether ``line`` is a ``stop`` request (read ahead of its turn)."""
    if '"stop"' not in line:
        return False
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(msg, dict) and msg.get("cmd") == "stop"


def run_engine(lines: Iterable[str], out: TextIO) -> int:
    """Answer the JSON messages of ``lines`` on ``out`` until ``quit`` or the end;
    return 1 if any message failed, else 0.  ``lines`` are read on a thread of
    their own, so that a ``stop`` takes effect while a search runs."""
    engine = _Engine()
    ahead: queue.Queue[tuple[str, int] | None] = queue.Queue()
    failure: list[BaseException] = []

    def read() -> None:
        seq = 0
        try:
            for line in lines:
                seq += 1
                if _is_stop(line):
                    engine.stops.stop_through(seq)
                ahead.put((line, seq))
        except BaseException as e:  # noqa: BLE001 - raised again on the answering thread
            failure.append(e)
        finally:
            ahead.put(None)

    def in_turn() -> Iterator[str]:
        while (item := ahead.get()) is not None:
            line, engine.seq = item
            yield line
        if failure:
            raise failure[0]

    def answer(msg: Any) -> dict[str, Any]:
        if not isinstance(msg, dict):
            raise RequestError("a message is a JSON object with a 'cmd'")
        return engine.answer(msg)
    threading.Thread(target=read, name="rook-engine-read", daemon=True).start()
    return run_jsonl(in_turn(), out, answer, ids=_ids, not_json=RequestError)
