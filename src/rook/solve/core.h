/* core.h: the solver's context, its card layout, and the trick rules in it.
 *
 * Contract.  Every file of the solver works on one `rook_solver`, which
 * holds the table, the budgets, the context (rules and trump) and the
 * position being searched.  Inside the solver a card is a *solver bit*, not
 * a card id: suit s (the trump suit is the trump's own lane; the bird and
 * any permanent trump join it) owns bits 16s .. 16s+15, and within a lane
 * a higher bit is a stronger card.  So "the cards of a suit above c" is a
 * mask, the winner of a trick is the highest key, and two cards of a lane
 * are neighbours in rank when no card between them is still out.  dd_setup()
 * (context.c) maps the caller's card ids in; answers are mapped back out.
 *
 * The helpers here are exact restatements of rules.h (T-9 .. T-12) in this
 * layout: legal cards, the winning key of a card in a trick, points.
 */
#ifndef ROOK_SOLVE_CORE_H
#define ROOK_SOLVE_CORE_H

#include <stdint.h>
#include "rook/rules.h"
#include "rook/solve.h"

#define DD_NONE       255 /* no card / no lane */
#define DD_LANE(s)    (0xFFFFULL << (16 * (s)))
#define DD_MAX_TRICKS 16 /* 4 * 16 cards: every deck fits */
#define DD_TAG_PLANES 3  /* tags 0..7: 0 plain, then kinds of cards */
#define DD_KILLERS    2

/* The key of a trick boundary, packed: key bit i is the i-th card still in
 * hands in solver-bit order (so each suit is a run of key bits, weakest
 * first; the runs' lengths come from the suit counts in `coarse`).
 * plane[0], plane[1]: the holder's seat bits; plane[2..4]: the tag bits. */
#define DD_PLANES (2 + DD_TAG_PLANES)
typedef struct dd_key {
    uint64_t coarse; /* leader, tricks won, counts by (seat, suit, tag) */
    uint64_t plane[DD_PLANES];
    uint64_t out;        /* the cards in hands (solver bits) the key was made of */
    uint8_t lane_end[4]; /* the key bit after each lane's last */
    int live;            /* the key belongs to the boundary on the current path */
} dd_key;

typedef struct dd_entry dd_entry;
typedef struct dd_split dd_split;
typedef struct dd_worker dd_worker;
typedef struct dd_qentry dd_qentry;

/* The memory of the tables, which several solvers (threads) may share: they
 * must then search positions of one context (rules and trump) at a time;
 * entries are written and read without locks (table.h). */
typedef struct dd_table {
    void *raw;        /* the allocation */
    size_t raw_bytes; /* its size when mapped (0: from calloc) */
    dd_entry *tt;
    uint64_t n_buckets;
    dd_qentry *qt; /* the quasi-symmetry table */
    uint64_t n_qbuckets;
    uint8_t gen;             /* entries of another generation are empty */
    int refs;                /* solvers using it */
    const rook_rules *ctx_r; /* the context the entries belong to */
    int ctx_trump, ctx_exact, ctx_qwide, ctx_pgen;
    int small; /* under DD_PGEN_TABLE_BELOW_MIB in all (table.h) */
} dd_table;

#define DD_KINDS 3 /* the most point values of unmarked cards an entry counts below its kept line */

/* A pause in a spin loop (a thread waiting for another's store). */
static inline void dd_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

struct rook_solver {
    /* the table (a copy of the shared one's fields, made at setup) */
    dd_table *t;
    dd_entry *tt;
    uint64_t n_buckets; /* of the layout's size: one line, or two with pgen (table.h) */
    int tt_shift;       /* log2 of a bucket's slots */
    dd_qentry *qt;
    uint64_t n_qbuckets; /* of the entries' size */
    int qwide;           /* quasi-symmetry entries of two slots (table.h) */
    uint8_t gen;
    /* budgets and statistics */
    uint64_t nodes, budget;
    uint64_t time_budget_ns, deadline_ns;
    int stop, aborted; /* (the searching thread's own) */
    int abort_request; /* rook_solver_abort, from any thread: read and written atomically */
#ifdef DD_TORN_READS
    uint64_t torn_stores; /* (table.h's diagnostic) the stores so far */
#endif
    int tolerance; /* card values wanted only to within this many points (rook_dd_move_bounds; 0: exact) */
    unsigned interrupts; /* the count of Ctrl-Cs its caller began at (interrupt.c) */
    uint64_t nodes_by_cards[65];
    uint64_t tt_hits;
    int exact_only;  /* rook_solver_set_generalize(s, 0) */
    int record_root; /* the next dd_search call is a root: keep root_best */
    int root_best;   /* the root's best value so far (wide_value starts it past the far end) */
    /* progress reports (rook_solver_set_progress) */
    rook_dd_progress_fn progress;
    void *progress_arg;
    struct rook_dd_team *team;       /* a team searching one position together (team.c) */
    int probe;                       /* the target of the null-window search under way */
    int rotate_from;                 /* a team member helping with a mate's target tries the
                                        first move of nodes of this many cards or more last (0: never) */
    struct rook_dd_team *split_team; /* a team sharing the later moves of big nodes (split.h) */
    dd_split *split;                 /* the innermost split point this thread searches under */
    int split_i;                     /* the move it searches there (-1: none) */
    dd_worker *worker;               /* its own thread for team calls (worker.c; NULL: none yet) */
    /* per (rules, trump): the layout */
    const rook_rules *r;
    uint8_t sbit[64]; /* card id -> solver bit (DD_NONE: not in the deck) */
    uint8_t card[64]; /* solver bit -> card id */
    int16_t pts[64];  /* points of each solver bit */
    uint64_t grp_mask[ROOK_MAX_COUNTER_GROUPS];
    int32_t grp_val[ROOK_MAX_COUNTER_GROUPS];
    int n_grp;
    uint64_t deck;       /* solver bits of the deck */
    uint64_t anytime;    /* T-9: may be played instead of following */
    uint64_t tlane;      /* the trump lane */
    int trump;           /* the trump lane's index */
    uint8_t wkey[4][64]; /* dd_win_key by led lane and solver bit */
    int must_trump;
    uint8_t tag[64];                     /* key tag of each solver bit */
    int16_t tag_pts[1 << DD_TAG_PLANES]; /* the points of each tag */
    uint64_t marked;                     /* cards whose tag says more than points (any-time, bird) */
    uint64_t tag_mask[DD_TAG_PLANES];    /* the cards whose tag has bit p */
    int pext;                            /* keys by bit extraction (table.h: a CPU where it is fast) */
    int exact_keys;                      /* more kinds than tag planes: every card kept */
    uint64_t z[4][64];                   /* coarse hash terms by seat and solver bit: (seat, suit, tag) */
    int pgen;                            /* entries stand for other points below the kept line (table.h) */
    int n_kinds;                         /* the point values of unmarked cards that are not 0 ... */
    int kind_pts[DD_KINDS];              /* ... ascending, */
    uint64_t kind_mask[DD_KINDS];        /* ... and their cards */
    uint64_t kunit[4][64];               /* a card's unit in the counts kc, by seat and solver bit, */
    uint8_t kword[64];                   /* in word kc[kword[b]] */
    uint64_t zlead[4];
    uint64_t zwon[64];
    /* the position being searched */
    uint64_t hands[4];
    uint8_t trick[4]; /* solver bits, led card first */
    int trick_n, leader;
    uint64_t in_trick; /* the cards of trick[0 .. trick_n - 1] */
    int end_points;    /* nest points + last-trick bonus, to the last trick's team */
    int most_bonus;
    int won[2];
    int grain;
    int pts_out; /* points in hands and in the current trick */
    uint64_t zsum;
    uint64_t kc[2]; /* (with pgen) counts of the cards in hands by point value, seat and suit (table.h) */
    /* search helpers */
    dd_key keys[DD_MAX_TRICKS + 1];                /* by tricks left: the boundary keys on the current path */
    uint8_t killer[DD_MAX_TRICKS + 1][DD_KILLERS]; /* leads that cut, by tricks left */
    int root_cards;                                /* cards in hands at the root */
#ifdef DD_ORACLE
    int oracle; /* searching for the move-ordering oracle (search.c) */
#endif
};

/* The lane (suit) of solver bit b. */
static inline int dd_lane(int b)
{
    return b >> 4;
}

/* The cards of b's lane strictly above b. */
static inline uint64_t dd_above(int b)
{
    return DD_LANE(b >> 4) & ~((2ULL << b) - 1);
}

/* The cards of b's lane strictly below b. */
static inline uint64_t dd_below(int b)
{
    return DD_LANE(b >> 4) & ((1ULL << b) - 1);
}

/* Every card in the four hands. */
static inline uint64_t dd_in_hands(const rook_solver *s)
{
    return s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
}

/* The points of the cards in mask m (T-12). */
static inline int dd_points(const rook_solver *s, uint64_t m)
{
    int p = 0;
    for (int g = 0; g < s->n_grp; g++)
        p += s->grp_val[g] * rook_popcount(m & s->grp_mask[g]);
    return p;
}

/* The legal cards of `hand` when `led` began the trick (DD_NONE: leading):
 * T-9, T-10 as rook_legal_mask, in solver bits. */
static inline uint64_t dd_legal(const rook_solver *s, uint64_t hand, int led)
{
    if (led == DD_NONE)
        return hand;
    uint64_t follow = hand & DD_LANE(led >> 4);
    if (follow)
        return follow | (hand & s->anytime);
    if (s->must_trump && (hand & s->tlane))
        return hand & s->tlane;
    return hand;
}

/* The winning key of card b in a trick led from lane `led_lane` (T-11): the
 * highest key wins; cards of other suits have key 0. */
static inline int dd_win_key(const rook_solver *s, int b, int led_lane)
{
    return s->wkey[led_lane][b];
}

/* The cards that beat a card of winning key `key` in a trick led from
 * `led_lane`: higher trumps, and for a card of the led suit, higher cards
 * of it and every trump. */
static inline uint64_t dd_beaters(const rook_solver *s, int key, int led_lane)
{
    if (key >= 128)
        return dd_above(key - 128);
    if (key >= 64)
        return dd_above(key - 64) | s->tlane;
    return DD_LANE(led_lane) | s->tlane;
}

/* The index in trick[0..3] of the winning card. */
static inline int dd_trick_winner(const rook_solver *s, const uint8_t *t)
{
    int ll = t[0] >> 4, best = 0, bk = dd_win_key(s, t[0], ll);
    for (int i = 1; i < 4; i++) {
        int k = dd_win_key(s, t[i], ll);
        if (k > bk) {
            bk = k;
            best = i;
        }
    }
    return best;
}

/* Whether the solver's caller asked it to stop (rook_solver_abort, from
 * any thread); the search then sets its own aborted and stop. */
static inline int dd_abort_requested(const rook_solver *s)
{
    return __atomic_load_n(&s->abort_request, __ATOMIC_RELAXED);
}

/* Why a team of probes must stop (ROOK_STOP_NONE: it need not): a member
 * stopped (its budget, its caller: team->failed, for its reason), or its
 * first member was asked to stop (ROOK_STOP_CALLER). */
static inline int dd_team_stop(const rook_dd_team *t)
{
    if (__atomic_load_n(&t->failed, __ATOMIC_RELAXED))
        return __atomic_load_n(&t->fail_stop, __ATOMIC_RELAXED);
    return t->lead && dd_abort_requested(t->lead) ? ROOK_STOP_CALLER : ROOK_STOP_NONE;
}

/* Points still to be taken from the current position (team 0 + team 1). */
static inline int dd_total(const rook_solver *s)
{
    return s->pts_out + s->end_points + s->most_bonus;
}

#endif
