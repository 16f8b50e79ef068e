/* context.c: a solver's life: its table (alone or shared), its budgets,
 * and setting it up for a position.
 *
 * dd_setup() maps the caller's position into the solver's layout (core.h):
 * each suit's cards, the trump lane with the bird and permanent trumps in
 * it, in rank order; the points, tags and hash terms of every card; and
 * empties the table when the rules or the trump changed since its entries
 * were made, or the size of the quasi-symmetry entries, which the cards
 * dealt choose (the end points, which differ between nests, are kept with
 * each entry instead: table.h).
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, madvise */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "rook/solve/context.h"
#include "rook/solve/search.h"
#include "rook/solve/quasi.h"
#include "rook/solve/endgame.h"
#include "rook/solve/worker.h"

#define MIN_BUCKETS 256

/* Whether the environment variable `name` is set to something other than
 * "" or "0" (ROOK_NO_PEXT, ROOK_NO_HUGE_PAGES). */
static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && *v != '0';
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define DD_HUGE_PAGES 1
#define HUGE_PAGE     ((size_t)2 << 20)
#else
#define DD_HUGE_PAGES 0
#endif

/* Zeroed memory for a table of `bytes`.  On Linux a table of 4 MiB or more
 * is mapped on its own, from a 2 MiB boundary, and asks for huge pages (one
 * TLB entry where 4 KiB pages need 512), since nearly every probe of a big
 * table lands on a page the last probes did not touch; *mapped gets the
 * size to unmap.  ROOK_NO_HUGE_PAGES=1, a smaller table or another system:
 * calloc (pages zeroed lazily), *mapped 0. */
static void *table_memory(size_t bytes, size_t *mapped)
{
    *mapped = 0;
#if DD_HUGE_PAGES
    if (bytes >= 2 * HUGE_PAGE && !env_flag("ROOK_NO_HUGE_PAGES")) {
        size_t size = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        /* one huge page more, to cut the aligned part out of */
        char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            char *a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
            size_t head = (size_t)(a - p);
            if (head)
                munmap(p, head);
            munmap(a + size, HUGE_PAGE - head); /* head < HUGE_PAGE */
            madvise(a, size, MADV_HUGEPAGE);    /* a hint: no huge pages is fine */
            *mapped = size;
            return a;
        }
    }
#endif
    return calloc(bytes + DD_TT_ALIGN, 1);
}

static void table_memory_free(void *p, size_t mapped)
{
#if DD_HUGE_PAGES
    if (mapped) {
        munmap(p, mapped);
        return;
    }
#endif
    (void)mapped;
    free(p);
}

/* The bytes of both tables' entries. */
static size_t table_bytes(const dd_table *t)
{
    return t->n_buckets * DD_BUCKET * sizeof(dd_entry) + t->n_qbuckets * DD_QBUCKET * sizeof(dd_qentry);
}

static dd_table *table_new(size_t tt_bytes)
{
    dd_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    /* 1 / DD_QS_SHARE of the memory for the quasi-symmetry table (quasi.h) */
    size_t q_bytes = DD_QS_SHARE ? tt_bytes / DD_QS_SHARE : 0;
    /* buckets of DD_BUCKET entries; with pgen, pairs of them make one (table.h) */
    uint64_t n = (tt_bytes - q_bytes) / (DD_BUCKET * sizeof(dd_entry)) & ~1ULL;
    if (n < MIN_BUCKETS)
        n = MIN_BUCKETS;
    uint64_t nq = q_bytes / (DD_QBUCKET * sizeof(dd_qentry));
    if (DD_QS_SHARE && nq < MIN_BUCKETS / 4)
        nq = MIN_BUCKETS / 4;
    size_t main_bytes = n * DD_BUCKET * sizeof(dd_entry);
    /* buckets start on cache lines */
    t->raw = table_memory(main_bytes + nq * DD_QBUCKET * sizeof(dd_qentry), &t->raw_bytes);
    if (!t->raw) {
        free(t);
        return NULL;
    }
    t->tt = (dd_entry *)(((uintptr_t)t->raw + DD_TT_ALIGN - 1) & ~(uintptr_t)(DD_TT_ALIGN - 1));
    t->n_buckets = n;
    t->qt = (dd_qentry *)((char *)t->tt + main_bytes);
    t->n_qbuckets = nq;
    t->small = table_bytes(t) < (size_t)DD_PGEN_TABLE_BELOW_MIB << 20;
    t->refs = 1;
    return t;
}

static void table_release(dd_table *t)
{
    if (t && __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        table_memory_free(t->raw, t->raw_bytes);
        free(t);
    }
}

static void table_clear(dd_table *t)
{
    if (++t->gen == 0) { /* wrapped: really clear */
        memset(t->tt, 0, table_bytes(t));
        t->gen = 1;
    }
}

rook_solver *rook_solver_new(size_t tt_bytes)
{
    rook_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    /* ROOK_NO_PEXT=1 in the environment: the portable keys (the tests
     * compare the two) */
    s->pext = !env_flag("ROOK_NO_PEXT") && dd_pext_is_fast();
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
        dd_worker_stop(s);
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


void rook_solver_clear(rook_solver *s)
{
    table_clear(s->t);
}

void rook_solver_touch(rook_solver *s)
{
    /* one store per 4 KiB page, of the byte already there */
    volatile char *p = (volatile char *)s->t->tt;
    size_t n = table_bytes(s->t);
    for (size_t i = 0; i < n; i += 4096)
        p[i] = p[i];
}

void rook_solver_set_budget(rook_solver *s, uint64_t nodes)
{
    s->budget = nodes;
}

void rook_solver_set_time_budget(rook_solver *s, uint64_t ns)
{
    s->time_budget_ns = ns;
}

void rook_solver_set_progress(rook_solver *s, rook_dd_progress_fn fn, void *arg)
{
    s->progress = fn;
    s->progress_arg = arg;
}

int rook_solver_stop_reason(const rook_solver *s)
{
    return s->stop;
}

void rook_solver_watch_interrupts_from(rook_solver *s, unsigned count)
{
    s->interrupts = count;
}

void rook_solver_abort(rook_solver *s)
{
    __atomic_store_n(&s->abort_request, 1, __ATOMIC_RELAXED);
}

void rook_solver_set_generalize(rook_solver *s, int on)
{
    s->exact_only = !on;
}

uint64_t rook_solver_nodes(const rook_solver *s)
{
    return s->nodes;
}

uint64_t rook_solver_stat(const rook_solver *s, int which)
{
    if (which >= 0 && which < 64)
        return s->nodes_by_cards[which];
    return which == 64 ? s->tt_hits : 0;
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
static int layout(rook_solver *s, const rook_rules *r, int trump, int allow_pgen)
{
    memset(s->sbit, DD_NONE, sizeof s->sbit);
    memset(s->card, DD_NONE, sizeof s->card);
    memset(s->pts, 0, sizeof s->pts);
    memset(s->tag, 0, sizeof s->tag);
    memset(s->tag_pts, 0, sizeof s->tag_pts);
    s->marked = 0;
    memset(s->tag_mask, 0, sizeof s->tag_mask);
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
    for (int ll = 0; ll < 4; ll++)
        for (int b = 0; b < 64; b++)
            s->wkey[ll][b] = (uint8_t)((b >> 4) == trump ? 128 + b : (b >> 4) == ll ? 64 + b : 0);
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
            for (int p = 0; p < DD_TAG_PLANES; p++)
                if (((t + 1) >> p) & 1)
                    s->tag_mask[p] |= 1ULL << b;
        }
        if (kind & 3)
            s->marked |= 1ULL << b;
    }
    s->pgen = 0;
#if !defined(DD_NO_PTS_GENERAL) && !(defined(DD_CEILING) && DD_CEILING == DD_CEILING_POINTS)
    /* the tags of unmarked cards (one per point value), by points, for
     * entries that stand for other points below their kept line (table.h;
     * the points ceiling, a diagnostic build, drops the points instead) */
    s->n_kinds = 0;
    s->pgen = allow_pgen && !s->exact_keys;
    for (int t = 1; s->pgen && t < (1 << DD_TAG_PLANES); t++) {
        uint64_t cards = 0;
        for (uint64_t m = s->deck; m; m &= m - 1)
            if (s->tag[rook_lsb(m)] == t)
                cards |= m & -m;
        if (!cards || (cards & s->marked))
            continue;
        if (s->n_kinds == DD_KINDS) {
            s->pgen = 0;
            break;
        }
        int k = s->n_kinds++;
        for (; k > 0 && s->kind_pts[k - 1] > s->tag_pts[t]; k--) {
            s->kind_pts[k] = s->kind_pts[k - 1];
            s->kind_mask[k] = s->kind_mask[k - 1];
        }
        s->kind_pts[k] = s->tag_pts[t];
        s->kind_mask[k] = cards;
        for (int l = 0; l < 4; l++) /* a count is two bits */
            if (rook_popcount(cards & DD_LANE(l)) > 3)
                s->pgen = 0;
    }
    memset(s->kunit, 0, sizeof s->kunit);
    memset(s->kword, 0, sizeof s->kword);
    for (int k = 0; s->pgen && k < s->n_kinds; k++)
        for (uint64_t m = s->kind_mask[k]; m; m &= m - 1) {
            int b = rook_lsb(m);
            s->kword[b] = (uint8_t)(k >> 1);
            for (int seat = 0; seat < 4; seat++)
                s->kunit[seat][b] = 1ULL << (32 * (k & 1) + 2 * (4 * seat + (b >> 4)));
        }
#endif
    for (int i = 0; i < 64; i++)
        s->zwon[i] = r->most_tricks_bonus ? dd_mix64(0x7A1CULL << 8 | (uint64_t)i) : 0;
    for (int seat = 0; seat < 4; seat++) {
        s->zlead[seat] = dd_mix64(0x5EA7ULL + (uint64_t)seat);
        for (int b = 0; b < 64; b++)
            s->z[seat][b] = ((s->deck >> b) & 1)
#if defined(DD_CEILING) && DD_CEILING == DD_CEILING_POINTS
                ? dd_mix64(((uint64_t)seat << 16) | ((uint64_t)(b >> 4) << 8)) /* table.h: a diagnostic build */
#else
                /* (with pgen an unmarked card is hashed without its points: table.h) */
                ? dd_mix64(((uint64_t)seat << 16) | ((uint64_t)(b >> 4) << 8)
                           | (!s->pgen || ((s->marked >> b) & 1) ? s->tag[b] : 0))
#endif
                : 0;
    }
    return 0;
}

int dd_setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    s->r = r;
    s->nodes = 0;
    s->tt_hits = 0;
    memset(s->nodes_by_cards, 0, sizeof s->nodes_by_cards);
    s->aborted = 0;
    s->stop = ROOK_STOP_NONE;
    /* a call begins: a stop asked before it is forgotten -- but not by a
     * member of a team (s->team or s->split_team set), whose call began
     * with the team's (the first member's rook_dd_prepare): a stop asked
     * of it since, by a mate's progress function for one, holds */
    if (!s->team && !s->split_team)
        __atomic_store_n(&s->abort_request, 0, __ATOMIC_RELAXED);
    s->deadline_ns = s->time_budget_ns ? dd_now_ns() + s->time_budget_ns : 0;
    /* the cards dealt (in hands, in the trick, in the tricks taken) choose
     * the size of the quasi-symmetry entries and whether entries stand for
     * other points below their kept line (table.h) */
    int dealt = p->trick_n + 4 * (p->tricks[0] + p->tricks[1]);
    for (int i = 0; i < 4; i++)
        dealt += rook_popcount(p->hands[i]);
    if (p->trump > 3 || layout(s, r, p->trump, dealt <= DD_PGEN_MOST_DEALT && s->t->small) < 0)
        return -2;
    for (int i = 0; i < 4; i++)
        s->hands[i] = to_bits(s, p->hands[i]);
    s->trick_n = p->trick_n;
    for (int i = 0; i < 4; i++)
        s->trick[i] = i < p->trick_n ? s->sbit[p->trick[i]] : DD_NONE;
    s->in_trick = 0;
    for (int i = 0; i < s->trick_n; i++)
        s->in_trick |= 1ULL << s->trick[i];
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
    s->root_cards = rook_popcount(dd_in_hands(s));
    s->pts_out = dd_points(s, dd_in_hands(s));
    for (int i = 0; i < s->trick_n; i++)
        s->pts_out += s->pts[s->trick[i]];
    s->zsum = 0;
    s->kc[0] = s->kc[1] = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = s->hands[seat]; m; m &= m - 1) {
            s->zsum += s->z[seat][rook_lsb(m)];
#ifndef DD_NO_PTS_GENERAL
            s->kc[s->kword[rook_lsb(m)]] += s->kunit[seat][rook_lsb(m)];
#endif
        }
    if (dd_total(s) > DD_BOUND_MAX || s->end_points > DD_END_MAX || s->end_points < 0)
        return -2;
    /* Entries stay valid while the rules and the trump are the same; the
     * end points are stored with each entry (table.h). */
    dd_table *t = s->t;
    int qwide = dealt > DD_QS_NARROW_DEAL;
    if (t->gen == 0 || t->ctx_r != r || t->ctx_trump != p->trump || t->ctx_exact != s->exact_only
        || t->ctx_qwide != qwide || t->ctx_pgen != s->pgen) {
        table_clear(t);
        t->ctx_r = r;
        t->ctx_trump = p->trump;
        t->ctx_exact = s->exact_only;
        t->ctx_qwide = qwide;
        t->ctx_pgen = s->pgen;
    }
    s->tt = t->tt;
    s->tt_shift = __builtin_ctz(DD_BUCKET) + s->pgen;
    s->n_buckets = t->n_buckets >> s->pgen;
    s->qt = t->qt;
    s->qwide = qwide;
    s->n_qbuckets = t->n_qbuckets >> qwide;
    s->gen = t->gen;
    dd_search_reset(s);
    return 0;
}
