/* What both compiled modules stand on, kept once: gin score's accelerator
 * (_stdscore.c) and the learning environments' play (gincli/rl/_stdplay.c).
 * A hand as a card mask, the bit operations (their kind chosen here, once), the
 * tables and constants generated from the rule book's Python
 * (_stdscore_tables.h), and the standard melds' least deadwood (RULES.md "Melds
 * and deadwood"; melds.py's deadwood, the reference tests/test_accel.py holds
 * every build of both modules to). Static functions, each module compiling its
 * own: the small ones inline, so that one a module does not use is no warning;
 * with_sets and deadwood, which every module uses, not (their recursion is the
 * compiler's to unroll or not).
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * the bit operations below, no arrays sized at run time.
 */
#ifndef GINCLI_MELDS_H
#define GINCLI_MELDS_H

/* A hand: bit suit * 13 + rank (C99's unsigned long long: 64 bits everywhere). */
typedef unsigned long long mask_t;

#include "_stdscore_tables.h"

/* The three bit operations, by the compiler's own instructions where it has
 * them (MSVC, and Clang presenting itself as MSVC: its intrinsics for 64 bits;
 * GCC and Clang: __builtin_*), else in plain C (MSVC's popcount instruction
 * needs a CPU that has it: plain C there too). GINCLI_PORTABLE_BITS forces the
 * plain C (tests/test_accel.py builds both modules so and holds them to the
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

#if defined(BITS_GCC)
static inline int ctz64(mask_t v) { return __builtin_ctzll(v); }
static inline int clz64(mask_t v) { return __builtin_clzll(v); }
static inline int popcount64(mask_t v) { return __builtin_popcountll(v); }
#else
static inline int popcount64(mask_t v) {
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}
#endif
#if defined(BITS_MSVC)
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

/* The deadwood the four suits leave with only their runs melded. */
static inline int rd4(mask_t m) {
    return RUN_DEADWOOD[m & SUIT] + RUN_DEADWOOD[(m >> 13) & SUIT] + RUN_DEADWOOD[(m >> 26) & SUIT]
           + RUN_DEADWOOD[m >> 39];
}

/* The ranks held three or four times (a rank's bit, as in a suit's 13). */
static inline mask_t ranks_in_sets(mask_t mask) {
    mask_t a = mask & SUIT, b = (mask >> 13) & SUIT, c = (mask >> 26) & SUIT, d = mask >> 39;
    return (a & b & (c | d)) | (c & d & (a | b));
}

/* melds.py's _with_sets: the least deadwood of the suits a, b, c, d, each rank
 * of t taken as a set or not (a set of three of four leaving its fourth to a run). */
static int with_sets(mask_t a, mask_t b, mask_t c, mask_t d, mask_t t) {
    if (!t) return RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[d];
    mask_t r = t & (~t + 1);
    t ^= r;
    int best = with_sets(a, b, c, d, t);
    mask_t keep = ~r;
    int v = with_sets(a & keep, b & keep, c & keep, d & keep, t);
    if (v < best) best = v;
    if (a & b & c & d & r) {
        /* a set of three, the fourth card free for a run */
        v = with_sets(a, b & keep, c & keep, d & keep, t);
        if (v < best) best = v;
        v = with_sets(a & keep, b, c & keep, d & keep, t);
        if (v < best) best = v;
        v = with_sets(a & keep, b & keep, c, d & keep, t);
        if (v < best) best = v;
        v = with_sets(a & keep, b & keep, c & keep, d, t);
        if (v < best) best = v;
    }
    return best;
}

/* melds.py's deadwood: the least deadwood of a hand, any size. */
static int deadwood(mask_t mask) {
    mask_t t = ranks_in_sets(mask);
    if (t) return with_sets(mask & SUIT, (mask >> 13) & SUIT, (mask >> 26) & SUIT, mask >> 39, t);
    return rd4(mask);
}

#endif
