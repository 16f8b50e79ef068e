/* driver.h: narrowing a value with null-window searches (driver.c), for
 * the teams of team.c.
 *
 * Contract.  dd_narrow() narrows [*lo, *hi], team 0's points from the set-up
 * position (card == DD_NONE) or after the root card `card`, until the
 * value is known or known to lie outside [wlo, whi]; see driver.c for how
 * it picks its targets.  It returns 0, or -1 when a budget ran out (the
 * bounds then hold what was proven).  dd_root_moves() fills mv with the
 * classes of the root's legal cards, every class of equal points apart,
 * and returns whether team 0 moves.  dd_class_values() finds the value of
 * each class of those moves that it takes from the mask *taken (the first
 * not taken, or with from_end the last; atomically: threads may share the
 * mask) and writes it to values[card] for every card of the class: from
 * `root`, the position's value, or with root < 0 from the best value
 * proven so far, which it keeps in *bound.  With the solver's tolerance
 * (rook_dd_move_bounds) a class's value is only narrowed to within it:
 * values get the lower bounds and uppers (when not NULL) the upper ones.
 */
#ifndef ROOK_SOLVE_DRIVER_H
#define ROOK_SOLVE_DRIVER_H

#include "rook/solve/core.h"
#include "rook/solve/moves.h"

/* How dd_narrow() picks its targets. */
enum { PICK_HALVE = 0, PICK_EDGES = 1 };

/* The first multiple of the grain gr at or above g. */
static inline int dd_on_grain(int g, int gr)
{
    return gr * ((g + gr - 1) / gr);
}

int dd_narrow(rook_solver *s, int card, int guess, int step, int pick, int wlo, int whi, int *lo, int *hi);
int dd_root_moves(rook_solver *s, dd_moves *mv);
int dd_class_values(rook_solver *s, const dd_moves *mv, int maximize, int root, int *taken, int *bound,
                    int32_t values[64], int32_t *uppers, int from_end);

#endif
