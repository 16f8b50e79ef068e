# cython: language_level=3, boundscheck=False, wraparound=False
"""HandState: one trick-taking hand as a native state machine (T-1 .. T-35).

The state is a plain C struct (``rook_hand`` of ``src/rook/hand.h``).  Before
each action the struct is copied onto a snapshot stack, so :meth:`HandState.undo`
restores the previous state exactly and the history of actions is kept beside
it without any Python object per step.  Every public method validates its
input; a refused action raises :class:`~rook_core.errors.IllegalActionError`
citing the rule and leaves the state unchanged.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.string cimport memcpy, memcmp
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int32_t

from rook_core._native.crook cimport (
    rook_hand, rook_rules, rook_rng, rook_rng_seed, rook_hand_init, rook_hand_deal,
    rook_hand_apply, rook_hand_legal, rook_hand_legal_cards, rook_hand_perft, rook_hand_nest_taken,
    rook_trick_winner, rook_follow_mask, rook_legal_mask, rook_points,
    ROOK_N_ACTIONS, ROOK_NO_SEAT, ROOK_PH_PLAY, ROOK_PH_BID, ROOK_PH_DONE,
    ROOK_PH_THROWN_IN, ROOK_PH_NEST, ROOK_PH_PASS, ROOK_PH_TRUMP, ROOK_A_PASS, ROOK_A_BID,
    ROOK_A_TRUMP, ROOK_A_PENALTY,
    ROOK_E_UNKNOWN_ACTION, ROOK_E_WRONG_PHASE, ROOK_E_HAND_OVER, ROOK_E_NOT_IN_HAND,
    ROOK_E_MUST_FOLLOW, ROOK_E_MUST_FOLLOW_TRUMP, ROOK_E_MUST_TRUMP, ROOK_E_BID_BELOW_MIN,
    ROOK_E_BID_ABOVE_MAX, ROOK_E_BID_STEP, ROOK_E_BID_NOT_HIGHER, ROOK_E_BID_JUMP,
    ROOK_E_OPENER_MUST_BID, ROOK_E_DEALER_STUCK, ROOK_E_DISCARD_COUNTER,
)
from rook_core._native.rules cimport Rules

from rook_core._native.rules import rules_for
from rook_core.actions import Phase, action_name, parse_action
from rook_core.cards import CardSet, card_name, color_name, parse_cards, parse_color, Card
from rook_core.errors import IllegalActionError, NotationError, RookError
from rook_core.jsonio import read_object, replay
from rook_core.variant import Variant, get_preset

cdef int N_ACT = ROOK_N_ACTIONS


cdef class HandState:
    """One hand of a trick-taking variant, from the deal to the score.

    >>> from rook_core import HandState
    >>> h = HandState.deal("tournament", seed=1)
    >>> h.phase.label, h.to_move, len(h.hand(1))
    ('bid', 1, 9)
    >>> h.apply_text("bid 70"); h.to_move
    2
    >>> h.undo(); h.to_move
    1
    """

    def __cinit__(self):
        self.stack = NULL
        self.actions = NULL
        self.n = 0
        self.cap = 0

    def __dealloc__(self):
        PyMem_Free(self.stack)
        PyMem_Free(self.actions)

    # ------------------------------------------------------------ creation
    @staticmethod
    cdef HandState _new(Rules rules, object start):
        cdef HandState s = HandState.__new__(HandState)
        s.rules = rules
        s.start_info = start
        return s

    @classmethod
    def deal(cls, variant, seed=0, dealer=None):
        """Return a new hand dealt from ``seed`` (T-2) by ``dealer``
        (default: the variant's first dealer, T-1).

        :raises VariantError: for an unknown preset name.
        """
        v = _variant(variant)
        if dealer is None:
            dealer = v.first_dealer
        _check_seat(dealer, "dealer")
        cdef Rules rules = rules_for(v)
        cdef rook_rng g
        rook_rng_seed(&g, _seed64(seed))
        cdef HandState s = HandState._new(rules, None)
        rook_hand_deal(&s.h, &rules.r, dealer, &g)
        s.start = s.h
        return s

    @classmethod
    def from_hands(cls, variant, hands, nest=(), dealer=None):
        """Return a hand at the start of bidding with the given cards dealt.

        :raises NotationError: naming a bad, foreign or repeated card.
        :raises RookError: for hand sizes that do not fit the variant (T-2).
        """
        v = _variant(variant)
        if dealer is None:
            dealer = v.first_dealer
        _check_seat(dealer, "dealer")
        cdef Rules rules = rules_for(v)
        cdef uint64_t masks[4]
        if isinstance(hands, (str, bytes)) or len(hands) != 4:
            raise RookError("hands must be a list of 4 hands (T-2)")
        seen = 0
        for s in range(4):
            m = parse_cards(hands[s], deck_mask=v.deck_mask, what=f"hand {s}")
            if m & seen:
                raise NotationError(f"hand {s} repeats a card of another hand: "
                                    f"{CardSet(m & seen)}", str(CardSet(m & seen)))
            if m.bit_count() != v.hand_size:
                raise RookError(f"hand {s} has {m.bit_count()} cards, the variant deals "
                                f"{v.hand_size} (T-2)")
            seen |= m
            masks[s] = m
        nm = parse_cards(nest, deck_mask=v.deck_mask, what="nest")
        if nm & seen:
            raise NotationError(f"the nest repeats a dealt card: {CardSet(nm & seen)}",
                                str(CardSet(nm & seen)))
        if nm.bit_count() != v.nest_size:
            raise RookError(f"the nest has {nm.bit_count()} cards, the variant puts "
                            f"{v.nest_size} there (T-2)")
        cdef HandState st = HandState._new(rules, None)
        rook_hand_init(&st.h, &rules.r, dealer, masks, nm)
        st.start = st.h
        return st

    @classmethod
    def from_position(cls, position):
        """Return the play-phase state of a FORMATS.md trick-play position
        (a dict or its JSON text).

        :raises PositionError: saying which field is inconsistent.
        """
        from rook_core.position import parse_position
        p = parse_position(position)
        v = p.variant
        cdef Rules rules = rules_for(v)
        cdef HandState st = HandState._new(rules, None)
        cdef uint64_t masks[4]
        cdef int i
        for i in range(4):
            masks[i] = p.hands[i]
        rook_hand_init(&st.h, &rules.r, (p.leader + 3) % 4, masks, 0)
        st.h.phase = ROOK_PH_PLAY
        st.h.trump = p.trump
        st.h.leader = p.leader
        st.h.trick_n = len(p.trick)
        for i, c in enumerate(p.trick):
            st.h.trick[i] = c
            st.h.played |= (<uint64_t>1) << c
        st.h.to_move = (p.leader + len(p.trick)) % 4
        st.h.nest_points = p.nest_points
        st.h.points[0] = p.taken[0]
        st.h.points[1] = p.taken[1]
        st.h.tricks_done = v.hand_size - (p.hands[p.leader].bit_count() + (1 if p.trick else 0))
        won = p.tricks_won()
        st.h.tricks_won[0] = won[0]
        st.h.tricks_won[1] = won[1]
        st.start_info = p
        st.start = st.h
        return st

    @classmethod
    def from_json(cls, data):
        """Return the state that :meth:`to_json` wrote (a dict or JSON text).

        :raises RookError: for a malformed document or an action the rules refuse.
        """
        data = read_object(data, "hand JSON", ("format", "variant", "start", "actions", "summary"),
                           ("variant", "start", "actions"))
        v = data["variant"]
        if isinstance(v, dict):
            v = Variant.from_dict(v)
        start = data["start"]
        if not isinstance(start, dict) or len(start) != 1:
            raise RookError("hand JSON 'start' must be {'deal': ...} or {'position': ...}")
        if "deal" in start:
            d = start["deal"]
            if not isinstance(d, dict) or set(d) != {"dealer", "hands", "nest"}:
                raise RookError("hand JSON 'start.deal' needs exactly dealer, hands, nest")
            st = cls.from_hands(v, d["hands"], d["nest"], d["dealer"])
        elif "position" in start:
            pos = dict(start["position"])
            st = cls.from_position(pos)
        else:
            raise RookError("hand JSON 'start' must be {'deal': ...} or {'position': ...}")
        replay(st, data["actions"], "hand JSON")
        return st

    cdef dict _start_dict(self):
        """The start of this hand: the deal, or the position it was built from."""
        if self.start_info is not None:
            return {"position": self.start_info.to_dict()}
        return {"deal": {"dealer": self.start.dealer,
                         "hands": [CardSet(self.start.hands[i]).names() for i in range(4)],
                         "nest": CardSet(self.start.nest).names()}}

    # --------------------------------------------------------------- copies
    cdef void _grow(self) except *:
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 64
        cdef rook_hand *ns = <rook_hand *>PyMem_Realloc(self.stack, cap * sizeof(rook_hand))
        if ns == NULL:
            raise MemoryError()
        self.stack = ns
        cdef uint16_t *na = <uint16_t *>PyMem_Realloc(self.actions, cap * sizeof(uint16_t))
        if na == NULL:
            raise MemoryError()
        self.actions = na
        self.cap = cap

    cpdef HandState clone(self):
        """Return an independent copy (history and undo included)."""
        cdef HandState c = HandState._new(self.rules, self.start_info)
        c.h = self.h
        c.start = self.start
        while c.cap < self.n:
            c._grow()
        if self.n:
            memcpy(c.stack, self.stack, self.n * sizeof(rook_hand))
            memcpy(c.actions, self.actions, self.n * sizeof(uint16_t))
        c.n = self.n
        return c

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __eq__(self, other):
        """States are equal when the variant, the start, the history and every
        field of the current state are equal (bit for bit)."""
        if not isinstance(other, HandState):
            return NotImplemented
        cdef HandState o = other
        if o.rules.variant != self.rules.variant or o.n != self.n:
            return False
        if memcmp(&o.h, &self.h, sizeof(rook_hand)) != 0:
            return False
        if memcmp(&o.start, &self.start, sizeof(rook_hand)) != 0:
            return False
        return self.n == 0 or memcmp(o.actions, self.actions, self.n * sizeof(uint16_t)) == 0

    def __hash__(self):
        return hash((self.rules.variant.name, self.n, bytes(self.raw_bytes())))

    def raw_bytes(self):
        """Return the raw bytes of the current C state (for exact comparisons)."""
        return (<char *>&self.h)[:sizeof(rook_hand)]

    # ------------------------------------------------------------- actions
    def legal_actions(self):
        """Return the legal actions of the seat to move, ascending (the T-35
        penalty actions are always allowed but never listed)."""
        cdef uint16_t buf[1100]
        cdef int n = rook_hand_legal(&self.h, &self.rules.r, buf)
        return [buf[i] for i in range(n)]

    def legal_mask(self):
        """Return the mask of legal card actions (0 in the bid and trump phases)."""
        return rook_hand_legal_cards(&self.h, &self.rules.r)

    def legal_cards(self):
        """Return the legal cards as a :class:`CardSet`."""
        return CardSet(rook_hand_legal_cards(&self.h, &self.rules.r))

    def is_legal(self, action):
        """Return whether ``action`` would be accepted now."""
        cdef rook_hand tmp = self.h
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < N_ACT:
            return False
        return rook_hand_apply(&tmp, &self.rules.r, action) == 0

    cpdef apply(self, object action, object seat=None):
        """Apply ``action`` (an int of the action space, rook_core.actions);
        ``seat``, when given, must be the seat to move.

        :raises IllegalActionError: why, citing the rule; the state is unchanged.
        """
        cdef int err
        cdef int a
        try:
            if not isinstance(action, int):
                raise TypeError
            a = action
        except (TypeError, OverflowError):
            raise IllegalActionError(
                f"{action!r} is not an action: actions are ints 0..{N_ACT - 1} "
                f"(use apply_text for text)", action=None) from None
        if seat is not None and seat != self.h.to_move:
            self._raise_seat(seat, a)
        if self.n == self.cap:
            self._grow()
        self.stack[self.n] = self.h
        err = rook_hand_apply(&self.h, &self.rules.r, a)
        if err:
            self._raise(err, a)
        self.actions[self.n] = <uint16_t>a
        self.n += 1

    def apply_text(self, text, seat=None):
        """Apply the action written ``text`` (``R14``, ``pass``, ``bid 75``, ``trump G``).

        :raises NotationError: for unreadable text.
        :raises IllegalActionError: as :meth:`apply`.
        """
        self.apply(parse_action(text), seat)

    def undo(self):
        """Undo the last action, restoring the state exactly.

        :raises IllegalActionError: when there is nothing to undo.
        """
        if self.n == 0:
            raise IllegalActionError("there is no action to undo", rule=None)
        self.n -= 1
        self.h = self.stack[self.n]

    def pop(self):
        """Undo the last action and return it."""
        if self.n == 0:
            raise IllegalActionError("there is no action to undo", rule=None)
        a = self.actions[self.n - 1]
        self.undo()
        return a

    # Friendly forms of the actions -------------------------------------
    def bid(self, int amount, seat=None):
        """Bid ``amount`` points (T-3)."""
        if amount <= 0 or amount > 1000:
            raise IllegalActionError(f"a bid must be 1..1000 points, not {amount} (T-3)", rule="T-3")
        self.apply(ROOK_A_BID + amount, seat)

    def pass_bid(self, seat=None):
        """Pass in the bidding (T-4)."""
        self.apply(ROOK_A_PASS, seat)

    def name_trump(self, color, seat=None):
        """Name ``color`` (``B``/``G``/``R``/``Y`` or 0..3) trump (T-7)."""
        self.apply(ROOK_A_TRUMP + parse_color(color), seat)

    def play(self, card, seat=None):
        """Play ``card`` (text or id) to the trick (T-8 .. T-11)."""
        self.apply(_card_action(card), seat)

    def _apply_cards(self, int phase, cards, seat, str what, str rule):
        if self.h.phase != phase:
            raise IllegalActionError(
                f"cannot {what} in the {Phase(self.h.phase).label} phase ({rule})", rule=rule)
        m = parse_cards(cards, deck_mask=self.rules.r.deck, what=what)
        if m.bit_count() != self.h.remaining:
            raise IllegalActionError(
                f"{what}: exactly {self.h.remaining} card(s) are due, not {m.bit_count()} ({rule})",
                rule=rule)
        if seat is not None and seat != self.h.to_move:
            self._raise_seat(seat, (m & -m).bit_length() - 1 if m else -1)
        snapshot = self.n
        try:
            for c in CardSet(m):
                self.apply(int(c))
        except IllegalActionError:
            while self.n > snapshot:
                self.undo()
            raise

    def discard(self, cards, seat=None):
        """Discard exactly the nest's size of cards as the declarer (T-20, T-21);
        a wrong count is refused (the T-35 misplay) and nothing changes."""
        self._apply_cards(ROOK_PH_NEST, cards, seat, "discard", "T-20")

    def pass_cards(self, cards, seat=None):
        """Put aside exactly the variant's number of cards to pass right (T-22)."""
        self._apply_cards(ROOK_PH_PASS, cards, seat, "pass", "T-22")

    def penalty(self, int team):
        """Record the T-35 penalty against ``team`` (0 or 1): −penalty_points at once."""
        if team not in (0, 1):
            raise IllegalActionError(f"a penalty is against team 0 or 1, not {team} (T-35)", rule="T-35")
        self.apply(ROOK_A_PENALTY + team)

    # -------------------------------------------------------------- errors
    cdef void _raise_seat(self, seat, int action) except *:
        try:
            what = action_name(action)
        except NotationError:
            what = "this action"
        cdef int ph = self.h.phase
        if self.h.to_move == ROOK_NO_SEAT:
            raise IllegalActionError(f"illegal action {what}: the hand is over, no seat is to "
                                     f"move (T-14)", rule="T-14", action=action)
        if ph == ROOK_PH_BID and isinstance(seat, int) and 0 <= seat < 4 and (self.h.passed >> seat) & 1:
            raise IllegalActionError(f"illegal action {what}: seat {seat} has passed and may not "
                                     f"bid again in this hand (T-4)", rule="T-4", action=action)
        rule, why = {ROOK_PH_BID: ("T-3", "the bidding goes clockwise"),
                     ROOK_PH_NEST: ("T-20", "only the declarer handles the nest"),
                     ROOK_PH_TRUMP: ("T-7", "the declarer names trump"),
                     ROOK_PH_PASS: ("T-22", "seats pass their cards in turn"),
                     ROOK_PH_PLAY: ("T-8", "play goes clockwise from the leader")}[ph]
        raise IllegalActionError(
            f"illegal action {what}: seat {seat} is not to move, seat {self.h.to_move} is "
            f"({why}, {rule})", rule=rule, action=action)

    cdef void _raise(self, int err, int action) except *:
        cdef int s = self.h.to_move
        try:
            name = action_name(action)
        except NotationError:
            name = repr(action)
        ph = Phase(self.h.phase).label
        rule = None
        if err == ROOK_E_UNKNOWN_ACTION:
            msg, rule = f"{action} is not an action of the encoding", None
        elif err == ROOK_E_WRONG_PHASE:
            msg, rule = f"{name} is not an action of the {ph} phase", "T-7"
        elif err == ROOK_E_HAND_OVER:
            msg, rule = f"{name}: the hand is over ({ph})", "T-14"
        elif err == ROOK_E_NOT_IN_HAND:
            rule = "T-20" if self.h.phase == ROOK_PH_NEST else "T-22" if self.h.phase == ROOK_PH_PASS else "T-8"
            msg = f"{name} is not in seat {s}'s hand"
        elif err == ROOK_E_MUST_FOLLOW:
            led = card_name(self.h.trick[0])
            msg, rule = f"{name}: seat {s} holds the led color of {led} and must follow it", "T-9"
        elif err == ROOK_E_MUST_FOLLOW_TRUMP:
            led = card_name(self.h.trick[0])
            msg, rule = (f"{name}: {led} asks for trump ({color_name(self.h.trump)}, the bird "
                         f"included) and seat {s} holds trump, so must play it"), "T-10"
        elif err == ROOK_E_MUST_TRUMP:
            msg, rule = (f"{name}: seat {s} is void in the led color and holds trump; "
                         f"must_trump requires a trump"), "T-9"
        elif err == ROOK_E_BID_BELOW_MIN:
            msg, rule = f"{name}: bids start at {self.rules.r.min_bid}", "T-3"
        elif err == ROOK_E_BID_ABOVE_MAX:
            msg, rule = f"{name}: no bid may exceed {self.rules.r.max_bid}", "T-3"
        elif err == ROOK_E_BID_STEP:
            msg, rule = f"{name}: bids are multiples of {self.rules.r.bid_step}", "T-3"
        elif err == ROOK_E_BID_NOT_HIGHER:
            msg, rule = f"{name}: a bid must be higher than the current {self.h.high_bid}", "T-3"
        elif err == ROOK_E_BID_JUMP:
            nxt = self.h.high_bid + self.rules.r.bid_step if self.h.high_bid else self.rules.r.min_bid
            msg, rule = f"{name}: jump bids are not allowed; the only bid is {nxt}", "T-3"
        elif err == ROOK_E_OPENER_MUST_BID:
            msg, rule = f"{name}: the opener must bid in this variant", "T-6"
        elif err == ROOK_E_DEALER_STUCK:
            msg, rule = f"{name}: all others passed and the dealer must bid (stick_the_dealer)", "T-6"
        elif err == ROOK_E_DISCARD_COUNTER:
            msg, rule = f"{name}: counters may not be discarded into the nest in this variant", "T-20"
        else:
            msg = f"{name}: refused (code {err})"
        raise IllegalActionError(f"illegal action {msg} ({rule})" if rule else f"illegal action {msg}",
                                 rule=rule, action=action)

    # --------------------------------------------------------------- views
    @property
    def variant(self):
        """The :class:`~rook_core.variant.Variant` of this hand."""
        return self.rules.variant

    @property
    def phase(self):
        """The current :class:`~rook_core.actions.Phase`."""
        return Phase(self.h.phase)

    @property
    def is_over(self):
        """Whether the hand is scored (DONE) or thrown in (all passed, T-6)."""
        return self.h.phase == ROOK_PH_DONE or self.h.phase == ROOK_PH_THROWN_IN

    @property
    def to_move(self):
        """The seat to act, or None once the hand is over."""
        return None if self.h.to_move == ROOK_NO_SEAT else self.h.to_move

    @property
    def dealer(self):
        return self.h.dealer

    @property
    def declarer(self):
        """The high bidder (T-5), or None."""
        return None if self.h.declarer == ROOK_NO_SEAT else self.h.declarer

    @property
    def high_bid(self):
        """The current high bid (T-3), 0 before any bid."""
        return self.h.high_bid

    @property
    def trump(self):
        """The trump color 0..3 (T-7), or None before it is named."""
        return None if self.h.trump == ROOK_NO_SEAT else self.h.trump

    @property
    def leader(self):
        return None if self.h.leader == ROOK_NO_SEAT else self.h.leader

    @property
    def passed_seats(self):
        """Seats that passed in the bidding (T-4)."""
        return [s for s in range(4) if (self.h.passed >> s) & 1]

    def hand_mask(self, int seat):
        """Return seat's cards as a raw mask."""
        _check_seat(seat, "seat")
        return self.h.hands[seat]

    def hand(self, int seat):
        """Return seat's cards as a :class:`CardSet`."""
        _check_seat(seat, "seat")
        return CardSet(self.h.hands[seat])

    @property
    def nest(self):
        """The nest: as dealt before the exchange, the discards after it (T-20)."""
        return CardSet(self.h.nest)

    @property
    def dealt_nest(self):
        return CardSet(self.h.dealt_nest)

    @property
    def trick(self):
        """The cards of the current trick in play order."""
        return [Card(self.h.trick[i]) for i in range(self.h.trick_n)]

    @property
    def trick_seats(self):
        """(seat, card) pairs of the current trick."""
        return [((self.h.leader + i) % 4, Card(self.h.trick[i])) for i in range(self.h.trick_n)]

    @property
    def played(self):
        return CardSet(self.h.played)

    def won(self, int team):
        """Cards in the tricks team ``team`` took."""
        return CardSet(self.h.won[team & 1])

    def passing(self, int seat):
        """Cards seat put aside to pass (T-22)."""
        _check_seat(seat, "seat")
        return CardSet(self.h.passing[seat])

    @property
    def points(self):
        """(team 0, team 1) points taken so far; final hand points when DONE (T-14)."""
        return (self.h.points[0], self.h.points[1])

    @property
    def nest_points(self):
        return self.h.nest_points

    @property
    def score(self):
        """(team 0, team 1) hand scores (T-30 .. T-32) plus penalties (T-35)."""
        return (self.h.score[0] + self.h.penalty[0], self.h.score[1] + self.h.penalty[1])

    @property
    def penalties(self):
        return (self.h.penalty[0], self.h.penalty[1])

    @property
    def made(self):
        """Whether the declarer's team made the bid (None until DONE with a declarer)."""
        if self.h.phase != ROOK_PH_DONE or self.h.declarer == ROOK_NO_SEAT:
            return None
        return self.h.points[self.h.declarer & 1] >= self.h.high_bid

    @property
    def tricks_won(self):
        return (self.h.tricks_won[0], self.h.tricks_won[1])

    @property
    def remaining(self):
        """Cards still due from the seat to move in the nest or pass phase."""
        return self.h.remaining

    @property
    def history(self):
        """The actions applied so far, in order."""
        return [self.actions[i] for i in range(self.n)]

    def __len__(self):
        return self.n

    def events(self):
        """Return the history as (phase, seat, action) triples."""
        cdef Py_ssize_t i
        return [(Phase(self.stack[i].phase), self.stack[i].to_move, self.actions[i])
                for i in range(self.n)]

    def tricks(self):
        """Return the completed tricks as dicts: leader, cards (with seats), winner."""
        out = []
        cur = []
        cdef Py_ssize_t i
        cdef uint8_t buf[4]
        cdef rook_hand *st
        for i in range(self.n):
            st = &self.stack[i]
            if st.phase == ROOK_PH_PLAY and self.actions[i] < 64:
                cur.append((st.to_move, self.actions[i]))
                if len(cur) == 4:
                    for k in range(4):
                        buf[k] = cur[k][1]
                    w = (cur[0][0] + rook_trick_winner(&self.rules.r, buf, 4, st.trump)) % 4
                    out.append({"leader": cur[0][0],
                                "cards": [(s, Card(c)) for s, c in cur],
                                "winner": w,
                                "points": self.rules.points(sum(1 << c for _, c in cur))})
                    cur = []
        return out

    def bids(self):
        """Return the bidding as (seat, amount or None for a pass) pairs."""
        out = []
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.stack[i].phase == ROOK_PH_BID and self.actions[i] != ROOK_A_PENALTY \
                    and self.actions[i] != ROOK_A_PENALTY + 1:
                a = self.actions[i]
                out.append((self.stack[i].to_move, None if a == ROOK_A_PASS else a - ROOK_A_BID))
        return out

    def observation(self, int seat):
        """Return what ``seat`` may know now, as JSON-ready data (T-15).

        It holds the seat's own cards, the public bidding, trump and tricks,
        and the nest only for the declarer; never another seat's unplayed
        cards, except the ones this seat itself passed (T-22), which it knows.
        """
        _check_seat(seat, "seat")
        decl = self.declarer
        obs = {
            "variant": self.rules.variant.name,
            "seat": seat,
            "phase": Phase(self.h.phase).label,
            "dealer": self.h.dealer,
            "to_move": self.to_move,
            "hand": CardSet(self.h.hands[seat]).names(),
            "bids": [[s, b] for s, b in self.bids()],
            "high_bid": self.h.high_bid,
            "declarer": decl,
            "trump": None if self.trump is None else color_name(self.h.trump),
            "trick": [[s, str(c)] for s, c in self.trick_seats],
            "tricks": [{"leader": t["leader"], "cards": [[s, str(c)] for s, c in t["cards"]],
                        "winner": t["winner"]} for t in self.tricks()],
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "score": list(self.score) if self.is_over else None,
        }
        if decl == seat and self.rules.r.nest_size and self._nest_taken():
            obs["nest"] = CardSet(self.h.dealt_nest).names()     # T-15: the declarer only
            obs["discarded"] = CardSet(self.h.nest).names()
        if self.h.passing[seat]:
            obs["passed"] = CardSet(self.h.passing[seat]).names()
        if self.h.to_move == seat:
            obs["legal_actions"] = self.legal_actions()
        return obs

    cdef bint _nest_taken(self):
        """Whether the declarer has taken the nest into the hand (T-20, T-21)."""
        return rook_hand_nest_taken(&self.h, &self.rules.r) != 0

    def to_json(self):
        """Return the state as JSON-ready data: variant, start and actions
        (:meth:`from_json` rebuilds it exactly) plus a readable summary."""
        v = self.rules.variant
        from rook_core.variant import PRESETS
        vj = v.name if PRESETS.get(v.name) == v else v.to_dict()
        return {
            "format": "rook-hand/1",
            "variant": vj,
            "start": self._start_dict(),
            "actions": [action_name(a) for a in self.history],
            "summary": {"phase": Phase(self.h.phase).label, "to_move": self.to_move,
                        "points": list(self.points), "score": list(self.score)},
        }

    def perft(self, int depth):
        """Return the number of legal action sequences of lengths 1..depth
        (sequences that end the hand count at every deeper length)."""
        if depth < 0 or depth > 64:
            raise RookError(f"perft depth must be 0..64, not {depth}")
        cdef uint64_t counts[64]
        cdef int i
        for i in range(64):
            counts[i] = 0
        with nogil:
            rook_hand_perft(&self.h, &self.rules.r, depth, counts)
        return [counts[i] for i in range(depth)]

    def __repr__(self):
        return (f"<HandState {self.rules.variant.name} {Phase(self.h.phase).label} "
                f"to_move={self.to_move} actions={self.n}>")


cdef object _variant(object v):
    if isinstance(v, Variant):
        return v
    return get_preset(v)


cdef int _card_action(object card) except -1:
    if isinstance(card, int) and not isinstance(card, bool):
        Card(card)
        return card
    return int(Card(int(_parse_card(card))))


def _parse_card(text):
    from rook_core.cards import parse_card
    return parse_card(text)


def _check_seat(seat, what):
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise RookError(f"{what} must be a seat 0..3, not {seat!r}")


def _seed64(seed):
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RookError(f"a seed must be an int, not {seed!r}")
    return seed & 0xFFFFFFFFFFFFFFFF
