/* solve.h: double-dummy solver for trick play (every hand visible).
 *
 * The value of a position is the number of points team 0 (seats 0 and 2)
 * takes from here to the end of the hand when team 0 maximises and team 1
 * minimises: the counters of the current and later tricks (T-12), the nest
 * points and the last-trick bonus to the team of the last trick (T-13).
 *
 * Algorithm: alpha-beta over single cards with
 *   - a transposition table keyed at trick boundaries by the exact remaining
 *     hands and the leader, storing a lower and an upper bound on the points
 *     still to come (open addressing, fixed size, replaced by depth);
 *   - equivalent cards searched once: two cards of one hand that follow the
 *     same way, carry the same points and have no other unplayed card of
 *     their suit ranked between them win and lose the same tricks;
 *   - move ordering: cards that take the trick now first, counters to a
 *     trick the partner wins, cheap cards otherwise;
 *   - sure bounds: the points still out bound the value from both sides;
 *   - a null-window driver ("can team 0 take at least T?") narrowed to the
 *     exact value (MTD(f)-style), so the yes/no question costs less than
 *     the exact value.
 * No allocation per node; the table is owned by a solver context, one per
 * thread.  A node budget stops the search; the caller is told.
 */
#ifndef ROOK_SOLVE_H
#define ROOK_SOLVE_H

#include <stddef.h>
#include <stdint.h>
#include "rook/rules.h"

typedef struct rook_solver rook_solver;

/* A trick-play position for the solver. */
typedef struct rook_dd_pos {
    uint64_t hands[4];
    uint8_t trick[4];   /* cards already in the current trick, led card first */
    uint8_t trick_n;
    uint8_t leader;
    uint8_t trump;
    int32_t nest_points; /* T-13: goes with the last trick, with the bonus */
} rook_dd_pos;

/* Return a new solver with a table of about tt_bytes (rounded down to a power
 * of two entries, at least 1024), or NULL when out of memory. */
rook_solver *rook_solver_new(size_t tt_bytes);
void rook_solver_free(rook_solver *s);

/* Forget every stored bound (needed between positions of different rules,
 * trump or nest points; done automatically by the calls below). */
void rook_solver_clear(rook_solver *s);

/* Stop a search after this many nodes (0 = no limit). */
void rook_solver_set_budget(rook_solver *s, uint64_t nodes);

/* Nodes searched since the last call that reset them (the solve calls do). */
uint64_t rook_solver_nodes(const rook_solver *s);

/* Search statistics of the last call: nodes with `which` (0..63) cards still
 * in hands, or (which = 64) table hits. */
uint64_t rook_solver_stat(const rook_solver *s, int which);

/* Return 1 if team 0 can take at least `target` points from p, 0 if not,
 * -1 if the budget ran out first. */
int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target);

/* Return the exact value of p (>= 0), or -1 if the budget ran out; then
 * *lo and *hi (if not NULL) hold the bounds proven so far. */
int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi);

/* Write the value after each legal card of the seat to move to values[card]
 * (others untouched) and return the position's value, or -1 if the budget ran out. */
int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64]);

#endif
