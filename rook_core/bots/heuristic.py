"""A rule-of-thumb player for every phase of every trick-taking preset.

:class:`HeuristicAgent` sees only its seat's observation (T-15) and plays
the way a careful club player would:

* **Bidding** (T-3 .. T-5): it values the hand for its best trump as a sum
  of many small parts (trump length, top trumps, the bird, side-suit
  winners, counters, voids) and bids up to that estimate, raising by the
  smallest step.  No single card carries the hand, so one strong card does
  not make it over-bid.  A bid from its partner adds a little.
* **Nest** (T-20, T-21): it keeps its trumps and winners and throws the
  low cards of its short suits, to make voids it can trump into.
* **Trump** (T-7): the color that values the hand highest.
* **Passing** (T-22, ``partnership-57``): the three cards least useful to
  the opponent on its right: low, no counters, no trumps.
* **Play** (T-8 .. T-11): as declarer's side it draws trumps with its
  master trumps; it cashes winners; when its partner is sure to win a trick
  it feeds counters; it wins an opponent's trick as cheaply as it can, but
  only with a card that will not be beaten later in the trick; it holds the
  bird for a trick worth at least ``bird_threshold`` points; otherwise it
  throws its cheapest card.

It is deterministic: the same observation gives the same action.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from numbers import Integral
from typing import Any

from .. import _layout as L
from .._native import rules_for
from ..actions import BID, PASS, TRUMP
from ..cards import iter_bits
from ..errors import RookError, int_arg
from ..rng import check_agent_seed
from ..variant import Variant
from .knowledge import Knowledge, agent_variant, read_observation

__all__ = ["HeuristicAgent", "hand_estimate", "estimate_units"]


def _top_of(mask: int, strength: tuple[int, ...]) -> int:
    return max(iter_bits(mask), key=lambda c: strength[c])


def _low_of(mask: int, strength: tuple[int, ...]) -> int:
    return min(iter_bits(mask), key=lambda c: strength[c])


@functools.lru_cache(maxsize=32)
def _stronger_masks(variant: Variant) -> tuple[int, ...]:
    """For each card id, the mask of the deck's cards of its color that are
    stronger (made once per variant: agents are made per game)."""
    st = variant.strength_table
    return tuple(sum(1 << o for o in iter_bits(variant.deck_mask & L.BB_COLORS[c >> 4]) if st[o] > st[c])
                 for c in range(64))


def estimate_units(variant: Variant, hand: int, trump: int) -> int:
    """Return :func:`hand_estimate` in hundredths of a point, computed in
    integers (so that the native twin in ``src/rook/heuristic.c`` gives the
    same number).

    :raises RookError: for a hand that is no mask of the variant's cards, or a trump that is no color 0..3."""
    variant = agent_variant(variant)
    mask = -1 if isinstance(hand, bool) or not isinstance(hand, Integral) else int(hand)
    if mask < 0 or mask & ~variant.deck_mask:
        raise RookError(f"hand must be a mask of the cards of {variant.name!r}, not {hand!r}")
    if isinstance(trump, bool) or not isinstance(trump, Integral):
        raise RookError(f"trump must be a color 0..3, not {trump!r}")
    hand, trump = mask, int(trump)
    rules = rules_for(variant)
    strength = variant.strength_table
    points = variant.points_table
    tm = rules.trump_mask(trump) & variant.deck_mask
    trumps = hand & tm
    n_trump = trumps.bit_count()
    # the top cards of the trump suit, strongest first
    order = sorted(iter_bits(tm), key=lambda c: -strength[c])
    top_held = sum(1 for c in order[:4] if trumps >> c & 1)
    tricks = 90 * top_held + 45 * (n_trump - top_held)     # hundredths of a trick
    if n_trump >= 5:
        tricks += 40 * (n_trump - 4)
    for color in range(L.N_COLORS):
        if color == trump:
            continue
        side = variant.deck_mask & L.BB_COLORS[color] & ~tm
        if not side:
            continue
        mine = hand & side
        run = 0
        for c in sorted(iter_bits(side), key=lambda c: -strength[c]):
            if not mine >> c & 1:
                break
            run += 1
        tricks += 85 * min(run, 2) + 30 * max(0, run - 2)
        n = mine.bit_count()
        if n_trump >= 3 and n <= 1:
            tricks += 35 * (2 - n)
    hs = variant.hand_size
    share = min(100 * hs, 15 * hs + tricks)                 # the share of the points, x 100 hs
    own_counters = sum(points[c] for c in iter_bits(hand))
    return share * variant.total_points * 85 // (100 * hs) + 25 * own_counters


def hand_estimate(variant: Variant, hand: int, trump: int) -> float:
    """Return a rough guess of the points the hand's team takes with ``trump``.

    The guess adds small parts, counted in tricks: trump length, trumps
    among the suit's four top cards, side-suit top cards held in a row from
    the top, and voids or singletons that three trumps can ruff; the
    tricks' share of the hand gives 85% of the variant's total, plus a
    quarter of the counters in the hand.  It is the bidding and
    trump-choice evaluation of :class:`HeuristicAgent`.
    """
    return estimate_units(variant, hand, trump) / 100


class HeuristicAgent:
    """The rule-of-thumb player of the module docstring.

    ``bid_margin`` (whole points, default 0) is added to the hand estimate
    before bidding: negative values bid more cautiously.  ``bird_threshold``
    is the least trick value worth the bird.  Every quantity is an integer,
    so the native twin (``src/rook/heuristic.c``) decides exactly alike.

    :raises RookError: for a variant that is neither a Variant nor a preset's
        name, a seed that is no int, or a margin or threshold that is no int.
    """

    name = "heuristic"

    def __init__(self, variant: Variant, seed: int = 0, bid_margin: int = 0,
                 bird_threshold: int = 15) -> None:
        for name, x in (("bid_margin", bid_margin), ("bird_threshold", bird_threshold)):
            if isinstance(x, bool) or not isinstance(x, int):
                raise RookError(f"{name} must be a whole number, not {x!r}")
        self.variant = variant = agent_variant(variant)
        self.seed = check_agent_seed(seed)
        self.rules = rules_for(variant)
        self.strength = variant.strength_table
        self.points = variant.points_table
        self.bid_margin = bid_margin
        self.bird_threshold = bird_threshold
        # what the nest adds to a declarer's hand, in hundredths of a point
        self._nest_bonus = 200 * (variant.nest_size if variant.nest_exchange == "discard" else 1)
        self._stronger_in_color = _stronger_masks(variant)

    def native_params(self) -> tuple[int, int, int, int]:
        """Return the parameters of the native twin (``rook_heur_params``)."""
        return (self.variant.total_points, self.bid_margin, self.bird_threshold, self._nest_bonus)

    # ----------------------------------------------------------- estimates
    def best_trump(self, hand: int) -> tuple[int, int]:
        """Return the trump color that values ``hand`` highest (the lowest
        color of equal value) and its value in hundredths of a point."""
        values = [estimate_units(self.variant, hand, t) for t in range(L.N_COLORS)]
        best = max(range(L.N_COLORS), key=lambda t: (values[t], -t))
        return best, values[best]

    # ----------------------------------------------------------------- act
    def act(self, observation: Mapping[str, Any]) -> int:
        """Return the action for ``observation`` (which must list legal actions).

        :raises RookError: for an observation of a seat not to move, or of another variant."""
        observation = read_observation(observation, self.variant)
        legal = list(observation.legal_actions or ())
        if len(legal) == 1:
            return legal[0]
        k = Knowledge.from_observation(observation, self.variant)
        phase = observation["phase"]
        if phase == "bid":
            return self._bid(observation, k, legal)
        if phase == "trump":
            return TRUMP + self.best_trump(k.hand)[0]
        if phase == "nest":
            return self._discard(k, legal)
        if phase == "pass":
            return self._pass(k, legal)
        return self._play(k, legal)

    def _bid(self, obs: Mapping[str, Any], k: Knowledge, legal: list[int]) -> int:
        """The lowest legal bid when the seat must bid (T-6) or would make it
        (:meth:`_would_bid`), else a pass; a pass when no bid is left."""
        bids = sorted(a for a in legal if a > BID)
        if PASS not in legal:
            return bids[0]                       # T-6: the opener must bid
        if not bids:
            return PASS
        return bids[0] if self._would_bid(obs, k, bids[0] - BID) else PASS

    def bid_value(self, hand: int, partner_bid: bool) -> int:
        """Return what the bidder reckons ``hand`` is worth, in hundredths of a
        point: the estimate with its best trump, the nest, the margin, and
        more when the partner has bid (T-3); it bids up to this."""
        value = self.best_trump(hand)[1] + self._nest_bonus + 100 * self.bid_margin
        return value + 8 * self.variant.total_points if partner_bid else value

    def _would_bid(self, obs: Mapping[str, Any], k: Knowledge, bid: int) -> bool:
        """Whether the hand is worth ``bid`` (:meth:`bid_value`)."""
        partner_bid = any(s == k.partner and b is not None for s, b in obs["bids"])
        return 100 * bid <= self.bid_value(k.hand, partner_bid)

    def _keep_score(self, k: Knowledge, card: int, trump: int) -> int:
        """How much the declarer wants to keep ``card`` when ``trump`` will be trump."""
        s = self.strength[card]
        tm = self.rules.trump_mask(trump)
        if (tm >> card) & 1:
            return 200 + 2 * s
        side = self.variant.deck_mask & L.BB_COLORS[card >> 4] & ~tm
        mine = k.hand & side
        master = not self._stronger_in_color[card] & side & ~mine   # every stronger card of the suit is ours
        score = s
        if master:
            score += 80
        elif mine.bit_count() <= 2:
            score -= 16
        return score

    def _discard(self, k: Knowledge, legal: list[int], trump: int | None = None) -> int:
        if trump is None:
            trump = k.trump if k.trump is not None else self.best_trump(k.hand)[0]
        return min(legal, key=lambda c: (self._keep_score(k, c, trump), -self.points[c], c))

    def discard_for(self, observation: Mapping[str, Any], trump: int) -> int:
        """Return the card to bury next in the nest phase (T-20, T-21) as if
        ``trump`` (0..3) were to be trump: the card least worth keeping."""
        observation = read_observation(observation, self.variant)
        trump = int_arg(trump, "trump must be a color 0..3", 0, L.N_COLORS - 1)
        legal = list(observation.legal_actions or ())
        return self._discard(Knowledge.from_observation(observation, self.variant), legal, trump)

    def _pass(self, k: Knowledge, legal: list[int]) -> int:
        tm = self.rules.trump_mask(k.trump) if k.trump is not None else 0

        def gift(c: int) -> tuple[int, int, int]:
            return (100 if tm >> c & 1 else 0) + 3 * self.points[c] + self.strength[c], 0, c
        return min(legal, key=gift)

    # ---------------------------------------------------------------- play
    def _others(self, k: Knowledge) -> int:
        """Cards that may lie in another hand (or the hidden nest)."""
        return self.variant.deck_mask & ~k.hand & ~k.played & ~k.known.get("nest", 0)

    def _is_master(self, k: Knowledge, card: int) -> bool:
        """Whether no card still out of sight beats ``card`` within its suit."""
        suit = k.suit_cards(k.suit_of(card))
        s = self.strength[card]
        return not any(self.strength[c] > s for c in iter_bits(self._others(k) & suit))

    def _play(self, k: Knowledge, legal: list[int]) -> int:
        assert k.trump is not None
        st = self.strength
        pts = self.points
        tm = self.rules.trump_mask(k.trump)
        legal_mask = sum(1 << c for c in legal)
        if not k.trick:
            return self._lead(k, legal_mask, tm)
        cards = [c for _, c in k.trick]
        win = self.rules.trick_winner(cards, k.trump)
        partner_winning = k.trick[win][0] == k.partner
        last = len(cards) == 3
        on_table = sum(pts[c] for c in cards)
        safe = last or (self._is_master(k, cards[win])
                        and bool(tm >> cards[win] & 1 or not self._trumpable(k, cards)))
        if partner_winning and safe:
            feed = [c for c in legal if pts[c] and not tm >> c & 1 and not self._is_master(k, c)]
            if feed:
                return max(feed, key=lambda c: (pts[c], -st[c]))
            return self._cheapest(legal, tm)
        winners = [c for c in legal if self.rules.trick_winner(cards + [c], k.trump) == len(cards)]
        if not last:       # only a card that nobody after us can beat
            winners = [c for c in winners if self._is_master(k, c)
                       and bool(tm >> c & 1 or not self._trumpable(k, cards))]
        winners = [c for c in winners if c != L.BIRD or on_table + pts[c] >= self.bird_threshold]
        if winners:
            cheapest = min(winners, key=lambda c: (bool(tm >> c & 1), c == L.BIRD, st[c]))
            if on_table > 0 or not tm >> cheapest & 1 or not last:
                return cheapest
        return self._cheapest(legal, tm)

    def _trumpable(self, k: Knowledge, cards: list[int]) -> bool:
        """Whether a seat still to play may trump this non-trump trick."""
        assert k.trump is not None
        led = cards[0]
        follow = k.suit_cards(k.suit_of(led))
        tm = self.rules.trump_mask(k.trump)
        if not self._others(k) & tm:
            return False
        n = len(k.trick)
        for i in range(n, 4):
            s = (k.trick[0][0] + i) % 4
            if s == k.seat:
                continue
            if k.lacks[s] & follow & self._others(k) == follow & self._others(k):
                return True        # known void in the led suit
        return False

    def _cheapest(self, legal: list[int], tm: int) -> int:
        return min(legal, key=lambda c: (c == L.BIRD, bool(tm >> c & 1), self.points[c], self.strength[c]))

    def _lead(self, k: Knowledge, hand: int, tm: int) -> int:
        st = self.strength
        others = self._others(k)
        my_trumps = hand & tm
        we_declare = k.declarer is not None and (k.declarer & 1) == k.team
        if my_trumps and others & tm and we_declare:
            top = _top_of(my_trumps, st)
            if self._is_master(k, top) and (top != L.BIRD or (my_trumps.bit_count() == 1)):
                return top
        side = hand & ~tm
        masters = [c for c in iter_bits(side) if self._is_master(k, c)]
        if masters:
            return max(masters, key=lambda c: (self.points[c], st[c]))
        if side:
            # low from the longest side suit, counters kept
            by_color = [(hand & ~tm & L.BB_COLORS[col]).bit_count() for col in range(L.N_COLORS)]
            pool = [c for c in iter_bits(side) if not self.points[c]] or list(iter_bits(side))
            return min(pool, key=lambda c: (-by_color[c >> 4], st[c]))
        non_bird = my_trumps & ~(1 << L.BIRD)
        return _low_of(non_bird or my_trumps, st)
