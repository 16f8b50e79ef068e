/* venv.c: the batched environment (see venv.h). */
#include <string.h>
#include "rook/venv.h"

/* The blocks of the observation (rook_core/rl/encoding.py OBS_FIELDS; the
 * tests compare the two encoders on random states). */
enum {
    O_HAND = 0,
    O_PLAYED = 64,
    O_TRICK = 320,
    O_VOIDS = 576,
    O_NEST = 832,
    O_DISCARDED = 896,
    O_PASSED = 960,
    O_BID = 1024,
    O_PASSED_BID = 1028,
    O_HIGH_BID = 1032,
    O_DECLARER = 1033,
    O_TRUMP = 1037,
    O_PHASE = 1041,
    O_DEALER = 1046,
    O_POINTS = 1050,
    O_TRICKS_WON = 1052,
    O_GAME = 1054
};

static void set_bits(float *out, uint64_t m)
{
    for (; m; m &= m - 1)
        out[__builtin_ctzll(m)] = 1.0f;
}

static float clip(double a, double low)
{
    return (float)(a < low ? low : a > 1.0 ? 1.0 : a);
}

static int over(const rook_hand *h)
{
    return h->phase == ROOK_PH_DONE || h->phase == ROOK_PH_THROWN_IN;
}

/* Apply a's action to the table, keeping its facts; return the rules' code. */
static int table_apply(const rook_venv *e, rook_table *t, int a)
{
    rook_hand before = t->h;
    int err = rook_hand_apply(&t->h, e->r, a);
    if (err != ROOK_OK)
        return err;
    rook_public_note(&t->pub, &before, e->r, before.to_move, a);
    if (before.phase == ROOK_PH_PLAY && a < 64)
        t->played[before.to_move] |= 1ULL << a;
    return ROOK_OK;
}

/* Deal episode t->episode of the table. */
static void deal(rook_table *t, const rook_rules *r)
{
    uint64_t ds = rook_hand_seed(t->seed, t->episode);
    rook_rng dg;
    rook_rng_seed(&dg, ds);
    rook_hand_deal(&t->h, r, (int)(t->episode & 3), &dg);
    rook_public_init(&t->pub);
    memset(t->played, 0, sizeof t->played);
    for (int s = 0; s < 4; s++)
        rook_rng_seed(&t->g[s], rook_hand_seed(ds ^ ROOK_AGENT_SALT, (uint64_t)s));
}

/* The other seats' turns until the learner is to move or the hand is over. */
static int others(const rook_venv *e, rook_table *t)
{
    while (!over(&t->h) && t->h.to_move != e->learner) {
        int s = t->h.to_move;
        int64_t a = rook_policy_act(&e->policies[s], &t->h, e->r, &t->pub, &t->g[s]);
        if (!rook_action_in_range(a) || table_apply(e, t, (int)a) != ROOK_OK)
            return -1;
    }
    return 0;
}

/* Deal episodes until one reaches the learner's first decision. */
static int next_decision(const rook_venv *e, rook_table *t)
{
    for (;;) {
        deal(t, e->r);
        if (others(e, t) < 0)
            return -1;
        if (!over(&t->h))
            return 0;
        t->episode++; /* (a hand over before the learner spoke) */
    }
}

int rook_venv_start(const rook_venv *e, rook_table *t, uint64_t seed)
{
    t->seed = seed;
    t->episode = 0;
    return next_decision(e, t);
}

void rook_venv_encode(const rook_venv *e, const rook_table *t, int seat, float *out)
{
    const rook_hand *h = &t->h;
    const rook_rules *r = e->r;
    double top = r->max_bid, total = e->total_points;
    memset(out, 0, ROOK_OBS_SIZE * sizeof *out);
    uint64_t played[4] = {t->played[0], t->played[1], t->played[2], t->played[3]};
    int lead = h->leader != ROOK_NO_SEAT ? h->leader : 0;
    for (int k = 0; k < h->trick_n; k++) {
        int s = (lead + k) & 3;
        played[s] &= ~(1ULL << h->trick[k]); /* the current trick has its own block */
        out[O_TRICK + 64 * ((s - seat + 4) & 3) + h->trick[k]] = 1.0f;
    }
    set_bits(out + O_HAND, h->hands[seat]);
    for (int s = 0; s < 4; s++) {
        int rel = (s - seat + 4) & 3;
        set_bits(out + O_PLAYED + 64 * rel, played[s]);
        set_bits(out + O_VOIDS + 64 * rel, t->pub.lacks[s]);
        if (t->pub.bids[s])
            out[O_BID + rel] = (float)(t->pub.bids[s] / top);
        if ((h->passed >> s) & 1)
            out[O_PASSED_BID + rel] = 1.0f;
    }
    int decl = h->declarer == ROOK_NO_SEAT ? -1 : h->declarer;
    int taken = decl == seat && r->nest_size && rook_hand_nest_taken(h, r);
    int shown =
        taken || (r->exposed_nest && decl >= 0 && h->phase != ROOK_PH_BID && h->phase != ROOK_PH_THROWN_IN);
    if (shown)
        set_bits(out + O_NEST, h->dealt_nest);
    if (taken)
        set_bits(out + O_DISCARDED, h->nest);
    set_bits(out + O_PASSED, h->passing[seat]);
    out[O_HIGH_BID] = (float)(h->high_bid / top);
    if (decl >= 0)
        out[O_DECLARER + ((decl - seat + 4) & 3)] = 1.0f;
    if (h->trump != ROOK_NO_SEAT)
        out[O_TRUMP + h->trump] = 1.0f;
    if (h->phase < 5)
        out[O_PHASE + h->phase] = 1.0f;
    out[O_DEALER + ((h->dealer - seat + 4) & 3)] = 1.0f;
    int team = seat & 1;
    out[O_POINTS] = clip(h->points[team] / total, 0.0);
    out[O_POINTS + 1] = clip(h->points[1 - team] / total, 0.0);
    out[O_TRICKS_WON] = (float)(h->tricks_won[team] / (double)r->hand_size);
    out[O_TRICKS_WON + 1] = (float)(h->tricks_won[1 - team] / (double)r->hand_size);
}

void rook_venv_observe(const rook_venv *e, const rook_table *t, float *obs, int8_t *mask)
{
    rook_venv_encode(e, t, e->learner, obs);
    memset(mask, 0, (size_t)e->n_actions);
    if (over(&t->h) || t->h.to_move != e->learner)
        return;
    uint16_t buf[ROOK_N_ACTIONS];
    int n = rook_hand_legal(&t->h, e->r, buf);
    for (int i = 0; i < n; i++)
        if (buf[i] < e->n_actions)
            mask[buf[i]] = 1;
}

int64_t rook_venv_step(const rook_venv *e, rook_table *t, int64_t n, const int32_t *actions, float *obs,
                       int8_t *mask, float *reward, uint8_t *done, int32_t *error)
{
    int64_t errors = 0;
    for (int64_t i = 0; i < n; i++) {
        rook_table *ti = &t[i];
        reward[i] = 0.0f;
        done[i] = 0;
        error[i] = 0;
        int a = actions[i];
        int err = over(&ti->h) || ti->h.to_move != e->learner ? -1
            : !rook_action_in_range(a)                        ? ROOK_E_UNKNOWN_ACTION
                                                              : table_apply(e, ti, a);
        if (err == ROOK_OK && others(e, ti) < 0)
            err = -1;
        if (err != ROOK_OK) {
            error[i] = err;
            errors++;
        } else if (over(&ti->h)) {
            const rook_hand *h = &ti->h;
            int team = e->learner & 1;
            if (h->phase == ROOK_PH_DONE)
                reward[i] = (float)((h->score[team] - h->score[1 - team]) * e->reward_scale);
            done[i] = 1;
            ti->episode++;
            if (next_decision(e, ti) < 0) {
                error[i] = -1;
                errors++;
            }
        }
        rook_venv_observe(e, ti, obs + (size_t)i * ROOK_OBS_SIZE, mask + (size_t)i * (size_t)e->n_actions);
    }
    return errors;
}
