/* The optional accelerator of `gin score`'s hot path, for the rule book's
 * standard melds only (RULES.md "Melds and deadwood", "Layoffs").
 *
 * deadwood(mask), melds.py's deadwood (what the engine, the bots and the scorer ask
 * most), and two functions of (knocker_mask, defender_mask, knock_limit): plain, what
 * gincli/rulebook/scoring.py's plain_pieces computes in Python, and spreads,
 * what its plain_spreads computes (the same choices as masks), the same
 * choices made in the same order (melds.py's _choices, _best_of, _runs and
 * min_arrangements; layoffs.py's plain_defence, layoff_options and _search),
 * and the same JSON texts (scoring.py's _melds_text, cards.py's json_by_rank).
 * tests/test_accel.py holds the three to the same answers. The Python code is
 * the reference and the fallback: GINCLI_PURE=1, or no compiler at install,
 * and this module is not used. The tables and constants (card names, the
 * written order, each suit's runs and deadwood) are not kept here: they are
 * generated from the Python definition into _stdscore_tables.h; the bit
 * operations and the least deadwood are _melds.h's, which gincli/rl/_stdplay.c
 * stands on too; the knocker's arrangements and the defender's layoffs are
 * _knock.h's, which the bots' play-outs (gincli/hand/_playout.c) settle knocks by.
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * _melds.h's bit operations, no arrays sized at run time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_knock.h"

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

/* The melds of an arrangement in the written order of each one's first card
 * (a run's lowest, a set's first suit): their indexes into order. */
static void written_order(const Arr *a, int *order) {
    int keys[MAX_MELDS];
    for (int i = 0; i < a->n; i++) {
        keys[i] = WRITTEN_PLACE[ctz64(a->melds[i])];
        order[i] = i;
        for (int j = i; j > 0 && keys[order[j - 1]] > keys[order[j]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    }
}

/* _melds_text: in the written order of each meld's first card; a run
 * ascending, a set by suit (the order of the bits). */
static void put_melds(Out *o, const Arr *a) {
    int order[MAX_MELDS];
    written_order(a, order);
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
    int best = defend(d_mask, out->cands, n, &out->d_arr, out->laid, &out->nlaid);
    if (best < 0) {
        fail();
        return -1;
    }
    out->k_arr = &out->cands[best];
    return 1;
}

/* The lines of `p` to `end` (JSON Lines as read), each found with memchr: with `records`, those
 * holding any byte that is not whitespace as bytes.isspace() has it (a last line without its newline
 * too; a line starting with `{`, nearly all, looked at no further), else the newlines. */
static Py_ssize_t scan_lines(const char *p, const char *end, int records) {
    Py_ssize_t n = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!records) {
            if (!nl) break;
            n++;
            p = nl + 1;
            continue;
        }
        const char *stop = nl ? nl : end;
        while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')) p++;
        n += p < stop;
        p = nl ? nl + 1 : end;
    }
    return n;
}

static PyObject *counted(PyObject *arg, int records) {
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
    Py_ssize_t n;
    Py_BEGIN_ALLOW_THREADS
    n = scan_lines((const char *)b.buf, (const char *)b.buf + b.len, records);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return PyLong_FromSsize_t(n);
}

/* records(data) -> the records of `data` (bytes-like): formats/containers.py's _records, without the
 * lines past the limit. */
static PyObject *count_records(PyObject *self, PyObject *arg) {
    (void)self;
    return counted(arg, 1);
}

/* lines(data) -> the newlines in `data` (bytes-like): its lines, as formats/containers.py cuts JSON
 * Lines into chunks (bytes.count looks at every byte in turn). */
static PyObject *count_lines(PyObject *self, PyObject *arg) {
    (void)self;
    return counted(arg, 0);
}

/* checksum(data) -> a 64-bit Fletcher sum of `data` (bytes-like), its length mixed in: two running
 * sums of its 8-byte words (the last padded with zeros), the second of the first's values, so that a
 * word changed, or two words moved, or the length changed, changes it. What formats/containers.py
 * checks a chunk a worker read again in the input by (a change made to the file while gin read it),
 * some four times faster than zlib's CRC-32; not a hash against anyone's design. */
static PyObject *checksum(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *p = (const unsigned char *)b.buf;
    size_t len = (size_t)b.len, i = 0;
    unsigned long long s1 = 0, s2 = 0, w;
    Py_BEGIN_ALLOW_THREADS
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        s1 += w;
        s2 += s1;
    }
    w = 0;
    memcpy(&w, p + i, len - i);
    s1 += w;
    s2 += s1;
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    return PyLong_FromUnsignedLongLong(s1 ^ ((s2 << 32) | (s2 >> 32)) ^ (len * 0x9E3779B97F4A7C15ULL));
}

/* deadwood(mask) -> melds.py's deadwood: the least deadwood of a hand (a card mask, any size). */
static PyObject *least_deadwood(PyObject *self, PyObject *arg) {
    (void)self;
    mask_t mask = PyLong_AsUnsignedLongLong(arg);
    if (mask == (mask_t)-1 && PyErr_Occurred()) return NULL;
    if (mask & ~ALL52) {
        PyErr_SetString(PyExc_ValueError, "a hand is a mask of the 52 cards");
        return NULL;
    }
    return PyLong_FromLong(deadwood(mask));
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

/* For people (gincli/cli/hands.py's hand_text): each card as people write it,
 * cards apart by a space, melds by two, in the order the JSON has them. */
static inline void put_label(Out *o, int c) {
    for (const char *l = CARD_LABEL[c]; *l; l++) *o->p++ = *l;
}

static void put_meld_labels(Out *o, const Arr *a) {
    int order[MAX_MELDS];
    written_order(a, order);
    for (int i = 0; i < a->n; i++) {
        if (i) {
            *o->p++ = ' ';
            *o->p++ = ' ';
        }
        mask_t m = a->melds[order[i]];
        int firstc = 1;
        while (m) {
            int c = ctz64(m);
            m &= m - 1;
            if (!firstc) *o->p++ = ' ';
            firstc = 0;
            put_label(o, c);
        }
    }
}

static void put_labels_by_rank(Out *o, mask_t mask) {
    int first = 1;
    for (int i = 0; i < 52; i++)
        if (mask >> WRITTEN_ORDER[i] & 1) {
            if (!first) *o->p++ = ' ';
            first = 0;
            put_label(o, WRITTEN_ORDER[i]);
        }
}

static PyObject *utf8(Out *o, char *start) { return PyUnicode_DecodeUTF8(start, o->p - start, NULL); }

/* text: scoring.py's plain_labels: plain's pieces for people. */
static PyObject *labels(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Solved sv;
    int got = solve(args, nargs, "labels(knocker_mask, defender_mask, knock_limit)", &sv);
    if (got < 0) return NULL;
    if (!got) Py_RETURN_NONE;
    char buf[1024];
    Out o;
    o.p = buf;
    PyObject *parts[5];
    char *s = o.p;
    put_meld_labels(&o, sv.k_arr);
    parts[0] = utf8(&o, s);
    s = o.p;
    put_labels_by_rank(&o, sv.k_arr->dead);
    parts[1] = utf8(&o, s);
    s = o.p;
    put_meld_labels(&o, &sv.d_arr);
    parts[2] = utf8(&o, s);
    s = o.p;
    for (int i = 0; i < sv.nlaid; i++) {
        if (i) *o.p++ = ' ';
        put_label(&o, sv.laid[i]);
    }
    parts[3] = utf8(&o, s);
    s = o.p;
    put_labels_by_rank(&o, sv.d_arr.dead);
    parts[4] = utf8(&o, s);
    if (!parts[0] || !parts[1] || !parts[2] || !parts[3] || !parts[4]) {
        for (int i = 0; i < 5; i++) Py_XDECREF(parts[i]);
        return NULL;
    }
    PyObject *kd = PyLong_FromLong(sv.k_arr->deadwood), *dd = PyLong_FromLong(sv.d_arr.deadwood);
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
    {"records", (PyCFunction)count_records, METH_O,
     "records(data) -> the lines of data (bytes-like) that are not blank: JSON Lines' records"},
    {"lines", (PyCFunction)count_lines, METH_O, "lines(data) -> the newlines in data (bytes-like)"},
    {"checksum", (PyCFunction)checksum, METH_O,
     "checksum(data) -> a 64-bit Fletcher sum of data (bytes-like) and its length, to see a change by"},
    {"deadwood", (PyCFunction)least_deadwood, METH_O,
     "deadwood(mask) -> the least deadwood of a hand (a card mask of any size), as melds.py's deadwood"},
    {"plain", (PyCFunction)(void (*)(void))plain, METH_FASTCALL,
     "plain(knocker_mask, defender_mask, knock_limit) -> None if the knocker's deadwood is over the limit, else "
     "(knocker's deadwood, defender's deadwood, knocker's melds, knocker's deadwood cards, defender's melds, "
     "layoffs, defender's deadwood cards), the texts as the inside of JSON lists."},
    {"labels", (PyCFunction)(void (*)(void))labels, METH_FASTCALL,
     "labels(knocker_mask, defender_mask, knock_limit): plain's pieces as people write the cards (scoring.py's "
     "plain_labels)"},
    {"spreads", (PyCFunction)(void (*)(void))spreads, METH_FASTCALL,
     "spreads(knocker_mask, defender_mask, knock_limit) -> None if the knocker's deadwood is over the limit, else "
     "(knocker's deadwood, defender's deadwood, knocker's melds, knocker's deadwood mask, defender's melds, "
     "layoffs, defender's deadwood mask), the melds as masks, the layoffs as cards in the order laid."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_stdscore",
                                    "The optional accelerator of gin score's hot path (standard melds).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__stdscore(void) { return PyModule_Create(&module); }
