/* table.h: the transposition table at trick boundaries.
 *
 * Contract.  An entry holds a lower and an upper bound on the points team 0
 * takes from a trick boundary to the end of the hand, and stands for every
 * position that has
 *   - the same coarse hash: the leader, team 0's tricks (for a most-tricks
 *     bonus) and, for each seat and suit, the number of cards of each tag
 *     (points, any-time, bird), and
 *   - in each suit, the same holder and tag for the top `kept` cards still
 *     in hands (ranks relative to the cards still out), where `kept` reaches
 *     down to the lowest card whose rank the search below relied on (it won
 *     a trick by beating a card of its own suit, bounded a sure run of
 *     trumps, or a pruning rule compared it).  The cards under that line
 *     only count by seat, suit and tag: the search never compared their
 *     ranks (the "relevant ranks" of bridge solvers).
 * An entry is 16 bytes: a 56-bit lock (a hash of the coarse hash, the kept
 * counts and the kept part of the key), the generation, the kept counts,
 * the bounds, and the end points (nest + last-trick bonus) they were proven
 * with: with d more end points every line gives team 0 between 0 and d
 * more, so an entry of another nest still bounds the value, widened by d.
 * Eight entries share a 128-byte bucket chosen by the coarse hash, newest
 * first (dd_tt_store).
 *
 * Keys are packed (core.h, dd_key) and made at a boundary from the key of
 * the boundary above it on the path, by taking out the four cards of the
 * trick between them, or from scratch.
 */
#ifndef ROOK_SOLVE_TABLE_H
#define ROOK_SOLVE_TABLE_H

#include "rook/solve/core.h"

#ifndef DD_BUCKET
#define DD_BUCKET 8
#endif
/* The entries a bucket takes in the table: DD_BUCKET, and with s->pgen as
 * many slots more for their counts of the cards below the kept line (below;
 * -D DD_NO_PTS_GENERAL builds a solver without them, kept to compare
 * against): s->tt_shift is log2 of the stride.
 *
 * Why eight.  Every position of one coarse hash (the same counts by seat,
 * suit and tag, whoever holds which rank) has its entries in one bucket, so
 * a family of positions shares a handful of slots, and a long search that
 * fills the table evicts live entries of a family long before the table is
 * out of room.  Against four (bench/solver_vs.py, -D DD_BUCKET=4 on the
 * base): the hardest of twelve full `partnership-57` deals on a 512 MiB
 * table 250,595,314 -> 194,073,544 nodes (1.29x) and 1.62x less time;
 * twelve 48-card `partnership-57` positions on an 8 MiB table 1.30x fewer
 * nodes and 1.28x less time by the mean; 300 `tournament` deals 1.04x fewer
 * nodes, value 1.02x and every card 1.01x less time per deal.  Sixteen
 * took 1.07x fewer nodes again but the same time (the probes read four
 * lines). */
#define DD_TT_ALIGN 128 /* a bucket's two lines together */
_Static_assert((DD_BUCKET & (DD_BUCKET - 1)) == 0, "a bucket's slots are a power of two");
#define DD_KEEP_BITS 5     /* kept count per suit: 0..16 */
#define DD_END_MAX   1023  /* end points an entry can say it was proven with */
#define DD_BOUND_MAX 16383 /* the largest bound an entry holds */

struct dd_entry {
    uint64_t lock; /* bits 8..63: hash; bits 0..7: generation (0: empty) */
    uint64_t data; /* kept counts 0..19, cards 20..25, end 26..35, lo 36..49, hi 50..63 */
};

_Static_assert(sizeof(struct dd_entry) == 16, "a table entry is 16 bytes");

/* Entries are read and written without locks, by several threads when
 * solvers share a table: the first word holds the lock XOR the data, so a
 * read that mixes the words of two writes fails its check. */
static inline uint64_t dd_ld(const uint64_t *w)
{
    return __atomic_load_n(w, __ATOMIC_RELAXED);
}
static inline void dd_st(uint64_t *w, uint64_t x)
{
    __atomic_store_n(w, x, __ATOMIC_RELAXED);
}

#define DD_E_KEEP(d)  ((uint32_t)((d) & 0xFFFFF))
#define DD_E_CARDS(d) ((int)(((d) >> 20) & 63))
#define DD_E_END(d)   ((int)(((d) >> 26) & 1023))
#define DD_E_LO(d)    ((int)(((d) >> 36) & 16383))
#define DD_E_HI(d)    ((int)(((d) >> 50) & 16383))

static inline uint64_t dd_e_pack(uint32_t keep, int cards, int end, int lo, int hi)
{
    return (uint64_t)keep | (uint64_t)cards << 20 | (uint64_t)end << 26 | (uint64_t)lo << 36
        | (uint64_t)hi << 50;
}

static inline uint64_t dd_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Diagnostic builds that loosen the table past what is sound, to measure
 * what a more general entry could save at most (tools/ceiling.py): with
 * -D DD_CEILING=DD_CEILING_LENGTHS a plain card (no points, no mark) counts
 * only as its seat holding some or none of its suit; with
 * DD_CEILING_POINTS the cards under the kept line count without their
 * points (context.c); with DD_CEILING_RANKS an entry keeps one card fewer
 * of each suit where it keeps two or more.  Their answers may be wrong. */
#define DD_CEILING_LENGTHS 1
#define DD_CEILING_POINTS  2
#define DD_CEILING_RANKS   3

/* The coarse hash of the current trick boundary. */
static inline uint64_t dd_coarse(const rook_solver *s)
{
#if defined(DD_CEILING) && DD_CEILING == DD_CEILING_LENGTHS
    uint64_t h = s->zlead[s->leader] ^ s->zwon[s->won[0] & 63];
    uint64_t tagged = s->tag_mask[0] | s->tag_mask[1] | s->tag_mask[2];
    for (int seat = 0; seat < 4; seat++) {
        uint64_t hand = s->hands[seat];
        for (uint64_t m = hand & tagged; m; m &= m - 1)
            h += s->z[seat][rook_lsb(m)];
        for (int l = 0; l < 4; l++) {
            uint64_t plain = hand & DD_LANE(l) & ~tagged;
            if (plain)
                h += s->z[seat][rook_lsb(plain)];
        }
    }
    return h;
#else
    return (s->zlead[s->leader] ^ s->zwon[s->won[0] & 63]) + s->zsum;
#endif
}

static inline dd_entry *dd_bucket(const rook_solver *s, uint64_t coarse)
{
    return &s->tt[(((coarse >> 32) * s->n_buckets) >> 32) << s->tt_shift];
}

/* Note where each lane's key bits end. */
static inline void dd_key_lanes(dd_key *k)
{
    int end = 0;
    for (int l = 0; l < 4; l++) {
        end += rook_popcount(k->out & DD_LANE(l));
        k->lane_end[l] = (uint8_t)end;
    }
}

/* Fold the whole key into the coarse hash (exact keys: no generalisation). */
static inline void dd_key_exact(const rook_solver *s, dd_key *k)
{
    if (s->exact_keys) {
        uint64_t h = k->coarse ^ k->out;
        for (int p = 0; p < DD_PLANES; p++)
            h = dd_mix64(h ^ k->plane[p]);
        k->coarse = h;
    }
}

/* Make the key of the current trick boundary from scratch. */
static inline void dd_key_make(const rook_solver *s, dd_key *k)
{
    uint64_t out = dd_in_hands(s);
    for (int p = 0; p < DD_PLANES; p++)
        k->plane[p] = 0;
    int i = 0;
    for (uint64_t m = out; m; m &= m - 1, i++) {
        int b = rook_lsb(m);
        uint64_t bit = 1ULL << b;
        int seat = (s->hands[1] & bit) ? 1 : (s->hands[2] & bit) ? 2 : (s->hands[3] & bit) ? 3 : 0;
        int t = s->tag[b];
        uint64_t kb = 1ULL << i;
        if (seat & 1)
            k->plane[0] |= kb;
        if (seat & 2)
            k->plane[1] |= kb;
        for (int p = 0; p < DD_TAG_PLANES; p++)
            if ((t >> p) & 1)
                k->plane[2 + p] |= kb;
    }
    k->out = out;
    dd_key_lanes(k);
    k->coarse = dd_coarse(s);
    dd_key_exact(s, k);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(DD_NO_PEXT)
#include <cpuid.h>
#include <immintrin.h>
#define DD_HAVE_PEXT 1

/* Whether this CPU extracts bits (BMI2's pext) in a few cycles: every x86
 * CPU with BMI2 but AMD's before family 0x19, where it takes dozens. */
static inline int dd_pext_is_fast(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("bmi2"))
        return 0;
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    if (b != 0x68747541) /* "Auth"(enticAMD) */
        return 1;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    unsigned family = (a >> 8) & 0xF;
    if (family == 0xF)
        family += (a >> 20) & 0xFF;
    return family >= 0x19;
}

/* dd_key_make by bit extraction: key bit i is the i-th card in hands, so
 * each plane is the extraction of its cards from the cards in hands. */
static inline __attribute__((target("bmi2"))) void dd_key_make_pext(const rook_solver *s, dd_key *k)
{
    uint64_t out = dd_in_hands(s);
    k->plane[0] = _pext_u64(s->hands[1] | s->hands[3], out);
    k->plane[1] = _pext_u64(s->hands[2] | s->hands[3], out);
    for (int p = 0; p < DD_TAG_PLANES; p++)
        k->plane[2 + p] = _pext_u64(s->tag_mask[p], out);
    k->out = out;
    dd_key_lanes(k);
    k->coarse = dd_coarse(s);
    dd_key_exact(s, k);
}

/* The cards in hands that the key bits km stand for. */
static inline __attribute__((target("bmi2"))) uint64_t dd_kept_pdep(uint64_t km, uint64_t out)
{
    return _pdep_u64(km, out);
}

/* The lowest card of each lane among the cards in hands that the key bits
 * km stand for (dd_rel_of_keep, by depositing km on them). */
static inline __attribute__((target("bmi2"))) uint64_t dd_rel_of_km_pext(const dd_key *k, uint64_t km)
{
    uint64_t kept = _pdep_u64(km, k->out), rel = 0;
    for (int l = 0; l < 4; l++) {
        uint64_t lane = kept & DD_LANE(l);
        rel |= lane & -lane;
    }
    return rel;
}
#else
static inline int dd_pext_is_fast(void)
{
    return 0;
}
#endif

/* Make the key of the current trick boundary from `up`, the key of a
 * boundary above it whose cards in hands include the current ones. */
static inline void dd_key_from(const rook_solver *s, const dd_key *up, dd_key *k)
{
    uint64_t out = dd_in_hands(s);
    uint64_t gone = up->out & ~out;
    uint64_t pl[DD_PLANES];
    for (int p = 0; p < DD_PLANES; p++)
        pl[p] = up->plane[p];
    while (gone) { /* highest first: lower indices stay valid */
        int b = rook_msb(gone);
        gone &= ~(1ULL << b);
        uint64_t low = (1ULL << rook_popcount(up->out & ((1ULL << b) - 1))) - 1;
        for (int p = 0; p < DD_PLANES; p++)
            pl[p] = (pl[p] & low) | ((pl[p] >> 1) & ~low);
    }
    for (int p = 0; p < DD_PLANES; p++)
        k->plane[p] = pl[p];
    k->out = out;
    dd_key_lanes(k);
    k->coarse = dd_coarse(s);
    dd_key_exact(s, k);
}

/* The kept count of lane l in kept counts `keep`. */
static inline int dd_kept(uint32_t keep, int l)
{
    return (int)((keep >> (DD_KEEP_BITS * l)) & ((1u << DD_KEEP_BITS) - 1));
}

/* The packed key bits of the kept cards: in lane s, the top keep[s] of the
 * lane's cards in hands.  (Counts of another position, which may keep more
 * cards of a lane than it holds, give some other mask: the lock, which
 * hashes the counts too, tells the two apart.) */
static inline uint64_t dd_keep_mask(const dd_key *k, uint32_t keep)
{
    uint64_t m = 0;
    for (int l = 0; l < 4; l++) {
        int end = k->lane_end[l], kept = dd_kept(keep, l);
        m |= ((1ULL << kept) - 1) << ((end - kept) & 63); /* no kept card: 0, whatever the shift */
    }
    return m;
}

/* The kept counts for a set of relevant cards (solver bits): in each lane,
 * the cards in hands at or above the lowest relevant one. */
static inline uint32_t dd_keep_of(const rook_solver *s, const dd_key *k, uint64_t rel)
{
    uint32_t keep = 0;
    for (int l = 0; l < 4; l++) {
        uint64_t lane = k->out & DD_LANE(l);
        uint64_t r = rel & lane;
        int kept = s->exact_keys ? rook_popcount(lane)
            : r                  ? rook_popcount(lane & ~((1ULL << rook_lsb(r)) - 1))
                                 : 0;
#if defined(DD_CEILING) && DD_CEILING == DD_CEILING_RANKS
        if (kept >= 2)
            kept--;
#endif
        keep |= (uint32_t)kept << (DD_KEEP_BITS * l);
    }
    return keep;
}

/* The relevant cards that stand for kept counts: the lowest kept card of
 * each lane (everything above it is kept with it). */
static inline uint64_t dd_rel_of_keep(const dd_key *k, uint32_t keep)
{
    uint64_t rel = 0;
    for (int l = 0; l < 4; l++) {
        uint64_t lane = k->out & DD_LANE(l);
        int kept = dd_kept(keep, l);
        for (int n = rook_popcount(lane); n > kept; n--)
            lane &= lane - 1; /* drop the lowest cards until `kept` are left */
        if (kept)
            rel |= lane & -lane;
    }
    return rel;
}

#if defined(DD_CEILING) && DD_CEILING == DD_CEILING_LENGTHS
#ifndef DD_HAVE_PEXT
#error "DD_CEILING_LENGTHS needs bit extraction"
#endif
/* The kept cards' bits of plane p, packed: positions whose suits hold
 * other numbers of cards agree on them. */
static inline __attribute__((target("bmi2"))) uint64_t dd_kept_bits(const dd_key *k, int p, uint64_t km)
{
    return _pext_u64(k->plane[p], km);
}
#endif

static inline uint64_t dd_lock(const dd_key *k, uint32_t keep, uint64_t km)
{
    /* a multilinear sum (independent products), then one mix */
    uint64_t h = k->coarse ^ ((uint64_t)keep * 0xD6E8FEB86659FD93ULL);
#if defined(DD_CEILING) && DD_CEILING == DD_CEILING_LENGTHS
    h += dd_kept_bits(k, 0, km) * 0x9E3779B97F4A7C15ULL + dd_kept_bits(k, 1, km) * 0xC2B2AE3D27D4EB4FULL
        + dd_kept_bits(k, 2, km) * 0x165667B19E3779F9ULL + dd_kept_bits(k, 3, km) * 0x27D4EB2F165667C5ULL
        + dd_kept_bits(k, 4, km) * 0xFF51AFD7ED558CCDULL;
    return dd_mix64(h) & ~0xFFULL;
#endif
    /* (km itself follows from the kept counts and the lanes' lengths,
     * which the coarse hash holds) */
    h += (k->plane[0] & km) * 0x9E3779B97F4A7C15ULL + (k->plane[1] & km) * 0xC2B2AE3D27D4EB4FULL
        + (k->plane[2] & km) * 0x165667B19E3779F9ULL + (k->plane[3] & km) * 0x27D4EB2F165667C5ULL
        + (k->plane[4] & km) * 0xFF51AFD7ED558CCDULL;
    return dd_mix64(h) & ~0xFFULL;
}

/* The relevant cards that stand for kept counts `keep` (key bits km). */
static inline uint64_t dd_rel_of(const rook_solver *s, const dd_key *k, uint32_t keep, uint64_t km)
{
#ifdef DD_HAVE_PEXT
    if (s->pext)
        return dd_rel_of_km_pext(k, km);
#else
    (void)s;
#endif
    (void)km;
    return dd_rel_of_keep(k, keep);
}


/* ---- points below the kept line (off with -D DD_NO_PTS_GENERAL) ----
 * With s->pgen, the coarse hash counts an unmarked card by seat and suit
 * only, not by its points, so one entry stands for positions whose cards
 * below the kept line carry other points.  Its bound was proven for one of
 * them: for another, pair the two positions' cards below the line within
 * each seat and suit in order of points; every line of play of one is a
 * line of the other with the same trick winners (the ranks below the line
 * were never compared), and only the points of the paired cards differ,
 * so team 0's result moves by at most the sum of the positive differences
 * up and the negative ones down (the quasi-symmetry argument, quasi.h).
 * Marked cards (any-time, the bird) keep their tags in the coarse hash:
 * their rules differ, not only their points.  The search keeps s->kc, the
 * counts of the cards in hands by point value (s->kind_pts), seat and suit,
 * two bits each (a layout with more than three cards of one value in a
 * suit has no pgen); the entry's slot in the bucket's second half holds
 * them as they were, and a check of the lock, so that a read that mixes
 * two writes fails.  The kept cards are the same in both positions, so the
 * counts below the line differ as the whole counts do.  The price:
 * buckets twice as long, so half as many entries for the memory, and
 * more entries of one coarse hash to look at per probe.  Measured against
 * the build without it (bench/solver_vs.py -D), on 150 full `tournament`
 * deals: 1.11x fewer nodes and 1.07x less time per deal for a value, 1.05x
 * for every card's value; 1.05x-1.10x in `crowsnest`, `house-180` and
 * `partnership-57` positions of 40 cards.
 *
 * No pgen (buckets of DD_BUCKET entries alone, as many again for the
 * memory) for a deal of more than DD_PGEN_MOST_DEALT cards dealt (in hands,
 * in tricks), on tables of DD_PGEN_TABLE_BELOW_MIB or more (about what the
 * caller asked), or where unmarked cards of one point value run to more
 * than three in a suit (a count is two bits) or the kinds of cards are too
 * many.  So a `tournament` deal (36) on the default table has it, a
 * `partnership-57` or `house-180` deal (56, 52) or a caller's big table
 * not: long searches fill the table, and then entries half as many cost
 * more than the looser ones save (the hardest of twelve 56-card deals took
 * 1.77x the nodes and 1.89x the time on a 512 MiB table, the nest decision
 * of 32 `tournament` hands, every discard on one 256 MiB table, 1.15x the
 * nodes). */
#define DD_PGEN_MOST_DEALT      40
#define DD_PGEN_TABLE_BELOW_MIB 128

#ifndef DD_NO_PTS_GENERAL

/* The cards of the key's kept part (kept counts `keep`, key bits km). */
static inline uint64_t dd_kept_cards(const rook_solver *s, const dd_key *k, uint32_t keep, uint64_t km)
{
#ifdef DD_HAVE_PEXT
    if (s->pext)
        return dd_kept_pdep(km, k->out);
#else
    (void)km;
#endif
    (void)s;
    uint64_t kept = 0;
    for (int l = 0; l < 4; l++) {
        uint64_t lane = k->out & DD_LANE(l);
        for (int n = dd_kept(keep, l); n > 0 && lane; n--) {
            uint64_t top = 1ULL << rook_msb(lane);
            kept |= top;
            lane &= ~top;
        }
    }
    return kept;
}

/* How far team 0's result may move from the entry's position (counts e)
 * to the current one (counts s->kc), whose kept cards are `kept` (the
 * entry's, card for card): *neg down, *pos up.  Only the seats and suits
 * whose counts differ are paired. */
static inline void dd_below_widen(const rook_solver *s, const dd_key *k, uint64_t kept, const uint64_t e[2],
                                  int *neg, int *pos)
{
    *neg = *pos = 0;
    const uint64_t *c = s->kc;
    uint64_t x0 = e[0] ^ c[0], x1 = (uint32_t)(e[1] ^ c[1]);
    uint64_t fields = (x0 | x0 >> 32 | x1) & 0xFFFFFFFFULL; /* a group's two bits, per value */
    fields = (fields | fields >> 1) & 0x55555555ULL;
    uint64_t below = k->out & ~kept;
    for (; fields; fields &= fields - 1) {
        int g = rook_lsb(fields) >> 1, seat = g >> 2, l = g & 3;
        uint64_t h = s->hands[seat] & DD_LANE(l);
        /* the counts below the line by value, plain cards first (the kept
         * cards are the same in both positions) */
        int ca[DD_KINDS + 1], cb[DD_KINDS + 1], n = rook_popcount(h & below);
        ca[0] = cb[0] = n;
        for (int v = 0; v < s->n_kinds; v++) {
            int sh = 32 * (v & 1) + 2 * g, kv = rook_popcount(h & kept & s->kind_mask[v]);
            ca[v + 1] = (int)((e[v >> 1] >> sh) & 3) - kv;
            cb[v + 1] = (int)((c[v >> 1] >> sh) & 3) - kv;
            ca[0] -= ca[v + 1];
            cb[0] -= cb[v + 1];
            if (ca[v + 1] < 0 || ca[0] < 0 || cb[0] < 0) { /* (another position's counts: no bound) */
                *neg = -(1 << 20);
                *pos = 1 << 20;
                return;
            }
        }
        /* the two lists in ascending order of points, paired in order */
        int i = 0, j = 0;
        while (i <= s->n_kinds && j <= s->n_kinds) {
            if (!ca[i]) {
                i++;
                continue;
            }
            if (!cb[j]) {
                j++;
                continue;
            }
            int t = ca[i] < cb[j] ? ca[i] : cb[j];
            int d = t * ((j ? s->kind_pts[j - 1] : 0) - (i ? s->kind_pts[i - 1] : 0));
            if (d < 0)
                *neg += d;
            else
                *pos += d;
            ca[i] -= t;
            cb[j] -= t;
        }
    }
}

/* The check an entry's counts carry, in the top half of their second word:
 * of the entry's lock and data words and of the counts themselves.  The
 * four words are written one at a time, by several threads when solvers
 * share the table, and a store moves entries down the bucket word by word
 * (dd_tt_store), so a read may mix the words of two writes: counts of one
 * entry beside the lock and data of another, or one word of the counts
 * from each of two entries.  Either fails the check (but one time in 2^32),
 * where a check of the lock and data alone let the second through, and
 * with it a bound widened by the points of another position's counts.
 * (The inner mix keeps the two count words apart: two reads that differ
 * in the first word alone cannot give the same check.) */
static inline uint64_t dd_below_check(uint64_t lock, uint64_t d, uint64_t c0, uint64_t c1)
{
    return (dd_mix64(lock ^ d ^ dd_mix64(c0 ^ (uint64_t)(uint32_t)c1 * 0x9E3779B97F4A7C15ULL)) >> 32) << 32;
}

/* Read the counts of entry i of bucket b, whose lock (with the generation)
 * and data words read lk and d, into e[2]; return whether they are the
 * entry's (the check holds). */
static inline int dd_below_read(const dd_entry *b, int i, uint64_t lk, uint64_t d, uint64_t e[2])
{
    e[0] = dd_ld(&b[DD_BUCKET + i].lock);
    e[1] = dd_ld(&b[DD_BUCKET + i].data);
    return (e[1] & ~0xFFFFFFFFULL) == dd_below_check(lk, d, e[0], e[1]);
}
#endif

/* Narrow [*lo, *hi] with the entries that stand for the key's position,
 * until they settle the window (alpha, beta): *lo >= beta, *hi <= alpha or
 * *lo == *hi (the later entries could only tighten a bound that already
 * decides, and their checks are most of a probe's cost when a bucket is
 * full); return whether one narrowed them.  *rlo and *rhi get the relevant
 * cards of the entry that gave the final lower and upper bound (each bound
 * rests on its own entry alone: an entry that was bettered on one side, or
 * that only gave the other side, is not needed for it). */
static inline int dd_tt_probe(rook_solver *s, const dd_key *k, int alpha, int beta, int *lo, int *hi,
                              uint64_t *rlo, uint64_t *rhi)
{
    dd_entry *b = dd_bucket(s, k->coarse);
    int used = 0;
    for (int i = 0; i < DD_BUCKET; i++) {
        uint64_t d = dd_ld(&b[i].data);
        uint64_t lk = dd_ld(&b[i].lock) ^ d;
        if ((uint8_t)lk != s->gen)
            break; /* the live entries come first (dd_tt_store) */
        uint32_t keep = DD_E_KEEP(d);
        uint64_t km = dd_keep_mask(k, keep);
        if ((lk & ~0xFFULL) != dd_lock(k, keep, km))
            continue;
        int dend = s->end_points - DD_E_END(d);
        int elo = DD_E_LO(d) + (dend < 0 ? dend : 0);
        int ehi = DD_E_HI(d) + (dend > 0 ? dend : 0);
#ifndef DD_NO_PTS_GENERAL
        if (s->pgen) {
            /* the entry's counts, against this position's */
            uint64_t e[2];
            if (!dd_below_read(b, i, lk, d, e))
                continue;
            if (e[0] != s->kc[0] || (uint32_t)e[1] != (uint32_t)s->kc[1]) {
                int neg, pos;
                dd_below_widen(s, k, dd_kept_cards(s, k, keep, km), e, &neg, &pos);
                elo += neg;
                ehi += pos;
            }
        }
#endif
        if (elo > *lo || ehi < *hi) {
            uint64_t erel = dd_rel_of(s, k, keep, km);
            if (elo > *lo) {
                *lo = elo;
                *rlo = erel;
            }
            if (ehi < *hi) {
                *hi = ehi;
                *rhi = erel;
            }
            used = 1;
            if (*lo >= beta || *hi <= alpha || *lo == *hi)
                break;
        }
    }
    return used;
}

/* Storing over an entry of the same position: keep the tighter of its
 * bounds and [*lo, *hi] when it was proven with the same end points. */
static inline void dd_e_tighten(const rook_solver *s, uint64_t d, int *lo, int *hi)
{
    if (DD_E_END(d) == s->end_points) {
        if (DD_E_LO(d) > *lo)
            *lo = DD_E_LO(d);
        if (DD_E_HI(d) < *hi)
            *hi = DD_E_HI(d);
    }
}

/* How many cards an entry's age in a bucket kept newest first counts for:
 * an entry i slots from the front is replaced as one of DD_AGE_CARDS * i
 * cards fewer, so that entries of many cards that no search has met again
 * since give way in time.  Against none (the fewest cards first): the
 * twelve 48-card positions on an 8 MiB table 1.06x fewer nodes with four
 * slots, the hardest 56-card deal 197,072,331 -> 194,073,544 with eight
 * (2: 194,105,479; 8: 193,171,574). */
#define DD_AGE_CARDS 4

/* The entry to replace: the first empty one, else the one of fewest cards
 * (the cheapest to search again), of equals the first or, with `newest_first`
 * (the bucket is kept in the order of storing), the last, which also counts
 * its age (DD_AGE_CARDS); called for each entry i of a bucket. */
static inline void dd_e_victim(int i, int live, uint64_t d, int newest_first, int *victim, int *victim_live,
                               int *victim_cards)
{
    int score = DD_E_CARDS(d) - (newest_first ? DD_AGE_CARDS * i : 0);
    if (*victim < 0
        || (*victim_live && (!live || score < *victim_cards || (newest_first && score == *victim_cards)))) {
        *victim = i;
        *victim_live = live;
        *victim_cards = score;
    }
}

/* Where dd_tt_store put an entry: over one of the same position, into a
 * free slot (empty, or of an earlier generation), or over a live entry of
 * another position (the bucket was full). */
enum { DD_STORED_SAME, DD_STORED_FREE, DD_STORED_EVICTED, DD_STORED_KINDS };

/* Store the bounds [lo, hi] of the key's position, proven relying on the
 * ranks its kept counts `keep` stand for (dd_keep_of), for `cards` cards in
 * hands; return where it went.  The newest entry goes first: the entries
 * before the slot it takes move one down, so a full bucket of one
 * position's variants (all of the same cards) gives up its oldest, and a
 * probe, which stops at the first entry that settles its window, meets the
 * newest first.  Against replacing the first entry of the fewest cards in
 * place (which kept a full bucket's three oldest entries for good): 1.03x
 * fewer nodes and 1.02x-1.03x less time per deal on 300 `tournament` deals
 * (value and every card).  The slot taken is the first free one (empty, or
 * of an earlier generation) when there is one, so a bucket's live entries
 * always come first, and a probe or a store stops at the first slot that
 * is not live.  (Two threads storing into one bucket at once may leave a
 * torn slot, which reads as free: it hides the entries after it from
 * probes until a store fills it, which costs nodes, never an answer; or
 * counts that are not the slot's entry's, which fail their check.)
 *
 * A diagnostic build, -D DD_TORN_READS=n (tests/test_solver_sides.py),
 * leaves every n-th store's bucket as a thread reading it in the middle of
 * another's store may see it, in turn: the new entry beside another
 * entry's first count word, or the slot the entries moved into with its
 * old counts.  Its answers must stay exact; with counts checked against
 * the lock and data alone, 16 of 300 values were not (n = 2). */
static inline int dd_tt_store(rook_solver *s, const dd_key *k, uint32_t keep, int lo, int hi, int cards)
{
    uint64_t lock = dd_lock(k, keep, dd_keep_mask(k, keep)) | s->gen;
    dd_entry *b = dd_bucket(s, k->coarse);
    int victim = -1, victim_live = 0, victim_cards = 0;
    for (int i = 0; i < DD_BUCKET; i++) {
        uint64_t d = dd_ld(&b[i].data);
        uint64_t lk = dd_ld(&b[i].lock) ^ d;
        int live = (uint8_t)lk == s->gen;
        if (live && lk == lock) {
#ifndef DD_NO_PTS_GENERAL
            /* the same position, or one of other points below the line
             * (its bounds are not this one's), or counts that are not the
             * entry's (a read that mixed two writes: dd_below_check) */
            uint64_t e[2];
            if (!s->pgen
                || (dd_below_read(b, i, lk, d, e) && e[0] == s->kc[0] && (uint32_t)e[1] == (uint32_t)s->kc[1]))
#endif
                dd_e_tighten(s, d, &lo, &hi);
            victim = i;
            victim_live = -1;
            break;
        }
        dd_e_victim(i, live, d, 1, &victim, &victim_live, &victim_cards);
        if (!live)
            break;
    }
    uint64_t d = dd_e_pack(keep, cards, s->end_points, lo, hi);
#ifdef DD_TORN_READS
    int torn = ++s->torn_stores % DD_TORN_READS ? 0 : 1 + (int)(s->torn_stores / DD_TORN_READS & 1);
#endif
    for (int i = victim; i > 0; i--) {
        dd_st(&b[i].data, dd_ld(&b[i - 1].data));
        dd_st(&b[i].lock, dd_ld(&b[i - 1].lock));
#ifndef DD_NO_PTS_GENERAL
#ifdef DD_TORN_READS
        if (torn == 2 && i == victim)
            continue; /* this slot's counts left as they were */
#endif
        if (s->pgen) {
            dd_st(&b[DD_BUCKET + i].lock, dd_ld(&b[DD_BUCKET + i - 1].lock));
            dd_st(&b[DD_BUCKET + i].data, dd_ld(&b[DD_BUCKET + i - 1].data));
        }
#endif
    }
#ifndef DD_NO_PTS_GENERAL
    if (s->pgen) {
        dd_st(&b[DD_BUCKET].lock, s->kc[0]);
        dd_st(&b[DD_BUCKET].data, s->kc[1] | dd_below_check(lock, d, s->kc[0], s->kc[1]));
    }
#endif
    dd_st(&b[0].data, d);
    dd_st(&b[0].lock, lock ^ d);
#if defined(DD_TORN_READS) && !defined(DD_NO_PTS_GENERAL)
    if (torn == 1 && s->pgen && victim > 0)
        dd_st(&b[DD_BUCKET].lock, dd_ld(&b[DD_BUCKET + 1].lock)); /* another entry's first count word */
#endif
    return victim_live < 0 ? DD_STORED_SAME : victim_live ? DD_STORED_EVICTED : DD_STORED_FREE;
}

#endif
