"""bja compare against the engine: every row is the separate analysis, bit for bit.

Small shoes keep the default run fast; the full-deck and exact checks are slow.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from analyzer.cli.main import main
from analyzer.comparisons import RunOptions, compare_effects, compare_explain, compare_grid
from analyzer.comparisons import worker as worker_module
from analyzer.comparisons.runner import figure_memo
from analyzer.comparisons.variants import parse_axis, product_variants
from analyzer.core.presets import game_base
from analyzer.core.rules import parse_spec

SHOE = "A:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,T:4"  # 13 cards: the smallest dealable shoe
BASE = parse_spec("1D S17 DOA DAS SPL1 LS")


@pytest.fixture(autouse=True)
def _own_memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo folder per test: several tests stub the engine, and a stub's rows must never
    reach the session's shared memo (where another module's real grid would read them)."""
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path / "memo"))


def _bja_ev(spec: str, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    assert main(["ev", "--rules", spec, "--json", "--no-cache", *extra]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _grid(options: RunOptions) -> list[Any]:
    axes = [parse_axis("S17|H17", BASE), parse_axis("-|NS", BASE)]
    c = compare_grid(BASE, product_variants(BASE, axes), options)
    return [(r.rules, r.figures) for r in c.rows]


def test_grid_rows_equal_bja_ev_bit_for_bit(capsys: pytest.CaptureFixture[str]) -> None:
    options = RunOptions(charts=False, jobs=1, shoe=SHOE, progress=False)
    rows = _grid(options)
    assert len(rows) == 4
    for spec, figures in rows:
        assert figures.ev == _bja_ev(spec, capsys, "--shoe", SHOE)["ev"]


def test_memo_serves_a_repeated_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    options = RunOptions(charts=False, jobs=1, shoe=SHOE, progress=False)
    first = _grid(options)

    def no_engine(*_args: Any) -> dict[str, Any]:
        raise AssertionError("the memo should have served this rule set")

    monkeypatch.setattr(worker_module, "compute", no_engine)
    assert _grid(options) == first


@pytest.mark.slow
def test_parallel_equals_sequential_and_full_decks_equal_bja_ev(
        capsys: pytest.CaptureFixture[str]) -> None:
    local = _grid(RunOptions(charts=False, jobs=1, shoe=SHOE, progress=False, use_cache=False))
    assert _grid(RunOptions(charts=False, jobs=2, shoe=SHOE, progress=False,
                            use_cache=False)) == local
    assert main(["compare", "--base", "1D H17 DOA NDAS SPL1 NS", "--vary", "-|S17", "--json",
                 "--no-chart", "--jobs", "2", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    for row in data["rows"]:
        assert row["ev"] == _bja_ev(row["rules"], capsys)["ev"]


@pytest.mark.slow
def test_exact_rows_and_chart_column(capsys: pytest.CaptureFixture[str]) -> None:
    options = RunOptions(exact=True, charts=False, jobs=2, shoe=SHOE, progress=False)
    c = compare_grid(BASE, product_variants(BASE, [parse_axis("-|H17", BASE)]), options)
    for r in c.rows:
        assert r.figures is not None and r.rules is not None
        got = _bja_ev(r.rules, capsys, "--shoe", SHOE, "--exact")
        assert r.figures.ev_exact == Fraction(got["ev_exact"]) and r.figures.ev == got["ev"]
    assert c.rows[1].delta == c.rows[1].figures.ev_exact - c.rows[0].figures.ev_exact  # type: ignore[union-attr]
    # The chart column equals bja chart's own figures.
    spec = "1D S17 DOA NDAS SPL1 NS"
    charted = compare_grid(parse_spec(spec), product_variants(parse_spec(spec), [["-"]]),
                           RunOptions(jobs=1, progress=False))
    assert main(["chart", "--rules", spec, "--json"]) == 0
    chart = json.loads(capsys.readouterr().out)
    figures = charted.rows[0].figures
    assert figures is not None
    assert (figures.chart_ev, figures.ev, figures.chart_gap) == (chart["ev"], chart["optimum_ev"],
                                                                 chart["gap"])


@pytest.mark.slow
def test_exact_shapley_contributions_sum_to_the_difference_exactly() -> None:
    a, b = parse_spec("1D S17 DOA DAS SPL1 LS"), parse_spec("1D H17 DOA NDAS SPL1 NS")
    c = compare_explain([("a", a), ("b", b)],
                        RunOptions(exact=True, charts=False, shoe=SHOE, progress=False))
    e = c.rows[1].explanation
    assert e is not None and len(e.contributions) == 3 and e.orders == 6
    assert all(isinstance(k.shapley, Fraction) for k in e.contributions)
    ev_a, ev_b = (r.figures.ev_exact for r in c.rows)  # type: ignore[union-attr]
    assert ev_a is not None and ev_b is not None
    assert sum(k.shapley for k in e.contributions) == e.total == ev_b - ev_a


def _seed(specs_evs: dict[str, float]) -> None:
    memo = figure_memo()
    for spec, ev in specs_evs.items():
        memo.put((spec, None, "float"), {"ev": ev})


def test_one_bad_cell_never_loses_the_grid(capsys: pytest.CaptureFixture[str]) -> None:
    # OBO + CHBJ + splitting is refused by the engine; the other cells are served.
    base = "6D S17 DOA DAS NSPL NS ENHC OBO CH6"
    _seed({base: -0.01, base + " CHBJ": -0.009})
    argv = ["compare", "--base", base, "--vary", "-|CHBJ|CHBJ SPL1", "--json",
            "--no-chart", "--no-progress"]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [("error" in r) for r in rows] == [False, False, True]
    assert rows[1]["delta"] == float(Fraction(-0.009) - Fraction(-0.01))
    assert "OBO with CHBJ and splitting is not modelled" in rows[2]["error"]


def test_every_row_failed_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    base = "6D S17 DOA DAS SPL1 NS ENHC OBO CH6"
    _seed({base: -0.01})
    assert main(["compare", "--base", base, "--vary", "CHBJ|CHBJ SPL2", "--no-chart",
                 "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out.count("error: OBO with CHBJ") == 2 and "every row failed" in err


def test_interrupted_run_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*_args: Any) -> dict[str, Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(worker_module, "compute", interrupted)
    out = tmp_path / "grid.html"
    assert main(["compare", "--base", "2D", "--vary", "S17|H17", "--html", "--out", str(out),
                 "--jobs", "1", "--no-chart"]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_effects_of_a_cached_base_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Effects rows come sorted best first, failed rows last (engine replaced by a stub)."""
    def fake(spec: str, shoe: str | None, kinds: tuple[str, ...]) -> dict[str, Any]:
        if "ES" in spec.split():
            return {"error": "not modelled here"}
        return {"float": {"ev": -len(spec) / 1000}}

    monkeypatch.setattr(worker_module, "compute", fake)
    c = compare_effects(game_base("charlie7"), RunOptions(charts=False, jobs=1, progress=False,
                                                          use_cache=False))
    deltas = [r.delta for r in c.rows if r.delta is not None]
    assert deltas == sorted(deltas, reverse=True) and c.rows[-1].error == "not modelled here"


def _fake_compute(spec: str, shoe: str | None, kinds: tuple[str, ...]) -> dict[str, Any]:
    """A made-up, deterministic EV per rule set (the Shapley algebra does not care)."""
    import hashlib

    ev = int(hashlib.sha256(spec.encode()).hexdigest(), 16) % 20011 / 1e6 - 0.01
    out: dict[str, Any] = {"float": {"ev": ev}}
    if "exact" in kinds:
        out["exact"] = {"ev_exact": f"{round(ev * 10**6)}/{10**6}"}
    return out


def test_explain_cli_json(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(worker_module, "compute", _fake_compute)
    assert main(["compare", "charlie7", "8d-s17-das", "6D S17 DOA DAS SPL3 LS", "--exact",
                 "--no-chart", "--json", "--jobs", "1", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "explain" and data["base_name"] == "charlie7"
    assert "contributions" not in data["rows"][0]
    for prev, row in zip(data["rows"], data["rows"][1:], strict=False):
        total = Fraction(row["ev_exact"]) - Fraction(prev["ev_exact"])
        assert sum(Fraction(k["shapley_exact"]) for k in row["contributions"]) == total
        assert Fraction(row["explains"]["total_exact"]) == total
    rules = [k["rule"] for k in data["rows"][1]["contributions"]]
    assert rules == ["splits", "surrender", "charlie", "21 stands"]
    assert [k["change"] for k in data["rows"][2]["contributions"]] == ["8D -> 6D", "NS -> LS"]
    text_argv = ["compare", "charlie7", "8d-s17-das", "--no-chart", "--jobs", "1", "--no-cache"]
    assert main(text_argv) == 0
    text = capsys.readouterr().out
    assert "(= the difference, exactly)" in text and "orders averaged: 24 of 24" in text


@pytest.mark.slow  # about 40 s: ten PNGs and two 64-game lattices, twice
def test_build_reports_are_byte_identical_on_a_rerun(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """reports/compare/ from the memo on the second run: the same bytes (engine stubbed)."""
    from analyzer.comparisons.reports import build_compare_reports

    monkeypatch.setattr(worker_module, "compute", _fake_compute)
    options = RunOptions(charts=False, jobs=1, progress=False)
    first = build_compare_reports(tmp_path / "a", options=options)
    monkeypatch.setattr(worker_module, "compute", None)  # everything from the memo now
    second = build_compare_reports(tmp_path / "b", options=options)
    names = sorted(p.name for p in first)
    assert names == sorted(p.name for p in second)
    assert {"charlie7-effects.md", "seed-games.html", "seed-games.png"} <= set(names)
    for a, b in zip(sorted(first), sorted(second), strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    text = (tmp_path / "a" / "reports" / "compare" / "seed-games.md").read_text()
    assert "## charlie7 -> free-bet: the difference rule by rule" in text
    assert "## free-bet -> privilege: the difference rule by rule" in text
    assert "privilege -> four-jacks" not in text


# -- strategy levels (issue 11): --split and --levels ---------------------------------
LEVEL_SHOE = "A:1,2:1,3:1,4:3,5:1,6:1,7:1,8:3,9:2,T:9"  # 23 cards: 4s and 8s resplit,
# and no round runs out (the 17-card shoe this was once, 5 tens fewer, does: T-T vs A)
LEVEL_BASE = parse_spec("1D S17 DOA DAS SPL3 LS")


@pytest.mark.parametrize("exact", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_levels_equal_the_engine_at_each_level(exact: bool) -> None:
    """Every level column is the engine's own analysis at that level, bit for bit."""
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    shoe = parse_shoe(LEVEL_SHOE)
    options = RunOptions(exact=exact, charts=False, jobs=1, shoe=LEVEL_SHOE, progress=False,
                         split="cdp", levels=True)
    c = compare_grid(LEVEL_BASE, product_variants(LEVEL_BASE, [parse_axis("-|H17", LEVEL_BASE)]),
                     options)
    assert options.level_columns == ("cdz", "cdp1")
    for row in c.rows:
        assert row.figures is not None and row.rules is not None
        evs = {level: Analysis(parse_spec(row.rules), shoe, exact=exact, split=level).ev()
               for level in ("cdz", "cdp1", "cdp")}
        extra = dict(row.figures.extra)
        assert row.figures.ev == float(evs["cdp"])
        assert (extra["cdz_ev"], extra["cdp1_ev"]) == (float(evs["cdz"]), float(evs["cdp1"]))
        assert evs["cdz"] <= evs["cdp1"] <= evs["cdp"]
        assert evs["cdz"] < evs["cdp"]  # resplits happen on this shoe: the levels differ
        if exact:
            assert row.figures.ev_exact == evs["cdp"]
            assert dict(row.figures.extra_exact) == {"cdz_ev": evs["cdz"],
                                                     "cdp1_ev": evs["cdp1"]}


def test_a_refused_split_level_is_a_row_saying_why() -> None:
    from analyzer.comparisons.runner import evaluate_specs

    options = RunOptions(charts=False, jobs=1, progress=False, use_cache=False, split="optimal")
    got = evaluate_specs(["6D S17 DOA DAS SPL3 LS"], options)["6D S17 DOA DAS SPL3 LS"]
    assert isinstance(got, str) and "at most 52 cards" in got


def test_cli_split_level_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:  # argparse's own usage error
        main(["compare", "--base", "1D", "--vary", "-|H17", "--split", "cdq"])
    assert exit_.value.code == 2
    assert "invalid choice: 'cdq'" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_split_and_levels_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Full one-deck shoes, CDP1 as the EV column: the others beside it, in order."""
    assert main(["compare", "--base", "1D S17 DOA DAS SPL3 LS", "--vary", "-|NS", "--json",
                 "--no-chart", "--no-progress", "--jobs", "2", "--split", "cdp1",
                 "--levels"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any("CDP1, optimal composition-dependent" in n for n in data["notes"])
    for row in data["rows"]:
        assert {"ev", "cdz_ev", "cdp_ev"} <= set(row)
        assert "cdp1_ev" not in row  # the EV column is CDP1 already
        assert row["cdz_ev"] < row["ev"] < row["cdp_ev"]
        assert row["ev"] == _bja_ev(row["rules"], capsys, "--split", "cdp1")["ev"]
