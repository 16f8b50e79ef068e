"""Variants: the frozen configuration of a trick-taking Rook game.

A preset is data, not code: every parameter RULES.md names in sections 1, 2
and 4 is one field of :class:`Variant`, and each field's comment cites its
rule id.  Native code receives the derived tables (:meth:`Variant.strength_table`,
:meth:`Variant.points_table`, masks) as plain ints and never sees a preset name.

>>> v = PRESETS["tournament"]
>>> v.deck_size, v.total_points, v.hand_size, v.nest_size
(41, 120, 9, 5)
>>> Variant.from_preset("crowsnest", target=500).target
500
"""

from __future__ import annotations

import dataclasses
import functools
import math
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _layout as L
from .cards import BIRD, Card, parse_card
from .errors import NotationError, VariantError

__all__ = ["Variant", "PRESETS", "SEED_PRESETS", "as_variant", "get_preset"]

_ORDER_STEPS = ("nest", "trump", "pass", "discard")

# What the native layer holds (src/rook/rules.h, hand.h): a card's points in
# an int16 table, bonuses, penalties and scores in int32 fields, which sums of
# a whole hand must not overflow; the game target in an int32 (src/rook/sim.h).
POINTS_LIMIT = 10_000
TARGET_LIMIT = 2**31 - 1
BID_LIMIT = 1000
# What the native tables hold besides: the cards' worths in at most 8 groups
# (ROOK_MAX_COUNTER_GROUPS, src/rook/rules.h); in the solver (src/rook/solve/),
# a suit of at most 16 cards (the trump suit with the bird and permanent
# trumps: one lane of 16 bits), at most 16,383 points still to take and at
# most 1,023 points that come with the last trick (the nest and the bonus).
WORTHS_LIMIT = 8
SUIT_LIMIT = 16
SOLVER_POINTS_LIMIT = 16_383
SOLVER_END_LIMIT = 1_023
# The fields of a variant object that say how the game is played: a variant
# read from JSON gives each of them (as Variant.to_dict() writes them), or a
# "preset" to start from.  The fields added since (house rules, all off by
# default) and the names, which change nothing in play, may be left out.
_LATER_FIELDS = frozenset({"name", "deck_name", "dealer_takes_minimum", "discard_trump_counters",
                           "exposed_nest", "moon_score", "tie_to_team_0", "win_on_own_bid"})
_TUPLE_FIELDS = ("ranks", "permanent_trumps", "post_bid_order", "counters")
_SHOW = reprlib.Repr()
_SHOW.maxstring = _SHOW.maxother = 40


def _show(value: object) -> str:
    """``repr(value)`` cut short: a refused value can be any JSON."""
    return _SHOW.repr(value)


@dataclass(frozen=True)
class Variant:
    """A complete trick-taking configuration; validated on construction.

    Besides the rules, a variant keeps within what every part of the engine
    (the hand, the solver, the simulator) holds: at most 8 different worths
    of cards, trump suits of at most 16 cards, at most 16,383 points in a
    hand and at most 1,023 of them coming with the last trick (the nest and
    ``last_trick_bonus``).

    :raises VariantError: naming the field and the rule it breaks.
    """

    name: str = "custom"
    # C-3: the ranks present in each color, and whether the bird is in the deck.
    ranks: tuple[int, ...] = tuple(range(5, 15))
    bird: bool = True  # C-2
    # Section 4 (red-one): cards that are always trump whatever their printed
    # color, ranking above the bird, highest first.
    permanent_trumps: tuple[str, ...] = ()
    one_high: bool = False  # C-4
    bird_rank: str | float | None = "high"  # C-4: "high", "low" or a number like 10.5
    hand_size: int = 9  # T-2
    nest_size: int = 5  # T-2
    min_bid: int = 70  # T-3
    bid_step: int = 5  # T-3
    max_bid: int = 120  # T-3
    jump_bids: bool = True  # T-3
    opener_must_bid: bool = False  # T-6
    stick_the_dealer: bool = False  # section 4: after three passes the dealer must bid
    dealer_takes_minimum: bool = False  # H-2: after three passes the dealer declares at min_bid
    # T-7, table 2.4: "nest" takes the nest and discards; H-3 ("nest", "trump",
    # "discard") takes the nest, names trump, then discards.
    post_bid_order: tuple[str, ...] = ("nest", "trump")
    nest_exchange: str = "discard"  # T-20 "discard" / T-21 "swap_one"
    discard_counters: bool = True  # T-20: may counters be discarded into the nest
    discard_trump_counters: bool = False  # H-4: short of cards worth 0, bury trump counters next
    exposed_nest: bool = False  # H-5: the nest is shown to every seat when the bidding ends
    pass_cards: int = 0  # T-22
    first_lead: str = "dealer_left"  # T-8 ("dealer_left"), section 4 ("declarer")
    bird_anytime: bool = True  # T-9
    must_trump: bool = False  # T-9
    # T-12: (rank, points) for every color, ("Rook", points), or a card ("R1", points).
    counters: tuple[tuple[int | str, int], ...] = ((5, 5), (10, 10), (14, 10), ("Rook", 20))
    last_trick_bonus: int = 0  # T-13
    nest_to: str = "last_trick"  # T-13 ("last_trick"), section 4 ("declarer")
    most_tricks_bonus: int = 0  # section 4 (dixie)
    made_scores: str = "points"  # T-31: "points" or "bid"
    set_loses: str = "bid"  # T-32: "bid" or "points"
    moon_score: int = 0  # H-1: a team that takes every point scores this instead (0: off)
    target: int = 300  # T-33
    tie_to_team_0: bool = False  # H-6: equal scores at or above the target: seats 0 and 2 win
    win_on_own_bid: bool = False  # H-7: a team wins the game only at the end of a hand it declared
    first_dealer: int = 0  # T-1
    penalty_points: int = 40  # T-35
    deck_name: str = ""  # C-3 name, informational

    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._normalise()
        self._validate()
        d = self._derived
        d["deck_mask"] = self._compute_deck_mask()
        d["points_table"] = self._compute_points_table()
        d["strength_table"] = self._compute_strength_table()
        d["counters_mask"] = sum(1 << i for i, p in enumerate(d["points_table"]) if p)

    # ------------------------------------------------------------------ checks
    def _fail(self, message: str) -> None:
        raise VariantError(f"variant {_show(self.name)}: {message}")

    def _normalise(self) -> None:
        """Make the sequences tuples (a list, as JSON gives, is taken as one),
        so that a variant always hashes and compares by value."""
        for f in _TUPLE_FIELDS:
            v = getattr(self, f)
            if isinstance(v, list):
                v = tuple(v)
            if not isinstance(v, tuple):
                self._fail(f"{f} must be a tuple or a list, not {_show(v)}")
            if f == "counters":
                v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
                v = tuple((_card_text(x[0]),) + x[1:] if isinstance(x, tuple) and x else x for x in v)
            elif f == "permanent_trumps":
                v = tuple(_card_text(x) for x in v)
            object.__setattr__(self, f, v)

    def _validate(self) -> None:
        for f in ("name", "deck_name"):
            if not isinstance(getattr(self, f), str):
                self._fail(f"{f} must be a string, not {_show(getattr(self, f))}")
        ints = ["hand_size", "nest_size", "min_bid", "bid_step", "max_bid", "pass_cards",
                "last_trick_bonus", "most_tricks_bonus", "target", "first_dealer",
                "penalty_points", "moon_score"]
        for f in ints:
            v = getattr(self, f)
            if not isinstance(v, int) or isinstance(v, bool):
                self._fail(f"{f} must be an int, not {_show(v)}")
        # the points the engine adds up (T-13, section 4, T-35, T-33), in its int fields
        for f, rule in (("last_trick_bonus", "T-13"), ("most_tricks_bonus", "section 4"),
                        ("penalty_points", "T-35")):
            v = getattr(self, f)
            if v < 0:
                self._fail(f"{f} must not be negative (it is a number of points), not {v} ({rule})")
            if v > POINTS_LIMIT:
                self._fail(f"{f} must be at most {POINTS_LIMIT} points (the engine's limit), not {v} ({rule})")
        if self.target > TARGET_LIMIT:
            self._fail(f"target must be at most {TARGET_LIMIT} (the engine keeps it in 32 bits), "
                       f"not {self.target} (T-33)")
        for f in ("min_bid", "bid_step", "max_bid"):
            if getattr(self, f) > BID_LIMIT:
                self._fail(f"{f} must be 1..{BID_LIMIT} (the engine's limit), not {getattr(self, f)} (T-3)")
        bools = ["bird", "one_high", "jump_bids", "opener_must_bid", "stick_the_dealer",
                 "dealer_takes_minimum", "discard_counters", "discard_trump_counters", "exposed_nest",
                 "bird_anytime", "must_trump", "tie_to_team_0", "win_on_own_bid"]
        for f in bools:
            if not isinstance(getattr(self, f), bool):
                self._fail(f"{f} must be true or false, not {_show(getattr(self, f))}")
        if not self.ranks or any(
                not isinstance(r, int) or isinstance(r, bool) or not L.MIN_RANK <= r <= L.MAX_RANK
                for r in self.ranks) or len(set(self.ranks)) != len(self.ranks):
            self._fail(f"ranks must be distinct ints 1..14, not {_show(self.ranks)} (C-3)")
        for text in self.permanent_trumps:
            try:
                c = parse_card(text)
            except NotationError as e:
                self._fail(f"permanent_trumps: {e}")
            if c.is_bird:
                self._fail("permanent_trumps cannot name the bird; use bird_rank (C-4)")
        if len(set(self.permanent_trumps)) != len(self.permanent_trumps):
            self._fail("permanent_trumps names a card twice")
        # C-4: the bird's place.
        if not self.bird:
            if self.bird_rank is not None:
                self._fail(f"bird_rank {_show(self.bird_rank)} is set but the deck has no bird (C-4)")
            if self.bird_anytime:
                self._fail("bird_anytime is set but the deck has no bird (T-9)")
        else:
            br = self.bird_rank
            if br is None:
                self._fail("the deck has a bird, so bird_rank must be 'high', 'low' or a number (C-4)")
            if isinstance(br, str):
                if br not in ("high", "low"):
                    self._fail(f"bird_rank must be 'high', 'low' or a number, not {_show(br)} (C-4)")
            elif isinstance(br, bool) or not isinstance(br, (int, float)):
                self._fail(f"bird_rank must be 'high', 'low' or a number, not {_show(br)} (C-4)")
            else:
                values = [self._rank_value(r) for r in self.ranks]
                if not min(values) < br < max(values) or br in values or not math.isfinite(br):
                    self._fail(f"a numeric bird_rank must lie strictly between two ranks of the "
                               f"deck ({min(values)}..{max(values)}), not {_show(br)} (C-4)")
                if abs(br * 2 - round(br * 2)) > 1e-9:
                    self._fail(f"a numeric bird_rank must be a half rank like 10.5, not {_show(br)} (C-4)")
        # T-2: the deal must use the whole deck.
        if self.hand_size < 1:
            self._fail(f"hand_size must be at least 1, not {self.hand_size} (T-2)")
        if self.nest_size < 0:
            self._fail(f"nest_size must not be negative, not {self.nest_size} (T-2)")
        n = self.deck_size
        if 4 * self.hand_size + self.nest_size != n:
            self._fail(f"4 hands of {self.hand_size} and a nest of {self.nest_size} make "
                       f"{4 * self.hand_size + self.nest_size} cards, but the deck has {n} (T-2)")
        # T-3 bidding.
        if self.bid_step < 1:
            self._fail(f"bid_step must be positive, not {self.bid_step} (T-3)")
        if not 0 < self.min_bid <= self.max_bid:
            self._fail(f"need 0 < min_bid <= max_bid, got {self.min_bid} and {self.max_bid} (T-3)")
        if self.min_bid % self.bid_step or self.max_bid % self.bid_step:
            self._fail(f"min_bid {self.min_bid} and max_bid {self.max_bid} must be multiples "
                       f"of bid_step {self.bid_step} (T-3)")
        if self.opener_must_bid and self.stick_the_dealer:
            self._fail("opener_must_bid and stick_the_dealer exclude each other (T-6)")
        if self.dealer_takes_minimum and (self.opener_must_bid or self.stick_the_dealer):
            self._fail("dealer_takes_minimum excludes opener_must_bid and stick_the_dealer (H-2, T-6)")
        # T-7 order after bidding.
        order = self.post_bid_order
        if any(not isinstance(s, str) or s not in _ORDER_STEPS for s in order) or len(set(order)) != len(order):
            self._fail(f"post_bid_order must list distinct steps of {_ORDER_STEPS}, not {_show(order)} (T-7)")
        if "trump" not in order:
            self._fail("post_bid_order must contain 'trump' (T-7)")
        if ("nest" in order) != (self.nest_size > 0):
            self._fail("post_bid_order has 'nest' exactly when nest_size > 0 (T-7, T-20)")
        if "discard" in order and order[:3] != ("nest", "trump", "discard"):
            self._fail(f"a separate 'discard' step comes in the order ('nest', 'trump', 'discard'), "
                       f"not {_show(order)} (H-3)")
        if "discard" in order and self.nest_exchange != "discard":
            self._fail("the order ('nest', 'trump', 'discard') needs nest_exchange 'discard' (H-3)")
        if self.discard_trump_counters:
            if self.discard_counters:
                self._fail("discard_trump_counters needs discard_counters false: it says which "
                           "counters go when the cards worth 0 run short (H-4)")
            step = "discard" if "discard" in order else "nest"
            if step not in order or order.index("trump") > order.index(step):
                self._fail("discard_trump_counters needs trump named before the discard (H-3, H-4)")
        if self.most_tricks_bonus and self.hand_size % 2 == 0:
            self._fail(f"most_tricks_bonus needs an odd hand_size, not {self.hand_size}: with an even number "
                       f"of tricks the teams can take as many, and the bonus would go to no one (section 4, T-14)")
        if self.exposed_nest and self.nest_size == 0:
            self._fail("exposed_nest needs a nest (H-5)")
        if ("pass" in order) != (self.pass_cards > 0):
            self._fail("post_bid_order has 'pass' exactly when pass_cards > 0 (T-7, T-22)")
        if not 0 <= self.pass_cards <= self.hand_size:
            self._fail(f"pass_cards must be 0..hand_size, not {self.pass_cards} (T-22)")
        if self.nest_exchange not in ("discard", "swap_one"):
            self._fail(f"nest_exchange must be 'discard' or 'swap_one', not {_show(self.nest_exchange)} (T-20, T-21)")
        if self.nest_exchange == "swap_one" and self.nest_size != 1:
            self._fail(f"nest_exchange 'swap_one' needs a widow of 1 card, not {self.nest_size} (T-21)")
        if self.first_lead not in ("dealer_left", "declarer"):
            self._fail(f"first_lead must be 'dealer_left' or 'declarer', not {_show(self.first_lead)} (T-8)")
        if self.nest_to not in ("last_trick", "declarer"):
            self._fail(f"nest_to must be 'last_trick' or 'declarer', not {_show(self.nest_to)} (T-13)")
        if self.made_scores not in ("points", "bid"):
            self._fail(f"made_scores must be 'points' or 'bid', not {_show(self.made_scores)} (T-31)")
        if self.set_loses not in ("points", "bid"):
            self._fail(f"set_loses must be 'points' or 'bid', not {_show(self.set_loses)} (T-32)")
        if self.target < 1:
            self._fail(f"target must be positive, not {self.target} (T-33)")
        if not 0 <= self.moon_score <= 10_000:
            self._fail(f"moon_score must be 0 (off) .. 10000, not {self.moon_score} (H-1)")
        if self.first_dealer not in range(4):
            self._fail(f"first_dealer must be a seat 0..3, not {self.first_dealer} (T-1)")
        keys: set[object] = set()
        for item in self.counters:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], int)
                    and not isinstance(item[1], bool) and item[1] >= 0):
                self._fail(f"counters entries are (rank or card, points >= 0), not {_show(item)} (T-12)")
            if item[1] > POINTS_LIMIT:
                self._fail(f"counters: a card is worth 0..{POINTS_LIMIT} points (the engine's limit), "
                           f"not {item[1]} for {_show(item[0])} (T-12)")
            key = item[0]
            if isinstance(key, int) and not isinstance(key, bool):
                if key not in self.ranks:
                    self._fail(f"counter rank {key} is not in the deck (T-12)")
            else:
                try:
                    c = parse_card(key)  # type: ignore[arg-type]
                except NotationError as e:
                    self._fail(f"counters: {e} (T-12)")
                if c.is_bird and not self.bird:
                    self._fail("the bird is a counter but the deck has no bird (T-12)")
                if not self._compute_deck_mask() >> c & 1:
                    self._fail(f"counter card {c} is not in the deck (T-12)")
            # one worth per rank and per card: a card's own entry may override its rank's
            if key in keys:
                self._fail(f"counters give {_show(key)} twice; give each rank or card one worth (T-12)")
            keys.add(key)
        if self.max_bid > self.total_points:
            self._fail(f"max_bid {self.max_bid} is more than the {self.total_points} points "
                       f"a hand holds (T-3, T-14)")
        self._validate_engine_limits()

    def _validate_engine_limits(self) -> None:
        """What every part of the engine can play: the deck's worths, the
        size of the trump suit and the points of a hand (see SUIT_LIMIT and
        the others above)."""
        points = self._compute_points_table()
        worths = {p for p in points if p}
        if len(worths) > WORTHS_LIMIT:
            self._fail(f"counters give the cards {len(worths)} different worths; the engine keeps at "
                       f"most {WORTHS_LIMIT} (T-12)")
        deck = self._compute_deck_mask()
        special = sum(1 << parse_card(t) for t in self.permanent_trumps) | (1 << BIRD if self.bird else 0)
        for color in range(L.N_COLORS):
            n = ((deck & L.BB_COLORS[color]) | special).bit_count()
            if n > SUIT_LIMIT:
                self._fail(f"with {L.COLOR_LETTERS[color]} trump the trump suit holds {n} cards; the engine "
                           f"plays suits of at most {SUIT_LIMIT} (C-3, T-10)")
        if self.total_points > SOLVER_POINTS_LIMIT:
            self._fail(f"a hand holds {self.total_points} points; the engine counts at most "
                       f"{SOLVER_POINTS_LIMIT} (T-14)")
        nest = sum(sorted(points, reverse=True)[:self.nest_size]) if self.nest_to == "last_trick" else 0
        if self.last_trick_bonus + nest > SOLVER_END_LIMIT:
            self._fail(f"the last trick can bring {self.last_trick_bonus + nest} points (last_trick_bonus "
                       f"{self.last_trick_bonus} and a nest of up to {nest}); the engine counts at most "
                       f"{SOLVER_END_LIMIT} (T-13)")

    # ----------------------------------------------------------- derivations
    def _rank_value(self, rank: int) -> int:
        """C-4: the rank's place in its color (the 1 ranks above 14 when one_high)."""
        return 15 if (self.one_high and rank == 1) else rank

    def _compute_deck_mask(self) -> int:
        m = 0
        for c in range(L.N_COLORS):
            for r in self.ranks:
                m |= 1 << L.card_id(c, r)
        for t in self.permanent_trumps:
            m |= 1 << parse_card(t)
        if self.bird:
            m |= 1 << BIRD
        return m

    def _compute_points_table(self) -> tuple[int, ...]:
        pts = [0] * 64
        deck = self._compute_deck_mask()
        for key, p in self.counters:
            if isinstance(key, int) and not isinstance(key, bool):
                for c in range(L.N_COLORS):
                    pts[L.card_id(c, key)] = p
        for key, p in self.counters:  # single cards override rank entries
            if not (isinstance(key, int) and not isinstance(key, bool)):
                pts[parse_card(key)] = p  # type: ignore[arg-type]
        return tuple(p if deck >> i & 1 else 0 for i, p in enumerate(pts))

    def _compute_strength_table(self) -> tuple[int, ...]:
        """C-4, T-11: each card's order within its color, the bird and
        permanent trumps placed in the trump order.  Doubled ranks leave room
        for a half-rank bird; the bird sits at 0 (low) or 31 (high), the
        permanent trumps at 40 and up."""
        s = [0] * 64
        for c in range(L.N_COLORS):
            for r in range(L.MIN_RANK, L.MAX_RANK + 1):
                s[L.card_id(c, r)] = 2 * self._rank_value(r)
        if self.bird:
            br = self.bird_rank
            s[BIRD] = 31 if br == "high" else 0 if br == "low" else int(round(2 * float(br)))  # type: ignore[arg-type]
        n = len(self.permanent_trumps)
        for i, t in enumerate(self.permanent_trumps):
            s[parse_card(t)] = 40 + (n - i)
        return tuple(s)

    @property
    def deck_mask(self) -> int:
        """C-3: the mask of every card in the deck."""
        return int(self._derived["deck_mask"])

    @property
    def deck_size(self) -> int:
        """C-3, T-2: the number of cards in the deck.  A permanent trump that
        the ranks already hold (``R5`` with ranks 5-14) is one card, not two."""
        mask = self._derived.get("deck_mask")
        return int(mask if mask is not None else self._compute_deck_mask()).bit_count()

    @property
    def points_table(self) -> tuple[int, ...]:
        """T-12: points of each card id (0 for cards not in the deck)."""
        return tuple(self._derived["points_table"])

    @property
    def counters_mask(self) -> int:
        """T-12: the mask of the cards worth points."""
        return int(self._derived["counters_mask"])

    @property
    def strength_table(self) -> tuple[int, ...]:
        """C-4: order of each card id within its color (bird: within trump)."""
        return tuple(self._derived["strength_table"])

    @property
    def special_trumps_mask(self) -> int:
        """T-10: cards that are trump whatever the trump color (the bird, permanent trumps)."""
        m = 1 << BIRD if self.bird else 0
        for t in self.permanent_trumps:
            m |= 1 << parse_card(t)
        return m

    @property
    def total_points(self) -> int:
        """T-14: the points one hand holds (counters, last-trick and most-tricks bonus)."""
        pts = self._derived.get("points_table") or self._compute_points_table()
        return sum(pts) + self.last_trick_bonus + self.most_tricks_bonus

    def card_points(self, card: int | str) -> int:
        """T-12: the points a card is worth in this variant."""
        return self.points_table[parse_card(card) if isinstance(card, str) else Card(card)]

    # ------------------------------------------------------------- building
    @classmethod
    def from_preset(cls, name: str, **changes: Any) -> Variant:
        """Return a preset with some fields changed (validated again).

        :raises VariantError: for an unknown preset or field.
        """
        base = get_preset(name)
        if not changes:
            return base
        return base.replace(**changes)

    def replace(self, **changes: Any) -> Variant:
        """Return a copy with ``changes`` applied and validated.

        :raises VariantError: for an unknown field or a configuration that breaks a rule.
        """
        names = {f.name for f in dataclasses.fields(self) if f.init}
        bad = sorted(set(changes) - names)
        if bad:
            raise VariantError(f"unknown variant field(s): {', '.join(bad)}")
        if "name" not in changes:
            changes["name"] = self.name + "*"
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as JSON-ready data."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            v = getattr(self, f.name)
            if isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], complete: bool = False) -> Variant:
        """Return the variant described by ``data`` (the output of :meth:`to_dict`).

        A ``"preset"`` key starts from that preset; changed, it is named as
        :meth:`replace` names it (``tournament*``) unless ``name`` is given,
        so that its name does not claim the preset it differs from.  With ``complete`` (a
        variant read from a document: FORMATS.md's "a whole variant"), an
        object without a preset must give every field that says how the game
        is played; the house-rule fields added since (off unless given) and
        the names may be left out.

        :raises VariantError: for unknown or missing fields or values that break a rule.
        """
        if not isinstance(data, Mapping):
            raise VariantError(f"a variant must be an object, not {_show(data)}")
        d = dict(data)
        base = get_preset(d.pop("preset")) if "preset" in d else None
        names = {f.name for f in dataclasses.fields(cls) if f.init}
        bad = sorted(str(k)[:40] for k in set(d) - names)
        if bad:
            raise VariantError(f"unknown variant field(s): {', '.join(bad)}")
        if complete and base is None:
            missing = sorted(names - _LATER_FIELDS - set(d))
            if missing:
                shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
                raise VariantError(f"a variant object gives every field of the game, as Variant.to_dict() "
                                   f"writes it, or a 'preset' to start from; missing: {shown}")
        if base is not None:
            v = dataclasses.replace(base, **d)
            if "name" not in d and v != base:   # a changed preset is not that preset (as replace())
                v = dataclasses.replace(v, name=base.name + "*")
            return v
        return cls(**d)


def _card_text(text: object) -> object:
    """A card's text in its FORMATS.md spelling (``r1`` is ``R1``, ``Crow`` is
    ``Rook``), so that a variant compares by the cards it names; anything
    else is left for the checks to refuse."""
    if isinstance(text, str):
        try:
            return str(parse_card(text))
        except NotationError:
            pass
    return text


def _checked_init(init: Any) -> Any:
    """Variant's constructor, refusing an unknown field or a positional value too
    many with a VariantError (as :meth:`Variant.replace` does), not a TypeError."""
    names = [f.name for f in dataclasses.fields(Variant) if f.init]

    @functools.wraps(init)
    def __init__(self: Variant, *args: Any, **changes: Any) -> None:
        bad = sorted(str(k)[:40] for k in changes if k not in names)
        if bad:
            raise VariantError(f"unknown variant field(s): {', '.join(bad)}")
        if len(args) > len(names):
            raise VariantError(f"a variant has {len(names)} fields, not {len(args)}")
        twice = sorted(set(names[:len(args)]) & set(changes))
        if twice:
            raise VariantError(f"variant field(s) given twice: {', '.join(twice)}")
        init(self, *args, **changes)

    return __init__


Variant.__init__ = _checked_init(Variant.__init__)  # type: ignore[method-assign]


_TOURNAMENT = Variant(name="tournament", deck_name="tournament-41")

PRESETS: dict[str, Variant] = {
    # Seed 000.
    "partnership-57": Variant(
        name="partnership-57", deck_name="full-57", ranks=tuple(range(1, 15)), bird=True,
        one_high=False, bird_rank="high", hand_size=14, nest_size=1, min_bid=70, bid_step=5,
        max_bid=200, jump_bids=False, opener_must_bid=True,
        post_bid_order=("trump", "nest", "pass"), nest_exchange="swap_one", pass_cards=3,
        bird_anytime=False, must_trump=True,
        counters=((1, 15), (5, 5), (10, 10), (14, 10), ("Rook", 20)), last_trick_bonus=20,
        made_scores="points", set_loses="points", target=500),
    # Seed 002.
    "tournament": _TOURNAMENT,
    # Seed 003.
    "crowsnest": _TOURNAMENT.replace(name="crowsnest", bird_rank="low", made_scores="bid"),
    "crowsnest-100": _TOURNAMENT.replace(
        name="crowsnest-100", deck_name="tournament-40", bird=False, bird_rank=None,
        bird_anytime=False, nest_size=4, max_bid=100, counters=((5, 5), (10, 10), (14, 10)),
        made_scores="bid"),
    # Section 4.
    "kentucky-discard-original": _TOURNAMENT.replace(
        name="kentucky-discard-original", deck_name="tournament-40", bird=False,
        bird_rank=None, bird_anytime=False, nest_size=4, max_bid=100,
        counters=((5, 5), (10, 10), (14, 10))),
    "red-one": _TOURNAMENT.replace(
        name="red-one", deck_name="red-one-42", permanent_trumps=("R1",), nest_size=6,
        max_bid=150, counters=((5, 5), (10, 10), (14, 10), ("Rook", 20), ("R1", 30))),
    "buckeye": _TOURNAMENT.replace(
        name="buckeye", deck_name="buckeye-45", ranks=(1,) + tuple(range(5, 15)), one_high=True,
        hand_size=10, max_bid=180, counters=((1, 15), (5, 5), (10, 10), (14, 10), ("Rook", 20))),
    "kentucky-rook": _TOURNAMENT.replace(
        name="kentucky-rook", deck_name="kentucky-45", ranks=(1,) + tuple(range(5, 15)),
        one_high=True, hand_size=10, min_bid=100, max_bid=180, stick_the_dealer=True,
        counters=((1, 15), (5, 5), (10, 10), (14, 10), ("Rook", 20))),
    "dixie": _TOURNAMENT.replace(
        name="dixie", deck_name="dixie-56", ranks=tuple(range(1, 15)), bird=False,
        bird_rank=None, bird_anytime=False, hand_size=13, nest_size=4, max_bid=120,
        counters=((5, 5), (10, 10), (13, 10)), most_tricks_bonus=20),
    # Section 4.1: the popular 180-point house game.
    "house-180": Variant(
        name="house-180", deck_name="full-57", ranks=tuple(range(1, 15)), bird=True,
        one_high=False, bird_rank="low", hand_size=13, nest_size=5, min_bid=100, bid_step=5,
        max_bid=150, jump_bids=True, dealer_takes_minimum=True,
        post_bid_order=("nest", "trump", "discard"), discard_counters=False,
        discard_trump_counters=True, exposed_nest=True, first_lead="declarer", nest_to="declarer",
        bird_anytime=False, must_trump=False,
        counters=((1, 15), (5, 5), (10, 10), (14, 10), ("Rook", 20)), last_trick_bonus=0,
        made_scores="points", set_loses="bid", moon_score=360, target=500),
}
SEED_PRESETS = ("partnership-57", "tournament", "crowsnest", "crowsnest-100")


def get_preset(name: str) -> Variant:
    """Return the preset called ``name``.

    :raises VariantError: listing the known presets.
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise VariantError(f"unknown preset {_show(name)}; known: {', '.join(PRESETS)}") from None


def as_variant(variant: Variant | str) -> Variant:
    """Return ``variant`` itself, or the preset it names.

    :raises VariantError: for an unknown preset.
    """
    return variant if isinstance(variant, Variant) else get_preset(variant)
