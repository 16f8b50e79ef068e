"""Running a run's units in chunks, in order, on an executor or in this thread.

:func:`run_chunks` splits units ``0 .. n-1`` into chunks of ``chunk``,
runs ``work(first, count)`` for each (``work`` must pickle when the
executor is a process pool: a module-level function or a
``functools.partial`` of one), collects the results in chunk order, reports
``progress(done, n)`` as each chunk finishes (in this thread one chunk
after another, so a run of one worker reports as it goes), and shuts down a
pool it was told it owns.  Results therefore never depend on how many
workers ran them.

A chunk that fails, an executor that refuses the work and a ``progress``
that raises all stop the run with a :class:`~rook_core.errors.RookError`
that says which units and why (of several failed chunks, the first in
order); the chunks not yet begun are cancelled.  So does a ``held`` check
that refuses the memory the results collected so far take (a run whose
size is not known before it ends: games that may last many hands).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from ..errors import RookError, int_arg

__all__ = ["MOST_WORKERS", "Inline", "check_executor", "check_pickles", "check_workers", "process_pool",
           "run_chunks"]

T = TypeVar("T")


class Inline:
    """A stand-in for an executor: ``submit`` runs the call at once, in this thread."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        f: Future[Any] = Future()
        f.set_result(fn(*args))
        return f

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Nothing to stop."""



MOST_WORKERS = 256     # the most workers of a run (threads or processes of this machine); the CLI's too


def check_workers(workers: object) -> int:
    """Return ``workers`` as an int 1 .. :data:`MOST_WORKERS` (a NumPy int too).

    :raises RookError: for anything else, naming it.
    """
    return int_arg(workers, f"workers must be an int 1 .. {MOST_WORKERS}", 1, MOST_WORKERS)


def check_executor(executor: object) -> None:
    """Refuse an ``executor`` that is neither None nor something with ``submit``.

    :raises RookError: naming it.
    """
    if executor is not None and (isinstance(executor, type) or not callable(getattr(executor, "submit", None))):
        raise RookError(f"executor must be a concurrent.futures.Executor (such as a ProcessPoolExecutor "
                        f"or distributed.Client(...).get_executor()) or None, not {executor!r}")


def check_pickles(items: dict[str, Any]) -> None:
    """Refuse, before any work, what cannot travel to a pool's processes.

    :raises RookError: naming the first of ``items`` (label: object) that does not pickle.
    """
    for label, x in items.items():
        try:
            pickle.dumps(x)
        except Exception as e:  # noqa: BLE001 - pickling raises many kinds of errors
            raise RookError(f"{label} cannot go to a pool's processes, it does not pickle ({e}); use a "
                            "module-level function, not a lambda or a local function, or run in "
                            "this process (workers=1)") from None


def process_pool(workers: int, executor: Executor | None, chunks: int = 2) -> tuple[Executor | Inline, bool]:
    """Return where a run's chunks go, and whether the run owns that pool
    (and so must shut it down): ``executor`` when given, else this thread
    for one worker or one chunk, else a new pool of ``workers`` processes
    (no more than there are ``chunks``)."""
    if executor is not None:
        return executor, False
    if workers == 1 or chunks <= 1:
        return Inline(), False
    return ProcessPoolExecutor(min(workers, chunks)), True


def chunk_count(n: int, chunk: int) -> int:
    """The number of chunks of ``chunk`` units in a run of ``n``."""
    return -(-n // chunk)


def _failed(first: int, count: int, e: Exception) -> RookError:
    """The error of a chunk that raised something other than a RookError: names its units and the cause."""
    return RookError(f"units {first} .. {first + count - 1} failed: {type(e).__name__}: {e}")


def _report(progress: Callable[[int, int], None] | None, done: int, n: int) -> None:
    if progress is None:
        return
    try:
        progress(done, n)
    except Exception as e:  # noqa: BLE001 - a caller's function may raise anything
        raise RookError(f"progress({done}, {n}) raised {type(e).__name__}: {e}") from e


def run_chunks(work: Callable[[int, int], T], n: int, chunk: int, pool: Executor | Inline, own: bool,
               progress: Callable[[int, int], None] | None,
               held: tuple[Callable[[T], int], Callable[[int], None]] | None = None) -> list[T]:
    """Return ``work(first, count)`` for every chunk of units ``0 .. n-1``, in order.

    ``held``: (``weigh``, ``check``): ``weigh(part)`` is the memory a chunk's
    result takes, and ``check(total)``, called with the total of the results
    collected so far as each one comes, raises to stop the run.

    :raises RookError: for a chunk that failed (naming its units), an
        executor that refused the work, a ``progress`` that raised, or the
        ``check`` of ``held``.
    """
    starts = list(range(0, n, chunk))
    sizes = [min(chunk, n - s) for s in starts]
    parts: list[Any] = [None] * len(starts)
    done = 0
    total = 0

    def keep(i: int, part: T) -> None:
        nonlocal total
        parts[i] = part
        if held is not None:
            total += held[0](part)
            held[1](total)
    futures: dict[Future[Any], int] = {}
    try:
        if isinstance(pool, Inline):
            for i, s in enumerate(starts):
                try:
                    part = work(s, sizes[i])
                except RookError:
                    raise
                except Exception as e:  # noqa: BLE001 - named and re-raised
                    raise _failed(s, sizes[i], e) from e
                keep(i, part)
                done += sizes[i]
                _report(progress, done, n)
            return parts
        for i, s in enumerate(starts):
            try:
                f = pool.submit(work, s, sizes[i])
            except Exception as e:  # noqa: BLE001 - a shut-down or broken executor
                raise RookError(f"the executor refused units {s} .. {s + sizes[i] - 1}: "
                                f"{type(e).__name__}: {e}") from e
            if not isinstance(f, Future):
                raise RookError(f"the executor's submit gave {f!r}, not a concurrent.futures.Future: "
                                f"{type(pool).__name__} is not a concurrent.futures.Executor")
            futures[f] = i
        failed: dict[int, Exception] = {}       # the first chunk to fail, in chunk order, is the one reported
        for f in as_completed(futures):
            i = futures[f]
            if failed and i > min(failed):
                continue
            try:
                part = f.result()
            except Exception as e:  # noqa: BLE001 - named and re-raised below (a cancelled future too)
                failed[i] = e
                for g, j in futures.items():
                    if j > i:
                        g.cancel()
                continue
            keep(i, part)
            done += sizes[i]
            _report(progress, done, n)
        if failed:
            i = min(failed)
            if isinstance(failed[i], RookError):
                raise failed[i]
            raise _failed(starts[i], sizes[i], failed[i]) from failed[i]
        return parts
    finally:
        if done < n:
            for f in futures:
                f.cancel()
        if own:
            pool.shutdown(cancel_futures=True)
