/* batch.c: the random-playout loop of batch.h. */
#include "rook/batch.h"

void rook_random_hand(rook_hand *h, const rook_rules *r, int trump, int dealer, rook_rng *g)
{
    rook_hand_deal(h, r, dealer, g);
    h->phase = ROOK_PH_PLAY;
    h->trump = (uint8_t)trump;
    h->nest_points = rook_points(r, h->nest);
    h->leader = h->to_move = (uint8_t)((dealer + 1) & 3);
    while (h->phase == ROOK_PH_PLAY) {
        uint64_t legal = rook_legal_mask(r, h->hands[h->to_move],
                                         h->trick_n ? h->trick[0] : ROOK_NO_CARD, trump);
        int k = (int)rook_rng_below(g, (uint32_t)rook_popcount(legal));
        rook_hand_play_unchecked(h, r, rook_select_bit(legal, k));
    }
}

void rook_random_hands(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                       int32_t *points)
{
    rook_hand h;
    rook_rng g;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = seed + (uint64_t)(first + i);
        rook_rng_seed(&g, rook_splitmix64(&x));
        rook_random_hand(&h, r, trump, (int)((first + i) & 3), &g);
        points[2 * i] = h.points[0];
        points[2 * i + 1] = h.points[1];
    }
}
