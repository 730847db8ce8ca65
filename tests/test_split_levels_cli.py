"""``--split`` on ``bja ev`` / ``bja hand``, and the ``levels`` of ``bja ev --json``."""

from __future__ import annotations

import json

import pytest

from analyzer.cli.main import main
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.report.levels import optimal_not_computed, strategy_levels


def test_hand_cdp1_matches_farmer(capsys: pytest.CaptureFixture[str]) -> None:
    """8,8 vs 10, 6D S17 DOA DAS SPL3 LS: Farmer's CDP1 split EV -47.489375082%
    (tests/reference/farmer-ca/6d-s17-das-spl3-ls-cdp1.txt)."""
    assert main(["hand", "--rules", "6D S17 DOA DAS SPL3 LS", "--up", "T", "--cards", "8,8",
                 "--split", "cdp1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["split"] == "cdp1"
    assert abs(data["actions"]["split"] * 100 - -47.489375082) <= 1e-9


def test_unknown_split_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["ev", "--rules", "1D", "--split", "cdq"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("bja: error: argument --split")


@pytest.mark.slow
def test_ev_json_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--rules", "1D H17 DOA DAS SPL1 NS", "--json", "--levels",
                 "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    levels = data["levels"]
    assert list(levels) == ["chart", "cdz", "cdp1", "cdp", "optimal"]
    assert levels["cdz"]["ev"] == data["ev"]
    assert levels["chart"]["ev"] <= levels["cdz"]["ev"] <= levels["cdp1"]["ev"] \
        <= levels["cdp"]["ev"]
    assert levels["cdp1"]["ev"] == levels["cdp"]["ev"]  # one split: the same level
    assert levels["optimal"]["not_computed"].startswith("not computed:")


@pytest.mark.slow
def test_levels_refuse_optimal_with_reason() -> None:
    levels = strategy_levels(parse_spec("6D S17 DOA DAS SPL3 LS"), optimal=True)
    assert not levels["optimal"].computed
    assert "at most 52 cards" in levels["optimal"].reason
    assert levels["chart"].ev <= levels["cdz"].ev <= levels["cdp1"].ev <= levels["cdp"].ev


def test_game_report_states_every_level() -> None:
    """The report bja build writes per game has a row per level, each the engine's own EV."""
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis
    from analyzer.report.game_report import game_report
    from analyzer.report.model import game_model

    rules = parse_spec("1D S17 DOA DAS SPL3 LS")
    shoe = parse_shoe("A:1,2:1,3:1,4:3,5:1,6:1,7:1,8:3,9:2,T:9")  # 4s and 8s resplit
    text = game_report("small", game_model(Analysis(rules, shoe), levels=True))
    rows = {line.split(" | ")[0][2:]: line.split(" | ")[1:3]
            for line in text.split("## RTP at every level of play")[1].split("\n## ")[0]
            .splitlines()
            if line.startswith("| ") and not line.startswith("| level")}
    assert list(rows) == ["chart", "cdz", "cdp1", "cdp", "optimal"]
    for level in ("cdz", "cdp1", "cdp"):
        ev = float(Analysis(rules, shoe, split=level).ev())
        assert rows[level] == [f"{ev * 100:.9f}", f"{(1 + ev) * 100:.9f}"]
    cdz, cdp1, cdp = (float(rows[v][0]) for v in ("cdz", "cdp1", "cdp"))
    assert float(rows["chart"][0]) <= cdz < cdp1 < cdp  # resplits happen: the levels differ
    assert rows["optimal"] == ["-", "-"]
    assert "## RTP at every level" not in game_report("small", game_model(Analysis(rules, shoe)))


@pytest.mark.parametrize(("spec", "exact", "says"), [
    ("6D S17 DOA DAS SPL3 LS", False, "at most 52 cards"),  # refused: too many card sets
    ("2D S17 DOA NDAS SPL2 NS SPR", False, "split-by-rank"),  # refused: memory by rank
    ("2D H17 DOA DAS SPL3 NS", False, "at most 52 cards (1 deck); this shoe has 104"),
    ("1D H17 DOA DAS SPL3 NS", False, "with resplits optimal splitting is by far the slowest"),
    ("8D S17 DOA DAS SPL1 LS", False, "only when asked for"),
    ("8D S17 DOA DAS SPL1 LS", True, "exact optimal splitting is far slower than in floats"),
])
def test_optimal_not_computed_says_why(spec: str, exact: bool, says: str) -> None:
    rules = parse_spec(spec)
    reason = optimal_not_computed(rules, Shoe.decks(rules.decks).total, exact)
    assert reason.startswith("not computed: ") and says in reason, reason


@pytest.mark.slow
def test_levels_compute_optimal_when_asked() -> None:
    """As the build asks for one-split games: optimal splitting is a figure, at least CDP."""
    shoe = Shoe([2, 3, 2, 2, 2, 2, 2, 2, 2, 8])  # a short shoe: seconds
    levels = strategy_levels(parse_spec("1D S17 DOA DAS SPL1 NS"), shoe, optimal=True, jobs=2)
    assert levels["optimal"].computed
    assert levels["cdp"].ev <= levels["optimal"].ev + 1e-12


def test_the_glossarys_small_shoe_where_cdp_is_below_cdp1() -> None:
    """docs/glossary.md said the order of the levels held for every whole round; with
    resplits CDP is a rule, not an optimum, and this shoe (a differential tester's) has CDP
    below CDP1.  The glossary now gives it as its example, with these figures."""
    from pathlib import Path

    from analyzer.core.rules import parse_spec
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    rules = parse_spec("1D H17 D10 DAS SPL2 NS CH5")
    shoe = parse_shoe("A:1,2:1,3:1,5:2,6:1,8:2,9:2,T:5")
    cdp1 = Analysis(rules, shoe, exact=True, split="cdp1").ev()
    cdp = Analysis(rules, shoe, exact=True, split="cdp").ev()
    assert cdp < cdp1
    text = (Path(__file__).parents[1] / "docs" / "glossary.md").read_text()
    assert f"CDP1 {float(100 + 100 * cdp1):.9f}%, CDP {float(100 + 100 * cdp):.9f}%" in text


def test_exact_levels_give_the_chart_as_a_fraction(capsys: pytest.CaptureFixture[str]) -> None:
    """``bja ev --exact --levels`` gave every level but the chart as a fraction (the chart's
    was its float evaluation; an adversarial test).  It is the chart's own play valued in
    fractions, the float within 1e-15, and not above CDZ-."""
    from fractions import Fraction

    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.strategy import ChartStrategy
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    spec, shoe = "1D S17 DOA NDAS NSPL NS", "A:2,2:2,3:2,4:2,5:2,6:2,7:2,8:2,9:2,T:8"
    assert main(["ev", "--rules", spec, "--shoe", shoe, "--exact", "--levels", "--json"]) == 0
    levels = json.loads(capsys.readouterr().out)["levels"]
    chart = Fraction(levels["chart"]["ev_exact"])
    rules, cards = parse_spec(spec), parse_shoe(shoe)
    run = make_chart(rules, "levels", shoe=cards)
    play = ChartStrategy(run.chart, rules)
    assert chart == Analysis(rules, cards, exact=True, strategy=play).ev()
    assert abs(float(chart) - levels["chart"]["ev"]) <= 1e-15
    assert abs(float(chart) - float(run.chart.evaluation.chart_ev)) <= 1e-15  # type: ignore
    assert chart <= Fraction(levels["cdz"]["ev_exact"])
