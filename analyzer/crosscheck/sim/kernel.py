"""The compiled inner loop: deal, play by table, let the dealer draw, settle - per round.

Everything here is the simulator's own game code (independent of
``analyzer.engine`` on purpose): a real shoe of card codes (ranks 1-13 when
pairs split by rank, so J-Q is not a pair), dealt by a lazy Fisher-Yates
shuffle - the ``k``-th card is drawn uniformly from the ``n - k`` not yet
dealt and swapped into place, which is exactly a shuffled shoe dealt in order,
at the cost of one random number per card dealt.  Without a cut card every
round restarts at ``k = 0`` (a fresh shuffle of the whole shoe); with one the
shoe is dealt round after round and reshuffled once ``cut`` cards are out.

Random numbers: xoshiro256** (Blackman and Vigna, "Scrambled linear
pseudorandom number generators", ACM TOMS 47, 2021), bounded without bias by
Lemire's multiply-and-reject ("Fast random integer generation in an
interval", ACM TOMACS 29, 2019) on its upper 32 bits.

Conventions: deal order player, upcard, player, hole card (after the players
under ENHC); insurance never taken; early surrender before the peek, late
after it (without a peek, a dealer blackjack voids it).  An unchecked dealer
blackjack takes every paid bet, or under OBO the original bet only
(``min(1, paid money of the losing hands)``, busted hands included); free bets
never cost anything, a player blackjack pushes it, and a Charlie beats it only
with CHBJ.  Results are whole numbers of ticks (``cfg[C_TICKS]`` per unit bet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

from analyzer.crosscheck.sim.layout import (
    C_A21,
    C_ACES_HANDS,
    C_BJ,
    C_CAN_SPLIT,
    C_CHARLIE,
    C_CHBJ,
    C_COUNTING,
    C_CUT,
    C_EARLY,
    C_ENHC,
    C_FREE_DOUBLE,
    C_FREE_SPLIT,
    C_H17,
    C_LOW,
    C_MAX_HANDS,
    C_ONE_CARD,
    C_P22,
    C_PEEK,
    C_SPLIT_TABLE,
    C_SPREAD_HI,
    C_SPREAD_LO,
    C_TAKES_ALL,
    C_TICKS,
    DOUBLE,
    ERR,
    ERR_EMPTY,
    ERR_IMPOSSIBLE,
    ERR_RANGE,
    ERR_TABLE,
    HANDS,
    HIT,
    RC,
    RNG,
    RS,
    RUNOUT,
    SHOE,
    SHOE_N,
    SHOE_S,
    SIZE,
    SPLIT,
    STACKED,
    SURRENDER,
    T_FIRST,
    T_FREE,
    T_HIT,
    T_NCARDS,
    T_TOTAL,
    TC_MAX,
    K,
)

_VAL = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], dtype=np.int64)
_HILO = np.array([0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1], dtype=np.int64)
_U32 = np.uint64(0xFFFFFFFF)
# Small helpers are inlined by LLVM (forceinline); the rest are plain calls without
# reference counting (_nrt=False: nothing here allocates), which keeps them cheap.
_F = TypeVar("_F", bound=Callable[..., Any])
_INNER = {"_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
_INLINE = {**_INNER, "forceinline": True}
_ENTRY = {"_nrt": False, "cache": True, "nogil": True}  # called from Python, cached on disk


def njit(**options: Any) -> Callable[[_F], _F]:
    """``numba.njit`` with options its type stubs do not list (``_nrt``, wrappers)."""
    jit: Any = numba.njit
    decorator: Callable[[_F], _F] = jit(**options)
    return decorator


@njit(**_INLINE)
def _next(st: Any) -> Any:
    """One xoshiro256** output; the state is ``st[RNG:RNG + 4]`` (int64 bits)."""
    s0, s1 = np.uint64(st[RNG]), np.uint64(st[RNG + 1])
    s2, s3 = np.uint64(st[RNG + 2]), np.uint64(st[RNG + 3])
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    st[RNG], st[RNG + 1] = np.int64(s0), np.int64(s1)
    st[RNG + 2], st[RNG + 3] = np.int64(s2), np.int64(s3)
    return result


@njit(**_INLINE)
def _below(st: Any, n: Any) -> Any:
    """Uniform integer in ``[0, n)``, ``n < 2**32``, without modulo bias."""
    un = np.uint64(n)
    m = (_next(st) >> np.uint64(32)) * un
    low = m & _U32
    if low < un:
        floor = (np.uint64(0x100000000) - un) % un
        while low < floor:
            m = (_next(st) >> np.uint64(32)) * un
            low = m & _U32
    return np.int64(m >> np.uint64(32))


@njit(**_INNER)
def _reuse_discards(st: Any) -> Any:
    """The shoe ran out mid-round: the earlier rounds' discards are shuffled in, as on the
    floor (the round's own cards rotate to the front, in place, by three reversals); the
    shoe is renewed after the round."""
    n, rs = st[SIZE], st[RS]
    if rs == 0:  # the round holds every card: impossible with whole decks
        st[ERR] = ERR_EMPTY
        st[K] = 0
        return 0
    for lo, hi in ((0, rs), (rs, n), (0, n)):
        i, j = SHOE + lo, SHOE + hi - 1
        while i < j:
            st[i], st[j] = st[j], st[i]
            i += 1
            j -= 1
    st[RS] = 0
    st[K] = n - rs
    st[RUNOUT] = 1
    rc = 0
    for i in range(n - rs):
        rc += _HILO[st[SHOE + i]]
    st[RC] = rc
    return n - rs


@njit(**_INLINE)
def _draw(st: Any) -> Any:
    """The next card of the shoe (lazy Fisher-Yates), counted."""
    k, n = st[K], st[SIZE]
    if k >= n:
        k = _reuse_discards(st)
    j = SHOE + k if st[STACKED] != 0 else SHOE + k + _below(st, n - k)
    c = st[j]
    st[j] = st[SHOE + k]
    st[SHOE + k] = c
    st[K] = k + 1
    st[RC] += _HILO[c]
    return c


@njit(**_INNER)
def _play(st: Any, tab: Any, cfg: Any, u: Any, node: Any, act: Any, win: Any, loss: Any,
          free: Any, h: Any) -> None:
    """Play a two-card hand from its first action; hand ``h`` gets (state 0 bust / 1 stands
    / 2 Charlie, total, what it wins, what it loses).  Every argument is an int64 (``free``
    0 or 1), so one compiled specialisation serves every call."""
    col = (T_FREE if free != 0 else T_HIT) + u - 1
    if act < 0:
        st[ERR] = ERR_TABLE
    state = 1
    while act == HIT or act == DOUBLE:  # noqa: SIM109 (numba: no tuple test)
        child = tab[node, _VAL[_draw(st)] - 1]
        if child < 0:
            if child == -2:
                st[ERR] = ERR_IMPOSSIBLE
            state = 0
            break
        node = child
        if tab[node, T_NCARDS] >= cfg[C_CHARLIE]:
            state = 2
            break
        if act == DOUBLE or (cfg[C_A21] != 0 and tab[node, T_TOTAL] == 21):
            break
        act = tab[node, col]
        if act < 0:
            st[ERR] = ERR_TABLE
    row = HANDS + 4 * h
    st[row], st[row + 1], st[row + 2], st[row + 3] = state, tab[node, T_TOTAL], win, loss


@njit(**_INNER)
def _split(st: Any, tab: Any, cfg: Any, u: Any, pc: Any) -> Any:
    """Play every hand a split of the pair ``pc`` (a card code) leads to; their number."""
    p = _VAL[pc]
    free = cfg[C_FREE_SPLIT + p] != 0
    limit = 2 if free else (cfg[C_ACES_HANDS] if p == 1 else cfg[C_MAX_HANDS])
    one_card = p == 1 and cfg[C_ONE_CARD] != 0
    a21 = cfg[C_A21] != 0
    firsts = 2
    nh = 0
    while nh < firsts:
        c = _draw(st)
        b = _VAL[c]
        free_hand = free and nh == 1
        decisions = C_SPLIT_TABLE + 2 * (11 * (11 * u + p) + b)
        act = -1
        if c == pc and firsts < limit:
            act = cfg[decisions + 1]
            if act == SPLIT:
                firsts += 1
                continue
        node = tab[tab[0, p - 1], b - 1]
        if one_card or (a21 and tab[node, T_TOTAL] == 21):
            row = HANDS + 4 * nh
            st[row], st[row + 1] = 1, tab[node, T_TOTAL]
            st[row + 2], st[row + 3] = 1, 0 if free_hand else 1
        elif free_hand:
            _play(st, tab, cfg, u, np.int64(node), np.int64(tab[node, T_FREE + u - 1]),
                  np.int64(1), np.int64(0), np.int64(1), np.int64(nh))
        else:
            if act < 0:
                act = cfg[decisions]
            stake = np.int64(2 if act == DOUBLE else 1)
            _play(st, tab, cfg, u, np.int64(node), np.int64(act), stake, stake, np.int64(0),
                  np.int64(nh))
        nh += 1
    return nh


@njit(**_INNER)
def _settle(st: Any, cfg: Any, u: Any, hole: Any, peeked: Any, nh: Any) -> Any:
    """The dealer's turn and the payment of every hand, in units of the initial bet."""
    live = False
    unbusted = False
    for h in range(nh):
        live = live or st[HANDS + 4 * h] == 1
        unbusted = unbusted or st[HANDS + 4 * h] != 0
    takes_all = cfg[C_TAKES_ALL] != 0
    check_bj = (u == 1 or u == 10) and peeked == 0 and (unbusted or not takes_all)
    if cfg[C_ENHC] != 0 and (live or check_bj):
        hole = _draw(st)
    hv = _VAL[hole]
    if check_bj and hv + u == 11:  # a dealer blackjack nobody checked
        gain = 0
        lost = 0
        for h in range(nh):
            if st[HANDS + 4 * h] == 2 and cfg[C_CHBJ] != 0:
                gain += st[HANDS + 4 * h + 2]
            else:
                lost += st[HANDS + 4 * h + 3]
        return gain - (lost if takes_all else min(lost, 1))
    hard = u + hv
    ace = u == 1 or hv == 1
    h17 = cfg[C_H17] != 0
    d = 0
    while live:  # the dealer draws only while some hand waits for the total
        soft = ace and hard <= 11
        d = hard + 10 if soft else hard
        if d > 17 or (d == 17 and not (soft and h17)):
            break
        v = _VAL[_draw(st)]
        hard += v
        ace = ace or v == 1
    p22 = cfg[C_P22] != 0
    result = 0
    for h in range(nh):
        row = HANDS + 4 * h
        state, total = st[row], st[row + 1]
        if state == 0:
            result -= st[row + 3]
        elif state == 2 or d > 22 or (d == 22 and not p22) or d < total:
            result += st[row + 2]
        elif total < d <= 21:
            result -= st[row + 3]
    return result


@njit(**_INNER)
def _round(st: Any, tab: Any, cfg: Any) -> Any:
    """One round from the shoe's current position; its result in ticks."""
    ticks = cfg[C_TICKS]
    enhc = cfg[C_ENHC] != 0
    c1 = _draw(st)
    up = _draw(st)
    c2 = _draw(st)
    u, a, b = _VAL[up], _VAL[c1], _VAL[c2]
    hole = np.int64(0)
    if not enhc:
        hole = _draw(st)
    may_bj = u == 1 or u == 10
    peek = cfg[C_PEEK + u]
    if a + b == 11 and (a == 1 or b == 1):  # player blackjack
        if may_bj:
            if enhc:
                hole = _draw(st)
            if _VAL[hole] + u == 11:
                return 0
        return cfg[C_BJ]
    node = tab[tab[0, a - 1], b - 1]
    pair = 1 if c1 == c2 and cfg[C_CAN_SPLIT + a] != 0 else 0
    act = tab[node, T_FIRST + 2 * (u - 1) + pair]
    if act < 0:
        st[ERR] = ERR_TABLE
    if act == SURRENDER and cfg[C_EARLY] != 0:
        return -ticks // 2
    if peek != 0 and _VAL[hole] + u == 11:
        return -ticks
    if act == SURRENDER:
        if may_bj and peek == 0:
            if enhc:
                hole = _draw(st)
            if _VAL[hole] + u == 11:
                return -ticks
        return -ticks // 2
    if act == SPLIT:
        nh = _split(st, tab, cfg, u, c1)
    else:
        stake = np.int64(2 if act == DOUBLE else 1)
        loss = np.int64(1) if cfg[C_FREE_DOUBLE + 11 * a + b] != 0 else stake
        _play(st, tab, cfg, u, np.int64(node), np.int64(act), stake, loss, np.int64(0),
              np.int64(0))
        nh = 1
    return _settle(st, cfg, u, hole, peek, nh) * ticks


@njit(**_ENTRY)
def run_chunk(nrounds: int, st: Any, tab: Any, cfg: Any, hist: Any, shoe_acc: Any,
              tc_acc: Any, records: Any) -> Any:
    """Play ``nrounds`` rounds, continuing the job's shoe and generator; returns an error code.

    Accumulates ``hist`` (rounds by result, from ``cfg[C_LOW]`` ticks), ``shoe_acc``
    (per-shoe sums for the cluster standard error: shoes, S, S^2, N, N^2, S*N of the
    bet-weighted results S and rounds N of each shoe) and ``tc_acc`` (by floored true
    count: rounds, sum and sum of squares of the result, sum of bets, sum and sum of
    squares of the bet-weighted result).  ``records``, when it has ``nrounds`` rows,
    receives each round's true count, result in ticks and cards dealt before it.
    """
    n = st[SIZE]
    cut, low, counting = cfg[C_CUT], cfg[C_LOW], cfg[C_COUNTING] != 0
    nbins = hist.shape[0]
    record = records.shape[0] >= nrounds
    for i in range(nrounds):
        if cut == 0:
            st[K] = 0
            st[RC] = 0
        st[RS] = st[K]
        bet = 1
        floor_tc = np.int64(0)
        tc = 0.0
        if counting:
            tc = st[RC] * 52.0 / (n - st[K])
            floor_tc = np.int64(np.floor(tc))
            bet = min(max(floor_tc, cfg[C_SPREAD_LO]), cfg[C_SPREAD_HI])
        if record:
            records[i, 0] = tc
            records[i, 2] = st[K]
        x = _round(st, tab, cfg)
        if record:
            records[i, 1] = x
        j = x - low
        if j < 0 or j >= nbins:
            st[ERR] = ERR_RANGE
        else:
            hist[j] += 1
        w = bet * x
        b = (floor_tc if -TC_MAX < floor_tc < TC_MAX else np.sign(floor_tc) * TC_MAX) + TC_MAX
        tc_acc[b, 0] += 1
        tc_acc[b, 1] += x
        tc_acc[b, 2] += x * x
        tc_acc[b, 3] += bet
        tc_acc[b, 4] += w
        tc_acc[b, 5] += w * w
        st[SHOE_N] += 1
        st[SHOE_S] += w
        if cut == 0 or st[K] >= cut or st[RUNOUT] != 0:
            close_shoe(st, shoe_acc)
    return st[ERR]


@njit(**_ENTRY)
def close_shoe(st: Any, shoe_acc: Any) -> None:
    """Add the open shoe to the per-shoe sums and start a new one (a full reshuffle)."""
    s, m = st[SHOE_S], st[SHOE_N]
    if m > 0:
        shoe_acc[0] += 1
        shoe_acc[1] += s
        shoe_acc[2] += s * s
        shoe_acc[3] += m
        shoe_acc[4] += m * m
        shoe_acc[5] += s * m
    st[SHOE_S] = 0
    st[SHOE_N] = 0
    st[K] = 0
    st[RC] = 0
    st[RUNOUT] = 0


__all__ = ["close_shoe", "run_chunk"]
