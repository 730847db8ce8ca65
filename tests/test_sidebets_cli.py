"""The ``sidebet`` subcommand, pay-table files, renderers and the table builder."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.cli.sidebet import register
from analyzer.core.errors import AnalyzerError, PayTableError, ShoeError
from analyzer.sidebets.bets import get_bet
from analyzer.sidebets.build import build_sidebet_tables
from analyzer.sidebets.paytable import load_paytable


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    parser = argparse.ArgumentParser(prog="bja")
    register(parser.add_subparsers(required=True))
    args = parser.parse_args(["sidebet", *argv])
    out = args.func(args)  # the handler returns the text; the main CLI prints it
    assert isinstance(out, str) and not capsys.readouterr().out
    return out


def test_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "21+3", "--decks", "6", "--json"))
    flush = next(e for e in data["events"] if e["name"] == "flush")
    p, ret = Fraction(292_896, 5_013_320), Fraction(5 * 292_896, 5_013_320)
    assert flush == {"name": "flush", "label": "flush (not straight)", "pays": 5,
                     "combinations": 292_896, "probability": f"{p.numerator}/{p.denominator}",
                     "return": float(ret), "return_exact": f"{ret.numerator}/{ret.denominator}"}
    assert Fraction(data["ev_exact"]) == sum(Fraction(e["return_exact"]) for e in data["events"])
    assert data["rtp"] == pytest.approx(1 + data["ev"])
    for key in ("ev", "ev_exact", "rtp", "hit_frequency", "sd", "volatility_index",
                "rtp_interval", "top_award", "house_edge"):
        assert key in data
    assert [r["rounds"] for r in data["rtp_interval"]] == [10**k for k in range(3, 9)]


def test_bust_it_states_its_shoe_reading(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ((), ("--json",), ("--markdown",)):
        out = _run(capsys, "bust-it", "--decks", "2", *fmt)
        assert "later hits are not removed" in out
        assert "other reading" in out
    out = _run(capsys, "bust-it", "--decks", "2", "--reading", "ignored", "--h17")
    assert "are not removed: the dealer draws" in out and "hits soft 17" in out


def test_pays_override_and_solve(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(capsys, "any-pair", "--decks", "6", "--pays", "pair=7,suited-pair=30",
                           "--json"))
    assert [e["pays"] for e in data["events"]] == [30, 7, -1]
    assert data["paytable"] == "seed with pair=7,suited-pair=30"
    solved = json.loads(_run(capsys, "hot3", "--solve", "20", "--target-rtp", "0.95",
                             "--json"))
    assert Fraction(solved["target_rtp_exact"]) == Fraction(19, 20)
    assert [n["pays"] for n in solved["nearest"]] == [int(float(solved["pay"])),
                                                     int(float(solved["pay"])) + 1]
    assert "pays exactly" in _run(capsys, "hot3", "--solve", "20", "--target-rtp", "95%")


def test_paytable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "mine.toml"
    good.write_text('bet = "any-pair"\n[pays]\nsuited-pair = 25\npair = "15/2"\n')
    data = json.loads(_run(capsys, "any-pair", "--paytable", str(good), "--json"))
    assert data["events"][1]["pays"] == 7.5
    cases = {
        'bet = "any-pair"\n[pays]\nsuited-pair = 25\n': "no pay for 'pair'",
        'bet = "hot3"\n[pays]\n': "'hot3'",
        'bet = "any-pair"\n[pays]\nsuited-pair = 25\npair = 8\nthree = 1\n': "'three'",
        'bet = "any-pair"\npays = [1, 2]\n': "no \\[pays\\]",
        'bet = "any-pair"\n[pays\n': "not valid TOML",
        'bet = "any-pair"\ncolour = 1\n': "'colour'",
        'bet = "any-pair"\n[pays]\nsuited-pair = true\npair = 8\n': "True",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(PayTableError, match=message) as err:
            load_paytable(get_bet("any-pair"), bad)
        assert "\n" not in str(err.value)
    with pytest.raises(PayTableError, match="cannot read"):
        load_paytable(get_bet("any-pair"), tmp_path / "missing.toml")


def test_bad_input_is_an_analyzer_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AnalyzerError, match="'roulette'"):
        _run(capsys, "roulette")
    with pytest.raises(ShoeError, match="'QQ'"):
        _run(capsys, "21+3", "--shoe=6decks-QQ")
    with pytest.raises(PayTableError, match="together"):
        _run(capsys, "21+3", "--solve", "flush")


def test_depleted_shoe_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "21+3", "--shoe=1deck-AS-KS-QS")
    assert "1deck-AS-QS-KS (49 cards)" in out and f"{18424:,}" in out


def test_build_writes_every_table_reproducibly(tmp_path: Path) -> None:
    paths = build_sidebet_tables(tmp_path)
    names = sorted(p.name for p in paths)
    assert len(names) == 32 and "21+3-6d.md" in names and "bust-it-8d.csv" in names
    first = {p: p.read_bytes() for p in paths}
    build_sidebet_tables(tmp_path)
    assert {p: p.read_bytes() for p in paths} == first
    assert not [p for p in (tmp_path / "tables" / "sidebets").iterdir() if p.name.startswith(".")]
    csv = (tmp_path / "tables" / "sidebets" / "21+3-6d.csv").read_text()
    assert "straight-flush,straight flush,40,10368," in csv
