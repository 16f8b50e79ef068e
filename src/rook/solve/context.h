/* context.h: setting a solver up for a position (context.c).
 *
 * Contract.  dd_setup() maps the position p (card ids) into the solver's
 * layout, resets the counters and the search's own memory, and empties the
 * table when its entries belong to other rules or another trump.  It
 * returns 0, or -2 when the position is beyond what the solver holds (a
 * suit of more than 16 cards, more than DD_BOUND_MAX points, or end points
 * over DD_END_MAX).
 */
#ifndef ROOK_SOLVE_CONTEXT_H
#define ROOK_SOLVE_CONTEXT_H

#include "rook/solve/core.h"

int dd_setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p);

#endif
