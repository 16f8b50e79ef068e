/* contract/internal.h: what the two halves of the contract solver share.
 *
 * Contract.  runs.c builds a context's tables (rook_tv_ctx_init) and lists
 * the candidate runs of a hand into a rook_tv_work (rook_tv_gen_runs);
 * search.c searches the multisets of those runs with the best sets of what
 * they leave (see its note).  Both see the constants, the run record and
 * the wild rule (TV-5) here; nothing here is part of contract.h's API.
 */
#ifndef ROOK_CONTRACT_INTERNAL_H
#define ROOK_CONTRACT_INTERNAL_H

#include "rook/bits.h"
#include "rook/contract.h"

#define MAXB        ROOK_TV_MAX_COPIES
#define NEED        ROOK_TV_MAX_NEED
#define BIRD_ID     15
#define BIRD_POINTS 25
#define LANE        0x7ffeu /* ranks 1..14 of one color's 16-bit lane */
/* Candidate runs of one hand.  Within ROOK_TV_MAX_CARDS there are at most
 * 9,938: the most come from one whole color and five birds at fraction 1
 * (9,907), since holding more ranks only adds candidates. */
#define RUN_CAP   16384
#define MAX_DEPTH (ROOK_TV_MAX_CARDS + 1)

#if defined(__GNUC__)
#define TV_INLINE static inline __attribute__((always_inline))
#else
#define TV_INLINE static inline
#endif

/* TV-12: points of a natural of rank r left in hand. */
static const uint8_t RANK_POINTS[16] = {0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 0};

typedef struct tv_run {
    uint64_t nat;  /* its naturals, one copy each (bits of one color's lane) */
    int16_t value; /* their points + BIRD_POINTS per bird */
    uint8_t birds; /* birds in the gaps and the end birds up to 4 cards */
    uint8_t pad;   /* birds it can still take at its ends */
    uint8_t len;   /* naturals + birds */
} tv_run;

struct rook_tv_work {
    int n_runs;
    tv_run runs[RUN_CAP];
};

/* TV-5: `birds` of `cards` are few enough. */
static inline int wild_ok(const rook_tv_ctx *ctx, int birds, int cards)
{
    return birds * ctx->den < ctx->num * cards;
}

/* Fill w->runs with the candidate runs of the naturals `avail` (plane 0)
 * and `birds` birds (runs.c); returns -1 on overflow. */
__attribute__((visibility("hidden"))) int rook_tv_gen_runs(const rook_tv_ctx *ctx, rook_tv_work *w,
                                                           uint64_t avail, int birds);

#endif
