"""The results of a run as named tables of NumPy columns, and their files.

:class:`Tables` is what the simulator's results share: the trick-taking
:class:`~rook_core.sim.simulate.SimResult` (hands and games) and
Toonerville's :class:`~rook_core.sim.toonerville.ToonervilleSimResult`
(rounds and games).  A subclass says which tables it has (:meth:`tables`,
the main one first) and which of them are written as files of their own;
this class writes them: ``.parquet`` and ``.csv`` one file a table (the main
one at the path given, the others beside it as ``NAME.TABLE.EXT``), ``.npz``
every table in one file under ``TABLE.COLUMN`` keys.
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import tempfile
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import RookError

__all__ = ["OUT_EXTENSIONS", "Tables", "check_held", "check_out_path", "check_rows_fit", "write_files"]

OUT_EXTENSIONS = (".parquet", ".csv", ".npz")


def _memory() -> int:
    """The machine's memory in bytes (8 GiB where the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def check_rows_fit(rows: int, row_bytes: int, what: str) -> None:
    """Refuse, before any work, a run whose result rows would need more than
    half of the machine's memory (a run keeps every row until it ends).

    :raises RookError: naming the run and what it would need.
    """
    need, have = rows * row_bytes, _memory()
    if need > have // 2:
        raise RookError(f"{what}: the results would need about {need / 2**30:,.0f} GiB, more than half of "
                        f"this machine's {have / 2**30:,.0f} GiB; run fewer at a time (each run with its "
                        "own seed)")


def check_held(held: int, what: str, advice: str) -> None:
    """Stop a run whose results so far take more than a quarter of the
    machine's memory (the rows are then joined into columns, which takes
    about as much again, and more for the columns; a bound before the run is
    :func:`check_rows_fit`).

    :raises RookError: naming the run, what it holds and ``advice``.
    """
    have = _memory()
    if held > have // 4:
        raise RookError(f"{what}: stopped, the results so far take about {held / 2**30:,.1f} GiB, more than a "
                        f"quarter of this machine's {have / 2**30:,.0f} GiB; {advice}")


def check_out_path(path: str | os.PathLike[str]) -> str:
    """Return the extension of ``path`` if results can be written there.

    :raises RookError: for another extension, or a path that cannot be
        written (:func:`check_folder`).
    """
    p = path_text(path, "a results file")
    ext = os.path.splitext(p)[1].lower()
    if ext not in OUT_EXTENSIONS:
        raise RookError(f"cannot write {p!r}: use a .parquet, .csv or .npz file")
    check_folder(p)
    return ext


def path_text(path: object, what: str) -> str:
    """Return ``path`` (text or an ``os.PathLike`` of text) as text.

    :raises RookError: for anything else (bytes, a number, None), naming ``what``.
    """
    p = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(p, str):
        raise RookError(f"{what} is a path (text or os.PathLike), not {path!r}")
    return p


def check_folder(path: str) -> None:
    """Refuse a file path that cannot be written: its folder does not exist or
    takes no new file (tried, not guessed from permissions), or the path is a
    folder or a read-only file.

    :raises RookError: naming the path and why.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RookError(f"cannot write {path!r}: the folder {folder!r} does not exist")
    if os.path.isdir(path):
        raise RookError(f"cannot write {path!r}: it is a folder")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise RookError(f"cannot write {path!r}: the file is read-only")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".rook-", suffix=".part")
    except OSError as e:
        raise RookError(f"cannot write {path!r}: the folder {folder!r} is not writable ({e.strerror})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _beside(path: str, suffix: str) -> str:
    """A new name for a file of its own next to ``path`` (hidden, random)."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.{secrets.token_hex(6)}{suffix}")


def _keep_aside(path: str) -> str | None:
    """Keep the file at ``path``, if there is one, under a backup name beside
    it and return that name (None when there is no file): a second link to
    it where the file system makes one, ``path`` staying in place, else
    ``path`` renamed."""
    if not os.path.lexists(path):
        return None
    backup = _beside(path, ".old")
    try:
        os.link(path, backup, follow_symlinks=False)
    except (OSError, NotImplementedError):
        os.replace(path, backup)
    return backup


def _put_back(path: str, backup: str | None, placed: bool) -> str | None:
    """Put ``path`` back as it was before :func:`write_files`: from
    ``backup``, or, when there was no file (``backup`` None), by removing the
    new one if it was ``placed``.  Return a note for the error message when
    that fails, else None."""
    try:
        if backup is None:
            if placed:
                os.unlink(path)
        elif placed or not os.path.lexists(path):   # (a linked backup left ``path`` in place)
            os.replace(backup, path)
        else:
            os.unlink(backup)
    except OSError as e:
        if backup is None:
            return f"the new {path!r} could not be removed ({e.strerror or e})"
        return f"{path!r} could not be put back ({e.strerror or e}): the earlier file is {backup!r}"
    return None


def write_files(writes: list[tuple[str, Callable[[str], None]]]) -> list[str]:
    """Write files whole or not at all, and together: each ``(path, write)``
    has ``write(tmp)`` fill a new file beside ``path``; only when every one
    is written are they moved into place, each after the file it replaces is
    kept aside (a second link to it, or the file renamed).  When a move
    fails (or Ctrl-C comes), the files already moved are put back from what
    was kept, so the files are all new or all as they were; the backups go
    once every file is in place.  Return the paths.

    :raises RookError: for a path that is a folder or read-only, or what the
        system refused, naming the path (and any file it could not put back).
    """
    for path, _ in writes:
        check_folder(path)
    pending: list[tuple[str, str]] = []          # (temporary, path): written, not yet in place
    placed: list[tuple[str, str | None]] = []    # (path, backup of the file it replaced): in place
    notes: list[str] = []                        # what could not be put back
    try:
        for path, write in writes:
            tmp = _beside(path, ".part")
            open(tmp, "xb").close()            # made as the file itself would be (the umask's mode)
            pending.append((tmp, path))
            write(tmp)
        while pending:
            tmp, path = pending[0]
            backup = _keep_aside(path)
            try:
                os.replace(tmp, path)
            except BaseException:
                notes.append(_put_back(path, backup, placed=False) or "")
                raise
            pending.pop(0)
            placed.append((path, backup))
    except BaseException as e:
        notes += [_put_back(p, b, placed=True) or "" for p, b in reversed(placed)]
        if not isinstance(e, OSError):
            raise
        why = "; ".join([str(e.strerror or e), *filter(None, notes)])
        raise RookError(f"cannot write {path!r}: {why}") from None
    finally:
        for tmp, _ in pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    for _, backup in placed:
        if backup is not None:
            with contextlib.suppress(OSError):
                os.unlink(backup)
    return [path for path, _ in writes]


_LANE_TEXT: list[list[str]] = []      # for each 16-bit lane of a mask, the text of each of its 65,536 values


def cards_text(masks: npt.NDArray[Any]) -> list[str]:
    """The cards of each 64-bit mask as text, as ``str(CardSet(mask))`` spells them
    (``B5 B10 G14 Rook``: colored cards by id, the bird last), by a table per
    16-bit lane built once."""
    from ..cards import BIRD, card_name
    if not _LANE_TEXT:
        for lane in range(4):
            names = []
            for b in range(16):
                card = 16 * lane + b
                try:
                    names.append("" if card == BIRD else card_name(card))
                except RookError:
                    names.append("")                     # not a card id
            texts = [""] * 65536
            for v in range(1, 65536):
                low = v & -v
                head, rest = names[low.bit_length() - 1], texts[v ^ low]
                texts[v] = " ".join(x for x in (head, rest) if x)
            _LANE_TEXT.append(texts)
    m = np.asarray(masks, dtype=np.uint64)
    lanes = [((m >> np.uint64(16 * i)) & np.uint64(0xFFFF)).tolist() for i in range(4)]
    t0, t1, t2, t3 = _LANE_TEXT
    bird = 1 << BIRD
    return [" ".join(x for x in (t0[a], t1[b], t2[c], t3[d], "Rook" if a & bird else "") if x)
            for a, b, c, d in zip(*lanes)]


class Tables:
    """Named tables of columns with the run's metadata (see the module's note)."""

    def tables(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        """Every table by name, the main one first."""
        raise NotImplementedError

    def file_tables(self) -> list[str]:
        """The tables written as files of their own (``.parquet``, ``.csv``), the main one first."""
        return list(self.tables())

    def metadata(self) -> dict[str, str]:
        """What the run was (written into Arrow and Parquet files)."""
        raise NotImplementedError

    def card_columns(self, which: str) -> list[str]:
        """The columns of table ``which`` that hold card masks: Arrow, Parquet and
        CSV also carry each as text, ``NAME_cards`` (``B14 B10 Rook``, the cards'
        docs/FORMATS.md names), so a reader needs no bit layout.  None by default."""
        return []

    def file_columns(self, which: str) -> dict[str, Any]:
        """Table ``which`` as written to Arrow, Parquet and CSV: its columns, each
        card-mask column followed by its text (:meth:`card_columns`)."""
        cols = self.tables()[which]
        masks = set(self.card_columns(which))
        out: dict[str, Any] = {}
        for name, col in cols.items():
            out[name] = col
            if name in masks:
                out[f"{name}_cards"] = cards_text(col)
        return out

    def to_arrow(self, which: str) -> Any:
        """Return the table ``which`` as a ``pyarrow.Table`` with the run's metadata.

        :raises RookError: when pyarrow is not installed, or for an unknown table.
        """
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
        except ImportError:
            raise RookError("pyarrow is needed for Arrow and Parquet output: "
                            "pip install 'rook_core[sim]'") from None
        tables = self.tables()
        if which not in tables:
            raise RookError(f"no table {which!r}; the tables are {', '.join(tables)}")
        meta = {f"rook.{k}".encode(): v.encode() for k, v in self.metadata().items()}
        return pa.table(self.file_columns(which)).replace_schema_metadata(meta)

    def save(self, path: str | os.PathLike[str]) -> list[str]:
        """Write the tables to ``path`` by its extension (``.parquet``, ``.csv`` or
        ``.npz``) and return the paths written.  Every file is written whole
        or not at all, and the files of one save together
        (:func:`write_files`): a failure or Ctrl-C leaves the files that were
        there.

        :raises RookError: for another extension, or a path that cannot be written.
        """
        ext = check_out_path(path)
        p = os.fspath(path)
        if ext == ".npz":
            arrays = {f"{name}.{k}": v for name, cols in self.tables().items() for k, v in cols.items()}

            def npz(tmp: str) -> None:
                with open(tmp, "wb") as f:      # a file, not a name: NumPy would add .npz to X.NPZ
                    np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
            return write_files([(p, npz)])
        base = os.path.splitext(p)[0]
        return write_files([(p if i == 0 else f"{base}.{which}{ext}", partial(self._write_table, which, ext))
                            for i, which in enumerate(self.file_tables())])

    def _write_table(self, which: str, ext: str, target: str) -> None:
        if ext == ".parquet":
            import pyarrow.parquet as pq  # type: ignore[import-untyped]
            pq.write_table(self.to_arrow(which), target)
            return
        cols = self.file_columns(which)
        with open(target, "w", encoding="utf-8") as f:
            f.write(",".join(cols) + "\n")
            for row in zip(*(c if isinstance(c, list) else c.tolist() for c in cols.values())):
                f.write(",".join("" if isinstance(x, float) and math.isnan(x) else str(x)
                                 for x in row) + "\n")
