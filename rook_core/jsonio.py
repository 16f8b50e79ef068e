"""Reading JSON documents and JSON-lines streams with clear errors (no game knowledge here)."""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .errors import RookError

__all__ = ["json_line", "json_safe", "read_document", "read_line", "read_object", "run_jsonl"]


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
        except RecursionError:
            raise error(f"{what}: not valid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise error(f"{what} must be a JSON object")
    unknown = set(data) - set(allowed)
    if unknown:   # (a dict built in Python may have keys that are not text)
        raise error(f"{what} has unknown field(s): {', '.join(sorted(map(str, unknown)))}")
    for k in required:
        if k not in data:
            raise error(f"{what}: the field {k!r} is required")
    return data


def read_document(data: Any, what: str, fmt: str, allowed: Iterable[str], required: Iterable[str] = ()
                  ) -> dict[str, Any]:
    """Return a saved document's object (``read_object``) after checking its
    ``format`` tag (absent, or ``fmt``) and its ``summary`` (absent, or an
    object: written for people, not read back).

    :raises RookError: naming ``what`` and the field that is wrong.
    """
    doc = read_object(data, what, ("format", "summary", *allowed), required)
    tag = doc.get("format", fmt)
    if tag != fmt:
        raise RookError(f"{what} 'format' must be {fmt!r}, not {reprlib.repr(tag)}: an unknown format is not read")
    if not isinstance(doc.get("summary", {}), dict):
        raise RookError(f"{what} 'summary' must be an object, not {reprlib.repr(doc['summary'])}")
    return doc


class InternalError(RookError):
    """What a line's answer raised that is not a refusal (a bug): answered
    as ``internal error: ...`` and the next line is read."""


def clean_id(ident: Any) -> Any:
    """An ``id`` as an answer echoes it: NaN and infinities, which are not JSON, as None."""
    return None if isinstance(ident, float) and not math.isfinite(ident) else ident


def check_id(ident: Any, error: type[RookError] = RookError) -> None:
    """Refuse a document's ``id`` that is not a string, an integer or absent
    (FORMATS.md: a string; whole numbers are taken too, as line numbers)."""
    if isinstance(ident, bool) or not isinstance(ident, (str, int, type(None))):
        raise error(f"id must be a string or an integer (FORMATS.md), not {reprlib.repr(ident)}")


def echo_id(obj: Any) -> dict[str, Any]:
    """The ``id`` an answer to ``obj`` starts with: the request's, None for none."""
    return {"id": clean_id(obj.get("id")) if isinstance(obj, dict) else None}


def answered(answer: Callable[[Any], dict[str, Any]], obj: Any) -> dict[str, Any]:
    """``answer(obj)``, with what it fails with on input it did not expect
    (a ValueError, TypeError, ... that is no RookError: a bug) raised as an
    :class:`InternalError`, so that it is answered as a refusal."""
    try:
        return answer(obj)
    except RookError:
        raise
    except (ValueError, TypeError, RecursionError, OverflowError) as e:
        raise InternalError(f"internal error: {type(e).__name__}: {e}") from e


def refusal(e: RookError) -> dict[str, Any]:
    """The answer to a refused line: the message, the error's kind (its
    class: ``IllegalActionError``, ``NotationError``, ``BudgetExceeded``,
    ``InternalError`` for a bug, ...) and what it carries (``rule``; a
    budget stop's ``budget``, ``lo``, ``hi``, ``nodes``)."""
    return {"error": str(e), "kind": type(e).__name__, **e.details()}


def read_line(line: str, not_json: type[RookError] = RookError) -> Any:
    """The JSON value of one line of a JSON-lines stream.

    :raises RookError: (or ``not_json``) for a line that is not JSON, nested
        too deeply too.
    """
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as e:
        raise not_json(f"not valid JSON: {type(e).__name__}: {e}") from None


def run_jsonl(lines: Iterable[str], out: TextIO, answer: Callable[[Any], dict[str, Any]], *,
              ids: Callable[[Any], dict[str, Any]] = echo_id,
              not_json: type[RookError] = RookError) -> int:
    """Answer each JSON line of ``lines`` with one JSON line on ``out``, in order,
    each beginning with ``ids(request)`` (the request's ``id``); a line that
    is not JSON raises ``not_json``, and a refused line gets
    :func:`refusal`'s answer and the next line is read.
    An answer holding ``"bye": true`` ends the loop.  Return 1 if any line
    failed, else 0."""
    failed = 0
    for line in lines:
        if not line.strip():
            continue
        obj: Any = None
        try:
            obj = read_line(line, not_json)
            result = answered(answer, obj)
        except RookError as e:
            failed, result = 1, refusal(e)
        out.write(json_line({**ids(obj), **result}) + "\n")
        out.flush()
        if result.get("bye") is True:
            break
    return failed
