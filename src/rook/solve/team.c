/* team.c: several threads on one position, one solver each, one table.
 *
 * One value: member 0 searches it as one thread would (driver.c's wide
 * window), and the others join the nodes it shares (split.c); the others
 * run on their solvers' own threads (worker.h: rook_dd_value_shared) or on
 * the caller's.
 * Every card's value: each thread takes a class of the root's cards not yet
 * taken (an atomic mask; every second thread from the back of the order)
 * until none is left, narrowed from the position's value or, without it,
 * from the best value proven so far, then shares the nodes of those still
 * searching (split.c).
 * One value watched as it narrows (anytime, a progress function): each
 * member takes the target that splits what is still open farthest from
 * the targets the others are searching (when every target is taken it
 * helps with another's, trying the first move of the top nodes last so
 * that the two searches part ways), and a search whose question a team
 * mate has settled stops at once (search.c looks every 256 nodes); a
 * member that stops on its budget or its caller's word stops the team
 * (the same look).  Its members run as the value's do (run_team).  The
 * table's entries are written and read without locks (table.h).
 */
#include <string.h>
#include "rook/solve/context.h"
#include "rook/solve/driver.h"
#include "rook/solve/search.h"
#include "rook/solve/split.h"
#include "rook/solve/worker.h"

int rook_dd_prepare(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    return dd_setup(s, r, p) < 0 ? -2 : 0;
}

/* dd_setup for a member of a team: its team pointer (*slot, s->team or
 * s->split_team) is set first, so that dd_setup keeps a stop asked of the
 * member since the team's call began, and is taken back when the position
 * is beyond the solver.  Return 0, or -2. */
static int member_setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, struct rook_dd_team **slot,
                        rook_dd_team *team)
{
    *slot = team;
    if (dd_setup(s, r, p) < 0) {
        *slot = NULL;
        return -2;
    }
    return 0;
}

int rook_dd_move_values_shared(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int root, int *taken,
                               int32_t values[64], rook_dd_team *team)
{
    if (member_setup(s, r, p, &s->split_team, team) < 0)
        return -2;
    int total = dd_total(s), res;
    dd_moves mv;
    int maximize = dd_root_moves(s, &mv);
    int own = maximize ? 0 : total;
    int *bound = !team ? &own : maximize ? &team->lo : &team->hi;
    /* every second member takes the classes from the back: the ones that
     * look worst, whose searches cost little even before a value is known
     * to narrow them from, while the first member proves the best-looking
     * class's value (8% fewer nodes on two threads than both from the
     * front, which ran two wide searches of good classes at once) */
    int from_end = team && (__atomic_fetch_add(&team->arrivals, 1, __ATOMIC_RELAXED) & 1);
    res = dd_class_values(s, &mv, maximize, root, taken, bound, values, NULL, from_end);
    if (team) {
        /* no class left: help the members still searching theirs */
        if (res < 0)
            dd_split_fail(team, s->stop);
        if (__atomic_sub_fetch(&team->active, 1, __ATOMIC_ACQ_REL) == 0)
            __atomic_store_n(&team->quit, 1, __ATOMIC_RELEASE);
        else if (res == 0)
            res = dd_split_help(s);
    }
    s->split_team = NULL;
    return res;
}

/* ---- teams: several threads on one value (rook_dd_value_team) ---- */

#ifndef DD_HELP_FROM
#define DD_HELP_FROM 32 /* cards in hands from which a helper rotates the moves */
#endif

void rook_dd_team_init(rook_dd_team *team, int total, int wlo, int whi)
{
    memset(team, 0, sizeof *team);
    team->lo = 0;
    team->hi = total;
    team->wlo = wlo < 0 ? 0 : wlo;
    team->whi = whi > total ? total : whi;
    if (team->wlo > team->whi)
        team->wlo = team->whi;
}

/* The target for member `me`: the point of the grain inside (L, H] farthest
 * from L, from H + grain and from the other members' targets; 0 when every
 * point is taken (then the member joins the target of another). */
static int team_pick(const rook_dd_team *t, int me, int L, int H, int gr)
{
    int best = 0, best_d = -1;
    for (int x = dd_on_grain(L + 1, gr); x <= H; x += gr) {
        int left = L, right = H + gr, taken = 0;
        for (int i = 0; i < ROOK_DD_TEAM_MAX; i++) {
            int y = t->probing[i];
            if (i == me || y <= L || y > H)
                continue;
            if (y == x)
                taken = 1;
            else if (y < x && y > left)
                left = y;
            else if (y > x && y < right)
                right = y;
        }
        int d = x - left < right - x ? x - left : right - x;
        if (!taken && d > best_d) {
            best_d = d;
            best = x;
        }
    }
    return best;
}

int rook_dd_value_team(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team, int me)
{
    if (me < 0 || me >= ROOK_DD_TEAM_MAX)
        return -2;
    if (member_setup(s, r, p, &s->team, team) < 0)
        return -2;
    int gr = s->grain, result = 0;
    for (;;) {
        dd_team_lock(team);
        int stop = dd_team_stop(team);
        if (stop != ROOK_STOP_NONE) {
            /* a mate stopped (a budget, its caller): so does the team */
            s->stop = stop;
            dd_team_unlock(team);
            result = -1;
            break;
        }
        int L = team->lo > team->wlo ? team->lo : team->wlo;
        int H = team->hi < team->whi ? team->hi : team->whi;
        if (L >= H) {
            dd_team_unlock(team);
            break;
        }
        int g = team_pick(team, me, L, H, gr), helping = 0;
        if (!g) {
            /* every target is being searched: help with another's, trying
             * the first move of the top nodes last (so that the two
             * searches part ways) */
            for (int i = 0; i < ROOK_DD_TEAM_MAX && !g; i++)
                if (i != me && team->probing[i] > L && team->probing[i] <= H)
                    g = team->probing[i];
            helping = g != 0;
        }
        if (!g)
            g = H;
        s->rotate_from = helping ? DD_HELP_FROM : 0;
        team->probing[me] = g;
        dd_team_unlock(team);
        s->probe = g;
        uint64_t rel;
        int v = dd_search(s, g - 1, g, &rel);
        dd_team_lock(team);
        team->probing[me] = 0;
        if (s->aborted) {
            if (s->stop == ROOK_STOP_MOOT) {
                s->aborted = 0;
                s->stop = ROOK_STOP_NONE;
                dd_team_unlock(team);
                continue;
            }
            dd_team_unlock(team);
            dd_split_fail(team, s->stop); /* the whole team stops, for this reason */
            result = -1;
            break;
        }
        if (v >= g) {
            int lo = v < team->hi ? v : team->hi;
            if (lo > team->lo)
                __atomic_store_n(&team->lo, lo, __ATOMIC_RELAXED);
        } else {
            int hi = v > team->lo ? v : team->lo;
            if (hi < team->hi)
                __atomic_store_n(&team->hi, hi, __ATOMIC_RELAXED);
        }
        int lo = team->lo, hi = team->hi;
        dd_team_unlock(team);
        if (team->progress)
            team->progress(team->progress_arg, lo, hi, s->nodes);
    }
    s->team = NULL;
    s->rotate_from = 0;
    if (result < 0)
        return -1;
    int v = team->lo > team->wlo ? team->lo : team->wlo;
    return v < team->whi ? v : team->whi;
}

/* ---- teams sharing the nodes of one search (split.c) ---- */

int rook_dd_value_split(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team, int me,
                        int guess, int *lo, int *hi)
{
    if (me < 0 || me >= ROOK_DD_TEAM_MAX)
        return -2;
    if (me) {
        if (member_setup(s, r, p, &s->split_team, team) < 0)
            return -2;
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

/* ---- the team run: members on their solvers' own threads ---- */

typedef struct member {
    rook_solver *s;
    const rook_rules *r;
    const rook_dd_pos *p;
    rook_dd_team *team;
    int me, guess, root; /* value: the guess; cards: the position's value */
    int *lo, *hi;        /* value: the bounds proven (member 0) */
    int *taken;          /* cards: the classes taken (a mask) */
    int32_t *values;     /* cards: by card id */
    int result;
} member;

static void *value_member(void *arg)
{
    member *m = arg;
    m->result = rook_dd_value_split(m->s, m->r, m->p, m->team, m->me, m->guess, m->lo, m->hi);
    return NULL;
}

static void *probe_member(void *arg)
{
    member *m = arg;
    m->result = rook_dd_value_team(m->s, m->r, m->p, m->team, m->me);
    return NULL;
}

static void *cards_member(void *arg)
{
    member *m = arg;
    if (m->me)
        __atomic_add_fetch(&m->team->active, 1, __ATOMIC_ACQ_REL);
    m->result = rook_dd_move_values_shared(m->s, m->r, m->p, m->root, m->taken, m->values, m->team);
    return NULL;
}

/* Run fn for members 1 .. n-1 on their solvers' own threads (worker.h)
 * and for member 0 here; then end the others' jobs: one not begun is taken
 * back (its member counts as done), one begun is waited for.  Return
 * member 0's result, or -1 when a helper stopped (a budget, its caller)
 * and member 0 did not: member 0's stop reason becomes the team's. */
static int run_team(member *ms, int n, void *(*fn)(void *))
{
    int posted[ROOK_DD_TEAM_MAX] = {0};
    for (int i = 1; i < n; i++)
        posted[i] = dd_worker_post(ms[i].s, fn, &ms[i]) == 0;
    fn(&ms[0]);
    int r = ms[0].result;
    for (int i = 1; i < n; i++) {
        if (!posted[i] || !dd_worker_reclaim(ms[i].s))
            ms[i].result = 0;
        if (ms[i].result < 0 && r >= 0) {
            ms[0].s->stop = ms[0].team->fail_stop;
            r = -1;
        }
    }
    return r;
}

/* Cards in hands from which every card's value takes a team: its members
 * share the root's classes, split points or not. */
#define DD_CLASSES_TEAM_MIN 16

/* The threads worth starting for the set-up position s: none beside the
 * caller when it has no more than `from` cards in hands (for one value,
 * the most with which no node is shared: split.h). */
static int team_size(const rook_solver *s, int n, int from)
{
    if (rook_popcount(dd_in_hands(s)) <= from)
        return 1;
    return n < 1 ? 1 : n > ROOK_DD_TEAM_MAX ? ROOK_DD_TEAM_MAX : n;
}

int rook_dd_value_shared(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi,
                         int guess, int *lo, int *hi)
{
    if (rook_dd_prepare(ss[0], r, p) < 0)
        return -2;
    n = team_size(ss[0], n, DD_SPLIT_ROOT_MIN - 1);
    rook_dd_team team;
    rook_dd_team_init(&team, dd_total(ss[0]), wlo, whi);
    team.active = 1; /* member 0; the others count in as they begin */
    member ms[ROOK_DD_TEAM_MAX];
    for (int i = 0; i < n; i++)
        ms[i] = (member){ss[i], r, p, &team, i, guess, 0, lo, hi, NULL, NULL, 0};
    return run_team(ms, n, value_member);
}

int rook_dd_value_probes(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team)
{
    if (rook_dd_prepare(ss[0], r, p) < 0)
        return -2;
    n = team_size(ss[0], n, 0);
    member ms[ROOK_DD_TEAM_MAX];
    for (int i = 0; i < n; i++)
        ms[i] = (member){ss[i], r, p, team, i, 0, 0, NULL, NULL, NULL, NULL, 0};
    team->lead = ss[0];
    int v = run_team(ms, n, probe_member);
    team->lead = NULL;
    return v;
}

int rook_dd_move_values_team(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int root,
                             int32_t values[64], int *lo, int *hi)
{
    if (rook_dd_prepare(ss[0], r, p) < 0)
        return -2;
    n = team_size(ss[0], n, DD_CLASSES_TEAM_MIN);
    rook_dd_team team;
    rook_dd_team_init(&team, dd_total(ss[0]), 0, dd_total(ss[0]));
    team.active = 1; /* member 0; the others count in as they begin */
    int taken = 0;
    member ms[ROOK_DD_TEAM_MAX];
    for (int i = 0; i < n; i++)
        ms[i] = (member){ss[i], r, p, &team, i, 0, root, NULL, NULL, &taken, values, 0};
    int v = run_team(ms, n, cards_member);
    if (root >= 0) {
        *lo = *hi = root;
        return v < 0 ? v : root;
    }
    /* every class done: the best of them is the value; else the bound the
     * done ones prove */
    *lo = team.lo;
    *hi = team.hi;
    return v < 0 ? v : ((p->leader + p->trick_n) & 1) ? team.hi : team.lo;
}
