"""The simulator's suits: the 6-7-8 and 7-7-7 bonuses, the Super Bonus, a suited blackjack,
and the two-card hands played by their suits.

Stacked-deck rounds pin each payment on chosen cards (card code = rank + 16 * suit, suit
0 spades) under a scripted strategy; the statistical tests then check the simulator,
playing the engine's frozen strategy by suits or by ranks, against the engine's exact EV
of that play, on rules whose suit pays are large enough that reading suits or not is
many standard errors apart.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND
from analyzer.core.errors import UsageError
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.sim import shoe_codes, simulate
from analyzer.sim.estimate import play_stacked
from tests.test_simulate import Script

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUITED = "B678=3:2/2:1/3:1 B777=2:1/5:1/9:1"


def card(rank: int, suit: int) -> int:
    return rank + 16 * suit


class Hitter(Script):
    """The script, hitting 6-7 and 7-7 (and doubling them where ``double``) in every suit
    case it is asked about."""

    def __init__(self, double: bool = False) -> None:
        super().__init__()
        self.double = double

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        if sum(comp) == 2 and comp[6] and (comp[5] or comp[6] == 2):
            return DOUBLE if self.double and DOUBLE in options else HIT
        return super().decide(upcard, comp, options)


def round_of(spec: str, cards: list[int], strategy: object = None) -> Fraction:
    result, _ = play_stacked(parse_spec(spec), cards, strategy or Hitter())  # type: ignore[arg-type]
    return result


# Player 6, upcard ten, player 7, hole 6, the player's 8, the dealer's ten: 21 beats a bust.
def _six_seven_eight(s6: int, s7: int, s8: int) -> list[int]:
    return [card(6, s6), card(10, HEARTS), card(7, s7), card(6, HEARTS), card(8, s8),
            card(10, CLUBS)]


@pytest.mark.parametrize(("suits", "pays"), [
    ((SPADES, SPADES, SPADES), 3), ((HEARTS, HEARTS, HEARTS), 2),
    ((SPADES, SPADES, HEARTS), Fraction(3, 2)), ((CLUBS, HEARTS, CLUBS), Fraction(3, 2))])
def test_a_winning_six_seven_eight_is_paid_by_its_suits(suits: tuple[int, int, int],
                                                        pays: Fraction) -> None:
    assert round_of(f"6D S17 {SUITED}", _six_seven_eight(*suits)) == pays


def test_the_bonus_follows_the_rules_conditions() -> None:
    cards = _six_seven_eight(SPADES, SPADES, SPADES)
    assert round_of(f"6D S17 {SUITED}", cards, Hitter(double=True)) == 6  # 3:1 on 2 units
    assert round_of(f"6D S17 {SUITED} BND", cards, Hitter(double=True)) == 2  # 1:1 on 2
    # a 21 that only ties pushes, bonus or not; with P21W it wins and is paid the bonus
    tie = [card(6, SPADES), card(10, HEARTS), card(7, SPADES), card(5, HEARTS),
           card(8, SPADES), card(6, CLUBS)]  # the dealer's 15 draws a 6
    assert round_of(f"6D S17 {SUITED}", tie) == 0
    assert round_of(f"6D S17 P21W {SUITED}", tie) == 3
    # four cards are not a 6-7-8: 6-7 hits an ace (14), then a 7 (21)
    four = [card(6, SPADES), card(10, HEARTS), card(7, SPADES), card(6, HEARTS),
            card(1, SPADES), card(7, SPADES), card(10, CLUBS)]
    assert round_of(f"6D S17 {SUITED}", four) == 1


class SplitSevens(Script):
    """The script, splitting 7s."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        if SPLIT in options and comp[6] == 2:
            return SPLIT
        return super().decide(upcard, comp, options)


def test_a_split_hand_is_paid_unless_bns() -> None:
    # 7-7 (two suits: still a pair) split against a ten by a script that splits 7s: 7 of
    # spades + 6 of clubs hits an 8 of clubs (mixed suits: 3:2), 7 + 10 stands on 17; the
    # dealer's 16 draws a ten and busts
    cards = [card(7, SPADES), card(10, HEARTS), card(7, CLUBS), card(6, HEARTS),
             card(6, CLUBS), card(8, CLUBS), card(10, CLUBS), card(10, HEARTS)]
    splitter = SplitSevens()
    assert round_of(f"6D S17 DAS SPL1 {SUITED}", cards, splitter) == Fraction(3, 2) + 1
    assert round_of(f"6D S17 DAS SPL1 {SUITED} BNS", cards, splitter) == 1 + 1
    one_suit = [*cards[:4], card(6, SPADES), card(8, SPADES), *cards[6:]]
    assert round_of(f"6D S17 DAS SPL1 {SUITED}", one_suit, splitter) == 3 + 1


def test_the_super_bonus_needs_one_suit_a_seven_up_no_double_no_split() -> None:
    spec = "3D S17 DAS SPL1 B777=3:2/2:1/3:1 SB=200:1"
    sevens = [card(7, HEARTS), card(7, CLUBS), card(7, HEARTS), card(10, SPADES),
              card(7, HEARTS), card(10, CLUBS)]
    assert round_of(spec, sevens) == 200  # suited 7-7-7 against a 7 (upcard of any suit)
    assert round_of(spec.replace(" SB=200:1", ""), sevens) == 2
    assert round_of(spec, sevens, Hitter(double=True)) == 4  # doubled: 2:1 on 2 units
    mixed = [*sevens[:4], card(7, DIAMONDS), sevens[5]]
    assert round_of(spec, mixed) == Fraction(3, 2)
    up_ten = [sevens[0], card(10, HEARTS), *sevens[2:]]
    assert round_of(spec, up_ten) == 2


def test_a_suited_blackjack_is_paid_its_own_ratio() -> None:
    spec = "6D S17 BSBJ=2:1"
    assert round_of(spec, [card(1, HEARTS), card(9, SPADES), card(10, HEARTS),
                           card(8, CLUBS)]) == 2
    assert round_of(spec, [card(1, HEARTS), card(9, SPADES), card(10, CLUBS),
                           card(8, CLUBS)]) == Fraction(3, 2)
    # pushed by a dealer blackjack, paid against it under BJW
    both = [card(1, SPADES), card(1, HEARTS), card(10, SPADES), card(10, CLUBS)]
    assert round_of(spec, both) == 0
    assert round_of(spec + " BJW", both) == 2


def test_the_shoe_carries_every_rank_in_every_suit() -> None:
    codes = shoe_codes(parse_spec(f"2D SP SPR {SUITED}")).tolist()
    assert len(codes) == 96
    assert {c: codes.count(c) for c in set(codes)} == {
        card(r, s): 2 for r in range(1, 14) if r != 10 for s in range(4)}
    assert shoe_codes(parse_spec("2D SPR")).tolist() == sorted(shoe_codes(
        parse_spec("2D SPR")).tolist())  # no suits coded where none pays


class ByCase(Script):
    """Stands 6-7 in one suit, hits it in mixed suits: the suited table's cases."""

    def decide_suits(self, upcard: int, comp: tuple[int, ...], hand_suits: tuple[int, int],
                     upcard_suit: int, options: frozenset[int]) -> int:
        return STAND if hand_suits[0] == hand_suits[1] else HIT


def test_two_card_hands_are_played_by_their_suits() -> None:
    suited = _six_seven_eight(HEARTS, HEARTS, HEARTS)
    assert round_of(f"6D S17 {SUITED}", suited, ByCase()) == 1  # stands on 13: dealer busts
    mixed = _six_seven_eight(SPADES, HEARTS, HEARTS)
    assert round_of(f"6D S17 {SUITED}", mixed, ByCase()) == Fraction(3, 2)


def test_the_frozen_strategy_plays_each_suit_case_as_the_engine_values_it() -> None:
    analysis = Analysis(parse_spec(LOUD))
    frozen = FrozenStrategy(analysis)
    six_seven = (0, 0, 0, 0, 0, 1, 1, 0, 0, 0)
    options = frozenset((STAND, HIT, DOUBLE))
    shown = {"mixed suits": ((0, 1), 2), "one suit, spades": ((0, 0), 1),
             "one suit, not spades": ((1, 1), 2)}
    cases = analysis.suit_actions(2, (6, 7))
    assert {state.label for state, _ in cases} == set(shown)
    chosen = set()
    for state, actions in cases:
        best = max((a for a in actions if a in options), key=lambda a: actions[a])
        assert frozen.decide_suits(2, six_seven, *shown[state.label], options) == best
        chosen.add(best)
    assert len(chosen) > 1  # the suits change the play of 6-7 against a 2 here
    # three 7s of one suit cannot come from two decks: that case is played by the ranks
    seven_seven = (0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
    assert frozen.decide_suits(7, seven_seven, (0, 0), 0, options) == \
        frozen.decide(7, seven_seven, options)
    # a hand whose suits pay nothing is decided as without them
    ten_six = (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)
    assert frozen.decide_suits(10, ten_six, (0, 0), 0, options) == \
        frozen.decide(10, ten_six, options)
    with pytest.raises(UsageError, match="suits are 0 to 3"):
        frozen.decide_suits(2, six_seven, (0, 4), 0, options)


# Large suit pays on two decks: playing 6-7-8 and 7-7 hands by their suits is worth 0.0016
# a round more than by ranks (about 7 standard errors of 40 million rounds).
LOUD = "2D H17 DOA DAS SPL3 LS B678=2:1/10:1/50:1 B777=3:1/20:1/100:1 SB=500:1 BSBJ=5:1"


class RanksOnly:
    """A frozen strategy that does not read suits (no ``decide_suits``)."""

    def __init__(self, frozen: FrozenStrategy) -> None:
        self.decide, self.decide_free = frozen.decide, frozen.decide_free


def test_the_simulator_meets_the_exact_ev_played_by_suits_and_by_ranks() -> None:
    rules = parse_spec(LOUD)
    by_suits = Analysis(rules)
    by_ranks = Analysis(rules, suits=False)
    rounds = 40_000_000
    suited = simulate(rules, rounds, seed=11, jobs=2, strategy=FrozenStrategy(by_suits))
    ranked = simulate(rules, rounds, seed=12, jobs=2,
                      strategy=RanksOnly(FrozenStrategy(by_ranks)))
    ev_suits, ev_ranks = float(by_suits.ev()), float(by_ranks.ev())
    assert abs(suited.mean - ev_suits) < 3 * suited.se, (suited.mean, ev_suits, suited.se)
    assert abs(ranked.mean - ev_ranks) < 3 * ranked.se, (ranked.mean, ev_ranks, ranked.se)
    # the test tells the two plays apart: each simulation is far from the other's EV
    assert abs(suited.mean - ev_ranks) > 4 * suited.se
    assert abs(ranked.mean - ev_suits) > 4 * ranked.se


SPANISH_21 = ("6D SP DOA DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 B7C=3:1 "
              "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")


@pytest.mark.slow
@pytest.mark.parametrize("soft17", ["H17", "S17"])
def test_spanish_21_simulated_a_billion_rounds_meets_its_exact_ev(soft17: str) -> None:
    """Issue 24's check: 10^9 rounds within 3 standard errors of the exact EV."""
    rules = parse_spec(f"{soft17} {SPANISH_21}")
    exact = Analysis(rules, exact=True).ev()
    result = simulate(rules, 10**9, seed=2026, jobs=2)
    assert abs(result.mean - float(exact)) < 3 * result.se, (result.mean, exact, result.se)
