"""Running a run's units in chunks, in order, on an executor or in this thread.

:func:`run_chunks` splits units ``0 .. n-1`` into chunks of ``chunk``,
submits ``work(first, count)`` for each (``work`` must pickle when the
executor is a process pool: a module-level function or a
``functools.partial`` of one), collects the results in chunk order, reports
``progress(done, n)`` as chunks finish, and shuts down a pool it was told
it owns.  Results therefore never depend on how many workers ran them.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

__all__ = ["Inline", "process_pool", "run_chunks"]

T = TypeVar("T")


class Inline:
    """A stand-in for an executor: ``submit`` runs the call at once, in this thread."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        f: Future[Any] = Future()
        f.set_result(fn(*args))
        return f

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Nothing to stop."""


def process_pool(workers: int, executor: Executor | None) -> tuple[Executor | Inline, bool]:
    """Return where a run's chunks go, and whether the run owns that pool
    (and so must shut it down): ``executor`` when given, else this thread
    for one worker, else a new pool of ``workers`` processes."""
    if executor is not None:
        return executor, False
    if workers == 1:
        return Inline(), False
    return ProcessPoolExecutor(workers), True


def run_chunks(work: Callable[[int, int], T], n: int, chunk: int, pool: Executor | Inline, own: bool,
               progress: Callable[[int, int], None] | None) -> list[T]:
    """Return ``work(first, count)`` for every chunk of units ``0 .. n-1``, in order."""
    starts = list(range(0, n, chunk))
    parts: list[T] = []
    done = 0
    try:
        futures = [pool.submit(work, s, min(chunk, n - s)) for s in starts]
        for s, f in zip(starts, futures):
            parts.append(f.result())
            done += min(chunk, n - s)
            if progress:
                progress(done, n)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return parts
