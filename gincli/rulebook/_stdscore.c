/* The optional accelerator of `gin score`'s hot path, for the rule book's
 * standard melds only (RULES.md "Melds and deadwood", "Layoffs").
 *
 * Two functions of (knocker_mask, defender_mask, knock_limit): plain, what
 * gincli/rulebook/scoring.py's plain_pieces computes in Python, and spreads,
 * what its plain_spreads computes (the same choices as masks), the same
 * choices made in the same order (melds.py's _choices, _best_of, _runs and
 * min_arrangements; layoffs.py's plain_defence, layoff_options and _search),
 * and the same JSON texts (scoring.py's _melds_text, cards.py's json_by_rank).
 * tests/test_accel.py holds the two to the same answers. The Python code is
 * the reference and the fallback: GINCLI_PURE=1, or no compiler at install,
 * and this module is not used. The tables and constants (card names, the
 * written order, each suit's runs and deadwood) are not kept here: they are
 * generated from the Python definition into _stdscore_tables.h; the bit
 * operations and the least deadwood are _melds.h's, which gincli/rl/_stdplay.c
 * stands on too.
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * _melds.h's bit operations, no arrays sized at run time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

/* Text, as scoring.py writes it. */
typedef struct {
    char *p;
} Out;

static inline void put_card(Out *o, int c) {
    *o->p++ = '"';
    *o->p++ = CARD_NAME[c][0];
    *o->p++ = CARD_NAME[c][1];
    *o->p++ = '"';
}

static inline void put_sep(Out *o, int *first) {
    if (!*first) {
        *o->p++ = ',';
        *o->p++ = ' ';
    }
    *first = 0;
}

/* _melds_text: in the written order of each meld's first card; a run
 * ascending, a set by suit (the order of the bits). */
static void put_melds(Out *o, const Arr *a) {
    int order[MAX_MELDS], keys[MAX_MELDS];
    for (int i = 0; i < a->n; i++) {
        keys[i] = WRITTEN_PLACE[ctz64(a->melds[i])];
        order[i] = i;
        for (int j = i; j > 0 && keys[order[j - 1]] > keys[order[j]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    }
    int firstm = 1;
    for (int i = 0; i < a->n; i++) {
        put_sep(o, &firstm);
        *o->p++ = '[';
        mask_t m = a->melds[order[i]];
        int firstc = 1;
        while (m) {
            int c = ctz64(m);
            m &= m - 1;
            put_sep(o, &firstc);
            put_card(o, c);
        }
        *o->p++ = ']';
    }
}

/* json_by_rank: in the written order. */
static void put_by_rank(Out *o, mask_t mask) {
    int first = 1;
    for (int i = 0; i < 52; i++)
        if (mask >> WRITTEN_ORDER[i] & 1) {
            put_sep(o, &first);
            put_card(o, WRITTEN_ORDER[i]);
        }
}

static PyObject *text(Out *o, char *start) { return PyUnicode_FromStringAndSize(start, o->p - start); }

static int mask_arg(PyObject *obj, mask_t *out) {
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a card mask is an int");
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v & ~ALL52 || popcount64(v) > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "a hand of at most 11 cards of the 52");
        return -1;
    }
    *out = v;
    return 0;
}

static PyObject *fail(void) {
    PyErr_SetString(PyExc_ValueError, "position beyond the accelerator's bounds");
    return NULL;
}

/* A plain knock solved: the knocker's arrangement (one of cands), the
 * defender's, the cards laid off. -1: beyond the solver's bounds; 0: the
 * knocker's deadwood is over the limit; 1: solved. */
typedef struct {
    Arr cands[MAX_CHOICES];
    const Arr *k_arr;
    Arr d_arr;
    int laid[16], nlaid;
} Solved;

static int solve(PyObject *const *args, Py_ssize_t nargs, const char *usage, Solved *out) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    mask_t k_mask, d_mask;
    if (mask_arg(args[0], &k_mask) < 0 || mask_arg(args[1], &d_mask) < 0) return -1;
    long long limit = PyLong_AsLongLong(args[2]);
    if (limit == -1 && PyErr_Occurred()) return -1;

    int n = min_arrangements(k_mask, out->cands, MAX_CHOICES, 0);
    if (n <= 0) {
        fail();
        return -1;
    }
    int k_dw = out->cands[0].deadwood;
    if (k_dw > limit) return 0;
    out->k_arr = &out->cands[0];
    out->nlaid = 0;
    if (!k_dw) {
        if (best_arrangement(d_mask, &out->d_arr) < 0) {
            fail();
            return -1;
        }
        return 1;
    }
    int best = -1;
    for (int i = 0; i < n; i++) {
        Arr a;
        int l[16], nl;
        if (plain_defence(d_mask, &out->cands[i], l, &nl, &a) < 0) {
            fail();
            return -1;
        }
        if (best < 0 || a.deadwood > out->d_arr.deadwood) {
            best = i;
            out->d_arr = a;
            out->nlaid = nl;
            memcpy(out->laid, l, sizeof(int) * (size_t)nl);
        }
    }
    out->k_arr = &out->cands[best];
    return 1;
}

static PyObject *plain(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Solved sv;
    int got = solve(args, nargs, "plain(knocker_mask, defender_mask, knock_limit)", &sv);
    if (got < 0) return NULL;
    if (!got) Py_RETURN_NONE;
    const Arr *k_arr = sv.k_arr;
    const Arr d_arr = sv.d_arr;
    const int *laid = sv.laid, nlaid = sv.nlaid;
    int k_dw = k_arr->deadwood, d_dw = d_arr.deadwood;

    char buf[1024];
    Out o;
    o.p = buf;
    PyObject *parts[5];
    char *s = o.p;
    put_melds(&o, k_arr);
    parts[0] = text(&o, s);
    s = o.p;
    put_by_rank(&o, k_arr->dead);
    parts[1] = text(&o, s);
    s = o.p;
    put_melds(&o, &d_arr);
    parts[2] = text(&o, s);
    s = o.p;
    int first = 1;
    for (int i = 0; i < nlaid; i++) {
        put_sep(&o, &first);
        put_card(&o, laid[i]);
    }
    parts[3] = text(&o, s);
    s = o.p;
    put_by_rank(&o, d_arr.dead);
    parts[4] = text(&o, s);
    if (!parts[0] || !parts[1] || !parts[2] || !parts[3] || !parts[4]) {
        for (int i = 0; i < 5; i++) Py_XDECREF(parts[i]);
        return NULL;
    }
    PyObject *kd = PyLong_FromLong(k_dw), *dd = PyLong_FromLong(d_dw);
    PyObject *out = (kd && dd) ? PyTuple_Pack(7, kd, dd, parts[0], parts[1], parts[2], parts[3], parts[4]) : NULL;
    Py_XDECREF(kd);
    Py_XDECREF(dd);
    for (int i = 0; i < 5; i++) Py_DECREF(parts[i]);
    return out;
}

static PyObject *melds_tuple(const Arr *a) {
    PyObject *t = PyTuple_New(a->n);
    if (!t) return NULL;
    for (int i = 0; i < a->n; i++) {
        PyObject *m = PyLong_FromUnsignedLongLong(a->melds[i]);
        if (!m) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, m);
    }
    return t;
}

static PyObject *spreads(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Solved sv;
    int got = solve(args, nargs, "spreads(knocker_mask, defender_mask, knock_limit)", &sv);
    if (got < 0) return NULL;
    if (!got) Py_RETURN_NONE;
    PyObject *k_melds = melds_tuple(sv.k_arr), *d_melds = melds_tuple(&sv.d_arr), *laid = PyList_New(sv.nlaid);
    PyObject *out = NULL;
    if (k_melds && d_melds && laid) {
        int i = 0;
        for (; i < sv.nlaid; i++) {
            PyObject *c = PyLong_FromLong(sv.laid[i]);
            if (!c) break;
            PyList_SET_ITEM(laid, i, c);
        }
        if (i == sv.nlaid)
            out = Py_BuildValue("(iiOKOOK)", sv.k_arr->deadwood, sv.d_arr.deadwood, k_melds,
                                (unsigned long long)sv.k_arr->dead, d_melds, laid, (unsigned long long)sv.d_arr.dead);
    }
    Py_XDECREF(k_melds);
    Py_XDECREF(d_melds);
    Py_XDECREF(laid);
    return out;
}

static PyMethodDef methods[] = {
    {"plain", (PyCFunction)(void (*)(void))plain, METH_FASTCALL,
     "plain(knocker_mask, defender_mask, knock_limit) -> None if the knocker's deadwood is over the limit, else "
     "(knocker's deadwood, defender's deadwood, knocker's melds, knocker's deadwood cards, defender's melds, "
     "layoffs, defender's deadwood cards), the texts as the inside of JSON lists."},
    {"spreads", (PyCFunction)(void (*)(void))spreads, METH_FASTCALL,
     "spreads(knocker_mask, defender_mask, knock_limit) -> None if the knocker's deadwood is over the limit, else "
     "(knocker's deadwood, defender's deadwood, knocker's melds, knocker's deadwood mask, defender's melds, "
     "layoffs, defender's deadwood mask), the melds as masks, the layoffs as cards in the order laid."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_stdscore",
                                    "The optional accelerator of gin score's hot path (standard melds).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__stdscore(void) { return PyModule_Create(&module); }
