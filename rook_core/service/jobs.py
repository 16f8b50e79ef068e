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
from .limits import Busy

__all__ = ["Jobs", "MAX_HANDS", "MAX_GAMES", "MAX_WAITING"]


MAX_HANDS = 1_000_000
MAX_GAMES = 2_000
MAX_WAITING = 16            # jobs queued or running at once
FORMATS = (".npz", ".csv", ".parquet")


class Jobs:
    """Background simulation jobs writing their results under ``directory``."""

    def __init__(self, directory: str, workers: int = 1, keep_hours: float = 24.0) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.keep_hours = keep_hours
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rook-job")
        # The simulations run in a process of their own: they hold no lock the games need.
        self._processes = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=_die_with, initargs=(os.getpid(),))
        self._jobs: dict[str, dict[str, Any]] = {}
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
            self._jobs[job_id] = job

    def sweep(self) -> list[str]:
        """Delete the jobs (records and files) that ended more than ``keep_hours`` ago; return their ids."""
        cutoff = time.time() - self.keep_hours * 3600
        with self._lock:
            old = [j for j, job in self._jobs.items()
                   if job["state"] in ("done", "failed") and job.get("ended", 0) <= cutoff]
            for job_id in old:
                del self._jobs[job_id]
        for job_id in old:
            self._remove(job_id)
        return old

    def _remove(self, job_id: str, keep_record: bool = False) -> None:
        for ext in FORMATS + (".progress", ".progress.tmp") + (() if keep_record else (".json",)):
            try:
                os.remove(self._path(job_id, ext))
            except FileNotFoundError:
                pass

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
        preset, agents = spec.get("preset"), spec.get("agents")
        if preset not in GAMES:
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
        if hands is not None and not 1 <= hands <= MAX_HANDS:
            raise RookError(f"hands must be 1..{MAX_HANDS}, not {hands}")
        if games is not None and not 1 <= games <= MAX_GAMES:
            raise RookError(f"games must be 1..{MAX_GAMES}, not {games}")
        check_seed(spec.get("seed", 0))
        return spec

    def submit(self, spec: dict[str, Any]) -> str:
        """Start a job; return its id."""
        spec = self.check(spec)
        job_id = uuid.uuid4().hex
        total = spec.get("hands") or spec.get("games")
        with self._lock:
            waiting = sum(j["state"] in ("queued", "running") for j in self._jobs.values())
            if waiting >= MAX_WAITING:
                raise Busy(f"{waiting} jobs are queued or running; try again when one is done")
            job = self._jobs[job_id] = {"job_id": job_id, "state": "queued", "done": 0, "total": total,
                                        "spec": spec, "error": None, "created": time.time()}
            self._write_record(job)
        self._pool.submit(self._run, job_id, spec)
        return job_id

    def _set(self, job_id: str, **changes: Any) -> None:
        with self._lock:
            job = self._jobs[job_id]
            job.update(changes)
            if job["state"] in ("done", "failed"):
                job.setdefault("ended", time.time())
            self._write_record(job)

    def _run(self, job_id: str, spec: dict[str, Any]) -> None:
        """Run the job in the worker process and wait for it (on a thread of the server)."""
        self._set(job_id, state="running")
        try:
            summary = self._processes.submit(_simulate_job, spec, self.directory, job_id).result()
            self._set(job_id, state="done", done=spec.get("hands") or spec.get("games"), summary=summary)
        except Exception as e:  # noqa: BLE001 - a job's failure is its answer, never the server's
            self._set(job_id, state="failed", error=f"{type(e).__name__}: {e}")

    def _path(self, job_id: str, ext: str) -> str:
        return os.path.join(self.directory, job_id + ext)

    def status(self, job_id: str) -> dict[str, Any]:
        """The job's state (queued, running, done, failed), progress and, when done, summary.

        :raises KeyError: no such job.
        """
        with self._lock:
            job = dict(self._jobs[job_id])
        if job["state"] == "running":
            try:
                with open(self._path(job_id, ".progress"), encoding="ascii") as f:
                    job["done"] = int(f.read() or 0)
            except (OSError, ValueError):
                pass
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


def _simulate_job(spec: dict[str, Any], directory: str, job_id: str) -> dict[str, Any]:
    """Run one job (in the worker process): its progress goes to ``JOB.progress``,
    its results to ``JOB.npz``, ``.csv`` and (with pyarrow) ``.parquet``; return the summary."""
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
    for ext in FORMATS:
        try:
            result.save(base + ext)
        except RookError:
            if ext != ".parquet":                   # parquet needs pyarrow, the others nothing
                raise
    out: dict[str, Any] = json_safe(result.summary())
    return out
