/* contract/search.c: least deadwood of a Toonerville hand under a contract
 * (RULES.md TV-2, TV-4, TV-5, TV-7, TV-12).
 *
 * Algorithm.  A lay-down is a set of runs, sets per rank, and the cards
 * left.  Two facts cut the search down to the runs:
 *
 *  - Sets only see, per rank, how many naturals the runs left there (colors
 *    are free in a set) and how many birds they get.  A natural added to a
 *    set never breaks it, so at a rank either no set is laid or every
 *    natural left there goes into sets, split into as many as the wild rule
 *    allows (set_groups; any smaller number is reached by merging).  With
 *    the runs fixed, the best sets are a knapsack over the 14 ranks whose
 *    state is (birds given to sets, sets laid capped at the contract's):
 *    tv_sets.
 *
 *  - A run is its naturals (one color, one card per rank; the lowest and the
 *    highest are natural) plus birds: one per gap between them, and end
 *    birds.  The fewest end birds that make 4 cards are the most favourable
 *    to the wild rule, since each bird adds 1 to the birds and at most 1 to
 *    fraction * cards; so a candidate run is its naturals with those birds,
 *    and any further bird it may take (its "pad": at an end, within rank 14
 *    and the wild rule) is given out after the sets, as birds left over.
 *    The candidates are listed once per hand (runs.c; a bird may stand in
 *    a gap where the natural is held, keeping that natural for a set).
 *
 * The search (tv_search) goes over every multiset of candidate runs that
 * the hand holds, in the order of the list (each multiset once), with an
 * explicit stack; at every node with enough runs it scores the best sets of
 * the cards left.  A node is closed unopened when the cards left cannot
 * make the missing sets and runs, or when even melding every card left that
 * a set or a run could still hold would not beat the best found (each test
 * stays true below the node, which only has fewer cards); the search stops
 * when no card is left over.  Random hands rarely hold a candidate run, so
 * most cost one knapsack.  Nothing is allocated: the candidate list lives
 * in the caller's rook_tv_work.
 *
 * The natural cards left are kept as a mask of the cards held (a run fits
 * when its naturals are in it) plus either a count per card id or bit
 * planes (plane j: the cards held more than j times; taking a run shifts
 * each plane down on its bits).  Both are compiled from one routine
 * (tv_search with a constant `repr`) and give the same answers;
 * bench/test_toonerville.py measures them: within 10% of each other, count
 * vectors ahead on random hands (cheaper to set up), so they are the
 * default.
 */
#include <stdlib.h>
#include <string.h>

#include "rook/contract/internal.h"

#if defined(__SSSE3__)
#include <tmmintrin.h>
#define TV_SIMD 1
#endif

/* ------------------------------------------------------------------- sets */

/* The points the sets can meld from `pool` (naturals left per rank) and
 * `birds` birds, plus BIRD_POINTS for each bird left over that the runs
 * take (at most `pad`), when at least `need` sets are laid; -1 when they
 * cannot be.  With `choice` (15 x (MAXB+1) x (NEED+1) entries) the
 * decisions are kept for tv_layout to walk back. */
typedef struct tv_choice {
    int8_t prev_b, prev_t, y; /* y: birds given to this rank's sets, -1 for none */
} tv_choice;

static int tv_sets(const rook_tv_ctx *ctx, const uint8_t *pool, int birds, int pad, int need, tv_choice *choice,
                   int *best_b)
{
    int16_t dp[MAXB + 1][NEED + 1], nd[MAXB + 1][NEED + 1];
    int k, b, t, y, best = -1;
    if (birds == 0 && !choice) {
        int v = 0, sets = 0;
        for (k = 1; k <= 14; k++) {
            int n = pool[k];
            int m = ctx->set_groups[n][0];
            if (m > 0) {
                v += n * RANK_POINTS[k];
                sets += m;
            }
        }
        return sets >= need ? v : -1;
    }
    for (b = 0; b <= birds; b++)
        for (t = 0; t <= need; t++)
            dp[b][t] = -1;
    dp[0][0] = 0;
    for (k = 1; k <= 14; k++) {
        int n = pool[k], pv;
        if (n == 0 || n + birds < 3)
            continue;
        pv = n * RANK_POINTS[k];
        for (b = 0; b <= birds; b++)
            for (t = 0; t <= need; t++) {
                nd[b][t] = dp[b][t];
                if (choice) {
                    tv_choice *ch = &choice[(k * (MAXB + 1) + b) * (NEED + 1) + t];
                    ch->prev_b = (int8_t)b;
                    ch->prev_t = (int8_t)t;
                    ch->y = -1;
                }
            }
        for (b = 0; b <= birds; b++)
            for (t = 0; t <= need; t++) {
                int cur = dp[b][t];
                if (cur < 0)
                    continue;
                for (y = 0; y <= birds - b; y++) {
                    int m = ctx->set_groups[n][y], nt;
                    if (m <= 0)
                        continue;
                    nt = t + m > need ? need : t + m;
                    if (cur + pv > nd[b + y][nt]) {
                        nd[b + y][nt] = (int16_t)(cur + pv);
                        if (choice) {
                            tv_choice *ch = &choice[(k * (MAXB + 1) + b + y) * (NEED + 1) + nt];
                            ch->prev_b = (int8_t)b;
                            ch->prev_t = (int8_t)t;
                            ch->y = (int8_t)y;
                        }
                    }
                }
            }
        memcpy(dp, nd, sizeof dp);
    }
    for (b = 0; b <= birds; b++) {
        int v, left;
        if (dp[b][need] < 0)
            continue;
        left = birds - b;
        v = dp[b][need] + BIRD_POINTS * (b + (left < pad ? left : pad));
        if (v > best) {
            best = v;
            if (best_b)
                *best_b = b;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- a hand */

/* What the search needs to know of a hand before it starts. */
typedef struct tv_hand {
    uint64_t avail;   /* natural cards held (plane 0) */
    uint64_t more;    /* natural cards held more than once */
    uint8_t pool[16]; /* naturals per rank (pool[15]: the birds) */
    int32_t total;    /* TV-12 points of the whole hand */
    int birds;
} tv_hand;

/* TV-12 points by rank, the birds' at 15. */
static const uint8_t POOL_POINTS[16] = {0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, BIRD_POINTS};

#ifdef TV_SIMD
/* Bits of the 64 counts greater than j. */
static inline uint64_t counts_above(const __m128i v[4], int j)
{
    __m128i t = _mm_set1_epi8((char)j);
    return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v[0], t))
        | (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v[1], t)) << 16
        | (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v[2], t)) << 32
        | (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v[3], t)) << 48;
}
#endif

static void tv_prepare(const uint8_t *counts, tv_hand *h, uint64_t *plane)
{
    const uint64_t bird = (uint64_t)1 << BIRD_ID;
    int j;
#ifdef TV_SIMD
    __m128i v[4], pool, prod;
    v[0] = _mm_loadu_si128((const __m128i *)counts);
    v[1] = _mm_loadu_si128((const __m128i *)(counts + 16));
    v[2] = _mm_loadu_si128((const __m128i *)(counts + 32));
    v[3] = _mm_loadu_si128((const __m128i *)(counts + 48));
    h->avail = counts_above(v, 0) & ~bird;
    h->more = counts_above(v, 1) & ~bird;
    pool = _mm_add_epi8(_mm_add_epi8(v[0], v[1]), _mm_add_epi8(v[2], v[3]));
    _mm_storeu_si128((__m128i *)h->pool, pool);
    prod = _mm_maddubs_epi16(pool, _mm_loadu_si128((const __m128i *)POOL_POINTS));
    prod = _mm_madd_epi16(prod, _mm_set1_epi16(1));
    prod = _mm_add_epi32(prod, _mm_shuffle_epi32(prod, 0x4e));
    prod = _mm_add_epi32(prod, _mm_shuffle_epi32(prod, 0xb1));
    h->total = _mm_cvtsi128_si32(prod);
    if (plane) {
        plane[0] = h->avail;
        for (j = 1; j < MAXB; j++)
            plane[j] = h->more ? counts_above(v, j) & ~bird : 0;
    }
#else
    int i, k;
    h->avail = h->more = 0;
    for (i = 0; i < 64; i++) {
        h->avail |= (uint64_t)(counts[i] > 0) << i;
        h->more |= (uint64_t)(counts[i] > 1) << i;
    }
    h->avail &= ~bird;
    h->more &= ~bird;
    h->total = 0;
    for (k = 0; k < 16; k++) {
        h->pool[k] = (uint8_t)(counts[k] + counts[16 + k] + counts[32 + k] + counts[48 + k]);
        h->total += h->pool[k] * POOL_POINTS[k];
    }
    if (plane) {
        plane[0] = h->avail;
        for (j = 1; j < MAXB; j++) {
            plane[j] = 0;
            if (h->more)
                for (i = 0; i < 64; i++)
                    plane[j] |= (uint64_t)(counts[i] > j) << i;
            plane[j] &= ~bird;
        }
    }
#endif
    h->birds = counts[BIRD_ID];
    h->pool[15] = 0;
}

/* ----------------------------------------------------------------- search */

typedef struct tv_best {
    int32_t value; /* points melded, -1 before any lay-down */
    int depth;
    int16_t runs[MAX_DEPTH]; /* indices into w->runs */
} tv_best;

/* Take one copy of each card of `m` out of the planes (every count on m
 * drops by one: plane j takes plane j + 1's bits there), or give it back. */
TV_INLINE void planes_take(uint64_t *plane, uint64_t m)
{
    int j;
    for (j = 0; j < MAXB - 1; j++)
        plane[j] = (plane[j] & ~m) | (plane[j + 1] & m);
    plane[MAXB - 1] &= ~m;
}

TV_INLINE void planes_give(uint64_t *plane, uint64_t m)
{
    int j;
    for (j = MAXB - 1; j > 0; j--)
        plane[j] = (plane[j] & ~m) | (plane[j - 1] & m);
    plane[0] |= m;
}

/* Ranks 1..11 of every lane: where a window of 4 ranks may start. */
#define WINDOW_STARTS 0x0ffe0ffe0ffe0ffeULL
#define LOW_RANKS     0x03fe03fe03fe03feULL /* ranks 1..9: 5 points (TV-12) */
#define HIGH_RANKS    0x7c007c007c007c00ULL /* ranks 10..14: 10 points */

/* The natural cards of `avail` that some run could still hold with `birds`
 * birds: those in a window of 4 ranks of their color holding at least
 * 4 - birds cards (each run of 4 or more cards has such a window around
 * each of its naturals).  Bit-sliced over all four colors at once. */
static inline uint64_t run_reach(uint64_t avail, int birds)
{
    uint64_t a1 = avail >> 1, a2 = avail >> 2, a3 = avail >> 3;
    uint64_t x = avail ^ a1, c1 = avail & a1, y = a2 ^ a3, c2 = a2 & a3;
    uint64_t s0 = x ^ y, k0 = x & y, s1 = c1 ^ c2 ^ k0, s2 = (c1 & c2) | ((c1 ^ c2) & k0);
    uint64_t good; /* starts of windows with enough cards */
    if (birds >= 3)
        good = avail | a1 | a2 | a3;
    else if (birds == 2)
        good = s2 | s1;
    else if (birds == 1)
        good = s2 | (s1 & s0);
    else
        good = s2;
    good &= WINDOW_STARTS;
    return (good | good << 1 | good << 2 | good << 3) & avail;
}

/* The most points a lay-down meeting `sets` sets and `runs` runs melds, or
 * -1; the runs of one best lay-down in *best.  Returns -2 on overflow.
 *
 * Before a node is scored and opened, three tests, each true of every node
 * below it too (those only have fewer cards), may close it:
 *  - the cards left cannot make the sets and runs still missing (3 and 4
 *    cards each);
 *  - the ranks cannot make `sets` sets even with all the birds left at
 *    each (set_most);
 *  - the points melded so far plus those of every card left that a set or
 *    a run could still hold (run_reach) do not beat the best found. */
TV_INLINE int32_t tv_search(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts, int sets, int runs,
                            const int repr, int32_t *total, tv_best *best)
{
    uint64_t plane[MAXB]; /* ROOK_TV_REPR_PLANES */
    uint8_t cnt[64];      /* ROOK_TV_REPR_COUNTS */
    uint64_t avail;       /* natural cards left (both) */
    uint8_t *pool;
    tv_hand h;
    struct {
        int next, run;
    } fr[MAX_DEPTH + 1];
    int birds, pad = 0, nrun = 0, value = 0, depth = 0, j, n, cards, rest;

    tv_prepare(counts, &h, repr == ROOK_TV_REPR_PLANES ? plane : NULL);
    if (repr == ROOK_TV_REPR_COUNTS) {
        memcpy(cnt, counts, 64);
        cnt[BIRD_ID] = 0;
    }
    pool = h.pool;
    birds = h.birds;
    avail = h.avail;
    *total = h.total;
    rest = h.total - BIRD_POINTS * birds; /* points of the naturals left */
    cards = birds;
    for (j = 1; j <= 14; j++)
        cards += pool[j];

    best->value = -1;
    best->depth = 0;
    w->n_runs = 0;
    if (avail && rook_tv_gen_runs(ctx, w, avail, birds) < 0)
        return -2;
    n = w->n_runs;
    if (runs > 0 && n == 0)
        return -1;
    if (runs == 0) {
        int v = tv_sets(ctx, pool, birds, 0, sets, NULL, NULL);
        if (v >= 0) {
            best->value = v;
            if (v == h.total || n == 0)
                return v;
        } else if (n == 0) {
            return -1;
        }
    }
    fr[0].next = 0;
    fr[0].run = -1;
    goto test_node;
    for (;;) {
        const tv_run *r = NULL;
        int nx = fr[depth].next;
        for (; nx < n; nx++) {
            r = &w->runs[nx];
            if (r->birds <= birds && !(r->nat & ~avail))
                break;
        }
        if (nx >= n) { /* this node is done: back up */
            const tv_run *u;
            uint64_t m;
            if (depth == 0)
                break;
            u = &w->runs[fr[depth].run];
            if (repr == ROOK_TV_REPR_PLANES) {
                planes_give(plane, u->nat);
                avail = plane[0];
            }
            for (m = u->nat; m; m &= m - 1) {
                int id = rook_lsb(m);
                if (repr == ROOK_TV_REPR_COUNTS)
                    cnt[id]++;
                pool[id & 15]++;
            }
            if (repr == ROOK_TV_REPR_COUNTS)
                avail |= u->nat;
            birds += u->birds;
            pad -= u->pad;
            value -= u->value;
            rest += u->value - BIRD_POINTS * u->birds;
            cards += u->len;
            nrun--;
            depth--;
            continue;
        }
        fr[depth].next = nx + 1;
        { /* lay run nx */
            uint64_t m;
            if (repr == ROOK_TV_REPR_PLANES) {
                planes_take(plane, r->nat);
                avail = plane[0];
            }
            for (m = r->nat; m; m &= m - 1) {
                int id = rook_lsb(m);
                if (repr == ROOK_TV_REPR_COUNTS && !--cnt[id])
                    avail &= ~((uint64_t)1 << id);
                pool[id & 15]--;
            }
            birds -= r->birds;
            pad += r->pad;
            value += r->value;
            rest -= r->value - BIRD_POINTS * r->birds;
            cards -= r->len;
            nrun++;
            depth++;
            fr[depth].next = nx; /* the same run again: a multiset */
            fr[depth].run = nx;
        }
    test_node:
        {
            int missing = nrun < runs ? runs - nrun : 0, most = 0, k;
            uint32_t set_ranks = 0;
            uint64_t reach, lost;
            int lost_points = 0;
            if (4 * missing + 3 * sets > cards)
                goto close_node;
            for (k = 1; k <= 14; k++) {
                int p = pool[k];
                if (p && ctx->set_birds[p] <= birds)
                    set_ranks |= 1u << k;
                most += ctx->set_most[p][birds];
            }
            if (most < sets)
                goto close_node;
            if (best->value >= 0) {
                reach = run_reach(avail, birds) | (uint64_t)set_ranks * 0x0001000100010001ULL;
                lost = avail & ~reach;
                if (repr == ROOK_TV_REPR_PLANES) {
                    int lo = 0, hi = 0;
                    for (j = 0; j < MAXB; j++) {
                        lo += rook_popcount(plane[j] & lost & LOW_RANKS);
                        hi += rook_popcount(plane[j] & lost & HIGH_RANKS);
                    }
                    lost_points = 5 * lo + 10 * hi;
                } else {
                    for (; lost; lost &= lost - 1) {
                        int id = rook_lsb(lost);
                        lost_points += cnt[id] * RANK_POINTS[id & 15];
                    }
                }
                if (value + rest - lost_points + BIRD_POINTS * birds <= best->value)
                    goto close_node;
            }
        }
        if (nrun >= runs && depth > 0) { /* score the node (the root is scored above) */
            int v = tv_sets(ctx, pool, birds, pad, sets, NULL, NULL);
            if (v >= 0 && value + v > best->value) {
                best->value = value + v;
                best->depth = depth;
                for (j = 0; j < depth; j++)
                    best->runs[j] = (int16_t)fr[j + 1].run;
                if (best->value == h.total)
                    break;
            }
        }
        continue;
    close_node:
        fr[depth].next = n;
    }
    return best->value;
}

/* ------------------------------------------------------------ the lay-down */

typedef struct meld_buf {
    uint8_t kind, len;
    uint8_t cards[ROOK_TV_MAX_CARDS];
} meld_buf;

/* Write the lay-down of the runs in `best` and the best sets of what they
 * leave into `out` (contract melds first). */
static void tv_layout(const rook_tv_ctx *ctx, const rook_tv_work *w, const uint8_t *counts, int sets, int runs,
                      const tv_best *best, rook_tv_layout *out)
{
    tv_choice choice[15 * (MAXB + 1) * (NEED + 1)];
    meld_buf set_m[ROOK_TV_MAX_MELDS], run_m[ROOK_TV_MAX_MELDS];
    uint8_t cnt[64], pool[16], ys[16], groups[16][ROOK_TV_MAX_MELDS][2], ngroups[16];
    int birds = counts[BIRD_ID], pad = 0, i, k, c, b, t, bset = 0, n_set = 0, n_run = 0;
    int set_ranks = 0, total_groups = 0, target, left;

    memcpy(cnt, counts, 64);
    for (i = 0; i < best->depth; i++) {
        const tv_run *r = &w->runs[best->runs[i]];
        uint64_t m;
        for (m = r->nat; m; m &= m - 1)
            cnt[rook_lsb(m)]--;
        birds -= r->birds;
        pad += r->pad;
    }
    for (k = 0; k < 16; k++)
        pool[k] = (uint8_t)(cnt[k] + cnt[16 + k] + cnt[32 + k] + cnt[48 + k]);
    pool[15] = 0;

    /* the sets: replay the knapsack, then walk its choices back */
    tv_sets(ctx, pool, birds, pad, sets, choice, &bset);
    memset(ys, 0xff, sizeof ys);
    b = bset;
    t = sets;
    for (k = 14; k >= 1; k--) {
        const tv_choice *ch;
        int n = pool[k];
        if (n == 0 || n + birds < 3)
            continue;
        ch = &choice[(k * (MAXB + 1) + b) * (NEED + 1) + t];
        ys[k] = (uint8_t)ch->y;
        b = ch->prev_b;
        t = ch->prev_t;
    }
    for (k = 1; k <= 14; k++) {
        int n = pool[k], y, g = 0;
        ngroups[k] = 0;
        if (ys[k] == 0xff)
            continue;
        y = ys[k];
        while (n || y) { /* split into the most sets */
            int x = ctx->set_first[n][y][0], z = ctx->set_first[n][y][1];
            groups[k][g][0] = (uint8_t)x;
            groups[k][g][1] = (uint8_t)z;
            g++;
            n -= x;
            y -= z;
        }
        ngroups[k] = (uint8_t)g;
        set_ranks++;
        total_groups += g;
    }
    target = set_ranks > sets ? set_ranks : sets;
    for (k = 14; k >= 1 && total_groups > target; k--) {
        while (ngroups[k] > 1 && total_groups > target) { /* merging keeps a set valid */
            int g = ngroups[k] - 1;
            groups[k][g - 1][0] = (uint8_t)(groups[k][g - 1][0] + groups[k][g][0]);
            groups[k][g - 1][1] = (uint8_t)(groups[k][g - 1][1] + groups[k][g][1]);
            ngroups[k]--;
            total_groups--;
        }
    }
    for (k = 1; k <= 14; k++) {
        int g;
        c = 0;
        for (g = 0; g < ngroups[k]; g++) {
            meld_buf *mb = &set_m[n_set++];
            int x = groups[k][g][0], z = groups[k][g][1];
            mb->kind = 0;
            mb->len = 0;
            while (x) {
                if (cnt[16 * c + k]) {
                    cnt[16 * c + k]--;
                    mb->cards[mb->len++] = (uint8_t)(16 * c + k);
                    x--;
                } else {
                    c++;
                }
            }
            while (z--)
                mb->cards[mb->len++] = BIRD_ID;
        }
    }

    /* the runs, each with its pads out of the birds the sets left */
    left = birds - bset;
    for (i = 0; i < best->depth; i++) {
        const tv_run *r = &w->runs[best->runs[i]];
        meld_buf *mb = &run_m[n_run++];
        uint64_t m;
        int p = r->pad < left ? r->pad : left;
        left -= p;
        mb->kind = 1;
        mb->len = 0;
        for (m = r->nat; m; m &= m - 1)
            mb->cards[mb->len++] = (uint8_t)rook_lsb(m);
        for (b = 0; b < r->birds + p; b++)
            mb->cards[mb->len++] = BIRD_ID;
    }

    /* the contract's sets, its runs, then the rest */
    out->n_melds = 0;
    out->n_cards = 0;
    {
        const meld_buf *order[2 * ROOK_TV_MAX_MELDS];
        int no = 0;
        for (i = 0; i < sets && i < n_set; i++)
            order[no++] = &set_m[i];
        for (i = 0; i < runs && i < n_run; i++)
            order[no++] = &run_m[i];
        for (i = sets; i < n_set; i++)
            order[no++] = &set_m[i];
        for (i = runs; i < n_run; i++)
            order[no++] = &run_m[i];
        for (i = 0; i < no && i < ROOK_TV_MAX_MELDS; i++) {
            out->kind[i] = order[i]->kind;
            out->len[i] = order[i]->len;
            memcpy(out->cards + out->n_cards, order[i]->cards, order[i]->len);
            out->n_cards = (uint8_t)(out->n_cards + order[i]->len);
            out->n_melds++;
        }
    }
}

/* ------------------------------------------------------------ entry points */

static int32_t solve_with(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts, int sets, int runs,
                          int repr, int32_t *total, tv_best *best)
{
    if (repr == ROOK_TV_REPR_COUNTS)
        return tv_search(ctx, w, counts, sets, runs, ROOK_TV_REPR_COUNTS, total, best);
    return tv_search(ctx, w, counts, sets, runs, ROOK_TV_REPR_PLANES, total, best);
}

int32_t rook_tv_solve(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t counts[64], int sets, int runs,
                      rook_tv_layout *out)
{
    tv_best best;
    int32_t total;
    int32_t v = solve_with(ctx, w, counts, sets, runs, ROOK_TV_REPR_DEFAULT, &total, &best);
    if (!out)
        return v < -1 ? v : (v < 0 ? -1 : total - v);
    memset(out, 0, sizeof *out);
    if (v == -2) {
        out->deadwood = -2;
        return ROOK_TV_E_TOO_MANY_RUNS;
    }
    if (v < 0) {
        out->deadwood = -1;
        return ROOK_TV_OK;
    }
    out->can_meet = 1;
    out->deadwood = total - v;
    tv_layout(ctx, w, counts, sets, runs, &best, out);
    return ROOK_TV_OK;
}

int rook_tv_solve_many(const rook_tv_ctx *ctx, rook_tv_work *w, const uint8_t *counts, int64_t n, int sets,
                       int runs, int repr, uint8_t *can_meet, int32_t *deadwood)
{
    tv_best best;
    int64_t i;
    int err = ROOK_TV_OK;
    for (i = 0; i < n; i++) {
        int32_t total;
        int32_t v = solve_with(ctx, w, counts + 64 * i, sets, runs, repr, &total, &best);
        if (v == -2) {
            if (!err)
                err = ROOK_TV_E_TOO_MANY_RUNS;
            can_meet[i] = 0;
            deadwood[i] = -2;
        } else {
            can_meet[i] = v >= 0;
            deadwood[i] = v >= 0 ? total - v : -1;
        }
    }
    return err;
}
