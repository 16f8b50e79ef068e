/* solve.c: the solver's driver: the calls of solve.h.
 *
 * setup() maps the caller's position into the solver's layout (core.h)
 * and clears the table when the rules or the trump changed.  The value of a
 * position is found by null-window searches ("can team 0 take at least
 * T?", search.h), closing the interval [lo, hi] by halves on the grain of
 * the points (every value is a multiple of the gcd of the card points and
 * the end points); a fail-soft answer may close more than half.  The table
 * is shared between the steps, and between the cards when every card's
 * value is asked for.
 */
#define _POSIX_C_SOURCE 200809L      /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rook/solve/core.h"
#include "rook/solve/search.h"
#include "rook/solve/table.h"
#include "rook/solve/moves.h"

#define MIN_BUCKETS 256

static dd_table *table_new(size_t tt_bytes)
{
    dd_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* a quarter of the memory for the quasi-symmetry table */
    size_t q_bytes = DD_QS_SHARE ? tt_bytes / DD_QS_SHARE : 0;
    uint64_t n = (tt_bytes - q_bytes) / (DD_BUCKET * sizeof(dd_entry));
    if (n < MIN_BUCKETS)
        n = MIN_BUCKETS;
    uint64_t nq = q_bytes / (DD_QBUCKET * sizeof(dd_qentry));
    if (DD_QS_SHARE && nq < MIN_BUCKETS / 4)
        nq = MIN_BUCKETS / 4;
    size_t main_bytes = n * DD_BUCKET * sizeof(dd_entry);
    /* calloc: the pages are zeroed lazily; buckets start on cache lines */
    t->raw = calloc(main_bytes + nq * DD_QBUCKET * sizeof(dd_qentry) + 64, 1);
    if (!t->raw) {
        free(t);
        return NULL;
    }
    t->tt = (dd_entry *)(((uintptr_t)t->raw + 63) & ~(uintptr_t)63);
    t->n_buckets = n;
    t->qt = (dd_qentry *)((char *)t->tt + main_bytes);
    t->n_qbuckets = nq;
    t->refs = 1;
    return t;
}

static void table_release(dd_table *t)
{
    if (t && __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(t->raw);
        free(t);
    }
}

static void table_clear(dd_table *t)
{
    if (++t->gen == 0) {             /* wrapped: really clear */
        memset(t->tt, 0, t->n_buckets * DD_BUCKET * sizeof(dd_entry)
                         + t->n_qbuckets * DD_QBUCKET * sizeof(dd_qentry));
        t->gen = 1;
    }
}

rook_solver *rook_solver_new(size_t tt_bytes)
{
    rook_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->t = table_new(tt_bytes);
    if (!s->t) {
        free(s);
        return NULL;
    }
    return s;
}

void rook_solver_free(rook_solver *s)
{
    if (s) {
        table_release(s->t);
        free(s);
    }
}

void rook_solver_share(rook_solver *s, rook_solver *owner)
{
    if (s->t == owner->t)
        return;
    __atomic_add_fetch(&owner->t->refs, 1, __ATOMIC_ACQ_REL);
    table_release(s->t);
    s->t = owner->t;
}

void rook_solver_set_helper(rook_solver *s, int from_cards) { s->reverse_from = from_cards; }

void rook_solver_clear(rook_solver *s)
{
    table_clear(s->t);
}

void rook_solver_set_budget(rook_solver *s, uint64_t nodes) { s->budget = nodes; }

void rook_solver_set_time_budget(rook_solver *s, uint64_t ns) { s->time_budget_ns = ns; }

void rook_solver_set_progress(rook_solver *s, rook_dd_progress_fn fn, void *arg)
{
    s->progress = fn;
    s->progress_arg = arg;
}

int rook_solver_stop_reason(const rook_solver *s) { return s->stop; }

void rook_solver_abort(rook_solver *s)
{
    s->stop = ROOK_STOP_CALLER;
    __atomic_store_n(&s->aborted, 1, __ATOMIC_RELAXED);
}

void rook_solver_set_generalize(rook_solver *s, int on)
{
    s->exact_only = !on;
}

uint64_t rook_solver_nodes(const rook_solver *s) { return s->nodes; }

uint64_t rook_solver_stat(const rook_solver *s, int which)
{
    if (which >= 0 && which < 64)
        return s->nodes_by_cards[which];
    return which == 64 ? s->tt_hits : 0;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int gcd(int a, int b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t to_bits(const rook_solver *s, uint64_t cards)
{
    uint64_t m = 0;
    for (; cards; cards &= cards - 1)
        if (s->sbit[rook_lsb(cards)] != DD_NONE)
            m |= 1ULL << s->sbit[rook_lsb(cards)];
    return m;
}

/* Build the layout of (r, trump); return 0, or -2 when a suit does not fit
 * a lane. */
static int layout(rook_solver *s, const rook_rules *r, int trump)
{
    memset(s->sbit, DD_NONE, sizeof s->sbit);
    memset(s->card, DD_NONE, sizeof s->card);
    memset(s->pts, 0, sizeof s->pts);
    memset(s->tag, 0, sizeof s->tag);
    memset(s->tag_pts, 0, sizeof s->tag_pts);
    s->marked = 0;
    uint64_t tm = r->trumps[trump] & r->deck;
    for (int l = 0; l < 4; l++) {
        uint64_t cards = (l == trump ? tm : (ROOK_BB_COLOR(l) & ~tm)) & r->deck;
        uint8_t order[64];
        int n = 0;
        for (uint64_t m = cards; m; m &= m - 1) {
            int c = rook_lsb(m);
            int j = n++;
            while (j > 0 && r->strength[order[j - 1]] > r->strength[c]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = (uint8_t)c;
        }
        if (n > 16)
            return -2;
        for (int i = 0; i < n; i++) {
            int b = 16 * l + i;
            s->sbit[order[i]] = (uint8_t)b;
            s->card[b] = order[i];
            s->pts[b] = r->card_points[order[i]];
        }
    }
    if (to_bits(s, r->deck) == 0 && r->deck)
        return -2;
    s->n_grp = r->n_counter_groups;
    for (int g = 0; g < s->n_grp; g++) {
        s->grp_mask[g] = to_bits(s, r->counter_masks[g]);
        s->grp_val[g] = r->counter_values[g];
    }
    s->deck = to_bits(s, r->deck);
    s->anytime = to_bits(s, r->anytime);
    s->trump = trump;
    s->tlane = DD_LANE(trump);
    s->must_trump = r->must_trump;
    /* tags: 0 for a plain card, then one per kind of (points, anytime, bird) */
    int kinds[64], n_kinds = 0;
    s->exact_keys = s->exact_only;
    for (uint64_t m = s->deck; m; m &= m - 1) {
        int b = rook_lsb(m);
        int c = s->card[b];
        int kind = (s->pts[b] + 1024) * 4 + (int)((s->anytime >> b) & 1) * 2 + (c == ROOK_BIRD);
        if (kind == 1024 * 4)
            continue;
        int t = 0;
        while (t < n_kinds && kinds[t] != kind)
            t++;
        if (t == n_kinds)
            kinds[n_kinds++] = kind;
        if (t + 1 >= (1 << DD_TAG_PLANES))
            s->exact_keys = 1;
        else {
            s->tag[b] = (uint8_t)(t + 1);
            s->tag_pts[t + 1] = s->pts[b];
        }
        if (kind & 3)
            s->marked |= 1ULL << b;
    }
    for (int i = 0; i < 64; i++)
        s->zwon[i] = r->most_tricks_bonus ? dd_mix64(0x7A1CULL << 8 | (uint64_t)i) : 0;
    for (int seat = 0; seat < 4; seat++) {
        s->zlead[seat] = dd_mix64(0x5EA7ULL + (uint64_t)seat);
        for (int b = 0; b < 64; b++)
            s->z[seat][b] = ((s->deck >> b) & 1)
                ? dd_mix64(((uint64_t)seat << 16) | ((uint64_t)(b >> 4) << 8) | s->tag[b]) : 0;
    }
    return 0;
}

/* Prepare the solver for position p; return 0, or -2 when the position is
 * beyond what the solver holds (a suit of more than 16 cards, more than
 * DD_BOUND_MAX points, or end points over DD_END_MAX). */
static int setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    s->r = r;
    s->nodes = 0;
    s->tt_hits = 0;
    memset(s->nodes_by_cards, 0, sizeof s->nodes_by_cards);
    s->aborted = 0;
    s->stop = ROOK_STOP_NONE;
    s->deadline_ns = s->time_budget_ns ? now_ns() + s->time_budget_ns : 0;
    if (p->trump > 3 || layout(s, r, p->trump) < 0)
        return -2;
    for (int i = 0; i < 4; i++)
        s->hands[i] = to_bits(s, p->hands[i]);
    s->trick_n = p->trick_n;
    for (int i = 0; i < 4; i++)
        s->trick[i] = i < p->trick_n ? s->sbit[p->trick[i]] : DD_NONE;
    s->leader = p->leader;
    s->end_points = p->nest_points + r->last_trick_bonus;
    s->most_bonus = r->most_tricks_bonus;
    s->won[0] = p->tricks[0];
    s->won[1] = p->tricks[1];
    s->grain = gcd(s->end_points, s->most_bonus);
    for (int g = 0; g < s->n_grp; g++)
        s->grain = gcd(s->grain, s->grp_val[g]);
    if (s->grain == 0)
        s->grain = 1;
    s->pts_out = dd_points(s, dd_in_hands(s));
    for (int i = 0; i < s->trick_n; i++)
        s->pts_out += s->pts[s->trick[i]];
    s->zsum = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = s->hands[seat]; m; m &= m - 1)
            s->zsum += s->z[seat][rook_lsb(m)];
    if (dd_total(s) > DD_BOUND_MAX || s->end_points > DD_END_MAX || s->end_points < 0)
        return -2;
    /* Entries stay valid while the rules and the trump are the same; the
     * end points are stored with each entry (table.h). */
    dd_table *t = s->t;
    if (t->gen == 0 || t->ctx_r != r || t->ctx_trump != p->trump || t->ctx_exact != s->exact_only) {
        table_clear(t);
        t->ctx_r = r;
        t->ctx_trump = p->trump;
        t->ctx_exact = s->exact_only;
    }
    s->tt = t->tt;
    s->n_buckets = t->n_buckets;
    s->qt = t->qt;
    s->n_qbuckets = t->n_qbuckets;
    s->gen = t->gen;
    dd_search_reset(s);
    return 0;
}

static void report(rook_solver *s, int lo, int hi)
{
    if (s->progress)
        s->progress(s->progress_arg, lo, hi, s->nodes);
}

/* How narrow() picks its targets. */
enum { PICK_HALVE = 0, PICK_EDGES = 1 };

static int on_grain(int g, int gr) { return gr * ((g + gr - 1) / gr); }

/* Narrow [*lo, *hi], team 0's points from here (or after `card` when card
 * is a solver bit), with null-window searches until the value is known or
 * known to lie outside [wlo, whi] (*hi <= wlo or *lo >= whi).  The first
 * target is `guess` when it lies inside (guess < 0: none); with `step`,
 * the next two targets are right at the bound just proven (a fail-soft
 * bound is often the value: MTD(f)'s step); then the middle of what is left
 * on the grain (PICK_HALVE), or, while more than four grains are open, a
 * quarter in from one end and then from the other (PICK_EDGES: a target
 * far from the value is cheap to decide, so the bounds narrow from the
 * first second).  A fail-soft answer may close more than asked.  Return 0,
 * or -1 when a budget ran out (the bounds then hold what was proven). */
static int narrow(rook_solver *s, int card, int guess, int step, int pick, int wlo, int whi, int *lo,
                  int *hi)
{
    int gr = s->grain;
    int g = guess, steps = 0;
    /* PICK_EDGES: each probe at an end gets a node allowance; one that
     * runs past it yields to the other end, and when both have, the
     * allowance doubles (the table keeps what the stopped probes proved) */
    uint64_t allowance = 1 << 16, user_budget = s->budget;
    int tried = 0, side = 0;
    for (;;) {
        int L = *lo > wlo ? *lo : wlo, H = *hi < whi ? *hi : whi;
        if (L >= H)
            return 0;
        int open = (H - L) / gr;
        int capped = 0;
        if (g < 0) {
            if (pick == PICK_EDGES && open > 4) {
                int q = gr * (open / 4);
                g = side ? H - q : L + q;
                capped = 1;
            } else {
                g = L + gr * ((open + 1) / 2);
            }
            g = on_grain(g, gr);
        }
        if (g <= L)
            g = L + gr;
        if (g > H)
            g = H;
        if (capped) {
            uint64_t cap = s->nodes + allowance;
            s->budget = user_budget && user_budget < cap ? user_budget : cap;
        }
        uint64_t rel;
        int v = card != DD_NONE ? dd_child(s, card, g - 1, g, &rel) : dd_search(s, g - 1, g, &rel);
        s->budget = user_budget;
        if (s->aborted) {
            if (!capped || s->stop != ROOK_STOP_NODES || (user_budget && s->nodes >= user_budget))
                return -1;
            /* past the allowance: the other end, or a larger allowance */
            s->aborted = 0;
            s->stop = ROOK_STOP_NONE;
            side ^= 1;
            if (++tried >= 2) {
                tried = 0;
                allowance *= 2;
            }
            g = -1;
            continue;
        }
        tried = 0;
        if (capped)
            side ^= 1;
        int up = v >= g;
        if (up)
            *lo = v < *hi ? v : *hi;
        else
            *hi = v > *lo ? v : *lo;
        if (card == DD_NONE)
            report(s, *lo, *hi);
        g = step && steps < 2 ? (up ? *lo + gr : *hi) : -1;
        steps++;
    }
}

/* The first target without a guess: the middle of [0, total] on the grain. */
static int middle(const rook_solver *s, int total)
{
    return s->grain * ((total / s->grain + 1) / 2);
}

/* The value of the set-up position within [wlo, whi] (see rook_dd_value_in). */
static int root_value(rook_solver *s, int guess, int anytime, int wlo, int whi, int *lo, int *hi)
{
    int total = dd_total(s);
    *lo = 0;
    *hi = total;
    int step = guess >= 0;
    if (guess < 0 && !anytime)
        guess = middle(s, total);
    if (narrow(s, DD_NONE, guess, step, anytime ? PICK_EDGES : PICK_HALVE, wlo, whi, lo, hi) < 0)
        return -1;
    int v = *lo > wlo ? *lo : wlo;
    return v < whi ? v : whi;
}

int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target)
{
    if (setup(s, r, p) < 0)
        return -2;
    uint64_t rel;
    int v = dd_search(s, target - 1, target, &rel);
    if (s->aborted)
        return -1;
    return v >= target;
}

int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi)
{
    int a, b;
    if (setup(s, r, p) < 0)
        return -2;
    int v = root_value(s, -1, 0, 0, dd_total(s), &a, &b);
    if (lo)
        *lo = a;
    if (hi)
        *hi = b;
    return v;
}

int rook_dd_value_in(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi, int guess,
                     int anytime, int *lo, int *hi)
{
    int a, b;
    if (setup(s, r, p) < 0)
        return -2;
    if (wlo > whi)
        wlo = whi;
    int v = root_value(s, guess, anytime, wlo, whi, &a, &b);
    if (lo)
        *lo = a;
    if (hi)
        *hi = b;
    return v;
}

/* The root's moves after its value is known: every class of equal points
 * apart (their cards share a value). */
static int root_moves(rook_solver *s, dd_moves *mv)
{
    int seat = (s->leader + s->trick_n) & 3;
    dd_gen_moves(s, seat, DD_GEN_ROOT, mv);
    return !(seat & 1);
}

int rook_dd_best_cards(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                       uint64_t *best, int *lo, int *hi)
{
    int a, b;
    *best = 0;
    if (setup(s, r, p) < 0)
        return -2;
    int v = root_value(s, guess, 0, 0, dd_total(s), &a, &b);
    if (lo)
        *lo = a;
    if (hi)
        *hi = b;
    if (v < 0)
        return -1;
    dd_moves mv;
    int maximize = root_moves(s, &mv);
    for (int i = 0; i < mv.n; i++) {
        /* one null-window search: does this card keep the value? */
        uint64_t rel;
        int x = maximize ? dd_child(s, mv.card[i], v - 1, v, &rel) : dd_child(s, mv.card[i], v, v + 1, &rel);
        if (s->aborted)
            return -1;
        if (maximize ? x >= v : x <= v)
            for (uint64_t m = mv.cls[i]; m; m &= m - 1)
                *best |= 1ULL << s->card[rook_lsb(m)];
    }
    return v;
}

int rook_dd_move_values_guess(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                              int anytime, int32_t values[64], int *lo, int *hi)
{
    return rook_dd_move_values_guesses(s, r, p, guess, anytime, NULL, values, lo, hi);
}

int rook_dd_move_values_guesses(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                                int anytime, const int32_t card_guess[64], int32_t values[64], int *lo,
                                int *hi)
{
    int a, b;
    if (setup(s, r, p) < 0)
        return -2;
    int total = dd_total(s);
    /* The position's value first: the best card's value equals it, and it is
     * the first guess for every card. */
    int root = root_value(s, guess, anytime, 0, total, &a, &b);
    if (lo)
        *lo = a;
    if (hi)
        *hi = b;
    if (root < 0)
        return -1;
    dd_moves mv;
    int maximize = root_moves(s, &mv);
    int best = maximize ? -1 : total + 1;
    for (int i = 0; i < mv.n; i++) {
        /* no card beats the best: a card's value lies between the root's
         * and the sure bound on the other side */
        int clo = maximize ? 0 : root, chi = maximize ? root : total;
        int g = maximize ? root : root + s->grain;
        if (card_guess) {
            /* the caller's estimate of the card's value, inside its bounds */
            int cg = card_guess[s->card[mv.card[i]]];
            if (cg >= 0)
                g = cg < clo + s->grain ? clo + s->grain : cg > chi ? chi : on_grain(cg, s->grain);
        }
        if (narrow(s, mv.card[i], g, 1, PICK_HALVE, 0, total, &clo, &chi) < 0)
            return -1;
        for (uint64_t m = mv.cls[i]; m; m &= m - 1)
            values[s->card[rook_lsb(m)]] = clo;
        if (maximize ? clo > best : clo < best)
            best = clo;
    }
    return best;
}

int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64],
                        int *lo, int *hi)
{
    return rook_dd_move_values_guess(s, r, p, -1, 0, values, lo, hi);
}

int rook_dd_prepare(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    return setup(s, r, p) < 0 ? -2 : 0;
}

int rook_dd_move_values_shared(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int root,
                               int *next, int32_t values[64])
{
    if (setup(s, r, p) < 0)
        return -2;
    int total = dd_total(s);
    dd_moves mv;
    int maximize = root_moves(s, &mv);
    for (;;) {
        int i = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
        if (i >= mv.n)
            return 0;
        int clo = maximize ? 0 : root, chi = maximize ? root : total;
        if (narrow(s, mv.card[i], maximize ? root : root + s->grain, 1, PICK_HALVE, 0, total, &clo, &chi) < 0)
            return -1;
        for (uint64_t m = mv.cls[i]; m; m &= m - 1)
            values[s->card[rook_lsb(m)]] = clo;
    }
}

/* ---- teams: several threads on one value (rook_dd_value_team) ---- */

#ifndef DD_HELP_FROM
#define DD_HELP_FROM 32              /* cards in hands from which a helper rotates the moves */
#endif

static void team_lock(rook_dd_team *t)
{
    while (__atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&t->lock, __ATOMIC_RELAXED))
            ;
}

static void team_unlock(rook_dd_team *t) { __atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE); }

void rook_dd_team_init(rook_dd_team *team, int total, int wlo, int whi)
{
    memset(team, 0, sizeof *team);
    team->lo = 0;
    team->hi = total;
    team->wlo = wlo < 0 ? 0 : wlo;
    team->whi = whi > total ? total : whi;
    if (team->wlo > team->whi)
        team->wlo = team->whi;
}

/* The target for member `me`: the point of the grain inside (L, H] farthest
 * from L, from H + grain and from the other members' targets; 0 when every
 * point is taken (then the member joins the target of another). */
static int team_pick(const rook_dd_team *t, int me, int L, int H, int gr)
{
    int best = 0, best_d = -1;
    for (int x = on_grain(L + 1, gr); x <= H; x += gr) {
        int left = L, right = H + gr, taken = 0;
        for (int i = 0; i < ROOK_DD_TEAM_MAX; i++) {
            int y = t->probing[i];
            if (i == me || y <= L || y > H)
                continue;
            if (y == x)
                taken = 1;
            else if (y < x && y > left)
                left = y;
            else if (y > x && y < right)
                right = y;
        }
        int d = x - left < right - x ? x - left : right - x;
        if (!taken && d > best_d) {
            best_d = d;
            best = x;
        }
    }
    return best;
}

int rook_dd_value_team(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, rook_dd_team *team,
                       int me)
{
    if (me < 0 || me >= ROOK_DD_TEAM_MAX || setup(s, r, p) < 0)
        return -2;
    int gr = s->grain, result = 0;
    s->team = team;
    for (;;) {
        team_lock(team);
        int L = team->lo > team->wlo ? team->lo : team->wlo;
        int H = team->hi < team->whi ? team->hi : team->whi;
        if (L >= H) {
            team_unlock(team);
            break;
        }
        int g = team_pick(team, me, L, H, gr), helping = 0;
        if (!g) {
            /* every target is being searched: help with another's, trying
             * the first move of the top nodes last (so that the two
             * searches part ways) */
            for (int i = 0; i < ROOK_DD_TEAM_MAX && !g; i++)
                if (i != me && team->probing[i] > L && team->probing[i] <= H)
                    g = team->probing[i];
            helping = g != 0;
        }
        if (!g)
            g = H;
        s->reverse_from = helping ? -DD_HELP_FROM : 0;
        team->probing[me] = g;
        team_unlock(team);
        s->probe = g;
        uint64_t rel;
        int v = dd_search(s, g - 1, g, &rel);
        team_lock(team);
        team->probing[me] = 0;
        if (s->aborted) {
            if (s->stop == ROOK_STOP_MOOT) {
                s->aborted = 0;
                s->stop = ROOK_STOP_NONE;
                team_unlock(team);
                continue;
            }
            team_unlock(team);
            result = -1;
            break;
        }
        if (v >= g) {
            int lo = v < team->hi ? v : team->hi;
            if (lo > team->lo)
                __atomic_store_n(&team->lo, lo, __ATOMIC_RELAXED);
        } else {
            int hi = v > team->lo ? v : team->lo;
            if (hi < team->hi)
                __atomic_store_n(&team->hi, hi, __ATOMIC_RELAXED);
        }
        int lo = team->lo, hi = team->hi;
        team_unlock(team);
        if (team->progress)
            team->progress(team->progress_arg, lo, hi, s->nodes);
    }
    s->team = NULL;
    s->reverse_from = 0;
    if (result < 0)
        return -1;
    int v = team->lo > team->wlo ? team->lo : team->wlo;
    return v < team->whi ? v : team->whi;
}

int rook_dd_solve_batch(rook_solver *s, const rook_rules *r, const rook_dd_pos *ps, int n, int keep,
                        int guesses, int32_t *values, int32_t *roots)
{
    int64_t sum[64] = {0}, root_sum = 0;
    int count[64] = {0}, solved = 0;
    int32_t card_guess[64];
    for (int i = 0; i < n; i++) {
        if (!keep)
            rook_solver_clear(s);
        int32_t *v = values + 64 * i;
        for (int c = 0; c < 64; c++) {
            v[c] = -1;
            card_guess[c] = guesses && count[c] ? (int32_t)(sum[c] / count[c]) : -1;
        }
        int g = guesses && solved ? (int)(root_sum / solved) : -1;
        roots[i] = rook_dd_move_values_guesses(s, r, &ps[i], g, 0, guesses ? card_guess : NULL, v, NULL,
                                               NULL);
        if (roots[i] == -2)
            continue;
        if (roots[i] < 0) {
            if (s->stop == ROOK_STOP_CALLER)
                return solved;
            continue;
        }
        solved++;
        root_sum += roots[i];
        for (int c = 0; c < 64; c++)
            if (v[c] >= 0) {
                sum[c] += v[c];
                count[c]++;
            }
    }
    return solved;
}
