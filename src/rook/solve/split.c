/* split.c: split points -- several threads sharing the nodes of one search.
 *
 * One thread runs the search (search.c); the other members of its team
 * wait for work (team.c starts them).  When a node of the search
 * has searched its first move (which sets the window: "young brothers
 * wait"), has moves left and sees a member waiting, it opens a split point
 * (split.h) and the members search its moves left together, each taking
 * a move (take_move) and testing it against the window as it stands then.  A
 * thread may open split points of its own inside the move it searches;
 * one with no move left at its own split point joins those below it while
 * the others finish.  A result that closes the window stops every search
 * under the split point (search.c's must_stop looks every 16 nodes).  All
 * share one table, whose entries are written and read without locks; the
 * split points' own state is under the team's spin lock.
 *
 * A diagnostic build (-D DD_TEAM_STATS, tools/team_study.py) tallies where
 * a team's time goes, process-wide, in dd_team_stat[]: the helpers' time
 * in dd_split_help and the part of it spent searching at split points;
 * the owners' waits at their own split points and the part spent searching
 * below; the joins and the nodes searched in them; the split points opened
 * and cut; and the nodes a thread spent on moves after the one that cut
 * (work one thread would not have done).  Without it nothing is counted.
 */
#ifdef DD_TEAM_STATS
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>
#endif
#include "rook/solve/split.h"
#include "rook/solve/node.h"

#ifdef DD_TEAM_STATS
enum {
    TS_HELP_NS,      /* helpers in dd_split_help */
    TS_HELP_JOIN_NS, /* ... of it at split points */
    TS_WAIT_NS,      /* owners waiting at their own split points */
    TS_WAIT_JOIN_NS, /* ... of it at split points below */
    TS_JOINS,        /* split points joined (both kinds) */
    TS_JOIN_NODES,   /* the nodes searched there */
    TS_SPLITS,       /* split points opened */
    TS_CUTS,         /* ... that a move cut */
    TS_AFTER_CUT,    /* nodes of moves after the move that cut */
    TS_KINDS
};
__attribute__((visibility("default"))) const int dd_team_stat_n = TS_KINDS;
__attribute__((visibility("default"))) uint64_t dd_team_stat[TS_KINDS];
/* (the monotonic clock, as search.c's dd_now_ns: split.c lies below the
 * search and takes nothing from it) */
static uint64_t ts_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
#define TS_ADD(k, v) __atomic_add_fetch(&dd_team_stat[k], (v), __ATOMIC_RELAXED)
/* a move's nodes, and at the end the ones after the move that cut */
#define TS_MOVE(sp, i, n) ((sp)->stat_nodes[i] += (n))
#define TS_CUT(sp, i)     ((sp)->stat_cut = (i))
static void ts_split_end(const dd_split *sp)
{
    TS_ADD(TS_SPLITS, 1);
    if (!sp->cut)
        return;
    TS_ADD(TS_CUTS, 1);
    for (int k = sp->stat_cut + 1; k < sp->mv.n; k++)
        TS_ADD(TS_AFTER_CUT, sp->stat_nodes[k]);
}
#else
#define TS_MOVE(sp, i, n) ((void)(n))
#define TS_CUT(sp, i)     ((void)0)
#endif

/* (under the lock) Take sp off the open list. */
static void close_split(rook_dd_team *t, dd_split *sp)
{
    for (int i = 0; i < t->n_open; i++)
        if (t->open[i] == sp) {
            t->open[i] = t->open[t->n_open - 1];
            __atomic_store_n(&t->n_open, t->n_open - 1, __ATOMIC_RELAXED);
            return;
        }
}

/* (under the lock) The open split point with the most cards in hands that
 * lies under `within` (NULL: any); its workers count the caller in. */
static dd_split *take_split(rook_dd_team *t, const dd_split *within)
{
    dd_split *best = NULL;
    for (int i = 0; i < t->n_open; i++) {
        dd_split *sp = t->open[i];
        if (sp->cut || sp->next >= sp->mv.n || (best && best->n_cards >= sp->n_cards))
            continue;
        const dd_split *up = sp;
        while (within && up && up != within)
            up = up->parent;
        if (!within || up)
            best = sp;
    }
    if (best)
        __atomic_add_fetch(&best->workers, 1, __ATOMIC_RELAXED);
    return best;
}

/* (under the lock) A member stopped: the whole team stops, for its reason. */
static void fail(rook_dd_team *t, int stop)
{
    if (!t->failed) {
        __atomic_store_n(&t->fail_stop, stop, __ATOMIC_RELAXED);
        __atomic_store_n(&t->failed, 1, __ATOMIC_RELAXED);
    }
}

/* (under the lock) The move a member takes at sp: the first one not taken
 * whose lane no earlier move still being searched shares, else the first
 * one not taken.  An earlier move of the same lane, once answered, often
 * decides this one without a search (node.h's sibling rule), but not while
 * it is still being searched: in order, the second thread mostly took such
 * a move alongside its elder and searched it in full.  Against taking the
 * moves in order (bench/solver_vs.py --threads 2 --runs 3, value, per-deal
 * median, `tournament` deals): 300 of seed 2200 1.05x faster (1.04x-1.06x)
 * and 1.03x fewer nodes, 200 of seed 6000 1.05x (1.03x-1.06x), 200 of seed
 * 1000 1.05x (1.03x-1.06x); every card's values 1.00x-1.01x.
 * Waiting for the elder instead, helping below it, took 1.03x fewer nodes
 * still but 1.05x more time. */
static int take_move(dd_split *sp)
{
    int i = -1;
    for (int k = sp->next; k < sp->mv.n && i < 0; k++) {
        if ((sp->taken >> k) & 1)
            continue;
        int clash = 0;
        for (uint32_t f = sp->flying & ((1u << k) - 1); f && !clash; f &= f - 1)
            clash = (sp->mv.card[rook_lsb(f)] >> 4) == (sp->mv.card[k] >> 4);
        if (!clash)
            i = k;
    }
    if (i < 0)
        i = sp->next;
    sp->taken |= 1u << i;
    while (sp->next < sp->mv.n && ((sp->taken >> sp->next) & 1))
        sp->next++;
    if (i + 1 > sp->done)
        sp->done = i + 1;
    return i;
}

/* Take and search sp's moves until none is left or the window closed.  On
 * return s->aborted is set only when the search must stop above sp.
 *
 * At a principal variation's node a later move is tested against the best
 * value so far, and searched again with the wide window when it passes.
 * One thread tests each move against the bound its elders left; a move
 * taken while an elder was still in flight tests an older, lower bound,
 * passes it more often and then pays a wide search.  So when an answer
 * narrows such a node's window, the moves still in flight there stop
 * (split.h's dd_split_stopped) and are taken again against the new bound;
 * the table keeps what they stored.  With two threads the principal
 * variation's nodes were 1.23x-1.39x one thread's from 32 cards down.
 * Against going on with the old bound (bench/solver_vs.py --threads 2
 * --runs 3, value): 300 `tournament` deals of seed 2200 1.02x per deal
 * (1.02x-1.03x), 1.08x by the mean, 1.06x fewer nodes; 200 of seed 6000
 * 1.02x (1.01x-1.03x), mean 1.06x; 200 of seed 1000 1.03x (1.02x-1.03x),
 * mean 1.07x; every card's values the same (1.00x).  Waiting for the elder
 * instead, helping below it, took 0.86x the time. */
static void work(rook_solver *s, dd_split *sp)
{
    rook_dd_team *t = s->split_team;
    dd_split *outer = s->split;
    int outer_i = s->split_i;
    s->split = sp;
    s->split_i = -1;
    for (;;) {
        dd_team_lock(t);
        if (sp->cut || sp->next >= sp->mv.n) {
            dd_team_unlock(t);
            break;
        }
        int i = take_move(sp);
        if (sp->next >= sp->mv.n)
            close_split(t, sp);
        int v,
            sc = sibling_covers(s, sp->mv.card, sp->cls, sp->rels, sp->searched, sp->vals, i, sp->maximize,
                                sp->alpha, sp->beta, &v, &sp->R, 1);
        if (sc) {
            if (sc == 2 && ab_step(sp->maximize, v, &sp->best, &sp->alpha, &sp->beta)) {
                TS_CUT(sp, i);
                __atomic_store_n(&sp->cut, 1, __ATOMIC_RELAXED);
                close_split(t, sp);
            }
            dd_team_unlock(t);
            continue;
        }
        int a = sp->alpha, b = sp->beta, card = sp->mv.card[i];
        sp->flying |= 1u << i;
        s->split_i = i;
        dd_team_unlock(t);
        uint64_t crel, before = s->nodes;
        v = sp->search_move(s, card, sp->maximize, a, b, &crel);
        s->split_i = -1;
        dd_team_lock(t);
        TS_MOVE(sp, i, s->nodes - before);
        sp->flying &= ~(1u << i);
        __atomic_and_fetch(&sp->restart, ~(1u << i), __ATOMIC_RELAXED);
        if (s->aborted && s->stop == ROOK_STOP_RESTART) {
            /* the window narrowed while this move was searched: take it
             * again (what it stored stays in the table) */
            s->aborted = 0;
            s->stop = ROOK_STOP_NONE;
            sp->taken &= ~(1u << i);
            if (i < sp->next)
                sp->next = i;
            dd_team_unlock(t);
            continue;
        }
        if (s->aborted) {
            if (s->stop == ROOK_STOP_CUT && sp->cut) {
                /* this split point's own cut: the result is not needed */
                s->aborted = 0;
                s->stop = ROOK_STOP_NONE;
            } else {
                /* a cut above sp, or a failure: move i has no result */
                sp->abandoned = 1;
                if (s->stop != ROOK_STOP_CUT)
                    fail(t, s->stop);
            }
            dd_team_unlock(t);
            break;
        }
        sp->rels[i] = crel;
        sp->vals[i] = v;
        sp->searched[i] = 1;
        sp->R |= crel;
        int was_alpha = sp->alpha, was_beta = sp->beta;
        if (!sp->cut && ab_step(sp->maximize, v, &sp->best, &sp->alpha, &sp->beta)) {
            TS_CUT(sp, i);
            __atomic_store_n(&sp->cut, 1, __ATOMIC_RELAXED);
            sp->cut_card = card;
            close_split(t, sp);
        } else if (was_beta - was_alpha > 1 && (sp->alpha != was_alpha || sp->beta != was_beta)) {
            /* a principal variation's window narrowed: the moves in flight
             * test a bound that is no longer the node's (see work) */
            __atomic_or_fetch(&sp->restart, sp->flying, __ATOMIC_RELAXED);
        }
        dd_team_unlock(t);
    }
    s->split = outer;
    s->split_i = outer_i;
}

/* Work at a split point another thread opened (its workers count s in):
 * at its position, then back at s's own.  The keys on s's own path stay
 * good: sp lies under the node s waits at (or s waits nowhere), so the
 * boundaries below sp are on neither path yet, and a boundary above sp in
 * its trick is the same position on both. */
static void join(rook_solver *s, dd_split *sp)
{
    rook_dd_team *t = s->split_team;
    dd_position own;
    dd_position_save(s, &own);
    dd_position_load(s, &sp->at);
    work(s, sp);
    dd_position_load(s, &own);
    dd_team_lock(t);
    __atomic_sub_fetch(&sp->workers, 1, __ATOMIC_RELAXED);
    dd_team_unlock(t);
    if (s->aborted && s->stop == ROOK_STOP_CUT) {
        /* a cut above sp: its owner stops on its own */
        s->aborted = 0;
        s->stop = ROOK_STOP_NONE;
    }
}

void dd_split_fail(rook_dd_team *t, int stop)
{
    dd_team_lock(t);
    fail(t, stop);
    dd_team_unlock(t);
}

#ifdef DD_TEAM_STATS
/* join, tallied: its time to `kind`, a join and its nodes */
static void join_counted(rook_solver *s, dd_split *sp, int kind)
{
    uint64_t t0 = ts_now(), n0 = s->nodes;
    join(s, sp);
    TS_ADD(kind, ts_now() - t0);
    TS_ADD(TS_JOINS, 1);
    TS_ADD(TS_JOIN_NODES, s->nodes - n0);
}
#else
#define join_counted(s, sp, kind) join(s, sp)
#endif

void dd_split_rest(rook_solver *s, dd_split *sp)
{
    rook_dd_team *t = s->split_team;
#ifdef DD_TEAM_STATS
    sp->stat_cut = DD_MAX_MOVES;
    for (int k = 0; k < DD_MAX_MOVES; k++)
        sp->stat_nodes[k] = 0;
#endif
    dd_team_lock(t);
    if (t->n_open < (int)(sizeof t->open / sizeof t->open[0])) {
        t->open[t->n_open] = sp;
        __atomic_store_n(&t->n_open, t->n_open + 1, __ATOMIC_RELAXED);
    }
    dd_team_unlock(t);
    work(s, sp);
    int aborted = s->aborted, stop = s->stop;
    s->aborted = 0;
    dd_team_lock(t);
    close_split(t, sp);
    if (aborted && stop != ROOK_STOP_CUT)
        fail(t, stop);
    dd_team_unlock(t);
    /* wait for the others, helping below */
#ifdef DD_TEAM_STATS
    uint64_t wait0 = ts_now();
#endif
    __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(&sp->workers, __ATOMIC_RELAXED) > 1) {
        if (!aborted && dd_abort_requested(s)) {
            /* the caller stopped this solver while it waits */
            aborted = 1;
            stop = ROOK_STOP_CALLER;
            dd_split_fail(t, stop);
        }
        if (__atomic_load_n(&t->n_open, __ATOMIC_RELAXED)) {
            dd_team_lock(t);
            dd_split *under = take_split(t, sp);
            if (under)
                __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
            dd_team_unlock(t);
            if (under) {
                join_counted(s, under, TS_WAIT_JOIN_NS);
                __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
                continue;
            }
        }
        dd_relax();
    }
    __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    dd_team_lock(t); /* (the last worker's results are seen) */
    int failed = t->failed, abandoned = sp->abandoned && !sp->cut;
    dd_team_unlock(t);
#ifdef DD_TEAM_STATS
    TS_ADD(TS_WAIT_NS, ts_now() - wait0);
    ts_split_end(sp);
#endif
    if (aborted) {
        s->aborted = 1;
        s->stop = stop;
    } else if (failed || s->aborted) {
        s->aborted = 1;
        s->stop = failed ? t->fail_stop : s->stop;
    } else if (abandoned) {
        /* a mate left one of sp's moves unfinished (a cut above sp, seen in
         * its search while this thread waited): sp's result lacks that
         * move, so the node must neither use it nor store it */
        s->aborted = 1;
        s->stop = ROOK_STOP_CUT;
    }
}

int dd_split_help(rook_solver *s)
{
    rook_dd_team *t = s->split_team;
    int r = 0;
#ifdef DD_TEAM_STATS
    uint64_t help0 = ts_now();
#endif
    __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    for (;;) {
        if (__atomic_load_n(&t->quit, __ATOMIC_ACQUIRE) || __atomic_load_n(&t->failed, __ATOMIC_RELAXED))
            break;
        if (dd_abort_requested(s)) {
            s->aborted = 1; /* the caller stopped this member */
            s->stop = ROOK_STOP_CALLER;
            r = -1;
            break;
        }
        if (!__atomic_load_n(&t->n_open, __ATOMIC_RELAXED)) {
            dd_relax();
            continue;
        }
        dd_team_lock(t);
        dd_split *sp = take_split(t, NULL);
        if (sp)
            __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
        dd_team_unlock(t);
        if (!sp)
            continue;
        join_counted(s, sp, TS_HELP_JOIN_NS);
        if (s->aborted) {
            r = -1;
            break;
        }
        __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    }
    __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
#ifdef DD_TEAM_STATS
    TS_ADD(TS_HELP_NS, ts_now() - help0);
#endif
    return r;
}
