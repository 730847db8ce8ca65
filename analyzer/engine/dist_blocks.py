"""Every way one split hand can finish: its cards, its payoffs, and how many card orders lead there.

A split hand starts from one pair card.  Under a strategy that looks only at a
hand's own cards (CDZ-, or a chart), the cards it draws and how it ends depend
on those cards alone.  This module walks every such path once and merges the
paths that end with the same drawn cards and payoff: a *block*.  The chance of
a whole split round is then a function of the union of the blocks' cards only
(:mod:`analyzer.engine.dist_dealer`), each block weighted by its number of
orderings.

A block's payoff is a vector over the eight dealer outcomes (17..21, blackjack,
bust on 22, bust on 23 or more), in units of the initial bet.  Against a dealer
blackjack nobody checked it is minus the money paid into the hand (plus a Charlie
win where a Charlie beats it); the round settles "original bet only" itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.errors import StrategyError
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.core.rules import Rules
from analyzer.engine.hands import HandSpace, PlayRules, double_allowed
from analyzer.engine.splits import SplitPlan

IntArray = npt.NDArray[np.int64]
Decide = Callable[[int, bool], int]  # (node, may double) -> action of a two-card split hand


@dataclass(frozen=True)
class Blocks:
    """The distinct finishes of one kind of split hand (paid or free), against one upcard."""

    drawn: IntArray  # (T, 10) cards drawn after the pair card (second card included)
    pay: IntArray  # (T, 8) result against each dealer outcome
    mult: IntArray  # (T,) card orders ending there


def payoff(total: int, charlie: bool, wager: int, free: bool, play: PlayRules) -> list[int]:
    """Result of a finished hand (``total`` > 21: bust) against each dealer outcome.

    ``wager`` is 1, or 2 for a double; a ``free`` hand carries a free bet: it wins
    ``wager`` when it wins and costs nothing otherwise.
    """
    lose = 0 if free else -wager
    if total > 21:
        return [lose] * N_OUTCOMES
    pay = [0] * N_OUTCOMES
    for o in range(5):
        dealer = 17 + o
        pay[o] = wager if charlie or total > dealer else 0 if total == dealer else lose
    pay[Outcome.BUST22] = 0 if (play.push_22 and not charlie) else wager
    pay[Outcome.BUST23] = wager
    pay[Outcome.BLACKJACK] = wager if (charlie and play.charlie_beats_bj) else lose
    if total == 21 and play.player_21_wins:  # P21W: every dealer hand but a blackjack
        pay = [wager] * N_OUTCOMES
        pay[Outcome.BLACKJACK] = wager if (charlie and play.charlie_beats_bj) else lose
    return pay


def hand_blocks(space: HandSpace, pair: int, plan: SplitPlan, *, decide: Decide,
                hits: npt.NDArray[np.bool_], forced: npt.NDArray[np.bool_],
                free: bool = False, seconds: tuple[int, ...] = tuple(range(1, 11))) -> Blocks:
    """Every way a split hand holding ``pair`` finishes, merged into blocks.

    ``decide`` is the two-card decision of a paid hand; ``hits`` (per node of
    ``space``) says whether a hand reached by hitting hits again; a ``free`` hand
    (Free Bet's second hand) hits where ``hits`` says, from two cards on, and
    never doubles.  Only second cards in ``seconds`` are dealt.  The play mirrors
    :func:`analyzer.engine.splits.split_ev`.

    The number of card orders reaching each finish is counted forward through
    the compositions, layer by layer (a hand's play depends on its composition
    only, so paths merge there).
    """
    stand, push, ends = _two_card_play(space, pair, plan, decide, hits, free, seconds)
    stand, busts = carry_orders(space, stand, push, hits, forced)
    held = np.flatnonzero(stand)
    ends.append((space.comps[held], stand[held], 1))
    ends += [(c, n, 1) for c, n in busts]
    return _blocks(space, ends, pair, plan.play, free)


def carry_orders(space: HandSpace, stand: IntArray, push: IntArray, hits: npt.NDArray[np.bool_],
                 forced: npt.NDArray[np.bool_]) -> tuple[IntArray, list[tuple[IntArray,
                                                                                IntArray]]]:
    """Card orders finishing on each node and busting, from two-card hands that stand
    (``stand``) or hit (``push``); from three cards on a hand hits where ``hits`` says.

    Returns the orders standing per node and the busts as (compositions, orders).
    """
    m = space.bust
    stand = stand.copy()
    count = np.zeros(m + 2, dtype=np.int64)  # orders arriving at a node by a hit
    busts: list[tuple[IntArray, IntArray]] = []
    for layer in reversed(space.layers):
        if space.ncards[layer[0]] < 2:
            continue
        arriving = count[layer]
        go = hits[layer] & ~forced[layer] if space.ncards[layer[0]] > 2 else \
            np.zeros(len(layer), dtype=bool)
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
    return stand, busts


Ends = list[tuple[IntArray, IntArray, int]]  # (comps, counts, wager) of finished hands


def _two_card_play(space: HandSpace, pair: int, plan: SplitPlan, decide: Decide,
                   hits: npt.NDArray[np.bool_], free: bool,
                   seconds: tuple[int, ...]) -> tuple[IntArray, IntArray, Ends]:
    """Each second card's two-card decision: orders standing, hitting, and doubled ends."""
    m = space.bust
    start = space.index[tuple(1 if v == pair else 0 for v in range(1, 11))]
    push = np.zeros(m, dtype=np.int64)  # orders hitting from a two-card node
    ends: Ends = []
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
            kids = space.child[node]
            ok = kids < m
            ends.append((space.comps[kids[ok]], np.ones(int(ok.sum()), dtype=np.int64), 2))
            busted = np.flatnonzero(kids == m)
            ends.append((space.comps[node][None, :] + np.eye(10, dtype=np.int64)[busted],
                         np.ones(len(busted), dtype=np.int64), 2))
        else:
            raise StrategyError(f"a split hand cannot take action {action}")
    return stand, push, ends


def _blocks(space: HandSpace, ends: list[tuple[IntArray, IntArray, int]], pair: int,
            play: PlayRules, free: bool) -> Blocks:
    """Blocks from finished compositions (pair card included) and their counts."""
    drawn_parts, pay_parts, mult_parts = [], [], []
    for comps, counts, wager in ends:
        if not len(counts):
            continue
        hard = comps @ np.arange(1, 11)
        soft = (comps[:, 0] > 0) & (hard + 10 <= 21)
        total = hard + 10 * soft
        ncards = comps.sum(axis=1)
        rows = [payoff(int(t), bool(play.charlie and n >= play.charlie), wager, free, play)
                for t, n in zip(total.tolist(), ncards.tolist(), strict=True)]
        drawn = comps.copy()
        drawn[:, pair - 1] -= 1
        drawn_parts.append(drawn)
        pay_parts.append(np.array(rows, dtype=np.int64).reshape(-1, N_OUTCOMES))
        mult_parts.append(counts)
    drawn = np.concatenate(drawn_parts) if drawn_parts else np.zeros((0, 10), dtype=np.int64)
    pay = np.concatenate(pay_parts) if pay_parts else np.zeros((0, N_OUTCOMES), dtype=np.int64)
    mult = np.concatenate(mult_parts) if mult_parts else np.zeros(0, dtype=np.int64)
    return Blocks(drawn=drawn, pay=pay, mult=mult)


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
