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

Speed: a round is a chain of dependent lookups and data-dependent branches, so
the loop keeps off memory what it can.  The deal state (next card, generator
words) travels as a tuple through inlined functions, in registers; the dealer
draws by a stop table (one lookup, one branch a card); lookups use unsigned
indices (no negative-index fix-up); sums that every round adds to the same
place are added once a chunk.  None of this changes a card dealt or a sum for a
given seed; ``benchmarks/sim_reference.c`` is the same loop in C, to measure against.

Conventions: deal order player, upcard, player, hole card (after the players
under ENHC); insurance never taken; early surrender before the peek, late
after it (without a peek, a dealer blackjack voids it).  An unchecked dealer
blackjack takes every paid bet, or under OBO the original bet only
(``min(1 bet, paid money of the losing hands)``, busted hands included); free bets
never cost anything, a player blackjack pushes it, and a Charlie beats it only
with CHBJ.  Results are whole numbers of ticks (``cfg[C_TICKS]`` per unit bet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np
import numpy.typing as npt

from analyzer.sim.layout import (
    C_A21,
    C_ACES_HANDS,
    C_BJ,
    C_BJW,
    C_BND,
    C_BNS,
    C_BONUS5,
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
    C_P21W,
    C_P22,
    C_PEEK,
    C_SBJ,
    C_SPLIT_TABLE,
    C_SPREAD_HI,
    C_SPREAD_LO,
    C_SUITED,
    C_SUITS,
    C_SUPER,
    C_TAKES_ALL,
    C_THREE,
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
    SUIT_CASES,
    SUIT_SHIFT,
    SURRENDER,
    T_FIRST,
    T_FREE,
    T_HIT,
    T_NCARDS,
    T_THREE,
    T_TOTAL,
    T_WIDTH,
    TC_MAX,
    K,
)

# By card code: rank 1-13 plus 16 times the suit (suits are coded only where they pay).
_VAL = np.tile(np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 0, 0], dtype=np.int64), 4)
_HILO = np.tile(np.array([0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, 0, 0], dtype=np.int64),
                4)
_RANK = (1 << SUIT_SHIFT) - 1  # a code's rank bits
_U32 = np.uint64(0xFFFFFFFF)


def _dealer_table() -> npt.NDArray[np.int64]:
    """The dealer's stop, ``[64 * h17 + 2 * hard + ace]``: 0 to draw, else the final total
    (hard totals to 31, past any stop plus a ten)."""
    table = np.zeros(2 * 64, dtype=np.int64)
    for h17 in (0, 1):
        for state in range(64):
            hard, ace = state >> 1, state & 1
            soft = ace == 1 and hard <= 11
            d = hard + 10 if soft else hard
            table[64 * h17 + state] = d if d > 17 or (d == 17 and not (soft and h17)) else 0
    return table


_DEALER = _dealer_table()
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
def _ix(i: Any) -> Any:
    """An index known not to be negative, as numba's unsigned type: numba then leaves out
    its negative-index fix-up, a compare and an add on every lookup of the hot loop."""
    return np.uint64(i)


@njit(**_INLINE)
def _value(c: Any) -> Any:
    """The value (1-10) of card code ``c``."""
    return _VAL[_ix(c)]


@njit(**_INLINE)
def _suit(c: Any) -> Any:
    """The suit (0-3, 0 spades) of card code ``c``, where suits are coded."""
    return c >> SUIT_SHIFT


@njit(**_INLINE)
def _same_rank(c: Any, d: Any) -> Any:
    """Whether card codes ``c`` and ``d`` are of one rank (a pair), whatever their suits."""
    return (c & _RANK) == (d & _RANK)


@njit(**_INLINE)
def _cell(tab: Any, node: Any, col: Any) -> Any:
    """Column ``col`` of hand ``node``'s row of the flat decision table."""
    return tab[_ix(node * T_WIDTH + col)]


@njit(**_INLINE)
def _next(g: Any) -> Any:
    """One xoshiro256** output and the generator moved on; ``g`` is the deal state
    ``(k, s0, s1, s2, s3)``: the next card's index and the generator's four words."""
    k, s0, s1, s2, s3 = g
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result, (k, s0, s1, s2, s3)


@njit(**_INLINE)
def _below(g: Any, n: Any) -> Any:
    """Uniform integer in ``[0, n)``, ``n < 2**32``, without modulo bias; and ``g`` moved on."""
    un = np.uint64(n)
    r, g = _next(g)
    m = (r >> np.uint64(32)) * un
    low = m & _U32
    if low < un:
        floor = (np.uint64(0x100000000) - un) % un
        while low < floor:
            r, g = _next(g)
            m = (r >> np.uint64(32)) * un
            low = m & _U32
    return np.int64(m >> np.uint64(32)), g


@njit(**_INNER)
def _reuse_discards(st: Any) -> Any:
    """The shoe ran out mid-round: the earlier rounds' discards are shuffled in, as on the
    floor (the round's own cards rotate to the front, in place, by three reversals); the
    shoe is renewed after the round.  Returns the next card's index."""
    n, rs = st[SIZE], st[RS]
    if rs == 0:  # the round holds every card: impossible with whole decks
        st[ERR] = ERR_EMPTY
        return 0
    for lo, hi in ((0, rs), (rs, n), (0, n)):
        i, j = SHOE + lo, SHOE + hi - 1
        while i < j:
            st[i], st[j] = st[j], st[i]
            i += 1
            j -= 1
    st[RS] = 0
    st[RUNOUT] = 1
    return n - rs


@njit(**_INLINE)
def _draw(st: Any, n: Any, stacked: Any, g: Any) -> Any:
    """The next card of the shoe (lazy Fisher-Yates) and the deal state moved on.

    The deal state travels in registers (arguments and results, all inlined), not in
    ``st``: the shoe's swaps would otherwise force it through memory at every card."""
    k = g[0]
    if k >= n:
        k = _reuse_discards(st)
    if stacked != 0:
        j = SHOE + k
    else:
        r, g = _below(g, n - k)
        j = SHOE + k + r
    c = st[_ix(j)]
    st[_ix(j)] = st[_ix(SHOE + k)]
    st[_ix(SHOE + k)] = c
    return c, (k + 1, g[1], g[2], g[3], g[4])


@njit(**_INLINE)
def _later(cell: Any, shift: Any) -> Any:
    """The decision in a hit-table cell for a hand reached by hitting: bits ``shift`` to
    ``shift + 2`` (0: an unsplit hand, 3: a split hand, which may not double under NDAS);
    an empty cell (-1) stays -1."""
    return cell if cell < 0 else (cell >> shift) & 7


@njit(**_INLINE)
def _play(st: Any, tab: Any, charlie: Any, a21: Any, col: Any, node: Any, act: Any,
          shift: Any, rescue: Any, suits: Any, n: Any, stacked: Any, g: Any) -> Any:
    """Play a two-card hand from its first action (decisions from ``tab`` column ``col``,
    see :func:`_later`): ``(three << 15 | level << 12 | state << 10 | cards << 5 | total,
    g)``; ``suits`` is the two cards' common suit plus 1 (0: mixed, or suits not read), and
    ``three`` a three-card 6-7-8 (``4 + 8 case``) or 7-7-7 (``5 + 8 case``) with ``case``
    the suit case of ``C_THREE`` (0 mixed, 1 one suit, 2 spades), else 0; state
    0 bust / 1 stands / 2 Charlie / 3 given up (after a double, DDR; or after hitting,
    where the cell says surrender, SAH); ``level`` the doublings
    (stake ``2**level``): on the first action, after hitting (DAN), or again after a
    double's card where the cell's redouble bit for the level is set (RDn); where its
    rescue bit is set the hand is given up instead (DDR, only with ``rescue``: a paid
    double).  A doubled hand that does neither stands."""
    if act < 0:
        st[ERR] = ERR_TABLE
    state = 1
    level = 0
    while act == HIT or act == DOUBLE:  # noqa: SIM109 (numba: no tuple test)
        if act == DOUBLE:
            level += 1
        c, g = _draw(st, n, stacked, g)
        child = _cell(tab, node, _value(c) - 1)
        if child < 0:
            if child == -2:
                st[ERR] = ERR_IMPOSSIBLE
            state = 0
            break
        node = child
        if suits != 0 and _cell(tab, node, T_NCARDS) == 3 and _suit(c) + 1 != suits:
            suits = 0  # the third card breaks the suit
        if _cell(tab, node, T_NCARDS) >= charlie:
            state = 2
            break
        if act == DOUBLE:
            cell = _cell(tab, node, col)
            if cell >= 0 and rescue != 0 and (cell >> (5 + level)) & 1 != 0:
                state = 3
                break
            if cell < 0 or (cell >> (9 + level)) & 1 == 0:
                break
            continue  # a redouble: one more card at twice the stake
        if a21 != 0 and _cell(tab, node, T_TOTAL) == 21:
            break
        act = _later(_cell(tab, node, col), shift)
        if act == SURRENDER:  # SAH: an unsplit hand's cell only
            state = 3
        elif act < 0:
            st[ERR] = ERR_TABLE
    three = 0
    kind = _cell(tab, node, T_THREE)
    if kind != 0:  # 6-7-8 or 7-7-7: its suit case (suits == 0 where they are not read)
        three = 3 + kind + 8 * (0 if suits == 0 else 2 if suits == 1 else 1)
    return (three << 15 | level << 12 | state << 10 | _cell(tab, node, T_NCARDS) << 5
            | _cell(tab, node, T_TOTAL)), g


@njit(**_INLINE)
def _record(st: Any, cfg: Any, row: Any, hand: Any, free_double: Any, split: Any,
            u: Any) -> None:
    """Put a played paid hand (:func:`_play`'s result) in ``st``'s rows: state, total,
    what it wins and what it loses, in ticks.  A free double loses the own bet only; a
    hand given up loses half its stake and waits for no dealer total; a
    standing 21 of five or more cards wins its bonus per unit of stake, and a three-card
    6-7-8 or 7-7-7 its pay by suits (neither on a doubled hand under BND, nor on a split
    hand under BNS); a suited 7-7-7 neither doubled nor split wins the Super Bonus against
    upcard ``u`` 7, where the rules pay one."""
    ticks = cfg[C_TICKS]
    total, cards, state = hand & 31, (hand >> 5) & 31, (hand >> 10) & 3
    level, three = (hand >> 12) & 7, hand >> 15
    stake = 1 << level
    if state == 3:
        st[row], st[row + 1], st[row + 2], st[row + 3] = 0, total, 0, (stake * ticks) >> 1
        return
    win = ticks
    if (total == 21 and cards >= 5 and not (level > 0 and cfg[C_BND] != 0)
            and not (split and cfg[C_BNS] != 0)):
        win = cfg[_ix(C_BONUS5 + min(cards, 7) - 5)]
    elif three != 0 and cfg[C_SUITS] != 0 and not (level > 0 and cfg[C_BND] != 0) \
            and not (split and cfg[C_BNS] != 0):
        kind, case = (three & 7) - 4, three >> 3
        win = cfg[_ix(C_THREE + 3 * kind + case)]
        if kind == 1 and case != 0 and u == 7 and level == 0 and not split \
                and cfg[C_SUPER] != 0:
            win = cfg[C_SUPER]
    st[row], st[row + 1] = state, total
    st[row + 2], st[row + 3] = stake * win, ticks if free_double else stake * ticks


@njit(**_INNER)
def _split(st: Any, tab: Any, cfg: Any, u: Any, pc: Any, n: Any, stacked: Any, g: Any) -> Any:
    """Play every hand a split of the pair ``pc`` (a card code) leads to: ``(hands, g)``;
    hand ``h`` gets (state, total, what it wins, what it loses, in ticks) in ``st``'s
    rows."""
    p = _value(pc)
    free = cfg[C_FREE_SPLIT + p] != 0
    limit = 2 if free else (cfg[C_ACES_HANDS] if p == 1 else cfg[C_MAX_HANDS])
    one_card = p == 1 and cfg[C_ONE_CARD] != 0
    ticks = cfg[C_TICKS]
    a21 = cfg[C_A21]
    charlie = cfg[C_CHARLIE]
    firsts = 2
    nh = 0
    while nh < firsts:
        c, g = _draw(st, n, stacked, g)
        b = _value(c)
        free_hand = free and nh == 1
        decisions = C_SPLIT_TABLE + 2 * (11 * (11 * u + p) + b)
        act = -1
        if _same_rank(c, pc) and firsts < limit:
            act = cfg[decisions + 1]
            if act == SPLIT:
                firsts += 1
                continue
        node = _cell(tab, _cell(tab, 0, p - 1), b - 1)
        row = HANDS + 4 * nh
        if one_card or (a21 != 0 and _cell(tab, node, T_TOTAL) == 21):
            st[row], st[row + 1] = 1, _cell(tab, node, T_TOTAL)
            st[row + 2], st[row + 3] = ticks, 0 if free_hand else ticks
        elif free_hand:
            hand, g = _play(st, tab, charlie, a21, T_FREE + u - 1, node,
                            _cell(tab, node, T_FREE + u - 1), 0, 0, 0, n, stacked, g)
            st[row], st[row + 1] = (hand >> 10) & 3, hand & 31
            st[row + 2], st[row + 3] = ticks, 0
        else:
            if act < 0:
                act = cfg[decisions]
            hand, g = _play(st, tab, charlie, a21, T_HIT + u - 1, node, act, 3, 1,
                            _suits(cfg, pc, c), n, stacked, g)
            _record(st, cfg, row, hand, False, True, u)
        nh += 1
    return nh, g


@njit(**_INLINE)
def _dealer(st: Any, h17: Any, u: Any, hv: Any, n: Any, stacked: Any, g: Any) -> Any:
    """The dealer draws to the rule's stop from upcard ``u`` and hole ``hv``: ``(total, g)``.
    One table lookup and one branch a card (``_DEALER``)."""
    base = 64 * h17
    s = 2 * (u + hv) + (1 if u == 1 or hv == 1 else 0)
    d = _DEALER[_ix(base + s)]
    while d == 0:
        c, g = _draw(st, n, stacked, g)
        v = _value(c)
        s = (s + 2 * v) | (1 if v == 1 else 0)
        d = _DEALER[_ix(base + s)]
    return d, g


@njit(**_INLINE)
def _settle(st: Any, cfg: Any, u: Any, hole: Any, peeked: Any, nh: Any, n: Any, stacked: Any,
            g: Any) -> Any:
    """The dealer's turn and the payment of every hand, in ticks."""
    live = False
    unbusted = False
    for h in range(nh):
        live = live or st[_ix(HANDS + 4 * h)] == 1
        unbusted = unbusted or st[_ix(HANDS + 4 * h)] != 0
    takes_all = cfg[C_TAKES_ALL] != 0
    check_bj = (u == 1 or u == 10) and peeked == 0 and (unbusted or not takes_all)
    if cfg[C_ENHC] != 0 and (live or check_bj):
        hole, g = _draw(st, n, stacked, g)
    hv = _value(hole)
    if check_bj and hv + u == 11:  # a dealer blackjack nobody checked
        gain = 0
        lost = 0
        for h in range(nh):
            if st[HANDS + 4 * h] == 2 and cfg[C_CHBJ] != 0:
                gain += st[HANDS + 4 * h + 2]
            else:
                lost += st[HANDS + 4 * h + 3]
        return gain - (lost if takes_all else min(lost, cfg[C_TICKS])), g
    d = 0
    if live:  # the dealer draws only while some hand waits for the total
        d, g = _dealer(st, 1 if cfg[C_H17] != 0 else 0, u, hv, n, stacked, g)
    p22 = cfg[C_P22] != 0
    p21w = cfg[C_P21W] != 0  # a standing 21 wins whatever the dealer makes (not a blackjack)
    result = 0
    for h in range(nh):
        row = HANDS + 4 * h
        state, total = st[_ix(row)], st[_ix(row + 1)]
        if state == 0:
            result -= st[_ix(row + 3)]
        elif (state == 2 or d > 22 or (d == 22 and not p22) or d < total
              or (p21w and total == 21)):
            result += st[_ix(row + 2)]
        elif total < d <= 21:
            result -= st[_ix(row + 3)]
    return result, g


@njit(**_INLINE)
def _suits(cfg: Any, c: Any, d: Any) -> Any:
    """The common suit plus 1 of two cards, 0 where they differ or suits are not read."""
    return _suit(c) + 1 if cfg[C_SUITS] != 0 and _suit(c) == _suit(d) else 0


@njit(**_INLINE)
def _by_suits(cfg: Any, u: Any, up: Any, a: Any, b: Any, c1: Any, c2: Any) -> Any:
    """The first action of the two cards ``c1``, ``c2`` (values ``a``, ``b``) by their suits
    and the upcard's (``up``, value ``u``): 6-7, 6-8, 7-8 and 7-7, where a suit bonus
    pays; -1 for every other hand (the action by ranks then)."""
    lo, hi = min(a, b), max(a, b)
    if lo < 6 or hi > 8 or (lo == hi and lo != 7):
        return -1
    hand = 3 if lo == hi else lo + hi - 13  # 6-7, 6-8, 7-8, 7-7: SUIT_HANDS' order
    same = _suits(cfg, c1, c2)
    case = 0
    if same != 0:
        apart = 1 if u == 21 - a - b and _suit(up) + 1 != same else 0  # an upcard that
        case = (1 if same == 1 else 3) + apart  # could complete the hand, of another suit
    return cfg[_ix(C_SUITED + SUIT_CASES * (4 * u + hand) + case)]


@njit(**_INLINE)
def _play_one(st: Any, tab: Any, cfg: Any, u: Any, a: Any, b: Any, node: Any, act: Any,
              suits: Any, n: Any, stacked: Any, g: Any) -> Any:
    """Play the unsplit hand ``a``, ``b`` from its first action into the first row (their
    common suit plus 1 in ``suits``, 0 where mixed or not read); ``g``."""
    free_double = act == DOUBLE and cfg[_ix(C_FREE_DOUBLE + 11 * a + b)] != 0
    hand, g = _play(st, tab, cfg[C_CHARLIE], cfg[C_A21], T_HIT + u - 1, node, act, 0,
                    0 if free_double else 1, suits, n, stacked, g)
    _record(st, cfg, HANDS, hand, free_double, False, u)
    return g


@njit(**_INLINE)
def _round(st: Any, tab: Any, cfg: Any, n: Any, stacked: Any, g: Any) -> Any:
    """One round from the shoe's current position: ``(result in ticks, g)``."""
    ticks = cfg[C_TICKS]
    enhc = cfg[C_ENHC] != 0
    c1, g = _draw(st, n, stacked, g)
    up, g = _draw(st, n, stacked, g)
    c2, g = _draw(st, n, stacked, g)
    u, a, b = _value(up), _value(c1), _value(c2)
    hole = np.int64(0)
    if not enhc:
        hole, g = _draw(st, n, stacked, g)
    may_bj = u == 1 or u == 10
    peek = cfg[_ix(C_PEEK + u)]
    if a + b == 11 and (a == 1 or b == 1):  # player blackjack
        paid = cfg[C_BJ]
        if cfg[C_SBJ] != 0 and _suit(c1) == _suit(c2):  # BSBJ (C_SBJ set: suits coded)
            paid = cfg[C_SBJ]
        if may_bj:
            if enhc:
                hole, g = _draw(st, n, stacked, g)
            if _value(hole) + u == 11:  # pushes, or is paid too under BJW
                return (paid if cfg[C_BJW] != 0 else 0), g
        return paid, g
    node = _cell(tab, _cell(tab, 0, a - 1), b - 1)
    pair = 1 if _same_rank(c1, c2) and cfg[_ix(C_CAN_SPLIT + a)] != 0 else 0
    act = _cell(tab, node, T_FIRST + 2 * (u - 1) + pair)
    if cfg[C_SUITS] != 0:
        by_suits = _by_suits(cfg, u, up, a, b, c1, c2)
        if by_suits >= 0:
            act = by_suits
    if act < 0:
        st[ERR] = ERR_TABLE
    if act == SURRENDER and cfg[C_EARLY] != 0:
        return -ticks // 2, g
    if peek != 0 and _value(hole) + u == 11:
        return -ticks, g
    if act == SURRENDER:
        if may_bj and peek == 0:
            if enhc:
                hole, g = _draw(st, n, stacked, g)
            if _value(hole) + u == 11:
                return -ticks, g
        return -ticks // 2, g
    if act == SPLIT:
        nh, g = _split(st, tab, cfg, u, c1, n, stacked, g)
    else:
        g = _play_one(st, tab, cfg, u, a, b, node, act, _suits(cfg, c1, c2), n, stacked, g)
        nh = 1
    return _settle(st, cfg, u, hole, peek, nh, n, stacked, g)


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

    Sums that every round adds to the same place (the true count 0 bin without
    counting; every shoe's sums without a cut card, each round its own shoe) are kept
    in registers and added once; the Hi-Lo running count is summed over each round's
    cards, and only when counting.
    """
    n, stacked = st[SIZE], st[STACKED]
    cut, low, counting = cfg[C_CUT], cfg[C_LOW], cfg[C_COUNTING] != 0
    spread_lo, spread_hi = cfg[C_SPREAD_LO], cfg[C_SPREAD_HI]
    nbins = hist.shape[0]
    record = records.shape[0] >= nrounds
    g = (st[K], np.uint64(st[RNG]), np.uint64(st[RNG + 1]), np.uint64(st[RNG + 2]),
         np.uint64(st[RNG + 3]))
    rc = st[RC]
    shoe_s, shoe_n = st[SHOE_S], st[SHOE_N]
    sx = sxx = sw = sww = 0  # sums of x, x^2 (no counting) and w, w^2 (no cut card)
    for i in range(nrounds):
        if cut == 0:
            g = (0, g[1], g[2], g[3], g[4])
            rc = 0
        k = g[0]
        st[RS] = k
        bet = 1
        floor_tc = np.int64(0)
        tc = 0.0
        if counting:
            tc = rc * 52.0 / (n - k)
            floor_tc = np.int64(np.floor(tc))
            bet = min(max(floor_tc, spread_lo), spread_hi)
        if record:
            records[i, 0] = tc
            records[i, 2] = k
        x, g = _round(st, tab, cfg, n, stacked, g)
        if record:
            records[i, 1] = x
        j = x - low
        if j < 0 or j >= nbins:
            st[ERR] = ERR_RANGE
        else:
            hist[_ix(j)] += 1
        w = bet * x
        if counting:
            for q in range(SHOE + st[RS], SHOE + g[0]):  # the round's cards
                rc += _HILO[_ix(st[_ix(q)])]  # by code: any suit bits index copies
            b = (floor_tc if -TC_MAX < floor_tc < TC_MAX else np.sign(floor_tc) * TC_MAX) + TC_MAX
            tc_acc[b, 0] += 1
            tc_acc[b, 1] += x
            tc_acc[b, 2] += x * x
            tc_acc[b, 3] += bet
            tc_acc[b, 4] += w
            tc_acc[b, 5] += w * w
        else:
            sx += x
            sxx += x * x
        if cut == 0:
            sw += w
            sww += w * w
        else:
            shoe_n += 1
            shoe_s += w
            if g[0] >= cut or st[RUNOUT] != 0:
                _add_shoe(shoe_acc, shoe_s, shoe_n)
                shoe_s = shoe_n = 0
                g = (0, g[1], g[2], g[3], g[4])
                rc = 0
                st[RUNOUT] = 0
    if not counting:  # every round in the true count 0 bin, at a bet of 1
        tc_acc[TC_MAX, 0] += nrounds
        tc_acc[TC_MAX, 1] += sx
        tc_acc[TC_MAX, 2] += sxx
        tc_acc[TC_MAX, 3] += nrounds
        tc_acc[TC_MAX, 4] += sx
        tc_acc[TC_MAX, 5] += sxx
    if cut == 0 and nrounds > 0:  # every round its own shoe, closed
        shoe_acc[0] += nrounds
        shoe_acc[1] += sw
        shoe_acc[2] += sww
        shoe_acc[3] += nrounds
        shoe_acc[4] += nrounds
        shoe_acc[5] += sw
        g = (0, g[1], g[2], g[3], g[4])
        rc = 0
        st[RUNOUT] = 0
    st[K], st[RC] = g[0], rc
    st[SHOE_S], st[SHOE_N] = shoe_s, shoe_n
    st[RNG], st[RNG + 1] = np.int64(g[1]), np.int64(g[2])
    st[RNG + 2], st[RNG + 3] = np.int64(g[3]), np.int64(g[4])
    return st[ERR]


@njit(**_INNER)
def _add_shoe(shoe_acc: Any, s: Any, m: Any) -> None:
    """Add a shoe's sums (its bet-weighted result ``s`` over ``m`` rounds)."""
    if m > 0:
        shoe_acc[0] += 1
        shoe_acc[1] += s
        shoe_acc[2] += s * s
        shoe_acc[3] += m
        shoe_acc[4] += m * m
        shoe_acc[5] += s * m


@njit(**_ENTRY)
def close_shoe(st: Any, shoe_acc: Any) -> None:
    """Add the open shoe to the per-shoe sums and start a new one (a full reshuffle)."""
    _add_shoe(shoe_acc, st[SHOE_S], st[SHOE_N])
    st[SHOE_S] = 0
    st[SHOE_N] = 0
    st[K] = 0
    st[RC] = 0
    st[RUNOUT] = 0


__all__ = ["close_shoe", "run_chunk"]
