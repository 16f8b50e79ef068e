/* hand.h: the state machine of one trick-taking hand (RULES.md T-1..T-35).
 *
 * A `rook_hand` is a plain value (no pointers): copying it is a snapshot, so
 * undo is "restore the copy taken before apply" and clone is a copy.  The
 * phases are explicit (deal -> bid -> nest/trump/pass in the variant's order
 * -> play -> done, or thrown in when all pass).  Every step is one action from
 * a single integer space:
 *
 *   0..63                 a card id: discard to the nest (T-20/T-21), put a card
 *                         aside to pass (T-22), or play it (T-8..T-11)
 *   ROOK_A_PASS           pass in the bidding (T-4)
 *   ROOK_A_TRUMP + c      name color c trump (T-7)
 *   ROOK_A_PENALTY + t    record a penalty against team t (T-35); any phase,
 *                         not in the legal list, does not change the turn
 *   ROOK_A_BID + amount   bid `amount` points (T-3)
 *
 * apply() validates fully and returns a ROOK_E_* code without touching the
 * state when it refuses; the _unchecked paths trust their caller.
 */
#ifndef ROOK_HAND_H
#define ROOK_HAND_H

#include <stdint.h>
#include <string.h>
#include "rook/rules.h"
#include "rook/rng.h"

/* The action space (ROOK_A_*, ROOK_N_ACTIONS, ROOK_NO_SEAT), the phases
 * (ROOK_PH_*) and the codes of rook_hand_apply (ROOK_E_*) are generated into
 * rook/layout.h by tools/gen_layout.py. */

typedef struct rook_hand {
    uint64_t hands[4];   /* each seat's cards now */
    uint64_t nest;       /* before the exchange the dealt nest, after it the discards */
    uint64_t dealt_nest; /* the nest as dealt (known to the declarer, T-15) */
    uint64_t played;     /* every card played to a trick, the current one included */
    uint64_t won[2];     /* cards of the tricks each team took */
    uint64_t passing[4]; /* T-22: cards each seat put aside to pass */
    int32_t points[2];   /* points taken (counters; at the end nest and bonuses too) */
    int32_t score[2];    /* T-30..T-32: the hand's score once done (no penalties) */
    int32_t penalty[2];  /* T-35: penalties recorded this hand (negative) */
    int32_t high_bid;    /* T-3: the high bid, 0 before the first bid */
    int32_t nest_points; /* T-13: points of the discarded nest */
    uint8_t phase;       /* ROOK_PH_* */
    uint8_t dealer;
    uint8_t to_move;
    uint8_t declarer;  /* ROOK_NO_SEAT until bidding ends (or in a bare position) */
    uint8_t trump;     /* ROOK_NO_SEAT until named */
    uint8_t passed;    /* T-4: bit s set once seat s passed */
    uint8_t post_idx;  /* index of the current post-bid step */
    uint8_t remaining; /* cards still to discard / pass for the seat to move */
    uint8_t leader;    /* seat that led the current trick */
    uint8_t trick_n;   /* cards in the current trick */
    uint8_t trick[4];  /* the current trick, in play order */
    uint8_t tricks_won[2];
    uint8_t tricks_done;
    uint8_t last_winner; /* winner of the last completed trick */
    uint8_t passes_done; /* T-22: seats that finished passing */
} rook_hand;

/* Add the points that come at the end of the play to points[2] (T-13,
 * section 4): the nest's points to nest_team, the last-trick bonus to
 * last_team, and the most-tricks bonus to the team with more tricks. */
static inline void rook_add_end_points(const rook_rules *r, int32_t points[2], int nest_team,
                                       int32_t nest_points, int last_team, const uint8_t tricks_won[2])
{
    points[nest_team] += nest_points;
    points[last_team] += r->last_trick_bonus;
    if (tricks_won[0] != tricks_won[1])
        points[tricks_won[0] > tricks_won[1] ? 0 : 1] += r->most_tricks_bonus;
}

/* The two teams' scores of a played hand (T-30 .. T-32, H-1): the defenders
 * score their points; the declaring team `team` scores its points or the
 * bid when it made `bid`, and loses the bid or its points when set; with
 * moon_score, a team that took every point scores moon_score instead. */
static inline void rook_hand_score(const rook_rules *r, int team, int32_t bid, const int32_t points[2],
                                   int32_t score[2])
{
    score[1 - team] = points[1 - team]; /* T-30 */
    if (points[team] >= bid)            /* T-31 */
        score[team] = r->made_scores_bid ? bid : points[team];
    else /* T-32 */
        score[team] = r->set_loses_points ? -points[team] : -bid;
    for (int t = 0; t < 2 && r->moon_score; t++) /* H-1: every point of the hand to one team */
        if (points[t] > 0 && points[1 - t] == 0)
            score[t] = r->moon_score;
}

/* Deal the deck from the random stream g: hands[0..3] and *nest (T-2).
 * Inline, so that each kernel compiles it for its own instruction set. */
static inline void rook_deal_masks(const rook_rules *r, rook_rng *g, uint64_t hands[4], uint64_t *nest)
{
    uint8_t deck[64];
    int n = r->deck_n;
    memcpy(deck, r->deck_cards, (size_t)n);
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates (T-2) */
        int j = (int)rook_rng_below(g, (uint32_t)(i + 1));
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    int k = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t m = 0;
        for (int i = 0; i < r->hand_size; i++)
            m |= 1ULL << deck[k++];
        hands[s] = m;
    }
    uint64_t m = 0;
    while (k < n)
        m |= 1ULL << deck[k++];
    *nest = m;
}

/* Set *h to the start of a hand dealt as `hands`/`nest` by `dealer` (T-2, T-3). */
void rook_hand_init(rook_hand *h, const rook_rules *r, int dealer, const uint64_t hands[4], uint64_t nest);

/* Deal a hand from the random stream g and set *h to its start (T-2). */
void rook_hand_deal(rook_hand *h, const rook_rules *r, int dealer, rook_rng *g);

/* Return ROOK_OK and apply `action`, or return an error code and leave *h unchanged. */
int rook_hand_apply(rook_hand *h, const rook_rules *r, int action);

/* Apply a card the caller knows to be legal in the play phase. */
void rook_hand_play_unchecked(rook_hand *h, const rook_rules *r, int card);

/* Write the legal actions to out (ascending) and return their count.
 * out must hold ROOK_N_ACTIONS entries. The penalty actions are not listed. */
int rook_hand_legal(const rook_hand *h, const rook_rules *r, uint16_t *out);

/* Return whether the declarer has taken the nest into the hand (T-20, T-21):
 * what the declarer alone may then see of it (T-15). */
int rook_hand_nest_taken(const rook_hand *h, const rook_rules *r);

/* Return the mask of legal card actions (0 outside the card phases). */
uint64_t rook_hand_legal_cards(const rook_hand *h, const rook_rules *r);

/* perft's bounds: it makes at most max_nodes positions (one per action
 * applied), and every ROOK_PERFT_CHECK_EVERY positions it calls check(ctx)
 * (when not NULL), whose positive answer stops it (the host's Ctrl-C). */
typedef int (*rook_perft_check)(void *ctx);
#define ROOK_PERFT_LIMIT       (-1)
#define ROOK_PERFT_CHECK_EVERY (1u << 20)

/* Add to counts[k] the number of legal action sequences of length k+1 from h,
 * k < depth; a sequence that ends the hand counts at every deeper k too.
 * Return 0 when done, ROOK_PERFT_LIMIT when it needed more than max_nodes
 * positions, or check's positive answer; the counts of a stopped perft are partial. */
int rook_hand_perft(const rook_hand *h, const rook_rules *r, int depth, uint64_t *counts, uint64_t max_nodes,
                    rook_perft_check check, void *ctx);

#endif
