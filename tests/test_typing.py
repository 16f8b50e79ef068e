"""The package type-checks under ``mypy --strict`` (compiled modules via their .pyi stubs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_passes() -> None:
    res = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "rook_core"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_stubs_match_the_compiled_modules(tmp_path: Path) -> None:
    """mypy's stubtest compares each .pyi stub of _native with the module it describes."""
    modules = sorted(f"rook_core._native.{p.stem}" for p in (ROOT / "rook_core" / "_native").glob("*.pyi"))
    assert len(modules) >= 5
    # the stubs come from the sources (MYPYPATH), the modules from wherever the package is
    # installed: run outside the tree, so that an installed (not editable) build is the one imported
    env = dict(os.environ, MYPYPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--allowlist",
                          str(ROOT / "tools" / "stubtest_allowlist.txt"), *modules],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
