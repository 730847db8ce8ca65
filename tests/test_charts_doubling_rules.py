"""Charts under DAN, RDn, DDR and SAH: codes that double or surrender after hitting,
card-count rows, the doubled-hand section (rescue, redouble), and the chart's exact EV.

The chart's EV is a policy evaluation (:mod:`analyzer.engine.fixed`); the simulator plays
the same chart through its own round loop and must meet it.  A chart never beats the
optimum it is derived from, and it must be close to it: a total-dependent chart of these
games costs hundredths of a percent, not tenths.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.charts.evaluate import FREE_CAVEAT, evaluate, make_chart
from analyzer.charts.exceptions import find_exceptions
from analyzer.charts.fileformat import format_chart, parse_sections
from analyzer.charts.model import Chart, RowKey
from analyzer.charts.strategy import DOUBLED_SECTION, ChartStrategy
from analyzer.core.actions import DOUBLE, HIT, STAND, SURRENDER
from analyzer.core.errors import ChartError
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.sim.estimate import simulate

SPANISH = ("6D SP H17 DOA DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 B7C=3:1 "
           "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")


@pytest.fixture(scope="module")
def spanish() -> Chart:
    return make_chart(parse_spec(SPANISH), "spanish").chart


def test_the_spanish_chart_is_close_to_the_optimum_and_below_it(spanish: Chart) -> None:
    ev = spanish.evaluation
    assert ev is not None
    assert ev.chart_ev < ev.optimum_ev  # the optimum reads suits and compositions
    assert ev.optimum_ev - ev.chart_ev < 2e-4
    rank_only = Analysis(parse_spec(SPANISH), suits=False).ev()
    assert ev.chart_ev < rank_only


def test_the_spanish_chart_doubles_after_hitting_and_rescues(spanish: Chart) -> None:
    main = spanish.main
    # a three-card 11 doubles against a small card: DAN, in the chart as a D
    assert main.code(RowKey("H", 11, 3), 6) == "D" or (
        RowKey("H", 11, 3) not in main.rows and main.code(RowKey("H", 11), 6) == "D")
    strategy = ChartStrategy(spanish, spanish.rules)
    three = (0, 1, 1, 0, 0, 1, 0, 0, 0, 0)  # 2-3-6: hard 11
    options = frozenset((STAND, HIT, DOUBLE))
    assert strategy.decide(6, three, options) == DOUBLE
    assert strategy.decide(6, three, frozenset((STAND, HIT))) == HIT  # D falls back
    doubled = spanish.section(DOUBLED_SECTION)
    assert set(code for codes in doubled.rows.values() for code in codes) == {"S", "Rs"}
    # a doubled hard 16 is given up against a ten and kept against a 6
    sixteen = (0, 1, 0, 1, 0, 0, 0, 0, 0, 1)  # 2-4-T
    assert strategy.decide_rescue(10, sixteen) is True
    assert strategy.decide_rescue(6, sixteen) is False
    assert strategy.decide_redouble(10, sixteen, 1) is False  # no redoubling here


def test_a_doubled_hand_section_brings_no_free_bet_caveat(spanish: Chart) -> None:
    """The caveat about the free-bet hand's section was printed for every chart of more
    than one section: Spanish 21's doubled-hand section too, where no free bet exists."""
    assert [s.name for s in spanish.sections] == ["main", DOUBLED_SECTION]
    assert FREE_CAVEAT not in spanish.notes
    assert not [note for note in spanish.notes if "free-bet" in note]


def test_the_chart_file_round_trips_with_its_doubled_hand_section(spanish: Chart) -> None:
    text = format_chart(spanish)
    assert "[doubled-hand]" in text
    sections = parse_sections(text, rules=spanish.rules)
    again = Chart(rules=spanish.rules, sections=sections, title="again")
    assert [s.rows for s in again.sections] == [s.rows for s in spanish.sections]
    figures, _, _ = evaluate(again)
    assert spanish.evaluation is not None
    assert figures.chart_ev == spanish.evaluation.chart_ev


def test_the_doubled_hand_section_decides_the_chart_ev(spanish: Chart) -> None:
    """Without its doubled-hand section every doubled hand stands: worth less."""
    plain = Chart(rules=spanish.rules, sections=(spanish.main,), title="no rescue")
    figures, _, _ = evaluate(plain)
    assert spanish.evaluation is not None
    assert figures.chart_ev < spanish.evaluation.chart_ev - 1e-4


def test_files_that_do_not_fit_the_rules_are_refused() -> None:
    rules = parse_spec("6D S17 DAN DDR")
    row = "H16," + ",".join(["S"] * 6 + ["Rs"] * 4) + "\n"
    with pytest.raises(ChartError, match=r"\[doubled-hand\] is for games where a doubled hand"):
        parse_sections("[doubled-hand]\n" + row, rules=parse_spec("6D S17 DAN"),
                       require_all=False)
    with pytest.raises(ChartError, match=r"code Ds in \[doubled-hand\]"):
        parse_sections("[doubled-hand]\n" + row.replace("Rs", "Ds"), rules=rules,
                       require_all=False)
    with pytest.raises(ChartError, match="a doubled hand is never a pair"):
        parse_sections("[doubled-hand]\nP8," + ",".join(["S"] * 10) + "\n", rules=rules,
                       require_all=False)
    parse_sections("[doubled-hand]\n" + row, rules=rules, require_all=False)  # fits


@pytest.mark.parametrize("spec", [
    "2D H17 DOA DAS SPL3 LS DAN DDR RD1 SAH B5C=3:2",
    pytest.param("2D SP S17 DOA NDAS SPL3 RSA HSA LS DAN DDR RD2 P21W BJW BND B5C=3:2",
                 marks=pytest.mark.slow)])
def test_the_simulator_playing_the_chart_meets_its_exact_ev(spec: str) -> None:
    rules = parse_spec(spec)
    run = make_chart(rules, "chart")
    chart = run.chart
    assert chart.evaluation is not None
    codes = {c for s in chart.sections for codes in s.rows.values() for c in codes}
    assert {"Rs", "Ds"} <= codes  # rescue and redouble are in play
    result = simulate(rules, 16_000_000, seed=47, jobs=2,
                      strategy=ChartStrategy(chart, rules))
    assert abs(result.z(chart.evaluation.chart_ev)) < 3, (result.mean, result.se)
    assert chart.evaluation.chart_ev <= chart.evaluation.optimum_ev


def test_sah_charts_surrender_after_hitting() -> None:
    rules = parse_spec("6D H17 DOA DAS SPL3 LS SAH")
    run = make_chart(rules, "sah")
    strategy = ChartStrategy(run.chart, rules)
    sixteen = (0, 0, 1, 0, 0, 1, 1, 0, 0, 0)  # 3-6-7
    assert strategy.decide(10, sixteen, frozenset((STAND, HIT, SURRENDER))) == SURRENDER
    ev = run.chart.evaluation
    assert ev is not None and ev.optimum_ev - 3e-4 < ev.chart_ev <= ev.optimum_ev
    exceptions = find_exceptions(run.chart, run.optimum, run.deriver)
    assert all(e.best_action in (STAND, HIT, SURRENDER, DOUBLE) for e in exceptions)


def test_card_count_rows_repeat_a_later_code_where_an_upcard_has_none(spanish: Chart) -> None:
    """A card-count row's cell no upcard decided plays its base row's code: under DAN a D
    stays a D (it doubles three cards), not its fallback."""
    main = spanish.main
    for key, codes in main.rows.items():
        if key.cards is None or key.kind == "P":
            continue
        base = main.rows[key.base]
        for code, under in zip(codes, base, strict=True):
            if code != under:
                assert code in ("H", "S", "D", "Ds"), (key, code)
    assert np.any([key.cards is not None for key in main.rows])
