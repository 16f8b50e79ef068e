/* driver.c: the calls of solve.h that answer questions about a position.
 *
 * The value of a position is found by one wide-window search (search.h's
 * principal variation search), or by two around a caller's guess, when
 * nobody watches the bounds narrow; else by null-window searches ("can
 * team 0 take at least T?"), closing the interval [lo, hi] on the grain of
 * the points (every value is a multiple of the gcd of the card points and
 * the end points); a fail-soft answer may close more than asked.  The
 * targets come from the middle of what is open, from a caller's guess
 * (then stepping from the bounds it proves), or from a quarter in from
 * each end under a growing node allowance, nearer the middle once few
 * grains are open (anytime: the bounds narrow from the start).  Every
 * card's value: the root's classes one after another, the first by a wide
 * search and each later one by probes from the best value so far (most
 * classes fall short of it), which is the position's
 * value in the end; or, when a guess, an anytime order, a progress function
 * or a budget asks for the position's value first, by probes from it.
 * Every card's value to within a tolerance (rook_dd_move_bounds): the same
 * probes, stopped once the bounds are that close, and stepping that far in
 * from a bound just proven (probes far from a value are cheap).  The table
 * is shared between the steps, and between the cards.
 */
#include "rook/solve/driver.h"
#include "rook/solve/context.h"
#include "rook/solve/search.h"
#include "rook/solve/moves.h"

/* The shortest time budget of which a value keeps a tenth for bounds. */
#define DD_BOUNDS_RESERVE_FROM_NS 1000000000ULL

static void report(rook_solver *s, int lo, int hi)
{
    if (s->progress)
        s->progress(s->progress_arg, lo, hi, s->nodes);
}

/* The most grains open at which PICK_EDGES halves what is open. */
#define DD_HALVE_OPEN 4

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
int dd_narrow(rook_solver *s, int card, int guess, int step, int pick, int wlo, int whi, int *lo, int *hi)
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
        if (L >= H || (card != DD_NONE && H - L <= s->tolerance))
            return 0;
        int open = (H - L) / gr;
        int capped = 0;
        if (g < 0) {
            if (pick == PICK_EDGES && open > DD_HALVE_OPEN) {
                int q = gr * (open / 4);
                g = side ? H - q : L + q;
                /* with 2 * DD_HALVE_OPEN + 1 grains or fewer open, no
                 * nearer the end than leaves DD_HALVE_OPEN open whichever
                 * way the probe falls: on a hard deal a probe near the
                 * value costs about as much as one far from it
                 * (docs/solver.md), and one completed probe then brings
                 * the bounds to halving.  72 full
                 * partnership-57 deals at 60 M nodes (bench/solver_vs.py
                 * --what anytime): 69 within four grains against 65, the
                 * sum of the widths 340 against 335; nodes to the exact
                 * value 1.04x more there (24 deals), 1.04x fewer on 150
                 * tournament deals.  Either end alone did worse. */
                if (open <= 2 * DD_HALVE_OPEN + 1) {
                    int low = H - DD_HALVE_OPEN * gr, high = L + (DD_HALVE_OPEN + 1) * gr;
                    g = side ? (g > high ? high : g) : (g < low ? low : g);
                }
                capped = 1;
            } else {
                g = L + gr * ((open + 1) / 2);
            }
            g = dd_on_grain(g, gr);
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
        /* (with a tolerance t, the steps go t in from the bound: one that
         * holds leaves at most t open, and a target that far from the
         * likely value is cheaper to decide) */
        int t = card != DD_NONE && s->tolerance > gr ? s->tolerance : gr;
        g = step && steps < 2 ? (up ? *lo + t : *hi - t + gr) : -1;
        steps++;
    }
}

/* The first target without a guess: the middle of [0, total] on the grain. */
static int middle(const rook_solver *s, int total)
{
    return s->grain * ((total / s->grain + 1) / 2);
}

/* Whether the value may come from wide-window searches (wide_value) rather
 * than null-window probes: when nobody watches the bounds narrow (no
 * progress function, not anytime). */
static int wide_ok(const rook_solver *s, int anytime)
{
    return !anytime && !s->progress;
}

/* The value within [wlo, whi] by wide-window searches (search.c's principal
 * variation search): one over the window; with a guess, first one over the
 * guess alone (an aspiration window: a guess a grain off still costs less
 * than no guess), then one over the side the answer fell on.  [*lo, *hi]
 * get the bounds proven; a search stopped by a budget has proven the best
 * of the root's moves searched so far (a bound on the side of the team to
 * move). */
static void wide_value(rook_solver *s, int guess, int wlo, int whi, int *lo, int *hi)
{
    int a = wlo - 1, b = whi + 1;
    int maximize = !(((s->leader + s->trick_n) & 3) & 1);
    if (guess > wlo && guess < whi) {
        a = guess - 1;
        b = guess + 1;
    }
    for (;;) {
        uint64_t rel;
        s->record_root = 1;
        s->root_best = maximize ? -1 : dd_total(s) + 1;
        int v = dd_search(s, a, b, &rel);
        s->record_root = 0;
        if (s->aborted) {
            /* a move's value past the window's near end is proven */
            if (maximize && s->root_best > a && s->root_best > *lo)
                *lo = s->root_best < *hi ? s->root_best : *hi;
            if (!maximize && s->root_best < b && s->root_best < *hi)
                *hi = s->root_best > *lo ? s->root_best : *lo;
            return;
        }
        if (v <= a)
            *hi = v;
        else if (v >= b)
            *lo = v;
        else
            *lo = *hi = v;
        int L = *lo > wlo ? *lo : wlo, H = *hi < whi ? *hi : whi;
        if (L >= H)
            return;
        a = L - 1;
        b = H + 1;
    }
}

/* The value of the set-up position within [wlo, whi] (see rook_dd_value_in);
 * *out_lo and *out_hi (when not NULL) get the bounds proven. */
static int root_value(rook_solver *s, int guess, int anytime, int wlo, int whi, int *out_lo, int *out_hi)
{
    int total = dd_total(s);
    int lo = 0, hi = total;
    int step = guess >= 0;
    if (guess < 0 && !anytime)
        guess = middle(s, total);
    int r;
    if (wide_ok(s, anytime)) {
        /* with a time budget of a second or more, the wide search stops at
         * nine tenths of it and the rest narrows the bounds from the ends
         * (a wide search proves nothing until the root's first move is
         * done: a 14-trick deal could end a minute with [0, total]) */
        uint64_t deadline = s->deadline_ns, now = deadline ? dd_now_ns() : 0;
        if (deadline >= now + DD_BOUNDS_RESERVE_FROM_NS)
            s->deadline_ns = now + (deadline - now) / 10 * 9;
        wide_value(s, step ? guess : -1, wlo, whi, &lo, &hi);
        if (s->aborted && s->stop == ROOK_STOP_TIME && deadline > dd_now_ns()) {
            s->deadline_ns = deadline;
            s->aborted = 0;
            s->stop = ROOK_STOP_NONE;
            dd_narrow(s, DD_NONE, -1, 0, PICK_EDGES, wlo, whi, &lo, &hi);
        }
        s->deadline_ns = deadline;
        r = s->aborted ? -1 : 0;
    } else {
        r = dd_narrow(s, DD_NONE, guess, step, anytime ? PICK_EDGES : PICK_HALVE, wlo, whi, &lo, &hi);
    }
    if (out_lo)
        *out_lo = lo;
    if (out_hi)
        *out_hi = hi;
    if (r < 0)
        return -1;
    int v = lo > wlo ? lo : wlo;
    return v < whi ? v : whi;
}

int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target)
{
    if (dd_setup(s, r, p) < 0)
        return -2;
    uint64_t rel;
    int v = dd_search(s, target - 1, target, &rel);
    if (s->aborted)
        return -1;
    return v >= target;
}

int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi)
{
    if (dd_setup(s, r, p) < 0)
        return -2;
    return root_value(s, -1, 0, 0, dd_total(s), lo, hi);
}

int rook_dd_value_in(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int wlo, int whi, int guess,
                     int anytime, int *lo, int *hi)
{
    if (dd_setup(s, r, p) < 0)
        return -2;
    if (wlo > whi)
        wlo = whi;
    return root_value(s, guess, anytime, wlo, whi, lo, hi);
}

/* The root's moves after its value is known: every class of equal points
 * apart (their cards share a value). */
int dd_root_moves(rook_solver *s, dd_moves *mv)
{
    int seat = (s->leader + s->trick_n) & 3;
    dd_gen_moves(s, seat, DD_GEN_ROOT, mv);
    return !(seat & 1);
}

int rook_dd_best_cards(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess, uint64_t *best,
                       int *lo, int *hi)
{
    *best = 0;
    if (dd_setup(s, r, p) < 0)
        return -2;
    int v = root_value(s, guess, 0, 0, dd_total(s), lo, hi);
    if (v < 0)
        return -1;
    dd_moves mv;
    int maximize = dd_root_moves(s, &mv);
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

/* The value of the root's class i when the position's value is not known:
 * narrowed from the best value another class proved (*bound; a first
 * guess: most classes fall short of it), or, while none has, by a wide
 * search (with a tolerance, by probes from the middle: a wide search is
 * exact); then *bound moves to it when it is better.  [*lo, *hi] get the
 * bounds proven (equal without a tolerance).  Return -1 when a budget ran
 * out. */
static int open_class_value(rook_solver *s, int *bound, const dd_moves *mv, int i, int maximize, int total,
                            int *lo, int *hi)
{
    int b = __atomic_load_n(bound, __ATOMIC_RELAXED);
    int none = maximize ? b <= 0 : b >= total;
    *lo = 0;
    *hi = total;
    if (none && !s->tolerance) {
        uint64_t rel;
        *lo = *hi = dd_child(s, mv->card[i], -1, total + 1, &rel);
        if (s->aborted)
            return -1;
    } else {
        int g = none ? middle(s, total) : maximize ? b : b + s->grain;
        if (dd_narrow(s, mv->card[i], g, 1, PICK_HALVE, 0, total, lo, hi) < 0)
            return -1;
    }
    /* the best proven: the class's lower bound for team 0, upper for team 1 */
    int v = maximize ? *lo : *hi;
    for (int cur = __atomic_load_n(bound, __ATOMIC_RELAXED); maximize ? v > cur : v < cur;)
        if (__atomic_compare_exchange_n(bound, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            break;
    return 0;
}

/* Take the first class not yet taken in *taken (a mask), or with from_end
 * the last; -1 when none is left. */
static int take_class(int *taken, int n, int from_end)
{
    for (int cur = __atomic_load_n(taken, __ATOMIC_RELAXED);;) {
        int free = ~cur & ((1 << n) - 1);
        if (!free)
            return -1;
        int i = from_end ? 31 - __builtin_clz((unsigned)free) : __builtin_ctz((unsigned)free);
        if (__atomic_compare_exchange_n(taken, &cur, cur | 1 << i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return i;
    }
}

int dd_class_values(rook_solver *s, const dd_moves *mv, int maximize, int root, int *taken, int *bound,
                    int32_t values[64], int32_t *uppers, int from_end)
{
    int total = dd_total(s);
    for (;;) {
        int i = take_class(taken, mv->n, from_end);
        if (i < 0)
            return 0;
        int clo = maximize ? 0 : root, chi = maximize ? root : total;
        if (root < 0 ? open_class_value(s, bound, mv, i, maximize, total, &clo, &chi) < 0
                     : dd_narrow(s, mv->card[i], maximize ? root : root + s->grain, 1, PICK_HALVE, 0, total,
                                 &clo, &chi)
                    < 0)
            return -1;
        for (uint64_t m = mv->cls[i]; m; m &= m - 1) {
            values[s->card[rook_lsb(m)]] = clo;
            if (uppers)
                uppers[s->card[rook_lsb(m)]] = chi;
        }
    }
}

int rook_dd_move_values_guess(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess, int anytime,
                              int32_t values[64], int *lo, int *hi)
{
    return rook_dd_move_values_guesses(s, r, p, guess, anytime, NULL, values, lo, hi);
}

int rook_dd_move_values_guesses(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int guess,
                                int anytime, const int32_t card_guess[64], int32_t values[64], int *lo, int *hi)
{
    if (dd_setup(s, r, p) < 0)
        return -2;
    int total = dd_total(s);
    if (guess < 0 && !card_guess && wide_ok(s, anytime) && !s->budget && !s->deadline_ns) {
        /* nothing to start from, nobody watching the value narrow and no
         * budget (a stop keeps the value when it comes first): the cards
         * one class after another, each narrowed from the best value so
         * far (which is the value in the end), without the value's own
         * search first (its root tests would be searched again) */
        dd_moves mv;
        int maximize = dd_root_moves(s, &mv);
        int best = maximize ? 0 : total, taken = 0;
        int r = dd_class_values(s, &mv, maximize, -1, &taken, &best, values, NULL, 0);
        if (lo)
            *lo = r < 0 && !maximize ? 0 : best;
        if (hi)
            *hi = r < 0 && maximize ? total : best;
        return r < 0 ? -1 : best;
    }
    /* The position's value first: the best card's value equals it, and it is
     * the first guess for every card. */
    int root = root_value(s, guess, anytime, 0, total, lo, hi);
    if (root < 0)
        return -1;
    dd_moves mv;
    int maximize = dd_root_moves(s, &mv);
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
                g = cg < clo + s->grain ? clo + s->grain : cg > chi ? chi : dd_on_grain(cg, s->grain);
        }
        if (dd_narrow(s, mv.card[i], g, 1, PICK_HALVE, 0, total, &clo, &chi) < 0)
            return -1;
        for (uint64_t m = mv.cls[i]; m; m &= m - 1)
            values[s->card[rook_lsb(m)]] = clo;
        if (maximize ? clo > best : clo < best)
            best = clo;
    }
    return best;
}

int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64], int *lo,
                        int *hi)
{
    return rook_dd_move_values_guess(s, r, p, -1, 0, values, lo, hi);
}

int rook_dd_move_bounds(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int tolerance,
                        int32_t lo[64], int32_t hi[64])
{
    if (dd_setup(s, r, p) < 0)
        return -2;
    dd_moves mv;
    int maximize = dd_root_moves(s, &mv);
    int total = dd_total(s), best = maximize ? 0 : total, taken = 0;
    s->tolerance = tolerance > 0 ? tolerance : 0;
    int res = dd_class_values(s, &mv, maximize, -1, &taken, &best, lo, hi, 0);
    s->tolerance = 0;
    return res;
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
        roots[i] = rook_dd_move_values_guesses(s, r, &ps[i], g, 0, guesses ? card_guess : NULL, v, NULL, NULL);
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
