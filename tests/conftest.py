"""Make tests/_support.py importable (the suite runs with --import-mode=importlib)."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
