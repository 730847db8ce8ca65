"""Every way one split hand can finish: its cards, its payoffs, and how many card orders lead there.

A split hand starts from one pair card.  Under a strategy that looks only at a
hand's own cards (CDZ-, or a chart), the cards it draws and how it ends depend
on those cards alone.  This module walks every such path once and merges the
paths that end with the same drawn cards and payoff: a *block*.  The chance of
a whole split round is then a function of the union of the blocks' cards only
(:mod:`analyzer.engine.dist_dealer`), each block weighted by its number of
orderings.

A block's payoff is a vector over the eight dealer outcomes (17..21, blackjack,
bust on 22, bust on 23 or more), in units of ``1 / scale`` of the initial bet
(:func:`pay_scale`: halves where a 21 bonus pays 3:2).  Against a dealer
blackjack nobody checked it is minus the money paid into the hand (plus a Charlie
win where a Charlie beats it); the round settles "original bet only" itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.arith import Number
from analyzer.core.errors import RuleConflictError, StrategyError
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.core.rules import Rules
from analyzer.core.ruleset import pay_tokens, suit_bonuses
from analyzer.engine.hands import HandSpace, PlayRules, double_allowed
from analyzer.engine.splits import SplitPlan
from analyzer.engine.suits import THREE_RANKS, split_extras, suit_scale

IntArray = npt.NDArray[np.int64]
Decide = Callable[[int, bool], int]  # (node, may double) -> action of a two-card split hand


@dataclass(frozen=True)
class Blocks:
    """The distinct finishes of one kind of split hand (paid or free), against one upcard."""

    drawn: IntArray  # (T, 10) cards drawn after the pair card (second card included)
    pay: IntArray  # (T, 8) result against each dealer outcome
    mult: IntArray  # (T,) card orders ending there
    tag: IntArray  # (T,) a bonus 21 paid by suits (:class:`BonusTags`), 0 for the others


@dataclass(frozen=True)
class BonusTags:
    """How a split round carries its hands' three-card 6-7-8 and 7-7-7 paid by suits.

    Such a hand's payoff vector pays its 21 1:1; which of those hands a round holds
    (their kinds and stakes) rides along as a *tag*, one base-``base`` digit per kind
    and stake, added up over the round's hands.  Every tagged hand is a three-card 21,
    so against a dealer outcome they all win or none does (``wins``); where they win,
    the round's result is written ``result * width + tag``, and :meth:`results` turns
    it back into net results with the chances of the bonuses' suits, taken jointly over
    the round's hands (:func:`analyzer.engine.suits.split_extras`).  ``width`` 1 (no
    suit bonus on split hands): results are plain.
    """

    rules: Rules | None = None
    exact: bool = False
    scale: int = 1
    levels: int = 0  # stakes paid a bonus: 1, 2, 4, ... (1 only: not on doubles)
    base: int = 1  # more than the hands a round can hold
    wins: tuple[bool, ...] = (False,) * N_OUTCOMES  # a 21 wins against this dealer outcome

    @classmethod
    def of(cls, rules: Rules, plan: SplitPlan, *, exact: bool, scale: int) -> BonusTags:
        """The tags of split hands under ``plan`` (none where they are not paid by suits)."""
        play = plan.play
        if play.three is None or plan.free or 0 < play.charlie <= 3:  # a Charlie is no bonus
            return cls()
        levels = 2 + play.redoubles if play.bonus_doubled else 1
        won = payoff(21, False, 1, False, play, 3, False, 1)
        return cls(rules, exact, scale, levels, plan.max_hands + 1,
                   tuple(x == 1 for x in won))

    @property
    def width(self) -> int:
        return int(self.base ** (2 * self.levels))

    def tag(self, comps: IntArray, wager: int) -> IntArray:
        """Each finished hand's tag (``comps``: its cards, the pair card included)."""
        tags = np.zeros(len(comps), dtype=np.int64)
        level = wager.bit_length() - 1
        if self.rules is None or level >= self.levels:
            return tags
        for kind, ranks in enumerate(THREE_RANKS):
            trio = np.bincount(np.array(ranks) - 1, minlength=10)
            tags[np.all(comps == trio, axis=1)] = self.base ** (kind * self.levels + level)
        return tags

    def encode(self, pay: IntArray, tag: IntArray, o: int) -> IntArray:
        """Results against dealer outcome ``o`` written with their tags (:attr:`width`)."""
        if self.rules is None:
            return pay
        return pay * self.width + (tag if self.wins[o] else 0)

    def results(self, value: int) -> list[tuple[int, Number]]:
        """The net results (in units of ``1 / scale``) of a round written ``value``, each
        with its chance given that value."""
        if self.rules is None:
            return [(value, 1 if not self.exact else Fraction(1))]
        result, tag = divmod(value, self.width)
        hands = []
        for digit in range(2 * self.levels):
            tag, count = divmod(tag, self.base)
            kind, level = divmod(digit, self.levels)
            hands += [(kind, 2 ** level)] * count
        law = split_extras(self.rules, tuple(hands), self.scale) if hands else ((0, Fraction(1)),)
        return [(result + extra, p if self.exact else float(p)) for extra, p in law]


NO_TAGS = BonusTags()


def pay_scale(play: PlayRules) -> int:
    """The units results are counted in, per unit bet: 1, or the least common denominator
    of the 21 bonuses (2 for a 3:2 five-card 21), so that every result is a whole number
    of units."""
    return math.lcm(*(p.denominator for p in play.bonus)) if play.bonus is not None else 1


def check_units(rules: Rules) -> None:
    """Refuse pays whose round results, in whole units of the round's scale and written
    with their bonus tags, could pass 62 bits: a :class:`RuleConflictError` naming the
    pays, before any work (a 10^19:1 bonus, or three bonuses of coprime ten-digit
    denominators, overflowed an int64 array).

    The bound is the most a round can move: every hand of a full split at its top stake
    (doubled, then redoubled ``RDn`` times), each paid the largest pay, in units of the
    least common denominator of the pays counted in units, times the tags' width.  Two
    spots' covariance (:mod:`analyzer.engine.dist_spots`) counts in such units too.
    """
    bonus = (rules.bonus_5, rules.bonus_6, rules.bonus_7)
    # two spots count halves and the blackjack's pay in units too
    scale = math.lcm(*(p.denominator for p in bonus), suit_scale(rules),
                     2 * rules.blackjack_pays.denominator)
    largest = max(Fraction(1), *bonus, *rules.bonus_678, *rules.bonus_777,
                  Fraction(rules.super_bonus), Fraction(rules.suited_blackjack),
                  rules.blackjack_pays)
    stake = 2 ** (1 + rules.redoubles)
    levels = 1 if rules.bonus_not_doubled else 2 + rules.redoubles  # as BonusTags.of
    width = (rules.max_hands + 1) ** (2 * levels) if suit_bonuses(rules) else 1
    most = rules.max_hands * stake * math.ceil(largest) * scale * width
    if most >= 2**62:
        raise RuleConflictError(
            f"{' '.join(pay_tokens(rules))}: a round's results counted in 1/{scale:,} of the "
            f"bet could reach about 10^{len(str(most)) - 1} units, past the 64-bit integers "
            "the distribution counts in")


def payoff(total: int, charlie: bool, wager: int, free: bool, play: PlayRules,
           ncards: int = 0, bonus: bool = False, scale: int = 1) -> list[int]:
    """Result of a finished hand (``total`` > 21: bust) against each dealer outcome, in
    units of ``1 / scale`` of the initial bet.

    ``wager`` is the stake: 1, 2 for a double, 4, 8, ... redoubled; a ``free`` hand carries
    a free bet: it wins ``wager`` when it wins and costs nothing otherwise.  With ``bonus``
    a winning 21 of ``ncards`` >= 5 cards is paid ``play.bonus`` (B5C, B6C, B7C).
    """
    lose = 0 if free else -wager * scale
    if total > 21:
        return [lose] * N_OUTCOMES
    win = wager * scale
    if bonus and play.bonus is not None and total == 21 and ncards >= 5:
        ratio = play.bonus[min(ncards, 7) - 5] * win
        assert ratio.denominator == 1  # scale is a multiple of every bonus's denominator
        win = int(ratio)
    pay = [0] * N_OUTCOMES
    for o in range(5):
        dealer = 17 + o
        pay[o] = win if charlie or total > dealer else 0 if total == dealer else lose
    pay[Outcome.BUST22] = 0 if (play.push_22 and not charlie) else win
    pay[Outcome.BUST23] = win
    pay[Outcome.BLACKJACK] = win if (charlie and play.charlie_beats_bj) else lose
    if total == 21 and play.player_21_wins:  # P21W: every dealer hand but a blackjack
        pay = [win] * N_OUTCOMES
        pay[Outcome.BLACKJACK] = win if (charlie and play.charlie_beats_bj) else lose
    return pay


@dataclass(frozen=True)
class DoubledPlay:
    """What a doubled hand does once its card is dealt, per stake level (row ``l - 1``: stake
    ``2**l``) and node: given up (DDR), doubled again (RDn); else it stands."""

    rescues: npt.NDArray[np.bool_]
    redoubles: npt.NDArray[np.bool_]


# (compositions, card orders, stake, given up): hands that finished
Ends = list[tuple[IntArray, IntArray, int, bool]]


def hand_blocks(space: HandSpace, pair: int, plan: SplitPlan, *, decide: Decide,
                hits: npt.NDArray[np.bool_], forced: npt.NDArray[np.bool_],
                free: bool = False, seconds: tuple[int, ...] = tuple(range(1, 11)),
                doubles: npt.NDArray[np.bool_] | None = None,
                doubled: DoubledPlay | None = None, scale: int = 1,
                tags: BonusTags = NO_TAGS) -> Blocks:
    """Every way a split hand holding ``pair`` finishes, merged into blocks.

    ``decide`` is the two-card decision of a paid hand; ``hits`` (per node of
    ``space``) says whether a hand reached by hitting hits again, ``doubles`` whether it
    doubles (DAN); a doubled hand then plays ``doubled`` (DDR, RDn; None: it stands).
    A ``free`` hand (Free Bet's second hand) hits where ``hits`` says, from two cards
    on, and never doubles.  Only second cards in ``seconds`` are dealt.  The play
    mirrors :func:`analyzer.engine.splits.split_ev`; results are in units of ``1 /
    scale`` (:func:`pay_scale`), a bonus 21 paid by suits tagged as ``tags`` says.

    The number of card orders reaching each finish is counted forward through
    the compositions, layer by layer (a hand's play depends on its composition
    only, so paths merge there).
    """
    stand, push, dbl = _two_card_play(space, pair, plan, decide, hits, free, seconds)
    stand, busts, dbl = carry_orders(space, stand, push, hits, forced, doubles, dbl)
    held = np.flatnonzero(stand)
    ends: Ends = [(space.comps[held], stand[held], 1, False)]
    ends += [(c, n, 1, False) for c, n in busts]
    ends += doubled_ends(space, dbl, doubled)
    return _blocks(space, ends, pair, plan.play, free, scale, NO_TAGS if free else tags)


def doubled_ends(space: HandSpace, orders: IntArray, doubled: DoubledPlay | None) -> Ends:
    """Where hands doubled on each node (``orders`` of them per node) finish: one card at
    stake 2, then given up, doubled again (one more card at twice the stake) or standing."""
    m = space.bust
    ends: Ends = []
    level = 1
    while orders.any():
        stake = 2 ** level
        nodes = np.flatnonzero(orders)
        kids = space.child[nodes]
        ok = kids < m
        arrive = np.zeros(m + 2, dtype=np.int64)
        np.add.at(arrive, kids[ok], np.repeat(orders[nodes], 10).reshape(-1, 10)[ok])
        rows, cards = np.nonzero(kids == m)  # busted on the card
        ends.append((space.comps[nodes[rows]] + np.eye(10, dtype=np.int64)[cards],
                     orders[nodes[rows]], stake, False))
        arrive = arrive[:m]
        give = again = np.zeros(m, dtype=bool)
        if doubled is not None and level <= len(doubled.rescues):
            give = doubled.rescues[level - 1]
            again = doubled.redoubles[level - 1] & ~give
        for mask, rescued in ((give, True), (~give & ~again, False)):
            held = np.flatnonzero(mask & (arrive > 0))
            ends.append((space.comps[held], arrive[held], stake, rescued))
        orders = np.where(again, arrive, 0)
        level += 1
    return ends


def carry_orders(space: HandSpace, stand: IntArray, push: IntArray, hits: npt.NDArray[np.bool_],
                 forced: npt.NDArray[np.bool_], doubles: npt.NDArray[np.bool_] | None = None,
                 doubled: IntArray | None = None,
                 ) -> tuple[IntArray, list[tuple[IntArray, IntArray]], IntArray]:
    """Card orders finishing on each node and busting, from two-card hands that stand
    (``stand``) or hit (``push``); from three cards on a hand hits where ``hits`` says,
    and doubles where ``doubles`` does (DAN).

    Returns the orders standing per node, the busts as (compositions, orders), and the
    orders doubling on each node (``doubled`` added: the two-card doubles).
    """
    m = space.bust
    stand = stand.copy()
    dbl = np.zeros(m, dtype=np.int64) if doubled is None else doubled.copy()
    count = np.zeros(m + 2, dtype=np.int64)  # orders arriving at a node by a hit
    busts: list[tuple[IntArray, IntArray]] = []
    for layer in reversed(space.layers):
        if space.ncards[layer[0]] < 2:
            continue
        arriving = count[layer]
        later = space.ncards[layer[0]] > 2
        go = hits[layer] & ~forced[layer] if later else np.zeros(len(layer), dtype=bool)
        if later and doubles is not None:
            down = doubles[layer] & ~forced[layer] & ~go
            dbl[layer] += np.where(down, arriving, 0)
            arriving = np.where(down, 0, arriving)
        stand[layer] += np.where(go, 0, arriving)
        out = np.where(go, arriving, 0) + push[layer]
        live = np.flatnonzero(out)
        if not len(live):
            continue
        nodes, flow = layer[live], out[live]
        kids = space.child[nodes]
        np.add.at(count, kids.ravel(), np.repeat(flow, 10))
        rows, cards = np.nonzero(kids == m)
        busts.append((space.comps[nodes[rows]] + np.eye(10, dtype=np.int64)[cards], flow[rows]))
    return stand, busts, dbl


def _two_card_play(space: HandSpace, pair: int, plan: SplitPlan, decide: Decide,
                   hits: npt.NDArray[np.bool_], free: bool,
                   seconds: tuple[int, ...]) -> tuple[IntArray, IntArray, IntArray]:
    """Each second card's two-card decision: orders standing, hitting and doubling, per
    node."""
    m = space.bust
    start = space.index[tuple(1 if v == pair else 0 for v in range(1, 11))]
    push = np.zeros(m, dtype=np.int64)  # orders hitting from a two-card node
    dbl = np.zeros(m, dtype=np.int64)  # orders doubling on a two-card node
    stand = np.zeros(m, dtype=np.int64)
    for x in seconds:
        node = int(space.child[start, x - 1])
        if node >= m:
            continue
        comp = tuple(int(n) for n in space.comps[node])
        action: int
        if plan.one_card:
            action = STAND
        elif free:
            action = HIT if hits[node] else STAND
        else:
            may_double = plan.double_after_split and double_allowed(plan.double, comp)
            action = decide(node, may_double)
        if action == STAND:
            stand[node] += 1
        elif action == HIT:
            push[node] += 1
        elif action == DOUBLE:
            dbl[node] += 1
        else:
            raise StrategyError(f"a split hand cannot take action {action}")
    return stand, push, dbl


def end_pays(comps: IntArray, wager: int, rescued: bool, play: PlayRules, free: bool = False,
             scale: int = 1) -> IntArray:
    """``PAY[i, o]``: the result of a hand finishing on ``comps[i]`` (busted too) at stake
    ``wager`` against dealer outcome ``o``, in units of ``1 / scale`` (:func:`payoff`):
    half the stake if given up (DDR), a winning 21's card-count bonus unless the hand is
    free or a double under BND."""
    if rescued:
        return np.full((len(comps), N_OUTCOMES), -wager * scale // 2, dtype=np.int64)
    hard = comps @ np.arange(1, 11)
    soft = (comps[:, 0] > 0) & (hard + 10 <= 21)
    total = hard + 10 * soft
    ncards = comps.sum(axis=1)
    bonus = not free and (wager == 1 or play.bonus_doubled)  # BND: not on a double
    rows = [payoff(int(t), bool(play.charlie and n >= play.charlie), wager, free, play, int(n),
                   bonus, scale) for t, n in zip(total.tolist(), ncards.tolist(), strict=True)]
    return np.array(rows, dtype=np.int64).reshape(-1, N_OUTCOMES)


def _blocks(space: HandSpace, ends: Ends, pair: int, play: PlayRules, free: bool,
            scale: int = 1, tags: BonusTags = NO_TAGS) -> Blocks:
    """Blocks from finished compositions (pair card included) and their counts."""
    drawn_parts, pay_parts, mult_parts, tag_parts = [], [], [], []
    for comps, counts, wager, rescued in ends:
        if not len(counts):
            continue
        bonus = not free and (wager == 1 or play.bonus_doubled)  # BND: not on a double
        drawn = comps.copy()
        drawn[:, pair - 1] -= 1
        drawn_parts.append(drawn)
        pay_parts.append(end_pays(comps, wager, rescued, play, free, scale))
        mult_parts.append(counts)
        tag_parts.append(tags.tag(comps, wager) if bonus and not rescued else
                         np.zeros(len(counts), dtype=np.int64))
    drawn = np.concatenate(drawn_parts) if drawn_parts else np.zeros((0, 10), dtype=np.int64)
    pay = np.concatenate(pay_parts) if pay_parts else np.zeros((0, N_OUTCOMES), dtype=np.int64)
    mult = np.concatenate(mult_parts) if mult_parts else np.zeros(0, dtype=np.int64)
    tag = np.concatenate(tag_parts) if tag_parts else np.zeros(0, dtype=np.int64)
    return Blocks(drawn=drawn, pay=pay, mult=mult, tag=tag)


def resplit_patterns(max_hands: int, resplit: bool) -> dict[tuple[int, int], int]:
    """The ways the pair cards can fall, as ``{(hands with a non-pair second card, hands
    with any second card): number of ways}``.

    Hands are dealt left to right; while fewer than ``max_hands`` hands exist
    (and the pair may be resplit) a pair card drawn as a second card starts a new
    hand and the hand draws again, so its second card is a non-pair card; once
    no more hands may be made a second card may be anything.  A round with ``h``
    hands holds ``h - 2`` extra pair cards, at places the pattern fixes.

    >>> resplit_patterns(2, True), resplit_patterns(3, True)
    ({(0, 2): 1}, {(2, 0): 1, (1, 2): 1, (0, 3): 1})
    """
    found: dict[tuple[int, int], int] = {}

    def deal(hand: int, made: int, nonpair: int, anything: int) -> None:
        if hand == made:
            found[(nonpair, anything)] = found.get((nonpair, anything), 0) + 1
        elif resplit and made < max_hands:
            deal(hand + 1, made, nonpair + 1, anything)
            deal(hand, made + 1, nonpair, anything)
        else:
            deal(hand + 1, made, nonpair, anything + 1)

    deal(0, 2, 0, 0)
    return found


def may_resplit(rules: Rules, plan: SplitPlan) -> bool:
    """Whether a pair card drawn to a split hand starts another hand (rules allowing)."""
    return plan.max_hands > 2 and not plan.free and (plan.pair != 1 or rules.resplit_aces)
