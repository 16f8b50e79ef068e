"""What one seat may know of a hand (T-15), typed: masks and ints, with its JSON form.

:meth:`HandState.observe(seat) <rook_core.hand.HandState.observe>` builds an
:class:`Observation` from the native state's masks; bots read its fields
(:class:`~rook_core.bots.knowledge.Knowledge` takes it without parsing a
card name), and :meth:`Observation.to_json` gives the JSON-ready dict that
``HandState.observation``, the service and the engine hand out (the format
of docs/formats).  An observation is also a read-only mapping of that dict,
so code written against the JSON form reads it unchanged.  The seat's own
cards and what is public are in it, the nest only for the declarer once it
took it (for every seat once the bidding ends when the nest is exposed, H-5;
the discards stay the declarer's), and another seat's unplayed cards never,
except those this seat itself passed (T-22).

>>> from rook_core import HandState
>>> o = HandState.deal("tournament", seed=1).observe(1)
>>> o.hand.bit_count(), o["phase"], Observation.from_json(o.to_json()) == o
(9, 'bid', True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NamedTuple

from ._native import rules_for
from .actions import Phase
from .cards import CardSet, card_name, color_name, parse_card, parse_cards, parse_color
from .errors import RookError
from .variant import Variant, as_variant, get_preset

__all__ = ["Observation", "TrickSeen", "inferred_voids"]


class TrickSeen(NamedTuple):
    """A completed trick: who led, (seat, card id) in play order, who won (T-11)."""

    leader: int
    cards: tuple[tuple[int, int], ...]
    winner: int


@dataclass(eq=True)
class Observation(Mapping[str, Any]):
    """One seat's observation (see the module's note); card sets are masks.
    Treat it as read-only: its mapping view is computed once, on first use."""

    variant: Variant
    seat: int
    phase: Phase
    dealer: int
    to_move: int | None
    hand: int
    bids: tuple[tuple[int, int | None], ...]
    high_bid: int
    declarer: int | None
    trump: int | None
    trick: tuple[tuple[int, int], ...]            # (seat, card id) of the current trick
    tricks: tuple[TrickSeen, ...]
    tricks_won: tuple[int, int]
    points: tuple[int, int]
    score: tuple[int, int] | None                  # once the hand is over
    nest: int | None = None                        # the dealt nest: the declarer once taken (T-15); all seats, H-5
    discarded: int | None = None                   # the declarer's discards: the declarer only (T-15)
    passed: int = 0                                # the cards this seat passed (T-22)
    legal_actions: tuple[int, ...] | None = None   # when the seat is to move
    voids: tuple[int, int, int, int] = (0, 0, 0, 0)  # seat -> cards it showed it cannot hold (T-9, T-10)

    # ------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """Return the JSON-ready dict of this observation (a new one each call)."""
        obs: dict[str, Any] = {
            "variant": self.variant.name,
            "seat": self.seat,
            "phase": self.phase.label,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hand": CardSet(self.hand).names(),
            "bids": [[s, b] for s, b in self.bids],
            "high_bid": self.high_bid,
            "declarer": self.declarer,
            "trump": None if self.trump is None else color_name(self.trump),
            "trick": [[s, card_name(c)] for s, c in self.trick],
            "tricks": [{"leader": t.leader, "cards": [[s, card_name(c)] for s, c in t.cards], "winner": t.winner}
                       for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "score": None if self.score is None else list(self.score),
        }
        if self.nest is not None:
            obs["nest"] = CardSet(self.nest).names()
        if self.discarded is not None:
            obs["discarded"] = CardSet(self.discarded).names()
        if self.passed:
            obs["passed"] = CardSet(self.passed).names()
        if self.legal_actions is not None:
            obs["legal_actions"] = list(self.legal_actions)
        return obs

    @classmethod
    def from_json(cls, obs: Mapping[str, Any], variant: Variant | None = None) -> Observation:
        """Return the observation whose JSON form is ``obs`` (``variant``, a
        Variant or a preset's name, instead of looking its name up).

        :raises RookError: for a document that is not a trick-taking observation
            (a seat of it other than an int 0..3 included), or an unknown ``variant``.
        """
        if isinstance(obs, Observation):
            return obs
        v = as_variant(variant) if variant is not None else None   # a Variant or a preset's name
        try:
            v = v if v is not None else get_preset(obs["variant"])
            nest = obs.get("nest")
            legal = obs.get("legal_actions")
            score = obs.get("score")
            o = cls(
                variant=v, seat=int(obs["seat"]), phase=Phase[str(obs["phase"]).upper()],
                dealer=int(obs["dealer"]), to_move=None if obs["to_move"] is None else int(obs["to_move"]),
                hand=parse_cards(obs["hand"]),
                bids=tuple((int(s), None if b is None else int(b)) for s, b in obs["bids"]),
                high_bid=int(obs["high_bid"]),
                declarer=None if obs.get("declarer") is None else int(obs["declarer"]),
                trump=None if obs.get("trump") is None else parse_color(obs["trump"]),
                trick=tuple((int(s), int(parse_card(c))) for s, c in obs["trick"]),
                tricks=tuple(TrickSeen(int(t["leader"]), tuple((int(s), int(parse_card(c))) for s, c in t["cards"]),
                                       int(t["winner"])) for t in obs["tricks"]),
                tricks_won=(int(obs["tricks_won"][0]), int(obs["tricks_won"][1])),
                points=(int(obs["points"][0]), int(obs["points"][1])),
                score=None if score is None else (int(score[0]), int(score[1])),
                nest=None if nest is None else parse_cards(nest),
                discarded=None if obs.get("discarded") is None else parse_cards(obs["discarded"]),
                passed=parse_cards(obs.get("passed", [])),
                legal_actions=None if legal is None else tuple(int(a) for a in legal),
            )
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:   # (int() of an infinite number)
            raise RookError(f"not an observation of a trick-taking hand: {e}") from None
        _check_seats(obs, o)
        _check_numbers(obs, o)
        _check_cards(o)
        return replace(o, voids=inferred_voids(o))

    # ---------------------------------------------- the mapping of the JSON form
    @cached_property
    def _json(self) -> dict[str, Any]:
        return self.to_json()

    def __getitem__(self, key: str) -> Any:
        fast = _FAST.get(key)
        if fast is not None and "_json" not in self.__dict__:
            value = fast(self)
            if value is not _ABSENT:
                return value
        return self._json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json)

    def __len__(self) -> int:
        return len(self._json)

    def __hash__(self) -> int:
        return hash((self.variant.name, self.seat, self.phase, self.hand, self.trick, self.tricks))


_ABSENT = object()


def _check_seats(obs: Mapping[str, Any], o: Observation) -> None:
    """Refuse an observation read from ``obs`` whose seats are not seats 0..3
    (``int`` would take 1.9, True or "7" for seats).

    :raises RookError: naming the field."""
    fields: list[tuple[str, object]] = [("seat", obs["seat"]), ("dealer", obs["dealer"])]
    fields += [(k, obs.get(k)) for k in ("to_move", "declarer") if obs.get(k) is not None]
    fields += [("bids", s) for s, _ in obs["bids"]]
    fields += [("trick", s) for s, _ in obs["trick"]]
    for t in obs["tricks"]:
        fields += [("tricks", t["leader"]), ("tricks", t["winner"])] + [("tricks", s) for s, _ in t["cards"]]
    for name, seat in fields:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise RookError(f"not an observation of a trick-taking hand: a seat in {name!r} "
                            f"must be 0..3, not {seat!r}")

def _check_numbers(obs: Mapping[str, Any], o: Observation) -> None:
    """Refuse counts no hand of the variant can show: bids outside its range
    (T-3), points taken below 0 or above the hand's points, tricks won below 0
    or above a hand's tricks, and numbers that are no ints (``int`` would take
    1.9 or True).

    :raises RookError: naming the field."""
    v = o.variant
    fields: list[tuple[str, object, int, int]] = [("high_bid", obs["high_bid"], 0, v.max_bid)]
    fields += [("bids", b, v.min_bid, v.max_bid) for _, b in obs["bids"] if b is not None]
    fields += [("points", p, 0, v.total_points) for p in obs["points"]]
    fields += [("tricks_won", t, 0, v.hand_size) for t in obs["tricks_won"]]
    for name, n, lo, hi in fields:
        if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            raise RookError(f"not an observation of a trick-taking hand: {name!r} holds {n!r}, "
                            f"not an int {lo}..{hi} ({v.name})")


def _check_cards(o: Observation) -> None:
    """Refuse an observation whose cards cannot all be so (T-2, T-8 .. T-11):
    a card outside the variant's deck, a card played twice, a card both
    played and still in the hand, or a trick with a seat in it twice.

    :raises RookError: naming the card or the trick."""
    played = [c for _, c in o.trick] + [c for t in o.tricks for _, c in t.cards]
    seen = set()
    for c in played:
        if c in seen:
            raise RookError(f"not an observation of a trick-taking hand: {card_name(c)} was played twice")
        seen.add(c)
    for name, mask in (("hand", int(o.hand)), ("played cards", sum(1 << c for c in seen))):
        if mask & ~o.variant.deck_mask:
            raise RookError(f"not an observation of a trick-taking hand: the {name} hold "
                            f"{CardSet(mask & ~o.variant.deck_mask)}, not cards of {o.variant.name!r}")
    both = int(o.hand) & sum(1 << c for c in seen)
    if both:
        raise RookError(f"not an observation of a trick-taking hand: {CardSet(both)} both played and in the hand")
    for where, cards in [("trick", o.trick)] + [(f"tricks[{i}]", t.cards) for i, t in enumerate(o.tricks)]:
        if len({s for s, _ in cards}) != len(cards) or len(cards) > 4:
            raise RookError(f"not an observation of a trick-taking hand: {where} has a seat in it twice")


# Fields of the JSON form that bots read on every decision, computed without
# building the whole form (the same values: tests/test_observation.py).
_FAST: dict[str, Any] = {
    "seat": lambda o: o.seat,
    "phase": lambda o: o.phase.label,
    "dealer": lambda o: o.dealer,
    "to_move": lambda o: o.to_move,
    "high_bid": lambda o: o.high_bid,
    "declarer": lambda o: o.declarer,
    "bids": lambda o: [[s, b] for s, b in o.bids],
    "points": lambda o: list(o.points),
    "tricks_won": lambda o: list(o.tricks_won),
    "legal_actions": lambda o: _ABSENT if o.legal_actions is None else list(o.legal_actions),
}


def inferred_voids(o: Observation) -> tuple[int, int, int, int]:
    """Return the cards each seat showed it cannot hold in the tricks of ``o`` (T-9, T-10).

    A card played outside the led suit that the rules did not allow "any
    time" shows that its seat had none of the led suit; with ``must_trump``
    such a card that is not a trump shows it had no trump either.  The JSON
    form carries no voids, so :meth:`Observation.from_json` infers them here;
    :meth:`HandState.observe <rook_core.hand.HandState.observe>` has them from
    the native state, and the two agree (tests/test_observation.py).
    """
    if o.trump is None:
        return (0, 0, 0, 0)
    r, trump, deck = rules_for(o.variant), o.trump, o.variant.deck_mask
    lacks = [0, 0, 0, 0]
    for cards in [t.cards for t in o.tricks] + [o.trick]:
        if not cards:
            continue
        led = cards[0][1]
        allowed_anyway = r.legal_mask(deck, led, trump)   # follow | "any time"
        for s, c in cards[1:]:
            if (allowed_anyway >> c) & 1:
                continue
            lacks[s] |= r.suit_mask(led, trump)
            if o.variant.must_trump and not (r.trump_mask(trump) >> c) & 1:
                lacks[s] |= r.trump_mask(trump)
    return (lacks[0], lacks[1], lacks[2], lacks[3])
