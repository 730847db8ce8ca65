"""A fixed strategy played exactly under the doubling rules: DAN, RDn, DDR, SAH.

Policy evaluation (:mod:`analyzer.engine.fixed`) asks a strategy what the simulator asks
it, with the same options.  Checked four ways:

* the optimum frozen and played on its own shoe is worth the optimum, to the last bit
  (exact on a small shoe);
* the one-card-removed identity holds for it (a fixed strategy's EV averaged over the
  shoes less one card is its full-shoe EV);
* the strategy asked hand by hand and asked for a whole space at once agree;
* the simulator, with its own round loop, meets the exact EV of a strategy far from the
  optimum (so that a rule mis-played would show) and of an optimum frozen on another shoe.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.cards import comp_cards, hand_total
from analyzer.core.errors import RuleConflictError, UsageError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.sim.estimate import simulate
from tests.test_one_card_removed import averaged

SPANISH = ("SP H17 DOA DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 B7C=3:1 "
           "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")
RULES = [
    "6D " + SPANISH,
    "6D " + SPANISH + " RD2",
    "6D S17 DOA DAS SPL3 LS DAN RD2 DDR SAH",
    "6D S17 D10 NDAS SPL3 LS DAN DDR SAH RD1",
    "8D S17 DOA DAS SPL1 LS CH7 A21 DAN DDR",
]


@pytest.mark.parametrize("spec", RULES)
def test_the_frozen_optimum_is_worth_the_optimum(spec: str) -> None:
    rules = parse_spec(spec)
    optimum = Analysis(rules, suits=False)  # a fixed strategy reads ranks only
    played = Analysis(rules, strategy=FrozenStrategy(optimum))
    assert played.ev() == optimum.ev()
    assert played.by_upcard() == optimum.by_upcard()


SMALL = (2, 1, 2, 1, 2, 2, 2, 1, 1, 6)  # 20 cards: pairs to split, tens to bust on


@pytest.mark.parametrize("spec", ["1D S17 DOA DAS SPL1 LS DAN DDR RD1 SAH",
                                  "1D H17 D10 NDAS SPL1 NS DAN DDR BJW P21W B5C=3:1"])
def test_the_frozen_optimum_is_worth_the_optimum_exactly(spec: str) -> None:
    rules = parse_spec(spec)
    optimum = Analysis(rules, Shoe(SMALL), exact=True)
    played = Analysis(rules, Shoe(SMALL), exact=True, strategy=FrozenStrategy(optimum))
    assert isinstance(played.ev(), Fraction)
    assert played.ev() == optimum.ev()


@pytest.mark.parametrize("spec", ["1D S17 DOA NDAS NSPL LS DAN DDR RD1 SAH",
                                  "1D H17 DOA DAS SPL1 NS DAN DDR P21W B5C=3:2",
                                  pytest.param("1D SP H17 DOA DAS SPL3 RSA HSA LS DAN DDR RD2 "
                                               "BJW P21W B5C=3:2 B6C=2:1 B7C=3:1 BND",
                                               marks=pytest.mark.slow)])
def test_one_card_removed_identity(spec: str) -> None:
    optimal, full, average = averaged(spec)
    assert full == optimal
    assert abs(average - full) < 1e-12
    rules = parse_spec(spec)
    shoe = rules.full_shoe()
    adaptive = sum(shoe[v] / shoe.total * Analysis(rules, shoe.remove([v])).ev()
                   for v in range(1, 11) if shoe[v])
    assert adaptive > full + 1e-6  # the identity can fail: re-optimising on each shoe gains


class _OneByOne:
    """A frozen strategy asked hand by hand: no bulk answers."""

    def __init__(self, frozen: FrozenStrategy) -> None:
        self.frozen = frozen

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return self.frozen.decide(upcard, comp, options)

    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        return self.frozen.decide_rescue(upcard, comp, level)

    def decide_redouble(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        return self.frozen.decide_redouble(upcard, comp, level)


def test_asked_hand_by_hand_or_in_bulk_the_play_is_the_same() -> None:
    rules = parse_spec("2D S17 DOA DAS SPL3 LS DAN RD2 DDR SAH")
    frozen = FrozenStrategy(Analysis(parse_spec("8D S17 DOA DAS SPL3 LS DAN RD2 DDR SAH")))
    bulk = Analysis(rules, strategy=frozen)
    single = Analysis(rules, strategy=_OneByOne(frozen))
    assert bulk.ev() == single.ev()
    assert bulk.ev() < Analysis(rules).ev()  # another shoe's optimum: not this one's


class _Doubler:
    """Far from the optimum, every rule in play: split 3s and 8s, double 9-11 whenever
    offered (three cards too), hit below 17, surrender a hard 12-16 of 3+ cards, give up a
    double that landed on 12-16, double again on 9-11."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        total, soft = hand_total(comp_cards(comp))
        if SPLIT in options and (comp[2] == 2 or comp[7] == 2):
            return SPLIT
        if DOUBLE in options and 9 <= total <= 11:
            return DOUBLE
        if SURRENDER in options and sum(comp) >= 3 and 12 <= total <= 16 and not soft:
            return SURRENDER
        return HIT if total < 17 else STAND

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int:
        return STAND

    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        return 12 <= hand_total(comp_cards(comp))[0] <= 16

    def decide_redouble(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        return 9 <= hand_total(comp_cards(comp))[0] <= 11


@pytest.mark.parametrize(("spec", "seen"), [
    pytest.param("2D H17 DOA DAS SPL3 LS DAN DDR RD2 SAH B5C=3:2 B6C=2:1",
                 ("double_any_cards", "double_rescue", "redoubles", "surrender_after_hit"),
                 marks=pytest.mark.slow),
    pytest.param("2D SP S17 DOA NDAS SPL3 RSA HSA LS DAN DDR SAH P21W BJW BND B5C=3:2",
                 ("double_rescue", "surrender_after_hit"), marks=pytest.mark.slow)])
def test_the_simulator_meets_the_exact_ev_of_a_poor_strategy(spec: str,
                                                             seen: tuple[str, ...]) -> None:
    rules = parse_spec(spec)
    exact = float(Analysis(rules, strategy=_Doubler()).ev())
    result = simulate(rules, 16_000_000, seed=41, jobs=2, strategy=_Doubler())
    assert abs(result.z(exact)) < 3, (result.mean, result.se, exact)
    assert float(Analysis(rules).ev()) - exact > 20 * result.se  # far from the optimum
    # each rule in ``seen`` moves the strategy's EV beyond the simulation's error: it is
    # played, not only allowed (DAN moves this strategy too little without DAS)
    for field in seen:
        off = {field: 0 if field == "redoubles" else False}
        other = float(Analysis(rules.replace(**off), strategy=_Doubler()).ev())
        assert abs(other - exact) > 3 * result.se, off


def test_the_simulator_meets_the_exact_ev_of_another_shoes_optimum() -> None:
    frozen = FrozenStrategy(Analysis(parse_spec("8D " + SPANISH)))
    rules = parse_spec("2D " + SPANISH.replace("B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 ", ""))
    exact = float(Analysis(rules, strategy=frozen).ev())
    result = simulate(rules, 8_000_000, seed=43, jobs=2, strategy=frozen)
    assert abs(result.z(exact)) < 3, (result.mean, result.se, exact)


class _NoRescue:
    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return STAND


class _BadRescue(_NoRescue):
    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int) -> object:
        return "yes"


class _BadLater(_NoRescue):
    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return DOUBLE if sum(comp) >= 3 else STAND


def test_a_strategy_that_cannot_play_the_rules_is_refused_in_one_line() -> None:
    rules = parse_spec("6D S17 DAN DDR")
    with pytest.raises(RuleConflictError, match=r"^DDR: the strategy _NoRescue does not say "
                       r"what a doubled hand does \(decide_rescue\)$"):
        Analysis(rules, strategy=_NoRescue()).ev()
    with pytest.raises(UsageError, match="decide_rescue answer .* is 'yes', not True or False"):
        Analysis(rules, strategy=_BadRescue()).ev()
    with pytest.raises(UsageError, match="not one of the options"):
        Analysis(parse_spec("6D S17 D10 DAN"), strategy=_BadLater()).ev()


def test_frozen_bulk_answers_check_their_questions() -> None:
    frozen = FrozenStrategy(Analysis(parse_spec("6D S17 DAN DDR")))
    comps = np.array([[0, 1, 1, 1, 0, 0, 0, 0, 0, 0]], dtype=np.int64)
    give, again = frozen.doubled_policy(10, comps, 1)
    assert give.shape == again.shape == (1, 1)
    with pytest.raises(UsageError, match="stake levels must be 1"):
        frozen.doubled_policy(10, comps, 3)
    with pytest.raises(UsageError, match=r"\(m, 10\) integer array"):
        frozen.later_policy(10, comps[0], np.ones(1, bool), np.ones(1, bool))
