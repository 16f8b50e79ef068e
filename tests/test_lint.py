"""The sources keep their style: ruff (Python, the rules in pyproject.toml),
cython-lint (the .pyx/.pxd files) and clang-format (the C of src/ and bench/,
as .clang-format says).  The tools come with the ``test`` extra."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GENERATED_C = {ROOT / "src" / "rook" / "layout.h"}   # written by tools/gen_layout.py


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


def test_ruff_finds_nothing() -> None:
    res = _run(str(BIN / "ruff"), "check", "--no-cache", "rook_core", "tests", "tools", "bench")
    assert res.returncode == 0, res.stdout + res.stderr


def test_cython_lint_finds_nothing() -> None:
    files = sorted(str(p) for p in (ROOT / "rook_core" / "_native").glob("*.p[yx][xd]"))
    assert len(files) >= 10
    res = _run(str(BIN / "cython-lint"), *files)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_c_sources_are_clang_formatted() -> None:
    files = sorted(str(p) for d in ("src", "bench") for p in (ROOT / d).rglob("*.[ch]") if p not in GENERATED_C)
    assert len(files) >= 20
    res = _run(str(BIN / "clang-format"), "--dry-run", "--Werror", *files)
    assert res.returncode == 0, res.stdout + res.stderr
