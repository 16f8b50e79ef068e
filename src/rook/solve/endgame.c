/* endgame.c: the last three tricks searched directly (see endgame.h).
 *
 * Below twelve cards the search's machinery (move classes with their
 * ordering rules, the table, the budget checks) costs more than it saves:
 * a position of three cards a hand has at most 81 first tricks, each
 * followed by at most 16 lines of the last two.  So the first of the three
 * tricks is searched card by card with a short list of classes and a
 * cheap order, and the last two by a fixed loop over the lead and the
 * three replies (the second trick is forced), through a small cache of
 * their results: the same eight cards come back often, after other first
 * tricks from sibling positions.
 */
#include "rook/solve/endgame.h"
#include "rook/solve/node.h"
#include "rook/solve/table.h"

/* The last two tricks from a trick boundary (two cards in each hand).  The
 * first trick is searched card by card (each seat's higher card first,
 * alpha-beta), the second is forced.  A trick's winner is its highest
 * trump, else its highest card of the led lane. */
typedef struct two_tricks {
    const rook_solver *s;
    uint64_t h[4];     /* h[i]: the hand of seat leader + i */
    uint64_t all;      /* the eight cards */
    uint64_t led_lane; /* the first trick's led lane */
    int all_pts;       /* the points of the eight, and the end points */
    int L;             /* the first trick's leader */
    uint8_t seat[64];  /* seat (leader + i) of each of the eight, as i */
} two_tricks;

/* The winning card of the trick of the cards m led from lane `led`. */
static inline int trick_top(const rook_solver *s, uint64_t m, uint64_t led)
{
    uint64_t tr = m & s->tlane;
    return rook_msb(tr ? tr : m & led);
}

/* The winning card c of the trick m, if its rank decided the trick (it
 * beat a card of its own lane), else 0. */
static inline uint64_t won_by_rank(uint64_t m, int c)
{
    return m & DD_LANE(c >> 4) & ~(1ULL << c) ? 1ULL << c : 0;
}

/* Both tricks once the first one's cards m1 (of pts points) are down. */
static inline int two_played(const two_tricks *x, uint64_t m1, int pts, uint64_t *rel)
{
    const rook_solver *s = x->s;
    int c1 = trick_top(s, m1, x->led_lane);
    int wi = x->seat[c1];
    uint64_t m2 = x->all & ~m1;
    /* the second trick is led by the winner's other card */
    int c2 = trick_top(s, m2, DD_LANE(rook_lsb(x->h[wi] & m2) >> 4));
    int t1 = (x->L + wi) & 1, t2 = (x->L + x->seat[c2]) & 1;
    int v = (t1 ? 0 : pts) + (t2 ? 0 : x->all_pts - pts);
    if (s->most_bonus && s->won[0] + !t1 + !t2 > s->won[1] + t1 + t2)
        v += s->most_bonus;
    *rel = won_by_rank(m1, c1) | won_by_rank(m2, c2);
    return v;
}

/* Seat k (0..3) of the first trick chooses among its legal cards, the
 * higher first; m and pts: the cards played before it and their points. */
#define DD_TWO_SEAT(k, next_call)                                                                              \
    static inline int two_seat##k(two_tricks *x, uint64_t m, int pts, int alpha, int beta, uint64_t *rel)      \
    {                                                                                                          \
        const rook_solver *s = x->s;                                                                           \
        uint64_t h = x->h[k], legal = h;                                                                       \
        if (k) {                                                                                               \
            uint64_t follow = h & x->led_lane;                                                                 \
            legal = follow ? follow | (h & s->anytime) : s->must_trump && (h & s->tlane) ? h & s->tlane : h;   \
        }                                                                                                      \
        int maximize = !((x->L + (k)) & 1);                                                                    \
        int c = rook_msb(legal);                                                                               \
        if (!(k))                                                                                              \
            x->led_lane = DD_LANE(c >> 4);                                                                     \
        uint64_t mc = m | 1ULL << c, crel;                                                                     \
        int pc = pts + s->pts[c];                                                                              \
        int best = next_call;                                                                                  \
        if (legal & (legal - 1) && (maximize ? best < beta : best > alpha)) {                                  \
            /* the lower card */                                                                               \
            uint64_t R = crel;                                                                                 \
            if (maximize ? best > alpha : best < beta) {                                                       \
                if (maximize)                                                                                  \
                    alpha = best;                                                                              \
                else                                                                                           \
                    beta = best;                                                                               \
            }                                                                                                  \
            c = rook_lsb(legal);                                                                               \
            if (!(k))                                                                                          \
                x->led_lane = DD_LANE(c >> 4);                                                                 \
            mc = m | 1ULL << c;                                                                                \
            pc = pts + s->pts[c];                                                                              \
            int v = next_call;                                                                                 \
            if (maximize ? v > best : v < best)                                                                \
                best = v;                                                                                      \
            crel |= R;                                                                                         \
        }                                                                                                      \
        *rel = crel;                                                                                           \
        return best;                                                                                           \
    }
DD_TWO_SEAT(3, two_played(x, mc, pc, &crel))
DD_TWO_SEAT(2, two_seat3(x, mc, pc, alpha, beta, &crel))
DD_TWO_SEAT(1, two_seat2(x, mc, pc, alpha, beta, &crel))
DD_TWO_SEAT(0, two_seat1(x, mc, pc, alpha, beta, &crel))

static int last_two_search(const rook_solver *s, int alpha, int beta, uint64_t *rel)
{

    two_tricks x;
    x.s = s;
    x.L = s->leader;
    x.all = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t h = x.h[i] = s->hands[(x.L + i) & 3];
        x.all |= h;
        x.seat[rook_lsb(h)] = x.seat[rook_msb(h)] = (uint8_t)i;
    }
    x.all_pts = dd_points(s, x.all) + s->end_points;
    return two_seat0(&x, 0, 0, alpha, beta, rel);
}

/* last_two_search through the cache of results (DD_TWO_ENTRIES): a stored
 * bound that decides the window answers; else the search's result is
 * stored, with the other bound of the same position kept. */
int dd_last_two(const rook_solver *s, int alpha, int beta, uint64_t *rel)
{
#ifndef DD_NO_TWO_CACHE
    uint64_t key = (uint64_t)s->leader << 48 | (uint64_t)(s->won[0] & 63) << 50;
    for (int i = 0; i < 4; i++)
        key |= (uint64_t)(rook_lsb(s->hands[i]) | rook_msb(s->hands[i]) << 6) << (12 * i);
    dd_two_entry *e = &s->two[dd_mix64(key) >> (64 - DD_TWO_BITS)];
    int same = e->key == key && e->gen == s->two_gen && e->end == s->end_points;
    if (same) {
        if (e->hi <= alpha || e->lo == e->hi) {
            *rel = e->rel;
            return e->hi;
        }
        if (e->lo >= beta) {
            *rel = e->rel;
            return e->lo;
        }
    }
    int v = last_two_search(s, alpha, beta, rel);
    int lo = v <= alpha ? -1 : v, hi = v >= beta ? 30000 : v;
    if (same) {
        lo = e->lo > lo ? e->lo : lo;
        hi = e->hi < hi ? e->hi : hi;
        e->rel |= *rel;
    } else {
        e->key = key;
        e->gen = s->two_gen;
        e->end = (int16_t)s->end_points;
        e->rel = *rel;
    }
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    return v;
#else
    return last_two_search(s, alpha, beta, rel);
#endif
}

/* The last three tricks from a trick boundary (three cards in each hand):
 * the first trick card by card, each seat's legal cards in classes of
 * equivalent cards (one lane, no other card out between them, the same
 * tag) in a cheap order (leads: the higher first; followers: cards that
 * take the trick from the other team, points onto a partner's trick,
 * cheap cards), then last_two.  The cards of a searched class's lane
 * whose result rested on no rank at or below both are decided by it
 * (node.h's sibling_covers).  m: the trick's cards so far, bk and bi: the
 * best winning key among them and its place, pts: their points. */
typedef struct three_tricks {
    rook_solver *s;
    uint64_t all; /* the twelve cards */
    int L;        /* the first trick's leader */
    int ll;       /* its led lane */
    uint8_t t[4]; /* its cards */
} three_tricks;

static int three_seat(three_tricks *x, int k, uint64_t m, int bk, int bi, int pts, int alpha, int beta,
                      uint64_t *rel)
{
    rook_solver *s = x->s;
    int L = x->L;
    if (k == 4) {
        int w = (L + bi) & 3;
        int gain = (w & 1) ? 0 : pts;
        s->won[w & 1]++;
        s->leader = w;
        uint64_t crel;
        int v = gain + dd_last_two(s, alpha - gain, beta - gain, &crel);
        s->leader = L;
        s->won[w & 1]--;
        *rel = crel | won_by_rank(m, x->t[bi]);
        return v;
    }
    int seat = (L + k) & 3;
    uint64_t hand = s->hands[seat];
    uint64_t legal = hand;
    if (k) {
        uint64_t follow = hand & DD_LANE(x->ll);
        legal = follow                           ? follow | (hand & s->anytime)
            : s->must_trump && (hand & s->tlane) ? hand & s->tlane
                                                 : hand;
    }
    uint64_t others = x->all & ~hand;
    const uint8_t *wk = s->wkey[x->ll];
    int pw = k >= 2 && bi == k - 2; /* the partner's card leads the trick */
    uint8_t card[4];
    uint64_t cls[4];
    int sc[4], n = 0;
    for (uint64_t l = legal; l;) {
        int c = rook_msb(l);
        uint64_t cl = 1ULL << c;
        l &= ~cl;
        if (!((s->anytime >> c) & 1))
            while (l) {
                int d = rook_msb(l);
                if ((d >> 4) != (c >> 4) || s->tag[d] != s->tag[c] || ((s->anytime >> d) & 1)
                    || (others & ((1ULL << rook_lsb(cl)) - (2ULL << d))))
                    break;
                cl |= 1ULL << d;
                l &= ~(1ULL << d);
            }
        int score;
        if (k) {
            int p = s->pts[c];
            score = wk[c] > bk ? (pw ? 0 : 64) + p - (c & 15) : pw ? 32 + p : 32 - p - (c & 15);
        } else
            score = c & 15;
        int j = n++;
        while (j > 0 && sc[j - 1] < score) {
            sc[j] = sc[j - 1];
            card[j] = card[j - 1];
            cls[j] = cls[j - 1];
            j--;
        }
        sc[j] = score;
        card[j] = (uint8_t)c;
        cls[j] = cl;
    }
    int maximize = !(seat & 1);
    int best = maximize ? -1 : 1 << 30;
    int done = 0;
    uint64_t R = 0, rels[4];
    int vals[4];
    for (int i = 0; i < n; i++) {
        int c = card[i];
        done = i + 1;
        int skip = 0;
        for (int j = 0; j < i && !skip; j++) {
            int a = card[j];
            if ((a >> 4) != (c >> 4) || !cls[j])
                continue;
            int hi = a > c ? a : c;
            if (rels[j] & (dd_below(hi) | (1ULL << hi)))
                continue;
            if (s->tag[a] == s->tag[c]) {
                cls[j] |= cls[i];
                cls[i] = 0;
                skip = 1;
            } else if (!(((s->marked >> a) | (s->marked >> c)) & 1)) {
                int d = s->pts[a] - s->pts[c];
                d = d < 0 ? -d : d;
                int w = maximize ? vals[j] + d : vals[j] - d;
                if (maximize ? w <= alpha : w >= beta) {
                    cls[j] |= cls[i];
                    cls[i] = 0;
                    ab_step(maximize, w, &best, &alpha, &beta);
                    skip = 1;
                }
            }
        }
        if (skip)
            continue;
        x->t[k] = (uint8_t)c;
        if (!k)
            x->ll = c >> 4;
        int key = s->wkey[x->ll][c];
        s->hands[seat] ^= 1ULL << c;
        uint64_t crel;
        int v = three_seat(x, k + 1, m | 1ULL << c, key > bk ? key : bk, key > bk ? k : bi, pts + s->pts[c],
                           alpha, beta, &crel);
        s->hands[seat] ^= 1ULL << c;
        R |= crel;
        rels[i] = crel;
        vals[i] = v;
        if (ab_step(maximize, v, &best, &alpha, &beta))
            break;
    }
    *rel = dd_cover_classes(cls, done, R);
    return best;
}

int dd_last_three(rook_solver *s, int alpha, int beta, uint64_t *rel)
{
    three_tricks x;
    x.s = s;
    x.all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    x.L = s->leader;
    x.ll = 0;
    return three_seat(&x, 0, 0, -1, 0, 0, alpha, beta, rel);
}
