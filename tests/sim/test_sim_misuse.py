"""The simulator used carelessly: odd arguments get a RookError naming them
before any hand, or are taken as what they plainly mean (NumPy counts);
results are written whole or not at all; no run asks for more memory or more
workers than a machine has."""

from __future__ import annotations

import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rook_core import RookError
from rook_core.sim.playout import random_playouts
from rook_core.sim.report import write_report
from rook_core.sim.simulate import SimResult, simulate
from rook_core.sim.studies import odds_many
from rook_core.sim.tables import check_out_path

HR = ["heuristic", "random", "heuristic", "random"]


@pytest.fixture(scope="module")
def games() -> SimResult:
    return simulate("tournament", HR, games=2, seed=3)


# ------------------------------------------------------------------ arguments
@pytest.mark.parametrize("agents", [{"heuristic", "random", "dd", "pimc"},
                                    dict.fromkeys(["heuristic", "random", "dd", "pimc"])])
def test_agents_without_a_seat_order_are_refused(agents: Any) -> None:
    """A set or a dict of four kinds has no seat 0: which seat got which agent
    would depend on hashing, not on the call."""
    with pytest.raises(RookError, match="in seat order"):
        simulate("tournament", agents, hands=1)


@pytest.mark.parametrize("options", [[], "", 0, False])
def test_agent_options_that_are_not_a_dict_are_refused_even_when_empty(options: Any) -> None:
    with pytest.raises(RookError, match="agent_options must be a dict"):
        simulate("tournament", HR, hands=1, agent_options=options)


def test_numpy_counts_are_taken_as_the_ints_they_are() -> None:
    base = simulate("tournament", HR, games=2, seed=5, max_hands=40, chunk=1, duplicate=True)
    assert simulate("tournament", HR, games=np.int64(2), seed=5, max_hands=np.int32(40), chunk=np.int64(1),
                    workers=np.int64(1), duplicate=np.bool_(True)) == base
    assert simulate("tournament", HR, hands=np.uint8(3)) == simulate("tournament", HR, hands=3)
    assert random_playouts("tournament", np.int64(5), workers=np.int64(2)).shape == (5, 2)


@pytest.mark.parametrize("workers", [0, 257, 10**9])
def test_workers_beyond_what_a_machine_runs_are_refused(workers: Any) -> None:
    """A billion workers once meant a thread or process for every chunk of one unit."""
    with pytest.raises(RookError, match=r"workers must be an int 1 \.\. 256"):
        simulate("tournament", ["random"] * 4, hands=10, workers=workers)
    with pytest.raises(RookError, match=r"workers must be an int 1 \.\. 256"):
        random_playouts("tournament", 10, workers=workers)
    with pytest.raises(RookError, match=r"workers must be an int 1 \.\. 256"):
        odds_many("tournament", [], workers=workers)


class _NoFutures:
    """Has a submit, but gives back no Future."""

    def submit(self, fn: Any, *args: Any) -> None:
        return None


@pytest.mark.parametrize("native", [True, False])
def test_an_executor_whose_submit_gives_no_future_is_a_rook_error(native: bool) -> None:
    with pytest.raises(RookError, match="not a concurrent.futures.Future"):
        simulate("tournament", HR, hands=4, chunk=1, executor=_NoFutures(), native=native)


def test_an_executor_class_instead_of_an_executor_is_refused_by_name() -> None:
    with pytest.raises(RookError, match="executor must be a concurrent.futures.Executor"):
        simulate("tournament", HR, hands=4, executor=ThreadPoolExecutor)  # type: ignore[arg-type]


def test_rows_that_would_not_fit_at_their_peak_are_refused_before_the_run(monkeypatch) -> None:
    """The native loop's rows are held three times at the end of a run (the
    chunks', the joined rows, the columns): a run is weighed at that peak."""
    import rook_core.sim.tables as tables
    monkeypatch.setattr(tables, "_memory", lambda: 64 << 20)
    calls: list[int] = []
    with pytest.raises(RookError, match="150,000 hands: the results would need"):
        simulate("tournament", ["random"] * 4, hands=150_000, progress=lambda d, n: calls.append(d))
    assert calls == []
    with pytest.raises(RookError, match="playouts: the results would need"):
        random_playouts("tournament", 10**12)


# -------------------------------------------------------------------- files
def test_saving_to_a_folder_is_a_rook_error_and_the_check_says_so_before_a_run(tmp_path: Path,
                                                                              games: SimResult) -> None:
    for name in ("d.csv", "d.npz", "d.parquet"):
        (tmp_path / name).mkdir()
        with pytest.raises(RookError, match="it is a folder"):
            check_out_path(tmp_path / name)
        with pytest.raises(RookError, match="it is a folder"):
            games.save(tmp_path / name)
    (tmp_path / "r.png").mkdir()
    with pytest.raises(RookError, match="it is a folder"):
        write_report(games, tmp_path / "r.png")


def test_a_side_file_that_is_a_folder_leaves_the_main_file_as_it_was(tmp_path: Path, games: SimResult) -> None:
    """A games run writes x.csv and x.games.csv: both or neither."""
    (tmp_path / "x.csv").write_text("good\n")
    (tmp_path / "x.games.csv").mkdir()
    with pytest.raises(RookError, match=r"x\.games\.csv': it is a folder"):
        games.save(tmp_path / "x.csv")
    assert (tmp_path / "x.csv").read_text() == "good\n"


@pytest.mark.parametrize("path", [5, None, b"x.csv"])
def test_a_path_that_is_not_text_is_a_rook_error(path: Any, games: SimResult) -> None:
    with pytest.raises(RookError, match="is a path"):
        games.save(path)
    with pytest.raises(RookError, match="is a path"):
        write_report(games, path)


def test_an_upper_case_npz_extension_writes_the_file_it_names(tmp_path: Path, games: SimResult) -> None:
    """NumPy adds .npz to a name that does not end in it: X.NPZ became X.NPZ.npz."""
    written = games.save(tmp_path / "X.NPZ")
    assert written == [str(tmp_path / "X.NPZ")] and os.listdir(tmp_path) == ["X.NPZ"]
    with np.load(tmp_path / "X.NPZ") as z:
        assert np.array_equal(z["games.winner"], games.games["winner"])


def test_a_folder_that_takes_no_file_is_refused_by_trying_it(monkeypatch, tmp_path: Path) -> None:
    """Permissions do not say it (root may write anywhere, a read-only file
    system says no): the check makes a file and takes it away."""
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(tempfile, "mkstemp", refused)
    with pytest.raises(RookError, match="is not writable"):
        check_out_path(tmp_path / "x.csv")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ext", [".csv", ".parquet", ".npz"])
@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError])
def test_a_save_stopped_midway_leaves_the_old_files_whole(monkeypatch, tmp_path: Path, games: SimResult,
                                                          ext: str, stop: type[BaseException]) -> None:
    """Ctrl-C or a full disk while the files are written: the files that were
    there stay as they were, and no part-written file is left beside them."""
    import rook_core.sim.tables as tables
    old = games.save(tmp_path / f"x{ext}")
    before = {p: Path(p).read_bytes() for p in old}
    other = simulate("tournament", HR, games=3, seed=4)
    real = tables.Tables.file_columns if ext != ".npz" else np.savez_compressed

    def stops(*args: Any, **kwargs: Any) -> Any:
        if stops.calls:                # the second table (or the npz's only write, midway)
            raise stop(28, "No space left on device") if stop is OSError else stop()
        stops.calls += 1
        return real(*args, **kwargs)
    stops.calls = 0 if ext != ".npz" else 1  # type: ignore[attr-defined]
    if ext == ".npz":
        monkeypatch.setattr(np, "savez_compressed", stops)
    else:
        monkeypatch.setattr(tables.Tables, "file_columns", stops)
    with pytest.raises(RookError if stop is OSError else KeyboardInterrupt):
        other.save(tmp_path / f"x{ext}")
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(p) for p in old)
    assert {p: Path(p).read_bytes() for p in old} == before


def test_a_saved_file_has_the_mode_a_new_file_gets(tmp_path: Path, games: SimResult) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    path = games.save(tmp_path / "x.npz")[0]
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize("existing,links,fail_on",
                         [(e, links, k) for e in (True, False) for links in (True, False)
                          for k in range(1, (4 if e and not links else 2) + 1)])   # each move of the save
def test_a_pair_of_files_whose_later_move_fails_is_put_back_as_it_was(monkeypatch, tmp_path: Path, games: SimResult,
                                                                       links: bool, fail_on: int,
                                                                       existing: bool) -> None:
    """A games run writes x.csv and x.games.csv.  Each new file replaces its
    old one only once both are written; when a later move into place fails
    (the second os.replace), x.csv used to stay new beside an old
    x.games.csv.  Now the files moved are put back from the copies kept
    aside: both as they were (or both absent), and no temporary or backup
    file is left.  ``links``: the old files are kept as second links, or
    (where the file system makes none) renamed aside, four moves in all."""
    names = ["x.csv", "x.games.csv"]
    old = games.save(tmp_path / "x.csv") if existing else []
    assert sorted(os.path.basename(p) for p in old) == (sorted(names) if existing else [])
    before = {p: Path(p).read_bytes() for p in old}
    other = simulate("tournament", HR, games=3, seed=4)
    real_replace = os.replace
    calls = []

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        calls.append((src, dst))
        if len(calls) == fail_on:
            raise OSError(28, "No space left on device")
        real_replace(src, dst, **kwargs)

    def no_link(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(os, "replace", replace)
    if not links:
        monkeypatch.setattr(os, "link", no_link)
    with pytest.raises(RookError, match="cannot write .*No space left on device"):
        other.save(tmp_path / "x.csv")
    assert sorted(os.listdir(tmp_path)) == (sorted(names) if existing else [])
    assert {p: Path(p).read_bytes() for p in old} == before
    calls.clear()
    monkeypatch.setattr(os, "replace", real_replace)
    written = other.save(tmp_path / "x.csv")          # and the normal path writes both
    assert sorted(os.listdir(tmp_path)) == sorted(names) and len(written) == 2
    fresh = other.save(tmp_path / "fresh.csv")
    assert [Path(p).read_bytes() for p in written] == [Path(p).read_bytes() for p in fresh]
    if existing:
        assert [Path(p).read_bytes() for p in written] != [before[p] for p in old]


def test_a_file_that_cannot_be_put_back_is_named_with_the_copy_that_keeps_it(monkeypatch, tmp_path: Path,
                                                                               games: SimResult) -> None:
    """The second move fails, and so does putting the first file back: the
    error says where the earlier file is kept, and that copy is whole."""
    old = games.save(tmp_path / "x.csv")
    before = Path(old[0]).read_bytes()
    other = simulate("tournament", HR, games=3, seed=4)
    real_replace = os.replace
    calls = []

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        calls.append(src)
        if len(calls) >= 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst, **kwargs)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(RookError, match=r"x\.csv' could not be put back .*: the earlier file is '(.*)'") as e:
        other.save(tmp_path / "x.csv")
    found = re.search(r"the earlier file is '(.*)'", str(e.value))
    assert found is not None
    kept = found.group(1)
    assert Path(kept).read_bytes() == before and os.path.dirname(kept) == str(tmp_path)
