"""Today's solver against the previous one on 300 full deals (T-8 .. T-14).

``tests/data/solve_full.jsonl`` (``tools/gen_solver_full_vectors.py``) holds
300 deals of the nine-trick presets right after the nest and trump, solved
by the solver of commit 649b7bd (itself checked against the exhaustive
minimax on short endings): the value and the value after each legal card of
the leader.  The reference minimax cannot reach nine tricks; these vectors
pin the full-length search instead.

* ``test_T8_T14_full_deals_equal_previous_solver``: per preset, every deal's
  ``value`` and ``move_values`` from ``Solver.solve`` equal the file's, and
  ``Solver.value`` gives the same value.
* ``test_full_deal_vectors_are_the_tools_deals``: the positions are the
  ones the tool deals (the answers are not regenerated: that needs the
  previous solver built, about a minute).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from _support import load_tool, read_jsonl

from rook_core.solver import Solver

DATA = Path(__file__).resolve().parent / "data" / "solve_full.jsonl"
RECORDS = read_jsonl(DATA)
ANSWER = ("value", "move_values", "base_nodes")
BY_PRESET: dict[str, list[dict[str, Any]]] = defaultdict(list)
for _r in RECORDS:
    BY_PRESET[_r["preset"]].append(_r)


def _position(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ANSWER}


@pytest.mark.parametrize("preset", sorted(BY_PRESET))
def test_T8_T14_full_deals_equal_previous_solver(preset: str) -> None:
    solver = Solver()
    bad = []
    for record in BY_PRESET[preset]:
        pos = _position(record)
        solver.clear()
        got = solver.solve(pos)
        values = {str(c): v for c, v in got.move_values.items()}
        solver.clear()
        value = solver.value(pos)
        if (got.value, value, values) != (record["value"], record["value"], record["move_values"]):
            bad.append(f"{record['id']}: value {got.value}/{value} cards {values}, "
                       f"previous solver {record['value']} {record['move_values']}")
    assert not bad, "\n".join(bad[:5])


def test_full_deal_vectors_cover_300_deals() -> None:
    assert len(RECORDS) == 300
    assert len({r["id"] for r in RECORDS}) == 300
    assert all(sum(len(h) for h in r["hands"]) == 36 for r in RECORDS)


def test_full_deal_vectors_are_the_tools_deals() -> None:
    """Generated data, never edited by hand: the positions are exactly the tool's."""
    tool = load_tool("gen_solver_full_vectors")
    expected = [tool.position_of(h, ident) for ident, h in tool.deals()]
    assert [_position(r) for r in RECORDS] == expected
