/* endgame.c: the last three tricks searched directly (see endgame.h).
 *
 * Below twelve cards the search's machinery (move classes with their
 * ordering rules, the table, the budget checks) costs more than it saves:
 * a position of three cards a hand has at most 81 first tricks, each
 * followed by at most 16 lines of the last two.  So the first of the three
 * tricks is searched card by card with a short list of classes in the
 * order of moves.h, and the last two by a fixed loop over the lead and the
 * three replies (the second trick is forced).  Both searches are unrolled:
 * each seat is a function of its own, with its place in the trick and the
 * leader's team as constants, all inlined.
 *
 * No cache of the last two tricks' results: one keyed by the order of the
 * eight cards within their lanes answered a third of its lookups, but
 * since the table stores the last three tricks' results at twelve cards,
 * searching without it took about 1% less time per deal (0.997-1.018x in
 * seven runs over tournament value and every card, crowsnest and
 * partnership-57) and as many nodes or fewer.
 *
 * Relevant ranks.  A bound that a move cut with rests on that move's
 * result alone (the moves before it only raised the window), so a cut
 * returns the cards that result rested on, not those of its siblings; and
 * a completed first trick whose points already settle the window needs no
 * rank of the last two.  Fewer relevant cards let each table entry above
 * stand for more positions.
 */
#include "rook/solve/endgame.h"
#include "rook/solve/node.h"

#ifdef DD_COUNT
/* A diagnostic build's counters: calls of dd_last_two, and completed first
 * tricks that needed the last two. */
uint64_t dd_l2_calls, dd_l3_leaves;
#define DD_CNT(x) ((x)++)
#else
#define DD_CNT(x) ((void)0)
#endif

/* The last two tricks from a trick boundary (two cards in each hand).  The
 * first trick is searched card by card (each seat's higher card first,
 * alpha-beta, fail-soft), the second is forced.  A trick's winner is its
 * highest trump, else its highest card of the led lane. */
typedef struct two_tricks {
    const rook_solver *s;
    uint64_t h[4];     /* h[i]: the hand of seat leader + i */
    uint64_t all;      /* the eight cards */
    uint64_t team0;    /* team 0's cards among them */
    uint64_t led_lane; /* the first trick's led lane */
    int all_pts;       /* the points of the eight, and the end points */
    int bonus[3];      /* the most-tricks bonus to team 0 by its tricks of the two */
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
    uint64_t m2 = x->all & ~m1;
    /* the second trick is led by the winner's other card */
    int c2 = trick_top(s, m2, DD_LANE(rook_lsb(x->h[x->seat[c1]] & m2) >> 4));
    int w1 = (x->team0 >> c1) & 1, w2 = (x->team0 >> c2) & 1;
    int v = (w1 ? pts : 0) + (w2 ? x->all_pts - pts : 0) + x->bonus[w1 + w2];
    *rel = won_by_rank(m1, c1) | won_by_rank(m2, c2);
    return v;
}

/* Seat k (0..3) of the first trick chooses among its legal cards, the
 * higher first; m and pts: the cards played before it and their points.
 * P: the leader's team (the seat functions come in one set for each). */
#define DD_TWO_SEAT(k, P, next_call)                                                                           \
    static inline int two_seat##k##_##P(two_tricks *x, uint64_t m, int pts, int alpha, int beta,               \
                                        uint64_t *rel)                                                         \
    {                                                                                                          \
        const rook_solver *s = x->s;                                                                           \
        uint64_t h = x->h[k], legal = h;                                                                       \
        if (k) {                                                                                               \
            uint64_t follow = h & x->led_lane;                                                                 \
            legal = follow ? follow | (h & s->anytime) : s->must_trump && (h & s->tlane) ? h & s->tlane : h;   \
        }                                                                                                      \
        const int maximize = !(((P) + (k)) & 1);                                                               \
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
            if (maximize ? v < beta : v > alpha) /* else a cut: it rests on the lower card alone */            \
                crel |= R;                                                                                     \
        }                                                                                                      \
        *rel = crel;                                                                                           \
        return best;                                                                                           \
    }
#define DD_TWO_SEATS(P)                                                                                        \
    DD_TWO_SEAT(3, P, two_played(x, mc, pc, &crel))                                                            \
    DD_TWO_SEAT(2, P, two_seat3_##P(x, mc, pc, alpha, beta, &crel))                                            \
    DD_TWO_SEAT(1, P, two_seat2_##P(x, mc, pc, alpha, beta, &crel))                                            \
    DD_TWO_SEAT(0, P, two_seat1_##P(x, mc, pc, alpha, beta, &crel))
DD_TWO_SEATS(0)
DD_TWO_SEATS(1)

__attribute__((noinline)) int dd_last_two(const rook_solver *s, int alpha, int beta, uint64_t *rel)
{
    DD_CNT(dd_l2_calls);
    two_tricks x;
    x.s = s;
    int L = s->leader;
    x.all = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t h = x.h[i] = s->hands[(L + i) & 3];
        x.all |= h;
        x.seat[rook_lsb(h)] = x.seat[rook_msb(h)] = (uint8_t)i;
    }
    x.team0 = s->hands[0] | s->hands[2];
    x.all_pts = dd_points(s, x.all) + s->end_points;
    for (int n0 = 0; n0 < 3; n0++)
        x.bonus[n0] = s->won[0] + n0 > s->won[1] + 2 - n0 ? s->most_bonus : 0;
    return L & 1 ? two_seat0_1(&x, 0, 0, alpha, beta, rel) : two_seat0_0(&x, 0, 0, alpha, beta, rel);
}

/* The last three tricks from a trick boundary (three cards in each hand):
 * the first trick card by card, each seat's legal cards in classes of
 * equivalent cards (one lane, no other card out between them, the same
 * tag) in moves.h's order (leads: sure winners, leads under the partner's
 * top card, to a partner who ruffs, cheap leads; followers: points onto a
 * partner's sure trick, cards that take the trick for sure, cheap cards
 * under a partner winning for now, cards that take it for now, cheap
 * cards), then last_two.  A forced card is played without a class list.
 * The cards of a searched class's lane whose result rested on no rank at
 * or below both are decided by it (node.h's sibling_covers).  m: the
 * trick's cards so far, bk and bi: the best winning key among them and its
 * place, pts: their points. */
typedef struct three_tricks {
    rook_solver *s;
    uint64_t all; /* the twelve cards */
    int pts12;    /* their points */
    int L;        /* the first trick's leader */
    int ll;       /* its led lane (its cards: s->trick) */
} three_tricks;

/* A completed first trick (m, won by its card bi, of pts points): the last
 * two tricks, unless the points left settle the window (team 0 takes
 * between none of them and all, and the most-tricks bonus when its tricks
 * decide it): that bound rests on no rank of the last two. */
static inline __attribute__((always_inline)) int three_leaf(three_tricks *x, const int P, uint64_t m, int bi,
                                                            int pts, int alpha, int beta, uint64_t *rel)
{
    rook_solver *s = x->s;
    int L = x->L;
    int w = (L + bi) & 3;
    int gain = ((P + bi) & 1) ? 0 : pts;
    s->won[(P + bi) & 1]++;
    s->leader = w;
    uint64_t crel;
    /* the points still out bound the last two: settle the window without them */
    {
        int rest = x->pts12 - pts + s->end_points;
        int hi = rest + (s->won[0] + 2 > s->won[1] ? s->most_bonus : 0);
        int lo = s->won[0] > s->won[1] + 2 ? s->most_bonus : 0;
        if (alpha - gain >= hi || beta - gain <= lo) {
            s->leader = L;
            s->won[(P + bi) & 1]--;
            *rel = won_by_rank(m, s->trick[bi]);
            return gain + (beta - gain <= lo ? lo : hi);
        }
    }
    DD_CNT(dd_l3_leaves);
    int v = gain + dd_last_two(s, alpha - gain, beta - gain, &crel);
    s->leader = L;
    s->won[(P + bi) & 1]--;
    *rel = crel | won_by_rank(m, s->trick[bi]);
    return v;
}

/* The seats after the first, one function each (all inlined into
 * dd_last_three: k and P are constants in each). */
#define DD_THREE_DECL(k, P)                                                                                    \
    static inline __attribute__((always_inline)) int three_seat##k##_##P(                                      \
        three_tricks *x, uint64_t m, int bk, int bi, int pts, int alpha, int beta, uint64_t *rel);
DD_THREE_DECL(1, 0)
DD_THREE_DECL(2, 0)
DD_THREE_DECL(3, 0)
DD_THREE_DECL(1, 1)
DD_THREE_DECL(2, 1)
DD_THREE_DECL(3, 1)

/* Seat k plays card c: the rest of the first trick, or the last two. */
static inline __attribute__((always_inline)) int three_child(three_tricks *x, const int k, const int P, int c,
                                                             uint64_t m, int bk, int bi, int pts, int alpha,
                                                             int beta, uint64_t *rel)
{
    rook_solver *s = x->s;
    int seat = (x->L + k) & 3;
    s->trick[k] = (uint8_t)c;
    if (!k)
        x->ll = c >> 4;
    int key = s->wkey[x->ll][c];
    s->hands[seat] ^= 1ULL << c;
    uint64_t mc = m | 1ULL << c;
    int bkc = key > bk ? key : bk, bic = key > bk ? k : bi, pc = pts + s->pts[c];
    int v = k == 0 ? (P ? three_seat1_1 : three_seat1_0)(x, mc, bkc, bic, pc, alpha, beta, rel)
        : k == 1   ? (P ? three_seat2_1 : three_seat2_0)(x, mc, bkc, bic, pc, alpha, beta, rel)
        : k == 2   ? (P ? three_seat3_1 : three_seat3_0)(x, mc, bkc, bic, pc, alpha, beta, rel)
                   : three_leaf(x, P, mc, bic, pc, alpha, beta, rel);
    s->hands[seat] ^= 1ULL << c;
    return v;
}

/* The classes of seat k's legal cards (more than one), best first: card[i]
 * searched for the class cls[i]; return their number. */
static inline __attribute__((always_inline)) int three_moves(const three_tricks *x, const int k, uint64_t hand,
                                                             uint64_t legal, int bk, int bi, uint8_t *card,
                                                             uint64_t *cls)
{
    const rook_solver *s = x->s;
    int seat = (x->L + k) & 3;
    uint64_t others = x->all & ~hand;
    uint64_t partner = s->hands[(seat + 2) & 3];
    uint64_t opp1 = s->hands[(seat + 1) & 3], opp3 = s->hands[(seat + 3) & 3];
    const uint8_t *wk = s->wkey[x->ll];
    /* following: whether the partner wins the trick for now, or for sure
     * (no later opponent can beat it; second to play, the partner playing
     * last can top everything), and the best key a later opponent holds */
    int later = -1, pwin = 0, psafe = 0;
    if (k) {
        int led = s->trick[0];
        if (k < 3)
            later = dd_best_key(s, opp1, led);
        pwin = !((bi ^ k) & 1);
        psafe = pwin && later <= bk;
        if (k == 1) {
            int last = dd_best_key(s, partner, led);
            if (last > later && last > bk)
                pwin = psafe = 1;
        }
    }
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
        /* the order of moves.h */
        int score, p = s->pts[c], st = c & 15, lane = c >> 4;
        if (!k) {
            uint64_t higher = others & dd_above(c);
            int ruff = lane != s->trump
                && ((!(opp1 & DD_LANE(lane)) && (opp1 & s->tlane))
                    || (!(opp3 & DD_LANE(lane)) && (opp3 & s->tlane)));
            score = dd_lead_score(s, hand, partner, opp3, opp1 | opp3, c, higher, ruff,
                                  dd_lead_replies(s, opp3, opp1 | opp3, c));
        } else {
            int key = wk[c];
            if (pwin && key <= bk)
                score = psafe ? DD_W(FOLLOW_ONTO_PARTNER) + DD_W(FOLLOW_ONTO_PARTNER_PTS) * p
                              : DD_W(FOLLOW_UNDER_PARTNER) - p - st;
            else if (key > bk)
                score = (lane == s->trump && !(others & s->tlane & dd_above(c)) ? DD_W(FOLLOW_WIN_BOSS_TRUMP)
                             : later > key                                      ? DD_W(FOLLOW_WIN_FOR_NOW)
                                                                                : DD_W(FOLLOW_WIN))
                    + DD_W(FOLLOW_WIN_PTS) * p - st;
            else
                score = DD_W(FOLLOW_LOSE) - DD_W(FOLLOW_LOSE_PTS) * p - st;
        }
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
    return n;
}

/* Seat k of the first trick (k and P, the leader's team, are constants). */
static inline __attribute__((always_inline)) int three_seat(three_tricks *x, const int k, const int P,
                                                            uint64_t m, int bk, int bi, int pts, int alpha,
                                                            int beta, uint64_t *rel)
{
    rook_solver *s = x->s;
    uint64_t hand = s->hands[(x->L + k) & 3];
    uint64_t legal = hand;
    if (k) {
        uint64_t follow = hand & DD_LANE(x->ll);
        legal = follow                           ? follow | (hand & s->anytime)
            : s->must_trump && (hand & s->tlane) ? hand & s->tlane
                                                 : hand;
    }
    uint8_t card[4];
    uint64_t cls[4];
    int n = 1;
    if (!(legal & (legal - 1))) { /* a forced card */
        card[0] = (uint8_t)rook_lsb(legal);
        cls[0] = legal;
    } else
        n = three_moves(x, k, hand, legal, bk, bi, card, cls);
    const int maximize = !((P + k) & 1);
    int best = maximize ? -1 : 1 << 30;
    int done = 0;
    uint64_t R = 0, rels[4];
    int vals[4];
    uint8_t searched[4] = {0};
    for (int i = 0; i < n; i++) {
        done = i + 1;
        int v;
        int sc = sibling_covers(s, card, cls, rels, searched, vals, i, maximize, alpha, beta, &v, &R, 0);
        if (sc == 2)
            ab_step(maximize, v, &best, &alpha, &beta);
        if (sc)
            continue;
        uint64_t crel;
        v = three_child(x, k, P, card[i], m, bk, bi, pts, alpha, beta, &crel);
        if (!(legal & (legal - 1))) {
            *rel = crel;
            return v;
        }
        R |= crel;
        rels[i] = crel;
        vals[i] = v;
        searched[i] = 1;
        if (ab_step(maximize, v, &best, &alpha, &beta)) {
            /* a cut: the bound rests on this move alone */
            *rel = dd_cover_classes(&cls[i], 1, crel);
            return best;
        }
    }
    *rel = dd_cover_classes(cls, done, R);
    return best;
}

#define DD_THREE_SEAT(k, P)                                                                                    \
    static inline int three_seat##k##_##P(three_tricks *x, uint64_t m, int bk, int bi, int pts, int alpha,     \
                                          int beta, uint64_t *rel)                                             \
    {                                                                                                          \
        return three_seat(x, k, P, m, bk, bi, pts, alpha, beta, rel);                                          \
    }
DD_THREE_SEAT(1, 0)
DD_THREE_SEAT(2, 0)
DD_THREE_SEAT(3, 0)
DD_THREE_SEAT(1, 1)
DD_THREE_SEAT(2, 1)
DD_THREE_SEAT(3, 1)

__attribute__((noinline)) int dd_last_three(rook_solver *s, int alpha, int beta, uint64_t *rel)
{
    three_tricks x;
    x.s = s;
    x.all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    x.L = s->leader;
    x.ll = 0;
    x.pts12 = dd_points(s, x.all);
    return x.L & 1 ? three_seat(&x, 0, 1, 0, -1, 0, 0, alpha, beta, rel)
                   : three_seat(&x, 0, 0, 0, -1, 0, 0, alpha, beta, rel);
}
