"""The eleven rounds of Toonerville (TV-2): cards dealt and the contract to lay down.

>>> CONTRACTS[5]
Contract(round=5, dealt=12, sets=2, runs=1, discard_out=True)
>>> contract_for(11).discard_out, contract_for({"sets": 1, "runs": 1}).runs
(False, 1)
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any

from .._html import html_table
from ..errors import RookError

__all__ = ["Contract", "ContractResult", "CONTRACTS", "contract_for"]


@dataclass(frozen=True)
class Contract:
    """A round's deal and contract: exactly ``sets`` sets and ``runs`` runs
    (TV-2, TV-7); ``discard_out`` is False in round 11, where the last card
    cannot be a discard (TV-10).  ``round`` is 0 for a contract given directly."""

    round: int
    dealt: int
    sets: int
    runs: int
    discard_out: bool = True


@dataclass(frozen=True)
class ContractResult:
    """A contract solver's answer: whether the hand meets the contract, its least
    TV-12 deadwood (None when not), and one best lay-down as card-id lists, the
    contract's melds first, then the further melds (TV-7)."""

    can_meet: bool
    deadwood: int | None
    melds: list[list[int]] = field(default_factory=list)

    def meld_names(self) -> list[list[str]]:
        """The lay-down with card names instead of ids (``[["B7", "G7", "Rook"], ...]``)."""
        from ..cards import card_name
        return [[card_name(c) for c in m] for m in self.melds]

    def __str__(self) -> str:
        """For people: met or not, the deadwood, and the melds by name."""
        if not self.can_meet:
            return "the hand cannot meet the contract (TV-2, TV-4)"
        melds = "; ".join(" ".join(m) for m in self.meld_names())
        return f"the hand meets the contract with {self.deadwood} points of deadwood (TV-12): {melds or '-'}"

    def _repr_html_(self) -> str:
        """The same for Jupyter: met or not and the deadwood over a table of the melds by name."""
        head = str(self).split(":", 1)[0] if self.can_meet else str(self)
        rows = [(f"meld {i}", " ".join(m)) for i, m in enumerate(self.meld_names(), 1)]
        return html_table(rows, "rook-contract", title=head)


_TABLE = [  # round, cards dealt, sets, runs (TV-2)
    (1, 12, 2, 0), (2, 12, 1, 1), (3, 12, 0, 2), (4, 12, 3, 0), (5, 12, 2, 1), (6, 12, 1, 2),
    (7, 12, 4, 0), (8, 12, 0, 3), (9, 15, 5, 0), (10, 16, 0, 4), (11, 14, 2, 2),
]
CONTRACTS: dict[int, Contract] = {r: Contract(r, d, s, n, r != 11) for r, d, s, n in _TABLE}


def contract_for(spec: Any) -> Contract:
    """Return the contract of round ``spec`` (1-11), or of ``{"sets": s, "runs": r}``
    as FORMATS.md allows.

    :raises RookError: naming what is wrong with ``spec``.
    """
    if isinstance(spec, int) and not isinstance(spec, bool):
        if spec not in CONTRACTS:
            raise RookError(f"contract round must be 1..11, not {spec} (TV-2)")
        return CONTRACTS[spec]
    if isinstance(spec, dict):
        extra = set(spec) - {"sets", "runs"}
        if extra:
            raise RookError(f"a contract has only 'sets' and 'runs', not {', '.join(sorted(map(reprlib.repr, extra)))}")
        s, r = spec.get("sets", 0), spec.get("runs", 0)
        for name, x in (("sets", s), ("runs", r)):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 8:
                raise RookError(f"contract {name} must be an int 0..8, not {x!r}")
        if s + r == 0:
            raise RookError("a contract needs at least one set or run")
        return Contract(0, 0, s, r)
    raise RookError(f"a contract is a round 1..11 or {{'sets': s, 'runs': r}}, not {spec!r}")
