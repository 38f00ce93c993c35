/* The optional compiled play of gincli.rl's environments under the rule book's
 * own rules (no move set in play, the standard melds): what the pure-Python path
 * computes, the same numbers.
 *
 *   choices(...)    hand/view.py's standard_choices: the moves of the seat to act, as masks;
 *   mask(...)       actions.py's mask_of: those moves as an action mask, into a buffer;
 *   observe(...)    observe.py's encode: a seat's observation, into a buffer;
 *   Batch(n, size)  n hands played side by side, one action each a step (vector.py), or one at a
 *                   time (compiled_game.py, behind the AEC environment): the
 *                   hand engine's moves (hand/engine.py's _offer, _draw, _discard, _knock),
 *                   each game's mask and observation written at every step. A hand's end is
 *                   told, not scored: gincli's scoring (rulebook/scoring.py) scores it.
 *
 * tests/test_rl_fast.py holds this module to the Python code, step by step on random
 * games and on hypothesis's; tests/test_accel.py builds it with each compiler present
 * (standard C, every warning an error), and holds each build to the same. The Python
 * code is the reference and the fallback: GINCLI_PURE=1, or no compiler at install,
 * and this module is not used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The bit operations, the card values and the standard melds' least deadwood
 * (deadwood), with the mask they work on: the rule book's, shared with gin score's
 * accelerator and generated from the rule book's Python (its tables). */
#include "../rulebook/_melds.h"

#define BIT(c) (1ull << (c))

/* observe.py's layout (docs/rl.md): seven planes of 52 cards, then the phase, the knock limit, the stock. */
#define PLANES 7
#define PHASE_AT (52 * PLANES)
#define KNOCK_LIMIT_AT (PHASE_AT + 5)
#define KNOCK_LIMITS 11
#define STOCK_AT (KNOCK_LIMIT_AT + KNOCK_LIMITS)
#define OBSERVATION_SIZE (STOCK_AT + 1)
#define FULL_STOCK 31
/* The phases by their index in observe.py's PHASES. */
enum { OFFER = 0, DRAW = 1, DISCARD = 2, OVER = 4 };
/* hand/view.py's MAY_* bits. */
enum { MAY_PASS = 1, MAY_TAKE = 2, MAY_DRAW_STOCK = 4, MAY_GO_BIG_GIN = 8 };
/* actions.py's ids. */
enum { STOCK = 0, TAKE = 1, PASS = 2, DISCARD_ID = 3, KNOCK_ID = 55, GIN_ID = 107, RULE_BOOK_IDS = 108 };
/* hand/engine.py's MAX_HAND_MOVES. */
#define MAX_HAND_MOVES 2000
/* How a hand of a Batch ended (0: it goes on). */
enum { GOES_ON = 0, KNOCKED = 1, WALLED = 2, FORFEITED = 3, STALLED = 4 };

/* -- what the three faces share ----------------------------------------------------------- */

/* standard_choices: the MAY_* bits, and the cards to discard and to knock with. */
static int choices_of(int phase, mask_t held, int taken, long limit, int big_gin, int must_draw_stock, int pile,
                      long stock_count, mask_t *discards, mask_t *knocks) {
    *discards = *knocks = 0;
    if (phase == OFFER) return MAY_PASS | MAY_TAKE;
    if (phase == DRAW) return (pile && !must_draw_stock ? MAY_TAKE : 0) | (stock_count > 2 ? MAY_DRAW_STOCK : 0);
    mask_t may = taken >= 0 ? held & ~BIT(taken) : held;
    int whole = deadwood(held);
    mask_t k = 0;
    for (mask_t rest = may; rest; rest &= rest - 1) {
        int c = ctz64(rest);
        if (whole - CARD_VALUE[c] <= limit && deadwood(held & ~BIT(c)) <= limit) k |= BIT(c);
    }
    *discards = may;
    *knocks = k;
    return big_gin && whole == 0 ? MAY_GO_BIG_GIN : 0;
}

static void write_mask(int8_t *out, Py_ssize_t size, int flags, mask_t discards, mask_t knocks) {
    memset(out, 0, (size_t)size);
    out[STOCK] = (flags & MAY_DRAW_STOCK) != 0;
    out[TAKE] = (flags & MAY_TAKE) != 0;
    out[PASS] = (flags & MAY_PASS) != 0;
    for (; discards; discards &= discards - 1) out[DISCARD_ID + ctz64(discards)] = 1;
    for (; knocks; knocks &= knocks - 1) out[KNOCK_ID + ctz64(knocks)] = 1;
    out[GIN_ID] = (flags & MAY_GO_BIG_GIN) != 0;
}

/* encode: the planes from what a seat may know, then the phase, the knock limit and the stock. */
static void write_observation(float *out, mask_t hand, int top, mask_t on_pile, mask_t took, mask_t mine,
                              mask_t theirs, mask_t passed, int phase, long limit, long stock_count) {
    mask_t top_bit = top >= 0 ? BIT(top) : 0;
    mask_t holds = took & ~on_pile & ~hand;
    mask_t planes[PLANES] = {hand, top_bit, on_pile & ~top_bit, holds, (mine & ~took) | theirs | passed, mine,
                             ALL52 & ~(hand | on_pile | holds)};
    memset(out, 0, sizeof(float) * OBSERVATION_SIZE);
    for (int p = 0; p < PLANES; p++)
        for (mask_t m = planes[p]; m; m &= m - 1) out[52 * p + ctz64(m)] = 1.0f;
    out[PHASE_AT + phase] = 1.0f;
    out[KNOCK_LIMIT_AT + (limit < KNOCK_LIMITS - 1 ? limit : KNOCK_LIMITS - 1)] = 1.0f;
    out[STOCK_AT] = (float)((double)stock_count / FULL_STOCK);
}

/* A writable, contiguous buffer of at least `count` items of `itemsize` bytes. */
static int get_out(PyObject *obj, Py_buffer *view, Py_ssize_t count, Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len < count * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd bytes, fewer than the %zd it needs", what, view->len,
                     count * itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int as_mask(PyObject *obj, mask_t *out) {
    *out = PyLong_AsUnsignedLongLong(obj);
    return (*out == (mask_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

static int as_long(PyObject *obj, long *out) {
    *out = PyLong_AsLong(obj);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* choices(phase, held, taken, knock_limit, big_gin, must_draw_stock, pile, stock_count) */
static PyObject *choices(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    long phase, taken, limit, big_gin, must_draw, pile, stock_count;
    mask_t held, discards, knocks;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "choices takes 8 arguments");
        return NULL;
    }
    if (as_long(args[0], &phase) || as_mask(args[1], &held) || as_long(args[2], &taken) ||
        as_long(args[3], &limit) || as_long(args[4], &big_gin) || as_long(args[5], &must_draw) ||
        as_long(args[6], &pile) || as_long(args[7], &stock_count))
        return NULL;
    int flags = choices_of((int)phase, held & ALL52, (int)taken, limit, (int)big_gin, (int)must_draw, (int)pile,
                           stock_count, &discards, &knocks);
    return Py_BuildValue("iKK", flags, (unsigned long long)discards, (unsigned long long)knocks);
}

/* mask(out, flags, discards, knocks): the action mask of choices' answer, into `out` (int8, every id of the table). */
static PyObject *mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    long flags;
    mask_t discards, knocks;
    Py_buffer out;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "mask takes 4 arguments");
        return NULL;
    }
    if (as_long(args[1], &flags) || as_mask(args[2], &discards) || as_mask(args[3], &knocks)) return NULL;
    if (get_out(args[0], &out, RULE_BOOK_IDS, 1, "the mask") < 0) return NULL;
    write_mask((int8_t *)out.buf, out.len, (int)flags, discards & ALL52, knocks & ALL52);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* observe(out, hand, top, on_pile, took, mine, theirs, passed, phase, knock_limit, stock_count), into `out` (float32). */
static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    mask_t m[6];
    long top, phase, limit, stock_count;
    Py_buffer out;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "observe takes 11 arguments");
        return NULL;
    }
    if (as_mask(args[1], &m[0]) || as_long(args[2], &top) || as_mask(args[3], &m[1]) || as_mask(args[4], &m[2]) ||
        as_mask(args[5], &m[3]) || as_mask(args[6], &m[4]) || as_mask(args[7], &m[5]) ||
        as_long(args[8], &phase) || as_long(args[9], &limit) || as_long(args[10], &stock_count))
        return NULL;
    if (phase < 0 || phase > OVER || top < -1 || top > 51 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "observe: a phase, top card or knock limit out of range");
        return NULL;
    }
    if (get_out(args[0], &out, OBSERVATION_SIZE, sizeof(float), "the observation") < 0) return NULL;
    write_observation((float *)out.buf, m[0] & ALL52, (int)top, m[1] & ALL52, m[2] & ALL52, m[3] & ALL52,
                      m[4] & ALL52, m[5] & ALL52, (int)phase, limit, stock_count);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* -- Batch: hands side by side ------------------------------------------------------------ */

/* One hand, as hand/engine.py's Hand holds it, seats 0 and 1 (player_0, player_1). */
typedef struct {
    mask_t hand[2];
    mask_t took[2];    /* the cards each seat took from the pile */
    mask_t mine[2];    /* the cards each seat discarded (a knock's too) */
    mask_t on_pile;
    mask_t legal[2];   /* the ids the seat to act may play, bit id % 64 of word id / 64 */
    int8_t pile[52];   /* bottom first */
    int8_t stock[52];  /* top last */
    int npile, nstock, stock_count, upcard, dealer, to_act, phase, passed, must_draw_stock, taken, wall_turn;
    long knock_limit;
    int big_gin, moves, end, ender, refused;
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n, size;
    Game *games;
} Batch;

/* What seat s observes now. */
static void observe_seat(const Game *g, int s, float *out) {
    int o = 1 - s;
    write_observation(out, g->hand[s], g->npile ? g->pile[g->npile - 1] : -1, g->on_pile, g->took[o], g->mine[s],
                      g->mine[o], (g->passed >> o & 1) ? BIT(g->upcard) : 0, g->phase, g->knock_limit,
                      g->stock_count);
}

/* The seat to act's mask (kept as bits too) and observation, into the game's rows. */
static void settle_turn(Game *g, int8_t *mask_row, float *obs_row, Py_ssize_t size) {
    mask_t discards, knocks;
    int s = g->to_act;
    int flags = choices_of(g->phase, g->hand[s], g->taken, g->knock_limit, g->big_gin, g->must_draw_stock,
                           g->npile > 0, g->stock_count, &discards, &knocks);
    write_mask(mask_row, size, flags, discards, knocks);
    g->legal[0] = (flags & MAY_DRAW_STOCK ? BIT(STOCK) : 0) | (flags & MAY_TAKE ? BIT(TAKE) : 0) |
                  (flags & MAY_PASS ? BIT(PASS) : 0) | (discards << DISCARD_ID) | (knocks << KNOCK_ID);
    g->legal[1] = (knocks >> (64 - KNOCK_ID)) | (flags & MAY_GO_BIG_GIN ? BIT(GIN_ID - 64) : 0);
    observe_seat(g, s, obs_row);
}

static void end_hand(Game *g, int how, int seat) {
    g->end = how;
    g->ender = seat;
    g->phase = OVER;
}

/* One action of the seat to act: the engine's move of that id, if the mask allows it; else a forfeit. */
static void play(Game *g, long long action) {
    int s = g->to_act;
    if (!(g->legal[action >> 6] >> (action & 63) & 1)) {  /* an id of the table (< 128) the mask does not allow */
        g->refused = (int)action;
        end_hand(g, FORFEITED, s);
        return;
    }
    g->moves++;
    if (action == PASS) {
        g->passed |= 1 << s;
        if (s != g->dealer) {
            g->to_act = g->dealer;
        } else {  /* both refused: the non-dealer draws from the stock */
            g->to_act = 1 - g->dealer;
            g->phase = DRAW;
            g->must_draw_stock = 1;
        }
    } else if (action == TAKE) {
        int card = g->pile[--g->npile];
        g->on_pile &= ~BIT(card);
        g->taken = card;
        g->wall_turn = 0;
        g->took[s] |= BIT(card);
        g->hand[s] |= BIT(card);
        g->must_draw_stock = 0;
        g->phase = DISCARD;
    } else if (action == STOCK) {
        int card = g->stock[--g->nstock];
        g->stock_count--;
        g->wall_turn = g->stock_count == 2;
        g->taken = -1;
        g->hand[s] |= BIT(card);
        g->must_draw_stock = 0;
        g->phase = DISCARD;
    } else if (action == GIN_ID) {  /* big gin: out with all eleven cards */
        end_hand(g, KNOCKED, s);
        g->to_act = 1 - s;
    } else {
        int knock = action >= KNOCK_ID;
        int card = (int)action - (knock ? KNOCK_ID : DISCARD_ID);
        g->hand[s] &= ~BIT(card);
        g->pile[g->npile++] = (int8_t)card;
        g->on_pile |= BIT(card);
        g->mine[s] |= BIT(card);
        if (knock) {
            end_hand(g, KNOCKED, s);
            g->to_act = 1 - s;
        } else {
            g->taken = -1;
            if (g->wall_turn) {  /* the 50th card's drawer discarded without knocking: a dead hand */
                end_hand(g, WALLED, s);
            } else {
                g->to_act = 1 - s;
                g->phase = DRAW;
            }
        }
    }
    if (!g->end && g->moves >= MAX_HAND_MOVES) end_hand(g, STALLED, s);
}

static int Batch_init(Batch *self, PyObject *args, PyObject *kwds) {
    Py_ssize_t n, size;
    static char *kwlist[] = {"n", "size", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nn", kwlist, &n, &size)) return -1;
    if (n < 1 || size < RULE_BOOK_IDS || size > 128) {
        PyErr_SetString(PyExc_ValueError, "Batch(n, size): n is 1 or more, size the rule book's ids (108 to 128)");
        return -1;
    }
    PyMem_Free(self->games);
    self->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (!self->games) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->size = size;
    for (Py_ssize_t i = 0; i < n; i++) self->games[i].end = STALLED;  /* no hand dealt yet */
    return 0;
}

static void Batch_dealloc(Batch *self) {
    PyMem_Free(self->games);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int index_of(Batch *self, PyObject *obj, Py_ssize_t *i) {
    *i = PyLong_AsSsize_t(obj);
    if (*i == -1 && PyErr_Occurred()) return -1;
    if (*i < 0 || *i >= self->n) {
        PyErr_Format(PyExc_IndexError, "game %zd of %zd", *i, self->n);
        return -1;
    }
    return 0;
}

/* deal(i, hand0, hand1, upcard, stock, dealer, knock_limit, big_gin, obs_row, mask_row) -> the seat to act.
 * The hand as the engine deals it: stock is bytes, its top last; the first upcard offered to the non-dealer. */
static PyObject *Batch_deal(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    mask_t h0, h1;
    long upcard, dealer, limit, big_gin;
    Py_buffer obs, msk;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "deal takes 10 arguments");
        return NULL;
    }
    if (index_of(self, args[0], &i) || as_mask(args[1], &h0) || as_mask(args[2], &h1) || as_long(args[3], &upcard) ||
        as_long(args[5], &dealer) || as_long(args[6], &limit) || as_long(args[7], &big_gin))
        return NULL;
    if (!PyBytes_Check(args[4]) || PyBytes_GET_SIZE(args[4]) > 52 || upcard < 0 || upcard > 51 ||
        (dealer != 0 && dealer != 1) || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "deal: a stock (bytes), upcard, dealer or knock limit out of range");
        return NULL;
    }
    if (get_out(args[8], &obs, OBSERVATION_SIZE, sizeof(float), "the observation row") < 0) return NULL;
    if (get_out(args[9], &msk, self->size, 1, "the mask row") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    Game *g = &self->games[i];
    memset(g, 0, sizeof(Game));
    g->hand[0] = h0 & ALL52;
    g->hand[1] = h1 & ALL52;
    g->upcard = (int)upcard;
    g->pile[0] = (int8_t)upcard;
    g->npile = 1;
    g->on_pile = BIT(upcard);
    g->nstock = (int)PyBytes_GET_SIZE(args[4]);
    memcpy(g->stock, PyBytes_AS_STRING(args[4]), (size_t)g->nstock);
    g->stock_count = FULL_STOCK;
    g->dealer = (int)dealer;
    g->to_act = 1 - (int)dealer;
    g->phase = OFFER;
    g->taken = -1;
    g->knock_limit = limit;
    g->big_gin = big_gin != 0;
    settle_turn(g, (int8_t *)msk.buf, (float *)obs.buf, self->size);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&msk);
    return PyLong_FromLong(g->to_act);
}

/* step(actions, obs, masks, to_act, ended) -> how many hands ended. Each game's seat to act plays its
 * action (int64); a game that goes on gets its seat to act (int8), mask (int8, n x size) and observation
 * (float32, n x OBSERVATION_SIZE); one that ended gets how (int8: KNOCKED, WALLED, FORFEITED, STALLED) and
 * waits for its next deal. An action that is no id of the table (below 0, size or more) plays nothing:
 * -1 - the first such game. */
static PyObject *Batch_step(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_buffer act, obs, msk, who, ended;
    Py_ssize_t n = self->n, size = self->size, count = 0;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "step takes 5 arguments");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &act, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (act.len != n * (Py_ssize_t)sizeof(long long)) {
        PyErr_SetString(PyExc_ValueError, "step: the actions are one int64 a game");
        PyBuffer_Release(&act);
        return NULL;
    }
    if (get_out(args[1], &obs, n * OBSERVATION_SIZE, sizeof(float), "the observations") < 0) goto no_obs;
    if (get_out(args[2], &msk, n * size, 1, "the masks") < 0) goto no_masks;
    if (get_out(args[3], &who, n, 1, "the seats to act") < 0) goto no_seats;
    if (get_out(args[4], &ended, n, 1, "the ends") < 0) goto no_ends;
    const long long *a = (const long long *)act.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (a[i] < 0 || a[i] >= size) {  /* no id of the table: nothing is played */
            count = -1 - i;
            goto done;
        }
    for (Py_ssize_t i = 0; i < n; i++) {
        Game *g = &self->games[i];
        int8_t *how = (int8_t *)ended.buf + i;
        if (g->end) {  /* not dealt again since its end */
            *how = (int8_t)g->end;
            count++;
            continue;
        }
        play(g, a[i]);
        *how = (int8_t)g->end;
        if (g->end) {
            count++;
        } else {
            ((int8_t *)who.buf)[i] = (int8_t)g->to_act;
            settle_turn(g, (int8_t *)msk.buf + i * size, (float *)obs.buf + i * OBSERVATION_SIZE, size);
        }
    }
done:
    PyBuffer_Release(&ended);
    PyBuffer_Release(&who);
    PyBuffer_Release(&msk);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&act);
    return PyLong_FromSsize_t(count);
no_ends:
    PyBuffer_Release(&who);
no_seats:
    PyBuffer_Release(&msk);
no_masks:
    PyBuffer_Release(&obs);
no_obs:
    PyBuffer_Release(&act);
    return NULL;
}

/* play(i, action, obs_row, mask_row) -> game i's seat to act plays `action` (an id of the table): the seat
 * to act next (0 or 1), its observation and mask written; or, when the hand ended, -how. */
static PyObject *Batch_play(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    long action;
    Py_buffer obs, msk;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "play takes 4 arguments");
        return NULL;
    }
    if (index_of(self, args[0], &i) || as_long(args[1], &action)) return NULL;
    Game *g = &self->games[i];
    if (action < 0 || action >= self->size || g->end) {
        PyErr_SetString(PyExc_ValueError, g->end ? "play: the hand is over" : "play: no id of the table");
        return NULL;
    }
    if (get_out(args[2], &obs, OBSERVATION_SIZE, sizeof(float), "the observation row") < 0) return NULL;
    if (get_out(args[3], &msk, self->size, 1, "the mask row") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    play(g, action);
    if (!g->end) settle_turn(g, (int8_t *)msk.buf, (float *)obs.buf, self->size);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&msk);
    return PyLong_FromLong(g->end ? -g->end : g->to_act);
}

/* observe(i, seat, obs_row): what `seat` of game i observes now (a hand over: its last position). */
static PyObject *Batch_observe(Batch *self, PyObject *const *args, Py_ssize_t nargs) {
    Py_ssize_t i;
    long s;
    Py_buffer obs;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "observe takes 3 arguments");
        return NULL;
    }
    if (index_of(self, args[0], &i) || as_long(args[1], &s)) return NULL;
    if (s != 0 && s != 1) {
        PyErr_SetString(PyExc_ValueError, "a seat is 0 or 1");
        return NULL;
    }
    if (get_out(args[2], &obs, OBSERVATION_SIZE, sizeof(float), "the observation row") < 0) return NULL;
    observe_seat(&self->games[i], (int)s, (float *)obs.buf);
    PyBuffer_Release(&obs);
    Py_RETURN_NONE;
}

/* ending(i) -> (hand0, hand1, how, seat, action): game i's hands as its hand ended, how, the seat that
 * knocked or forfeited (or last moved), and the action refused on a forfeit. */
static PyObject *Batch_ending(Batch *self, PyObject *arg) {
    Py_ssize_t i;
    if (index_of(self, arg, &i)) return NULL;
    Game *g = &self->games[i];
    return Py_BuildValue("KKiii", (unsigned long long)g->hand[0], (unsigned long long)g->hand[1], g->end, g->ender,
                         g->refused);
}

static PyMethodDef Batch_methods[] = {
    {"deal", (PyCFunction)(void (*)(void))Batch_deal, METH_FASTCALL,
     "deal(i, hand0, hand1, upcard, stock, dealer, knock_limit, big_gin, obs_row, mask_row) -> the seat to act"},
    {"step", (PyCFunction)(void (*)(void))Batch_step, METH_FASTCALL,
     "step(actions, obs, masks, to_act, ended) -> how many hands ended"},
    {"play", (PyCFunction)(void (*)(void))Batch_play, METH_FASTCALL,
     "play(i, action, obs_row, mask_row) -> the seat to act next, or -how the hand ended"},
    {"observe", (PyCFunction)(void (*)(void))Batch_observe, METH_FASTCALL,
     "observe(i, seat, obs_row): what seat observes in game i now"},
    {"ending", (PyCFunction)Batch_ending, METH_O,
     "ending(i) -> (hand0, hand1, how, seat, refused action) of a hand that ended"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject BatchType = {
    .ob_base = PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gincli.rl._stdplay.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(n, size): n hands of the rule book's rules played side by side, size action ids a mask.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};

static PyMethodDef methods[] = {
    {"choices", (PyCFunction)(void (*)(void))choices, METH_FASTCALL,
     "choices(phase, held, taken, knock_limit, big_gin, must_draw_stock, pile, stock_count) -> "
     "(flags, discards, knocks): hand/view.py's standard_choices, the phase as its index in PHASES"},
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL,
     "mask(out, flags, discards, knocks): actions.py's mask_of, into out"},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(out, hand, top, on_pile, took, mine, theirs, passed, phase, knock_limit, stock_count): "
     "observe.py's encode, into out"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_stdplay",
                                    "The optional compiled play of gincli.rl under the rule book's rules.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__stdplay(void) {
    if (PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_SIZE", OBSERVATION_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_HAND_MOVES", MAX_HAND_MOVES) < 0 ||
        PyModule_AddIntConstant(m, "KNOCKED", KNOCKED) < 0 || PyModule_AddIntConstant(m, "WALLED", WALLED) < 0 ||
        PyModule_AddIntConstant(m, "FORFEITED", FORFEITED) < 0 ||
        PyModule_AddIntConstant(m, "STALLED", STALLED) < 0) {
        Py_DECREF(&BatchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
