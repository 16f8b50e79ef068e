"""The rules of a hand around its trick play, written out plainly: the
bidding (T-3 .. T-6, section 4's ``stick_the_dealer``, H-2), the discard
(T-20, H-4) and the score (T-30 .. T-32, H-1).

This is the slow twin of the bidding, nest and scoring code of
``src/rook/hand.c``, the oracle of ``tests/test_rules_house.py``; the
product never imports it.  It reads only the plain fields of a
:class:`~rook_core.variant.Variant` (``min_bid``, ``bid_step``, ``max_bid``,
``jump_bids``, ``opener_must_bid``, ``stick_the_dealer``,
``dealer_takes_minimum``, ``counters``, ``discard_counters``,
``discard_trump_counters``, ``made_scores``, ``set_loses``, ``moon_score``)
and the card rules of :mod:`rook_core._reference.tricks`.

The discard is stated as a rule on the whole set of buried cards, as
RULES.md words it; which single card may go next is then derived by search
(:func:`discard_options`): a card may go when some legal set of the cards
still due contains it.  The engine states it card by card, so the two are
not the same code.

>>> from rook_core.variant import PRESETS
>>> a = Auction(PRESETS["house-180"], dealer=0)
>>> for call in ("pass", "pass", "pass"):
...     a = a.call(call)
>>> a.over, a.declarer, a.high_bid
(True, 0, 100)
>>> hand_score(PRESETS["house-180"], declarer=1, bid=120, points=(0, 180))
(0, 360)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from rook_core.variant import Variant

from .tricks import card_value, is_trump

__all__ = ["Auction", "discard_is_legal", "discard_options", "hand_score"]


# ------------------------------------------------------------------ bidding

@dataclass(frozen=True)
class Auction:
    """The bidding of one hand, call by call (T-3 .. T-6).

    ``calls`` holds ``(seat, bid or None for a pass)``.  The first call is by
    the seat left of the dealer (T-3); then clockwise, skipping seats that
    passed (T-4).
    """

    variant: Variant
    dealer: int
    calls: tuple[tuple[int, int | None], ...] = ()

    @property
    def passed(self) -> set[int]:
        return {s for s, b in self.calls if b is None}

    @property
    def high_bid(self) -> int:
        """T-3: the highest bid so far, 0 before the first; H-2: min_bid for a
        dealer left alone with no bid."""
        bids = [b for _, b in self.calls if b is not None]
        if bids:
            return max(bids)
        if self.variant.dealer_takes_minimum and len(self.passed) == 3:
            return self.variant.min_bid
        return 0

    @property
    def declarer(self) -> int | None:
        """T-5: the last bidder; H-2: the dealer after three passes."""
        bidders = [s for s, b in self.calls if b is not None]
        if bidders:
            return bidders[-1]
        if self.variant.dealer_takes_minimum and len(self.passed) == 3:
            return self.dealer
        return None

    @property
    def over(self) -> bool:
        """T-5, T-6: a top bid, one seat left after a bid, or everyone passed.
        H-2: three passes with no bid leave the dealer declaring."""
        if len(self.passed) == 4:
            return True
        if self.high_bid == self.variant.max_bid and self.declarer is not None:
            return True
        return self.declarer is not None and len(self.passed) == 3

    @property
    def thrown_in(self) -> bool:
        """T-6: all four passed without a bid."""
        return len(self.passed) == 4

    @property
    def to_move(self) -> int | None:
        """T-3, T-4: the next seat clockwise that has not passed."""
        if self.over:
            return None
        seat = (self.calls[-1][0] if self.calls else self.dealer) + 1
        while seat % 4 in self.passed:
            seat += 1
        return seat % 4

    def legal(self) -> list[int | None]:
        """The calls the seat to move may make: None (a pass) first, then the
        bids in increasing order."""
        v = self.variant
        if self.over:
            return []
        seat = self.to_move
        high = max((b for _, b in self.calls if b is not None), default=0)
        out: list[int | None] = []
        may_pass = not (high == 0 and v.opener_must_bid)          # T-6, source 000
        if high == 0 and v.stick_the_dealer and seat == self.dealer and len(self.passed) == 3:
            may_pass = False                                       # section 4
        if may_pass:
            out.append(None)
        lowest = high + v.bid_step if high else v.min_bid          # T-3
        for b in range(v.min_bid, v.max_bid + 1, v.bid_step):
            # T-3: without jump bids a raise is one step; the opening bid is any from min_bid
            if b >= lowest and (v.jump_bids or not high or b == lowest):
                out.append(b)
        return out

    def call(self, call: str | int | None) -> Auction:
        """Return the auction after the seat to move calls ``call`` ("pass",
        None, or an amount).

        :raises ValueError: for a call the rules do not allow now.
        """
        bid = None if call is None or call == "pass" else int(call)
        if bid not in self.legal():
            raise ValueError(f"{call!r} is not a legal call now (T-3 .. T-6)")
        seat = self.to_move
        assert seat is not None
        return replace(self, calls=self.calls + ((seat, bid),))


# ------------------------------------------------------------------ discard

def _worth_nothing(v: Variant, card: int) -> bool:
    return card_value(v, card) == 0


def discard_is_legal(variant: Variant, hand: Iterable[int], trump: int | None,
                     buried: Iterable[int]) -> bool:
    """Return whether burying the cards ``buried`` from ``hand`` (the
    declarer's cards with the nest) is allowed (T-20, H-4).

    * With ``discard_counters`` any cards of the hand may go (T-20).
    * Without it, cards worth 0 go: if the hand holds at least as many as are
      due, only they may go; if it holds fewer, all of them go and the rest
      are other cards.
    * With ``discard_trump_counters`` (H-4) that rest must be trump counters
      (the bird included) while the hand holds enough of them; a hand short
      of both buries every card worth 0 and every trump counter, and then
      any cards (a case the house game's deal never makes).
    """
    v = variant
    cards = set(hand)
    gone = set(buried)
    if not gone <= cards:
        return False
    if v.discard_counters:
        return True
    zero = {c for c in cards if _worth_nothing(v, c)}
    if len(zero) >= len(gone):
        return gone <= zero
    if not zero <= gone:
        return False
    if not v.discard_trump_counters:
        return True
    assert trump is not None, "H-4 needs the trump named"
    trump_counters = {c for c in cards if not _worth_nothing(v, c) and is_trump(v, c, trump)}
    if len(zero) + len(trump_counters) >= len(gone):
        return gone - zero <= trump_counters
    return trump_counters <= gone


def discard_options(variant: Variant, hand: Iterable[int], trump: int | None, due: int) -> set[int]:
    """Return the cards of ``hand`` that may be buried next when ``due``
    cards are still to go: those in some legal set of ``due`` cards
    (:func:`discard_is_legal`), found by trying every set."""
    cards = sorted(set(hand))
    out: set[int] = set()
    for buried in combinations(cards, due):
        if not set(buried) <= out and discard_is_legal(variant, cards, trump, buried):
            out.update(buried)
    return out


# ------------------------------------------------------------------ scoring

def hand_score(variant: Variant, declarer: int, bid: int, points: tuple[int, int]) -> tuple[int, int]:
    """Return the two teams' scores for a played hand (T-30 .. T-32, H-1).

    The defenders score their points (T-30).  A declaring team that reached
    its bid scores its points or the bid (T-31, ``made_scores``); one that did
    not loses the bid or its points (T-32, ``set_loses``).  With
    ``moon_score`` set, a team that took every point of the hand scores
    ``moon_score`` instead of all that (H-1).
    """
    v = variant
    team = declarer % 2
    score = [0, 0]
    score[1 - team] = points[1 - team]
    if points[team] >= bid:
        score[team] = bid if v.made_scores == "bid" else points[team]
    else:
        score[team] = -points[team] if v.set_loses == "points" else -bid
    if v.moon_score:
        for t in (0, 1):
            if points[t] > 0 and points[1 - t] == 0:
                score[t] = v.moon_score
    return score[0], score[1]
