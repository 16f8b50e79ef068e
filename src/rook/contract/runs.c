/* contract/runs.c: a context's tables and the candidate runs of a hand (TV-4, TV-5).
 *
 * The tables of rook_tv_ctx (contract.h) say, for every count of naturals
 * and birds at a rank, how many sets they make at most under the wild rule
 * and how, and how many birds a run of a length can still take.  A
 * candidate run is its naturals (one color, one card per rank, the lowest
 * and highest natural) plus a bird per gap and the fewest end birds that
 * make 4 cards; gen_extend lists them by lowest natural, longer first.
 */
#include <stdlib.h>

#include "rook/contract/internal.h"

/* ------------------------------------------------------------------ tables */

int rook_tv_ctx_init(rook_tv_ctx *ctx, int32_t num, int32_t den)
{
    int n, b, x, y, len, p;
    if (den <= 0 || den > ROOK_TV_MAX_DEN || num < 0 || num > den)
        return -1;
    ctx->num = num;
    ctx->den = den;
    for (n = 0; n <= ROOK_TV_POOL; n++) {
        for (b = 0; b <= MAXB; b++) {
            int best = -1, fx = 0, fy = 0;
            if (n == 0 && b == 0)
                best = 0;
            for (x = 1; x <= n; x++) {
                for (y = 0; y <= b; y++) {
                    int sub;
                    if (x + y < 3 || !wild_ok(ctx, y, x + y))
                        continue;
                    sub = ctx->set_groups[n - x][b - y];
                    if (sub >= 0 && sub + 1 > best) {
                        best = sub + 1;
                        fx = x;
                        fy = y;
                    }
                }
            }
            ctx->set_groups[n][b] = (int8_t)best;
            ctx->set_first[n][b][0] = (uint8_t)fx;
            ctx->set_first[n][b][1] = (uint8_t)fy;
        }
    }
    for (n = 0; n <= ROOK_TV_POOL; n++) {
        int most = 0;
        ctx->set_birds[n] = MAXB + 1;
        for (b = 0; b <= MAXB; b++) {
            if (n && ctx->set_groups[n][b] > most)
                most = ctx->set_groups[n][b];
            if (n && ctx->set_groups[n][b] > 0 && ctx->set_birds[n] > MAXB)
                ctx->set_birds[n] = (uint8_t)b;
            ctx->set_most[n][b] = (uint8_t)most;
        }
    }
    for (len = 0; len <= 14; len++) {
        for (b = 0; b <= MAXB; b++) {
            p = 0;
            while (len + p + 1 <= 14 && b + p + 1 <= MAXB && wild_ok(ctx, b + p + 1, len + p + 1))
                p++;
            ctx->run_pad[len][b] = (uint8_t)p;
        }
    }
    return 0;
}

rook_tv_work *rook_tv_work_new(void)
{
    rook_tv_work *w = (rook_tv_work *)malloc(sizeof(rook_tv_work));
    if (w)
        w->n_runs = 0;
    return w;
}

void rook_tv_work_free(rook_tv_work *w)
{
    free(w);
}

/* ------------------------------------------------------- candidate runs */

typedef struct gen_state {
    const rook_tv_ctx *ctx;
    rook_tv_work *w;
    uint32_t avail; /* ranks held in this color (lane bits) */
    int birds;      /* birds in the hand */
    int color, lo;
    int overflow;
} gen_state;

/* List the runs of color g->color whose lowest natural is g->lo and whose
 * naturals so far are `nat` up to `hi` with `gaps` gap birds: the longer
 * ones first, then this one if it is a run. */
static void gen_extend(gen_state *g, int hi, uint32_t nat, int gaps, int value)
{
    int nxt, span, emin, b;
    for (nxt = hi + 1; nxt <= 14 && gaps + (nxt - hi - 1) <= g->birds; nxt++)
        if (g->avail >> nxt & 1u)
            gen_extend(g, nxt, nat | (1u << nxt), gaps + (nxt - hi - 1), value + RANK_POINTS[nxt]);
    span = hi - g->lo + 1;
    emin = span < 4 ? 4 - span : 0;
    b = gaps + emin;
    if (b <= g->birds && wild_ok(g->ctx, b, span + emin)) {
        tv_run *r;
        if (g->w->n_runs >= RUN_CAP) {
            g->overflow = 1;
            return;
        }
        r = &g->w->runs[g->w->n_runs++];
        r->nat = (uint64_t)nat << (16 * g->color);
        r->value = (int16_t)(value + BIRD_POINTS * b);
        r->birds = (uint8_t)b;
        r->pad = g->ctx->run_pad[span + emin][b];
        r->len = (uint8_t)(span + emin);
    }
}

int rook_tv_gen_runs(const rook_tv_ctx *ctx, rook_tv_work *w, uint64_t avail, int birds)
{
    gen_state g;
    int c;
    w->n_runs = 0;
    g.ctx = ctx;
    g.w = w;
    g.birds = birds;
    g.overflow = 0;
    for (c = 0; c < 4; c++) {
        uint32_t a = (uint32_t)(avail >> (16 * c)) & LANE;
        uint32_t lows, w2;
        if (!a)
            continue;
        /* quick test: every run has 4 ranks in a row holding all but its
           birds; without birds, 4 held in a row; with one, 3 of 4 */
        w2 = a & (a >> 1) & (a >> 2);
        if (birds == 0 && !(w2 & (a >> 3)))
            continue;
        if (birds == 1 && !(w2 | (a & (a >> 1) & (a >> 3)) | (a & (a >> 2) & (a >> 3))))
            continue;
        g.avail = a;
        g.color = c;
        for (lows = a; lows; lows &= lows - 1) {
            g.lo = rook_lsb(lows);
            gen_extend(&g, g.lo, 1u << g.lo, 0, RANK_POINTS[g.lo]);
        }
    }
    return g.overflow ? -1 : 0;
}
