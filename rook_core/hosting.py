"""Hosting a game: one interface over the two kinds of game that ``rook serve`` and ``rook engine`` host.

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

from typing import TYPE_CHECKING, Any, TypeAlias, cast

from .errors import IllegalActionError, RookError
from .game import Game
from .toonerville.game import LISTED_LAYS, ToonervilleGame
from .toonerville.rules import ToonervilleRules
from .variant import PRESETS

if TYPE_CHECKING:
    from .bots.agents import Agent
    from .hand import HandState
    from .toonerville.agents import ToonervilleAgent

__all__ = ["HostedGame", "Bot", "GAMES", "BOT_KINDS"]

Bot: TypeAlias = "Agent | ToonervilleAgent"
"""A bot of either kind of game: a trick-taking agent (it reads an observation
and gives an action id) or a Toonerville one (it gives a rummy action)."""

GAMES = tuple(sorted(PRESETS)) + ("toonerville",)
BOT_KINDS = ("random", "heuristic")
TURN_LIMIT = 300
"""A hosted Toonerville round ends with nobody out after this many turns, so
that a table of bots that cannot meet a contract (``random``) ends."""
HAND_LIMIT = 200
"""A hosted trick-taking game ends without a winner after this many hands
(redeals counted), the simulator's default: T-34 alone need never end a game
(bots that bid at random can drift below zero for ever)."""
MAX_HANDS = 1000
"""The most ``max_hands`` a hosted game may ask for."""


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
        self.moves = 0                       # actions applied so far

    @classmethod
    def create(cls, spec: dict[str, Any]) -> HostedGame:
        """A new game from ``spec``; every rule it is built with is written back
        into :attr:`spec`, so that the stored spec rebuilds the same game."""
        return cls._build(spec, HAND_LIMIT)

    @classmethod
    def load(cls, spec: dict[str, Any]) -> HostedGame:
        """The game of a stored spec.  A trick-taking spec stored before
        ``max_hands`` existed has no hand limit, as when it was created."""
        return cls._build(spec, None)

    @classmethod
    def _build(cls, spec: dict[str, Any], default_hands: int | None) -> HostedGame:
        if not isinstance(spec, dict):
            raise RookError(f"a game spec is an object such as {{'game': 'tournament', 'seed': 3}}, "
                            f"not {type(spec).__name__}")
        name, seed = spec.get("game"), spec.get("seed", 0)
        if name not in GAMES:
            raise RookError(f"unknown game {name!r}; choose from {', '.join(GAMES)}")
        if name == "toonerville":
            if spec.get("max_hands") is not None:
                raise RookError("toonerville plays its rounds (see 'rounds'); max_hands is for trick-taking games")
            rules = ToonervilleRules(players=spec.get("players", 4), rounds=spec.get("rounds", list(range(1, 12))),
                                     turn_limit=spec.get("turn_limit", TURN_LIMIT))
            spec = {**spec, "players": rules.players, "rounds": list(rules.rounds), "turn_limit": rules.turn_limit}
            state: Game | ToonervilleGame = ToonervilleGame(rules, seed)
        else:
            players = spec.get("players", 4)
            if isinstance(players, bool) or players != 4 or not isinstance(players, int) \
                    or spec.get("rounds") is not None:
                raise RookError(f"{name} is for 4 players, and has no rounds to choose")
            max_hands = spec.get("max_hands", default_hands)
            if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int)
                                          or not 1 <= max_hands <= MAX_HANDS):
                raise RookError(f"max_hands must be an int 1..{MAX_HANDS}, not {max_hands!r}")
            spec = {k: v for k, v in spec.items() if k != "players"}
            spec["max_hands"] = max_hands
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
        limit = self.spec.get("max_hands")
        return isinstance(self.state, Game) and limit is not None and self.state.hand_number > limit \
            and not self.state.is_over

    @property
    def to_move(self) -> int | None:
        return None if self.stopped else self.state.to_move

    @property
    def is_over(self) -> bool:
        return self.state.is_over or self.stopped

    def _seat(self, seat: object, error: type[RookError] = RookError, action: object = None) -> int:
        """Return ``seat`` if it is a seat of this game.

        :raises RookError: (``error``) naming it, and the ``action`` refused with it."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise error(f"{'' if action is None else f'illegal action {action!r}: the '}seat must be a seat "
                        f"0..{self.seats - 1}, not {seat!r}")
        return seat

    def legal(self, seat: int) -> list[str]:
        """The legal actions of ``seat`` as text (none when it is not its move);
        at most ``LISTED_LAYS`` Toonerville lay-downs, though every one is accepted.

        :raises RookError: for a seat that is not one of this game's."""
        if self.to_move != self._seat(seat):
            return []
        if isinstance(self.state, ToonervilleGame):
            return [str(a) for a in self.state.legal_actions(max_lays=LISTED_LAYS)]
        from .actions import action_name
        return [action_name(a) for a in self.state.legal_actions()]

    def apply(self, action: str, seat: int, *, penalties: bool = True) -> str:
        """Apply ``action`` (text) for ``seat``; return its canonical text.
        ``penalties=False`` refuses the T-35 penalty actions, which a referee
        records, not a seat.

        :raises RookError: (IllegalActionError, NotationError) with the state
            unchanged, also for a ``seat`` that is not one of this game's (None
            too: a hosted action is always some seat's).
        """
        self._seat(seat, IllegalActionError, action)
        if self.stopped:
            raise IllegalActionError(f"illegal action {action!r}: the game ended after its "
                                     f"{self.spec['max_hands']} hands (max_hands)")
        if isinstance(self.state, ToonervilleGame):
            from .toonerville.actions import parse_action as parse_tv
            a = parse_tv(action)
            self.state.apply(a, seat)
            self.moves += 1
            return str(a)
        from .actions import PENALTY, action_name, parse_action
        n = parse_action(action)
        if not penalties and n in (PENALTY, PENALTY + 1):
            raise IllegalActionError(f"illegal action {action_name(n)}: a penalty (T-35) is recorded by a "
                                     "referee, not by a seat", rule="T-35", action=n)
        self.state.apply(n, seat)
        self.moves += 1
        return action_name(n)

    def undo(self) -> None:
        """Undo the last action.

        :raises IllegalActionError: when nothing was played.
        """
        self.state.undo()
        self.moves -= 1

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now (never another seat's unplayed cards)."""
        if isinstance(self.state, ToonervilleGame):
            obs = self.state.observation(seat, legal=False)
        elif self.stopped:
            # the last hand played, not the next deal, which is never played
            g = self.state
            obs = g.hands[-2].observation(seat)
            obs.update({"hand_number": g.hand_number - 1, "totals": list(g.totals), "target": g.variant.target,
                        "winner": None, "to_move": None, "stopped": "max_hands"})
        else:
            obs = self.state.observation(seat)
        obs.pop("legal_actions", None)
        return obs

    def finished_hand(self, number: int) -> HandState | None:
        """A copy of hand ``number`` (1-based, the observation's ``hand_number``)
        once it is over, or None while it is still being played: every card of a
        finished hand has been played, so nothing in it is secret but the
        declarer's discards (T-20), which the caller must not show.

        :raises RookError: for Toonerville (it has no tricks) or a hand the game
            has not dealt.
        """
        if isinstance(self.state, ToonervilleGame):
            raise RookError("Toonerville has no tricks to review: a review is of trick-taking hands")
        hands = self.state.hands[:-1] if self.stopped else self.state.hands
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
            raise RookError(f"hand {number!r}: the game has dealt hands 1 to {len(hands)}")
        h = hands[number - 1]
        return h.clone() if h.is_over else None

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

    def bot(self, kind: str, seed: int) -> Bot:
        """A bot of ``kind`` for this game."""
        if kind not in BOT_KINDS:
            raise RookError(f"unknown bot {kind!r}; choose from {', '.join(BOT_KINDS)}")
        if isinstance(self.state, ToonervilleGame):
            from .toonerville.agents import make_toonerville_agent
            return make_toonerville_agent(kind, self.state.rules, seed)
        from .bots.agents import make_agent
        return make_agent(kind, self.state.variant, seed)

    def bot_action(self, bot: Bot, seat: int) -> str:
        """The action ``bot`` (made by :meth:`bot` for this game) chooses for ``seat`` now, as text.

        :raises RookError: for a bot of the other kind of game, or a seat not to move."""
        if isinstance(self.state, ToonervilleGame):
            if not callable(getattr(bot, "act", None)) or not hasattr(bot, "needs_legal"):
                raise RookError(f"a Toonerville game needs a Toonerville bot (HostedGame.bot), not {bot!r}")
            rummy = cast("ToonervilleAgent", bot)       # HostedGame.bot made it for this game
            return str(rummy.act(self.state.observation(seat, legal=rummy.needs_legal)))
        from .actions import action_name
        from .bots.agents import act_for
        return action_name(act_for(cast("Agent", bot), self.state.current, seat))
