/* heuristic.c: HeuristicAgent in C (see heuristic.h and rook_core/bots/heuristic.py). */
#include "rook/heuristic.h"

#define NO_CARD (-1)

void rook_public_init(rook_public *pub)
{
    for (int s = 0; s < 4; s++) {
        pub->lacks[s] = 0;
        pub->bids[s] = 0;
    }
}

void rook_public_note(rook_public *pub, const rook_hand *h, const rook_rules *r, int seat, int action)
{
    if (h->phase == ROOK_PH_BID && action > ROOK_A_BID) {
        if (action - ROOK_A_BID > pub->bids[seat])
            pub->bids[seat] = action - ROOK_A_BID;
        return;
    }
    if (h->phase != ROOK_PH_PLAY || h->trick_n == 0 || action >= 64)
        return;
    int led = h->trick[0], trump = h->trump; /* T-9, T-10 */
    uint64_t bit = 1ULL << action;
    if (bit & rook_legal_mask(r, r->deck, led, trump)) /* follows, or "any time" */
        return;
    pub->lacks[seat] |= rook_follow_mask(r, led, trump) & r->deck;
    if (r->must_trump && !(bit & rook_trump_mask(r, trump)))
        pub->lacks[seat] |= rook_trump_mask(r, trump);
}

/* The strongest card of m (the lowest id among equals); m != 0. */
static int top_of(const rook_rules *r, uint64_t m)
{
    int best = NO_CARD;
    for (; m; m &= m - 1) {
        int c = rook_lsb(m);
        if (best == NO_CARD || r->strength[c] > r->strength[best])
            best = c;
    }
    return best;
}

/* The weakest card of m (the lowest id among equals); m != 0. */
static int low_of(const rook_rules *r, uint64_t m)
{
    int best = NO_CARD;
    for (; m; m &= m - 1) {
        int c = rook_lsb(m);
        if (best == NO_CARD || r->strength[c] < r->strength[best])
            best = c;
    }
    return best;
}

int64_t rook_heur_estimate(const rook_rules *r, const rook_heur_params *p, uint64_t hand, int trump)
{
    uint64_t tm = rook_trump_mask(r, trump) & r->deck;
    uint64_t trumps = hand & tm;
    int n_trump = rook_popcount(trumps), top_held = 0;
    uint64_t rest = tm;
    for (int k = 0; k < 4 && rest; k++) { /* the suit's four top cards */
        int c = top_of(r, rest);
        top_held += (int)((trumps >> c) & 1);
        rest &= ~(1ULL << c);
    }
    int64_t tricks = 90 * top_held + 45 * (n_trump - top_held); /* hundredths of a trick */
    if (n_trump >= 5)
        tricks += 40 * (n_trump - 4);
    for (int color = 0; color < 4; color++) {
        if (color == trump)
            continue;
        uint64_t side = r->deck & ROOK_BB_COLOR(color) & ~tm;
        if (!side)
            continue;
        uint64_t mine = hand & side;
        int run = 0;
        for (uint64_t s = side; s; run++) { /* top cards held in a row */
            int c = top_of(r, s);
            if (!((mine >> c) & 1))
                break;
            s &= ~(1ULL << c);
        }
        tricks += 85 * (run < 2 ? run : 2) + 30 * (run > 2 ? run - 2 : 0);
        int n = rook_popcount(mine);
        if (n_trump >= 3 && n <= 1)
            tricks += 35 * (2 - n);
    }
    int64_t hs = r->hand_size;
    int64_t share = 15 * hs + tricks < 100 * hs ? 15 * hs + tricks : 100 * hs;
    return share * p->total_points * 85 / (100 * hs) + 25 * rook_points(r, hand);
}

/* The trump color that values hand highest (the lowest of equals); *value gets the value. */
static int best_trump(const rook_rules *r, const rook_heur_params *p, uint64_t hand, int64_t *value)
{
    int best = 0;
    int64_t v = rook_heur_estimate(r, p, hand, 0);
    for (int t = 1; t < 4; t++) {
        int64_t x = rook_heur_estimate(r, p, hand, t);
        if (x > v) {
            v = x;
            best = t;
        }
    }
    *value = v;
    return best;
}

/* ---------------------------------------------------------------- play */

typedef struct seen {
    const rook_hand *h;
    const rook_rules *r;
    const rook_public *pub;
    int seat, trump;
    uint64_t tm;     /* the trumps */
    uint64_t others; /* cards that may lie in another hand or the hidden nest */
} seen;

static uint64_t suit_cards_of(const seen *k, int card)
{
    if ((k->tm >> card) & 1)
        return k->tm;
    return k->r->deck & ROOK_BB_COLOR(card >> 4) & ~k->tm;
}

/* Whether no card out of sight beats `card` within its suit. */
static int is_master(const seen *k, int card)
{
    int s = k->r->strength[card];
    for (uint64_t m = k->others & suit_cards_of(k, card); m; m &= m - 1)
        if (k->r->strength[rook_lsb(m)] > s)
            return 0;
    return 1;
}

/* Whether a seat still to play may trump this trick (known void in the led suit). */
static int trumpable(const seen *k)
{
    const rook_hand *h = k->h;
    uint64_t follow = suit_cards_of(k, h->trick[0]) & k->others;
    if (!(k->others & k->tm))
        return 0;
    for (int i = h->trick_n; i < 4; i++) {
        int s = (h->leader + i) & 3;
        if (s == k->seat)
            continue;
        if ((k->pub->lacks[s] & follow) == follow)
            return 1;
    }
    return 0;
}

/* Keys are packed into one int64, fields of 16 bits (points and strengths
 * are small and not negative), so that "the least key, the lowest card among
 * equals" is one strict comparison in ascending card order, like Python's
 * min over a tuple. */
#define KEY2(a, b) (((int64_t)(a) << 16) + (b))

/* The card to throw: not the bird, not a trump, fewest points, weakest. */
static int cheapest(const seen *k, uint64_t legal)
{
    int best = NO_CARD;
    int64_t bk = 0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int c = rook_lsb(m);
        int64_t key =
            KEY2(KEY2((c == ROOK_BIRD) * 2 + (int)((k->tm >> c) & 1), k->r->card_points[c]), k->r->strength[c]);
        if (best == NO_CARD || key < bk) {
            best = c;
            bk = key;
        }
    }
    return best;
}

static int lead(const seen *k, uint64_t hand)
{
    const rook_rules *r = k->r;
    const rook_hand *h = k->h;
    uint64_t my_trumps = hand & k->tm;
    int we_declare = h->declarer != ROOK_NO_SEAT && (h->declarer & 1) == (k->seat & 1);
    if (my_trumps && (k->others & k->tm) && we_declare) { /* draw trumps */
        int top = top_of(r, my_trumps);
        if (is_master(k, top) && (top != ROOK_BIRD || rook_popcount(my_trumps) == 1))
            return top;
    }
    uint64_t side = hand & ~k->tm;
    int best = NO_CARD;
    for (uint64_t m = side; m; m &= m - 1) { /* cash a winner */
        int c = rook_lsb(m);
        if (!is_master(k, c))
            continue;
        if (best == NO_CARD || r->card_points[c] > r->card_points[best]
            || (r->card_points[c] == r->card_points[best] && r->strength[c] > r->strength[best]))
            best = c;
    }
    if (best != NO_CARD)
        return best;
    if (side) { /* low from the longest side suit, counters kept */
        int by_color[4];
        for (int col = 0; col < 4; col++)
            by_color[col] = rook_popcount(side & ROOK_BB_COLOR(col));
        uint64_t pool = side & ~r->counters;
        if (!pool)
            pool = side;
        for (uint64_t m = pool; m; m &= m - 1) {
            int c = rook_lsb(m);
            if (best == NO_CARD || by_color[c >> 4] > by_color[best >> 4]
                || (by_color[c >> 4] == by_color[best >> 4] && r->strength[c] < r->strength[best]))
                best = c;
        }
        return best;
    }
    uint64_t non_bird = my_trumps & ~(1ULL << ROOK_BIRD);
    return low_of(r, non_bird ? non_bird : my_trumps);
}

static int play(const seen *k, uint64_t legal, const rook_heur_params *p)
{
    const rook_rules *r = k->r;
    const rook_hand *h = k->h;
    if (h->trick_n == 0)
        return lead(k, legal);
    int n = h->trick_n;
    uint8_t cards[4];
    int on_table = 0;
    for (int i = 0; i < n; i++) {
        cards[i] = h->trick[i];
        on_table += r->card_points[cards[i]];
    }
    int win = rook_trick_winner(r, cards, n, k->trump);
    int partner_winning = ((h->leader + win) & 3) == ((k->seat + 2) & 3);
    int last = n == 3;
    int wc = cards[win];
    int safe = last || (is_master(k, wc) && (((k->tm >> wc) & 1) || !trumpable(k)));
    if (partner_winning && safe) { /* feed the partner's trick */
        int best = NO_CARD;
        for (uint64_t m = legal; m; m &= m - 1) {
            int c = rook_lsb(m);
            if (!r->card_points[c] || ((k->tm >> c) & 1) || is_master(k, c))
                continue;
            if (best == NO_CARD || r->card_points[c] > r->card_points[best]
                || (r->card_points[c] == r->card_points[best] && r->strength[c] < r->strength[best]))
                best = c;
        }
        return best != NO_CARD ? best : cheapest(k, legal);
    }
    int best = NO_CARD;
    int64_t bk = 0;
    for (uint64_t m = legal; m; m &= m - 1) { /* win it as cheaply as we can */
        int c = rook_lsb(m);
        cards[n] = (uint8_t)c;
        if (rook_trick_winner(r, cards, n + 1, k->trump) != n)
            continue;
        int is_trump = (int)((k->tm >> c) & 1);
        if (!last && !(is_master(k, c) && (is_trump || !trumpable(k))))
            continue;
        if (c == ROOK_BIRD && on_table + r->card_points[c] < p->bird_threshold)
            continue;
        int64_t key = KEY2(is_trump * 2 + (c == ROOK_BIRD), r->strength[c]);
        if (best == NO_CARD || key < bk) {
            best = c;
            bk = key;
        }
    }
    if (best != NO_CARD && (on_table > 0 || !((k->tm >> best) & 1) || !last))
        return best;
    return cheapest(k, legal);
}

/* --------------------------------------------------------- other phases */

/* How much the declarer wants to keep `card` when `trump` will be trump (T-20). */
static int keep_score(const rook_rules *r, uint64_t hand, int card, int trump)
{
    uint64_t tm = rook_trump_mask(r, trump);
    int s = r->strength[card];
    if ((tm >> card) & 1)
        return 200 + 2 * s;
    uint64_t side = r->deck & ROOK_BB_COLOR(card >> 4) & ~tm;
    uint64_t mine = hand & side;
    int master = 1;
    for (uint64_t m = side; m; m &= m - 1) {
        int c = rook_lsb(m);
        if (r->strength[c] > s && !((mine >> c) & 1))
            master = 0;
    }
    if (master)
        return s + 80;
    return rook_popcount(mine) <= 2 ? s - 16 : s;
}

int rook_heur_act(const rook_hand *h, const rook_rules *r, const rook_public *pub, const rook_heur_params *p)
{
    uint16_t buf[ROOK_N_ACTIONS];
    int n = rook_hand_legal(h, r, buf);
    if (n == 1)
        return buf[0];
    int seat = h->to_move;
    uint64_t hand = h->hands[seat];
    int64_t value;
    switch (h->phase) {
    case ROOK_PH_BID: { /* T-3 .. T-5 */
        int can_pass = 0, first_bid = -1;
        for (int i = 0; i < n; i++) {
            if (buf[i] == ROOK_A_PASS)
                can_pass = 1;
            else if (buf[i] > ROOK_A_BID && first_bid < 0)
                first_bid = buf[i];
        }
        if (!can_pass)
            return first_bid; /* T-6: the opener must bid */
        if (first_bid < 0)
            return ROOK_A_PASS;
        best_trump(r, p, hand, &value);
        value += p->nest_bonus + 100 * (int64_t)p->bid_margin;
        if (pub->bids[(seat + 2) & 3] > 0)
            value += 8 * (int64_t)p->total_points;
        return 100 * (int64_t)(first_bid - ROOK_A_BID) <= value ? first_bid : ROOK_A_PASS;
    }
    case ROOK_PH_TRUMP: /* T-7 */
        return ROOK_A_TRUMP + best_trump(r, p, hand, &value);
    case ROOK_PH_NEST: { /* T-20, T-21 */
        int trump = h->trump != ROOK_NO_SEAT ? h->trump : best_trump(r, p, hand, &value);
        int best = -1, bs = 0, bp = 0;
        for (int i = 0; i < n; i++) {
            int c = buf[i];
            int s = keep_score(r, hand, c, trump), pts = r->card_points[c];
            if (best < 0 || s < bs || (s == bs && -pts < bp)) {
                best = c;
                bs = s;
                bp = -pts;
            }
        }
        return best;
    }
    case ROOK_PH_PASS: { /* T-22 */
        uint64_t tm = h->trump != ROOK_NO_SEAT ? rook_trump_mask(r, h->trump) : 0;
        int best = -1, bg = 0;
        for (int i = 0; i < n; i++) {
            int c = buf[i];
            int g = (int)((tm >> c) & 1) * 100 + 3 * r->card_points[c] + r->strength[c];
            if (best < 0 || g < bg) {
                best = c;
                bg = g;
            }
        }
        return best;
    }
    default: { /* T-8 .. T-11 */
        seen k = {h, r, pub, seat, h->trump, rook_trump_mask(r, h->trump), 0};
        uint64_t known_nest = (h->declarer == seat && r->nest_size) ? h->nest : 0;
        k.others = r->deck & ~hand & ~h->played & ~known_nest;
        return play(&k, rook_hand_legal_cards(h, r), p);
    }
    }
}

int rook_heur_playout(const rook_hand *h, const rook_rules *r, const rook_public *pub,
                      const rook_heur_params *p, int32_t points[2])
{
    rook_hand c = *h;
    rook_public seen = *pub;
    while (c.phase != ROOK_PH_DONE) {
        if (c.phase == ROOK_PH_THROWN_IN || c.to_move == ROOK_NO_SEAT)
            return -1;
        rook_hand before = c;
        int seat = c.to_move, a = rook_heur_act(&c, r, &seen, p);
        if (rook_hand_apply(&c, r, a) != ROOK_OK)
            return -1;
        rook_public_note(&seen, &before, r, seat, a);
    }
    points[0] = c.points[0];
    points[1] = c.points[1];
    return 0;
}
