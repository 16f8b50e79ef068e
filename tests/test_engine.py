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


POS = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
       "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}
STATE = {"game": "tournament", "seats": 4, "move": 1, "to_move": 2, "over": False}


def _bid_once() -> Engine:
    """An engine whose tournament game (seed 1) has had one bid: STATE."""
    e = Engine()
    e.ask({"cmd": "new", "game": "tournament", "seed": 1})
    assert e.ask({"cmd": "act", "action": "bid 70"}) == STATE
    return e


def test_every_refusal_has_a_kind_and_an_illegal_action_its_rule() -> None:
    e = Engine()
    assert e.ask({"cmd": "state", "id": 0}) == {"id": 0, "error": "no game: send {\"cmd\": \"new\", \"game\": ...} "
                                                "first", "kind": "RookError"}
    e.ask({"cmd": "new", "game": "tournament", "seed": 1})
    assert e.ask({"cmd": "act", "action": "bid 70"}) == STATE
    assert e.ask({"cmd": "act", "action": "bid 300", "id": 5}) == {
        "id": 5, "error": "illegal action bid 300: no bid may exceed 120 (T-3)",   # "error" as it always was
        "kind": "IllegalActionError", "rule": "T-3"}
    for bad, kind in [("{oops", "RequestError"), ("[1]", "RequestError"), ({"cmd": "fly"}, "RequestError"),
                      ({}, "RequestError"), ({"cmd": ["act"]}, "RequestError"),
                      ({"cmd": "act", "action": "Q9"}, "NotationError"), ({"cmd": "act", "action": 3}, "RookError"),
                      ({"cmd": "legal", "input": {**POS, "trump": "Q"}}, "PositionError")]:
        answer = e.ask(bad)
        assert answer["kind"] == kind and answer["error"] and "rule" not in answer, (bad, answer)
    budget = e.ask({"cmd": "solve", "input": POS, "budget": 1})
    assert budget["kind"] == "BudgetExceeded" and budget["budget"] == "nodes" and budget["lo"] <= budget["hi"]
    assert budget["nodes"] >= 1
    assert e.ask({"cmd": "state"}) == STATE                                  # nothing refused changed the game
    assert e.close() == 1


def test_a_bots_seed_is_checked_as_a_new_games_seed_is() -> None:
    e = _bid_once()
    for seed in (-1, 99999999999999999999999, 2**64):
        answer = e.ask({"cmd": "bot", "kind": "random", "seed": seed})
        assert answer.get("error") == f"a bot's 'seed' must be an int in 0 .. 2**64-1, not {seed}", answer
        assert answer["kind"] == "RookError"
        assert "0 .. 2**64-1" in e.ask({"cmd": "new", "game": "tournament", "seed": seed})["error"]
    assert e.ask({"cmd": "bot", "kind": "random", "seed": 2**64 - 1})["seat"] == 2
    assert e.ask({"cmd": "state"}) == STATE
    assert e.close() == 1


def test_perft_refuses_a_bool_depth() -> None:
    e = _bid_once()
    for depth in (True, False, 0, 65, 2.0):
        answer = e.ask({"cmd": "perft", "input": POS, "depth": depth})
        assert answer.get("error") == f"perft 'depth' must be an int 1..64, not {depth!r}", answer
        assert answer["kind"] == "RookError"
    assert e.ask({"cmd": "perft", "input": POS, "depth": 64})["perft"][-1] == 2
    assert e.ask({"cmd": "state"}) == STATE
    assert e.close() == 1


def test_a_perft_past_its_node_limit_answers_an_error_naming_depth_and_limit_and_the_engine_goes_on() -> None:
    """A perft of a full deal to depth 64 once never answered (and the engine
    read nothing more): it stops past ``max_nodes`` (200,000,000 by default,
    a few seconds) with a RookError naming the depth and the limit."""
    from pathlib import Path
    data = Path(__file__).resolve().parent / "data" / "perft.jsonl"
    full = json.loads(data.read_text().splitlines()[0])
    assert full.pop("id") == "partnership-57/start-0"
    counts = full.pop("perft")
    e = _bid_once()
    answer = e.ask({"cmd": "perft", "input": full, "depth": 4, "max_nodes": 100})
    assert answer.get("kind") == "RookError" and "depth 4" in answer["error"] and "100 nodes" in answer["error"]
    assert e.ask({"cmd": "perft", "input": full, "depth": 4, "max_nodes": sum(counts[:4])})["perft"] == counts[:4]
    for bad in (0, -1, True, 1.5, "9", 2**63):
        answer = e.ask({"cmd": "perft", "input": full, "depth": 2, "max_nodes": bad})
        assert answer.get("error") == f"perft 'max_nodes' must be an int 1..2**63-1, not {bad!r}", answer
    answer = e.ask({"cmd": "perft", "input": full, "depth": 64, "id": 1})     # the default limit
    assert answer == {"id": 1, "error": answer.get("error"), "kind": "RookError"}
    assert "depth 64" in answer["error"] and "200,000,000 nodes" in answer["error"]
    assert e.ask({"cmd": "state"}) == STATE
    assert e.close() == 1


def test_a_bad_budget_is_refused_in_the_name_of_the_command_used() -> None:
    e = _bid_once()
    for cmd in ("review", "solve"):
        answer = e.ask({"cmd": cmd, "input": POS, "budget": -1})
        assert answer["error"] == f"{cmd} 'budget' is a node count >= 0 (0: none), not -1", answer
    assert e.ask({"cmd": "state"}) == STATE
    assert e.close() == 1


@pytest.mark.parametrize(("request_", "unknown"), [
    ({"cmd": "review", "nest": True}, "nest"), ({"cmd": "hello", "verbose": 1}, "verbose"),
    ({"cmd": "state", "seat": 1}, "seat"), ({"cmd": "observe", "seat": 1, "all": 0}, "all"),
    ({"cmd": "legal", "depth": 2}, "depth"), ({"cmd": "act", "action": "pass", "seat": 1, "at": 0}, "at, seat"),
    ({"cmd": "undo", "steps": 2}, "steps"), ({"cmd": "bot", "kind": "random", "budget": 9}, "budget"),
    ({"cmd": "result", "seat": 1}, "seat"), ({"cmd": "perft", "input": POS, "budget": 9}, "budget"),
    ({"cmd": "solve", "input": POS, "depth": 2}, "depth"),
    ({"cmd": "contract", "input": {"hand": ["B7"], "contract": 1}, "round": 1}, "round"),
    ({"cmd": "quit", "now": True}, "now"), ({"cmd": "new", "game": "tournament", "nest": 1}, "nest")])
def test_every_command_refuses_a_field_it_does_not_take(request_: dict[str, Any], unknown: str) -> None:
    e = _bid_once()
    answer = e.ask({**request_, "id": 9})
    assert answer.get("error") == f"{request_['cmd']} has unknown field(s): {unknown}", answer
    assert answer == {"id": 9, "error": answer["error"], "kind": "RequestError"}
    assert e.ask({"cmd": "state"}) == STATE                                  # not applied, not quit
    assert e.close() == 1


def test_an_inputs_id_comes_back_as_the_command_line_gives_it() -> None:
    e = _bid_once()
    hand = {"hand": ["B7", "G7", "R7", "B9", "G9", "Y9"], "contract": 1}
    for cmd, item in [("legal", POS), ("perft", POS), ("solve", POS), ("contract", hand)]:
        assert e.ask({"cmd": cmd, "input": {**item, "id": "p1"}})["id"] == "p1"          # as rook legal etc.
        both = e.ask({"cmd": cmd, "input": {**item, "id": "p1"}, "id": 4})
        assert list(both)[:2] == ["id", "input_id"] and both["id"] == 4 and both["input_id"] == "p1", both
        assert "id" not in e.ask({"cmd": cmd, "input": item})
        assert "input_id" not in e.ask({"cmd": cmd, "input": item, "id": 4})
    history = {"game": "tournament", "seed": 1, "actions": [], "id": "h1"}
    assert e.ask({"cmd": "review", "input": history}) == {"id": "h1", "hands": []}
    odd = e.ask({"cmd": "review", "input": {**history, "id": ["h", 1]}})      # FORMATS.md: a string or an int
    assert odd["id"] == ["h", 1] and odd["error"].startswith("id must be a string or an integer"), odd
    refused = e.ask({"cmd": "perft", "input": {**POS, "id": "p2"}, "depth": 0})   # every answer, refusals too
    assert refused["id"] == "p2" and "depth" in refused["error"]
    assert e.ask({"cmd": "state"}) == STATE
    assert e.close() == 1


def test_stop_ends_the_solves_sent_before_it_while_they_run_and_the_answers_stay_in_order() -> None:
    """Two solves of a full ``partnership-57`` deal (tens of millions of nodes
    each, more than their budget), a ``stop`` written once the first has
    begun, then ``hello``: the first search stops under way, the second at
    its start, both with ``SearchStopped`` and the bounds proven short of
    their budget; then the stop's answer and the next one, in order."""
    import io
    import time
    from pathlib import Path

    from rook_core.engine import run_engine
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from solver_sides import play_until
    h = play_until("partnership-57", 5, 56)
    pos = {"preset": "partnership-57", "trump": "RBGY"[h.trump], "leader": h.leader, "trick": [],
           "hands": [h.hand(i).names() for i in range(4)]}
    budget = 50_000_000
    out = io.StringIO()

    def lines():  # type: ignore[no-untyped-def]
        yield json.dumps({"cmd": "solve", "input": pos, "budget": budget, "id": 1}) + "\n"
        yield json.dumps({"cmd": "solve", "input": pos, "budget": budget, "id": 2}) + "\n"
        time.sleep(0.3)                 # the first search under way (begun or not, both must stop)
        yield json.dumps({"cmd": "stop", "id": 3}) + "\n"
        yield json.dumps({"cmd": "hello", "id": 4}) + "\n"
    assert run_engine(lines(), out) == 1
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, 4]
    for a in answers[:2]:
        assert a["kind"] == "SearchStopped" and a["budget"] == "stopped", a
        assert 0 <= a["lo"] <= a["hi"] <= 200 and a["nodes"] < budget, a
    assert answers[2] == {"id": 3, "stop": True} and answers[3]["engine"] == "rook_core"


def test_stop_ends_a_review_under_way_with_the_hands_it_finished() -> None:
    """A ``review`` of a played ``partnership-57`` hand (its first positions
    take seconds), a ``stop`` once it has begun, then ``hello``: the review
    answers ``ReviewStopped`` (``budget`` ``"stopped"``, no hand finished)
    at once, then the stop's answer and the next one, in order; a review
    sent after the stop runs to its end."""
    import io
    import random
    import time

    from rook_core import HandState
    from rook_core.engine import run_engine
    from rook_core.review import review_hand
    h = HandState.deal("partnership-57", seed=5)
    rng = random.Random(5)
    while h.to_move is not None:
        h.apply(rng.choice(h.legal_actions()))
    short = HandState.deal("tournament", seed=3)
    while short.to_move is not None:
        short.apply(rng.choice(short.legal_actions()))
    out = io.StringIO()

    def lines():  # type: ignore[no-untyped-def]
        yield json.dumps({"cmd": "review", "input": h.to_json(), "id": 1}) + "\n"
        time.sleep(0.3)
        yield json.dumps({"cmd": "stop", "id": 2}) + "\n"
        yield json.dumps({"cmd": "review", "input": short.to_json(), "id": 3}) + "\n"
    began = time.monotonic()
    assert run_engine(lines(), out) == 1
    assert time.monotonic() - began < 60        # the first review alone takes minutes unstopped
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[0]["kind"] == "ReviewStopped" and answers[0]["budget"] == "stopped", answers[0]
    assert answers[0]["hands"] == [] and "hand 1 of 1" in answers[0]["error"]
    assert answers[1] == {"id": 2, "stop": True}
    assert answers[2]["hands"] == [review_hand(short).to_json()]


def test_stop_ends_a_perft_under_way_and_the_next_request_is_answered() -> None:
    """A perft of a full deal to depth 64 with a limit of a billion nodes (half
    a minute here) ran to its limit whatever came; a ``stop`` written once it
    has begun now ends it within a few ms with a RookError saying so, then
    the stop and the next perft are answered in order."""
    import io
    import time
    from pathlib import Path

    from rook_core.engine import run_engine
    data = Path(__file__).resolve().parent / "data" / "perft.jsonl"
    full = json.loads(data.read_text().splitlines()[0])
    full.pop("id")
    counts = full.pop("perft")
    out = io.StringIO()

    def lines():  # type: ignore[no-untyped-def]
        yield json.dumps({"cmd": "perft", "input": full, "depth": 64, "max_nodes": 10**9, "id": 1}) + "\n"
        time.sleep(0.3)
        yield json.dumps({"cmd": "stop", "id": 2}) + "\n"
        yield json.dumps({"cmd": "perft", "input": full, "depth": 3, "id": 3}) + "\n"
    began = time.monotonic()
    assert run_engine(lines(), out) == 1
    assert time.monotonic() - began < 10
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"id": 1, "error": "perft stopped before it ended (a stop request)", "kind": "RookError"}
    assert answers[1:] == [{"id": 2, "stop": True}, {"id": 3, "perft": counts[:3]}]


def test_perft_asks_its_stop_function_and_refuses_one_that_is_no_function() -> None:
    from rook_core import HandState, RookError
    h = HandState.deal("partnership-57", seed=1)
    asked: list[int] = []
    with pytest.raises(RookError, match="perft stopped"):
        h.perft(64, stop=lambda: asked.append(1) or len(asked) >= 3)
    assert len(asked) == 3
    assert h.perft(3, stop=lambda: False) == h.perft(3)
    with pytest.raises(RookError, match="perft stop must be a function"):
        h.perft(3, stop=5)


def test_a_stop_with_no_search_changes_nothing() -> None:
    e = _bid_once()
    before = e.ask({"cmd": "state"})
    assert e.ask({"cmd": "stop", "id": 5}) == {"id": 5, "stop": True}
    assert e.ask({"cmd": "state"}) == before
    assert e.ask({"cmd": "solve", "input": POS})["value"] == Engine().ask({"cmd": "solve", "input": POS})["value"]
    assert e.ask({"cmd": "stop", "depth": 1})["kind"] == "RequestError"
