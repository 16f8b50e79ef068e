"""``python -m rook_core`` is the ``rook`` command."""

from .cli import main

raise SystemExit(main())
