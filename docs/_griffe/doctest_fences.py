"""A griffe extension for the API reference: the package's docstrings show
examples as doctests (``>>>`` lines and their output), which Markdown would
read as nested quotes; this fences each run of them as a ``pycon`` block."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest run (a ``>>>`` line up to the next blank line) in a pycon fence."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if not inside and stripped.startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not stripped:
            out.append("```")
            inside = False
        out.append(stripped if inside else line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
