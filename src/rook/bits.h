/* bits.h: bit operations on 64-bit card masks. */
#ifndef ROOK_BITS_H
#define ROOK_BITS_H

#include <stdint.h>
#include "rook/check.h"
#ifdef __BMI2__
#include <immintrin.h>
#endif

/* Return the number of set bits of m. */
static inline int rook_popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* Return the index of the lowest set bit. Precondition: m != 0. */
static inline int rook_lsb(uint64_t m)
{
    ROOK_ASSERT(m != 0);
    return __builtin_ctzll(m);
}

/* Return the index of the highest set bit. Precondition: m != 0. */
static inline int rook_msb(uint64_t m)
{
    ROOK_ASSERT(m != 0);
    return 63 - __builtin_clzll(m);
}

/* Return the index of the k-th lowest set bit (k from 0). Precondition: k < popcount(m). */
static inline int rook_select_bit(uint64_t m, int k)
{
    ROOK_ASSERT(k >= 0 && k < rook_popcount(m));
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << k, m)); /* one deposit where BMI2 is built in */
#else
    while (k-- > 0)
        m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

#endif
