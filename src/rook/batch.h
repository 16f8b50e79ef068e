/* batch.h: many random hands in one native loop (no Python objects).
 *
 * Each hand is dealt from the stream (T-2), skips bidding (the trump is
 * fixed, seat `dealer`+1 leads, no declarer), and is played to the end with
 * a uniformly random legal card at every turn (T-8..T-11); the nest goes to
 * the team of the last trick with any bonus (T-13).  Hand i uses the stream
 * seeded by splitmix64(seed + i), so the result for a hand depends only on
 * the seed and its index: splitting a batch gives the same numbers.
 */
#ifndef ROOK_BATCH_H
#define ROOK_BATCH_H

#include <stdint.h>
#include "rook/hand.h"

/* Play hands first..first+n-1; write team 0's and team 1's points of hand i
 * to points[2*(i-first)] and points[2*(i-first)+1]. */
void rook_random_hands(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                       int32_t *points);

/* Return the best playout kernel this CPU runs: 1 the baseline, 2 x86-64-v3. */
int rook_playout_kernels(void);

/* rook_random_hands with a given kernel (1 or 2; 2 falls back to 1 where it is not built). */
void rook_random_hands_with(int kernel, const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                            int32_t *points);

/* Play one random hand with the stream g, from the deal, and leave it in *h. */
void rook_random_hand(rook_hand *h, const rook_rules *r, int trump, int dealer, rook_rng *g);

#endif
