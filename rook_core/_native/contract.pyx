# cython: language_level=3, boundscheck=False, wraparound=False
"""The native Toonerville contract kernel (``src/rook/contract.h``): a thin wrapper.

Hands are 64 counts indexed by card id (16 * color + rank, the bird 15), as
:meth:`rook_core.toonerville.hand.MultiHand.counts` gives them.  Every
function checks the counts (no card on an id outside the full-57 deck, at
most ``MAX_COPIES`` of a card, at most ``MAX_CARDS`` cards) and raises
:class:`~rook_core.errors.RookError` naming the hand and the card; the
public API is :mod:`rook_core.toonerville.solver`.

>>> from rook_core.toonerville.hand import MultiHand
>>> h = MultiHand.parse("B7 G7 R7 Y9 Y9 B9 R3 R4 R5 R6 G2 Rook")
>>> solve(h.counts(), 2, 0, 1, 2)            # two sets (TV-2 round 1), wild fraction 1/2
(5, [(0, [7, 23, 15]), (0, [9, 57, 57]), (1, [35, 36, 37, 38, 39])])
"""

from libc.stdint cimport uint8_t, int32_t, int64_t

from rook_core._layout import card_name
from rook_core.errors import RookError

MAX_COPIES = ROOK_TV_MAX_COPIES
MAX_CARDS = ROOK_TV_MAX_CARDS
MAX_NEED = ROOK_TV_MAX_NEED
MAX_DEN = ROOK_TV_MAX_DEN
REPR_PLANES = ROOK_TV_REPR_PLANES
REPR_COUNTS = ROOK_TV_REPR_COUNTS

cdef class _Tables:
    """The kernel's tables for one wild fraction (TV-5)."""
    cdef rook_tv_ctx ctx


_TABLES = {}
cdef rook_tv_work *_WORK = NULL        # scratch of the calls that keep the GIL


cdef _Tables _tables(int num, int den):
    key = (num, den)
    t = _TABLES.get(key)
    if t is None:
        t = _Tables()
        if rook_tv_ctx_init(&(<_Tables>t).ctx, num, den) != 0:
            raise RookError(f"wild fraction {num}/{den} must be in [0, 1] with a denominator "
                            f"1..{MAX_DEN} (TV-5)")
        if len(_TABLES) >= 16:
            _TABLES.clear()
        _TABLES[key] = t
    return <_Tables>t


cdef inline int _bad_row(const uint8_t *row, int *card) noexcept nogil:
    """0 for a good hand; 1: a card on an id outside the deck, 2: more than
    MAX_COPIES of ``*card``, 3: more than MAX_CARDS cards (``*card``: the
    number of cards)."""
    cdef int i, total = 0, over = 0
    for i in range(64):                  # no branch: the compiler vectorises it
        total += row[i]
        over |= row[i] > ROOK_TV_MAX_COPIES
    over |= (row[0] | row[16] | row[32] | row[48] | row[31] | row[47] | row[63]) != 0
    if not over and total <= ROOK_TV_MAX_CARDS:
        return 0
    for i in range(64):
        if row[i] and ((i & 15) == 0 or ((i & 15) == 15 and i != 15)):
            card[0] = i
            return 1
    for i in range(64):
        if row[i] > ROOK_TV_MAX_COPIES:
            card[0] = i
            return 2
    card[0] = total
    return 3


cdef _raise_bad(int code, int card, const uint8_t *row, str where):
    if code == 1:
        raise RookError(f"{where}: card id {card} is not in the full-57 deck (TV-1)")
    if code == 2:
        raise RookError(f"{where}: {row[card]} copies of {card_name(card)}; at most {MAX_COPIES} "
                        f"(TV-1: one deck per player, at most five players)")
    raise RookError(f"{where}: {card} cards; the contract solver takes at most {MAX_CARDS}")


cdef _check_need(int sets, int runs):
    if not (0 <= sets <= MAX_NEED and 0 <= runs <= MAX_NEED):
        raise RookError(f"a contract asks for 0..{MAX_NEED} sets and 0..{MAX_NEED} runs, "
                        f"not {sets} sets and {runs} runs (TV-2)")


def solve(counts, int sets, int runs, int num, int den):
    """Return ``(deadwood, melds)`` for one hand: the least TV-12 deadwood
    (-1 when the contract of ``sets`` sets and ``runs`` runs cannot be met;
    with no set and no run asked for, the least deadwood of any lay-down)
    and one best lay-down as ``(kind, card ids)`` pairs, kind 0 a set and 1
    a run, the contract's sets first, then its runs, then the rest; a bird
    (id 15) stands for whatever card its meld needs (TV-5, TV-7)."""
    global _WORK
    cdef uint8_t row[64]
    cdef rook_tv_layout out
    cdef int i, j, at, code, card = 0
    _check_need(sets, runs)
    cdef _Tables t = _tables(num, den)
    vals = list(counts)
    if len(vals) != 64:
        raise RookError(f"a hand is 64 counts by card id, not {len(vals)}")
    for i in range(64):
        v = vals[i]
        if not 0 <= v <= 255:
            raise RookError(f"count {v!r} of card id {i} is out of range (0..{MAX_COPIES})")
        row[i] = <uint8_t>v
    code = _bad_row(row, &card)
    if code:
        _raise_bad(code, card, row, "hand")
    if _WORK == NULL:
        _WORK = rook_tv_work_new()
        if _WORK == NULL:
            raise MemoryError()
    if rook_tv_solve(&t.ctx, _WORK, row, sets, runs, &out) != ROOK_TV_OK:
        raise RookError("the hand has more candidate runs than the solver can hold")
    if not out.can_meet:
        return -1, []
    melds = []
    at = 0
    for i in range(out.n_melds):
        melds.append((out.kind[i], [out.cards[j] for j in range(at, at + out.len[i])]))
        at += out.len[i]
    return out.deadwood, melds


def solve_many(const uint8_t[:, ::1] counts, int sets, int runs, int num, int den,
               uint8_t[::1] can_meet, int32_t[::1] deadwood, int repr=REPR_PLANES):
    """Fill ``can_meet[i]`` and ``deadwood[i]`` (-1 when not met) for the
    hands ``counts[i]`` (shape (n, 64)) under one contract and wild fraction
    ``num/den``; one C loop without the GIL.  ``repr`` picks the kernel's
    representation of the hand, REPR_PLANES or REPR_COUNTS (the same
    answers; kept to measure them)."""
    _check_need(sets, runs)
    cdef _Tables t = _tables(num, den)
    cdef int64_t n = counts.shape[0], i
    cdef int code = 0, card = 0, err
    cdef rook_tv_work *w
    if counts.shape[1] != 64:
        raise RookError(f"hands are rows of 64 counts by card id, not {counts.shape[1]}")
    if can_meet.shape[0] != n or deadwood.shape[0] != n:
        raise RookError(f"can_meet and deadwood must hold {n} entries")
    if repr not in (REPR_PLANES, REPR_COUNTS):
        raise RookError(f"repr must be REPR_PLANES or REPR_COUNTS, not {repr}")
    if n == 0:
        return
    with nogil:
        for i in range(n):
            code = _bad_row(&counts[i, 0], &card)
            if code:
                break
    if code:
        _raise_bad(code, card, &counts[i, 0], f"hand {i}")
    w = rook_tv_work_new()           # one scratch per call: calls may run on several threads
    if w == NULL:
        raise MemoryError()
    with nogil:
        err = rook_tv_solve_many(&t.ctx, w, &counts[0, 0], n, sets, runs, repr,
                                 &can_meet[0], &deadwood[0])
    rook_tv_work_free(w)
    if err != ROOK_TV_OK:
        raise RookError("a hand has more candidate runs than the solver can hold")
