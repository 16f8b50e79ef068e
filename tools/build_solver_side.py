"""Build the double-dummy solver of one commit as a shared library of its own.

    python tools/build_solver_side.py 649b7bd          # prints the library's path
    python tools/build_solver_side.py worktree         # the files as they are now

The solver sources of the commit (``src/rook/solve*.c``, ``src/rook/solve/*.c``
and the headers beside them) are taken with ``git archive`` into a scratch
folder (``build/solver-sides/<commit>/``, or ``--scratch``), and compiled with
``bench/solver_side.c`` (the fixed C interface) into ``side.so`` there, with
the flags of the package build (``-O3``, x86-64-v2 where the compiler knows
it, link-time optimisation).  Each library keeps its symbols to itself, so
two of them load into one process: ``bench/solver_vs.py`` times them on the
same deals.  A commit already built is not built again (``--force`` does).

The C compiler is ``$CC`` or ``cc``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIM = ROOT / "bench" / "solver_side.c"


def resolve(commit: str) -> str:
    """Return the full hash of ``commit`` ('worktree' stays as it is)."""
    if commit == "worktree":
        return commit
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"build_solver_side: {commit!r} is not a commit of this repository")
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


def _arch_flags(cc: str) -> list[str]:
    probe = subprocess.run([cc, "-march=x86-64-v2", "-x", "c", "-c", "-o", os.devnull, "-"],
                           input=b"int x;", capture_output=True)
    return ["-march=x86-64-v2"] if probe.returncode == 0 else []


def build(commit: str, scratch: Path | None = None, force: bool = False, extra: list[str] | None = None
          ) -> Path:
    """Return the path of the shared library of ``commit``'s solver, built if needed."""
    full = resolve(commit)
    name = full[:12] if full != "worktree" else full
    if extra:
        name += "-" + hashlib.sha1(" ".join(extra).encode()).hexdigest()[:8]
    dest = (scratch or ROOT / "build" / "solver-sides") / name
    lib = dest / "side.so"
    if lib.exists() and not force and full != "worktree":
        return lib
    dest.mkdir(parents=True, exist_ok=True)
    src = _export(full, dest)
    sources = sorted((src / "rook").glob("solve*.c")) + sorted((src / "rook" / "solve").glob("*.c"))
    if not sources:
        raise SystemExit(f"build_solver_side: no solver sources in {full[:12]}")
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-O3", *_arch_flags(cc), "-flto", "-std=c11", "-fPIC", "-shared",
           "-fvisibility=hidden", "-Wl,-Bsymbolic", f"-I{src}", *(extra or []),
           str(SHIM), *map(str, sources), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"build_solver_side: the build of {full[:12]} failed:\n{done.stderr}")
    return lib


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
