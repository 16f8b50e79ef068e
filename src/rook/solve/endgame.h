/* endgame.h: the last three tricks of a hand, searched directly (endgame.c).
 *
 * Contract.  Both functions search the solver's current position, a trick
 * boundary with two (dd_last_two) or three (dd_last_three) cards in every
 * hand, with the window (alpha, beta) as dd_search does (search.h): a
 * fail-soft value of team 0's points from here to the end of the hand,
 * and in *rel the cards whose rank it rests on.  Neither checks a budget
 * (the work is bounded: at most 81 first tricks of 16 lines each) and the
 * position is the same on return.  Neither keeps anything between calls:
 * the table stores dd_last_three's results at twelve cards (search.c).
 */
#ifndef ROOK_SOLVE_ENDGAME_H
#define ROOK_SOLVE_ENDGAME_H

#include "rook/solve/core.h"

int dd_last_two(const rook_solver *s, int alpha, int beta, uint64_t *rel);
int dd_last_three(rook_solver *s, int alpha, int beta, uint64_t *rel);

#endif
