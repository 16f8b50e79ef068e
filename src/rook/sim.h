/* sim.h: whole hands between native policies, in one loop without Python.
 *
 * A policy chooses an action for the seat to move.  The built-in random
 * policy draws uniformly from the seat's legal actions (rook_hand_legal,
 * ascending) with its own stream; the built-in heuristic policy is
 * heuristic.h, fed the public facts the loop keeps; a callback policy (a C function, e.g. a
 * Numba @cfunc) reads a *view*: ROOK_VIEW_LEN int64 slots holding what the
 * seat may know (T-15), filled by rook_view_fill, and returns an action.
 * An action the rules refuse stops the hand with an error, the state as it
 * was (rook_hand_apply changes nothing when it refuses).
 *
 * Seeds follow rook_core/sim/simulate.py exactly, so a native run and a Python
 * run of the same agents give the same rows: unit u of a run with seed S is
 * dealt from hand_seed(S, u) by dealer u % 4; the agent at seat s has the
 * stream seeded by agent_seed(S, u, s) = hand_seed(hand_seed(S, u) ^
 * ROOK_AGENT_SALT, s).  In duplicate mode copy 1 replays the deal with seat s
 * played by agent (s + 1) % 4 (the streams stay with the seats).
 */
#ifndef ROOK_SIM_H
#define ROOK_SIM_H

#include <stdint.h>
#include "rook/hand.h"
#include "rook/heuristic.h"

/* The slots of a view (ROOK_V_*, ROOK_VIEW_LEN), the columns of a result row
 * (ROOK_R_*, ROOK_R_LEN) and the kinds of policy (ROOK_POLICY_*) are generated
 * into rook/layout.h by tools/gen_layout.py. */

/* A callback policy: return an action for the view's seat. */
typedef int64_t (*rook_policy_fn)(const int64_t *view, int64_t len);

typedef struct rook_policy {
    int kind;              /* ROOK_POLICY_* */
    rook_policy_fn fn;     /* for ROOK_POLICY_CALLBACK */
    rook_heur_params heur; /* for ROOK_POLICY_HEURISTIC (heuristic.h) */
} rook_policy;

/* The action policy p chooses for the seat to move in *h: random draws
 * from g, the heuristic reads the public facts *pub, a callback reads the
 * seat's view (its random slot drawn from g). */
int64_t rook_policy_act(const rook_policy *p, const rook_hand *h, const rook_rules *r, const rook_public *pub,
                        rook_rng *g);

/* Whether a policy's answer may be applied at all (an action id, not a T-35 penalty). */
static inline int rook_action_in_range(int64_t a)
{
    return a >= 0 && a < ROOK_N_ACTIONS && a != ROOK_A_PENALTY && a != ROOK_A_PENALTY + 1;
}

/* Return the seed of hand `index` of a game or run seeded `seed` (rook_core.game.hand_seed). */
uint64_t rook_hand_seed(uint64_t seed, uint64_t index);

/* Fill view[0..ROOK_VIEW_LEN-1] with what `seat` may know of *h (T-15);
 * `random` goes to ROOK_V_RANDOM. */
void rook_view_fill(const rook_hand *h, const rook_rules *r, int seat, uint64_t random, int64_t *view);

/* Play units first..first+n-1 of a run (copies 0 and 1 of each when
 * duplicate), policies[i] being agent i; write one row of ROOK_R_LEN int64
 * per hand played to rows, in order.  A refused action ends its hand with
 * ROOK_R_ERROR = 1 and the seat and action; the other columns then hold the
 * hand as far as it got. */
void rook_sim_hands(const rook_rules *r, const rook_policy policies[4], uint64_t seed, int64_t first, int64_t n,
                    int duplicate, int64_t *rows);

/* How a game ends (T-33, T-34, H-6, H-7). */
typedef struct rook_game_end {
    int32_t target;        /* T-33 */
    uint8_t tie_to_team_0; /* H-6: equal scores at or above the target: seats 0 and 2 win */
    uint8_t own_bid_only;  /* H-7: a team wins only at the end of a hand it declared */
} rook_game_end;

/* Return the team that has won after a played hand (totals `total`, the hand
 * declared by `declarer`, ROOK_NO_SEAT if none), or -1 while play goes on:
 * at or above the target the higher total wins (T-34), a tie goes on or goes
 * to team 0 (H-6), and with H-7 only the team that declared may win. */
int rook_game_winner(const rook_game_end *e, const int64_t total[2], int declarer);

/* Play game `unit` of a run seeded `seed` (copy 0 or 1) until it ends as
 * *ending says (T-33, T-34, H-6, H-7) or after max_hands hands: rook_core.game.Game(variant, hand_seed(seed,
 * unit), first_dealer=unit % 4), hand k dealt from hand_seed(that, k), the
 * deal passing left after a played hand and staying after a thrown-in one
 * (T-1, T-6).  Write a row per hand to rows (room for max_hands rows) and
 * game[0..3] = hands played, team 0's and team 1's totals, the winner (-1:
 * none).  Return the hands played; a refused action ends the game with its
 * hand's ROOK_R_ERROR set. */
int rook_sim_game(const rook_rules *r, const rook_policy policies[4], uint64_t seed, int64_t unit, int copy,
                  int max_hands, const rook_game_end *ending, int64_t *rows, int64_t *game);

#endif
