"""Game protection: exact effects of removal, the counts, and the simulated counter."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.core.errors import SimulationError
from analyzer.sidebets.bets import BETS, BetOptions, get_bet
from analyzer.sidebets.paytable import preset, presets
from analyzer.sidebets.protection import best_tags, card_effects, protection, simulate_counter
from analyzer.sidebets.stats import par_sheet
from analyzer.sidebets.suitshoe import CARDS, SuitShoe, parse_suit_shoe

DEPLETED = parse_suit_shoe("2decks-AS*2-KH-QH-7C*2-5D-TS-TD-2H")


def _less(shoe: SuitShoe, card: tuple[int, int]) -> SuitShoe:
    counts = list(shoe.counts)
    counts[CARDS.index(card)] -= 1
    return SuitShoe(counts)


SLOW_COUNTS = {"21+3", "hot3", "21+3-classic", "21+3-xtreme", "lucky-lucky",
               "match-the-dealer", "bust-it", "buster-blackjack"}


def _check_effects(name: str, shoe: SuitShoe, every: bool) -> None:
    """EORs sum to zero weighted by the shoe, exactly, and each is the difference of two
    exact par sheets computed from scratch (the shoe with and without the card): every
    card, or every 7th (13th for the dealer bets: their effects are by value) for the bets slow
    to recount (``every`` under ``slow``)."""
    bet = get_bet(name)
    table = preset(bet)
    outcomes = bet.outcomes(shoe, removals=True)
    base, effects = card_effects(bet, outcomes, table)
    assert set(effects) == {c for c, _ in shoe.items()}
    assert sum((shoe.count(c) * e for c, e in effects.items()), Fraction(0)) == 0
    stride = 1 if every or name not in SLOW_COUNTS else 13 if bet.dealer else 7
    checked = [c for c, _ in shoe.items()][::stride]
    for card in checked:
        less = _less(shoe, card)
        fresh = par_sheet(bet, bet.outcomes(less), table, "").ev
        assert effects[card] == fresh - base, card


@pytest.mark.parametrize("name", list(BETS))
@pytest.mark.parametrize("shoe", [SuitShoe.decks(1), DEPLETED], ids=["1deck", "depleted"])
def test_effects_of_removal_are_exact(name: str, shoe: SuitShoe) -> None:
    _check_effects(name, shoe, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_COUNTS))
def test_effects_of_removal_every_card(name: str) -> None:
    _check_effects(name, DEPLETED, every=True)


@pytest.mark.parametrize("name", ["21+3-classic", "match-the-dealer", "lucky-ladies",
                                  "super-sevens", "buster-blackjack"])
def test_effects_of_removal_eight_decks(name: str) -> None:
    """The one-pass removal counts against recounts on a big shoe, every pay table."""
    bet = get_bet(name)
    shoe = SuitShoe.decks(8)
    outcomes = bet.outcomes(shoe, removals=True)
    for card in [(1, 0), (7, 2)] if bet.dealer else [(1, 0), (7, 2), (12, 1), (13, 0)]:
        fresh = bet.outcomes(_less(shoe, card))
        mine = outcomes.without(card)
        for table in presets(bet):
            assert par_sheet(bet, mine, table, "").ev == par_sheet(bet, fresh, table, "").ev


def test_spanish_effects_of_removal_sum_to_zero() -> None:
    bet = get_bet("match-the-dealer")
    shoe = SuitShoe.decks(6, spanish=True)
    _, effects = card_effects(bet, bet.outcomes(shoe, removals=True), preset(bet, "4-9"))
    assert (10, 0) not in effects
    assert sum((shoe.count(c) * e for c, e in effects.items()), Fraction(0)) == 0


@pytest.mark.parametrize("name", list(BETS))
def test_simulator_agrees_with_the_exact_return_off_the_top(name: str) -> None:
    """The first round of every shoe, always bet, within 3 standard errors of the exact
    return (two decks, 4,000 shoes); and the counter's win rate has a standard error."""
    bet = get_bet(name)
    shoe = SuitShoe.decks(2)
    options = BetOptions()
    pro = protection(bet, shoe, bet.outcomes(shoe, options, removals=True), preset(bet),
                     options, shoes=4_000)
    sim = pro.simulated
    assert sim is not None
    assert abs(sim.top_mean - float(pro.ev)) <= 3 * sim.top_se
    assert sim.win_se >= 0 and 0 <= sim.positive <= 1
    if pro.best.trigger is None:
        assert sim.positive == 0 and sim.win_per_100 == 0


def test_simulation_is_reproducible_and_seeded() -> None:
    bet = get_bet("lucky-ladies")
    shoe = SuitShoe.decks(2)
    outcomes = bet.outcomes(shoe, removals=True)
    a = protection(bet, shoe, outcomes, preset(bet), BetOptions(), shoes=500, seed=1)
    b = protection(bet, shoe, outcomes, preset(bet), BetOptions(), shoes=500, seed=1)
    c = protection(bet, shoe, outcomes, preset(bet), BetOptions(), shoes=500, seed=2)
    assert a == b and a.simulated != c.simulated


def test_counts_follow_the_effects() -> None:
    """Lucky Ladies: removing tens hurts, small cards help; the best count has the 10-valued
    cards negative, the trigger is positive, and a counter betting at it wins on average."""
    bet = get_bet("lucky-ladies")
    shoe = SuitShoe.decks(2)
    pro = protection(bet, shoe, bet.outcomes(shoe, removals=True), preset(bet), BetOptions(),
                     shoes=6_000)
    ranks = {r: e for r, _, e in pro.rank_effects}
    assert ranks[10] < 0 < ranks[5] and ranks[12] < ranks[13]  # queens hurt most (Q of hearts)
    assert pro.suits_pay  # the queen of hearts
    assert all(c.tags[9] < 0 <= c.tags[4] for c in pro.counts)
    assert pro.best.correlation > 0.95 and pro.best.trigger is not None
    assert pro.best.trigger > 0
    sim = pro.simulated
    assert sim is not None and sim.edge_when_bet is not None and sim.edge_when_bet > 0


def test_pair_bets_have_no_linear_count() -> None:
    """On a full shoe every rank is alike to a pair bet: its rank effects are all zero."""
    bet = get_bet("perfect-pairs")
    shoe = SuitShoe.decks(6)
    pro = protection(bet, shoe, bet.outcomes(shoe, removals=True), preset(bet), BetOptions(),
                     simulate=False)
    assert all(e == 0 for _, _, e in pro.rank_effects)
    assert pro.best.trigger is None and pro.simulated is None
    assert all(t == 0 for c in pro.counts for t in c.tags)  # K was tagged -1 by the search


def test_simulator_refuses_bad_sizes() -> None:
    bet = get_bet("hot3")
    shoe = SuitShoe.decks(1)
    pro = protection(bet, shoe, bet.outcomes(shoe, removals=True), preset(bet), BetOptions(),
                     simulate=False)
    with pytest.raises(SimulationError, match="shoes 0 must be"):
        simulate_counter(bet, shoe, preset(bet), BetOptions(), pro.best, shoes=0)
    with pytest.raises(SimulationError, match="removed"):
        card_effects(bet, bet.outcomes(shoe), preset(bet))


# --- Bust It's played reading (simulated) ---------------------------------------------------

def test_played_reading_simulator_reproduces_the_exact_reading_when_the_player_stands() -> None:
    """With a player who always stands, the played reading is the exact ``removed`` reading:
    every event's share within 3 standard errors; with the strategy, the seeded run repeats."""
    from analyzer.core.rules import Rules
    from analyzer.sidebets.bustplayed import simulate_played

    shoe = SuitShoe.decks(2)
    exact = get_bet("bust-it").outcomes(shoe)
    played = simulate_played(shoe.values(), Rules(decks=2), 40_000, 3, stand_only=True)
    for event in exact.counts:
        p = float(exact.probability(event))
        se = (p * (1 - p) / played.rounds) ** 0.5
        assert abs(played.probability(event) - p) <= 3 * se + 1e-12, event
    a = simulate_played(shoe.values(), Rules(decks=2), 2_000, 5)
    assert a == simulate_played(shoe.values(), Rules(decks=2), 2_000, 5)
    assert sum(a.counts.values()) == 2_000


def test_played_reading_refuses_bad_sizes() -> None:
    from analyzer.core.errors import ShoeError
    from analyzer.core.rules import Rules
    from analyzer.sidebets.bustplayed import simulate_played

    with pytest.raises(SimulationError, match="rounds 0"):
        simulate_played(SuitShoe.decks(1).values(), Rules(decks=1), 0, 1)
    with pytest.raises(ShoeError, match="40 cards"):
        simulate_played((2,) * 9 + (8,), Rules(decks=1), 10, 1)


@pytest.mark.parametrize(("argv", "needle"), [
    (["any-pair", "--protection", "--shoe", "AS:2"], "holds one deal"),
    (["21+3", "--protection", "--shoe", "AS:3"], "holds one deal"),
    (["21+3", "--decks", "1000", "--protection"], "give 961 shoes or fewer"),
    (["21+3", "--decks", "8", "--protection", "--shoes", "200000"], "at most 50,000,000"),
    # one shoe past the cap: the advice is a smaller shoe, not "1 shoes or fewer"
    (["21+3", "--decks", "1000000", "--protection", "--shoes", "1"],
     "give a shoe of at most 50,000,000 cards"),
])
def test_protection_refuses_what_it_cannot_do_in_one_line(
        argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A shoe of one deal divided by zero (a traceback); 1,000 decks dealt 20,000 shoes at
    once and reached 17 GB before it was killed (found by an adversarial test)."""
    from analyzer.cli.main import main

    assert main(["sidebet", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: ") and err.count("\n") == 1 and needle in err


def test_the_played_readings_large_shoe_draw_is_a_shuffle() -> None:
    """Past 5,000 cards the played reading draws a round's cards value by value instead of
    shuffling a whole shoe per round (a million decks tried to allocate 969 GiB): every
    ordering of a small shoe's cards comes at its exact chance (chi-square, fixed seed)."""
    import itertools

    import numpy as np

    from analyzer.sidebets.bustplayed import _first_cards

    values = (2, 1, 0, 0, 0, 0, 0, 0, 0, 1)  # A A 2 T: 12 orderings, each 1/12
    rows = _first_cards(np.random.default_rng(7), values, 120_000, 4)
    orders = sorted(set(itertools.permutations((1, 1, 2, 10))))
    seen = [int((rows == np.array(o)).all(axis=1).sum()) for o in orders]
    assert sum(seen) == len(rows)  # nothing outside the shoe's orderings
    expected = len(rows) / len(orders)
    chi2 = sum((n - expected) ** 2 / expected for n in seen)
    assert chi2 < 31.26  # p > 0.001 on 11 degrees of freedom


def _brute_best(level: int, copies: list[int], effects: list[float]) -> float:
    """The highest betting correlation of every tag set from -level to level, one by one."""
    tags = np.array(list(itertools.product(range(-level, level + 1), repeat=len(copies))),
                    dtype=float)
    n, e = np.array(copies, dtype=float), np.array(effects)
    a, b, c = tags @ n, (tags * tags) @ n, tags @ (n * e)
    spread = b - a * a / n.sum()
    ok = spread > 1e-9
    return float((c[ok] / np.sqrt(spread[ok])).max())


def _correlation(copies: list[int], effects: list[float], tags: tuple[int, ...]) -> float:
    n, e, t = (np.array(x, dtype=float) for x in (copies, effects, tags))
    spread = float((n * t * t).sum() - (n * t).sum() ** 2 / n.sum())
    return float((n * e * t).sum()) / math.sqrt(spread)


def test_best_tags_are_the_best_of_every_tag_set() -> None:
    """The search against all (2L+1)^k tag sets, on random effects and counts (equal, as
    in whole decks, and unequal, as in depleted shoes), with ties among the effects."""
    rng = random.Random(5)
    for trial in range(40):
        k = rng.choice([3, 5, 6, 7])
        copies = [24] * k if trial % 3 == 0 else [rng.randint(1, 30) for _ in range(k)]
        raw = [rng.choice([rng.gauss(0, 1), 0.5, 0.0]) for _ in range(k)]
        mean = sum(n * x for n, x in zip(copies, raw, strict=True)) / sum(copies)
        effects = [x - mean for x in raw]
        if max(effects) - min(effects) < 1e-9:
            continue
        for level in (1, 2, 3):
            if (2 * level + 1) ** k > 100_000:
                continue
            found = best_tags(level, copies, effects)
            assert max(map(abs, found)) <= level
            assert _correlation(copies, effects, found) == pytest.approx(
                _brute_best(level, copies, effects), rel=1e-12)


def test_hot3_counts_are_the_best_of_their_level() -> None:
    """Hot 3, six decks: each level's count was the effects rounded to integers, which is
    not the best (level 1: 0.9173 where 0.9424 is reachable; level 2 scored below level 1).
    Level 1 is checked against all 3^13 tag sets, and 0.9424 and 0.9796 (levels 1 and 2)
    were found by an independent search (a helper's, over the program's exact effects)."""
    bet = get_bet("hot3")
    shoe = SuitShoe.decks(6)
    pro = protection(bet, shoe, bet.outcomes(shoe, removals=True), preset(bet), BetOptions(),
                     simulate=False)
    copies = [n for _, n, _ in pro.rank_effects]
    effects = [float(e) for _, _, e in pro.rank_effects]
    one, two, three = pro.counts
    assert len(copies) == 13  # every rank in the shoe: the tags are the rank_effects' order
    assert _correlation(copies, effects, one.tags) == pytest.approx(
        _brute_best(1, copies, effects), rel=1e-12)
    assert round(one.correlation, 4) == 0.9424 and round(two.correlation, 4) == 0.9796
    assert one.correlation <= two.correlation <= three.correlation
    assert pro.best is three
