/* venv.h: many tables stepping together, one learning seat each.
 *
 * The batched environment of rook_core.rl.VectorEnv.  Each table plays one
 * hand after another: the learner's seat acts through rook_venv_step, the
 * other seats through native policies (sim.h: random, heuristic, or a C
 * callback such as a Numba @cfunc) inside the same call, so only the
 * learner's decisions come back to the caller.  Everything is written into
 * the caller's arrays; nothing here touches Python, and a step of many
 * tables runs without the GIL.
 *
 * Seeds follow the simulator (sim.h): episode e of a table seeded S is dealt
 * from hand_seed(S, e) by dealer e % 4, and the agent at seat s draws from
 * the stream of agent_seed(S, e, s).  So a table's episodes are the units
 * of a simulation with seed S, and a Python run of the same agents repeats
 * them (tests/rl/test_vector.py).
 *
 * Observations are the tensor of rook_core/rl/encoding.py (OBS_FIELDS),
 * built from the state and the facts the table keeps as it goes: the cards
 * each seat played and the public facts of heuristic.h (voids, bids).
 */
#ifndef ROOK_VENV_H
#define ROOK_VENV_H

#include <stdint.h>
#include "rook/hand.h"
#include "rook/heuristic.h"
#include "rook/sim.h"

#define ROOK_OBS_SIZE 1056

typedef struct rook_table {
    rook_hand h;
    rook_public pub;    /* what every seat has seen (voids, bids) */
    uint64_t played[4]; /* cards each seat has played, the current trick included */
    rook_rng g[4];      /* the agents' streams of this episode */
    uint64_t seed;      /* the table's seed */
    uint64_t episode;   /* the episode being played (0-based) */
} rook_table;

typedef struct rook_venv {
    const rook_rules *r;
    rook_policy policies[4]; /* the other seats' policies (the learner's is not used) */
    int learner;             /* the learner's seat */
    int32_t total_points;    /* T-14 */
    int32_t target;          /* T-33 (not used by hand episodes) */
    int32_t n_actions;       /* the mask's length: the action ids up to the highest bid */
    double reward_scale;
} rook_venv;

/* Start table t from `seed`: episode 0, dealt, the other seats played up to
 * the learner's first decision.  Return 0, or -1 when a policy's action was
 * refused (the table then stops where it was). */
int rook_venv_start(const rook_venv *e, rook_table *t, uint64_t seed);

/* Write the learner's observation (ROOK_OBS_SIZE floats) and mask (n_actions). */
void rook_venv_observe(const rook_venv *e, const rook_table *t, float *obs, int8_t *mask);

/* Write seat's observation tensor of table t. */
void rook_venv_encode(const rook_venv *e, const rook_table *t, int seat, float *out);

/* One step of tables t[0..n-1] with the learner's actions: each table plays
 * its action, then the other seats up to the learner's next decision.  A
 * table whose hand ended gets its reward (the learner's team's score less
 * the other's, times reward_scale; 0 for a hand thrown in) and done = 1, and
 * starts its next episode at once, so obs and mask are then the next
 * episode's first decision.  A refused action leaves its table as it was,
 * with error[i] the rules' code (ROOK_E_*), reward 0 and done 0; a policy's
 * refused action gives error[i] = -1.  Return how many tables had an error. */
int64_t rook_venv_step(const rook_venv *e, rook_table *t, int64_t n, const int32_t *actions, float *obs,
                       int8_t *mask, float *reward, uint8_t *done, int32_t *error);

#endif
