"""``rook serve`` under attack: what a stranger's requests can and cannot do to
someone else's game, on a real server process on loopback and on the hub."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from _server import Server, bearer

from rook_core.service.hub import Hub
from rook_core.service.store import Store

SEATS = ["human", "bot:random", "bot:random", "bot:random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = Server(tmp_path_factory.mktemp("safety") / "games.sqlite")
    yield s
    s.stop()


def _create(c: httpx.Client, seed: int | None, seats: list[str] = SEATS, **kw: Any) -> tuple[str, str]:
    r = c.post("/games", json={"game": "tournament", "seed": seed, "seats": seats, **kw})
    assert r.status_code == 201, r.text
    g = r.json()["game_id"]
    r = c.post(f"/games/{g}/seats/0/join")
    assert r.status_code == 200, r.text
    return g, r.json()["token"]


def _play_first_legal(c: httpx.Client, g: str, token: str, between: Any = None, limit: int = 400) -> list[Any]:
    """Play seat 0's first legal action until the game ends; ``between(view)`` runs before each one."""
    for _ in range(limit):
        v = c.get(f"/games/{g}/view", headers=bearer(token)).json()
        if v["over"]:
            break
        if v["to_move"] != 0:
            continue
        if between is not None:
            between(v)
        r = c.post(f"/games/{g}/actions", json={"action": v["legal"][0], "move": v["move"]},
                   headers=bearer(token))
        assert r.status_code == 200, r.text
    h = c.get(f"/games/{g}/history")
    assert h.status_code == 200, h.text
    return list(h.json()["actions"])


def test_refused_actions_by_a_stranger_change_nothing_in_anothers_game(server: Server) -> None:
    """Issue 16.2: a 403, 409 or 422 leaves the game in memory and the bots' play as it was."""
    with server.client() as c:
        g0, t0 = _create(c, seed=77, max_hands=2)
        quiet = _play_first_legal(c, g0, t0)
        g1, t1 = _create(c, seed=77, max_hands=2)
        rebuilds_before = c.get("/health").json()["rebuilds"]
        refused: list[int] = []

        def attack(v: dict[str, Any]) -> None:
            move = v["move"]
            illegal = next(a for a in ("R14", "B1", "pass", "trump R", "bid 120") if a not in v["legal"])
            for headers, body in (({}, {"action": v["legal"][0], "move": move}),                # no token
                                  (bearer("x" * 32), {"action": v["legal"][0], "move": move}),  # a wrong one
                                  (bearer(t1), {"action": v["legal"][0], "move": move + 5}),    # ahead
                                  (bearer(t1), {"action": illegal, "move": move})):             # refused by the rules
                r = c.post(f"/games/{g1}/actions", json=body, headers=headers)
                refused.append(r.status_code)
        attacked = _play_first_legal(c, g1, t1, attack)
        assert c.get("/health").json()["rebuilds"] == rebuilds_before, "a refused request dropped the game"
    assert set(refused) == {403, 409, 422} and len(refused) >= 40
    assert attacked == quiet


def test_a_game_rebuilt_at_every_move_plays_as_one_never_rebuilt(tmp_path: Path) -> None:
    """Issue 16.2: a bot's choices depend on the game's seed, seat and move only."""
    def play(rebuild: bool, name: str) -> list[tuple[int, str]]:
        path = tmp_path / name
        hub = Hub(Store(str(path)))
        g = hub.create({"game": "tournament", "seed": 5, "max_hands": 3}, SEATS)
        token = hub.join(g, 0)
        for _ in range(500):
            if rebuild:
                hub = Hub(Store(str(path)))         # a fresh hub: the game comes back from its log
            v = hub.view(g, token)
            if v["over"]:
                break
            hub.act(g, token, v["legal"][-1], v["move"])
        return [(a["seat"], a["action"]) for a in hub.history(g)["actions"]]

    kept, rebuilt = play(False, "kept.sqlite"), play(True, "rebuilt.sqlite")
    assert len(kept) > 100 and rebuilt == kept


def test_a_secret_deal_is_committed_at_creation_and_revealed_at_the_end(server: Server) -> None:
    """Issue 16.3: the commitment is public from the start; seed and salt open it at the end."""
    with server.client() as c:
        made = [_create(c, seed=None, max_hands=1) for _ in range(2)] + [_create(c, seed=11, max_hands=1)]
        start = [c.get(f"/games/{g}").json() for g, _ in made]
        assert [p["seed_chosen"] for p in start] == [False, False, True]
        assert all(p["seed"] is None and p["seed_salt"] is None for p in start)
        assert all(len(p["seed_commitment"]) == 64 for p in start)
        assert start[0]["seed_commitment"] != start[1]["seed_commitment"]
        ends = []
        for (g, t), p in zip(made, start):
            _play_first_legal(c, g, t)
            end = c.get(f"/games/{g}").json()
            assert end["over"] and end["seed_commitment"] == p["seed_commitment"]
            opened = hashlib.sha256(f"{end['seed_salt']}:{end['seed']}".encode()).hexdigest()
            assert opened == p["seed_commitment"], "the revealed seed does not open the commitment"
            assert c.get(f"/games/{g}/history").json()["seed"] == end["seed"]
            ends.append(end)
    assert ends[0]["seed"] != ends[1]["seed"] and ends[2]["seed"] == 11
