"""Simulation jobs of ``rook serve`` under load: one client holds only so many jobs
in the queue, and the jobs' files are bounded on disk, the heaviest client's
oldest results deleted first."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from _server import Server

from rook_core.errors import RookError
from rook_core.service.jobs import MAX_PER_CLIENT, Busy, Jobs

SPEC = {"preset": "tournament", "agents": ["random"] * 4, "hands": 2000, "seed": 5}


def _wait(jobs: Jobs, job_id: str) -> dict[str, Any]:
    deadline = time.time() + 300
    while (st := jobs.status(job_id))["state"] not in ("done", "failed") and time.time() < deadline:
        time.sleep(0.05)
    assert st["state"] == "done", st
    return st


def _disk(directory: Path, prefix: str = "") -> int:
    return sum(max(p.stat().st_size, p.stat().st_blocks * 512) for p in directory.iterdir()
               if p.name.startswith(prefix))


def test_one_client_holds_only_so_many_jobs_and_the_others_still_get_theirs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    monkeypatch.setattr(Jobs, "_run", lambda self, job_id, spec: release.wait(30))
    jobs = Jobs(str(tmp_path))
    try:
        mine = [jobs.submit(dict(SPEC), "10.0.0.1") for _ in range(MAX_PER_CLIENT)]
        with pytest.raises(Busy, match="this client has 4 jobs queued or running") as refused:
            jobs.submit(dict(SPEC), "10.0.0.1")
        assert refused.value.retry_after >= 1
        theirs = jobs.submit(dict(SPEC), "10.0.0.2")
        assert len({*mine, theirs}) == MAX_PER_CLIENT + 1
        assert "client" not in jobs.status(theirs)                  # who asked is not shown
    finally:
        release.set()
        jobs.shutdown()


def test_clients_take_turns_at_the_worker_so_one_clients_queue_does_not_hold_back_anothers_job(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker; client A queues four jobs, then B one and C two while A's
    first runs.  The worker then starts B's, C's, A's, C's and A's: each time
    the job of the client that started one longest ago (first come, first
    served would run A's four before B's one)."""
    started: list[str] = []
    first, go = threading.Event(), threading.Event()

    def run(self: Jobs, job_id: str, spec: dict[str, Any]) -> None:
        started.append(job_id)
        assert self.status(job_id)["state"] == "running"
        first.set()
        go.wait(30)
        self._set(job_id, state="done")
    monkeypatch.setattr(Jobs, "_run", run)
    jobs = Jobs(str(tmp_path))
    try:
        a = [jobs.submit({**SPEC, "seed": i}, "10.0.0.1") for i in range(4)]
        assert first.wait(30)
        b = jobs.submit(dict(SPEC), "10.0.0.2")
        c = [jobs.submit({**SPEC, "seed": i}, "10.0.0.3") for i in range(2)]
        go.set()
        deadline = time.time() + 60
        while len(started) < 7 and time.time() < deadline:
            time.sleep(0.01)
        assert started == [a[0], b, c[0], a[1], c[1], a[2], a[3]]
    finally:
        go.set()
        jobs.shutdown()


def test_the_server_refuses_a_clients_job_past_its_share_with_429(tmp_path: Path) -> None:
    """The audit's case: jobs of a million hands, one after another, from one address."""
    server = Server(tmp_path / "games.sqlite")
    try:
        with server.client() as c:
            big = {"preset": "tournament", "agents": ["random"] * 4, "hands": 1_000_000}
            codes = [c.post("/jobs", json={**big, "seed": i}).status_code for i in range(MAX_PER_CLIENT)]
            assert codes == [202] * MAX_PER_CLIENT
            r = c.post("/jobs", json={**big, "seed": 99})
        assert r.status_code == 429, r.text
        assert "this client has 4 jobs queued or running" in r.json()["error"]
        assert r.json()["retry_after"] == int(r.headers["retry-after"]) >= 1
    finally:
        server.stop()


def test_past_the_disk_bound_the_heaviest_clients_oldest_results_go_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job that ends pushes out the jobs past the bound in the same step: a poll
    that reads it done finds them gone (eviction once ran a moment after, and a
    slow one, as here, left them readable)."""
    evict = Jobs.evict
    monkeypatch.setattr(Jobs, "evict", lambda self: (time.sleep(0.3), evict(self))[1])
    jobs = Jobs(str(tmp_path))
    try:
        light = _wait(jobs, jobs.submit(dict(SPEC), "light"))["job_id"]
        size = _disk(tmp_path, light)
        assert jobs.status(light)["bytes"] == size
        jobs.max_bytes = int(size * 3.5)                  # room for three such jobs
        heavy = [_wait(jobs, jobs.submit(dict(SPEC), "heavy"))["job_id"] for _ in range(3)]
        with pytest.raises(KeyError):
            jobs.status(heavy[0])                         # the heavy client's oldest, not the light one's
        assert not list(tmp_path.glob(f"{heavy[0]}*")), "a deleted job left files"
        for job_id in (light, *heavy[1:]):
            assert os.path.exists(jobs.result_file(job_id, ".csv"))
        assert _disk(tmp_path) <= jobs.max_bytes
        jobs.max_bytes = size // 2                        # the job that ended last stays, alone
        assert set(jobs.evict()) == {light, heavy[1]}
        assert jobs.result_file(heavy[2], ".npz") and _disk(tmp_path) == size
    finally:
        jobs.shutdown()
    again = Jobs(str(tmp_path), max_bytes=size // 2)      # a restart reads what the records say they hold
    try:
        assert again.status(heavy[2])["bytes"] == size
    finally:
        again.shutdown()


def test_a_deleted_job_leaves_no_file(tmp_path: Path) -> None:
    """A games run also writes its games table (JOB.games.csv, .parquet): those go too."""
    jobs = Jobs(str(tmp_path))
    try:
        job_id = _wait(jobs, jobs.submit({"preset": "tournament", "agents": ["random"] * 4, "games": 2}))["job_id"]
        assert list(tmp_path.glob(f"{job_id}.games.*"))
        jobs.keep_hours = 1e-9
        assert jobs.sweep() == [job_id]
        assert list(tmp_path.iterdir()) == []
    finally:
        jobs.shutdown()


def test_a_result_deleted_between_its_check_and_its_download_is_a_404_not_a_500(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk bound may delete a finished job's file whenever another job
    ends; a download opens the file at once, and one already gone is the
    documented 404, not a server error."""
    from fastapi.testclient import TestClient

    from rook_core.service.app import create_app
    with TestClient(create_app(str(tmp_path / "games.sqlite"))) as c:
        job_id = c.post("/jobs", json=SPEC).json()["job_id"]
        while c.get(f"/jobs/{job_id}").json()["state"] != "done":
            time.sleep(0.05)
        whole = c.get(f"/jobs/{job_id}/result", params={"format": "csv"})
        path = next(tmp_path.glob(f"rook-jobs/{job_id}*.csv"))
        assert whole.status_code == 200 and whole.content == path.read_bytes()
        assert int(whole.headers["content-length"]) == path.stat().st_size
        real = Jobs.result_file
        monkeypatch.setattr(Jobs, "result_file", lambda self, j, ext: real(self, j, ext) + ".gone")
        gone = c.get(f"/jobs/{job_id}/result", params={"format": "csv"})
        assert gone.status_code == 404 and "deleted" in gone.json()["error"], gone.text


def test_a_jobs_progress_never_goes_back_as_it_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress file goes only once the record holds the whole count: a poll
    in between read a running job with no progress file, at 0 hands done."""
    seen: list[tuple[str, int]] = []
    remove = Jobs._remove_progress

    def watched(self: Jobs, job_id: str) -> None:
        remove(self, job_id)
        st = self.status(job_id)                 # as a poll reads it right after the file went
        seen.append((st["state"], st["done"]))
    monkeypatch.setattr(Jobs, "_remove_progress", watched)
    jobs = Jobs(str(tmp_path))
    try:
        st = _wait(jobs, jobs.submit({**SPEC, "hands": 40}))
        assert seen == [("running", 40)] and st["done"] == 40
        assert st["bytes"] == _disk(tmp_path, st["job_id"])      # the disk counted once the progress file went
    finally:
        jobs.shutdown()


def test_a_job_the_status_calls_gone_has_no_file_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eviction runs on the worker's thread after a job ends; a poll that reads a
    job as gone must find its files gone too (they went after the record did,
    and a caller that looked in between saw a deleted job's files)."""
    jobs = Jobs(str(tmp_path))
    try:
        job_id = _wait(jobs, jobs.submit(dict(SPEC)))["job_id"]
        remove, started = Jobs._remove, threading.Event()

        def slow(self: Jobs, *args: Any, **kw: Any) -> None:
            started.set()
            time.sleep(0.3)                       # a disk slow to delete
            remove(self, *args, **kw)
        monkeypatch.setattr(Jobs, "_remove", slow)
        jobs.keep_hours = 1e-9
        sweeper = threading.Thread(target=jobs.sweep)
        sweeper.start()
        assert started.wait(30)
        with pytest.raises(KeyError):
            jobs.status(job_id)
        assert not list(tmp_path.glob(f"{job_id}*")), "a job read as gone left files"
        sweeper.join()
    finally:
        jobs.shutdown()


@pytest.mark.parametrize(("change", "words"), [
    ({"hands": True}, "hands must be an int 1..1000000, not True"),
    ({"hands": 2.5}, "hands must be an int 1..1000000, not 2.5"),
    ({"hands": "5"}, "hands must be an int 1..1000000, not '5'"),           # was a bare TypeError
    ({"hands": None, "games": 1.0}, "games must be an int 1..2000, not 1.0"),
    ({"extra": 1}, "unknown field"),
    ({"preset": ["tournament"]}, "unknown preset"),
])
def test_a_job_spec_from_python_is_checked_as_strictly_as_the_services(change: dict[str, Any], words: str) -> None:
    """The service's model refuses these; Jobs.check, the library's own check,
    took True and 2.5 hands (the worker then failed) and raised a bare TypeError on '5'."""
    spec = {k: v for k, v in {**SPEC, **change}.items() if v is not None}
    with pytest.raises(RookError, match=words):
        Jobs.check(spec)
    with pytest.raises(RookError, match="a job spec is an object"):
        Jobs.check([SPEC])   # type: ignore[arg-type]
