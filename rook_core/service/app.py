"""``rook serve``: the HTTP JSON service (FastAPI on uvicorn) and its browser table.

Endpoints (the OpenAPI document is at ``/openapi.json``, a reader at ``/docs``):

==========================================  ==============================================
``POST /games``                             create a game: ``game`` (a preset or
                                            ``toonerville``), ``seed``, ``players``,
                                            ``rounds``, ``max_hands``, ``seats``
                                            (``human`` or ``bot:random`` /
                                            ``bot:heuristic``); bots move by themselves
``GET /games/{id}[?wait=S]``                public state: seats, move number, the deal's
                                            commitment, result (``wait``: for the bots)
``POST /games/{id}/seats/{seat}/join``      take a human seat: its secret token
``POST /games/{id}/seats/{seat}/reset``     the owner frees a human seat (lost token)
``GET /games/{id}/view``                    the token's seat: observation, legal actions
``GET /games/{id}/legal``                   the token's seat: its legal actions, move number
``POST /games/{id}/actions``                ``{"action": text, "move": n}``: act as move n
``GET /games/{id}/history``                 every action and the scores, once over
``GET /games/{id}/hands/{n}/review``        a seat's review of finished hand n (as
                                            ``rook analyse``; no discards shown)
``POST /analysis/legal|perft|solve``        FORMATS.md positions, as ``rook legal`` etc.
                                            (read by the same code: the same fields)
``POST /analysis/contract``                 a FORMATS.md Toonerville hand
``POST /analysis/review``                   a hand, game or history: ``rook analyse``'s review
``POST /jobs``, ``GET /jobs/{id}``,         simulation jobs: start, poll, download
``GET /jobs/{id}/result``
``GET /``                                   the browser table
==========================================  ==============================================

A seat token goes in ``Authorization: Bearer TOKEN`` and shows that seat only.
Errors are JSON ``{"error": message}``: 400 bad input, 403 a wrong token,
404 unknown game or job, 409 a stale move, a move out of turn or a seat
taken, 413 a body over the size limit, 422 an action the rules refuse, a
body that does not fit its schema (malformed JSON, wrong types, unknown
fields), a solve whose budget ran out (with the bounds proven: ``lo``,
``hi``) or a review past its time bound (with the hands reviewed),
429 past a limit (with ``Retry-After``), 499 (read by nobody) a search
dropped because its client hung up, 500 a game whose stored
log was damaged (naming it) or an unexpected failure, 503 a store that could
not make an answer durable or could not write (a full disk).  The limits and the
guarantees are in docs/SERVICE.md.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from ..errors import IllegalActionError, RookError, missing_extra

try:
    import anyio
    from fastapi import Body, Depends, FastAPI, Query, Request
    from fastapi import Path as FastPath
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
    from fastapi.routing import APIRoute
    from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
    from fastapi.staticfiles import StaticFiles
    from pydantic import BaseModel, ConfigDict, Field
    from starlette.exceptions import HTTPException as StarletteHTTPException
except ModuleNotFoundError as e:
    raise missing_extra("rook_core.service.app", "serve", e) from e

from .._version import __version__
from ..analysis import contract_answer, legal_answer, perft_answer, solve_answer
from ..solver import BudgetExceeded, Solver
from .hub import REPLAYED, Conflict, Forbidden, Hub, NotFound
from .jobs import MAX_GAMES, MAX_HANDS, Jobs
from .limits import Busy, Limits, RateLimit, retry_seconds
from .searches import (
    REVIEW_SECONDS,
    SOLVE_SECONDS,
    Abandoned,
    ReviewTimeOut,
    SearchQueue,
    StopSignal,
    answer_of,
    review_document,
    review_hands,
)
from .store import GameDamaged, Store, StoreDamaged

__all__ = ["create_app", "MAX_BODY"]

_log = logging.getLogger("rook_core.service")

MAX_BODY = 64 * 1024
REVIEW_HANDS = 8            # played hands one review request may hold
THREADS = 4                 # worker threads for the game logic (see lifespan)
SWITCH_INTERVAL = 0.0005    # seconds a thread may hold the interpreter while another waits
SWEEP_EVERY = 600           # seconds between deletions of old games and jobs (and once at start)
REPLAY_PER_REQUEST = 100   # actions replayed to rebuild a game that cost a client one request more
STATIC = Path(__file__).resolve().parent / "static"
Card = Annotated[str, Field(max_length=8)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGame(_Strict):
    game: str = Field(description="a preset (tournament, crowsnest, ...) or toonerville", max_length=40)
    seed: int | None = Field(None,
                             description="the deal's seed, an int 0 .. 2**64-1 (past it: 400); left out, the "
                                         "server picks a secret one. Whoever "
                                         "knows the seed knows every hand: it is shown once the game is over")
    players: int | None = Field(None, ge=3, le=5, description="Toonerville: 3 to 5 (default 4)")
    rounds: list[Annotated[int, Field(ge=1, le=11)]] | None = Field(
        None, min_length=1, max_length=11, description="Toonerville: the rounds to play (default all eleven)")
    max_hands: int | None = Field(None, ge=1, le=1000,
                                  description="trick-taking games: over with no winner after this many hands "
                                              "(default 200)")
    move_clock: int | None = Field(None, ge=1, le=86_400,
                                   description="seconds a person has for each move; past them, the heuristic "
                                               "bot plays that move for the seat (default: no clock)")
    seats: list[Annotated[str, Field(max_length=20)]] = Field(
        description="one per seat: 'human', 'bot:random' or 'bot:heuristic'", min_length=3, max_length=5)


class Act(_Strict):
    action: str = Field(description="the action's text, e.g. 'bid 75', 'R14', 'draw', 'lay B7 G7 R7 / ...'",
                        min_length=1, max_length=400)
    move: int = Field(ge=0, description="the move number the action is for (the count of actions so far)")


class Position(BaseModel):
    """A trick-play position of docs/FORMATS.md: every field ``rook legal``, ``rook perft``
    and ``rook solve`` read, checked by the same code (a position that does not add up,
    or an unknown field: 400 naming it)."""

    model_config = ConfigDict(extra="forbid", title="Position")
    id: str | None = Field(None, description="returned unchanged in the answer")
    preset: str | None = Field(None, description="a preset of RULES.md (tournament, crowsnest, dixie, ...); "
                                                 "this or variant is required")
    variant: dict[str, Any] | None = Field(None, description="instead of preset: a whole variant, as "
                                                              "Variant.to_dict() writes it")
    trump: str = Field(description="the trump color: B, G, R or Y")
    leader: int = Field(ge=0, le=3, description="the seat that led the current trick")
    trick: list[Card] = Field([], max_length=3, description="the cards played to the current trick so far, "
                                                            "in order; card i came from seat (leader + i) mod 4")
    hands: list[list[Card]] = Field(min_length=4, max_length=4, description="the cards each seat holds now")
    nest_points: int = Field(0, ge=0, description="the points of the cards put away, which go to the team "
                                                  "of the last trick (T-13)")
    taken: list[int] = Field([0, 0], min_length=2, max_length=2,
                             description="points each team has already taken in this hand (not counted)")
    tricks: list[int] | None = Field(None, min_length=2, max_length=2, description=(
        "tricks each team took before the current one; needed after the first trick by a variant with a "
        "most-tricks bonus (dixie), checked against the hands otherwise"))


# The routes that read a position take its JSON object as it is, for the library
# to read (rook_core.position.parse_position, as the command line does); the
# OpenAPI document shows its fields all the same.
def _no_nulls(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its optional fields shown as what they are when given (never null)."""
    for field in schema["properties"].values():
        kinds = [k for k in field.pop("anyOf", []) if k.get("type") != "null"]
        if kinds:
            field.update(kinds[0])
        if field.get("default", 0) is None:
            del field["default"]
    return schema


_POSITION = {"requestBody": {"required": True,
                             "content": {"application/json": {"schema": _no_nulls(Position.model_json_schema())}}}}
_POSITION_BODY = Body(..., description="a trick-play position of docs/FORMATS.md")


class ToonervilleHand(_Strict):
    id: str | None = Field(None, max_length=200)
    hand: list[Card] = Field(max_length=40)
    contract: int | dict[str, int]


class SimJob(_Strict):
    preset: str = Field(max_length=40)
    agents: list[Literal["random", "heuristic"]] = Field(min_length=3, max_length=5)
    hands: int | None = Field(None, ge=1, le=MAX_HANDS)
    games: int | None = Field(None, ge=1, le=MAX_GAMES)
    seed: int = Field(0, description="the run's seed, an int 0 .. 2**64-1 (past it: 400)")


class ErrorBody(BaseModel):
    """Every refusal: a message naming what is wrong (429s add ``retry_after``, seconds;
    a solve past its budget adds ``budget``, ``lo``, ``hi`` and ``nodes``; a review past
    its time bound adds ``budget`` and ``hands``, the hands reviewed whole)."""

    error: str
    retry_after: int | None = None


_ERRORS = {
    400: "bad input: a spec, position or action the engine cannot read",
    403: "no seat token, or not a seat token of this game",
    404: "no such game, seat or job",
    409: "a stale move number, a move out of turn, a seat taken, or not yet available",
    413: "a request body over the size limit",
    422: "an action the rules refuse, a body that does not fit its schema, a solve past its budget, "
         "or a review past its time bound",
    429: "too many requests from this client, or the queue is full: try again after Retry-After seconds",
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that can refuse with ``codes``."""
    return {c: {"model": ErrorBody, "description": _ERRORS[c]} for c in codes}


_bearer = HTTPBearer(auto_error=False, description="the seat token from /join")


def _token(creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str | None:
    return None if creds is None else creds.credentials


class _BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before reading them whole
    (a Content-Length over it at once; a longer chunked body as soon as it passes it)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _send_json(send, 413, {"error": f"request body over {self.limit} bytes"})
                return
        seen, over = 0, False

        async def limited() -> Any:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded(message: Any) -> None:
            if not over:
                await send(message)
            elif message["type"] == "http.response.start":      # whatever the app answered: 413
                await _send_json(send, 413, {"error": f"request body over {self.limit} bytes"})

        await self.app(scope, limited, guarded)


class _ClientLimit:
    """Refuse a client's requests past its rate with 429 and ``Retry-After``,
    before any routing or body parsing (``/health`` is never refused).  A
    request that had a game rebuilt from its log costs one request more for
    every :data:`REPLAY_PER_REQUEST` actions replayed (hub.REPLAYED), so that
    no client makes the server replay long logs faster than it may ask."""

    def __init__(self, app: Any, rate: RateLimit) -> None:
        self.app, self.rate = app, rate

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") == "/health":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else ""
        wait = self.rate.take(key)
        if wait:
            retry = retry_seconds(wait)
            await _send_json(send, 429, {"error": "too many requests from this client; try again in "
                                                  f"{retry} s", "retry_after": retry},
                             [(b"retry-after", str(retry).encode())])
            return
        meter = [0]
        mark = REPLAYED.set(meter)
        try:
            await self.app(scope, receive, send)
        finally:
            REPLAYED.reset(mark)
            self.rate.charge(key, meter[0] / REPLAY_PER_REQUEST)


async def _send_json(send: Any, status: int, body: dict[str, Any],
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


def _sweep_until(stop: threading.Event, hub: Hub, jobs: Jobs) -> None:
    """Delete old games and jobs every :data:`SWEEP_EVERY` seconds until ``stop``."""
    while not stop.wait(SWEEP_EVERY):
        try:
            hub.sweep()
            jobs.sweep()
        except Exception:                    # a failed sweep is tried again; it never stops the server
            _log.exception("sweeping old games and jobs failed")


def create_app(db_path: str, jobs_dir: str | None = None, max_body: int = MAX_BODY,
               limits: Limits | None = None) -> FastAPI:
    """The service's ASGI app, its games in the SQLite file ``db_path``, keeping
    ``limits`` (docs/SERVICE.md)."""
    limits = limits or Limits()
    store = Store(db_path, exclusive=True)        # one server a file: its games live in its memory
    hub = Hub(store, limits=limits)
    creating = RateLimit(limits.games_per_minute, limits.games_burst)
    jobs = Jobs(jobs_dir or os.path.join(os.path.dirname(os.path.abspath(db_path)), "rook-jobs"),
                keep_hours=limits.keep_jobs_hours)
    searches = SearchQueue(limits.analysis_queue, per_client=limits.analysis_per_client)
    hub.sweep()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The game logic holds the GIL: a few worker threads answer in turn,
        # where many would only share one core less fairly.
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        # and a thread that holds the interpreter (the bots playing on, in the
        # background) hands it over within half a millisecond, not five, so that
        # a request waits for it that much at each of its steps
        switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        stop = threading.Event()
        sweeper = threading.Thread(target=_sweep_until, args=(stop, hub, jobs), name="rook-sweep", daemon=True)
        sweeper.start()
        yield
        stop.set()
        sweeper.join(10)
        sys.setswitchinterval(switch)
        hub.close()
        jobs.shutdown()
        store.release()                       # another server may have the file now

    app = FastAPI(title="rook_core", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Rook card games as a service: games with secret seats, bots, "
                              "double-dummy analysis and simulation jobs.")
    app.state.hub, app.state.jobs, app.state.searches = hub, jobs, searches

    def error(status: int) -> Any:
        async def handler(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"error": str(exc)}, status_code=status)
        return handler

    @app.exception_handler(BudgetExceeded)
    async def budget(request: Request, exc: BudgetExceeded) -> JSONResponse:
        return JSONResponse({"error": str(exc), "budget": exc.kind, "lo": exc.lo, "hi": exc.hi,
                             "nodes": exc.nodes}, status_code=422)

    @app.exception_handler(ReviewTimeOut)
    async def review_time(request: Request, exc: ReviewTimeOut) -> JSONResponse:
        return JSONResponse({"error": str(exc), "budget": "time", "hands": exc.hands}, status_code=422)

    @app.exception_handler(Abandoned)
    async def abandoned(request: Request, exc: Abandoned) -> JSONResponse:
        # nginx's "client closed request": nobody is there to read it
        return JSONResponse({"error": str(exc)}, status_code=499)

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc), "retry_after": exc.retry_after}, status_code=429,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(GameDamaged)
    async def damaged(request: Request, exc: GameDamaged) -> JSONResponse:
        return JSONResponse({"error": str(exc), "game_id": exc.game_id}, status_code=500)

    @app.exception_handler(StoreDamaged)
    async def store_damaged(request: Request, exc: StoreDamaged) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503)

    @app.exception_handler(sqlite3.DatabaseError)
    async def unreadable(request: Request, exc: sqlite3.DatabaseError) -> JSONResponse:
        if isinstance(exc, sqlite3.IntegrityError):       # a key taken: no read failed
            return await unexpected(request, exc)
        _log.error("%s %s: the database could not be read", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": f"{db_path!r} could not be read ({exc}); nothing is answered from what "
                                      "cannot be read: stop the server, and move the file aside or restore it "
                                      "from a copy"}, status_code=503)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        _log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); the request changed nothing "
                                      "that was not answered"}, status_code=500)

    app.add_exception_handler(NotFound, error(404))
    app.add_exception_handler(Forbidden, error(403))
    app.add_exception_handler(Conflict, error(409))
    app.add_exception_handler(IllegalActionError, error(422))
    app.add_exception_handler(RookError, error(400))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        msgs = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()]
        return JSONResponse({"error": "; ".join(msgs)[:2000]}, status_code=422)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _offline_docs(app)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        # async: it answers on the event loop, never waiting for a worker thread
        return {"ok": True, "version": __version__, "games_in_memory": hub.in_memory, "rebuilds": hub.rebuilds,
                "searches": {"waiting": searches.waiting, "abandoned": searches.abandoned}}

    # ----------------------------------------------------------------- games
    @app.post("/games", status_code=201, responses=_errors(400, 413, 422, 429))
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        wait = creating.take(request.client.host if request.client else "")
        if wait:
            raise Busy(f"this client created {limits.games_burst} games lately; the next may come in "
                       f"{wait:.1f} s ({limits.games_per_minute:g} a minute)", wait)
        spec: dict[str, Any] = {"game": body.game, "seed": body.seed}
        if body.players is not None:
            spec["players"] = body.players
        if body.rounds is not None:
            spec["rounds"] = body.rounds
        if body.max_hands is not None:
            spec["max_hands"] = body.max_hands
        if body.move_clock is not None:
            spec["move_clock"] = body.move_clock
        return await anyio.to_thread.run_sync(hub.create_view, spec, body.seats)

    @app.get("/games/{game_id}", responses=_errors(404, 422, 429))
    async def game(game_id: str, wait: float = Query(0, ge=0, le=30, description=(
            "seconds to wait for the bots playing on in the background to be done "
            "(a person to move, or the game over)"))) -> dict[str, Any]:
        deadline = anyio.current_time() + wait
        while wait and hub.bots_moving(game_id) and anyio.current_time() < deadline:
            await anyio.sleep(0.05)
        return await anyio.to_thread.run_sync(hub.public, game_id)

    @app.post("/games/{game_id}/seats/{seat}/join", responses=_errors(404, 409, 422, 429))
    def join(game_id: str, seat: int) -> dict[str, Any]:
        return {"game_id": game_id, "seat": seat, "token": hub.join(game_id, seat)}

    @app.post("/games/{game_id}/seats/{seat}/reset", responses=_errors(403, 404, 409, 422, 429))
    def reset(game_id: str, seat: int, token: str | None = Depends(_token)) -> dict[str, Any]:
        """Free a human seat (the game's owner token, from ``POST /games``): its token
        stops working, and the seat can be joined again with a new one."""
        hub.reset_seat(game_id, token, seat)
        return {"game_id": game_id, "seat": seat, "free": True}

    @app.get("/games/{game_id}/view", responses=_errors(403, 404, 429))
    def view(game_id: str, token: str | None = Depends(_token)) -> dict[str, Any]:
        return hub.view(game_id, token)

    @app.get("/games/{game_id}/legal", responses=_errors(403, 404, 429))
    def legal_actions(game_id: str, token: str | None = Depends(_token)) -> dict[str, Any]:
        v = hub.view(game_id, token)
        return {"game_id": game_id, "seat": v["seat"], "move": v["move"], "to_move": v["to_move"],
                "legal": v["legal"]}

    @app.post("/games/{game_id}/actions", responses=_errors(400, 403, 404, 409, 413, 422, 429))
    def act(game_id: str, body: Act, token: str | None = Depends(_token)) -> dict[str, Any]:
        return hub.act(game_id, token, body.action, body.move)

    @app.get("/games/{game_id}/history", responses=_errors(404, 409, 429))
    def history(game_id: str) -> dict[str, Any]:
        return hub.history(game_id)

    # -------------------------------------------------------------- analysis
    # Searches (solve, review, contract) wait in the solver's queue (searches.py):
    # one at a time, at most ``limits.analysis_queue`` waiting or running (of them,
    # ``limits.analysis_per_client`` one client's), dropped when their client hangs
    # up.  Legal actions and perft (depth 4 at most) are cheap and skip that queue.
    async def quick(fn: Any, item: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = await anyio.to_thread.run_sync(answer_of(fn), item)
        return out

    async def queued(fn: Any, request: Request, most: float | None) -> dict[str, Any]:
        out: dict[str, Any] = await searches.run(fn, request, most)
        return out

    @app.post("/analysis/legal", responses=_errors(400, 413, 422, 429), openapi_extra=_POSITION)
    async def legal(body: dict[str, Any] = _POSITION_BODY) -> dict[str, Any]:
        return await quick(legal_answer, body)

    @app.post("/analysis/perft", responses=_errors(400, 413, 422, 429), openapi_extra=_POSITION)
    async def perft(body: dict[str, Any] = _POSITION_BODY, depth: int = Query(2, ge=1, le=4)) -> dict[str, Any]:
        return await quick(perft_answer(depth), body)

    @app.post("/analysis/solve", responses=_errors(400, 413, 422, 429), openapi_extra=_POSITION)
    async def solve(request: Request, body: dict[str, Any] = _POSITION_BODY, budget: int = Query(
            min(2_000_000, limits.solve_budget), ge=1, le=limits.solve_budget,
            description=f"node budget; past it, or past {SOLVE_SECONDS:g} s: 422 with the bounds proven")
            ) -> dict[str, Any]:
        def work(stop: StopSignal) -> dict[str, Any]:
            solver = Solver(node_budget=budget, time_budget=SOLVE_SECONDS)
            stop.when_set(solver.stop)     # a client that hangs up stops its solve
            return answer_of(solve_answer(budget, SOLVE_SECONDS, solver=solver))(body)
        return await queued(work, request, SOLVE_SECONDS)

    @app.post("/analysis/review", responses=_errors(400, 413, 422, 429))
    async def review(request: Request, body: dict[str, Any] = Body(
            ..., description="a hand (rook-hand/1), a game (rook-game/1) or a finished game's history"),
            budget: int = Query(min(200_000, limits.solve_budget), ge=1, le=limits.solve_budget,
                                description="node budget per search; past it a card's cost is a lower bound")
            ) -> dict[str, Any]:
        """The double-dummy review of each played hand (``rook analyse``): every card's cost
        against the best, the mistakes by seat.  At most 8 played hands a request, all
        within 10 s (past them: 422 with the hands reviewed whole)."""
        def work(stop: StopSignal) -> dict[str, Any]:
            return answer_of(lambda obj: review_document(obj, budget, stop, REVIEW_HANDS))(body)
        return await queued(work, request, 2 * REVIEW_SECONDS)

    @app.get("/games/{game_id}/hands/{hand}/review", responses=_errors(400, 403, 404, 409, 422, 429))
    async def hand_review(request: Request, game_id: str,
                          hand: int = FastPath(..., ge=1, description="the hand's number, from 1"),
                          budget: int = Query(min(200_000, limits.solve_budget), ge=1, le=limits.solve_budget,
                                              description="node budget per search; past it a card's cost is a "
                                                          "lower bound"),
                          token: str | None = Depends(_token)) -> dict[str, Any]:
        """The double-dummy review of a finished hand of this game, for a seat of it
        (``rook analyse``'s review: each card's cost against the best, the mistakes by
        seat), without the declarer's discards, within 10 s.  409 while the hand is played."""
        state = await anyio.to_thread.run_sync(hub.finished_hand, game_id, token, hand)

        def work(stop: StopSignal) -> dict[str, Any]:
            return {"game_id": game_id, "hand": hand, **review_hands([state], budget, stop)[0]}
        return await queued(work, request, 2 * REVIEW_SECONDS)

    @app.post("/analysis/contract", responses=_errors(400, 413, 422, 429))
    async def contract(request: Request, body: ToonervilleHand) -> dict[str, Any]:
        item = body.model_dump(exclude_none=True)
        return await queued(lambda stop: answer_of(contract_answer)(item), request, None)

    # ------------------------------------------------------------------ jobs
    @app.post("/jobs", status_code=202, responses=_errors(400, 413, 422, 429))
    def new_job(body: SimJob, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else ""
        return jobs.status(jobs.submit(body.model_dump(exclude_none=True), client))

    def _job(job_id: str) -> str:
        try:
            jobs.status(job_id)
        except KeyError:
            raise NotFound(f"no job {job_id[:64]!r}: unknown, or deleted (a job is kept "
                           f"{limits.keep_jobs_hours:g} h after it ended, less once the jobs' files pass "
                           f"their disk bound)") from None
        return job_id

    @app.get("/jobs/{job_id}", responses=_errors(404, 429))
    def job(job_id: str) -> dict[str, Any]:
        return jobs.status(_job(job_id))

    @app.get("/jobs/{job_id}/result", responses=_errors(400, 404, 422, 429))
    def job_result(job_id: str, format: Literal["npz", "csv", "parquet"] = "npz") -> StreamingResponse:
        path = jobs.result_file(_job(job_id), "." + format)
        try:
            # opened here: a result that the disk bound deletes from now on
            # still downloads whole, and one deleted since the check is a 404
            f = open(path, "rb")
        except FileNotFoundError:
            raise NotFound(f"no job {job_id[:64]!r}: its results were deleted (the jobs' files passed "
                           f"their disk bound)") from None
        size = os.fstat(f.fileno()).st_size

        def chunks() -> Iterator[bytes]:
            with f:
                while block := f.read(1 << 20):
                    yield block
        return StreamingResponse(chunks(), media_type="application/octet-stream", headers={
            "content-disposition": f'attachment; filename="rook-{job_id}.{format}"',
            "content-length": str(size)})

    if max_body:
        app.add_middleware(_BodyLimit, limit=max_body)
    if limits.requests_per_second:
        app.add_middleware(_ClientLimit, rate=RateLimit(limits.requests_per_second * 60, limits.requests_burst))
    for route in app.routes:               # every route documented (ROUTE_DOCS), in the OpenAPI document too
        if isinstance(route, APIRoute) and route.include_in_schema:
            summary, description = ROUTE_DOCS[(sorted(route.methods or ())[0], route.path)]
            route.summary = summary
            route.description = route.description or description
    return app


def _offline_docs(app: FastAPI) -> None:
    """``/docs``, the API reader, from files served here (the swagger-ui-bundle
    package of the serve extra), so that it works with no network; without
    that package, a page that points at ``/openapi.json``."""
    from fastapi.openapi.docs import get_swagger_ui_html
    try:
        from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]
    except ImportError:
        swagger_ui_path = None
    if swagger_ui_path is not None:
        app.mount("/docs/assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> HTMLResponse:
        if swagger_ui_path is None:
            return HTMLResponse("<!doctype html><title>rook_core API</title><p>The API document is "
                                "<a href='/openapi.json'>/openapi.json</a> (install the serve extra for its "
                                "reader).</p>")
        return get_swagger_ui_html(openapi_url="/openapi.json", title="rook_core API",
                                   swagger_js_url="/docs/assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs/assets/swagger-ui.css",
                                   swagger_favicon_url="/docs/assets/favicon-32x32.png")


# The summary and description of each route in the OpenAPI document (``/docs``);
# a route's own docstring, where it has one, says more and is kept.
ROUTE_DOCS: dict[tuple[str, str], tuple[str, str]] = {
    ("GET", "/health"): ("Is the server up", "The server's version and how many games it holds in memory; "
                         "answered on the event loop, never queued."),
    ("POST", "/games"): ("Create a game", "A preset or toonerville, with its seats (human or bot:random / "
                         "bot:heuristic); without a seed the deal is secret, with a commitment shown at once. "
                         "The answer holds the game's id and its owner token."),
    ("GET", "/games/{game_id}"): ("A game's public state", "Its seats, move number, whose move, the deal's "
                                  "commitment and, once over, the result; ?wait=S waits for the bots."),
    ("POST", "/games/{game_id}/seats/{seat}/join"): ("Take a human seat", "Returns the seat's secret token, "
                                                     "which shows that seat's cards only."),
    ("POST", "/games/{game_id}/seats/{seat}/reset"): ("Free a human seat", "The game's owner frees a seat "
                                                      "whose token was lost; it can then be joined again."),
    ("GET", "/games/{game_id}/view"): ("A seat's view", "The token's seat: its observation (docs/FORMATS.md), "
                                       "its legal actions when it is to move, the move number."),
    ("GET", "/games/{game_id}/legal"): ("A seat's legal actions", "The token's seat's legal actions and the "
                                        "move number they are for."),
    ("POST", "/games/{game_id}/actions"): ("Act", "Play an action as move number `move` for the token's seat; "
                                           "a retry of an answered move is answered again, a stale one gets "
                                           "409, a refused one 422 and changes nothing."),
    ("GET", "/games/{game_id}/history"): ("A finished game's history", "Every action with its seat, the seed "
                                          "and its salt, once the game is over (409 before)."),
    ("POST", "/analysis/legal"): ("Legal cards of a position", "A trick-play position of docs/FORMATS.md, "
                                  "any of its fields, read as rook legal reads it: the legal cards of the "
                                  "seat to move."),
    ("POST", "/analysis/perft"): ("Perft of a position", "The number of card sequences ?depth= cards deep "
                                  "(at most 4) from a docs/FORMATS.md position, read as rook perft reads it."),
    ("POST", "/analysis/solve"): ("Solve a position double dummy", "A docs/FORMATS.md position, read as rook "
                                  "solve reads it: the value, every legal card's value and the best cards; in "
                                  "the solver's queue, within ?budget= nodes and 10 s (past them: 422 with the "
                                  "bounds proven)."),
    ("POST", "/analysis/review"): ("Review played hands", "rook analyse's review of a hand, a game or a "
                                   "finished game's history; in the solver's queue, within 10 s."),
    ("GET", "/games/{game_id}/hands/{hand}/review"): ("Review a finished hand of this game",
                                                      "rook analyse's review of one finished hand."),
    ("POST", "/analysis/contract"): ("Toonerville: meet a contract", "Whether a hand meets a round's contract, "
                                     "its least deadwood and a best lay-down by card names."),
    ("POST", "/jobs"): ("Start a simulation job", "Hands or games between random or heuristic bots, in the "
                        "background; poll GET /jobs/ID."),
    ("GET", "/jobs/{job_id}"): ("A job's progress", "Its state, how much is done, and the summary once done."),
    ("GET", "/jobs/{job_id}/result"): ("A job's result file", "The columns of a finished job, as "
                                       "?format=parquet, csv or npz."),
}
