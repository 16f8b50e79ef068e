"""``python -m rook_core`` is the ``rook`` command (importing this module runs nothing)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
