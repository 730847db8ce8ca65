/* The float dealer kernel: per shoe, the summed weight of each dealer outcome.
 *
 * Why C: numpy's version builds a (shoes x compositions) array of weights and
 * reduces it, which is memory traffic, and numba would load LLVM and compile at
 * every start.  This is the same factorised product as
 * analyzer/engine/dealer.py (see KernelTables there), one pass per shoe over
 * tables that stay in cache.  Plain IEEE double arithmetic in a fixed order
 * (built with -ffp-contract=off -fno-fast-math, or /fp:strict with MSVC: setup.py):
 * the same bits on every run.  analyzer/engine/kernel_numba.py holds the same
 * loops for an install without a C compiler (the extension is optional), and
 * analyzer/engine/kernel.py chooses between them.
 *
 * Built against the stable ABI (Py_LIMITED_API 3.11, the first with the buffer
 * protocol): one abi3 wheel serves every CPython from 3.11.  Every array argument
 * is taken through the buffer protocol with its format and shape, and refused
 * (TypeError for a dtype other than the one named, ValueError for the wrong number
 * of dimensions, a non-C-contiguous or read-only array, sizes that disagree or an
 * index out of range) before any loop reads it.
 *
 * outcome_sums(shoes, blocks, block_of, halves, low_of, high_of, runs, mult,
 *              kmax, out) -- every array C-contiguous, of the dtype named:
 *   shoes    int64 (m, 10)   cards of each value left
 *   blocks   int64 (nb, 3)   distinct blocks: A-3 | 4-5 | 6-8 | 9-T + cards drawn
 *   block_of int64 (nb,)     which of the four blocks
 *   halves   int64 (nh, 2)   two blocks each: low and high (6-T) halves
 *   low_of, high_of int64 (c,)  each composition's halves (sorted by outcome)
 *   runs     int64 (n_out + 1,) outcome o: compositions runs[o] .. runs[o+1]-1
 *   mult     float64 (c,)    orderings of each composition
 *   out      float64 (m, n_out), written
 *
 * outcome_sums_exact(shoes, blocks, block_of, halves, low_of, high_of, runs, mult,
 *                    kmax, out) -> fits: the same sums in integers (mult int64, out int64
 *   (m, n_out, 2): each sum's low and high 64-bit words), over the exact mode's common
 *   denominator.  Where the compiler has 128-bit integers (GCC, Clang); False when a
 *   shoe's denominator needs more than 128 bits, and the caller computes those shoes
 *   with Python integers (dealer.py), as it does on the numba fallback.
 *
 * cache_find(out, slot_keys, slot_rows, keys, n, rows, first), cache_find_keys(wanted,
 * ...) (the shoes given by their keys) and
 * cache_rehash(keys, n, slot_keys, slot_rows): the hash table of OutcomeCache
 * (dealer.py), which keys a shoe by the multiset of cards out of a base shoe,
 * counts 0..63 packed six bits each.  Open addressing with linear probing over
 * a power-of-two table, empty slots holding key -1; the caller keeps it at most
 * half full.  Finding, de-duplicating and entering the shoes of a batch in one
 * pass: in numpy and a dict those steps cost as much as the outcomes themselves.
 *
 * distinct_sums(head, tail, extra) -> bytes: the distinct sums head[a] + tail[b] + extra
 * of int64 card keys (dist_splits.py), head sorted, as the bytes of an int64 array in
 * increasing order of ranges (unsorted within one).  A split round's card sets are a
 * few million distinct sums among 10^8 pairs.  The sums' range is cut at the quantiles
 * of a grid sample into ranges of about a million pairs; for each tail value, the heads
 * whose sums fall in a range are one run of the sorted heads, and a range's sums go into
 * a hash table of its own that stays in cache.  One table for all pairs (a slot per
 * sum scattered over a hundred megabytes) took three times as long.
 * merge_pairs(k1, k2, mult, first, total) -> n: the distinct pairs (k1[i], k2[i]) of
 * int64 keys in order of first appearance (first[u]: the index of pair u) and each one's
 * summed mult, by open addressing in a table that doubles when half full: the rounds
 * of a split (dist_splits.py), keyed by their cards and their result, merged in one pass
 * where numpy sorted them three times over.
 * sum_rows(head, tail, extra, unique, rows) -> missing: each pair's row, the index of
 * its sum in the sorted distinct sums `unique`, -1 where a sum is not there.
 * pair_accumulate(head, tail, extra, unique, weights, starts, results, acc) -> missing:
 * the float pairing of a split round's head with its last hand (dist_splits.py) without
 * a (pairs x outcomes) array: per pair, its sum's row of dealer weights (float64 (u, o)),
 * times each of the tail set's rounds (rounds starts[b] .. starts[b+1]-1; results int64
 * (r, 1 + o): the round's card orders, then its result index against each outcome),
 * added into acc float64 (na, o, ny).  A tail set holds one or two rounds, so this is a
 * few products per pair where a dense product against the tail's results costs one per
 * result value and outcome.  Both find a sum by galloping in the sorted list from where
 * the last search ended.  sum_rows (and pair_residues) sweep a tile of sorted heads per
 * tail set, from where the previous head's or the previous tail's search ended
 * (tile_rows): the sums of neighbouring heads are neighbours.  pair_accumulate walks
 * the pairs window by window of the sorted sums (Walk), so that a window's weight rows
 * are read while in cache, where a tile reads rows all over hundreds of megabytes for
 * every tail.
 * pair_residues(head, tail, extra, unique, joint, outcomes, primes, starts, results, orders,
 * acc) -> missing: pair_accumulate in exact mode, modulo each prime (dist_splits.py,
 * analyzer/core/modular.py): joint int32 (u, all outcomes, P) the residues of the dealer
 * weights over the common denominator, outcomes int64 (no,) the columns paired, orders
 * int64 (r, P) each tail round's card orders modulo each prime, acc int64 (na, no, ny, P)
 * residues on entry and on return.  The primes are the last axis of every table, so a
 * pair reads one stretch of its sum's row and adds into one stretch of each entry, where
 * a prime-first layout touched a cache line per prime.  The orders and acc are checked
 * to be residues; the joint table is not (billions of entries, read again for every
 * slice of heads): it is the caller's, from joint_residues, whose values are below its
 * primes.  Products of two residues (< 2**26) stay below 2**52,
 * so an entry adds RESIDUE_ADDS of them before the tile is reduced: no int64 overflows,
 * and numpy's gather of (pairs x primes) weights and integer matrix products (no BLAS
 * for integers) are replaced by a few products per pair, outcome and prime.
 * joint_fill_residues(ff, u_low, low, comp_low, mult, starts, cols, phigh, first,
 * high_rows, sets, present, primes, out): the dealer's joint weights of a split round's
 * card sets in exact mode, modulo each prime (dist_dealer.py, _fill_residues): per
 * distinct low half of the sets, the low values' falling-factorial products (ff int64
 * (P, cut, top)) against each dealer low half, summed by group of compositions (one high
 * half and outcome; mult int64 (P, nc) their orderings) into A, then each of its sets'
 * row of the high table (phigh int64 (nuh, P, nh)) times A, written at out[sets[r],
 * present[q], p] (int32 (nsets, n_out, P): the layout pair_residues reads).  ff, mult and
 * phigh are checked to be residues.  numpy had taken these as a modulo of whole arrays
 * per factor and a Python loop of small integer matrix products, one per low half.
 * product_residues(ff, mine, theirs, primes, out): out[a, p, b] = prod_v ff[p, v, mine[a,
 * v] + theirs[b, v]] modulo primes[p], exact mode's falling-factorial tables (the high
 * halves' table, and each set's own chance).
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
 * best_play(at, probs, stand, busted, child, bust_of, order, forced, hit, cont): the
 * hand recursion of optimal_split.py for n card sets at once, over nodes in
 * `order` (every child before its parent):
 *   at      int64 (n, m)        the row of probs of each set and node (its shoe's)
 *   probs   float64 (r, 10)     chance of each next card, per shoe
 *   stand   float64 (n, m)      standing's value (with what follows it)
 *   busted  float64 (n, b)      the value of each bust listed by bust_of
 *   child   int64 (m, 10)       the node after each card: < m a node, m a bust, more: none
 *   bust_of int64 (m, 10)       a bust's column in busted (-1 where no bust)
 *   order   int64 (m,);  forced int64 (m,): the play of each node: 0 the better of
 *                               hitting and standing, 1 stand (it may not hit), 2 hit
 *                               (a fixed strategy's: the split hands of CDZ-, hands.py)
 *   hit, cont float64 (n, m)    written: hitting's value, and the value of the play
 * The ten terms are added in numpy's pairwise order for ten items (its sum over a
 * contiguous last axis), so the values have the bits of the numpy loop it replaces.
 */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000  /* the stable ABI of 3.11 (also set by pyproject.toml) */
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KMAX_LIMIT 32

/* -- arguments: arrays through the buffer protocol, checked ------------------------------ */

/* One argument: its name, 'i' (int64), 'w' (int32) or 'f' (float64), its dimensions,
 * written or not. */
typedef struct {
    const char *name;
    char kind;
    int ndim;
    int writable;
} Spec;

typedef struct {
    Py_buffer view;
    int held;
} Arr;

static int native_little(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* Whether a buffer format names the kind: int64 ('l' or 'q' of 8 bytes), int32 (kind
 * 'w': 'i' or 'l' of 4 bytes) or float64 ('d'), in native byte order ('@', '=' or the
 * host's '<'/'>' prefix, or none). */
static int format_is(const char *format, Py_ssize_t itemsize, char kind)
{
    if (format == NULL || itemsize != (kind == 'w' ? 4 : 8))
        return 0;
    if (*format == '@' || *format == '=' || *format == (native_little() ? '<' : '>'))
        format++;
    if (format[0] == '\0' || format[1] != '\0')
        return 0;
    if (kind == 'w')
        return format[0] == 'i' || format[0] == 'l';
    return kind == 'i' ? (format[0] == 'l' || format[0] == 'q') : format[0] == 'd';
}

static int take(PyObject *obj, Arr *a, const Spec *spec, const char *fn)
{
    if (PyObject_GetBuffer(obj, &a->view, PyBUF_FORMAT | PyBUF_STRIDES) < 0)
        return 0;  /* not a buffer: the TypeError says so */
    a->held = 1;
    if (spec->writable && a->view.readonly) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be writable", fn, spec->name);
        return 0;
    }
    const char *type = spec->kind == 'i' ? "int64" : spec->kind == 'w' ? "int32" : "float64";
    if (!format_is(a->view.format, a->view.itemsize, spec->kind)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be %s, not a buffer of format '%s' "
                     "(%zd-byte items)", fn, spec->name, type,
                     a->view.format ? a->view.format : "B", a->view.itemsize);
        return 0;
    }
    if (a->view.ndim != spec->ndim) {
        PyErr_Format(PyExc_ValueError, "%s: %s must have %d dimension(s), not %d", fn,
                     spec->name, spec->ndim, a->view.ndim);
        return 0;
    }
    if (!PyBuffer_IsContiguous(&a->view, 'C')) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be C-contiguous", fn, spec->name);
        return 0;
    }
    return 1;
}

/* Take every array argument (objs[i] per specs[i]); 0 with an exception set on refusal. */
static int take_all(PyObject **objs, Arr *arrs, const Spec *specs, int n, const char *fn)
{
    for (int i = 0; i < n; i++)
        if (!take(objs[i], &arrs[i], &specs[i], fn))
            return 0;
    return 1;
}

static void release_all(Arr *arrs, int n)
{
    for (int i = 0; i < n; i++)
        if (arrs[i].held)
            PyBuffer_Release(&arrs[i].view);
}

static Py_ssize_t dim(const Arr *a, int i) { return a->view.shape[i]; }

static PyObject *disagree(const char *fn)
{
    PyErr_Format(PyExc_ValueError, "%s: array sizes disagree", fn);
    return NULL;
}

/* -- outcome_sums ----------------------------------------------------------------------- */

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

/* Whether every value of an int64 array lies in lo..hi. */
static int within(const Arr *a, int64_t lo, int64_t hi)
{
    const int64_t *v = a->view.buf;
    Py_ssize_t n = a->view.len / 8;
    for (Py_ssize_t i = 0; i < n; i++)
        if (v[i] < lo || v[i] > hi)
            return 0;
    return 1;
}

static PyObject *outcome_sums(PyObject *self, PyObject *args)
{
    static const Spec specs[9] = {
        {"shoes", 'i', 2, 0}, {"blocks", 'i', 2, 0}, {"block_of", 'i', 1, 0},
        {"halves", 'i', 2, 0}, {"low_of", 'i', 1, 0}, {"high_of", 'i', 1, 0},
        {"runs", 'i', 1, 0}, {"mult", 'f', 1, 0}, {"out", 'f', 2, 1},
    };
    const char *fn = "outcome_sums";
    PyObject *o[9];
    Arr a[9];
    int kmax;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOOOOOiO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &kmax, &o[8]))
        return NULL;
    PyObject *result = NULL;
    double *scratch = NULL;
    if (!take_all(o, a, specs, 9, fn))
        goto done;
    Arr *shoes = &a[0], *blocks = &a[1], *block_of = &a[2], *halves = &a[3], *low_of = &a[4],
        *high_of = &a[5], *runs = &a[6], *mult = &a[7], *out = &a[8];
    Py_ssize_t m = dim(shoes, 0), nb = dim(block_of, 0), nh = dim(halves, 0);
    Py_ssize_t c = dim(low_of, 0), n_out = dim(runs, 0) - 1;
    if (kmax < 0 || kmax > KMAX_LIMIT || n_out < 0 || dim(shoes, 1) != 10
        || dim(blocks, 0) != nb || dim(blocks, 1) != 3 || dim(halves, 1) != 2
        || dim(high_of, 0) != c || dim(mult, 0) != c || dim(out, 0) != m
        || dim(out, 1) != n_out) {
        disagree(fn);
        goto done;
    }
    const int64_t *rn = runs->view.buf;
    int ok = within(block_of, 0, 3) && within(blocks, 0, kmax) && within(halves, 0, nb - 1)
             && within(low_of, 0, nh - 1) && within(high_of, 0, nh - 1) && rn[0] >= 0
             && rn[n_out] <= c;
    for (Py_ssize_t i = 0; ok && i < n_out; i++)
        ok = rn[i] <= rn[i + 1];
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: an index out of range", fn);
        goto done;
    }
    scratch = malloc(sizeof(double) * (size_t)(nb + nh + 1));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    kernel(shoes->view.buf, m, blocks->view.buf, block_of->view.buf, nb, halves->view.buf,
           nh, low_of->view.buf, high_of->view.buf, rn, n_out, mult->view.buf, kmax,
           out->view.buf, scratch, scratch + nb);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    free(scratch);
    release_all(a, 9);
    return result;
}

/* -- outcome_sums_exact -------------------------------------------------------------------- */

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* The same factorised product in integers, over the common denominator
 * D = N (N-1) .. (N-k+1), k = min(kmax, N), of dealer.py's exact mode: a composition
 * drawing K cards weighs mult * prod FF(n_i, k_i) * FF(N-K, k-K), its probability
 * times D.  Every block, half and term is a factor of one such weight, and each
 * weight and each outcome's sum is at most D (a probability at most 1), so once D
 * fits in 128 bits nothing overflows.  Returns 0 (nothing trusted in out) when some
 * shoe's D does not fit. */
static int kernel_exact(const int64_t *shoes, Py_ssize_t m, const int64_t *blocks,
                        const int64_t *block_of, Py_ssize_t nb, const int64_t *halves,
                        Py_ssize_t nh, const int64_t *low_of, const int64_t *high_of,
                        const int64_t *runs, Py_ssize_t n_out, const int64_t *mult, int kmax,
                        uint64_t *out, u128 *blk, u128 *half)
{
    u128 ff[11][KMAX_LIMIT + 1], tail[KMAX_LIMIT + 1];
    for (Py_ssize_t s = 0; s < m; s++) {
        const int64_t *shoe = shoes + 10 * s;
        int64_t total = 0;
        for (int i = 0; i < 11; i++) {
            int64_t n = i < 10 ? shoe[i] : total;
            if (i < 10)
                total += n;
            ff[i][0] = 1;
            for (int k = 1; k <= kmax; k++) {
                int64_t f = n - k + 1;
                if (__builtin_mul_overflow(ff[i][k - 1], (u128)(f > 0 ? f : 0), &ff[i][k]))
                    return 0;
            }
        }
        int cap = total < kmax ? (int)total : kmax;
        u128 denom = ff[10][cap];
        for (int k = 0; k <= kmax; k++)
            tail[k] = ff[10][k] ? denom / ff[10][k] : 0;  /* FF(N-K, cap-K), exactly */
        for (Py_ssize_t b = 0; b < nb; b++) {
            int g = (int)block_of[b];
            const int64_t *key = blocks + 3 * b;
            u128 v = 1;
            for (int j = 0; j < WIDTH[g]; j++)
                v *= ff[FIRST[g] + j][key[j]];
            if (g == 3)
                v *= tail[key[2]];
            blk[b] = v;
        }
        for (Py_ssize_t h = 0; h < nh; h++)
            half[h] = blk[halves[2 * h]] * blk[halves[2 * h + 1]];
        uint64_t *row = out + 2 * n_out * s;
        for (Py_ssize_t o = 0; o < n_out; o++) {
            u128 acc = 0;
            for (Py_ssize_t q = runs[o]; q < runs[o + 1]; q++)
                acc += (u128)mult[q] * (half[low_of[q]] * half[high_of[q]]);
            row[2 * o] = (uint64_t)acc;  /* low word, then high word */
            row[2 * o + 1] = (uint64_t)(acc >> 64);
        }
    }
    return 1;
}
#endif

static PyObject *outcome_sums_exact(PyObject *self, PyObject *args)
{
    static const Spec specs[9] = {
        {"shoes", 'i', 2, 0}, {"blocks", 'i', 2, 0}, {"block_of", 'i', 1, 0},
        {"halves", 'i', 2, 0}, {"low_of", 'i', 1, 0}, {"high_of", 'i', 1, 0},
        {"runs", 'i', 1, 0}, {"mult", 'i', 1, 0}, {"out", 'i', 3, 1},
    };
    const char *fn = "outcome_sums_exact";
    PyObject *o[9];
    Arr a[9];
    int kmax;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOOOOOiO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &kmax, &o[8]))
        return NULL;
#ifndef __SIZEOF_INT128__
    PyErr_Format(PyExc_NotImplementedError, "%s: this compiler has no 128-bit integers", fn);
    return NULL;
#else
    PyObject *result = NULL;
    u128 *scratch = NULL;
    int fits = 0;
    if (!take_all(o, a, specs, 9, fn))
        goto done;
    Arr *shoes = &a[0], *blocks = &a[1], *block_of = &a[2], *halves = &a[3], *low_of = &a[4],
        *high_of = &a[5], *runs = &a[6], *mult = &a[7], *out = &a[8];
    Py_ssize_t m = dim(shoes, 0), nb = dim(block_of, 0), nh = dim(halves, 0);
    Py_ssize_t c = dim(low_of, 0), n_out = dim(runs, 0) - 1;
    if (kmax < 0 || kmax > KMAX_LIMIT || n_out < 0 || dim(shoes, 1) != 10
        || dim(blocks, 0) != nb || dim(blocks, 1) != 3 || dim(halves, 1) != 2
        || dim(high_of, 0) != c || dim(mult, 0) != c || dim(out, 0) != m
        || dim(out, 1) != n_out || dim(out, 2) != 2) {
        disagree(fn);
        goto done;
    }
    const int64_t *rn = runs->view.buf;
    int ok = within(block_of, 0, 3) && within(blocks, 0, kmax) && within(halves, 0, nb - 1)
             && within(low_of, 0, nh - 1) && within(high_of, 0, nh - 1) && rn[0] >= 0
             && rn[n_out] <= c && within(mult, 0, INT64_MAX) && within(shoes, 0, INT64_MAX);
    for (Py_ssize_t i = 0; ok && i < n_out; i++)
        ok = rn[i] <= rn[i + 1];
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: an index out of range or a negative count", fn);
        goto done;
    }
    scratch = malloc(sizeof(u128) * (size_t)(nb + nh + 1));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    fits = kernel_exact(shoes->view.buf, m, blocks->view.buf, block_of->view.buf, nb,
                        halves->view.buf, nh, low_of->view.buf, high_of->view.buf, rn, n_out,
                        mult->view.buf, kmax, out->view.buf, scratch, scratch + nb);
    Py_END_ALLOW_THREADS
    result = PyBool_FromLong(fits);
done:
    free(scratch);
    release_all(a, 9);
    return result;
#endif
}

/* -- the hash table of OutcomeCache ------------------------------------------------------ */

static int slot_table(const Arr *slot_keys, const Arr *slot_rows, Py_ssize_t *size, int *bits)
{
    *size = dim(slot_keys, 0);
    *bits = 0;
    while (((Py_ssize_t)1 << *bits) < *size)
        (*bits)++;
    if (*size < 2 || ((Py_ssize_t)1 << *bits) != *size || dim(slot_rows, 0) != *size) {
        PyErr_SetString(PyExc_ValueError, "cache: the slot table is not a power of two");
        return 0;
    }
    return 1;
}

static inline Py_ssize_t slot_of(int64_t key, int bits)
{
    return (Py_ssize_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

/* Enter `key` (row n + *added if new, its index i noted in first) and return its row. */
static inline int64_t probe(int64_t key, int bits, Py_ssize_t size, int64_t *sk, int64_t *sr,
                            int64_t *k, int64_t *f, Py_ssize_t n, Py_ssize_t *added,
                            Py_ssize_t i)
{
    Py_ssize_t at = slot_of(key, bits);
    while (sk[at] != -1 && sk[at] != key)
        at = (at + 1) & (size - 1);
    if (sk[at] == -1) {  /* new: the next row, filled by the caller */
        sk[at] = key;
        sr[at] = n + *added;
        k[n + *added] = key;
        f[(*added)++] = i;
    }
    return sr[at];
}

/* cache_find and cache_find_keys: the shoes by their counts (packed here, -1 returned when
 * a count is outside 0..63) or by their keys (refused when negative). */
static PyObject *find_rows(PyObject *args, const char *fn, int by_keys)
{
    static const Spec by_counts[6] = {
        {"out", 'i', 2, 0}, {"slot_keys", 'i', 1, 1}, {"slot_rows", 'i', 1, 1},
        {"keys", 'i', 1, 1}, {"rows", 'i', 1, 1}, {"first", 'i', 1, 1},
    };
    static const Spec by_key[6] = {
        {"wanted", 'i', 1, 0}, {"slot_keys", 'i', 1, 1}, {"slot_rows", 'i', 1, 1},
        {"keys", 'i', 1, 1}, {"rows", 'i', 1, 1}, {"first", 'i', 1, 1},
    };
    PyObject *o[6];
    Arr a[6];
    Py_ssize_t n;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOnOO", &o[0], &o[1], &o[2], &o[3], &n, &o[4], &o[5]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size, added = 0;
    int bits;
    if (!take_all(o, a, by_keys ? by_key : by_counts, 6, fn)
        || !slot_table(&a[1], &a[2], &size, &bits))
        goto done;
    Py_ssize_t m = dim(&a[0], 0);
    if ((!by_keys && dim(&a[0], 1) != 10) || n < 0 || dim(&a[4], 0) != m
        || dim(&a[5], 0) != m || dim(&a[3], 0) < n + m || 2 * (n + m) > size) {
        disagree(fn);
        goto done;
    }
    const int64_t *in = a[0].view.buf;
    for (Py_ssize_t i = 0; i < (by_keys ? m : 10 * m); i++) {
        if (by_keys && in[i] < 0) {  /* -1 marks an empty slot */
            PyErr_Format(PyExc_ValueError, "%s: a negative key", fn);
            goto done;
        }
        if (!by_keys && (in[i] < 0 || in[i] > 63)) {
            result = PyLong_FromLong(-1);  /* not representable: nothing entered */
            goto done;
        }
    }
    int64_t *sk = a[1].view.buf, *sr = a[2].view.buf, *k = a[3].view.buf, *r = a[4].view.buf;
    int64_t *f = a[5].view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t key = 0;
        if (by_keys)
            key = in[i];
        else
            for (int j = 9; j >= 0; j--)
                key = (key << 6) | in[10 * i + j];
        r[i] = probe(key, bits, size, sk, sr, k, f, n, &added, i);
    }
    result = PyLong_FromSsize_t(added);
done:
    release_all(a, 6);
    return result;
}

static PyObject *cache_find(PyObject *self, PyObject *args)
{
    (void)self;
    return find_rows(args, "cache_find", 0);
}

static PyObject *cache_find_keys(PyObject *self, PyObject *args)
{
    (void)self;
    return find_rows(args, "cache_find_keys", 1);
}

static PyObject *cache_rehash(PyObject *self, PyObject *args)
{
    static const Spec specs[3] = {
        {"keys", 'i', 1, 0}, {"slot_keys", 'i', 1, 1}, {"slot_rows", 'i', 1, 1},
    };
    const char *fn = "cache_rehash";
    PyObject *o[3];
    Arr a[3];
    Py_ssize_t n;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OnOO", &o[0], &n, &o[1], &o[2]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size;
    int bits;
    if (!take_all(o, a, specs, 3, fn) || !slot_table(&a[1], &a[2], &size, &bits))
        goto done;
    if (n < 0 || dim(&a[0], 0) < n || 2 * n > size) {
        disagree(fn);
        goto done;
    }
    const int64_t *k = a[0].view.buf;
    int64_t *sk = a[1].view.buf, *sr = a[2].view.buf;
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
    release_all(a, 3);
    return result;
}

/* -- merge_pairs -------------------------------------------------------------------------- */

static inline Py_ssize_t pair_slot(int64_t k1, int64_t k2, int bits)
{
    return slot_of((int64_t)((uint64_t)k1 * 0xC2B2AE3D27D4EB4FULL + (uint64_t)k2), bits);
}

/* A table of `size` slots (slot -> row of the output, -1 empty) holding rows 0..n-1. */
static int64_t *pair_table(const int64_t *k1, const int64_t *k2, const int64_t *first,
                           Py_ssize_t n, Py_ssize_t size, int bits)
{
    int64_t *table = malloc(sizeof(int64_t) * (size_t)size);
    if (table == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < size; i++)
        table[i] = -1;
    for (Py_ssize_t u = 0; u < n; u++) {
        Py_ssize_t at = pair_slot(k1[first[u]], k2[first[u]], bits);
        while (table[at] != -1)
            at = (at + 1) & (size - 1);
        table[at] = u;
    }
    return table;
}

static PyObject *merge_pairs(PyObject *self, PyObject *args)
{
    static const Spec specs[5] = {
        {"k1", 'i', 1, 0}, {"k2", 'i', 1, 0}, {"mult", 'i', 1, 0}, {"first", 'i', 1, 1},
        {"total", 'i', 1, 1},
    };
    const char *fn = "merge_pairs";
    PyObject *o[5];
    Arr a[5];
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOO", &o[0], &o[1], &o[2], &o[3], &o[4]))
        return NULL;
    PyObject *result = NULL;
    int64_t *table = NULL;
    if (!take_all(o, a, specs, 5, fn))
        goto done;
    Py_ssize_t m = dim(&a[0], 0), n = 0, size = 1 << 12;
    int bits = 12, ok = 1;
    if (dim(&a[1], 0) != m || dim(&a[2], 0) != m || dim(&a[3], 0) != m || dim(&a[4], 0) != m) {
        disagree(fn);
        goto done;
    }
    const int64_t *k1 = a[0].view.buf, *k2 = a[1].view.buf, *mult = a[2].view.buf;
    int64_t *first = a[3].view.buf, *total = a[4].view.buf;
    Py_BEGIN_ALLOW_THREADS
    table = pair_table(k1, k2, first, 0, size, bits);
    ok = table != NULL;
    for (Py_ssize_t i = 0; ok && i < m; i++) {
        Py_ssize_t at = pair_slot(k1[i], k2[i], bits);
        while (table[at] != -1 && (k1[first[table[at]]] != k1[i] || k2[first[table[at]]] != k2[i]))
            at = (at + 1) & (size - 1);
        if (table[at] != -1) {
            total[table[at]] += mult[i];
            continue;
        }
        table[at] = n;
        first[n] = i;
        total[n++] = mult[i];
        if (2 * n > size) {
            free(table);
            size *= 2;
            bits++;
            table = pair_table(k1, k2, first, n, size, bits);
            ok = table != NULL;
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
    release_all(a, 5);
    return result;
}

/* -- sum_rows, pair_accumulate ----------------------------------------------------------- */

#define PAIR_TILE 128  /* head sets swept per tail set: their sums are close in the sorted list */

/* The first index at or after `from` whose value is >= key in the sorted u[0..n), by
 * doubling steps from `from` (a sum near the last one found is a few steps away). */
static Py_ssize_t gallop(const int64_t *u, Py_ssize_t n, Py_ssize_t from, int64_t key)
{
    Py_ssize_t lo = from, step = 1, hi;
    if (lo >= n || u[lo] >= key)
        return lo;
    while (lo + step < n && u[lo + step] < key) {
        lo += step;
        step *= 2;
    }
    hi = lo + step < n ? lo + step : n;  /* u[lo] < key <= u[hi] (or hi == n) */
    while (hi - lo > 1) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (u[mid] < key)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The rows in u of the sums h[i] + tj (tj: a tail's key plus the extra cards) of the
 * tile's heads i0 .. i1-1, -1 where a sum is absent; returns how many are.  A search
 * starts from the furthest of two places known to be at or below its sum's row: where
 * the previous head's search for this tail ended (at[] holds each head's search for the
 * previous tail, keyed[] the sum it searched), each used only if its sum was not larger,
 * so any order of heads and tails gives the same rows.  Both places are near the sum in
 * sorted heads and tails, and the rows between them were read a moment before. */
static Py_ssize_t tile_rows(const int64_t *u, Py_ssize_t n, const int64_t *h, Py_ssize_t i0,
                            Py_ssize_t i1, int64_t tj, Py_ssize_t *at, int64_t *keyed,
                            Py_ssize_t *rows)
{
    Py_ssize_t before = 0, missing = 0;
    int64_t before_key = INT64_MIN;
    for (Py_ssize_t i = i0; i < i1; i++) {
        int64_t key = h[i] + tj;
        Py_ssize_t from = key >= keyed[i - i0] ? at[i - i0] : 0;
        if (key >= before_key && before > from)
            from = before;
        Py_ssize_t q = gallop(u, n, from, key);
        at[i - i0] = before = q;
        keyed[i - i0] = before_key = key;
        rows[i - i0] = (q < n && u[q] == key) ? q : -1;
        missing += rows[i - i0] < 0;
    }
    return missing;
}

/* A tile's search state before its first tail: no search done. */
static void tile_start(Py_ssize_t *at, int64_t *keyed)
{
    for (Py_ssize_t i = 0; i < PAIR_TILE; i++) {
        at[i] = 0;
        keyed[i] = INT64_MAX;
    }
}

static int sorted_strictly(const Arr *a)
{
    const int64_t *u = a->view.buf;
    for (Py_ssize_t i = 1; i < dim(a, 0); i++)
        if (u[i] <= u[i - 1])
            return 0;
    return 1;
}

#define SUMS_PER_RANGE 1000000  /* pairs whose sums share one small table */
#define SUMS_SAMPLE 66049        /* sums sampled (a grid of up to 257 x 257) to cut the range */

static int compare_keys(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The first index in the sorted h[0..n) whose value is >= key. */
static Py_ssize_t lower_bound(const int64_t *h, Py_ssize_t n, int64_t key)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (h[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#define PAIR_WINDOW 16384  /* distinct sums per window: a megabyte of their weight rows */

/* A walk of the pairs (head a, tail b) window by window of the sorted distinct sums u:
 * per window, tail by tail, the run of sorted heads whose sums fall in it.  Every pair is
 * met once, and a head meets the sorted tails in their order (a larger tail never has its
 * sum in an earlier window), as a sweep of heads per tail would: what a head adds up is
 * added in the same order, so the same bits.  What the window buys is the weight rows:
 * a window's rows are read by all its runs while they are in cache, where a sweep of
 * heads per tail reads rows all over the table for each tail. */
typedef struct {
    const int64_t *h, *t, *u;
    Py_ssize_t na, n;
    int64_t extra;
    Py_ssize_t *next;  /* per tail, its first head not met yet */
    Py_ssize_t w, windows;
} Walk;

/* Start a walk at its first window; next (one entry per tail) is the caller's.  The first
 * window also takes every sum below u, the last every sum above. */
static void walk_start(Walk *k, const int64_t *h, Py_ssize_t na, Py_ssize_t nb,
                       const int64_t *t, const int64_t *u, Py_ssize_t n, int64_t extra,
                       Py_ssize_t *next)
{
    k->h = h;
    k->t = t;
    k->u = u;
    k->na = na;
    k->n = n;
    k->extra = extra;
    k->next = next;
    k->w = 0;
    k->windows = n > PAIR_WINDOW ? (n + PAIR_WINDOW - 1) / PAIR_WINDOW : 1;
    for (Py_ssize_t j = 0; j < nb; j++)
        next[j] = 0;
}

/* Tail j's heads whose sums fall in the current window: [*lo, *hi). */
static void walk_run(Walk *k, Py_ssize_t j, Py_ssize_t *lo, Py_ssize_t *hi)
{
    *lo = k->next[j];
    *hi = k->w == k->windows - 1 ? k->na
        : gallop(k->h, k->na, *lo, k->u[(k->w + 1) * PAIR_WINDOW] - k->t[j] - k->extra);
    k->next[j] = *hi;
}

/* The tails whose runs in the current window can hold a head: [*j0, *j1) of the sorted
 * tails.  A tail below them has every sum below the window, so its heads were all met in
 * earlier windows; one above has every sum above it.  Skipping them skips only empty runs
 * (the same pairs in the same order): a slice of a few thousand heads meets a tail in
 * only a few of the windows, and each empty run cost a search of the heads to find. */
static void walk_tails(const Walk *k, Py_ssize_t nb, Py_ssize_t *j0, Py_ssize_t *j1)
{
    *j0 = 0;
    *j1 = nb;
    if (k->na == 0) {
        *j1 = 0;
        return;
    }
    if (k->w > 0)
        *j0 = lower_bound(k->t, nb, k->u[k->w * PAIR_WINDOW] - k->h[k->na - 1] - k->extra);
    if (k->w < k->windows - 1)
        *j1 = lower_bound(k->t, nb, k->u[(k->w + 1) * PAIR_WINDOW] - k->h[0] - k->extra);
}

/* The row of `key` in u, searched from *from (at or below it: the run's previous row,
 * or the window's first), -1 where it is absent; *from becomes where the search ended. */
static Py_ssize_t walk_row(const Walk *k, Py_ssize_t *from, int64_t key)
{
    Py_ssize_t q = gallop(k->u, k->n, *from, key);
    *from = q;
    return (q < k->n && k->u[q] == key) ? q : -1;
}

static int non_decreasing(const Arr *a)
{
    const int64_t *h = a->view.buf;
    for (Py_ssize_t i = 1; i < dim(a, 0); i++)
        if (h[i] < h[i - 1])
            return 0;
    return 1;
}

static PyObject *distinct_sums(PyObject *self, PyObject *args)
{
    static const Spec specs[2] = {{"head", 'i', 1, 0}, {"tail", 'i', 1, 0}};
    const char *fn = "distinct_sums";
    PyObject *o[2];
    Arr a[2];
    long long extra;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOL", &o[0], &o[1], &extra))
        return NULL;
    PyObject *result = NULL;
    int64_t *table = NULL, *u = NULL, *cut = NULL;
    Py_ssize_t n = 0, room = 1 << 12;
    int ok = 1;
    if (!take_all(o, a, specs, 2, fn))
        goto done;
    Py_ssize_t na = dim(&a[0], 0), nb = dim(&a[1], 0);
    const int64_t *h = a[0].view.buf, *t = a[1].view.buf;
    if (!non_decreasing(&a[0])) {
        PyErr_Format(PyExc_ValueError, "%s: head is not sorted", fn);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    /* Cut the sums' range into ranges of about SUMS_PER_RANGE pairs each, at the
     * quantiles of a grid sample of the pairs; then each range's sums are found in a
     * table of their own, small enough to stay in cache: for every tail value, the heads
     * whose sums fall in the range are one run of the sorted heads. */
    double pairs = (double)na * (double)nb;
    Py_ssize_t ranges = (Py_ssize_t)(pairs / SUMS_PER_RANGE) + 1, m = 0;
    Py_ssize_t si = na > 256 ? na / 256 : 1, sj = nb > 256 ? nb / 256 : 1;
    cut = malloc(sizeof(int64_t) * (size_t)(SUMS_SAMPLE + ranges + 1));
    u = malloc(sizeof(int64_t) * (size_t)room);
    ok = cut != NULL && u != NULL;
    for (Py_ssize_t i = 0; ok && i < na && m < SUMS_SAMPLE; i += si)
        for (Py_ssize_t j = 0; j < nb && m < SUMS_SAMPLE; j += sj)
            cut[m++] = h[i] + t[j];
    if (ok && m > 0) {
        qsort(cut, (size_t)m, sizeof(int64_t), compare_keys);
        if (ranges > m)
            ranges = m;
        int64_t *bound = cut + m;  /* range r: sums - extra in [bound[r], bound[r+1]) */
        for (Py_ssize_t r = 1; r < ranges; r++)
            bound[r] = cut[(Py_ssize_t)((double)r * (double)m / (double)ranges)];
        Py_ssize_t size = 1 << 12;
        int bits = 12;
        table = malloc(sizeof(int64_t) * (size_t)size);
        ok = table != NULL;
        for (Py_ssize_t k = 0; ok && k < size; k++)
            table[k] = -1;
        for (Py_ssize_t r = 0; ok && r < ranges; r++) {
            if (r > 0 && r < ranges - 1 && bound[r] == bound[r + 1])
                continue;  /* an empty range */
            Py_ssize_t first = n;
            for (Py_ssize_t j = 0; ok && j < nb; j++) {
                Py_ssize_t lo = r == 0 ? 0 : lower_bound(h, na, bound[r] - t[j]);
                Py_ssize_t hi = r == ranges - 1 ? na : lower_bound(h, na, bound[r + 1] - t[j]);
                for (Py_ssize_t i = lo; i < hi; i++) {
                    int64_t key = h[i] + t[j] + (int64_t)extra;
                    Py_ssize_t at = slot_of(key, bits);
                    while (table[at] != -1 && u[table[at]] != key)
                        at = (at + 1) & (size - 1);
                    if (table[at] != -1)
                        continue;
                    if (n == room) {
                        int64_t *more = realloc(u, sizeof(int64_t) * (size_t)(2 * room));
                        if (more == NULL) {
                            ok = 0;
                            break;
                        }
                        u = more;
                        room *= 2;
                    }
                    u[n] = key;
                    table[at] = n++;
                    if (2 * (n - first) > size) {  /* half full: twice the slots */
                        int64_t *fresh = malloc(sizeof(int64_t) * (size_t)(2 * size));
                        if (fresh == NULL) {
                            ok = 0;
                            break;
                        }
                        free(table);
                        table = fresh;
                        size *= 2;
                        bits++;
                        for (Py_ssize_t k = 0; k < size; k++)
                            table[k] = -1;
                        for (Py_ssize_t k = first; k < n; k++) {
                            Py_ssize_t s2 = slot_of(u[k], bits);
                            while (table[s2] != -1)
                                s2 = (s2 + 1) & (size - 1);
                            table[s2] = k;
                        }
                    }
                }
            }
            for (Py_ssize_t k = first; ok && k < n; k++) {  /* empty the table again */
                Py_ssize_t s2 = slot_of(u[k], bits);
                while (table[s2] != k)
                    s2 = (s2 + 1) & (size - 1);
                table[s2] = -1;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)u, (Py_ssize_t)sizeof(int64_t) * n);
done:
    free(table);
    free(u);
    free(cut);
    release_all(a, 2);
    return result;
}

static PyObject *sum_rows(PyObject *self, PyObject *args)
{
    static const Spec specs[4] = {
        {"head", 'i', 1, 0}, {"tail", 'i', 1, 0}, {"unique", 'i', 1, 0}, {"rows", 'i', 1, 1},
    };
    const char *fn = "sum_rows";
    PyObject *o[4];
    Arr a[4];
    long long extra;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOLOO", &o[0], &o[1], &extra, &o[2], &o[3]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t missing = 0;
    if (!take_all(o, a, specs, 4, fn))
        goto done;
    Py_ssize_t na = dim(&a[0], 0), nb = dim(&a[1], 0), n = dim(&a[2], 0);
    if (dim(&a[3], 0) != na * nb) {
        disagree(fn);
        goto done;
    }
    if (!sorted_strictly(&a[2])) {
        PyErr_Format(PyExc_ValueError, "%s: unique is not strictly increasing", fn);
        goto done;
    }
    const int64_t *h = a[0].view.buf, *t = a[1].view.buf, *u = a[2].view.buf;
    int64_t *r = a[3].view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i0 = 0; i0 < na; i0 += PAIR_TILE) {
        Py_ssize_t i1 = i0 + PAIR_TILE < na ? i0 + PAIR_TILE : na;
        Py_ssize_t at[PAIR_TILE], rows[PAIR_TILE];
        int64_t keyed[PAIR_TILE];
        tile_start(at, keyed);
        for (Py_ssize_t j = 0; j < nb; j++) {
            missing += tile_rows(u, n, h, i0, i1, t[j] + (int64_t)extra, at, keyed, rows);
            for (Py_ssize_t i = i0; i < i1; i++)
                r[i * nb + j] = rows[i - i0];
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(missing);
done:
    release_all(a, 4);
    return result;
}

/* Whether a tail's rounds are well formed for the pairings: set b's rounds starts[b] ..
 * starts[b+1]-1 (at most `most` of them), covering the nr rounds in order, and each
 * round's result index against each of the no outcomes below ny. */
static int tail_ok(const int64_t *st, Py_ssize_t nb, const int64_t *res, Py_ssize_t nr,
                   Py_ssize_t no, Py_ssize_t ny, Py_ssize_t most)
{
    int bad = st[0] != 0 || st[nb] != nr;
    for (Py_ssize_t b = 0; b < nb; b++)
        bad |= st[b + 1] < st[b] || st[b + 1] - st[b] > most;
    for (Py_ssize_t r = 0; r < nr; r++)  /* the card orders, then a result per outcome */
        for (Py_ssize_t k = 1; k <= no; k++)
            bad |= res[r * (no + 1) + k] < 0 || res[r * (no + 1) + k] >= ny;
    return !bad;
}

static PyObject *pair_accumulate(PyObject *self, PyObject *args)
{
    static const Spec specs[7] = {
        {"head", 'i', 1, 0}, {"tail", 'i', 1, 0}, {"unique", 'i', 1, 0},
        {"weights", 'f', 2, 0}, {"starts", 'i', 1, 0}, {"results", 'i', 2, 0},
        {"acc", 'f', 3, 1},
    };
    const char *fn = "pair_accumulate";
    PyObject *o[7];
    Arr a[7];
    long long extra;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOLOOOOO", &o[0], &o[1], &extra, &o[2], &o[3], &o[4], &o[5],
                          &o[6]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t missing = 0;
    if (!take_all(o, a, specs, 7, fn))
        goto done;
    Py_ssize_t na = dim(&a[0], 0), nb = dim(&a[1], 0), n = dim(&a[2], 0);
    Py_ssize_t no = dim(&a[3], 1), nr = dim(&a[5], 0), ny = dim(&a[6], 2);
    if (dim(&a[3], 0) != n || dim(&a[4], 0) != nb + 1 || dim(&a[5], 1) != no + 1
        || dim(&a[6], 0) != na || dim(&a[6], 1) != no) {
        disagree(fn);
        goto done;
    }
    if (!non_decreasing(&a[0]) || !non_decreasing(&a[1])) {
        PyErr_Format(PyExc_ValueError, "%s: head or tail is not sorted", fn);
        goto done;
    }
    if (!sorted_strictly(&a[2])) {
        PyErr_Format(PyExc_ValueError, "%s: unique is not strictly increasing", fn);
        goto done;
    }
    const int64_t *st = a[4].view.buf, *res = a[5].view.buf;
    if (!tail_ok(st, nb, res, nr, no, ny, nr)) {
        PyErr_Format(PyExc_ValueError, "%s: an index out of range", fn);
        goto done;
    }
    const int64_t *h = a[0].view.buf, *t = a[1].view.buf, *u = a[2].view.buf;
    const double *w = a[3].view.buf;
    double *acc = a[6].view.buf;
    Py_ssize_t *next = malloc(sizeof(Py_ssize_t) * (size_t)(nb ? nb : 1));  /* the walk's */
    /* Per tail round, its card orders as a double and where each outcome's result falls
     * in a head's row of acc: read per pair, worked out once. */
    Py_ssize_t *at = malloc(sizeof(Py_ssize_t) * (size_t)(nr * no ? nr * no : 1));
    double *orders = malloc(sizeof(double) * (size_t)(nr ? nr : 1));
    if (next == NULL || at == NULL || orders == NULL) {
        free(next);
        free(at);
        free(orders);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < nr; r++) {
        orders[r] = (double)res[r * (no + 1)];
        for (Py_ssize_t c = 0; c < no; c++)
            at[r * no + c] = c * ny + res[r * (no + 1) + c + 1];
    }
    Py_BEGIN_ALLOW_THREADS
    Walk k;
    walk_start(&k, h, na, nb, t, u, n, (int64_t)extra, next);
    for (; k.w < k.windows; k.w++) {
        Py_ssize_t j0, j1;
        walk_tails(&k, nb, &j0, &j1);
        for (Py_ssize_t j = j0; j < j1; j++) {
            Py_ssize_t lo, hi, from = k.w * PAIR_WINDOW;
            walk_run(&k, j, &lo, &hi);
            for (Py_ssize_t i = lo; i < hi; i++) {
                Py_ssize_t row = walk_row(&k, &from, h[i] + t[j] + (int64_t)extra);
                if (row < 0) {
                    missing++;
                    continue;
                }
                const double *wu = w + row * no;
                double *out = acc + i * no * ny;
                for (Py_ssize_t r = st[j]; r < st[j + 1]; r++) {
                    const Py_ssize_t *to = at + r * no;
                    double m = orders[r];
                    for (Py_ssize_t c = 0; c < no; c++)
                        out[to[c]] += wu[c] * m;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    free(next);
    free(at);
    free(orders);
    result = PyLong_FromSsize_t(missing);
done:
    release_all(a, 7);
    return result;
}

/* Whether the counts mine (na, nv) and theirs (nb, nv) are not negative and every sum of
 * a row of each, column by column, is below top: an index of a table of top entries. */
static int sums_fit(const int64_t *mine, Py_ssize_t na, const int64_t *theirs, Py_ssize_t nb,
                    Py_ssize_t nv, Py_ssize_t top)
{
    int bad = 0;
    for (Py_ssize_t v = 0; v < nv; v++) {
        int64_t most_a = 0, most_b = 0;
        for (Py_ssize_t i = 0; i < na; i++) {
            bad |= mine[i * nv + v] < 0;
            most_a = mine[i * nv + v] > most_a ? mine[i * nv + v] : most_a;
        }
        for (Py_ssize_t i = 0; i < nb; i++) {
            bad |= theirs[i * nv + v] < 0;
            most_b = theirs[i * nv + v] > most_b ? theirs[i * nv + v] : most_b;
        }
        bad |= most_a + most_b >= top;
    }
    return !bad;
}

/* Whether every modulus is a prime's size this module takes: 2 .. 2**26. */
static int primes_ok(const int64_t *primes, Py_ssize_t n)
{
    int bad = 0;
    for (Py_ssize_t p = 0; p < n; p++)
        bad |= primes[p] < 2 || primes[p] > ((int64_t)1 << 26);
    return !bad;
}

/* Whether every entry of x[p, 0..n) is below primes[p] and not negative. */
static int below_primes(const int64_t *x, Py_ssize_t np_, Py_ssize_t n, const int64_t *primes)
{
    int bad = 0;
    for (Py_ssize_t p = 0; p < np_; p++)
        for (Py_ssize_t e = 0; e < n; e++)
            bad |= x[p * n + e] < 0 || x[p * n + e] >= primes[p];
    return !bad;
}

#define RESIDUE_ADDS 1024  /* products (each < 2**52) added to a residue (< 2**26) between
                              reductions: 1024 * 2**52 + 2**26 < 2**63 */

/* acc[i0..i1) modulo each prime: every entry of a tile of heads below its prime again
 * (the prime is acc's last axis). */
static void reduce_tile(int64_t *acc, const int64_t *primes, Py_ssize_t np_, Py_ssize_t i0,
                        Py_ssize_t i1, Py_ssize_t row)
{
    for (Py_ssize_t e = i0 * row; e < i1 * row; e++) {
        int64_t *a = acc + e * np_;
        for (Py_ssize_t p = 0; p < np_; p++)
            a[p] %= primes[p];
    }
}

static PyObject *pair_residues(PyObject *self, PyObject *args)
{
    static const Spec specs[9] = {
        {"head", 'i', 1, 0}, {"tail", 'i', 1, 0}, {"unique", 'i', 1, 0},
        {"joint", 'w', 3, 0}, {"outcomes", 'i', 1, 0}, {"primes", 'i', 1, 0},
        {"starts", 'i', 1, 0}, {"results", 'i', 2, 0}, {"acc", 'i', 4, 1},
    };
    static const Spec orders_spec = {"orders", 'i', 2, 0};
    const char *fn = "pair_residues";
    PyObject *o[10];
    Arr a[10];
    long long extra;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOLOOOOOOOO", &o[0], &o[1], &extra, &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[9], &o[8]))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t missing = 0;
    if (!take_all(o, a, specs, 9, fn) || !take(o[9], &a[9], &orders_spec, fn))
        goto done;
    Py_ssize_t na = dim(&a[0], 0), nb = dim(&a[1], 0), n = dim(&a[2], 0);
    Py_ssize_t np_ = dim(&a[5], 0), no = dim(&a[4], 0), nr = dim(&a[7], 0);
    Py_ssize_t n_all = dim(&a[3], 1), ny = dim(&a[8], 2);
    if (dim(&a[3], 2) != np_ || dim(&a[3], 0) != n || dim(&a[6], 0) != nb + 1
        || dim(&a[7], 1) != no + 1 || dim(&a[9], 0) != nr || dim(&a[9], 1) != np_
        || dim(&a[8], 3) != np_ || dim(&a[8], 0) != na || dim(&a[8], 1) != no) {
        disagree(fn);
        goto done;
    }
    if (!sorted_strictly(&a[2])) {
        PyErr_Format(PyExc_ValueError, "%s: unique is not strictly increasing", fn);
        goto done;
    }
    const int64_t *outs = a[4].view.buf, *primes = a[5].view.buf, *st = a[6].view.buf;
    const int64_t *res = a[7].view.buf, *ord = a[9].view.buf;
    int bad = !tail_ok(st, nb, res, nr, no, ny, RESIDUE_ADDS) || !primes_ok(primes, np_);
    for (Py_ssize_t k = 0; k < no; k++)
        bad |= outs[k] < 0 || outs[k] >= n_all;
    for (Py_ssize_t e = 0; e < nr * np_; e++)
        bad |= ord[e] < 0 || ord[e] >= primes[e % np_];
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: an index or residue out of range", fn);
        goto done;
    }
    const int64_t *h = a[0].view.buf, *t = a[1].view.buf, *u = a[2].view.buf;
    const int32_t *joint = a[3].view.buf;
    int64_t *acc = a[8].view.buf;
    const Py_ssize_t row = no * ny;  /* one head's entries, each a residue per prime */
    for (Py_ssize_t e = 0; e < np_ * na * row; e++)
        bad |= acc[e] < 0 || acc[e] >= ((int64_t)1 << 26);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: acc must hold residues", fn);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i0 = 0; i0 < na; i0 += PAIR_TILE) {
        Py_ssize_t i1 = i0 + PAIR_TILE < na ? i0 + PAIR_TILE : na;
        Py_ssize_t at[PAIR_TILE], rows[PAIR_TILE];
        int64_t keyed[PAIR_TILE];
        Py_ssize_t since = 0;  /* products added to an entry since the tile's last reduction */
        tile_start(at, keyed);
        for (Py_ssize_t j = 0; j < nb; j++) {
            if (since + (st[j + 1] - st[j]) > RESIDUE_ADDS) {
                reduce_tile(acc, primes, np_, i0, i1, row);
                since = 0;
            }
            since += st[j + 1] - st[j];
            missing += tile_rows(u, n, h, i0, i1, t[j] + (int64_t)extra, at, keyed, rows);
            for (Py_ssize_t i = i0; i < i1; i++) {
                if (rows[i - i0] < 0)
                    continue;
                /* the sum's row, then the entry's residues: each prime's side by side */
                const int32_t *w = joint + rows[i - i0] * n_all * np_;
                for (Py_ssize_t r = st[j]; r < st[j + 1]; r++) {
                    const int64_t *rr = res + r * (no + 1), *m = ord + r * np_;
                    for (Py_ssize_t k = 0; k < no; k++) {
                        int64_t *out = acc + ((i * no + k) * ny + rr[k + 1]) * np_;
                        const int32_t *wk = w + outs[k] * np_;
                        for (Py_ssize_t p = 0; p < np_; p++)
                            out[p] += (int64_t)wk[p] * m[p];
                    }
                }
            }
        }
        reduce_tile(acc, primes, np_, i0, i1, row);
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(missing);
done:
    release_all(a, 10);
    return result;
}

/* -- joint_fill_residues, product_residues ----------------------------------------------- */

/* Whether the arrays of a joint fill index within each other (dist_dealer.py,
 * _fill_residues): every low half of a set plus every low half of the dealer's
 * compositions within the falling-factorial tables' `top` entries, the compositions'
 * groups (starts, nc, cols below `width`), the sets' rows by low half (first, nrows),
 * their high halves (below nuh), their places (below nsets) and the outcome columns
 * (below n_out). */
static int fill_ok(const int64_t *u_low, Py_ssize_t nul, const int64_t *low, Py_ssize_t nl,
                   Py_ssize_t cut, Py_ssize_t top, const int64_t *comp_low, Py_ssize_t nc,
                   const int64_t *starts, Py_ssize_t ng, const int64_t *cols, Py_ssize_t width,
                   const int64_t *first, const int64_t *high_rows, Py_ssize_t nrows,
                   Py_ssize_t nuh, const int64_t *sets, Py_ssize_t nsets, const int64_t *present,
                   Py_ssize_t np_, Py_ssize_t n_out)
{
    int bad = !sums_fit(u_low, nul, low, nl, cut, top);
    for (Py_ssize_t c = 0; c < nc; c++)
        bad |= comp_low[c] < 0 || comp_low[c] >= nl;
    bad |= starts[0] != 0 || starts[ng] != nc;
    for (Py_ssize_t g = 0; g < ng; g++)
        bad |= starts[g + 1] < starts[g] || cols[g] < 0 || cols[g] >= width;
    bad |= first[0] != 0 || first[nul] != nrows;
    for (Py_ssize_t j = 0; j < nul; j++)
        bad |= first[j + 1] < first[j];
    for (Py_ssize_t r = 0; r < nrows; r++)
        bad |= high_rows[r] < 0 || high_rows[r] >= nuh || sets[r] < 0 || sets[r] >= nsets;
    for (Py_ssize_t q = 0; q < np_; q++)
        bad |= present[q] < 0 || present[q] >= n_out;
    return !bad;
}

static PyObject *product_residues(PyObject *self, PyObject *args)
{
    static const Spec specs[5] = {
        {"ff", 'i', 3, 0}, {"mine", 'i', 2, 0}, {"theirs", 'i', 2, 0}, {"primes", 'i', 1, 0},
        {"out", 'i', 3, 1},
    };
    const char *fn = "product_residues";
    PyObject *o[5];
    Arr a[5];
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOO", &o[0], &o[1], &o[2], &o[3], &o[4]))
        return NULL;
    PyObject *result = NULL;
    if (!take_all(o, a, specs, 5, fn))
        goto done;
    Py_ssize_t n_p = dim(&a[3], 0), nv = dim(&a[0], 1), top = dim(&a[0], 2);
    Py_ssize_t na = dim(&a[1], 0), nb = dim(&a[2], 0);
    if (dim(&a[0], 0) != n_p || dim(&a[1], 1) != nv || dim(&a[2], 1) != nv
        || dim(&a[4], 0) != na || dim(&a[4], 1) != n_p || dim(&a[4], 2) != nb) {
        disagree(fn);
        goto done;
    }
    const int64_t *ff = a[0].view.buf, *mine = a[1].view.buf, *theirs = a[2].view.buf;
    const int64_t *primes = a[3].view.buf;
    if (!primes_ok(primes, n_p) || !sums_fit(mine, na, theirs, nb, nv, top)
        || !below_primes(ff, n_p, nv * top, primes)) {
        PyErr_Format(PyExc_ValueError, "%s: an index, prime or residue out of range", fn);
        goto done;
    }
    int64_t *out = a[4].view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < n_p; p++) {
        const int64_t q = primes[p], *fp = ff + p * nv * top;
        for (Py_ssize_t i = 0; i < na; i++) {
            int64_t *row = out + (i * n_p + p) * nb;
            for (Py_ssize_t j = 0; j < nb; j++) {
                int64_t x = 1;
                for (Py_ssize_t v = 0; v < nv; v++)
                    x = x * fp[v * top + mine[i * nv + v] + theirs[j * nv + v]] % q;
                row[j] = x;
            }
        }
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    release_all(a, 5);
    return result;
}

static PyObject *joint_fill_residues(PyObject *self, PyObject *args)
{
    static const Spec specs[14] = {
        {"ff", 'i', 3, 0}, {"u_low", 'i', 2, 0}, {"low", 'i', 2, 0}, {"comp_low", 'i', 1, 0},
        {"mult", 'i', 2, 0}, {"starts", 'i', 1, 0}, {"cols", 'i', 1, 0}, {"phigh", 'i', 3, 0},
        {"first", 'i', 1, 0}, {"high_rows", 'i', 1, 0}, {"sets", 'i', 1, 0},
        {"present", 'i', 1, 0}, {"primes", 'i', 1, 0}, {"out", 'w', 3, 1},
    };
    const char *fn = "joint_fill_residues";
    PyObject *o[14];
    Arr a[14];
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &o[12], &o[13]))
        return NULL;
    PyObject *result = NULL;
    int64_t *plow = NULL, *flat = NULL, *acc = NULL;
    if (!take_all(o, a, specs, 14, fn))
        goto done;
    Py_ssize_t n_p = dim(&a[12], 0), cut = dim(&a[0], 1), top = dim(&a[0], 2);
    Py_ssize_t nul = dim(&a[1], 0), nl = dim(&a[2], 0), nc = dim(&a[3], 0);
    Py_ssize_t ng = dim(&a[6], 0), nuh = dim(&a[7], 0), nh = dim(&a[7], 2);
    Py_ssize_t nrows = dim(&a[9], 0), np_ = dim(&a[11], 0);
    Py_ssize_t nsets = dim(&a[13], 0), n_out = dim(&a[13], 1);
    if (dim(&a[0], 0) != n_p || dim(&a[1], 1) != cut || dim(&a[2], 1) != cut
        || dim(&a[4], 0) != n_p || dim(&a[4], 1) != nc || dim(&a[5], 0) != ng + 1
        || dim(&a[7], 1) != n_p || dim(&a[8], 0) != nul + 1 || dim(&a[10], 0) != nrows
        || dim(&a[13], 2) != n_p) {
        disagree(fn);
        goto done;
    }
    const int64_t *u_low = a[1].view.buf, *low = a[2].view.buf, *comp_low = a[3].view.buf;
    const int64_t *starts = a[5].view.buf, *cols = a[6].view.buf, *first = a[8].view.buf;
    const int64_t *high_rows = a[9].view.buf, *sets = a[10].view.buf;
    const int64_t *present = a[11].view.buf, *primes = a[12].view.buf;
    const Py_ssize_t width = nh * np_;
    if (!fill_ok(u_low, nul, low, nl, cut, top, comp_low, nc, starts, ng, cols, width, first,
                 high_rows, nrows, nuh, sets, nsets, present, np_, n_out)) {
        PyErr_Format(PyExc_ValueError, "%s: an index out of range", fn);
        goto done;
    }
    int bad = !primes_ok(primes, n_p);
    const int64_t *ff = a[0].view.buf, *mult = a[4].view.buf, *phigh = a[7].view.buf;
    for (Py_ssize_t i = 0; i < nuh; i++)
        bad |= !below_primes(phigh + i * n_p * nh, n_p, nh, primes);
    if (bad || !below_primes(ff, n_p, cut * top, primes) || !below_primes(mult, n_p, nc, primes)) {
        PyErr_Format(PyExc_ValueError, "%s: a prime or residue out of range", fn);
        goto done;
    }
    int32_t *out = a[13].view.buf;
    plow = malloc(sizeof(int64_t) * (size_t)(nl > 0 ? nl : 1));
    flat = malloc(sizeof(int64_t) * (size_t)(n_p * width > 0 ? n_p * width : 1));
    acc = malloc(sizeof(int64_t) * (size_t)(np_ > 0 ? np_ : 1));
    if (plow == NULL || flat == NULL || acc == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < nul; j++) {
        /* A[uL, kH, o] of every prime first: then a set's row of PH, every prime's side
         * by side, is read once, in order */
        for (Py_ssize_t p = 0; p < n_p; p++) {
            const int64_t q = primes[p], *fp = ff + p * cut * top, *mp = mult + p * nc;
            int64_t *fl = flat + p * width;
            for (Py_ssize_t l = 0; l < nl; l++) {
                int64_t v = 1;
                for (Py_ssize_t c = 0; c < cut; c++)
                    v = v * fp[c * top + u_low[j * cut + c] + low[l * cut + c]] % q;
                plow[l] = v;
            }
            memset(fl, 0, sizeof(int64_t) * (size_t)width);
            for (Py_ssize_t g = 0; g < ng; g++) {
                int64_t s = 0;
                for (Py_ssize_t c = starts[g]; c < starts[g + 1]; c++) {
                    s += plow[comp_low[c]] * mp[c];
                    if ((c - starts[g]) % RESIDUE_ADDS == RESIDUE_ADDS - 1)
                        s %= q;
                }
                fl[cols[g]] = s % q;
            }
        }
        for (Py_ssize_t r = first[j]; r < first[j + 1]; r++) {
            for (Py_ssize_t p = 0; p < n_p; p++) {
                const int64_t q = primes[p], *ph = phigh + (high_rows[r] * n_p + p) * nh;
                const int64_t *fl = flat + p * width;
                for (Py_ssize_t k = 0; k < np_; k++)
                    acc[k] = 0;
                for (Py_ssize_t h0 = 0; h0 < nh; h0 += RESIDUE_ADDS) {
                    Py_ssize_t h1 = h0 + RESIDUE_ADDS < nh ? h0 + RESIDUE_ADDS : nh;
                    for (Py_ssize_t h = h0; h < h1; h++) {
                        const int64_t x = ph[h], *f = fl + h * np_;
                        for (Py_ssize_t k = 0; k < np_; k++)
                            acc[k] += x * f[k];
                    }
                    for (Py_ssize_t k = 0; k < np_; k++)
                        acc[k] %= q;
                }
                int32_t *o = out + sets[r] * n_out * n_p + p;
                for (Py_ssize_t k = 0; k < np_; k++)
                    o[present[k] * n_p] = (int32_t)acc[k];
            }
        }
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    free(plow);
    free(flat);
    free(acc);
    release_all(a, 14);
    return result;
}

/* -- split_bounds ------------------------------------------------------------------------- */

static PyObject *split_bounds(PyObject *self, PyObject *args)
{
    static const Spec specs[9] = {
        {"rows", 'f', 2, 0}, {"pay", 'f', 2, 0}, {"shoes", 'i', 2, 0}, {"total", 'i', 1, 0},
        {"hard", 'i', 1, 0}, {"kid_total", 'i', 2, 0}, {"charlie", 'i', 1, 0},
        {"stand", 'f', 1, 1}, {"hit", 'f', 1, 1},
    };
    const char *fn = "split_bounds";
    PyObject *o[9];
    Arr a[9];
    double slack;
    (void)self;
    memset(a, 0, sizeof a);
    if (!PyArg_ParseTuple(args, "OOOOOOOdOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &slack, &o[7], &o[8]))
        return NULL;
    PyObject *result = NULL;
    if (!take_all(o, a, specs, 9, fn))
        goto done;
    Py_ssize_t k = dim(&a[3], 0), n_out = dim(&a[1], 1);
    if (dim(&a[1], 0) != 22 || dim(&a[0], 0) != k || dim(&a[0], 1) != n_out
        || dim(&a[2], 0) != k || dim(&a[2], 1) != 10 || dim(&a[4], 0) != k
        || dim(&a[5], 0) != k || dim(&a[5], 1) != 10 || dim(&a[6], 0) != k
        || dim(&a[7], 0) != k || dim(&a[8], 0) != k) {
        disagree(fn);
        goto done;
    }
    if (!within(&a[3], 0, 21) || !within(&a[5], -1, 21)) {
        PyErr_Format(PyExc_ValueError, "%s: a total outside 0..21", fn);
        goto done;
    }
    const double *r = a[0].view.buf, *p = a[1].view.buf;
    const int64_t *sh = a[2].view.buf, *t = a[3].view.buf, *h = a[4].view.buf;
    const int64_t *kt = a[5].view.buf, *ch = a[6].view.buf;
    double *st = a[7].view.buf, *ht = a[8].view.buf;
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
    release_all(a, 9);
    return result;
}

/* -- best_play ---------------------------------------------------------------------------- */

static PyObject *best_play(PyObject *self, PyObject *args)
{
    static const Spec specs[10] = {
        {"at", 'i', 2, 0}, {"probs", 'f', 2, 0}, {"stand", 'f', 2, 0}, {"busted", 'f', 2, 0},
        {"child", 'i', 2, 0}, {"bust_of", 'i', 2, 0}, {"order", 'i', 1, 0},
        {"forced", 'i', 1, 0}, {"hit", 'f', 2, 1}, {"cont", 'f', 2, 1},
    };
    const char *fn = "best_play";
    PyObject *o[10];
    Arr all[10], *a = all + 1;  /* a[0] probs ... a[8] cont, as before `at` came first */
    (void)self;
    memset(all, 0, sizeof all);
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9]))
        return NULL;
    PyObject *result = NULL;
    if (!take_all(o, all, specs, 10, fn))
        goto done;
    Py_ssize_t m = dim(&a[5], 0), n = dim(&a[1], 0), b = dim(&a[2], 1), r = dim(&a[0], 0);
    if (dim(&a[1], 1) != m || dim(&all[0], 0) != n || dim(&all[0], 1) != m
        || dim(&a[0], 1) != 10
        || dim(&a[2], 0) != n || dim(&a[3], 0) != m || dim(&a[3], 1) != 10
        || dim(&a[4], 0) != m || dim(&a[4], 1) != 10 || dim(&a[6], 0) != m
        || dim(&a[7], 0) != n || dim(&a[7], 1) != m || dim(&a[8], 0) != n
        || dim(&a[8], 1) != m) {
        disagree(fn);
        goto done;
    }
    const int64_t *at = all[0].view.buf;
    for (Py_ssize_t i = 0; i < n * m; i++) {
        if (at[i] < 0 || at[i] >= r) {
            PyErr_Format(PyExc_ValueError, "%s: a row of probs out of range", fn);
            goto done;
        }
    }
    const int64_t *ch = a[3].view.buf, *bo = a[4].view.buf, *od = a[5].view.buf;
    const int64_t *fo = a[6].view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int ok = od[i] >= 0 && od[i] < m && fo[i] >= 0 && fo[i] <= 2;
        for (int x = 0; x < 10; x++)
            ok &= ch[10 * i + x] >= 0
                  && (ch[10 * i + x] != m || (bo[10 * i + x] >= 0 && bo[10 * i + x] < b));
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "%s: a node, bust index or play out of range",
                         fn);
            goto done;
        }
    }
    const double *pr = a[0].view.buf, *st = a[1].view.buf, *bu = a[2].view.buf;
    double *ht = a[7].view.buf, *co = a[8].view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n; s++) {
        double *cs = co + m * s;
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = od[k];
            const double *p = pr + 10 * at[m * s + i];
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
            cs[i] = (fo[i] == 2 || (fo[i] == 0 && h > sv)) ? h : sv;
        }
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    release_all(all, 10);
    return result;
}

static PyMethodDef methods[] = {
    {"outcome_sums", outcome_sums, METH_VARARGS,
     "outcome_sums(shoes, blocks, block_of, halves, low_of, high_of, runs, mult, kmax, out)\n"
     "Per shoe, the summed weight of each dealer outcome (written into out)."},
    {"outcome_sums_exact", outcome_sums_exact, METH_VARARGS,
     "outcome_sums_exact(shoes, blocks, block_of, halves, low_of, high_of, runs, mult, kmax,\n"
     "                   out) -> fits\n"
     "The same sums in integers over the common denominator, 128 bits each as two words\n"
     "(low, high) of out; False, out not to be read, when a denominator needs more."},
    {"cache_find", cache_find, METH_VARARGS,
     "cache_find(out, slot_keys, slot_rows, keys, n, rows, first) -> added\n"
     "Each shoe's row in the cache; a new shoe enters as row n, n+1, ... (first: its\n"
     "index in out).  -1, nothing entered, when a count is outside 0..63."},
    {"cache_find_keys", cache_find_keys, METH_VARARGS,
     "cache_find_keys(wanted, slot_keys, slot_rows, keys, n, rows, first) -> added\n"
     "cache_find for shoes given by their keys (counts packed six bits each, >= 0)."},
    {"cache_rehash", cache_rehash, METH_VARARGS,
     "cache_rehash(keys, n, slot_keys, slot_rows)\nRebuild the table from rows 0..n-1."},
    {"distinct_sums", distinct_sums, METH_VARARGS,
     "distinct_sums(head, tail, extra) -> bytes\n"
     "The distinct sums head[a] + tail[b] + extra, int64 in native order, unsorted."},
    {"merge_pairs", merge_pairs, METH_VARARGS,
     "merge_pairs(k1, k2, mult, first, total) -> n\n"
     "The distinct pairs (k1[i], k2[i]) (first appearance first: first[u] is the index of\n"
     "pair u) and each one's summed mult (total[u])."},
    {"sum_rows", sum_rows, METH_VARARGS,
     "sum_rows(head, tail, extra, unique, rows) -> missing\n"
     "Each pair's row: the index of head[a] + tail[b] + extra in the sorted unique\n"
     "(-1 where absent, counted in missing)."},
    {"pair_accumulate", pair_accumulate, METH_VARARGS,
     "pair_accumulate(head, tail, extra, unique, weights, starts, results, acc) -> missing\n"
     "acc[a, o, y] += weights[row(head[a] + tail[b] + extra), o] * count, over the tail's\n"
     "rounds of each set b with result y against o (missing: sums not in the table)."},
    {"pair_residues", pair_residues, METH_VARARGS,
     "pair_residues(head, tail, extra, unique, joint, outcomes, primes, starts, results,\n"
     "              orders, acc) -> missing\n"
     "pair_accumulate in residues: acc[p, a, k, y] += joint[p, outcomes[k], row] *\n"
     "orders[r, p] modulo primes[p] (missing: sums not in the table)."},
    {"joint_fill_residues", joint_fill_residues, METH_VARARGS,
     "joint_fill_residues(ff, u_low, low, comp_low, mult, starts, cols, phigh, first,\n"
     "                    high_rows, sets, present, primes, out)\n"
     "The dealer's joint weights of card sets modulo each prime: out[sets[r], present[q],\n"
     "p] (int32, written)."},
    {"product_residues", product_residues, METH_VARARGS,
     "product_residues(ff, mine, theirs, primes, out)\n"
     "out[p, a, b] = prod_v ff[p, v, mine[a, v] + theirs[b, v]] modulo primes[p] (written)."},
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
    "The float dealer kernel (see analyzer/engine/kernel.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dealer(void)
{
    return PyModule_Create(&module);
}
