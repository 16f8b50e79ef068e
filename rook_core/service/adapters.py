"""One interface over the two kinds of game the service hosts.

A trick-taking :class:`~rook_core.game.Game` (every preset, 4 seats) and a
:class:`~rook_core.toonerville.game.ToonervilleGame` (3-5 players) differ in
their actions (ints vs rummy actions) and their bots; the service only sees
:class:`HostedGame`: actions as text, a seat's view, the bot's move, and the
final result.

>>> g = HostedGame.create({"game": "tournament", "seed": 3})
>>> g.seats, g.to_move, "pass" in g.legal(g.to_move)
(4, 1, True)
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalActionError, RookError
from ..game import Game
from ..toonerville.game import LISTED_LAYS, ToonervilleGame
from ..toonerville.rules import ToonervilleRules
from ..variant import PRESETS

__all__ = ["HostedGame", "GAMES", "BOT_KINDS"]

GAMES = tuple(sorted(PRESETS)) + ("toonerville",)
BOT_KINDS = ("random", "heuristic")
TURN_LIMIT = 300
"""A hosted Toonerville round ends with nobody out after this many turns, so
that a table of bots that cannot meet a contract (``random``) ends."""
HAND_LIMIT = 200
"""A hosted trick-taking game ends without a winner after this many hands
(redeals counted), the simulator's default: T-34 alone need never end a game
(bots that bid at random can drift below zero for ever)."""


class HostedGame:
    """A game the service hosts, built from its spec: ``{"game": name, "seed": int}``
    and, for Toonerville, ``"players"`` (3-5, default 4) and ``"rounds"`` (default all
    eleven); a Toonerville round ends with nobody out after :data:`TURN_LIMIT` turns.
    A trick-taking game takes ``"max_hands"`` (default :data:`HAND_LIMIT`): after
    that many hands it is over with no winner.

    :raises RookError: for an unknown game or a bad seed or number of players.
    """

    def __init__(self, spec: dict[str, Any], state: Game | ToonervilleGame) -> None:
        self.spec = spec
        self.state = state

    @classmethod
    def create(cls, spec: dict[str, Any]) -> HostedGame:
        name, seed = spec.get("game"), spec.get("seed", 0)
        if name not in GAMES:
            raise RookError(f"unknown game {name!r}; choose from {', '.join(GAMES)}")
        if name == "toonerville":
            rounds = spec.get("rounds", list(range(1, 12)))
            if not isinstance(rounds, list) or not rounds:
                raise RookError(f"rounds must be a non-empty list of rounds 1..11, not {rounds!r}")
            rules = ToonervilleRules(players=spec.get("players", 4), rounds=tuple(rounds),
                                     turn_limit=spec.get("turn_limit", TURN_LIMIT))
            spec = {**spec, "players": rules.players, "rounds": list(rules.rounds), "turn_limit": rules.turn_limit}
            state: Game | ToonervilleGame = ToonervilleGame(rules, seed)
        else:
            if spec.get("players", 4) != 4 or spec.get("rounds") is not None:
                raise RookError(f"{name} is for 4 players, and has no rounds to choose")
            max_hands = spec.get("max_hands", HAND_LIMIT)
            if isinstance(max_hands, bool) or not isinstance(max_hands, int) or not 1 <= max_hands <= 1000:
                raise RookError(f"max_hands must be an int 1..1000, not {max_hands!r}")
            spec = {**spec, "max_hands": max_hands}
            state = Game(name, seed)
        return cls(spec, state)

    @property
    def is_toonerville(self) -> bool:
        return isinstance(self.state, ToonervilleGame)

    @property
    def seats(self) -> int:
        return self.state.players if isinstance(self.state, ToonervilleGame) else 4

    @property
    def stopped(self) -> bool:
        """Whether a trick-taking game ran out of hands (``max_hands``) with no winner."""
        return isinstance(self.state, Game) and not self.state.is_over \
            and self.state.hand_number > self.spec["max_hands"]

    @property
    def to_move(self) -> int | None:
        return None if self.stopped else self.state.to_move

    @property
    def is_over(self) -> bool:
        return self.state.is_over or self.stopped

    def legal(self, seat: int) -> list[str]:
        """The legal actions of ``seat`` as text (none when it is not its move);
        at most ``LISTED_LAYS`` Toonerville lay-downs, though every one is accepted."""
        if self.to_move != seat:
            return []
        if isinstance(self.state, ToonervilleGame):
            return [str(a) for a in self.state.legal_actions(max_lays=LISTED_LAYS)]
        from ..actions import action_name
        return [action_name(a) for a in self.state.legal_actions()]

    def apply(self, action: str, seat: int, *, penalties: bool = True) -> str:
        """Apply ``action`` (text) for ``seat``; return its canonical text.
        ``penalties=False`` refuses the T-35 penalty actions, which a referee
        records, not a seat.

        :raises RookError: (IllegalActionError, NotationError) with the state unchanged.
        """
        if self.stopped:
            raise IllegalActionError(f"illegal action {action!r}: the game ended after its "
                                     f"{self.spec['max_hands']} hands (max_hands)")
        if isinstance(self.state, ToonervilleGame):
            from ..toonerville.actions import parse_action as parse_tv
            a = parse_tv(action)
            self.state.apply(a, seat)
            return str(a)
        from ..actions import PENALTY, action_name, parse_action
        n = parse_action(action)
        if not penalties and n in (PENALTY, PENALTY + 1):
            raise IllegalActionError(f"illegal action {action_name(n)}: a penalty (T-35) is recorded by a "
                                     "referee, not by a seat", rule="T-35", action=n)
        self.state.apply(n, seat)
        return action_name(n)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now (never another seat's unplayed cards)."""
        if isinstance(self.state, ToonervilleGame):
            obs = self.state.observation(seat, legal=False)
        else:
            obs = self.state.observation(seat)
            obs.pop("legal_actions", None)
        return obs

    def result(self) -> dict[str, Any] | None:
        """The final scores once the game is over, else None."""
        if not self.is_over:
            return None
        if isinstance(self.state, ToonervilleGame):
            return {"totals": self.state.totals, "winners": self.state.winners,
                    "round_scores": self.state.round_scores}
        if self.stopped:
            return {"totals": list(self.state.totals), "winner_team": None, "hands": self.spec["max_hands"],
                    "stopped": "max_hands"}
        return {"totals": list(self.state.totals), "winner_team": self.state.winner,
                "hands": self.state.hand_number}

    def bot(self, kind: str, seed: int) -> Any:
        """A bot of ``kind`` for this game."""
        if kind not in BOT_KINDS:
            raise RookError(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
        if isinstance(self.state, ToonervilleGame):
            from ..toonerville.agents import make_toonerville_agent
            return make_toonerville_agent(kind, self.state.rules, seed)
        from ..agents import make_agent
        return make_agent(kind, self.state.variant, seed)

    def bot_action(self, bot: Any, seat: int) -> str:
        """The action ``bot`` chooses for ``seat`` now, as text."""
        if isinstance(self.state, ToonervilleGame):
            return str(bot.act(self.state.observation(seat, legal=bot.needs_legal)))
        from ..actions import action_name
        from ..agents import act_for
        return action_name(act_for(bot, self.state.current, seat))
