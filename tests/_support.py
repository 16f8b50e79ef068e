"""Helpers shared by the test modules (on sys.path through conftest.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"


def load_tool(name: str) -> Any:
    """Import ``tools/<name>.py`` as a module (the generators of tests/data)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Return the JSON objects of a .jsonl file, one per non-blank line."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def finish_game_hand(g: Any) -> None:
    """Play the current hand of a ``Game`` to its end: the first bidder opens
    at the minimum, everyone else passes, then the first legal action each turn."""
    from rook_core.actions import BID, PASS, Phase
    n = g.hand_number
    while g.hand_number == n and not g.is_over:
        h = g.current
        if h.phase == Phase.BID:
            g.apply(BID + h.variant.min_bid if h.high_bid == 0 else PASS)
        else:
            g.apply(h.legal_actions()[0])
