"""Bots for Toonerville: ``random`` and ``heuristic`` (RULES.md section 3).

Both follow the engine's agent interface: ``act(observation) -> action``,
where the observation is :meth:`ToonervilleGame.observation` for the bot's
seat, so a bot sees what a player at the table sees and nothing more.

* ``random`` picks uniformly among the legal actions (it asks for them in
  its observation: ``needs_legal = True``).
* ``heuristic`` plays toward its contract:

  - it values a hand by how many cards it holds toward the contract: the
    best ``s`` ranks for sets (up to 3 cards each) and the best ``r``
    four-rank windows of one color for runs, birds filling gaps (TV-4, TV-5);
  - it takes or buys the discard when that value grows (TV-6, TV-8), buying
    only before it has laid its contract and while it has buys left;
  - it lays the contract as soon as the contract solver finds it, with the
    lay-down that leaves the least deadwood (TV-7, TV-12), then further
    melds, lay-offs and bird swaps (TV-9), so it goes out as soon as it can
    (TV-10);
  - it discards the card whose loss costs the least value, the highest in
    points first, never a bird while another card will do.

>>> from rook_core.toonerville.game import ToonervilleGame
>>> g = ToonervilleGame(4, seed=5)
>>> bots = [make_toonerville_agent("heuristic", g.rules, seed=i) for i in range(4)]
>>> play_game(g, bots).is_over
True
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from .. import _layout as L
from ..cards import parse_card
from ..errors import RookError
from ..rng import check_agent_seed
from .actions import Action, Buy, Discard, Draw, Lay, LayOff, Meld, Pass, Swap, Take, parse_action
from .contracts import Contract, ContractResult
from .game import ToonervilleGame, leave_problem
from .hand import FULL_DECK, MultiHand, card_points
from .melds import _counts as _hand_counts
from .melds import arrange_meld, candidate_melds
from .rules import ToonervilleRules
from .solver import MAX_CARDS, solve_contract
from .table import TableMeld

__all__ = ["ToonervilleAgent", "RandomToonervilleAgent", "HeuristicToonervilleAgent",
           "make_toonerville_agent", "toonerville_agent_kinds", "play_game", "contract_value"]


class ToonervilleAgent(Protocol):
    needs_legal: bool

    def act(self, observation: dict[str, Any]) -> Action: ...


def _check_rules(rules: object) -> ToonervilleRules:
    if not isinstance(rules, ToonervilleRules):
        raise RookError(f"a Toonerville bot is made for a ToonervilleRules (a game's rules), "
                        f"not {reprlib.repr(rules)}")
    return rules


def _checked(observation: object, legal: bool) -> Mapping[str, Any]:
    """``observation`` if it is a Toonerville player's view on their move: with
    its legal actions when ``legal`` (the random bot), else with the fields
    of :data:`_FIELDS` (the heuristic bot); else a RookError that says which
    it is not."""
    if not isinstance(observation, Mapping) or observation.get("game") != "toonerville":
        raise RookError("a Toonerville bot acts on ToonervilleGame.observation(player), "
                        f"not {reprlib.repr(observation)}")
    player, to_move = observation.get("player"), observation.get("to_move")
    if to_move is None or to_move != player:
        state = "the game is over" if to_move is None else f"player {to_move} is to move"
        raise RookError(f"the observation is player {player}'s, who has no move: {state}")
    if legal and not observation.get("legal_actions"):
        raise RookError("this bot picks among the observation's legal actions: ask for them "
                        "(observation(player, legal=True))")
    missing = [k for k, kind in _FIELDS.items() if k not in observation or not isinstance(observation[k], kind)]
    con = observation.get("contract")
    if isinstance(con, Mapping) and not all(isinstance(con.get(k), int) for k in ("sets", "runs", "discard_out")):
        missing.append("contract")
    if missing and not legal:
        raise RookError(f"the observation lacks its field(s) {', '.join(missing)} (or they are of the wrong "
                        "type): a Toonerville bot acts on ToonervilleGame.observation(player)")
    return observation


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "phase": str, "hand": list, "contract": Mapping, "laid": list, "buys": list, "max_buys": int,
    "discard_top": (str, type(None)), "taken_discard": (str, type(None)), "table": list,
    "stock_size": int, "discard_size": int}
"""The fields of an observation a bot reads, and their types."""


class RandomToonervilleAgent:
    """Plays a legal action chosen uniformly, from its own seeded stream.

    :raises RookError: for rules that are no ToonervilleRules or a seed that is no int."""

    needs_legal = True

    def __init__(self, rules: ToonervilleRules, seed: int = 0) -> None:
        self.rules = _check_rules(rules)
        self.rng = random.Random(check_agent_seed(seed))

    def act(self, observation: dict[str, Any]) -> Action:
        """The action for ``observation``, the view of the player to move with its legal actions.

        :raises RookError: for an observation that is not that."""
        return parse_action(self.rng.choice(_checked(observation, True)["legal_actions"]))


def _counts(names: Sequence[str]) -> list[int]:
    c = [0] * L.N_CARD_IDS
    for n in names:
        c[int(parse_card(n))] += 1
    return c


@cache
def _best_window(mask: int) -> tuple[int, int]:
    """For a mask of the ranks held in a color (bit r-1 for rank r): the most
    ranks held in four consecutive ranks, and the lowest rank of the highest
    such window."""
    return max((((mask >> (lo - 1)) & 15).bit_count(), lo) for lo in range(1, 12))


def contract_value(counts: Sequence[int], sets: int, runs: int) -> int:
    """How many cards of ``counts`` go toward ``sets`` sets and ``runs`` runs:
    the best ranks for sets (up to 3 naturals each), then the best four-rank
    windows of one color for runs among the cards left, then the birds,
    each filling one missing card (TV-4, TV-5).  At most ``3 sets + 4 runs``.

    :raises RookError: for counts that are not a hand's 64 counts (ints
        0..5, one per card id, TV-1) or sets and runs that are not ints >= 0."""
    if any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in (sets, runs)):
        raise RookError(f"contract_value takes {L.N_CARD_IDS} counts and sets, runs >= 0, "
                        f"not sets {reprlib.repr(sets)} and runs {reprlib.repr(runs)}")
    try:
        checked = _hand_counts(counts)
    except RookError as e:
        raise RookError(f"contract_value takes {L.N_CARD_IDS} counts and sets, runs >= 0: {e}") from None
    return _contract_value(checked, sets, runs)


def _contract_value(counts: Sequence[int], sets: int, runs: int) -> int:
    """:func:`contract_value` of counts known to be a hand's (the bot's own)."""
    left = list(counts)
    total = 0
    if sets:
        groups = sorted((min(3, left[r] + left[16 + r] + left[32 + r] + left[48 + r]), r) for r in range(1, 15))
        for n, r in groups[-sets:]:
            total += n
            for card in (r, 16 + r, 32 + r, 48 + r):
                k = min(n, left[card])
                left[card] -= k
                n -= k
    if runs:
        masks = [sum(1 << (r - 1) for r in range(1, 15) if left[16 * c + r]) for c in range(4)]
        for _ in range(runs):
            best, color, lo = max((n, c, low) for c in range(4) for n, low in [_best_window(masks[c])])
            total += best
            for r in range(lo, lo + 4):
                card = 16 * color + r
                if left[card]:
                    left[card] -= 1
                    if not left[card]:
                        masks[color] &= ~(1 << (r - 1))
    return min(3 * sets + 4 * runs, total + counts[L.BIRD])


class HeuristicToonervilleAgent:
    """Plays toward its contract (see the module docstring)."""

    needs_legal = False

    def __init__(self, rules: ToonervilleRules, seed: int = 0,
                 solver: Callable[..., ContractResult] = solve_contract) -> None:
        """``solver``: the contract solver, the native kernel by default (the
        benchmarks pass the brute-force reference, which answers the same).

        :raises RookError: for rules that are no ToonervilleRules, a seed that
            is no int, or a solver that cannot be called."""
        self.rules = _check_rules(rules)
        self.rng = random.Random(check_agent_seed(seed))
        if not callable(solver):
            raise RookError(f"solver must be a contract solver function, not {reprlib.repr(solver)}")
        self._solve_contract = solver

    def _solve(self, counts: list[int], sets: int, runs: int) -> ContractResult:
        """The least-deadwood lay-down of ``counts`` holding ``sets`` sets and ``runs`` runs
        (0 and 0: any further melds, TV-7)."""
        if sum(counts) > MAX_CARDS:                 # beyond the kernel (buys past the default max_buys)
            return ContractResult(False, None, [])
        return self._solve_contract(MultiHand.from_counts(counts), Contract(0, 0, sets, runs),
                                    self.rules.max_wild_fraction)

    def act(self, obs: dict[str, Any]) -> Action:
        """The action for ``obs``, the view of the player to move.

        :raises RookError: for an observation that is not that."""
        _checked(obs, False)
        counts = _counts(obs["hand"])
        con = obs["contract"]
        me = obs["player"]
        laid = obs["laid"][me]
        phase = obs["phase"]
        top = obs["discard_top"]
        if phase == "draw":
            only_top = top is not None and sum(counts) == counts[int(parse_card(top))]
            if (top is not None and not (only_top and self.rules.no_discard_of_taken)
                    and self._wants(counts, int(parse_card(top)), con, laid, obs)):
                return Take()
            return Draw() if obs["stock_size"] or obs["discard_size"] >= 2 else Take()
        if phase == "buy":
            if (not laid and top is not None and obs["buys"][me] < obs["max_buys"]
                    and self._wants(counts, int(parse_card(top)), con, laid, obs, buying=True)):
                return Buy()
            return Pass()
        return self._play(obs, counts, con, laid)

    # --------------------------------------------------------------- drawing
    def _wants(self, counts: list[int], card: int, con: dict[str, int], laid: bool,
               obs: dict[str, Any], buying: bool = False) -> bool:
        if laid:
            table = _table(obs)
            if any(m.lay_off(card, e, self.rules.max_wild_fraction) is not None
                   for m in table for e in (None, "low", "high")):
                return True
            plus = list(counts)
            plus[card] += 1
            now, then = self._solve(counts, 0, 0).deadwood, self._solve(plus, 0, 0).deadwood
            return now is not None and then is not None and then < now + card_points(card)
        if card == L.BIRD:
            return True
        plus = list(counts)
        plus[card] += 1
        gain = _contract_value(plus, con["sets"], con["runs"]) - _contract_value(counts, con["sets"], con["runs"])
        if buying:
            return gain > 0 and sum(counts) <= 3 * con["sets"] + 4 * con["runs"] + 4
        return gain > 0

    # --------------------------------------------------------------- playing
    def _play(self, obs: dict[str, Any], counts: list[int], con: dict[str, int], laid: bool) -> Action:
        frac = self.rules.max_wild_fraction
        me = obs["player"]
        table = _table(obs)

        took = obs["taken_discard"]
        took_id = int(parse_card(took)) if took is not None else None

        def leaves_ok(used: Sequence[int], new_table: list[TableMeld]) -> bool:
            """Whether the game allows the hand this leaves (:func:`leave_problem`)."""
            left = list(counts)
            for c in used:
                left[c] -= 1
            return leave_problem(left, new_table, took_id, self.rules, bool(con["discard_out"])) is None

        if not laid:
            res = self._solve(counts, con["sets"], con["runs"])
            if res.can_meet:
                lay = [tuple(m) for m in res.melds[:con["sets"] + con["runs"]]]
                new = table + [TableMeld("", me, m) for m in lay]
                if leaves_ok([c for m in lay for c in m], _arranged(new, frac)):
                    return Lay(tuple(sorted(lay)))
            return self._discard(obs, counts, con, laid)
        for meld in self._solve(counts, 0, 0).melds:
            if leaves_ok(meld, _arranged(table + [TableMeld("", me, tuple(meld))], frac)):
                return Meld(tuple(meld))
        for c in sorted((c for c in FULL_DECK if counts[c]), key=lambda c: -card_points(c)):
            for i, m in enumerate(table):
                for end in (("high", "low") if c == L.BIRD and m.kind == "run" else (None,)):
                    grown = m.lay_off(c, end, frac)
                    if grown is not None and leaves_ok([c], table[:i] + [grown] + table[i + 1:]):
                        return LayOff(c, i, end)
        for c in FULL_DECK:
            if not counts[c] or c == L.BIRD:
                continue
            for i, m in enumerate(table):
                if m.bird_stands_for(c) is not None:
                    freed = list(counts)
                    freed[c] -= 1
                    freed[L.BIRD] += 1
                    for kind, cards in candidate_melds(freed, frac):
                        if L.BIRD not in cards:                 # the new meld takes the bird (TV-9)
                            continue
                        used = [c] + list(cards)
                        used.remove(L.BIRD)
                        mended = table[:i] + [m.replace_bird(c)] + table[i + 1:]
                        if leaves_ok(used, mended + [TableMeld(kind, me, cards)]):
                            return Swap(c, i, cards)
        return self._discard(obs, counts, con, laid)

    def _discard(self, obs: dict[str, Any], counts: list[int], con: dict[str, int], laid: bool) -> Action:
        took = obs["taken_discard"]
        took_id = int(parse_card(took)) if took is not None else None
        held = [c for c in FULL_DECK if counts[c]]
        allowed = [c for c in held if not (self.rules.no_discard_of_taken and c == took_id)] or held
        best: tuple[Any, ...] | None = None
        choice = allowed[0]
        for c in allowed:
            less = list(counts)
            less[c] -= 1
            value = 0 if laid else _contract_value(less, con["sets"], con["runs"])
            key = (value, c != L.BIRD, card_points(c), self.rng.random())
            if best is None or key > best:
                best, choice = key, c
        return Discard(choice)


def _arranged(table: list[TableMeld], frac: float) -> list[TableMeld]:
    """``table`` with melds of unknown kind named by their cards."""
    out = []
    for m in table:
        if not m.kind:
            arranged = arrange_meld(m.cards, frac)
            assert arranged is not None
            m = TableMeld(arranged[0], m.owner, arranged[1])
        out.append(m)
    return out


def _table(obs: dict[str, Any]) -> list[TableMeld]:
    return [TableMeld(m["kind"], m["owner"], tuple(int(parse_card(c)) for c in m["cards"]))
            for m in obs["table"]]


_KINDS: dict[str, Any] = {"random": RandomToonervilleAgent, "heuristic": HeuristicToonervilleAgent}


def toonerville_agent_kinds() -> list[str]:
    return sorted(_KINDS)


def make_toonerville_agent(kind: str, rules: ToonervilleRules, seed: int = 0,
                           **options: Any) -> ToonervilleAgent:
    """Return a bot of ``kind`` (``random`` or ``heuristic``; the heuristic takes
    ``solver=``, a contract solver function).

    :raises RookError: for an unknown kind, or bad rules, seed or options.
    """
    if not isinstance(kind, str) or kind not in _KINDS:
        raise RookError(f"unknown Toonerville agent {reprlib.repr(kind)}; "
                        f"choose from {', '.join(toonerville_agent_kinds())}")
    try:
        agent: ToonervilleAgent = _KINDS[kind](rules, seed, **options)
    except TypeError as e:
        raise RookError(f"bad options for Toonerville agent {kind!r}: {e}") from None
    return agent


def play_game(game: ToonervilleGame, agents: Sequence[ToonervilleAgent],
              on_action: Callable[[ToonervilleGame, int, Action], object] | None = None) -> ToonervilleGame:
    """Play ``game`` to its end with one agent per player; ``on_action(game, player, action)``
    is called after each action.

    :raises RookError: for a game that is no ToonervilleGame, agents that are
        not one per player (each with an ``act``), or an agent that returns an
        illegal action (naming the agent's player).
    """
    if not isinstance(game, ToonervilleGame):
        raise RookError(f"play_game plays a ToonervilleGame, not {reprlib.repr(game)}")
    if not isinstance(agents, Sequence) or not all(callable(getattr(a, "act", None)) for a in agents):
        raise RookError(f"agents must be a list of bots (each with an act method), not {reprlib.repr(agents)}")
    if len(agents) != game.players:
        raise RookError(f"{game.players} players need {game.players} agents, not {len(agents)}")
    while not game.is_over:
        p = game.to_move
        assert p is not None
        agent = agents[p]
        action = agent.act(game.observation(p, legal=getattr(agent, "needs_legal", True)))
        try:
            game.apply(action, p)
        except RookError as e:
            raise RookError(f"the agent of player {p} chose an illegal action: {e}") from None
        if on_action is not None:
            on_action(game, p, action)
    return game

