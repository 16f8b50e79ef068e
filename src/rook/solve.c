/* solve.c: the double-dummy search of solve.h. */
#define _POSIX_C_SOURCE 200809L      /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rook/solve.h"

#define NO_SUIT 255
#define N_PLANES 3                    /* bit planes of a card's tag (tags 0..7) */
#define MAX_TAGS (1 << N_PLANES)
#define BUCKET 8                      /* entries per table bucket */

/* Key coordinates.  At a trick boundary every card still in a hand gets a
 * key bit 16*suit + index, the index counting the suit's unplayed cards
 * weakest first (ranks relative to the cards still out).  A card's tag says
 * what besides its rank matters: its points, whether it may be played at
 * any time, whether it is the bird.
 *
 * A table entry stands for every position that has
 *   - the same leader and, for each seat and suit, the same number of cards
 *     of each tag (the `coarse` hash), and
 *   - the same owner and tag at each key bit of `keep`,
 * where `keep` holds, in each suit, the cards ranked at or above the lowest
 * card whose rank mattered to the search below (it won a trick by beating
 * a card of its own suit, or it was part of a sure run of trumps).  The
 * cards under that line are interchangeable within a seat and a tag: the
 * search below never compared their ranks.  (Bridge solvers call these the
 * relevant or winning ranks.) */
typedef struct tt_entry {       /* one cache line */
    uint64_t coarse;
    uint64_t keep;
    uint64_t seat[2];            /* seat planes (bit 0, bit 1 of the holder) of the key bits, & keep */
    uint64_t tag[N_PLANES];      /* tag planes, & keep */
    int16_t lo, hi;              /* bounds on the points team 0 takes from this trick boundary */
    int32_t end;                 /* the end points the bounds were proven with */
} tt_entry;

/* A bucket: one cache line of short checks read first, then the entries,
 * read only where the check matches. */
typedef struct tt_bucket_t {
    uint32_t check[BUCKET];      /* the coarse hash's high half */
    uint16_t gen[BUCKET];        /* entries of another generation are empty */
    uint8_t cards[BUCKET];       /* cards in hands: the cost of searching it again */
    uint8_t pad[8];
    tt_entry e[BUCKET];
} tt_bucket_t;

_Static_assert(sizeof(tt_entry) == 64, "a table entry is one cache line");
_Static_assert(sizeof(tt_bucket_t) == 64 * (BUCKET + 1), "a bucket is a header line and its entries");

typedef struct tt_key {
    uint64_t coarse;
    uint64_t all;                /* the key bits of every card in hands */
    uint64_t seat[2];
    uint64_t tag[N_PLANES];
    uint8_t card_at[64];         /* key bit -> card */
    uint8_t bit_of[64];          /* card -> key bit */
} tt_key;

struct rook_solver {
    tt_bucket_t *tt;
    void *tt_raw;                /* the allocation tt lies in */
    uint64_t n_buckets;
    uint64_t nodes, budget;
    uint64_t time_budget_ns;     /* 0: none */
    uint64_t deadline_ns;        /* this call's end, when there is a time budget */
    int stop;                    /* why the last call stopped (ROOK_STOP_*) */
    uint64_t nodes_by_cards[64]; /* nodes by the number of cards still in hands */
    uint64_t tt_hits;
    int aborted;
    uint16_t gen;
    const rook_rules *ctx_r;     /* the context the table's entries belong to */
    int ctx_trump;
    int exact_only;              /* rook_solver_set_generalize(s, 0) */
    /* the position being searched */
    const rook_rules *r;
    uint64_t hands[4];
    uint8_t trick[4];
    int trick_n, leader, trump;
    int end_points;              /* nest points + last-trick bonus, to the last trick's team */
    int most_bonus;              /* to the team with more tricks at the end (section 4) */
    int won[2];                  /* tricks each team has taken in the hand */
    int grain;                   /* every value is a multiple of this */
    /* per (rules, trump) */
    uint8_t suit_of[64];         /* 0..3: the card's suit when following */
    uint8_t suit_order[4][20];   /* card ids of each suit, weakest first */
    uint8_t suit_len[4];
    uint64_t suit_mask[4];
    uint64_t below[64];          /* the cards of the card's suit weaker than it */
    uint8_t tag_of[64];
    int exact_keys;              /* more tags than planes: every card is kept */
    uint64_t zcard[4][64];       /* coarse hash terms: (seat, suit, tag) */
    uint64_t zlead[4];
    uint64_t zwon[64];           /* coarse hash term: team 0's tricks (most-tricks bonus) */
    uint64_t zsum;               /* sum of zcard over the cards in hands, kept as cards are played */
    int pts_out;                 /* card points in hands and in the current trick */
};

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

rook_solver *rook_solver_new(size_t tt_bytes)
{
    rook_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    uint64_t n = tt_bytes / sizeof(tt_bucket_t);   /* buckets */
    if (n < 128)
        n = 128;
    /* calloc: the pages are zeroed lazily; buckets start on cache lines */
    s->tt_raw = calloc(n * sizeof(tt_bucket_t) + 64, 1);
    s->tt = (tt_bucket_t *)(((uintptr_t)s->tt_raw + 63) & ~(uintptr_t)63);
    if (!s->tt_raw) {
        free(s);
        return NULL;
    }
    s->n_buckets = n;
    return s;
}

void rook_solver_free(rook_solver *s)
{
    if (s) {
        free(s->tt_raw);
        free(s);
    }
}

void rook_solver_clear(rook_solver *s)
{
    if (++s->gen == 0) {           /* wrapped: really clear */
        memset(s->tt, 0, s->n_buckets * sizeof(tt_bucket_t));
        s->gen = 1;
    }
}

void rook_solver_set_budget(rook_solver *s, uint64_t nodes) { s->budget = nodes; }

void rook_solver_set_time_budget(rook_solver *s, uint64_t ns) { s->time_budget_ns = ns; }

int rook_solver_stop_reason(const rook_solver *s) { return s->stop; }

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void rook_solver_set_generalize(rook_solver *s, int on)
{
    s->exact_only = !on;
    s->ctx_r = NULL;             /* the next setup clears the table */
}

uint64_t rook_solver_nodes(const rook_solver *s) { return s->nodes; }

uint64_t rook_solver_stat(const rook_solver *s, int which)
{
    if (which >= 0 && which < 64)
        return s->nodes_by_cards[which];
    return which == 64 ? s->tt_hits : 0;
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Prepare the suit and tag tables and the position; clear the table when
 * the context changed. */
static void setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    s->r = r;
    for (int i = 0; i < 4; i++) {
        s->hands[i] = p->hands[i];
        s->trick[i] = p->trick[i];
    }
    s->trick_n = p->trick_n;
    s->leader = p->leader;
    s->trump = p->trump;
    s->end_points = p->nest_points + r->last_trick_bonus;
    s->most_bonus = r->most_tricks_bonus;
    s->won[0] = p->tricks[0];
    s->won[1] = p->tricks[1];
    s->nodes = 0;
    s->tt_hits = 0;
    memset(s->nodes_by_cards, 0, sizeof s->nodes_by_cards);
    s->aborted = 0;
    s->stop = ROOK_STOP_NONE;
    s->deadline_ns = s->time_budget_ns ? now_ns() + s->time_budget_ns : 0;
    s->grain = gcd(s->end_points < 0 ? -s->end_points : s->end_points,
                   s->most_bonus < 0 ? -s->most_bonus : s->most_bonus);
    for (uint64_t m = r->deck; m; m &= m - 1)
        s->grain = gcd(s->grain, r->card_points[rook_lsb(m)] < 0 ? -r->card_points[rook_lsb(m)]
                                                                  : r->card_points[rook_lsb(m)]);
    if (s->grain == 0)
        s->grain = 1;
    uint64_t trumps = r->trumps[p->trump];
    for (int suit = 0; suit < 4; suit++) {
        s->suit_mask[suit] = suit == p->trump ? trumps : (ROOK_BB_COLOR(suit) & ~trumps);
        s->suit_len[suit] = 0;
    }
    for (int c = 0; c < 64; c++)
        s->suit_of[c] = NO_SUIT;
    for (int suit = 0; suit < 4; suit++) {
        /* insertion sort of the suit's deck cards by strength */
        uint8_t *o = s->suit_order[suit];
        int n = 0;
        for (uint64_t m = s->suit_mask[suit] & r->deck; m; m &= m - 1) {
            int c = rook_lsb(m);
            s->suit_of[c] = (uint8_t)suit;
            int j = n++;
            while (j > 0 && r->strength[o[j - 1]] > r->strength[c]) {
                o[j] = o[j - 1];
                j--;
            }
            o[j] = (uint8_t)c;
        }
        s->suit_len[suit] = (uint8_t)n;
        uint64_t weaker = 0;
        for (int j = 0; j < n; j++) {
            s->below[o[j]] = weaker;
            weaker |= 1ULL << o[j];
        }
    }
    /* tags: 0 for a plain card, then one per kind of (points, anytime, bird) */
    int kinds[64], n_kinds = 0;
    s->exact_keys = s->exact_only;
    for (int c = 0; c < 64; c++) {
        s->tag_of[c] = 0;
        if (!((r->deck >> c) & 1))
            continue;
        int kind = (r->card_points[c] + 1024) * 4 + (int)((r->anytime >> c) & 1) * 2 + (c == ROOK_BIRD);
        if (kind == 1024 * 4)
            continue;
        int t = 0;
        while (t < n_kinds && kinds[t] != kind)
            t++;
        if (t == n_kinds)
            kinds[n_kinds++] = kind;
        if (t + 1 >= MAX_TAGS)
            s->exact_keys = 1;
        else
            s->tag_of[c] = (uint8_t)(t + 1);
    }
    for (int i = 0; i < 64; i++)
        s->zwon[i] = s->most_bonus ? mix64(0x7A1CULL << 8 | (uint64_t)i) : 0;
    for (int seat = 0; seat < 4; seat++) {
        s->zlead[seat] = mix64(0x5EA7ULL + (uint64_t)seat);
        for (int c = 0; c < 64; c++)
            s->zcard[seat][c] = s->suit_of[c] == NO_SUIT ? 0
                : mix64(((uint64_t)seat << 16) | ((uint64_t)s->suit_of[c] << 8) | s->tag_of[c]);
    }
    s->pts_out = rook_points(r, s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]);
    for (int i = 0; i < s->trick_n; i++)
        s->pts_out += r->card_points[s->trick[i]];
    s->zsum = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = s->hands[seat]; m; m &= m - 1)
            s->zsum += s->zcard[seat][rook_lsb(m)];
    /* Entries stay valid while the rules and the trump are the same; the
     * end points are stored with each entry (see tt_probe). */
    if (s->gen == 0 || s->ctx_r != r || s->ctx_trump != p->trump) {
        rook_solver_clear(s);
        s->ctx_r = r;
        s->ctx_trump = p->trump;
    }
}

/* The coarse hash of the current trick boundary (see tt_entry). */
static inline uint64_t coarse_hash(const rook_solver *s)
{
    return (s->zlead[s->leader] ^ s->zwon[s->won[0] & 63]) + s->zsum;
}

/* Build the key of the current trick boundary: a card's key bit is
 * 16*suit + the number of cards of its suit still in hands below it. */
static inline void make_key(const rook_solver *s, tt_key *k)
{
    uint64_t all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    uint64_t coarse = coarse_hash(s);
    for (int p = 0; p < N_PLANES; p++)
        k->tag[p] = 0;
    k->seat[0] = k->seat[1] = 0;
    uint64_t key_all = 0;
    for (int seat = 0; seat < 4; seat++) {
        uint64_t h = 0;
        for (uint64_t m = s->hands[seat]; m; m &= m - 1) {
            int c = rook_lsb(m);
            int b = 16 * s->suit_of[c] + rook_popcount(s->below[c] & all);
            uint64_t kb = 1ULL << b;
            h |= kb;
            int t = s->tag_of[c];
            for (int p = 0; p < N_PLANES; p++)
                k->tag[p] |= (uint64_t)((t >> p) & 1) << b;
            k->card_at[b] = (uint8_t)c;
            k->bit_of[c] = (uint8_t)b;
        }
        key_all |= h;
        if (seat & 1)
            k->seat[0] |= h;
        if (seat & 2)
            k->seat[1] |= h;
    }
    k->all = key_all;
    if (s->exact_keys)
        coarse ^= mix64(key_all ^ mix64(k->seat[0] ^ mix64(k->seat[1] ^ mix64(k->tag[0]) ^ k->tag[1]) ^ k->tag[2]));
    k->coarse = coarse;
}

/* The cards to report as relevant for an entry's keep mask: the lowest kept
 * card of each suit (everything above it is kept with it). */
static inline uint64_t keep_to_rel(const tt_key *k, uint64_t keep)
{
    uint64_t rel = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint64_t m = keep & (0xFFFFULL << (16 * suit));
        if (m)
            rel |= 1ULL << k->card_at[rook_lsb(m)];
    }
    return rel;
}

/* The keep mask of a set of relevant cards: in each suit, every key bit at
 * or above the lowest relevant card. */
static inline uint64_t rel_to_keep(const rook_solver *s, const tt_key *k, uint64_t rel)
{
    uint64_t all = k->all;
    if (s->exact_keys)
        return all;
    uint64_t keep = 0;
    uint64_t in_hands = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    for (rel &= in_hands; rel; rel &= rel - 1) {
        int b = k->bit_of[rook_lsb(rel)];
        uint64_t lane_top = (0xFFFFULL << (16 * (b >> 4))) & ~((1ULL << b) - 1);
        keep |= lane_top;
    }
    return keep & all;
}

static inline tt_bucket_t *tt_bucket(rook_solver *s, uint64_t coarse)
{
    uint64_t x = (uint32_t)(coarse ^ (coarse >> 29));
    return &s->tt[(x * s->n_buckets) >> 32];
}

static inline int tt_matches(const tt_entry *e, const tt_key *k)
{
    uint64_t keep = e->keep;
    if ((k->all & keep) != keep || (k->seat[0] & keep) != e->seat[0] || (k->seat[1] & keep) != e->seat[1])
        return 0;
    for (int p = 0; p < N_PLANES; p++)
        if ((k->tag[p] & keep) != e->tag[p])
            return 0;
    return 1;
}

/* Narrow [*lo, *hi] with every entry that stands for the key's position;
 * return whether one did, and add the relevant cards of the entries used
 * (see tt_entry) to *rel.
 *
 * An entry proven with other end points (nest points: the discards of a
 * nest decision) still bounds the value: the end points go to team 0 only
 * with the last trick, so with d more end points every line of play gives
 * team 0 between 0 and d more, and the value moves by 0 .. d as well. */
static inline int tt_probe(rook_solver *s, const tt_key *k, int *lo, int *hi, uint64_t *rel)
{
    tt_bucket_t *b = tt_bucket(s, k->coarse);
    uint32_t check = (uint32_t)(k->coarse >> 32);
    int used = 0;
    for (int i = 0; i < BUCKET; i++) {
        if (b->check[i] != check || b->gen[i] != s->gen)
            continue;
        tt_entry *e = &b->e[i];
        if (e->coarse != k->coarse || !tt_matches(e, k))
            continue;
        int d = s->end_points - e->end;
        int elo = d < 0 ? e->lo + d : e->lo;
        int ehi = d > 0 ? e->hi + d : e->hi;
        if (elo > *lo || ehi < *hi) {
            if (elo > *lo)
                *lo = elo;
            if (ehi < *hi)
                *hi = ehi;
            *rel |= keep_to_rel(k, e->keep);
            used = 1;
        }
    }
    return used;
}

static inline void tt_store(rook_solver *s, const tt_key *k, uint64_t rel, int lo, int hi, int cards)
{
    uint64_t keep = rel_to_keep(s, k, rel);
    uint64_t h[2], tag[N_PLANES];
    for (int i = 0; i < 2; i++)
        h[i] = k->seat[i] & keep;
    for (int p = 0; p < N_PLANES; p++)
        tag[p] = k->tag[p] & keep;
    tt_bucket_t *b = tt_bucket(s, k->coarse);
    uint32_t check = (uint32_t)(k->coarse >> 32);
    int victim = -1;
    for (int i = 0; i < BUCKET; i++) {
        if (b->gen[i] != s->gen) {
            if (victim < 0 || b->gen[victim] == s->gen)
                victim = i;
            continue;
        }
        tt_entry *e = &b->e[i];
        if (b->check[i] == check && e->coarse == k->coarse && e->keep == keep && e->seat[0] == h[0]
            && e->seat[1] == h[1] && e->tag[0] == tag[0]
            && e->tag[1] == tag[1] && e->tag[2] == tag[2] && e->end == s->end_points) {
            if (lo > e->lo) e->lo = (int16_t)lo;
            if (hi < e->hi) e->hi = (int16_t)hi;
            return;
        }
        if (victim < 0 || (b->gen[victim] == s->gen && b->cards[i] < b->cards[victim]))
            victim = i;
    }
    tt_entry *e = &b->e[victim];
    b->check[victim] = check;
    b->gen[victim] = s->gen;
    b->cards[victim] = (uint8_t)cards;
    e->coarse = k->coarse;
    e->keep = keep;
    for (int i = 0; i < 2; i++)
        e->seat[i] = h[i];
    for (int p = 0; p < N_PLANES; p++)
        e->tag[p] = tag[p];
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    e->end = s->end_points;
}

/* The strongest card of a non-empty mask of one suit, as a mask. */
static inline uint64_t strongest(const rook_solver *s, uint64_t m)
{
    int n = rook_popcount(m) - 1;
    for (uint64_t x = m; x; x &= x - 1)
        if (rook_popcount(s->below[rook_lsb(x)] & m) == n)
            return x & -x;
    return 0;
}

/* Fill moves[] with one card of each class of equivalent legal cards of
 * `seat`, ordered best first for that seat; return their number.  When
 * `classes` is not NULL, classes[i] gets the mask of the cards move i stands for. */
static int gen_moves(const rook_solver *s, int seat, uint8_t *moves, uint64_t *classes)
{
    const rook_rules *r = s->r;
    uint64_t hand = s->hands[seat];
    uint64_t legal = rook_legal_mask(r, hand, s->trick_n ? s->trick[0] : ROOK_NO_CARD, s->trump);
    uint64_t others = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & ~hand;
    for (int i = 0; i < s->trick_n; i++)
        others |= 1ULL << s->trick[i];
    int n = 0;
    uint64_t cls[16];
    for (int suit = 0; suit < 4; suit++) {
        uint64_t L = legal & s->suit_mask[suit];
        if (!L)
            continue;
        /* the suit's legal cards, weakest first */
        uint8_t order[16];
        int n_suit = 0;
        for (uint64_t m = L; m; m &= m - 1, n_suit++) {
            int c = rook_lsb(m);
            order[rook_popcount(s->below[c] & L)] = (uint8_t)c;
        }
        uint64_t O = others & s->suit_mask[suit];
        for (int j = 0; j < n_suit; j++) {
            int c = order[j];
            uint64_t bit = 1ULL << c;
            if (j > 0) {
                /* equivalent to the previous card when no other hand's card
                 * lies between them and both are plain cards of equal points */
                int prev = order[j - 1];
                uint64_t between = s->below[c] & ~s->below[prev] & ~(1ULL << prev);
                if (!(O & between) && r->card_points[c] == r->card_points[prev]
                    && !((r->anytime >> c) & 1) && !((r->anytime >> prev) & 1)) {
                    cls[n - 1] |= bit;
                    moves[n - 1] = (uint8_t)c;  /* the higher card represents the class */
                    continue;
                }
            }
            moves[n] = (uint8_t)c;
            cls[n] = bit;
            n++;
        }
    }
    /* Move ordering by a small score; insertion sort (n <= 15).  A card
     * takes the trick when its winning key (rules.h: 512 + strength for a
     * trump, 256 + strength for the led suit, 0 otherwise) beats the best
     * key in the trick so far, and for sure when no seat of the other team
     * still to play holds a legal card with a higher key.  Leads: sure
     * winners (no higher card of the suit out, no opponent able to ruff),
     * then leads under the partner's top card, then cheap leads; trumps
     * last when the other team has none.  Following: counters onto the
     * partner's sure winner, sure winners, winners for now, cheap cards. */
    int score[16];
    int team = seat & 1;
    const uint64_t tm = r->trumps[s->trump];
    const uint64_t fm = s->trick_n ? r->follow[s->trump][s->trick[0]] : 0;
#define WIN_KEY(c) ((int)(((tm >> (c)) & 1) ? 512 + r->strength[c] \
                         : ((fm >> (c)) & 1) ? 256 + r->strength[c] : 0))
    int best_key = -1, win_i = 0;
    for (int i = 0; i < s->trick_n; i++) {
        int key = WIN_KEY(s->trick[i]);
        if (key > best_key) {
            best_key = key;
            win_i = i;
        }
    }
    /* the best winning key the other team can still play to this trick */
    int later = -1;
    for (int k = s->trick_n + 1; s->trick_n && k < 4; k++) {
        int o = (s->leader + k) & 3;
        if (!((o ^ seat) & 1))
            continue;            /* the partner */
        for (uint64_t m = rook_legal_mask(r, s->hands[o], s->trick[0], s->trump); m; m &= m - 1)
            if (WIN_KEY(rook_lsb(m)) > later)
                later = WIN_KEY(rook_lsb(m));
    }
    int partner_winning = s->trick_n && (((s->leader + win_i) & 1) == team);
    int partner_safe = partner_winning && later <= best_key;
    if (s->trick_n == 1) {
        /* second to play: the partner, playing last, may top everything */
        int last = -1;
        for (uint64_t m = rook_legal_mask(r, s->hands[(seat + 2) & 3], s->trick[0], s->trump); m; m &= m - 1)
            if (WIN_KEY(rook_lsb(m)) > last)
                last = WIN_KEY(rook_lsb(m));
        if (last > later && last > best_key)
            partner_winning = partner_safe = 1;
    }
    for (int i = 0; i < n && n > 1; i++) {   /* a single move needs no score */
        int c = moves[i];
        int pts = r->card_points[c];
        int st = r->strength[c];
        if (!s->trick_n) {
            int su = s->suit_of[c];
            uint64_t higher = others & s->suit_mask[su] & ~s->below[c] & ~(1ULL << c);
            int ruff = 0;
            if (su != s->trump) {
                for (int o = 1; o < 4; o += 2) {
                    uint64_t h = s->hands[(seat + o) & 3];
                    if (!(h & s->suit_mask[su]) && (h & tm))
                        ruff = 1;
                }
            }
            if (!higher && !ruff)
                score[i] = 500 + 4 * pts - st;
            else if (higher && !ruff && (s->hands[(seat + 2) & 3] & strongest(s, higher)))
                score[i] = 400 + 4 * pts - st;
            else
                score[i] = 100 - 4 * pts - st;
            if (su == s->trump && !((s->hands[(seat + 1) & 3] | s->hands[(seat + 3) & 3]) & tm))
                score[i] -= 350;     /* no trump to draw */
        } else {
            int wins = WIN_KEY(c) > best_key;
            if (partner_winning && !wins)
                score[i] = partner_safe ? 320 + pts : 150 - pts - st;
            else if (wins)
                score[i] = (later > WIN_KEY(c) ? 200 : 300) + pts - st;
            else
                score[i] = 100 - pts - st;
        }
    }
#undef WIN_KEY
    for (int i = 1; i < n; i++) {
        int sc = score[i];
        uint8_t mv = moves[i];
        uint64_t cl = cls[i];
        int j = i;
        while (j > 0 && score[j - 1] < sc) {
            score[j] = score[j - 1];
            moves[j] = moves[j - 1];
            cls[j] = cls[j - 1];
            j--;
        }
        score[j] = sc;
        moves[j] = mv;
        cls[j] = cl;
    }
    if (classes)
        for (int i = 0; i < n; i++)
            classes[i] = cls[i];
    return n;
}

static int search(rook_solver *s, int alpha, int beta, uint64_t *rel);

/* At a trick boundary, set sure[t] to the points team t is certain to take
 * and return the cards that bound rests on: the top unplayed trump wins
 * whatever trick it falls in, and so does each trump below it while the
 * same team holds the whole run (a higher trump in the same trick is then
 * the team's own); the team holding every trump takes the end points too.
 * (A top card of another suit is not sure: its holder may have to discard
 * it on a trick of another suit.) */
static uint64_t sure_points(const rook_solver *s, int sure[2])
{
    const rook_rules *r = s->r;
    uint64_t team_cards[2] = {s->hands[0] | s->hands[2], s->hands[1] | s->hands[3]};
    uint64_t all = team_cards[0] | team_cards[1];
    uint64_t run = 0;
    sure[0] = sure[1] = 0;
    int suit = s->trump;
    int owner = -1;
    for (int j = s->suit_len[suit] - 1; j >= 0; j--) {
        int c = s->suit_order[suit][j];
        uint64_t bit = 1ULL << c;
        if (!(all & bit))
            continue;
        int t = (team_cards[0] & bit) ? 0 : 1;
        if (owner < 0)
            owner = t;
        else if (t != owner)
            break;
        sure[t] += r->card_points[c];
        run |= bit;
    }
    /* A team that holds every trump still out also takes the last trick
     * (T-13: the end points): a seat with trumps and other cards is never
     * made to play its last trump early, since only that team can lead
     * trumps; a seat with only trumps keeps one to the end.  Not so when a
     * void seat must trump (T-9 must_trump). */
    if (owner >= 0 && run == (all & r->trumps[s->trump]) && !r->must_trump && s->end_points > 0)
        sure[owner] += s->end_points;
    return run;
}

/* The winning card of a full trick if its rank decided the trick (it beat
 * a card of its own suit), else 0: the cards whose rank mattered. */
static inline uint64_t trick_rel(const rook_solver *s, const uint8_t *t, int wi)
{
    int ws = s->suit_of[t[wi]];
    for (int i = 0; i < 4; i++)
        if (i != wi && s->suit_of[t[i]] == ws)
            return 1ULL << t[wi];
    return 0;
}

/* Play `card` for the seat to move, search on, undo; return team 0's points
 * from before the card to the end of the hand, and in *rel the cards whose
 * rank the result rests on. */
static int child(rook_solver *s, int card, int alpha, int beta, uint64_t *rel)
{
    const rook_rules *r = s->r;
    int seat = (s->leader + s->trick_n) & 3;
    uint64_t bit = 1ULL << card;
    s->hands[seat] ^= bit;
    s->zsum -= s->zcard[seat][card];
    s->trick[s->trick_n++] = (uint8_t)card;
    int v;
    if (s->trick_n < 4) {
        v = search(s, alpha, beta, rel);
    } else {
        int wi = rook_trick_winner(r, s->trick, 4, s->trump);
        int w = (s->leader + wi) & 3;
        uint64_t trel = trick_rel(s, s->trick, wi);
        int pts = r->card_points[s->trick[0]] + r->card_points[s->trick[1]]
                + r->card_points[s->trick[2]] + r->card_points[s->trick[3]];
        int last = !(s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]);
        s->pts_out -= pts;
        if (last)
            pts += s->end_points;
        int gain = (w & 1) ? 0 : pts;
        s->won[w & 1]++;
        if (last) {
            if (s->won[0] > s->won[1])
                gain += s->most_bonus;
            v = gain;
            *rel = trel;
        } else {
            uint8_t saved[4] = {s->trick[0], s->trick[1], s->trick[2], s->trick[3]};
            int saved_leader = s->leader;
            s->trick_n = 0;
            s->leader = w;
            v = gain + search(s, alpha - gain, beta - gain, rel);
            *rel |= trel;
            s->leader = saved_leader;
            for (int i = 0; i < 4; i++)
                s->trick[i] = saved[i];
            s->trick_n = 4;
        }
        s->won[w & 1]--;
        s->pts_out += pts - (last ? s->end_points : 0);
    }
    s->trick_n--;
    s->hands[seat] ^= bit;
    s->zsum += s->zcard[seat][card];
    return v;
}

/* A class of equivalent cards was searched through its highest card.  The
 * other cards are covered in every position the result stands for only if
 * the class lies wholly above or wholly below the kept line of its suit:
 * when a relevant card of the suit ranks at or below the class's top, keep
 * the whole class (add its lowest card). */
static uint64_t cover_classes(const rook_solver *s, const uint8_t *moves, const uint64_t *cls,
                              int n, uint64_t rel)
{
    const rook_rules *r = s->r;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            uint64_t k = cls[i];
            if (!(k & (k - 1)))
                continue;
            int suit = s->suit_of[moves[i]];
            int top = -1;
            int low_c = -1;
            for (uint64_t m = k; m; m &= m - 1) {
                int c = rook_lsb(m);
                if (low_c < 0 || r->strength[c] < r->strength[low_c])
                    low_c = c;
                if (r->strength[c] > top)
                    top = r->strength[c];
            }
            if ((rel >> low_c) & 1)
                continue;
            int line_at_or_below_top = 0;
            for (uint64_t m = rel & s->suit_mask[suit]; m; m &= m - 1)
                if (r->strength[rook_lsb(m)] <= top && r->strength[rook_lsb(m)] > r->strength[low_c])
                    line_at_or_below_top = 1;
            if (line_at_or_below_top) {
                rel |= 1ULL << low_c;
                changed = 1;
            }
        }
    }
    return rel;
}

static inline int hi_card(const rook_rules *r, int a, int b)
{
    return r->strength[a] > r->strength[b] ? a : b;
}

/* Whether move i needs no search: an earlier searched move j of the same
 * suit and points, whose result rested on no rank of its suit at or below
 * the stronger of the two, gives move i the same bound (swapping the two
 * cards changes nothing the search below compared: every rank it compared
 * in the suit is above both).  Then move i's class joins move j's (see
 * cover_classes). */
static inline int sibling_covers(const rook_solver *s, const uint8_t *moves, uint64_t *cls,
                                 const uint64_t *rels, int i)
{
    const rook_rules *r = s->r;
    int c = moves[i];
    if (s->exact_only || ((r->anytime >> c) & 1) || c == ROOK_BIRD)
        return 0;
    for (int j = 0; j < i; j++) {
        int a = moves[j];
        if (cls[j] && s->suit_of[a] == s->suit_of[c] && r->card_points[a] == r->card_points[c]
            && !((r->anytime >> a) & 1) && a != ROOK_BIRD
            && !(rels[j] & (s->below[hi_card(r, a, c)] | (1ULL << hi_card(r, a, c))))) {
            cls[j] |= cls[i];
            cls[i] = 0;
            return 1;
        }
    }
    return 0;
}

/* Fail-soft alpha-beta bookkeeping after a child's value v: update the
 * best value and the window; return whether the window closed (a cut). */
static inline int ab_step(int maximize, int v, int *best, int *alpha, int *beta)
{
    if (maximize) {
        if (v > *best) {
            *best = v;
            if (v > *alpha)
                *alpha = v;
        }
    } else if (v < *best) {
        *best = v;
        if (v < *beta)
            *beta = v;
    }
    return *alpha >= *beta;
}

/* The last two tricks from a trick boundary (two cards in each hand):
 * fail-soft alpha-beta over the cards of the first trick, at most 16 lines,
 * the second trick being forced; no table (probing it cost more than this
 * search), no move ordering.  t[] holds the first trick's cards so far, k
 * of them; *rel gets the deciding cards of both tricks of every line
 * looked at. */
static int last_two(const rook_solver *s, uint8_t *t, int k, int alpha, int beta, uint64_t *rel)
{
    const rook_rules *r = s->r;
    int L = s->leader;
    if (k == 4) {
        int wi = rook_trick_winner(r, t, 4, s->trump);
        int w = (L + wi) & 3;
        int pts = r->card_points[t[0]] + r->card_points[t[1]] + r->card_points[t[2]]
                + r->card_points[t[3]];
        uint8_t u[4];
        for (int i = 0; i < 4; i++) {
            int seat = (w + i) & 3;
            u[i] = (uint8_t)rook_lsb(s->hands[seat] & ~(1ULL << t[(seat - L) & 3]));
        }
        int wi2 = rook_trick_winner(r, u, 4, s->trump);
        int w2 = (w + wi2) & 3;
        int pts2 = r->card_points[u[0]] + r->card_points[u[1]] + r->card_points[u[2]]
                 + r->card_points[u[3]] + s->end_points;
        int v = ((w & 1) ? 0 : pts) + ((w2 & 1) ? 0 : pts2);
        int won0 = s->won[0] + !(w & 1) + !(w2 & 1);
        int won1 = s->won[1] + (w & 1) + (w2 & 1);
        if (won0 > won1)
            v += s->most_bonus;
        *rel = trick_rel(s, t, wi) | trick_rel(s, u, wi2);
        return v;
    }
    int seat = (L + k) & 3;
    uint64_t legal = k ? rook_legal_mask(r, s->hands[seat], t[0], s->trump) : s->hands[seat];
    int maximize = !(seat & 1);
    int best = maximize ? -1 : 1 << 30;
    uint64_t R = 0;
    for (uint64_t m = legal; m; m &= ~(1ULL << rook_msb(m))) {
        t[k] = (uint8_t)rook_msb(m);    /* the higher card id first: a little fewer lines */
        uint64_t crel;
        int v = last_two(s, t, k + 1, alpha, beta, &crel);
        R |= crel;
        if (ab_step(maximize, v, &best, &alpha, &beta))
            break;
    }
    *rel = R;
    return best;
}

/* Fail-soft alpha-beta: team 0's points from here (current trick included);
 * *rel gets the cards whose rank the result rests on. */
static int search(rook_solver *s, int alpha, int beta, uint64_t *rel)
{
    const rook_rules *r = s->r;
    *rel = 0;
    if (s->aborted)
        return 0;
    if (++s->nodes > s->budget && s->budget) {
        s->aborted = 1;
        s->stop = ROOK_STOP_NODES;
        return 0;
    }
    if (s->deadline_ns && !(s->nodes & 1023) && now_ns() >= s->deadline_ns) {
        s->aborted = 1;
        s->stop = ROOK_STOP_TIME;
        return 0;
    }
    uint64_t all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    int n_cards = rook_popcount(all);
    s->nodes_by_cards[n_cards]++;
    if (s->trick_n == 0 && n_cards > 4) {
        /* start loading the table bucket while the cheap bounds are tried */
        __builtin_prefetch(tt_bucket(s, coarse_hash(s)));
    }
    int total = s->pts_out + s->end_points + s->most_bonus;
    /* sure bounds: 0 <= value <= total */
    if (alpha >= total)
        return total;
    if (beta <= 0)
        return 0;
    int alpha0 = alpha, beta0 = beta;
    uint64_t R = 0;
    tt_key key;
    if (s->trick_n == 0 && n_cards == 8) {
        /* two tricks left: searched directly, counted as this one node */
        uint8_t t[4];
        return last_two(s, t, 0, alpha, beta, rel);
    }
    if (s->trick_n == 0 && n_cards == 4) {
        /* the last trick: every card is forced */
        uint8_t t[4];
        for (int i = 0; i < 4; i++)
            t[i] = (uint8_t)rook_lsb(s->hands[(s->leader + i) & 3]);
        int wi = rook_trick_winner(r, t, 4, s->trump);
        int team = (s->leader + wi) & 1;
        *rel = trick_rel(s, t, wi);
        return team ? (s->won[0] > s->won[1] + 1 ? s->most_bonus : 0)
                    : total - (s->won[0] + 1 > s->won[1] ? 0 : s->most_bonus);
    }
    if (s->trick_n == 0) {
        int sure[2];
        uint64_t run = sure_points(s, sure);
        if (sure[0] >= beta) {
            *rel = run;
            return sure[0];
        }
        if (total - sure[1] <= alpha) {
            *rel = run;
            return total - sure[1];
        }
        make_key(s, &key);
        int lo = 0, hi = total;
        uint64_t erel = 0;
        if (tt_probe(s, &key, &lo, &hi, &erel)) {
            s->tt_hits++;
            if (lo >= beta || hi <= alpha || lo == hi) {
                *rel = erel;
                return lo >= beta ? lo : hi <= alpha ? hi : lo;
            }
            if (lo > alpha)
                alpha = lo;
            if (hi < beta)
                beta = hi;
            R = erel;
        }
    }
    int seat = (s->leader + s->trick_n) & 3;
    uint8_t moves[16];
    uint64_t cls[16];
    int n = gen_moves(s, seat, moves, cls);
    int maximize = !(seat & 1);
    int best = maximize ? -1 : total + 1;
    int searched = 0;
    uint64_t rels[16];
    for (int i = 0; i < n; i++) {
        if (sibling_covers(s, moves, cls, rels, i)) {
            searched = i + 1;
            continue;
        }
        uint64_t crel;
        int v = child(s, moves[i], alpha, beta, &crel);
        if (s->aborted)
            return 0;
        rels[i] = crel;
        R |= crel;
        searched = i + 1;
        if (ab_step(maximize, v, &best, &alpha, &beta))
            break;
    }
    R = cover_classes(s, moves, cls, searched, R);
    if (s->trick_n == 0) {
        int lo = 0, hi = total;
        if (best <= alpha0)
            hi = best;
        else if (best >= beta0)
            lo = best;
        else
            lo = hi = best;
        tt_store(s, &key, R, lo, hi, n_cards);
    }
    *rel = R;
    return best;
}

int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target)
{
    setup(s, r, p);
    uint64_t rel;
    int v = search(s, target - 1, target, &rel);
    if (s->aborted)
        return -1;
    return v >= target;
}

/* Close [lo, hi] (team 0's points from here, or after `card` when card >= 0)
 * with null-window searches, each at a multiple of the grain: the first at
 * `guess`, then (see below) at the bound found or halving the interval; a
 * fail-soft answer may close more than half.  The table is shared between
 * the steps. */
static int drive(rook_solver *s, int card, int guess, int lo, int hi, int *out_lo, int *out_hi)
{
    int gr = s->grain;
    int g = guess;
    int steps = 0;
    while (lo < hi) {
        if (g <= lo)
            g = lo + gr;
        if (g > hi)
            g = hi;
        uint64_t rel;
        int v = card >= 0 ? child(s, card, g - 1, g, &rel) : search(s, g - 1, g, &rel);
        if (s->aborted)
            break;
        int up = v >= g;
        if (up)
            lo = v < hi ? v : hi;
        else
            hi = v > lo ? v : lo;
        /* next target: for a card (whose first guess, the position's
         * value, is close), twice right at the bound just proven (a
         * fail-soft bound is often the value); then, and for the
         * position itself, the middle of what is left, on the grain */
        if (card >= 0 && steps++ < 2)
            g = up ? lo + gr : hi;
        else
            g = lo + gr * (((hi - lo) / gr + 1) / 2);
    }
    if (out_lo)
        *out_lo = lo;
    if (out_hi)
        *out_hi = hi;
    return s->aborted ? -1 : lo;
}

static int total_points(const rook_solver *s)
{
    return s->pts_out + s->end_points + s->most_bonus;
}

/* The first guess: the middle of [0, total] on the grain. */
static int middle(const rook_solver *s, int total)
{
    return s->grain * ((total / s->grain + 1) / 2);
}

int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi)
{
    setup(s, r, p);
    int total = total_points(s);
    return drive(s, -1, middle(s, total), 0, total, lo, hi);
}

int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64],
                        int *lo, int *hi)
{
    setup(s, r, p);
    int total = total_points(s);
    int seat = (s->leader + s->trick_n) & 3;
    uint8_t moves[16];
    uint64_t classes[16];
    int n = gen_moves(s, seat, moves, classes);
    int maximize = !(seat & 1);
    int best = maximize ? -1 : total + 1;
    /* The position's value first: the best card's value equals it, and it is
     * the first guess for every card. */
    int root = drive(s, -1, middle(s, total), 0, total, lo, hi);
    if (root < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        /* no card beats the best: a card's value lies between the root's
         * and the sure bound on the other side */
        int guess = maximize ? root : root + s->grain;
        int v = drive(s, moves[i], guess, maximize ? 0 : root, maximize ? root : total, NULL, NULL);
        if (v < 0)
            return -1;
        for (uint64_t m = classes[i]; m; m &= m - 1)
            values[rook_lsb(m)] = v;
        if (maximize ? v > best : v < best)
            best = v;
    }
    return best;
}
