/* solve.h: double-dummy solver for trick play (every hand visible).
 *
 * The value of a position is the number of points team 0 (seats 0 and 2)
 * takes from here to the end of the hand when team 0 maximises and team 1
 * minimises: the counters of the current and later tricks (T-12), the nest
 * points and the last-trick bonus to the team of the last trick (T-13), and
 * a most-tricks bonus (RULES.md section 4) to the team with more tricks in
 * the whole hand (the tricks before the position are part of the position;
 * variants whose tricks can tie are not solved: the game would not be
 * zero-sum).
 *
 * Algorithm: fail-soft alpha-beta over single cards; each part has a file
 * of its own under src/rook/solve/, which opens with its contract:
 *   core.h    the context and the solver's card layout (a suit is a lane of
 *             bits in rank order), the trick rules in that layout;
 *   table.h   bounds stored at trick boundaries, keyed by ranks relative to
 *             the cards still out; an entry keeps only the cards whose rank
 *             the search below relied on, so it answers for every position
 *             that agrees on those ("relevant ranks"); 16 bytes an entry;
 *             and a second table for positions that differ only in points
 *             (quasi-symmetry), whose bounds transfer widened;
 *   moves.h   one move per class of equivalent cards, point-aware dominance
 *             inside a run of cards of equal rank, move ordering;
 *   bounds.h  points a team is sure of (top trumps, the last trick);
 *   node.h    the bookkeeping of a node's moves (results into the window,
 *             moves a searched sibling decides);
 *   search.c  the search itself;
 *   endgame.c the last three tricks searched directly (no table inside),
 *             with a cache of the last two tricks' results;
 *   context.c a solver's table (alone or shared), budgets, and its setting
 *             up for a position;
 *   driver.c  the questions: null-window searches ("can team 0 take at
 *             least T?") closing the interval on the grain of the points,
 *             from the middle, from a caller's guess, or from the ends
 *             first (anytime); best cards, every card, batches;
 *   split.c   several threads sharing the nodes of one search (split
 *             points, young brothers wait);
 *   team.c    several threads on one position: its value (sharing nodes,
 *             the threads started here, or narrowing it with targets of
 *             their own), its cards' values.
 * No allocation per node; a solver context is used by one thread at a time,
 * and several contexts may share one table.  A node or time budget stops
 * the search; the caller is told which, and the bounds proven so far.
 */
#ifndef ROOK_SOLVE_H
#define ROOK_SOLVE_H

#include <stddef.h>
#include <stdint.h>
#include "rook/rules.h"

typedef struct rook_solver rook_solver;

/* A trick-play position for the solver. */
typedef struct rook_dd_pos {
    uint64_t hands[4];
    uint8_t trick[4]; /* cards already in the current trick, led card first */
    uint8_t trick_n;
    uint8_t leader;
    uint8_t trump;
    int32_t nest_points; /* T-13: goes with the last trick, with the bonus */
    uint8_t tricks[2];   /* tricks each team took before the current trick */
} rook_dd_pos;

/* Return a new solver with a table of at most tt_bytes (at least 1024
 * entries of 64 bytes), or NULL when out of memory. */
rook_solver *rook_solver_new(size_t tt_bytes);
void rook_solver_free(rook_solver *s);

/* Let s use the table of `owner` (its own is freed when no solver uses it
 * any more).  Solvers sharing a table may search at the same time from
 * several threads, on positions of one context (the same rules and trump)
 * only; a clear, or a position of another context, empties the table for
 * all of them, and must not happen while another of them searches. */
void rook_solver_share(rook_solver *s, rook_solver *owner);


/* Forget every stored bound (needed between positions of different rules or
 * trump; done automatically by the calls below). */
void rook_solver_clear(rook_solver *s);

/* Make every page of the table's memory resident now, keeping what it
 * holds, so that the first touch of each page (the system zeroing it: about
 * 0.1 s for 256 MiB) is not paid inside a timed search.  Not while another
 * solver searches the same table. */
void rook_solver_touch(rook_solver *s);

/* Table entries stand for every position that differs only in cards whose
 * rank the search did not rely on, and sibling cards are skipped on the same
 * grounds (on = 1, the default); or entries stand for one position each and
 * every class of equivalent cards is searched (on = 0: slower; kept to
 * check the first against).  Clears the table. */
void rook_solver_set_generalize(rook_solver *s, int on);

/* Stop a search after this many nodes (0 = no limit). */
void rook_solver_set_budget(rook_solver *s, uint64_t nodes);

/* Also stop a search after this many nanoseconds of the call (0 = no limit;
 * checked every 1024 nodes, so the answer then depends on the machine). */
void rook_solver_set_time_budget(rook_solver *s, uint64_t ns);

/* Called after each step of a value search with the bounds proven so far
 * on the position's value and the nodes searched. */
typedef void (*rook_dd_progress_fn)(void *arg, int lo, int hi, uint64_t nodes);
void rook_solver_set_progress(rook_solver *s, rook_dd_progress_fn fn, void *arg);

/* Why the last call stopped early: */
enum {
    ROOK_STOP_NONE = 0,
    ROOK_STOP_NODES = 1,
    ROOK_STOP_TIME = 2,
    ROOK_STOP_CALLER = 3,
    ROOK_STOP_MOOT = 4 /* (internal: a team mate settled the question) */,
    ROOK_STOP_CUT = 5,    /* (internal: a shared node's window closed) */
    ROOK_STOP_RESTART = 6 /* (internal: a shared node's window narrowed: search the move again) */
};

/* Stop the search under way as soon as it looks (from the progress function,
 * or from another thread): the call returns -1 with stop reason
 * ROOK_STOP_CALLER and the bounds proven so far.  A stop asked while no
 * call runs is forgotten when the next one begins; in a team's call it
 * holds from the call's start (so a mate's progress function that stops
 * the first member before that member has begun its own search stops it). */
void rook_solver_abort(rook_solver *s);
int rook_solver_stop_reason(const rook_solver *s);

/* Ctrl-C (SIGINT) stops the searches under way, as rook_solver_abort does,
 * once rook_dd_watch_interrupts() has put its handler in front of the
 * process's (solve/interrupt.c); it returns 1 when the signal is watched.
 * rook_dd_interrupts() counts the SIGINTs seen.  A solver's searches stop
 * once the count differs from the one given to
 * rook_solver_watch_interrupts_from (0 for a new solver): the count when
 * the caller's work began, so that every search of that work, on any
 * thread, stops. */
int rook_dd_watch_interrupts(void);
unsigned rook_dd_interrupts(void);
void rook_solver_watch_interrupts_from(rook_solver *s, unsigned count);

/* The count at which the work of the calling thread began: the one given
 * to rook_dd_work_begun_at(1, count) on this thread, or (after
 * rook_dd_work_begun_at(0, 0), and at first) the count now. */
void rook_dd_work_begun_at(int set, unsigned count);
unsigned rook_dd_work_interrupts(void);

/* Nodes searched since the last call that reset them (the solve calls do);
 * the direct search of the last three tricks counts as one node. */
uint64_t rook_solver_nodes(const rook_solver *s);

/* Search statistics of the last call: nodes with `which` (0..63) cards still
 * in hands, or (which = 64) table hits. */
uint64_t rook_solver_stat(const rook_solver *s, int which);

/* Return 1 if team 0 can take at least `target` points from p, 0 if not,
 * -1 if the budget ran out first. */
int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target);

/* Return the exact value of p (>= 0), or -1 if the budget ran out; then
 * *lo and *hi (if not NULL) hold the bounds proven so far. */
int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi);

/* Write the value after each legal card of the seat to move to values[card]
 * (others untouched) and return the position's value, or -1 if the budget ran out;
 * *lo and *hi (if not NULL) get the bounds proven on the position's value.
 * Under a budget the value comes first, so they are equal once it is known,
 * even if a card's value then ran out; without one the cards come one class
 * after another (driver.c), and a stop (rook_solver_abort) leaves the bound
 * the finished classes prove on the side of the seat to move. */
int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64], int *lo,
                        int *hi);

/* Return team 0's value of p clipped to the window [wlo, whi]: the value
 * when it lies inside, else wlo (the value is at most wlo) or whi (at
 * least whi); a narrow window costs less than the exact value.  guess >= 0
 * is a first target (the caller's estimate, e.g. the previous position's
 * value: the next targets then step from the bounds it proves); anytime != 0
 * probes a quarter in from each end first, so that the bounds reported to
 * the progress function narrow from the start.  -1 when a budget ran out;
 * *lo and *hi get the bounds proven on the value. */
int rook_dd_value_in(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi, int guess,
                     int anytime, int *lo, int *hi);

/* Return the value of p and set *best to the card ids of the legal cards
 * that achieve it, each class of equivalent cards decided by one
 * null-window search at the value (no card's exact value); -1 on a budget. */
int rook_dd_best_cards(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess, uint64_t *best,
                       int *lo, int *hi);

/* Every legal card's value to within `tolerance` points: for each legal
 * card of the seat to move, lo[card] <= its value <= hi[card] and
 * hi[card] - lo[card] <= tolerance (others untouched; 0: exact, as
 * rook_dd_move_values).  For a caller that averages many positions (a
 * Monte Carlo player's worlds), whose errors average out.  Return 0, -1
 * if the budget ran out (the finished classes are written), -2 for a
 * position beyond the solver. */
int rook_dd_move_bounds(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int tolerance,
                        int32_t lo[64], int32_t hi[64]);

/* rook_dd_move_values with a first guess of the position's value (< 0:
 * none), and the position's value found as rook_dd_value_in's anytime. */
int rook_dd_move_values_guess(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess, int anytime,
                              int32_t values[64], int *lo, int *hi);

/* rook_dd_move_values_guess with an estimate of each card's value too
 * (card_guess[card id], -1: none; NULL: none at all), for instance the
 * mean of other worlds' values in a Monte Carlo player. */
int rook_dd_move_values_guesses(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                                int anytime, const int32_t card_guess[64], int32_t values[64], int *lo,
                                int *hi);

/* Set s up for p as a search would (the table is emptied if its context
 * changes): before solvers sharing the table start on p from several
 * threads.  Return 0, or -2 when the position is beyond the solver. */
int rook_dd_prepare(rook_solver *s, const rook_rules *r, const rook_dd_pos *p);

/* A team of solvers (one thread each, sharing one table) narrowing one
 * position's value together: each takes a target that splits what is
 * still open away from the targets the others are searching, and a search
 * whose question another has settled stops at once. */
#define ROOK_DD_TEAM_MAX 8
typedef struct rook_dd_team {
    int lock;                      /* a spin lock over the fields below */
    int lo, hi;                    /* the bounds proven on the value */
    int wlo, whi;                  /* the window asked for */
    int probing[ROOK_DD_TEAM_MAX]; /* each member's target (0: none) */
    rook_dd_progress_fn progress;  /* told of every step, from any member's thread */
    void *progress_arg;
    /* a team sharing nodes (rook_dd_value_split): */
    struct dd_split *open[64]; /* split points with moves left to take */
    int n_open;
    int idle;              /* members waiting for work */
    int quit;              /* the work is done: members return */
    int active;            /* members still searching work of their own (cards) */
    int arrivals;          /* members that have started on the cards */
    int failed, fail_stop; /* a member stopped (budget, caller): why; all stop */
    rook_solver *lead;     /* probes: the first member; a stop asked of it stops all */
} rook_dd_team;

/* Start a team on a position whose value lies in [0, total]: the window
 * [wlo, whi] as for rook_dd_value_in. */
void rook_dd_team_init(rook_dd_team *team, int total, int wlo, int whi);

/* Search with the team as member `me` (0 .. ROOK_DD_TEAM_MAX-1) until the
 * value is known (or known to be outside the window); every member's call
 * returns then.  Call rook_dd_prepare on one member first.  Return the
 * value clipped to the window, or -1 when this member's budget ran out
 * (the team's bounds hold what was proven); a member that stops (its
 * budget, its caller) stops the others, for its reason. */
int rook_dd_value_team(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team, int me);

/* Run rook_dd_value_team for ss[0] .. ss[n-1] as members 0 .. n-1 of
 * `team` (rook_dd_team_init'ed, its progress function set or not): ss[0]
 * on the caller's thread, the others on their solvers' own threads, as
 * rook_dd_value_shared runs its helpers (and a helper not begun when the
 * value is known is taken back).  Return the value clipped to the window,
 * or -1 when a member stopped (ss[0]'s stop reason says why; the team's
 * bounds hold what was proven), -2 for a position beyond the solver. */
int rook_dd_value_probes(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p,
                         rook_dd_team *team);

/* One value by a team sharing nodes: member 0 searches the value as
 * rook_dd_value_in does (the team's window, `guess`; no anytime order),
 * and a node of the search with moves left shares them with the members
 * waiting for work (young brothers wait: after its first move); members 1
 * and up only help, until member 0 is done.  Call rook_dd_prepare on one
 * member first and rook_dd_team_init once.  Member 0 returns the value
 * clipped to the window, with *lo, *hi the bounds proven, or -1 when a
 * member's budget ran out (or it was aborted); the others return 0 or -1. */
int rook_dd_value_split(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team, int me,
                        int guess, int *lo, int *hi);

/* Every card's value from several threads: given `root`, the position's
 * value, take a class of the legal cards not yet taken in the mask *taken
 * (atomically) until none is left, writing values[card] for each card of
 * the class.  Each thread calls it with its own solver, all sharing one
 * table and one *taken (starting at 0).  With a team (rook_dd_team_init'ed,
 * its `active` set to the number of threads; NULL: none), every second
 * thread to start takes the classes from the back of the order, and a
 * thread with no class left shares the nodes of those still searching
 * theirs (as in rook_dd_value_split) until all are done.  root < 0 (the team's bounds
 * start at [0, total]): the value is not known; each class is found on its
 * own, and the team's bound on the side of the seat to move (lo for team
 * 0, hi for team 1) follows the best class.  Return 0, or -1 when a budget
 * ran out (or the caller stopped the thread). */
int rook_dd_move_values_shared(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int root, int *taken,
                               int32_t values[64], rook_dd_team *team);

/* The same two with the threads run here: n solvers (up to
 * ROOK_DD_TEAM_MAX) sharing one table, ss[0] searching in the calling
 * thread and each other one on a thread of its own, kept from call to call
 * (src/rook/solve/worker.h; a helper that has not begun when ss[0]'s
 * search ends never begins, so a short search waits for no thread, and
 * rook_solver_free ends the thread).  The value: as rook_dd_value_split, within [wlo, whi].  Every
 * card's value: as rook_dd_move_values_shared from `root`, the position's
 * value; or, with root < 0, without it: the threads start on the classes
 * at once, the first ones (while no class has a value) by a wide search,
 * the later ones narrowed from the best value found so far, which is the
 * position's value in the end.  Both return the value, with [*lo, *hi]
 * the bounds proven on it, or -1 when a member's budget ran out (or it was
 * aborted; ss[0]'s stop reason says why), -2 for a position beyond the
 * solver. */
int rook_dd_value_shared(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi,
                         int guess, int *lo, int *hi);
int rook_dd_move_values_team(rook_solver **ss, int n, const rook_rules *r, const rook_dd_pos *p, int root,
                             int32_t values[64], int *lo, int *hi);

/* Every card's value of n positions (worlds of one deal, say), one after
 * another on one solver, in one call (no other locking or allocation):
 * values[64 * i + card id] (-1: not a legal card) and roots[i] (the value;
 * -1: a budget ran out, -2: beyond the solver).  keep != 0 keeps the
 * table from one position to the next (positions that share most cards
 * meet the same entries); guesses != 0 takes the running means of the
 * values found so far as first guesses.  Return the number solved; an
 * abort (rook_solver_abort) stops the batch. */
int rook_dd_solve_batch(rook_solver *s, const rook_rules *r, const rook_dd_pos *ps, int n, int keep,
                        int guesses, int32_t *values, int32_t *roots);

#endif
