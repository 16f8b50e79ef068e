/* stats.h: where the search's nodes go, in a diagnostic build only.
 *
 * Contract.  Built with -DDD_STATS (bench/solver_vs.py -D DD_STATS), every
 * node that generated moves is tallied by its place in the trick and its
 * number of cards in hands: how often its first move cut, a later move cut,
 * or no move did; the nodes searched under it; and the nodes spent on the
 * moves tried before a later move cut (what a perfect first move would have
 * saved at that node); and every trick boundary of more than eight cards
 * by what settled it: the sure bounds, the table, the quasi-symmetry
 * table, or nothing (its moves were searched).  And at the nodes where the
 * seat to move holds none of the led suit, the nodes under its second and
 * later discards (cards of neither the led suit nor trumps), split by
 * whether a move of the node cut; a node inside another's later discard is
 * left to that one, so the sums of these tallies count no node twice (what
 * a proof of all of a seat's discards from its first one could save).  And
 * the table's stores by cards in hands: over an entry of the same position,
 * into a free slot (empty, or of an earlier generation), or over a live
 * entry of another position (the bucket was full: what a bigger bucket or
 * another choice of victim could keep, table.h).  The
 * tallies are process-wide, not per solver (one thread, no budget), and
 * printed to stderr when the process ends.  Without DD_STATS every call
 * here is empty and the search is unchanged.
 */
#ifndef ROOK_SOLVE_STATS_H
#define ROOK_SOLVE_STATS_H

#include <stdint.h>

typedef struct dd_stat_node {
    uint64_t start;       /* nodes when its moves began */
    uint64_t before;      /* nodes spent on the moves before the latest one */
    int cut;              /* the index of the move that cut (-1: none) */
    int discarding;       /* the seat to move holds none of the led suit */
    int discards;         /* its discards searched so far */
    int later;            /* the move being searched is a second or later discard */
    uint64_t last;        /* nodes when the move being searched began */
    uint64_t later_nodes; /* the nodes under its later discards */
} dd_stat_node;

/* What settled a trick boundary (dd_stats_boundary). */
enum { DD_BOUNDARY_SURE, DD_BOUNDARY_TABLE, DD_BOUNDARY_QUASI, DD_BOUNDARY_SEARCHED, DD_BOUNDARY_KINDS };

/* The kinds of table store tallied (table.h's DD_STORED_*, in its order:
 * same, free, evicted; search.c checks that the counts agree). */
#define DD_STAT_STORE_KINDS 3

#ifdef DD_STATS
#include <stdio.h>

enum {
    DD_STAT_N,
    DD_STAT_CUT1,
    DD_STAT_CUT_LATER,
    DD_STAT_ALL,
    DD_STAT_UNDER,
    DD_STAT_WASTE,
    DD_STAT_DISCARDS_ALL, /* under later discards, at nodes where no move cut */
    DD_STAT_DISCARDS_CUT, /* the same where a move cut */
    DD_STAT_KINDS
};
static uint64_t dd_stat[4][17][DD_STAT_KINDS];
static uint64_t dd_stat_bound[17][DD_BOUNDARY_KINDS];
static uint64_t dd_stat_store[17][DD_STAT_STORE_KINDS];
static int dd_stat_inside; /* later discards being searched on the path */

__attribute__((destructor)) static void dd_stats_print(void)
{
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 17; m++) {
            const uint64_t *t = dd_stat[k][m];
            if (t[DD_STAT_N])
                fprintf(stderr,
                        "dd-stats place %d cards %2d: nodes %llu cut-first %llu cut-later %llu no-cut %llu "
                        "under %llu waste %llu later-discards %llu (cut %llu)\n",
                        k, k ? 4 * m + 4 - k : 4 * m, (unsigned long long)t[DD_STAT_N],
                        (unsigned long long)t[DD_STAT_CUT1], (unsigned long long)t[DD_STAT_CUT_LATER],
                        (unsigned long long)t[DD_STAT_ALL], (unsigned long long)t[DD_STAT_UNDER],
                        (unsigned long long)t[DD_STAT_WASTE], (unsigned long long)t[DD_STAT_DISCARDS_ALL],
                        (unsigned long long)t[DD_STAT_DISCARDS_CUT]);
        }
    uint64_t d_all = 0, d_cut = 0;
    for (int k = 1; k < 4; k++)
        for (int m = 0; m < 17; m++) {
            d_all += dd_stat[k][m][DD_STAT_DISCARDS_ALL];
            d_cut += dd_stat[k][m][DD_STAT_DISCARDS_CUT];
        }
    fprintf(stderr, "dd-stats later discards: %llu nodes where no move cut, %llu where one did\n",
            (unsigned long long)d_all, (unsigned long long)d_cut);
    for (int m = 16; m > 2; m--) {
        const uint64_t *t = dd_stat_bound[m];
        if (t[DD_BOUNDARY_SURE] | t[DD_BOUNDARY_TABLE] | t[DD_BOUNDARY_QUASI] | t[DD_BOUNDARY_SEARCHED])
            fprintf(stderr, "dd-stats boundary cards %2d: sure %llu table %llu quasi %llu searched %llu\n",
                    4 * m, (unsigned long long)t[DD_BOUNDARY_SURE], (unsigned long long)t[DD_BOUNDARY_TABLE],
                    (unsigned long long)t[DD_BOUNDARY_QUASI], (unsigned long long)t[DD_BOUNDARY_SEARCHED]);
    }
    for (int m = 16; m > 2; m--) {
        const uint64_t *t = dd_stat_store[m];
        if (t[0] | t[1] | t[2])
            fprintf(stderr, "dd-stats stores cards %2d: same %llu free %llu evicted %llu\n", 4 * m,
                    (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2]);
    }
}

/* A trick boundary of n_cards cards was settled by `kind` (or searched). */
static inline void dd_stats_boundary(int n_cards, int kind)
{
    dd_stat_bound[n_cards >> 2][kind]++;
}

/* A table store at n_cards cards went to `kind` (table.h's DD_STORED_*). */
static inline void dd_stats_store(int n_cards, int kind)
{
    dd_stat_store[n_cards >> 2][kind]++;
}

/* A node's moves begin; discarding: its seat holds none of the led suit. */
static inline void dd_stats_begin(dd_stat_node *n, uint64_t nodes, int discarding)
{
    n->start = n->last = nodes;
    n->before = 0;
    n->cut = -1;
    n->discarding = discarding;
    n->discards = n->later = 0;
    n->later_nodes = 0;
}

/* A move is about to be searched; discard: it is a discard (not a trump)
 * of a seat that holds none of the led suit. */
static inline void dd_stats_child(dd_stat_node *n, uint64_t nodes, int discard)
{
    n->last = nodes;
    n->later = n->discarding && discard && n->discards++;
    dd_stat_inside += n->later;
}

/* Move i was searched; cut: it closed the window. */
static inline void dd_stats_move(dd_stat_node *n, uint64_t nodes, int i, int cut)
{
    if (n->later) {
        dd_stat_inside--;
        n->later_nodes += nodes - n->last;
        n->later = 0;
    }
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
    if (!dd_stat_inside)
        t[n->cut < 0 ? DD_STAT_DISCARDS_ALL : DD_STAT_DISCARDS_CUT] += n->later_nodes;
    if (n->cut == 0)
        t[DD_STAT_CUT1]++;
    else if (n->cut > 0) {
        t[DD_STAT_CUT_LATER]++;
        t[DD_STAT_WASTE] += n->before;
    } else
        t[DD_STAT_ALL]++;
}
#else
static inline void dd_stats_boundary(int n_cards, int kind)
{
    (void)n_cards;
    (void)kind;
}
static inline void dd_stats_store(int n_cards, int kind)
{
    (void)n_cards;
    (void)kind;
}
static inline void dd_stats_begin(dd_stat_node *n, uint64_t nodes, int discarding)
{
    (void)n;
    (void)nodes;
    (void)discarding;
}
static inline void dd_stats_child(dd_stat_node *n, uint64_t nodes, int discard)
{
    (void)n;
    (void)nodes;
    (void)discard;
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
