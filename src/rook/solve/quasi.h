/* quasi.h: bounds of positions that differ only in points (quasi-symmetry).
 *
 * Contract.  A second table, beside table.h's, answers for positions that
 * have the same shape as a stored one but other points on some cards:
 *   - the same leader and tricks won, and, for each seat and suit, the same
 *     number of cards and of each marked card (any-time, bird);
 *   - in each suit, the same holders (and marked cards) for the top `kept`
 *     cards, `kept` reaching down to the lowest card whose rank the stored
 *     search relied on, as in table.h.
 * Why that is enough: call the stored position P (bounds [lo, hi] for every
 * position that agrees with P on holders and tags above the kept line and
 * has its counts by seat, suit and tag below it) and the probed one Q.
 * Give Q's cards P's points -- above the line card by card, below it within
 * each group of one seat and suit, pairing the points in sorted order --
 * and the result P* is one of those positions: lo <= V(P*) <= hi.  Q and
 * P* have trees of the same shape, and each line's result differs only by
 * the points that moved, so V(Q) - V(P*) lies between the sum of the
 * negative differences and the sum of the positive ones.  The sorted
 * pairing makes both sums as small as they can be.  The bound rests on the
 * same ranks as the stored one: the cards above the kept line.
 *
 * An entry is 64 bytes: lock and bounds as in table.h, the tags of the kept
 * cards, and for each seat and suit the counts of each kind of unmarked
 * counter below the line.  Only for positions of at most DD_QS_MAX_CARDS
 * cards and variants of at most DD_QS_KINDS kinds of unmarked counters.
 */
#ifndef ROOK_SOLVE_QUASI_H
#define ROOK_SOLVE_QUASI_H

#include <string.h>
#include "rook/solve/table.h"

#ifndef DD_QS_SHARE
#define DD_QS_SHARE 4                /* a quarter of the memory; 0: none */
#endif
#ifndef DD_QBUCKET
#define DD_QBUCKET 4
#endif
#define DD_QS_MAX_CARDS 32
#define DD_QS_KINDS 4

struct dd_qentry {
    uint64_t lock;                   /* as dd_entry */
    uint64_t data;                   /* as dd_entry */
    uint32_t ktag[DD_TAG_PLANES];    /* the tag planes of the key, on the kept bits */
    uint32_t pad;
    uint8_t below[32];               /* [seat * 4 + suit]: a 4-bit count per counter kind, two a byte */
};

_Static_assert(sizeof(struct dd_qentry) == 64, "a quasi-symmetry entry is one cache line");

/* The bucket hash: leader, tricks won, counts by (seat, suit, mark). */
static inline uint64_t dd_qcoarse(const rook_solver *s)
{
    return dd_mix64(s->zlead[s->leader] ^ s->zwon[s->won[0] & 63]) + s->zssum;
}

static inline dd_qentry *dd_qbucket(const rook_solver *s, uint64_t qc)
{
    return &s->qt[DD_QBUCKET * (((qc >> 32) * s->n_qbuckets) >> 32)];
}

/* The key bits of the marked cards in hands. */
static inline uint64_t dd_q_marks(const rook_solver *s, const dd_key *k)
{
    uint64_t m = 0;
    for (uint64_t x = s->marked & k->out; x; x &= x - 1)
        m |= 1ULL << rook_popcount(k->out & ((x & -x) - 1));
    return m;
}

static inline uint64_t dd_q_lock(const dd_key *k, uint64_t qc, uint64_t marks, uint32_t keep, uint64_t km)
{
    uint64_t h = qc ^ ((uint64_t)keep * 0xD6E8FEB86659FD93ULL);
    uint64_t mk = marks & km;
    uint64_t w[6] = {k->plane[0] & km, k->plane[1] & km, mk, k->plane[2] & mk, k->plane[3] & mk,
                     k->plane[4] & mk};
    for (int p = 0; p < 6; p++) {
        h = (h ^ w[p]) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return dd_mix64(h) & ~0xFFULL;
}

/* The counts by (seat, suit, counter kind) of the unmarked counters under
 * the kept bits km. */
static inline void dd_q_below(const rook_solver *s, const dd_key *k, uint64_t km, uint8_t below[32])
{
    for (int i = 0; i < 32; i++)
        below[i] = 0;
    uint64_t p0 = k->plane[0], p1 = k->plane[1];
    uint64_t seatm[4] = {~p0 & ~p1, p0 & ~p1, ~p0 & p1, p0 & p1};
    uint64_t kindm[DD_QS_KINDS];
    for (int q = 0; q < s->n_qkinds; q++) {
        int t = s->qkind_tag[q];
        kindm[q] = ((t & 1) ? k->plane[2] : ~k->plane[2]) & ((t & 2) ? k->plane[3] : ~k->plane[3])
                 & ((t & 4) ? k->plane[4] : ~k->plane[4]);
    }
    int start = 0;
    for (int l = 0; l < 4; l++) {
        int n = rook_popcount(k->out & DD_LANE(l));
        uint64_t under = (((1ULL << n) - 1) << start) & ~km;
        start += n;
        if (!under)
            continue;
        for (int seat = 0; seat < 4; seat++) {
            uint64_t m = under & seatm[seat];
            if (!m)
                continue;
            for (int q = 0; q < s->n_qkinds; q++) {
                int c = rook_popcount(m & kindm[q]);
                below[(seat * 4 + l) * 2 + (q >> 1)] |= (uint8_t)(c << (4 * (q & 1)));
            }
        }
    }
}

/* Add to *neg and *pos the sums of the negative and the positive point
 * differences of a sorted pairing of the cards of group g (n cards) with
 * counter counts a[] (stored) and b[] (probed). */
static inline void dd_q_pair(const rook_solver *s, const uint8_t *ab, const uint8_t *bb, int n,
                             int *neg, int *pos)
{
    int ca[DD_QS_KINDS + 1], cb[DD_QS_KINDS + 1];
    int K = s->n_qkinds;
    int za = n, zb = n;
    for (int q = 0; q < K; q++) {
        ca[q + 1] = (ab[q >> 1] >> (4 * (q & 1))) & 15;
        cb[q + 1] = (bb[q >> 1] >> (4 * (q & 1))) & 15;
        za -= ca[q + 1];
        zb -= cb[q + 1];
    }
    ca[0] = za;
    cb[0] = zb;
    int ia = 0, ib = 0;
    while (ia <= K && ib <= K) {
        if (!ca[ia]) {
            ia++;
            continue;
        }
        if (!cb[ib]) {
            ib++;
            continue;
        }
        int m = ca[ia] < cb[ib] ? ca[ia] : cb[ib];
        int d = (ib ? s->qkind_pts[ib - 1] : 0) - (ia ? s->qkind_pts[ia - 1] : 0);
        if (d < 0)
            *neg += m * d;
        else
            *pos += m * d;
        ca[ia] -= m;
        cb[ib] -= m;
    }
}

/* Narrow [*lo, *hi] with the quasi-symmetric entries that stand for the
 * key's position; return whether one did; *rel gets the cards they rest on. */
static inline int dd_q_probe(rook_solver *s, const dd_key *k, uint64_t qc, uint64_t marks,
                             int *lo, int *hi, uint64_t *rel)
{
    dd_qentry *b = dd_qbucket(s, qc);
    int used = 0;
    for (int i = 0; i < DD_QBUCKET; i++) {
        uint64_t lk = b[i].lock;
        if ((uint8_t)lk != s->gen)
            continue;
        uint64_t d = b[i].data;
        uint32_t keep = DD_E_KEEP(d);
        uint64_t km = dd_keep_mask(k, keep);
        if ((lk & ~0xFFULL) != dd_q_lock(k, qc, marks, keep, km))
            continue;
        int neg = 0, pos = 0;
        /* the kept cards, one by one */
        uint32_t t0 = (uint32_t)(k->plane[2] & km), t1 = (uint32_t)(k->plane[3] & km),
                 t2 = (uint32_t)(k->plane[4] & km);
        uint32_t diff = (t0 ^ b[i].ktag[0]) | (t1 ^ b[i].ktag[1]) | (t2 ^ b[i].ktag[2]);
        for (; diff; diff &= diff - 1) {
            int j = rook_lsb(diff);
            int tp = ((t0 >> j) & 1) | ((t1 >> j) & 1) << 1 | ((t2 >> j) & 1) << 2;
            int ts = ((b[i].ktag[0] >> j) & 1) | ((b[i].ktag[1] >> j) & 1) << 1
                   | ((b[i].ktag[2] >> j) & 1) << 2;
            int dp = s->tag_pts[tp] - s->tag_pts[ts];
            if (dp < 0)
                neg += dp;
            else
                pos += dp;
        }
        /* the cards under the line, group by group */
        uint8_t below[32];
        dd_q_below(s, k, km, below);
        int start = 0;
        for (int l = 0; l < 4; l++) {
            int n = rook_popcount(k->out & DD_LANE(l));
            uint64_t under = (((1ULL << n) - 1) << start) & ~km;
            start += n;
            if (!under)
                continue;
            uint64_t p0 = k->plane[0], p1 = k->plane[1];
            uint64_t seatm[4] = {~p0 & ~p1, p0 & ~p1, ~p0 & p1, p0 & p1};
            for (int seat = 0; seat < 4; seat++) {
                int g = (seat * 4 + l) * 2;
                if (below[g] == b[i].below[g] && below[g + 1] == b[i].below[g + 1])
                    continue;
                int cnt = rook_popcount(under & seatm[seat] & ~marks);
                dd_q_pair(s, &b[i].below[g], &below[g], cnt, &neg, &pos);
            }
        }
        int dend = s->end_points - DD_E_END(d);
        int elo = DD_E_LO(d) + neg + (dend < 0 ? dend : 0);
        int ehi = DD_E_HI(d) + pos + (dend > 0 ? dend : 0);
        if (elo > *lo || ehi < *hi) {
            if (elo > *lo)
                *lo = elo;
            if (ehi < *hi)
                *hi = ehi;
            *rel |= dd_rel_of_keep(k, keep);
            used = 1;
        }
    }
    return used;
}

/* Store [lo, hi] for the key's position, proven relying on the ranks of rel. */
static inline void dd_q_store(rook_solver *s, const dd_key *k, uint64_t qc, uint64_t marks, uint64_t rel,
                              int lo, int hi, int cards)
{
    uint32_t keep = dd_keep_of(s, k, rel);
    uint64_t km = dd_keep_mask(k, keep);
    uint64_t lock = dd_q_lock(k, qc, marks, keep, km) | s->gen;
    uint32_t kt[DD_TAG_PLANES] = {(uint32_t)(k->plane[2] & km), (uint32_t)(k->plane[3] & km),
                                  (uint32_t)(k->plane[4] & km)};
    uint8_t below[32];
    dd_q_below(s, k, km, below);
    dd_qentry *b = dd_qbucket(s, qc);
    int victim = -1;
    for (int i = 0; i < DD_QBUCKET; i++) {
        uint64_t lk = b[i].lock;
        if ((uint8_t)lk != s->gen) {
            if (victim < 0 || (uint8_t)b[victim].lock == s->gen)
                victim = i;
            continue;
        }
        if (lk == lock && b[i].ktag[0] == kt[0] && b[i].ktag[1] == kt[1] && b[i].ktag[2] == kt[2]
            && !memcmp(b[i].below, below, 32)) {
            uint64_t d = b[i].data;
            if (DD_E_END(d) == s->end_points) {
                if (DD_E_LO(d) > lo)
                    lo = DD_E_LO(d);
                if (DD_E_HI(d) < hi)
                    hi = DD_E_HI(d);
            }
            victim = i;
            break;
        }
        if (victim < 0 || ((uint8_t)b[victim].lock == s->gen
                           && DD_E_CARDS(b[i].data) < DD_E_CARDS(b[victim].data)))
            victim = i;
    }
    dd_qentry *e = &b[victim];
    e->lock = lock;
    e->data = dd_e_pack(keep, cards, s->end_points, lo, hi);
    for (int p = 0; p < DD_TAG_PLANES; p++)
        e->ktag[p] = kt[p];
    memcpy(e->below, below, 32);
}

#endif
