/* search.c: fail-soft alpha-beta over single cards (see search.h).
 *
 * A node is a seat to move.  At a trick boundary the sure bounds
 * (bounds.h) and the table (table.h) are tried before any move; the last
 * three tricks are searched directly (endgame.h: one node, stored in the
 * table at twelve cards), and the last trick is forced.  Moves come from
 * moves.h, one per class of equivalent cards.  A class of the same suit
 * as one searched, whose result rested on no rank of the suit at or below
 * the stronger of the two, is not searched when it carries the same tag
 * (the same bound: swapping the two changes nothing the search compared),
 * nor when its points differ and the searched bound moved by the
 * difference still misses the window (the swap only moves points), nor
 * when the team that takes the trick is fixed and the swap can only move
 * points away from the mover's team (node.h).  Every result carries the
 * cards whose rank it relied on, so that a table entry stands for all the
 * positions that agree on them (table.h): a bound from the table on the
 * entry that gave it alone, a cut on the move that cut alone, a node where
 * no move cut on every move and on the grouping of the moves, and a table
 * bound that narrowed the window only for a result it made exact (at or
 * past it, inside the window first asked).  With a
 * window wider than one point, the moves after the first are searched as a
 * principal variation search does (pv_child).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>
#include "rook/solve/search.h"
#include "rook/solve/quasi.h"
#include "rook/solve/moves.h"
#include "rook/solve/bounds.h"
#include "rook/solve/node.h"
#include "rook/solve/split.h"
#include "rook/solve/stats.h"
#include "rook/solve/endgame.h"

#ifdef DD_ORDER_TUNABLE
/* The ordering weights as variables (moves.h), for tools/fit_order.py. */
#define DD_W_VALUE(k, v) v,
#define DD_W_NAME(k, v)  #k,
__attribute__((visibility("default"))) const int dd_order_n = DD_ORDER_N;
__attribute__((visibility("default"))) int dd_order_w[DD_ORDER_N] = {DD_ORDER_WEIGHTS(DD_W_VALUE)};
__attribute__((visibility("default")))
const char *const dd_order_names[DD_ORDER_N] = {DD_ORDER_WEIGHTS(DD_W_NAME)};
#endif

uint64_t dd_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void dd_search_reset(rook_solver *s)
{
    for (int i = 0; i <= DD_MAX_TRICKS; i++) {
        s->keys[i].live = 0;
        s->killer[i][0] = s->killer[i][1] = DD_NONE;
    }
}

/* The winning card of a full trick if its rank decided the trick (it beat a
 * card of its own suit), else 0. */
static inline uint64_t trick_rel(const uint8_t *t, int wi)
{
    int wl = t[wi] >> 4;
    for (int i = 0; i < 4; i++)
        if (i != wi && (t[i] >> 4) == wl)
            return 1ULL << t[wi];
    return 0;
}

/* dd_child's body, inlined into the search's own loop. */
static inline __attribute__((always_inline)) int child(rook_solver *s, int card, int alpha, int beta,
                                                       uint64_t *rel)
{
    int seat = (s->leader + s->trick_n) & 3;
    uint64_t bit = 1ULL << card;
    s->hands[seat] ^= bit;
    s->zsum -= s->z[seat][card];
#ifndef DD_NO_PTS_GENERAL
    s->kc[s->kword[card]] -= s->kunit[seat][card];
#endif
    s->trick[s->trick_n++] = (uint8_t)card;
    s->in_trick ^= bit;
    int v;
    if (s->trick_n < 4) {
        v = dd_search(s, alpha, beta, rel);
    } else {
        int wi = dd_trick_winner(s, s->trick);
        int w = (s->leader + wi) & 3;
        uint64_t trel = trick_rel(s->trick, wi);
        int pts = s->pts[s->trick[0]] + s->pts[s->trick[1]] + s->pts[s->trick[2]] + s->pts[s->trick[3]];
        int last = !dd_in_hands(s);
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
            uint64_t saved_in = s->in_trick;
            s->trick_n = 0;
            s->in_trick = 0;
            s->leader = w;
            v = gain + dd_search(s, alpha - gain, beta - gain, rel);
            *rel |= trel;
            s->leader = saved_leader;
            for (int i = 0; i < 4; i++)
                s->trick[i] = saved[i];
            s->trick_n = 4;
            s->in_trick = saved_in;
        }
        s->won[w & 1]--;
        s->pts_out += pts - (last ? s->end_points : 0);
    }
    s->trick_n--;
    s->in_trick ^= bit;
    s->hands[seat] ^= bit;
    s->zsum += s->z[seat][card];
#ifndef DD_NO_PTS_GENERAL
    s->kc[s->kword[card]] += s->kunit[seat][card];
#endif
    return v;
}

int dd_child(rook_solver *s, int card, int alpha, int beta, uint64_t *rel)
{
    return child(s, card, alpha, beta, rel);
}

/* A later move of a node searched with a wide window (principal variation
 * search): first a null-window test against the bound the earlier moves
 * proved; only a move that passes it is searched again, from the bound it
 * proved to the far end of the window.  Most later moves fail the cheap
 * test, so a wide window costs little more than a null window, and one
 * wide search finds a value that null-window probes need several for. */
static inline int pv_child(rook_solver *s, int card, int maximize, int alpha, int beta, uint64_t *rel)
{
    int v = maximize ? dd_child(s, card, alpha, alpha + 1, rel) : dd_child(s, card, beta - 1, beta, rel);
    if (s->aborted || v <= alpha || v >= beta)
        return v;
    return maximize ? dd_child(s, card, v - 1, beta, rel) : dd_child(s, card, alpha, v + 1, rel);
}

/* A later move of a node: pv_child with a wide window, else dd_child (the
 * node's own loop, and the move search of a split point). */
static inline int later_child(rook_solver *s, int card, int maximize, int alpha, int beta, uint64_t *rel)
{
    return beta - alpha > 1 ? pv_child(s, card, maximize, alpha, beta, rel)
                            : dd_child(s, card, alpha, beta, rel);
}

/* Whether the search must stop now: the node budget, the time budget
 * and Ctrl-C (looked at every 1,024 nodes: interrupt.c), another thread's abort, a team sharing
 * nodes having failed or cut a split point above (every 16 nodes), or (in
 * a probing team, every 256 nodes) a team mate having settled this
 * search's question. */
static inline int must_stop(rook_solver *s)
{
    if (s->aborted)
        return 1;
    if (dd_abort_requested(s)) {
        s->aborted = 1;
        s->stop = ROOK_STOP_CALLER;
        return 1;
    }
    if (++s->nodes > s->budget && s->budget) {
        s->aborted = 1;
        s->stop = ROOK_STOP_NODES;
        return 1;
    }
    if (!(s->nodes & 1023)) {
        if (s->deadline_ns && dd_now_ns() >= s->deadline_ns) {
            s->aborted = 1;
            s->stop = ROOK_STOP_TIME;
            return 1;
        }
        if (rook_dd_interrupts() != s->interrupts) {
            s->aborted = 1;
            s->stop = ROOK_STOP_CALLER;
            return 1;
        }
    }
    if (s->split_team && !(s->nodes & 15) && dd_split_stopped(s))
        return 1;
    if (s->team && !(s->nodes & 255)) {
        int stop = dd_team_stop(s->team);
        if (stop != ROOK_STOP_NONE) {
            s->aborted = 1;
            s->stop = stop;
            return 1;
        }
        int lo = __atomic_load_n(&s->team->lo, __ATOMIC_RELAXED);
        int hi = __atomic_load_n(&s->team->hi, __ATOMIC_RELAXED);
        if (s->probe <= lo || s->probe > hi) {
            s->aborted = 1;
            s->stop = ROOK_STOP_MOOT;
            return 1;
        }
    }
    return 0;
}

/* What the search knows of a trick boundary before any move. */
typedef struct boundary {
    dd_key *key;       /* the boundary's key (NULL: none made) */
    uint64_t qlock;    /* its quasi-symmetry lock (0: not used) */
    int narrowed;      /* the table narrowed the window: */
    int alpha1, beta1; /* to (alpha1, beta1), */
    uint64_t rlo, rhi; /* alpha1 resting on rlo, beta1 on rhi */
} boundary;

/* What a node's result `best`, searched in the window the table narrowed
 * from (alpha0, beta0), rests on of the table's bounds.  A result inside
 * the narrowed window is exact by the moves alone (fail-soft: the best
 * move's result lies inside the window it was searched with, every other
 * move's is at most / at least it); one at or below the raised alpha but
 * above alpha0 is exact only with the raised lower bound (value >= alpha1
 * >= best >= value): b->rlo; likewise at or above the lowered beta: b->rhi;
 * a result outside (alpha0, beta0) is a bound resting on the moves alone. */
static inline uint64_t narrowing_rel(const boundary *b, int best, int alpha0, int beta0)
{
    if (__builtin_expect(!b->narrowed, 1))
        return 0;
    return (best <= b->alpha1 && best > alpha0 ? b->rlo : 0) | (best >= b->beta1 && best < beta0 ? b->rhi : 0);
}

/* At a trick boundary of n_cards cards (more than 8): try the sure bounds,
 * the table and the quasi-symmetry table.  Return 1 with the answer in *v
 * and *rel when they settle the node; else narrow (*alpha, *beta), note in
 * b what the raised alpha and the lowered beta rest on, and return 0 (b
 * holds the key, live).  A bound that settles the node rests on
 * the entry that gave it alone (table.h's dd_tt_probe), not on an entry
 * that only gave the other side. */
static inline int boundary_bounds(rook_solver *s, int n_cards, int total, int *alpha, int *beta, boundary *b,
                                  int *v, uint64_t *rel)
{
    int sure[2], alpha0 = *alpha, beta0 = *beta;
    uint64_t run = dd_sure_points(s, sure);
    if (sure[0] >= *beta || total - sure[1] <= *alpha) {
        *rel = run;
        *v = sure[0] >= *beta ? sure[0] : total - sure[1];
        dd_stats_boundary(n_cards, DD_BOUNDARY_SURE);
        return 1;
    }
    int m = n_cards >> 2;
    dd_key *key = b->key = &s->keys[m];
#ifdef DD_HAVE_PEXT
    if (s->pext)
        dd_key_make_pext(s, key);
    else
#endif
        if (m < DD_MAX_TRICKS && s->keys[m + 1].live)
        dd_key_from(s, &s->keys[m + 1], key);
    else
        dd_key_make(s, key);
#if DD_QS_SHARE
    if (dd_qs_answers(s, n_cards)) {
        b->qlock = dd_qs_lock(s, key);
        __builtin_prefetch(dd_qbucket(s, b->qlock));
    }
#endif
    int lo = 0, hi = total;
    uint64_t rlo = 0, rhi = 0;
    if (dd_tt_probe(s, key, *alpha, *beta, &lo, &hi, &rlo, &rhi)) {
        s->tt_hits++;
        if (lo >= *beta || hi <= *alpha || lo == hi) {
            *rel = lo >= *beta ? rlo : hi <= *alpha ? rhi : rlo | rhi;
            *v = lo >= *beta ? lo : hi <= *alpha ? hi : lo;
            dd_stats_boundary(n_cards, DD_BOUNDARY_TABLE);
            return 1;
        }
        b->alpha1 = *alpha;
        b->beta1 = *beta;
        if (lo > *alpha) {
            *alpha = b->alpha1 = lo;
            b->rlo = rlo;
            b->narrowed = 1;
        }
        if (hi < *beta) {
            *beta = b->beta1 = hi;
            b->rhi = rhi;
            b->narrowed = 1;
        }
    }
#if DD_QS_SHARE
    if (b->qlock) {
        /* a point variant of this position, widened (quasi.h) */
        int qlo = lo, qhi = hi;
        uint64_t qrlo = rlo, qrhi = rhi;
        if (dd_qs_probe(s, key, b->qlock, &qlo, &qhi, &qrlo, &qrhi)
            && (qlo >= *beta || qhi <= *alpha || qlo == qhi)) {
            s->tt_hits++;
            /* past a side the table narrowed but inside the window asked
             * for, the answer is exact with that side's bound too */
            *rel = qlo >= *beta ? qrlo | (qlo < beta0 ? rhi : 0)
                : qhi <= *alpha ? qrhi | (qhi > alpha0 ? rlo : 0)
                                : qrlo | qrhi;
            *v = qlo >= *beta ? qlo : qhi <= *alpha ? qhi : qlo;
            dd_stats_boundary(n_cards, DD_BOUNDARY_QUASI);
            return 1;
        }
    }
#endif
    key->live = 1;
    dd_stats_boundary(n_cards, DD_BOUNDARY_SEARCHED);
    return 0;
}

/* Store the fail-soft result `best` of a boundary searched with the window
 * (alpha0, beta0), resting on the ranks of R. */
static inline void boundary_store(rook_solver *s, const boundary *b, int n_cards, int total, int alpha0,
                                  int beta0, int best, uint64_t R)
{
    int lo = 0, hi = total;
    if (best <= alpha0)
        hi = best;
    else if (best >= beta0)
        lo = best;
    else
        lo = hi = best;
    if (lo < 0)
        lo = 0;
    if (hi > total)
        hi = total;
#ifdef DD_ORACLE
    if (!s->oracle)
#endif
    {
        _Static_assert(DD_STORED_KINDS == DD_STAT_STORE_KINDS, "stats.h tallies every kind of store");
        uint32_t keep = dd_keep_of(s, b->key, R);
        dd_stats_store(n_cards, dd_tt_store(s, b->key, keep, lo, hi, n_cards));
#if DD_QS_SHARE
        if (b->qlock)
            dd_qs_store(s, b->key, b->qlock, keep, lo, hi, n_cards);
#endif
    }
    b->key->live = 0;
}

static inline void swap_moves(dd_moves *mv, int i, int j)
{
    uint8_t c = mv->card[i];
    uint64_t cl = mv->cls[i];
    mv->card[i] = mv->card[j];
    mv->cls[i] = mv->cls[j];
    mv->card[j] = c;
    mv->cls[j] = cl;
}

/* Move i to the front, the moves before it one place down. */
static inline void move_to_front(dd_moves *mv, int i)
{
    for (; i > 0; i--)
        swap_moves(mv, i, i - 1);
}

/* A team member helping with a mate's target (team.c) tries the first move
 * of big nodes last, so that the two searches part ways. */
static inline void helper_order(const rook_solver *s, dd_moves *mv, int n_cards)
{
    if (s->rotate_from && n_cards >= s->rotate_from)
        for (int i = 0; i + 1 < mv->n; i++)
            swap_moves(mv, i, i + 1);
}

/* A move that cut: at a trick boundary, a killer lead of its depth. */
static inline void remember_cut(rook_solver *s, int n_cards, int card)
{
#ifndef DD_NO_KILLERS
#ifdef DD_ORACLE
    if (s->oracle)
        return;
#endif
    if (s->trick_n == 0) {
        int m = n_cards >> 2;
        if (s->killer[m][0] != card) {
            s->killer[m][1] = s->killer[m][0];
            s->killer[m][0] = (uint8_t)card;
        }
    }
#else
    (void)s;
    (void)n_cards;
    (void)card;
#endif
}

/* What a shared node's moves gave (share_rest). */
typedef struct shared {
    int best, done;
    uint64_t R;
} shared;

/* Search the moves `next` .. of the node with the team (split.h): open a
 * split point with the node's state (its position, its moves, what the
 * moves before `next` gave) and share it.  cls[] gets the classes as the
 * moves' skips merged them.  (Out of line: the split point's frame is only
 * on the stack of the nodes that share.) */
static __attribute__((noinline)) shared share_rest(rook_solver *s, const dd_moves *mv, uint64_t *cls,
                                                   const uint64_t *rels, const int *vals,
                                                   const uint8_t *searched, int next, int maximize, int best,
                                                   int alpha, int beta, uint64_t R, int n_cards)
{
    dd_split split, *sp = &split;
    dd_position_save(s, &sp->at);
    sp->n_cards = n_cards;
    sp->mv = *mv;
    for (int k = 0; k < mv->n; k++) {
        sp->cls[k] = cls[k];
        sp->rels[k] = k < next ? rels[k] : 0;
        sp->vals[k] = k < next ? vals[k] : 0;
        sp->searched[k] = k < next ? searched[k] : 0;
    }
    sp->next = sp->done = next;
    sp->taken = (1u << next) - 1;
    sp->flying = 0;
    sp->restart = 0;
    sp->maximize = maximize;
    sp->best = best;
    sp->alpha = alpha;
    sp->beta = beta;
    sp->R = R;
    sp->cut_card = DD_NONE;
    sp->workers = 1;
    sp->cut = 0;
    sp->abandoned = 0;
    sp->parent = s->split;
    sp->search_move = later_child;
    dd_split_rest(s, sp);
    for (int k = 0; k < sp->done; k++)
        cls[k] = sp->cls[k];
    if (!s->aborted && sp->cut_card != DD_NONE)
        remember_cut(s, n_cards, sp->cut_card);
    shared out = {sp->best, sp->done, sp->R};
    return out;
}

#ifdef DD_ORACLE
/* A diagnostic build's move-ordering oracle (-D DD_ORACLE=N, and
 * -D DD_ORACLE_SEATS=mask of places in the trick, 15 unless given; one
 * thread only): at a node of at least N cards in hands, find the first move
 * that cuts by searching the moves in order, uncounted (the node count is
 * put back) and storing nothing in the tables or the killers, and move it to
 * the front.  The nodes the search then needs are those of perfect ordering
 * at such nodes: what better ordering there could still save. */
#ifndef DD_ORACLE_SEATS
#define DD_ORACLE_SEATS 15
#endif
#ifdef DD_ORDER_DUMP
/* With -D DD_ORDER_DUMP as well, the oracle orders nothing: it searches
 * every move of such a node (uncounted, storing nothing) and appends a line
 * to the file named by the environment's DD_DUMP, for tools/order_study.py:
 *   S trump anytime pts[64] wkey[4][64]   (when the layout changes)
 *   N place cards seat leader maximize alpha beta hands[4] trick[3] won[2]
 *     end_points pts_out total | card:cut:value:nodes ...  (the moves in
 *     the search's order; cut: the move alone would cut the node) */
#include <stdio.h>
#include <stdlib.h>
static void order_dump(rook_solver *s, const dd_moves *mv, int n_cards, int maximize, int alpha, int beta)
{
    static FILE *f;
    static const rook_rules *last_r;
    static int last_trump = -1;
    if (!f) {
        const char *path = getenv("DD_DUMP");
        if (!path || !(f = fopen(path, "a")))
            return;
    }
    if (s->r != last_r || s->trump != last_trump) {
        last_r = s->r;
        last_trump = s->trump;
        fprintf(f, "S %d %llu", s->trump, (unsigned long long)s->anytime);
        for (int b = 0; b < 64; b++)
            fprintf(f, " %d", s->pts[b]);
        for (int l = 0; l < 4; l++)
            for (int b = 0; b < 64; b++)
                fprintf(f, " %d", s->wkey[l][b]);
        fputc('\n', f);
    }
    fprintf(f, "N %d %d %d %d %d %d %d", s->trick_n, n_cards, (s->leader + s->trick_n) & 3, s->leader, maximize,
            alpha, beta);
    for (int i = 0; i < 4; i++)
        fprintf(f, " %llu", (unsigned long long)s->hands[i]);
    for (int i = 0; i < 3; i++)
        fprintf(f, " %d", i < s->trick_n ? s->trick[i] : -1);
    fprintf(f, " %d %d %d %d %d |", s->won[0], s->won[1], s->end_points, s->pts_out, dd_total(s));
    uint64_t nodes0 = s->nodes, rel;
    s->oracle = 1;
    for (int i = 0; i < mv->n && !s->aborted; i++) {
        uint64_t before = s->nodes;
        int v = dd_child(s, mv->card[i], alpha, beta, &rel);
        fprintf(f, " %d:%d:%d:%llu", mv->card[i], maximize ? v >= beta : v <= alpha, v,
                (unsigned long long)(s->nodes - before));
    }
    s->oracle = 0;
    s->nodes = nodes0;
    fputc('\n', f);
}
#endif
static void oracle_order(rook_solver *s, dd_moves *mv, int n_cards, int maximize, int alpha, int beta)
{
    if (s->oracle || n_cards < DD_ORACLE || !((DD_ORACLE_SEATS >> s->trick_n) & 1) || mv->n < 2)
        return;
#ifdef DD_ORDER_DUMP
    order_dump(s, mv, n_cards, maximize, alpha, beta);
#else
    uint64_t nodes = s->nodes, rel;
    int pick = -1;
    s->oracle = 1;
    for (int i = 0; i < mv->n && pick < 0 && !s->aborted; i++) {
        int v = dd_child(s, mv->card[i], alpha, beta, &rel);
        if (maximize ? v >= beta : v <= alpha)
            pick = i;
    }
    s->oracle = 0;
    s->nodes = nodes;
    if (pick > 0)
        move_to_front(mv, pick);
#endif
}
#else
#define oracle_order(s, mv, n_cards, maximize, alpha, beta) ((void)0)
#endif

/* The cards in hands at which endgame.c takes over; -D DD_NO_LAST_THREE
 * builds a search that goes on as at any boundary (to time the two). */
#ifdef DD_NO_LAST_THREE
#define DD_LAST_THREE_AT 0
#else
#define DD_LAST_THREE_AT 12
#endif

#ifdef DD_FORCE_ROOT
/* A diagnostic build's root order (tools/root_order.py): the card id that
 * the root of a value's wide search tries first (-1: the rules' order),
 * and the card it did try first in the last one; and the root's moves of
 * the last one in the order searched (the sibling rule's skips left out):
 * each card id and the nodes its search took, re-search included. */
__attribute__((visibility("default"))) int dd_force_root_card = -1;
__attribute__((visibility("default"))) int dd_root_first_card = -1;
__attribute__((visibility("default"))) int dd_root_moves_n;
__attribute__((visibility("default"))) int dd_root_move_card[DD_MAX_MOVES];
__attribute__((visibility("default"))) uint64_t dd_root_move_nodes[DD_MAX_MOVES];
#endif

int dd_search(rook_solver *s, int alpha, int beta, uint64_t *rel)
{
    *rel = 0;
    if (must_stop(s))
        return 0;
    int root = s->record_root; /* (a load per node; the store only at the root) */
    if (root)
        s->record_root = 0;
    int n_cards = rook_popcount(dd_in_hands(s));
    s->nodes_by_cards[n_cards]++;
    if (s->trick_n == 0 && n_cards > 8 && !s->exact_keys) {
        const dd_entry *pb = dd_bucket(s, dd_coarse(s));
        __builtin_prefetch(pb);
        if (s->pgen)
            __builtin_prefetch(pb + DD_BUCKET);
    }
    int total = dd_total(s);
    if (alpha >= total)
        return total;
    if (beta <= 0)
        return 0;
    int alpha0 = alpha, beta0 = beta;
    uint64_t R = 0;
    boundary b; /* the rest is set where narrowed says */
    b.key = NULL;
    b.qlock = 0;
    b.narrowed = 0;
    if (s->trick_n == 0) {
        if (n_cards == 8) {
            return dd_last_two(s, alpha, beta, rel);
        }
        if (n_cards == 4) {
            /* the last trick: every card is forced */
            uint8_t t[4];
            for (int i = 0; i < 4; i++)
                t[i] = (uint8_t)rook_lsb(s->hands[(s->leader + i) & 3]);
            int wi = dd_trick_winner(s, t);
            int team = (s->leader + wi) & 1;
            *rel = trick_rel(t, wi);
            return team ? (s->won[0] > s->won[1] + 1 ? s->most_bonus : 0)
                        : total - (s->won[0] + 1 > s->won[1] ? 0 : s->most_bonus);
        }
        int v;
        if (boundary_bounds(s, n_cards, total, &alpha, &beta, &b, &v, rel))
            return v;
        if (n_cards == DD_LAST_THREE_AT) {
            uint64_t crel;
            int best = dd_last_three(s, alpha, beta, &crel);
            R |= crel | narrowing_rel(&b, best, alpha0, beta0);
            boundary_store(s, &b, n_cards, total, alpha0, beta0, best, R);
            *rel = R;
            return best;
        }
    }
    int seat = (s->leader + s->trick_n) & 3;
    dd_moves mv;
    dd_gen_moves(s, seat, 0, &mv);
    R = mv.rel;
    helper_order(s, &mv, n_cards);
#ifdef DD_FORCE_ROOT
    if (root) {
        for (int i = 1; dd_force_root_card >= 0 && i < mv.n; i++)
            if ((mv.cls[i] >> s->sbit[dd_force_root_card]) & 1) {
                move_to_front(&mv, i);
                break;
            }
        dd_root_first_card = s->card[mv.card[0]];
        dd_root_moves_n = 0;
    }
#endif
    int maximize = !(seat & 1);
    oracle_order(s, &mv, n_cards, maximize, alpha, beta);
    int best = maximize ? -1 : total + 1;
    int n = mv.n, done = 0;
    uint64_t *cls = mv.cls, rels[DD_MAX_MOVES];
    int vals[DD_MAX_MOVES];
    uint8_t searched[DD_MAX_MOVES] = {0};
    dd_stat_node st;
    dd_stats_begin(&st, s->nodes, s->trick_n && !(s->hands[seat] & DD_LANE(s->trick[0] >> 4)));
    for (int i = 0; i < n; i++) {
        done = i + 1;
        int v;
        int sc = sibling_covers(s, mv.card, cls, rels, searched, vals, i, maximize, alpha, beta, &v, &R, 1);
        if (sc == 2)
            ab_step(maximize, v, &best, &alpha, &beta);
        if (sc)
            continue;
        uint64_t crel;
        dd_stats_child(&st, s->nodes, (mv.card[i] >> 4) != s->trump);
#ifdef DD_FORCE_ROOT
        uint64_t nodes_before = s->nodes;
#endif
        v = i && beta - alpha > 1 ? pv_child(s, mv.card[i], maximize, alpha, beta, &crel)
                                  : child(s, mv.card[i], alpha, beta, &crel);
#ifdef DD_FORCE_ROOT
        if (root) {
            dd_root_move_card[dd_root_moves_n] = s->card[mv.card[i]];
            dd_root_move_nodes[dd_root_moves_n++] = s->nodes - nodes_before;
        }
#endif
        if (s->aborted) {
            if (b.key)
                b.key->live = 0;
            return 0;
        }
        rels[i] = crel;
        vals[i] = v;
        searched[i] = 1;
        R |= crel;
        int cut = ab_step(maximize, v, &best, &alpha, &beta);
        dd_stats_move(&st, s->nodes, i, cut);
        if (root)
            s->root_best = best;
        if (!cut && s->split_team && i + 1 < n && dd_split_wanted(s, n_cards)) {
            /* a team mate waits: share the moves left */
            shared sh =
                share_rest(s, &mv, cls, rels, vals, searched, i + 1, maximize, best, alpha, beta, R, n_cards);
            if (root)
                s->root_best = sh.best;
            if (s->aborted) {
                if (b.key)
                    b.key->live = 0;
                return 0;
            }
            best = sh.best;
            R = sh.R;
            done = sh.done;
            break;
        }
        if (cut) {
            remember_cut(s, n_cards, mv.card[i]);
            /* the bound rests on this move alone: not on the moves before
             * it, which only raised the window, nor on the grouping of the
             * others (moves.h's rel) */
            dd_stats_end(&st, s->nodes, s->trick_n, n_cards);
            R = dd_cover_classes(&cls[i], 1, crel | narrowing_rel(&b, best, alpha0, beta0));
            if (b.key)
                boundary_store(s, &b, n_cards, total, alpha0, beta0, best, R);
            *rel = R;
            return best;
        }
    }
    dd_stats_end(&st, s->nodes, s->trick_n, n_cards);
    R = dd_cover_classes(cls, done, R | narrowing_rel(&b, best, alpha0, beta0));
    if (b.key)
        boundary_store(s, &b, n_cards, total, alpha0, beta0, best, R);
    *rel = R;
    return best;
}
