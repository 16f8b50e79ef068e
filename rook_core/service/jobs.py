"""Simulation jobs of the service: run in the background, polled, downloaded.

A job is one :func:`~rook_core.sim.simulate.simulate` (trick-taking presets) or
:func:`~rook_core.sim.toonerville.simulate_toonerville` run in a worker
process, so that it never holds the server's interpreter; its progress, the
count of hands or games done, comes back through a small file.  When it
ends its columns are written to ``DIR/JOB.npz``, ``.csv`` and (with pyarrow)
``.parquet``; a job that fails keeps its error message.

>>> import tempfile, time
>>> jobs = Jobs(tempfile.mkdtemp())
>>> j = jobs.submit({"preset": "tournament", "agents": ["random"] * 4, "hands": 20, "seed": 1})
>>> while jobs.status(j)["state"] not in ("done", "failed"): time.sleep(0.05)
>>> jobs.status(j)["state"], jobs.status(j)["done"]
('done', 20)
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..errors import RookError
from ..hosting import BOT_KINDS, GAMES
from .limits import Busy

__all__ = ["Jobs", "MAX_HANDS", "MAX_GAMES", "MAX_WAITING"]


MAX_HANDS = 1_000_000
MAX_GAMES = 2_000
MAX_WAITING = 16            # jobs queued or running at once
FORMATS = (".npz", ".csv", ".parquet")


class Jobs:
    """Background simulation jobs writing their results under ``directory``."""

    def __init__(self, directory: str, workers: int = 1) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rook-job")
        # The simulations run in a process of their own: they hold no lock the games need.
        self._processes = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        self._jobs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

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
            self._jobs[job_id] = {"job_id": job_id, "state": "queued", "done": 0, "total": total,
                                  "spec": spec, "error": None}
        self._pool.submit(self._run, job_id, spec)
        return job_id

    def _set(self, job_id: str, **changes: Any) -> None:
        with self._lock:
            self._jobs[job_id].update(changes)

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
    return dict(_plain(result.summary()))


def _plain(x: Any) -> Any:
    """``x`` with NaN turned into None, for JSON."""
    if isinstance(x, float):
        return None if x != x else x
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x
