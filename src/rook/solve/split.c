/* split.c: one value by several threads sharing the nodes of one search.
 *
 * Member 0 runs the search of one thread (the wide-window value of
 * driver.c); the other members wait for work.  When a node of the search
 * has searched its first move (which sets the window: "young brothers
 * wait"), has moves left and sees a member waiting, it opens a split point
 * (split.h) and the members search its moves left together, each taking
 * the next one and testing it against the window as it stands then.  A
 * thread may open split points of its own inside the move it searches;
 * one with no move left at its own split point joins those below it while
 * the others finish.  A result that closes the window stops every search
 * under the split point (search.c's must_stop looks every 16 nodes).  All
 * share one table, whose entries are written and read without locks; the
 * split points' own state is under the team's spin lock.
 */
#include <pthread.h>
#include "rook/solve/split.h"
#include "rook/solve/context.h"
#include "rook/solve/driver.h"
#include "rook/solve/node.h"
#include "rook/solve/search.h"

static void lock(rook_dd_team *t)
{
    while (__atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&t->lock, __ATOMIC_RELAXED))
            ;
}

static void unlock(rook_dd_team *t) { __atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE); }

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

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

/* Take and search sp's moves until none is left or the window closed.  On
 * return s->aborted is set only when the search must stop above sp. */
static void work(rook_solver *s, dd_split *sp)
{
    rook_dd_team *t = s->split_team;
    dd_split *outer = s->split;
    s->split = sp;
    for (;;) {
        lock(t);
        if (sp->cut || sp->next >= sp->mv.n) {
            unlock(t);
            break;
        }
        int i = sp->next++;
        sp->done = sp->next;
        if (sp->next >= sp->mv.n)
            close_split(t, sp);
        int v, sc = sibling_covers(s, &sp->mv, sp->cls, sp->rels, sp->searched, sp->vals, i, sp->maximize,
                                   sp->alpha, sp->beta, &v);
        if (sc) {
            if (sc == 2 && ab_step(sp->maximize, v, &sp->best, &sp->alpha, &sp->beta)) {
                __atomic_store_n(&sp->cut, 1, __ATOMIC_RELAXED);
                close_split(t, sp);
            }
            unlock(t);
            continue;
        }
        int a = sp->alpha, b = sp->beta, card = sp->mv.card[i];
        unlock(t);
        uint64_t crel;
        v = dd_later_child(s, card, sp->maximize, a, b, &crel);
        lock(t);
        if (s->aborted) {
            if (s->stop == ROOK_STOP_CUT && sp->cut) {
                /* this split point's own cut: the result is not needed */
                s->aborted = 0;
                s->stop = ROOK_STOP_NONE;
            } else if (s->stop != ROOK_STOP_CUT) {
                fail(t, s->stop);
            }
            unlock(t);
            break;
        }
        sp->rels[i] = crel;
        sp->vals[i] = v;
        sp->searched[i] = 1;
        sp->R |= crel;
        if (!sp->cut && ab_step(sp->maximize, v, &sp->best, &sp->alpha, &sp->beta)) {
            __atomic_store_n(&sp->cut, 1, __ATOMIC_RELAXED);
            sp->cut_card = card;
            close_split(t, sp);
        }
        unlock(t);
    }
    s->split = outer;
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
    lock(t);
    __atomic_sub_fetch(&sp->workers, 1, __ATOMIC_RELAXED);
    unlock(t);
    if (s->aborted && s->stop == ROOK_STOP_CUT) {
        /* a cut above sp: its owner stops on its own */
        s->aborted = 0;
        s->stop = ROOK_STOP_NONE;
    }
}

void dd_split_fail(rook_dd_team *t, int stop)
{
    lock(t);
    fail(t, stop);
    unlock(t);
}

void dd_split_rest(rook_solver *s, dd_split *sp)
{
    rook_dd_team *t = s->split_team;
    lock(t);
    if (t->n_open < (int)(sizeof t->open / sizeof t->open[0])) {
        t->open[t->n_open] = sp;
        __atomic_store_n(&t->n_open, t->n_open + 1, __ATOMIC_RELAXED);
    }
    unlock(t);
    work(s, sp);
    int aborted = s->aborted, stop = s->stop;
    s->aborted = 0;
    lock(t);
    close_split(t, sp);
    if (aborted && stop != ROOK_STOP_CUT)
        fail(t, stop);
    unlock(t);
    /* wait for the others, helping below */
    __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(&sp->workers, __ATOMIC_RELAXED) > 1) {
        if (__atomic_load_n(&s->aborted, __ATOMIC_RELAXED) && !aborted) {
            /* the caller stopped this solver while it waits */
            aborted = 1;
            stop = s->stop;
            dd_split_fail(t, stop);
        }
        if (__atomic_load_n(&t->n_open, __ATOMIC_RELAXED)) {
            lock(t);
            dd_split *under = take_split(t, sp);
            if (under)
                __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
            unlock(t);
            if (under) {
                join(s, under);
                __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
                continue;
            }
        }
        relax();
    }
    __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    lock(t);                         /* (the last worker's results are seen) */
    int failed = t->failed;
    unlock(t);
    if (aborted) {
        s->aborted = 1;
        s->stop = stop;
    } else if (failed || s->aborted) {
        s->aborted = 1;
        s->stop = failed ? t->fail_stop : s->stop;
    }
}

int dd_split_help(rook_solver *s)
{
    rook_dd_team *t = s->split_team;
    int r = 0;
    __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    for (;;) {
        if (__atomic_load_n(&t->quit, __ATOMIC_ACQUIRE) || __atomic_load_n(&t->failed, __ATOMIC_RELAXED))
            break;
        if (__atomic_load_n(&s->aborted, __ATOMIC_RELAXED)) {
            r = -1;                  /* the caller stopped this member */
            break;
        }
        if (!__atomic_load_n(&t->n_open, __ATOMIC_RELAXED)) {
            relax();
            continue;
        }
        lock(t);
        dd_split *sp = take_split(t, NULL);
        if (sp)
            __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
        unlock(t);
        if (!sp)
            continue;
        join(s, sp);
        if (s->aborted) {
            r = -1;
            break;
        }
        __atomic_add_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    }
    __atomic_sub_fetch(&t->idle, 1, __ATOMIC_RELAXED);
    return r;
}

int rook_dd_value_split(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team,
                        int me, int guess, int *lo, int *hi)
{
    if (me < 0 || me >= ROOK_DD_TEAM_MAX)
        return -2;
    if (me) {
        if (dd_setup(s, r, p) < 0)
            return -2;
        s->split_team = team;
        int v = dd_split_help(s);
        s->split_team = NULL;
        return v;
    }
    s->split_team = team;
    int v = rook_dd_value_in(s, r, p, team->wlo, team->whi, guess, 0, lo, hi);
    s->split_team = NULL;
    if (v == -1 && s->stop == ROOK_STOP_NONE)
        s->stop = team->fail_stop;
    __atomic_store_n(&team->quit, 1, __ATOMIC_RELEASE);
    return v;
}

/* ---- the team's threads, started here ---- */

typedef struct member {
    rook_solver *s;
    const rook_rules *r;
    const rook_dd_pos *p;
    rook_dd_team *team;
    int me, guess, root;             /* value: the guess; cards: the position's value */
    int *lo, *hi;                    /* value: the bounds proven (member 0) */
    int *next;                       /* cards: the next class to take */
    int32_t *values;                 /* cards: by card id */
    int result;
} member;

static void *value_member(void *arg)
{
    member *m = arg;
    m->result = rook_dd_value_split(m->s, m->r, m->p, m->team, m->me, m->guess, m->lo, m->hi);
    return NULL;
}

static void *cards_member(void *arg)
{
    member *m = arg;
    m->result = rook_dd_move_values_shared(m->s, m->r, m->p, m->root, m->next, m->values, m->team);
    return NULL;
}

/* Run fn for members 1 .. n-1 in threads of their own and member 0 here;
 * wait for all.  A thread that cannot be started counts as done (its
 * member's share of `active` is taken off first).  Return the first
 * negative result, else member 0's. */
static int run_team(member *ms, int n, void *(*fn)(void *))
{
    pthread_t th[ROOK_DD_TEAM_MAX];
    int started[ROOK_DD_TEAM_MAX] = {0};
    for (int i = 1; i < n; i++) {
        started[i] = pthread_create(&th[i], NULL, fn, &ms[i]) == 0;
        if (!started[i]) {
            ms[i].result = 0;
            if (__atomic_sub_fetch(&ms[i].team->active, 1, __ATOMIC_ACQ_REL) == 0)
                __atomic_store_n(&ms[i].team->quit, 1, __ATOMIC_RELEASE);
        }
    }
    fn(&ms[0]);
    int r = ms[0].result;
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        if (ms[i].result < 0 && r >= 0)
            r = ms[i].result;
    }
    return r;
}

/* The threads worth starting for the set-up position s: none beside the
 * caller when no node of it can be shared (fewer than DD_SPLIT_MIN cards
 * below its first move). */
static int team_size(const rook_solver *s, int n)
{
    if (rook_popcount(dd_in_hands(s)) <= DD_SPLIT_MIN)
        return 1;
    return n < 1 ? 1 : n > ROOK_DD_TEAM_MAX ? ROOK_DD_TEAM_MAX : n;
}

int rook_dd_value_shared(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi,
                         int guess, int *lo, int *hi)
{
    if (rook_dd_prepare(ss[0], r, p) < 0)
        return -2;
    n = team_size(ss[0], n);
    rook_dd_team team;
    rook_dd_team_init(&team, dd_total(ss[0]), wlo, whi);
    team.active = n;
    member ms[ROOK_DD_TEAM_MAX];
    for (int i = 0; i < n; i++)
        ms[i] = (member){ss[i], r, p, &team, i, guess, 0, lo, hi, NULL, NULL, 0};
    int v = run_team(ms, n, value_member);
    if (v < 0 && ms[0].result >= 0) {
        /* a helper stopped (a budget): the value is not known */
        ss[0]->stop = team.fail_stop;
        v = -1;
    }
    return v;
}

int rook_dd_move_values_team(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int root,
                             int32_t values[64])
{
    if (rook_dd_prepare(ss[0], r, p) < 0)
        return -2;
    n = team_size(ss[0], n);
    rook_dd_team team;
    rook_dd_team_init(&team, dd_total(ss[0]), 0, dd_total(ss[0]));
    team.active = n;
    int next = 0;
    member ms[ROOK_DD_TEAM_MAX];
    for (int i = 0; i < n; i++)
        ms[i] = (member){ss[i], r, p, &team, i, 0, root, NULL, NULL, &next, values, 0};
    int v = run_team(ms, n, cards_member);
    if (v < 0 && ms[0].result >= 0)
        ss[0]->stop = team.fail_stop;
    return v < 0 ? v : root;
}
