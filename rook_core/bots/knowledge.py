"""What one seat knows about the cards, read from its observation (T-15).

:class:`Knowledge` turns an observation (``HandState.observation(seat)``)
into card masks: the seat's hand, the cards played, the cards it has not
seen, the cards it knows another seat holds (the ones it passed, T-22),
and the colors each other seat is known to lack.  The bots
(:mod:`rook_core.bots.heuristic`) and the world sampler of the PIMC player
(:mod:`rook_core.bots.worlds`) both read it.

The voids come with the observation (:attr:`Observation.voids
<rook_core.observation.Observation.voids>`, T-9, T-10): a seat is known to
lack a suit when it once played a card that the rules allowed only to a
player without that suit.

>>> from rook_core import HandState
>>> h = HandState.deal("tournament", seed=1)
>>> k = Knowledge.from_observation(h.observation(1))
>>> k.hand.bit_count(), k.unseen.bit_count(), k.hidden_sizes()
(9, 32, {0: 9, 2: 9, 3: 9, 'nest': 5})
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from .. import _layout as L
from .._native import Rules, rules_for
from ..errors import RookError, VariantError
from ..observation import Observation
from ..variant import Variant, get_preset

__all__ = ["Holder", "Knowledge", "NEST", "agent_variant", "legal_of"]

NEST: Literal["nest"] = "nest"
Holder: TypeAlias = 'int | Literal["nest"]'
"""Where an unseen card can be: a seat (0-3) or the nest."""


def agent_variant(variant: object) -> Variant:
    """The variant an agent is made for: ``variant`` itself, or the preset it names.

    :raises VariantError: for an unknown preset or what is neither."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return get_preset(variant)
    raise VariantError(f"an agent is made for a Variant or a preset's name, not {reprlib.repr(variant)}")


def legal_of(observation: object, variant: Variant) -> list[int]:
    """The legal actions of ``observation``, the view of the seat to move in
    a hand of ``variant`` (the agent's), as ints (T-15).

    :raises RookError: for what is no such view: no observation, a
        Toonerville one, one of another variant, one of a seat that is not to
        move (it lists no legal action), naming which."""
    if isinstance(observation, Observation):     # first: the common case, and a cheap test
        seen: Any = observation.variant
        other = seen is not variant and seen != variant
        seen = seen.name
    elif not isinstance(observation, Mapping):
        raise RookError(f"an agent acts on a seat's observation (HandState.observe), not {reprlib.repr(observation)}")
    else:
        if observation.get("game") == "toonerville":
            raise RookError("a trick-taking agent was handed a Toonerville observation "
                            "(rook_core.toonerville.agents has its bots)")
        seen = observation.get("variant", variant.name)
        other = seen != variant.name
    if other:
        raise RookError(f"an agent made for {variant.name!r} was handed an observation of {reprlib.repr(seen)}")
    legal = observation.get("legal_actions")
    if not legal:
        raise RookError(f"the observation of seat {observation.get('seat')!r} lists no legal action: "
                        f"the seat is not to move (seat {observation.get('to_move')!r} is; None: the hand is over)")
    try:
        return [int(a) for a in legal]
    except (TypeError, ValueError):
        raise RookError(f"legal actions are ints, not {reprlib.repr(legal)}") from None


@dataclass
class Knowledge:
    """One seat's view of where the cards are (see the module docstring)."""

    variant: Variant
    rules: Rules
    seat: int
    phase: str
    hand: int                      # the seat's own cards
    played: int                    # every card played to a trick, the current one included
    trump: int | None
    declarer: int | None
    trick: list[tuple[int, int]]   # (seat, card) of the current trick
    known: dict[Holder, int] = field(default_factory=dict)    # holder -> cards known to be there
    lacks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # seat -> cards it cannot hold
    played_by: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    unseen: int = 0                # cards of the deck whose place the seat does not know
    exposed: int = 0               # H-5: the nest every seat saw before the declarer took it

    @classmethod
    def from_observation(cls, obs: Observation | Mapping[str, Any], variant: Variant | None = None) -> Knowledge:
        """Return what ``obs`` tells its seat: a typed :class:`~rook_core.observation.Observation`
        (``HandState.observe``), read as it is, or its JSON form, read into one first.

        :raises RookError: for an observation that is not a trick-taking one.
        """
        o = Observation.from_json(obs, variant)
        v = variant if variant is not None else o.variant
        k = cls(v, rules_for(v), o.seat, o.phase.label, o.hand, 0, o.trump, o.declarer, list(o.trick),
                lacks=list(o.voids))
        for cards in [t.cards for t in o.tricks] + [o.trick]:
            for s, c in cards:
                k.played |= 1 << c
                k.played_by[s] |= 1 << c
        if o.discarded is not None:   # the declarer: its own discards lie in the nest (T-20, T-21)
            k.known[NEST] = o.discarded
        elif o.nest is not None:      # H-5: the nest was shown to every seat
            k.exposed = o.nest
        if o.passed:                  # T-22: passed to the seat on the right
            k.known[(o.seat - 1) % 4] = o.passed & ~k.played
        seen = o.hand | k.played
        for m in k.known.values():
            seen |= m
        k.unseen = v.deck_mask & ~seen
        return k

    # ------------------------------------------------------------ questions
    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    def hidden_sizes(self) -> dict[Holder, int]:
        """Return how many unknown cards each other holder has (seats, and
        ``"nest"`` while the nest is hidden from this seat)."""
        v = self.variant
        sizes: dict[Holder, int] = {}
        for s in range(4):
            if s == self.seat:
                continue
            n = self._hand_count(s) - (self.known.get(s, 0) & ~self.played).bit_count()
            sizes[s] = n
        if v.nest_size and NEST not in self.known:
            sizes[NEST] = v.nest_size
        return sizes

    def cannot_hold(self, holder: Holder) -> int:
        """Return the cards ``holder`` cannot hold now.

        A seat: the suits it showed it lacks (T-9, T-10) and, for a seat that
        did not declare, an exposed nest, which went to the declarer's hand
        and from there to the discards or the tricks (H-5).  The hidden nest:
        under H-4, once trump is named, the counters of the other colors,
        when no deal can leave the declarer short of both cards worth 0 and
        trump counters (:meth:`_discards_are_tiered`).
        """
        if holder == NEST:
            if self.trump is None or not self._discards_are_tiered():
                return 0
            return self.variant.counters_mask & ~self.rules.trump_mask(self.trump)
        if self.exposed and holder != self.declarer:
            return self.lacks[holder] | self.exposed
        return self.lacks[holder]

    def _discards_are_tiered(self) -> bool:
        """H-4: whether the declarer's discards are surely cards worth 0 and
        trump counters: the declarer holds ``hand_size + nest_size`` cards,
        so it runs short of both only when it holds more than ``hand_size``
        counters of the other colors, which no trump allows here."""
        v = self.variant
        if v.discard_counters or not v.discard_trump_counters:
            return False
        counters = v.counters_mask
        return all((counters & ~self.rules.trump_mask(t)).bit_count() <= v.hand_size for t in range(4))

    def _hand_count(self, s: int) -> int:
        """Cards seat ``s`` holds now (T-2, T-8; the nest exchange keeps the count)."""
        return self.variant.hand_size - self.played_by[s].bit_count()

    def suit_of(self, card: int) -> int:
        """Return the suit ``card`` belongs to under the trump: 4 for a trump, else its color."""
        if self.trump is not None and (self.rules.trump_mask(self.trump) >> card) & 1:
            return 4
        return card >> 4

    def suit_cards(self, suit: int) -> int:
        """Return the deck's cards of ``suit`` (4: the trumps)."""
        if suit == 4:
            assert self.trump is not None
            return self.rules.trump_mask(self.trump)
        out = self.variant.deck_mask & L.BB_COLORS[suit]
        if self.trump is not None:
            out &= ~self.rules.trump_mask(self.trump)
        return out
