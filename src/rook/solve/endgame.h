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
 * rank it rests on, as places among the eight.  16 bytes, 4,096 entries:
 * 64 KiB stay in the core's own cache, where a bigger cache's better
 * hit rate (35% of lookups here, 47% with 32,768) cost more in misses
 * than it saved. */
#ifndef DD_TWO_BITS
#define DD_TWO_BITS 12
#endif
#define DD_TWO_ENTRIES (1 << DD_TWO_BITS)
#define DD_TWO_GENS    64   /* generations in an entry's tag, 0 meaning empty */
#define DD_TWO_END_MAX 1023 /* end points an entry's tag holds */
struct dd_two_entry {
    uint64_t key;     /* the eight cards, the leader, team 0's tricks */
    int16_t lo, hi;   /* the bounds */
    uint16_t tag;     /* the end points (bits 0..9) and the generation (10..15) */
    uint8_t rlo, rhi; /* the cards each bound rests on: bit i, the i-th of the eight */
};

int dd_last_two(const rook_solver *s, int alpha, int beta, uint64_t *rel);
int dd_last_three(rook_solver *s, int alpha, int beta, uint64_t *rel);

#endif
