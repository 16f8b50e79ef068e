"""The limits of ``rook serve``: how much work one request or one client may cause.

:class:`Limits` gathers every bound the server keeps (docs/SERVICE.md lists
them with their defaults; ``rook serve`` takes each as a flag).
:class:`RateLimit` is a token bucket per client: ``burst`` requests at once,
then ``per_minute`` a minute.  :class:`Busy` is the refusal of a request the
server cannot take now (HTTP 429), with the seconds after which to try again.

>>> r = RateLimit(per_minute=60, burst=2, clock=lambda: 0.0)
>>> r.take("a"), r.take("a"), r.take("b")
(0.0, 0.0, 0.0)
>>> r.take("a")                   # the third at once: wait a second for the next token
1.0
"""

from __future__ import annotations

import argparse
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import RookError

__all__ = ["Busy", "Limits", "RateLimit", "retry_seconds"]


def retry_seconds(wait: float) -> int:
    """The whole seconds of a ``Retry-After`` header for a wait of ``wait`` seconds (1 at least)."""
    return max(1, math.ceil(wait))


class Busy(RookError):
    """The server cannot take this request now: try again after ``retry_after`` seconds (HTTP 429)."""

    def __init__(self, message: str, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_seconds(retry_after)


def _limit(default: float, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Limits:
    """Every bound of the server; ``rook serve`` takes each as a flag (``--bot-slice``, ...)."""

    requests_per_second: float = _limit(100.0, "requests one client (IP address) may make a second after its "
                                               "burst; past it, 429 (0: no limit)")
    requests_burst: int = _limit(400, "requests one client may make at once")
    bot_slice: int = _limit(100, "bot actions played inside one request; the rest play on in the "
                                 "background, a slice at a time")
    bot_queue: int = _limit(64, "games whose bots play on in the background at once; past it, a new "
                                "table of bots alone gets 429")
    games_per_minute: float = _limit(60.0, "new games one client (IP address) may create a minute after "
                                            "its burst (0: no limit)")
    games_burst: int = _limit(20, "new games one client may create at once")
    analysis_queue: int = _limit(4, "solves and contract searches waiting or running at once; past it, 429")
    analysis_per_client: int = _limit(2, "solves, reviews and contract searches one client (IP address) may "
                                         "have waiting or running at once; past it, 429")
    solve_budget: int = _limit(5_000_000, "the largest node budget a solve request may ask for")
    keep_games_days: float = _limit(30.0, "days a game is kept from its creation; then it and its log are "
                                          "deleted")
    keep_jobs_hours: float = _limit(24.0, "hours a simulation job's results are kept after it ended")
    read_timeout: float = _limit(10.0, "seconds a request may take to arrive whole (headers and body); "
                                       "a slower one is cut off")
    idle_timeout: int = _limit(5, "seconds an idle kept-alive connection stays open")
    connections: int = _limit(1000, "connections open at once; past it, 503")
    connections_per_client: int = _limit(64, "connections one client (IP address) may hold open at once; "
                                             "past it, a new one is closed")

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        """Give ``parser`` a flag for each limit (``--bot-slice``, ...), its default shown."""
        for f in fields(cls):
            parser.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default,
                                help=f.metadata["help"] + " (default %(default)s)")

    @classmethod
    def from_arguments(cls, args: argparse.Namespace) -> Limits:
        """The limits that :meth:`add_arguments`' flags were given.

        :raises RookError: naming a limit out of range.
        """
        return cls(**{f.name: getattr(args, f.name) for f in fields(cls)})

    def __post_init__(self) -> None:
        for name in ("requests_burst", "bot_slice", "bot_queue", "games_burst", "analysis_queue",
                     "analysis_per_client", "solve_budget",
                     "idle_timeout", "connections", "connections_per_client"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 2**62:
                raise RookError(f"the limit {name} must be an int in 1 .. 2**62, not {value!r}")
        for name in ("requests_per_second", "games_per_minute"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1e9:
                raise RookError(f"the limit {name} must be a number in 0 .. 1e9, not {value!r}")
        for name in ("read_timeout", "keep_games_days", "keep_jobs_hours"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1e9:
                raise RookError(f"the limit {name} must be a number in (0, 1e9], not {value!r}")


class RateLimit:
    """A token bucket per client key: ``burst`` at once, refilled at ``per_minute``
    (0: no limit).  It remembers at most ``keys`` clients, the least recent dropped
    first (a dropped client starts again with a full bucket)."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 keys: int = 65_536) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()   # key -> (tokens, when)
        self._lock = threading.Lock()

    def charge(self, key: str, tokens: float) -> None:
        """Take ``tokens`` more from ``key``'s bucket for work its request did
        beyond the request itself; the bucket may go below zero, and the client
        then waits until it refills past one."""
        if self.rate <= 0 or tokens <= 0:
            return
        now = self.clock()
        with self._lock:
            have, when = self._buckets.pop(key, (self.burst, now))
            self._buckets[key] = (min(self.burst, have + (now - when) * self.rate) - tokens, now)
            while len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)

    def take(self, key: str) -> float:
        """Take one token for ``key``: return 0.0 when it was there, else the
        seconds until the next one (nothing is taken then)."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        with self._lock:
            tokens, when = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - when) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[key] = (tokens - 1 if tokens >= 1 else tokens, now)
            while len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
            return wait
