/* node.h: the bookkeeping of a node's moves, for the search's own loop
 * (search.c) and for a node several threads share (split.c).
 *
 * Contract.  ab_step() folds a move's fail-soft result into the node's best
 * value and window; sibling_covers() says whether a move needs no search
 * because the result of a searched move of the same suit decides it too.
 * Both hold for any order of the results: each result is taken with the
 * window it was searched with.  dd_cover_classes() adds to a node's
 * relevant cards what its classes of equivalent cards rested on.
 */
#ifndef ROOK_SOLVE_NODE_H
#define ROOK_SOLVE_NODE_H

#include "rook/solve/core.h"
#include "rook/solve/moves.h"

/* Fail-soft alpha-beta bookkeeping after a child's value v: update the best
 * value and the window; return whether the window closed (a cut). */
static inline __attribute__((always_inline)) int ab_step(int maximize, int v, int *best, int *alpha, int *beta)
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

/* Whether move i needs no search: an earlier searched move j of the same
 * lane, whose result rested on no rank of the lane at or below the stronger
 * of the two, gives move i the same bound when the two carry the same tag
 * (swapping the two cards changes nothing the search compared: every rank
 * it compared in the suit is above both); return 1, and move i's class
 * joins move j's (see cover_classes).  When both are plain cards of other
 * points, the swap only moves points, so the values differ by at most the
 * difference d: when move j's bound, moved by d towards the window, still
 * misses it, move i is decided too; and when the team that takes the
 * trick is fixed, the sign of the move says which way the points go, so
 * move j's bound itself decides move i when move i gives the mover's team
 * no more points than move j did; return 2 with that bound in *v, and add
 * to *xrel what the sign rests on (only with `sign`: it reads the trick so
 * far from s->trick and s->trick_n, which the endgame does not keep; there
 * it also cost more than it saved).  card[i] is the card searched for the
 * class cls[i]. */
static inline __attribute__((always_inline)) int sibling_covers(const rook_solver *s, const uint8_t *card,
                                                                uint64_t *cls, const uint64_t *rels,
                                                                const uint8_t *searched, const int *vals, int i,
                                                                int maximize, int alpha, int beta, int *v,
                                                                uint64_t *xrel, const int sign)
{
    int c = card[i];
    if (s->exact_only || ((s->anytime >> c) & 1))
        return 0;
    for (int j = 0; j < i; j++) {
        int a = card[j];
        if (!searched[j] || (a >> 4) != (c >> 4))
            continue;
        int hi = a > c ? a : c;
        if (rels[j] & (dd_below(hi) | (1ULL << hi)))
            continue;
        if (s->tag[a] == s->tag[c] && s->pts[a] == s->pts[c]) {
            cls[j] |= cls[i];
            cls[i] = 0;
            return 1;
        }
#ifndef DD_NO_SIBLING_POINTS
        if (((s->marked >> a) | (s->marked >> c)) & 1)
            continue;
        int d = s->pts[a] - s->pts[c];
        int w = maximize ? vals[j] + (d < 0 ? -d : d) : vals[j] - (d < 0 ? -d : d);
        if (maximize ? w <= alpha : w >= beta) {
            cls[j] |= cls[i];
            cls[i] = 0;
            *v = w;
            return 2;
        }
        /* The sign of the swap.  Playing c is playing a's card with the
         * two cards' points swapped (a position move j's result stands
         * for: both lie below its kept line, in one hand and suit), and
         * the swap moves points only between this trick and the later one
         * that takes the card kept.  When the team that takes this trick
         * is fixed once c is played, whatever the later seats play, that
         * can only go against the mover when c has fewer points than a (its
         * team takes the trick) or more (the other team does): move j's
         * bound holds for move i as it is.  It rests on what fixes the
         * team: the trick's best card (with the later seats' holdings above
         * it; c itself when it is the best; at the last seat another best
         * card sharing c's suit beat a too, so move j's result keeps it). */
        int ours, best;
        if (sign && dd_trick_fixed(s, (s->leader + s->trick_n) & 3, c, &ours, &best)
            && (ours ? d > 0 : d < 0)) {
            cls[j] |= cls[i];
            cls[i] = 0;
            *v = vals[j];
            if (s->trick_n + 1 < 4 || best == c)
                *xrel |= 1ULL << best;
            return 2;
        }
#else
        (void)vals;
        (void)maximize;
        (void)alpha;
        (void)beta;
        (void)v;
        (void)xrel;
#endif
    }
    return 0;
}

/* A class of equivalent cards was searched through one card.  Its other
 * cards are covered in every position the result stands for only if the
 * class lies wholly above or wholly below the kept line of its suit: when a
 * relevant card of the suit lies inside the class's span, keep the whole
 * class (add its lowest card). */
static inline __attribute__((always_inline)) uint64_t dd_cover_classes(const uint64_t *cls, int n, uint64_t rel)
{
    uint64_t several = 0; /* is any class more than one card? */
    for (int i = 0; i < n; i++)
        several |= cls[i] & (cls[i] - 1);
    if (!several)
        return rel;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            uint64_t k = cls[i];
            if (!(k & (k - 1)) || (rel & k & -k))
                continue;
            int low = rook_lsb(k), top = rook_msb(k);
            uint64_t span = ((2ULL << top) - 1) & ~((2ULL << low) - 1);
            if (rel & span & DD_LANE(low >> 4)) {
                rel |= k & -k;
                changed = 1;
            }
        }
    }
    return rel;
}


#endif
