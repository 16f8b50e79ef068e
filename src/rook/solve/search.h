/* search.h: the alpha-beta search of search.c, for the driver (driver.c, team.c).
 *
 * Contract.  Both functions search the solver's current position (set up by
 * the driver) with the window (alpha, beta) and return a fail-soft value:
 * team 0's points from here to the end of the hand, the current trick
 * included; a result <= alpha is an upper bound, >= beta a lower bound.
 * *rel gets the cards (solver bits) whose rank the result rests on.  The
 * position is the same on return.  When a budget runs out, s->aborted is
 * set and the result means nothing.
 */
#ifndef ROOK_SOLVE_SEARCH_H
#define ROOK_SOLVE_SEARCH_H

#include "rook/solve/core.h"

/* Search the current position. */
int dd_search(rook_solver *s, int alpha, int beta, uint64_t *rel);

/* Play `card` (a solver bit, legal for the seat to move), search, undo:
 * team 0's points from before the card. */
int dd_child(rook_solver *s, int card, int alpha, int beta, uint64_t *rel);

/* Forget the search's own memory (killer moves, keys on the path). */
void dd_search_reset(rook_solver *s);

/* The monotonic clock in nanoseconds (the time budgets' clock). */
uint64_t dd_now_ns(void);

#endif
