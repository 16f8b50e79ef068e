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
from ..actions import BID, N_ACTIONS, PASS, TRUMP, action_name
from ..cards import CardSet, card_name
from ..errors import RookError, VariantError, as_int, as_tuple
from ..observation import Observation
from ..variant import Variant, get_preset

__all__ = ["Holder", "Knowledge", "NEST", "agent_variant", "legal_of", "read_observation"]

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


def read_observation(observation: object, variant: Variant) -> Observation:
    """``observation``, the view of the seat to move in a hand of ``variant``
    (the agent's), as a typed :class:`~rook_core.observation.Observation`
    (T-15): a typed one as it is, a JSON form read into one, and either
    checked to be a view an agent can answer.

    :raises RookError: for what is no such view, naming which: no observation,
        a Toonerville one, one of another variant, one with fields missing or
        of the wrong kind, one of a seat that is not to move (it lists no
        legal action), or one whose legal actions or cards cannot be so
        (:func:`legal_of`)."""
    legal = legal_of(observation, variant)
    assert isinstance(observation, Mapping)
    if not isinstance(observation, Observation):     # its legal actions as read (a generator is read once)
        observation = dict(observation, legal_actions=legal)
    o = Observation.from_json(observation, variant)
    _check_answerable(o, typed=o is observation)
    return o


def legal_of(observation: object, variant: Variant) -> list[int]:
    """The legal actions of ``observation``, the view of the seat to move in
    a hand of ``variant`` (the agent's), as ints (T-15).

    :raises RookError: for what is no such view: no observation, a
        Toonerville one, one of another variant, one of a seat that is not to
        move (it lists no legal action), naming which; for legal actions that
        are not ints of the action space (:mod:`rook_core.actions`)."""
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
    items = () if legal is None else None if isinstance(legal, Mapping) else as_tuple(legal)
    if items is None:
        raise RookError(f"legal actions are a list of ints, not {reprlib.repr(legal)}")
    if not items:
        raise RookError(f"the observation of seat {observation.get('seat')!r} lists no legal action: "
                        f"the seat is not to move (seat {observation.get('to_move')!r} is; None: the hand is over)")
    out = [as_int(a) for a in items]
    if None in out or not all(0 <= a < N_ACTIONS for a in out):    # type: ignore[operator]
        raise RookError(f"legal actions are ints of the action space 0 .. {N_ACTIONS - 1}, "
                        f"not {reprlib.repr(legal)}")
    return out   # type: ignore[return-value]


def _check_answerable(o: Observation, typed: bool = False) -> None:
    """Refuse an observation that no seat to move can be shown (T-15): its
    seat not the seat to move, no declarer after the bidding (T-7) or no
    trump in the play (T-8), legal actions that are none of its phase
    (bids and passes in the bidding, T-3, T-4; trumps when trump is named,
    T-7; cards of the seat's hand otherwise, T-8, T-20, T-22), a hand with
    a card of a suit its seat showed it lacks, or (read from the JSON form,
    not ``typed``, whose voids are the hand's own) a card played in a suit
    its seat had shown it lacks (T-9, T-10).

    :raises RookError: naming what is wrong."""
    bad = "not an observation an agent can answer"
    phase = o.phase.label
    if o.to_move != o.seat:
        raise RookError(f"{bad}: it lists legal actions for seat {o.seat}, but seat {o.to_move} is to move "
                        "(None: the hand is over)")
    if phase in ("done", "thrown_in"):
        raise RookError(f"{bad}: it lists legal actions in phase {phase!r}, after the hand")
    if phase != "bid" and o.declarer is None:
        raise RookError(f"{bad}: phase {phase!r} with no declarer (T-7)")
    if phase == "play" and o.trump is None:
        raise RookError(f"{bad}: the play with no trump named (T-7, T-8)")
    v = o.variant
    legal = o.legal_actions or ()
    if phase == "bid":
        wrong = [a for a in legal if a != PASS and not (BID + v.min_bid <= a <= BID + v.max_bid)]
    elif phase == "trump":
        wrong = [a for a in legal if not TRUMP <= a < TRUMP + L.N_COLORS]
    else:
        wrong = [a for a in legal if a >= 64 or not o.hand >> a & 1]
    if wrong:
        raise RookError(f"{bad}: {', '.join(action_name(a) for a in wrong[:4])} cannot be a legal "
                        f"action of phase {phase!r} with hand {CardSet(o.hand)} (T-3 .. T-22)")
    if o.hand & o.voids[o.seat]:
        raise RookError(f"{bad}: seat {o.seat} holds {CardSet(o.hand & o.voids[o.seat])} "
                        f"of a suit it had shown it lacks (T-9, T-10)")
    if o.trump is None or typed:
        return
    rules = rules_for(v)
    lacks = [0, 0, 0, 0]
    for cards in [t.cards for t in o.tricks] + [o.trick]:
        for s, c in cards:
            if lacks[s] >> c & 1:
                raise RookError(f"{bad}: seat {s} played {card_name(c)} in a suit it had shown it lacks "
                                f"(T-9, T-10)")
        if cards:
            led = cards[0][1]
            allowed = rules.legal_mask(v.deck_mask, led, o.trump)
            for s, c in cards[1:]:
                if not allowed >> c & 1:
                    lacks[s] |= rules.suit_mask(led, o.trump)
                    if v.must_trump and not rules.trump_mask(o.trump) >> c & 1:
                        lacks[s] |= rules.trump_mask(o.trump)


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
