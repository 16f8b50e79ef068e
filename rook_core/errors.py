"""Typed errors raised by rook_core.

Every public entry point validates its input and raises one of these; a
refused action leaves the state unchanged.  All subclass :class:`ValueError`
so callers that only know the standard library can still catch them.
"""

from __future__ import annotations

import operator
import reprlib
from typing import Any


class RookError(ValueError):
    """Base class of every error rook_core raises on bad input."""

    def details(self) -> dict[str, object]:
        """What the error carries besides its message, as JSON fields (the
        JSON-lines commands and ``rook engine`` add them to a refusal)."""
        return {}


class NotationError(RookError):
    """Card or action text that cannot be read; the message quotes the text."""

    def __init__(self, message: str, text: object = None) -> None:
        super().__init__(message)
        self.text = text


class VariantError(RookError):
    """A variant configuration that breaks a rule of RULES.md sections 1, 2 or 4."""


class IllegalActionError(RookError):
    """An action refused by the rules; ``rule`` names the RULES.md id it breaks."""

    def __init__(self, message: str, rule: str | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action

    def details(self) -> dict[str, object]:
        return {} if self.rule is None else {"rule": self.rule}


class PositionError(RookError):
    """A trick-play position (FORMATS.md) whose fields are not consistent."""


class BotError(RookError):
    """A bot that failed while it played: an outside program that could not
    start, ended, answered something that is not an action or did not
    answer in time, or a bot that raised.  ``bot`` names the bot and
    ``seat`` its seat (None when not known); the message names both.  The
    ``rook`` command ends with exit status 1 on it, as on any failure during
    a run, not 2 as on a bad argument."""

    def __init__(self, message: str, bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat

    def details(self) -> dict[str, object]:
        return {k: v for k, v in (("bot", self.bot), ("seat", self.seat)) if v is not None}


class BotActionError(IllegalActionError, BotError):
    """An action a bot chose in a run that the rules refuse: an
    :class:`IllegalActionError` (``rule``, ``action``) that is also a
    :class:`BotError` (``bot``, ``seat``)."""

    def __init__(self, message: str, rule: str | None = None, action: int | None = None,
                 bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message, rule, action)
        self.bot = bot
        self.seat = seat

    def details(self) -> dict[str, object]:
        return {**IllegalActionError.details(self), **BotError.details(self)}


def check_progress(progress: object) -> None:
    """Refuse a ``progress`` that is neither None nor callable (the long
    calls of the simulator, the odds, the reviews and the nest decision).

    :raises RookError: naming it.
    """
    if progress is not None and not callable(progress):
        raise RookError(f"progress must be a function (done, total) or None, not {progress!r}")


def as_int(x: object) -> int | None:
    """``x`` as a Python int when it is an integer (an int or another integer
    type, NumPy's), else None: never a bool, a float or text."""
    if type(x) is int:       # the common case, at once
        return x
    if isinstance(x, bool):
        return None
    try:
        return operator.index(x)   # type: ignore[arg-type]
    except TypeError:
        return None


def int_arg(x: object, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``x`` as a Python int (:func:`as_int`), ``lo`` .. ``hi`` when given.

    :raises RookError: ``what``, then what ``x`` was.
    """
    n = as_int(x)
    if n is None or lo is not None and n < lo or hi is not None and n > hi:
        raise RookError(f"{what}, not {reprlib.repr(x)}")
    return n


def bool_arg(x: object, what: str) -> bool:
    """Return ``x`` as a bool (True or False, NumPy's too; never 0, 1 or text,
    where ``"no"`` would read as true).

    :raises RookError: naming ``what`` and what ``x`` was.
    """
    if x is True or x is False:
        return x
    if type(x).__module__ == "numpy" and type(x).__name__ in ("bool_", "bool"):   # NumPy's, not imported here
        return bool(x)
    raise RookError(f"{what} must be True or False, not {reprlib.repr(x)}")


def list_arg(items: object, what: str) -> list[Any]:
    """Return the things of ``items`` (a list, a tuple, a generator: any
    iterable, read once) as a list.

    :raises RookError: for one thing where many are wanted (text, a dict)
        or what is not iterable, naming ``what``.
    """
    if not isinstance(items, (str, bytes, bytearray, dict)):
        try:
            it = iter(items)   # type: ignore[call-overload]
        except TypeError:
            pass
        else:
            return list(it)
    raise RookError(f"{what} must be an iterable (a list, a generator), not {reprlib.repr(items)}")


def as_tuple(x: Any) -> tuple[Any, ...] | None:
    """``x`` read once as a tuple (a list, a generator: any iterable), or
    None for a text or what is not a collection (for the caller's own
    message)."""
    if isinstance(x, (str, bytes)):
        return None
    try:
        return tuple(x)
    except TypeError:
        return None


def missing_extra(what: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for ``what`` imported without the packages of the optional
    ``extra`` (``error``: the failed import's own error, whose module it names)."""
    return ModuleNotFoundError(f"{what} needs the {extra} extra: pip install 'rook_core[{extra}]' "
                               f"(in a checkout: pip install -e '.[{extra}]'); {error}", name=error.name)
