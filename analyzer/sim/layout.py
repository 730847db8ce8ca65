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
T_THREE = 52  # 1: the hand is 6-7-8, 2: 7-7-7 (three cards that a suit bonus pays), else 0
T_WIDTH = 53

# cfg: scalars
(C_H17, C_A21, C_P22, C_CHBJ, C_CHARLIE, C_TAKES_ALL, C_BJ, C_TICKS, C_EARLY, C_ENHC,
 C_DAS, C_MAX_HANDS, C_ACES_HANDS, C_ONE_CARD, C_CUT, C_LOW, C_SPREAD_LO, C_SPREAD_HI,
 C_COUNTING, C_BJW, C_P21W, C_BND, C_BNS, C_BONUS5, C_BONUS6, C_BONUS7) = range(26)
C_PEEK, C_SURRENDER, C_CAN_SPLIT, C_FREE_SPLIT = 32, 44, 56, 68  # + upcard / pair value
C_PAID_DOUBLE, C_FREE_DOUBLE = 80, 208  # + 11 a + b
C_SPLIT_TABLE = 336  # + 2 (11 (11 u + p) + b) + resplit offered
# Suits (B678, B777, SB, BSBJ), read only where C_SUITS is set: then a card code is its
# rank plus 16 times its suit (0 spades).
C_SUITS = C_SPLIT_TABLE + 2 * 11 * 11 * 11
C_SBJ, C_SUPER = C_SUITS + 1, C_SUITS + 2  # a suited blackjack's, the Super Bonus's ticks
C_THREE = C_SUITS + 3  # + 3 kind + case: a winning three-card 21's ticks per unit of stake,
# kind 0 6-7-8, 1 7-7-7; case 0 mixed suits, 1 one suit, 2 spades
C_SUITED = C_THREE + 6  # + 5 (4 u + hand) + case: the first action by suits (-1: by ranks)
SUIT_HANDS = ((6, 7), (6, 8), (7, 8), (7, 7))  # hand 0-3: two cards one from a bonus 21
SUIT_CASES = 5  # 0 mixed suits; 1-2 one suit, spades; 3-4 one suit, not spades: the second
# of each where the upcard is of the rank that completes the hand and of another suit
CFG_SIZE = C_SUITED + 5 * 4 * 11
SUIT_SHIFT = 4  # code = rank + (suit << SUIT_SHIFT)

TC_MAX = 30  # true-count bins -TC_MAX..TC_MAX (floored counts, clipped)
