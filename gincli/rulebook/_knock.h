/* The settlement of a knock under the standard melds (RULES.md "Layoffs"), kept once
 * for both compiled modules: gin score's accelerator (_stdscore.c) and the play-outs of
 * the built-in bots' search (gincli/hand/_playout.c). The knocker's least-deadwood
 * arrangements and the defender's best layoffs, the same choices made in the same
 * order as the Python reference (melds.py's _choices, _best_of, _runs and
 * min_arrangements; layoffs.py's plain_defence, layoff_options and _search;
 * scoring.py's defend). Static functions on _melds.h; plain C99.
 */
#ifndef GINCLI_KNOCK_H
#define GINCLI_KNOCK_H

#include <string.h>

#include "_melds.h"

#define MAX_CARDS 11   /* a hand this solver takes: ten cards, eleven for big gin */
#define MAX_SETS 4
#define MAX_MELDS 8    /* eleven cards hold at most three melds */
#define MAX_CHOICES 256 /* at most three ranks held three times or more: 6 * 6 * 6 */
#define MAX_CHAINS 16

typedef struct {
    int deadwood;
    int n;
    mask_t melds[MAX_MELDS];
    mask_t dead;
} Arr;

typedef struct {
    mask_t used;
    int n;
    mask_t sets[MAX_SETS];
} Choice;

/* melds.py's _choices: every choice of sets worth trying, the empty one first. */
static int choices_of(mask_t mask, mask_t t, Choice *out) {
    int n = 1;
    out[0].used = 0;
    out[0].n = 0;
    while (t) {
        mask_t low = t & (~t + 1);
        t ^= low;
        mask_t full = mask & (low * SPREAD);
        if (!((((full << 1) & NO_ACES) | ((full >> 1) & NO_KINGS)) & mask)) {
            for (int i = 0; i < n; i++) {
                if (out[i].n >= MAX_SETS) return -1;
                out[i].used |= full;
                out[i].sets[out[i].n++] = full;
            }
            continue;
        }
        mask_t opts[5];
        int k = 0;
        opts[k++] = full;
        if (popcount64(full) == 4) {
            opts[k++] = full & ~low;
            opts[k++] = full & ~(low << 13);
            opts[k++] = full & ~(low << 26);
            opts[k++] = full & ~(low << 39);
        }
        int m = n;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < k; j++) {
                if (n >= MAX_CHOICES || out[i].n >= MAX_SETS) return -1;
                out[n] = out[i];
                out[n].used |= opts[j];
                out[n].sets[out[n].n++] = opts[j];
                n++;
            }
    }
    return n;
}

/* melds.py's _runs: the forced runs of what is left (each suit's stretches, low to high). */
static int add_runs(mask_t rest, Arr *a) {
    a->dead = 0;
    a->deadwood = 0;
    for (int s = 0; s < 4; s++) {
        mask_t bits = (rest >> (13 * s)) & SUIT;
        mask_t m = RUN_MELDED[bits];
        a->dead |= (bits & ~m) << (13 * s);
        a->deadwood += RUN_DEADWOOD[bits];
        while (m) {
            mask_t top = m & (~m + 1), run = top;
            while (m & (top << 1)) {
                top <<= 1;
                run |= top;
            }
            if (a->n >= MAX_MELDS) return -1;
            a->melds[a->n++] = run << (13 * s);
            m &= ~run;
        }
    }
    return 0;
}

/* melds.py's min_arrangements (first: best_arrangement, only the first). */
static int min_arrangements(mask_t mask, Arr *out, int cap, int first) {
    Choice ch[MAX_CHOICES];
    mask_t t = ranks_in_sets(mask);
    int n = choices_of(mask, t, ch);
    if (n < 0) return -1;
    int best = 1 << 30, count = 0;
    int picked[MAX_CHOICES];
    for (int i = 0; i < n; i++) {
        int v = rd4(mask & ~ch[i].used);
        if (v < best) {
            best = v;
            count = 0;
            picked[count++] = i;
        } else if (v == best && !first) {
            picked[count++] = i;
        }
    }
    if (count > cap) return -1;
    for (int i = 0; i < count; i++) {
        Choice *c = &ch[picked[i]];
        out[i].n = c->n;
        memcpy(out[i].melds, c->sets, sizeof(mask_t) * (size_t)c->n);
        if (add_runs(mask & ~c->used, &out[i]) < 0) return -1;
    }
    return count;
}

static int best_arrangement(mask_t mask, Arr *out) {
    return min_arrangements(mask, out, 1, 1) == 1 ? 0 : -1;
}

/* A meld's facts (melds.py's meld_info): a run's suit, low and high rank, or a set's rank and open card. */
typedef struct {
    int is_run, suit, low, high, open_card;
} Info;

static Info info_of(mask_t meld) {
    Info f;
    int first = ctz64(meld), last = 63 - clz64(meld);
    if (first / 13 == last / 13) {
        f.is_run = 1;
        f.suit = first / 13;
        f.low = first % 13;
        f.high = last % 13;
        f.open_card = -1;
    } else {
        int r = first % 13;
        f.is_run = 0;
        f.suit = -1;
        f.low = f.high = r;
        f.open_card = -1;
        if (popcount64(meld) == 3)
            for (int s = 0; s < 4; s++)
                if (!(meld >> (s * 13 + r) & 1)) f.open_card = s * 13 + r;
    }
    return f;
}

static mask_t touch_of(mask_t meld) {
    Info f = info_of(meld);
    mask_t t = 0;
    if (f.is_run) {
        if (f.low > 0) t |= 1ull << (f.suit * 13 + f.low - 1);
        if (f.high < 12) t |= 1ull << (f.suit * 13 + f.high + 1);
    } else if (f.open_card >= 0) {
        t = 1ull << f.open_card;
    }
    return t;
}

typedef struct {
    int n;
    int cards[13];
} Chain;

/* layoffs.py's layoff_options: runs up then down, meld by meld; then the sets' fourth cards. */
static int layoff_options(const Arr *k, mask_t available, Chain *chains) {
    int n = 0, slots[MAX_MELDS], ns = 0;
    for (int i = 0; i < k->n; i++) {
        Info f = info_of(k->melds[i]);
        if (f.is_run) {
            int base = f.suit * 13;
            if (f.high < 12 && (available >> (base + f.high + 1) & 1)) {
                if (n >= MAX_CHAINS) return -1;
                Chain *c = &chains[n++];
                c->n = 0;
                for (int x = base + f.high + 1; x <= base + 12 && (available >> x & 1); x++) c->cards[c->n++] = x;
            }
            if (f.low > 0 && (available >> (base + f.low - 1) & 1)) {
                if (n >= MAX_CHAINS) return -1;
                Chain *c = &chains[n++];
                c->n = 0;
                for (int x = base + f.low - 1; x >= base && (available >> x & 1); x--) c->cards[c->n++] = x;
            }
        } else if (f.open_card >= 0) {
            slots[ns++] = f.open_card;
        }
    }
    for (int i = 0; i < ns; i++)
        if (available >> slots[i] & 1) {
            if (n >= MAX_CHAINS) return -1;
            chains[n].n = 1;
            chains[n].cards[0] = slots[i];
            n++;
        }
    return n;
}

/* layoffs.py's _search (nothing declared): every prefix of every chain, in
 * itertools.product's order; the least deadwood, then the fewest layoffs, the first met. */
static int search(mask_t available, const Chain *chains, int n, int *laid, int *nlaid, Arr *arr) {
    int len[MAX_CHAINS] = {0}, best_len[MAX_CHAINS] = {0};
    int best_key = -1;
    mask_t best_laid = 0;
    for (;;) {
        mask_t m = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < len[i]; j++) m |= 1ull << chains[i].cards[j];
        int key = deadwood(available & ~m) * 64 + popcount64(m);
        if (best_key < 0 || key < best_key) {
            best_key = key;
            best_laid = m;
            memcpy(best_len, len, sizeof len);
        }
        int i = n - 1;  /* the last chain turns fastest */
        while (i >= 0 && len[i] == chains[i].n) len[i--] = 0;
        if (i < 0) break;
        len[i]++;
    }
    mask_t seen = 0;
    *nlaid = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < best_len[i]; j++) {
            int c = chains[i].cards[j];
            if (!(seen >> c & 1)) {
                seen |= 1ull << c;
                laid[(*nlaid)++] = c;
            }
        }
    return best_arrangement(available & ~best_laid, arr);
}

/* layoffs.py's plain_defence. */
static int plain_defence(mask_t held, const Arr *k, int *laid, int *nlaid, Arr *arr) {
    mask_t touch = 0;
    for (int i = 0; i < k->n; i++) touch |= touch_of(k->melds[i]);
    mask_t fits = touch & held;
    *nlaid = 0;
    if (fits) {
        int card;
        if ((fits & (fits - 1)) || ((((fits << 1) & NO_ACES) | ((fits >> 1) & NO_KINGS)) & held)) {
            Chain chains[MAX_CHAINS];
            int n = layoff_options(k, held, chains);
            if (n < 0) return -1;
            if (n != 1 || chains[0].n != 1) return search(held, chains, n, laid, nlaid, arr);
            card = chains[0].cards[0];
        } else {
            card = 63 - clz64(fits);
        }
        if (best_arrangement(held & ~(1ull << card), arr) < 0) return -1;
        if (arr->deadwood < deadwood(held)) {
            laid[0] = card;
            *nlaid = 1;
            return 0;
        }
    }
    return best_arrangement(held, arr);
}

/* scoring.py's defend (nothing declared): of the knocker's `n` arrangements `cands` (all of
 * the same deadwood), the first that leaves the defender `d_mask` the most after its best
 * layoffs: its index, the defender's arrangement of the rest and the cards laid off; -1 past
 * the solver's bounds. */
static int defend(mask_t d_mask, const Arr *cands, int n, Arr *d_arr, int *laid, int *nlaid) {
    int best = -1;
    for (int i = 0; i < n; i++) {
        Arr a;
        int l[16], nl;
        if (plain_defence(d_mask, &cands[i], l, &nl, &a) < 0) return -1;
        if (best < 0 || a.deadwood > d_arr->deadwood) {
            best = i;
            *d_arr = a;
            *nlaid = nl;
            memcpy(laid, l, sizeof(int) * (size_t)nl);
        }
    }
    return best;
}

#endif
