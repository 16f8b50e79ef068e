"""The batch simulator: many seeded hands or games between agents, as columns.

>>> r = simulate("tournament", ["heuristic", "random", "heuristic", "random"], hands=8, seed=7)
>>> len(r), sorted(r.hands)[:4]
(8, ['bid', 'bid_0', 'bid_1', 'bid_2'])
>>> r == simulate("tournament", ["heuristic", "random", "heuristic", "random"], hands=8, seed=7,
...               workers=2, chunk=3)
True

**Units.**  ``hands=N`` plays N single hands: deal ``i`` uses the seed
:func:`~rook_core.rng.hand_seed` ``(seed, i)`` with dealer ``i % 4``
(T-1, T-2), is bid, played and scored (T-3 .. T-32); a hand every seat
passes is recorded as thrown in (T-6), not redealt.  ``games=N`` plays N
games to the target (T-33, T-34): game ``g`` is ``Game(preset,
hand_seed(seed, g), first_dealer=g % 4)``, stopped without a winner after
``max_hands`` hands.

**Seeds.**  Every agent is built afresh for each unit with a seed derived
from (seed, unit, seat), so a unit's result depends only on the seed and
its index: never on the number of workers, the chunking or the executor.

**Duplicate.**  With ``duplicate=True`` each unit is played twice on the
same cards, the second time with every agent moved one seat to the left
(seat ``s`` gets ``agents[(s + 1) % 4]``), so the two sides swap cards.
Column ``copy`` says which; :meth:`SimResult.summary` then compares side A
(``agents[0]`` and ``agents[2]``) with side B on equal cards.

**Workers.**  ``workers=1`` runs in this process.  More workers, or any
:class:`concurrent.futures.Executor` passed as ``executor`` (a process
pool, or ``distributed.Client(...).get_executor()`` for a Dask cluster),
run chunks of units side by side; the chunks are put back in order.

**Native loop.**  When the four agents are ``"random"``, ``"heuristic"`` or
:class:`~rook_core.bots.policy.NativePolicy` objects, the units are played by
the C loop of ``src/rook/sim.c`` without the GIL (``workers`` are then
threads), with the C twin of the heuristic agent; it draws from the same
streams and decides as the Python agents do, so the rows are the same as
with ``native=False``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from .. import _layout as L
from ..actions import Phase
from ..bots.agents import AGENTS, Agent, act_for, make_agent
from ..bots.outside import BotFactory, EngineBot
from ..bots.policy import NativePolicy
from ..errors import (
    BotActionError,
    BotError,
    IllegalActionError,
    RookError,
    as_tuple,
    bool_arg,
    check_progress,
    int_arg,
)
from ..game import Game
from ..hand import HandState
from ..rng import agent_seed, check_seed, hand_seed, hand_seeds
from ..variant import Variant, as_variant
from .chunks import (
    Inline,
    check_executor,
    check_pickles,
    check_workers,
    chunk_count,
    process_pool,
    run_chunks,
)
from .stats import mean_ci, wilson
from .summary import Summary
from .tables import Tables, check_held, check_out_path, check_rows_fit

__all__ = ["simulate", "SimResult", "HAND_COLUMNS", "GAME_COLUMNS", "check_out_path", "check_run_fits"]


_M64 = (1 << 64) - 1

HAND_COLUMNS: dict[str, tuple[str, str]] = {
    "unit": ("int32", "the hand (hands=) or game (games=) index"),
    "copy": ("int8", "0, or 1 for the duplicate replay with the agents moved one seat left"),
    "hand": ("int32", "1-based hand number within its game (1 for hands=)"),
    "deal_seed": ("uint64", "the seed the hand was dealt from (T-2)"),
    # the native loop's row columns (one table: tools/gen_layout.py), less its error columns
    **{name: (dtype, what) for name, dtype, what in L.ROW_SCHEMA if not name.startswith("error")},
}
GAME_COLUMNS: dict[str, tuple[str, str]] = {
    "unit": ("int32", "the game index"),
    "copy": ("int8", "0, or 1 for the duplicate replay"),
    "hands": ("int32", "hands played, thrown-in hands included"),
    "total_0": ("int32", "team 0's final score (T-34)"),
    "total_1": ("int32", "team 1's final score"),
    "winner": ("int8", "the winning team, -1 when max_hands ran out first"),
}


AgentSpec: TypeAlias = "str | NativePolicy | BotFactory | EngineBot"
"""A seat's agent as :func:`simulate` takes it: a kind of ``make_agent``, a
native policy, or a bot from outside (:mod:`rook_core.bots.outside`)."""


@dataclass(frozen=True)
class _Spec:
    variant: Variant
    agents: tuple[AgentSpec, ...]
    options: tuple[dict[str, Any], ...]
    seed: int
    mode: str               # "hands" or "games"
    duplicate: bool
    max_hands: int


def _new_columns(cols: dict[str, tuple[str, str]]) -> dict[str, list[Any]]:
    return {k: [] for k in cols}


def _apply_checked(target: HandState | Game, h: HandState, bots: list[Agent], where: str) -> None:
    """Apply the action of the seat to move in ``h`` to ``target`` (the hand or
    its game).

    :raises BotError: saying where, naming the seat and its bot, when the
        bot fails (a :class:`BotActionError` for an action the rules refuse).
    """
    seat = h.to_move
    assert seat is not None
    name = _agent_name(getattr(bots[seat], "name", "?"))
    try:
        action = act_for(bots[seat], h, seat)
    except BotError as e:   # it names the bot, and the seat when it knows it
        raise BotError(f"{where}: {e}" if e.seat is not None else f"{where}: seat {seat}: {e}",
                       e.bot, seat) from None
    except Exception as e:  # noqa: BLE001 - an outside bot may raise anything: say where
        raise BotError(f"{where}: seat {seat} ({name}) raised {type(e).__name__}: {e}", name, seat) from e
    try:
        target.apply(action)
    except IllegalActionError as e:
        raise BotActionError(f"{where}: seat {seat} ({name}) chose action {action}, which the rules refuse: {e}",
                             rule=e.rule, action=action, bot=name, seat=seat) from None


def _play_hand(h: HandState, bots: list[Agent], where: str) -> None:
    while not h.is_over:
        _apply_checked(h, h, bots, where)


def _hand_row(out: dict[str, list[Any]], h: HandState, unit: int, copy: int, number: int,
              deal_seed: int) -> None:
    v = h.variant
    best = [0, 0, 0, 0]
    for s, b in h.bids():
        if b is not None:
            best[s] = max(best[s], b)
    thrown = h.phase == Phase.THROWN_IN
    out["unit"].append(unit)
    out["copy"].append(copy)
    out["hand"].append(number)
    out["deal_seed"].append(deal_seed)
    out["dealer"].append(h.dealer)
    for s in range(4):
        out[f"bid_{s}"].append(best[s])
    out["declarer"].append(-1 if thrown else h.declarer)
    out["bid"].append(0 if thrown else h.high_bid)
    out["trump"].append(-1 if thrown or h.trump is None else h.trump)
    pts = (0, 0) if thrown else h.points
    sc = (0, 0) if thrown else h.score
    out["points_0"].append(pts[0])
    out["points_1"].append(pts[1])
    out["made"].append(-1 if thrown else int(bool(h.made)))
    out["score_0"].append(sc[0])
    out["score_1"].append(sc[1])
    start = HandState.deal(v, deal_seed, h.dealer)
    for s in range(4):
        out[f"hand_{s}"].append(start.hand_mask(s))
    out["nest"].append(start.nest.mask)


def _bots(spec: _Spec, unit: int, copy: int) -> list[Agent]:
    bots: list[Agent] = []
    for seat in range(4):
        i = (seat + copy) % 4
        a, seed = spec.agents[i], agent_seed(spec.seed, unit, seat)
        if isinstance(a, str):
            bots.append(make_agent(a, spec.variant, seed, **spec.options[i]))
            continue
        try:
            bots.append(a.agent(spec.variant, seed))
        except BotError as e:   # a factory that gave no agent
            raise BotError(f"{spec.mode[:-1]} {unit}: seat {seat}: {e}", e.bot, seat) from None
    return bots


def _run_chunk(spec: _Spec, first: int, count: int) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Play units first .. first+count-1; return (hand rows, game rows)."""
    hands = _new_columns(HAND_COLUMNS)
    games = _new_columns(GAME_COLUMNS)
    for unit in range(first, first + count):
        for copy in ((0, 1) if spec.duplicate else (0,)):
            bots = _bots(spec, unit, copy)
            if spec.mode == "hands":
                ds = hand_seed(spec.seed, unit)
                h = HandState.deal(spec.variant, ds, unit % 4)
                _play_hand(h, bots, f"hand {unit}" + (" (duplicate copy 1)" if copy else ""))
                _hand_row(hands, h, unit, copy, 1, ds)
                continue
            g = Game(spec.variant, hand_seed(spec.seed, unit), first_dealer=unit % 4)
            played = 0
            while not g.is_over and g.hand_number <= spec.max_hands:
                played = g.hand_number
                _play_hand_in_game(g, bots, f"game {unit}" + (" (duplicate copy 1)" if copy else ""))
                _hand_row(hands, g.hands[played - 1], unit, copy, played,
                          hand_seed(g.seed, played - 1))
            t = g.totals
            games["unit"].append(unit)
            games["copy"].append(copy)
            games["hands"].append(played)
            games["total_0"].append(t[0])
            games["total_1"].append(t[1])
            games["winner"].append(-1 if g.winner is None else g.winner)
    return hands, games


def _play_hand_in_game(g: Game, bots: list[Agent], where: str) -> None:
    """Play the current hand of ``g`` to its end (the game then deals the next)."""
    start = g.hand_number
    while not g.is_over and g.hand_number == start:
        _apply_checked(g, g.current, bots, where)


def _to_arrays(rows: dict[str, list[Any]], cols: dict[str, tuple[str, str]]) -> dict[str, npt.NDArray[Any]]:
    return {k: np.asarray(rows[k], dtype=cols[k][0]) for k in cols}


@dataclass(eq=False)
class SimResult(Tables):
    """Columnar results of :func:`simulate`.

    ``hands`` maps each name of :data:`HAND_COLUMNS` to a NumPy array, one
    row per hand played (both copies in duplicate mode); ``games`` does the
    same for :data:`GAME_COLUMNS` (empty for ``hands=`` runs).  ``==``
    compares the run (preset, agents, seed, mode, duplicate) and every
    column, not ``meta`` (the options, the variant, the path that ran it):
    the native and Python paths give equal results.
    """

    preset: str
    agents: tuple[str, ...]
    seed: int
    mode: str
    duplicate: bool
    hands: dict[str, npt.NDArray[Any]]
    games: dict[str, npt.NDArray[Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.hands["unit"]) if self.mode == "hands" else len(self.games["unit"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimResult):
            return NotImplemented
        same = (self.preset, self.agents, self.seed, self.mode, self.duplicate) == (
            other.preset, other.agents, other.seed, other.mode, other.duplicate)
        return same and all(np.array_equal(a[k], b[k]) for a, b in
                            ((self.hands, other.hands), (self.games, other.games)) for k in a)

    # ------------------------------------------------------------ summary
    def summary(self) -> Summary:
        """Return the headline figures, each with a 95% interval as ``[value, low, high]``:
        a :class:`~rook_core.sim.summary.Summary`, a dict that prints as a table
        and gives its figures as rows for data frames.

        Per team: mean hand points and score per hand played; the make
        rate of the team's declarers (Wilson); in ``games=`` runs the win
        rate.  In duplicate mode, ``side_a_minus_b``: side A's advantage per
        unit over side B on the same cards (points and score per hand, and
        in ``games=`` runs games won), with its interval.
        """
        h = self.hands
        played = h["made"] >= 0
        out: dict[str, Any] = {
            "preset": self.preset, "agents": list(self.agents), "seed": self.seed,
            "mode": self.mode, "duplicate": self.duplicate,
            "hands": int(len(h["unit"])), "thrown_in": int((~played).sum()),
        }
        teams = {}
        for t in (0, 1):
            decl = played & (h["declarer"] % 2 == t)
            teams[f"team_{t}"] = {
                "agents": [self.agents[t], self.agents[t + 2]] if not self.duplicate else None,
                "points_per_hand": mean_ci(h[f"points_{t}"][played].astype(float)),
                "score_per_hand": mean_ci(h[f"score_{t}"][played].astype(float)),
                "declared": int(decl.sum()),
                "make_rate": wilson(int((h["made"][decl] == 1).sum()), int(decl.sum())),
                "mean_bid": float(h["bid"][decl].mean()) if decl.any() else math.nan,
            }
        out.update(teams)
        if self.mode == "games" and len(self.games["unit"]):
            w = self.games["winner"]
            decided = int((w >= 0).sum())
            out["games"] = int(len(w))
            out["undecided_games"] = int(len(w) - decided)
            out["team_0_win_rate"] = wilson(int((w == 0).sum()), decided)
            out["hands_per_game"] = mean_ci(self.games["hands"].astype(float))
        if self.duplicate:
            out["side_a"] = [self.agents[0], self.agents[2]]
            out["side_b"] = [self.agents[1], self.agents[3]]
            out["side_a_minus_b"] = self._duplicate_margins()
        return Summary(out)

    def _duplicate_margins(self) -> dict[str, Any]:
        """Side A's advantage per unit: copy 0 seats it as team 0, copy 1 as team 1."""
        h = self.hands
        res: dict[str, Any] = {}
        for what in ("points", "score"):
            a = np.where(h["copy"] == 0, h[f"{what}_0"] - h[f"{what}_1"],
                         h[f"{what}_1"] - h[f"{what}_0"]).astype(float)
            per_unit = np.bincount(h["unit"], weights=a) / 2.0
            units = np.unique(h["unit"])
            if self.mode == "games":
                hands_per_unit = np.bincount(h["unit"]).astype(float)[units]
                res[f"{what}_per_hand"] = mean_ci(per_unit[units] * 2.0 / hands_per_unit)
            else:
                res[f"{what}_per_hand"] = mean_ci(per_unit[units])
        if self.mode == "games" and len(self.games["unit"]):
            g = self.games
            side_a_team = np.where(g["copy"] == 0, 0, 1)
            won = np.where(g["winner"] < 0, 0.0, np.where(g["winner"] == side_a_team, 1.0, -1.0))
            per_unit = np.bincount(g["unit"], weights=won)[np.unique(g["unit"])] / 2.0
            res["games_won_per_game"] = mean_ci(per_unit)
        return res

    # ------------------------------------------------------------- output
    def tables(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        return {"hands": self.hands, "games": self.games}

    def file_tables(self) -> list[str]:
        return ["hands", "games"] if self.mode == "games" else ["hands"]

    def card_columns(self, which: str) -> list[str]:
        return [k for k in HAND_COLUMNS if k.startswith("hand_") or k == "nest"] if which == "hands" else []

    def metadata(self) -> dict[str, str]:
        return {"preset": self.preset, "agents": ",".join(self.agents), "seed": str(self.seed),
                "mode": self.mode, "duplicate": str(self.duplicate)}

    def to_arrow(self, which: str = "hands") -> Any:
        """Return the ``hands`` or ``games`` columns as a ``pyarrow.Table``.

        :raises RookError: when pyarrow is not installed.
        """
        return super().to_arrow(which)


def _agent_name(a: AgentSpec | str) -> str:
    return a if isinstance(a, str) else str(getattr(a, "name", "native"))


MOST_HANDS = 10**6     # the most hands a game of a simulation may last (max_hands)
_PY_ROW_BYTES = 1024   # about what a hand row takes in the Python path's lists (22 columns of ints)
_NATIVE_ROW_PEAK = 3 * L.ROW_LEN * 8   # a native row at the run's end: its chunk's, the joined rows, the columns
_NATIVE_GAME_ROWS = 65_536   # the most hand rows the native loop sets aside for games at a time
NATIVE_KINDS = ("random", "heuristic")   # kinds with a native twin in src/rook (sim.c, heuristic.c)


def check_run_fits(n: int, mode: str = "hands", duplicate: bool = False, native: bool = True) -> None:
    """Refuse, before any work, a run of ``n`` hands or games whose rows would
    not fit in memory (a game has a row a hand, so at least one; the native
    loop's rows at their peak, or the Python path's).

    :raises RookError: naming the run and what it would need.
    """
    check_rows_fit(n * (2 if duplicate else 1), _NATIVE_ROW_PEAK if native else _PY_ROW_BYTES, f"{n:,} {mode}")


def _is_native(a: AgentSpec) -> bool:
    return a in NATIVE_KINDS or isinstance(a, NativePolicy)


def simulate(preset: str | Variant, agents: Sequence[AgentSpec] = ("heuristic",) * 4, *,
             hands: int | None = None, games: int | None = None, seed: int = 0,
             workers: int = 1, executor: Executor | None = None, chunk: int | None = None,
             duplicate: bool = False, max_hands: int = 200,
             agent_options: dict[str, dict[str, Any]] | None = None,
             progress: Callable[[int, int], None] | None = None,
             native: bool | None = None) -> SimResult:
    """Play ``hands`` single hands or ``games`` games between ``agents``
    (four kinds, :class:`~rook_core.bots.policy.NativePolicy` objects or bots
    from outside: :func:`~rook_core.bots.outside.python_bot`,
    :func:`~rook_core.bots.outside.configured_bot`,
    :class:`~rook_core.bots.outside.EngineBot`; seat 0 first) and return the
    results as columns.  Every agent gets the same seeds whatever it is.

    ``agent_options`` gives keyword options per kind (``{"pimc": {"worlds":
    32}}``).  ``progress(done, total)`` is called as units finish.  See the
    module docstring for seeds, duplicate mode and workers.

    ``native``: with ``None`` (the default) a run whose agents are all
    ``"random"``, ``"heuristic"`` or native policies plays in the native
    loop without the GIL, on ``workers`` threads or in chunks on ``executor``; ``False`` forces the Python path
    (same rows, slower), ``True`` refuses to run anything else.

    :raises RookError: for an unknown preset or agent, or a bad count.
    :raises BotError: when an agent fails (an outside program that ends,
        answers garbage or is too slow; a bot that raises), naming where,
        the seat and the bot; a :class:`~rook_core.errors.BotActionError`
        (an ``IllegalActionError`` too) when it chooses an action the rules
        refuse.
    """
    variant = as_variant(preset)
    if isinstance(agents, (AbstractSet, Mapping)):
        raise RookError(f"agents must be a list of four agents in seat order (seat 0 first), not a "
                        f"{type(agents).__name__}, which has no order: {agents!r}")
    seats = as_tuple(agents)
    if seats is None:
        raise RookError(f"agents must be a list of four agents, one per seat, not {agents!r}")
    agents = seats
    if len(agents) != 4:
        raise RookError(f"agents must name four kinds, one per seat, not {len(agents)}")
    for a in agents:
        if not isinstance(a, (NativePolicy, BotFactory, EngineBot)) and (not isinstance(a, str) or a not in AGENTS):
            raise RookError(f"unknown agent {a!r}; known: {', '.join(AGENTS)}, a NativePolicy, or a "
                            f"bot of rook_core.bots.outside (python_bot, configured_bot, EngineBot)")
    if (hands is None) == (games is None):
        raise RookError("give exactly one of hands= and games=")
    what = f"the number of {'hands' if hands is not None else 'games'} must be an int >= 0"
    n = int_arg(hands if hands is not None else games, what, 0)
    seed = check_seed(seed)
    workers = check_workers(workers)
    hands_most = f"max_hands must be an int 1..{MOST_HANDS:,}"
    max_hands = int_arg(max_hands, hands_most, 1, MOST_HANDS)
    duplicate = bool_arg(duplicate, "duplicate")
    if native is not None and not isinstance(native, bool):
        raise RookError(f"native must be True, False or None, not {native!r}")
    check_progress(progress)
    check_executor(executor)
    opts = {} if agent_options is None else agent_options
    if not isinstance(opts, Mapping):
        raise RookError(f"agent_options must be a dict of options by agent kind, not {opts!r}")
    for kind, kind_opts in opts.items():
        if kind not in AGENTS:
            raise RookError(f"agent_options names an unknown agent {kind!r}")
        if not isinstance(kind_opts, Mapping) or not all(isinstance(k, str) for k in kind_opts):
            raise RookError(f"agent_options[{kind!r}] must be a dict of keyword options, not {kind_opts!r}")
    for kind in {a for a in agents if isinstance(a, str)} | set(opts):   # a bad option fails here, once
        make_agent(kind, variant, 0, **opts.get(kind, {}))
    mode = "hands" if hands is not None else "games"
    all_native = all(_is_native(a) for a in agents) and "random" not in opts
    if native and not all_native:
        raise RookError("native=True needs four agents that are 'random', 'heuristic' or "
                        "NativePolicy objects")
    check_run_fits(n, mode, duplicate, all_native and native is not False)
    names = tuple(_agent_name(a) for a in agents)
    meta = {"max_hands": max_hands, "options": opts, "variant": variant}
    if chunk is not None:
        chunk = int_arg(chunk, "chunk must be a positive int", 1)
    if all_native and native is not False:
        if executor is not None and any(isinstance(a, NativePolicy) for a in agents):
            raise RookError("a native policy is a function of this process: it cannot run on an "
                            "executor's workers")
        cols, game_cols = _simulate_native(variant, agents, opts, seed, n, mode, duplicate, max_hands,
                                           workers, executor, chunk, progress)
        meta["native"] = True
        return SimResult(variant.name, names, seed, mode, duplicate, cols, game_cols, meta)
    if any(isinstance(a, NativePolicy) for a in agents) and (workers > 1 or executor is not None):
        raise RookError("native policies run in this process on the Python path: use workers=1 "
                        "and no executor, or agents that are all native")
    spec = _Spec(variant, agents, tuple(dict(opts.get(a, {})) if isinstance(a, str) else {}
                                        for a in agents), seed, mode, duplicate, max_hands)
    if chunk is None:
        lanes = workers if executor is None else 8
        chunk = max(1, min(256 if spec.mode == "hands" else 16, -(-n // (4 * lanes)) if n else 1))
    if isinstance(executor, ProcessPoolExecutor) or (executor is None and workers > 1 and chunk < n):
        check_pickles({f"the agent of seat {s} ({names[s]})": a for s, a in enumerate(agents)})
    pool, own = process_pool(workers, executor, chunk_count(n, chunk))
    parts = run_chunks(partial(_run_chunk, spec), n, chunk, pool, own, progress,
                       _games_held(mode, n, max_hands, lambda p: len(p[0]["unit"]) * _PY_ROW_BYTES))
    hands_rows = _new_columns(HAND_COLUMNS)
    game_rows = _new_columns(GAME_COLUMNS)
    for hr, gr in parts:
        for k in hands_rows:
            hands_rows[k].extend(hr[k])
        for k in game_rows:
            game_rows[k].extend(gr[k])
    return SimResult(variant.name, names, seed, spec.mode, duplicate,
                     _to_arrays(hands_rows, HAND_COLUMNS), _to_arrays(game_rows, GAME_COLUMNS), meta)



def _games_held(mode: str, n: int, max_hands: int, weigh: Callable[[Any], int]
                ) -> tuple[Callable[[Any], int], Callable[[int], None]] | None:
    """The memory bound of a run of games while it goes (``run_chunks``'s
    ``held``): how long a game lasts is known only once it is played (games of
    random bots mostly never reach the target, their bids being mostly set),
    so the rows are weighed as the chunks come.  A run of hands has its bound
    before it starts (one row a hand: ``check_rows_fit``)."""
    if mode != "games":
        return None
    return weigh, partial(check_held, what=f"{n:,} games of at most {max_hands:,} hands",
                          advice="lower max_hands (games that seldom end, such as random bots', fill it) or "
                                 "run fewer games at a time")


def native_policies(variant: Variant, agents: Sequence[Any], heuristic_options: dict[str, Any] | None = None
                    ) -> list[tuple[int, Any]]:
    """Return the native loop's (kind, argument) pairs of ``agents``: each
    ``"random"``, ``"heuristic"`` (with ``heuristic_options``) or a
    :class:`~rook_core.bots.policy.NativePolicy`."""
    from .._native import POLICY_CALLBACK, POLICY_HEURISTIC, POLICY_RANDOM
    from ..bots.heuristic import HeuristicAgent
    policies: list[tuple[int, Any]] = []
    for a in agents:
        if a == "random":
            policies.append((POLICY_RANDOM, 0))
        elif a == "heuristic":
            params = HeuristicAgent(variant, 0, **(heuristic_options or {})).native_params()
            policies.append((POLICY_HEURISTIC, params))
        else:
            policies.append((POLICY_CALLBACK, a.address))
    return policies


def _simulate_native(variant: Variant, agents: tuple[Any, ...], opts: dict[str, dict[str, Any]],
                     seed: int, n: int, mode: str, duplicate: bool, max_hands: int, workers: int,
                     executor: Executor | None, chunk: int | None,
                     progress: Callable[[int, int], None] | None
                     ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, npt.NDArray[Any]]]:
    """Play a run in the native loop (src/rook/sim.c) on ``workers`` threads,
    or in chunks on ``executor``; return the hand and game columns."""
    from .._native import ROW_COLUMNS, ROW_LEN
    policies = native_policies(variant, agents, opts.get("heuristic", {}))
    per = 2 if duplicate else 1
    if chunk is None:
        lanes = workers if executor is None else 8
        most = 65_536 if mode == "hands" else max(1, _NATIVE_GAME_ROWS // (per * max_hands))
        chunk = max(1, min(most, -(-n // (4 * lanes)) if n else 1))
    own = executor is None and workers > 1 and chunk_count(n, chunk) > 1
    pool = executor if executor is not None else ThreadPoolExecutor(min(workers, chunk_count(n, chunk))) \
        if own else Inline()
    parts = run_chunks(partial(_native_chunk, variant, policies, seed, mode, duplicate, max_hands), n, chunk,
                       pool, own, progress,
                       _games_held(mode, n, max_hands, lambda p: p[0].nbytes + (0 if p[1] is None else p[1].nbytes)))
    rows = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, ROW_LEN), np.int64)
    col = {name: rows[:, i] for i, name in enumerate(ROW_COLUMNS)}
    if mode == "hands":
        units = np.repeat(np.arange(n, dtype=np.int64), per)
        copies = np.tile(np.arange(per), n)
        numbers: npt.NDArray[np.int64] = np.ones(n * per, dtype=np.int64)
        deal_seeds = hand_seeds(seed, units)
        game_cols = _to_arrays(_new_columns(GAME_COLUMNS), GAME_COLUMNS)
    else:
        games = np.concatenate([p[1] for p in parts if p[1] is not None]) if parts else \
            np.zeros((0, 4), np.int64)
        g_units = np.repeat(np.arange(n, dtype=np.int64), per)
        g_copies = np.tile(np.arange(per), n)
        counts = games[:, 0]
        units = np.repeat(g_units, counts)
        copies = np.repeat(g_copies, counts)
        numbers = (np.concatenate([np.arange(1, k + 1) for k in counts]) if len(counts)
                   else np.zeros(0, np.int64))
        game_seeds = hand_seeds(seed, units)
        deal_seeds = hand_seeds(game_seeds, numbers - 1)
        game_cols = {"unit": g_units, "copy": g_copies, "hands": counts, "total_0": games[:, 1],
                     "total_1": games[:, 2], "winner": games[:, 3]}
        game_cols = {k: np.asarray(game_cols[k]).astype(GAME_COLUMNS[k][0]) for k in GAME_COLUMNS}
    bad = np.flatnonzero(col["error"])
    if bad.size:
        i = int(bad[0])
        seat = int(col["error_seat"][i])
        copy = int(copies[i])
        agent = agents[(seat + copy) % 4]
        where = f"hand {units[i]}" if mode == "hands" else f"game {units[i]}"
        raise BotActionError(
            f"{where}{' (duplicate copy 1)' if copy else ''}: seat {seat} "
            f"({_agent_name(agent)}) chose action {int(col['error_action'][i])}, which the rules "
            f"refuse", action=int(col["error_action"][i]), bot=_agent_name(agent), seat=seat)
    out: dict[str, npt.NDArray[Any]] = {"unit": units, "copy": copies, "hand": numbers, "deal_seed": deal_seeds}
    for name in HAND_COLUMNS:
        if name in col:
            out[name] = col[name]
    return {k: np.asarray(out[k]).astype(HAND_COLUMNS[k][0]) for k in HAND_COLUMNS}, game_cols


def _native_chunk(variant: Variant, policies: list[tuple[int, Any]], seed: int, mode: str, duplicate: bool,
                  max_hands: int, first: int, count: int) -> tuple[npt.NDArray[Any], npt.NDArray[Any] | None]:
    """Play units first .. first+count-1 natively; return (hand rows, game rows or None)."""
    from .._native import rules_for, sim_games, sim_hands
    rules = rules_for(variant)
    if mode == "hands":
        return sim_hands(rules, policies, seed, first, count, duplicate), None
    # sim_games sets aside max_hands rows a game: play a large chunk a few games at a time
    step = max(1, _NATIVE_GAME_ROWS // ((2 if duplicate else 1) * max_hands))
    row_parts, game_parts = [], []
    for start in range(first, first + count, step):
        rows, games = sim_games(rules, policies, seed, start, min(step, first + count - start), duplicate,
                                max_hands, variant.target, variant.tie_to_team_0, variant.win_on_own_bid)
        keep = np.concatenate([np.arange(j * max_hands, j * max_hands + games[j, 0])
                               for j in range(len(games))]) if len(games) else np.zeros(0, np.int64)
        row_parts.append(rows[keep])
        game_parts.append(games)
    if not row_parts:
        return np.zeros((0, L.ROW_LEN), np.int64), np.zeros((0, 4), np.int64)
    return np.concatenate(row_parts), np.concatenate(game_parts)
