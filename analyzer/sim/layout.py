"""Where each number lives in the three flat arrays the compiled loop takes.

Few, flat arguments keep the compiled calls cheap and the compile short:

* ``st`` (int64, one per job): the shoe's state, the generator's state, the
  scratch rows of the hands in play, then the shoe itself (card codes);
* ``tab`` (int32, ``(nodes, T_WIDTH)``, passed flat): per hand composition, its children,
  total and card count, then the strategy's decisions per upcard (one row is
  all a hand needs, which keeps lookups in one cache line or two);
* ``cfg`` (int64): the rule switches, per-value rule tables and the split
  decisions.

The action codes are the ``Strategy`` protocol's (0 stand, 1 hit, 2 double,
3 split, 4 surrender), copied on purpose; a test pins them to the engine's.
"""

from __future__ import annotations

STAND, HIT, DOUBLE, SPLIT, SURRENDER = range(5)

# st: shoe state
K, RS, RC, ERR, RUNOUT, SHOE_N, SHOE_S, SIZE = range(8)  # next card, round start, Hi-Lo
# running count, error code, run-out flag, open shoe's rounds and sum, cards in the shoe
RNG = 8  # 4 words of xoshiro256** state
STACKED = 12  # 1: deal the shoe in the order it lies (stacked-deck tests), no shuffling
HANDS = 16  # 4 hands x (state, total, win, loss)
SHOE = 32  # the shoe's card codes from here on
ERR_EMPTY, ERR_IMPOSSIBLE, ERR_TABLE, ERR_RANGE = 1, 2, 3, 4

# tab columns: 0-9 child after drawing value 1-10 (-1 bust, -2 impossible)
T_TOTAL, T_NCARDS = 10, 11
T_FIRST = 12  # + 2 (u - 1) + pair: first two cards (pair: a split is offered)
T_HIT = 32  # + u - 1: three or more cards
T_FREE = 42  # + u - 1: the free split hand
T_WIDTH = 52

# cfg: scalars
(C_H17, C_A21, C_P22, C_CHBJ, C_CHARLIE, C_TAKES_ALL, C_BJ, C_TICKS, C_EARLY, C_ENHC,
 C_DAS, C_MAX_HANDS, C_ACES_HANDS, C_ONE_CARD, C_CUT, C_LOW, C_SPREAD_LO, C_SPREAD_HI,
 C_COUNTING, C_BJW, C_P21W, C_BND, C_BNS, C_BONUS5, C_BONUS6, C_BONUS7) = range(26)
C_PEEK, C_SURRENDER, C_CAN_SPLIT, C_FREE_SPLIT = 32, 44, 56, 68  # + upcard / pair value
C_PAID_DOUBLE, C_FREE_DOUBLE = 80, 208  # + 11 a + b
C_SPLIT_TABLE = 336  # + 2 (11 (11 u + p) + b) + resplit offered
CFG_SIZE = C_SPLIT_TABLE + 2 * 11 * 11 * 11

TC_MAX = 30  # true-count bins -TC_MAX..TC_MAX (floored counts, clipped)
