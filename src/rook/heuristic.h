/* heuristic.h: the native twin of rook_core/bots/heuristic.py (HeuristicAgent).
 *
 * The same decisions, made from the same facts: the seat's hand, the cards
 * played, the declarer's own discards, the current trick, the suits each
 * seat showed it lacks (T-9, T-10) and which seats have bid (T-3).  The
 * Python agent reads them from its observation; the native loop keeps the
 * public ones in a rook_public as the hand goes.  Every quantity is an
 * integer, so the two agree exactly (tests/sim/test_sim_native.py compares
 * whole simulations).  Ties go to the lowest card id, as Python's min/max
 * over cards in ascending order do.
 */
#ifndef ROOK_HEURISTIC_H
#define ROOK_HEURISTIC_H

#include <stdint.h>
#include "rook/hand.h"

/* What every seat has seen so far in a hand. */
typedef struct rook_public {
    uint64_t lacks[4]; /* cards each seat showed it cannot hold (T-9, T-10) */
    int32_t bids[4];   /* each seat's highest bid, 0 if none (T-3) */
} rook_public;

typedef struct rook_heur_params {
    int32_t total_points;   /* T-14: the variant's points in a hand */
    int32_t bid_margin;     /* whole points added to the estimate before bidding */
    int32_t bird_threshold; /* the least trick value worth the bird */
    int32_t nest_bonus;     /* hundredths of a point the nest adds to a declarer's hand */
} rook_heur_params;

/* Reset *pub for a new hand. */
void rook_public_init(rook_public *pub);

/* Record in *pub what seat `seat` shows by taking `action` in *h (before it is applied). */
void rook_public_note(rook_public *pub, const rook_hand *h, const rook_rules *r, int seat, int action);

/* Return HeuristicAgent.estimate_units: the hand's value with `trump`, in hundredths of a point. */
int64_t rook_heur_estimate(const rook_rules *r, const rook_heur_params *p, uint64_t hand, int trump);

/* Return the heuristic's action for the seat to move in *h. */
int rook_heur_act(const rook_hand *h, const rook_rules *r, const rook_public *pub, const rook_heur_params *p);

/* Play the hand on from *h to its end with the heuristic at every seat, *pub
 * holding what was public so far (a rollout of PIMC); write both teams'
 * final points (T-14) to points[2] and return 0, or return -1 when an action
 * was refused (a bug) or the hand has no play left to reach. */
int rook_heur_playout(const rook_hand *h, const rook_rules *r, const rook_public *pub,
                      const rook_heur_params *p, int32_t points[2]);

#endif
