/* solve.c: the double-dummy search of solve.h. */
#include <stdlib.h>
#include <string.h>
#include "rook/solve.h"

#define NO_SUIT 255

/* A table entry: the position at a trick boundary with ranks made relative
 * to the cards still out (h: each seat's cards as suit*16 + index among the
 * suit's unplayed cards, weakest first), `pattern` a hash of the points and
 * the bird's place in that relative order, and the leader. */
typedef struct tt_entry {
    uint64_t h[4];
    uint64_t pattern;
    uint32_t gen;        /* entries of another generation are empty */
    int16_t lo, hi;      /* bounds on the points team 0 takes from this trick boundary */
    uint8_t leader;
    uint8_t pad[3];
} tt_entry;

typedef struct tt_key {
    uint64_t h[4];
    uint64_t pattern;
} tt_key;

struct rook_solver {
    tt_entry *tt;
    uint64_t tt_mask;
    uint64_t nodes, budget;
    uint64_t nodes_by_cards[64];  /* nodes by the number of cards still in hands */
    uint64_t tt_hits;
    int aborted;
    uint32_t gen;
    const rook_rules *ctx_r;  /* the context the table's entries belong to */
    int ctx_trump, ctx_end;
    /* the position being searched */
    const rook_rules *r;
    uint64_t hands[4];
    uint8_t trick[4];
    int trick_n, leader, trump;
    int end_points;      /* nest points + last-trick bonus, to the last trick's team */
    /* per (rules, trump): suits in strength order */
    uint8_t suit_of[64];             /* 0..3: the card's suit when following */
    uint8_t suit_order[4][20];       /* card ids of each suit, weakest first */
    uint8_t suit_len[4];
    uint64_t suit_mask[4];
};

rook_solver *rook_solver_new(size_t tt_bytes)
{
    rook_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    uint64_t n = 1024;
    while (n * 2 * sizeof(tt_entry) <= tt_bytes)
        n *= 2;
    s->tt = calloc(n, sizeof(tt_entry));
    if (!s->tt) {
        free(s);
        return NULL;
    }
    s->tt_mask = n - 1;
    return s;
}

void rook_solver_free(rook_solver *s)
{
    if (s) {
        free(s->tt);
        free(s);
    }
}

void rook_solver_clear(rook_solver *s)
{
    if (++s->gen == 0) {           /* wrapped: really clear */
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof(tt_entry));
        s->gen = 1;
    }
}

void rook_solver_set_budget(rook_solver *s, uint64_t nodes) { s->budget = nodes; }

uint64_t rook_solver_nodes(const rook_solver *s) { return s->nodes; }

uint64_t rook_solver_stat(const rook_solver *s, int which)
{
    if (which >= 0 && which < 64)
        return s->nodes_by_cards[which];
    return which == 64 ? s->tt_hits : 0;
}

/* Prepare the suit tables and the position; clear the table. */
static void setup(rook_solver *s, const rook_rules *r, const rook_dd_pos *p)
{
    s->r = r;
    for (int i = 0; i < 4; i++) {
        s->hands[i] = p->hands[i];
        s->trick[i] = p->trick[i];
    }
    s->trick_n = p->trick_n;
    s->leader = p->leader;
    s->trump = p->trump;
    s->end_points = p->nest_points + r->last_trick_bonus;
    s->nodes = 0;
    s->tt_hits = 0;
    memset(s->nodes_by_cards, 0, sizeof s->nodes_by_cards);
    s->aborted = 0;
    uint64_t trumps = r->trumps[p->trump];
    for (int suit = 0; suit < 4; suit++) {
        s->suit_mask[suit] = suit == p->trump ? trumps : (ROOK_BB_COLOR(suit) & ~trumps);
        s->suit_len[suit] = 0;
    }
    for (int c = 0; c < 64; c++)
        s->suit_of[c] = NO_SUIT;
    for (int suit = 0; suit < 4; suit++) {
        /* insertion sort of the suit's deck cards by strength */
        uint8_t *o = s->suit_order[suit];
        int n = 0;
        for (uint64_t m = s->suit_mask[suit] & r->deck; m; m &= m - 1) {
            int c = rook_lsb(m);
            s->suit_of[c] = (uint8_t)suit;
            int j = n++;
            while (j > 0 && r->strength[o[j - 1]] > r->strength[c]) {
                o[j] = o[j - 1];
                j--;
            }
            o[j] = (uint8_t)c;
        }
        s->suit_len[suit] = (uint8_t)n;
    }
    /* Entries stay valid while the rules, trump and end points are the same. */
    if (s->gen == 0 || s->ctx_r != r || s->ctx_trump != p->trump || s->ctx_end != s->end_points) {
        rook_solver_clear(s);
        s->ctx_r = r;
        s->ctx_trump = p->trump;
        s->ctx_end = s->end_points;
    }
}

/* Build the relative-rank key of the current trick boundary. */
static inline void make_key(const rook_solver *s, tt_key *k)
{
    const rook_rules *r = s->r;
    uint64_t all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    uint64_t pat = 0x8CB92BA72F3D8DD7ULL;
    k->h[0] = k->h[1] = k->h[2] = k->h[3] = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint64_t present = all & s->suit_mask[suit];
        int idx = 0;
        for (int j = 0; present; j++) {
            int c = s->suit_order[suit][j];
            uint64_t bit = 1ULL << c;
            if (!(present & bit))
                continue;
            present &= ~bit;
            int seat = (s->hands[1] & bit) ? 1 : (s->hands[2] & bit) ? 2 : (s->hands[3] & bit) ? 3 : 0;
            k->h[seat] |= 1ULL << (16 * suit + idx);
            int tag = r->card_points[c] * 2 + (int)((r->anytime >> c) & 1);
            if (tag)
                pat = (pat ^ (uint64_t)(tag * 64 + 16 * suit + idx)) * 0x100000001B3ULL;
            idx++;
        }
    }
    k->pattern = pat;
}

static inline uint64_t tt_hash(const tt_key *k, int leader)
{
    uint64_t x = k->h[0] * 0x9E3779B97F4A7C15ULL;
    x ^= (k->h[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    x ^= (k->h[2] ^ (x >> 29)) * 0x165667B19E3779F9ULL;
    x ^= (k->h[3] + (uint64_t)leader) * 0xD6E8FEB86659FD93ULL;
    x ^= k->pattern;
    x ^= x >> 32;
    x *= 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}

static inline int tt_same(const rook_solver *s, const tt_entry *e, const tt_key *k, int leader)
{
    return e->gen == s->gen && e->leader == leader && e->pattern == k->pattern
        && e->h[0] == k->h[0] && e->h[1] == k->h[1] && e->h[2] == k->h[2] && e->h[3] == k->h[3];
}

/* The table is made of buckets of two entries; a new entry replaces an
 * entry of an older generation, else the one with fewer cards left (the
 * cheaper one to search again). */
static inline tt_entry *tt_bucket(rook_solver *s, const tt_key *k, int leader)
{
    return &s->tt[tt_hash(k, leader) & s->tt_mask & ~1ULL];
}

static inline tt_entry *tt_find(rook_solver *s, const tt_key *k, int leader)
{
    tt_entry *b = tt_bucket(s, k, leader);
    if (tt_same(s, &b[0], k, leader))
        return &b[0];
    if (tt_same(s, &b[1], k, leader))
        return &b[1];
    return NULL;
}

static inline int entry_cards(const tt_entry *e)
{
    return rook_popcount(e->h[0] | e->h[1] | e->h[2] | e->h[3]);
}

static inline void tt_store(rook_solver *s, const tt_key *k, int leader, int lo, int hi)
{
    tt_entry *b = tt_bucket(s, k, leader);
    tt_entry *e;
    if (tt_same(s, &b[0], k, leader) || tt_same(s, &b[1], k, leader)) {
        e = tt_same(s, &b[0], k, leader) ? &b[0] : &b[1];
        if (lo > e->lo) e->lo = (int16_t)lo;
        if (hi < e->hi) e->hi = (int16_t)hi;
        return;
    }
    if (b[0].gen != s->gen)
        e = &b[0];
    else if (b[1].gen != s->gen)
        e = &b[1];
    else
        e = entry_cards(&b[0]) <= entry_cards(&b[1]) ? &b[0] : &b[1];
    for (int i = 0; i < 4; i++)
        e->h[i] = k->h[i];
    e->pattern = k->pattern;
    e->gen = s->gen;
    e->leader = (uint8_t)leader;
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
}

/* Fill moves[] with one card of each class of equivalent legal cards of
 * `seat`, ordered best first for that seat; return their number.  When
 * `classes` is not NULL, classes[i] gets the mask of the cards move i stands for. */
static int gen_moves(const rook_solver *s, int seat, uint8_t *moves, uint64_t *classes)
{
    const rook_rules *r = s->r;
    uint64_t hand = s->hands[seat];
    uint64_t legal = rook_legal_mask(r, hand, s->trick_n ? s->trick[0] : ROOK_NO_CARD, s->trump);
    uint64_t others = (s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) & ~hand;
    for (int i = 0; i < s->trick_n; i++)
        others |= 1ULL << s->trick[i];
    int n = 0;
    uint64_t cls[16];
    for (int suit = 0; suit < 4; suit++) {
        if (!(legal & s->suit_mask[suit]))
            continue;
        int run_open = 0, last_pts = 0;
        for (int k = 0; k < s->suit_len[suit]; k++) {
            int c = s->suit_order[suit][k];
            uint64_t bit = 1ULL << c;
            if (others & bit) {
                run_open = 0;
            } else if (legal & bit) {
                int pts = r->card_points[c];
                if (run_open && pts == last_pts && !(r->anytime & bit)
                    && !(r->anytime & (1ULL << moves[n - 1]))) {
                    cls[n - 1] |= bit;        /* equivalent to the previous kept card */
                    moves[n - 1] = (uint8_t)c; /* keep the higher one as representative */
                } else {
                    moves[n] = (uint8_t)c;
                    cls[n] = bit;
                    n++;
                    run_open = 1;
                    last_pts = pts;
                }
            }
        }
    }
    /* Move ordering by a small score; insertion sort (n <= 15). */
    int score[16];
    int team = seat & 1;
    int win_i = 0;
    if (s->trick_n)
        win_i = rook_trick_winner(r, s->trick, s->trick_n, s->trump);
    int partner_winning = s->trick_n && (((s->leader + win_i) & 1) == team);
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        int pts = r->card_points[c];
        int st = r->strength[c];
        if (!s->trick_n) {
            score[i] = st + 4 * pts;
        } else {
            uint8_t t[4] = {s->trick[0], s->trick[1], s->trick[2], s->trick[3]};
            t[s->trick_n] = (uint8_t)c;
            int wins = rook_trick_winner(r, t, s->trick_n + 1, s->trump) == s->trick_n;
            if (partner_winning && !wins)
                score[i] = 300 + pts;
            else if (wins)
                score[i] = 200 + pts - st;
            else
                score[i] = 100 - pts - st;
        }
    }
    for (int i = 1; i < n; i++) {
        int sc = score[i];
        uint8_t mv = moves[i];
        uint64_t cl = cls[i];
        int j = i;
        while (j > 0 && score[j - 1] < sc) {
            score[j] = score[j - 1];
            moves[j] = moves[j - 1];
            cls[j] = cls[j - 1];
            j--;
        }
        score[j] = sc;
        moves[j] = mv;
        cls[j] = cl;
    }
    if (classes)
        for (int i = 0; i < n; i++)
            classes[i] = cls[i];
    return n;
}

static int search(rook_solver *s, int alpha, int beta);

/* At a trick boundary, set sure[t] to the points team t is certain to take:
 * the top unplayed trump wins whatever trick it falls in, and so does each
 * trump below it while the same team holds the whole run (a higher trump in
 * the same trick is then the team's own).  (A top card of another suit is
 * not sure: its holder may have to discard it on a trick of another suit.) */
static void sure_points(const rook_solver *s, int sure[2])
{
    const rook_rules *r = s->r;
    uint64_t team_cards[2] = {s->hands[0] | s->hands[2], s->hands[1] | s->hands[3]};
    uint64_t all = team_cards[0] | team_cards[1];
    sure[0] = sure[1] = 0;
    {
        int suit = s->trump;
        int owner = -1;
        for (int j = s->suit_len[suit] - 1; j >= 0; j--) {
            int c = s->suit_order[suit][j];
            uint64_t bit = 1ULL << c;
            if (!(all & bit))
                continue;
            int t = (team_cards[0] & bit) ? 0 : 1;
            if (owner < 0)
                owner = t;
            else if (t != owner)
                break;
            sure[t] += r->card_points[c];
        }
    }
}

/* Play `card` for the seat to move, search on, undo; return team 0's points
 * from before the card to the end of the hand. */
static int child(rook_solver *s, int card, int alpha, int beta)
{
    const rook_rules *r = s->r;
    int seat = (s->leader + s->trick_n) & 3;
    uint64_t bit = 1ULL << card;
    s->hands[seat] ^= bit;
    s->trick[s->trick_n++] = (uint8_t)card;
    int v;
    if (s->trick_n < 4) {
        v = search(s, alpha, beta);
    } else {
        int w = (s->leader + rook_trick_winner(r, s->trick, 4, s->trump)) & 3;
        int pts = r->card_points[s->trick[0]] + r->card_points[s->trick[1]]
                + r->card_points[s->trick[2]] + r->card_points[s->trick[3]];
        int last = !(s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]);
        if (last)
            pts += s->end_points;
        int gain = (w & 1) ? 0 : pts;
        if (last) {
            v = gain;
        } else {
            uint8_t saved[4] = {s->trick[0], s->trick[1], s->trick[2], s->trick[3]};
            int saved_leader = s->leader;
            s->trick_n = 0;
            s->leader = w;
            v = gain + search(s, alpha - gain, beta - gain);
            s->leader = saved_leader;
            for (int i = 0; i < 4; i++)
                s->trick[i] = saved[i];
            s->trick_n = 4;
        }
    }
    s->trick_n--;
    s->hands[seat] ^= bit;
    return v;
}

/* Fail-soft alpha-beta: team 0's points from here (current trick included). */
static int search(rook_solver *s, int alpha, int beta)
{
    const rook_rules *r = s->r;
    if (s->aborted)
        return 0;
    if (++s->nodes > s->budget && s->budget) {
        s->aborted = 1;
        return 0;
    }
    uint64_t all = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    s->nodes_by_cards[rook_popcount(all)]++;
    int total = rook_points(r, all) + s->end_points;
    for (int i = 0; i < s->trick_n; i++)
        total += r->card_points[s->trick[i]];
    /* sure bounds: 0 <= value <= total */
    if (alpha >= total)
        return total;
    if (beta <= 0)
        return 0;
    int alpha0 = alpha, beta0 = beta;
    tt_key key;
    if (s->trick_n == 0 && rook_popcount(all) == 4) {
        /* the last trick: every card is forced */
        uint8_t t[4];
        for (int i = 0; i < 4; i++)
            t[i] = (uint8_t)rook_lsb(s->hands[(s->leader + i) & 3]);
        int w = (s->leader + rook_trick_winner(r, t, 4, s->trump)) & 1;
        return w ? 0 : total;
    }
    if (s->trick_n == 0) {
        int sure[2];
        sure_points(s, sure);
        if (sure[0] >= beta)
            return sure[0];
        if (total - sure[1] <= alpha)
            return total - sure[1];
        make_key(s, &key);
        tt_entry *e = tt_find(s, &key, s->leader);
        if (e) {
            s->tt_hits++;
            if (e->lo >= beta)
                return e->lo;
            if (e->hi <= alpha)
                return e->hi;
            if (e->lo == e->hi)
                return e->lo;
            if (e->lo > alpha)
                alpha = e->lo;
            if (e->hi < beta)
                beta = e->hi;
        }
    }
    int seat = (s->leader + s->trick_n) & 3;
    uint8_t moves[16];
    int n = gen_moves(s, seat, moves, NULL);
    int maximize = !(seat & 1);
    int best = maximize ? -1 : total + 1;
    for (int i = 0; i < n; i++) {
        int v = child(s, moves[i], alpha, beta);
        if (s->aborted)
            return 0;
        if (maximize) {
            if (v > best) {
                best = v;
                if (v > alpha)
                    alpha = v;
            }
        } else if (v < best) {
            best = v;
            if (v < beta)
                beta = v;
        }
        if (alpha >= beta)
            break;
    }
    if (s->trick_n == 0) {
        int lo = 0, hi = total;
        if (best <= alpha0)
            hi = best;
        else if (best >= beta0)
            lo = best;
        else
            lo = hi = best;
        tt_store(s, &key, s->leader, lo, hi);
    }
    return best;
}

int rook_dd_at_least(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int target)
{
    setup(s, r, p);
    int v = search(s, target - 1, target);
    if (s->aborted)
        return -1;
    return v >= target;
}

/* Narrow [lo, hi] with null-window searches until it closes (MTD(f)-style,
 * starting from `guess`); the table is shared between the steps. */
static int drive(rook_solver *s, int guess, int lo, int hi, int *out_lo, int *out_hi)
{
    int g = guess;
    while (lo < hi) {
        if (g <= lo)
            g = lo + 1;
        if (g > hi)
            g = hi;
        int v = search(s, g - 1, g);
        if (s->aborted)
            break;
        if (v >= g)
            lo = v;
        else
            hi = v;
        g = v >= g ? v + 1 : v;
    }
    if (out_lo)
        *out_lo = lo;
    if (out_hi)
        *out_hi = hi;
    return s->aborted ? -1 : lo;
}

static int total_points(const rook_solver *s)
{
    int total = rook_points(s->r, s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]) + s->end_points;
    for (int i = 0; i < s->trick_n; i++)
        total += s->r->card_points[s->trick[i]];
    return total;
}

int rook_dd_value(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int *lo, int *hi)
{
    setup(s, r, p);
    int total = total_points(s);
    return drive(s, total / 2, 0, total, lo, hi);
}

int rook_dd_move_values(rook_solver *s, const rook_rules *r, const rook_dd_pos *p, int32_t values[64])
{
    setup(s, r, p);
    int total = total_points(s);
    int seat = (s->leader + s->trick_n) & 3;
    uint8_t moves[16];
    uint64_t classes[16];
    int n = gen_moves(s, seat, moves, classes);
    int maximize = !(seat & 1);
    int best = maximize ? -1 : total + 1;
    /* The position's value first: the best card's value equals it, and it is
     * the first guess for every card. */
    int root = drive(s, total / 2, 0, total, NULL, NULL);
    if (root < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        /* value of the child: narrow with null windows through child() */
        int lo = 0, hi = total, g = maximize ? root : root + 1;
        while (lo < hi) {
            if (g <= lo) g = lo + 1;
            if (g > hi) g = hi;
            int v = child(s, moves[i], g - 1, g);
            if (s->aborted)
                return -1;
            if (v >= g) lo = v; else hi = v;
            g = v >= g ? v + 1 : v;
        }
        for (uint64_t m = classes[i]; m; m &= m - 1)
            values[rook_lsb(m)] = lo;
        if (maximize ? lo > best : lo < best)
            best = lo;
    }
    return best;
}
