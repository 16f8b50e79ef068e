"""The small HTML tables that objects show in Jupyter (``_repr_html_``).

One shape for every object: an optional line of text over a two- or
more-column table, every text escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence


def html_table(rows: Sequence[Sequence[str]], css_class: str, *, title: str | None = None,
               header: Sequence[str] | None = None) -> str:
    """``rows`` as an HTML table of class ``css_class``: each row's first cell a
    right-aligned label, the rest plain cells; ``header`` a row of column names,
    ``title`` a paragraph above the table."""
    head = "" if header is None else "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"
    body = "".join("<tr><th style='text-align:right'>" + html.escape(row[0]) + "</th>"
                   + "".join(f"<td>{html.escape(c)}</td>" for c in row[1:]) + "</tr>" for row in rows)
    para = "" if title is None else f"<p>{html.escape(title)}</p>"
    return f"{para}<table class='{css_class}'>{head}{body}</table>"
