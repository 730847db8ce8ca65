"""The engine's shortcuts give what the long way gives.

A strategy's ``hit_policy`` answers for a whole hand space what ``decide`` answers
hand by hand; a hand space cut from the uncapped one is the space enumerated
directly; a frozen strategy's remembered decisions are its decisions, and its
input checks still run on a remembered hand.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from analyzer.charts.strategy import ChartStrategy
from analyzer.core.actions import HIT, STAND
from analyzer.core.cards import Value
from analyzer.core.errors import AnalyzerError, CardNotationError, ImpossibleHandError, UsageError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.hands import hand_space
from tests.test_charts import CHART, chart

BOTH = frozenset((STAND, HIT))
CAPS = tuple(21 // v for v in range(1, 11))


def enumerate_hands(limits: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every composition of hard total <= 21 within ``limits``, by brute force."""
    hands = []
    for comp in itertools.product(*(range(min(n, c) + 1) for n, c in zip(limits, CAPS,
                                                                         strict=True))):
        if sum(comp) > 0 and sum(n * v for v, n in enumerate(comp, start=1)) <= 21:
            hands.append(comp)
    return sorted(hands, key=lambda c: (sum(c), c))


@pytest.mark.parametrize("seed", range(6))
def test_a_cut_space_is_the_space_enumerated(seed: int) -> None:
    rng = random.Random(seed)
    limits = tuple(rng.randint(0, 6) for _ in range(10))
    limits = limits if any(limits) else (1,) + limits[1:]
    space = hand_space(limits)
    hands = enumerate_hands(limits)
    assert [tuple(c) for c in space.comps.tolist()] == hands
    index = {c: i for i, c in enumerate(hands)}
    assert dict(space.index) == index
    for i, comp in enumerate(hands):
        hard = sum(n * v for v, n in enumerate(comp, start=1))
        for v in range(1, 11):
            grown = tuple(n + (j == v - 1) for j, n in enumerate(comp))
            want = len(hands) if hard + v > 21 else index.get(grown, len(hands) + 1)
            assert space.child[i, v - 1] == want
    sizes = [int(space.ncards[layer[0]]) for layer in space.layers]
    assert sizes == list(range(max(sizes), 0, -1))
    assert all((space.ncards[layer] == n).all() for layer, n in zip(space.layers, sizes,
                                                                     strict=True))


@pytest.mark.parametrize(("spec", "shoe", "exact"), [
    ("1D S17 DOA NDAS SPL1 NS", None, False),
    ("1D H17 DOA DAS SPL3 LS ENHC", None, False),
    ("1D H17 DOA NDAS NSPL LS ENHC", Shoe([2, 2, 2, 2, 2, 3, 2, 2, 2, 8]), True),
    ("6D S17 DOA DAS SPL3 ES", Shoe([20, 24, 22, 24, 24, 21, 24, 24, 23, 90]), False),
])
def test_frozen_hit_policy_is_decide_for_every_hand(spec: str, shoe: Shoe | None,
                                                     exact: bool) -> None:
    rules = parse_spec(spec)
    frozen = FrozenStrategy(Analysis(rules, shoe, exact=exact))
    other = Analysis(rules, (shoe or Analysis(rules).shoe).remove([5, 6, 10]), exact=exact)
    for upcard in range(1, 11):
        comps = other.upcard(upcard).values.space.comps
        want = [frozen.decide(upcard, tuple(c), BOTH) for c in comps.tolist()]
        fresh = FrozenStrategy(frozen._analysis)  # nothing remembered yet
        assert fresh.hit_policy(upcard, comps).tolist() == want
        assert set(want) == {STAND, HIT}


def test_chart_hit_policy_is_decide_for_every_hand() -> None:
    for spec in ("6D S17 DOA DAS SPL3 LS", "1D H17 D10 NDAS SPL1 NS CH5"):
        rules = parse_spec(spec)
        strategy = ChartStrategy(chart(CHART, spec), rules)
        comps = hand_space(tuple(Shoe.decks(1).counts)).comps
        for upcard in range(1, 11):
            want = [strategy.decide(upcard, tuple(c), BOTH) for c in comps.tolist()]
            assert strategy.hit_policy(upcard, comps).tolist() == want
            assert strategy.hit_policy(upcard, comps[::7]).tolist() == want[::7]


def test_a_chart_played_through_the_policy_is_the_chart_played_hand_by_hand() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL1 LS")
    strategy = ChartStrategy(chart(CHART, "1D S17 DOA DAS SPL1 LS"), rules)

    class HandByHand:  # the same chart, without the bulk method
        def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
            return strategy.decide(upcard, comp, options)

    bulk = Analysis(rules, strategy=strategy)
    single = Analysis(rules, strategy=HandByHand())
    assert bulk.ev() == single.ev()  # the same policy: the same float operations


def test_remembered_decisions_still_check_their_input() -> None:
    frozen = FrozenStrategy(Analysis(parse_spec("1D S17 DOA NDAS SPL1 NS")))
    hand = (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)  # 6,T
    assert frozen.decide(10, hand, BOTH) == frozen.decide(10, hand, set(BOTH))  # type: ignore[arg-type]
    for bad in ((False, *hand[1:]), hand[:9], list(hand), (-1, *hand[1:])):
        with pytest.raises(CardNotationError):
            frozen.decide(10, bad, BOTH)  # type: ignore[arg-type]
    as_enum = tuple(Value(n) if n else 0 for n in hand)  # int subclasses pass the rule
    assert frozen.decide(10, as_enum, BOTH) == frozen.decide(10, hand, BOTH)


@pytest.mark.parametrize(("spec", "shoe", "exact"), [
    ("6D S17 DOA DAS SPL3 LS", None, False),
    ("8D S17 DOA DAS SPL1 LS CH7 A21", None, False),  # charlie7: Charlie hands forced
    ("8D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9", None, False),  # free-bet
    ("2D H17 D10 NDAS SPL1 ES ENHC", None, False),
    ("1D H17 DOA NDAS SPL1 LS", Shoe([2, 2, 2, 2, 2, 3, 2, 2, 2, 8]), True),
])
def test_a_lone_hand_has_the_values_it_has_among_all_hands(spec: str, shoe: Shoe | None,
                                                           exact: bool) -> None:
    """A hand asked alone is valued on the hands it can become: the same numbers, bit for
    bit, as when every hand of the shoe is valued."""
    rules = parse_spec(spec)
    hands: list[tuple[int, ...]] = [(a, b) for a in range(1, 11) for b in range(a, 11) if a != b]
    hands += [(2, 3, 4), (10, 2, 2), (1, 5, 1), (2, 2, 2, 2, 2)]
    lone_seen = 0
    for upcard in (1, 6, 10) if exact else range(1, 11):
        whole = Analysis(rules, shoe, exact=exact)
        whole.upcard(upcard)
        for cards in hands:
            alone = Analysis(rules, shoe, exact=exact)
            try:
                want = whole.actions(upcard, cards)
            except AnalyzerError as err:
                with pytest.raises(type(err)):
                    alone.actions(upcard, cards)
                continue
            got = alone.actions(upcard, cards)
            assert got == want, (upcard, cards)
            assert all(type(got[a]) is type(want[a]) for a in want)
            lone_seen += bool(alone._lone) and not alone._upcards
    assert lone_seen > 0  # the lone path was taken


@pytest.mark.parametrize("bad", [[(0,) * 10], np.zeros((3, 9), dtype=np.int64),
                                 np.zeros((3, 10)), "T,6"])
def test_a_policy_of_what_is_not_a_hand_space_is_one_usage_error(bad: object) -> None:
    spec = "1D S17 DOA NDAS SPL1 NS"
    rules = parse_spec(spec)
    for strategy in (FrozenStrategy(Analysis(rules)), ChartStrategy(chart(CHART, spec), rules)):
        with pytest.raises(UsageError, match=r"^hands are an \(m, 10\) integer array") as err:
            strategy.hit_policy(10, bad)  # type: ignore[arg-type]
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("hand", [(0, 0, 0, 0, 0, 0, 0, 0, 0, 5),  # busted: never a node
                                  (64, 0, 0, 0, 0, 0, 0, 1, 0, 0),  # packs onto 2-8's key
                                  (0, 1, 0, 0, 0, 0, 0, 0, 0, 1)])
def test_a_frozen_policy_of_a_hand_its_analysis_never_met_is_refused(
        hand: tuple[int, ...]) -> None:
    """The policies find nodes by packed keys: a hand that is none of the analysis's,
    or whose counts would pack onto another's key, is one ImpossibleHandError."""
    frozen = FrozenStrategy(Analysis(parse_spec("1D S17 DOA NDAS SPL1 NS")))
    two_eight = (0, 1, 0, 0, 0, 0, 0, 1, 0, 0)
    good = np.array([two_eight] * 2)
    assert frozen.hit_policy(6, good).tolist() == [frozen.decide(6, two_eight, BOTH)] * 2
    if hand == (0, 1, 0, 0, 0, 0, 0, 0, 0, 1):  # 2-T from a shoe with no 2 left
        frozen = FrozenStrategy(Analysis(parse_spec("1D S17"), Shoe.decks(1).remove([2] * 4)))
    with pytest.raises(ImpossibleHandError, match="never met it") as err:
        frozen.hit_policy(6, np.array([*good, hand]))
    assert "\n" not in str(err.value)
