"""Simulation jobs of the service: run in the background, polled, downloaded.

A job is one :func:`~rook_core.sim.simulate.simulate` (trick-taking presets) or
:func:`~rook_core.sim.toonerville.simulate_toonerville` run in a worker
process, so that it never holds the server's interpreter; its progress, the
count of hands or games done, comes back through a small file.  When it
ends its columns are written to ``DIR/JOB.npz``, ``.csv`` and (with pyarrow)
``.parquet``; a job that fails keeps its error message.

Each job's record is kept in ``DIR/JOB.json``, so a job outlives a restart:
a finished one can still be polled and downloaded, and one that was queued
or running when the server stopped is marked failed, its partial files
removed.  The worker process dies with the server.  Finished jobs and their
files are deleted ``keep_hours`` after they ended (:meth:`Jobs.sweep`).

Two bounds keep one client from taking the queue or the disk: a client (an IP
address, as the service's other per-client limits) may have ``per_client``
jobs queued or running (the server :data:`MAX_WAITING`), and the files of the
finished jobs may take ``max_bytes`` of disk in all.  Past that, finished jobs
are deleted before their time, records and files: the oldest of the client
whose finished jobs take the most disk first, so that the client that fills
the disk loses its own results before anyone else does (:meth:`Jobs.evict`).
The job that ended last is never deleted that way, so the disk holds at most
``max_bytes`` and the one job being written.  The clients take turns at the
workers: a worker that frees up starts the oldest queued job of the client
with the fewest jobs running, the one that started a job longest ago first
among equals, so a client's four queued jobs do not hold back another's one.

>>> import tempfile, time
>>> jobs = Jobs(tempfile.mkdtemp())
>>> j = jobs.submit({"preset": "tournament", "agents": ["random"] * 4, "hands": 20, "seed": 1})
>>> while jobs.status(j)["state"] not in ("done", "failed"): time.sleep(0.05)
>>> jobs.status(j)["state"], jobs.status(j)["done"]
('done', 20)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..errors import RookError
from ..hosting import BOT_KINDS, GAMES
from ..jsonio import json_safe
from ..rng import check_seed
from .limits import Busy, retry_seconds

__all__ = ["Jobs", "MAX_HANDS", "MAX_GAMES", "MAX_WAITING", "MAX_PER_CLIENT", "MAX_RESULT_BYTES"]


MAX_HANDS = 1_000_000
MAX_GAMES = 2_000
MAX_WAITING = 16            # jobs queued or running at once
MAX_PER_CLIENT = 4          # jobs one client may have queued or running at once
MAX_RESULT_BYTES = 2 << 30  # disk the finished jobs' files may take (a job of 1,000,000 hands: about 0.5 GB)
FORMATS = (".npz", ".csv", ".parquet")
# Every file a job may leave: its record, its progress and its results, with
# the second tables of a run (a games run's games, Toonerville's rounds and games).
_FILES = (".json", ".json.tmp", ".progress", ".progress.tmp") + FORMATS + tuple(
    f".{table}{ext}" for table in ("hands", "games", "rounds") for ext in (".csv", ".parquet"))


class Jobs:
    """Background simulation jobs writing their results under ``directory``."""

    def __init__(self, directory: str, workers: int = 1, keep_hours: float = 24.0,
                 per_client: int = MAX_PER_CLIENT, max_bytes: int = MAX_RESULT_BYTES) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.keep_hours = keep_hours
        self.per_client = per_client
        self.max_bytes = max_bytes
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rook-job")
        # The simulations run in a process of their own: they hold no lock the games need.
        self._processes = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=_die_with, initargs=(os.getpid(),))
        self._jobs: dict[str, dict[str, Any]] = {}
        self._last_start: dict[str, float] = {}    # by client: when it last had a job started
        self._lock = threading.Lock()
        self._recover()
        self.sweep()

    def _recover(self) -> None:
        """Read the records a previous server left: a job it did not finish is failed now."""
        for name in sorted(os.listdir(self.directory)):
            if not name.endswith(".json") or len(name) != 37:
                continue
            job_id = name[:-5]
            try:
                with open(self._path(job_id, ".json"), encoding="utf-8") as f:
                    job = json.load(f)
            except (OSError, ValueError):
                self._remove(job_id)
                continue
            if job.get("state") in ("queued", "running"):
                job.update(state="failed", error="the server stopped while the job ran", ended=time.time())
                self._remove(job_id, keep_record=True)
                self._write_record(job)
            if "bytes" not in job:                     # a record written before jobs counted their disk
                job["bytes"] = self._disk_bytes(job_id, job.get("files", ()))
            self._jobs[job_id] = job
        self.evict()

    def sweep(self) -> list[str]:
        """Delete the jobs (records and files) that ended more than ``keep_hours`` ago,
        and those :meth:`evict` deletes; return their ids."""
        cutoff = time.time() - self.keep_hours * 3600
        with self._lock:               # files go under the lock: a job status calls gone has none left
            old = [j for j, job in self._jobs.items()
                   if job["state"] in ("done", "failed") and job.get("ended", 0) <= cutoff]
            for job_id in old:
                self._remove(job_id, files=self._jobs.pop(job_id).get("files", ()))
            return old + self._evict_locked()

    def evict(self) -> list[str]:
        """Delete finished jobs (records and files) while the jobs' files take more
        than ``max_bytes``: the oldest of the client whose finished jobs take the
        most first, never the job that ended last; return their ids."""
        with self._lock:
            return self._evict_locked()

    def _evict_locked(self) -> list[str]:
        """:meth:`evict`, the lock held: a job that ends and the jobs it pushes out go at once."""
        total = sum(job.get("bytes", 0) for job in self._jobs.values())
        if total <= self.max_bytes:
            return []
        ended = [(job.get("ended", 0), j) for j, job in self._jobs.items() if job["state"] in ("done", "failed")]
        keep = max(ended)[1] if ended else None
        by_client: dict[str, list[tuple[float, str]]] = {}
        kept: dict[str, int] = {}
        for job_id, job in self._jobs.items():
            if job["state"] in ("done", "failed") and job_id != keep:
                client = job.get("client", "")
                by_client.setdefault(client, []).append((job.get("ended", 0), job_id))
                kept[client] = kept.get(client, 0) + job.get("bytes", 0)
        for jobs in by_client.values():
            jobs.sort(reverse=True)                    # the oldest last: popped first
        gone: list[str] = []
        while total > self.max_bytes and kept:
            client = max(kept, key=lambda c: kept[c])
            _, job_id = by_client[client].pop()
            job = self._jobs.pop(job_id)
            gone.append(job_id)
            total -= job.get("bytes", 0)
            kept[client] -= job.get("bytes", 0)
            if not by_client[client]:
                del kept[client]
            self._remove(job_id, files=job.get("files", ()))
        return gone

    def _remove(self, job_id: str, keep_record: bool = False, files: Any = ()) -> None:
        names = {job_id + ext for ext in _FILES} | {f for f in files if isinstance(f, str) and f.startswith(job_id)}
        if keep_record:
            names.discard(job_id + ".json")
        for name in names:
            try:
                os.remove(os.path.join(self.directory, os.path.basename(name)))
            except FileNotFoundError:
                pass

    def _disk_bytes(self, job_id: str, files: Any = ()) -> int:
        """The disk the job's files take (their blocks, where the system tells them)."""
        total = 0
        for name in {job_id + ext for ext in _FILES} | {f for f in files if isinstance(f, str)}:
            try:
                st = os.stat(os.path.join(self.directory, os.path.basename(name)))
            except OSError:
                continue
            total += max(st.st_size, getattr(st, "st_blocks", 0) * 512)
        return total

    def _write_record(self, job: dict[str, Any]) -> None:
        tmp = self._path(job["job_id"], ".json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(job, f)
        os.replace(tmp, self._path(job["job_id"], ".json"))

    @staticmethod
    def check(spec: dict[str, Any]) -> dict[str, Any]:
        """Return ``spec`` checked: preset, agents (random or heuristic, one per
        seat), hands or games within the limits, seed.

        :raises RookError: naming what is wrong.
        """
        if not isinstance(spec, dict):
            raise RookError(f"a job spec is an object with preset, agents, hands or games and seed, "
                            f"not {type(spec).__name__}")
        unknown = sorted(map(str, set(spec) - {"preset", "agents", "hands", "games", "seed"}))
        if unknown:
            raise RookError(f"a job spec has unknown field(s): {', '.join(unknown)[:200]}")
        preset, agents = spec.get("preset"), spec.get("agents")
        if not isinstance(preset, str) or preset not in GAMES:
            raise RookError(f"unknown preset {preset!r}; choose from {', '.join(GAMES)}")
        seats = range(3, 6) if preset == "toonerville" else range(4, 5)
        if not isinstance(agents, list) or len(agents) not in seats or any(a not in BOT_KINDS for a in agents):
            raise RookError(f"agents: {'3 to 5' if preset == 'toonerville' else '4'} of "
                            f"{', '.join(BOT_KINDS)}, not {agents!r}")
        hands, games = spec.get("hands"), spec.get("games")
        if (hands is None) == (games is None):
            raise RookError("give exactly one of 'hands' and 'games'")
        if preset == "toonerville" and hands is not None:
            raise RookError("toonerville simulates whole games: give 'games'")
        for name, n, top in (("hands", hands, MAX_HANDS), ("games", games, MAX_GAMES)):
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= top):
                raise RookError(f"{name} must be an int 1..{top}, not {n!r}")
        check_seed(spec.get("seed", 0))
        return spec

    def submit(self, spec: dict[str, Any], client: str = "") -> str:
        """Start a job for ``client`` (its address); return its id.

        :raises Busy: when :data:`MAX_WAITING` jobs are queued or running, or
            ``per_client`` of this client's; its ``retry_after`` is the time the
            running job is expected to take yet, from its progress.
        """
        spec = self.check(spec)
        job_id = uuid.uuid4().hex
        total = spec.get("hands") or spec.get("games")
        with self._lock:
            active = [j for j in self._jobs.values() if j["state"] in ("queued", "running")]
            mine = sum(j.get("client", "") == client for j in active)
            if len(active) >= MAX_WAITING or mine >= self.per_client:
                wait = self._running_left(active)
                when = f"try again in about {retry_seconds(wait)} s, when one is done"
                if len(active) >= MAX_WAITING:
                    raise Busy(f"{len(active)} jobs are queued or running, the most the server runs; {when}", wait)
                raise Busy(f"this client has {mine} jobs queued or running, the most one client may have; {when}",
                           wait)
            job = self._jobs[job_id] = {"job_id": job_id, "state": "queued", "done": 0, "total": total,
                                        "spec": spec, "error": None, "created": time.time(), "client": client}
            self._write_record(job)
        self._pool.submit(self._run_next)         # one turn a job: it starts whichever job is due
        return job_id

    def _run_next(self) -> None:
        """Start the job that is due (see the module's docstring) and run it."""
        with self._lock:
            queued = [j for j in self._jobs.values() if j["state"] == "queued"]
            if not queued:
                return
            running: dict[str, int] = {}
            for j in self._jobs.values():
                if j["state"] == "running":
                    running[j.get("client", "")] = running.get(j.get("client", ""), 0) + 1

            def due(j: dict[str, Any]) -> tuple[int, float, float]:
                c = j.get("client", "")
                return running.get(c, 0), self._last_start.get(c, 0.0), float(j["created"])
            job = min(queued, key=due)
            waiting = {j.get("client", "") for j in queued} | set(running)
            self._last_start = {c: t for c, t in self._last_start.items() if c in waiting}   # bounded
            self._last_start[job.get("client", "")] = now = time.time()
            job.update(state="running", started=now)
            self._write_record(job)
        self._run(job["job_id"], job["spec"])

    def _running_left(self, active: list[dict[str, Any]]) -> float:
        """The seconds the running job of ``active`` is expected to take yet, at the
        pace of its progress so far (10 s before it has any)."""
        for job in active:
            if job["state"] == "running":
                done = self._progress(job["job_id"])
                elapsed = max(0.0, time.time() - float(job.get("started", time.time())))
                if done:
                    return elapsed * max(0, int(job["total"]) - done) / done
                return 10.0
        return 1.0                               # the next one is about to start

    def _progress(self, job_id: str) -> int:
        try:
            with open(self._path(job_id, ".progress"), encoding="ascii") as f:
                return int(f.read() or 0)
        except (OSError, ValueError):
            return 0

    def _set(self, job_id: str, **changes: Any) -> None:
        """Change the job's record; one that ends pushes out, in the same step, the
        jobs the disk bound has no more room for (:meth:`evict`)."""
        with self._lock:
            job = self._jobs[job_id]
            job.update(changes)
            if job["state"] in ("done", "failed"):
                job.setdefault("ended", time.time())
            self._write_record(job)
            if job["state"] in ("done", "failed"):
                try:
                    self._evict_locked()
                except OSError:                  # the sweep tries again
                    pass

    def _run(self, job_id: str, spec: dict[str, Any]) -> None:
        """Run the job, marked running, in the worker process and wait for it (on a thread
        of the server)."""
        try:
            summary, files = self._processes.submit(_simulate_job, spec, self.directory, job_id).result()
            # the record holds the whole count before the progress file goes (a poll in
            # between read a running job at 0), then says done with the disk it takes
            self._set(job_id, done=spec.get("hands") or spec.get("games"))
            self._remove_progress(job_id)
            self._set(job_id, state="done", summary=summary, files=files, bytes=self._disk_bytes(job_id, files))
        except Exception as e:  # noqa: BLE001 - a job's failure is its answer, never the server's
            self._remove(job_id, keep_record=True)
            self._set(job_id, state="failed", error=f"{type(e).__name__}: {e}", bytes=self._disk_bytes(job_id))

    def _remove_progress(self, job_id: str) -> None:
        for ext in (".progress", ".progress.tmp"):
            try:
                os.remove(self._path(job_id, ext))
            except FileNotFoundError:
                pass

    def _path(self, job_id: str, ext: str) -> str:
        return os.path.join(self.directory, job_id + ext)

    def status(self, job_id: str) -> dict[str, Any]:
        """The job's state (queued, running, done, failed), progress and, when done, summary.

        :raises KeyError: no such job.
        """
        with self._lock:
            job = dict(self._jobs[job_id])
        job.pop("client", None)                  # who asked is the server's to know
        job.pop("files", None)
        if job["state"] == "running":
            job["done"] = max(self._progress(job_id), int(job["done"]))
        return job

    def result_file(self, job_id: str, ext: str) -> str:
        """The path of the job's results as ``ext`` (.npz, .csv, .parquet).

        :raises KeyError: no such job.  :raises RookError: not done, or a bad format.
        """
        state = self.status(job_id)["state"]
        if ext not in FORMATS:
            raise RookError(f"format must be one of {', '.join(f[1:] for f in FORMATS)}, not {ext[1:]!r}")
        if state != "done":
            raise RookError(f"job {job_id} is {state}, not done")
        path = self._path(job_id, ext)
        if not os.path.exists(path):
            raise RookError(f"job {job_id} has no {ext[1:]} results (parquet needs pyarrow)")
        return path

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._processes.shutdown(wait=False, cancel_futures=True)


def _die_with(parent: int) -> None:
    """Tie a worker process to the server ``parent``: on Linux the kernel kills it
    when the server dies; elsewhere (and as a second guard) a thread ends it
    once its parent is gone."""
    import ctypes
    import signal
    import sys
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="rook-job-parent").start()


def _simulate_job(spec: dict[str, Any], directory: str, job_id: str) -> tuple[dict[str, Any], list[str]]:
    """Run one job (in the worker process): its progress goes to ``JOB.progress``,
    its results to ``JOB.npz``, ``.csv`` and (with pyarrow) ``.parquet``; return the
    summary and the names of the files written."""
    base = os.path.join(directory, job_id)

    def progress(done: int, total: int) -> None:
        tmp = base + ".progress.tmp"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(str(done))
        os.replace(tmp, base + ".progress")
    result: Any
    if spec["preset"] == "toonerville":
        from ..sim.toonerville import simulate_toonerville
        result = simulate_toonerville(spec["agents"], games=spec["games"], seed=spec.get("seed", 0),
                                      progress=progress)
    else:
        from ..sim.simulate import simulate
        unit = {"hands": spec["hands"]} if spec.get("hands") else {"games": spec["games"]}
        result = simulate(spec["preset"], spec["agents"], seed=spec.get("seed", 0), progress=progress, **unit)
    files: list[str] = []
    for ext in FORMATS:
        try:
            files += [os.path.basename(p) for p in result.save(base + ext)]
        except RookError:
            if ext != ".parquet":                   # parquet needs pyarrow, the others nothing
                raise
    out: dict[str, Any] = json_safe(result.summary())
    return out, files
