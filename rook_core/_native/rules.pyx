# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled rules of a variant and the raw trick kernels over masks.

This module is the boundary: :class:`Rules` turns a Python ``Variant`` into
the plain ``rook_rules`` table of ``src/rook/rules.h``, and the functions
below validate their arguments and call the C kernels (``rook_legal_mask``,
``rook_trick_winner``, ``rook_points``).  Inner C code trusts its inputs.
"""

from libc.stdint cimport uint8_t, int32_t, uint64_t, int64_t
from rook_core._native.crook cimport (
    rook_legal_mask, rook_trick_winner, rook_points, rook_random_hands_with,
    rook_playout_kernels,
    rook_trump_mask, rook_follow_mask, rook_rules_finish, rook_hand_score,
)
from rook_core._native.layout cimport ROOK_NO_CARD, ROOK_PH_NEST, ROOK_PH_PASS, ROOK_PH_TRUMP

from rook_core.errors import NotationError, RookError, VariantError

_STEP_CODES = {"nest": ROOK_PH_NEST, "trump": ROOK_PH_TRUMP, "pass": ROOK_PH_PASS}
_CACHE = {}
RULES_KEPT = 512     # the most variants whose rules rules_for keeps


cdef class Rules:
    """The native rule table of one :class:`~rook_core.variant.Variant` (use :func:`rules_for`)."""

    def __init__(self, variant):
        cdef int i, g
        self.variant = variant
        r = &self.r
        r.deck = variant.deck_mask
        r.special_trumps = variant.special_trumps_mask
        r.anytime = (1 << 15) if variant.bird_anytime else 0
        pts = variant.points_table
        values = sorted({p for p in pts if p})
        if len(values) > 8:
            raise VariantError(f"variant {variant.name!r}: at most 8 distinct counter values (T-12)")
        r.n_counter_groups = len(values)
        r.counters = 0
        for g in range(8):
            r.counter_masks[g] = 0
            r.counter_values[g] = 0
        for g, v in enumerate(values):
            r.counter_values[g] = v
            for i in range(64):
                if pts[i] == v:
                    r.counter_masks[g] |= (<uint64_t>1) << i
                    r.counters |= (<uint64_t>1) << i
        st = variant.strength_table
        for i in range(64):
            r.strength[i] = st[i]
        r.must_trump = variant.must_trump
        r.hand_size = variant.hand_size
        r.nest_size = variant.nest_size
        r.jump_bids = variant.jump_bids
        r.min_bid = variant.min_bid
        r.bid_step = variant.bid_step
        r.max_bid = variant.max_bid
        r.opener_must_bid = variant.opener_must_bid
        r.stick_the_dealer = variant.stick_the_dealer
        r.dealer_takes_minimum = variant.dealer_takes_minimum
        # H-3: ("nest", "trump", "discard") takes the nest as the bidding ends,
        # then plays the steps trump and nest (the discard)
        steps = list(variant.post_bid_order)
        r.take_nest_first = "discard" in steps
        if r.take_nest_first:
            steps.remove("nest")
            steps[steps.index("discard")] = "nest"
        r.n_post_bid = len(steps)
        for i, step in enumerate(steps):
            r.post_bid[i] = _STEP_CODES[step]
        r.discard_counters = variant.discard_counters
        r.discard_trump_counters = variant.discard_trump_counters
        r.exposed_nest = variant.exposed_nest
        r.pass_cards = variant.pass_cards
        r.first_lead_declarer = variant.first_lead == "declarer"
        r.nest_to_declarer = variant.nest_to == "declarer"
        r.made_scores_bid = variant.made_scores == "bid"
        r.set_loses_points = variant.set_loses == "points"
        r.last_trick_bonus = variant.last_trick_bonus
        r.most_tricks_bonus = variant.most_tricks_bonus
        r.penalty_points = variant.penalty_points
        r.moon_score = variant.moon_score
        rook_rules_finish(r)

    def __repr__(self):
        return f"Rules({self.variant.name!r})"

    def __reduce__(self):
        # (a table built from its variant alone: copies and pickles rebuild it,
        # so whatever holds one -- a bot, an environment -- copies and pickles)
        return rules_for, (self.variant,)

    def legal_mask(self, uint64_t hand, int led, int trump):
        """Return the mask of legal cards of ``hand`` when ``led`` (a card id, or
        -1 when leading) began the trick and ``trump`` (0..3) is trump (T-9, T-10).

        :raises NotationError: for a card id or color out of range.
        """
        _check_trump(trump)
        if led == -1:
            led = ROOK_NO_CARD
        elif not 0 <= led < 64 or not (self.r.deck >> led) & 1:
            raise NotationError(f"led card id {led} is not in the deck", led)
        return rook_legal_mask(&self.r, hand & self.r.deck, led, trump)

    def trick_winner(self, cards, int trump):
        """Return the index of the winning card of ``cards`` (1..4 card ids, the
        led card first) with ``trump`` named (T-11).

        :raises NotationError: for an empty or too long trick or a card not in the deck.
        """
        cdef uint8_t buf[4]
        cdef int n = len(cards), i
        _check_trump(trump)
        if not 1 <= n <= 4:
            raise NotationError(f"a trick holds 1 to 4 cards, not {n}", cards)
        for i in range(n):
            c = cards[i]
            if not 0 <= c < 64 or not (self.r.deck >> c) & 1:
                raise NotationError(f"card id {c} is not in the deck", c)
            buf[i] = c
        return rook_trick_winner(&self.r, buf, n, trump)

    def points(self, uint64_t mask):
        """Return the counter points of the cards in ``mask`` (T-12)."""
        return rook_points(&self.r, mask)

    def hand_score(self, int declarer, int bid, points):
        """Return the two teams' scores of a hand that seat ``declarer`` won
        at ``bid`` and whose teams took ``points`` (T-30 .. T-32, H-1): the
        engine's own scoring (``rook_hand_score``), for bots that weigh a
        card by what the hand will score.

        :raises RookError: for a seat out of range or points that are not two ints.
        """
        cdef int32_t p[2]
        cdef int32_t out[2]
        if not 0 <= declarer < 4:
            raise RookError(f"declarer must be a seat 0..3, not {declarer}")
        try:
            a, b = points
            p[0] = a
            p[1] = b
        except (TypeError, ValueError, OverflowError):
            raise RookError(f"points must be two ints, not {points!r}") from None
        rook_hand_score(&self.r, declarer & 1, bid, p, out)
        return (out[0], out[1])

    def trump_mask(self, int trump):
        """Return the mask of the cards that are trump when ``trump`` is named (T-10)."""
        _check_trump(trump)
        return rook_trump_mask(&self.r, trump)

    def suit_mask(self, int card, int trump):
        """Return the cards that play as one suit with ``card`` when ``trump``
        is named: every trump for a trump, else its color's other cards (T-10).

        :raises NotationError: for a card not in the deck or a color out of range.
        """
        _check_trump(trump)
        if not 0 <= card < 64 or not (self.r.deck >> card) & 1:
            raise NotationError(f"card id {card} is not in the deck", card)
        return rook_follow_mask(&self.r, card, trump) & self.r.deck

    def strength(self, int card):
        """Return the order of ``card`` within its suit (C-4): of two cards of
        one suit the stronger wins a trick.

        :raises NotationError: for a card not in the deck.
        """
        if not 0 <= card < 64 or not (self.r.deck >> card) & 1:
            raise NotationError(f"card id {card} is not in the deck", card)
        return self.r.strength[card]

    def random_hands(self, int trump, uint64_t seed, int64_t first, int32_t[:, ::1] out,
                     int kernel=0):
        """Fill ``out[i] = (team 0 points, team 1 points)`` for random hands
        ``first .. first+len(out)-1`` of stream ``seed``; releases the GIL.

        Each hand is dealt, then played to the end with uniformly random legal
        cards under a fixed ``trump`` (see src/rook/batch.h).  ``kernel``: 0
        the best this CPU runs, 1 the baseline build, 2 the x86-64-v3 build
        (see :func:`playout_kernels`); all give the same points.
        """
        _check_trump(trump)
        if kernel == 0:
            kernel = rook_playout_kernels()
        if kernel not in (1, 2) or kernel > rook_playout_kernels():
            raise RookError(f"playout kernel {kernel} does not run here "
                            f"(available: 1..{rook_playout_kernels()})")
        if out.shape[1] != 2:
            raise ValueError("out must have shape (n, 2)")
        cdef int64_t n = out.shape[0]
        if n == 0:
            return
        with nogil:
            rook_random_hands_with(kernel, &self.r, trump, seed, first, n, &out[0, 0])


def playout_kernels():
    """Return the best playout kernel this CPU runs: 1 the baseline build, 2 the x86-64-v3 one."""
    return rook_playout_kernels()


def _check_trump(int trump):
    if not 0 <= trump < 4:
        raise NotationError(f"trump must be a color 0..3, not {trump}", trump)


_LAST = (None, None)


def rules_for(variant):
    """Return the (cached) native :class:`Rules` of ``variant``."""
    global _LAST
    last_variant, last_rules = _LAST
    if variant is last_variant:   # the usual case, without hashing the variant's fields
        return last_rules
    r = _CACHE.get(variant)
    if r is None:
        if len(_CACHE) >= RULES_KEPT:
            # the oldest half goes: a program (a server) that reads ever new
            # variants must not keep them all (about 6 KB each); a variant
            # read again is rebuilt (a solver keeps the Rules it searched
            # with alive itself); pop: another thread may be evicting too
            for old in list(_CACHE)[:RULES_KEPT // 2]:
                _CACHE.pop(old, None)
        r = _CACHE[variant] = Rules(variant)
    _LAST = (variant, r)
    return r
