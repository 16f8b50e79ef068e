# cython: language_level=3, boundscheck=False, wraparound=False
"""HandCore: the native state machine of one trick-taking hand (T-1 .. T-35).

The state is a plain C struct (``rook_hand`` of ``src/rook/hand.h``).  Before
each action the struct is copied onto a snapshot stack, so :meth:`HandCore.undo`
restores the previous state exactly and the history of actions is kept beside
it without any Python object per step.

This core speaks ints and masks only: actions are ints of the action space,
cards are ids, hands are ``uint64`` masks, the phase is its number.  The
readable hand -- text, card names, JSON, observations -- is
:class:`rook_core.hand.HandState`, a Python subclass.  A refused action calls
:meth:`HandCore._refused` with the code of ``rook_hand_apply`` (the codes,
their rules and messages are generated from one table into
``rook_core._layout``); the state is unchanged.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Realloc, PyMem_Free
from libc.string cimport memcpy, memcmp
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint64_t, int32_t

from rook_core._native.crook cimport (
    rook_hand, rook_rng, rook_rng_seed, rook_hand_init, rook_hand_deal,
    rook_hand_apply, rook_hand_legal, rook_hand_legal_cards, rook_hand_perft, rook_hand_nest_taken,
    rook_trick_winner, rook_public, rook_public_init, rook_public_note, rook_heur_params, rook_heur_playout,
    ROOK_PERFT_LIMIT,
)
from rook_core._native.layout cimport (
    ROOK_N_ACTIONS, ROOK_NO_SEAT, ROOK_PH_PLAY, ROOK_PH_BID, ROOK_PH_DONE, ROOK_PH_THROWN_IN,
    ROOK_A_PASS, ROOK_A_BID, ROOK_A_PENALTY,
)
from rook_core._native.rules cimport Rules

import operator

from rook_core.errors import IllegalActionError, RookError

cdef int N_ACT = ROOK_N_ACTIONS

# The most nodes (actions applied) a perft makes unless told otherwise: a
# few seconds of counting; past it the perft is refused, naming its depth.
PERFT_MAX_NODES = 200_000_000

# The observation tensor's blocks (rook_core.rl.encoding.OBS_FIELDS; tests/rl/test_encoding.py
# checks that the two agree)
cdef enum:
    O_HAND = 0
    O_PLAYED = 64
    O_TRICK = 320
    O_VOIDS = 576
    O_NEST = 832
    O_DISCARDED = 896
    O_PASSED = 960
    O_BID = 1024
    O_PASSED_BID = 1028
    O_HIGH_BID = 1032
    O_DECLARER = 1033
    O_TRUMP = 1037
    O_PHASE = 1041
    O_DEALER = 1046
    O_POINTS = 1050
    O_TRICKS_WON = 1052
    O_GAME = 1054
    OBS_SIZE = 1056

OBS_OFFSETS = {"hand": O_HAND, "played": O_PLAYED, "trick": O_TRICK, "voids": O_VOIDS, "nest": O_NEST,
               "discarded": O_DISCARDED, "passed": O_PASSED, "bid": O_BID, "passed_bid": O_PASSED_BID,
               "high_bid": O_HIGH_BID, "declarer": O_DECLARER, "trump": O_TRUMP, "phase": O_PHASE,
               "dealer": O_DEALER, "points": O_POINTS, "tricks_won": O_TRICKS_WON, "game": O_GAME,
               "size": OBS_SIZE}


cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil


cdef inline void _bits(float[::1] out, int at, uint64_t m) noexcept:
    while m:
        out[at + __builtin_ctzll(m)] = 1.0
        m &= m - 1


cdef inline double _clip(double a, double low) noexcept:
    return low if a < low else (1.0 if a > 1.0 else a)


cdef class HandCore:
    """The state, the undo stack and the history of one hand, over ints.

    Build one through :class:`rook_core.hand.HandState`; its constructors
    call ``_start_deal``, ``_start_hands`` or ``_start_position`` here.
    """

    def __cinit__(self):
        self.stack = NULL
        self.actions = NULL
        self.n = 0
        self.cap = 0

    def __dealloc__(self):
        PyMem_Free(self.stack)
        PyMem_Free(self.actions)

    cdef int _made(self) except -1:
        """Refuse a core that no constructor made (``HandCore()``,
        ``HandState.__new__(HandState)``): it has no rules to read."""
        if self.rules is None:
            raise RookError(f"this {type(self).__name__} was never dealt: make a hand with HandState.deal, "
                            f"from_hands, from_position or from_json")
        return 0

    # ------------------------------------------------------------ creation
    def _start_deal(self, Rules rules not None, dealer, seed):
        """Deal from ``seed`` (T-2) by ``dealer`` (T-1)."""
        check_seat(dealer, "dealer")
        cdef rook_rng g
        rook_rng_seed(&g, _seed64(seed))
        self.rules = rules
        rook_hand_deal(&self.h, &rules.r, dealer, &g)
        self.start = self.h

    def _start_hands(self, Rules rules not None, int dealer, hands, uint64_t nest):
        """Start the bidding with the four masks ``hands`` and the nest dealt
        (the caller has checked them: disjoint, of the variant's sizes)."""
        cdef uint64_t masks[4]
        cdef int i
        for i in range(4):
            masks[i] = hands[i]
        self.rules = rules
        rook_hand_init(&self.h, &rules.r, dealer, masks, nest)
        self.start = self.h

    def _start_position(self, Rules rules not None, hands, int trump, int leader, trick, int nest_points,
                        taken, int tricks_done, won, start_info):
        """Start trick play at a checked position: the four hands (masks),
        the trick so far (card ids), the points taken and tricks won by each
        team; ``start_info`` is kept as the start (for the JSON form)."""
        cdef uint64_t masks[4]
        cdef int i
        for i in range(4):
            masks[i] = hands[i]
        self.rules = rules
        rook_hand_init(&self.h, &rules.r, (leader + 3) % 4, masks, 0)
        self.h.phase = ROOK_PH_PLAY
        self.h.trump = trump
        self.h.leader = leader
        self.h.trick_n = len(trick)
        for i, c in enumerate(trick):
            self.h.trick[i] = c
            self.h.played |= (<uint64_t>1) << c
        self.h.to_move = (leader + len(trick)) % 4
        self.h.nest_points = nest_points
        self.h.points[0] = taken[0]
        self.h.points[1] = taken[1]
        self.h.tricks_done = tricks_done
        self.h.tricks_won[0] = won[0]
        self.h.tricks_won[1] = won[1]
        self.start_info = start_info
        self.start = self.h

    @property
    def start_masks(self):
        """The deal this hand started from: (dealer, the four hands, the nest) as masks."""
        return (self.start.dealer, [self.start.hands[i] for i in range(4)], self.start.nest)

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

    cpdef HandCore clone(self):
        """Return an independent copy (history and undo included), of the same class;
        a copy of a finished game's last hand belongs to no game and takes actions."""
        self._made()
        cdef HandCore c = type(self).__new__(type(self))
        c.rules = self.rules
        c.start_info = self.start_info
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
        if not isinstance(other, HandCore):
            return NotImplemented
        cdef HandCore o = other
        self._made()
        o._made()
        if o.rules.variant != self.rules.variant or o.n != self.n:
            return False
        if memcmp(&o.h, &self.h, sizeof(rook_hand)) != 0:
            return False
        if memcmp(&o.start, &self.start, sizeof(rook_hand)) != 0:
            return False
        return self.n == 0 or memcmp(o.actions, self.actions, self.n * sizeof(uint16_t)) == 0

    def __hash__(self):
        self._made()
        return hash((self.rules.variant.name, self.n, bytes(self.raw_bytes())))

    def raw_bytes(self):
        """Return the raw bytes of the current C state (for exact comparisons)."""
        return (<char *>&self.h)[:sizeof(rook_hand)]

    # ------------------------------------------------------------- actions
    def legal_actions(self):
        """Return the legal actions of the seat to move, ascending (the T-35
        penalty actions are always allowed but never listed)."""
        self._made()
        cdef uint16_t buf[1100]
        cdef int n = rook_hand_legal(&self.h, &self.rules.r, buf)
        return [buf[i] for i in range(n)]

    def legal_mask(self):
        """Return the mask of legal card actions (0 in the bid and trump phases)."""
        self._made()
        return rook_hand_legal_cards(&self.h, &self.rules.r)

    def mask_into(self, int seat, int8_t[::1] out):
        """Write 1 at ``seat``'s legal actions below ``len(out)`` and 0
        elsewhere (all 0 when ``seat`` is not to move)."""
        self._made()
        check_seat(seat, "seat")
        cdef Py_ssize_t i
        cdef int k, n
        cdef uint16_t buf[1100]           # (as legal_actions: more than N_ACT)
        for i in range(out.shape[0]):
            out[i] = 0
        if self.h.to_move != seat:
            return
        n = rook_hand_legal(&self.h, &self.rules.r, buf)
        for k in range(n):
            if buf[k] < out.shape[0]:
                out[buf[k]] = 1

    def is_legal(self, action):
        """Return whether ``action`` would be accepted now."""
        self._made()
        cdef rook_hand tmp = self.h
        if self._game_over:
            return False
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
        self._made()
        if self._game_over:
            self._ended_game(action)
        try:
            if isinstance(action, bool) or not isinstance(action, int):   # True is no card (B1)
                raise TypeError
            a = action
        except (TypeError, OverflowError):
            raise IllegalActionError(
                f"{action!r} is not an action: actions are ints 0..{N_ACT - 1} "
                f"(use apply_text for text)", action=None) from None
        if seat is not None and (type(seat) is not int or seat != self.h.to_move):
            # an int seat not to move; True, 1.0 or '1' (not seats); an
            # integer of another type (NumPy's) only when not to move
            if type(seat) is int or isinstance(seat, bool) or not hasattr(type(seat), "__index__") \
                    or seat != self.h.to_move:
                self._wrong_seat(seat, a)
        if self.n == self.cap:
            self._grow()
        self.stack[self.n] = self.h
        err = rook_hand_apply(&self.h, &self.rules.r, a)
        if err:
            self._refused(err, a)
        self.actions[self.n] = <uint16_t>a
        self.n += 1

    def undo(self):
        """Undo the last action, restoring the state exactly.

        :raises IllegalActionError: when there is nothing to undo.
        """
        if self._game_over:
            raise IllegalActionError("cannot undo: the game is over (T-34); its last hand takes no more actions "
                                     "(Game.undo() reopens it)", rule="T-34")
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

    def bid(self, object amount, seat=None):
        """Bid ``amount`` points (T-3).

        :raises IllegalActionError: for anything but an int 1..1000 (T-3), or a bid the rules refuse.
        """
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 1000:
            raise IllegalActionError(f"a bid must be 1..1000 points, not {amount!r} (T-3)", rule="T-3")
        self.apply(ROOK_A_BID + <int>amount, seat)

    def pass_bid(self, seat=None):
        """Pass in the bidding (T-4)."""
        self.apply(ROOK_A_PASS, seat)

    def penalty(self, object team):
        """Record the T-35 penalty against ``team`` (0 or 1): −penalty_points at once."""
        if isinstance(team, bool) or team not in (0, 1):
            raise IllegalActionError(f"a penalty is against team 0 or 1, not {team} (T-35)", rule="T-35")
        self.apply(ROOK_A_PENALTY + <int>team)

    # -------------------------------------------------------------- errors
    def _wrong_seat(self, seat, int action):
        """Refuse ``action`` offered by ``seat``, which is not to move."""
        raise IllegalActionError(f"illegal action {action}: seat {seat} is not to move",
                                 action=action)

    def _ended_game(self, action):
        """Refuse ``action``: this is the last hand of a game that is over (T-34)."""
        raise IllegalActionError(f"illegal action {action!r}: the game is over (T-34); its last hand takes no "
                                 f"more actions (Game.undo() reopens it)", rule="T-34",
                                 action=action if type(action) is int else None)

    def _refused(self, int err, int action):
        """Refuse ``action``, which rook_hand_apply answered with code ``err``
        (the state is already restored)."""
        raise IllegalActionError(f"illegal action {action}: refused (code {err})", action=action)

    # --------------------------------------------------------------- views
    @property
    def variant(self):
        """The :class:`~rook_core.variant.Variant` of this hand."""
        self._made()
        return self.rules.variant

    @property
    def phase_id(self):
        """The number of the current phase (rook_core.actions.Phase)."""
        return self.h.phase

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
        """Return seat's cards as a mask."""
        check_seat(seat, "seat")
        return self.h.hands[seat]

    @property
    def nest_mask(self):
        """The nest as a mask: as dealt before the exchange, the discards after it (T-20)."""
        return self.h.nest

    @property
    def dealt_nest_mask(self):
        return self.h.dealt_nest

    @property
    def played_mask(self):
        return self.h.played

    def won_mask(self, object team):
        """The cards of the tricks team ``team`` (0 or 1) took, as a mask."""
        if isinstance(team, bool) or not hasattr(type(team), "__index__") or team not in (0, 1):
            raise RookError(f"team must be 0 (seats 0 and 2) or 1 (seats 1 and 3), not {team!r}")
        return self.h.won[<int>team]

    def passing_mask(self, int seat):
        """The cards seat put aside to pass (T-22), as a mask."""
        check_seat(seat, "seat")
        return self.h.passing[seat]

    @property
    def trick_ids(self):
        """The card ids of the current trick in play order."""
        return [self.h.trick[i] for i in range(self.h.trick_n)]

    @property
    def led_card(self):
        """The card id that led the current trick, or None."""
        return self.h.trick[0] if self.h.trick_n else None

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
    def nest_taken(self):
        """Whether the declarer has taken the nest into the hand (T-20, T-21)."""
        self._made()
        return rook_hand_nest_taken(&self.h, &self.rules.r) != 0

    @property
    def history(self):
        """The actions applied so far, in order."""
        return [self.actions[i] for i in range(self.n)]

    def __len__(self):
        return self.n

    def event_ids(self):
        """Return the history as (phase number, seat, action) triples."""
        cdef Py_ssize_t i
        return [(self.stack[i].phase, self.stack[i].to_move, self.actions[i]) for i in range(self.n)]

    cdef list _tricks(self, bint with_points):
        """The completed tricks as (leader, [(seat, card id)], winner, points or 0), from the history."""
        self._made()
        out = []
        cur = []
        cdef Py_ssize_t i
        cdef int k
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
                    pts = self.rules.points(sum(1 << c for _, c in cur)) if with_points else 0
                    out.append((cur[0][0], cur, w, pts))
                    cur = []
        return out

    def trick_records(self):
        """Return the completed tricks as (leader, [(seat, card id)], winner, points)."""
        return self._tricks(True)

    def observe_raw(self, int seat):
        """Return what ``seat`` may know now (T-15), in one call, as plain values:
        (seat, phase number, dealer, to_move, hand mask, bids, high bid,
        declarer, trump, current trick as (seat, card) pairs, completed tricks
        as (leader, (seat, card) pairs, winner), tricks won, points, score
        (None until the hand is over), the dealt nest (None unless ``seat``
        declared and took it, or the nest is exposed, H-5, and the bidding is
        over) and the discards (None unless ``seat`` declared and took the nest), the cards ``seat``
        passed, the legal actions (None unless ``seat`` is to move), and the
        cards each seat showed it cannot hold (T-9, T-10: the known voids, as
        the native bots infer them)).  rook_core.observation.Observation reads it."""
        self._made()
        check_seat(seat, "seat")
        cdef int k
        cdef rook_public pub
        self._public(&pub)
        tricks = tuple((t[0], tuple(t[1]), t[2]) for t in self._tricks(False))
        lead = self.h.leader if self.h.leader != ROOK_NO_SEAT else 0
        trick = tuple(((lead + k) % 4, self.h.trick[k]) for k in range(self.h.trick_n))
        decl = None if self.h.declarer == ROOK_NO_SEAT else self.h.declarer
        taken = decl == seat and self.rules.r.nest_size and rook_hand_nest_taken(&self.h, &self.rules.r)
        over = self.h.phase == ROOK_PH_DONE or self.h.phase == ROOK_PH_THROWN_IN
        # H-5: an exposed nest is face up to every seat from the end of the bidding
        shown = taken or (self.rules.r.exposed_nest and decl is not None and self.h.phase != ROOK_PH_BID
                          and self.h.phase != ROOK_PH_THROWN_IN)
        to_move = None if self.h.to_move == ROOK_NO_SEAT else self.h.to_move
        return (seat, self.h.phase, self.h.dealer, to_move, self.h.hands[seat], tuple(self.bids()),
                self.h.high_bid, decl, None if self.h.trump == ROOK_NO_SEAT else self.h.trump, trick,
                tricks, (self.h.tricks_won[0], self.h.tricks_won[1]),
                (self.h.points[0], self.h.points[1]),
                (self.h.score[0] + self.h.penalty[0], self.h.score[1] + self.h.penalty[1]) if over else None,
                self.h.dealt_nest if shown else None, self.h.nest if taken else None, self.h.passing[seat],
                tuple(self.legal_actions()) if to_move == seat else None,
                (pub.lacks[0], pub.lacks[1], pub.lacks[2], pub.lacks[3]))

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

    def encode_into(self, int seat, float[::1] out, int total_points, int target, game=None):
        """Write ``seat``'s observation tensor (``rook_core.rl.encoding``,
        whose ``encode`` is the reference this equals) into ``out`` (float32,
        ``OBS_SIZE`` long), from the state and its history in one pass;
        ``total_points`` and ``target`` are the variant's (T-14, T-33),
        ``game`` the game's two running scores, or None."""
        self._made()
        check_seat(seat, "seat")
        if out.shape[0] != OBS_SIZE:
            raise RookError(f"the observation takes {OBS_SIZE} floats, not {out.shape[0]}")
        cdef Py_ssize_t i
        cdef int k, r, s, a, c
        cdef uint64_t played[4]
        cdef rook_public pub
        cdef double top = self.rules.r.max_bid       # (double, then rounded once, as numpy does)
        cdef double total = total_points
        cdef const rook_hand *st
        for k in range(OBS_SIZE):
            out[k] = 0.0
        for k in range(4):
            played[k] = 0
        self._public(&pub)
        for i in range(self.n):
            st = &self.stack[i]
            a = self.actions[i]
            s = st.to_move
            if st.phase == ROOK_PH_PLAY and a < 64:
                played[s] |= (<uint64_t>1) << a
            elif st.phase == ROOK_PH_BID and a != ROOK_A_PENALTY and a != ROOK_A_PENALTY + 1:
                r = (s - seat + 4) % 4
                if a == ROOK_A_PASS:
                    out[O_PASSED_BID + r] = 1.0
                else:
                    out[O_BID + r] = (a - ROOK_A_BID) / top
        lead = self.h.leader if self.h.leader != ROOK_NO_SEAT else 0
        for k in range(self.h.trick_n):
            s = (lead + k) % 4
            c = self.h.trick[k]
            played[s] &= ~((<uint64_t>1) << c)          # the current trick has its own block
            out[O_TRICK + 64 * ((s - seat + 4) % 4) + c] = 1.0
        _bits(out, O_HAND, self.h.hands[seat])
        for s in range(4):
            r = (s - seat + 4) % 4
            _bits(out, O_PLAYED + 64 * r, played[s])
            _bits(out, O_VOIDS + 64 * r, pub.lacks[s])
        decl = -1 if self.h.declarer == ROOK_NO_SEAT else self.h.declarer
        taken = decl == seat and self.rules.r.nest_size and rook_hand_nest_taken(&self.h, &self.rules.r)
        shown = taken or (self.rules.r.exposed_nest and decl >= 0 and self.h.phase != ROOK_PH_BID
                          and self.h.phase != ROOK_PH_THROWN_IN)
        if shown:
            _bits(out, O_NEST, self.h.dealt_nest)
        if taken:
            _bits(out, O_DISCARDED, self.h.nest)
        _bits(out, O_PASSED, self.h.passing[seat])
        out[O_HIGH_BID] = self.h.high_bid / top
        if decl >= 0:
            out[O_DECLARER + (decl - seat + 4) % 4] = 1.0
        if self.h.trump != ROOK_NO_SEAT:
            out[O_TRUMP + self.h.trump] = 1.0
        if self.h.phase < 5:
            out[O_PHASE + self.h.phase] = 1.0
        out[O_DEALER + (self.h.dealer - seat + 4) % 4] = 1.0
        t = seat & 1
        out[O_POINTS] = _clip(self.h.points[t] / total, 0.0)
        out[O_POINTS + 1] = _clip(self.h.points[1 - t] / total, 0.0)
        out[O_TRICKS_WON] = self.h.tricks_won[t] / <double>self.rules.r.hand_size
        out[O_TRICKS_WON + 1] = self.h.tricks_won[1 - t] / <double>self.rules.r.hand_size
        if game is not None:
            out[O_GAME] = _clip(game[t] / <double>target, -1.0)
            out[O_GAME + 1] = _clip(game[1 - t] / <double>target, -1.0)

    cdef void _public(self, rook_public *pub):
        """What every seat has seen so far: the history replayed through
        rook_public_note (the known voids, T-9, T-10, and the bids)."""
        cdef Py_ssize_t i
        rook_public_init(pub)
        for i in range(self.n):
            rook_public_note(pub, &self.stack[i], &self.rules.r, self.stack[i].to_move, self.actions[i])

    def heuristic_playout(self, int total_points, int bid_margin, int bird_threshold, int nest_bonus,
                          int declarer=-1, lacks=None):
        """Return both teams' final points (T-14) when every seat plays the
        rest of the hand as the native heuristic bot with these parameters
        (``HeuristicAgent.native_params()``); the state is left as it is.
        A position carries no bidding: ``declarer`` (a seat) tells the bots
        who declared, and ``lacks`` (four masks) the voids seen before it
        (T-9, T-10), as an observation holds them.

        :raises RookError: for a hand that is not in the play phase, or a bad seat.
        """
        self._made()
        if self.h.phase != ROOK_PH_PLAY:
            raise RookError("a playout starts in the play phase")
        if not -1 <= declarer < 4:
            raise RookError(f"declarer must be a seat 0..3 (or -1), not {declarer}")
        cdef rook_public pub
        cdef rook_heur_params p
        cdef rook_hand c = self.h
        cdef int32_t pts[2]
        cdef int rc, s
        self._public(&pub)
        if declarer >= 0:
            c.declarer = declarer
        if lacks is not None:
            for s in range(4):
                pub.lacks[s] |= <uint64_t>lacks[s]
        p.total_points = total_points
        p.bid_margin = bid_margin
        p.bird_threshold = bird_threshold
        p.nest_bonus = nest_bonus
        with nogil:
            rc = rook_heur_playout(&c, &self.rules.r, &pub, &p, pts)
        if rc:
            raise RookError("the heuristic playout met a refused action")
        return (pts[0], pts[1])

    def perft(self, object depth, object max_nodes=PERFT_MAX_NODES, object stop=None):
        """Return the number of legal action sequences of lengths 1..depth
        (sequences that end the hand count at every deeper length), making
        at most ``max_nodes`` nodes (actions applied; by default
        ``PERFT_MAX_NODES``, 200,000,000: a few seconds).  Ctrl-C stops it
        within about a million nodes (KeyboardInterrupt), and so does
        ``stop``, a function of no argument asked as often, once it answers
        true (RookError).

        :raises RookError: for a depth that is not an int 0..64, a
            ``max_nodes`` that is not an int 1..2**63-1, a ``stop`` that is
            not callable, a perft that needs more than ``max_nodes`` nodes
            (naming the depth and the limit) or one ``stop`` ended.
        """
        self._made()
        if stop is not None and not callable(stop):
            raise RookError(f"perft stop must be a function of no argument or None, not {stop!r}")
        try:
            if isinstance(depth, bool):
                raise TypeError
            n = operator.index(depth)
        except TypeError:
            n = -1
        if not 0 <= n <= 64:
            raise RookError(f"perft depth must be an int 0..64, not {depth!r}")
        try:
            if isinstance(max_nodes, bool):
                raise TypeError
            limit = operator.index(max_nodes)
        except TypeError:
            limit = 0
        if not 1 <= limit < 2**63:
            raise RookError(f"perft max_nodes must be an int 1..2**63-1, not {max_nodes!r}")
        cdef uint64_t counts[64]
        cdef uint64_t cap = limit
        cdef int i, rc, d = n
        cdef list raised = [stop]          # the stop function, then what stopped the count
        cdef rook_hand start = self.h      # (another thread may apply to this hand while the GIL is free)
        for i in range(64):
            counts[i] = 0
        with nogil:
            rc = rook_hand_perft(&start, &self.rules.r, d, counts, cap, _perft_check, <void *>raised)
        if rc == ROOK_PERFT_LIMIT:
            raise RookError(f"perft to depth {d} needs more than {limit:,} nodes, its limit: ask for fewer "
                            f"cards or a higher max_nodes")
        if rc:
            raise raised[1]
        return [counts[i] for i in range(d)]


cdef int _perft_check(void *raised) noexcept with gil:
    """Run Python's signal handlers during a perft (the main thread's Ctrl-C
    raises KeyboardInterrupt there), then ask its stop function (``raised[0]``)
    whether to stop: what stops it is appended to the list ``raised``."""
    cdef list ctx = <list>raised
    try:
        PyErr_CheckSignals()
        if ctx[0] is not None and ctx[0]():
            raise RookError("perft stopped before it ended (a stop request)")
    except BaseException as e:
        ctx.append(e)
        return 1
    return 0


def check_seat(seat, what):
    """Raise RookError unless ``seat`` is a seat 0..3 (``what`` names it)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise RookError(f"{what} must be a seat 0..3, not {seat!r}")


def _seed64(seed):
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RookError(f"a seed must be an int, not {seed!r}")
    return seed & 0xFFFFFFFFFFFFFFFF
