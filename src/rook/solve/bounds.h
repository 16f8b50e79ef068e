/* bounds.h: points a team is sure of at a trick boundary, whatever is played.
 *
 * Contract.  dd_sure_points() sets sure[t] to points team t takes for
 * certain from the current trick boundary and returns the cards that bound
 * rests on (to be kept in the table).  Team 0's value then lies in
 * [sure[0], total - sure[1]].
 *
 * The top trump still out wins whatever trick it falls in, and so does each
 * trump below it while the same team holds the whole run (a higher trump in
 * the same trick is then the team's own): their points are sure.  The team
 * holding every trump still out also takes the last trick (T-13: the end
 * points), since a seat with trumps and other cards is never made to play
 * its last trump early (only that team can lead trumps) and a seat with only
 * trumps keeps one to the end; not so when a void seat must trump (T-9).
 * (A top card of another suit is not sure: its holder may have to discard
 * it on a trick of another suit.)
 */
#ifndef ROOK_SOLVE_BOUNDS_H
#define ROOK_SOLVE_BOUNDS_H

#include "rook/solve/core.h"

static inline uint64_t dd_sure_points(const rook_solver *s, int sure[2])
{
    uint64_t team0 = s->hands[0] | s->hands[2];
    uint64_t trumps = dd_in_hands(s) & s->tlane;
    uint64_t run = 0;
    sure[0] = sure[1] = 0;
    int owner = -1;
    for (uint64_t m = trumps; m;) {
        int b = rook_msb(m);
        m &= ~(1ULL << b);
        int t = (team0 >> b) & 1 ? 0 : 1;
        if (owner < 0)
            owner = t;
        else if (t != owner)
            break;
        sure[t] += s->pts[b];
        run |= 1ULL << b;
    }
    if (owner >= 0 && run == trumps && !s->must_trump && s->end_points > 0)
        sure[owner] += s->end_points;
    return run;
}

#endif
