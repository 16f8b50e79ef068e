"""The README opens with the two commands and a tour of what the project does."""

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



def test_readme_tour_shows_a_hand_a_solve_a_simulation_and_the_shell() -> None:
    """The tour's blocks (run by tests/test_docs_run.py) cover what the project is for."""
    text = README.read_text()
    tour = text[text.index("## A short tour"):text.index("## Documentation")]
    for shown in ("HandState.deal", "Solver().solve", "simulate(", "rook solve", "browser-table.png",
                  "simulation-report.png"):
        assert shown in tour, shown
    for picture in re.findall(r"\]\((docs/images/[^)]+)\)", tour):
        assert (README.parent / picture).stat().st_size > 10_000, picture
