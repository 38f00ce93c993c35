/* The optional compiled play-outs of the built-in bots' search (gincli/hand/playout.py,
 * which holds the reference in Python and says what each function promises): a hand of
 * the rule book's own rules (the standard melds, no move set) played to its end from a
 * given position by a cheap policy, both seats, and scored as the rule book scores it.
 *
 *   playout(...)  one play-out of a position whose hidden cards are given: the moves
 *                 played and the points, to hold against the hand engine;
 *   search(...)   for each of a seat's candidate moves, the points of play-outs over
 *                 `worlds` worlds sampled from what the seat knows (the opponent's hand
 *                 drawn by weight, the stock shuffled), every candidate played in the
 *                 same worlds.
 *
 * The generator is the rule book's SplitMix64 (rulebook/rng.py), drawn from in the same
 * order as the Python, so both give the same numbers; the knock is settled by _knock.h,
 * gin score's own choices. tests/test_playout.py holds this module to the Python and to
 * the hand engine; tests/test_accel.py builds it with each compiler present. Plain C99.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../rulebook/_knock.h"

#define BIT(c) (1ull << (c))
/* The environments' action ids (rl/actions.py), for the moves a play-out plays. */
enum { STOCK = 0, TAKE = 1, DISCARD_ID = 3, KNOCK_ID = 55, GIN_ID = 107 };
enum { DRAW = 1, DISCARD = 2 };
/* How a play-out ends: it goes on, a knock (gin, big gin), the wall, too many moves. */
enum { GOES_ON = 0, KNOCKED = 1, WALLED = 2, STALLED = 4 };
/* A play-out longer than this is stopped, a dead hand (the policy may take discards back and forth). */
#define MAX_MOVES 400
#define MAX_CANDIDATES 16

typedef struct {
    mask_t hand[2];  /* seat 0: the seat searching; seat 1: its opponent */
    mask_t took[2];  /* the cards each seat took from the pile and holds: what the other seat sees of its hand */
    mask_t on_pile;
    int8_t pile[52]; /* bottom first */
    int8_t stock[52];  /* top last */
    int npile, nstock, to_act, phase, taken, wall_turn, moves, end, ender;
} Pos;

typedef struct {
    long limit, gin_bonus, undercut_bonus, big_gin_bonus;  /* big_gin_bonus < 0: no big gin */
    long knock_at[2];  /* each seat knocks with at most this much deadwood (gin always) */
    long danger;  /* what a discard that melds with a card the other seat took counts, in deadwood */
} Rules;

typedef struct {
    uint64_t state;
} Rng;

static uint64_t next64(Rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* rng.py's below: no bias, drawing again past the last whole multiple of n. */
static uint64_t below(Rng *r, uint64_t n) {
    uint64_t limit = (uint64_t)0 - ((uint64_t)0 - n) % n;  /* 2**64 - (2**64 mod n); 0 when n divides 2**64 */
    for (;;) {
        uint64_t x = next64(r);
        if (limit == 0 || x < limit) return x % n;
    }
}

/* The cards that meld with c: its rank, and its suit within two. */
static mask_t neighbour_of[52];  /* filled once, when the module is made */

static mask_t neighbours_made(int c) {
    int r = c % 13, s = c / 13;
    mask_t m = ((mask_t)SPREAD << r) & ~BIT(c);
    for (int d = -2; d <= 2; d++)
        if (d && r + d >= 0 && r + d < 13) m |= BIT(s * 13 + r + d);
    return m;
}

static inline mask_t neighbours(int c) { return neighbour_of[c]; }

/* The policy's draw: the pile's top when it melds and leaves less deadwood after the best
 * discard (never the top itself); at the wall the top, the stock being closed. */
static int draw_choice(const Pos *p) {
    int s = p->to_act;
    if (p->nstock <= 2) return TAKE;
    int top = p->pile[p->npile - 1];
    mask_t h = p->hand[s], with = h | BIT(top);
    if (!(neighbours(top) & h)) return STOCK;  /* a top that melds with nothing adds its value: no less */
    int dw = deadwood(h), dwt = deadwood(with);
    if (dwt >= dw + CARD_VALUE[top]) return STOCK;
    for (mask_t rest = h; rest; rest &= rest - 1) {
        int c = ctz64(rest);
        /* a card melding with none of the others is in no meld: without it, its value less */
        int less = neighbours(c) & with ? deadwood(with & ~BIT(c)) : dwt - CARD_VALUE[c];
        if (less < dw) return TAKE;
    }
    return STOCK;
}

/* The policy's discard: gin (or big gin) when it can; else the card leaving the least
 * deadwood, a card that melds with one the other seat took and holds counting `danger` more;
 * among those the one with the fewest of its own cards melding with it (then the highest,
 * then the first); knocked with when its deadwood is within the seat's knock_at. */
static int discard_choice(const Pos *p, const Rules *r) {
    int s = p->to_act;
    mask_t h = p->hand[s], fed = p->took[1 - s];
    int whole = deadwood(h);
    if (r->big_gin_bonus >= 0 && whole == 0) return GIN_ID;
    int best = -1, best_dw = 0, best_key = 0, best_kin = 0;
    for (mask_t rest = h; rest; rest &= rest - 1) {
        int c = ctz64(rest);
        if (c == p->taken) continue;
        mask_t near = neighbours(c);
        /* a card melding with none of the others is in no meld: without it, its value less */
        int kin = near & h ? popcount64(near & h) : 0;
        int dw = kin ? deadwood(h & ~BIT(c)) : whole - CARD_VALUE[c];
        int key = dw + (near & fed ? (int)r->danger : 0);
        if (best < 0 || key < best_key || (key == best_key && (kin < best_kin ||
                                                              (kin == best_kin && CARD_VALUE[c] > CARD_VALUE[best])))) {
            best = c;
            best_dw = dw;
            best_key = key;
            best_kin = kin;
        }
    }
    if (best_dw <= r->limit && (best_dw == 0 || best_dw <= r->knock_at[s])) return KNOCK_ID + best;
    return DISCARD_ID + best;
}

/* Whether the seat to act drew the stock's third-to-last card and has yet to discard (the
 * rule book's wall): its discard, unless a knock, ends the hand dead. */
static int at_the_wall(const Pos *p) {
    return p->phase == DISCARD && p->taken < 0 && p->nstock == 2;
}

/* One move of the seat to act, as the hand engine plays it (hand/engine.py). */
static void play(Pos *p, int action) {
    int s = p->to_act;
    p->moves++;
    if (action == TAKE) {
        int card = p->pile[--p->npile];
        p->on_pile &= ~BIT(card);
        p->hand[s] |= BIT(card);
        p->took[s] |= BIT(card);
        p->taken = card;
        p->wall_turn = 0;
        p->phase = DISCARD;
    } else if (action == STOCK) {
        p->hand[s] |= BIT(p->stock[--p->nstock]);
        p->wall_turn = p->nstock == 2;
        p->taken = -1;
        p->phase = DISCARD;
    } else if (action == GIN_ID) {
        p->end = KNOCKED;
        p->ender = s;
    } else {
        int knock = action >= KNOCK_ID, card = action - (knock ? KNOCK_ID : DISCARD_ID);
        p->hand[s] &= ~BIT(card);
        p->took[s] &= ~BIT(card);
        p->pile[p->npile++] = (int8_t)card;
        p->on_pile |= BIT(card);
        p->taken = -1;
        if (knock) {
            p->end = KNOCKED;
            p->ender = s;
        } else if (p->wall_turn) {
            p->end = WALLED;
        } else {
            p->to_act = 1 - s;
            p->phase = DRAW;
        }
    }
    if (!p->end && p->moves >= MAX_MOVES) p->end = STALLED;
}

/* scoring.py's knock_points for seat 0 (its points, negative when the opponent's): the
 * knocker's choice and the defender's layoffs of _knock.h, the bonuses of the rules; 0 for
 * a dead hand. -1000000 past the solver's bounds (never met with ten or eleven cards). */
static long settle(const Pos *p, const Rules *r) {
    if (p->end != KNOCKED) return 0;
    mask_t k = p->hand[p->ender], d = p->hand[1 - p->ender];
    long points;
    int k_dw = deadwood(k);
    if (popcount64(k) == 11) {
        points = deadwood(d) + r->big_gin_bonus;
    } else if (k_dw == 0) {
        points = deadwood(d) + r->gin_bonus;
    } else {
        Arr cands[MAX_CHOICES], d_arr;
        int laid[16], nlaid;
        int n = min_arrangements(k, cands, MAX_CHOICES, 0);
        if (n <= 0 || defend(d, cands, n, &d_arr, laid, &nlaid) < 0) return -1000000;
        points = d_arr.deadwood > k_dw ? d_arr.deadwood - k_dw : -(k_dw - d_arr.deadwood + r->undercut_bonus);
    }
    return p->ender == 0 ? points : -points;
}

/* Plays `first` (an action id, or -1: the policy's move) and then the policy to the end;
 * the moves into `moves` when given. */
static long play_out(Pos *p, const Rules *r, int first, int8_t *moves, int *nmoves) {
    int action = first;
    while (!p->end) {
        if (action < 0) action = p->phase == DRAW ? draw_choice(p) : discard_choice(p, r);
        if (moves) moves[(*nmoves)++] = (int8_t)action;
        play(p, action);
        action = -1;
    }
    return settle(p, r);
}

static int as_mask(PyObject *obj, mask_t *out) {
    *out = PyLong_AsUnsignedLongLong(obj);
    return (*out == (mask_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

static int as_long(PyObject *obj, long *out) {
    *out = PyLong_AsLong(obj);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The rules tuple: (knock_limit, gin_bonus, undercut_bonus, big_gin_bonus or -1, my knock_at, their
 * knock_at, danger). */
static int as_rules(PyObject *obj, Rules *r) {
    long v[7];
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 7) {
        PyErr_SetString(PyExc_TypeError, "rules: (knock_limit, gin_bonus, undercut_bonus, big_gin_bonus, "
                                         "knock_at, their_knock_at, danger)");
        return -1;
    }
    for (int i = 0; i < 7; i++)
        if (as_long(PyTuple_GET_ITEM(obj, i), &v[i])) return -1;
    r->limit = v[0];
    r->gin_bonus = v[1];
    r->undercut_bonus = v[2];
    r->big_gin_bonus = v[3];
    r->knock_at[0] = v[4];
    r->knock_at[1] = v[5];
    r->danger = v[6];
    return 0;
}

/* The position's public part: seat 0's hand, the pile (bytes, bottom first), whose turn, phase, taken
 * card, and the cards each seat took from the pile and holds. */
static int as_position(Pos *p, PyObject *const *args) {
    long to_act, phase, taken;
    memset(p, 0, sizeof(Pos));
    if (as_mask(args[0], &p->hand[0]) || as_long(args[2], &to_act) || as_long(args[3], &phase) ||
        as_long(args[4], &taken) || as_mask(args[5], &p->took[0]) || as_mask(args[6], &p->took[1]))
        return -1;
    if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) > 52 ||
        (to_act != 0 && to_act != 1) || (phase != DRAW && phase != DISCARD) || taken < -1 || taken > 51) {
        PyErr_SetString(PyExc_ValueError, "a pile (bytes, at most 52 cards), seat, phase or taken card out of range");
        return -1;
    }
    p->npile = (int)PyBytes_GET_SIZE(args[1]);
    memcpy(p->pile, PyBytes_AS_STRING(args[1]), (size_t)p->npile);
    for (int i = 0; i < p->npile; i++) p->on_pile |= BIT(p->pile[i] & 63);
    p->hand[0] &= ALL52;
    p->took[0] &= p->hand[0];
    p->took[1] &= ALL52;
    p->to_act = (int)to_act;
    p->phase = (int)phase;
    p->taken = (int)taken;
    return 0;
}

/* playout(mine, pile, to_act, phase, taken, mine_took, their_took, theirs, stock, rules, first) -> (moves, points). */
static PyObject *playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Pos p;
    Rules r;
    long first;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "playout takes 11 arguments");
        return NULL;
    }
    if (as_position(&p, args) || as_mask(args[7], &p.hand[1]) || as_rules(args[9], &r) || as_long(args[10], &first))
        return NULL;
    if (!PyBytes_Check(args[8]) || PyBytes_GET_SIZE(args[8]) > 52) {
        PyErr_SetString(PyExc_ValueError, "a stock is bytes, its top last");
        return NULL;
    }
    p.hand[1] &= ALL52;
    p.took[1] &= p.hand[1];
    p.nstock = (int)PyBytes_GET_SIZE(args[8]);
    memcpy(p.stock, PyBytes_AS_STRING(args[8]), (size_t)p.nstock);
    p.wall_turn = at_the_wall(&p);
    int8_t moves[MAX_MOVES + 1];
    int n = 0;
    long points = play_out(&p, &r, (int)first, moves, &n);
    return Py_BuildValue("y#l", (const char *)moves, (Py_ssize_t)n, points);
}

/* The opponent's hand of a world made better by `draws` of the stock's cards, as a player's is by its
 * turns: each time a card of the stock drawn at random (`j`, below the stock's size) joins the hand and
 * the card leaving the least deadwood, of those not known to be held, goes back in its place (among
 * equals the one melding with the fewest of the hand's cards, then the highest, then the first). */
static void improve(Pos *p, mask_t known, int8_t *pool, int left, long draws, Rng *rng) {
    for (long step = 0; step < draws && left > 0; step++) {
        int j = (int)below(rng, (uint64_t)left);
        mask_t h = p->hand[1] | BIT(pool[j]);
        int whole = deadwood(h), best = -1, best_dw = 0, best_kin = 0;
        for (mask_t rest = h & ~known; rest; rest &= rest - 1) {
            int c = ctz64(rest);
            mask_t near = neighbours(c);
            /* a card melding with none of the others is in no meld: without it, its value less */
            int kin = near & h ? popcount64(near & h) : 0;
            int dw = kin ? deadwood(h & ~BIT(c)) : whole - CARD_VALUE[c];
            if (best < 0 || dw < best_dw || (dw == best_dw && (kin < best_kin ||
                                                             (kin == best_kin && CARD_VALUE[c] > CARD_VALUE[best])))) {
                best = c;
                best_dw = dw;
                best_kin = kin;
            }
        }
        p->hand[1] = h & ~BIT(best);
        pool[j] = (int8_t)best;
    }
}

/* search(mine, pile, to_act, phase, taken, mine_took, known, weights, stock_count, rules, candidates, worlds,
 * seed, draws) -> (totals, squares): for each candidate, the sum of its play-outs' points over the worlds, and
 * the sum of the squares of their differences from the first candidate's. The opponent took `known` and holds
 * it; its hand in each world is then made better by `draws` of the stock's cards (improve). */
static PyObject *search_worlds(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Pos base;
    Rules r;
    mask_t known;
    long stock_count, worlds, draws;
    uint64_t seed;
    if (nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "search takes 14 arguments");
        return NULL;
    }
    if (as_position(&base, args) || as_mask(args[6], &known) || as_long(args[8], &stock_count) ||
        as_rules(args[9], &r) || as_long(args[11], &worlds) || as_long(args[13], &draws))
        return NULL;
    seed = PyLong_AsUnsignedLongLongMask(args[12]);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    if (!PyBytes_Check(args[7]) || PyBytes_GET_SIZE(args[7]) != 52 || !PyBytes_Check(args[10]) ||
        PyBytes_GET_SIZE(args[10]) < 1 || PyBytes_GET_SIZE(args[10]) > MAX_CANDIDATES || worlds < 1 || draws < 0) {
        PyErr_SetString(PyExc_ValueError, "weights are 52 bytes, candidates 1 to 16 bytes, worlds 1 or more, draws 0 "
                                          "or more");
        return NULL;
    }
    const unsigned char *w = (const unsigned char *)PyBytes_AS_STRING(args[7]);
    const unsigned char *cand = (const unsigned char *)PyBytes_AS_STRING(args[10]);
    int ncand = (int)PyBytes_GET_SIZE(args[10]);
    known &= ALL52;
    base.took[1] = known;
    int8_t unknown[52];
    int nunknown = 0;
    for (int c = 0; c < 52; c++)
        if (w[c]) unknown[nunknown++] = (int8_t)c;
    int need = 10 - popcount64(known);
    if (need < 0 || nunknown != need + stock_count || stock_count < 0) {
        PyErr_SetString(PyExc_ValueError, "the unknown cards are not the opponent's missing cards and the stock");
        return NULL;
    }
    for (int i = 0; i < ncand; i++)
        if (cand[i] > GIN_ID) {
            PyErr_SetString(PyExc_ValueError, "a candidate is no action id");
            return NULL;
        }
    Rng rng = {seed};
    long long totals[MAX_CANDIDATES] = {0}, squares[MAX_CANDIDATES] = {0};
    for (long wd = 0; wd < worlds; wd++) {
        /* the opponent's missing cards by weight, without replacement; the rest, shuffled, the stock */
        int8_t pool[52];
        unsigned int weight[52];
        unsigned long total = 0;
        for (int i = 0; i < nunknown; i++) {
            pool[i] = unknown[i];
            weight[i] = w[(int)unknown[i]];
            total += weight[i];
        }
        Pos p = base;
        p.hand[1] = known;
        int left = nunknown;
        for (int k = 0; k < need; k++) {
            unsigned long x = (unsigned long)below(&rng, total);
            int i = 0;
            while (x >= weight[i]) x -= weight[i++];
            p.hand[1] |= BIT(pool[i]);
            total -= weight[i];
            pool[i] = pool[left - 1];
            weight[i] = weight[left - 1];
            left--;
        }
        for (int i = left - 1; i > 0; i--) {
            int j = (int)below(&rng, (uint64_t)i + 1);
            int8_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        improve(&p, known, pool, left, draws, &rng);
        memcpy(p.stock, pool, (size_t)left);
        p.nstock = left;
        p.wall_turn = at_the_wall(&p);
        long first = 0;
        for (int i = 0; i < ncand; i++) {
            Pos q = p;
            long v = play_out(&q, &r, cand[i], NULL, NULL);
            if (i == 0) first = v;
            totals[i] += v;
            squares[i] += (v - first) * (v - first);
        }
    }
    PyObject *t = PyTuple_New(ncand), *s = PyTuple_New(ncand);
    if (!t || !s) {
        Py_XDECREF(t);
        Py_XDECREF(s);
        return NULL;
    }
    for (int i = 0; i < ncand; i++) {
        PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(totals[i]));
        PyTuple_SET_ITEM(s, i, PyLong_FromLongLong(squares[i]));
    }
    return Py_BuildValue("NN", t, s);
}

static PyMethodDef methods[] = {
    {"playout", (PyCFunction)(void (*)(void))playout, METH_FASTCALL,
     "playout(mine, pile, to_act, phase, taken, mine_took, their_took, theirs, stock, rules, first) -> "
     "(moves, points)"},
    {"search", (PyCFunction)(void (*)(void))search_worlds, METH_FASTCALL,
     "search(mine, pile, to_act, phase, taken, mine_took, known, weights, stock_count, rules, candidates, worlds, "
     "seed, draws) -> (totals, squares)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout",
                                    "The optional compiled play-outs of the built-in bots' search.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playout(void) {
    for (int c = 0; c < 52; c++) neighbour_of[c] = neighbours_made(c);
    return PyModule_Create(&module);
}
