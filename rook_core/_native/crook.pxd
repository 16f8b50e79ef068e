# Declarations of the plain C11 core in src/rook (rules.h, hand.h, batch.h, sim.h, venv.h, rng.h, solve.h);
# the generated constants of layout.h are in layout.pxd.
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, int32_t, int64_t, uint32_t, uint64_t

cdef extern from "rook/rng.h" nogil:
    ctypedef struct rook_rng:
        uint64_t s[4]
    uint64_t rook_splitmix64(uint64_t *x)
    void rook_rng_seed(rook_rng *g, uint64_t seed)
    uint64_t rook_rng_next(rook_rng *g)
    uint32_t rook_rng_below(rook_rng *g, uint32_t n)

cdef extern from "rook/rules.h" nogil:
    enum:
        ROOK_MAX_COUNTER_GROUPS
        ROOK_MAX_POST_STEPS
    ctypedef struct rook_rules:
        uint64_t deck
        uint64_t special_trumps
        uint64_t anytime
        uint64_t counters
        uint64_t counter_masks[8]
        int32_t counter_values[8]
        int32_t n_counter_groups
        uint8_t strength[64]
        uint8_t must_trump
        uint8_t hand_size
        uint8_t nest_size
        uint8_t jump_bids
        int32_t min_bid
        int32_t bid_step
        int32_t max_bid
        uint8_t opener_must_bid
        uint8_t stick_the_dealer
        uint8_t dealer_takes_minimum
        uint8_t post_bid[3]
        uint8_t n_post_bid
        uint8_t take_nest_first
        uint8_t discard_counters
        uint8_t discard_trump_counters
        uint8_t exposed_nest
        uint8_t pass_cards
        uint8_t first_lead_declarer
        uint8_t nest_to_declarer
        uint8_t made_scores_bid
        uint8_t set_loses_points
        int32_t last_trick_bonus
        int32_t most_tricks_bonus
        int32_t penalty_points
        int32_t moon_score
        int16_t card_points[64]
        uint64_t trumps[4]
        uint64_t follow[4][64]
    void rook_rules_finish(rook_rules *r)
    uint64_t rook_trump_mask(const rook_rules *r, int trump)
    uint64_t rook_follow_mask(const rook_rules *r, int led, int trump)
    uint64_t rook_legal_mask(const rook_rules *r, uint64_t hand, int led, int trump)
    int rook_trick_winner(const rook_rules *r, const uint8_t *cards, int n, int trump)
    int rook_points(const rook_rules *r, uint64_t mask)

cdef extern from "rook/hand.h" nogil:
    # the action space, phases and refusal codes: layout.pxd (generated)
    ctypedef struct rook_hand:
        uint64_t hands[4]
        uint64_t nest
        uint64_t dealt_nest
        uint64_t played
        uint64_t won[2]
        uint64_t passing[4]
        int32_t points[2]
        int32_t score[2]
        int32_t penalty[2]
        int32_t high_bid
        int32_t nest_points
        uint8_t phase
        uint8_t dealer
        uint8_t to_move
        uint8_t declarer
        uint8_t trump
        uint8_t passed
        uint8_t post_idx
        uint8_t remaining
        uint8_t leader
        uint8_t trick_n
        uint8_t trick[4]
        uint8_t tricks_won[2]
        uint8_t tricks_done
        uint8_t last_winner
        uint8_t passes_done
    void rook_hand_init(rook_hand *h, const rook_rules *r, int dealer, const uint64_t *hands, uint64_t nest)
    void rook_hand_deal(rook_hand *h, const rook_rules *r, int dealer, rook_rng *g)
    int rook_hand_apply(rook_hand *h, const rook_rules *r, int action)
    void rook_hand_play_unchecked(rook_hand *h, const rook_rules *r, int card)
    int rook_hand_legal(const rook_hand *h, const rook_rules *r, uint16_t *out)
    uint64_t rook_hand_legal_cards(const rook_hand *h, const rook_rules *r)
    int rook_hand_nest_taken(const rook_hand *h, const rook_rules *r)
    ctypedef int (*rook_perft_check)(void *ctx) noexcept
    int ROOK_PERFT_LIMIT
    int rook_hand_perft(const rook_hand *h, const rook_rules *r, int depth, uint64_t *counts,
                        uint64_t max_nodes, rook_perft_check check, void *ctx)
    void rook_hand_score(const rook_rules *r, int team, int32_t bid, const int32_t *points, int32_t *score)

cdef extern from "rook/batch.h" nogil:
    void rook_random_hands(const rook_rules *r, int trump, uint64_t seed, int64_t first, int64_t n, int32_t *points)
    int rook_playout_kernels()
    void rook_random_hands_with(int kernel, const rook_rules *r, int trump, uint64_t seed, int64_t first,
                                int64_t n, int32_t *points)
    void rook_random_hand(rook_hand *h, const rook_rules *r, int trump, int dealer, rook_rng *g)

cdef extern from "rook/heuristic.h" nogil:
    ctypedef struct rook_public:
        uint64_t lacks[4]
        int32_t bids[4]
    void rook_public_init(rook_public *pub)
    void rook_public_note(rook_public *pub, const rook_hand *h, const rook_rules *r, int seat, int action)
    ctypedef struct rook_heur_params:
        int32_t total_points
        int32_t bid_margin
        int32_t bird_threshold
        int32_t nest_bonus
    int rook_heur_playout(const rook_hand *h, const rook_rules *r, const rook_public *pub,
                          const rook_heur_params *p, int32_t *points)

cdef extern from "rook/sim.h" nogil:
    # the view's slots, the row's columns and the policy kinds: layout.pxd (generated)
    ctypedef int64_t (*rook_policy_fn)(const int64_t *view, int64_t len) noexcept nogil
    ctypedef struct rook_policy:
        int kind
        rook_policy_fn fn
        rook_heur_params heur
    uint64_t rook_hand_seed(uint64_t seed, uint64_t index)
    void rook_view_fill(const rook_hand *h, const rook_rules *r, int seat, uint64_t random, int64_t *view)
    void rook_sim_hands(const rook_rules *r, const rook_policy *policies, uint64_t seed,
                        int64_t first, int64_t n, int duplicate, int64_t *rows)
    ctypedef struct rook_game_end:
        int32_t target
        uint8_t tie_to_team_0
        uint8_t own_bid_only
    int rook_game_winner(const rook_game_end *e, const int64_t *total, int declarer)
    int rook_sim_game(const rook_rules *r, const rook_policy *policies, uint64_t seed, int64_t unit,
                      int copy, int max_hands, const rook_game_end *end, int64_t *rows, int64_t *game)

cdef extern from "rook/venv.h" nogil:
    enum:
        ROOK_OBS_SIZE
    ctypedef struct rook_table:
        rook_hand h
        uint64_t seed
        uint64_t episode
    ctypedef struct rook_venv:
        const rook_rules *r
        rook_policy policies[4]
        int learner
        int32_t total_points
        int32_t target
        int32_t n_actions
        double reward_scale
    int rook_venv_start(const rook_venv *e, rook_table *t, uint64_t seed)
    void rook_venv_observe(const rook_venv *e, const rook_table *t, float *obs, int8_t *mask)
    int64_t rook_venv_step(const rook_venv *e, rook_table *t, int64_t n, const int32_t *actions, float *obs,
                           int8_t *mask, float *reward, uint8_t *done, int32_t *error)

cdef extern from "rook/solve.h" nogil:
    ctypedef struct rook_solver:
        pass
    ctypedef struct rook_dd_pos:
        uint64_t hands[4]
        uint8_t trick[4]
        uint8_t trick_n
        uint8_t leader
        uint8_t trump
        int32_t nest_points
        uint8_t tricks[2]
    rook_solver *rook_solver_new(size_t tt_bytes)
    void rook_solver_set_generalize(rook_solver *s, int on)
    void rook_solver_free(rook_solver *s)
    void rook_solver_clear(rook_solver *s)
    void rook_solver_touch(rook_solver *s)
    void rook_solver_set_budget(rook_solver *s, uint64_t nodes)
    void rook_solver_set_time_budget(rook_solver *s, uint64_t ns)
    int rook_solver_stop_reason(const rook_solver *s)
    uint64_t rook_solver_nodes(const rook_solver *s)
    uint64_t rook_solver_stat(const rook_solver *s, int which)
    int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target)
    int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi)
    int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t *values,
                            int *lo, int *hi)
    ctypedef void (*rook_dd_progress_fn)(void *arg, int lo, int hi, uint64_t nodes) noexcept
    void rook_solver_set_progress(rook_solver *s, rook_dd_progress_fn fn, void *arg)
    void rook_solver_abort(rook_solver *s)
    int rook_dd_watch_interrupts()
    unsigned rook_dd_interrupts()
    void rook_solver_watch_interrupts_from(rook_solver *s, unsigned count)
    void rook_dd_work_begun_at(int set, unsigned count)
    unsigned rook_dd_work_interrupts()
    void rook_solver_share(rook_solver *s, rook_solver *owner)
    int rook_dd_solve_batch(rook_solver *s, const rook_rules *r, const rook_dd_pos *ps, int n, int keep,
                            int guesses, int32_t *values, int32_t *roots)
    ctypedef struct rook_dd_team:
        int lo
        int hi
        int active
        rook_dd_progress_fn progress
        void *progress_arg
    void rook_dd_team_init(rook_dd_team *team, int total, int wlo, int whi)
    int rook_dd_value_probes(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p,
                             rook_dd_team *team)
    int rook_dd_value_shared(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int wlo,
                             int whi, int guess, int *lo, int *hi)
    int rook_dd_move_values_team(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p,
                                 int root, int32_t *values, int *lo, int *hi)
    int rook_dd_value_in(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi,
                         int guess, int anytime, int *lo, int *hi)
    int rook_dd_best_cards(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                           uint64_t *best, int *lo, int *hi)
    int rook_dd_move_bounds(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int tolerance,
                            int32_t *lo, int32_t *hi)
    int rook_dd_move_values_guess(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                                  int anytime, int32_t *values, int *lo, int *hi)
