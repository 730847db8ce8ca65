"""``--split exact``: the engine's analysis with every split valued by whole-round enumeration.

The engine does not import the oracle (an independent cross-check must not be
part of what it checks); this module hands the enumeration to an
:class:`~analyzer.engine.analysis.Analysis` as its splitter.  Every caller that
lets a user choose the split level builds its analysis here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.arith import Number
from analyzer.core.errors import RuleConflictError
from analyzer.core.levels import SplitLevel
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis, UpcardAnalysis
from analyzer.engine.hands import double_allowed
from analyzer.engine.splits import SplitPlan
from analyzer.engine.strategy import Strategy
from analyzer.oracle.exact_dealer import check_split_shoe
from analyzer.oracle.exact_splits import exact_split_ev


def exact_splitter(analysis: Analysis, ua: UpcardAnalysis, plan: SplitPlan,
                   decide: Callable[[int, bool], int],
                   hits: npt.NDArray[np.bool_]) -> Number:
    """The exact EV of the whole split, every hand's cards removed (small shoes only)."""
    r = analysis.rules
    if plan.free or r.charlie or r.push_22 or r.stand_on_21 or r.player_21_wins:
        raise RuleConflictError("exact splits model classic rules only (no Charlie, 21 stands, "
                                "push 22, player 21 wins or free splits)")
    index = ua.values.space.index

    def choose(comp: tuple[int, ...], options: frozenset[int]) -> int:
        node = index[comp]
        if len(options) == 2 and sum(comp) > 2:
            return HIT if hits[node] else STAND
        return decide(node, DOUBLE in options)

    rest = list(ua.shoe)
    rest[plan.pair - 1] -= 2
    return exact_split_ev(
        tuple(rest), ua.upcard, plan.pair, max_hands=plan.max_hands,
        one_card=plan.one_card, decide=choose,
        double_allowed=lambda comp: plan.double_after_split and double_allowed(
            plan.double, comp),
        hits_soft_17=r.hits_soft_17, peek=plan.conditioned,
        bj_loses_all=plan.bj_takes_all, exact=analysis.exact)


def new_analysis(rules: Rules, shoe: Shoe | None = None, *, exact: bool = False,
                 strategy: Strategy | None = None, split: SplitLevel = SplitLevel.CDZ,
                 jobs: int = 1, memo: bool = False, suits: bool = True) -> Analysis:
    """An :class:`Analysis` at any split level the CLI offers, ``"exact"`` included (its
    shoe's size checked here, before any work)."""
    analysis = Analysis(rules, shoe, exact=exact, strategy=strategy, split=split, jobs=jobs,
                        splitter=exact_splitter if split == "exact" else None, memo=memo,
                        suits=suits)
    if split == "exact":
        check_split_shoe(analysis.shoe.counts)
    return analysis


__all__ = ["exact_splitter", "new_analysis"]
