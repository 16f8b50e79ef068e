"""Bots from outside in the simulator (rook_core.bots.outside): Python
callables, built-in kinds with their own options, and other programs over
JSON lines, with the same seeds and results as the built-in agents."""

from __future__ import annotations

import math
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from rook_core import BotError, IllegalActionError, RookError, Variant
from rook_core.bots.agents import Agent, make_agent
from rook_core.bots.outside import BotFactory, EngineBot, configured_bot, python_bot
from rook_core.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = [sys.executable, str(ROOT / "examples" / "outside_bot.py")]

# An outside program that plays the built-in heuristic agent, one per (seed, seat):
# through the JSON-lines protocol it must give exactly the rows of "heuristic".
HEURISTIC_OVER_PIPES = textwrap.dedent("""
    import json, sys
    from rook_core.bots.heuristic import HeuristicAgent
    from rook_core.variant import Variant, get_preset
    agents = {}
    for line in sys.stdin:
        r = json.loads(line)
        v = r["variant"]
        key = (r["seed"], r["seat"])
        if key not in agents:
            agents[key] = HeuristicAgent(get_preset(v) if isinstance(v, str) else Variant.from_dict(v), r["seed"])
        print(json.dumps({"action": agents[key].act(r["observation"])}), flush=True)
""")


def _heuristic(variant: Variant, seed: int) -> Agent:
    return make_agent("heuristic", variant, seed)


def first_legal(observation: Any) -> int:
    return int(observation["legal_actions"][0])


def random_text(observation: Any, rng: Any) -> str:
    from rook_core import action_name
    return action_name(rng.choice(observation["legal_actions"]))


def test_a_factory_gets_the_seeds_the_built_in_agents_get() -> None:
    mine = BotFactory("mine", _heuristic)
    agents: list[Any] = [mine, "random", mine, "random"]
    base = simulate("tournament", ["heuristic", "random", "heuristic", "random"], hands=40, seed=3,
                    duplicate=True, native=False)
    got = simulate("tournament", agents, hands=40, seed=3, duplicate=True)
    assert got.agents == ("mine", "random", "mine", "random")
    assert all((got.hands[k] == base.hands[k]).all() for k in base.hands)
    assert simulate("tournament", agents, hands=40, seed=3, duplicate=True, workers=2) == got


def test_python_functions_play_with_or_without_a_seeded_rng() -> None:
    agents: list[Any] = [python_bot(first_legal), "heuristic", python_bot(random_text), "heuristic"]
    a = simulate("crowsnest", agents, games=2, seed=4)
    assert a == simulate("crowsnest", agents, games=2, seed=4)       # the rng is seeded per unit and seat
    assert a.agents == ("first_legal", "heuristic", "random_text", "heuristic")
    with pytest.raises(RookError, match="arguments"):
        python_bot(lambda a, b, c: 0)
    with pytest.raises(RookError, match="not an action|int or a text"):
        simulate("tournament", [python_bot(lambda o: 2.5), "random", "random", "random"], hands=1)


def test_a_built_in_kind_with_its_own_options_equals_agent_options() -> None:
    few = configured_bot("pimc", "pimc-2", worlds=2)
    a = simulate("tournament", [few, "heuristic", few, "heuristic"], hands=3, seed=1)
    b = simulate("tournament", ["pimc", "heuristic", "pimc", "heuristic"], hands=3, seed=1,
                 agent_options={"pimc": {"worlds": 2}})
    assert all((a.hands[k] == b.hands[k]).all() for k in a.hands) and a.agents[0] == "pimc-2"
    with pytest.raises(RookError, match="bad options"):
        configured_bot("pimc", worlds=0, depth=2)


def test_an_outside_program_over_json_lines_plays_like_the_agent_it_runs() -> None:
    bot = EngineBot([sys.executable, "-c", HEURISTIC_OVER_PIPES], "piped")
    try:
        got = simulate("house-180", [bot, "random", bot, "random"], hands=6, seed=2)
    finally:
        bot.close()
    base = simulate("house-180", ["heuristic", "random", "heuristic", "random"], hands=6, seed=2, native=False)
    assert all((got.hands[k] == base.hands[k]).all() for k in base.hands)


def test_the_example_bot_is_seeded_and_runs_on_workers() -> None:
    bot = EngineBot(EXAMPLE, "example")
    one = simulate("tournament", [bot, "heuristic", bot, "heuristic"], hands=20, seed=5)
    assert one == simulate("tournament", [bot, "heuristic", bot, "heuristic"], hands=20, seed=5, workers=2)
    bot.close()


@pytest.mark.parametrize(("program", "words"), [
    # (after its request: printed at once, the line may come before the request, which
    # test_a_line_written_before_the_request_is_an_error checks)
    ("import sys; sys.stdin.readline(); print('hello', flush=True)", "not JSON"),
    ("import sys; sys.stdin.readline()", "ended"),
    ("import json, sys\nfor l in sys.stdin: print(json.dumps({'move': 1}), flush=True)", "'action'"),
    ("import time; time.sleep(30)", "no answer within"),
])
def test_an_outside_program_that_misbehaves_stops_the_run_with_its_name(program: str, words: str) -> None:
    bot = EngineBot([sys.executable, "-c", program], "bad", timeout=3)
    with pytest.raises(RookError, match=words) as e:
        simulate("tournament", [bot, "random", "random", "random"], hands=1, seed=1)
    assert "bad" in str(e.value)
    bot.close()


def test_an_outside_action_the_rules_refuse_names_the_seat() -> None:
    bot = EngineBot([sys.executable, "-c", "import json, sys\nfor l in sys.stdin: "
                     "print(json.dumps({'action': 'bid 5'}), flush=True)"], "lowballer")
    with pytest.raises(IllegalActionError, match="seat 1 .*lowballer"):
        simulate("tournament", ["random", bot, "random", "random"], hands=1, seed=1)
    bot.close()
    with pytest.raises(RookError, match="program"):
        EngineBot([], "none")


@pytest.mark.parametrize("command", ["python 'unterminated", 5, None, b"python"])
def test_an_engine_command_that_is_not_a_program_is_refused_by_name(command: object) -> None:
    with pytest.raises(RookError, match="command"):
        EngineBot(command, "odd")  # type: ignore[arg-type]


def test_rook_simulate_names_an_engine_command_with_an_unbalanced_quote() -> None:
    bad = subprocess.run([sys.executable, "-m", "rook_core", "simulate", "--hands", "1", "--no-progress",
                          "--engine", "x=python 'unterminated", "--agents", "x,random,random,random"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "No closing quotation" in bad.stderr and "Traceback" not in bad.stderr


def test_rook_simulate_plays_an_engine_named_on_the_command_line() -> None:
    cmd = [sys.executable, "-m", "rook_core", "simulate", "--hands", "30", "--no-progress", "--json",
           "--engine", f"mine={sys.executable} {EXAMPLE[1]}", "--agents", "mine,heuristic,mine,heuristic"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    assert '"mine"' in out
    bad = subprocess.run(cmd[:-4] + ["--engine", "heuristic=x", "--agents", "heuristic,random,random,random"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "taken" in bad.stderr and "Traceback" not in bad.stderr


def test_rook_simulate_engine_timeout_bounds_a_silent_engine() -> None:
    """``--engine-timeout`` is each outside bot's timeout: a program that never
    answers stops the run after it, naming the bot and the seat, with exit
    status 1 (a failure during the run, not a bad argument); without
    --engine it is refused with exit status 2."""
    import time
    silent = f"{sys.executable} -c 'import time; time.sleep(60)'"
    base = [sys.executable, "-m", "rook_core", "simulate", "--hands", "1", "--no-progress"]
    began = time.monotonic()
    run = subprocess.run(base + ["--engine", f"quiet={silent}", "--engine-timeout", "0.5",
                                 "--agents", "quiet,random,random,random"], capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == "", run.stderr
    assert run.stderr == "rook: error: hand 0: bot 'quiet' at seat 0 gave no answer within 0.5 s\n", run.stderr
    assert time.monotonic() - began < 20 and "Traceback" not in run.stderr
    alone = subprocess.run(base + ["--engine-timeout", "5"], capture_output=True, text=True)
    assert alone.returncode == 2 and "no --engine" in alone.stderr


# ---------------------------------------------------------------- programs that misbehave

REQUEST = {"variant": "tournament", "seat": 0, "seed": 7, "observation": {"legal_actions": [64]}}


def _bot(program: str, *args: str, timeout: float = 30.0, name: str = "badbot") -> EngineBot:
    """Return a bot that runs the Python source ``program`` with ``args``.  The timeout
    counts from the first request, which starts the program: a test that expects an
    answer or another refusal leaves a loaded machine's interpreter start far inside it."""
    return EngineBot([sys.executable, "-c", textwrap.dedent(program), *args], name, timeout=timeout)


def _within(seconds: float, call: Any) -> Any:
    """Return what ``call()`` returns or raises (an exception is returned), failing
    the test when it takes more than ``seconds``."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as e:  # noqa: BLE001 - handed to the test
            out.append(e)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert out, f"still waiting after {seconds} s"
    return out[0]


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (it is not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _settles(check: Any, seconds: float = 30.0) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (it returns as soon as it does)."""
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def test_a_line_left_unfinished_ends_the_wait_at_the_timeout() -> None:
    bot = _bot("""
        import sys, time
        sys.stdin.readline()
        print('{"action": 64}', flush=True)
        sys.stdin.readline()
        sys.stdout.write('{"action": '); sys.stdout.flush()
        time.sleep(60)
    """)
    try:
        # the first answer, under the 30 s timeout, has the interpreter started: the part
        # line then comes at once after the next request, not after a loaded machine's start
        assert bot.ask(0, REQUEST) == 64
        bot.timeout = 2.0
        e = _within(30, lambda: bot.ask(0, REQUEST))           # the 2 s timeout, not the program's 60 s
        assert isinstance(e, RookError) and "badbot" in str(e) and "no answer within 2 s" in str(e)
        assert '{"action":' in str(e)
    finally:
        bot.close()


def test_two_lines_for_one_request_are_an_error_not_the_next_answer() -> None:
    bot = _bot("""
        import os, sys
        for line in sys.stdin:
            os.write(1, b'{"action": 1}\\n{"action": 2}\\n')
    """)
    try:
        with pytest.raises(RookError, match=r"badbot.*more than one line for one request.*'\{\"action\": 2\}'"):
            bot.ask(0, REQUEST)
        with pytest.raises(RookError, match="more than one line"):   # a new program, the same answer
            bot.ask(0, REQUEST)
    finally:
        bot.close()


def test_a_line_written_before_the_request_is_an_error(tmp_path: Path) -> None:
    go, wrote = tmp_path / "go", tmp_path / "wrote"
    bot = _bot("""
        import os, sys, time
        sys.stdin.readline()
        os.write(1, b'{"action": 64}\\n')
        while not os.path.exists(sys.argv[1]):
            time.sleep(0.01)
        os.write(1, b'{"action": 3}\\n')        # an answer nobody asked for
        open(sys.argv[2], "w").close()
        for line in sys.stdin:
            os.write(1, b'{"action": 64}\\n')
    """, str(go), str(wrote))
    try:
        assert bot.ask(0, REQUEST) == 64
        go.touch()
        while not wrote.exists():
            time.sleep(0.01)
        e = _within(5, lambda: bot.ask(0, REQUEST))   # not the stale 3
        assert isinstance(e, RookError) and "badbot" in str(e) and "before it was asked" in str(e)
    finally:
        bot.close()


def test_blank_lines_around_an_answer_are_skipped() -> None:
    bot = _bot("""
        import json, os, sys
        for line in sys.stdin:
            os.write(1, b"\\n")
            os.write(1, (json.dumps({"action": json.loads(line)["seed"]}) + "\\n\\n").encode())
    """)
    try:
        assert [bot.ask(0, dict(REQUEST, seed=s)) for s in (1, 2, 3)] == [1, 2, 3]
    finally:
        bot.close()


def test_an_enormous_line_is_cut_short_at_1_mib() -> None:
    bot = _bot("""
        import sys, time
        sys.stdin.readline()
        chunk = b"x" * (1 << 20)
        sys.stdout.buffer.write(b'{"action": "')
        for _ in range(50):
            sys.stdout.buffer.write(chunk)
        time.sleep(60)
    """)
    try:
        tracemalloc.start()
        e = _within(20, lambda: bot.ask(0, REQUEST))         # cut short, not the 30 s timeout
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert isinstance(e, RookError) and "badbot" in str(e) and "more than 1 MiB" in str(e)
        assert peak < 8 << 20
    finally:
        bot.close()


def test_a_program_that_does_not_read_its_requests_cannot_block_the_run() -> None:
    bot = _bot("import time; time.sleep(60)", timeout=0.5)
    try:
        e = _within(30, lambda: bot.ask(0, dict(REQUEST, observation={"note": "x" * 300_000})))
        assert isinstance(e, RookError) and "badbot" in str(e) and "did not read its request within 0.5 s" in str(e)
    finally:
        bot.close()


@pytest.mark.parametrize(("program", "words"), [
    ("import sys; sys.exit(3)", r"ended \(exit status 3"),
    ("import os, sys\nsys.stdin.readline(); os.kill(os.getpid(), 9)", r"ended \(killed by signal 9"),
    ("import os, sys, time\nsys.stdin.readline(); os.close(1); time.sleep(30)", "closed its standard output but "
     "did not end"),
    ("import os, sys, time\nsys.stdin.readline(); os.close(0); print('{\"action\": 64}', flush=True)\n"
     "sys.stdin = None; time.sleep(30)", "closed its standard input but did not end"),
    ("import sys\nsys.stdin.readline(); print('[' * 100000, flush=True)", "not JSON"),
    ("import sys\nsys.stdin.readline(); print('thinking', flush=True)", "not JSON.*standard error"),
])
def test_a_program_that_ends_or_garbles_its_answer_is_named(program: str, words: str) -> None:
    bot = _bot(program, timeout=30)
    try:
        # named well within the 30 s answer timeout: seen, not waited out (a bound
        # far from what a loaded machine takes, where 2 s against a 2 s timeout was not)
        e = _within(20, lambda: [bot.ask(0, REQUEST) for _ in range(2)])
        assert isinstance(e, RookError), repr(e)
        assert "badbot" in str(e) and re.search(words, str(e)), str(e)
    finally:
        bot.close()


def test_a_program_that_ends_mid_game_stops_the_run_and_is_started_again(tmp_path: Path) -> None:
    bot = _bot("""
        import json, os, sys
        for line in sys.stdin:
            open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
            print(json.dumps({"action": json.loads(line)["seed"]}), flush=True)
            sys.exit(7)
    """, str(tmp_path))
    try:
        assert bot.ask(0, REQUEST) == 7
        pid = int(next(tmp_path.iterdir()).name)
        assert _settles(lambda: not _running(pid))
        # not started again silently
        with pytest.raises(BotError, match=r"bot 'badbot' at seat 0 ended \(exit status 7"):
            bot.ask(0, REQUEST)
        assert bot.ask(0, REQUEST) == 7           # the next decision starts it again (and it ends again)
        with pytest.raises(BotError, match=r"hand 0: bot 'badbot' at seat 0 ended \(exit status 7"):
            simulate("tournament", [bot, "random", "random", "random"], hands=1, seed=1)
    finally:
        bot.close()


@pytest.mark.parametrize("command", [["/nonexistent/engine"], [sys.executable + "-no-such"], ["/"],
                                     [str(ROOT / "README.md")]])
def test_a_program_that_cannot_start_is_named(command: list[str]) -> None:
    bot = EngineBot(command, "missing")
    with pytest.raises(RookError, match="hand 0: bot 'missing' at seat 0: cannot start") as e:
        simulate("tournament", [bot, "random", "random", "random"], hands=1, seed=1)
    assert type(e.value) is BotError and (e.value.bot, e.value.seat) == ("missing", 0)
    bot.close()


def test_a_program_that_floods_its_standard_error_still_plays() -> None:
    bot = _bot("""
        import json, sys
        for line in sys.stdin:
            sys.stderr.write("x" * 200_000 + "\\n"); sys.stderr.flush()
            print(json.dumps({"action": json.loads(line)["observation"]["legal_actions"][0]}), flush=True)
    """)
    try:
        r = _within(60, lambda: simulate("tournament", [bot, "random", "random", "random"], hands=2, seed=1))
        assert len(r) == 2
    finally:
        bot.close()


@pytest.mark.parametrize("timeout", [math.nan, math.inf, -math.inf, True, "5", None, 0, -1, 1e300, 10**400])
def test_a_timeout_that_is_not_a_number_of_seconds_is_refused(timeout: object) -> None:
    with pytest.raises(RookError, match="timeout is a number of seconds"):
        EngineBot(["true"], "odd", timeout=timeout)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [None, 5, "", "  "])
def test_an_engine_name_that_is_not_a_text_is_refused(name: object) -> None:
    with pytest.raises(RookError, match="name is a text"):
        EngineBot(["true"], name)  # type: ignore[arg-type]


def test_a_text_answer_that_is_no_action_names_the_bot() -> None:
    bot = _bot("""
        import sys
        for line in sys.stdin:
            print('{"action": "R99"}', flush=True)
    """)
    try:
        with pytest.raises(RookError, match="hand 0: bot 'badbot' at seat 0 answered 'R99'"):
            simulate("tournament", [bot, "random", "random", "random"], hands=1, seed=1)
    finally:
        bot.close()


def test_a_failed_program_and_what_it_started_leave_no_process_behind(tmp_path: Path) -> None:
    # each program starts a child; seat 0's answers once, then stays silent; seat 2's answers every time
    bot = _bot("""
        import json, os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        for i, line in enumerate(sys.stdin):
            r = json.loads(line)
            if i == 0:
                for what, pid in (("program", os.getpid()), ("child", child.pid)):
                    open(os.path.join(sys.argv[1], f"{r['seat']} {what} {pid}"), "w").close()
            if r["seat"] == 0 and i == 1:
                time.sleep(60)
            print(json.dumps({"action": r["observation"]["legal_actions"][0]}), flush=True)
        time.sleep(60)                     # it does not end at the end of its input
    """, str(tmp_path), timeout=2)     # (the first answer comes after two interpreters start: room for a busy machine)
    with pytest.raises(RookError, match="bot 'badbot' at seat 0 gave no answer within 2 s"):
        simulate("tournament", [bot, "random", bot, "random"], hands=1, seed=1)
    pids = {tuple(f.name.split()[:2]): int(f.name.split()[2]) for f in tmp_path.iterdir()}
    assert len(pids) == 4
    assert not Path(f"/proc/{pids['0', 'program']}").exists()    # killed and reaped: no zombie
    assert _settles(lambda: not _running(pids["0", "child"]))     # killed too (init reaps it)
    assert _running(pids["2", "program"]) and _running(pids["2", "child"])
    bot.close()
    assert not Path(f"/proc/{pids['2', 'program']}").exists()
    assert _settles(lambda: not _running(pids["2", "child"]))


def test_requests_are_numbered_and_a_late_answer_echoing_an_old_id_is_refused_not_played() -> None:
    """A line written late for request 1 arrives only once request 2 went out,
    so it reads as request 2's answer; the id it echoes gives it away."""
    bot = _bot("""
        import json, os, sys, time
        for line in sys.stdin:
            r = json.loads(line)
            if r["seed"] == 2:    # request 1's second answer, written late
                os.write(1, b'{"action": 9, "id": 1}\\n')
                time.sleep(0.3)
            os.write(1, (json.dumps({"action": r["seed"], "id": r.get("id")}) + "\\n").encode())
    """)
    try:
        assert bot.ask(0, dict(REQUEST, seed=1)) == 1
        with pytest.raises(RookError, match=r"badbot.*to request 2: an answer out of step"):
            bot.ask(0, dict(REQUEST, seed=2))
        # a new program numbers its requests from 1 again; answers without an id still count
        assert [bot.ask(0, dict(REQUEST, seed=s)) for s in (1, 3)] == [1, 3]
    finally:
        bot.close()


def test_an_interrupted_request_leaves_no_answer_for_the_next_one() -> None:
    bot = _bot("""
        import json, sys, time
        for line in sys.stdin:
            time.sleep(0.3)
            print(json.dumps({"action": json.loads(line)["seed"]}), flush=True)
    """)

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        with pytest.raises(KeyboardInterrupt):
            signal.setitimer(signal.ITIMER_REAL, 0.1)
            bot.ask(0, dict(REQUEST, seed=111))
        assert bot.ask(0, dict(REQUEST, seed=222)) == 222
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        bot.close()


def test_a_failure_on_a_worker_names_the_bot_and_leaves_no_process_behind(tmp_path: Path) -> None:
    bot = _bot("""
        import json, os, sys, time
        open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
        for line in sys.stdin:
            r = json.loads(line)
            answer = "oops" if r["seed"] % 5 == 1 else json.dumps({"action": r["observation"]["legal_actions"][0]})
            print(answer, flush=True)
        time.sleep(60)                     # it does not end at the end of its input
    """, str(tmp_path), name="pooled")
    with pytest.raises(RookError, match="bot 'pooled' at seat [02] answered 'oops', not JSON") as e:
        simulate("tournament", [bot, "random", bot, "random"], hands=16, seed=1, workers=2, chunk=2)
    assert type(e.value) is BotError and e.value.bot == "pooled" and e.value.seat in (0, 2)
    pids = [int(f.name) for f in tmp_path.iterdir()]
    assert pids and not any(Path(f"/proc/{p}").exists() for p in pids)   # ended and reaped by the workers
    bot.close()


def test_threads_that_share_an_engine_take_turns() -> None:
    # the default 30 s timeout: each program imports rook_core within its first answer's time,
    # four threads asking at once (5 s was close to what a loaded machine takes)
    bot = EngineBot([sys.executable, "-c", HEURISTIC_OVER_PIPES], "piped")
    try:
        with ThreadPoolExecutor(4) as pool:
            got = simulate("tournament", [bot, "random", bot, "random"], hands=32, seed=2, executor=pool, chunk=2)
    finally:
        bot.close()
    base = simulate("tournament", ["heuristic", "random", "heuristic", "random"], hands=32, seed=2, native=False)
    assert all((got.hands[k] == base.hands[k]).all() for k in base.hands)
