/* stats.h: where the search's nodes go, in a diagnostic build only.
 *
 * Contract.  Built with -DDD_STATS (bench/solver_vs.py -D DD_STATS), every
 * node that generated moves is tallied by its place in the trick and its
 * number of cards in hands: how often its first move cut, a later move cut,
 * or no move did; the nodes searched under it; and the nodes spent on the
 * moves tried before a later move cut (what a perfect first move would have
 * saved at that node).  The tallies are process-wide, not per solver, and
 * printed to stderr when the process ends.  Without DD_STATS every call
 * here is empty and the search is unchanged.
 */
#ifndef ROOK_SOLVE_STATS_H
#define ROOK_SOLVE_STATS_H

#include <stdint.h>

typedef struct dd_stat_node {
    uint64_t start;  /* nodes when its moves began */
    uint64_t before; /* nodes spent on the moves before the latest one */
    int cut;         /* the index of the move that cut (-1: none) */
} dd_stat_node;

#ifdef DD_STATS
#include <stdio.h>

enum { DD_STAT_N, DD_STAT_CUT1, DD_STAT_CUT_LATER, DD_STAT_ALL, DD_STAT_UNDER, DD_STAT_WASTE, DD_STAT_KINDS };
static uint64_t dd_stat[4][17][DD_STAT_KINDS];

__attribute__((destructor)) static void dd_stats_print(void)
{
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 17; m++) {
            const uint64_t *t = dd_stat[k][m];
            if (t[DD_STAT_N])
                fprintf(stderr,
                        "dd-stats place %d cards %2d: nodes %llu cut-first %llu cut-later %llu no-cut %llu "
                        "under %llu waste %llu\n",
                        k, 4 * m + k, (unsigned long long)t[DD_STAT_N], (unsigned long long)t[DD_STAT_CUT1],
                        (unsigned long long)t[DD_STAT_CUT_LATER], (unsigned long long)t[DD_STAT_ALL],
                        (unsigned long long)t[DD_STAT_UNDER], (unsigned long long)t[DD_STAT_WASTE]);
        }
}

static inline void dd_stats_begin(dd_stat_node *n, uint64_t nodes)
{
    n->start = nodes;
    n->before = 0;
    n->cut = -1;
}

/* Move i was searched; cut: it closed the window. */
static inline void dd_stats_move(dd_stat_node *n, uint64_t nodes, int i, int cut)
{
    if (cut)
        n->cut = i;
    else
        n->before = nodes - n->start;
}

static inline void dd_stats_end(const dd_stat_node *n, uint64_t nodes, int place, int n_cards)
{
    uint64_t *t = dd_stat[place][n_cards >> 2];
    t[DD_STAT_N]++;
    t[DD_STAT_UNDER] += nodes - n->start;
    if (n->cut == 0)
        t[DD_STAT_CUT1]++;
    else if (n->cut > 0) {
        t[DD_STAT_CUT_LATER]++;
        t[DD_STAT_WASTE] += n->before;
    } else
        t[DD_STAT_ALL]++;
}
#else
static inline void dd_stats_begin(dd_stat_node *n, uint64_t nodes)
{
    (void)n;
    (void)nodes;
}
static inline void dd_stats_move(dd_stat_node *n, uint64_t nodes, int i, int cut)
{
    (void)n;
    (void)nodes;
    (void)i;
    (void)cut;
}
static inline void dd_stats_end(const dd_stat_node *n, uint64_t nodes, int place, int n_cards)
{
    (void)n;
    (void)nodes;
    (void)place;
    (void)n_cards;
}
#endif

#endif
