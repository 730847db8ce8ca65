"""Two spots against one dealer hand, simulated: the covariance of their results.

The simulator's own game code (:mod:`analyzer.sim.kernel`: the shuffle, the
deal, a hand's play, a split) dealt to two spots from one freshly shuffled shoe
per round: both spots' first cards, the upcard, both second cards, the hole
card; each spot plays in turn (every hand its own, by the same tables), then
the dealer draws once and settles both.  The rules of settlement are
:func:`analyzer.sim.kernel._settle`'s, spot by spot.  Kept in functions of its
own, beside the one-spot loop.

The covariance comes with its standard error (delta method: the SD of
``(x1 - m1)(x2 - m2)`` over the square root of the rounds), from the joint
histogram of the two results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.core.rules import Rules, format_spec
from analyzer.sim import layout as L
from analyzer.sim.config import SimRules, SimulationError, check_counts, check_size, shoe_codes
from analyzer.sim.kernel import (
    _ENTRY,
    _INNER,
    _by_suits,
    _cell,
    _draw,
    _play_one,
    _same_rank,
    _split,
    _suit,
    _suits,
    _value,
    njit,
)
from analyzer.sim.strategies import strategy_tables
from analyzer.sim.tables import DecisionTables, SimStrategy

SPOTS = 2
FIXED, PLAYED = 0, 1  # a spot's result known before the dealer draws, or its hands wait


@njit(**_INNER)
def _natural(cfg: Any, c1: Any, c2: Any) -> Any:
    """What a natural of these two cards is paid, in ticks (BSBJ: more when suited)."""
    if cfg[L.C_SBJ] != 0 and _suit(c1) == _suit(c2):  # C_SBJ set: suits coded
        return cfg[L.C_SBJ]
    return cfg[L.C_BJ]


@njit(**_INNER)
def _first(tab: Any, cfg: Any, u: Any, up: Any, c1: Any, c2: Any) -> Any:
    """The first action on two cards (the one-spot round's): by the table, or where a suit
    bonus is one card away, by the suits seen (the two cards' and the upcard's)."""
    a, b = _value(c1), _value(c2)
    node = _cell(tab, _cell(tab, 0, a - 1), b - 1)
    pair = 1 if _same_rank(c1, c2) and cfg[L.C_CAN_SPLIT + a] != 0 else 0
    act = _cell(tab, node, L.T_FIRST + 2 * (u - 1) + pair)
    if cfg[L.C_SUITS] != 0:
        by_suits = _by_suits(cfg, u, up, a, b, c1, c2)
        if by_suits >= 0:
            act = by_suits
    return act


@njit(**_INNER)
def _start(st: Any, tab: Any, cfg: Any, u: Any, up: Any, c1: Any, c2: Any, s: Any,
           hands: Any, kind: Any, fixed: Any, n: Any, stacked: Any, g: Any) -> Any:
    """Spot ``s``'s play from its first two cards: its hands copied to ``hands[s]``, or a
    result fixed before the dealer (``fixed[s]``; a natural is marked by ``kind`` 2, its
    pay in ``fixed[s]``, a late surrender by 3, settled against the dealer's blackjack
    later).  Returns the deal state ``g`` moved on (the kernel's registers)."""
    ticks = cfg[L.C_TICKS]
    a, b = _value(c1), _value(c2)
    if a + b == 11 and (a == 1 or b == 1):
        kind[s] = 2
        fixed[s] = _natural(cfg, c1, c2)
        return g
    node = _cell(tab, _cell(tab, 0, a - 1), b - 1)
    act = _first(tab, cfg, u, up, c1, c2)
    if act < 0:
        st[L.ERR] = L.ERR_TABLE
    if act == L.SURRENDER:
        kind[s] = FIXED if cfg[L.C_EARLY] != 0 else 3
        fixed[s] = -ticks // 2
        return g
    kind[s] = PLAYED
    if act == L.SPLIT:
        nh, g = _split(st, tab, cfg, u, c1, n, stacked, g)
    else:
        g = _play_one(st, tab, cfg, u, a, b, node, act, _suits(cfg, c1, c2), n, stacked, g)
        nh = 1
    hands[s, 0, 0] = nh
    for h in range(nh):
        for k in range(4):
            hands[s, h + 1, k] = st[L.HANDS + 4 * h + k]
    return g


@njit(**_INNER)
def _two_spots(st: Any, tab: Any, cfg: Any, hands: Any, kind: Any, fixed: Any,
               out: Any, n: Any, stacked: Any, g: Any) -> Any:
    """One round of two spots; their results in ticks into ``out``; returns ``g``."""
    ticks = cfg[L.C_TICKS]
    enhc = cfg[L.C_ENHC] != 0
    c1a, g = _draw(st, n, stacked, g)
    c1b, g = _draw(st, n, stacked, g)
    up, g = _draw(st, n, stacked, g)
    c2a, g = _draw(st, n, stacked, g)
    c2b, g = _draw(st, n, stacked, g)
    u = _value(up)
    hole = np.int64(0)
    if not enhc:
        hole, g = _draw(st, n, stacked, g)
    peek = cfg[L.C_PEEK + u]
    # Decisions before the peek (early surrender), then the peek.
    for s in range(SPOTS):
        kind[s] = -1
        fixed[s] = 0
    if peek != 0 and _value(hole) + u == 11:
        for s in range(SPOTS):
            ca, cb = (c1a, c2a) if s == 0 else (c1b, c2b)
            a, b = _value(ca), _value(cb)
            if a + b == 11 and (a == 1 or b == 1):  # pushes, or is paid too under BJW
                out[s] = _natural(cfg, ca, cb) if cfg[L.C_BJW] != 0 else 0
                continue
            act = _first(tab, cfg, u, up, ca, cb)
            early = act == L.SURRENDER and cfg[L.C_EARLY] != 0
            out[s] = -ticks // 2 if early else -ticks
        return g
    g = _start(st, tab, cfg, u, up, c1a, c2a, 0, hands, kind, fixed, n, stacked, g)
    g = _start(st, tab, cfg, u, up, c1b, c2b, 1, hands, kind, fixed, n, stacked, g)
    if enhc:
        hole, g = _draw(st, n, stacked, g)
    hv = _value(hole)
    dealer_bj = (u == 1 or u == 10) and hv + u == 11 and peek == 0
    takes_all = cfg[L.C_TAKES_ALL] != 0
    live = False
    for s in range(SPOTS):
        if kind[s] == PLAYED:
            for h in range(hands[s, 0, 0]):
                live = live or hands[s, h + 1, 0] == 1
    hard = u + hv
    ace = u == 1 or hv == 1
    h17 = cfg[L.C_H17] != 0
    d = 0
    while live and not dealer_bj:
        soft = ace and hard <= 11
        d = hard + 10 if soft else hard
        if d > 17 or (d == 17 and not (soft and h17)):
            break
        c, g = _draw(st, n, stacked, g)
        v = _value(c)
        hard += v
        ace = ace or v == 1
    p22 = cfg[L.C_P22] != 0
    p21w = cfg[L.C_P21W] != 0
    for s in range(SPOTS):
        if kind[s] == 2:  # a natural: pushes a blackjack (paid under BJW), else paid
            out[s] = 0 if dealer_bj and cfg[L.C_BJW] == 0 else fixed[s]
        elif kind[s] == 3:  # late surrender: an unchecked blackjack takes the whole bet
            out[s] = -ticks if dealer_bj else -ticks // 2
        elif kind[s] == FIXED:
            out[s] = fixed[s]
        elif dealer_bj:
            gain = 0
            lost = 0
            for h in range(hands[s, 0, 0]):
                if hands[s, h + 1, 0] == 2 and cfg[L.C_CHBJ] != 0:
                    gain += hands[s, h + 1, 2]
                else:
                    lost += hands[s, h + 1, 3]
            out[s] = gain - (lost if takes_all else min(lost, ticks))
        else:
            result = 0
            for h in range(hands[s, 0, 0]):
                state, total = hands[s, h + 1, 0], hands[s, h + 1, 1]
                if state == 0:
                    result -= hands[s, h + 1, 3]
                elif (state == 2 or d > 22 or (d == 22 and not p22) or d < total
                      or (p21w and total == 21)):
                    result += hands[s, h + 1, 2]
                elif total < d <= 21:
                    result -= hands[s, h + 1, 3]
            out[s] = result
    return g


@njit(**_ENTRY)
def run_two_spots(nrounds: int, st: Any, tab: Any, cfg: Any, joint: Any, hands: Any,
                  kind: Any, fixed: Any, out: Any) -> Any:
    """Play ``nrounds`` two-spot rounds, each off a fresh shuffle; ``joint[x1 - low,
    x2 - low]`` counts the rounds by both results (ticks).  Returns an error code."""
    low = cfg[L.C_LOW]
    nbins = joint.shape[0]
    n, stacked = st[L.SIZE], st[L.STACKED]
    g = (st[L.K], np.uint64(st[L.RNG]), np.uint64(st[L.RNG + 1]), np.uint64(st[L.RNG + 2]),
         np.uint64(st[L.RNG + 3]))
    for _ in range(nrounds):
        g = (0, g[1], g[2], g[3], g[4])  # a fresh shuffle each round
        st[L.RS] = 0
        g = _two_spots(st, tab, cfg, hands, kind, fixed, out, n, stacked, g)
        i, j = out[0] - low, out[1] - low
        if i < 0 or j < 0 or i >= nbins or j >= nbins:
            st[L.ERR] = L.ERR_RANGE
        else:
            joint[i, j] += 1
    st[L.RNG], st[L.RNG + 1] = np.int64(g[1]), np.int64(g[2])
    st[L.RNG + 2], st[L.RNG + 3] = np.int64(g[3]), np.int64(g[4])
    return st[L.ERR]


@dataclass(frozen=True)
class SpotsResult:
    """Two simulated spots: each spot's mean and variance, their covariance and its SE."""

    rules: str
    strategy: str
    rounds: int
    seed: int
    mean: float
    variance: float
    covariance: float
    covariance_se: float


def _moments(joint: np.ndarray[Any, Any], low: int, ticks: int) -> tuple[float, float, float,
                                                                          float]:
    """Mean, variance (both spots pooled), covariance and its SE from the joint counts."""
    n = float(joint.sum())
    x = (np.arange(joint.shape[0]) + low) / ticks
    p = joint / n
    m1, m2 = float(p.sum(axis=1) @ x), float(p.sum(axis=0) @ x)
    v = (float(p.sum(axis=1) @ (x - m1) ** 2) + float(p.sum(axis=0) @ (x - m2) ** 2)) / 2
    prod = np.outer(x - m1, x - m2)
    c = float((p * prod).sum())
    se = math.sqrt(max(float((p * (prod - c) ** 2).sum()), 0.0) / n)
    return (m1 + m2) / 2, v, c, se


STREAMS = 2  # the seed's child streams: the figures depend on them, so they are fixed


def simulate_spots(rules: Rules, rounds: int, *, seed: int, streams: int = STREAMS,
                   strategy: str | SimStrategy | DecisionTables | None = None) -> SpotsResult:
    """Play ``rounds`` rounds of two spots off a full shoe each; the covariance of their
    results.  ``streams`` streams of the seed's children, played one after the other and
    summed: the same figures for the same ``seed`` and ``streams``, whatever the cores
    (``bja distribution --spots`` once took its ``--jobs`` for the streams, so its
    simulated covariance changed with them)."""
    jobs = streams
    check_counts(rounds, jobs, seed)
    check_size(rules, rounds, jobs, 0)
    sr = SimRules.of(rules)
    tables, name = strategy_tables(rules, strategy)
    cfg = sr.cfg(0, None, tables.split, tables.suited)
    tab = tables.packed().reshape(-1)  # the kernel indexes rows itself
    shoe = shoe_codes(rules)
    width = sr.bins
    joint = np.zeros((width, width), np.int64)
    root = np.random.SeedSequence(seed)
    shares = [rounds // jobs + (i < rounds % jobs) for i in range(jobs)]
    for share, child in zip(shares, root.spawn(jobs), strict=True):
        st = np.zeros(L.SHOE + len(shoe), np.int64)
        st[L.SHOE:] = shoe
        st[L.SIZE] = len(shoe)
        rng = child.generate_state(4, np.uint64)
        if not rng.any():  # pragma: no cover - xoshiro's one forbidden state
            rng[0] = 1
        st[L.RNG:L.RNG + 4] = rng.view(np.int64)
        hands = np.zeros((SPOTS, 9, 4), np.int64)
        err = run_two_spots(share, st, tab, cfg, joint, hands, np.zeros(SPOTS, np.int64),
                            np.zeros(SPOTS, np.int64), np.zeros(SPOTS, np.int64))
        if err:
            raise SimulationError(f"two-spot simulation failed (error {int(err)})")
    mean, variance, cov, se = _moments(joint, sr.low, sr.ticks)
    return SpotsResult(rules=format_spec(rules), strategy=name, rounds=rounds, seed=seed,
                       mean=mean, variance=variance, covariance=cov, covariance_se=se)


__all__ = ["STREAMS", "SpotsResult", "run_two_spots", "simulate_spots"]
