/* batch.c: the random-playout loop of batch.h.
 *
 * rook_random_hands runs a lean copy of the play: the hands live in four
 * local masks, each turn is one legal-mask kernel call, one bounded random
 * draw and one bit selection, and a trick costs one trick-winner call.  It
 * draws from the stream exactly as rook_random_hand does through the full
 * hand state (the same deal, then one draw per card in play order), so the
 * two give the same points; tests/test_playout.py checks this on every
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
        uint64_t legal = rook_legal_mask(r, h->hands[h->to_move],
                                         h->trick_n ? h->trick[0] : ROOK_NO_CARD, trump);
        int k = (int)rook_rng_below(g, (uint32_t)rook_popcount(legal));
        rook_hand_play_unchecked(h, r, rook_select_bit(legal, k));
    }
}

/* Play one random hand from the deal; write team 0's and team 1's points. */
static void random_hand_points(const rook_rules *r, int trump, int dealer, rook_rng *g,
                               int32_t *out)
{
    uint64_t hands[4], nest;
    rook_deal_masks(r, g, hands, &nest);                        /* T-2 */
    int32_t points[2] = {0, 0};
    uint8_t tricks_won[2] = {0, 0};
    int leader = (dealer + 1) & 3;                              /* T-8 */
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
        leader = (leader + rook_trick_winner(r, cards, 4, trump)) & 3;   /* T-11 */
        points[leader & 1] += r->card_points[cards[0]] + r->card_points[cards[1]]
                            + r->card_points[cards[2]] + r->card_points[cards[3]];  /* T-12 */
        tricks_won[leader & 1]++;
    }
    rook_add_end_points(r, points, leader & 1, rook_points(r, nest), leader & 1, tricks_won);
    out[0] = points[0];
    out[1] = points[1];
}

void rook_random_hands(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n,
                       int32_t *points)
{
    rook_rng g;
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = seed + (uint64_t)(first + i);
        rook_rng_seed(&g, rook_splitmix64(&x));
        random_hand_points(r, trump, (int)((first + i) & 3), &g, points + 2 * i);
    }
}
