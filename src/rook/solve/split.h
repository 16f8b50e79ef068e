/* split.h: split points -- several threads on the later moves of one node.
 *
 * Contract.  In a search with a split team (s->split_team, set by
 * rook_dd_value_split in split.c), a node of at least DD_SPLIT_MIN cards
 * in hands, DD_SPLIT_DEPTH cards or more below the root, whose first move
 * is searched, that has moves left and sees a team mate waiting for work,
 * opens a split point: its position, its moves and what is known of them,
 * its window.  dd_split_rest() then searches the moves left together with
 * whoever joins: each thread takes a move (split.c's take_move: the first
 * whose lane no move still being searched shares), tests it against the
 * window as it stands then, and records the result; a cut stops every
 * search under the split point.  It returns when every thread
 * has left, with the node's best value, window and relevant cards in the
 * split point, as the node's own loop would have left them (the order of
 * the moves' results may differ, so node counts depend on timing, not the
 * answer).  A thread that has no move left to take at its own split point
 * joins split points opened below it while it waits ("young brothers
 * wait": a node is shared only once its eldest move has set the window).
 */
#ifndef ROOK_SOLVE_SPLIT_H
#define ROOK_SOLVE_SPLIT_H

#include "rook/solve/core.h"
#include "rook/solve/moves.h"

/* Where a node may be shared: with DD_SPLIT_MIN cards in hands or more
 * (below that the subtrees are small, and a split point costs the same
 * whatever lies under it), and either the root itself or DD_SPLIT_DEPTH
 * cards or more below it: none of the first trick's plies under the root.
 * Shared there, the threads go down different top moves at once, and the
 * positions those subtrees have in common (the same tricks in another
 * order) are searched by both, where one thread would have found the
 * first one's entries in the table; sharing only below them keeps both
 * threads under the same top move.  Against 16 cards at any depth, on two
 * threads (bench/solver_vs.py --threads 2 --runs 3, 60 tournament deals,
 * two runs): 1.10x fewer nodes, one value 1.06x faster by the mean time
 * and the same by the per-deal median; every card's value the same.
 * The root is the exception: once its first card has set the window, its
 * later cards are tests against it whose subtrees the two threads mostly
 * do not share, and a helper would otherwise wait for split points inside
 * each test in turn.  Against the rule without it (the same harness, 60 to
 * 200 deals of five seeds, best of 3): one value 1.03x-1.08x faster by the
 * per-deal median, 0.98x-1.06x by the mean, with up to 6% more nodes. */
#ifndef DD_SPLIT_MIN
#define DD_SPLIT_MIN 20
#endif
#ifndef DD_SPLIT_DEPTH
#define DD_SPLIT_DEPTH 4
#endif
/* The fewest cards in hands at the root for which a node below the root
 * may be shared (team.c starts no helper for a value below it: there only
 * the root could be, and its tests are too small to pay for a helper). */
#define DD_SPLIT_ROOT_MIN (DD_SPLIT_MIN + DD_SPLIT_DEPTH)

/* The fields of a solver that say where the search is. */
typedef struct dd_position {
    uint64_t hands[4];
    uint8_t trick[4];
    uint64_t in_trick;
    int trick_n, leader, won[2], pts_out;
    uint64_t zsum, kc[2];
} dd_position;

static inline void dd_position_save(const rook_solver *s, dd_position *p)
{
    for (int k = 0; k < 4; k++) {
        p->hands[k] = s->hands[k];
        p->trick[k] = s->trick[k];
    }
    p->trick_n = s->trick_n;
    p->in_trick = s->in_trick;
    p->leader = s->leader;
    p->won[0] = s->won[0];
    p->won[1] = s->won[1];
    p->pts_out = s->pts_out;
    p->zsum = s->zsum;
    p->kc[0] = s->kc[0];
    p->kc[1] = s->kc[1];
}

static inline void dd_position_load(rook_solver *s, const dd_position *p)
{
    for (int k = 0; k < 4; k++) {
        s->hands[k] = p->hands[k];
        s->trick[k] = p->trick[k];
    }
    s->trick_n = p->trick_n;
    s->in_trick = p->in_trick;
    s->leader = p->leader;
    s->won[0] = p->won[0];
    s->won[1] = p->won[1];
    s->pts_out = p->pts_out;
    s->zsum = p->zsum;
    s->kc[0] = p->kc[0];
    s->kc[1] = p->kc[1];
}

struct dd_split {
    struct dd_split *parent; /* the split point its owner searched under (NULL: none) */
    dd_position at;          /* the node's position */
    int n_cards;             /* cards in hands there */
    /* its moves and what is known of them (under the team's lock) */
    dd_moves mv;
    uint64_t cls[DD_MAX_MOVES], rels[DD_MAX_MOVES];
    int vals[DD_MAX_MOVES];
    uint8_t searched[DD_MAX_MOVES];
    int next;         /* the first move not taken (every move before it is) */
    int done;         /* one past the last move taken */
    uint32_t taken;   /* the moves taken, by index */
    uint32_t flying;  /* ... and not yet answered */
    uint32_t restart; /* moves in flight to search again: the window narrowed since they were taken */
    int maximize, best, alpha, beta;
    uint64_t R;    /* the cards the results so far rest on */
    int cut_card;  /* the move that closed the window (DD_NONE: none) */
    int workers;   /* threads in it, its owner included */
    int cut;       /* the window closed: every search under it stops */
    int abandoned; /* a move was left unfinished without this cut (one above it, or a failure):
                      its result is not known, so the node's is not either */
    /* how to search one of its moves: the node's own later-move search
     * (search.c gives it, so that this file knows nothing of the search) */
    int (*search_move)(rook_solver *s, int card, int maximize, int alpha, int beta, uint64_t *rel);
#ifdef DD_TEAM_STATS
    uint64_t stat_nodes[DD_MAX_MOVES]; /* (split.c's tallies) the nodes of each move */
    int stat_cut;                      /* the move that cut (DD_MAX_MOVES: none yet) */
#endif
};

/* The team's spin lock (over the split points and the team's fields). */
static inline void dd_team_lock(rook_dd_team *t)
{
    while (__atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&t->lock, __ATOMIC_RELAXED))
            ;
}

static inline void dd_team_unlock(rook_dd_team *t)
{
    __atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE);
}

/* Whether a node of n_cards cards in hands may be shared (see
 * DD_SPLIT_MIN and DD_SPLIT_DEPTH: the root, or deep enough below it) and
 * a team mate waits for work. */
static inline int dd_split_wanted(const rook_solver *s, int n_cards)
{
    int depth = s->root_cards - n_cards;
    return n_cards >= DD_SPLIT_MIN && (depth == 0 || depth >= DD_SPLIT_DEPTH)
        && __atomic_load_n(&s->split_team->idle, __ATOMIC_RELAXED) > 0;
}

/* Whether the team failed, or a split point the search runs under was cut,
 * or the window of the one whose move it searches narrowed since the move
 * was taken (split.c's work): then the search stops (s->aborted, with
 * ROOK_STOP_CUT, ROOK_STOP_RESTART or the failure's reason).  Looked at
 * every 16 nodes. */
static inline int dd_split_stopped(rook_solver *s)
{
    rook_dd_team *t = s->split_team;
    if (__atomic_load_n(&t->failed, __ATOMIC_RELAXED)) {
        s->aborted = 1;
        s->stop = __atomic_load_n(&t->fail_stop, __ATOMIC_RELAXED);
        return 1;
    }
    const dd_split *in = s->split;
    if (in && s->split_i >= 0 && ((__atomic_load_n(&in->restart, __ATOMIC_RELAXED) >> s->split_i) & 1)
        && !__atomic_load_n(&in->cut, __ATOMIC_RELAXED)) {
        s->aborted = 1;
        s->stop = ROOK_STOP_RESTART;
        return 1;
    }
    for (const dd_split *sp = s->split; sp; sp = sp->parent)
        if (__atomic_load_n(&sp->cut, __ATOMIC_RELAXED)) {
            s->aborted = 1;
            s->stop = ROOK_STOP_CUT;
            return 1;
        }
    return 0;
}

/* Search the moves sp->next .. of the node whose state sp holds (filled by
 * the node's owner, s, at the node's position), with whoever joins; return
 * when all have left.  s->aborted is set when the search must stop above
 * this node (a cut above it, a budget, a failure in the team). */
void dd_split_rest(rook_solver *s, dd_split *sp);

/* A member with nothing of its own to search: join the split points the
 * others open until the team's work is done (team->quit), the team fails,
 * or the caller stops this member.  Return 0, or -1 when it stopped on a
 * failure. */
int dd_split_help(rook_solver *s);

/* A member stopped on a budget or by its caller: the whole team stops. */
void dd_split_fail(rook_dd_team *t, int stop);

#endif
