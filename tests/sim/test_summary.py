"""A run's summary prints as a table and gives its figures as rows (issue 18)."""

from __future__ import annotations

import importlib.util
import json
import math

import pytest

from rook_core.errors import RookError
from rook_core.sim.report import format_summary
from rook_core.sim.simulate import simulate
from rook_core.sim.summary import Summary


def _leaves(s: dict) -> dict[tuple[str, str], object]:  # type: ignore[type-arg]
    out = {}
    for k, v in s.items():
        if isinstance(v, dict):
            out.update({(k, f): x for f, x in v.items() if x is not None})
        elif v is not None:
            out[("run", k)] = v
    return out


@pytest.mark.parametrize("kw", [{"hands": 40, "duplicate": True}, {"games": 3}, {"hands": 3}])
def test_a_summary_prints_its_table_and_gives_every_figure_as_a_row(kw: dict) -> None:  # type: ignore[type-arg]
    s = simulate("tournament", ["heuristic", "random", "heuristic", "random"], seed=3, **kw).summary()
    assert isinstance(s, Summary) and isinstance(s, dict) and str(s) == format_summary(s)
    assert "team 0 (seats 0+2)" in str(s)
    rows = s.rows()
    leaves = _leaves(s)
    assert [(r["group"], r["figure"]) for r in rows] == list(leaves)
    for r in rows:
        x = leaves[(r["group"], r["figure"])]
        if isinstance(x, (list, tuple)) and len(x) == 3 and all(isinstance(v, (int, float)) for v in x):
            got = [r["value"], r["low"], r["high"]]
            assert all((g is None and isinstance(v, float) and math.isnan(v)) or g == v for g, v in zip(got, x))
        elif not isinstance(x, (list, tuple)):
            assert r["value"] == (None if isinstance(x, float) and math.isnan(x) else x) and r["low"] is None
    json.dumps(rows, allow_nan=False)                               # strict JSON, no NaN
    table = s.to_arrow()
    assert table.num_rows == len(rows) and table.column("figure").to_pylist() == [r["figure"] for r in rows]
    assert table.column("low").to_pylist() == [r["low"] for r in rows]


@pytest.mark.parametrize("lib,method", [("pandas", "to_pandas"), ("polars", "to_polars")])
def test_a_summary_becomes_a_data_frame_or_says_what_it_needs(lib: str, method: str) -> None:
    s = simulate("tournament", ["random"] * 4, hands=5, seed=1).summary()
    if importlib.util.find_spec(lib) is None:
        with pytest.raises(RookError, match=f"needs {lib}"):
            getattr(s, method)()
        return
    frame = getattr(s, method)()
    assert list(frame.columns) == ["group", "figure", "value", "low", "high"] and len(frame) == len(s.rows())
