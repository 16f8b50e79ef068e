"""Reading the JSON documents of rook_core (hands, games, positions) with clear errors."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TextIO

from .actions import parse_action
from .errors import RookError

__all__ = ["read_object", "replay", "run_jsonl"]


def read_object(data: Any, what: str, allowed: Iterable[str], required: Iterable[str] = (),
                error: type[RookError] = RookError) -> dict[str, Any]:
    """Return ``data`` (a dict, or JSON text of one) after checking its fields.

    :raises RookError: (or ``error``) for invalid JSON, a non-object, an
        unknown field or a missing required field, naming ``what``.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise error(f"{what}: not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise error(f"{what} must be a JSON object")
    unknown = set(data) - set(allowed)
    if unknown:
        raise error(f"{what} has unknown field(s): {', '.join(sorted(unknown))}")
    for k in required:
        if k not in data:
            raise error(f"{what}: the field {k!r} is required")
    return data


class _Applies(Protocol):
    def apply(self, action: int, seat: int | None = None) -> None: ...


def replay(target: _Applies, actions: Any, what: str) -> None:
    """Apply ``actions`` (ints or their text forms) to ``target`` in order.

    :raises RookError: naming the index and text of the first action refused.
    """
    if not isinstance(actions, list):
        raise RookError(f"{what} 'actions' must be a list")
    for i, a in enumerate(actions):
        try:
            target.apply(parse_action(a))
        except RookError as e:
            raise type(e)(f"{what} action {i} ({a!r}): {e}") from None


def run_jsonl(lines: Iterable[str], out: TextIO, answer: Callable[[Any], dict[str, Any]],
              always_id: bool = True) -> int:
    """Answer each JSON line of ``lines`` with one JSON line on ``out``, in order,
    echoing the request's ``id`` (always, or only when it has one); a bad line
    gets ``{"id": ..., "error": message}`` and the next line is read.  An
    answer holding ``"bye": true`` ends the loop.  Return 1 if any line
    failed, else 0."""
    failed = 0
    for line in lines:
        if not line.strip():
            continue
        ident: Any = None
        try:
            try:
                obj = json.loads(line)
            except (ValueError, RecursionError) as e:
                raise RookError(f"not valid JSON: {type(e).__name__}: {e}") from None
            if isinstance(obj, dict):
                ident = obj.get("id")
                if isinstance(ident, float) and not math.isfinite(ident):
                    ident = None                                  # NaN and Infinity are not JSON
            result = answer(obj)
        except RookError as e:
            failed = 1
            result = {"error": str(e)}
        except (ValueError, TypeError, RecursionError, OverflowError) as e:   # a bug: answer, go on
            failed = 1
            result = {"error": f"internal error: {type(e).__name__}: {e}"}
        if always_id or ident is not None:
            result = {"id": ident, **result}
        out.write(json.dumps(result) + "\n")
        out.flush()
        if result.get("bye") is True:
            break
    return failed
