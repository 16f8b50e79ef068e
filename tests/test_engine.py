"""``rook engine``: the stdio JSON-lines mode, as a subprocess, the way an app embeds it."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from rook_core.game import Game


class Engine:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "rook_core", "engine"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, msg: dict[str, Any] | str) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write((msg if isinstance(msg, str) else json.dumps(msg)) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> int:
        assert self.ask({"cmd": "quit"}) == {"bye": True}
        return self.proc.wait(30)


@pytest.mark.parametrize("game", ["crowsnest", "house-180"])
def test_engine_plays_a_whole_game_with_bot_moves(game: str) -> None:
    e = Engine()
    hello = e.ask({"cmd": "hello", "id": 1})
    assert hello["id"] == 1 and game in hello["games"] and "heuristic" in hello["bots"]
    state = e.ask({"cmd": "new", "game": game, "seed": 6})
    assert state == {"game": game, "seats": 4, "move": 0, "to_move": 1, "over": False}
    played = []
    while not state["over"]:
        move = e.ask({"cmd": "bot", "kind": "heuristic", "seed": len(played)})
        legal = e.ask({"cmd": "legal"})
        assert move["seat"] == legal["to_move"] and move["action"] in legal["legal"]
        state = e.ask({"cmd": "act", "action": move["action"]})
        played.append(move["action"])
        assert state["move"] == len(played)
    replay = Game(game, 6)
    for a in played:
        replay.apply_text(a)
    assert e.ask({"cmd": "result"})["result"]["totals"] == list(replay.totals)
    reviewed = e.ask({"cmd": "review", "budget": 100_000})                 # rook analyse of the game played
    assert len(reviewed["hands"]) == sum(1 for h in replay.hands if h.declarer is not None)
    assert all(c["cost"] >= 0 for r in reviewed["hands"] for c in r["cards"])
    assert e.close() == 0


def test_engine_observes_undoes_and_answers_errors_in_order() -> None:
    e = Engine()
    e.ask({"cmd": "new", "game": "toonerville", "players": 3, "seed": 4, "rounds": [11]})
    seen = e.ask({"cmd": "observe", "seat": 2, "id": "o"})
    assert seen["id"] == "o" and len(seen["observation"]["hand"]) == 14 and seen["legal"] == []
    assert e.ask({"cmd": "act", "action": "take"})["move"] == 1
    assert e.ask({"cmd": "undo"})["move"] == 0
    for bad, words in [("{oops", "not valid JSON"), ({"cmd": "fly"}, "unknown cmd"),
                       ({"cmd": "act", "action": "discard Q9"}, "Q9"), ({"cmd": "observe", "seat": 7}, "seat"),
                       ({"cmd": "new", "game": "chess"}, "unknown game"), ({"cmd": "perft", "input": {}}, "")]:
        answer = e.ask(bad)
        assert words in answer["error"], answer
    assert e.ask({"cmd": "state"})["move"] == 0                            # errors changed nothing
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
           "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}
    assert e.ask({"cmd": "legal", "input": pos}) == {"to_move": 1, "legal": ["B7", "Rook"]}
    assert e.ask({"cmd": "perft", "input": pos, "depth": 2})["perft"][0] == 2
    assert e.ask({"cmd": "solve", "input": pos})["best"]
    assert e.ask({"cmd": "contract", "input": {"hand": ["B7", "G7", "R7", "B9", "G9", "Y9"], "contract": 1}})[
        "deadwood"] == 0
    assert e.proc.stdin is not None
    e.proc.stdin.close()                                                     # end of input: the engine stops
    assert e.proc.wait(30) == 1                                              # some messages failed


def test_T34_a_game_of_random_bots_stops_after_max_hands() -> None:
    e = Engine()
    state = e.ask({"cmd": "new", "game": "crowsnest", "seed": 1, "max_hands": 2})
    n = 0
    while not state["over"]:
        move = e.ask({"cmd": "bot", "kind": "random", "seed": n})
        state = e.ask({"cmd": "act", "action": move["action"]})
        n += 1
    result = e.ask({"cmd": "result"})["result"]
    assert result["stopped"] == "max_hands" and result["winner_team"] is None and result["hands"] == 2
    assert state["to_move"] is None and e.ask({"cmd": "legal"})["legal"] == []
    assert "over" in e.ask({"cmd": "act", "action": "pass"})["error"]
    assert e.ask({"cmd": "undo"})["over"] is False                  # the last action of hand 2, undone
    assert "max_hands" in e.ask({"cmd": "new", "game": "crowsnest", "max_hands": "2"})["error"]
    for seed in (True, 1.5, "3"):
        assert "seed" in e.ask({"cmd": "bot", "kind": "random", "seed": seed})["error"]
    assert e.close() == 1                                                    # some messages failed
