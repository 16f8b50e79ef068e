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
