/* quasi.h: the quasi-symmetry table, a second table beside table.h's.
 *
 * Contract.  dd_qs_lock() gives a trick boundary's lock in it (the
 * structure of the position without the points of its cards), dd_qs_probe()
 * narrows bounds with the entries of a point variant of the position,
 * widened by the points that move, and dd_qs_store() stores a bound there
 * beside the first table's.  Entries live in the memory table.h's table
 * shares (half of it: DD_QS_SHARE), cleared with it.
 */
#ifndef ROOK_SOLVE_QUASI_H
#define ROOK_SOLVE_QUASI_H

#include "rook/solve/table.h"

/* Two positions with the same seats, suits, relative ranks and marked cards
 * (any-time, bird), differing only in the points of some cards, have trees
 * of the same shape; each line's result differs by the points that move,
 * so bounds proven for one hold for the other widened on each side by the
 * sum of the point differences of that sign.  A second table, keyed by the
 * structure without the points, stores each bound with the tags of every
 * key bit and the kept counts of its search; it is read when the first
 * table left the window open.  The widened bound rests on the same ranks as
 * the stored one: for a position that agrees with the probed one above the
 * kept line and in its counts below, pair its cards with the stored
 * position's key bit by key bit as the probe did (the pairs stay within one
 * seat and suit below the line) and the same differences come out.
 *
 * An entry holds the tag planes of its key bits: one 32-byte slot (planes
 * of 32 bits) while the deal has at most DD_QS_NARROW_DEAL cards (a
 * `tournament` deal), and then only positions of 32 cards or fewer have
 * entries; two slots (planes of 64 bits) for a bigger deal, so that its
 * first tricks (`partnership-57`: 56 cards) have them too.  On twelve full
 * `partnership-57` deals the wide entries took 1.04x-2.8x fewer nodes
 * (1.20x in all) and 1.02x-2.4x less time; on `tournament` deals, whose
 * first trick has too few positions to pay for entries half as many, they
 * cost 1-2% of the time, so those keep the narrow ones.
 *
 * The table gets half the memory (DD_QS_SHARE 2).  Against a quarter: the
 * hardest full `partnership-57` deal on 512 MiB 194,073,544 -> 179,304,164
 * nodes (1.08x); eight 52-card `partnership-57` positions on 128 MiB 1.06x
 * fewer nodes and 1.06x less time by the mean (a third: 1.03x, an eighth:
 * 0.93x); 200 `tournament` deals the same (their searches fill neither
 * table). */
#ifndef DD_QS_SHARE
#define DD_QS_SHARE 2 /* half the memory; 0: none */
#endif
#define DD_QBUCKET        2
#define DD_QS_NARROW_DEAL 36 /* the most cards dealt for the narrow entries */

/* A slot: a narrow entry, or half of a wide one. */
struct dd_qentry {
    uint64_t w[4];
};

_Static_assert(sizeof(struct dd_qentry) == 32, "a quasi-symmetry slot is 32 bytes");

/* The fewest cards in hands of a position the quasi-symmetry table answers:
 * not the twelve-card boundaries, where the exact table has just answered
 * 55% of the probes and a miss costs one search of the last three tricks
 * (endgame.c), so a second probe (another cache line) saves less than it
 * costs.  Against twelve, in same-process runs of each deal's best of three
 * (bench/solver_vs.py -D DD_QS_MIN_CARDS=16 --base HEAD): `tournament`, 300
 * deals from each of seeds 1000, 2000 and 3000, value, every card and "at
 * least the value" 1.02x less time per deal, as many nodes (within 0.5%);
 * twelve full `partnership-57` deals on 512 MiB 1.05x per deal (1.06x by the
 * mean) and 1.01x fewer nodes.  (An earlier solver, with its cache of the
 * last two tricks' results, measured 0.94x-1.01x.) */
#ifndef DD_QS_MIN_CARDS
#define DD_QS_MIN_CARDS 16
#endif

/* Whether the quasi-symmetry table answers positions of n_cards cards in hands. */
static inline int dd_qs_answers(const rook_solver *s, int n_cards)
{
    return n_cards >= DD_QS_MIN_CARDS && n_cards <= (s->qwide ? 64 : 32) && !s->exact_keys;
}

/* The lock of the key's structure: everything but the points of unmarked cards. */
static inline uint64_t dd_qs_lock(const rook_solver *s, const dd_key *k)
{
    uint64_t h = s->zlead[s->leader] ^ s->zwon[s->won[0] & 63];
    h ^= (uint64_t)k->lane_end[0] << 32 | (uint64_t)k->lane_end[1] << 40 | (uint64_t)k->lane_end[2] << 48
        | (uint64_t)k->lane_end[3] << 56;
    h += k->plane[0] * 0x9E3779B97F4A7C15ULL + k->plane[1] * 0xD6E8FEB86659FD93ULL;
    for (uint64_t m = s->marked & k->out; m; m &= m - 1) {
        int b = rook_lsb(m);
        int i = rook_popcount(k->out & ((1ULL << b) - 1));
        h += dd_mix64((uint64_t)s->tag[b] << 8 | (uint64_t)(i + 1));
    }
    return dd_mix64(h) & ~0xFFULL;
}

/* Whether kept counts `in` keep no more cards of any lane than `keep`. */
static inline int dd_keep_within(uint32_t in, uint32_t keep)
{
    for (int l = 0; l < 4; l++)
        if (dd_kept(in, l) > dd_kept(keep, l))
            return 0;
    return 1;
}

/* The check of a quasi-symmetry entry's words after its lock (data, and
 * the tag planes), which the lock word carries XORed in.  Each plane enters
 * through a product by an odd constant of its own, so that a read that
 * mixes the words of two writes to one slot fails it but by chance (2^-56
 * with the lock): with the planes XORed in as they are, data and tag words
 * taken from another entry of the same structure passed whenever the two
 * entries' differences in them were equal, which tags and bounds can be. */
static inline uint64_t dd_q_check(uint64_t data, const uint64_t t[3])
{
    return data ^ (t[0] * 0xC2B2AE3D27D4EB4FULL) ^ (t[1] * 0x165667B19E3779F9ULL)
        ^ (t[2] * 0x9E3779B97F4A7C15ULL);
}

static inline dd_qentry *dd_qbucket(const rook_solver *s, uint64_t lock)
{
    return &s->qt[(DD_QBUCKET << s->qwide) * (((lock >> 32) * s->n_qbuckets) >> 32)];
}

/* Read entry i of bucket b: return its lock (with the generation), and its
 * data and tag planes in *d and t. */
static inline uint64_t dd_q_read(const rook_solver *s, const dd_qentry *b, int i, uint64_t *d, uint64_t t[3])
{
    if (s->qwide) {
        const dd_qentry *e = &b[2 * i];
        *d = dd_ld(&e->w[1]);
        t[0] = dd_ld(&e->w[2]);
        t[1] = dd_ld(&e->w[3]);
        t[2] = dd_ld(&e[1].w[0]);
    } else {
        const dd_qentry *e = &b[i];
        *d = dd_ld(&e->w[1]);
        uint64_t t01 = dd_ld(&e->w[2]);
        t[0] = (uint32_t)t01;
        t[1] = t01 >> 32;
        t[2] = dd_ld(&e->w[3]);
    }
    return dd_ld(&b[i << s->qwide].w[0]) ^ dd_q_check(*d, t);
}

/* Write entry i of bucket b (the lock last). */
static inline void dd_q_write(const rook_solver *s, dd_qentry *b, int i, uint64_t lock, uint64_t d,
                              const uint64_t t[3])
{
    dd_qentry *e = &b[i << s->qwide];
    dd_st(&e->w[1], d);
    if (s->qwide) {
        dd_st(&e->w[2], t[0]);
        dd_st(&e->w[3], t[1]);
        dd_st(&e[1].w[0], t[2]);
    } else {
        dd_st(&e->w[2], t[0] | t[1] << 32);
        dd_st(&e->w[3], t[2]);
    }
    dd_st(&e->w[0], lock ^ dd_q_check(d, t));
}

/* Narrow [*lo, *hi] with a quasi-symmetric entry; return whether one did
 * (*rlo, *rhi: as dd_tt_probe). */
static inline int dd_qs_probe(rook_solver *s, const dd_key *k, uint64_t lock, int *lo, int *hi, uint64_t *rlo,
                              uint64_t *rhi)
{
    dd_qentry *b = dd_qbucket(s, lock);
    const uint64_t t[3] = {k->plane[2], k->plane[3], k->plane[4]};
    int used = 0;
    for (int i = 0; i < DD_QBUCKET; i++) {
        uint64_t d, e[3];
        if (dd_q_read(s, b, i, &d, e) != (lock | s->gen))
            continue;
        int neg = 0, pos = 0;
        for (uint64_t diff = (t[0] ^ e[0]) | (t[1] ^ e[1]) | (t[2] ^ e[2]); diff; diff &= diff - 1) {
            int j = rook_lsb(diff);
            int tp = (int)((t[0] >> j) & 1) | (int)((t[1] >> j) & 1) << 1 | (int)((t[2] >> j) & 1) << 2;
            int ts = (int)((e[0] >> j) & 1) | (int)((e[1] >> j) & 1) << 1 | (int)((e[2] >> j) & 1) << 2;
            int dp = s->tag_pts[tp] - s->tag_pts[ts];
            if (dp < 0)
                neg += dp;
            else
                pos += dp;
        }
        int dend = s->end_points - DD_E_END(d);
        int elo = DD_E_LO(d) + neg + (dend < 0 ? dend : 0);
        int ehi = DD_E_HI(d) + pos + (dend > 0 ? dend : 0);
        if (elo > *lo || ehi < *hi) {
            uint64_t erel = dd_rel_of(s, k, DD_E_KEEP(d), dd_keep_mask(k, DD_E_KEEP(d)));
            if (elo > *lo) {
                *lo = elo;
                *rlo = erel;
            }
            if (ehi < *hi) {
                *hi = ehi;
                *rhi = erel;
            }
            used = 1;
        }
    }
    return used;
}

/* Store the bounds [lo, hi] of the key's position, proven relying on the
 * ranks of kept counts `keep`, under its lock (dd_qs_lock). */
static inline void dd_qs_store(rook_solver *s, const dd_key *k, uint64_t lock, uint32_t keep, int lo, int hi,
                               int cards)
{
    lock |= s->gen;
    dd_qentry *b = dd_qbucket(s, lock);
    const uint64_t t[3] = {k->plane[2], k->plane[3], k->plane[4]};
    int victim = -1, victim_live = 0, victim_cards = 0;
    for (int i = 0; i < DD_QBUCKET; i++) {
        uint64_t d, e[3];
        uint64_t lk = dd_q_read(s, b, i, &d, e);
        int live = (uint8_t)lk == s->gen;
        if (live && lk == lock && e[0] == t[0] && e[1] == t[1] && e[2] == t[2]) {
            /* the same position: its bounds hold for the new entry's
             * positions only if they rest on no more cards (the lock,
             * unlike the first table's, leaves the kept counts out) */
            if (dd_keep_within(DD_E_KEEP(d), keep))
                dd_e_tighten(s, d, &lo, &hi);
            victim = i;
            break;
        }
        dd_e_victim(i, live, d, 0, &victim, &victim_live, &victim_cards);
    }
    dd_q_write(s, b, victim, lock, dd_e_pack(keep, cards, s->end_points, lo, hi), t);
}

#endif
