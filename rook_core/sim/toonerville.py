"""Many seeded Toonerville games between bots, as columns (``rook simulate --preset toonerville``).

The conventions of :func:`rook_core.sim.simulate.simulate`: game ``g`` of a run
with seed ``s`` is ``ToonervilleGame(rules, hand_seed(s, g), first_dealer=g %
players)`` and the bot of player ``p`` gets the seed ``agent_seed(s, g, p)``,
so a game's result depends only on the run's seed and its index, never on
the number of workers or how the games are split between them.

Two tables of NumPy columns: one row per round played (:data:`ROUND_COLUMNS`)
and one per game (:data:`GAME_COLUMNS`); a player who is not in the game (a
3-player game has no players 3 and 4) reads -1.

>>> r = simulate_toonerville(["heuristic", "random", "heuristic"], games=2, seed=3,
...                          rounds=(1, 2), turn_limit=200)
>>> len(r), r.rounds["round"].tolist()
(2, [1, 2, 1, 2])
"""

from __future__ import annotations

import math
import os
import reprlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import RookError, as_tuple, check_progress, int_arg
from ..rng import agent_seed, check_seed, hand_seed
from ..toonerville.agents import make_toonerville_agent, play_game, toonerville_agent_kinds
from ..toonerville.game import ToonervilleGame
from ..toonerville.rules import ToonervilleRules
from .chunks import check_executor, check_workers, chunk_count, process_pool, run_chunks
from .stats import mean_ci, wilson
from .tables import Tables, check_rows_fit

__all__ = ["simulate_toonerville", "format_toonerville_summary", "ToonervilleSimResult", "ROUND_COLUMNS",
           "GAME_COLUMNS", "MAX_PLAYERS"]

MAX_PLAYERS = 5
ROUND_COLUMNS: dict[str, tuple[str, str]] = {
    "unit": ("int64", "the game's index in the run"),
    "round": ("int8", "the round played, 1-11 (TV-2)"),
    "dealer": ("int8", "the dealer of the round (TV-3)"),
    "went_out": ("int8", "the player who went out (TV-10); -1: nobody, the round reached the turn limit"),
    "turns": ("int32", "turns started in the round (TV-6)"),
    **{f"score_{p}": ("int32", f"player {p}'s points left in hand, 0 for going out (TV-12)")
       for p in range(MAX_PLAYERS)},
    **{f"laid_{p}": ("int8", f"1 if player {p} laid the contract (TV-7)") for p in range(MAX_PLAYERS)},
    **{f"buys_{p}": ("int8", f"player {p}'s buys in the round (TV-8)") for p in range(MAX_PLAYERS)},
}
GAME_COLUMNS: dict[str, tuple[str, str]] = {
    "unit": ("int64", "the game's index in the run"),
    "game_seed": ("uint64", "the seed the game was dealt from"),
    "rounds": ("int8", "rounds played"),
    **{f"total_{p}": ("int32", f"player {p}'s total (TV-12)") for p in range(MAX_PLAYERS)},
    **{f"won_{p}": ("int8", f"1 if player {p} has the lowest total (ties share, TV-12)")
       for p in range(MAX_PLAYERS)},
}


@dataclass(eq=False)
class ToonervilleSimResult(Tables):
    """Results of :func:`simulate_toonerville`: ``rounds`` holds one row per
    round played (:data:`ROUND_COLUMNS`), ``games`` one per game
    (:data:`GAME_COLUMNS`); ``meta`` the rules and the machine."""

    preset: str
    agents: tuple[str, ...]
    seed: int
    rounds: dict[str, npt.NDArray[Any]]
    games: dict[str, npt.NDArray[Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.games["unit"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToonervilleSimResult):
            return NotImplemented
        return (self.preset, self.agents, self.seed) == (other.preset, other.agents, other.seed) and all(
            np.array_equal(a[k], b[k]) for a, b in ((self.rounds, other.rounds), (self.games, other.games))
            for k in a)

    def tables(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        return {"rounds": self.rounds, "games": self.games}

    def metadata(self) -> dict[str, str]:
        return {"preset": self.preset, "agents": ",".join(self.agents), "seed": str(self.seed), "mode": "games"}

    def summary(self) -> dict[str, Any]:
        """Per player: the agent, mean total per game, win rate (Wilson; a shared
        win counts for each), how often they went out and laid the contract
        per round; and the rounds that reached the turn limit."""
        r, g = self.rounds, self.games
        players = len(self.agents)
        n_rounds = len(r["unit"])
        out: dict[str, Any] = {"preset": self.preset, "agents": list(self.agents), "seed": self.seed,
                               "mode": "games", "games": len(g["unit"]), "rounds": n_rounds,
                               "rounds_at_turn_limit": int((r["went_out"] < 0).sum()),
                               "turns_per_round": mean_ci(r["turns"].astype(float))}
        for p in range(players):
            out[f"player_{p}"] = {
                "agent": self.agents[p],
                "total_per_game": mean_ci(g[f"total_{p}"].astype(float)),
                "win_rate": wilson(int(g[f"won_{p}"].sum()), len(g["unit"])),
                "out_rate": wilson(int((r["went_out"] == p).sum()), n_rounds),
                "laid_rate": wilson(int(r[f"laid_{p}"].sum()), n_rounds),
                "score_per_round": mean_ci(r[f"score_{p}"].astype(float)),
            }
        return out


def _rows(cols: dict[str, tuple[str, str]]) -> dict[str, list[Any]]:
    return {k: [] for k in cols}


def _chunk(kinds: tuple[str, ...], rules: ToonervilleRules, seed: int, first: int, count: int
           ) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    rounds, games = _rows(ROUND_COLUMNS), _rows(GAME_COLUMNS)
    n = rules.players
    for unit in range(first, first + count):
        gs = hand_seed(seed, unit)
        game = ToonervilleGame(rules, gs, first_dealer=unit % n)
        bots = [make_toonerville_agent(k, rules, agent_seed(seed, unit, p)) for p, k in enumerate(kinds)]
        play_game(game, bots)
        for i, end in enumerate(game.ended):
            rounds["unit"].append(unit)
            rounds["round"].append(end.round)
            rounds["dealer"].append((unit % n + i) % n)
            rounds["went_out"].append(-1 if end.went_out is None else end.went_out)
            rounds["turns"].append(end.turns)
            for p in range(MAX_PLAYERS):
                rounds[f"score_{p}"].append(game.round_scores[i][p] if p < n else -1)
                rounds[f"laid_{p}"].append(int(end.laid[p]) if p < n else -1)
                rounds[f"buys_{p}"].append(end.buys[p] if p < n else -1)
        games["unit"].append(unit)
        games["game_seed"].append(gs)
        games["rounds"].append(len(game.ended))
        totals, winners = game.totals, game.winners
        for p in range(MAX_PLAYERS):
            games[f"total_{p}"].append(totals[p] if p < n else -1)
            games[f"won_{p}"].append(int(p in winners) if p < n else -1)
    return rounds, games


def simulate_toonerville(agents: Sequence[str], *, games: int, seed: int = 0,
                         rounds: Sequence[int] = tuple(range(1, 12)), max_buys: int = 3,
                         turn_limit: int | None = 1000, workers: int = 1, executor: Executor | None = None,
                         progress: Callable[[int, int], None] | None = None) -> ToonervilleSimResult:
    """Play ``games`` seeded games of Toonerville between ``agents`` (one kind per
    player, 3 to 5: ``random`` or ``heuristic``) and return the columns.

    ``workers`` > 1 (at most 256, as :func:`~rook_core.sim.simulate` takes)
    plays chunks of games in processes (or on ``executor``);
    ``progress(done, total)`` is called as games finish.  ``games`` and
    ``workers`` may be NumPy ints.

    :raises RookError: for an unknown agent, a bad count or bad rules.
    """
    kinds, round_list = as_tuple(agents), as_tuple(rounds)
    if kinds is None:
        raise RookError(f"agents must be a list of Toonerville agents, one per player, not {agents!r}")
    for k in kinds:
        if k not in toonerville_agent_kinds():
            raise RookError(f"unknown Toonerville agent {k!r}; choose from {', '.join(toonerville_agent_kinds())}")
    # rounds that are no list go to the rules as given: their check names them (TV-2)
    rules = ToonervilleRules(players=len(kinds), rounds=rounds if round_list is None else round_list,  # type: ignore[arg-type]
                             max_buys=max_buys, turn_limit=turn_limit)
    games = int_arg(games, "games must be an int >= 1", 1)
    check_rows_fit(games * len(rules.rounds), 8 * (8 + 4 * len(kinds)), f"{games:,} games")
    seed = check_seed(seed)
    workers = check_workers(workers)
    check_executor(executor)
    check_progress(progress)
    chunk = max(1, min(50, math.ceil(games / (4 * workers))))
    pool, own = process_pool(workers, executor, chunk_count(games, chunk))
    parts = run_chunks(partial(_chunk, kinds, rules, seed), games, chunk, pool, own, progress)

    def arrays(which: int, cols: dict[str, tuple[str, str]]) -> dict[str, npt.NDArray[Any]]:
        return {k: np.asarray([x for part in parts for x in part[which][k]], dtype=dt)
                for k, (dt, _) in cols.items()}

    return ToonervilleSimResult("toonerville", kinds, seed, arrays(0, ROUND_COLUMNS), arrays(1, GAME_COLUMNS),
                                {"rules": rules.to_dict(), "cpu_count": os.cpu_count()})


def format_toonerville_summary(summary: dict[str, Any]) -> str:
    """The summary of :meth:`ToonervilleSimResult.summary` as a table for a person.

    :raises RookError: for what is no such summary."""
    need = ["games", "rounds", "seed", "turns_per_round", "rounds_at_turn_limit", "agents"]
    if not isinstance(summary, dict) or any(k not in summary for k in need) \
            or not isinstance(summary["agents"], list) \
            or any(f"player_{p}" not in summary for p in range(len(summary["agents"]))):
        raise RookError("format_toonerville_summary takes ToonervilleSimResult.summary(), not "
                        f"{reprlib.repr(summary)}")
    def ci(x: Sequence[float], pct: bool = False) -> str:
        m, lo, hi = x
        if pct:
            return f"{100 * m:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        return f"{m:7.1f} [{lo:.1f}, {hi:.1f}]" if not math.isnan(lo) else f"{m:7.1f}"
    lines = [f"toonerville: {summary['games']} games, {summary['rounds']} rounds, seed {summary['seed']}; "
             f"{ci(summary['turns_per_round']).strip()} turns per round; "
             f"{summary['rounds_at_turn_limit']} rounds stopped at the turn limit",
             f"{'player':<8}{'agent':<11}{'total per game':<26}{'wins':<24}{'went out':<24}{'laid':<24}"]
    for p in range(len(summary["agents"])):
        s = summary[f"player_{p}"]
        lines.append(f"p{p:<7}{s['agent']:<11}{ci(s['total_per_game']):<26}{ci(s['win_rate'], True):<24}"
                     f"{ci(s['out_rate'], True):<24}{ci(s['laid_rate'], True):<24}")
    lines.append("(means with 95% intervals; the lowest total wins, TV-12)")
    return "\n".join(lines)
