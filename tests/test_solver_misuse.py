"""The solver's API given what a hurried caller passes (T-14 values, FORMATS.md positions).

Every refusal is a :class:`~rook_core.errors.RookError` naming what is
wrong, and the solver answers on after it as if the call had not been made;
what the other integer types (NumPy's) mean is an int, as everywhere else.
Copies are new solvers of the same options.  The ``--show`` forms of the
JSON-lines commands read a bad line as the JSON forms do.
"""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _support import doubled_at_address, read_jsonl

from rook_core.errors import PositionError, RookError
from rook_core.solver import Solver, solve_many

DATA = Path(__file__).resolve().parent / "data"
ANSWER = ("value", "move_values", "best", "base_nodes")
SHORT = read_jsonl(DATA / "solve.jsonl")
POS = {k: v for k, v in SHORT[0].items() if k not in ANSWER}
VALUE = SHORT[0]["value"]
GOOD = {"preset": "tournament", "trump": "R", "leader": 0, "trick": ["B5"],
        "hands": [["B6"], ["B7", "Rook"], ["B8", "R5"], ["B9", "G5"]]}


def _refusals() -> dict[str, Callable[[Solver, Any], object]]:
    return {
        "value-workers": lambda s, p: s.value(p, workers=99),
        "value-guess": lambda s, p: s.value(p, guess="x"),
        "value-window": lambda s, p: s.value(p, window=(5, 1)),
        "value-progress": lambda s, p: s.value(p, progress=7),
        "solve-workers": lambda s, p: s.solve(p, workers=0),
        "best-cards-guess": lambda s, p: s.best_cards(p, guess=2.5),
        "batch-of-two-variants": lambda s, p: s.solve_batch([p, GOOD]),
    }


@pytest.mark.parametrize("refusal", list(_refusals()))
def test_T14_a_call_refused_after_reading_a_new_variant_leaves_no_entry_a_later_variant_could_read(
        refusal: str) -> None:
    """The table knows the rules of its entries by address.  A call that
    read a position of another variant and was then refused (a bad
    ``workers``, ``guess``, ``window``, ``progress``, a batch of two
    variants) let go of the rules of the entries in the table; once the
    rules cache dropped them, a new variant's rules could take their
    address and read those entries as its own (a variant of doubled
    counters answered the first variant's value)."""
    from rook_core._native import rules
    from rook_core.variant import Variant
    hands = [["B14", "B5"], ["B6", "B10"], ["R5", "G5"], ["Y5", "Y10"]]
    base = Variant.from_preset("tournament")
    a = base.replace(name=f"refused-{refusal}-a")
    old = id(rules.rules_for(a))
    s = Solver()
    first = s.value({"variant": a.to_dict(), "trump": "R", "leader": 0, "hands": hands})
    other = {"variant": base.replace(name=f"refused-{refusal}-b").to_dict(), "trump": "R", "leader": 0,
             "hands": hands}
    with pytest.raises(RookError):
        _refusals()[refusal](s, other)
    c = doubled_at_address(base, old, f"refused-{refusal}")
    pos_c = {"variant": c.to_dict(), "trump": "R", "leader": 0, "hands": hands}
    assert first > 0 and s.value(pos_c) == Solver().value(pos_c) == 2 * first


def test_T14_numpy_integers_are_ints_to_every_option_and_question_of_the_solver() -> None:
    """NumPy's integers (a seat, a count, a guess taken from an array) were
    refused by the options, ``guess``, ``window``, ``workers`` and
    ``team``, while ``target`` and ``tolerance`` took them."""
    np = pytest.importorskip("numpy")
    s = Solver(np.int64(1 << 20), np.int64(10**9), time_budget=np.int64(60))
    assert (s.tt_bytes, s.node_budget, s.time_budget) == (1 << 20, 10**9, 60.0)
    assert s.value(POS, guess=np.int64(VALUE), workers=np.int32(2)) == VALUE
    assert s.value(POS, window=(np.int64(0), np.int64(VALUE + 5))) == VALUE
    assert s.solve(POS, guess=np.int16(3), workers=np.int64(1)).value == VALUE
    assert s.best_cards(POS, guess=np.int64(VALUE)).value == VALUE
    assert s.at_least(POS, VALUE, np.int64(0)) and not s.at_least(POS, VALUE + 1, np.int8(0))
    assert solve_many([POS], workers=np.int64(1), what="value") == [VALUE]


@pytest.mark.parametrize("team", [1.0, 0.0, "1", None])
def test_T14_at_least_refuses_a_team_that_is_not_an_int(team: Any) -> None:
    """A float team equal to 0 or 1 was taken."""
    with pytest.raises(RookError, match="team"):
        Solver().at_least(POS, 0, team)


@pytest.mark.parametrize("window,want", [((2**70, 2**71), 2**70), ((-(2**71), -(2**70)), -(2**70)),
                                         ((-(2**70), 2**70), None), ((2**31, 2**31), 2**31)])
def test_T14_a_window_past_the_native_ints_clips_the_value_as_any_other_window(
        window: tuple[int, int], want: int | None) -> None:
    """The value clipped to a window beyond the 32-bit ints of the search
    raised OverflowError; it is lo (the value is at most lo) or hi."""
    s = Solver()
    assert s.value(POS, window=window) == (VALUE if want is None else want)
    assert s.value(POS) == VALUE


def test_a_solver_copies_and_pickles_to_a_new_solver_of_the_same_options() -> None:
    """``copy``, ``deepcopy`` and ``pickle`` (a solver handed to another
    process) raised a bare TypeError; each gives a new solver, the same
    options and an empty table of its own, that answers as the first."""
    s = Solver(1 << 20, node_budget=10**9, generalize=False, time_budget=30.0)
    assert s.value(POS) == VALUE
    for twin in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert type(twin) is Solver and twin is not s
        assert (twin.tt_bytes, twin.node_budget, twin.time_budget) == (1 << 20, 10**9, 30.0)
        assert twin.solve(POS) == s.solve(POS)
        s.clear()
        twin.clear()
        twin.value(POS)
        nodes = twin.last_nodes
        s.value(POS)
        assert s.last_nodes == nodes      # generalize=False came along: the same search


NOT_POSITIONS = {"none": None, "an-int": 5, "one-position": GOOD, "its-text": json.dumps(GOOD),
                 "its-bytes": json.dumps(GOOD).encode()}


@pytest.mark.parametrize("positions", list(NOT_POSITIONS.values()), ids=list(NOT_POSITIONS))
def test_solve_many_and_solve_batch_refuse_what_is_not_an_iterable_of_positions(positions: Any) -> None:
    """None raised a bare TypeError, and one position (its dict or its
    text) was read as positions of its keys or characters, each refused in
    place as not JSON."""
    with pytest.raises(RookError, match="positions must be an iterable"):
        solve_many(positions)
    s = Solver()
    with pytest.raises(RookError, match="positions must be an iterable"):
        s.solve_batch(positions)
    [got] = s.solve_batch(p for p in [GOOD])
    assert not isinstance(got, RookError)
    assert (got.value, got.move_values) == (s.solve(GOOD).value, s.solve(GOOD).move_values)


@pytest.mark.parametrize("kwargs,words", [
    ({"progress": 5}, "progress"),
    ({"progress": "done"}, "progress"),
    ({"workers": True}, "workers"),
    ({"workers": 2.0}, "workers"),
    ({"what": "value", "windows": 5}, "windows"),
    ({"what": "value", "windows": "ab"}, "windows"),
])
def test_solve_many_refuses_a_bad_option_naming_it(kwargs: dict[str, Any], words: str) -> None:
    """A progress that is no function failed with a bare TypeError once the
    first position was solved, a bool of workers was taken as one, and
    windows that are not an iterable raised a bare TypeError."""
    with pytest.raises(RookError, match=words):
        solve_many([POS, POS], **kwargs)


def test_solve_many_reads_windows_from_any_iterable() -> None:
    got = solve_many([POS, POS], what="value", windows=(w for w in [(0, 1), None]))
    assert got == [1 if VALUE >= 1 else VALUE, VALUE]


def test_FORMATS_a_position_dict_with_keys_that_are_not_text_is_refused_naming_them() -> None:
    """A dict built in Python with an int key raised a bare TypeError while
    the unknown fields were named."""
    odd: dict[Any, Any] = {**GOOD, 1: 2}
    with pytest.raises(PositionError, match="unknown field.*1"):
        Solver().solve(odd)
    odder: dict[Any, Any] = {**odd, None: 3, "x": 4}
    with pytest.raises(PositionError, match="unknown field"):
        Solver().solve(odder)


def _rook(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rook_core.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("command", ["solve", "nest", "analyse"])
def test_the_show_forms_answer_a_line_nested_too_deeply_as_not_json_and_read_on(command: str) -> None:
    """``rook solve --show`` and ``rook nest --show`` ended with a
    RecursionError traceback on a line nested too deeply (the JSON forms
    answer it as not JSON); each now prints ``error: not valid JSON`` and
    reads the next line."""
    deep = "[" * 100_000 + "\n"
    res = _rook(command, "--show", stdin=deep + (json.dumps(GOOD) + "\n" if command == "solve" else ""))
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    assert res.stdout.startswith("error: not valid JSON"), res.stdout
    if command == "solve":
        assert "value: team 0 takes 0 points" in res.stdout


@pytest.mark.parametrize("call", ["generalize", "anytime-value", "anytime-solve", "keep_table", "guesses"])
@pytest.mark.parametrize("flag", ["no", 0, 1, None, 2.0])
def test_a_solvers_yes_no_options_take_true_or_false_only(call: str, flag: object) -> None:
    """generalize="no" turned generalization on: any truthy value was read as yes."""
    import numpy as np
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    name = call.split("-")[0]
    calls = {"generalize": lambda f: Solver(generalize=f),
             "anytime-value": lambda f: Solver().value(pos, anytime=f),
             "anytime-solve": lambda f: Solver().solve(pos, anytime=f),
             "keep_table": lambda f: Solver().solve_batch([pos], keep_table=f),
             "guesses": lambda f: Solver().solve_batch([pos], guesses=f)}
    with pytest.raises(RookError, match=f"{name} must be True or False, not"):
        calls[call](flag)
    calls[call](True)
    calls[call](np.bool_(False))


def test_T14_a_positions_taken_points_are_bounded_by_the_hand_of_its_variant() -> None:
    """taken was bounded by 10,000 whatever the variant: 500 of tournament's 120
    was read, and a variant whose hand holds 16,000 points could not state its
    own positions."""
    from rook_core.variant import Variant
    pos = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
           "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}
    with pytest.raises(PositionError, match=r"taken\[0\] must be an integer 0..120 \(a hand of 'tournament'"):
        Solver().solve({**pos, "taken": [500, 0]})
    assert Solver().solve({**pos, "taken": [120, 0]}).value == Solver().solve(pos).value
    big = Variant.from_preset("tournament", counters=((5, 500), (10, 1000), (14, 1000), ("Rook", 5_000)),
                              nest_to="declarer")
    assert big.total_points == 15_000
    mine = {k: v for k, v in pos.items() if k != "preset"}
    assert Solver().solve({**mine, "variant": big.to_dict(), "taken": [12_000, 0]}).value >= 0
