"""The source distribution: what ``pip install`` of a released rook_core starts from.

The sdist must hold exactly the files git tracks (and PKG-INFO): a pattern
that matched folders inside ``.venv`` once put 8,000 files of installed
packages (49 MB) into it.  The whole round trip (the sdist installed in a
fresh venv and run there) is ``tools/check_dist.py``, which ``.ci/run`` runs.

The optional extras: a module that needs one, imported without it, names
the extra and how to install it.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from check_dist import build_sdist, sdist_problems, tracked_files  # noqa: E402


def _tarball(path: Path, names: list[str]) -> Path:
    with tarfile.open(path, "w:gz") as t:
        for n in names:
            info = tarfile.TarInfo(f"rook_core-0.1.0/{n}")
            info.size = 1
            t.addfile(info, io.BytesIO(b"x"))
    return path


def test_the_sdist_holds_exactly_the_files_git_tracks(tmp_path):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): nothing to compare the sdist with")
    sdist = build_sdist(tmp_path)
    assert sdist_problems(sdist, tracked_files()) == []
    assert sdist.stat().st_size < 5_000_000


def test_the_sdist_check_names_an_untracked_file_and_a_missing_one(tmp_path):
    tracked = {"README.md", "src/a.c", "rook_core/x.py"}
    good = _tarball(tmp_path / "good.tar.gz", ["PKG-INFO", *sorted(tracked)])
    assert sdist_problems(good, tracked) == []
    bad = _tarball(tmp_path / "bad.tar.gz", ["PKG-INFO", "README.md", "src/a.c", ".venv/lib/tests/t.py"])
    problems = sdist_problems(bad, tracked)
    assert any("untracked" in p and ".venv/lib/tests/t.py" in p for p in problems)
    assert any("leaves out" in p and "rook_core/x.py" in p for p in problems)
    no_info = _tarball(tmp_path / "noinfo.tar.gz", sorted(tracked))
    assert sdist_problems(no_info, tracked) == ["the sdist has no PKG-INFO"]


def _blocked(modules: list[str], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python where importing ``modules`` fails, as
    without the extra that brings them."""
    pre = "".join(f"sys.modules[{m!r}] = None; " for m in modules)
    return subprocess.run([sys.executable, "-c", f"import sys; {pre}{code}"], capture_output=True, text=True,
                          cwd=ROOT / "tests")


@pytest.mark.parametrize("modules, module, extra", [
    (["gymnasium"], "rook_core.rl", "rl"),
    (["pettingzoo"], "rook_core.rl", "rl"),
    (["fastapi"], "rook_core.service.app", "serve"),
    (["uvicorn", "uvicorn.protocols", "uvicorn.protocols.http", "uvicorn.protocols.http.h11_impl"],
     "rook_core.service.serving", "serve"),
])
def test_a_module_of_an_extra_imported_without_it_names_the_extra(modules, module, extra):
    out = _blocked(modules, f"import {module}")
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: ")
    assert f"{module} needs the {extra} extra: pip install 'rook_core[{extra}]'" in last
    assert modules[-1] in last


def test_rook_serve_without_the_serve_extra_says_so_in_one_line():
    out = _blocked(["fastapi"], "from rook_core.cli import main; sys.exit(main(['serve', '--port', '0']))")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [
        "rook: error: rook serve: rook_core.service.app needs the serve extra: pip install 'rook_core[serve]' "
        "(in a checkout: pip install -e '.[serve]'); import of fastapi halted; None in sys.modules"]


def test_the_installed_metadata_carries_the_packages_own_version():
    """pyproject.toml's version (what pip shows) and rook_core.__version__
    (what rook --version, the engine and the service show) are one."""
    from importlib.metadata import version

    from rook_core import __version__
    assert version("rook_core") == __version__
    assert f'version = "{__version__}"' in (ROOT / "pyproject.toml").read_text().split("[project]")[1].split("[")[0]


def test_the_supported_pythons_agree_with_the_packages_metadata():
    """tools/check_dist.py --supported checks the versions the metadata claims:
    requires-python's lowest and every version classifier."""
    from importlib.metadata import metadata

    from check_dist import SUPPORTED
    meta = metadata("rook_core")
    assert meta["Requires-Python"] == f">={SUPPORTED[0]}"
    claimed = [c.rsplit(" :: ", 1)[1] for c in meta.get_all("Classifier") or []
               if c.startswith("Programming Language :: Python :: 3.")]
    assert claimed == list(SUPPORTED)
