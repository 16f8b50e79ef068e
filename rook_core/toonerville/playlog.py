"""A readable log of a Toonerville game between bots (``rook play --preset toonerville``).

Each round shows the hands dealt, every draw, take and buy with the cards
that moved, the melds laid, lay-offs and bird swaps, the discards, then the
table and the hands left, the round's scores (TV-12) and the totals.

>>> import io
>>> out = io.StringIO()
>>> winners = write_game_log(3, 2, ["heuristic"] * 3, out, rounds=(1,))
>>> print(out.getvalue().splitlines()[0])
rook play: toonerville, 3 players (heuristic, heuristic, heuristic), seed 2, round 1
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import TextIO

from ..cards import card_name
from ..errors import RookError, as_tuple
from ..rng import agent_seed
from .actions import Buy, Discard, Draw, Lay, LayOff, Meld, Pass, Swap, Take
from .agents import ToonervilleAgent, make_toonerville_agent
from .contracts import CONTRACTS
from .game import ToonervilleGame
from .hand import FULL_DECK
from .melds import _counts as _hand_counts
from .rules import ToonervilleRules

__all__ = ["new_table", "write_game_log", "contract_text", "cards_text"]



def cards_text(counts: Sequence[int]) -> str:
    """The cards of ``counts`` grouped by color, e.g. ``B: 2 7 7  R: 13  Rook``.

    :raises RookError: unless ``counts`` are a hand's 64 counts (TV-1)."""
    counts = _hand_counts(counts)
    groups = []
    for letter, color in zip("BGRY", range(4)):
        ranks = [str(c & 15) for c in FULL_DECK if c >> 4 == color and c != 15 for _ in range(counts[c])]
        if ranks:
            groups.append(f"{letter}: {' '.join(ranks)}")
    if counts[15]:
        groups.append(" ".join(["Rook"] * counts[15]))
    return "  ".join(groups) if groups else "-"


def contract_text(sets: int, runs: int) -> str:
    """``one run, two sets`` style text of a contract (TV-2); a contract has 0..8
    of each (:func:`~rook_core.toonerville.contracts.contract_for`).

    :raises RookError: for a count that is no int 0..8."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"]
    for x in (sets, runs):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < len(words):
            raise RookError(f"a contract has 0..8 sets and runs, not {reprlib.repr(x)} (TV-2)")
    parts = []
    if runs:
        parts.append(f"{words[runs]} run{'s' if runs > 1 else ''}")
    if sets:
        parts.append(f"{words[sets]} set{'s' if sets > 1 else ''}")
    return ", ".join(parts)


def _gained(before: Sequence[int], after: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in FULL_DECK for _ in range(max(0, after[c] - before[c])))


def new_table(players: int, seed: int, agents: Sequence[str], rounds: Sequence[int] = tuple(range(1, 12)),
              turn_limit: int | None = 1000) -> tuple[ToonervilleGame, list[ToonervilleAgent]]:
    """A new seeded game and its bots, one of each of the ``agents`` kinds
    (seeded as ``rook play`` seeds them): the game :func:`write_game_log`
    shows, and ``rook play --json`` plays with :func:`~rook_core.toonerville.agents.play_game`.

    :raises RookError: for a bad number of players, agents or rounds.
    """
    kinds = as_tuple(agents)
    if kinds is None:
        raise RookError(f"agents must be a list of Toonerville agent kinds, one per player, not "
                        f"{reprlib.repr(agents)}")
    round_list = as_tuple(rounds)       # rounds that are no list go to the rules as given: their check names them
    rules = ToonervilleRules(players=players, rounds=rounds if round_list is None else round_list,  # type: ignore[arg-type]
                             turn_limit=turn_limit)
    game = ToonervilleGame(rules, seed)
    if len(kinds) != rules.players:
        raise RookError(f"{rules.players} players need {rules.players} agents, not {len(kinds)}")
    bots = [make_toonerville_agent(kind, rules, agent_seed(seed, 0, p)) for p, kind in enumerate(kinds)]
    return game, bots


def write_game_log(players: int, seed: int, agents: Sequence[str], out: TextIO,
                   rounds: Sequence[int] = tuple(range(1, 12)), turn_limit: int | None = 1000) -> list[int]:
    """Play a seeded game between bots of ``agents`` kinds, write its log to ``out``,
    and return the winners.

    :raises RookError: for a bad number of players, agents or rounds.
    """
    if not callable(getattr(out, "write", None)):
        raise RookError(f"out must be a text stream (with a write method), not {reprlib.repr(out)}")
    agents = as_tuple(agents) or agents     # read once: a generator too
    game, bots = new_table(players, seed, agents, rounds, turn_limit)
    w = out.write
    w(f"rook play: toonerville, {players} players ({', '.join(agents)}), seed {seed}, "
      f"round{'s' if len(game.rules.rounds) > 1 else ''} {', '.join(map(str, game.rules.rounds))}\n")

    def round_header() -> None:
        con = CONTRACTS[game.round]
        rule = "" if con.discard_out else "; the last card may not be a discard"
        w(f"\n=== Round {game.round}: {contract_text(con.sets, con.runs)}; {con.dealt} cards each; "
          f"dealer p{game.dealer}{rule} ===\n")
        for p in range(players):
            w(f"  p{p} ({agents[p]}): {cards_text(game.hands[p])}\n")
        w(f"  stock {len(game.stock)} cards; the discard pile starts with {card_name(game.discard[-1])}\n")

    round_header()
    while not game.is_over:
        p = game.to_move
        assert p is not None
        action = bots[p].act(game.observation(p, legal=bots[p].needs_legal))
        before = [list(h) for h in game.hands]
        turn, top = game.turn, game.discard[-1] if game.discard else None
        n_rounds = len(game.ended)
        game.apply(action, p)
        finished = len(game.ended) > n_rounds
        after = game.ended[-1].hands if finished else game.hands
        if isinstance(action, Take):
            w(f"  p{p} takes {card_name(top)}\n")                          # type: ignore[arg-type]
        elif isinstance(action, Buy):
            got = _gained(before[p], after[p]).split()
            penalty = list(got)
            penalty.remove(card_name(top))                                 # type: ignore[arg-type]
            w(f"  p{p} buys {card_name(top)} and takes a penalty card ({' '.join(penalty)})\n")  # type: ignore
            w(f"  p{turn} draws {_gained(before[turn], after[turn])}\n")
        elif isinstance(action, Draw) and game.phase != "buy":
            w(f"  p{p} draws {_gained(before[p], after[p])}\n")
        elif isinstance(action, Pass) and game.phase == "play":           # nobody bought: the turn draws
            w(f"  p{turn} draws {_gained(before[turn], after[turn])}\n")
        elif isinstance(action, Lay):
            w(f"  p{p} lays the contract: {' / '.join(' '.join(map(card_name, m)) for m in action.melds)}\n")
        elif isinstance(action, Meld):
            w(f"  p{p} melds {' '.join(map(card_name, action.cards))}\n")
        elif isinstance(action, LayOff):
            w(f"  p{p} lays off {card_name(action.card)} on meld {action.meld}\n")
        elif isinstance(action, Swap):
            w(f"  p{p} puts {card_name(action.card)} in place of the bird in meld {action.meld} and melds "
              f"{' '.join(map(card_name, action.new_meld))}\n")
        elif isinstance(action, Discard):
            w(f"  p{p} discards {card_name(action.card)}\n")
        if finished:
            end = game.ended[-1]
            scores = game.round_scores[-1]
            if end.went_out is None:
                w(f"  the round stops at the turn limit ({turn_limit} turns): nobody goes out\n")
            else:
                w(f"  p{end.went_out} goes out after {end.turns} turns\n")
            w("  table:\n")
            for i, m in enumerate(end.table):
                w(f"    {i}: {m.kind} of p{m.owner}: {m.text()}\n")
            for q in range(players):
                w(f"  p{q} {'laid' if end.laid[q] else 'did not lay'}, {end.buys[q]} buy(s); "
                  f"left {cards_text(end.hands[q])} = {scores[q]}\n")
            w(f"  totals: {', '.join(f'p{q} {t}' for q, t in enumerate(game.totals))}\n")
            if not game.is_over:
                round_header()
    t = game.totals
    win = game.winners
    w(f"\nLowest total {min(t)}: {' and '.join(f'p{q}' for q in win)} win{'s' if len(win) == 1 else ''} "
      f"(TV-12).\n")
    return win
