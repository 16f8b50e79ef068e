"""Build the source distribution, install it in a fresh virtual environment and run it there.

    .venv/bin/python tools/check_dist.py               # about 40 s
    .venv/bin/python tools/check_dist.py --python python3.10 --python python3.13
    .venv/bin/python tools/check_dist.py --supported     # each supported Python found here
    .venv/bin/python tools/check_dist.py --keep /tmp/dist

What ``pip install`` of a released rook_core gives a user, checked from
this checkout:

1. The sdist (built by the project's own build backend) holds exactly the
   files git tracks, and ``PKG-INFO``: nothing of ``.venv``, ``build/`` or
   any other untracked file, and no tracked file left out.
2. ``pip install`` of that sdist into a fresh virtual environment builds
   the native core from the sdist alone (pip's isolated build).
3. The installed package holds every tracked file of ``rook_core/`` and
   its native modules.
4. Run from outside the checkout, the installed ``rook demo --hands 20``
   works, and ``rook solve`` gives the same answers (values, cards, node
   counts) as this checkout's ``rook`` on two positions.

With ``--python`` (repeated), points 2-4 run once for each interpreter
named (default: the one running this tool), each in a venv of its own;
``--supported`` adds every Python version of :data:`SUPPORTED` that this
machine has (on the PATH as ``python3.X``, or under pyenv's versions), and
names those it lacks.

Exit status 0 when every check holds, else 1 with each failure named.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")   # pyproject.toml's requires-python and classifiers
NATIVE = ("contract", "hand", "rules", "sim", "solver")   # rook_core/_native's extension modules
# two positions (FORMATS.md) that rook solve answers in both installs
POSITIONS = [
    '{"preset": "tournament", "trump": "R", "leader": 0, "trick": [], '
    '"hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}',
    '{"preset": "partnership-57", "trump": "G", "leader": 1, "trick": ["Y10"], '
    '"hands": [["G1", "Y5", "B14"], ["G5", "B1"], ["Y14", "G10", "R10"], ["Y1", "R5", "B10"]]}',
]


def find_python(version: str) -> str | None:
    """An interpreter of ``version`` (``3.12``) on this machine, or None."""
    candidates = [shutil.which(f"python{version}") or ""]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        candidates += sorted(str(p) for p in Path(root, "versions").glob(f"{version}.*/bin/python"))
    for c in candidates:
        if c and subprocess.run([c, "-c", f"import sys; assert sys.version.startswith('{version}.')"],
                                capture_output=True).returncode == 0:
            return c
    return None


def tracked_files() -> set[str]:
    """The files git tracks in this checkout (paths relative to its root)."""
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True)
    except FileNotFoundError:
        raise SystemExit("check_dist: needs git, to compare the sdist with the tracked files") from None
    if out.returncode:
        raise SystemExit(f"check_dist: {ROOT} is not a git checkout: {out.stderr.decode().strip()}")
    return {p for p in out.stdout.decode().split("\0") if p}


def build_sdist(out_dir: Path) -> Path:
    """Build the sdist of this checkout into ``out_dir`` (the backend's
    PEP 517 hook, in a child process run from the checkout) and return its path."""
    code = ("import sys; from scikit_build_core.build import build_sdist; "
            "print(build_sdist(sys.argv[1]))")
    out = subprocess.run([sys.executable, "-c", code, str(out_dir)], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"check_dist: the sdist build failed:\n{out.stderr}")
    return out_dir / out.stdout.strip().splitlines()[-1]


def sdist_problems(sdist: Path, tracked: set[str]) -> list[str]:
    """What the sdist holds that git does not track, and what it leaves out."""
    with tarfile.open(sdist) as t:
        names = {m.name.split("/", 1)[1] for m in t.getmembers() if m.isfile() and "/" in m.name}
    extra = sorted(names - tracked - {"PKG-INFO"})
    missing = sorted(tracked - names)
    problems = []
    if extra:
        problems.append(f"the sdist holds {len(extra)} untracked file(s), e.g. {extra[:5]}")
    if missing:
        problems.append(f"the sdist leaves out {len(missing)} tracked file(s), e.g. {missing[:5]}")
    if "PKG-INFO" not in names:
        problems.append("the sdist has no PKG-INFO")
    return problems


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def install_problems(sdist: Path, work: Path, tracked: set[str], python: str | None = None) -> list[str]:
    """Install the sdist in a fresh venv under ``work`` (made by ``python``,
    default this interpreter) and check what it gives (points 2-4)."""
    env_dir = work / "venv"
    if python is None:
        venv.EnvBuilder(with_pip=True).create(env_dir)
    else:
        made = _run([python, "-m", "venv", str(env_dir)], work)
        if made.returncode:
            return [f"{python} cannot make a venv: {made.stderr.strip()[-500:]}"]
    py, rook = env_dir / "bin" / "python", env_dir / "bin" / "rook"
    out = _run([str(py), "-m", "pip", "install", "-q", str(sdist)], work)
    if out.returncode:
        return [f"pip install of the sdist failed:\n{out.stderr[-2000:]}"]
    problems = []
    where = _run([str(py), "-c", "import rook_core, pathlib; print(pathlib.Path(rook_core.__file__).parent)"], work)
    pkg = Path(where.stdout.strip())
    if ROOT in pkg.parents or not pkg.is_dir():
        return [f"the fresh venv imports rook_core from {pkg}, not from its own site-packages"]
    for f in sorted(t for t in tracked if t.startswith("rook_core/")):
        if not (pkg.parent / f).is_file():
            problems.append(f"the installed package lacks {f}")
    for m in NATIVE:
        if not list((pkg / "_native").glob(f"{m}.*.so")):
            problems.append(f"the installed package lacks the native module _native/{m}")
    demo = _run([str(rook), "demo", "--hands", "20"], work)
    if demo.returncode or "playouts" not in demo.stdout:
        problems.append(f"the installed `rook demo --hands 20` failed (exit {demo.returncode}):\n{demo.stderr[-2000:]}")
    lines = "\n".join(POSITIONS) + "\n"
    mine = subprocess.run([str(Path(sys.executable).parent / "rook"), "solve"], input=lines, capture_output=True,
                          text=True, cwd=ROOT)
    theirs = subprocess.run([str(rook), "solve"], input=lines, capture_output=True, text=True, cwd=work)
    if mine.returncode or theirs.returncode or mine.stdout != theirs.stdout or not theirs.stdout.strip():
        problems.append("the installed `rook solve` answers differently from this checkout's:\n"
                        f"  checkout: {mine.stdout.strip()} {mine.stderr.strip()[-300:]}\n"
                        f"  installed: {theirs.stdout.strip()} {theirs.stderr.strip()[-300:]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="build and install in this folder and keep it (default: a temporary one)")
    ap.add_argument("--python", action="append", default=[],
                    help="an interpreter to install the sdist with (repeat for several; default: this one)")
    ap.add_argument("--supported", action="store_true",
                    help="also every supported Python version found on this machine")
    a = ap.parse_args(argv)
    started = time.monotonic()
    pythons: list[str | None] = list(a.python) or [None]
    if a.supported:
        by_version = {v: find_python(v) for v in SUPPORTED}
        pythons += [p for v, p in by_version.items() if p and not sys.version.startswith(f"{v}.")]
        if None in by_version.values():
            print("check_dist: not on this machine, so not checked: Python "
                  + ", ".join(v for v, p in by_version.items() if p is None))
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rook-dist-") as tmp:
        work = a.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        tracked = tracked_files()
        sdist = build_sdist(work)
        size = sdist.stat().st_size
        problems = sdist_problems(sdist, tracked)
        for i, python in enumerate(pythons if not problems else []):
            where = work / f"py{i}"
            where.mkdir(exist_ok=True)
            name = python or sys.executable
            found = install_problems(sdist, where, tracked, python)
            problems += [f"{name}: {p}" for p in found]
            if not found:
                version = _run([str(where / "venv" / "bin" / "python"), "--version"], where).stdout.strip()
                print(f"check_dist: {version} ({name}): the sdist installs in a fresh venv and runs there")
    for p in problems:
        print(f"check_dist: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_dist: {sdist.name} ({size / 1e6:.1f} MB, {len(tracked)} tracked files): every check holds "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
