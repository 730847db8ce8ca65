"""`bja chart` and `bja evaluate` handlers, their errors, and the tables `bja build` writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from analyzer.charts.build import build_chart_tables
from analyzer.cli.chart import register
from analyzer.cli.main import _Parser
from analyzer.core.errors import AnalyzerError, ChartError, RuleError
from analyzer.core.presets import all_games as chart_games
from analyzer.core.presets import resolve_game as resolve_rules
from analyzer.core.rules import format_spec, parse_spec

SPEC_1D = "1D H17 DOA NDAS SPL1 NS"


def _call(*argv: str) -> Any:
    parser = _Parser(prog="bja")
    register(parser.add_subparsers(dest="command", required=True, parser_class=_Parser))
    args = parser.parse_args(list(argv))
    return args.func(args)


def test_games_resolve() -> None:
    rules, name = resolve_rules("6d-s17-das-ls", "")
    assert format_spec(rules) == "6D S17 DOA DAS SPL3 LS" and name == "6d-s17-das-ls"
    rules, _ = resolve_rules("6d-s17-das-ls", "8D")
    assert rules.decks == 8
    rules, name = resolve_rules(None, "2D H17")
    assert name == format_spec(rules) == "2D H17 DOA DAS SPL3 NS"
    with pytest.raises(AnalyzerError, match="unknown game 'nope'"):
        resolve_rules("nope", "")
    charlie = chart_games().get("charlie7")
    if charlie is not None:  # the seed presets, where the engine defines them
        assert resolve_rules("charlie7", "")[0] == charlie


def test_bad_chart_files_are_one_line_errors(tmp_path: Path) -> None:
    missing = tmp_path / "none.csv"
    with pytest.raises(ChartError, match="cannot read chart file"):
        _call("evaluate", "--rules", SPEC_1D, "--chart", str(missing))
    bad = tmp_path / "bad.csv"
    bad.write_text("# header\nH4,H,H,H,H,H,H,H,H,H,Q\n")
    with pytest.raises(ChartError, match=r"bad.csv, line 2: unknown code 'Q' in row H4") as err:
        _call("evaluate", "--rules", SPEC_1D, "--chart", str(bad))
    assert "\n" not in str(err.value)
    bad.write_text("H4,H,H,H,H,H,H,H,H,H,H\n")
    with pytest.raises(ChartError, match="missing row H5"):
        _call("evaluate", "--rules", SPEC_1D, "--chart", str(bad))
    with pytest.raises(RuleError, match="unknown rule token 'XX'"):
        _call("evaluate", "--rules", "XX", "--chart", str(bad))
    with pytest.raises(ChartError, match="--format png needs --out"):
        _call("chart", "--rules", SPEC_1D, "--format", "png")
    # --json once silently dropped the format asked for (found by a chart tester)
    with pytest.raises(ChartError, match="--format csv needs --out FILE beside it"):
        _call("chart", "--rules", SPEC_1D, "--format", "csv", "--json")


def test_chart_formats(tmp_path: Path) -> None:
    out = tmp_path / "c.png"
    assert _call("chart", "--rules", SPEC_1D, "--format", "png", "--out", str(out)) == str(out)
    assert out.read_bytes().startswith(b"\x89PNG")
    data = _call("chart", "--game", "1d-h17-ndas", "--json")
    assert data["rules"] == SPEC_1D and data["ev"] < data["optimum_ev"]
    assert data["gap"] == pytest.approx(data["ev"] - data["optimum_ev"])
    assert data["chart"]["main"]["P8"] == ["P"] * 10
    text = _call("chart", "--rules", SPEC_1D, "--format", "exceptions")
    assert "composition-dependent exceptions" in text and "hard 16 vs T" in text


def test_build_writes_every_file_reproducibly(tmp_path: Path) -> None:
    games = {"1d": parse_spec(SPEC_1D)}
    written = build_chart_tables(tmp_path, games=games)
    names = sorted(p.name for p in written)
    assert names == ["chart.csv", "chart.html", "chart.md", "chart.png", "chart.txt",
                     "exceptions.txt"]
    first = {p: p.read_bytes() for p in written}
    assert all(first.values())
    build_chart_tables(tmp_path, games=games)
    assert {p: p.read_bytes() for p in written} == first
    assert not list((tmp_path / "tables" / "1d").glob(".*"))  # no temporary files left
    reported = float(next(line for line in first[tmp_path / "tables/1d/chart.csv"]
                          .decode().splitlines() if "chart EV" in line).split()[-1][:-1])
    data = _call("evaluate", "--rules", SPEC_1D, "--chart", str(tmp_path / "tables/1d/chart.csv"),
                 "--json")
    assert round(data["ev"] * 100, 9) == reported
    assert json.dumps(data)  # serialisable


@pytest.mark.slow
def test_full_build_is_byte_identical_on_a_rerun(tmp_path: Path) -> None:
    written = build_chart_tables(tmp_path)
    digest = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in written}
    assert len(written) == 6 * len(chart_games())
    build_chart_tables(tmp_path, jobs=2)  # the games shared by two processes: same bytes
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in written} == digest


def test_out_dash_is_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    """``--out -`` wrote a file named ``-``; it is stdout, as without ``--out``, and ``./-``
    names such a file."""
    from analyzer.cli.main import main

    monkeypatch.chdir(tmp_path)
    printed = {}
    for argv in (["chart", "--rules", "1D NSPL"],
                 ["compare", "--base", "1D NSPL", "--vary", "S17|H17", "--no-cache"]):
        assert main(argv) == 0
        printed[argv[0]] = capsys.readouterr().out
        assert main([*argv, "--out", "-"]) == 0
        assert capsys.readouterr().out == printed[argv[0]] and not (tmp_path / "-").exists()
    assert main(["chart", "--rules", "1D NSPL", "--out", "./-"]) == 0
    assert (tmp_path / "-").read_text() == printed["chart"]
