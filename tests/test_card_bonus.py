"""21 bonuses by card count (``B5C``, ``B6C``, ``B7C``) and their conditions (``BND``: not
on a doubled hand, ``BNS``: not on a split hand).

The engine against the brute-force oracle (tests/oracle.py, its own settlement of a
21) as fractions on small shoes rich in small cards, where 21s of five and more cards
are common: the round's EV, every two- and three-card hand's actions, with doubling after
hitting, redoubling, rescue, P21W, splits and an unchecked dealer blackjack; then the
invariants (a bonus never costs, each condition never pays), the words and the one-line
refusals of the parts that pay a 21 1:1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import describe_rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.optimal_split import SplitInfeasible
from analyzer.engine.strategy import Strategy
from tests import oracle
from tests.test_double_any import assert_hands_equal_the_oracle

SHOE = (2, 1, 1, 2, 1, 2, 1, 1, 1, 4)  # 16 cards
TENS_SHOE = (1, 1, 1, 1, 1, 1, 1, 1, 2, 6)  # 16 cards: splits never run dry
SMALL = (1, 2, 1, 1, 1, 1, 1, 1, 1, 4)  # 14 cards
SPANISH = "B5C=3:2 B6C=2:1 B7C=3:1"


@pytest.mark.parametrize("spec", ["B5C=3:2", SPANISH, f"{SPANISH} BND BNS", "B7C=5:1 BNS"])
def test_tokens_round_trip_and_are_said_in_words(spec: str) -> None:
    rules = parse_spec(f"6D H17 LS {spec}")
    assert parse_spec(format_spec(rules)) == rules
    for token in spec.split():
        assert token in format_spec(rules).split()
    words = " ".join(describe_rules(rules))
    assert "a winning 21 of" in words
    assert ("not paid on a doubled hand" in words) == rules.bonus_not_doubled
    assert ("not paid on a split hand" in words) == rules.bonus_not_split


@pytest.mark.parametrize("spec, message", [
    ("B5C=1:2", "at least 1:1"), ("B5C=3:0", "divides by zero"), ("BND", "needs a bonus"),
    ("BNS B5C=1:1", "needs a bonus"), ("B5C=3:2 CH5", "Charlie"),
    ("B5C=3:2 FD9-11", "free doubles"), ("B5C=3:2 B5C=2:1", "contradicts")])
def test_bad_bonuses_are_refused_naming_them(spec: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_spec(spec)


def _check(spec: str, counts: tuple[int, ...], three_cards: bool) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules, Shoe(counts), exact=True)
    assert analysis.ev() == oracle.round_ev(rules, counts)
    plain = rules.replace(bonus_5=Fraction(1), bonus_6=Fraction(1), bonus_7=Fraction(1),
                          bonus_not_doubled=False, bonus_not_split=False)
    assert analysis.ev() > Analysis(plain, Shoe(counts), exact=True).ev()  # a bonus paid
    assert_hands_equal_the_oracle(analysis, counts, (2, 3) if three_cards else (2,))
    oracle.clear_caches()


FAST = [pytest.param(f"1D S17 DOA NDAS NSPL NS DAN BND {SPANISH}", SMALL, id="DAN-BND")]
SLOW = [
    pytest.param(f"1D S17 DOA NDAS NSPL NS {SPANISH}", SHOE, id="plain"),
    pytest.param(f"1D S17 DOA NDAS NSPL NS DAN {SPANISH}", SHOE, id="DAN-paid-on-doubles"),
    pytest.param(f"1D H17 DOA NDAS NSPL LS P21W DAN DDR BND {SPANISH}", SHOE, id="spanish-1D"),
    pytest.param("1D S17 DOA DAS SPL1 NS B5C=2:1 B6C=3:1", TENS_SHOE, id="splits"),
    pytest.param("1D S17 DOA DAS SPL1 NS BNS B5C=2:1 B6C=3:1", TENS_SHOE, id="BNS"),
    pytest.param("1D S17 DOA DAS SPL1 NS DAN RD2 B5C=2:1 B6C=3:1", TENS_SHOE, id="RD2-splits"),
    pytest.param("1D S17 DOA DAS SPL1 NS DAN BND BNS RD1 B5C=2:1 B6C=3:1 ENHC", TENS_SHOE,
                 id="ENHC"),
]


@pytest.mark.parametrize("spec, counts", FAST)
def test_round_and_every_hand_equal_the_oracle(spec: str, counts: tuple[int, ...]) -> None:
    _check(spec, counts, three_cards=False)  # three-card hands too in the slow cases


@pytest.mark.slow
@pytest.mark.parametrize("spec, counts", SLOW)
def test_round_and_every_hand_equal_the_oracle_with_more_rules(
        spec: str, counts: tuple[int, ...]) -> None:
    _check(spec, counts, three_cards="SPL" not in spec)


def test_a_bonus_never_costs_and_each_condition_never_pays() -> None:
    base = parse_spec("6D H17 DAS SPL3 LS DAN")
    ev = {name: Analysis(base.replace(**fields)).ev() for name, fields in (
        ("none", {}),
        ("5", {"bonus_5": Fraction(3, 2)}),
        ("all", {"bonus_5": Fraction(3, 2), "bonus_6": Fraction(2), "bonus_7": Fraction(3)}),
        ("bnd", {"bonus_5": Fraction(3, 2), "bonus_6": Fraction(2), "bonus_7": Fraction(3),
                 "bonus_not_doubled": True}),
        ("bns", {"bonus_5": Fraction(3, 2), "bonus_6": Fraction(2), "bonus_7": Fraction(3),
                 "bonus_not_split": True}))}
    assert ev["none"] < ev["5"] < ev["all"]
    assert ev["none"] < ev["bnd"] < ev["all"] and ev["none"] < ev["bns"] < ev["all"]


def test_a_four_card_hand_hits_for_the_bonus() -> None:
    """A-2-2-3 (soft 18) against a 7: standing is no 21, so the bonus leaves it; a 3
    drawn makes a five-card 21, so hitting gains."""
    plain = Analysis(parse_spec("6D S17")).actions(7, (1, 2, 2, 3))
    paid = Analysis(parse_spec("6D S17 B5C=3:1")).actions(7, (1, 2, 2, 3))
    assert paid[0] == plain[0]  # standing on 18 is not a 21
    assert paid[1] > plain[1]


class _Stander:
    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return 0


def test_only_the_shoe_size_stops_optimal_splitting_and_a_strategy_pays_the_bonus() -> None:
    rules = parse_spec(f"6D H17 DAS SPL3 LS {SPANISH}")
    # optimal splitting pays them (tests/test_optimal_split.py): only the shoe's size stops it
    with pytest.raises(SplitInfeasible, match="at most 52 cards"):
        Analysis(rules, split="optimal")
    strategy: Strategy = _Stander()  # a fixed strategy's stand values carry the bonus
    assert Analysis(rules, strategy=strategy).ev() < Analysis(rules).ev()
