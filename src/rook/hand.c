/* hand.c: the hand state machine (see hand.h for the action encoding).
 *
 * Each phase has its own legal-actions and apply code.  Validation happens
 * before the first write, so a refused action leaves the hand as it was.
 */
#include <string.h>
#include "rook/hand.h"

static inline int next_seat(int s)
{
    return (s + 1) & 3;
}

void rook_hand_init(rook_hand *h, const rook_rules *r, int dealer, const uint64_t hands[4], uint64_t nest)
{
    (void)r;
    memset(h, 0, sizeof *h);
    for (int s = 0; s < 4; s++)
        h->hands[s] = hands[s];
    h->nest = nest;
    h->dealt_nest = nest;
    h->phase = ROOK_PH_BID;
    h->dealer = (uint8_t)dealer;
    h->to_move = (uint8_t)next_seat(dealer); /* T-3 */
    h->declarer = ROOK_NO_SEAT;
    h->trump = ROOK_NO_SEAT;
    h->leader = ROOK_NO_SEAT;
    h->last_winner = ROOK_NO_SEAT;
    for (int i = 0; i < 4; i++)
        h->trick[i] = ROOK_NO_CARD;
}

void rook_hand_deal(rook_hand *h, const rook_rules *r, int dealer, rook_rng *g)
{
    uint64_t hands[4], nest;
    rook_deal_masks(r, g, hands, &nest);
    rook_hand_init(h, r, dealer, hands, nest);
}

/* The declarer adds the nest to the hand (T-20, T-21); h->nest then
 * gathers the discards.  Taking it twice adds nothing. */
static void take_nest(rook_hand *h)
{
    h->hands[h->declarer] |= h->nest;
    h->nest = 0;
}

/* Enter the post-bid step post_idx, or the play when none is left (T-7, T-8). */
static void enter_step(rook_hand *h, const rook_rules *r)
{
    if (h->post_idx >= r->n_post_bid) {
        h->phase = ROOK_PH_PLAY;
        h->leader = (uint8_t)(r->first_lead_declarer ? h->declarer : next_seat(h->dealer));
        h->to_move = h->leader;
        h->trick_n = 0;
        return;
    }
    int step = r->post_bid[h->post_idx];
    h->phase = (uint8_t)step;
    if (step == ROOK_PH_NEST) { /* T-20, T-21; under H-3 the nest is in the hand already */
        take_nest(h);
        h->remaining = r->nest_size;
        h->to_move = h->declarer;
    } else if (step == ROOK_PH_TRUMP) { /* T-7 */
        h->to_move = h->declarer;
    } else { /* T-22 */
        h->to_move = (uint8_t)next_seat(h->dealer);
        h->remaining = r->pass_cards;
        h->passes_done = 0;
    }
}

static void end_step(rook_hand *h, const rook_rules *r)
{
    h->post_idx++;
    enter_step(h, r);
}

/* T-14, T-30..T-32: the hand's points and scores, once the last trick is taken. */
static void finish(rook_hand *h, const rook_rules *r)
{
    int last = h->last_winner & 1;
    int nest_team = (r->nest_to_declarer && h->declarer != ROOK_NO_SEAT) ? (h->declarer & 1) : last;
    rook_add_end_points(r, h->points, nest_team, h->nest_points, last, h->tricks_won); /* T-13 */
    h->phase = ROOK_PH_DONE;
    h->to_move = ROOK_NO_SEAT;
    if (h->declarer == ROOK_NO_SEAT)
        return;
    rook_hand_score(r, h->declarer & 1, h->high_bid, h->points, h->score);
}

void rook_hand_play_unchecked(rook_hand *h, const rook_rules *r, int card)
{
    int s = h->to_move;
    uint64_t bit = 1ULL << card;
    h->hands[s] &= ~bit;
    h->played |= bit;
    h->trick[h->trick_n++] = (uint8_t)card;
    if (h->trick_n < 4) {
        h->to_move = (uint8_t)next_seat(s);
        return;
    }
    int w = (h->leader + rook_trick_winner(r, h->trick, 4, h->trump)) & 3; /* T-11 */
    int team = w & 1;
    uint64_t cards =
        (1ULL << h->trick[0]) | (1ULL << h->trick[1]) | (1ULL << h->trick[2]) | (1ULL << h->trick[3]);
    h->won[team] |= cards;
    h->points[team] += r->card_points[h->trick[0]] + r->card_points[h->trick[1]] /* T-12 */
        + r->card_points[h->trick[2]] + r->card_points[h->trick[3]];
    h->tricks_won[team]++;
    h->tricks_done++;
    h->last_winner = (uint8_t)w;
    h->leader = (uint8_t)w; /* T-8 */
    h->to_move = (uint8_t)w;
    h->trick_n = 0;
    for (int i = 0; i < 4; i++)
        h->trick[i] = ROOK_NO_CARD;
    if (!(h->hands[0] | h->hands[1] | h->hands[2] | h->hands[3]))
        finish(h, r);
}

/* T-20, H-4: the cards the declarer may discard now.  Without counters in
 * the nest the cards worth 0 go first; when fewer of them are left than
 * cards still due, the next tier joins: the trump counters (H-4), then every
 * card.  A card is legal exactly when some legal discard of the remaining
 * count contains it, so any order of a legal set of discards is legal. */
static uint64_t discardable(const rook_hand *h, const rook_rules *r)
{
    uint64_t hand = h->hands[h->to_move];
    if (r->discard_counters)
        return hand;
    uint64_t pool = hand & ~r->counters;
    if (rook_popcount(pool) >= h->remaining)
        return pool;
    if (r->discard_trump_counters) {
        pool |= hand & r->counters & rook_trump_mask(r, h->trump);
        if (rook_popcount(pool) >= h->remaining)
            return pool;
    }
    return hand;
}

uint64_t rook_hand_legal_cards(const rook_hand *h, const rook_rules *r)
{
    switch (h->phase) {
    case ROOK_PH_NEST:
        return discardable(h, r);
    case ROOK_PH_PASS:
        return h->hands[h->to_move];
    case ROOK_PH_PLAY:
        return rook_legal_mask(r, h->hands[h->to_move], h->trick_n ? h->trick[0] : ROOK_NO_CARD, h->trump);
    default:
        return 0;
    }
}

/* T-3..T-6: validate a bid or pass; return ROOK_OK or the reason. */
static int check_bid(const rook_hand *h, const rook_rules *r, int action)
{
    int s = h->to_move;
    if (action == ROOK_A_PASS) {
        if (h->high_bid == 0 && r->opener_must_bid)
            return ROOK_E_OPENER_MUST_BID;
        if (h->high_bid == 0 && r->stick_the_dealer && s == h->dealer && rook_popcount(h->passed) == 3)
            return ROOK_E_DEALER_STUCK;
        return ROOK_OK;
    }
    int b = action - ROOK_A_BID;
    if (b < r->min_bid)
        return ROOK_E_BID_BELOW_MIN;
    if (b > r->max_bid)
        return ROOK_E_BID_ABOVE_MAX;
    if (b % r->bid_step)
        return ROOK_E_BID_STEP;
    if (b <= h->high_bid)
        return ROOK_E_BID_NOT_HIGHER;
    /* T-3: without jump bids a raise is one step; the opening bid is any from min_bid */
    if (!r->jump_bids && h->high_bid && b != h->high_bid + r->bid_step)
        return ROOK_E_BID_JUMP;
    return ROOK_OK;
}

static void apply_bid(rook_hand *h, const rook_rules *r, int action)
{
    int s = h->to_move;
    if (action == ROOK_A_PASS) {
        h->passed |= (uint8_t)(1 << s); /* T-4 */
    } else {
        h->high_bid = action - ROOK_A_BID;
        h->declarer = (uint8_t)s;
    }
    int active = 4 - rook_popcount(h->passed);
    if (!h->high_bid && active == 1 && r->dealer_takes_minimum) { /* H-2: the dealer, last to speak */
        h->high_bid = r->min_bid;
        h->declarer = h->dealer;
    }
    if (h->high_bid == r->max_bid || (h->high_bid && active == 1)) { /* T-5 */
        if (r->take_nest_first)                                      /* H-3 */
            take_nest(h);
        h->post_idx = 0;
        enter_step(h, r);
        return;
    }
    if (active == 0) { /* T-6 */
        h->phase = ROOK_PH_THROWN_IN;
        h->to_move = ROOK_NO_SEAT;
        return;
    }
    int t = next_seat(s);
    while ((h->passed >> t) & 1)
        t = next_seat(t);
    h->to_move = (uint8_t)t;
}

int rook_hand_apply(rook_hand *h, const rook_rules *r, int action)
{
    if (action < 0 || action >= ROOK_N_ACTIONS || (action > ROOK_A_PENALTY + 1 && action < ROOK_A_BID))
        return ROOK_E_UNKNOWN_ACTION;
    if (action == ROOK_A_PENALTY || action == ROOK_A_PENALTY + 1) { /* T-35 */
        h->penalty[action - ROOK_A_PENALTY] -= r->penalty_points;
        return ROOK_OK;
    }
    if (h->phase == ROOK_PH_DONE || h->phase == ROOK_PH_THROWN_IN)
        return ROOK_E_HAND_OVER;
    if (action < 64) {
        uint64_t bit = 1ULL << action;
        if (h->phase != ROOK_PH_NEST && h->phase != ROOK_PH_PASS && h->phase != ROOK_PH_PLAY)
            return ROOK_E_WRONG_PHASE;
        uint64_t hand = h->hands[h->to_move];
        if (!(hand & bit))
            return ROOK_E_NOT_IN_HAND;
        uint64_t legal = rook_hand_legal_cards(h, r);
        if (!(legal & bit)) {
            if (h->phase == ROOK_PH_NEST)
                return r->discard_trump_counters ? ROOK_E_DISCARD_TIER : ROOK_E_DISCARD_COUNTER;
            uint64_t follow = hand & rook_follow_mask(r, h->trick[0], h->trump);
            if (follow)
                return (rook_follow_mask(r, h->trick[0], h->trump) == rook_trump_mask(r, h->trump))
                    ? ROOK_E_MUST_FOLLOW_TRUMP
                    : ROOK_E_MUST_FOLLOW;
            return ROOK_E_MUST_TRUMP;
        }
        if (h->phase == ROOK_PH_PLAY) {
            rook_hand_play_unchecked(h, r, action);
        } else if (h->phase == ROOK_PH_NEST) { /* T-20, T-21 */
            h->hands[h->to_move] &= ~bit;
            h->nest |= bit;
            if (--h->remaining == 0) {
                h->nest_points = rook_points(r, h->nest);
                end_step(h, r);
            }
        } else { /* T-22 */
            int s = h->to_move;
            h->hands[s] &= ~bit;
            h->passing[s] |= bit;
            if (--h->remaining == 0) {
                if (++h->passes_done == 4) {
                    for (int t = 0; t < 4; t++) /* to the right: seat - 1 */
                        h->hands[(t + 3) & 3] |= h->passing[t];
                    end_step(h, r);
                } else {
                    h->to_move = (uint8_t)next_seat(s);
                    h->remaining = r->pass_cards;
                }
            }
        }
        return ROOK_OK;
    }
    if (action >= ROOK_A_TRUMP && action < ROOK_A_TRUMP + 4) {
        if (h->phase != ROOK_PH_TRUMP)
            return ROOK_E_WRONG_PHASE;
        h->trump = (uint8_t)(action - ROOK_A_TRUMP);
        end_step(h, r);
        return ROOK_OK;
    }
    /* a bid or a pass */
    if (h->phase != ROOK_PH_BID)
        return ROOK_E_WRONG_PHASE;
    int e = check_bid(h, r, action);
    if (e)
        return e;
    apply_bid(h, r, action);
    return ROOK_OK;
}

static int write_mask(uint64_t m, uint16_t *out)
{
    int n = 0;
    for (; m; m &= m - 1)
        out[n++] = (uint16_t)rook_lsb(m);
    return n;
}

int rook_hand_legal(const rook_hand *h, const rook_rules *r, uint16_t *out)
{
    switch (h->phase) {
    case ROOK_PH_BID: {
        int n = 0;
        if (check_bid(h, r, ROOK_A_PASS) == ROOK_OK)
            out[n++] = ROOK_A_PASS;
        int lo = h->high_bid ? h->high_bid + r->bid_step : r->min_bid;
        int hi = r->jump_bids || !h->high_bid ? r->max_bid : (lo <= r->max_bid ? lo : r->max_bid);
        for (int b = lo; b <= hi; b += r->bid_step)
            out[n++] = (uint16_t)(ROOK_A_BID + b);
        return n;
    }
    case ROOK_PH_TRUMP:
        for (int c = 0; c < 4; c++)
            out[c] = (uint16_t)(ROOK_A_TRUMP + c);
        return 4;
    case ROOK_PH_NEST:
    case ROOK_PH_PASS:
    case ROOK_PH_PLAY:
        return write_mask(rook_hand_legal_cards(h, r), out);
    default:
        return 0;
    }
}

/* A perft under way: its bounds and the nodes it has made so far. */
typedef struct perft_run {
    uint64_t nodes, max_nodes;
    rook_perft_check check;
    void *ctx;
    int stop; /* 0, or why it stopped (ROOK_PERFT_LIMIT, the check's answer) */
} perft_run;

static void perft_rec(const rook_hand *h, const rook_rules *r, int d, int depth, uint64_t *counts,
                      perft_run *run)
{
    uint16_t actions[ROOK_N_ACTIONS];
    int n = rook_hand_legal(h, r, actions);
    for (int i = 0; i < n && !run->stop; i++) {
        if (run->nodes == run->max_nodes) {
            run->stop = ROOK_PERFT_LIMIT;
            return;
        }
        if (++run->nodes % ROOK_PERFT_CHECK_EVERY == 0 && run->check && (run->stop = run->check(run->ctx)))
            return;
        rook_hand child = *h;
        if (h->phase == ROOK_PH_PLAY)
            rook_hand_play_unchecked(&child, r, actions[i]);
        else
            rook_hand_apply(&child, r, actions[i]);
        counts[d]++;
        if (child.phase == ROOK_PH_DONE || child.phase == ROOK_PH_THROWN_IN) {
            for (int k = d + 1; k < depth; k++)
                counts[k]++;
        } else if (d + 1 < depth) {
            perft_rec(&child, r, d + 1, depth, counts, run);
        }
    }
}

int rook_hand_perft(const rook_hand *h, const rook_rules *r, int depth, uint64_t *counts, uint64_t max_nodes,
                    rook_perft_check check, void *ctx)
{
    perft_run run = {0, max_nodes, check, ctx, 0};
    if (depth <= 0)
        return 0;
    if (h->phase == ROOK_PH_DONE || h->phase == ROOK_PH_THROWN_IN)
        return 0;
    perft_rec(h, r, 0, depth, counts, &run);
    return run.stop;
}

/* Whether the declarer has taken the nest into the hand (T-20, T-21). */
int rook_hand_nest_taken(const rook_hand *h, const rook_rules *r)
{
    if (h->phase == ROOK_PH_BID || h->phase == ROOK_PH_THROWN_IN)
        return 0;
    if (h->phase == ROOK_PH_PLAY || h->phase == ROOK_PH_DONE || r->take_nest_first)
        return 1;
    for (int i = 0; i < r->n_post_bid; i++)
        if (r->post_bid[i] == ROOK_PH_NEST)
            return h->post_idx >= i;
    return 0;
}
