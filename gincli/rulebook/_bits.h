/* What every compiled module stands on: a hand as a card mask and the three
 * bit operations, their kind chosen here, once, for the compiler. _melds.h (the
 * standard melds, for _stdscore.c and gincli/rl/_stdplay.c) and _meldsearch.c
 * (any meld rules' search) include it.
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * the bit operations below.
 */
#ifndef GINCLI_BITS_H
#define GINCLI_BITS_H

/* A hand: bit suit * 13 + rank (C99's unsigned long long: 64 bits everywhere). */
typedef unsigned long long mask_t;

/* The three bit operations, by the compiler's own instructions where it has
 * them (MSVC, and Clang presenting itself as MSVC: its intrinsics for 64 bits;
 * GCC and Clang: __builtin_*), else in plain C (MSVC's popcount instruction
 * needs a CPU that has it: plain C there too). GINCLI_PORTABLE_BITS forces the
 * plain C (tests/test_accel.py builds every module so and holds them to the
 * same answers). Every caller passes a non-zero mask to ctz64 and clz64. */
#if defined(GINCLI_PORTABLE_BITS)
#define BITS_PLAIN
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#define BITS_MSVC
#elif defined(__GNUC__) || defined(__clang__)
#define BITS_GCC
#else
#define BITS_PLAIN
#endif

#if defined(BITS_GCC) && defined(__POPCNT__)
static inline int popcount64(mask_t v) { return __builtin_popcountll(v); }
#else
/* Without the CPU's instruction (a build for any x86-64 has none), __builtin_popcountll is a
 * call into the compiler's library, slower than these few operations inline. */
static inline int popcount64(mask_t v) {
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}
#endif
#if defined(BITS_GCC)
static inline int ctz64(mask_t v) { return __builtin_ctzll(v); }
static inline int clz64(mask_t v) { return __builtin_clzll(v); }
#elif defined(BITS_MSVC)
#include <intrin.h>
static inline int ctz64(mask_t v) { unsigned long i; _BitScanForward64(&i, v); return (int)i; }
static inline int clz64(mask_t v) { unsigned long i; _BitScanReverse64(&i, v); return 63 - (int)i; }
#elif defined(BITS_PLAIN)
static inline int ctz64(mask_t v) { return popcount64((v & (0 - v)) - 1); }
static inline int clz64(mask_t v) {
    int n = 0;
    while (!(v & (1ull << 63))) { v <<= 1; n++; }
    return n;
}
#endif

#endif
