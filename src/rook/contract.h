/* contract.h: the Toonerville contract problem (RULES.md TV-2, TV-4, TV-5,
 * TV-7, TV-12) for one multiset hand, or many.
 *
 * A hand is 64 counts indexed by card id (16 * color + rank, ranks 1..14;
 * the bird is id 15; ids 0, 16, 32, 48, 31, 47, 63 hold nothing).  The
 * question: can the hand lay down `sets` sets and `runs` runs, disjoint and
 * each valid (TV-4, TV-5 with the wild fraction num/den), and what is the
 * least deadwood, the TV-12 points (ranks 1-9: 5, 10-14: 10, bird: 25) of
 * the cards left outside every meld once the further melds of the same
 * hand are laid too (TV-7)?  See contract/search.c for the algorithm.
 *
 * The functions trust their input: counts of at most ROOK_TV_MAX_COPIES per
 * card, at most ROOK_TV_MAX_CARDS cards, nothing on the empty ids, `sets`
 * and `runs` in 0..ROOK_TV_MAX_NEED, 0 <= num <= den <= ROOK_TV_MAX_DEN (a
 * fraction of 0 allows no meld at all: every meld fails TV-5).
 * The callers (rook_core/_native/contract.pyx) check all of it.
 */
#ifndef ROOK_CONTRACT_H
#define ROOK_CONTRACT_H

#include <stdint.h>

#define ROOK_TV_MAX_COPIES 5                        /* TV-1: one deck per player, at most five players */
#define ROOK_TV_MAX_CARDS  24                       /* 16 dealt at most (TV-2) plus draws and buys (TV-8) */
#define ROOK_TV_MAX_NEED   8                        /* sets or runs a contract may ask for */
#define ROOK_TV_MAX_DEN    1000                     /* the wild fraction has a denominator of at most 1000 */
#define ROOK_TV_MAX_MELDS  16                       /* a meld holds >= 3 cards: 24 / 3 = 8 melds at most */
#define ROOK_TV_POOL       (4 * ROOK_TV_MAX_COPIES) /* naturals of one rank at most */

/* Return codes. */
enum {
    ROOK_TV_OK = 0,
    ROOK_TV_E_TOO_MANY_RUNS = 1 /* more candidate runs than the scratch holds (not reached
                                     within the limits above; kept as a guard) */
};

/* Representation of the hand during the search over runs (see contract/search.c). */
enum {
    ROOK_TV_REPR_PLANES = 0,                   /* bit planes: plane j = the cards held more than j times */
    ROOK_TV_REPR_COUNTS = 1,                   /* a count per card id */
    ROOK_TV_REPR_DEFAULT = ROOK_TV_REPR_COUNTS /* the faster (bench/test_toonerville.py) */
};

/* Tables that depend on the wild fraction only; fill once, share freely. */
typedef struct rook_tv_ctx {
    int32_t num, den; /* TV-5: birds * den < num * cards */
    /* set_groups[n][b]: the most sets n naturals of one rank and b birds
       split into, every card used (-1: none; 0 only for n = b = 0) */
    int8_t set_groups[ROOK_TV_POOL + 1][ROOK_TV_MAX_COPIES + 1];
    /* set_first[n][b]: naturals and birds of the first set of such a split */
    uint8_t set_first[ROOK_TV_POOL + 1][ROOK_TV_MAX_COPIES + 1][2];
    /* run_pad[len][b]: birds a valid run of len cards, b of them birds, can
       still take at its ends (at most ROOK_TV_MAX_COPIES) */
    uint8_t run_pad[15][ROOK_TV_MAX_COPIES + 1];
    /* set_most[n][b]: the most sets n naturals of one rank make with at
       most b birds (0: none); set_birds[n]: the fewest birds that make a
       set of n naturals (> ROOK_TV_MAX_COPIES: none) */
    uint8_t set_most[ROOK_TV_POOL + 1][ROOK_TV_MAX_COPIES + 1];
    uint8_t set_birds[ROOK_TV_POOL + 1];
} rook_tv_ctx;

/* One best lay-down.  Meld i is cards[start .. start + len[i]) where start
 * is the sum of the earlier lengths; cards ascend by id, birds (15) last.
 * The contract's `sets` sets come first, then its `runs` runs, then the
 * further sets and runs. */
typedef struct rook_tv_layout {
    int32_t deadwood; /* -1 when the contract cannot be met */
    uint8_t can_meet;
    uint8_t n_melds;
    uint8_t n_cards;                 /* cards in melds */
    uint8_t kind[ROOK_TV_MAX_MELDS]; /* 0: set, 1: run */
    uint8_t len[ROOK_TV_MAX_MELDS];
    uint8_t cards[ROOK_TV_MAX_CARDS];
} rook_tv_layout;

/* Scratch of the search (the candidate runs of one hand), reused between
 * calls; one per thread. */
typedef struct rook_tv_work rook_tv_work;

/* Fill `ctx` for the wild fraction num/den (TV-5).  Returns 0, or -1 when
 * the fraction is not in [0, 1] or den is not in 1..ROOK_TV_MAX_DEN. */
int rook_tv_ctx_init(rook_tv_ctx *ctx, int32_t num, int32_t den);

/* Allocate / free a scratch (NULL when out of memory). */
rook_tv_work *rook_tv_work_new(void);
void rook_tv_work_free(rook_tv_work *w);

/* Solve one hand; `out` may be NULL to get the deadwood only (the return
 * value of the call is then the deadwood, or -1 when the contract cannot
 * be met).  With `out`, returns ROOK_TV_OK or an error code. */
int32_t rook_tv_solve(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t counts[64], int sets, int runs,
                      rook_tv_layout *out);

/* Solve n hands counts[i * 64 .. i * 64 + 63] for one contract:
 * can_meet[i] and deadwood[i] (-1 when not met).  `repr` picks the
 * representation (ROOK_TV_REPR_*; both give the same answers).  Returns
 * ROOK_TV_OK or the first error code met (that hand gets deadwood -2). */
int rook_tv_solve_many(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts, int64_t n, int sets,
                       int runs, int repr, uint8_t *can_meet, int32_t *deadwood);

#endif
