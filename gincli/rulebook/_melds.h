/* What both compiled modules of the standard melds stand on, kept once: gin
 * score's accelerator (_stdscore.c) and the learning environments' play
 * (gincli/rl/_stdplay.c). A hand as a card mask and the bit operations
 * (_bits.h), the tables and constants generated from the rule book's Python
 * (_stdscore_tables.h), and the standard melds' least deadwood (RULES.md "Melds
 * and deadwood"; melds.py's deadwood, the reference tests/test_accel.py holds
 * every build of both modules to). Static functions, each module compiling its
 * own: the small ones inline, so that one a module does not use is no warning;
 * with_sets and deadwood, which every module uses, not (their recursion is the
 * compiler's to unroll or not).
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * _bits.h's bit operations, no arrays sized at run time.
 */
#ifndef GINCLI_MELDS_H
#define GINCLI_MELDS_H

#include "_bits.h"
#include "_stdscore_tables.h"

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
