"""``rook engine``: the engine over stdin/stdout, one JSON message per line.

For apps that embed the engine as a subprocess, the way chess GUIs talk to
chess engines.  Every request is a JSON object with a ``cmd``; every answer
is one JSON line, echoing ``id`` when the request had one, in order.  A bad
request gets ``{"id": ..., "error": message}`` and the engine goes on; the
engine holds one game at a time.

==============================================  ===========================================
request                                         answer
==============================================  ===========================================
``{"cmd": "hello"}``                            ``{"engine": "rook_core", "version",
                                                "games": [...], "bots": [...]}``
``{"cmd": "new", "game": G, "seed": S,``        the new game's state: ``{"game", "seats",
``"players": P, "max_hands": H}``               "move", "to_move", "over"}``
``{"cmd": "state"}``                            the same, for the game now
``{"cmd": "observe", "seat": N}``               seat N's view: ``{"observation", "legal"}``
``{"cmd": "legal"}``                            ``{"to_move", "legal": [actions]}``
``{"cmd": "act", "action": A}``                 apply A for the seat to move: the state
``{"cmd": "undo"}``                             undo the last action: the state
``{"cmd": "bot", "kind": K, "seed": S}``        the action bot K would take (not applied)
``{"cmd": "result"}``                           the final scores (null while playing)
``{"cmd": "legal"|"perft"|"solve"|"contract",``  a FORMATS.md position or Toonerville hand:
``"input": {...}, "depth": D, "budget": B}``    the answer of ``rook legal`` etc.
``{"cmd": "review", "input": {...},``            the double-dummy review of each played hand
``"budget": B}``                                 (``rook analyse``); without ``input``, of the game in play
``{"cmd": "quit"}``                             ``{"bye": true}``, then the engine exits
==============================================  ===========================================

>>> import io
>>> out = io.StringIO()
>>> run_engine(io.StringIO('{"cmd":"new","game":"toonerville","seed":2,"players":3,"id":1}\\n'
...                         '{"cmd":"act","action":"take"}\\n{"cmd":"act","action":"fly"}\\n'), out)
1
>>> [sorted(json.loads(line))[:3] for line in out.getvalue().splitlines()]
[['game', 'id', 'move'], ['game', 'move', 'over'], ['error']]
"""

from __future__ import annotations

import json  # noqa: F401  (the module's doctest reads the answers with it)
from collections.abc import Iterable
from typing import Any, TextIO

from ._version import __version__
from .errors import RookError
from .game import Game
from .hosting import BOT_KINDS, GAMES, HostedGame
from .jsonio import read_object, run_jsonl

__all__ = ["run_engine"]


class _Engine:
    def __init__(self) -> None:
        self.game: HostedGame | None = None

    def _game(self) -> HostedGame:
        if self.game is None:
            raise RookError("no game: send {\"cmd\": \"new\", \"game\": ...} first")
        return self.game

    def state(self) -> dict[str, Any]:
        g = self._game()
        return {"game": g.spec["game"], "seats": g.seats, "move": g.moves, "to_move": g.to_move, "over": g.is_over}

    def answer(self, msg: dict[str, Any]) -> dict[str, Any]:
        cmd = msg.get("cmd")
        if cmd == "hello":
            return {"engine": "rook_core", "version": __version__, "games": list(GAMES), "bots": list(BOT_KINDS)}
        if cmd == "new":
            keys = ("game", "seed", "players", "rounds", "max_hands")
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
            seed = msg.get("seed", 0)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise RookError(f"a bot's 'seed' must be an int, not {seed!r}")
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
            return review_answer(_budget(msg))(doc)
        if cmd in ("legal", "perft", "solve", "contract"):
            from .analysis import contract_answer, legal_answer, perft_answer, solve_answer
            item = msg.get("input")
            if not isinstance(item, dict):
                raise RookError(f"{cmd} needs an 'input' object (FORMATS.md)")
            depth = msg.get("depth", 1)
            if cmd == "perft" and (not isinstance(depth, int) or not 1 <= depth <= 64):
                raise RookError(f"perft 'depth' must be 1..64, not {depth!r}")
            fn = {"legal": legal_answer, "perft": perft_answer(depth) if cmd == "perft" else None,
                  "solve": solve_answer(_budget(msg), 0.0) if cmd == "solve" else None,
                  "contract": contract_answer}[cmd]
            assert fn is not None
            return fn(item)
        raise RookError(f"unknown cmd {cmd!r}: hello, new, state, observe, legal, act, undo, bot, result, "
                        "perft, solve, contract, review, quit")


def _budget(msg: dict[str, Any]) -> int:
    b = msg.get("budget", 0)
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        raise RookError(f"solve 'budget' is a node count >= 0 (0: none), not {b!r}")
    return b


def run_engine(lines: Iterable[str], out: TextIO) -> int:
    """Answer the JSON messages of ``lines`` on ``out`` until ``quit`` or the end;
    return 1 if any message failed, else 0."""
    engine = _Engine()

    def answer(msg: Any) -> dict[str, Any]:
        if not isinstance(msg, dict):
            raise RookError("a message is a JSON object with a 'cmd'")
        return {"bye": True} if msg.get("cmd") == "quit" else engine.answer(msg)
    return run_jsonl(lines, out, answer, always_id=False)
