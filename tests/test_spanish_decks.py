"""Spanish decks (``SP``): 48-card decks, the four 10s removed and J, Q, K kept.

The rule changes only the shoe, so the checks are: the notation round-trips; every shoe
built from the rules (engine, certificate side bets, simulator) is the Spanish one, counted
here independently from the deck's ranks; the engine's figures on Spanish compositions equal
the brute-force oracle's (tests/oracle.py) as fractions; the simulator, dealing its own shoe,
agrees with the exact EV; and without ``SP`` nothing changes.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.comparisons.effects import effect_variants
from analyzer.core.errors import RuleConflictError
from analyzer.core.rules import Rules, describe_rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import dealer_distribution
from analyzer.engine.frozen import FrozenStrategy
from analyzer.sidebets.suitshoe import SuitShoe
from analyzer.sim import simulate
from analyzer.sim.config import SimRules, shoe_codes
from tests import oracle


def _spanish_counts(decks: int) -> tuple[int, ...]:
    """Value counts A..T of ``decks`` Spanish decks, from the ranks: 13 ranks less the 10,
    four suits each; J, Q and K count ten."""
    counts = [0] * 10
    for rank in (r for r in range(1, 14) if r != 10):
        counts[min(rank, 10) - 1] += 4 * decks
    return tuple(counts)


# -- the notation -----------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["6D SP", "1D SP H17 LS", "8D SP ENHC CUT300", "2D SP SPR"])
def test_sp_round_trips_and_is_said_in_words(spec: str) -> None:
    rules = parse_spec(spec)
    assert rules.spanish_decks
    assert parse_spec(format_spec(rules)) == rules and Rules(str(rules)) == rules
    assert "SP" in format_spec(rules).split()
    assert any("Spanish decks" in line for line in describe_rules(rules))
    without = rules.replace(spanish_decks=False)
    assert "SP" not in format_spec(without).split()
    assert not any("Spanish" in line for line in describe_rules(without))


def test_six_spanish_decks_are_288_cards_with_72_tens() -> None:
    shoe = parse_spec("6D SP").full_shoe()
    assert shoe.total == 288 and shoe[10] == 72
    for decks in (1, 2, 6, 8):
        rules = parse_spec(f"{decks}D SP")
        assert rules.full_shoe().counts == _spanish_counts(decks)
        assert rules.full_shoe() == Shoe(SuitShoe.decks(decks, spanish=True).values())
        assert rules.deck_cards == 48


def test_a_cut_card_must_lie_inside_the_spanish_shoe() -> None:
    assert parse_spec("1D SP CUT47").cut_card == 47
    with pytest.raises(RuleConflictError, match="CUT48 with 1D SP: .*48-card shoe"):
        parse_spec("1D SP CUT48")
    assert parse_spec("1D CUT48").cut_card == 48  # a 52-card deck holds it


def test_the_effects_table_toggles_sp() -> None:
    for spec, label in (("6D H17 LS", "SP"), ("6D SP H17 LS", "no SP")):
        base = parse_spec(spec)
        found = [v for v in effect_variants(base) if v.name == label]
        assert len(found) == 1
        assert found[0].rules == base.replace(spanish_decks=not base.spanish_decks)


# -- the engine against the oracle -------------------------------------------------------------
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_distributions_on_a_spanish_deck_equal_the_oracle(h17: bool) -> None:
    rules = parse_spec(f"1D SP {'H17' if h17 else 'S17'}")
    counts = _spanish_counts(1)
    for up in range(1, 11):
        rest = Shoe(counts).remove([up]).counts
        mine = dealer_distribution(rules.full_shoe().remove([up]).counts, up,
                                   hits_soft_17=h17, exact=True)
        theirs = oracle.dealer_distribution(rest, up, h17)
        assert theirs["bust"] == mine.bust
        for key in ("17", "18", "19", "20", "21", "blackjack"):
            assert theirs[key] == mine.outcomes[key], (up, key)


# A shoe small enough for the oracle with a Spanish deck's share of tens (1 in 4): 16 cards.
SMALL_SPANISH = (2, 1, 1, 2, 1, 2, 1, 1, 1, 4)


@pytest.mark.parametrize("spec", [
    "1D SP S17 DOA NDAS NSPL NS",
    pytest.param("1D SP H17 DOA NDAS NSPL LS ENHC", marks=pytest.mark.slow),
    pytest.param("1D SP S17 DOA DAS SPL1 LS", marks=pytest.mark.slow)])
def test_round_ev_on_a_small_spanish_shoe_equals_the_oracle(spec: str) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules, Shoe(SMALL_SPANISH), exact=True)
    assert analysis.by_upcard() == oracle.round_ev_by_upcard(rules, SMALL_SPANISH)
    assert analysis.ev() == oracle.round_ev(rules, SMALL_SPANISH)


def test_the_engine_analyses_the_spanish_shoe_of_the_rules() -> None:
    spanish = parse_spec("2D SP H17 LS")
    assert Analysis(spanish).shoe == Shoe(_spanish_counts(2))
    same = Analysis(spanish.replace(spanish_decks=False), Shoe(_spanish_counts(2)))
    assert Analysis(spanish).ev() == same.ev()


# -- without SP nothing changes ----------------------------------------------------------------
@pytest.mark.parametrize("spec", ["1D ENHC", "6D H17 LS"])
def test_a_full_deck_figure_changes_only_where_sp_is_given(spec: str) -> None:
    rules = parse_spec(spec)
    decks = rules.decks
    assert rules.full_shoe() == Shoe([4 * decks] * 9 + [16 * decks])
    assert SimRules.of(rules).limits == (*[4 * decks] * 9, 16 * decks)
    assert len(shoe_codes(rules)) == 52 * decks
    plain = Analysis(rules).ev()
    assert plain == Analysis(rules, Shoe([4 * decks] * 9 + [16 * decks])).ev()
    assert Analysis(rules.replace(spanish_decks=True)).ev() < plain  # tens removed: worse


# -- the simulator -------------------------------------------------------------------------------
def test_the_simulator_deals_spanish_decks() -> None:
    for spr in (False, True):
        rules = parse_spec(f"2D SP{' SPR' if spr else ''}")
        codes = shoe_codes(rules)
        assert len(codes) == 96
        if spr:  # real ranks: no 10 at all, J, Q and K eight each
            assert 10 not in codes.tolist()
            assert [int(n) for n in np.bincount(codes, minlength=14)[11:]] == [8, 8, 8]
        values = np.minimum(codes, 10)
        assert tuple(int(n) for n in np.bincount(values, minlength=11)[1:]) \
            == _spanish_counts(2)
        assert SimRules.of(rules).limits == _spanish_counts(2)


def test_the_simulator_agrees_with_the_exact_ev_on_a_spanish_game() -> None:
    rules = parse_spec("1D SP H17 DOA DAS SPL3 RSA HSA LS")
    analysis = Analysis(rules)
    exact = float(analysis.ev())
    result = simulate(rules, 4_000_000, seed=24, jobs=2, strategy=FrozenStrategy(analysis))
    assert abs(result.z(exact)) < 3, (result.mean, result.se, exact)
    # Far from the same game on 52-card decks: the test could see a wrong shoe.
    plain = float(Analysis(rules.replace(spanish_decks=False)).ev())
    assert abs(plain - exact) > 8 * result.se


# -- pairs split by rank: three ten ranks ---------------------------------------------------------
def _same_rank_by_enumeration(decks: int, upcard: int) -> Fraction:
    """Chance the player's two cards share a rank given both are ten-valued, counted over the
    Spanish shoe's real ranks (J, Q, K; one of the upcard's rank gone when it is a ten)."""
    ranks = dict.fromkeys((11, 12, 13), 4 * decks)
    if upcard == 10:
        ranks[11] -= 1
    tens = sum(ranks.values())
    return Fraction(sum(n * (n - 1) for n in ranks.values()), tens * (tens - 1))


@pytest.mark.parametrize("decks", [1, 6])
@pytest.mark.parametrize("upcard", [5, 10])
def test_ten_valued_pairs_split_by_rank_among_three_ranks(decks: int, upcard: int) -> None:
    """Spanish decks have three ten ranks, not four: the chance a ten pair is of one rank
    (1D, upcard 5) is 3/11, where four ranks would say 2/11."""
    analysis = Analysis(parse_spec(f"{decks}D SP SPR"), exact=True)
    assert analysis._same_rank(upcard) == _same_rank_by_enumeration(decks, upcard)
