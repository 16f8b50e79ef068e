"""The solver's queue of ``rook serve``: searches one at a time, bounded in number
and in time, and dropped when their client hangs up.

:class:`SearchQueue` runs the searches (solves, reviews, contracts) on a thread
of their own, one at a time, so that long searches wait for each other and
never hold the threads the games need; at most ``size`` wait or run, at most
``per_client`` of them one client's (its address), and the next is refused
with :class:`~.limits.Busy` (429) whose ``retry_after`` is the time the
running search is expected to take yet.  While a search waits or
runs, its request is watched: once its client has hung up, a search that
has not begun is skipped, a solve under way is stopped within a thousand
nodes (:meth:`Solver.stop <rook_core.solver.Solver.stop>`, through
:meth:`StopSignal.when_set`), and a review under way stops after the card
it is on (:class:`Abandoned`).

:func:`review_hands` is ``rook analyse``'s review (:func:`~rook_core.review.review_hand`)
within a time bound for the whole request, :data:`REVIEW_SECONDS`.

>>> q = SearchQueue(2, clock=lambda: 0.0)
>>> q.retry_after()            # nothing ran yet: a second
1.0
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RookError, missing_extra
from ..solver import SearchStopped
from .limits import Busy, retry_seconds

try:
    import anyio
    from starlette.requests import Request
except ModuleNotFoundError as e:
    raise missing_extra("rook_core.service.searches", "serve", e) from e

if TYPE_CHECKING:
    from ..hand import HandState

__all__ = ["Abandoned", "ReviewTimeOut", "SearchQueue", "StopSignal", "REVIEW_SECONDS", "SOLVE_SECONDS",
           "answer_of", "review_document", "review_hands"]

SOLVE_SECONDS = 10.0        # a solve's time budget
REVIEW_SECONDS = 10.0       # a review request's time bound, all its hands together
WATCH_EVERY = 0.2           # seconds between looks at whether a search's client is still there


class Abandoned(Exception):
    """The client of a search hung up: the search was skipped, or stopped."""


class StopSignal(threading.Event):
    """Set once a search's client has hung up.  Each function given to
    :meth:`when_set` is called when it is set, and again at each later look
    while the search runs: a solver forgets a stop asked before its search
    began, so a stop is asked until the search returns."""

    def __init__(self) -> None:
        super().__init__()
        self._calls: list[Callable[[], object]] = []
        self._lock = threading.Lock()

    def when_set(self, fn: Callable[[], object]) -> None:
        """Call ``fn`` once the signal is set (at once if it already is)."""
        with self._lock:
            self._calls.append(fn)
        if self.is_set():
            fn()

    def fire(self) -> None:
        """Set the signal and call every function given to :meth:`when_set`."""
        self.set()
        with self._lock:
            calls = list(self._calls)
        for fn in calls:
            fn()


class ReviewTimeOut(RookError):
    """A review request ran past :data:`REVIEW_SECONDS`: ``hands`` holds the
    reviews of the hands it finished before (HTTP 422)."""

    def __init__(self, message: str, hands: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.hands = hands


class _Late(Exception):
    def __init__(self, done: int, total: int) -> None:
        super().__init__(done, total)
        self.done, self.total = done, total


class SearchQueue:
    """Searches one at a time, at most ``size`` waiting or running at once, at most
    ``per_client`` of them (None: ``size``) from one client's address."""

    def __init__(self, size: int, clock: Callable[[], float] = time.monotonic, per_client: int | None = None) -> None:
        self.size = size
        self.per_client = size if per_client is None else per_client
        self._by_client: Counter[str] = Counter()     # searches waiting or running, by client (event loop only)
        self.clock = clock
        self.waiting = 0            # searches waiting or running (changed on the event loop only)
        self.abandoned = 0          # searches skipped or stopped because their client hung up
        self._typical: float | None = None                 # the recent searches' length (seconds)
        self._running: tuple[float, float | None] | None = None   # (its start, the most it may take)
        self._lock = threading.Lock()
        self._limiter = anyio.CapacityLimiter(1)

    def retry_after(self) -> float:
        """The seconds until a place in the queue is expected to free up: when the
        running search ends.  That is the recent searches' length less the time
        it has run, never past the most it may take; once it has run longer than
        the recent ones, the time it may still take."""
        with self._lock:
            running, typical = self._running, self._typical
        typical = 1.0 if typical is None else typical
        if running is None:
            return typical
        start, most = running
        elapsed = self.clock() - start
        left = typical - elapsed
        if most is not None:
            most_left = max(0.0, most - elapsed)
            left = most_left if left <= 0 else min(left, most_left)
        return max(0.0, left)

    async def run(self, fn: Callable[[StopSignal], Any], request: Request | None = None,
                  most: float | None = None) -> Any:
        """``fn(stop)`` on the search thread once its turn comes; ``stop`` (a
        :class:`StopSignal`) is set when ``request``'s client hangs up.  ``most`` is the most ``fn`` may take
        (seconds; None: unknown), for :meth:`retry_after`.

        :raises Busy: the queue is full, or holds ``per_client`` searches of this client.
        :raises Abandoned: the client hung up.
        """
        client = request.client.host if request is not None and request.client else ""
        if self.waiting >= self.size or self._by_client[client] >= self.per_client:
            wait = self.retry_after()
            held = (f"{self.waiting} searches are waiting or running" if self.waiting >= self.size else
                    f"this client has {self._by_client[client]} searches waiting or running, the most one "
                    "client may have")
            raise Busy(f"{held}; try again in about {retry_seconds(wait)} s", wait)
        self.waiting += 1
        self._by_client[client] += 1
        stop = StopSignal()
        error: Exception | None = None
        value: Any = None
        try:
            async with anyio.create_task_group() as tg:
                if request is not None:
                    tg.start_soon(_watch, request, stop)
                try:
                    value = await anyio.to_thread.run_sync(self._timed, fn, stop, most, limiter=self._limiter)
                except Exception as e:   # noqa: BLE001 - raised below, outside the task group
                    error = e
                finally:
                    tg.cancel_scope.cancel()
        finally:
            self.waiting -= 1
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]
        if error is not None:
            raise error
        return value

    def _timed(self, fn: Callable[[StopSignal], Any], stop: StopSignal, most: float | None) -> Any:
        if stop.is_set():
            with self._lock:
                self.abandoned += 1
            raise Abandoned("the client hung up before its search began")
        start = self.clock()
        with self._lock:
            self._running = (start, most)
        finished = False
        try:
            out = fn(stop)
            finished = True
            return out
        except Abandoned:
            with self._lock:
                self.abandoned += 1
            raise
        except SearchStopped:
            if not stop.is_set():
                raise
            with self._lock:
                self.abandoned += 1
            raise Abandoned("the client hung up during its search") from None
        except RookError:
            finished = True                  # a refusal or a budget: a search's length all the same
            raise
        finally:
            took = self.clock() - start
            with self._lock:
                self._running = None
                if finished:
                    self._typical = took if self._typical is None else 0.75 * self._typical + 0.25 * took


async def _watch(request: Request, stop: StopSignal) -> None:
    """Fire ``stop`` once ``request``'s client has hung up, and at each look
    after that until the search returns (this task is then cancelled)."""
    while True:
        await anyio.sleep(WATCH_EVERY)
        if stop.is_set() or await request.is_disconnected():
            stop.fire()


def review_hands(hands: list[HandState], budget: int, stop: threading.Event | None = None,
                 seconds: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> list[dict[str, Any]]:
    """The review of each of ``hands`` (``rook analyse``), each search within
    ``budget`` nodes, all of them within ``seconds`` (None: :data:`REVIEW_SECONDS`): each search also within a
    third of the time left when its hand's review began (a search cut short by
    either gives bounds, ``exact`` false), and past the ``seconds`` the review
    stops after the card under way.

    :raises ReviewTimeOut: past ``seconds``, with the hands reviewed whole.
    :raises Abandoned: ``stop`` was set (checked after each card).
    """
    from ..review import review_hand
    seconds = REVIEW_SECONDS if seconds is None else seconds
    deadline = clock() + seconds
    out: list[dict[str, Any]] = []

    def progress(done: int, total: int) -> None:
        if stop is not None and stop.is_set():
            raise Abandoned("the client hung up during its review")
        if done < total and clock() >= deadline:
            raise _Late(done, total)

    for i, h in enumerate(hands):
        left = deadline - clock()
        try:
            if left <= 0:
                raise _Late(0, 0)
            out.append(review_hand(h, node_budget=budget, time_budget=left / 3, progress=progress).to_json())
        except _Late as late:
            where = f" after card {late.done} of {late.total}" if late.total else ""
            raise ReviewTimeOut(
                f"the review's time bound of {seconds:g} s ran out in hand {i + 1} of {len(hands)}{where}; "
                f"ask for fewer hands or a smaller ?budget= (the hands reviewed whole are in 'hands')",
                out) from None
    return out


def review_document(obj: Any, budget: int, stop: threading.Event | None = None,
                    max_hands: int = 0) -> dict[str, Any]:
    """The review of each played hand of a hand, game or service-history document
    (``rook analyse``), by :func:`review_hands`; with ``max_hands``, a document of
    more played hands than that is refused before any search."""
    from ..review import played_hands
    hands = played_hands(obj)
    if max_hands and len(hands) > max_hands:
        raise RookError(f"the document has {len(hands)} played hands; a review takes at most {max_hands}")
    return {"hands": review_hands(hands, budget, stop)}


def answer_of(fn: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """``fn``'s answer to a request's object, as ``rook legal``, ``rook solve``, ...
    answer a line (:func:`rook_core.jsonio.run_jsonl`): the request's ``id`` first,
    and what the library fails with on input it did not expect (a ValueError,
    TypeError, ...) a :class:`~rook_core.jsonio.InternalError` (400), as the
    command line answers it, not a server error."""
    from ..jsonio import answered, echo_id

    def answer(obj: Any) -> dict[str, Any]:
        return {**echo_id(obj), **answered(fn, obj)}
    return answer
