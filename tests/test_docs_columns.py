"""docs/simulator.md documents every column of the simulator's tables, and no other.

Each table of the page (the hands table under "### The hands table", the
games table under "### The games table") must have one row per column of
``HAND_COLUMNS`` or ``GAME_COLUMNS``, in the code's order, naming the column
and its NumPy type: a column added, renamed, retyped or dropped in the code
fails here until the page says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rook_core.sim.simulate import GAME_COLUMNS, HAND_COLUMNS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "simulator.md"
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|(.*)\|\s*$", re.M)
TABLES = {"hands": HAND_COLUMNS, "games": GAME_COLUMNS}


def documented(heading: str) -> list[tuple[str, str, str]]:
    """The (column, type, meaning) rows of the table in the section under ``heading``."""
    text = PAGE.read_text()
    start = text.index(heading + "\n")
    end = text.find("\n#", start + len(heading))
    section = text[start:end if end >= 0 else len(text)]
    return [(m.group(1), m.group(2), m.group(3).strip()) for m in ROW.finditer(section)]


@pytest.mark.parametrize("table", list(TABLES))
def test_every_column_is_documented_with_its_type(table: str) -> None:
    columns = TABLES[table]
    rows = documented(f"### The {table} table")
    assert [(name, dtype) for name, dtype, _ in rows] == [(name, t[0]) for name, t in columns.items()]
    assert all(meaning for _, _, meaning in rows), "every column's row says what it holds"


def test_every_column_name_appears_on_the_page() -> None:
    text = PAGE.read_text()
    missing = [name for columns in TABLES.values() for name in columns if f"`{name}`" not in text]
    assert not missing, f"columns docs/simulator.md does not name: {missing}"


def test_the_reader_sees_a_missing_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check reads real rows: a page without one column's row fails it."""
    page = tmp_path / "simulator.md"
    page.write_text(re.sub(r"^\| `winner` .*\n", "", PAGE.read_text(), flags=re.M))
    monkeypatch.setitem(globals(), "PAGE", page)
    assert [r[0] for r in documented("### The games table")] == list(GAME_COLUMNS)[:-1]
    assert len(documented("### The hands table")) == len(HAND_COLUMNS)
