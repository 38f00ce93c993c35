/* The optional accelerator of a plugin's meld rules (any melds: RULES.md
 * "Melds and deadwood", the melds given as card masks).
 *
 * One type, Search(melds, values, fallback): a hand's least deadwood (deadwood)
 * and whether a card makes a meld with a hand (forms_meld), what
 * gincli/rulebook/meldrules.py's HandSearch answers in Python, the same way: the
 * melds the hand holds are found through the melds by their lowest card, the
 * hand's cards renumbered 0..n-1, and a search over what is left (its lowest
 * card in no meld, or in each meld of it the hand still holds) memoised on the
 * cards left. A hand of more than LOCAL cards, or holding more than HAND_MELDS
 * melds, goes to ``fallback`` (HandSearch.solve). Answers are kept in a cache of
 * fixed size (each slot the last hand that hashed there): memory stays
 * constant however long a match plays. tests/test_meld_search.py holds it to
 * the Python and to a brute force. GINCLI_PURE=1, or no compiler at install,
 * and this module is not used.
 *
 * Plain C99 for GCC, Clang and MSVC alike: no compiler's extensions outside
 * _bits.h's bit operations, no arrays sized at run time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_bits.h"

#define LOCAL 16                   /* the most cards a hand searched here may have */
#define HAND_MELDS 4096            /* the most melds it may hold */
#define CACHE_BITS 16              /* 65,536 hands cached, 1 MB */
#define DECK ((1ull << 52) - 1)

typedef struct {
    mask_t hand;
    int deadwood;
} Entry;

typedef struct {
    PyObject_HEAD
    PyObject *fallback;
    int value[52];
    Py_ssize_t low_start[53];      /* the melds by their lowest card: low[low_start[c]] up to low[low_start[c + 1]] */
    mask_t *low;
    Py_ssize_t with_start[53];     /* the melds holding each card, that card taken out */
    mask_t *with;
    Entry *cache;
    /* one search's work: the hand's cards renumbered, the melds it holds by their lowest card, the memo */
    unsigned gen;
    unsigned *stamp;
    int *memo;
    int local_value[LOCAL];
    int first[LOCAL + 1];
    unsigned held[HAND_MELDS];
} Search;

/* The least deadwood of the cards ``rest`` (renumbered) of the hand being searched. */
static int least(Search *s, unsigned rest) {
    if (!rest) return 0;
    if (s->stamp[rest] == s->gen) return s->memo[rest];
    int c = ctz64(rest);
    int best = s->local_value[c] + least(s, rest & (rest - 1));  /* its lowest card in no meld */
    for (int i = s->first[c]; i < s->first[c + 1] && best; i++) {
        unsigned m = s->held[i];
        if (!(m & ~rest)) {
            int v = least(s, rest & ~m);
            if (v < best) best = v;
        }
    }
    s->stamp[rest] = s->gen;
    s->memo[rest] = best;
    return best;
}

/* A hand's least deadwood, or -1 when it is too big to search here. */
static int solve(Search *s, mask_t hand) {
    if (popcount64(hand) > LOCAL) return -1;
    int pos[52];
    int n = 0;
    for (mask_t rest = hand; rest; rest &= rest - 1) pos[ctz64(rest)] = n++;
    int k = 0, held = 0;
    for (mask_t rest = hand; rest; rest &= rest - 1, k++) {
        int c = ctz64(rest);
        s->local_value[k] = s->value[c];
        s->first[k] = held;
        for (Py_ssize_t i = s->low_start[c]; i < s->low_start[c + 1]; i++) {
            mask_t m = s->low[i];
            if (m & ~hand) continue;
            if (held == HAND_MELDS) return -1;
            unsigned local = 0;
            for (; m; m &= m - 1) local |= 1u << pos[ctz64(m)];
            s->held[held++] = local;
        }
    }
    s->first[k] = held;
    if (++s->gen == 0) {  /* the stamps went round: start them again */
        memset(s->stamp, 0, sizeof(unsigned) << LOCAL);
        s->gen = 1;
    }
    return least(s, (1u << n) - 1);
}

static int as_hand(PyObject *arg, mask_t *out) {
    mask_t m = PyLong_AsUnsignedLongLong(arg);
    if (m == (mask_t)-1 && PyErr_Occurred()) return -1;
    if (m & ~DECK) {
        PyErr_SetString(PyExc_ValueError, "a hand is a mask of the 52 cards");
        return -1;
    }
    *out = m;
    return 0;
}

static PyObject *deadwood(Search *s, PyObject *arg) {
    mask_t hand;
    if (as_hand(arg, &hand) < 0) return NULL;
    if (!hand) return PyLong_FromLong(0);
    Entry *e = &s->cache[(hand * 0x9E3779B97F4A7C15ull) >> (64 - CACHE_BITS)];
    if (e->hand == hand) return PyLong_FromLong(e->deadwood);
    int v = solve(s, hand);
    if (v < 0) {
        PyObject *found = PyObject_CallOneArg(s->fallback, arg);
        if (!found) return NULL;
        long big = PyLong_AsLong(found);
        Py_DECREF(found);
        if (big == -1 && PyErr_Occurred()) return NULL;
        v = (int)big;
    }
    e->hand = hand;
    e->deadwood = v;
    return PyLong_FromLong(v);
}

static PyObject *forms_meld(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "forms_meld(hand, card) takes two arguments");
        return NULL;
    }
    mask_t hand;
    if (as_hand(args[0], &hand) < 0) return NULL;
    long card = PyLong_AsLong(args[1]);
    if (card == -1 && PyErr_Occurred()) return NULL;
    if (card < 0 || card > 51) {
        PyErr_SetString(PyExc_ValueError, "a card is a number from 0 to 51");
        return NULL;
    }
    for (Py_ssize_t i = s->with_start[card]; i < s->with_start[card + 1]; i++)
        if (!(s->with[i] & ~hand)) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* Search(melds, values, fallback): the melds (card masks), each card's value, and what answers a hand too big. */
static PyObject *search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *melds_arg, *values_arg, *fallback;
    static char *names[] = {"melds", "values", "fallback", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:Search", names, &melds_arg, &values_arg, &fallback))
        return NULL;
    PyObject *melds = PySequence_Fast(melds_arg, "melds must be a sequence of card masks");
    if (!melds) return NULL;
    PyObject *values = PySequence_Fast(values_arg, "values must be a sequence of 52 numbers");
    if (!values) {
        Py_DECREF(melds);
        return NULL;
    }
    Search *s = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(melds);
    mask_t *masks = PyMem_Calloc(n ? (size_t)n : 1, sizeof(mask_t));
    if (!masks) {
        PyErr_NoMemory();
        goto done;
    }
    if (PySequence_Fast_GET_SIZE(values) != 52) {
        PyErr_SetString(PyExc_ValueError, "values must be a sequence of 52 numbers");
        goto done;
    }
    Py_ssize_t holding = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (as_hand(PySequence_Fast_GET_ITEM(melds, i), &masks[i]) < 0) goto done;
        if (popcount64(masks[i]) < 2) {
            PyErr_SetString(PyExc_ValueError, "a meld is two cards or more");
            goto done;
        }
        holding += popcount64(masks[i]);
    }
    s = (Search *)type->tp_alloc(type, 0);
    if (!s) goto done;
    for (int c = 0; c < 52; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(values, c));
        if (v == -1 && PyErr_Occurred()) goto fail;
        if (v < 0 || v > 100000) {
            PyErr_SetString(PyExc_ValueError, "a card's value is a number from 0 to 100000");
            goto fail;
        }
        s->value[c] = (int)v;
    }
    s->low = PyMem_Calloc(n ? (size_t)n : 1, sizeof(mask_t));
    s->with = PyMem_Calloc(holding ? (size_t)holding : 1, sizeof(mask_t));
    s->cache = PyMem_Calloc((size_t)1 << CACHE_BITS, sizeof(Entry));
    s->stamp = PyMem_Calloc((size_t)1 << LOCAL, sizeof(unsigned));
    s->memo = PyMem_Calloc((size_t)1 << LOCAL, sizeof(int));
    if (!s->low || !s->with || !s->cache || !s->stamp || !s->memo) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t at = 0, wat = 0;
    for (int c = 0; c < 52; c++) {
        s->low_start[c] = at;
        s->with_start[c] = wat;
        mask_t bit = 1ull << c;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (masks[i] & bit) {
                if (!(masks[i] & (bit - 1))) s->low[at++] = masks[i];
                s->with[wat++] = masks[i] & ~bit;
            }
        }
    }
    s->low_start[52] = at;
    s->with_start[52] = wat;
    Py_INCREF(fallback);
    s->fallback = fallback;
    goto done;
fail:
    Py_CLEAR(s);
done:
    PyMem_Free(masks);
    Py_DECREF(melds);
    Py_DECREF(values);
    return (PyObject *)s;
}

static void search_dealloc(Search *s) {
    Py_XDECREF(s->fallback);
    PyMem_Free(s->low);
    PyMem_Free(s->with);
    PyMem_Free(s->cache);
    PyMem_Free(s->stamp);
    PyMem_Free(s->memo);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyMethodDef search_methods[] = {
    {"deadwood", (PyCFunction)deadwood, METH_O, "deadwood(hand) -> the least deadwood of a hand (a card mask)."},
    {"forms_meld", (PyCFunction)(void (*)(void))forms_meld, METH_FASTCALL,
     "forms_meld(hand, card) -> whether card makes a meld with cards of hand."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gincli.rulebook._meldsearch.Search",
    .tp_basicsize = sizeof(Search),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(melds, values, fallback): any meld rules' least deadwood, searched and cached.",
    .tp_methods = search_methods,
    .tp_new = search_new,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_meldsearch",
                                    "The optional accelerator of a plugin's meld rules (any melds).", -1,
                                    NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__meldsearch(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
