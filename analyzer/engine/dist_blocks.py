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

from analyzer.core.rules import Rules
from analyzer.engine.dealer import BLACKJACK, BUST22, BUST23, N_OUTCOMES
from analyzer.engine.hands import DOUBLE, HIT, STAND, HandSpace, PlayRules, double_allowed
from analyzer.engine.splits import SplitPlan

IntArray = npt.NDArray[np.int64]
Decide = Callable[[int, bool], int]  # (node, may double) -> action of a two-card split hand


@dataclass(frozen=True)
class Blocks:
    """The distinct finishes of one kind of split hand (paid or free), against one upcard."""

    drawn: IntArray  # (T, 10) cards drawn after the pair card (second card included)
    pay: IntArray  # (T, 8) result against each dealer outcome
    mult: IntArray  # (T,) card orders ending there
    second: IntArray  # (T,) the second card's value

    def without_second(self, value: int) -> Blocks:
        """The blocks whose second card is not ``value`` (a pair card that would resplit)."""
        keep = self.second != value
        return Blocks(self.drawn[keep], self.pay[keep], self.mult[keep], self.second[keep])


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
    pay[BUST22] = 0 if (play.push_22 and not charlie) else wager
    pay[BUST23] = wager
    pay[BLACKJACK] = wager if (charlie and play.charlie_beats_bj) else lose
    return pay


def hand_blocks(space: HandSpace, pair: int, plan: SplitPlan, *, decide: Decide,
                hits: npt.NDArray[np.bool_], forced: npt.NDArray[np.bool_],
                free: bool = False) -> Blocks:
    """Walk every path of a split hand holding ``pair``, merged into blocks.

    ``decide`` is the two-card decision of a paid hand; ``hits`` (per node of
    ``space``) says whether a hand reached by hitting hits again; a ``free`` hand
    (Free Bet's second hand) hits where ``hits`` says, from two cards on, and
    never doubles.  The walk mirrors :func:`analyzer.engine.splits.split_ev`.
    """
    rows: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
    play = plan.play
    m = space.bust

    def finish(node: int, drawn: list[int], wager: int, bust_card: int = 0) -> None:
        if bust_card:
            total, charlie = 22, False
        else:
            total = int(space.total[node])
            charlie = bool(play.charlie and space.ncards[node] >= play.charlie)
        key = (tuple(drawn), tuple(payoff(total, charlie, wager, free, play)), drawn_second[0])
        rows[key] = rows.get(key, 0) + 1

    def walk(node: int, drawn: list[int]) -> None:
        """Play on a hand reached by hitting: hit while the policy says so."""
        if forced[node] or not hits[node]:
            finish(node, drawn, 1)
            return
        for c in range(1, 11):
            child = int(space.child[node, c - 1])
            if child > m:
                continue  # more cards of a value than the shoe holds
            drawn[c - 1] += 1
            if child == m:
                finish(node, drawn, 1, bust_card=c)
            else:
                walk(child, drawn)
            drawn[c - 1] -= 1

    start = space.index[tuple(1 if v == pair else 0 for v in range(1, 11))]
    drawn_second = [0]
    for x in range(1, 11):
        node = int(space.child[start, x - 1])
        if node >= m:
            continue
        drawn = [0] * 10
        drawn[x - 1] = 1
        drawn_second[0] = x
        comp = tuple(int(n) for n in space.comps[node])
        if plan.one_card:
            action = STAND
        elif free:
            action = HIT if hits[node] else STAND
        else:
            may_double = plan.double_after_split and double_allowed(plan.double, comp)
            action = decide(node, may_double)
        if action == STAND:
            finish(node, drawn, 1)
        elif action == HIT:
            for c in range(1, 11):
                child = int(space.child[node, c - 1])
                if child > m:
                    continue
                drawn[c - 1] += 1
                if child == m:
                    finish(node, drawn, 1, bust_card=c)
                else:
                    walk(child, drawn)
                drawn[c - 1] -= 1
        elif action == DOUBLE:
            for c in range(1, 11):
                child = int(space.child[node, c - 1])
                if child > m:
                    continue
                drawn[c - 1] += 1
                finish(child, drawn, 2, bust_card=c if child == m else 0)
                drawn[c - 1] -= 1
        else:
            raise ValueError(f"a split hand cannot take action {action}")
    keys = list(rows)
    return Blocks(drawn=np.array([k[0] for k in keys], dtype=np.int64).reshape(-1, 10),
                  pay=np.array([k[1] for k in keys], dtype=np.int64).reshape(-1, N_OUTCOMES),
                  mult=np.array([rows[k] for k in keys], dtype=np.int64),
                  second=np.array([k[2] for k in keys], dtype=np.int64))


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
