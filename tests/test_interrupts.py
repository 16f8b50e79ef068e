"""Ctrl-C stops a search under way (src/rook/solve/interrupt.c), and so does
``Solver.stop()`` from another thread.

Each case runs in a process of its own, which says when its search is about
to begin; SIGINT comes 0.3 s later, while a search that needs more than its
node budget (a full ``partnership-57`` deal, whose value alone takes over 20
million nodes, under a budget of 15 million per thread) is under way.  The
child then reports what it saw.  Python raises KeyboardInterrupt after any
native call that a SIGINT came during, so what shows that the search itself
stopped is its node count: short of the budget.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHORT_POSITION = {"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
                  "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT is a POSIX signal")

# The child's set-up: LONG, a position whose value takes over 20 M nodes;
# SHORT, a 2-card ending, and its value from a solver nobody interrupted.
PRELUDE = f"""
import json, sys
sys.path.insert(0, {str(ROOT / "tools")!r})
from solver_sides import play_until
from rook_core.solver import Solver, solve_many, BudgetExceeded
LONG = play_until("partnership-57", 5, 52)
SHORT = {{"preset": "tournament", "trump": "R", "leader": 0, "trick": [],
          "hands": [["R14", "B5"], ["R5", "B14"], ["R6", "B6"], ["R7", "B10"]]}}
SHORT_VALUE = Solver(1 << 20).solve(SHORT).value
BUDGET = 15_000_000
def report(**kw):
    print(json.dumps(kw), flush=True)
"""


def _interrupted(body: str, argv: list[str] | None = None, stdin: str = "") -> tuple[int, str, str]:
    """Run PRELUDE + body (or the command argv, which must show its bounds
    on stderr) in a child, send it SIGINT 0.3 s after it prints "ready"
    (argv: after its first bounds), and return its exit code, stdout and
    stderr."""
    import pty
    cmd = argv or [sys.executable, "-c", PRELUDE + body]
    # a command shows its bounds only to a terminal: its stderr is one
    master, slave = pty.openpty() if argv else (-1, -1)
    # run outside the tree: the child must import the installed package (a
    # sanitizer build's), not the bare sources
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=slave if argv else subprocess.PIPE, cwd=tempfile.gettempdir(),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.stdin is not None and child.stdout is not None
    if argv:
        os.close(slave)
    if stdin:
        child.stdin.write(stdin.encode())
        child.stdin.flush()
    seen = b""
    if argv is None:
        assert child.stdout.readline().strip() == b"ready"
    else:
        while b" nodes" not in seen:   # the search is under way (its bounds line ends without a newline)
            chunk = os.read(master, 4096)
            assert chunk, seen
            seen += chunk
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=600)
    if argv:
        while True:                     # the rest of the terminal's output, until the child's end closes
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        os.close(master)
        err = b""
    return child.returncode, out.decode(), (seen + err).decode().replace("\r\n", "\n")


def _last(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("call", ["value", "solve", "anytime"])
def test_ctrl_c_stops_a_search_and_the_solver_answers_the_next_call(call, workers):
    code, out, err = _interrupted(f"""
s = Solver(64 << 20, node_budget=BUDGET)
print("ready", flush=True)
try:
    if {call!r} == "anytime":
        s.value(LONG, anytime=True, workers={workers})
    else:
        getattr(s, {call!r})(LONG, workers={workers})
    report(outcome="finished")
except KeyboardInterrupt:
    nodes = s.last_nodes
    report(outcome="interrupted", nodes=nodes, short=s.solve(SHORT).value, expected=SHORT_VALUE)
except BudgetExceeded:
    report(outcome="budget")
""")
    assert code == 0, err
    got = _last(out)
    assert got["outcome"] == "interrupted"
    assert 0 < got["nodes"] < 15_000_000   # the budget of one thread: a team stops when one does
    assert got["short"] == got["expected"]


def test_ctrl_c_drops_the_positions_of_solve_many_not_yet_begun():
    code, out, err = _interrupted("""
done = []
print("ready", flush=True)
try:
    solve_many([LONG] * 6, workers=2, what="value", node_budget=BUDGET, tt_bytes=32 << 20,
               progress=lambda d, n: done.append(d))
    report(outcome="finished", done=len(done))
except KeyboardInterrupt:
    report(outcome="interrupted", done=len(done))
""")
    assert code == 0, err
    got = _last(out)
    assert got == {"outcome": "interrupted", "done": got["done"]}
    assert got["done"] < 6


def test_a_program_with_its_own_sigint_handler_keeps_its_search():
    """A handler of the program's own (a server stopping gracefully) is
    called, and the search goes on to its answer."""
    code, out, err = _interrupted("""
import signal
seen = []
signal.signal(signal.SIGINT, lambda *a: seen.append(1))
s = Solver(64 << 20, node_budget=60_000_000)
print("ready", flush=True)
try:
    v = s.value(play_until("partnership-57", 1, 52))   # about 16 M nodes
    report(outcome="finished", seen=len(seen), value=v, nodes=s.last_nodes)
except BudgetExceeded:
    report(outcome="budget", seen=len(seen))
""")
    assert code == 0, err
    got = _last(out)
    assert got["outcome"] == "finished" and got["seen"] == 1


def _long_position_line() -> str:
    """LONG as a FORMATS.md position, one JSON line."""
    sys.path.insert(0, str(ROOT / "tools"))
    from solver_sides import play_until, pos_of
    h = play_until("partnership-57", 5, 52)
    p = pos_of(h)
    return json.dumps({"preset": "partnership-57", "trump": "BGRY"[p.trump], "leader": p.leader, "trick": [],
                       "hands": [h.hand(i).names() for i in range(4)], "nest_points": p.nest_points}) + "\n"


def test_rook_solve_interrupted_says_so_without_a_traceback():
    rook = [sys.executable, "-m", "rook_core", "solve", "--budget", "15000000", "--show"]
    code, out, err = _interrupted("", argv=rook, stdin=_long_position_line())
    assert code == 130
    assert err.strip().splitlines()[-1] == "rook: interrupted"
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("call", ["value", "solve", "anytime"])
def test_stop_from_another_thread_stops_a_search_with_its_bounds_and_the_solver_answers_the_next_call(
        call: str, workers: int) -> None:
    """``Solver.stop()``, asked from another thread until the call returns (a
    stop asked before the search begins is forgotten), ends the search short
    of its node budget with :class:`SearchStopped`, a budget stop of kind
    ``"stopped"`` carrying sound bounds; the solver then answers as a fresh one does."""
    import threading

    sys.path.insert(0, str(ROOT / "tools"))
    from solver_sides import play_until

    from rook_core.solver import BudgetExceeded, SearchStopped, Solver
    long, budget = play_until("partnership-57", 5, 52), 15_000_000
    s = Solver(64 << 20, node_budget=budget)
    s.stop()                                     # no call under way: forgotten
    assert s.solve(SHORT_POSITION).value == Solver(1 << 20).solve(SHORT_POSITION).value
    done = threading.Event()

    def stopper() -> None:
        while not done.wait(0.05):
            s.stop()
    t = threading.Thread(target=stopper)
    t.start()
    try:
        with pytest.raises(SearchStopped) as stopped:
            if call == "anytime":
                s.value(long, anytime=True, workers=workers)
            else:
                getattr(s, call)(long, workers=workers)
    finally:
        done.set()
        t.join()
    e = stopped.value
    assert isinstance(e, BudgetExceeded) and e.kind == "stopped" and "stopped" in str(e)
    assert 0 < e.nodes < budget
    assert 0 <= e.lo <= e.hi <= 200
    assert e.details() == {"budget": "stopped", "lo": e.lo, "hi": e.hi, "nodes": e.nodes}
    fresh, again = Solver(1 << 20).solve(SHORT_POSITION), s.solve(SHORT_POSITION)
    assert (again.value, again.move_values) == (fresh.value, fresh.move_values)


def test_threads_sharing_one_solver_take_turns_and_each_gets_a_fresh_solvers_answers() -> None:
    """One ``Solver`` called from four threads at once (values on one and two
    workers, every card's value, and ``clear``): the calls take turns, so each
    answer is the one a solver of its own gives (before, the searches of two
    threads ran on one table and position at once and crashed the process);
    a call from within the solver's own search (its progress function) is
    refused by name, and the solver answers the next call."""
    import threading

    sys.path.insert(0, str(ROOT / "tools"))
    from solver_sides import play_until

    from rook_core.errors import RookError
    from rook_core.solver import Solver
    deals = [play_until("tournament", 100 + i, 36) for i in range(8)]
    values = [Solver().value(h) for h in deals]
    cards = [Solver().solve(h).move_values for h in deals]
    shared, wrong = Solver(), []

    def run(k: int) -> None:
        for _ in range(2):
            for i, h in enumerate(deals):
                if k % 2:
                    got: object = shared.value(h, workers=1 + k // 2)
                    if got != values[i]:
                        wrong.append((k, i, got))
                else:
                    if shared.solve(h).move_values != cards[i]:
                        wrong.append((k, i, "cards"))
                    if i % 3 == 0:
                        shared.clear()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
    with pytest.raises(RookError, match="within its own search"):
        shared.value(deals[0], progress=lambda lo, hi, nodes: shared.value(deals[1]))
    assert shared.value(deals[0]) == values[0]


# ------------------------------------------------------------------ perft

def _perft_interrupted(command: list[str], stdin: str) -> tuple[int, str, str]:
    """Run ``rook`` with ``command`` in a child whose perft of a full deal is
    under way when SIGINT comes, 0.5 s after the child says it begins; its
    exit code, stdout and stderr.  A child still running 60 s later (a perft
    that Ctrl-C cannot stop) is killed and the test fails."""
    body = (f"import io, sys\nfrom rook_core.cli import main\nsys.stdin = io.StringIO({stdin!r})\n"
            f"print('ready', flush=True)\nsys.exit(main({command!r}))\n")
    child = subprocess.Popen([sys.executable, "-c", body], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=tempfile.gettempdir(),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.stdout is not None
    assert child.stdout.readline().strip() == b"ready"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail(f"rook {' '.join(command)} went on 60 s after Ctrl-C")
    return child.returncode, out.decode(), err.decode()


def _full_deal_line() -> str:
    perft = json.loads((ROOT / "tests" / "data" / "perft.jsonl").read_text().splitlines()[0])
    assert perft["id"] == "partnership-57/start-0"        # 14 cards a seat: depth 64 never ends
    return json.dumps({k: v for k, v in perft.items() if k != "perft"}) + "\n"


def test_rook_perft_interrupted_says_so_without_a_traceback():
    """Ctrl-C stops ``rook perft`` inside a long perft (its node limit, some
    seconds away, would end it with an error line and status 1 instead)."""
    code, out, err = _perft_interrupted(["perft", "--depth", "64"], _full_deal_line())
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rook: interrupted"
    assert "Traceback" not in err and out == ""


def test_rook_engine_interrupted_in_a_perft_says_so_without_a_traceback():
    request = json.dumps({"cmd": "perft", "depth": 64, "input": json.loads(_full_deal_line())}) + "\n"
    code, out, err = _perft_interrupted(["engine"], request)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "rook: interrupted"
    assert "Traceback" not in err and out == ""
