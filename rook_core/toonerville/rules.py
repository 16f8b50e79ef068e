"""The parameters of a Toonerville game (RULES.md sections 3 and 5) as one frozen value.

>>> r = ToonervilleRules(players=3)
>>> r.players, r.max_buys, r.no_discard_of_taken, r.rounds
(3, 3, True, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))
>>> ToonervilleRules(players=6)
Traceback (most recent call last):
...
rook_core.errors.VariantError: Toonerville is for 3 to 5 players, not 6 (TV-1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any

from ..errors import VariantError, as_int
from ..jsonio import read_object

__all__ = ["ToonervilleRules"]


@dataclass(frozen=True)
class ToonervilleRules:
    """A Toonerville game's configuration.

    * ``players``: 3 to 5, one full-57 deck each (TV-1);
    * ``max_buys``: buys per player per round (TV-8, section 5: default 3);
    * ``max_wild_fraction``: a meld holds fewer birds than this share of its
      cards (TV-5); at most one half in a game, so that no meld is both a set
      and a run; kept as a float (a :class:`~fractions.Fraction` is taken), so
      that the rules are JSON;
    * ``no_discard_of_taken``: a player may not discard the card taken from the
      discard pile in the same turn (section 5);
    * ``rounds``: the rounds played, each at most once and in TV-2's order
      (default all eleven);
    * ``turn_limit``: an engine guard, not a rule: a round that reaches this
      many turns ends with nobody out and every player scores the cards in
      hand (TV-12).  None (the default) plays on; bots that may never meet a
      contract (``random``) need it.

    :raises VariantError: naming the value that breaks a rule.
    """

    players: int = 4
    max_buys: int = 3
    max_wild_fraction: float = 0.5
    no_discard_of_taken: bool = True
    rounds: tuple[int, ...] = tuple(range(1, 12))
    turn_limit: int | None = None

    def __post_init__(self) -> None:
        def is_int(x: object) -> bool:
            return isinstance(x, int) and not isinstance(x, bool)
        for name in ("players", "max_buys", "turn_limit"):       # a NumPy int is taken, as a Python int
            value = as_int(getattr(self, name))
            if value is not None:
                object.__setattr__(self, name, value)
        if isinstance(self.rounds, (list, tuple)):
            object.__setattr__(self, "rounds", tuple(r if (n := as_int(r)) is None else n for r in self.rounds))
        if not is_int(self.players) or not 3 <= self.players <= 5:
            raise VariantError(f"Toonerville is for 3 to 5 players, not {self.players!r} (TV-1)")
        if not is_int(self.max_buys) or self.max_buys < 0:
            raise VariantError(f"max_buys must be an int >= 0, not {self.max_buys!r} (TV-8)")
        f = self.max_wild_fraction
        if isinstance(f, bool) or not isinstance(f, (int, float, Fraction)) or not 0 < f <= 0.5:
            raise VariantError(f"max_wild_fraction must be in (0, 1/2] for a game, not {f!r} (TV-5): above "
                               "one half a meld such as B3 Rook Rook Rook is both a set and a run, "
                               "which the table does not model (the contract solver takes up to 1)")
        object.__setattr__(self, "max_wild_fraction", float(f))   # a Fraction or numpy float: JSON's number
        if not isinstance(self.no_discard_of_taken, bool):
            raise VariantError(f"no_discard_of_taken must be a bool, not {self.no_discard_of_taken!r}")
        rounds = tuple(self.rounds) if isinstance(self.rounds, (list, tuple)) else None
        if not rounds or any(not is_int(r) or not 1 <= r <= 11 for r in rounds) \
                or any(a >= b for a, b in zip(rounds, rounds[1:])):
            raise VariantError(f"rounds must be a non-empty list of rounds 1..11, each once and in "
                               f"order, not {self.rounds!r} (TV-2)")
        object.__setattr__(self, "rounds", rounds)
        if self.turn_limit is not None and (not is_int(self.turn_limit) or self.turn_limit < 1):
            raise VariantError(f"turn_limit must be None or an int >= 1, not {self.turn_limit!r}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["rounds"] = list(self.rounds)
        return d

    @classmethod
    def from_dict(cls, data: Any) -> ToonervilleRules:
        """Return the rules written by :meth:`to_dict`; unknown keys are refused."""
        names = tuple(f.name for f in fields(cls))
        return cls(**read_object(data, "Toonerville rules", names, ()))
