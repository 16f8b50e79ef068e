"""Latency of ``rook serve`` under three floods, on loopback.

It starts a real server with a fresh database. One client plays a person's
game (one view and one action per round) and asks for ``/health``. Meanwhile,
eight clients flood the server, one flood after another:

* ``bots``: tables of four bots that ask for 1,000 hands each;
* ``refused``: actions on the person's game, sent without a token;
* ``analysis``: solves of a full deal at the largest budget.

The flooders run in a process of their own and come from another loopback
address (127.0.0.2) than the person (127.0.0.1), as a stranger would.

For each flood the script prints the p50, p99 and max latency of
``/health`` and of the person's requests, and the status codes the
flooders got.

    .venv/bin/python bench/service_attack.py [--seconds 6] [--flooders 8]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from typing import Any

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: str, extra: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "rook_core", "serve", "--port", str(port), "--db", db, *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if httpx.get(url + "/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("rook serve did not start")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _deal() -> dict[str, Any]:
    from rook_core.game import Game
    deal = Game("partnership-57", 9).current
    return {"preset": "partnership-57", "trump": "G", "leader": 0, "trick": [],
            "hands": [deal.hand(s).names() for s in range(4)]}


def _flood(kind: str, url: str, game: str, stop: threading.Event, codes: Counter[int]) -> None:
    early = _deal()
    # the flooders come from an address of their own (127.0.0.2), as strangers would
    with httpx.Client(base_url=url, timeout=120, transport=httpx.HTTPTransport(local_address="127.0.0.2")) as c:
        while not stop.is_set():
            try:
                if kind == "bots":
                    r = c.post("/games", json={"game": "tournament", "seats": ["bot:random"] * 4, "max_hands": 1000})
                elif kind == "refused":
                    r = c.post(f"/games/{game}/actions", json={"action": "pass", "move": 0})
                else:
                    r = c.post("/analysis/solve", params={"budget": 5_000_000}, json=early)
                codes[r.status_code] += 1
            except httpx.HTTPError:
                codes[0] += 1


def _probe(url: str, stop: threading.Event, health: list[float], person: list[float]) -> str:
    """Play a person's game (first legal action) and time /health and each request of the person."""
    with httpx.Client(base_url=url, timeout=120) as c:
        def new_person_game() -> tuple[str, dict[str, str]] | None:
            r = c.post("/games", json={"game": "tournament", "seats": ["human"] + ["bot:heuristic"] * 3})
            if r.status_code != 201:           # the flooders share this client's address: its rate
                return None
            tok = c.post(f"/games/{r.json()['game_id']}/seats/0/join").json()["token"]
            return r.json()["game_id"], {"Authorization": f"Bearer {tok}"}
        made = new_person_game()
        assert made is not None, "the person's first game was refused"
        game, auth = made
        first = game
        while not stop.is_set():
            t = time.perf_counter()
            c.get("/health")
            health.append(time.perf_counter() - t)
            t = time.perf_counter()
            v = c.get(f"/games/{game}/view", headers=auth).json()
            person.append(time.perf_counter() - t)
            if v["over"]:
                game, auth = new_person_game() or (game, auth)
                time.sleep(0.01)
                continue
            if v["to_move"] == 0:
                t = time.perf_counter()
                c.post(f"/games/{game}/actions", json={"action": v["legal"][0], "move": v["move"]}, headers=auth)
                person.append(time.perf_counter() - t)
            time.sleep(0.01)
        return first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=6.0, help="each flood's length (default %(default)s)")
    ap.add_argument("--flooders", type=int, default=8, help="flooding clients (default %(default)s)")
    ap.add_argument("--floods", default="none,bots,refused,analysis", help="which floods (default %(default)s)")
    ap.add_argument("--serve", default="", help="more flags for rook serve, e.g. '--bot-queue 8'")
    ap.add_argument("--flood", help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    ap.add_argument("--game", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.flood:                        # the flooding process: its threads, then the status counts
        stop, codes = threading.Event(), Counter[int]()
        threads = [threading.Thread(target=_flood, args=(args.flood, args.url, args.game, stop, codes))
                   for _ in range(args.flooders)]
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop.set()
        for t in threads:
            t.join()
        print(" ".join(f"{k}:{v}" for k, v in codes.items()))
        return
    with tempfile.TemporaryDirectory() as d:
        proc, url = _start(os.path.join(d, "games.sqlite"), args.serve.split())
        try:
            with httpx.Client(base_url=url) as c:
                g = c.post("/games", json={"game": "tournament", "seats": ["human"] + ["bot:random"] * 3}).json()
            print(f"{'flood':<10} {'/health p50 / p99 / max (ms)':<30} {'person p50 / p99 / max (ms)':<30} "
                  "flooders got")
            for kind in args.floods.split(","):
                stop = threading.Event()
                codes: Counter[int] = Counter()
                flood = None if kind == "none" else subprocess.Popen(      # the flooders: a process of their own
                    [sys.executable, __file__, "--flood", kind, "--url", url, "--game", g["game_id"],
                     "--seconds", str(args.seconds), "--flooders", str(args.flooders)],
                    stdout=subprocess.PIPE, text=True)
                health: list[float] = []
                person: list[float] = []
                probe = threading.Thread(target=_probe, args=(url, stop, health, person))
                probe.start()
                time.sleep(args.seconds)
                stop.set()
                probe.join()
                if flood is not None:
                    out, _ = flood.communicate(timeout=300)
                    codes.update({int(k): int(v) for k, v in (x.split(":") for x in out.split())})
                def fmt(xs: list[float]) -> str:
                    return f"{statistics.median(xs) * 1e3:6.1f} / {_pct(xs, 0.99) * 1e3:6.1f} / {max(xs) * 1e3:6.1f}"
                print(f"{kind:<10} {fmt(health):<30} {fmt(person):<30} {dict(sorted(codes.items()))}", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
