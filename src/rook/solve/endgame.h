/* endgame.h: the last three tricks of a hand, searched directly (endgame.c).
 *
 * Contract.  Both functions search the solver's current position, a trick
 * boundary with two (dd_last_two) or three (dd_last_three) cards in every
 * hand, with the window (alpha, beta) as dd_search does (search.h): a
 * fail-soft value of team 0's points from here to the end of the hand,
 * and in *rel the cards whose rank it rests on.  Neither checks a budget
 * (the work is bounded: at most 81 first tricks of 16 lines each) and the
 * position is the same on return.  dd_last_two keeps its results in the
 * solver's cache of endings (s->two), which dd_setup() empties with the
 * table.
 */
#ifndef ROOK_SOLVE_ENDGAME_H
#define ROOK_SOLVE_ENDGAME_H

#include "rook/solve/core.h"

/* The cache of last-two-trick results: an entry holds bounds on team 0's
 * points from a boundary of eight cards, exactly keyed by the cards of
 * each seat (or by their order within the lanes, endgame.c), the leader,
 * the tricks won and the end points, and for each bound the cards whose
 * rank it rests on. */
#ifndef DD_TWO_BITS
#define DD_TWO_BITS 15
#endif
#define DD_TWO_ENTRIES (1 << DD_TWO_BITS)
struct dd_two_entry {
    uint64_t key;      /* the eight cards, the leader, team 0's tricks */
    uint64_t rlo, rhi; /* the cards each bound rests on */
    int16_t lo, hi, end;
    uint16_t gen; /* 0: empty */
};

int dd_last_two(const rook_solver *s, int alpha, int beta, uint64_t *rel);
int dd_last_three(rook_solver *s, int alpha, int beta, uint64_t *rel);

#endif
