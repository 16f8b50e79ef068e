"""Reading JSON documents and JSON-lines streams with clear errors (no game knowledge here)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .errors import RookError

__all__ = ["json_line", "json_safe", "read_object", "run_jsonl"]


def json_safe(x: Any) -> Any:
    """``x`` (dicts, lists, tuples, numbers) with every NaN or infinity made None:
    JSON has no such numbers, and a reader of strict JSON refuses them."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_safe(v) for v in x]
    return x


def json_line(x: Any) -> str:
    """``x`` as one line of strict JSON, a NaN or infinity written as null.  Most
    answers hold none, so they are written at once; only one that does is
    walked through :func:`json_safe` (which costs twice the dump itself)."""
    try:
        return json.dumps(x, allow_nan=False)
    except ValueError:
        return json.dumps(json_safe(x), allow_nan=False)


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
        out.write(json_line(result) + "\n")
        out.flush()
        if result.get("bye") is True:
            break
    return failed
