"""The README's commands and Python example stay true."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_opens_with_the_two_commands() -> None:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    assert "tools/setup.sh" in blocks[0] and "rook demo" in blocks[0]
    setup = (README.parent / "tools" / "setup.sh").read_text()
    assert "pip install -q -e '.[test]'" in setup and "chromium-driver" in setup
    assert "bash tools/setup.sh" in (README.parent / ".ci" / "run").read_text()
    assert blocks[1].strip() == ".venv/bin/python -m pytest"


def test_readme_python_example_runs() -> None:
    code = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[0]
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    h = namespace["h"]
    assert h.phase.label == "play" and len(h.trick) == 1  # type: ignore[attr-defined]


def test_readme_toonerville_example_runs() -> None:
    block = next(b for b in re.findall(r"```python\n(.*?)```", README.read_text(), re.S) if "toonerville" in b)
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    g = namespace["g"]
    assert g.is_over and g.winners and min(g.totals) == g.totals[g.winners[0]]  # type: ignore[attr-defined]
