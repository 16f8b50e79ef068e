# Declarations of src/rook/contract.h: the Toonerville contract kernel (TV-2, TV-4, TV-5, TV-7, TV-12).
from libc.stdint cimport uint8_t, int32_t, int64_t

cdef extern from "rook/contract.h" nogil:
    enum:
        ROOK_TV_MAX_COPIES
        ROOK_TV_MAX_CARDS
        ROOK_TV_MAX_NEED
        ROOK_TV_MAX_DEN
        ROOK_TV_MAX_MELDS
        ROOK_TV_OK
        ROOK_TV_E_TOO_MANY_RUNS
        ROOK_TV_REPR_PLANES
        ROOK_TV_REPR_COUNTS
    ctypedef struct rook_tv_ctx:
        int32_t num
        int32_t den
    ctypedef struct rook_tv_layout:
        int32_t deadwood
        uint8_t can_meet
        uint8_t n_melds
        uint8_t n_cards
        uint8_t kind[16]
        uint8_t len[16]
        uint8_t cards[24]
    ctypedef struct rook_tv_work:
        pass
    int rook_tv_ctx_init(rook_tv_ctx *ctx, int32_t num, int32_t den)
    rook_tv_work *rook_tv_work_new()
    void rook_tv_work_free(rook_tv_work *w)
    int32_t rook_tv_solve(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts,
                          int sets, int runs, rook_tv_layout *out)
    int rook_tv_solve_many(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts, int64_t n,
                           int sets, int runs, int repr, uint8_t *can_meet, int32_t *deadwood)
