"""The command line's flag types and each subcommand's help.

The types (:func:`int_in`, :func:`seed`, :func:`seconds`) refuse a bad value
with an :class:`argparse.ArgumentTypeError`, so that argparse names the flag
in one line and exits with status 2 before any work; a seed follows
:func:`rook_core.rng.check_seed`, the one rule of the API and the service.
:data:`COMMANDS` says what each subcommand reads and writes, with an
example, and :class:`HelpFormatter` shows both and every flag's default.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .errors import RookError
from .rng import check_seed
from .sim.chunks import MOST_WORKERS

__all__ = ["BUDGET", "BUDGET_MAX", "COMMANDS", "COUNT_MAX", "HelpFormatter", "WORKERS", "file_name", "int_in",
           "seconds", "seed"]

BUDGET_MAX = 2**63 - 1        # the largest node budget (the solver counts nodes in 64 bits)
COUNT_MAX = 2**63 - 1         # hands or games of a run (what fits in memory is checked with the run)


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an int in lo .. hi (argparse then names the flag and exits with status 2)."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
        if not lo <= n <= hi:
            top = "2**63-1" if hi == 2**63 - 1 else f"{hi:,}"
            raise argparse.ArgumentTypeError(f"must be an int in {lo:,} .. {top}, not {n:,}")
        return n
    parse.__name__ = "int"
    return parse


def seed(text: str) -> int:
    """An argparse type: a seed (rng.check_seed's rule and message)."""
    value: object = text
    try:
        value = int(text)
    except ValueError:
        pass                                 # check_seed names the text it was given
    try:
        return check_seed(value)
    except RookError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def seconds(text: str) -> float:
    """An argparse type: seconds, 0 .. 1e9."""
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0.0 <= t < 1e9:
        raise argparse.ArgumentTypeError(f"must be a number of seconds in 0 .. 1e9, not {text}")
    return t


def file_name(text: str) -> str:
    """An argparse type: a file name (any text a file system takes: no NUL character)."""
    if "\x00" in text:
        raise argparse.ArgumentTypeError(f"{text!r} holds a NUL character, which no file name can")
    return text


BUDGET = int_in(0, BUDGET_MAX)
WORKERS = int_in(1, MOST_WORKERS)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that keeps the example's lines and shows each flag's default (unless its text says it)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        # by identity: a default of 0 (a budget's "none") equals False, and is shown
        shown = not (action.default is None or action.default is False or action.default is argparse.SUPPRESS)
        if action.option_strings and shown and "default" not in text:
            text += " (default: %(default)s)"
        return text


# What each subcommand reads and writes, and an example (its --help shows both).
COMMANDS: dict[str, tuple[str, str]] = {
    "legal": ("Reads trick-play positions (docs/FORMATS.md), one JSON object per line on stdin, and "
              "writes one JSON line per position with its legal cards, or {\"error\": ...} for a bad line "
              "(the next line is read).",
              "echo '{\"preset\":\"tournament\",\"trump\":\"R\",\"leader\":0,\"trick\":[\"B5\"],"
              "\"hands\":[[\"B6\"],[\"B7\",\"Rook\"],[\"B8\",\"R5\"],[\"B9\",\"G5\"]]}' | rook legal"),
    "perft": ("Reads positions (docs/FORMATS.md) as JSON lines on stdin and writes, per line, the counts "
              "of card sequences 1, 2, ..., --depth cards deep (a list, the last count repeating past the end "
              "of the hand).", "... | rook perft --depth 3"),
    "solve": ("Reads positions (docs/FORMATS.md) as JSON lines on stdin and writes, per line, the "
              "double-dummy value, every legal card's value and the best cards (JSON), or a table with "
              "--show; a budget that runs out gives the bounds proven.",
              "... | rook solve --show --budget 5000000"),
    "nest": ("Reads hands in the nest phase (rook-hand/1) as JSON lines on stdin, or deals one with "
             "--preset and --seed, and writes each trump's best discard and the best trump, double dummy.",
             "rook nest --preset tournament --seed 7 --show"),
    "play": ("Plays a seeded game between bots and writes it to stdout: a readable log, or one JSON line "
             "(format rook-game/1, what rook analyse reads; rook-toonerville/1 for Toonerville) with --json.",
             "rook play --preset partnership-57 --seed 3 --agents heuristic,random,heuristic,random"),
    "analyse": ("", "rook play --seed 3 --json | rook analyse --show"),
    "odds": ("", "rook odds --preset tournament --hand 'R14 R13 R12 R10 R9 B14 B5 G14 Y5' --plot odds.png"),
    "contract": ("Reads Toonerville hands (docs/FORMATS.md) as JSON lines on stdin and writes, per line, "
                 "whether the hand meets its contract, its least deadwood and a best lay-down.",
                 "echo '{\"id\":\"t\",\"hand\":[\"B7\",\"G7\",\"Rook\",\"R3\",\"R4\",\"R5\",\"R6\"],"
                 "\"contract\":2}' | rook contract"),
    "demo": ("Writes the tour to stdout: a seeded deal bid by bots, its double-dummy solution, a "
             "duplicate simulation with intervals, and a million native random playouts.",
             "rook demo --seed 8"),
    "simulate": ("Plays many seeded hands or games between bots and writes the summary to stdout (a "
                 "table, or JSON with --json), the columns to --out, the plots to --report, and a "
                 "progress bar to stderr; files are checked before the run starts.",
                 "rook simulate --agents heuristic,random,heuristic,random --hands 10000 --duplicate "
                 "--out hands.parquet"),
    "serve": ("Serves the HTTP JSON service and the browser table on --host:--port; the games go to the "
              "SQLite file --db, simulation results to --jobs-dir; it prints its address when it is up.",
              "rook serve --port 8000   # then open http://127.0.0.1:8000/"),
    "engine": ("Reads one JSON command per line on stdin (new, legal, act, observe, bot, solve, review, "
               "stop, ...; docs/engine.md) and writes one JSON answer per line on stdout.",
               "echo '{\"cmd\": \"new\", \"game\": \"tournament\", \"seed\": 1}' | rook engine"),
}
