"""A game: hands until a team reaches the target (T-1, T-6, T-33, T-34).

The game deals each hand from its own seed (derived from the game seed and
the hand number), rotates the deal to the left after every hand that was
played (T-1), lets the same dealer redeal a hand thrown in (T-6), adds the
hand scores (T-30 .. T-32, T-35 penalties included), and ends when, after a
hand, at least one team has reached the target and the scores differ (T-34);
equal scores at or above the target play another hand (sudden death), or
give the game to seats 0 and 2 (H-6); with H-7 only the team that declared
the last hand may win (:func:`game_winner`).

>>> g = Game("tournament", seed=3)
>>> g.current.phase.label, g.hand_number, g.totals
('bid', 1, (0, 0))
"""

from __future__ import annotations

import reprlib
from typing import Any

from .actions import Phase, action_name, replay
from .errors import IllegalActionError, NotationError, RookError
from .hand import HandState, _check_actions, _parse_action_text, _seat
from .jsonio import read_document
from .rng import check_seed, hand_seed
from .variant import PRESETS, Variant, as_variant, get_preset

__all__ = ["Game", "game_winner", "hand_seed"]

GAME_FORMAT = "rook-game/1"

class Game:
    """A seeded game of a trick-taking variant, played through one action space.

    :raises VariantError: for an unknown preset.
    """

    def __init__(self, variant: Variant | str, seed: int = 0, first_dealer: int | None = None) -> None:
        self.variant = as_variant(variant)
        self.seed = check_seed(seed)
        dealer = self.variant.first_dealer if first_dealer is None else _seat(first_dealer, "first_dealer")
        self.first_dealer = dealer
        self.hands: list[HandState] = [HandState.deal(self.variant, hand_seed(self.seed, 0), dealer)]

    # ------------------------------------------------------------------ state
    @property
    def current(self) -> HandState:
        """The hand being played (the last one once the game is over).

        It is the game's own hand, not a copy: play it through the game
        (:meth:`apply`, :meth:`undo`), which deals the next hand when it ends
        (a hand played to its end on its own is caught up with in the same
        way, the next time the game is asked anything: the next hand is dealt,
        T-1, or the game ends, T-34).  Once the game is over its last hand refuses every action and undo of
        its own, as :meth:`apply` does (:class:`IllegalActionError`, T-34), so
        that the result stands; :meth:`undo` reopens it, and a ``clone()`` of
        it belongs to no game and may be played on.
        """
        return self._caught_up()

    def _caught_up(self) -> HandState:
        """The current hand, once the game has caught up with the end of the
        last one: the next hand dealt (T-6: a hand thrown in is dealt again
        by the same dealer; T-1: after a hand played out, by the next one),
        or the game over and its last hand closed (T-34)."""
        h = self.hands[-1]
        if h.phase == Phase.THROWN_IN:
            self._next_hand(h.dealer)
        elif h.phase == Phase.DONE and not h._game_over:
            if game_winner(self.variant, self.totals, h.declarer) is None:
                self._next_hand((h.dealer + 1) % 4)
            else:
                h._game_over = True
        return self.hands[-1]

    @property
    def hand_number(self) -> int:
        """1-based number of the current hand (redeals counted)."""
        self._caught_up()
        return len(self.hands)

    @property
    def hands_begun(self) -> int:
        """How many hands have seen an action (redeals counted): the hands
        played, where :attr:`hand_number` also counts a next hand dealt but
        not yet begun."""
        self._caught_up()
        return sum(1 for h in self.hands if h.history)

    @property
    def totals(self) -> tuple[int, int]:
        """Running scores of team 0 and team 1, penalties of the current hand included."""
        t0 = t1 = 0
        for h in self.hands:
            s = h.score
            t0 += s[0]
            t1 += s[1]
        return (t0, t1)

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over (T-34, H-6, H-7), else None."""
        h = self.current
        if h.phase != Phase.DONE:
            return None
        return game_winner(self.variant, self.totals, h.declarer)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.current.to_move

    def legal_actions(self) -> list[int]:
        """Return the legal actions of the seat to move (none once the game is over)."""
        return [] if self.is_over else self.current.legal_actions()

    # ---------------------------------------------------------------- actions
    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply ``action`` to the current hand; start the next hand when it ends.

        :raises IllegalActionError: as :meth:`HandState.apply`, or after the game ended (T-34).
        """
        if self.is_over:
            try:
                what = action_name(action)
            except NotationError:
                what = reprlib.repr(action)
            raise IllegalActionError(f"illegal action {what}: the game is over (T-34)", rule="T-34",
                                     action=action if type(action) is int else None)
        self.current.apply(action, seat)
        self._caught_up()

    def apply_text(self, text: str, seat: int | None = None) -> None:
        """Apply the action written ``text``."""
        self.apply(_parse_action_text(text), seat)

    def _next_hand(self, dealer: int) -> None:
        self.hands.append(HandState.deal(self.variant, hand_seed(self.seed, len(self.hands)), dealer))

    def undo(self) -> None:
        """Undo the last action, across hand boundaries (after the end, the
        last one: the game goes on and its last hand takes actions again).

        :raises IllegalActionError: when nothing was played.
        """
        if len(self.current) == 0:
            if len(self.hands) == 1:
                raise IllegalActionError("there is no action to undo")
            self.hands.pop()
        h = self.hands[-1]
        h._game_over = False       # undo after the end reopens the last hand
        h.undo()

    def history(self) -> list[int]:
        """Return every action of the game in order."""
        out: list[int] = []
        self._caught_up()
        for h in self.hands:
            out.extend(h.history)
        return out

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.variant, g.seed, g.first_dealer = self.variant, self.seed, self.first_dealer
        self._caught_up()
        g.hands = [h.clone() for h in self.hands]
        g._caught_up()       # a hand's clone belongs to no game: close the last one again
        return g

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle (and deepcopy): the hands' copies are open, the game closes its last one again."""
        self.__dict__.update(state)
        self._caught_up()

    __hash__ = None   # type: ignore[assignment]  # a game changes as it is played: unhashable, as a list

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        self._caught_up()
        other._caught_up()
        return (self.variant == other.variant and self.seed == other.seed
                and self.first_dealer == other.first_dealer and self.hands == other.hands)

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> dict[str, Any]:
        """Return the current hand's observation for ``seat`` plus the game's public state."""
        obs = self.current.observation(seat)
        obs.update({"hand_number": self.hand_number, "totals": list(self.totals),
                    "target": self.variant.target, "winner": self.winner})
        if self.is_over:
            obs.pop("legal_actions", None)
            obs["to_move"] = None
        return obs

    def to_json(self) -> dict[str, Any]:
        """Return the game as JSON-ready data; :meth:`from_json` replays it exactly."""
        v = self.variant
        return {
            "format": GAME_FORMAT,
            "variant": v.name if PRESETS.get(v.name) == v else v.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [action_name(a) for a in self.history()],
            "summary": {"hands": self.hands_begun, "totals": list(self.totals), "winner": self.winner},
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Return the game :meth:`to_json` wrote (a dict or JSON text).

        :raises RookError: for a malformed document or an action the rules refuse.
        """
        what = "game JSON"
        data = read_document(data, what, GAME_FORMAT, ("variant", "seed", "first_dealer", "actions"),
                             ("variant", "seed", "actions"))
        v = data["variant"]
        try:   # a whole variant, or a preset's name or fields (as HandState.from_json reads it)
            variant = Variant.from_dict(v, complete=True) if isinstance(v, dict) else get_preset(v)
        except RookError as e:
            raise type(e)(f"{what} 'variant': {e}") from None
        try:
            g = cls(variant, data["seed"], data.get("first_dealer"))
        except RookError as e:
            raise type(e)(f"{what}: {e}") from None
        _check_actions(data["actions"], what)
        replay(g, data["actions"], what)
        return g

    def __repr__(self) -> str:
        return (f"<Game {self.variant.name} seed={self.seed} hand={self.hand_number} "
                f"totals={self.totals} winner={self.winner}>")

    def __str__(self) -> str:
        """For people: the game's totals and state, then its current hand (``str(HandState)``)."""
        t = self.totals
        state = (f"team {self.winner} won" if self.winner is not None
                 else "over" if self.is_over else f"playing to {self.variant.target}")
        return (f"{self.variant.name} game, seed {self.seed}: hand {self.hand_number}, totals {t[0]} / {t[1]} "
                f"(team 0 / team 1), {state}\n{self.current}")

    def _repr_html_(self) -> str:
        """The same for Jupyter: the totals over the current hand's table."""
        from ._html import html_table
        return html_table(self.current._lines(), "rook-hand", title=str(self).split("\n", 1)[0])


def game_winner(variant: Variant, totals: tuple[int, int], declarer: int | None) -> int | None:
    """Return the team that has won after a played hand with ``totals``, declared
    by ``declarer``, or None while play goes on.

    At or above the target the higher total wins (T-34).  Equal totals play
    another hand (T-34), or, with ``tie_to_team_0``, the team of seats 0 and 2
    wins (H-6).  With ``win_on_own_bid`` only the team that declared the hand
    may win it (H-7): the other plays on, even past the target.
    """
    if max(totals) < variant.target:
        return None
    if totals[0] != totals[1]:
        lead = 0 if totals[0] > totals[1] else 1
    elif variant.tie_to_team_0:
        lead = 0
    else:
        return None
    if variant.win_on_own_bid and (declarer is None or declarer % 2 != lead):
        return None
    return lead
