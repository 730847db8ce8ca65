/* The simulator's round loop in plain C: a benchmark reference, never shipped.
 *
 * A function-by-function translation of analyzer/sim/kernel.py (run_chunk and what it
 * calls): the same flat arrays (st, tab, cfg, laid out by analyzer/sim/layout.py, whose
 * constants bench_simulate.py passes as -DNAME=value so that they cannot drift), the same
 * lazy Fisher-Yates deal, xoshiro256** with Lemire's bounded draw, the same table lookups,
 * branch structure and sums; the deal state in a local struct where the kernel keeps it
 * in a tuple, and inlined where the kernel inlines.  Given the same arrays it produces
 * the same histogram, sums and generator state, which the benchmark checks before it
 * times anything: its speed is that of this project's own algorithm built by a C
 * compiler, not that of another program.
 *
 *     cc -O2 -shared -fPIC -DK=0 ... -o sim_reference.so sim_reference.c
 */

#include <math.h>
#include <stdint.h>

#ifndef SHOE
#error "build with analyzer/sim/layout.py's constants: -DK=0 -DSHOE=32 ... (bench_simulate.py)"
#endif

typedef int64_t i64;
typedef uint64_t u64;
typedef int32_t i32;

#define INLINE static inline __attribute__((always_inline)) /* numba's forceinline */

/* by card code: rank 1-13 plus 16 times the suit (suits coded only where they pay) */
#define RANKS16(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
static const i64 VAL[64] = {RANKS16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 0, 0)};
static const i64 HILO[64] = {RANKS16(0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, 0, 0)};
#define RANK_BITS ((1 << SUIT_SHIFT) - 1)
INLINE i64 suit(i64 c) { return c >> SUIT_SHIFT; }
INLINE int same_rank(i64 c, i64 d) { return (c & RANK_BITS) == (d & RANK_BITS); }
/* the common suit plus 1 of two cards, 0 where they differ or suits are not read */
INLINE i64 suits2(const i64 *cfg, i64 c, i64 d) {
    return cfg[C_SUITS] != 0 && suit(c) == suit(d) ? suit(c) + 1 : 0;
}
static i64 DEALER[2 * 64]; /* [64 h17 + 2 hard + ace]: 0 draw, else the final total */

/* The deal state: the next card's index and the generator's words. */
typedef struct {
    i64 k;
    u64 s0, s1, s2, s3;
} Deal;

INLINE i64 cell(const i32 *tab, i64 node, i64 col) { return tab[node * T_WIDTH + col]; }

INLINE u64 next(Deal *g) {
    u64 s0 = g->s0, s1 = g->s1, s2 = g->s2, s3 = g->s3;
    u64 x = s1 * 5;
    u64 result = ((x << 7) | (x >> 57)) * 9;
    u64 t = s1 << 17;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 45) | (s3 >> 19);
    g->s0 = s0;
    g->s1 = s1;
    g->s2 = s2;
    g->s3 = s3;
    return result;
}

INLINE i64 below(Deal *g, i64 n) {
    u64 un = (u64)n;
    u64 m = (next(g) >> 32) * un;
    u64 low = m & 0xFFFFFFFFu;
    if (low < un) {
        u64 floor = (0x100000000u - un) % un;
        while (low < floor) {
            m = (next(g) >> 32) * un;
            low = m & 0xFFFFFFFFu;
        }
    }
    return (i64)(m >> 32);
}

static i64 reuse_discards(i64 *st) {
    i64 n = st[SIZE], rs = st[RS];
    if (rs == 0) {
        st[ERR] = ERR_EMPTY;
        return 0;
    }
    i64 los[3] = {0, rs, 0}, his[3] = {rs, n, n};
    for (int r = 0; r < 3; r++) {
        i64 i = SHOE + los[r], j = SHOE + his[r] - 1;
        while (i < j) {
            i64 t = st[i];
            st[i] = st[j];
            st[j] = t;
            i++;
            j--;
        }
    }
    st[RS] = 0;
    st[RUNOUT] = 1;
    return n - rs;
}

INLINE i64 draw(i64 *st, i64 n, i64 stacked, Deal *g) {
    i64 k = g->k;
    if (k >= n) k = reuse_discards(st);
    i64 j = stacked != 0 ? SHOE + k : SHOE + k + below(g, n - k);
    i64 c = st[j];
    st[j] = st[SHOE + k];
    st[SHOE + k] = c;
    g->k = k + 1;
    return c;
}

/* a later decision from a hit-table cell: bits shift..shift+2 (0 unsplit, 3 split hand) */
INLINE i64 later(i64 c, i64 shift) { return c < 0 ? c : (c >> shift) & 7; }

/* three << 15 | level << 12 | state << 10 | cards << 5 | total (three: a three-card
   6-7-8, 4 + 8 case, or 7-7-7, 5 + 8 case; case 0 mixed, 1 one suit, 2 spades): state 0 bust / 1 stands / 2 Charlie /
   3 given up after a double (DDR: the cell's bit 5 + level where a paid double's card
   landed) or after hitting (SAH: the cell says surrender); level the doublings, again
   where the cell's bit 9 + level is set (RDn) */
INLINE i64 play(i64 *st, const i32 *tab, i64 charlie, i64 a21, i64 col, i64 node, i64 act,
                i64 shift, i64 rescue, i64 suits, i64 n, i64 stacked, Deal *g) {
    if (act < 0) st[ERR] = ERR_TABLE;
    i64 state = 1, level = 0;
    while (act == HIT || act == DOUBLE) {
        if (act == DOUBLE) level += 1;
        i64 drawn = draw(st, n, stacked, g);
        i64 child = cell(tab, node, VAL[drawn] - 1);
        if (child < 0) {
            if (child == -2) st[ERR] = ERR_IMPOSSIBLE;
            state = 0;
            break;
        }
        node = child;
        if (suits != 0 && cell(tab, node, T_NCARDS) == 3 && suit(drawn) + 1 != suits) suits = 0;
        if (cell(tab, node, T_NCARDS) >= charlie) {
            state = 2;
            break;
        }
        if (act == DOUBLE) {
            i64 c = cell(tab, node, col);
            if (c >= 0 && rescue != 0 && ((c >> (5 + level)) & 1) != 0) {
                state = 3;
                break;
            }
            if (c < 0 || ((c >> (9 + level)) & 1) == 0) break;
            continue;
        }
        if (a21 != 0 && cell(tab, node, T_TOTAL) == 21) break;
        act = later(cell(tab, node, col), shift);
        if (act == SURRENDER)
            state = 3;
        else if (act < 0)
            st[ERR] = ERR_TABLE;
    }
    i64 three = 0, kind = cell(tab, node, T_THREE);
    if (kind != 0) three = 3 + kind + 8 * (suits == 0 ? 0 : suits == 1 ? 2 : 1);
    return three << 15 | level << 12 | state << 10 | (i64)cell(tab, node, T_NCARDS) << 5
           | cell(tab, node, T_TOTAL);
}

/* a played paid hand into its row, in ticks: a free double loses the own bet only, a hand
   given up loses half its stake, a standing 21 of five or more cards wins its bonus (not
   doubled under BND, not split under BNS), a three-card 6-7-8 or 7-7-7 its pay by suits
   (the same conditions), a suited 7-7-7 neither doubled nor split the Super Bonus
   against an upcard u 7 */
INLINE void record(i64 *row, const i64 *cfg, i64 hand, int free_double, int split_, i64 u) {
    i64 ticks = cfg[C_TICKS];
    i64 total = hand & 31, cards = (hand >> 5) & 31, state = (hand >> 10) & 3,
        level = (hand >> 12) & 7, three = hand >> 15;
    i64 stake = (i64)1 << level;
    row[1] = total;
    if (state == 3) {
        row[0] = 0;
        row[2] = 0;
        row[3] = (stake * ticks) >> 1;
        return;
    }
    i64 win = ticks;
    if (total == 21 && cards >= 5 && !(level > 0 && cfg[C_BND] != 0)
        && !(split_ && cfg[C_BNS] != 0))
        win = cfg[C_BONUS5 + (cards < 7 ? cards : 7) - 5];
    else if (three != 0 && cfg[C_SUITS] != 0 && !(level > 0 && cfg[C_BND] != 0)
             && !(split_ && cfg[C_BNS] != 0)) {
        i64 kind = (three & 7) - 4, case_ = three >> 3;
        win = cfg[C_THREE + 3 * kind + case_];
        if (kind == 1 && case_ != 0 && u == 7 && level == 0 && !split_ && cfg[C_SUPER] != 0)
            win = cfg[C_SUPER];
    }
    row[0] = state;
    row[2] = stake * win;
    row[3] = free_double ? ticks : stake * ticks;
}

static i64 split(i64 *st, const i32 *tab, const i64 *cfg, i64 u, i64 pc, i64 n, i64 stacked,
                 Deal *g) {
    i64 p = VAL[pc];
    int free_ = cfg[C_FREE_SPLIT + p] != 0;
    i64 limit = free_ ? 2 : (p == 1 ? cfg[C_ACES_HANDS] : cfg[C_MAX_HANDS]);
    int one_card = p == 1 && cfg[C_ONE_CARD] != 0;
    i64 a21 = cfg[C_A21], charlie = cfg[C_CHARLIE], ticks = cfg[C_TICKS];
    i64 firsts = 2, nh = 0;
    while (nh < firsts) {
        i64 c = draw(st, n, stacked, g);
        i64 b = VAL[c];
        int free_hand = free_ && nh == 1;
        i64 decisions = C_SPLIT_TABLE + 2 * (11 * (11 * u + p) + b);
        i64 act = -1;
        if (same_rank(c, pc) && firsts < limit) {
            act = cfg[decisions + 1];
            if (act == SPLIT) {
                firsts += 1;
                continue;
            }
        }
        i64 node = cell(tab, cell(tab, 0, p - 1), b - 1);
        i64 *row = st + HANDS + 4 * nh;
        if (one_card || (a21 != 0 && cell(tab, node, T_TOTAL) == 21)) {
            row[0] = 1;
            row[1] = cell(tab, node, T_TOTAL);
            row[2] = ticks;
            row[3] = free_hand ? 0 : ticks;
        } else if (free_hand) {
            i64 hand = play(st, tab, charlie, a21, T_FREE + u - 1, node,
                            cell(tab, node, T_FREE + u - 1), 0, 0, 0, n, stacked, g);
            row[0] = (hand >> 10) & 3;
            row[1] = hand & 31;
            row[2] = ticks;
            row[3] = 0;
        } else {
            if (act < 0) act = cfg[decisions];
            record(row, cfg, play(st, tab, charlie, a21, T_HIT + u - 1, node, act, 3, 1,
                                  suits2(cfg, pc, c), n, stacked, g), 0, 1, u);
        }
        nh += 1;
    }
    return nh;
}

INLINE i64 dealer(i64 *st, i64 h17, i64 u, i64 hv, i64 n, i64 stacked, Deal *g) {
    i64 base = 64 * h17;
    i64 s = 2 * (u + hv) + (u == 1 || hv == 1 ? 1 : 0);
    i64 d = DEALER[base + s];
    while (d == 0) {
        i64 v = VAL[draw(st, n, stacked, g)];
        s = (s + 2 * v) | (v == 1 ? 1 : 0);
        d = DEALER[base + s];
    }
    return d;
}

INLINE i64 settle(i64 *st, const i64 *cfg, i64 u, i64 hole, i64 peeked, i64 nh, i64 n,
                  i64 stacked, Deal *g) {
    int live = 0, unbusted = 0;
    for (i64 h = 0; h < nh; h++) {
        live = live || st[HANDS + 4 * h] == 1;
        unbusted = unbusted || st[HANDS + 4 * h] != 0;
    }
    int takes_all = cfg[C_TAKES_ALL] != 0;
    int check_bj = (u == 1 || u == 10) && peeked == 0 && (unbusted || !takes_all);
    if (cfg[C_ENHC] != 0 && (live || check_bj)) hole = draw(st, n, stacked, g);
    i64 hv = VAL[hole];
    if (check_bj && hv + u == 11) {
        i64 gain = 0, lost = 0;
        for (i64 h = 0; h < nh; h++) {
            if (st[HANDS + 4 * h] == 2 && cfg[C_CHBJ] != 0)
                gain += st[HANDS + 4 * h + 2];
            else
                lost += st[HANDS + 4 * h + 3];
        }
        return gain - (takes_all ? lost : (lost < cfg[C_TICKS] ? lost : cfg[C_TICKS]));
    }
    i64 d = 0;
    if (live) d = dealer(st, cfg[C_H17] != 0 ? 1 : 0, u, hv, n, stacked, g);
    int p22 = cfg[C_P22] != 0;
    int p21w = cfg[C_P21W] != 0;
    i64 result = 0;
    for (i64 h = 0; h < nh; h++) {
        i64 row = HANDS + 4 * h;
        i64 state = st[row], total = st[row + 1];
        if (state == 0)
            result -= st[row + 3];
        else if (state == 2 || d > 22 || (d == 22 && !p22) || d < total
                 || (p21w && total == 21))
            result += st[row + 2];
        else if (total < d && d <= 21)
            result -= st[row + 3];
    }
    return result;
}

/* the first action by suits of 6-7, 6-8, 7-8, 7-7 (-1: by ranks) */
INLINE i64 by_suits(const i64 *cfg, i64 u, i64 up, i64 a, i64 b, i64 c1, i64 c2) {
    i64 lo = a < b ? a : b, hi = a < b ? b : a;
    if (lo < 6 || hi > 8 || (lo == hi && lo != 7)) return -1;
    i64 hand = lo == hi ? 3 : lo + hi - 13;
    i64 same = suits2(cfg, c1, c2), case_ = 0;
    if (same != 0) {
        i64 apart = u == 21 - a - b && suit(up) + 1 != same ? 1 : 0;
        case_ = (same == 1 ? 1 : 3) + apart;
    }
    return cfg[C_SUITED + SUIT_CASES * (4 * u + hand) + case_];
}

static i64 floordiv(i64 a, i64 b) { /* Python's // */
    i64 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

INLINE i64 round_(i64 *st, const i32 *tab, const i64 *cfg, i64 n, i64 stacked, Deal *g) {
    i64 ticks = cfg[C_TICKS];
    int enhc = cfg[C_ENHC] != 0;
    i64 c1 = draw(st, n, stacked, g);
    i64 up = draw(st, n, stacked, g);
    i64 c2 = draw(st, n, stacked, g);
    i64 u = VAL[up], a = VAL[c1], b = VAL[c2];
    i64 hole = 0;
    if (!enhc) hole = draw(st, n, stacked, g);
    int may_bj = u == 1 || u == 10;
    i64 peek = cfg[C_PEEK + u];
    if (a + b == 11 && (a == 1 || b == 1)) {
        i64 paid = cfg[C_BJ];
        if (cfg[C_SBJ] != 0 && suit(c1) == suit(c2)) paid = cfg[C_SBJ];
        if (may_bj) {
            if (enhc) hole = draw(st, n, stacked, g);
            if (VAL[hole] + u == 11) return cfg[C_BJW] != 0 ? paid : 0;
        }
        return paid;
    }
    i64 node = cell(tab, cell(tab, 0, a - 1), b - 1);
    i64 pair = same_rank(c1, c2) && cfg[C_CAN_SPLIT + a] != 0 ? 1 : 0;
    i64 act = cell(tab, node, T_FIRST + 2 * (u - 1) + pair);
    if (cfg[C_SUITS] != 0) {
        i64 chosen = by_suits(cfg, u, up, a, b, c1, c2);
        if (chosen >= 0) act = chosen;
    }
    if (act < 0) st[ERR] = ERR_TABLE;
    if (act == SURRENDER && cfg[C_EARLY] != 0) return floordiv(-ticks, 2);
    if (peek != 0 && VAL[hole] + u == 11) return -ticks;
    if (act == SURRENDER) {
        if (may_bj && peek == 0) {
            if (enhc) hole = draw(st, n, stacked, g);
            if (VAL[hole] + u == 11) return -ticks;
        }
        return floordiv(-ticks, 2);
    }
    i64 nh;
    if (act == SPLIT) {
        nh = split(st, tab, cfg, u, c1, n, stacked, g);
    } else {
        int free_double = act == DOUBLE && cfg[C_FREE_DOUBLE + 11 * a + b] != 0;
        record(st + HANDS, cfg, play(st, tab, cfg[C_CHARLIE], cfg[C_A21], T_HIT + u - 1, node,
                                     act, 0, free_double ? 0 : 1, suits2(cfg, c1, c2), n,
                                     stacked, g),
               free_double, 0, u);
        nh = 1;
    }
    return settle(st, cfg, u, hole, peek, nh, n, stacked, g);
}

static void add_shoe(i64 *shoe_acc, i64 s, i64 m) {
    if (m > 0) {
        shoe_acc[0] += 1;
        shoe_acc[1] += s;
        shoe_acc[2] += s * s;
        shoe_acc[3] += m;
        shoe_acc[4] += m * m;
        shoe_acc[5] += s * m;
    }
}

/* kernel.py's run_chunk; tc_acc is (2 TC_MAX + 1) x 6 and records nrec x 3, row-major. */
i64 run_chunk(i64 nrounds, i64 *st, const i32 *tab, const i64 *cfg, i64 *hist, i64 nbins,
              i64 *shoe_acc, i64 *tc_acc, double *records, i64 nrec) {
    for (int h17 = 0; h17 < 2; h17++) /* kernel.py's _dealer_table */
        for (int state = 0; state < 64; state++) {
            i64 hard = state >> 1;
            int soft = (state & 1) == 1 && hard <= 11;
            i64 d = soft ? hard + 10 : hard;
            DEALER[64 * h17 + state] = d > 17 || (d == 17 && !(soft && h17)) ? d : 0;
        }
    i64 n = st[SIZE], stacked = st[STACKED];
    i64 cut = cfg[C_CUT], low = cfg[C_LOW];
    int counting = cfg[C_COUNTING] != 0;
    i64 spread_lo = cfg[C_SPREAD_LO], spread_hi = cfg[C_SPREAD_HI];
    int record = nrec >= nrounds;
    Deal g = {st[K], (u64)st[RNG], (u64)st[RNG + 1], (u64)st[RNG + 2], (u64)st[RNG + 3]};
    i64 rc = st[RC];
    i64 shoe_s = st[SHOE_S], shoe_n = st[SHOE_N];
    i64 sx = 0, sxx = 0, sw = 0, sww = 0;
    for (i64 i = 0; i < nrounds; i++) {
        if (cut == 0) {
            g.k = 0;
            rc = 0;
        }
        i64 k = g.k;
        st[RS] = k;
        i64 bet = 1, floor_tc = 0;
        double tc = 0.0;
        if (counting) {
            tc = (double)rc * 52.0 / (double)(n - k);
            floor_tc = (i64)floor(tc);
            bet = floor_tc > spread_lo ? floor_tc : spread_lo;
            bet = bet < spread_hi ? bet : spread_hi;
        }
        if (record) {
            records[3 * i] = tc;
            records[3 * i + 2] = (double)k;
        }
        i64 x = round_(st, tab, cfg, n, stacked, &g);
        if (record) records[3 * i + 1] = (double)x;
        i64 j = x - low;
        if (j < 0 || j >= nbins)
            st[ERR] = ERR_RANGE;
        else
            hist[j] += 1;
        i64 w = bet * x;
        if (counting) {
            for (i64 q = SHOE + st[RS]; q < SHOE + g.k; q++) rc += HILO[st[q]];
            i64 sign = (floor_tc > 0) - (floor_tc < 0);
            i64 b = (-TC_MAX < floor_tc && floor_tc < TC_MAX ? floor_tc : sign * TC_MAX) + TC_MAX;
            i64 *acc = tc_acc + 6 * b;
            acc[0] += 1;
            acc[1] += x;
            acc[2] += x * x;
            acc[3] += bet;
            acc[4] += w;
            acc[5] += w * w;
        } else {
            sx += x;
            sxx += x * x;
        }
        if (cut == 0) {
            sw += w;
            sww += w * w;
        } else {
            shoe_n += 1;
            shoe_s += w;
            if (g.k >= cut || st[RUNOUT] != 0) {
                add_shoe(shoe_acc, shoe_s, shoe_n);
                shoe_s = shoe_n = 0;
                g.k = 0;
                rc = 0;
                st[RUNOUT] = 0;
            }
        }
    }
    if (!counting) {
        i64 *acc = tc_acc + 6 * TC_MAX;
        acc[0] += nrounds;
        acc[1] += sx;
        acc[2] += sxx;
        acc[3] += nrounds;
        acc[4] += sx;
        acc[5] += sxx;
    }
    if (cut == 0 && nrounds > 0) {
        shoe_acc[0] += nrounds;
        shoe_acc[1] += sw;
        shoe_acc[2] += sww;
        shoe_acc[3] += nrounds;
        shoe_acc[4] += nrounds;
        shoe_acc[5] += sw;
        g.k = 0;
        rc = 0;
        st[RUNOUT] = 0;
    }
    st[K] = g.k;
    st[RC] = rc;
    st[SHOE_S] = shoe_s;
    st[SHOE_N] = shoe_n;
    st[RNG] = (i64)g.s0;
    st[RNG + 1] = (i64)g.s1;
    st[RNG + 2] = (i64)g.s2;
    st[RNG + 3] = (i64)g.s3;
    return st[ERR];
}

/* kernel.py's close_shoe */
void close_shoe(i64 *st, i64 *shoe_acc) {
    add_shoe(shoe_acc, st[SHOE_S], st[SHOE_N]);
    st[SHOE_S] = 0;
    st[SHOE_N] = 0;
    st[K] = 0;
    st[RC] = 0;
    st[RUNOUT] = 0;
}
