"""Shared command line of the test-vector generators: write the file, or
(with ``--check``) only say whether it is current."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(out: Path, generate_text: Callable[[], str], argv: list[str], tool: str) -> int:
    """Write ``generate_text()`` to ``out``; with ``--check`` in ``argv`` only compare.

    Returns the exit status (1 when ``--check`` finds the file stale).
    """
    text = generate_text()
    if "--check" in argv:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is out of date; run python tools/{tool}", file=sys.stderr)
            return 1
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"wrote {len(text.splitlines())} lines to {out}")
    return 0
