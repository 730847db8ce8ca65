"""Derived charts against the engine and against Eric Farmer's published CD strategy table.

Farmer's analyzer (tests/reference/farmer-ca, see tests/farmer_reference.py for
the source) saves the CDZ- optimal first decision of every two-card hand for
6D S17 DOA DAS SPL3 LS.  That table is composition-dependent; our chart is
total-dependent, so the two can differ exactly where Farmer's table gives two
hands of the same total different plays against the same upcard.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from analyzer.charts.evaluate import ChartRun, make_chart
from analyzer.charts.exceptions import contribution, find_exceptions
from analyzer.charts.model import UPCARDS, Chart
from analyzer.charts.strategy import ChartStrategy, hand_shape
from analyzer.cli.chart import register
from analyzer.cli.main import _Parser
from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from tests.farmer_reference import REFERENCE_DIR

SPEC_6D = "6D S17 DOA DAS SPL3 LS"
SPEC_1D = "1D H17 DOA NDAS SPL1 NS"
FARMER_ACTIONS = {"S": STAND, "H": HIT, "D": DOUBLE, "P": SPLIT, "R": SURRENDER}


@pytest.fixture(scope="module")
def run6() -> ChartRun:
    return make_chart(parse_spec(SPEC_6D), "6d")


@pytest.fixture(scope="module")
def run1() -> ChartRun:
    return make_chart(parse_spec(SPEC_1D), "1d")


def farmer_table() -> dict[tuple[int, int, int], str]:
    """(card, card, upcard) -> Farmer's code (first letter: the best play)."""
    text = (REFERENCE_DIR / "6d-s17-das-spl3-ls-cdz.txt").read_text()
    table = text.split("SAVED STRATEGY TABLE FILE")[1].split("S = Stand")[0]
    cells = {}
    for m in re.finditer(r"^\s*(10|[2-9A])-\s*(10|[2-9A]) \|(.*)$", table, re.M):
        a, b = (1 if x == "A" else int(x) for x in m.groups()[:2])
        for u, code in zip(UPCARDS, m.group(3).split(), strict=True):
            cells[(a, b, u)] = code
    return cells


def comp(*cards: int) -> tuple[int, ...]:
    c = [0] * 10
    for v in cards:
        c[v - 1] += 1
    return tuple(c)


def test_two_card_decisions_agree_with_farmers_cd_table(run6: ChartRun) -> None:
    table = farmer_table()
    assert len(table) == 540  # 44 hard, 8 soft and 10 pair hands x 10 upcards
    strategy = ChartStrategy(run6.chart, run6.chart.rules)
    differ = {}
    for (a, b, u), code in table.items():
        options = frozenset(run6.optimum.actions(u, (a, b)))
        mine = strategy.decide(u, comp(a, b), options)
        if mine != FARMER_ACTIONS[code[0].upper()]:
            differ[(a, b, u)] = (code, strategy.code_for(u, comp(a, b), options))
    # 10-2 vs 4 hits while 9-3, 8-4, 7-5 stand; 8-7 vs T hits while T-5, 9-6 surrender.
    assert differ == {(10, 2, 4): ("h", "S"), (8, 7, 10): ("h", "R")}
    for (a, b, u), (_code, ours) in differ.items():
        total = hand_shape(comp(a, b))[:2]
        same_total = [c for (x, y, w), c in table.items()
                      if w == u and (x, y) != (a, b) and x != y
                      and hand_shape(comp(x, y))[:2] == total]
        assert any(c[0].upper() == ours[0] for c in same_total)  # Farmer splits the total


def test_6d_ls_figures_are_pinned(run6: ChartRun) -> None:
    ev = run6.chart.evaluation
    assert ev is not None
    assert ev.optimum_ev == pytest.approx(-0.00330268037, abs=1e-11)  # Farmer: -0.330268037%
    assert ev.chart_ev == pytest.approx(-0.003317035785, abs=1e-11)
    assert ev.gap == pytest.approx(-0.0000143554, abs=1e-10)
    assert ev.chart_ev <= ev.optimum_ev


def test_1d_chart_is_below_the_optimum_and_a_local_optimum(run1: ChartRun) -> None:
    """No single cell changed to a close runner-up code raises the exact EV."""
    ev = run1.chart.evaluation
    assert ev is not None and ev.chart_ev < ev.optimum_ev
    rules, main = run1.chart.rules, run1.chart.main
    tried = 0
    for (key, u), values in sorted(main.evs.items(), key=lambda kv: (kv[0][0].sort_key(),
                                                                    kv[0][1])):
        current = main.code(key, u)
        for alt, value in values.items():
            if alt == current or alt not in main.rows[key] + ("H", "S", "D", "Ds", "R"):
                continue
            if key.kind == "P" or value < values.get(current, value) - 0.01:
                continue
            codes = list(main.rows[key])
            codes[UPCARDS.index(u)] = alt
            rows = dict(main.rows)
            rows[key] = tuple(codes)
            changed = Chart(rules=rules, sections=(dataclasses.replace(main, rows=rows),),
                            title="x")
            other = Analysis(rules, strategy=ChartStrategy(changed, rules)).upcard_ev(u)
            assert other <= run1.played.upcard_ev(u) + 1e-15, (key.label, u, alt)
            tried += 1
    assert tried > 20


def test_derived_hit_values_are_the_engines_policy_values(run1: ChartRun) -> None:
    main = run1.chart.main
    for u in (2, 10, 1):
        mine = run1.deriver.hit_values(main, u)
        engine = run1.played.upcard(u).values
        space = engine.space
        several = (space.ncards >= 3) | ((space.ncards == 2) & (space.total < 21))  # not BJ
        assert abs(mine[several] - engine.hit[several]).max() < 1e-12


def test_exceptions_match_farmers_list(run6: ChartRun) -> None:
    exceptions = find_exceptions(run6.chart, run6.optimum, run6.deriver)
    shown = {(e.row.label if e.row else "", e.upcard, e.cards) for e in exceptions}
    text = (REFERENCE_DIR / "6d-s17-das-spl3-ls-cdz.txt").read_text()
    farmer = re.search(r"Hard 16 vs\. T : stand except, (.*)", text)
    assert farmer is not None
    # Farmer lists every hard 16 that should hit vs T; the two-card ones are our surrenders.
    hits = {h for h in farmer.group(1).split(", ") if len(h) > 2}
    ours = {cards.replace("-", "") for label, u, cards in shown if label == "H16" and u == 10}
    assert ours == hits and len(hits) == 21
    soft = {cards for label, u, cards in shown if label == "S18" and u == 1}
    assert soft == {"A-2-2-3", "A-A-3-3", "A-A-2-2-2", "A-A-A-2-3", "A-A-A-A-2-2",
                    "A-A-A-A-A-3", "A-A-A-A-A-A-2"}
    assert ("H12", 4, "2-T") in shown and ("H15", 10, "7-8") in shown
    assert len(exceptions) == 30
    gap = run6.chart.evaluation.gap if run6.chart.evaluation else 0.0
    assert contribution(run6.chart, run6.optimum, exceptions) == pytest.approx(-gap, rel=0.05)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    parser = _Parser(prog="bja")
    register(parser.add_subparsers(dest="command", required=True, parser_class=_Parser))
    args = parser.parse_args(list(argv))
    out = args.func(args)
    return out if isinstance(out, str) else json.dumps(out)


def test_the_csv_chart_wrote_evaluates_to_the_ev_it_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.csv"
    reported = json.loads(_cli(capsys, "chart", "--rules", SPEC_1D, "--format", "csv",
                               "--out", str(path), "--json"))
    evaluated = json.loads(_cli(capsys, "evaluate", "--rules", SPEC_1D, "--chart", str(path),
                                "--json"))
    assert evaluated["ev"] == reported["ev"]
    assert evaluated["optimum_ev"] == reported["optimum_ev"]
    assert set(evaluated["by_upcard"]) == {"2", "3", "4", "5", "6", "7", "8", "9", "T", "A"}
    assert f"# chart EV (exact, as written): {reported['ev'] * 100:.9f}%" in path.read_text()
    text = _cli(capsys, "evaluate", "--rules", SPEC_1D, "--chart", str(path))
    assert f"{reported['ev'] * 100:15.9f}" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["6d-h17-das", "8d-s17-das", "2d-h17-das", "1d-h17-bj65",
                                  "6d-s17-enhc", "charlie7", "free-bet", "privilege",
                                  "four-jacks"])
def test_every_chart_is_below_its_optimum_and_round_trips(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.csv"
    reported = json.loads(_cli(capsys, "chart", "--game", name, "--format", "csv",
                               "--out", str(path), "--json"))
    assert reported["ev"] <= reported["optimum_ev"]
    evaluated = json.loads(_cli(capsys, "evaluate", "--game", name, "--chart", str(path),
                                "--json"))
    assert evaluated["ev"] == reported["ev"]


@pytest.mark.parametrize("spec", [SPEC_1D, "2D S17 DOA DAS SPL3 LS"])
def test_a_refinement_round_reusing_the_rows_is_a_fresh_derivation(spec: str) -> None:
    """The refinement round reuses the hard and soft rows of the round it follows (split
    values reach only the pair rows): with split values that move the pair rows, the
    result must equal a derivation from scratch by a deriver that kept nothing."""
    from analyzer.charts.derive import Deriver

    analysis = Analysis(parse_spec(spec))
    analysis.ev()
    # split values that change some pair rows: every split worth a push, then a loss
    for value in (0.0, -1.0):
        deriver = Deriver(analysis)
        main = deriver.derive()
        assert deriver._rows_from[0] is main  # the next round from main reuses its rows
        splits = {(u, p): value for u in deriver.upcards
                  for p in {int(x) for x in deriver.upcard_data(u).pair if x}}
        reused = deriver.derive(splits, start=main)
        fresh = Deriver(analysis).derive(splits, start=main)
        assert reused.rows == fresh.rows and reused.evs == fresh.evs
        assert any(reused.rows[k] != main.rows[k] for k in main.rows if k.kind == "P")


@pytest.mark.parametrize("spec", ["8D S17 DOA DAS SPL1 LS CH7 A21", SPEC_1D])
def test_a_round_with_the_last_rounds_weights_reuses_its_rows(
        spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round whose weights (who meets which hand) have the bits of the last round's
    gives the last round's rows again without solving them: it must be what solving
    them gives, and on eight decks the round confirming the chart reuses most upcards."""
    from analyzer.charts import derive

    analysis = Analysis(parse_spec(spec))
    analysis.ev()
    solved: list[int] = []
    real_solve = derive.solve_rows

    def counted(problem: derive.RowProblem) -> derive.Solution:
        solved.append(problem.d.upcard)
        return real_solve(problem)

    monkeypatch.setattr(derive, "solve_rows", counted)
    deriver = derive.Deriver(analysis)
    reused = deriver.derive()
    reusing = len(solved)
    solved.clear()
    never = derive.Deriver(analysis)
    real_rows = derive.Deriver._solve_rows

    def forgetting(self: derive.Deriver, *args: object) -> derive.Solution:
        self._last_rows.clear()  # nothing kept: every round solves every upcard
        return real_rows(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(derive.Deriver, "_solve_rows", forgetting)
    fresh = never.derive()
    assert reused.rows == fresh.rows and reused.evs == fresh.evs
    assert reusing < len(solved)
    if spec.startswith("8D"):
        assert len(solved) - reusing >= len(deriver.upcards) // 2
