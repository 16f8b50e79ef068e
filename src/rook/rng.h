/* rng.h: a seeded, portable random stream (xoshiro256** seeded by splitmix64).
 *
 * Identical seeds give identical streams on every platform: the engine's
 * deals and batch runs depend only on the seed.  Bounded draws use Lemire's
 * multiply-shift with rejection, so they are exactly uniform.
 */
#ifndef ROOK_RNG_H
#define ROOK_RNG_H

#include <stdint.h>
#include "rook/check.h"
#include "rook/layout.h"

typedef struct rook_rng {
    uint64_t s[4];
} rook_rng;

/* Return the next splitmix64 output and advance *x. */
static inline uint64_t rook_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += ROOK_GOLDEN_GAMMA);
    z = (z ^ (z >> 30)) * ROOK_MIX_1;
    z = (z ^ (z >> 27)) * ROOK_MIX_2;
    return z ^ (z >> 31);
}

/* Seed the stream from one 64-bit seed. */
static inline void rook_rng_seed(rook_rng *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        g->s[i] = rook_splitmix64(&seed);
}

static inline uint64_t rook_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Return the next 64 random bits. */
static inline uint64_t rook_rng_next(rook_rng *g)
{
    uint64_t *s = g->s;
    uint64_t result = rook_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rook_rotl(s[3], 45);
    return result;
}

/* Return a uniform integer in [0, n). Precondition: n > 0. */
static inline uint32_t rook_rng_below(rook_rng *g, uint32_t n)
{
    ROOK_ASSERT(n > 0);
    uint64_t m = (uint64_t)(uint32_t)(rook_rng_next(g) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rook_rng_next(g) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
