/* solver_side.c: one solver build behind a small, fixed C interface.
 *
 * tools/build_solver_side.py compiles this file against the solver sources
 * of one commit (src/rook/solve*.c and their headers, taken from that
 * commit) into a shared library of its own.  Two such libraries, say the
 * working tree and an older commit, load side by side in one process (each
 * keeps its symbols to itself), so bench/solver_vs.py can time both on the
 * same deals in turns and check that they agree.
 *
 * The interface uses only plain types: the rules the solver looks at
 * (deck, trumps, counters, order, the end bonuses) and a position; this
 * file fills the commit's own rook_rules from them.  A rules table is built
 * once per distinct spec and kept, since a solver recognises its context
 * by the table's address.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rook/solve.h"

/* Newer builds report their steps; an older one leaves this unresolved. */
typedef void (*side_step_fn)(void *arg, int lo, int hi, uint64_t nodes);
void rook_solver_set_progress(rook_solver *s, side_step_fn fn, void *arg);
#pragma weak rook_solver_set_progress
/* Newer builds answer windows, guesses and best cards. */
int rook_dd_value_in(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi, int guess,
                     int anytime, int *lo, int *hi);
#pragma weak rook_dd_value_in
int rook_dd_best_cards(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess, uint64_t *best,
                       int *lo, int *hi);
#pragma weak rook_dd_best_cards
/* Newer builds put several threads on one search, sharing one table (an
 * older one leaves these unresolved: it must still load). */
void rook_solver_share(rook_solver *s, rook_solver *owner);
#pragma weak rook_solver_share
int rook_dd_value_shared(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi,
                         int guess, int *lo, int *hi);
#pragma weak rook_dd_value_shared
int rook_dd_move_values_team(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int root,
                             int32_t values[64], int *lo, int *hi);
#pragma weak rook_dd_move_values_team

#define SIDE_API __attribute__((visibility("default")))

typedef struct side_spec {
    uint64_t deck;
    uint64_t special_trumps;
    uint64_t anytime;
    uint64_t counter_masks[8];
    int32_t counter_values[8];
    int32_t n_counter_groups;
    int32_t must_trump;
    int32_t last_trick_bonus;
    int32_t most_tricks_bonus;
    uint8_t strength[64];
} side_spec;

typedef struct side_pos {
    uint64_t hands[4];
    uint8_t trick[4];
    uint8_t trick_n, leader, trump, pad;
    int32_t nest_points;
    uint8_t tricks[2];
} side_pos;

#define MAX_SPECS 32
static side_spec specs[MAX_SPECS];
static rook_rules rules[MAX_SPECS];
static int n_specs;

static const rook_rules *rules_of(const side_spec *sp)
{
    for (int i = 0; i < n_specs; i++)
        if (!memcmp(&specs[i], sp, sizeof *sp))
            return &rules[i];
    if (n_specs == MAX_SPECS)
        return NULL;
    rook_rules *r = &rules[n_specs];
    memset(r, 0, sizeof *r);
    r->deck = sp->deck;
    r->special_trumps = sp->special_trumps;
    r->anytime = sp->anytime;
    r->counters = 0;
    r->n_counter_groups = sp->n_counter_groups;
    for (int g = 0; g < 8; g++) {
        r->counter_masks[g] = sp->counter_masks[g];
        r->counter_values[g] = sp->counter_values[g];
        if (g < sp->n_counter_groups)
            r->counters |= sp->counter_masks[g];
    }
    memcpy(r->strength, sp->strength, 64);
    r->must_trump = (uint8_t)sp->must_trump;
    r->last_trick_bonus = sp->last_trick_bonus;
    r->most_tricks_bonus = sp->most_tricks_bonus;
    rook_rules_finish(r);
    specs[n_specs] = *sp;
    return &rules[n_specs++];
}

static void to_dd(const side_pos *sp, rook_dd_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 4; i++) {
        p->hands[i] = sp->hands[i];
        p->trick[i] = sp->trick[i];
    }
    p->trick_n = sp->trick_n;
    p->leader = sp->leader;
    p->trump = sp->trump;
    p->nest_points = sp->nest_points;
    p->tricks[0] = sp->tricks[0];
    p->tricks[1] = sp->tricks[1];
}

/* The rules of spec (NULL: too many rule sets) and the position in *p. */
static const rook_rules *prepare(const side_spec *spec, const side_pos *pos, rook_dd_pos *p)
{
    to_dd(pos, p);
    return rules_of(spec);
}

/* Threads on one search: s and up to 7 helpers sharing its table (made on
 * first use; a side has one solver), and the nodes of the last such call,
 * summed over them. */
#define SIDE_TEAM_MAX 8
static rook_solver *helpers[SIDE_TEAM_MAX - 1];
static int n_helpers;
static uint64_t team_nodes;

/* Return a new solver with a table of tt_bytes, or NULL. */
SIDE_API void *side_new(uint64_t tt_bytes)
{
    return rook_solver_new((size_t)tt_bytes);
}

SIDE_API void side_free(void *s)
{
    for (; n_helpers > 0; n_helpers--)
        rook_solver_free(helpers[n_helpers - 1]);
    rook_solver_free(s);
}

/* Forget every stored bound. */
SIDE_API void side_clear(void *s)
{
    rook_solver_clear(s);
}

/* Stop searches after this many nodes (0: no limit). */
SIDE_API void side_set_budget(void *s, uint64_t nodes)
{
    rook_solver_set_budget(s, nodes);
}

/* Return the nodes of the last call. */
SIDE_API uint64_t side_nodes(void *s)
{
    return rook_solver_nodes(s);
}

/* Return the value of the position (-1: budget; -2: too many rule sets). */
SIDE_API int side_value(void *s, const side_spec *spec, const side_pos *pos)
{
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    if (!r)
        return -2;
    return rook_dd_value(s, r, &p, NULL, NULL);
}

/* Return the value and write each legal card's value to values[card]. */
SIDE_API int side_move_values(void *s, const side_spec *spec, const side_pos *pos, int32_t *values)
{
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    if (!r)
        return -2;
    for (int i = 0; i < 64; i++)
        values[i] = -1;
    return rook_dd_move_values(s, r, &p, values, NULL, NULL);
}

/* Return 1 if team 0 takes at least target, 0 if not, -1 on the budget. */
SIDE_API int side_at_least(void *s, const side_spec *spec, const side_pos *pos, int target)
{
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    if (!r)
        return -2;
    return rook_dd_at_least(s, r, &p, target);
}

/* Return a statistic of the last call (rook_solver_stat). */
SIDE_API uint64_t side_stat(void *s, int which)
{
    return rook_solver_stat(s, which);
}

/* The steps of the last value search: bounds and nodes after each probe. */
static int trace_n;
static int trace_lo[64], trace_hi[64];
static uint64_t trace_nodes[64];

static void on_step(void *arg, int lo, int hi, uint64_t nodes)
{
    (void)arg;
    if (trace_n < 64) {
        trace_lo[trace_n] = lo;
        trace_hi[trace_n] = hi;
        trace_nodes[trace_n] = nodes;
        trace_n++;
    }
}

/* Start recording the steps of value searches. */
SIDE_API void side_trace(void *s)
{
    trace_n = 0;
    if (rook_solver_set_progress)
        rook_solver_set_progress(s, on_step, NULL);
}

/* Stop recording: a value search without a progress function to tell is
 * the wide-window search, with one it narrows by probes (other nodes). */
SIDE_API void side_untrace(void *s)
{
    if (rook_solver_set_progress)
        rook_solver_set_progress(s, NULL, NULL);
}

/* Return the number of steps recorded, and step i's lo, hi and nodes. */
SIDE_API int side_trace_step(int i, int *lo, int *hi, uint64_t *nodes)
{
    if (i >= 0 && i < trace_n) {
        *lo = trace_lo[i];
        *hi = trace_hi[i];
        *nodes = trace_nodes[i];
    }
    return trace_n;
}

/* Return the value of the position clipped to [wlo, whi] with a first
 * guess (-1: none), probing the ends first if anytime (-3: not built). */
SIDE_API int side_value_in(void *s, const side_spec *spec, const side_pos *pos, int wlo, int whi, int guess,
                           int anytime)
{
    if (!rook_dd_value_in)
        return -3;
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    if (!r)
        return -2;
    return rook_dd_value_in(s, r, &p, wlo, whi, guess, anytime, NULL, NULL);
}

/* Return the value and set *best to the card ids of the best cards (-3: not built). */
SIDE_API int side_best_cards(void *s, const side_spec *spec, const side_pos *pos, int guess, uint64_t *best)
{
    if (!rook_dd_best_cards)
        return -3;
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    if (!r)
        return -2;
    return rook_dd_best_cards(s, r, &p, guess, best, NULL, NULL);
}

static int team_of(void *s, int threads, rook_solver **ss)
{
    if (threads < 1 || threads > SIDE_TEAM_MAX)
        return -1;
    ss[0] = s;
    for (int i = 1; i < threads; i++) {
        if (i > n_helpers) {
            helpers[i - 1] = rook_solver_new(1024);
            if (!helpers[i - 1])
                return -1;
            rook_solver_share(helpers[i - 1], s);
            n_helpers = i;
        }
        ss[i] = helpers[i - 1];
    }
    return 0;
}

/* Return the value of the position on `threads` threads, and with values
 * not NULL each legal card's value in values[card] (-3: not built). */
SIDE_API int side_threads(void *s, const side_spec *spec, const side_pos *pos, int threads, int32_t *values)
{
    if (!rook_solver_share || (values ? !rook_dd_move_values_team : !rook_dd_value_shared))
        return -3;
    rook_dd_pos p;
    const rook_rules *r = prepare(spec, pos, &p);
    rook_solver *ss[SIDE_TEAM_MAX];
    if (!r || team_of(s, threads, ss) < 0)
        return -2;
    int lo, hi, v;
    if (values) {
        for (int i = 0; i < 64; i++)
            values[i] = -1;
        v = rook_dd_move_values_team(ss, threads, r, &p, -1, values, &lo, &hi);
    } else {
        v = rook_dd_value_shared(ss, threads, r, &p, 0, 1 << 20, -1, &lo, &hi);
    }
    team_nodes = 0;
    for (int i = 0; i < threads; i++)
        team_nodes += rook_solver_nodes(ss[i]);
    return v;
}

/* Return the nodes of the last call on threads, summed over the threads. */
SIDE_API uint64_t side_team_nodes(void)
{
    return team_nodes;
}
