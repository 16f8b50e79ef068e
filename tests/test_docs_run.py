"""The README and every page of docs/ run as written, and the site builds strictly.

Each page's code blocks run in order, in one namespace and in a fresh working
folder of their own, the way a reader would type them:

- ``python`` blocks are executed;
- ``pycon`` blocks are doctests: each ``>>>`` line runs and what it prints
  must match the text under it (``...`` stands for any text, and runs of
  white space compare equal);
- ``console`` blocks are shell sessions: each ``$`` line (with ``\\``
  continuations) runs in bash with this environment's ``rook`` and
  ``python`` first on the path, and its output (stdout and stderr together)
  must match the text under it as above. A command must exit 0 unless it
  ends with a comment ``# exit N``.

Blocks in any other language (``sh``, ``text``, ``json``) are shown, not run:
set-up commands, servers that run until stopped, formats.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = ("python", "pycon", "console")
MATCH = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page: its language, its text and the line it starts on."""

    lang: str
    code: str
    line: int


def page_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, in order."""
    return [Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2) for m in FENCE.finditer(text)]


def console_steps(code: str) -> list[tuple[str, str]]:
    """A console block as (command, expected output) pairs; ``\\`` joins a command's lines."""
    steps: list[tuple[str, list[str]]] = []
    lines = code.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console block text before its first '$' line: {line!r}")
        i += 1
    return [(c, "\n".join(out).strip() + "\n" if "".join(out).strip() else "") for c, out in steps]


def run_console(block: Block, where: str, cwd: Path, env: dict[str, str]) -> None:
    """Run a console block's commands in ``cwd``; each one's output must match what the page shows."""
    checker = doctest.OutputChecker()
    for command, expected in console_steps(block.code):
        status = EXIT.search(command)
        done = subprocess.run(["bash", "-c", "set -o pipefail; " + command], cwd=cwd, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        want = int(status.group(1)) if status else 0
        assert done.returncode == want, (
            f"{where}: `{command}` exited {done.returncode}, not {want}:\n{done.stdout[-3000:]}")
        if expected and not checker.check_output(expected, done.stdout, MATCH):
            raise AssertionError(f"{where}: `{command}` printed\n{done.stdout}\nnot what the page shows:\n{expected}")


def run_page(page: Path, cwd: Path) -> int:
    """Run every runnable block of ``page`` in ``cwd``; the number of blocks run."""
    namespace: dict[str, object] = {"__name__": "__docs__"}
    env = dict(os.environ, COLUMNS="100", NO_MKDOCS_2_WARNING="1")
    runner = doctest.DocTestRunner(optionflags=MATCH)
    ran = 0
    for block in page_blocks(page.read_text()):
        if block.lang not in RUN:
            continue
        where = f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name}:{block.line}"
        if block.lang == "python":
            exec(compile(block.code, where, "exec"), namespace)
        elif block.lang == "pycon":
            test = doctest.DocTestParser().get_doctest(block.code, namespace, where, str(page), block.line - 1)
            result = runner.run(test, clear_globs=False)
            namespace.update(test.globs)        # a doctest runs on a copy of the names it is given
            assert result.failed == 0, f"{where}: {result.failed} of {result.attempted} examples differ (above)"
        else:
            run_console(block, where, cwd, env)
        ran += 1
    return ran


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_code_block_of_the_page_runs_as_written(page: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)     # as a reader with .venv active: rook and python first on the path
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run_page(page, tmp_path)


def test_the_pages_show_code_that_runs() -> None:
    """The pages a newcomer reads first are mostly runnable code, not shown-only blocks."""
    for name in ("README.md", "index.md", "getting-started.md", "solver.md", "simulator.md"):
        page = ROOT / name if name == "README.md" else ROOT / "docs" / name
        langs = [b.lang for b in page_blocks(page.read_text())]
        assert sum(lang in RUN for lang in langs) >= 2, f"{name}: {langs}"


def test_console_steps_read_commands_continuations_and_output() -> None:
    steps = console_steps("$ rook legal \\\n    --x 1\n[1, 2]\n$ true  # exit 0\n")
    assert steps == [("rook legal  --x 1", "[1, 2]\n"), ("true  # exit 0", "")]
    with pytest.raises(AssertionError, match="before its first"):
        console_steps("output\n$ true\n")


def test_a_page_whose_output_differs_fails(tmp_path: Path) -> None:
    page = tmp_path / "bad.md"
    page.write_text("```console\n$ echo 1\n2\n```\n")
    with pytest.raises(AssertionError, match="not what the page shows"):
        run_console(page_blocks(page.read_text())[0], "bad.md", tmp_path, dict(os.environ))
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n")
    with pytest.raises(AssertionError, match="examples differ"):
        run_page(page, tmp_path)


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: every page in the nav, every link and API reference resolves."""
    pytest.importorskip("mkdocs")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "api" / "index.html").is_file()
