"""The questions a caller asks the solver, each against the exact values (T-8 .. T-14).

Values come from the generated vectors: ``tests/data/solve.jsonl`` (short
endings, the reference minimax's) and ``tests/data/solve_full.jsonl`` (full
deals, the previous solver's).  For each position:

* ``value(window=(lo, hi))`` is the value clipped to the window, for windows
  below, around, at and above the value;
* ``value(guess=g)`` is the value whatever the guess (one out of range too);
* ``value(anytime=True, progress=f)`` is the value, and every bound ``f``
  is told holds the value and narrows step by step;
* ``best_cards`` names exactly the cards ``solve`` finds best, with the value;
* ``solve(guess=g)`` gives the same answers as without a guess;
* ``at_least`` agrees with the value at the value and one grain above;
* ``card_bounds`` holds every card's value within its tolerance.

Also: a budget stops an anytime search with bounds that hold the value; an
exception raised by the progress function stops the search and comes out;
bad guesses, windows and progress functions are refused with ``RookError``
and leave the solver usable.
"""

from __future__ import annotations

import gc
import os
import random
import signal
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from _support import doubled_at_address, read_jsonl

from rook_core.errors import RookError
from rook_core.solver import BudgetExceeded, Solver

DATA = Path(__file__).resolve().parent / "data"
SHORT = read_jsonl(DATA / "solve.jsonl")
FULL = read_jsonl(DATA / "solve_full.jsonl")
ANSWER = ("value", "move_values", "best", "base_nodes")
FULL_SAMPLE = FULL[::10]  # 30 full deals, every preset of the file


def _position(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ANSWER}


def _cases() -> list[dict[str, Any]]:
    return SHORT + FULL_SAMPLE


def _ids(records: list[dict[str, Any]]) -> list[str]:
    return [r["id"] for r in records]


@pytest.mark.parametrize("record", _cases(), ids=_ids(_cases()))
def test_T14_windows_guesses_and_anytime_give_the_value(record: dict[str, Any]) -> None:
    pos, v = _position(record), record["value"]
    s = Solver()
    rng = random.Random(record["id"])
    for lo, hi in [(0, max(0, v - 5)), (v + 5, v + 50), (v - 10, v + 10), (v, v), (v - 1, v + 1),
                   (rng.randrange(0, 130), 130)]:
        if lo > hi:
            continue
        s.clear()
        assert s.value(pos, window=(lo, hi)) == max(lo, min(v, hi)), (lo, hi)
    for g in {0, v, max(0, v - 5), v + 5, rng.randrange(0, v + 6), -5, 10_000}:
        s.clear()
        assert s.value(pos, guess=g) == v, g
    steps: list[tuple[int, int, int]] = []
    s.clear()
    assert s.value(pos, anytime=True, progress=lambda lo, hi, n: steps.append((lo, hi, n))) == v
    assert all(lo <= v <= hi for lo, hi, _ in steps)
    assert all(a[0] <= b[0] and a[1] >= b[1] and a[2] <= b[2] for a, b in zip(steps, steps[1:]))
    assert not steps or steps[-1][:2] == (v, v)


@pytest.mark.parametrize("record", _cases(), ids=_ids(_cases()))
def test_T14_best_cards_and_guessed_solve_agree_with_solve(record: dict[str, Any]) -> None:
    pos = _position(record)
    s = Solver()
    full = s.solve(pos)
    assert full.value == record["value"]
    s.clear()
    best = s.best_cards(pos)
    assert (best.value, best.best, best.to_move) == (full.value, full.best, full.to_move)
    s.clear()
    guessed = s.solve(pos, guess=max(0, full.value - 5))
    assert (guessed.value, guessed.move_values) == (full.value, full.move_values)
    s.clear()
    assert s.at_least(pos, full.value) and not s.at_least(pos, full.value + 1)


@pytest.mark.parametrize("record", _cases(), ids=_ids(_cases()))
def test_T14_the_cards_from_the_best_so_far_equal_the_cards_from_the_value(record: dict[str, Any]) -> None:
    """``solve`` alone takes the root's classes one after another, each
    narrowed from the best value so far; under a budget it does not reach,
    or with ``anytime``, it finds the value first and narrows the cards from
    it.  The two ways give the same answers, the file's own."""
    pos = _position(record)
    plain = Solver().solve(pos)
    assert plain.value == record["value"]
    assert {str(c): v for c, v in plain.move_values.items()} == record["move_values"]
    for other in (Solver(node_budget=10**12).solve(pos), Solver().solve(pos, anytime=True)):
        assert (other.value, other.move_values, other.best) == (plain.value, plain.move_values, plain.best)


@pytest.mark.parametrize("record", _cases(), ids=_ids(_cases()))
def test_T14_card_bounds_hold_every_cards_value_within_the_tolerance(record: dict[str, Any]) -> None:
    """``card_bounds(position, t)``: every legal card, and for each
    ``lo <= value <= hi`` with ``hi - lo <= t`` (the file's values); ``t =
    0`` gives the values themselves."""
    pos, want = _position(record), record["move_values"]
    s = Solver()
    for t in (0, 5, 10, 20, 40):
        s.clear()
        got = {str(c): b for c, b in s.card_bounds(pos, t).items()}
        assert set(got) == set(want)
        for c, (lo, hi) in got.items():
            assert lo <= want[c] <= hi and hi - lo <= t, (t, c, lo, hi, want[c])


def test_T14_card_bounds_cost_less_the_wider_the_tolerance() -> None:
    """On full deals a wider tolerance searches fewer nodes (node counts
    are deterministic), and 0 searches what ``solve`` does."""
    nodes = {}
    for t in (0, 20, 40):
        s, total = Solver(), 0
        for record in FULL_SAMPLE[:6]:
            s.clear()
            s.card_bounds(_position(record), t)
            total += s.last_nodes
        nodes[t] = total
    s, solved = Solver(), 0
    for record in FULL_SAMPLE[:6]:
        s.clear()
        s.solve(_position(record))
        solved += s.last_nodes
    assert nodes[0] == solved and nodes[0] > nodes[20] > nodes[40]


def test_card_bounds_refuse_a_negative_tolerance_and_stop_on_a_budget() -> None:
    pos = _position(FULL[0])
    s = Solver()
    with pytest.raises(RookError, match="tolerance"):
        s.card_bounds(pos, -5)
    with pytest.raises(BudgetExceeded):
        Solver(node_budget=2_000).card_bounds(pos, 20)
    assert s.card_bounds(pos, 0) == {c: (v, v) for c, v in s.solve(pos).move_values.items()}


def test_T14_the_two_ways_to_every_cards_value_are_two_searches() -> None:
    """The budgeted call above really takes the other way: on full deals its
    node counts differ from the plain call's (else the test above compares a
    path with itself)."""
    differ = 0
    for record in FULL_SAMPLE[:6]:
        pos = _position(record)
        plain, budgeted = Solver(), Solver(node_budget=10**12)
        plain.solve(pos)
        budgeted.solve(pos)
        differ += plain.last_nodes != budgeted.last_nodes
    assert differ > 0


@pytest.mark.parametrize("record", FULL[:4], ids=_ids(FULL[:4]))
def test_budget_stops_an_anytime_search_with_bounds_that_hold(record: dict[str, Any]) -> None:
    pos, v = _position(record), record["value"]
    seen: list[tuple[int, int]] = []
    with pytest.raises(BudgetExceeded) as err:
        Solver(node_budget=3_000).value(pos, anytime=True, progress=lambda lo, hi, n: seen.append((lo, hi)))
    assert err.value.lo <= v <= err.value.hi
    assert all(lo <= v <= hi for lo, hi in seen)


def test_an_exception_in_progress_stops_the_search() -> None:
    pos = _position(FULL[0])
    s = Solver()
    calls = []

    def stop(lo: int, hi: int, nodes: int) -> None:
        calls.append(nodes)
        raise KeyboardInterrupt("enough")

    with pytest.raises(KeyboardInterrupt, match="enough"):
        s.value(pos, progress=stop)
    assert len(calls) == 1
    s.clear()
    assert s.value(pos) == FULL[0]["value"]          # the solver works on


@pytest.mark.parametrize("kwargs", [{"guess": "x"}, {"guess": 2.5}, {"guess": True},
                                    {"window": (10, 5)}, {"window": (1, 2, 3)}, {"window": "ab"},
                                    {"window": (0.5, 9)}, {"progress": 7}])
def test_bad_questions_are_refused_and_the_solver_works_on(kwargs: dict[str, Any]) -> None:
    pos = _position(SHORT[0])
    s = Solver()
    with pytest.raises(RookError):
        s.value(pos, **kwargs)
    assert s.value(pos) == SHORT[0]["value"]
    if "guess" in kwargs:
        with pytest.raises(RookError):
            s.solve(pos, guess=kwargs["guess"])
        with pytest.raises(RookError):
            s.best_cards(pos, guess=kwargs["guess"])


@pytest.mark.parametrize("target", [50.99, 50.5, "50", True, None, float("nan")])
def test_at_least_refuses_a_target_that_is_not_an_int(target: Any) -> None:
    """A fractional target was cut to an int (at_least(value + 0.99) said yes)."""
    pos = _position(SHORT[0])
    with pytest.raises(RookError, match="target"):
        Solver().at_least(pos, target)
    for bad in (True, 2, "0"):
        with pytest.raises(RookError, match="team"):
            Solver().at_least(pos, 0, team=bad)
    for bad in (float("nan"), 2.5, True, -1):
        with pytest.raises(RookError, match="tolerance"):
            Solver().card_bounds(pos, bad)


@pytest.mark.parametrize("record", SHORT[:8], ids=_ids(SHORT[:8]))
def test_T14_at_least_answers_every_target_however_far_out(record: dict[str, Any]) -> None:
    """Yes/no agrees with the value at every target, also far outside the
    points of the hand (a target past the native ints overflowed: team 1's
    "at least -2**31?" said no)."""
    pos, v = _position(record), record["value"]
    s = Solver()
    total = v + max(t for t in range(0, 301, 5) if s.at_least(pos, t, team=1))   # team 1 takes the rest
    for t in (-10**30, -2**31, -1, 0, v, v + 1, total, total + 1, 2**31, 10**30):
        assert s.at_least(pos, t) == (v >= t), t
        assert s.at_least(pos, t, team=1) == (total - v >= t), t
    assert s.card_bounds(pos, 10**30) == s.card_bounds(pos, total)


@pytest.mark.parametrize("record", FULL[::6], ids=_ids(FULL[::6]))
def test_T14_two_threads_give_the_same_answers(record: dict[str, Any]) -> None:
    """``workers=2``: two solvers on one table (one search whose nodes the
    two share; the cards taken in turn, at once or after the value when a
    guess is given) answer exactly as one does; with a window, a guess,
    three threads, and the table kept between calls."""
    pos, v = _position(record), record["value"]
    s = Solver()
    assert s.value(pos, workers=2) == v
    s.clear()
    assert s.value(pos, workers=2, window=(v - 5, v + 5)) == v
    s.clear()
    assert s.value(pos, workers=2, guess=max(0, v - 10)) == v
    s.clear()
    assert s.value(pos, workers=3) == v
    assert s.value(pos, workers=2) == v          # the table kept
    s.clear()
    got = s.solve(pos, workers=2)
    assert (got.value, {str(c): x for c, x in got.move_values.items()}) == (v, record["move_values"])
    s.clear()
    got = s.solve(pos, workers=3)
    assert (got.value, {str(c): x for c, x in got.move_values.items()}) == (v, record["move_values"])
    s.clear()
    got = s.solve(pos, workers=2, guess=v)       # the value first, then the cards
    assert (got.value, {str(c): x for c, x in got.move_values.items()}) == (v, record["move_values"])


def _played(preset: str, seed: int, cards_left: int) -> Any:
    from rook_core import HandState
    h = HandState.deal(preset, seed=seed)
    rng = random.Random(seed)
    while h.phase.label != "play" or sum(len(h.hand(i)) for i in range(4)) > cards_left:
        h.apply(rng.choice(h.legal_actions()))
    return h


@pytest.mark.parametrize("preset,cards_left", [("partnership-57", 40), ("crowsnest-100", 36),
                                               ("tournament", 29), ("tournament", 18)])
def test_T14_shared_nodes_answer_as_one_thread_mid_trick_and_in_other_presets(preset: str,
                                                                              cards_left: int) -> None:
    """Positions the vectors do not hold (other presets, in the middle of a
    trick, a few tricks in): two and three threads give one thread's value
    and cards' values."""
    for seed in range(3):
        h = _played(preset, 500 + seed, cards_left)
        one = Solver().solve(h)
        for workers in (2, 3):
            s = Solver()
            assert s.value(h, workers=workers) == one.value
            s.clear()
            assert s.solve(h, workers=workers).move_values == one.move_values


@pytest.mark.parametrize("record", FULL[3::40], ids=_ids(FULL[3::40]))
def test_two_threads_budgets_stop_with_bounds_that_hold(record: dict[str, Any]) -> None:
    """Under node budgets of every size, ``workers=2`` gives the value or
    stops with bounds that hold it (and the cards proven so far), and the
    solver answers exactly afterwards."""
    pos, v = _position(record), record["value"]
    for budget in (300, 5_000, 60_000, 400_000):
        s = Solver(node_budget=budget)
        for call in ("value", "solve"):
            try:
                got = s.value(pos, workers=2) if call == "value" else s.solve(pos, workers=2).value
                assert got == v
            except BudgetExceeded as err:
                assert err.lo <= v <= err.hi, (budget, call, err.lo, err.hi)
                assert all(record["move_values"][str(c)] == x for c, x in err.move_values.items())
            s.clear()
    s = Solver()
    assert s.value(pos, workers=2) == v


@pytest.mark.parametrize("record", FULL[5::60], ids=_ids(FULL[5::60]))
def test_two_threads_time_budget_says_time_and_keeps_bounds(record: dict[str, Any]) -> None:
    """A time budget that runs out in either thread stops both, and the
    error says it was the time, with bounds (and cards) that hold."""
    pos, v = _position(record), record["value"]
    s = Solver(time_budget=0.0005)
    for call in ("value", "solve"):
        s.clear()
        try:
            got = s.value(pos, workers=2) if call == "value" else s.solve(pos, workers=2).value
            assert got == v
        except BudgetExceeded as err:
            assert err.kind == "time"
            assert err.lo <= v <= err.hi
            assert all(record["move_values"][str(c)] == x for c, x in err.move_values.items())


def test_two_threads_under_a_budget_and_a_progress_function() -> None:
    pos, v = _position(FULL[1]), FULL[1]["value"]
    with pytest.raises(BudgetExceeded) as err:
        Solver(node_budget=2_000).value(pos, workers=2)
    assert err.value.lo <= v <= err.value.hi
    seen: list[tuple[int, int]] = []
    assert Solver().value(pos, workers=2, progress=lambda lo, hi, n: seen.append((lo, hi))) == v
    assert seen and all(lo <= v <= hi for lo, hi in seen) and seen[-1] == (v, v)


def test_T14_kept_helper_threads_answer_many_short_calls_as_one_thread() -> None:
    """A solver's helpers keep their threads between calls (worker.h): a call
    whose search ends before a helper began takes the helper's job back, a
    longer one waits for it.  Many short and middling positions, one after
    another on the same solvers (value, then every card's value), exercise
    both ends of that race; every answer is one thread's."""
    team, one = Solver(), Solver()
    for i in range(60):
        h = _played(("tournament", "crowsnest", "partnership-57")[i % 3], 700 + i, 20 + 4 * (i % 4))
        one.clear()
        want = one.solve(h)
        team.clear()
        assert team.value(h, workers=2) == want.value
        team.clear()
        assert team.solve(h, workers=2 + i % 2).move_values == want.move_values


@pytest.mark.parametrize("workers", [2, 3])
def test_T14_a_team_of_probes_runs_on_the_kept_threads_and_stops_as_one(workers: int) -> None:
    """With ``anytime`` (or a progress function) each member of a team
    narrows the value by probes of its own, on its solver's kept thread
    (team.c's rook_dd_value_probes).  Short and middling positions one
    after another answer as one thread does (a member not begun when the
    value is known is taken back); a progress function that raises on a
    helper's thread stops the first member, and with it the whole team
    (each member looks at the first one's stop), and its exception ends
    the call; a budget
    that stops a member stops the team, with the bounds proven; and the
    same solver answers on."""
    team, one = Solver(), Solver()
    for i in range(30):
        h = _played(("tournament", "crowsnest", "partnership-57")[i % 3], 900 + i, 20 + 4 * (i % 4))
        one.clear()
        team.clear()
        assert team.value(h, anytime=True, workers=workers) == one.value(h)
    pos, v = _position(FULL[1]), FULL[1]["value"]

    def stop(lo: int, hi: int, nodes: int) -> None:
        if threading.current_thread() is not threading.main_thread():
            raise KeyboardInterrupt("enough")   # on a helper's thread

    # a deal whose whole search is long beside a helper's first probe (about
    # 0.5 M nodes against 0.13 M): on a team of more threads than cores a
    # helper may be late to report, and a short deal would leave no margin
    long_pos, long_v = _position(FULL[7]), FULL[7]["value"]
    team.clear()
    assert team.value(long_pos, anytime=True, workers=workers) == long_v
    whole = team.last_nodes
    team.clear()
    with pytest.raises(KeyboardInterrupt, match="enough"):
        team.value(long_pos, anytime=True, workers=workers, progress=stop)
    assert team.last_nodes < whole   # the team stopped (search.c's team check), it did not search on
    tight = Solver(node_budget=5_000)
    with pytest.raises(BudgetExceeded) as err:
        tight.value(pos, anytime=True, workers=workers)
    assert err.value.lo <= v <= err.value.hi and tight.last_nodes <= workers * 5_001
    team.clear()
    assert team.value(pos, anytime=True, workers=workers) == v
    assert team.solve(pos, workers=workers).value == v


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc")
def test_a_helpers_kept_thread_takes_no_ctrl_c() -> None:
    """After a call on two workers the helper's thread stays (worker.h), and it
    blocks SIGINT, so that a Ctrl-C always reaches a thread of the host, also
    while the helper sleeps between calls."""
    tasks = Path("/proc/self/task")
    before = {t.name for t in tasks.iterdir()}
    s = Solver()
    pos, v = _position(FULL[0]), FULL[0]["value"]
    assert s.value(pos, workers=2) == v
    kept = [t for t in tasks.iterdir() if t.name not in before]
    assert kept
    for t in kept:
        blocked = next(int(line.split()[1], 16) for line in (t / "status").read_text().splitlines()
                       if line.startswith("SigBlk:"))
        assert blocked >> (signal.SIGINT - 1) & 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_solver_whose_helpers_have_threads_answers_in_a_forked_child() -> None:
    """A fork copies a solver but not its helpers' threads: in the child the
    solver starts threads of its own, answers, and is freed without waiting
    for threads that are not there; the parent's go on."""
    pos, v = _position(FULL[2]), FULL[2]["value"]
    s = Solver()
    assert s.value(pos, workers=2) == v
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # fork with threads running
        pid = os.fork()
    if pid == 0:   # the child: answer, and leave without running the parent's cleanup
        ok = False
        try:
            s.clear()
            ok = s.value(pos, workers=2) == v and s.solve(pos, workers=2).value == v
            del s                  # frees the solver and its helpers here
            gc.collect()
        finally:
            os._exit(0 if ok else 1)
    for _ in range(600):           # a child stuck on a thread it does not have: fail, not hang
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child did not finish within 60 s")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    s.clear()
    assert s.value(pos, workers=2) == v


@pytest.mark.parametrize("workers", [0, -1, 1.5, "2", True, 9])
def test_bad_workers_are_refused(workers: Any) -> None:
    with pytest.raises(RookError, match="workers"):
        Solver().value(_position(SHORT[0]), workers=workers)


@pytest.mark.parametrize("keep,guesses", [(False, False), (True, False), (False, True), (True, True)])
def test_T14_a_batch_of_worlds_answers_as_separate_solves(keep: bool, guesses: bool) -> None:
    """``solve_batch`` (one native call, the table kept and the running means
    as guesses or not) gives each position's own answers."""
    from rook_core import HandState
    from rook_core.bots.worlds import world_positions
    h = HandState.deal("tournament", seed=11)
    rng = random.Random(11)
    while h.phase.label != "play":
        h.apply(rng.choice(h.legal_actions()))
    for _ in range(9):
        h.apply(rng.choice(h.legal_actions()))
    worlds = world_positions(h.observation(h.to_move), 12, random.Random(5))
    s = Solver()
    want = []
    for w in worlds:
        s.clear()
        r = s.solve(w)
        want.append((r.value, r.move_values, r.best))
    s.clear()
    got = s.solve_batch(worlds, keep_table=keep, guesses=guesses)
    assert [(r.value, r.move_values, r.best) for r in got] == want


def test_a_batch_reports_budgets_in_place_and_refuses_mixed_variants() -> None:
    full = [_position(r) for r in FULL[:3]]
    out = Solver(node_budget=1_000).solve_batch(full)
    assert all(isinstance(r, BudgetExceeded) for r in out)
    assert Solver().solve_batch([]) == []
    mixed = [_position(r) for r in SHORT if r["preset"] == "tournament"][:1] + \
            [_position(r) for r in SHORT if r["preset"] == "crowsnest"][:1]
    with pytest.raises(RookError, match="one variant"):
        Solver().solve_batch(mixed)


def test_T14_two_threads_leave_no_wrong_bound_in_the_table() -> None:
    """A helper that abandons a move because a split point above was cut must not
    let the node it helped store a result without that move.  The deal where this
    showed (a narrow aspiration window, so many cuts) solved again and again:
    every card's value after a two-thread value with a guess, from the table it left
    (one thread) and with the team; it went wrong in about 1 run of 30 before."""
    record = next(r for r in FULL if r["id"] == "red-one/34")
    pos, v = _position(record), record["value"]
    for _ in range(100):
        s = Solver()
        assert s.value(pos, workers=2, guess=v) == v
        got = s.solve(pos)
        assert {str(c): x for c, x in got.move_values.items()} == record["move_values"]
        s.clear()
        got = s.solve(pos, workers=2, guess=v)
        assert (got.value, {str(c): x for c, x in got.move_values.items()}) == (v, record["move_values"])


def test_a_kept_solver_never_answers_from_the_rules_of_an_evicted_variant() -> None:
    """The table knows its game by the address of its rules: once the rules
    cache dropped a variant, a new variant's rules could take that address
    and a solver kept from before answered from the old variant's table.  A
    solver now keeps the rules it searched with alive.  The new variants here
    double every counter, and are made until one's rules take the first
    one's address (which only happens if that one was freed)."""
    from rook_core._native import rules
    from rook_core.variant import Variant
    hands = [["B14", "B5"], ["B6", "B10"], ["R5", "G5"], ["Y5", "Y10"]]
    base = Variant.from_preset("tournament")
    a = base.replace(name="aba-a")
    old = id(rules.rules_for(a))
    s = Solver()
    first = s.value({"variant": a.to_dict(), "trump": "R", "leader": 0, "hands": hands})
    b = doubled_at_address(base, old, "aba")
    pos_b = {"variant": b.to_dict(), "trump": "R", "leader": 0, "hands": hands}
    assert first > 0 and s.value(pos_b) == Solver().value(pos_b) == 2 * first


def test_numpy_integers_are_ints_to_the_solver_and_perft() -> None:
    np = pytest.importorskip("numpy")
    from rook_core import HandState
    pos = _position(SHORT[0])
    s = Solver()
    v = SHORT[0]["value"]
    assert s.at_least(pos, np.int64(v)) and not s.at_least(pos, np.int32(v + 1))
    assert s.card_bounds(pos, np.int64(0)) == s.card_bounds(pos, 0)
    h = HandState.deal("tournament", seed=1)
    assert h.perft(np.int64(2)) == h.perft(2)


def test_many_threads_reading_new_variants_at_once_all_get_their_rules() -> None:
    """Two threads that both find the rules cache full evict the same
    oldest entries; neither may fail on an entry the other took first."""
    import sys

    from rook_core._native import rules
    from rook_core.variant import Variant
    base = Variant.from_preset("tournament")
    errors: list[BaseException] = []

    def read(k: int) -> None:
        try:
            for i in range(rules.RULES_KEPT * 3):
                v = base.replace(name=f"race-{k}-{i}")
                assert rules.rules_for(v).variant == v
        except BaseException as e:   # collected, then asserted on the main thread
            errors.append(e)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors and len(rules._CACHE) <= rules.RULES_KEPT
