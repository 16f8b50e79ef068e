"""Bots from outside rook_core: any Python callable, or another program over JSON lines.

A simulation (:func:`~rook_core.sim.simulate.simulate`) builds every seat's
agent afresh for each hand or game from a seed derived from (seed, unit,
seat), so that a unit's result depends only on the seed.  An outside bot
takes part in that through a :class:`BotFactory`: a name and a function
``make(variant, seed) -> agent``, where an agent is any object with
``act(observation) -> action``.  The observation is the seat's view of the
hand (``HandState.observe``; its JSON form is documented in
docs/FORMATS.md, "An observation"), the action an int of
:mod:`rook_core.actions` or its text (``"R14"``, ``"pass"``, ``"bid 75"``,
``"trump G"``).

* :func:`python_bot` turns a plain function ``f(observation) -> action``
  (or ``f(observation, rng)``, with a ``random.Random`` seeded per unit and
  seat) into a factory;
* :func:`configured_bot` is a built-in kind with its own options, under its
  own name (``pimc`` at 8 worlds against ``pimc`` at 32);
* :class:`EngineBot` runs another program, one per seat and process, and
  speaks JSON lines with it: for each decision one line
  ``{"variant": name, "seat": s, "seed": seed, "observation": {...}}``
  (``variant`` the preset name, or the variant's fields for a custom one;
  ``seed`` the agent's seed for this unit, the same on every decision of
  the unit), answered by one line ``{"action": action}``.  A program that
  answers anything else, dies or says nothing within ``timeout`` seconds
  stops the simulation with a :class:`~rook_core.errors.RookError` that
  names it and what it said.

A factory must be picklable to run on worker processes (``workers > 1`` or
an executor): a module-level function, a :func:`functools.partial` of one,
an :class:`EngineBot`; not a lambda.
"""

from __future__ import annotations

import inspect
import json
import random
import select
import shlex
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..actions import parse_action
from ..errors import RookError
from ..variant import PRESETS, Variant
from .agents import Agent, make_agent

__all__ = ["BotFactory", "EngineBot", "configured_bot", "python_bot"]


@dataclass(frozen=True)
class BotFactory:
    """A seat's agent for a simulation: ``make(variant, seed)`` builds it for
    one unit; ``name`` labels it in the results."""

    name: str
    make: Callable[[Variant, int], Agent]

    def agent(self, variant: Variant, seed: int) -> Agent:
        a = self.make(variant, seed)
        if not callable(getattr(a, "act", None)):
            raise RookError(f"bot {self.name!r}: its factory gave {a!r}, which has no act(observation)")
        return a


def _read_action(name: str, action: Any) -> int:
    """An action as a bot gave it: an int of the action space or its text."""
    if isinstance(action, bool):
        raise RookError(f"bot {name!r} answered {action!r}, not an action")
    if isinstance(action, int):
        return action
    if isinstance(action, str):
        return parse_action(action)
    raise RookError(f"bot {name!r} answered {action!r}: an action is an int or a text such as 'R14'")


class _CallableAgent:
    def __init__(self, name: str, fn: Callable[..., Any], rng: random.Random | None) -> None:
        self.name = name
        self.fn = fn
        self.rng = rng

    def act(self, observation: Mapping[str, Any]) -> int:
        out = self.fn(observation) if self.rng is None else self.fn(observation, self.rng)
        return _read_action(self.name, out)


def _make_callable(fn: Callable[..., Any], name: str, wants_rng: bool, variant: Variant, seed: int) -> Agent:
    return _CallableAgent(name, fn, random.Random(seed) if wants_rng else None)


def python_bot(fn: Callable[..., Any], name: str | None = None) -> BotFactory:
    """Return a factory for the function ``fn(observation) -> action``, or
    ``fn(observation, rng)`` when it takes two arguments (``rng`` a
    ``random.Random`` seeded from the unit and seat).

    :raises RookError: for something that is not a function of one or two arguments.
    """
    if not callable(fn):
        raise RookError(f"a bot is a function of the observation, not {fn!r}")
    try:
        n = len([p for p in inspect.signature(fn).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty])
    except (TypeError, ValueError):
        n = 1
    if n not in (1, 2):
        raise RookError(f"a bot function takes (observation) or (observation, rng), not {n} arguments")
    label = str(name or getattr(fn, "__name__", None) or "python")
    return BotFactory(label, partial(_make_callable, fn, label, n == 2))


def _make_kind(kind: str, options: dict[str, Any], variant: Variant, seed: int) -> Agent:
    return make_agent(kind, variant, seed, **options)


def configured_bot(kind: str, name: str | None = None, **options: Any) -> BotFactory:
    """Return a factory for the built-in ``kind`` with ``options``
    (``configured_bot("pimc", "pimc-32", worlds=32)``).

    :raises RookError: for an unknown kind or a bad option (checked now).
    """
    make_agent(kind, PRESETS["tournament"], 0, **options)
    label = name or kind + "(" + ", ".join(f"{k}={v}" for k, v in sorted(options.items())) + ")"
    return BotFactory(label, partial(_make_kind, kind, dict(options)))


@dataclass
class EngineBot:
    """An outside program that plays a seat over JSON lines (see the module
    docstring).  ``command`` is the program and its arguments (a list, or a
    shell-like string); ``timeout`` bounds each answer (seconds).  One
    process is started per seat, in each process that plays (it is started
    on the first decision and ended with the interpreter or :meth:`close`).
    """

    command: Sequence[str] | str
    name: str = "engine"
    timeout: float = 30.0
    _procs: dict[int, subprocess.Popen[str]] = field(default_factory=dict, init=False, repr=False,
                                                     compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        argv: list[Any] = []
        if isinstance(self.command, str):
            try:
                argv = shlex.split(self.command)
            except ValueError as e:   # an unbalanced quote
                raise RookError(f"an engine bot's command {self.command!r} cannot be split into arguments: "
                                f"{e}") from None
        elif isinstance(self.command, (list, tuple)):
            argv = list(self.command)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise RookError(f"an engine bot's command is a program and its arguments, not {self.command!r}")
        self.command = argv
        if not self.timeout > 0:
            raise RookError(f"an engine bot's timeout must be positive, not {self.timeout!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {"command": self.command, "name": self.name, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.command, self.name, self.timeout = state["command"], state["name"], state["timeout"]
        self._procs = {}
        self._lock = threading.Lock()

    def agent(self, variant: Variant, seed: int) -> Agent:
        return _EngineAgent(self, variant, seed)

    def _process(self, seat: int) -> subprocess.Popen[str]:
        with self._lock:
            p = self._procs.get(seat)
            if p is None or p.poll() is not None:
                try:
                    p = subprocess.Popen(list(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1)
                except OSError as e:
                    raise RookError(f"bot {self.name!r}: cannot start {self.command!r}: {e}") from None
                self._procs[seat] = p
            return p

    def ask(self, seat: int, request: dict[str, Any]) -> Any:
        """Send one request for ``seat`` and return the answer's action."""
        p = self._process(seat)
        assert p.stdin is not None and p.stdout is not None
        try:
            p.stdin.write(json.dumps(request) + "\n")
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise RookError(f"bot {self.name!r} ({self.command!r}) ended (status {p.poll()})") from None
        ready, _, _ = select.select([p.stdout], [], [], self.timeout)
        if not ready:
            p.kill()
            raise RookError(f"bot {self.name!r} gave no answer within {self.timeout} s")
        line = p.stdout.readline()
        if not line:
            raise RookError(f"bot {self.name!r} ({self.command!r}) ended (status {p.wait(5)})")
        try:
            answer = json.loads(line)
        except ValueError:
            raise RookError(f"bot {self.name!r} answered {line.strip()[:200]!r}, not JSON") from None
        if not isinstance(answer, dict) or "action" not in answer:
            raise RookError(f"bot {self.name!r} answered {line.strip()[:200]!r}, not {{'action': ...}}")
        return answer["action"]

    def close(self) -> None:
        """End the bot's processes."""
        with self._lock:
            for p in self._procs.values():
                if p.poll() is None:
                    p.kill()
                    p.wait(5)
            self._procs.clear()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:   # noqa: BLE001 - at interpreter exit anything may be gone
            pass


class _EngineAgent:
    def __init__(self, bot: EngineBot, variant: Variant, seed: int) -> None:
        self.bot = bot
        self.name = bot.name
        self.seed = seed
        self.variant: str | dict[str, Any] = variant.name if PRESETS.get(variant.name) == variant \
            else variant.to_dict()

    def act(self, observation: Mapping[str, Any]) -> int:
        obs = observation.to_json() if hasattr(observation, "to_json") else dict(observation)
        seat = int(obs["seat"])
        action = self.bot.ask(seat, {"variant": self.variant, "seat": seat, "seed": self.seed,
                                     "observation": obs})
        return _read_action(self.bot.name, action)
