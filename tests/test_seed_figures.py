"""The seed games' figures, pinned perft-style in ``tests/reference/seed-games.txt``.

Each line of the file names a game, a figure, its exact value (a fraction) where
there is one, its decimal, and where it came from.  The default run recomputes
the float figures (RTPs in float arithmetic, side bets exactly: they take well
under a second); the slow run recomputes the exact fractions of the RTPs (about
a minute per 8-deck game) and the basic charts' EVs.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

from analyzer.core.presets import PRESETS

REFERENCE = Path(__file__).parent / "reference" / "seed-games.txt"


class Figure(NamedTuple):
    game: str
    figure: str
    exact: Fraction | None
    decimal: float
    source: str


def read_figures() -> list[Figure]:
    figures = []
    for line in REFERENCE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        game, figure, exact, decimal, source = (f.strip() for f in line.split("|"))
        figures.append(Figure(game, figure, None if exact == "-" else Fraction(exact),
                              float(decimal), source))
    return figures


FIGURES = read_figures()


def _of(kind: str) -> list[Figure]:
    return [f for f in FIGURES if f.figure.split()[0] == kind]


def test_the_file_covers_every_seed_game_and_names_its_sources() -> None:
    assert {f.game for f in _of("rtp")} == set(PRESETS)
    assert {f.game for f in _of("chart_ev")} == set(PRESETS)
    assert {f.figure for f in _of("sidebet")} == {
        "sidebet 21+3 rtp", "sidebet hot3 rtp", "sidebet any-pair rtp", "sidebet bust-it rtp"}
    for f in FIGURES:
        assert f.source and "bja" in f.source
        if f.exact is not None:  # the decimal is the fraction's, to the digits printed
            assert abs(float(f.exact) - f.decimal) < 1e-15


@pytest.mark.parametrize("figure", _of("rtp"), ids=lambda f: f.game)
def test_rtp_float(figure: Figure) -> None:
    from analyzer.engine.analysis import Analysis

    rtp = 1 + Analysis(PRESETS[figure.game].rules).ev()
    assert abs(rtp - figure.decimal) < 1e-12  # float and exact paths agree to ~1e-15


@pytest.mark.parametrize("figure", _of("sidebet"), ids=lambda f: f.figure.split()[1])
def test_sidebet_rtp_exact(figure: Figure) -> None:
    from analyzer.sidebets.bets import BetOptions, get_bet
    from analyzer.sidebets.paytable import preset
    from analyzer.sidebets.stats import par_sheet
    from analyzer.sidebets.suitshoe import SuitShoe

    bet = get_bet(figure.figure.split()[1])
    shoe = SuitShoe.decks(8)
    sheet = par_sheet(bet, bet.outcomes(shoe, BetOptions()), preset(bet, "seed"),
                      shoe.describe())
    assert sheet.rtp == figure.exact


@pytest.mark.slow
@pytest.mark.parametrize("figure", _of("rtp"), ids=lambda f: f.game)
def test_rtp_exact(figure: Figure) -> None:
    from analyzer.engine.analysis import Analysis

    assert 1 + Analysis(PRESETS[figure.game].rules, exact=True).ev() == figure.exact


@pytest.mark.slow
@pytest.mark.parametrize("figure", _of("chart_ev"), ids=lambda f: f.game)
def test_chart_ev(figure: Figure) -> None:
    from analyzer.charts.evaluate import make_chart

    run = make_chart(PRESETS[figure.game].rules, figure.game)
    assert run.chart.evaluation is not None
    assert abs(run.chart.evaluation.chart_ev - figure.decimal) < 1e-12
