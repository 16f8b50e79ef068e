"""What the pages claim about the code, checked against the code: the options
and fields they list are the ones the code has, the layout names every
module, and no page points at a folder of one machine."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted(DOCS.glob("*.md"))]


def _section(page: Path, heading: str) -> str:
    """The text of ``page`` from the heading line ``heading`` to the next heading of any level."""
    text = page.read_text()
    start = text.index(heading + "\n")
    end = text.find("\n#", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def _names(text: str) -> set[str]:
    """The backticked names of a text, with ``x_0`` .. ``x_4`` standing for each of its numbers."""
    names = set(re.findall(r"`(\w+)`", text))
    for stem, lo, hi in re.findall(r"`(\w+)_(\d)` \.\. `\1_(\d)`", text):
        names |= {f"{stem}_{i}" for i in range(int(lo), int(hi) + 1)}
    return names


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_no_page_points_at_a_folder_of_one_machine(page: Path) -> None:
    found = re.findall(r"(?<![\w.])(/(?:work|home|root|Users)/\S*)", page.read_text())
    assert not found, f"{page.relative_to(ROOT)}: {found}"


def test_the_options_table_of_the_pimc_bot_lists_every_option() -> None:
    from rook_core.bots.pimc import PIMCAgent
    options = set(inspect.signature(PIMCAgent.__init__).parameters) - {"self", "variant", "seed"}
    table = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", _section(DOCS / "bots.md", "## PIMC"), re.M)}
    assert options == table, (sorted(options - table), sorted(table - options))


def test_the_observation_fields_of_the_formats_page_are_the_ones_a_game_gives() -> None:
    from rook_core import Game
    g = Game("house-180", seed=1)
    while g.current.phase != "play":
        g.apply(g.current.legal_actions()[0])
    fields = set(g.observation(g.current.declarer)) | set(g.observation(g.current.to_move))
    documented = _names(_section(DOCS / "FORMATS.md", "## An observation (JSON)"))
    assert fields <= documented, sorted(fields - documented)


def test_the_toonerville_page_names_every_column_of_its_simulator() -> None:
    from rook_core.sim.toonerville import GAME_COLUMNS, ROUND_COLUMNS
    documented = _names((DOCS / "toonerville.md").read_text())
    missing = [c for c in (*ROUND_COLUMNS, *GAME_COLUMNS) if c not in documented]
    assert not missing, missing


def test_the_layout_of_the_readme_names_every_module() -> None:
    """Every module of the package and of its public subpackages (the private ones are described, not listed)."""
    text = (ROOT / "README.md").read_text()
    layout = text[text.index("## Layout"):text.index("## Testing")]
    words = set(re.findall(r"[\w.]+", layout))
    package = ROOT / "rook_core"
    public = [package, *(d for d in package.iterdir() if (d / "__init__.py").exists() and not d.name.startswith("_"))]
    modules = {p.stem for d in public for p in d.glob("*.py") if not p.stem.startswith("__")} - {"_version"}
    modules |= {d.name for d in package.iterdir() if (d / "__init__.py").exists()}
    missing = sorted(m for m in modules if m not in words and m.lstrip("_") not in words)
    assert not missing, missing
