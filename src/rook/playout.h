/* playout.h: the body of the random-playout kernel (batch.h), compiled once
 * per instruction set.  A file that includes it first defines
 * ROOK_PLAYOUT_FN, the name of the batch function to generate; batch.c
 * builds it for the baseline target and batch_v3.c for x86-64-v3 (BMI2:
 * rook_select_bit is then one bit deposit), and rook_random_hands picks one
 * at run time.  Both draw the same numbers and give the same points.
 */
#include "rook/batch.h"

#ifndef ROOK_PLAYOUT_FN
#error "define ROOK_PLAYOUT_FN before including rook/playout.h"
#endif

/* Play one random hand from the deal; write team 0's and team 1's points. */
static inline void random_hand_points(const rook_rules *r, int trump, int dealer, rook_rng *g, int32_t *out)
{
    uint64_t hands[4], nest;
    rook_deal_masks(r, g, hands, &nest); /* T-2 */
    int32_t points[2] = {0, 0};
    uint8_t tricks_won[2] = {0, 0};
    int leader = (dealer + 1) & 3; /* T-8 */
    for (int t = 0; t < r->hand_size; t++) {
        uint8_t cards[4];
        int seat = leader;
        for (int i = 0; i < 4; i++) {
            uint64_t legal = rook_legal_mask(r, hands[seat], i ? cards[0] : ROOK_NO_CARD, trump);
            int k = (int)rook_rng_below(g, (uint32_t)rook_popcount(legal));
            int c = rook_select_bit(legal, k);
            hands[seat] &= ~(1ULL << c);
            cards[i] = (uint8_t)c;
            seat = (seat + 1) & 3;
        }
        leader = (leader + rook_trick_winner(r, cards, 4, trump)) & 3; /* T-11 */
        points[leader & 1] += r->card_points[cards[0]] + r->card_points[cards[1]] + r->card_points[cards[2]]
            + r->card_points[cards[3]]; /* T-12 */
        tricks_won[leader & 1]++;
    }
    rook_add_end_points(r, points, leader & 1, rook_points(r, nest), leader & 1, tricks_won);
    out[0] = points[0];
    out[1] = points[1];
}

void ROOK_PLAYOUT_FN(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n, int32_t *points)
{
    rook_rng g;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = seed + (uint64_t)(first + i);
        rook_rng_seed(&g, rook_splitmix64(&x));
        random_hand_points(r, trump, (int)((first + i) & 3), &g, points + 2 * i);
    }
}
