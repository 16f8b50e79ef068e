/* batch.c: the random-playout loop of batch.h.
 *
 * rook_random_hands runs a lean copy of the play (playout.h, built for two
 * instruction sets and chosen at run time): the hands live in four
 * local masks, each turn is one legal-mask kernel call, one bounded random
 * draw and one bit selection, and a trick costs one trick-winner call.  It
 * draws from the stream exactly as rook_random_hand does through the full
 * hand state (the same deal, then one draw per card in play order), so the
 * two give the same points; tests/sim/test_playout.py checks this on every
 * preset.
 */
#include "rook/batch.h"

void rook_random_hand(rook_hand *h, const rook_rules *r, int trump, int dealer, rook_rng *g)
{
    rook_hand_deal(h, r, dealer, g);
    h->phase = ROOK_PH_PLAY;
    h->trump = (uint8_t)trump;
    h->nest_points = rook_points(r, h->nest);
    h->leader = h->to_move = (uint8_t)((dealer + 1) & 3);
    while (h->phase == ROOK_PH_PLAY) {
        uint64_t legal =
            rook_legal_mask(r, h->hands[h->to_move], h->trick_n ? h->trick[0] : ROOK_NO_CARD, trump);
        int k = (int)rook_rng_below(g, (uint32_t)rook_popcount(legal));
        rook_hand_play_unchecked(h, r, rook_select_bit(legal, k));
    }
}

#define ROOK_PLAYOUT_FN rook_random_hands_base
#include "rook/playout.h"

#ifdef ROOK_HAVE_V3
void rook_random_hands_v3(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                          int32_t *points);
#endif

int rook_playout_kernels(void)
{
#ifdef ROOK_HAVE_V3
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"))
        return 2;
#endif
    return 1;
}

void rook_random_hands_with(int kernel, const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                            int32_t *points)
{
#ifdef ROOK_HAVE_V3
    if (kernel == 2) {
        rook_random_hands_v3(r, trump, seed, first, n, points);
        return;
    }
#else
    (void)kernel;
#endif
    rook_random_hands_base(r, trump, seed, first, n, points);
}

void rook_random_hands(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n, int32_t *points)
{
    rook_random_hands_with(rook_playout_kernels(), r, trump, seed, first, n, points);
}
