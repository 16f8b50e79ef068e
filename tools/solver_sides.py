"""Build the double-dummy solver of one commit as a shared library of its own, and load it.

    python tools/solver_sides.py 649b7bd          # prints the library's path
    python tools/solver_sides.py worktree         # the files as they are now

The solver sources of the commit (``src/rook/solve*.c``, ``src/rook/solve/*.c``
and the headers beside them) are taken with ``git archive`` into a scratch
folder (``build/solver-sides/<commit>-<tag>/``, or ``--scratch``; the tag
stands for the interface file and the flags), and compiled with
``bench/solver_side.c`` (the fixed C interface) into ``side.so`` there, with
the flags of that commit's package build (``-O3``, or the level its
``CMakeLists.txt`` gives the solver's files; x86-64-v2 where the compiler
knows it, link-time optimisation).  Each library keeps its symbols to itself, so
two of them load into one process: ``bench/solver_vs.py`` times them on the
same deals.  A commit already built is not built again (``--force`` does).

The C compiler is ``$CC`` or ``cc``.  :class:`Side` loads a built library
(ctypes) and answers value, every-card and yes/no questions on positions
given as a ``HandState`` (:func:`spec_of`, :func:`pos_of`).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHIM = ROOT / "bench" / "solver_side.c"
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after the installed package: a spawned process must not find the bare tree first


def resolve(commit: str) -> str:
    """Return the full hash of ``commit`` ('worktree' stays as it is)."""
    if commit == "worktree":
        return commit
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"solver_sides: {commit!r} is not a commit of this repository")
    return out.stdout.strip()


def _export(commit: str, dest: Path) -> Path:
    """Put the commit's src/rook into dest/src and return dest/src."""
    src = dest / "src"
    if commit == "worktree":
        if src.exists():
            shutil.rmtree(src)
        shutil.copytree(ROOT / "src", src)
        return src
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src/rook"],
                          capture_output=True, check=True).stdout
    if src.exists():
        shutil.rmtree(src)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return src


def solver_opt_level(commit: str) -> str:
    """The optimisation level the package build of ``commit`` gives the
    solver's files: ``-O3`` (the whole core's), unless its CMakeLists.txt
    sets ``COMPILE_OPTIONS`` of ``ROOK_SOLVER_SOURCES`` to another level."""
    if commit == "worktree":
        text = (ROOT / "CMakeLists.txt").read_text()
    else:
        out = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:CMakeLists.txt"], capture_output=True,
                             text=True)
        text = out.stdout if out.returncode == 0 else ""
    m = re.search(r"\$\{ROOK_SOLVER_SOURCES\}\s+PROPERTIES\s+COMPILE_OPTIONS\s+(-O\w)", text)
    return m.group(1) if m else "-O3"


def _arch_flags(cc: str) -> list[str]:
    probe = subprocess.run([cc, "-march=x86-64-v2", "-x", "c", "-c", "-o", os.devnull, "-"],
                           input=b"int x;", capture_output=True)
    return ["-march=x86-64-v2"] if probe.returncode == 0 else []


def build(commit: str, scratch: Path | None = None, force: bool = False, extra: list[str] | None = None
          ) -> Path:
    """Return the path of the shared library of ``commit``'s solver, built if needed."""
    full = resolve(commit)
    # the folder names the commit, and the interface and flags it was built with
    tag = hashlib.sha1(SHIM.read_bytes() + " ".join(extra or []).encode()).hexdigest()[:8]
    name = f"{full[:12] if full != 'worktree' else full}-{tag}"
    dest = (scratch or ROOT / "build" / "solver-sides") / name
    lib = dest / "side.so"
    if lib.exists() and not force and full != "worktree":
        return lib
    dest.mkdir(parents=True, exist_ok=True)
    src = _export(full, dest)
    sources = sorted((src / "rook").glob("solve*.c")) + sorted((src / "rook" / "solve").glob("*.c"))
    if not sources:
        raise SystemExit(f"solver_sides: no solver sources in {full[:12]}")
    cc = os.environ.get("CC", "cc")
    arch = [] if any(x.startswith("-march=") for x in (extra or [])) else _arch_flags(cc)
    cmd = [cc, solver_opt_level(full), *arch, "-flto", "-std=c11", "-fPIC", "-shared",
           "-fvisibility=hidden", "-Wl,-Bsymbolic", f"-I{src}", *(extra or []),
           str(SHIM), *map(str, sources), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"solver_sides: the build of {full[:12]} failed:\n{done.stderr}")
    return lib


class Spec(ctypes.Structure):
    _fields_ = [("deck", ctypes.c_uint64), ("special_trumps", ctypes.c_uint64),
                ("anytime", ctypes.c_uint64), ("counter_masks", ctypes.c_uint64 * 8),
                ("counter_values", ctypes.c_int32 * 8), ("n_counter_groups", ctypes.c_int32),
                ("must_trump", ctypes.c_int32), ("last_trick_bonus", ctypes.c_int32),
                ("most_tricks_bonus", ctypes.c_int32), ("strength", ctypes.c_uint8 * 64)]


class Pos(ctypes.Structure):
    _fields_ = [("hands", ctypes.c_uint64 * 4), ("trick", ctypes.c_uint8 * 4),
                ("trick_n", ctypes.c_uint8), ("leader", ctypes.c_uint8), ("trump", ctypes.c_uint8),
                ("pad", ctypes.c_uint8), ("nest_points", ctypes.c_int32),
                ("tricks", ctypes.c_uint8 * 2)]


def add_deal_arguments(ap: argparse.ArgumentParser, deals: int, seed: int, deals_help: str = "how many deals",
                       seed_help: str = "seed of the first deal") -> None:
    """The options that choose the tools' deal set (play_until's): --preset,
    --deals, --seed and --cards-left."""
    ap.add_argument("--preset", default="tournament")
    ap.add_argument("--deals", type=int, default=deals, help=deals_help)
    ap.add_argument("--seed", type=int, default=seed, help=seed_help)
    ap.add_argument("--cards-left", type=int, default=36)


def quantile(values: Sequence[float], q: float) -> float:
    """Return the q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-int(round(q * 100)) * len(ordered) // 100) - 1))]


def signature(nodes: list[int]) -> str:
    """Return a short deterministic summary of node counts."""
    return f"{sum(nodes)} nodes, crc {zlib.crc32(','.join(map(str, nodes)).encode()):08x}"


def spec_of(v: Any) -> Spec:
    """Return the solver's view of the rules of ``v`` (as rules.pyx builds it)."""
    s = Spec()
    s.deck = v.deck_mask
    s.special_trumps = v.special_trumps_mask
    s.anytime = (1 << 15) if v.bird_anytime else 0
    pts = v.points_table
    values = sorted({p for p in pts if p})
    s.n_counter_groups = len(values)
    for g, val in enumerate(values):
        s.counter_values[g] = val
        s.counter_masks[g] = sum(1 << i for i in range(64) if pts[i] == val)
    for i, st in enumerate(v.strength_table):
        s.strength[i] = st
    s.must_trump = int(v.must_trump)
    s.last_trick_bonus = v.last_trick_bonus
    s.most_tricks_bonus = v.most_tricks_bonus
    return s


def pos_of(h: Any) -> Pos:
    """Return the solver position of a ``HandState`` in the play phase."""
    p = Pos()
    for i in range(4):
        p.hands[i] = h.hand_mask(i)
    trick = [int(c) for c in h.trick]
    for i in range(4):
        p.trick[i] = trick[i] if i < len(trick) else 255
    p.trick_n = len(trick)
    p.leader = h.leader
    p.trump = h.trump
    p.nest_points = h.nest_points if h.variant.nest_to == "last_trick" else 0
    won = h.tricks_won
    p.tricks[0], p.tricks[1] = won[0], won[1]
    return p


def play_until(preset: str, seed: int, cards_left: int) -> Any:
    """Return a seeded ``HandState`` played at random (bids, nest, trump,
    cards) until ``cards_left`` cards are in the hands."""
    from rook_core import HandState
    rng = random.Random(seed)
    while True:
        h = HandState.deal(preset, seed=seed)
        while h.phase.label not in ("play", "thrown_in"):
            h.apply(rng.choice(h.legal_actions()))
        if h.phase.label == "play":
            break
        seed += 1_000_003
    while sum(len(h.hand(s)) for s in range(4)) > cards_left:
        h.apply(rng.choice(h.legal_actions()))
    return h


class Side:
    """One solver build, loaded from its shared library."""

    def __init__(self, name: str, lib: Path, tt_bytes: int = 24 << 20) -> None:
        self.name = name
        self.path = Path(lib)   # the built library (another Side may load it with another table)
        # Load a private copy of the library: byte-identical libraries were
        # seen to run 10% apart in one process (3.31 s against 3.01 s on 120
        # values) depending on the file they were loaded from, while fresh
        # copies ran alike; a copy per side keeps an old file's pages out of
        # the comparison.
        fd, copy = tempfile.mkstemp(prefix="side-", suffix=".so")
        with os.fdopen(fd, "wb") as f:
            f.write(Path(lib).read_bytes())
        try:
            self.lib = ctypes.CDLL(copy, mode=ctypes.RTLD_LOCAL)
        finally:
            os.unlink(copy)
        L = self.lib
        L.side_new.restype = ctypes.c_void_p
        L.side_new.argtypes = [ctypes.c_uint64]
        for f in ("side_free", "side_clear"):
            getattr(L, f).argtypes = [ctypes.c_void_p]
        L.side_set_budget.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
        L.side_nodes.restype = ctypes.c_uint64
        L.side_nodes.argtypes = [ctypes.c_void_p]
        L.side_value.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos)]
        L.side_move_values.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos),
                                       ctypes.POINTER(ctypes.c_int32)]
        L.side_at_least.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos),
                                    ctypes.c_int]
        L.side_value_in.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos), ctypes.c_int,
                                    ctypes.c_int, ctypes.c_int, ctypes.c_int]
        L.side_best_cards.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos), ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_uint64)]
        L.side_stat.restype = ctypes.c_uint64
        L.side_stat.argtypes = [ctypes.c_void_p, ctypes.c_int]
        L.side_threads.argtypes = [ctypes.c_void_p, ctypes.POINTER(Spec), ctypes.POINTER(Pos), ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_int32)]
        L.side_team_nodes.restype = ctypes.c_uint64
        L.side_trace.argtypes = [ctypes.c_void_p]
        L.side_untrace.argtypes = [ctypes.c_void_p]
        L.side_trace_step.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                      ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_uint64)]
        self.s = L.side_new(tt_bytes)
        if not self.s:
            raise MemoryError("cannot allocate a solver table")

    def set_budget(self, nodes: int) -> None:
        self.lib.side_set_budget(self.s, nodes)

    def stat(self, which: int) -> int:
        """Return nodes with ``which`` cards in hands in the last call (64: table hits)."""
        return int(self.lib.side_stat(self.s, which))

    def trace(self) -> None:
        """Record the steps of the value searches from now on (see :meth:`steps`).
        A value search that reports its steps narrows by probes, not by one
        wide search: other node counts, until :meth:`untrace`."""
        self.lib.side_trace(self.s)

    def untrace(self) -> None:
        """Stop recording the steps (the value searches are the plain ones again)."""
        self.lib.side_untrace(self.s)

    def steps(self) -> list[tuple[int, int, int]]:
        """Return (lo, hi, nodes so far) after each step of the last value search."""
        lo, hi, nodes = ctypes.c_int(), ctypes.c_int(), ctypes.c_uint64()
        n = self.lib.side_trace_step(0, lo, hi, nodes)
        out = []
        for i in range(n):
            self.lib.side_trace_step(i, lo, hi, nodes)
            out.append((lo.value, hi.value, nodes.value))
        return out

    def run(self, what: str, spec: Spec, pos: Pos, target: Any = 0, threads: int = 1) -> tuple[Any, float, int]:
        """Return (answer, seconds, nodes) of one call from an empty table: ``what``
        is value, cards, at_least (target: the points), window (target: lo, hi,
        guess, anytime) or best (target: the guess, -1 for none).  With
        ``threads`` > 1, value and cards run on that many threads sharing the
        table (their nodes summed over the threads)."""
        L = self.lib
        L.side_clear(self.s)
        if threads > 1:
            if what not in ("value", "cards"):
                raise ValueError(f"{what} runs on one thread only")
            vals = (ctypes.c_int32 * 64)()
            t = time.perf_counter()
            v = L.side_threads(self.s, ctypes.byref(spec), ctypes.byref(pos), threads,
                               vals if what == "cards" else None)
            dt = time.perf_counter() - t
            if v == -3:
                raise RuntimeError(f"{self.name}: this build has no threads on one search")
            return (v if what == "value" else (v, tuple(vals))), dt, L.side_team_nodes()
        if what == "value":
            t = time.perf_counter()
            v = L.side_value(self.s, ctypes.byref(spec), ctypes.byref(pos))
            dt = time.perf_counter() - t
            out: Any = v
        elif what == "cards":
            vals = (ctypes.c_int32 * 64)()
            t = time.perf_counter()
            v = L.side_move_values(self.s, ctypes.byref(spec), ctypes.byref(pos), vals)
            dt = time.perf_counter() - t
            out = (v, tuple(vals))
        elif what == "window":
            # target = (lo, hi, guess, anytime)
            wlo, whi, guess, anytime = target
            t = time.perf_counter()
            v = L.side_value_in(self.s, ctypes.byref(spec), ctypes.byref(pos), wlo, whi, guess, anytime)
            dt = time.perf_counter() - t
            out = v
        elif what == "best":
            mask = ctypes.c_uint64()
            t = time.perf_counter()
            v = L.side_best_cards(self.s, ctypes.byref(spec), ctypes.byref(pos), target, ctypes.byref(mask))
            dt = time.perf_counter() - t
            out = (v, mask.value)
        elif what == "at_least":
            t = time.perf_counter()
            v = L.side_at_least(self.s, ctypes.byref(spec), ctypes.byref(pos), target)
            dt = time.perf_counter() - t
            out = v
        else:
            raise ValueError(what)
        return out, dt, L.side_nodes(self.s)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("commit", help="a commit of this repository, or 'worktree'")
    ap.add_argument("--scratch", type=Path, help="folder for the builds (default build/solver-sides)")
    ap.add_argument("--force", action="store_true", help="build again even if built")
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="a -D definition for the compiler (repeatable)")
    a = ap.parse_args(argv)
    print(build(a.commit, a.scratch, a.force, [f"-D{d}" for d in a.defines]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
