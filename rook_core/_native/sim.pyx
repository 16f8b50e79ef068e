# cython: language_level=3, boundscheck=False, wraparound=False
"""The boundary of the native hand loop (``src/rook/sim.h``).

:func:`sim_hands` plays hands between native policies (the built-in random
policy, or C function pointers such as Numba ``@cfunc`` addresses) without
the GIL and returns one int64 row per hand (``ROW_*`` columns);
:func:`view_of` fills the int64 view a callback policy reads, from a
``HandState``, so that a callback can be run from Python on exactly what
the native loop would give it.  The ``VIEW_*`` constants name the view's
slots.  Arguments are checked here; the C loop trusts them.
"""

import numpy as np

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, uint64_t
from rook_core._native.crook cimport (
    rook_policy, rook_policy_fn, rook_sim_hands, rook_sim_game, rook_view_fill, rook_hand_seed,
    rook_game_end, rook_game_winner, rook_table, rook_venv, rook_venv_start, rook_venv_observe, rook_venv_step,
    ROOK_OBS_SIZE,
)
from rook_core._native.layout cimport (
    ROOK_VIEW_LEN, ROOK_R_LEN, ROOK_POLICY_RANDOM, ROOK_POLICY_CALLBACK, ROOK_POLICY_HEURISTIC,
)
from rook_core._native.rules cimport Rules
from rook_core._native.hand cimport HandCore

from rook_core import _layout
from rook_core.errors import RookError

VIEW_LEN = ROOK_VIEW_LEN
ROW_LEN = ROOK_R_LEN
VIEW_SLOTS = _layout.VIEW_SLOTS      # both generated with layout.h's enums (tools/gen_layout.py)
ROW_COLUMNS = _layout.ROW_COLUMNS
POLICY_RANDOM = ROOK_POLICY_RANDOM
POLICY_CALLBACK = ROOK_POLICY_CALLBACK
POLICY_HEURISTIC = ROOK_POLICY_HEURISTIC

_M64 = 0xFFFFFFFFFFFFFFFF


def hand_seed(seed, index):
    """Return rook_core.rng.hand_seed(seed, index), computed natively."""
    return rook_hand_seed(<uint64_t>(seed & _M64), <uint64_t>(index & _M64))


def view_of(HandCore state, int seat, random=0):
    """Return the int64 view of ``seat`` in ``state`` (``random`` in the random slot)."""
    if not 0 <= seat < 4:
        raise RookError(f"seat must be 0..3, not {seat}")
    out = np.zeros(ROOK_VIEW_LEN, dtype=np.int64)
    cdef int64_t[::1] v = out
    rook_view_fill(&state.h, &state.rules.r, seat, <uint64_t>(random & _M64), &v[0])
    return out


cdef int _policies(object policies, rook_policy *pol) except -1:
    """Check ``policies`` (four pairs ``(kind, arg)``) and fill ``pol``."""
    cdef int i
    if len(policies) != 4:
        raise RookError("four policies are needed, one per agent")
    for i in range(4):
        kind, arg = policies[i]
        pol[i].fn = NULL
        if kind == POLICY_RANDOM:
            pol[i].kind = ROOK_POLICY_RANDOM
        elif kind == POLICY_CALLBACK and isinstance(arg, int) and arg > 0:
            pol[i].kind = ROOK_POLICY_CALLBACK
            pol[i].fn = <rook_policy_fn><size_t>arg
        elif kind == POLICY_HEURISTIC and isinstance(arg, tuple) and len(arg) == 4:
            pol[i].kind = ROOK_POLICY_HEURISTIC
            pol[i].heur.total_points, pol[i].heur.bid_margin, pol[i].heur.bird_threshold, \
                pol[i].heur.nest_bonus = arg
        else:
            raise RookError(f"policy {i}: not a native policy ({kind!r}, {arg!r})")
    return 0


def sim_hands(Rules rules, policies, seed, int64_t first, int64_t n, bint duplicate):
    """Play units ``first .. first+n-1`` between ``policies`` (four pairs
    ``(kind, arg)``: ``(POLICY_RANDOM, 0)``, ``(POLICY_CALLBACK, c function
    address)`` or ``(POLICY_HEURISTIC, (total_points, bid_margin,
    bird_threshold, nest_bonus))``) and return the rows, shape ``(hands,
    ROW_LEN)``.  Releases the GIL."""
    cdef rook_policy pol[4]
    _policies(policies, pol)
    if n < 0 or first < 0:
        raise RookError("first and n must not be negative")
    rows_n = n * (2 if duplicate else 1)
    out = np.zeros((rows_n, ROOK_R_LEN), dtype=np.int64)
    if rows_n == 0:
        return out
    cdef int64_t[:, ::1] rows = out
    cdef uint64_t s = seed & _M64
    with nogil:
        rook_sim_hands(&rules.r, pol, s, first, n, duplicate, &rows[0, 0])
    return out


def game_winner(int target, bint tie_to_team_0, bint own_bid_only, int64_t total_0, int64_t total_1,
                int declarer):
    """Return the native loop's winner after a played hand (-1: play goes on), T-34, H-6, H-7;
    ``declarer`` is ROOK_NO_SEAT when nobody declared."""
    cdef rook_game_end end
    end.target = target
    end.tie_to_team_0 = tie_to_team_0
    end.own_bid_only = own_bid_only
    cdef int64_t total[2]
    total[0] = total_0
    total[1] = total_1
    return rook_game_winner(&end, total, declarer)


def sim_games(Rules rules, policies, seed, int64_t first, int64_t n, bint duplicate,
              int max_hands, int target, bint tie_to_team_0=False, bint own_bid_only=False):
    """Play games ``first .. first+n-1`` (both copies of each when
    ``duplicate``) to ``target``, ending as ``tie_to_team_0`` (H-6) and
    ``own_bid_only`` (H-7) say, and return ``(rows, games)``: game ``j`` (in order) wrote
    its hands to ``rows[j * max_hands : j * max_hands + games[j, 0]]``, and
    ``games[j] = (hands, total 0, total 1, winner)``.  Releases the GIL."""
    cdef rook_policy pol[4]
    _policies(policies, pol)
    if n < 0 or first < 0 or max_hands < 1:
        raise RookError("first and n must not be negative, max_hands positive")
    cdef int per = 2 if duplicate else 1
    cdef rook_game_end end
    end.target = target
    end.tie_to_team_0 = tie_to_team_0
    end.own_bid_only = own_bid_only
    rows_out = np.zeros((max(1, n * per * max_hands), ROOK_R_LEN), dtype=np.int64)
    games_out = np.zeros((max(1, n * per), 4), dtype=np.int64)
    cdef int64_t[:, ::1] rows = rows_out
    cdef int64_t[:, ::1] games = games_out
    cdef uint64_t s = seed & _M64
    cdef int64_t u, j
    cdef int c
    with nogil:
        for u in range(n):
            for c in range(per):
                j = u * per + c
                rook_sim_game(&rules.r, pol, s, first + u, c, max_hands, &end,
                              &rows[j * max_hands, 0], &games[j, 0])
    return rows_out, games_out[:n * per]


cdef class VectorCore:
    """``n`` tables of the batched environment (``src/rook/venv.h``): one
    learner seat each, the other seats played by native ``policies`` (four
    pairs as :func:`sim_hands` takes; the learner's is ignored).  The arrays
    are the caller's (rook_core.rl.vector.VectorEnv); steps release the GIL."""

    cdef rook_venv e
    cdef rook_table *t
    cdef readonly int64_t n
    cdef Rules rules

    def __cinit__(self, Rules rules, policies, int learner, int total_points, int target, int n_actions,
                  double reward_scale, int64_t n):
        self.t = NULL
        if not 0 <= learner < 4:
            raise RookError(f"learner must be a seat 0..3, not {learner}")
        if n < 1:
            raise RookError(f"n must be a positive number of tables, not {n}")
        _policies(policies, self.e.policies)
        self.rules = rules
        self.e.r = &rules.r
        self.e.learner = learner
        self.e.total_points = total_points
        self.e.target = target
        self.e.n_actions = n_actions
        self.e.reward_scale = reward_scale
        self.n = n
        self.t = <rook_table *>PyMem_Malloc(n * sizeof(rook_table))
        if self.t == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.t)

    def start(self, const uint64_t[::1] seeds, float[:, ::1] obs, int8_t[:, ::1] mask):
        """Start every table from its seed; write the first observations and masks.
        Return the tables whose policies failed (a list of indices)."""
        self._check(obs, mask, seeds.shape[0])
        cdef int64_t i
        failed = np.zeros(self.n, dtype=np.uint8)
        cdef uint8_t[::1] f = failed
        with nogil:
            for i in range(self.n):
                if rook_venv_start(&self.e, &self.t[i], seeds[i]) < 0:
                    f[i] = 1
                rook_venv_observe(&self.e, &self.t[i], &obs[i, 0], &mask[i, 0])
        return np.flatnonzero(failed).tolist()

    def step(self, const int32_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] mask, float[::1] reward,
             uint8_t[::1] done, int32_t[::1] error):
        """One step of every table (venv.h); return how many had an error."""
        self._check(obs, mask, actions.shape[0])
        if reward.shape[0] != self.n or done.shape[0] != self.n or error.shape[0] != self.n:
            raise RookError(f"reward, done and error need {self.n} entries")
        cdef int64_t errors
        with nogil:
            errors = rook_venv_step(&self.e, self.t, self.n, &actions[0], &obs[0, 0], &mask[0, 0], &reward[0],
                                    &done[0], &error[0])
        return errors

    def episode(self, int64_t i):
        """The episode table ``i`` plays (0-based)."""
        return self.t[self._index(i)].episode

    def hand_mask(self, int64_t i, int seat):
        """The cards ``seat`` of table ``i`` holds now."""
        return self.t[self._index(i)].h.hands[seat & 3]

    cdef int64_t _index(self, int64_t i) except -1:
        if not 0 <= i < self.n:
            raise RookError(f"table {i} is not one of 0..{self.n - 1}")
        return i

    cdef int _check(self, float[:, ::1] obs, int8_t[:, ::1] mask, Py_ssize_t k) except -1:
        if k != self.n or obs.shape[0] != self.n or mask.shape[0] != self.n:
            raise RookError(f"the arrays need {self.n} rows")
        if obs.shape[1] != ROOK_OBS_SIZE or mask.shape[1] != self.e.n_actions:
            raise RookError(f"obs rows take {ROOK_OBS_SIZE} floats and mask rows {self.e.n_actions}")
        return 0
