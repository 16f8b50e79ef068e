/* sim.c: the native hand loop of sim.h.
 *
 * Each hand is dealt, bid, exchanged, passed and played through
 * rook_hand_apply, so every rule of the engine holds as in HandState; the
 * loop only asks the seat's policy for an action and records the row.
 */
#include <string.h>
#include "rook/sim.h"

uint64_t rook_hand_seed(uint64_t seed, uint64_t index)
{
    uint64_t z = seed * ROOK_GOLDEN_GAMMA + (index + 1) * ROOK_SEED_STEP;
    z = (z ^ (z >> 30)) * ROOK_MIX_1;
    z = (z ^ (z >> 27)) * ROOK_MIX_2;
    return z ^ (z >> 31);
}

static int64_t seat_or_none(uint8_t s)
{
    return s == ROOK_NO_SEAT ? -1 : s;
}

void rook_view_fill(const rook_hand *h, const rook_rules *r, int seat, uint64_t random, int64_t *view)
{
    memset(view, 0, ROOK_VIEW_LEN * sizeof *view);
    view[ROOK_V_SEAT] = seat;
    view[ROOK_V_PHASE] = h->phase;
    view[ROOK_V_DEALER] = h->dealer;
    view[ROOK_V_TO_MOVE] = seat_or_none(h->to_move);
    view[ROOK_V_DECLARER] = seat_or_none(h->declarer);
    view[ROOK_V_TRUMP] = seat_or_none(h->trump);
    view[ROOK_V_HIGH_BID] = h->high_bid;
    view[ROOK_V_LEADER] = seat_or_none(h->leader);
    view[ROOK_V_TRICK_N] = h->trick_n;
    for (int i = 0; i < 4; i++)
        view[ROOK_V_TRICK0 + i] = i < h->trick_n ? h->trick[i] : -1;
    view[ROOK_V_POINTS0] = h->points[0];
    view[ROOK_V_POINTS1] = h->points[1];
    view[ROOK_V_TRICKS0] = h->tricks_won[0];
    view[ROOK_V_TRICKS1] = h->tricks_won[1];
    view[ROOK_V_REMAINING] = h->remaining;
    view[ROOK_V_HAND] = (int64_t)h->hands[seat];
    view[ROOK_V_PLAYED] = (int64_t)h->played;
    view[ROOK_V_PASSED] = (int64_t)h->passing[seat];
    view[ROOK_V_RANDOM] = (int64_t)random;
    view[ROOK_V_TRICKS_DONE] = h->tricks_done;
    if (h->declarer == seat && r->nest_size && rook_hand_nest_taken(h, r)) { /* T-15: the declarer only */
        view[ROOK_V_NEST] = (int64_t)h->dealt_nest;
        view[ROOK_V_DISCARDED] = (int64_t)h->nest;
    } else if (r->exposed_nest && h->declarer != ROOK_NO_SEAT && h->phase != ROOK_PH_BID
               && h->phase != ROOK_PH_THROWN_IN) { /* H-5: face up to every seat once the bidding ends */
        view[ROOK_V_NEST] = (int64_t)h->dealt_nest;
    }
    if (h->to_move != seat)
        return;
    view[ROOK_V_LEGAL_CARDS] = (int64_t)rook_hand_legal_cards(h, r);
    if (h->phase == ROOK_PH_BID) {
        uint16_t buf[ROOK_N_ACTIONS];
        int n = rook_hand_legal(h, r, buf);
        for (int i = 0; i < n; i++) {
            if (buf[i] == ROOK_A_PASS) {
                view[ROOK_V_CAN_PASS] = 1;
            } else if (buf[i] > ROOK_A_BID) {
                int64_t b = buf[i] - ROOK_A_BID;
                if (!view[ROOK_V_MIN_BID])
                    view[ROOK_V_MIN_BID] = b;
                view[ROOK_V_MAX_BID] = b;
            }
        }
        view[ROOK_V_BID_STEP] = r->bid_step;
    }
}

/* Play one hand from its deal, the seats' agents drawing from g[0..3];
 * fill its row and return ROOK_PH_DONE or ROOK_PH_THROWN_IN (or -1 when an
 * action was refused).  *h is left at the end of the hand. */
int64_t rook_policy_act(const rook_policy *p, const rook_hand *h, const rook_rules *r, const rook_public *pub,
                        rook_rng *g)
{
    if (p->kind == ROOK_POLICY_RANDOM) {
        uint16_t buf[ROOK_N_ACTIONS];
        int n = rook_hand_legal(h, r, buf);
        return buf[rook_rng_below(g, (uint32_t)n)];
    }
    if (p->kind == ROOK_POLICY_HEURISTIC)
        return rook_heur_act(h, r, pub, &p->heur);
    int64_t view[ROOK_VIEW_LEN];
    rook_view_fill(h, r, h->to_move, rook_rng_next(g), view);
    return p->fn(view, ROOK_VIEW_LEN);
}

static int sim_hand(const rook_rules *r, const rook_policy policies[4], uint64_t deal_seed, int dealer,
                    int copy, rook_rng g[4], rook_hand *hp, int64_t *row)
{
    rook_rng dg;
    rook_hand h;
    rook_public pub;
    rook_public_init(&pub);
    rook_rng_seed(&dg, deal_seed);
    rook_hand_deal(&h, r, dealer, &dg); /* T-2 */
    memset(row, 0, ROOK_R_LEN * sizeof *row);
    row[ROOK_R_DEALER] = dealer;
    for (int s = 0; s < 4; s++)
        row[ROOK_R_HAND_0 + s] = (int64_t)h.hands[s];
    row[ROOK_R_NEST] = (int64_t)h.nest;
    while (h.phase != ROOK_PH_DONE && h.phase != ROOK_PH_THROWN_IN) {
        int s = h.to_move;
        int64_t a = rook_policy_act(&policies[(s + copy) & 3], &h, r, &pub, &g[s]);
        rook_hand before = h;
        if (!rook_action_in_range(a) || rook_hand_apply(&h, r, (int)a) != ROOK_OK) {
            row[ROOK_R_ERROR] = 1;
            row[ROOK_R_ERROR_SEAT] = s;
            row[ROOK_R_ERROR_ACTION] = a;
            break;
        }
        rook_public_note(&pub, &before, r, s, (int)a); /* what the action showed */
    }
    for (int s = 0; s < 4; s++)
        row[ROOK_R_BID_0 + s] = pub.bids[s];
    int played = h.phase == ROOK_PH_DONE;
    row[ROOK_R_DECLARER] = played ? seat_or_none(h.declarer) : -1;
    row[ROOK_R_BID] = played ? h.high_bid : 0;
    row[ROOK_R_TRUMP] = played ? seat_or_none(h.trump) : -1;
    row[ROOK_R_POINTS_0] = played ? h.points[0] : 0;
    row[ROOK_R_POINTS_1] = played ? h.points[1] : 0;
    row[ROOK_R_MADE] = played ? h.points[h.declarer & 1] >= h.high_bid : -1; /* T-31, T-32 */
    row[ROOK_R_SCORE_0] = played ? h.score[0] : 0;
    row[ROOK_R_SCORE_1] = played ? h.score[1] : 0;
    *hp = h;
    return row[ROOK_R_ERROR] ? -1 : h.phase;
}

/* Seed the streams of the four seats' agents of a unit (simulate.agent_seed). */
static void seat_streams(uint64_t unit_seed, rook_rng g[4])
{
    for (int s = 0; s < 4; s++)
        rook_rng_seed(&g[s], rook_hand_seed(unit_seed ^ ROOK_AGENT_SALT, (uint64_t)s));
}


void rook_sim_hands(const rook_rules *r, const rook_policy policies[4], uint64_t seed, int64_t first, int64_t n,
                    int duplicate, int64_t *rows)
{
    for (int64_t u = first; u < first + n; u++) {
        uint64_t ds = rook_hand_seed(seed, (uint64_t)u);
        for (int copy = 0; copy <= (duplicate ? 1 : 0); copy++) {
            rook_rng g[4];
            rook_hand h;
            seat_streams(ds, g);
            sim_hand(r, policies, ds, (int)(u & 3), copy, g, &h, rows);
            rows += ROOK_R_LEN;
        }
    }
}

int rook_game_winner(const rook_game_end *e, const int64_t total[2], int declarer)
{
    if (total[0] < e->target && total[1] < e->target)
        return -1;
    int lead;
    if (total[0] != total[1])
        lead = total[0] > total[1] ? 0 : 1; /* T-34 */
    else if (e->tie_to_team_0)
        lead = 0; /* H-6 */
    else
        return -1; /* T-34: another hand */
    if (e->own_bid_only && (declarer == ROOK_NO_SEAT || (declarer & 1) != lead))
        return -1; /* H-7 */
    return lead;
}

int rook_sim_game(const rook_rules *r, const rook_policy policies[4], uint64_t seed, int64_t unit, int copy,
                  int max_hands, const rook_game_end *ending, int64_t *rows, int64_t *game)
{
    uint64_t game_seed = rook_hand_seed(seed, (uint64_t)unit);
    rook_rng g[4];
    rook_hand h;
    seat_streams(game_seed, g);                       /* one set of agents for the game */
    int dealer = (int)(unit & 3), n = 0, winner = -1; /* T-1: the first dealer */
    int64_t total[2] = {0, 0};
    while (n < max_hands) {
        int64_t *row = rows + (int64_t)n * ROOK_R_LEN;
        int end = sim_hand(r, policies, rook_hand_seed(game_seed, (uint64_t)n), dealer, copy, g, &h, row);
        n++;
        if (end < 0)
            break;
        if (end == ROOK_PH_THROWN_IN) /* T-6: the same dealer deals again */
            continue;
        total[0] += h.score[0];
        total[1] += h.score[1];
        winner = rook_game_winner(ending, total, h.declarer);
        if (winner >= 0)
            break;
        dealer = (dealer + 1) & 3; /* T-1: the deal passes left */
    }
    game[0] = n;
    game[1] = total[0];
    game[2] = total[1];
    game[3] = winner;
    return n;
}
