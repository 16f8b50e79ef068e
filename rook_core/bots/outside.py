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
  ``{"variant": name, "seat": s, "seed": seed, "observation": {...}, "id": n}``
  (``variant`` the preset name, or the variant's fields for a custom one;
  ``seed`` the agent's seed for this unit, the same on every decision of
  the unit; ``id`` the request's number, 1, 2, ... in the program's life),
  answered by one line ``{"action": action}``, best with ``"id": n`` echoed:
  an answer that echoes another request's id is refused (a late line can
  then never pass for the next request's answer).

An engine's standard output carries its answers and nothing else: one
line per request, read whole (blank lines are skipped).  Logs go to its
standard error, which it shares with this process.  A program that cannot
start, answers anything else (a line that is not such JSON, a second line
for one request, a line before it was asked, a line longer than 1 MiB),
ends, closes its output or says nothing within ``timeout`` seconds stops
the simulation with a :class:`~rook_core.errors.BotError` that names the
bot, its seat and what it did; that program (with whatever it started) is then
killed, and the next decision of its seat starts it again.  Threads that
share a bot take turns with each seat's program.  Each program
runs in a process group of its own, and those still running end, after a
moment to end by themselves once their input is closed, with
:meth:`EngineBot.close`, when the bot is collected, or when the process
that started them exits.

A factory must be picklable to run on worker processes (``workers > 1`` or
an executor): a module-level function, a :func:`functools.partial` of one,
an :class:`EngineBot`; not a lambda.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import json
import math
import multiprocessing.util
import numbers
import os
import random
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..actions import parse_action
from ..errors import BotError, NotationError, RookError
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
            raise BotError(f"bot {self.name!r}: its factory gave {a!r}, which has no act(observation)", self.name)
        return a


def _read_action(name: str, action: Any, seat: int | None = None) -> int:
    """An action as the bot ``name`` gave it: an int of the action space or its text.

    :raises BotError: naming the bot (and ``seat``, when given) for anything else.
    """
    who = f"bot {name!r}" + ("" if seat is None else f" at seat {seat}")
    if isinstance(action, bool):
        raise BotError(f"{who} answered {action!r}, not an action", name, seat)
    if isinstance(action, int):
        return action
    if isinstance(action, str):
        try:
            return parse_action(action)
        except NotationError as e:
            raise BotError(f"{who} answered {action[:200]!r}: {e}", name, seat) from None
    raise BotError(f"{who} answered {action!r}: an action is an int or a text such as 'R14'", name, seat)


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


_LINE_CAP = 1 << 20           # the longest answer line read from a program, in bytes
_READ = 1 << 16               # bytes read at a time
_LONGEST_TIMEOUT = 86_400     # seconds
_GRACE = 0.25                 # seconds a program has to end by itself once its input is closed


def _ms(seconds: float) -> int:
    """``seconds`` in whole milliseconds, rounded up (a poll's timeout)."""
    return max(0, math.ceil(seconds * 1000))


def _shown(argv: Sequence[str]) -> str:
    """A command as a message shows it (its start, when it is long)."""
    text = shlex.join(argv)
    return text if len(text) <= 120 else text[:117] + "..."


def _quote(data: bytes | bytearray, most: int = 200) -> str:
    """The start of what a program wrote, quoted for a message."""
    text = bytes(data[:most]).decode("utf-8", "replace").strip()
    return repr(text) + (" ..." if len(data) > most else "")


class _Program:
    """One running program of an :class:`EngineBot`: its process, and the
    bytes it wrote that no answer has used yet."""

    def __init__(self, argv: list[str], who: str) -> None:
        self.who = who
        self.command = _shown(argv)
        self.owner = os.getpid()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                     start_new_session=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.infd, self.outfd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.infd, False)
        os.set_blocking(self.outfd, False)
        self.readable = select.poll()
        self.readable.register(self.outfd, select.POLLIN)
        self.either = select.poll()
        self.either.register(self.outfd, select.POLLIN)
        self.either.register(self.infd, select.POLLOUT)
        self.pending = bytearray()
        self.ended = False
        self.asked = 0   # requests sent: the next one's id is asked + 1

    def exchange(self, request: bytes, timeout: float) -> bytes:
        """Send ``request`` (one line) and return the program's answer line,
        within ``timeout`` seconds.

        :raises RookError: naming the program when it writes anything besides
            one answer line, ends, or is too slow.
        """
        deadline = time.monotonic() + timeout
        got = 0
        while got <= _LINE_CAP and (n := self._pull(0.0)):   # what it wrote since its last answer
            got += n
            self._skip_blank()
            self._no_extra("before it was asked")
        self._send(request, deadline, timeout)
        self._skip_blank()
        self._no_extra("before it had its request")
        return self._answer(deadline, timeout)

    def _pull(self, wait: float) -> int:
        """Read what the program has written, waiting up to ``wait`` seconds
        for it; return the number of bytes read (0 for none yet)."""
        if not self.readable.poll(_ms(wait)):
            return 0
        try:
            data = os.read(self.outfd, _READ)
        except BlockingIOError:
            return 0
        except OSError:
            raise self._gone("its standard output") from None
        if not data:
            raise self._gone("its standard output")
        self.pending += data
        return len(data)

    def _skip_blank(self) -> None:
        """Drop the blank lines at the start of what is pending."""
        while (i := self.pending.find(b"\n")) >= 0 and not self.pending[:i].strip():
            del self.pending[:i + 1]

    def _no_extra(self, when: str) -> None:
        if self.pending.strip():
            raise RookError(f"{self.who} wrote {_quote(self.pending)} {when}: a program writes one line per "
                            f"request on its standard output, the answer (anything else goes to standard error)")

    def _send(self, request: bytes, deadline: float, timeout: float) -> None:
        """Write ``request``, reading meanwhile what the program writes (so
        that neither waits for the other)."""
        view = memoryview(request)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RookError(f"{self.who} did not read its request within {timeout:g} s")
            events = dict(self.either.poll(_ms(left)))
            if self.outfd in events:
                self._pull(0.0)
                if len(self.pending) > _LINE_CAP:
                    raise RookError(f"{self.who} wrote more than {_LINE_CAP >> 20} MiB before it had its request")
            if self.infd in events:
                try:
                    view = view[os.write(self.infd, view):]
                except BlockingIOError:
                    pass
                except OSError:
                    raise self._gone("its standard input") from None

    def _answer(self, deadline: float, timeout: float) -> bytes:
        """Return the next line the program writes (not a blank one), within ``deadline``."""
        while True:
            self._skip_blank()
            i = self.pending.find(b"\n")
            if i >= 0:
                line = bytes(self.pending[:i])
                del self.pending[:i + 1]
                self._skip_blank()
                if self.pending.strip():
                    raise RookError(f"{self.who} wrote more than one line for one request: {_quote(line)}, "
                                    f"then {_quote(self.pending)} (anything but the answer goes to standard error)")
                return line
            if len(self.pending) > _LINE_CAP:
                raise RookError(f"{self.who} wrote more than {_LINE_CAP >> 20} MiB without ending its answer line")
            left = deadline - time.monotonic()
            if left <= 0:
                part = f" (it wrote {_quote(self.pending)} without ending the line)" if self.pending.strip() else ""
                raise RookError(f"{self.who} gave no answer within {timeout:g} s{part}")
            self._pull(left)

    def _gone(self, stream: str) -> RookError:
        """The error for a program that closed ``stream``: it ended, or it lives on without it."""
        try:
            code = self.proc.wait(_GRACE)
        except subprocess.TimeoutExpired:
            return RookError(f"{self.who} closed {stream} but did not end ({self.command})")
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return RookError(f"{self.who} ended ({how}; {self.command})")

    def close_input(self) -> None:
        """Close the program's standard input (a program ends at its end)."""
        if self.owner == os.getpid():
            with contextlib.suppress(OSError):
                self.proc.stdin.close()   # type: ignore[union-attr]

    def end(self, wait: float) -> None:
        """End the program and whatever it started, once it has had ``wait``
        seconds to end by itself."""
        if self.owner != os.getpid() or self.ended:   # in a forked copy the program is the parent's
            return
        self.ended = True
        self.close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(max(wait, 0.0))
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)   # its own process group (start_new_session)
        with contextlib.suppress(OSError):
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        with contextlib.suppress(OSError):
            self.proc.stdout.close()   # type: ignore[union-attr]


_RUNNING: set[_Program] = set()
_RUNNING_LOCK = threading.Lock()
_HOOKED = 0   # the process id whose exit ends its programs


def _track(p: _Program) -> None:
    """Remember ``p`` so that it ends when this process does, even if its bot is never closed."""
    global _HOOKED
    with _RUNNING_LOCK:
        if _HOOKED != os.getpid():
            _HOOKED = os.getpid()
            atexit.register(_end_all)
            # a pool's worker ends through os._exit, after multiprocessing's finalizers but not atexit
            multiprocessing.util.Finalize(None, _end_all, exitpriority=0)
        _RUNNING.add(p)


def _finish(programs: list[_Program], grace: float) -> None:
    """End ``programs``, giving them ``grace`` seconds in all to end on their own."""
    for p in programs:
        p.close_input()
    deadline = time.monotonic() + grace
    for p in programs:
        p.end(deadline - time.monotonic())
    with _RUNNING_LOCK:
        _RUNNING.difference_update(programs)


def _end_all() -> None:
    """End every program this process started and still runs."""
    with _RUNNING_LOCK:
        programs = [p for p in _RUNNING if p.owner == os.getpid()]
    _finish(programs, _GRACE)


def _forked() -> None:
    global _RUNNING_LOCK, _RUNNING
    _RUNNING_LOCK = threading.Lock()
    _RUNNING = set()


os.register_at_fork(after_in_child=_forked)


@dataclass
class EngineBot:
    """An outside program that plays a seat over JSON lines (see the module
    docstring).  ``command`` is the program and its arguments (a list, or a
    shell-like string); ``timeout`` bounds each answer (seconds, at most a
    day).  One process is started per seat, in each process that plays (it
    is started on the first decision, started again after an error, and
    ended with the interpreter or :meth:`close`).

    :raises RookError: for a command that is not a program and its
        arguments, a name that is not a text, or a timeout that is not a
        number of seconds.
    """

    command: Sequence[str] | str
    name: str = "engine"
    timeout: float = 30.0
    _programs: dict[int, _Program] = field(default_factory=dict, init=False, repr=False, compare=False)
    _seats: dict[int, threading.Lock] = field(default_factory=dict, init=False, repr=False, compare=False)
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
        if not argv or not all(isinstance(a, str) and "\0" not in a for a in argv):
            raise RookError(f"an engine bot's command is a program and its arguments, not {self.command!r}")
        self.command = argv
        if not isinstance(self.name, str) or not self.name.strip():
            raise RookError(f"an engine bot's name is a text, not {self.name!r}")
        t = self.timeout
        if isinstance(t, bool) or not isinstance(t, numbers.Real) or not 0 < t <= _LONGEST_TIMEOUT:
            raise RookError(f"an engine bot's timeout is a number of seconds, more than 0 and at most "
                            f"{_LONGEST_TIMEOUT:,}, not {t!r}")
        self.timeout = float(t)

    def __getstate__(self) -> dict[str, Any]:
        return {"command": self.command, "name": self.name, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.command, self.name, self.timeout = state["command"], state["name"], state["timeout"]
        self._programs = {}
        self._seats = {}
        self._lock = threading.Lock()

    def agent(self, variant: Variant, seed: int) -> Agent:
        """Return the agent of one hand or game: it asks this bot's program of its seat."""
        return _EngineAgent(self, variant, seed)

    def _seat_lock(self, seat: int) -> threading.Lock:
        with self._lock:
            return self._seats.setdefault(seat, threading.Lock())

    def _who(self, seat: int) -> str:
        return f"bot {self.name!r} at seat {seat}"

    def _program(self, seat: int) -> _Program:
        """The running program of ``seat``, started if there is none."""
        with self._lock:
            p = self._programs.get(seat)
            if p is not None and p.owner == os.getpid():
                return p
            try:
                p = _Program(list(self.command), self._who(seat))
            except (OSError, ValueError, subprocess.SubprocessError) as e:
                raise BotError(f"{self._who(seat)}: cannot start {_shown(self.command)}: {e}",
                               self.name, seat) from None
            self._programs[seat] = p
        _track(p)
        return p

    def ask(self, seat: int, request: dict[str, Any]) -> Any:
        """Send one request for ``seat`` and return the answer's action, as
        the program wrote it.

        :raises BotError: naming the bot and the seat when the program
            cannot start, answers anything but one line ``{"action": ...}``,
            ends, or is silent past ``timeout``; its process is then ended.
        """
        with self._seat_lock(seat):
            p = self._program(seat)
            p.asked += 1
            line = (json.dumps({**request, "id": p.asked}) + "\n").encode()
            try:
                answer = p.exchange(line, self.timeout)
                return _answer_action(p.who, answer, p.asked)
            except BaseException as e:   # an error or an interrupt: the program is out of step, end it
                with self._lock:
                    if self._programs.get(seat) is p:
                        del self._programs[seat]
                _finish([p], 0.0)
                if isinstance(e, RookError) and not isinstance(e, BotError):
                    raise BotError(str(e), self.name, seat) from None
                raise

    def close(self) -> None:
        """End the bot's processes (each has a moment to end by itself once
        its input is closed)."""
        with self._lock:
            programs = list(self._programs.values())
            self._programs.clear()
        _finish(programs, _GRACE)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:   # noqa: BLE001 - at interpreter exit anything may be gone
            pass


def _answer_action(who: str, line: bytes, asked: int) -> Any:
    """The action of a program's answer ``line`` to its request ``asked``
    (an answer that echoes the request's ``id`` must echo that one); ``who``
    names the bot and seat in an error."""
    try:
        answer = json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        raise RookError(f"{who} answered {_quote(line)}, not JSON (a program writes only its "
                        f"answers on standard output, anything else on standard error)") from None
    if not isinstance(answer, dict) or "action" not in answer:
        raise RookError(f"{who} answered {_quote(line)}, not {{'action': ...}}")
    if "id" in answer and (type(answer["id"]) is not int or answer["id"] != asked):
        raise RookError(f"{who} answered {_quote(line)} to request {asked}: an answer out of step with "
                        f"its requests (one line per request, echoing its id)")
    return answer["action"]


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
        return _read_action(self.bot.name, action, seat)
