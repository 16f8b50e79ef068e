/* moves.h: the moves of a node: classes of equivalent cards, dominance, order.
 *
 * Contract.  dd_gen_moves() fills a dd_moves with one representative card
 * per class of the mover's legal cards, best first for the mover, and the
 * cards whose rank the grouping relied on (to be kept in the table).
 *
 * Runs.  Cards of one hand and suit with no other card still out (in the
 * other hands or in the current trick) ranked between them form a run: they
 * win and lose the same tricks for the rest of the hand, so swapping two of
 * them maps every line onto a line with the same trick winners, and only
 * where their points land changes.  So:
 *   - cards of a run with the same points are one class (searched once);
 *   - point-aware dominance: when the team that takes this trick is fixed
 *     whatever this seat plays from the run and whatever the later seats
 *     play (no later seat of the other team holds a legal card that beats
 *     the trick's best card), the run's highest-point card is best for the
 *     mover when its team takes the trick, the lowest-point card when the
 *     other team does: the run is one class, searched through that card.
 *     Not at the root, where every card's own value is asked for;
 *   - otherwise the run's classes differ only in points.
 * Cards playable at any time (T-9) are never grouped: their hands differ.
 *
 * Order (a score per class, highest first; the weights below were fitted to
 * node counts on tournament deals and checked on others).  Leads come
 * first by the number of legal replies the two opponents have after them,
 * fewest first (fastest cut first: every reply of an opponent is a subtree
 * that the proof of the lead's bound must search, where the partner needs
 * one), and among leads of about as many replies: a killer
 * lead (one of the last two that cut at this depth), then sure winners of a
 * side suit, leads under the partner's top card of the suit, sure trump
 * winners, leads the partner can ruff (counters first), the last card of a
 * side suit while holding trumps (a void to ruff later), then cheap leads;
 * trumps last when the other team has none.  Following: counters onto a
 * trick the partner wins for sure (or, second to play, can top whatever
 * comes), cards that take the trick for sure, cheap cards under a partner
 * who wins for now, cards that take it for now, the top trump (it keeps),
 * then cheap cards, non-counters first.  Among winners, counters first.
 */
#ifndef ROOK_SOLVE_MOVES_H
#define ROOK_SOLVE_MOVES_H

#include "rook/solve/core.h"

#define DD_MAX_MOVES 16

typedef struct dd_moves {
    int n;
    uint8_t card[DD_MAX_MOVES]; /* the card searched for the class */
    uint64_t cls[DD_MAX_MOVES]; /* the cards the class stands for */
    uint64_t rel;               /* cards whose rank the grouping relied on */
} dd_moves;

enum { DD_GEN_ROOT = 1 }; /* every class of equal points apart (no dominance) */

/* The highest winning key among the legal cards of `hand` for a trick led
 * from lane ll (by card `led`). */
static inline __attribute__((always_inline)) int dd_best_key(const rook_solver *s, uint64_t hand, int led)
{
    uint64_t L = dd_legal(s, hand, led);
    if (L & s->tlane)
        return 128 + rook_msb(L & s->tlane);
    uint64_t f = L & DD_LANE(led >> 4);
    return f ? 64 + rook_msb(f) : 0;
}

/* Whether the team that takes the trick is fixed once `seat` plays `card`
 * (any card of its run: they compare alike with every other card); *ours:
 * it is the mover's team; *best: the trick's best card then. */
static inline int dd_trick_fixed(const rook_solver *s, int seat, int card, int *ours, int *best)
{
    int led = s->trick_n ? s->trick[0] : card;
    int ll = led >> 4;
    int bk = -1, bseat = seat, bcard = card;
    for (int i = 0; i < s->trick_n; i++) {
        int k = dd_win_key(s, s->trick[i], ll);
        if (k > bk) {
            bk = k;
            bseat = (s->leader + i) & 3;
            bcard = s->trick[i];
        }
    }
    int kr = dd_win_key(s, card, ll);
    if (kr > bk) {
        bk = kr;
        bseat = seat;
        bcard = card;
    }
    int tb = bseat & 1;
    uint64_t beat = dd_beaters(s, bk, ll);
    for (int k = s->trick_n + 1; k < 4; k++) {
        int o = (s->leader + k) & 3;
        if ((o & 1) != tb && (dd_legal(s, s->hands[o], led) & beat))
            return 0;
    }
    *ours = tb == (seat & 1);
    *best = bcard;
    return 1;
}

static inline void dd_add_move(dd_moves *mv, int card, uint64_t cls)
{
    int n = mv->n++;
    mv->card[n] = (uint8_t)card;
    mv->cls[n] = cls;
}

/* Add the classes of one run (cards of one lane, no other card out between
 * them, none playable at any time). */
static inline void dd_add_run(const rook_solver *s, dd_moves *mv, int seat, uint64_t run, int flags)
{
    if (!(run & (run - 1))) {
        dd_add_move(mv, rook_lsb(run), run);
        return;
    }
    int p_lo = 1 << 30, p_hi = -1;
    for (uint64_t m = run; m; m &= m - 1) {
        int p = s->pts[rook_lsb(m)];
        p_lo = p < p_lo ? p : p_lo;
        p_hi = p > p_hi ? p : p_hi;
    }
    if (p_lo == p_hi) {
        dd_add_move(mv, rook_msb(run), run);
        return;
    }
#ifndef DD_NO_DOMINANCE
    int ours, best;
    if (!(flags & DD_GEN_ROOT) && dd_trick_fixed(s, seat, rook_lsb(run), &ours, &best)) {
        int want = ours ? p_hi : p_lo, pick = -1;
        for (uint64_t m = run; m; m &= m - 1)
            if (s->pts[rook_lsb(m)] == want)
                pick = rook_lsb(m); /* the highest such card */
        dd_add_move(mv, pick, run);
        /* What the grouping rests on.  When the run's own card takes the
         * trick, its rank against the later seats': the run.  Else the best
         * card (it fixes the team, with the later seats' holdings above it;
         * at the last seat the trick's own relevant card, search.c's
         * trick_rel, keeps it when it shares the run's suit), and not the
         * run: a position the node's result stands for either keeps the
         * whole run (the kept line lies below it, or inside its span, where
         * node.h's cover_classes keeps its lowest card) and the run argument
         * holds, or holds its cards below the line, where no rank was
         * compared: playing any of them there is playing `pick`'s card with
         * the two cards' points swapped (a position `pick`'s result stands
         * for), and the swap moves points only between this trick, whose
         * team is fixed, and a later one, against the mover (pick has the
         * most points for a trick of its team, the fewest for the other's;
         * plain cards: a marked card's tag says more than points). */
        if (((run >> best) & 1) || (run & s->marked))
            mv->rel |= run;
        else if (s->trick_n + 1 < 4)
            mv->rel |= 1ULL << best;
        return;
    }
#else
    (void)seat;
    (void)flags;
#endif
    /* one class per point value, each through its highest card */
    uint64_t left = run;
    while (left) {
        int p = s->pts[rook_msb(left)];
        uint64_t c = 0;
        for (uint64_t m = left; m; m &= m - 1)
            if (s->pts[rook_lsb(m)] == p)
                c |= m & -m;
        dd_add_move(mv, rook_msb(c), c);
        left &= ~c;
    }
}

/* The ordering weights: a class's score is its kind's weight, plus or
 * minus its points times a point weight, minus its rank in the suit.
 * DD_W(name) is a weight's value: a constant, or with DD_ORDER_TUNABLE a
 * variable of dd_order_w[] (for tools/fit_order.py, which tries weights
 * without a build each). */
#define DD_ORDER_WEIGHTS(X)                                                                                    \
    X(LEAD_SURE, 812)          /* no higher card out, no opponent can ruff */                                  \
    X(LEAD_SURE_TRUMP, 315)    /* the same in trumps (R3) */                                                   \
    X(LEAD_UNDER_PARTNER, 357) /* the partner holds the suit's top card */                                     \
    X(LEAD_UNDER_PARTNER_PTS, 2)                                                                               \
    X(LEAD_PARTNER_RUFFS, 200) /* the partner is void and trumps; no overruff after it (R6) */                 \
    X(LEAD_PARTNER_RUFFS_PTS, 6)                                                                               \
    X(LEAD_CHEAP, -50)                                                                                         \
    X(LEAD_CHEAP_PTS, 4)                                                                                       \
    X(LEAD_LAST_OF_SUIT, 225)   /* added: a side suit's last card, trumps in hand (R7) */                      \
    X(LEAD_NO_DRAW, 350)        /* taken off: trumps when the other team has none */                           \
    X(LEAD_KILLER_1, 1000)      /* added: the last lead that cut here (R1) */                                  \
    X(LEAD_KILLER_2, 100)       /* added: the one before */                                                    \
    X(LEAD_MOBILITY, 300)       /* taken off per legal reply of the opponents (fastest cut first) */           \
    X(FOLLOW_ONTO_PARTNER, 320) /* the partner wins the trick for sure */                                      \
    X(FOLLOW_ONTO_PARTNER_PTS, 2)                                                                              \
    X(FOLLOW_UNDER_PARTNER, 255)  /* the partner wins for now: cheap cards */                                  \
    X(FOLLOW_WIN, 300)            /* takes the trick for sure */                                               \
    X(FOLLOW_WIN_FOR_NOW, 200)    /* a later opponent can still beat it */                                     \
    X(FOLLOW_WIN_BOSS_TRUMP, 115) /* the top trump still out: it keeps (R2) */                                 \
    X(FOLLOW_WIN_PTS, 4)                                                                                       \
    X(FOLLOW_LOSE, 100)                                                                                        \
    X(FOLLOW_LOSE_PTS, 4) /* non-counters first (R4) */

#define DD_W_CONST(k, v) k = v,
#define DD_W_INDEX(k, v) k##_I,
enum { DD_ORDER_WEIGHTS(DD_W_CONST) };
enum { DD_ORDER_WEIGHTS(DD_W_INDEX) DD_ORDER_N };
#ifdef DD_ORDER_TUNABLE
extern int dd_order_w[DD_ORDER_N];
#define DD_W(k) dd_order_w[k##_I]
#else
#define DD_W(k) (k)
#endif

/* Whether a lead of side lane l lets the partner ruff: the partner has
 * none of the lane but trumps, and the seat after it cannot overruff (it
 * follows the lane, or holds no trump above the partner's best). */
static inline __attribute__((always_inline)) int dd_partner_ruffs(const rook_solver *s, uint64_t partner,
                                                                  uint64_t after, int l)
{
    uint64_t pt = partner & s->tlane;
    if ((partner & DD_LANE(l)) || !pt)
        return 0;
    return (after & DD_LANE(l)) || !(after & s->tlane & dd_above(rook_msb(pt)));
}

/* Whether `hand` holds exactly one card of lane l. */
static inline __attribute__((always_inline)) int dd_last_of_lane(uint64_t hand, int l)
{
    uint64_t m = hand & DD_LANE(l);
    return m && !(m & (m - 1));
}

/* The legal replies the two opponents have to a lead of card c (they
 * depend on its lane alone): after, the hand that plays after the partner;
 * opps, both opponents' hands (so opps ^ after is the hand that plays
 * second). */
static inline __attribute__((always_inline)) int dd_lead_replies(const rook_solver *s, uint64_t after,
                                                                 uint64_t opps, int c)
{
    return rook_popcount(dd_legal(s, opps ^ after, c)) + rook_popcount(dd_legal(s, after, c));
}

/* The lead order's score of card c (the weights above), for the general
 * search and the endgame alike: higher, the cards out above c in other
 * hands; ruff, whether an opponent can trump the lead; after and opps as
 * dd_lead_replies says; replies, what it gives for c. */
static inline __attribute__((always_inline)) int dd_lead_score(const rook_solver *s, uint64_t hand,
                                                               uint64_t partner, uint64_t after, uint64_t opps,
                                                               int c, uint64_t higher, int ruff, int replies)
{
    int l = c >> 4, pts = s->pts[c], st = c & 15, sc;
    if (!higher && !ruff)
#ifndef DD_NO_R3
        sc = (l == s->trump ? DD_W(LEAD_SURE_TRUMP) : DD_W(LEAD_SURE)) - st;
#else
        sc = DD_W(LEAD_SURE) - st;
#endif
    else if (higher && !ruff && ((partner >> rook_msb(higher)) & 1))
        sc = DD_W(LEAD_UNDER_PARTNER) + DD_W(LEAD_UNDER_PARTNER_PTS) * pts - st;
    else if (l != s->trump && dd_partner_ruffs(s, partner, after, l))
        sc = DD_W(LEAD_PARTNER_RUFFS) + DD_W(LEAD_PARTNER_RUFFS_PTS) * pts - st;
    else
        sc = DD_W(LEAD_CHEAP) - DD_W(LEAD_CHEAP_PTS) * pts - st
            + (l != s->trump && (hand & s->tlane) && dd_last_of_lane(hand, l) ? DD_W(LEAD_LAST_OF_SUIT) : 0);
    if (l == s->trump && !(opps & s->tlane))
        sc -= DD_W(LEAD_NO_DRAW);
    /* fastest cut first: each legal reply of an opponent is a subtree that
     * the proof of a lead's bound must search (the partner's replies need
     * one), so the leads that leave the opponents the fewest come first */
    sc -= DD_W(LEAD_MOBILITY) * replies;
    return sc;
}

/* Fill mv with the classes of the legal cards of `seat`, best first. */
static inline void dd_gen_moves(const rook_solver *s, int seat, int flags, dd_moves *mv)
{
    uint64_t hand = s->hands[seat];
    int led = s->trick_n ? s->trick[0] : DD_NONE;
    uint64_t legal = dd_legal(s, hand, led);
    uint64_t in_hands = dd_in_hands(s);
    uint64_t others = (in_hands & ~hand) | s->in_trick;
    mv->n = 0;
    mv->rel = 0;
    /* lane by lane (lowest first): its runs, lowest first, then its cards
     * playable at any time */
    for (uint64_t lanes = legal; lanes;) {
        uint64_t lane = DD_LANE(rook_lsb(lanes) >> 4);
        uint64_t L = lanes & lane;
        lanes &= ~lane;
        uint64_t O = others & lane;
        uint64_t rest = L & ~s->anytime;
        while (rest) {
            int prev = rook_lsb(rest);
            uint64_t run = 1ULL << prev;
            rest &= rest - 1;
            while (rest) {
                int c = rook_lsb(rest);
                if (O & ((1ULL << c) - (2ULL << prev)))
                    break;
                run |= 1ULL << c;
                prev = c;
                rest &= rest - 1;
            }
            dd_add_run(s, mv, seat, run, flags);
        }
        for (uint64_t m = L & s->anytime; m; m &= m - 1)
            dd_add_move(mv, rook_lsb(m), m & -m);
    }
    int n = mv->n;
    if (n < 2)
        return;
    /* scores */
    int score[DD_MAX_MOVES];
    int team = seat & 1;
    uint64_t opp_hands = s->hands[(seat + 1) & 3] | s->hands[(seat + 3) & 3];
    uint64_t partner = s->hands[(seat + 2) & 3];
    if (!s->trick_n) {
        uint64_t after = s->hands[(seat + 3) & 3]; /* plays after the partner */
        int tl = rook_popcount(in_hands) >> 2;
        uint64_t k0 = s->killer[tl][0] < 64 ? 1ULL << s->killer[tl][0] : 0;
        uint64_t k1 = s->killer[tl][1] < 64 ? 1ULL << s->killer[tl][1] : 0;
        int replies[4] = {-1, -1, -1, -1}; /* by lane */
        for (int i = 0; i < n; i++) {
            int c = mv->card[i];
            int l = c >> 4;
            uint64_t higher = others & dd_above(c);
            int ruff = 0;
            if (l != s->trump)
                for (int o = 1; o < 4; o += 2) {
                    uint64_t h = s->hands[(seat + o) & 3];
                    if (!(h & DD_LANE(l)) && (h & s->tlane))
                        ruff = 1;
                }
            if (replies[l] < 0)
                replies[l] = dd_lead_replies(s, after, opp_hands, c);
            int sc = dd_lead_score(s, hand, partner, after, opp_hands, c, higher, ruff, replies[l]);
#ifndef DD_NO_KILLERS
            if (mv->cls[i] & k0)
                sc += DD_W(LEAD_KILLER_1);
            else if (mv->cls[i] & k1)
                sc += DD_W(LEAD_KILLER_2);
#endif
            score[i] = sc;
        }
    } else {
        int ll = led >> 4;
        int bk = -1, win_i = 0;
        for (int i = 0; i < s->trick_n; i++) {
            int k = dd_win_key(s, s->trick[i], ll);
            if (k > bk) {
                bk = k;
                win_i = i;
            }
        }
        /* the best key the other team can still play to this trick */
        int later = -1;
        for (int k = s->trick_n + 1; k < 4; k++) {
            int o = (s->leader + k) & 3;
            if ((o ^ seat) & 1) {
                int key = dd_best_key(s, s->hands[o], led);
                later = key > later ? key : later;
            }
        }
        int partner_winning = ((s->leader + win_i) & 1) == team;
        int partner_safe = partner_winning && later <= bk;
        if (s->trick_n == 1) {
            /* second to play: the partner, playing last, may top everything */
            int last = dd_best_key(s, partner, led);
            if (last > later && last > bk)
                partner_winning = partner_safe = 1;
        }
        for (int i = 0; i < n; i++) {
            int c = mv->card[i];
            int pts = s->pts[c], st = c & 15;
            int key = dd_win_key(s, c, ll);
            int wins = key > bk;
            int sc;
            if (partner_winning && !wins)
                sc = partner_safe ? DD_W(FOLLOW_ONTO_PARTNER) + DD_W(FOLLOW_ONTO_PARTNER_PTS) * pts
                                  : DD_W(FOLLOW_UNDER_PARTNER) - pts - st;
            else if (wins)
#ifndef DD_NO_R2
                sc = ((c >> 4) == s->trump && !(others & s->tlane & dd_above(c)) ? DD_W(FOLLOW_WIN_BOSS_TRUMP)
                          : later > key                                          ? DD_W(FOLLOW_WIN_FOR_NOW)
                                                                                 : DD_W(FOLLOW_WIN))
                    + DD_W(FOLLOW_WIN_PTS) * pts - st;
#else
                sc = (later > key ? DD_W(FOLLOW_WIN_FOR_NOW) : DD_W(FOLLOW_WIN)) + DD_W(FOLLOW_WIN_PTS) * pts
                    - st;
#endif
            else
#ifndef DD_NO_R4
                sc = DD_W(FOLLOW_LOSE) - DD_W(FOLLOW_LOSE_PTS) * pts - st;
#else
                sc = DD_W(FOLLOW_LOSE) - pts - st;
#endif
            score[i] = sc;
        }
    }
    for (int i = 1; i < n; i++) {
        int sc = score[i];
        uint8_t card = mv->card[i];
        uint64_t cl = mv->cls[i];
        int j = i;
        while (j > 0 && score[j - 1] < sc) {
            score[j] = score[j - 1];
            mv->card[j] = mv->card[j - 1];
            mv->cls[j] = mv->cls[j - 1];
            j--;
        }
        score[j] = sc;
        mv->card[j] = card;
        mv->cls[j] = cl;
    }
}

#endif
