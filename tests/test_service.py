"""``rook serve`` against a real server process on loopback: whole games, seat
secrecy, idempotent moves, bad requests, 100 concurrent games, a kill and a
restart in the middle of games."""

from __future__ import annotations

import json
import random
import re
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from _server import Server, bearer

from rook_core.cards import CardSet
from rook_core.game import Game
from rook_core.hosting import TURN_LIMIT
from rook_core.review import review_game, review_hand
from rook_core.toonerville.game import ToonervilleGame
from rook_core.toonerville.rules import ToonervilleRules
from rook_core.variant import Variant


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("service") / "games.sqlite",
               args=("--requests-per-second", "0", "--games-per-minute", "0", "--solve-budget", "20000000",
                     "--analysis-queue", "8",
                     "--analysis-per-client", "8"))
    yield s
    s.stop()


def new_game(c: httpx.Client, game: str = "tournament", seats: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    n = kw.get("players", 4) if game == "toonerville" else 4
    r = c.post("/games", json={"game": game, "seats": seats or ["human"] + ["bot:heuristic"] * (n - 1), **kw})
    assert r.status_code == 201, r.text
    return r.json()


def join(c: httpx.Client, game_id: str, seat: int) -> str:
    r = c.post(f"/games/{game_id}/seats/{seat}/join")
    assert r.status_code == 200, r.text
    return r.json()["token"]


def play(c: httpx.Client, game_id: str, token: str, rng: random.Random, moves: int = 10**6,
         latencies: list[float] | None = None) -> dict[str, Any]:
    """Play random legal actions for the token's seat, up to ``moves`` of them or the end."""
    view = c.get(f"/games/{game_id}/view", headers=bearer(token)).json()
    for _ in range(moves):
        if view["over"] or view["to_move"] != view["seat"]:
            break
        t = time.perf_counter()
        r = c.post(f"/games/{game_id}/actions", headers=bearer(token),
                   json={"action": rng.choice(view["legal"]), "move": view["move"]})
        if latencies is not None:
            latencies.append(time.perf_counter() - t)
        assert r.status_code == 200, r.text
        view = r.json()
    return view


# ------------------------------------------------------------- whole games
@pytest.mark.parametrize("game", ["tournament", "house-180"])
def test_a_trick_game_is_played_to_its_end_and_its_history_replays(server: Server, game: str) -> None:
    with server.client() as c:
        g = new_game(c, game, seed=5)
        assert c.get(f"/games/{g['game_id']}/history").status_code == 409          # not over yet
        token = join(c, g["game_id"], 0)
        view = play(c, g["game_id"], token, random.Random(1))
        assert view["over"] and view["result"]["winner_team"] in (0, 1)
        late = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token), json={"action": "pass",
                                                                                     "move": view["move"]})
        assert late.status_code == 409 and "over" in late.json()["error"]
        history = c.get(f"/games/{g['game_id']}/history").json()
    replay = Game(game, 5)
    for item in history["actions"]:
        replay.apply_text(item["action"], item["seat"])
    assert replay.is_over and list(replay.totals) == history["result"]["totals"] == view["result"]["totals"]


def test_a_toonerville_game_is_played_to_its_end_and_its_history_replays(server: Server) -> None:
    with server.client() as c:
        g = new_game(c, "toonerville", players=3, rounds=[1, 2], seed=8)
        view = play(c, g["game_id"], join(c, g["game_id"], 0), random.Random(2))
        history = c.get(f"/games/{g['game_id']}/history").json()
    assert view["over"] and len(view["result"]["round_scores"]) == 2
    replay = ToonervilleGame(ToonervilleRules(players=3, rounds=(1, 2), turn_limit=TURN_LIMIT), 8)
    for item in history["actions"]:
        replay.apply(item["action"], item["seat"])
    assert replay.is_over and replay.totals == view["result"]["totals"]


def test_bots_play_by_themselves(server: Server) -> None:
    with server.client() as c:
        g = new_game(c, "crowsnest", seats=["bot:random", "bot:heuristic", "bot:random", "bot:heuristic"], seed=3)
        assert g["move"] <= 400 and (g["over"] or g["bots_moving"])   # one request plays one slice at most
        g = c.get(f"/games/{g['game_id']}", params={"wait": 30}).json()
        assert g["over"] and not g["bots_moving"]
        assert g["result"]["winner_team"] in (0, 1) and g["move"] > 50
        t = new_game(c, "toonerville", seats=["bot:random"] * 3, players=3, rounds=[10], seed=3)
        t = c.get(f"/games/{t['game_id']}", params={"wait": 30}).json()
        assert t["over"] and len(t["result"]["round_scores"]) == 1          # the turn limit ends the round
        gone = c.post(f"/games/{g['game_id']}/actions", headers=bearer("x"), json={"action": "pass", "move": 0})
        assert gone.status_code == 403


def test_T34_a_table_of_random_bots_ends_after_max_hands(server: Server) -> None:
    """T-34 alone need not end a game (random bidders drift below zero), so a
    hosted game is over after ``max_hands`` hands, with no winner."""
    with server.client() as c:
        g = new_game(c, "crowsnest", seats=["bot:random"] * 4, seed=1, max_hands=4)
        g = c.get(f"/games/{g['game_id']}", params={"wait": 30}).json()         # the bots play on meanwhile
        assert g["over"] and g["to_move"] is None
        assert g["result"]["winner_team"] is None and g["result"]["stopped"] == "max_hands"
        assert g["result"]["hands"] == 4
        history = c.get(f"/games/{g['game_id']}/history").json()
        replay = Game("crowsnest", history["seed"])
        for a in history["actions"]:
            replay.apply_text(a["action"], a["seat"])
        assert replay.hand_number == 5 and list(replay.totals) == g["result"]["totals"]
        bad = c.post("/games", json={"game": "crowsnest", "seats": ["bot:random"] * 4, "max_hands": 0})
        assert bad.status_code == 422 and "max_hands" in bad.text


# ---------------------------------------------------------------- moves
def test_moves_are_idempotent_and_stale_moves_are_refused(server: Server) -> None:
    with server.client() as c:
        g = new_game(c, "tournament", seed=11)
        token = join(c, g["game_id"], 0)
        view = c.get(f"/games/{g['game_id']}/view", headers=bearer(token)).json()
        body = {"action": view["legal"][0], "move": view["move"]}
        first = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token), json=body)
        again = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token), json=body)
        assert first.status_code == again.status_code == 200 and again.json()["replayed"] is True
        assert again.json()["move"] == first.json()["move"]
        other = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token),
                       json={"action": view["legal"][-1], "move": view["move"]})
        assert other.status_code == 409 and "stale" in other.json()["error"]
        ahead = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token),
                       json={"action": "pass", "move": first.json()["move"] + 5})
        assert ahead.status_code == 409
        now = c.get(f"/games/{g['game_id']}").json()["move"]
        bad = c.post(f"/games/{g['game_id']}/actions", headers=bearer(token), json={"action": "R99", "move": now})
        assert bad.status_code == 400 and "R99" in bad.json()["error"]
        assert c.get(f"/games/{g['game_id']}").json()["move"] == now            # nothing changed
        legal = c.get(f"/games/{g['game_id']}/legal", headers=bearer(token)).json()
        assert legal["move"] == now and legal["legal"] == c.get(f"/games/{g['game_id']}/view",
                                                                 headers=bearer(token)).json()["legal"]


# ---------------------------------------------------------------- secrecy
def test_no_endpoint_shows_another_seats_cards_or_the_nest(server: Server) -> None:
    seed = 21
    with server.client() as c:
        g = new_game(c, "tournament", seats=["human", "human", "bot:heuristic", "bot:heuristic"], seed=seed)
        gid = g["game_id"]
        t0, t1 = join(c, gid, 0), join(c, gid, 1)
        assert c.post(f"/games/{gid}/seats/1/join").status_code == 409          # taken
        assert c.post(f"/games/{gid}/seats/2/join").status_code == 409          # a bot's
        deal = Game("tournament", seed).current
        hidden = set(deal.nest.names())
        for s in (1, 2, 3):
            hidden |= set(deal.hand(s).names())          # what seat 0 must never see before it is played
        answers = [
            c.get(f"/games/{gid}"),
            c.get(f"/games/{gid}/view", headers=bearer(t0)),
            c.get(f"/games/{gid}/legal", headers=bearer(t0)),
            c.get(f"/games/{gid}/history"),
            c.get(f"/games/{gid}/history", headers=bearer(t0)),
            c.post(f"/games/{gid}/actions", headers=bearer(t0), json={"action": "pass", "move": 0}),
            c.post(f"/games/{gid}/actions", headers=bearer(t0), json={"action": "R5", "move": g["move"]}),
            c.get(f"/games/{gid}/view", headers=bearer(t0 + "x")),
            c.get(f"/games/{gid}/view"),
            c.get(f"/games/{gid}/view", headers={"Authorization": t1}),              # not a Bearer header
            c.post(f"/games/{gid}/seats/0/join"),
        ]
        for r in answers:
            seen = {x for x in json.dumps(r.json()).replace("[", " ").replace("]", " ").replace(",", " ")
                    .replace('"', " ").split()}
            assert not (seen & hidden), (r.request.url, seen & hidden)
        assert answers[1].json()["seat"] == 0 and answers[1].json()["observation"]["hand"] == deal.hand(0).names()
        assert [r.status_code for r in answers[7:10]] == [403, 403, 403]
        other = c.get("/games/" + "0" * 32 + "/view", headers=bearer(t0))
        assert other.status_code == 404                                           # a token opens its game only


def _words(data: object) -> set[str]:
    return set(json.dumps(data).replace("[", " ").replace("]", " ").replace(",", " ").replace('"', " ").split())


def test_through_a_game_each_seat_sees_only_its_own_cards(server: Server) -> None:
    """Four people, every seat checked after every move: a view never holds a card
    of another hand, nor the nest unless the seat is the declarer who took it (T-15)."""
    seed, rng = 31, random.Random(31)
    with server.client() as c:
        g = new_game(c, "tournament", seats=["human"] * 4, seed=seed)
        gid = g["game_id"]
        tokens = [join(c, gid, s) for s in range(4)]
        local = Game("tournament", seed)
        for _ in range(40):
            h = local.current
            views = [c.get(f"/games/{gid}/view", headers=bearer(t)).json() for t in tokens]
            public = c.get(f"/games/{gid}").json()
            for s, view in enumerate(views):
                others = set().union(*(set(h.hand(o).names()) for o in range(4) if o != s))
                nest = set(h.nest.names())        # the nest, then the declarer's discards
                seen = _words(view)
                assert not seen & others, (s, seen & others)
                if s != h.declarer:
                    assert not seen & nest, (s, seen & nest)
                assert not _words(public) & (others | nest)
            mover = local.to_move
            assert mover is not None
            action = rng.choice(views[mover]["legal"])
            r = c.post(f"/games/{gid}/actions", headers=bearer(tokens[mover]),
                       json={"action": action, "move": views[mover]["move"]})
            assert r.status_code == 200, r.text
            local.apply_text(action, mover)


def test_a_token_opens_its_own_game_only(server: Server) -> None:
    with server.client() as c:
        a, b = new_game(c, "tournament", seed=1), new_game(c, "tournament", seed=2)
        ta = join(c, a["game_id"], 0)
        assert c.get(f"/games/{b['game_id']}/view", headers=bearer(ta)).status_code == 403
        r = c.post(f"/games/{b['game_id']}/actions", headers=bearer(ta), json={"action": "pass", "move": b["move"]})
        assert r.status_code == 403 and c.get(f"/games/{b['game_id']}").json()["move"] == b["move"]


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("method, path, body, status", [
    ("post", "/games", b"{not json", 422),
    ("post", "/games", {"game": "tournament", "seats": ["human"] * 4, "extra": 1}, 422),
    ("post", "/games", {"game": "tournament", "seats": "human"}, 422),
    ("post", "/games", {"game": "tournament", "seed": "x", "seats": ["human"] * 4}, 422),
    ("post", "/games", {"game": "chess", "seats": ["human"] * 4}, 400),
    ("post", "/games", {"game": "tournament", "seats": ["human"] * 3}, 400),
    ("post", "/games", {"game": "tournament", "seats": ["human", "bot:genius", "human", "human"]}, 400),
    ("post", "/games", {"game": "toonerville", "players": 9, "seats": ["human"] * 4}, 422),
    ("post", "/games", b"[" * 70_000, 413),
    ("get", "/games/nope", None, 404),
    ("post", "/games/nope/seats/0/join", None, 404),
    ("post", "/analysis/legal", {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
                                 "hands": [["B5"], ["B5"], ["B6"], ["B7"]]}, 400),
    ("post", "/analysis/perft", {"preset": "tournament"}, 400),          # read as rook perft reads it
    ("post", "/analysis/perft", ["not", "an", "object"], 422),
    ("post", "/analysis/contract", {"hand": ["Q1"], "contract": 1}, 400),
    ("post", "/jobs", {"preset": "tournament", "agents": ["pimc"] * 4, "hands": 10}, 422),
    ("post", "/jobs", {"preset": "tournament", "agents": ["random"] * 4}, 400),
    ("get", "/jobs/nope", None, 404),
])
def test_bad_requests_get_a_clear_4xx(server: Server, method: str, path: str, body: Any, status: int) -> None:
    with server.client() as c:
        if isinstance(body, bytes):
            r = c.request(method, path, content=body, headers={"content-type": "application/json"})
        else:
            r = c.request(method, path, json=body)
    assert r.status_code == status, r.text
    assert isinstance(r.json()["error"], str) and r.json()["error"]
    assert str(status) in _documented(server, method, path), f"{method} {path}: {status} is not in the OpenAPI document"


def _documented(server: Server, method: str, path: str) -> set[str]:
    """The response codes the OpenAPI document lists for the route that ``path`` reaches."""
    with server.client() as c:
        doc = c.get("/openapi.json").json()
    for template, ops in doc["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path) and method in ops:
            return set(ops[method]["responses"])
    raise AssertionError(f"{method} {path} is not in the OpenAPI document")


def test_the_openapi_document_lists_each_routes_refusals(server: Server) -> None:
    """Issue 16.8: every route documents its errors, each with the error body."""
    with server.client() as c:
        doc = c.get("/openapi.json").json()
    assert "ErrorBody" in doc["components"]["schemas"]
    for template, ops in doc["paths"].items():
        for method, op in ops.items():
            if template == "/health":
                continue
            assert "429" in op["responses"], f"{method} {template} lists no 429"
            for code, answer in op["responses"].items():
                if code.startswith("4") and code != "422":
                    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")


def test_bodies_past_the_limit_get_413_even_when_chunked_and_framework_errors_are_json(server: Server) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        yield b'{"game": "tournament", "seats": ["'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"]}'
    with server.client() as c:
        r = c.post("/games", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and "over" in r.json()["error"]
        deep = c.post("/games", content=b"[" * 5000 + b"]" * 5000, headers={"content-type": "application/json"})
        assert 400 <= deep.status_code < 500 and deep.json()["error"]
        for method, path in (("delete", "/games"), ("get", "/no/such/route")):
            r = c.request(method, path)
            assert r.status_code in (404, 405) and r.json()["error"]
        long_id = c.get("/games/" + "a" * 5000)
        assert long_id.status_code == 404 and len(long_id.text) < 300


def test_a_long_solve_does_not_hold_the_games_up(server: Server) -> None:
    deal = Game("partnership-57", 9).current
    early = {"preset": "partnership-57", "trump": "G", "leader": 0, "trick": [],
             "hands": [deal.hand(s).names() for s in range(4)]}
    done: list[str] = []

    def solve() -> None:
        with server.client() as c:
            c.post("/analysis/solve?budget=20000000", json=early)
        done.append("solve")
    threads = [threading.Thread(target=solve) for _ in range(5)]            # more than the game threads
    for t in threads:
        t.start()
    with server.client() as c:
        for _ in range(6000):                                   # a solve under way (each takes over a second)
            if c.get("/health").json()["searches"]["waiting"]:
                break
            time.sleep(0.01)
        g = new_game(c, "tournament", seed=77)                  # games are served meanwhile
        view = c.get(f"/games/{g['game_id']}/view", headers=bearer(join(c, g["game_id"], 0)))
        assert view.status_code == 200 and c.get("/health").status_code == 200
        done.append("game")
    for t in threads:
        t.join(300)
    assert done[0] == "game", done


# -------------------------------------------------------------- analysis, jobs
def _review_of(c: httpx.Client, gid: str, token: str | None, n: int) -> httpx.Response:
    return c.get(f"/games/{gid}/hands/{n}/review", params={"budget": 200_000},
                 headers=bearer(token) if token else {})


def test_T20_a_seat_reviews_each_finished_hand_as_rook_analyse_does(server: Server) -> None:
    """Issue 17 section 4: once a hand is over, a seat of the game gets its review
    (as ``review_hand`` gives it on the same hand), never before, never without a
    seat token, and never with the declarer's discards (T-20)."""
    with server.client() as c:
        g = new_game(c, "tournament", seed=7, max_hands=3)
        gid = g["game_id"]
        token = join(c, gid, 0)
        assert _review_of(c, gid, token, 1).status_code == 409                # being played
        assert _review_of(c, gid, None, 1).status_code == 403
        assert _review_of(c, gid, "x" * 20, 1).status_code == 403
        assert _review_of(c, gid, token, 2).status_code == 400                # not dealt yet
        assert _review_of(c, gid, token, 0).status_code == 422
        view, rng = c.get(f"/games/{gid}/view", headers=bearer(token)).json(), random.Random(4)
        while view["observation"]["hand_number"] == 1 and not view["over"]:
            view = play(c, gid, token, rng, moves=1)
        early = _review_of(c, gid, token, 1)
        if not view["over"]:
            assert _review_of(c, gid, token, 2).status_code == 409
        view = play(c, gid, token, rng)
        assert view["over"]
        history = c.get(f"/games/{gid}/history").json()
        answers = [_review_of(c, gid, token, n) for n in (1, 2, 3)]
    game = Game("tournament", 7)
    for item in history["actions"]:
        game.apply_text(item["action"], item["seat"])
    finished = [h for h in game.hands if h.is_over]
    assert answers[0].json() == early.json()
    reviewed = 0
    for n, (h, r) in enumerate(zip(finished, answers), start=1):
        if h.declarer is None:                        # thrown in (T-6): nothing to review
            assert r.status_code == 400 and "thrown in" in r.json()["error"]
            continue
        assert r.status_code == 200, r.text
        got = r.json()
        assert (got.pop("game_id"), got.pop("hand")) == (gid, n)
        assert got == review_hand(h, node_budget=200_000).to_json()
        assert len(got["cards"]) == 36 and got["cards"][-1]["after"] == h.points[0]
        assert not (set(CardSet(h.nest_mask).names()) & _words(got)), "the review shows a discard"
        reviewed += 1
    assert reviewed >= 1
    with server.client() as c:
        tv = new_game(c, "toonerville", players=3, seed=2)
        r = _review_of(c, tv["game_id"], join(c, tv["game_id"], 0), 1)
        assert r.status_code == 400 and "Toonerville" in r.json()["error"]


def test_analysis_answers_as_the_command_line(server: Server) -> None:
    pos = {"id": "a", "preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
           "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}
    with server.client() as c:
        assert c.post("/analysis/legal", json=pos).json() == {"id": "a", "to_move": 1, "legal": ["B7", "Rook"]}
        assert c.post("/analysis/perft?depth=3", json=pos).json()["perft"][0] == 2
        solved = c.post("/analysis/solve", json=pos).json()
        assert solved["best"] and set(solved["move_values"]) == {"B7", "Rook"}
        deal = Game("partnership-57", 5).current
        early = {"preset": "partnership-57", "trump": "R", "leader": 0, "trick": [],
                 "hands": [deal.hand(s).names() for s in range(4)]}
        cut = c.post("/analysis/solve?budget=1000", json=early)
        assert cut.status_code == 422 and cut.json()["budget"] == "nodes" and cut.json()["lo"] <= cut.json()["hi"]
        con = c.post("/analysis/contract", json={"hand": ["B7", "G7", "R7", "B9", "G9", "Y9"], "contract": 1})
        assert con.json()["can_meet"] is True and con.json()["deadwood"] == 0
        game = Game("tournament", 3)
        rng = random.Random(3)
        while game.hand_number < 3:
            game.apply(rng.choice(game.legal_actions()))
        reviewed = c.post("/analysis/review?budget=150000", json=game.to_json()).json()
        want = review_game(game, node_budget=150000)
        assert [r["cards"] for r in reviewed["hands"]] == [r.to_json()["cards"] for r in want]
        long = Game(Variant.from_preset("tournament", target=10_000), 3)
        while long.hand_number < 14:
            long.apply(rng.choice(long.legal_actions()))
        many = c.post("/analysis/review", json=long.to_json())
        assert many.status_code == 400 and "at most 8" in many.json()["error"]
        assert c.post("/analysis/review", json={"format": "chess"}).status_code == 400


def test_simulation_jobs_report_progress_and_give_results(server: Server, tmp_path: Path) -> None:
    with server.client() as c:
        job = c.post("/jobs", json={"preset": "tournament", "agents": ["heuristic", "random"] * 2, "hands": 300,
                                    "seed": 4})
        assert job.status_code == 202
        jid = job.json()["job_id"]
        seen = []
        for _ in range(600):
            st = c.get(f"/jobs/{jid}").json()
            seen.append(st["done"])
            if st["state"] in ("done", "failed"):
                break
            time.sleep(0.05)
        assert st["state"] == "done" and st["summary"]["hands"] == 300 and seen == sorted(seen)
        npz = c.get(f"/jobs/{jid}/result")
        csv = c.get(f"/jobs/{jid}/result?format=csv")
        assert npz.status_code == csv.status_code == 200
        assert csv.text.splitlines()[0].startswith("unit,") and len(csv.text.splitlines()) == 301
        (tmp_path / "r.npz").write_bytes(npz.content)
        import numpy as np
        assert len(np.load(tmp_path / "r.npz")["hands.unit"]) == 300


def test_jobs_refuse_more_than_they_can_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rook_core.service.jobs import MAX_WAITING, Busy, Jobs
    release = threading.Event()
    monkeypatch.setattr(Jobs, "_run", lambda self, job_id, spec: release.wait(30))
    jobs = Jobs(str(tmp_path))
    spec = {"preset": "tournament", "agents": ["random"] * 4, "hands": 10}
    ids = [jobs.submit(dict(spec), f"client {i % 8}") for i in range(MAX_WAITING)]   # 2 each: within theirs
    with pytest.raises(Busy, match="queued or running, the most the server runs"):
        jobs.submit(dict(spec), "client 9")
    release.set()
    jobs.shutdown()
    assert len(set(ids)) == MAX_WAITING


# ---------------------------------------------------------------- load
def test_100_concurrent_games_driven_by_50_clients(server: Server, tmp_path: Path) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        rng = random.Random(k)
        mine: list[float] = []
        try:
            with server.client() as c:
                games = []
                for j in range(2):
                    kind = "toonerville" if (k + j) % 4 == 0 else "tournament"
                    extra = {"players": 3, "rounds": [1]} if kind == "toonerville" else {}
                    g = new_game(c, kind, seed=1000 + 2 * k + j, **extra)
                    games.append((g["game_id"], join(c, g["game_id"], 0)))
                for _ in range(8):                                   # the client's games go on together
                    for gid, token in games:
                        play(c, gid, token, rng, moves=2, latencies=mine)
        except Exception as e:  # noqa: BLE001 - every error is counted
            with lock:
                errors.append(f"client {k}: {type(e).__name__}: {e}")
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(50)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join(600)
    wall = time.perf_counter() - t
    assert errors == []
    assert len(latencies) > 1000
    q = statistics.quantiles(latencies, n=100)
    report = {"clients": 50, "games": 100, "actions": len(latencies), "wall_s": round(wall, 1),
              "p50_ms": round(1000 * q[49], 1), "p99_ms": round(1000 * q[98], 1)}
    print("\nload:", json.dumps(report))
    (Path(__file__).resolve().parent.parent / "build").mkdir(exist_ok=True)
    (Path(__file__).resolve().parent.parent / "build" / "service-load.json").write_text(json.dumps(report))


# ------------------------------------------------------------ kill, restart
def test_a_killed_server_restarts_and_the_games_go_on(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = Server(db)
    try:
        with first.client() as c:
            games = []
            for k in range(6):
                kind = "toonerville" if k % 3 == 0 else "tournament"
                extra = {"players": 4, "rounds": [1, 2]} if kind == "toonerville" else {}
                g = new_game(c, kind, seed=50 + k, **extra)
                token = join(c, g["game_id"], 0)
                play(c, g["game_id"], token, random.Random(k), moves=6)
                games.append((g["game_id"], token))
            before = [c.get(f"/games/{gid}/view", headers=bearer(t)).json() for gid, t in games]
    finally:
        first.kill()                                                         # SIGKILL: no clean shutdown
    second = Server(db, port=first.port)
    try:
        with second.client() as c:
            after = [c.get(f"/games/{gid}/view", headers=bearer(t)).json() for gid, t in games]
            assert after == before                                            # nothing lost
            for k, (gid, token) in enumerate(games):
                view = play(c, gid, token, random.Random(100 + k))          # and the games go on to the end
                assert view["over"]
    finally:
        second.stop()


def test_finished_games_leave_memory_and_reload_from_the_log(tmp_path: Path) -> None:
    from rook_core.service.hub import Hub
    from rook_core.service.store import Store
    hub = Hub(Store(str(tmp_path / "g.sqlite")), keep_finished=2)
    person = hub.create({"game": "crowsnest", "seed": 8}, ["human"] + ["bot:random"] * 3)
    token = hub.join(person, 0)
    played = [hub.create({"game": "crowsnest", "seed": s}, ["bot:heuristic"] * 4) for s in range(5)]
    assert all(hub.wait_for_bots(g, 120) for g in played)         # their bots play on in the background
    assert hub.in_memory == 3                                     # the open game and the newest two finished
    for g in played:                                              # the dropped ones come back whole
        again = hub.history(g)
        replay = Game("crowsnest", again["seed"])
        for a in again["actions"]:
            replay.apply_text(a["action"], a["seat"])
        assert replay.is_over and list(replay.totals) == again["result"]["totals"]
        assert hub.in_memory <= 3
    assert hub.view(person, token)["seat"] == 0                   # the open game was never dropped


def _hub(tmp_path: Path, **kw: int) -> Any:
    from rook_core.service.hub import Hub
    from rook_core.service.store import Store
    return Hub(Store(str(tmp_path / "g.sqlite")), **kw)


def test_games_in_play_beyond_the_cap_leave_memory_and_go_on(tmp_path: Path) -> None:
    hub = _hub(tmp_path, keep_playing=2)
    games = [hub.create({"game": "tournament", "seed": s}, ["human"] + ["bot:heuristic"] * 3) for s in range(5)]
    tokens = [hub.join(g, 0) for g in games]
    assert hub.in_memory <= 3                                # the two used last, and the one being joined
    before = [hub.view(g, t) for g, t in zip(games, tokens)]  # each view reloads a dropped game
    assert hub.in_memory <= 3
    for g, t, v in zip(games, tokens, before):
        assert hub.view(g, t) == v                            # rebuilt from its log: the same view
        after = hub.act(g, t, v["legal"][0], v["move"])
        assert after["move"] > v["move"]


def _play_seat(hub: Any, g: str, token: str, limit: int = 300) -> dict[str, Any]:
    """Play the token's seat (its first legal action) until the game is over."""
    v = hub.view(g, token)
    for _ in range(limit):
        if v["over"]:
            break
        v = hub.act(g, token, v["legal"][0], v["move"])
    return v


def test_a_game_stored_before_max_hands_replays_with_no_hand_limit(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    g = hub.create({"game": "crowsnest", "seed": 1, "max_hands": 1}, ["human"] + ["bot:random"] * 3)
    assert _play_seat(hub, g, hub.join(g, 0))["result"]["stopped"] == "max_hands"
    moves = hub.public(g)["move"]
    db = hub.store._db()
    db.execute("UPDATE games SET spec = ? WHERE id = ?", (json.dumps({"game": "crowsnest", "seed": 1}), g))
    db.execute("UPDATE actions SET chain = NULL WHERE game_id = ?", (g,))    # a file of then had no chains
    db.commit()
    state = _hub(tmp_path).public(g)                          # a new server on the same file: no limit
    assert not state["over"] and state["move"] >= moves and state["to_move"] is not None
    from rook_core.hosting import HostedGame
    assert HostedGame.load({"game": "crowsnest", "seed": 1}).spec["max_hands"] is None
    assert HostedGame.create({"game": "crowsnest", "seed": 1}).spec["max_hands"] == 200


@pytest.mark.parametrize("spec, words", [
    ({"game": "toonerville", "players": 3, "max_hands": 5}, "max_hands is for trick-taking"),
    ({"game": "tournament", "players": 4.0}, "4 players"),
    ({"game": "tournament", "players": True}, "4 players"),
    ({"game": "tournament", "max_hands": 1001}, "max_hands must be"),
    ({"game": "tournament", "max_hands": True}, "max_hands must be"),
])
def test_a_bad_game_spec_is_refused_by_name(tmp_path: Path, spec: dict[str, Any], words: str) -> None:
    from rook_core.errors import RookError
    hub = _hub(tmp_path)
    with pytest.raises(RookError, match=words):
        hub.create(spec, ["human"] * (spec.get("players") if spec["game"] == "toonerville" else 4))
    assert hub.in_memory == 0


def test_the_hub_refuses_bad_seats_moves_and_actions_with_rook_errors(tmp_path: Path) -> None:
    from rook_core.errors import RookError
    hub = _hub(tmp_path)
    for seats in ([None] * 4, [1, 2, 3, 4], "human"):
        with pytest.raises(RookError, match="seat"):
            hub.create({"game": "tournament", "seed": 1}, seats)
    g = hub.create({"game": "tournament", "seed": 1}, ["human"] * 4)
    token = hub.join(g, 1)
    with pytest.raises(RookError, match="seats 0..3"):
        hub.join(g, True)
    for move in ("0", None, -1, True):
        with pytest.raises(RookError, match="move number"):
            hub.act(g, token, "pass", move)
    with pytest.raises(RookError, match="text"):
        hub.act(g, token, 5, 0)
    assert hub.public(g)["move"] == 0


def test_T34_a_game_stopped_by_max_hands_shows_its_last_hand(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    g = hub.create({"game": "crowsnest", "seed": 1, "max_hands": 1}, ["human"] + ["bot:random"] * 3)
    token = hub.join(g, 0)
    v = _play_seat(hub, g, token)
    obs = hub.view(g, token)["observation"]
    assert v["over"] and v["result"]["stopped"] == "max_hands"
    assert obs["hand_number"] == 1 and obs["to_move"] is None and obs["stopped"] == "max_hands"
    assert obs["phase"] == "done" and obs["hand"] == [] and obs["totals"] == v["result"]["totals"]


def test_a_game_being_rebuilt_from_its_log_holds_up_no_other_game(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    a, b = (hub.create({"game": "tournament", "seed": s}, ["human"] + ["bot:heuristic"] * 3) for s in (1, 2))
    ta, tb = hub.join(a, 0), hub.join(b, 0)
    hub._live.pop(a)                                          # as if dropped from memory
    rebuilding, release = threading.Event(), threading.Event()
    rebuild = hub._rebuild

    def slow_rebuild(game_id: str) -> Any:
        rebuilding.set()
        assert release.wait(60)
        return rebuild(game_id)
    hub._rebuild = slow_rebuild
    seen: dict[str, Any] = {}
    first = threading.Thread(target=lambda: seen.setdefault("a", hub.view(a, ta)))
    second = threading.Thread(target=lambda: seen.setdefault("a2", hub.view(a, ta)))   # waits for the same rebuild
    first.start()
    assert rebuilding.wait(60)
    second.start()
    other = threading.Thread(target=lambda: seen.setdefault("b", hub.view(b, tb)))
    other.start()
    other.join(60)
    assert "b" in seen and "a" not in seen                     # game b answered while a was being rebuilt
    release.set()
    first.join(60)
    second.join(60)
    assert seen["a"] == seen["a2"] and seen["a"]["seat"] == 0


def test_every_route_has_a_summary_a_description_and_its_refusals(tmp_path: Path) -> None:
    """Issue 18: the OpenAPI document (and so /docs) describes every route, and lists its error codes."""
    from rook_core.service.app import ROUTE_DOCS, create_app
    doc = create_app(str(tmp_path / "g.sqlite")).openapi()
    operations = {(m.upper(), path): op for path, ops in doc["paths"].items() for m, op in ops.items()}
    assert set(operations) == set(ROUTE_DOCS)                    # no route left out, no stale entry
    for key, op in operations.items():
        assert op["summary"] == ROUTE_DOCS[key][0] and len(op.get("description", "")) > 20, key
        if key != ("GET", "/health"):
            assert any(code.startswith("4") for code in op["responses"]), key


def test_the_api_reader_works_offline(tmp_path: Path) -> None:
    """Issue 18: /docs loads nothing from another host: every file it names is served here."""
    import re

    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    with TestClient(create_app(str(tmp_path / "g.sqlite"))) as c:
        page = c.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        links = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert links and all(u.startswith("/") for u in links), links
        assert "://" not in page.text
        for u in links + ["/openapi.json"]:
            assert c.get(u).status_code == 200, u
