"""Spanish 21 against its published figures (tests/reference/spanish21-published.md names
every source; the figures are copied there verbatim).

The game as the published house-edge table reads it: Spanish decks, H17 or S17, late
surrender, resplits to four hands aces included, hit and double split aces, double on
any number of cards, double-down rescue, a player's 21 and blackjack always win, the
21 bonuses by card count and the 6-7-8 / 7-7-7 bonuses by suit, none paid on a
doubled hand, and no Super Bonus (its pay per unit depends on the bet, so it is a
switch: ``SB=200:1`` is $1000 on a $5 bet).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from analyzer.core.rules import Rules
from analyzer.engine.analysis import Analysis
from analyzer.engine.suits import three_card_pays

GAME = ("SP DOA DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 B7C=3:1 "
        "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")

# House edge (%) as printed, two decimals: an old revision of Wikipedia's "Spanish 21"
# (6D: 0.78% H17, 0.37% S17), Walker's book (6D H17 0.78%), and the table copied at
# thetruefacs.biz (H17 .78/.80, S17 .37/.38, "H17 with redoubling" .42/.45 for 6/8 decks);
# redoubling read as "double down up to three times" (RD2).
PUBLISHED = {(6, "H17", ""): Decimal("0.78"), (8, "H17", ""): Decimal("0.80"),
             (8, "S17", ""): Decimal("0.38"), (6, "H17", "RD2"): Decimal("0.42"),
             (8, "H17", "RD2"): Decimal("0.45")}


@pytest.mark.parametrize("key", [k if k[0] == 6 else pytest.param(k, marks=pytest.mark.slow)
                                 for k in PUBLISHED])
def test_house_edges_round_to_the_published_ones(key: tuple[int, str, str]) -> None:
    decks, soft17, redouble = key
    edge = -100 * Analysis(Rules(f"{decks}D {soft17} {GAME} {redouble}")).ev()
    assert abs(Decimal(f"{edge:.6f}") - PUBLISHED[key]) <= Decimal("0.005"), edge


def test_six_deck_s17_is_a_shade_under_the_published_figure() -> None:
    """0.37% published (Wikipedia, the copied table); 0.3645% here: 0.0005 below the
    rounding interval.  The published figures are for a basic strategy (Walker says so),
    whose house edge is at least that of this composition-dependent play; every other
    figure of the same table rounds to the engine's."""
    edge = -100 * Analysis(Rules(f"6D S17 {GAME}")).ev()
    assert 0.36 < edge < 0.37


@pytest.mark.parametrize("decks, one_in", [(6, 668_382), (8, 549_188)])
def test_the_super_bonus_chance_is_the_published_one(decks: int, one_in: int) -> None:
    """"1 in 668,382" (six decks), "1 in 549,188" (eight decks): three 7s of one suit in
    the hand and a 7 up (blackjackgamesvariety.com, "Spanish 21").  The suit chance is the
    engine's (a 7-7-7 paid 2:1 in one suit, 1:1 mixed: its average pay less 1)."""
    rules = Rules(f"{decks}D SP B777=1:1/2:1/2:1")
    pays = three_card_pays(rules, super_bonus=False)
    assert pays is not None
    sevens, cards = 4 * decks, 48 * decks
    four = Fraction(sevens * (sevens - 1) * (sevens - 2) * (sevens - 3),
                    cards * (cards - 1) * (cards - 2) * (cards - 3))
    assert round(1 / (four * (pays[1] - 1))) == one_in


# Effects of single rule changes on six decks, as printed in the copied table ("Rule
# Changes / Change in House Edge": "No surrender" .018 H17, .006 S17; "No draws on split
# Aces" .28), three decimals and two.
EFFECTS = [("H17", " LS", " NS", Decimal("0.018"), Decimal("0.0005")),
           ("S17", " HSA", " NHSA", Decimal("0.28"), Decimal("0.005")),
           ("H17", " HSA", " NHSA", Decimal("0.28"), Decimal("0.005"))]


@pytest.mark.parametrize("soft17, rule, change, published, precision", EFFECTS)
def test_single_rule_effects_round_to_the_published_ones(
        soft17: str, rule: str, change: str, published: Decimal, precision: Decimal) -> None:
    game = f"6D {soft17} {GAME}"
    cost = 100 * (Analysis(Rules(game)).ev() - Analysis(Rules(game.replace(rule, change))).ev())
    assert abs(Decimal(f"{cost:.6f}") - published) <= precision, cost


def test_no_surrender_s17_is_a_shade_over_the_published_figure() -> None:
    """.006 printed; 0.0068 points here, 0.0003 past the rounding: the surrender's worth
    depends on the strategy it is played with (the table's is a basic strategy)."""
    game = f"6D S17 {GAME}"
    cost = 100 * (Analysis(Rules(game)).ev() - Analysis(Rules(game.replace(" LS", " NS"))).ev())
    assert 0.006 < cost < 0.007


def test_the_named_games_are_this_reading() -> None:
    """``spanish21`` and ``spanish21-s17`` (docs/games.md) are the rules checked above."""
    from analyzer.api.games import is_game_name
    from analyzer.core.presets import game_base

    assert game_base("spanish21") == Rules(f"6D H17 {GAME}")
    assert game_base("spanish21-s17") == Rules(f"6D S17 {GAME}")
    assert is_game_name("spanish21") and is_game_name("spanish21-s17")
