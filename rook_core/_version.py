"""The version of rook_core (one place: the package face, the CLI, the engine and the service read it)."""

__version__ = "0.1.0"
