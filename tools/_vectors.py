"""Shared command line of the test-vector generators: write the file, or
(with ``--check``) only say whether it is current."""

from __future__ import annotations

import random
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path


def preset_rng(base_seed: int, name: str) -> random.Random:
    """Return the generator of one preset's records: seeded from the preset
    name, so adding a preset does not move the others."""
    return random.Random(base_seed + zlib.crc32(name.encode()))


def as_text(lines: Iterable[str]) -> str:
    """Return the lines of a JSON-lines file as its text."""
    return "".join(line + "\n" for line in lines)


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
