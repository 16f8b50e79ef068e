"""Bots from outside in the simulator (rook_core.bots.outside): Python
callables, built-in kinds with their own options, and other programs over
JSON lines, with the same seeds and results as the built-in agents."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from rook_core import IllegalActionError, RookError, Variant
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
    agents = [mine, "random", mine, "random"]
    base = simulate("tournament", ["heuristic", "random", "heuristic", "random"], hands=40, seed=3,
                    duplicate=True, native=False)
    got = simulate("tournament", agents, hands=40, seed=3, duplicate=True)
    assert got.agents == ("mine", "random", "mine", "random")
    assert all((got.hands[k] == base.hands[k]).all() for k in base.hands)
    assert simulate("tournament", agents, hands=40, seed=3, duplicate=True, workers=2) == got


def test_python_functions_play_with_or_without_a_seeded_rng() -> None:
    agents = [python_bot(first_legal), "heuristic", python_bot(random_text), "heuristic"]
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
    ("print('hello', flush=True)", "not JSON"),
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
