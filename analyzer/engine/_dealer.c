/* The float dealer kernel: per shoe, the summed weight of each dealer outcome.
 *
 * Why C: numpy's version builds a (shoes x compositions) array of weights and
 * reduces it, which is memory traffic, and numba would cost 0.3 s and 130 MB
 * of LLVM at every start.  This is the same factorised product as
 * analyzer/engine/dealer.py (see KernelTables there), one pass per shoe over
 * tables that stay in cache.  Plain IEEE double arithmetic in a fixed order
 * (built with -ffp-contract=off, no fast-math): the same bits on every run.
 *
 * outcome_sums(shoes, blocks, block_of, halves, low_of, high_of, runs, mult,
 *              kmax, out) -- every array a C-contiguous buffer:
 *   shoes    int64 (m, 10)   cards of each value left
 *   blocks   int64 (nb, 3)   distinct blocks: A-3 | 4-5 | 6-8 | 9-T + cards drawn
 *   block_of int64 (nb,)     which of the four blocks
 *   halves   int64 (nh, 2)   two blocks each: low and high (6-T) halves
 *   low_of, high_of int64 (c,)  each composition's halves (sorted by outcome)
 *   runs     int64 (n_out + 1,) outcome o: compositions runs[o] .. runs[o+1]-1
 *   mult     float64 (c,)    orderings of each composition
 *   out      float64 (m, n_out), written
 *
 * cache_find(out, slot_keys, slot_rows, keys, n, rows, first) and
 * cache_rehash(keys, n, slot_keys, slot_rows): the hash table of OutcomeCache
 * (dealer.py), which keys a shoe by the multiset of cards out of a base shoe,
 * counts 0..31 packed five bits each.  Open addressing with linear probing over
 * a power-of-two table, empty slots holding key -1; the caller keeps it at most
 * half full.  Finding, de-duplicating and entering the shoes of a batch in one
 * pass: in numpy and a dict those steps cost as much as the outcomes themselves.
 *
 * sum_index(head, tail, extra, unique, inverse) -> n: the distinct sums
 * head[a] + tail[b] + extra of two arrays of non-negative int64 card keys
 * (dist_splits.py), in order of first appearance (a-major), into unique[0..n),
 * and each pair's index among them into inverse[a * len(tail) + b].  The same
 * open addressing in a table of its own that doubles when half full: a split
 * round's card sets are a few hundred thousand distinct sums among tens of
 * millions of pairs, and sorting those (np.unique) was a third of the time. *
 * split_bounds(rows, pay, shoes, total, hard, kid_total, charlie, slack, stand, hit):
 * for split hands under optimal play (postsplit.py), each hand's stand EV and an
 * upper bound on its hit EV, from its own dealer outcomes only:
 *   rows      float64 (k, n_out)  dealer outcomes in the hand's shoe
 *   pay       float64 (22, n_out) result of standing on each total
 *   shoes     int64 (k, 10)      cards left;  total, hard int64 (k,): best, hard total
 *   kid_total int64 (k, 10)      best total after one more card of each value, -1 bust
 *   charlie   int64 (k,)         1 when one more card makes a Charlie
 *   slack     float64            2 kmax: the dealer's most cards drawn, twice
 *   stand, hit float64 (k,)      written
 * A child is bounded by max(pay . rows + slack / n, 1 - 2 P(its next card busts), 0),
 * a Charlie by 1, a bust is -1 (the argument is in SplitLevels.hit_bounds). *
 * best_play(probs, stand, busted, child, bust_of, order, forced, hit, cont): the
 * hand recursion of optimal_split.py for n card sets at once, over nodes in
 * `order` (every child before its parent):
 *   probs   float64 (n, m, 10)  chance of each next card, per set and node
 *   stand   float64 (n, m)      standing's value (with what follows it)
 *   busted  float64 (n, b)      the value of each bust listed by bust_of
 *   child   int64 (m, 10)       the node after each card: < m a node, m a bust, more: none
 *   bust_of int64 (m, 10)       a bust's column in busted (-1 where no bust)
 *   order   int64 (m,);  forced int64 (m,): 1 where the hand may not hit
 *   hit, cont float64 (n, m)    written: hitting's value, and the better of the two
 * The ten terms are added in numpy's pairwise order for ten items (its sum over a
 * contiguous last axis), so the values have the bits of the numpy loop it replaces.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define KMAX_LIMIT 32

static const int FIRST[4] = {0, 3, 5, 8};
static const int WIDTH[4] = {3, 2, 3, 2};

static void kernel(const int64_t *shoes, Py_ssize_t m, const int64_t *blocks,
                   const int64_t *block_of, Py_ssize_t nb, const int64_t *halves,
                   Py_ssize_t nh, const int64_t *low_of, const int64_t *high_of,
                   const int64_t *runs, Py_ssize_t n_out, const double *mult, int kmax,
                   double *out, double *blk, double *half)
{
    double ff[11][KMAX_LIMIT + 1];
    for (Py_ssize_t s = 0; s < m; s++) {
        const int64_t *shoe = shoes + 10 * s;
        int64_t total = 0;
        for (int i = 0; i < 11; i++) {
            int64_t n = i < 10 ? shoe[i] : total;
            if (i < 10)
                total += n;
            ff[i][0] = 1.0;
            for (int k = 1; k <= kmax; k++) {
                int64_t f = n - k + 1;
                ff[i][k] = ff[i][k - 1] * (double)(f > 0 ? f : 0);
            }
        }
        for (Py_ssize_t b = 0; b < nb; b++) {
            int g = (int)block_of[b];
            const int64_t *key = blocks + 3 * b;
            double v = 1.0;
            for (int j = 0; j < WIDTH[g]; j++)
                v *= ff[FIRST[g] + j][key[j]];
            if (g == 3) {
                double d = ff[10][key[2]];
                v *= d != 0.0 ? 1.0 / d : 1.0;
            }
            blk[b] = v;
        }
        for (Py_ssize_t h = 0; h < nh; h++)
            half[h] = blk[halves[2 * h]] * blk[halves[2 * h + 1]];
        double *row = out + n_out * s;
        for (Py_ssize_t o = 0; o < n_out; o++) {
            /* four accumulators: no single chain of dependent additions */
            double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
            Py_ssize_t q = runs[o], end = runs[o + 1];
            for (; q + 4 <= end; q += 4) {
                a0 += mult[q] * (half[low_of[q]] * half[high_of[q]]);
                a1 += mult[q + 1] * (half[low_of[q + 1]] * half[high_of[q + 1]]);
                a2 += mult[q + 2] * (half[low_of[q + 2]] * half[high_of[q + 2]]);
                a3 += mult[q + 3] * (half[low_of[q + 3]] * half[high_of[q + 3]]);
            }
            for (; q < end; q++)
                a0 += mult[q] * (half[low_of[q]] * half[high_of[q]]);
            row[o] = (a0 + a1) + (a2 + a3);
        }
    }
}

static int check(Py_buffer *buf, Py_ssize_t itemsize, const char *name)
{
    if (buf->len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "outcome_sums: %s has a partial item", name);
        return 0;
    }
    return 1;
}

static PyObject *outcome_sums(PyObject *self, PyObject *args)
{
    Py_buffer shoes, blocks, block_of, halves, low_of, high_of, runs, mult, out;
    int kmax;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*iw*", &shoes, &blocks, &block_of, &halves,
                          &low_of, &high_of, &runs, &mult, &kmax, &out))
        return NULL;
    PyObject *result = NULL;
    double *scratch = NULL;
    Py_ssize_t m = shoes.len / (Py_ssize_t)(10 * sizeof(int64_t));
    Py_ssize_t nb = block_of.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t nh = halves.len / (Py_ssize_t)(2 * sizeof(int64_t));
    Py_ssize_t c = low_of.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_out = runs.len / (Py_ssize_t)sizeof(int64_t) - 1;
    if (!check(&shoes, 10 * sizeof(int64_t), "shoes") || !check(&halves, 2 * sizeof(int64_t),
                                                                "halves"))
        goto done;
    if (kmax < 0 || kmax > KMAX_LIMIT || n_out < 0 || blocks.len != 3 * nb * (Py_ssize_t)sizeof(int64_t)
        || high_of.len != low_of.len || mult.len != c * (Py_ssize_t)sizeof(double)
        || out.len != m * n_out * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "outcome_sums: array sizes disagree");
        goto done;
    }
    scratch = malloc(sizeof(double) * (size_t)(nb + nh + 1));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    kernel(shoes.buf, m, blocks.buf, block_of.buf, nb, halves.buf, nh, low_of.buf,
           high_of.buf, runs.buf, n_out, mult.buf, kmax, out.buf, scratch, scratch + nb);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    free(scratch);
    PyBuffer_Release(&shoes);
    PyBuffer_Release(&blocks);
    PyBuffer_Release(&block_of);
    PyBuffer_Release(&halves);
    PyBuffer_Release(&low_of);
    PyBuffer_Release(&high_of);
    PyBuffer_Release(&runs);
    PyBuffer_Release(&mult);
    PyBuffer_Release(&out);
    return result;
}

static int slot_table(Py_buffer *slot_keys, Py_buffer *slot_rows, Py_ssize_t *size, int *bits)
{
    *size = slot_keys->len / (Py_ssize_t)sizeof(int64_t);
    *bits = 0;
    while (((Py_ssize_t)1 << *bits) < *size)
        (*bits)++;
    if (*size < 2 || ((Py_ssize_t)1 << *bits) != *size || slot_rows->len != slot_keys->len) {
        PyErr_SetString(PyExc_ValueError, "cache: the slot table is not a power of two");
        return 0;
    }
    return 1;
}

static inline Py_ssize_t slot_of(int64_t key, int bits)
{
    return (Py_ssize_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

static PyObject *cache_find(PyObject *self, PyObject *args)
{
    Py_buffer out, slot_keys, slot_rows, keys, rows, first;
    Py_ssize_t n;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*w*w*w*nw*w*", &out, &slot_keys, &slot_rows, &keys, &n,
                          &rows, &first))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size, added = 0;
    int bits;
    Py_ssize_t m = out.len / (Py_ssize_t)(10 * sizeof(int64_t));
    if (!slot_table(&slot_keys, &slot_rows, &size, &bits))
        goto done;
    if (out.len != m * 10 * (Py_ssize_t)sizeof(int64_t) || n < 0
        || rows.len != m * (Py_ssize_t)sizeof(int64_t) || first.len != rows.len
        || keys.len < (n + m) * (Py_ssize_t)sizeof(int64_t) || 2 * (n + m) > size) {
        PyErr_SetString(PyExc_ValueError, "cache_find: array sizes disagree");
        goto done;
    }
    const int64_t *o = out.buf;
    for (Py_ssize_t i = 0; i < 10 * m; i++) {
        if (o[i] < 0 || o[i] > 31) {
            result = PyLong_FromLong(-1);  /* not representable: nothing entered */
            goto done;
        }
    }
    int64_t *sk = slot_keys.buf, *sr = slot_rows.buf, *k = keys.buf, *r = rows.buf;
    int64_t *f = first.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t key = 0;
        for (int j = 9; j >= 0; j--)
            key = (key << 5) | o[10 * i + j];
        Py_ssize_t at = slot_of(key, bits);
        while (sk[at] != -1 && sk[at] != key)
            at = (at + 1) & (size - 1);
        if (sk[at] == -1) {  /* new: the next row, filled by the caller */
            sk[at] = key;
            sr[at] = n + added;
            k[n + added] = key;
            f[added++] = i;
        }
        r[i] = sr[at];
    }
    result = PyLong_FromSsize_t(added);
done:
    PyBuffer_Release(&out);
    PyBuffer_Release(&slot_keys);
    PyBuffer_Release(&slot_rows);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&first);
    return result;
}

static PyObject *cache_rehash(PyObject *self, PyObject *args)
{
    Py_buffer keys, slot_keys, slot_rows;
    Py_ssize_t n;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nw*w*", &keys, &n, &slot_keys, &slot_rows))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size;
    int bits;
    if (!slot_table(&slot_keys, &slot_rows, &size, &bits))
        goto done;
    if (n < 0 || keys.len < n * (Py_ssize_t)sizeof(int64_t) || 2 * n > size) {
        PyErr_SetString(PyExc_ValueError, "cache_rehash: array sizes disagree");
        goto done;
    }
    const int64_t *k = keys.buf;
    int64_t *sk = slot_keys.buf, *sr = slot_rows.buf;
    for (Py_ssize_t i = 0; i < size; i++)
        sk[i] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t at = slot_of(k[i], bits);
        while (sk[at] != -1)
            at = (at + 1) & (size - 1);
        sk[at] = k[i];
        sr[at] = i;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&keys);
    PyBuffer_Release(&slot_keys);
    PyBuffer_Release(&slot_rows);
    return result;
}

static int grow(int64_t **table, Py_ssize_t *size, int *bits, const int64_t *keys, Py_ssize_t n)
{
    Py_ssize_t wanted = *size ? 2 * *size : 1 << 12;
    int64_t *fresh = malloc(sizeof(int64_t) * (size_t)wanted);
    if (fresh == NULL)
        return 0;
    free(*table);
    *table = fresh;
    *size = wanted;
    *bits = 0;
    while (((Py_ssize_t)1 << *bits) < wanted)
        (*bits)++;
    for (Py_ssize_t i = 0; i < wanted; i++)
        fresh[i] = -1;  /* slot -> index into keys, -1 empty */
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t at = slot_of(keys[i], *bits);
        while (fresh[at] != -1)
            at = (at + 1) & (wanted - 1);
        fresh[at] = i;
    }
    return 1;
}

static PyObject *sum_index(PyObject *self, PyObject *args)
{
    Py_buffer head, tail, unique, inverse;
    long long extra;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*Lw*w*", &head, &tail, &extra, &unique, &inverse))
        return NULL;
    PyObject *result = NULL;
    int64_t *table = NULL;
    Py_ssize_t size = 0, n = 0;
    int bits = 0, ok = 1;
    Py_ssize_t na = head.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t nb = tail.len / (Py_ssize_t)sizeof(int64_t);
    if (unique.len != na * nb * (Py_ssize_t)sizeof(int64_t) || inverse.len != unique.len
        || extra < 0) {
        PyErr_SetString(PyExc_ValueError, "sum_index: array sizes disagree");
        goto done;
    }
    const int64_t *h = head.buf, *t = tail.buf;
    int64_t *u = unique.buf, *inv = inverse.buf;
    for (Py_ssize_t i = 0; i < na; i++)
        ok &= h[i] >= 0;
    for (Py_ssize_t j = 0; j < nb; j++)
        ok &= t[j] >= 0;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "sum_index: a negative card key");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    ok = grow(&table, &size, &bits, u, 0);
    for (Py_ssize_t i = 0; ok && i < na; i++) {
        for (Py_ssize_t j = 0; j < nb; j++) {
            int64_t key = h[i] + t[j] + extra;
            Py_ssize_t at = slot_of(key, bits);
            while (table[at] != -1 && u[table[at]] != key)
                at = (at + 1) & (size - 1);
            if (table[at] == -1) {
                u[n] = key;
                table[at] = n++;
                if (2 * n > size && !(ok = grow(&table, &size, &bits, u, n)))
                    break;
                at = -1;
            }
            inv[i * nb + j] = at >= 0 ? table[at] : n - 1;
        }
    }
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyLong_FromSsize_t(n);
done:
    free(table);
    PyBuffer_Release(&head);
    PyBuffer_Release(&tail);
    PyBuffer_Release(&unique);
    PyBuffer_Release(&inverse);
    return result;
}


static PyObject *split_bounds(PyObject *self, PyObject *args)
{
    Py_buffer rows, pay, shoes, total, hard, kid_total, charlie, stand, hit;
    double slack;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*dw*w*", &rows, &pay, &shoes, &total, &hard,
                          &kid_total, &charlie, &slack, &stand, &hit))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t k = total.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_out = pay.len / (Py_ssize_t)(22 * sizeof(double));
    if (pay.len != 22 * n_out * (Py_ssize_t)sizeof(double)
        || rows.len != k * n_out * (Py_ssize_t)sizeof(double)
        || shoes.len != 10 * k * (Py_ssize_t)sizeof(int64_t) || hard.len != total.len
        || kid_total.len != shoes.len || charlie.len != total.len
        || stand.len != k * (Py_ssize_t)sizeof(double) || hit.len != stand.len) {
        PyErr_SetString(PyExc_ValueError, "split_bounds: array sizes disagree");
        goto done;
    }
    const int64_t *t = total.buf, *kt = kid_total.buf, *h = hard.buf, *sh = shoes.buf;
    for (Py_ssize_t i = 0; i < k; i++) {
        int ok = t[i] >= 0 && t[i] < 22;
        for (int x = 0; x < 10; x++)
            ok &= kt[10 * i + x] >= -1 && kt[10 * i + x] < 22;
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "split_bounds: a total outside 0..21");
            goto done;
        }
    }
    const double *r = rows.buf, *p = pay.buf;
    const int64_t *ch = charlie.buf;
    double *st = stand.buf, *ht = hit.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < k; i++) {
        const double *row = r + n_out * i;
        const int64_t *shoe = sh + 10 * i;
        int64_t above[12];  /* above[v]: cards of value v or more (v = 1..10; 11: none) */
        above[11] = 0;
        for (int v = 10; v >= 1; v--) {
            int64_t c = shoe[v - 1] > 0 ? shoe[v - 1] : 0;
            above[v] = above[v + 1] + c;
        }
        double n = above[1] > 0 ? (double)above[1] : 1.0;
        double rest = above[1] > 1 ? (double)(above[1] - 1) : 1.0;
        double s = 0.0;
        for (Py_ssize_t o = 0; o < n_out; o++)
            s += row[o] * p[n_out * t[i] + o];
        double sum = 0.0;
        for (int x = 1; x <= 10; x++) {
            int64_t c = shoe[x - 1];
            if (c <= 0)
                continue;
            int64_t kid = kt[10 * i + x - 1];
            double u;
            if (kid < 0) {
                u = -1.0;
            } else if (ch[i]) {
                u = 1.0;
            } else {
                double stays = slack / n;
                for (Py_ssize_t o = 0; o < n_out; o++)
                    stays += row[o] * p[n_out * kid + o];
                int64_t first = 22 - (h[i] + x);  /* the kid busts on a card this or more */
                int64_t busting = 0;
                if (first <= 10) {
                    busting = above[first < 1 ? 1 : first] - (x >= first ? 1 : 0);
                    if (busting < 0)
                        busting = 0;
                }
                double hits = 1.0 - 2.0 * (double)busting / rest;
                u = stays > hits ? stays : hits;
                if (u < 0.0)
                    u = 0.0;
            }
            sum += (double)c * u;
        }
        st[i] = s;
        ht[i] = sum / n;
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&pay);
    PyBuffer_Release(&shoes);
    PyBuffer_Release(&total);
    PyBuffer_Release(&hard);
    PyBuffer_Release(&kid_total);
    PyBuffer_Release(&charlie);
    PyBuffer_Release(&stand);
    PyBuffer_Release(&hit);
    return result;
}

static PyObject *best_play(PyObject *self, PyObject *args)
{
    Py_buffer probs, stand, busted, child, bust_of, order, forced, hit, cont;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*w*w*", &probs, &stand, &busted, &child,
                          &bust_of, &order, &forced, &hit, &cont))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t m = order.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n = m ? stand.len / (Py_ssize_t)(m * sizeof(double)) : 0;
    Py_ssize_t b = n ? busted.len / (Py_ssize_t)(n * sizeof(double)) : 0;
    if (stand.len != n * m * (Py_ssize_t)sizeof(double) || probs.len != 10 * stand.len
        || busted.len != n * b * (Py_ssize_t)sizeof(double)
        || child.len != 10 * m * (Py_ssize_t)sizeof(int64_t) || bust_of.len != child.len
        || forced.len != order.len || hit.len != stand.len || cont.len != stand.len) {
        PyErr_SetString(PyExc_ValueError, "best_play: array sizes disagree");
        goto done;
    }
    const int64_t *ch = child.buf, *bo = bust_of.buf, *od = order.buf, *fo = forced.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int ok = od[i] >= 0 && od[i] < m;
        for (int x = 0; x < 10; x++)
            ok &= ch[10 * i + x] >= 0
                  && (ch[10 * i + x] != m || (bo[10 * i + x] >= 0 && bo[10 * i + x] < b));
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "best_play: a node or bust index out of range");
            goto done;
        }
    }
    const double *pr = probs.buf, *st = stand.buf, *bu = busted.buf;
    double *ht = hit.buf, *co = cont.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n; s++) {
        double *cs = co + m * s;
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = od[k];
            const double *p = pr + 10 * (m * s + i);
            double t[10];
            for (int x = 0; x < 10; x++) {
                int64_t c = ch[10 * i + x];
                double v = c < m ? cs[c] : (c == m ? bu[b * s + bo[10 * i + x]] : 0.0);
                t[x] = p[x] * v;
            }
            double h = (((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7])));
            h += t[8];
            h += t[9];
            double sv = st[m * s + i];
            ht[m * s + i] = h;
            cs[i] = (!fo[i] && h > sv) ? h : sv;
        }
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&probs);
    PyBuffer_Release(&stand);
    PyBuffer_Release(&busted);
    PyBuffer_Release(&child);
    PyBuffer_Release(&bust_of);
    PyBuffer_Release(&order);
    PyBuffer_Release(&forced);
    PyBuffer_Release(&hit);
    PyBuffer_Release(&cont);
    return result;
}

static PyMethodDef methods[] = {
    {"outcome_sums", outcome_sums, METH_VARARGS,
     "outcome_sums(shoes, blocks, block_of, halves, low_of, high_of, runs, mult, kmax, out)\n"
     "Per shoe, the summed weight of each dealer outcome (written into out)."},
    {"cache_find", cache_find, METH_VARARGS,
     "cache_find(out, slot_keys, slot_rows, keys, n, rows, first) -> added\n"
     "Each shoe's row in the cache; a new shoe enters as row n, n+1, ... (first: its\n"
     "index in out).  -1, nothing entered, when a count is outside 0..31."},
    {"cache_rehash", cache_rehash, METH_VARARGS,
     "cache_rehash(keys, n, slot_keys, slot_rows)\nRebuild the table from rows 0..n-1."},
    {"sum_index", sum_index, METH_VARARGS,
     "sum_index(head, tail, extra, unique, inverse) -> n\n"
     "The distinct sums head[a] + tail[b] + extra (first appearance first) and each\n"
     "pair's index among them."},
    {"split_bounds", split_bounds, METH_VARARGS,
     "split_bounds(rows, pay, shoes, total, hard, kid_total, charlie, slack, stand, hit)\n"
     "Each split hand's stand EV and an upper bound on its hit EV (written)."},
    {"best_play", best_play, METH_VARARGS,
     "best_play(probs, stand, busted, child, bust_of, order, forced, hit, cont)\n"
     "Hit values and optimal stand-or-hit values of every node, per card set (written)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dealer",
    "The float dealer kernel (see analyzer/engine/dealer.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dealer(void)
{
    return PyModule_Create(&module);
}
