"""The summary of a trick-taking run: its headline figures, as a table for people
and as rows for data frames.

:meth:`SimResult.summary <rook_core.sim.simulate.SimResult.summary>` returns a
:class:`Summary`: the same dict of figures as before (each with a 95%
interval as ``[value, low, high]``), which prints as the table
:func:`format_summary` draws, and gives its figures as long rows
(:meth:`Summary.rows`: one per group and figure) for a table library:
:meth:`~Summary.to_arrow`, :meth:`~Summary.to_pandas`, :meth:`~Summary.to_polars`.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import RookError

__all__ = ["Summary", "format_summary"]


class Summary(dict):  # type: ignore[type-arg]
    """The summary of a run (see the module docstring): a dict that prints as a table."""

    def __str__(self) -> str:
        return format_summary(self)

    def rows(self) -> list[dict[str, Any]]:
        """Every figure as a row ``{group, figure, value, low, high}``: group ``run``
        for the run's own facts, ``team_0``, ``team_1`` and ``side_a_minus_b`` for
        theirs; ``low`` and ``high`` are None for a figure without an interval
        (and NaN is None)."""
        out: list[dict[str, Any]] = []

        def add(group: str, figure: str, x: Any) -> None:
            if isinstance(x, (list, tuple)) and len(x) == 3 and all(isinstance(v, (int, float)) for v in x):
                value, low, high = (None if isinstance(v, float) and not math.isfinite(v) else v for v in x)
            elif isinstance(x, (list, tuple)):
                value, low, high = ", ".join(map(str, x)), None, None
            else:
                value, low, high = (None if isinstance(x, float) and not math.isfinite(x) else x), None, None
            out.append({"group": group, "figure": figure, "value": value, "low": low, "high": high})
        for key, x in self.items():
            if isinstance(x, dict):
                for figure, y in x.items():
                    if y is not None:
                        add(key, figure, y)
            elif x is not None:
                add("run", key, x)
        return out

    def to_arrow(self) -> Any:
        """The rows as a ``pyarrow.Table`` (value as text, low and high as floats).

        :raises RookError: without pyarrow (the ``sim`` extra).
        """
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
        except ImportError:
            raise RookError("to_arrow needs pyarrow: pip install 'rook_core[sim]'") from None
        rows = self.rows()
        return pa.table({"group": [r["group"] for r in rows], "figure": [r["figure"] for r in rows],
                         "value": [None if r["value"] is None else str(r["value"]) for r in rows],
                         "low": pa.array([r["low"] for r in rows], pa.float64()),
                         "high": pa.array([r["high"] for r in rows], pa.float64())})

    def to_pandas(self) -> Any:
        """The rows as a ``pandas.DataFrame``.

        :raises RookError: without pandas.
        """
        try:
            import pandas as pd  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError:
            raise RookError("to_pandas needs pandas (pip install pandas); to_arrow() needs only pyarrow") from None
        return pd.DataFrame(self.rows(), columns=["group", "figure", "value", "low", "high"])

    def to_polars(self) -> Any:
        """The rows as a ``polars.DataFrame`` (value as text).

        :raises RookError: without polars.
        """
        try:
            import polars as pl  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise RookError("to_polars needs polars (pip install polars); to_arrow() needs only pyarrow") from None
        return pl.from_arrow(self.to_arrow())


def _ci(x: Any, digits: int = 1, pct: bool = False) -> str:
    m, lo, hi = x
    if m is None or (isinstance(m, float) and math.isnan(m)):
        return "-"
    f = 100.0 if pct else 1.0
    suffix = "%" if pct else ""
    if isinstance(lo, float) and math.isnan(lo):
        return f"{m * f:.{digits}f}{suffix}"
    return f"{m * f:.{digits}f}{suffix} [{lo * f:.{digits}f}, {hi * f:.{digits}f}]"


def format_summary(s: dict[str, Any]) -> str:
    """Return the summary ``s`` (:meth:`SimResult.summary`) as a readable table."""
    lines = [f"{s['preset']}, seed {s['seed']}: {s['hands']} hands"
             + (f" in {s['games']} games" if "games" in s else "")
             + (" (duplicate: every deal twice, sides swapped)" if s["duplicate"] else "")
             + f"; {s['thrown_in']} thrown in",
             f"seats 0-3: {', '.join(s['agents'])}   (95% intervals in brackets)", ""]
    head = f"{'':<22}{'team 0 (seats 0+2)':>30}{'team 1 (seats 1+3)':>30}"
    lines.append(head)
    rows = [("points per hand", "points_per_hand", False), ("score per hand", "score_per_hand", False),
            ("declarer's make rate", "make_rate", True)]
    for label, key, pct in rows:
        lines.append(f"{label:<22}{_ci(s['team_0'][key], pct=pct):>30}{_ci(s['team_1'][key], pct=pct):>30}")
    lines.append(f"{'hands declared':<22}{s['team_0']['declared']:>30}{s['team_1']['declared']:>30}")
    mb = [s[f"team_{t}"]["mean_bid"] for t in (0, 1)]
    lines.append(f"{'mean winning bid':<22}" + "".join(
        f"{'-' if math.isnan(b) else f'{b:.1f}':>30}" for b in mb))
    if "team_0_win_rate" in s:
        lines.append("")
        lines.append(f"team 0 wins {_ci(s['team_0_win_rate'], pct=True)} of the decided games; "
                     f"{s['undecided_games']} undecided; {_ci(s['hands_per_game'])} hands a game")
    if s["duplicate"]:
        d = s["side_a_minus_b"]
        lines.append("")
        lines.append(f"side A ({' + '.join(s['side_a'])}) minus side B ({' + '.join(s['side_b'])}), same cards:")
        lines.append(f"  points per hand  {_ci(d['points_per_hand'])}")
        lines.append(f"  score per hand   {_ci(d['score_per_hand'])}")
        if "games_won_per_game" in d:
            lines.append(f"  games won - lost per game  {_ci(d['games_won_per_game'], digits=3)}")
    return "\n".join(lines)
