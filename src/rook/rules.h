/* rules.h: the trick rules of RULES.md as branch-light kernels over 64-bit masks.
 *
 * Every native path (the hand state machine, perft, the batch loop, the hand
 * loop of sim.c) reaches these three kernels and nothing else for the rules
 * of trick play; the solver restates them in its own card layout
 * (solve/core.h), and the tests hold its answers to exhaustive minimax:
 *
 *   rook_legal_mask   T-9, T-10: which cards of a hand may be played to a trick.
 *   rook_trick_winner T-11: which card of a (possibly partial) trick wins.
 *   rook_points       T-12: the counter points in a set of cards.
 *
 * A variant reaches them as a `rook_rules` table built once from the Python
 * `Variant` (rook_core/_native/rules.pyx): masks, an order table and counter
 * groups.  The kernels never branch on a preset.
 *
 * "Special trumps" are the cards that belong to the trump color whatever
 * their printed color: the bird (T-10) and any permanent trump of section 4.
 * The strength table orders cards within a color; special trumps are placed
 * in the trump order (C-4).  Winning keys are 512 + strength for a trump,
 * 256 + strength for a card of the led color, 0 otherwise, so the highest
 * key wins and cards of other colors never do (T-11).
 */
#ifndef ROOK_RULES_H
#define ROOK_RULES_H

#include <stdint.h>
#include "rook/layout.h"
#include "rook/bits.h"
#include "rook/check.h"

#define ROOK_MAX_COUNTER_GROUPS 8
#define ROOK_MAX_POST_STEPS     3

/* The steps after bidding (T-7) are phase codes ROOK_PH_* of rook/layout.h. */

typedef struct rook_rules {
    uint64_t deck;           /* C-3: every card of the deck */
    uint64_t special_trumps; /* T-10: always trump (bird, permanent trumps) */
    uint64_t anytime;        /* T-9: may be played instead of following (bird_anytime) */
    uint64_t counters;       /* T-12: cards worth points */
    uint64_t counter_masks[ROOK_MAX_COUNTER_GROUPS]; /* T-12: cards of one point value */
    int32_t counter_values[ROOK_MAX_COUNTER_GROUPS];
    int32_t n_counter_groups;
    uint8_t strength[64];                  /* C-4: order within the color (special trumps: within trump) */
    uint8_t must_trump;                    /* T-9 */
    uint8_t hand_size;                     /* T-2 */
    uint8_t nest_size;                     /* T-2 */
    uint8_t jump_bids;                     /* T-3 */
    int32_t min_bid, bid_step, max_bid;    /* T-3 */
    uint8_t opener_must_bid;               /* T-6 */
    uint8_t stick_the_dealer;              /* section 4 */
    uint8_t dealer_takes_minimum;          /* H-2: three passes make the dealer declare at min_bid */
    uint8_t post_bid[ROOK_MAX_POST_STEPS]; /* T-7: phase codes in order */
    uint8_t n_post_bid;
    uint8_t take_nest_first;        /* H-3: the nest joins the hand when the bidding ends */
    uint8_t discard_counters;       /* T-20 */
    uint8_t discard_trump_counters; /* H-4: short of cards worth 0, trump counters go next */
    uint8_t exposed_nest;           /* H-5: every seat sees the dealt nest once the bidding ends */
    uint8_t pass_cards;             /* T-22 */
    uint8_t first_lead_declarer;    /* T-8 / section 4 */
    uint8_t nest_to_declarer;       /* T-13 / section 4 */
    uint8_t made_scores_bid;        /* T-31 */
    uint8_t set_loses_points;       /* T-32 */
    int32_t last_trick_bonus;       /* T-13 */
    int32_t most_tricks_bonus;      /* section 4 */
    int32_t penalty_points;         /* T-35 */
    int32_t moon_score;             /* H-1: the score of a team that takes every point (0: off) */
    /* Derived by rook_rules_finish() from the fields above: */
    int16_t card_points[64]; /* T-12: points of each card */
    uint64_t trumps[4];      /* T-10: the trump cards for each trump color */
    uint64_t follow[4][64];  /* T-9, T-10: cards that follow a led card, per trump */
    uint8_t deck_cards[64];  /* C-3: the deck's card ids, lowest first (the order of a fresh deal) */
    uint8_t deck_n;          /* C-3: cards in the deck */
} rook_rules;

/* Fill the derived tables of r (card_points, trumps, follow) from its fields.
 * T-10: the special trumps belong to the trump color; a led special trump or
 * trump asks for every trump; any other led card asks for its own color. */
static inline void rook_rules_finish(rook_rules *r)
{
    r->deck_n = 0;
    for (uint64_t m = r->deck; m; m &= m - 1)
        r->deck_cards[r->deck_n++] = (uint8_t)__builtin_ctzll(m);
    for (int c = 0; c < 64; c++) {
        r->card_points[c] = 0;
        for (int g = 0; g < r->n_counter_groups; g++)
            if ((r->counter_masks[g] >> c) & 1)
                r->card_points[c] = (int16_t)r->counter_values[g];
    }
    for (int t = 0; t < 4; t++) {
        r->trumps[t] = (ROOK_BB_COLOR(t) & ~r->special_trumps) | r->special_trumps;
        for (int led = 0; led < 64; led++) {
            int special = (int)((r->special_trumps >> led) & 1);
            if (special || (led != ROOK_BIRD && ROOK_COLOR_OF(led) == t))
                r->follow[t][led] = r->trumps[t];
            else if (led == ROOK_BIRD)
                r->follow[t][led] = 0; /* only reached when the bird is not special */
            else
                r->follow[t][led] = ROOK_BB_COLOR(ROOK_COLOR_OF(led)) & ~r->special_trumps;
        }
    }
}

/* Return the cards that are trump when `trump` (0..3) is named (T-10). */
static inline uint64_t rook_trump_mask(const rook_rules *r, int trump)
{
    return r->trumps[trump];
}

/* Return the cards that follow `led` (a card id) when `trump` is named:
 * its color, or all trumps when a trump or special trump was led (T-10). */
static inline uint64_t rook_follow_mask(const rook_rules *r, int led, int trump)
{
    return r->follow[trump][led];
}

/* Return the legal cards of `hand` for a trick whose first card is `led`
 * (ROOK_NO_CARD when the player leads).  T-9, T-10. Precondition: hand != 0
 * or the result is 0. */
static inline uint64_t rook_legal_mask(const rook_rules *r, uint64_t hand, int led, int trump)
{
    if (led == ROOK_NO_CARD)
        return hand;
    uint64_t follow = hand & rook_follow_mask(r, led, trump);
    if (follow)
        return follow | (hand & r->anytime);
    if (r->must_trump) {
        uint64_t t = hand & rook_trump_mask(r, trump);
        if (t)
            return t;
    }
    return hand;
}

/* Return the index (0..n-1) of the card that wins the trick `cards[0..n-1]`,
 * cards[0] being the led card (T-11). Precondition: 1 <= n <= 4. */
static inline int rook_trick_winner(const rook_rules *r, const uint8_t *cards, int n, int trump)
{
    ROOK_ASSERT(n >= 1 && n <= 4);
    uint64_t tm = rook_trump_mask(r, trump);
    uint64_t fm = rook_follow_mask(r, cards[0], trump);
    /* key * 4 + (3 - i): the highest packed key is the winner; keys never tie
     * but at 0, and the led card's key is never 0.  No branch on the cards. */
    int best = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        int t = (int)((tm >> c) & 1), f = (int)((fm >> c) & 1) & ~t;
        int key = (t << 9) + (f << 8) + ((t | f) ? r->strength[c] : 0);
        int packed = key * 4 + (3 - i);
        best = packed > best ? packed : best;
    }
    return 3 - (best & 3);
}

/* Return the counter points of the cards in `mask` (T-12). */
static inline int rook_points(const rook_rules *r, uint64_t mask)
{
    int p = 0;
    for (int g = 0; g < r->n_counter_groups; g++)
        p += r->counter_values[g] * rook_popcount(mask & r->counter_masks[g]);
    return p;
}

#endif
