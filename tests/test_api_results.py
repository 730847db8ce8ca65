"""The public API (analyzer.api): one function per job, the CLI a shell over it.

For every command, the API result's ``to_dict()`` equals what the CLI prints with
``--json`` for the same arguments; no result holds a numpy scalar; ``to_frame()``
has its documented columns and the numbers of ``to_dict()``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import analyzer
from analyzer.api import Result
from analyzer.api.studies import SIMULATION_TIMING
from analyzer.cli.main import main
from analyzer.core.errors import AnalyzerError, RuleError, UsageError

ONE_DECK = "1D S17 DOA NDAS SPL1 NS"
COUNTED = "1D S17 DOA NDAS SPL1 NS CUT26"
_RESULTS: dict[str, Result] = {}


def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    status = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert status == 0, out
    return json.loads(out)


def _chart_file(tmp: Path) -> Path:
    path = tmp / "chart.csv"
    if not path.exists():
        path.write_text(analyzer.chart("1D H17 DOA NDAS SPL1 NS").to_csv())
    return path


TIMING = SIMULATION_TIMING  # a simulation's wall-clock figures: never twice the same

# 16 cards: an exact game of seven-card Charlies small enough for the default run
SMALL_SHOE = "A:2,2:1,3:1,4:2,5:1,6:2,7:1,8:1,9:1,T:4"
CASES: dict[str, tuple[list[str], Callable[[Path], Result]]] = {
    "ev": (["ev", "--rules", ONE_DECK],
           lambda _t: analyzer.analyze(ONE_DECK, jobs=1)),
    "ev-exact-game": (["ev", "--game", "charlie7", "--rules", "1D", "--shoe", SMALL_SHOE,
                       "--exact"],
                      lambda _t: analyzer.analyze("charlie7 1D", shoe=SMALL_SHOE, exact=True,
                                                  jobs=1)),
    "hand": (["hand", "--rules", "1D", "--up", "6", "--cards", "8,8"],
             lambda _t: analyzer.hand("1D", "6", "8,8")),
    "dealer": (["dealer", "--rules", "1D"], lambda _t: analyzer.dealer("1D")),
    "chart": (["chart", "--rules", "1D H17 DOA NDAS SPL1 NS"],
              lambda _t: analyzer.chart("1D H17 DOA NDAS SPL1 NS")),
    "distribution": (["distribution", "--rules", ONE_DECK],
                     lambda _t: analyzer.distribution(ONE_DECK, jobs=1)),
    "grid": (["compare", "--base", ONE_DECK, "--vary", "S17|H17", "--vary", "-|BJ6:5",
              "--no-chart"],
             lambda _t: analyzer.compare(ONE_DECK, vary=["S17|H17", "-|BJ6:5"], charts=False)),
    "explain": (["compare", ONE_DECK, "1D H17 DOA DAS SPL1 NS", "--no-chart"],
                lambda _t: analyzer.compare(games=[ONE_DECK, "1D H17 DOA DAS SPL1 NS"],
                                            charts=False)),
    "sidebet": (["sidebet", "21+3", "--decks", "1"], lambda _t: analyzer.sidebet("21+3", decks=1)),
    "sidebet-solve": (["sidebet", "21+3", "--decks", "1", "--solve", "flush", "--target-rtp",
                       "0.95"],
                      lambda _t: analyzer.sidebet("21+3", decks=1, solve="flush",
                                                  target_rtp="0.95")),
    "eor": (["eor", "--rules", ONE_DECK, "--decision", "16vT:stand-hit"],
            lambda _t: analyzer.eor(ONE_DECK, decisions=["16vT:stand-hit"])),
    "counts": (["counts", "--rules", ONE_DECK, "--count", "hi-lo"],
               lambda _t: analyzer.counts(ONE_DECK, systems=["hi-lo"])),
    "indices": (["indices", "--rules", ONE_DECK, "--decision", "16vT:stand-hit", "--decision",
                 "insurance"],
                lambda _t: analyzer.indices(ONE_DECK, decisions=["16vT:stand-hit", "insurance"])),
    "edge": (["edge", "--rules", COUNTED, "--states", "10", "--samples", "1000"],
             lambda _t: analyzer.edge(COUNTED, states=10, samples=1000)),
    "simulate": (["simulate", "--rules", "1D", "--rounds", "20000", "--seed", "1", "--jobs", "1"],
                 lambda _t: analyzer.simulate("1D", 20_000, seed=1, jobs=1)),
    "counter": (["simulate", "--rules", "1D CUT26", "--rounds", "20000", "--seed", "1", "--jobs",
                 "1", "--counter", "hilo"],
                lambda _t: analyzer.simulate("1D CUT26", 20_000, seed=1, jobs=1, counter="hilo")),
}


def _result(name: str, tmp: Path) -> Result:
    if name not in _RESULTS:
        _RESULTS[name] = CASES[name][1](tmp)
    return _RESULTS[name]


def _untimed(data: Any) -> Any:
    return {k: v for k, v in data.items() if k not in TIMING} if isinstance(data, dict) else data


@pytest.mark.parametrize("name", list(CASES))
def test_to_dict_is_the_cli_json(name: str, capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    argv, _ = CASES[name]
    result = _result(name, tmp_path)
    expected = json.loads(json.dumps(result.to_dict()))
    assert _untimed(_cli_json(capsys, argv)) == _untimed(expected)


def test_evaluate_to_dict_is_the_cli_json(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = _chart_file(tmp_path)
    rules = "1D H17 DOA NDAS SPL1 NS"
    result = analyzer.evaluate_chart(rules, path)
    assert _cli_json(capsys, ["evaluate", "--rules", rules, "--chart", str(path)]) == \
        json.loads(json.dumps(result.to_dict()))
    # the same chart given as text or as a Chart plays to the same figures
    assert analyzer.evaluate_chart(rules, path.read_text()).ev == result.ev
    assert analyzer.evaluate_chart(rules, analyzer.chart(rules).chart).ev == result.ev


@pytest.mark.slow
def test_certificate_to_dict_is_the_cli_file(tmp_path: Path) -> None:
    argv = ["certify", "--rules", ONE_DECK, "--no-pdf", "--float", "--rounds", "20000",
            "--seed", "1", "--quiet", "--out", str(tmp_path / "cli")]
    assert main(argv) == 0
    result = analyzer.certify(ONE_DECK, out=tmp_path / "api", pdf=False, exact=False,
                              rounds=20_000, seed=1)
    on_disk = json.loads((tmp_path / "cli" / "certificate.json").read_text())
    assert on_disk == json.loads(json.dumps(result.to_dict()))
    assert sorted(p.name for p in result.written) == sorted(
        p.name for p in (tmp_path / "cli").iterdir())
    levels = result.to_frame()
    assert list(levels.columns) == ["level", "title", "ev", "rtp", "not_computed"]
    _RESULTS["certificate"] = result


def test_cli_text_is_the_result_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("ev", "hand", "dealer", "chart", "distribution", "grid", "sidebet", "eor",
                 "counts", "indices", "edge"):
        argv, _ = CASES[name]
        assert main(argv) == 0
        out = capsys.readouterr().out
        text = _result(name, tmp_path).to_text()
        assert out == (text if text.endswith("\n") else text + "\n"), name


def _walk(value: Any, where: str = "") -> list[str]:
    """Paths of every value that is not plain Python."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _walk(k, where) + _walk(v, f"{where}.{k}")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in _walk(v, f"{where}[{i}]")]
    if value is None or type(value) in (str, int, float, bool, Fraction):
        return []
    return [f"{where}: {type(value).__module__}.{type(value).__name__}"]


@pytest.mark.parametrize("name", [n for n in CASES if n != "counter"])
def test_no_numpy_scalar_in_a_result(name: str, tmp_path: Path) -> None:
    result = _result(name, tmp_path)
    assert _walk(result.to_dict()) == []
    assert _walk(result.rows()) == []
    for attribute in ("ev", "rtp", "by_upcard", "actions", "probabilities", "sd"):
        if hasattr(type(result), attribute):
            assert _walk(getattr(result, attribute)) == [], attribute


def test_one_upcard_vocabulary() -> None:
    result = analyzer.analyze(ONE_DECK, jobs=1)
    assert list(result.by_upcard) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    assert list(result.by_upcard) == list(result.to_dict()["by_upcard"])
    assert result.to_frame()["upcard"].tolist() == list(analyzer.api.UPCARDS)
    assert [result.by_upcard[k] for k in result.by_upcard] == \
        list(result.to_dict()["by_upcard"].values())


def test_repr_is_short_and_html_is_a_table() -> None:
    result = analyzer.analyze("6D S17 DOA DAS SPL3 LS")
    assert repr(result) == "<EV 6D S17 DOA DAS SPL3 LS: -0.330268% CDZ->"
    assert result._repr_html_().startswith("<table>")
    assert repr(analyzer.Rules("6D S17 DOA DAS SPL3 LS")) == "Rules('6D S17 DOA DAS SPL3 LS')"
    assert str(analyzer.Rules("ls 6d")) == "6D S17 DOA DAS SPL3 LS"


def test_grid_frame(tmp_path: Path) -> None:
    result = _result("grid", tmp_path)
    frame = result.to_frame()
    data = result.to_dict()
    assert list(frame.columns)[:4] == ["row", "rules", "change", "error"]
    assert list(frame.columns)[-2:] == ["axis1", "axis2"]
    assert frame[["axis1", "axis2"]].values.tolist() == [
        ["S17", "-"], ["S17", "BJ6:5"], ["H17", "-"], ["H17", "BJ6:5"]]
    assert frame["ev"].tolist() == [row["ev"] for row in data["rows"]]
    assert frame["rules"].tolist() == [row["rules"] for row in data["rows"]]


def test_effects_frame() -> None:
    result = analyzer.compare("1D S17 DOA NDAS SPL1 NS", effects=True, charts=False)
    frame = result.to_frame()
    data = result.to_dict()
    assert list(frame.columns)[:4] == ["row", "rules", "change", "error"]
    assert frame["change"].tolist() == [row.get("change") for row in data["rows"]]
    assert frame["ev"].tolist() == [row.get("ev") for row in data["rows"]]


def test_distribution_frame(tmp_path: Path) -> None:
    result = _result("distribution", tmp_path)
    frame = result.to_frame()
    assert list(frame.columns) == ["result", "net", "probability"]
    assert dict(zip(frame["result"], frame["probability"], strict=True)) == \
        result.to_dict()["distribution"]
    assert frame["net"].tolist() == sorted(frame["net"].tolist())


def test_sidebet_frame(tmp_path: Path) -> None:
    result = _result("sidebet", tmp_path)
    frame = result.to_frame()
    events = result.to_dict()["events"]
    assert list(frame.columns) == ["event", "label", "pays", "combinations", "probability",
                                   "return"]
    assert frame["event"].tolist() == [e["name"] for e in events]
    assert frame["return"].tolist() == [e["return"] for e in events]
    assert frame["combinations"].tolist() == [e["combinations"] for e in events]


def test_eor_frame(tmp_path: Path) -> None:
    result = _result("eor", tmp_path)
    frame = result.to_frame()
    data = result.to_dict()
    assert frame["card"].tolist() == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert list(frame.columns) == ["card", data["name"], *[d["name"] for d in data["decisions"]]]
    assert frame[data["name"]].tolist() == [data["eor"][c] for c in frame["card"]]
    decision = data["decisions"][0]
    assert frame[decision["name"]].tolist() == [decision["eor"][c] for c in frame["card"]]


def test_indices_frame(tmp_path: Path) -> None:
    result = _result("indices", tmp_path)
    frame = result.to_frame()
    assert list(frame.columns) == ["decision", "label", "index", "rising", "rule", "published",
                                   "comparison"]
    assert frame["index"].tolist() == [i["index"] for i in result.to_dict()["indices"]]


def test_to_frame_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(UsageError, match=r"bja-analyzer\[frames\]"):
        _result("hand", tmp_path).to_frame()


def test_one_resolver_for_games() -> None:
    from analyzer.api.games import cli_game, resolve

    assert resolve("charlie7 6D") == (analyzer.Rules("6D S17 DOA DAS SPL1 LS CH7 A21"),
                                      "charlie7 6D")  # not the game: named with its tokens
    assert resolve("charlie7", "8D")[1] == "charlie7"  # the game itself
    with pytest.raises(RuleError, match=r"^unknown rule token or game 'charlie8' \(games: "
                                        r"charlie7, free-bet,"):  # the first word: maybe a game
        resolve("charlie8 6D")
    with pytest.raises(RuleError, match=r"^unknown rule token 'zz9'$"):  # later: a token
        resolve("6D zz9")
    assert resolve(analyzer.Rules("1D")) == (analyzer.Rules("1D"), format(analyzer.Rules("1D")))
    assert resolve("6d-s17-das-ls")[0] == analyzer.Rules("6D S17 DOA DAS SPL3 LS")
    assert cli_game("charlie7", "6D") == "charlie7 6D"
    with pytest.raises(RuleError, match="unknown game"):
        cli_game("6D", "")  # --game takes a name, not a spec
    with pytest.raises(AnalyzerError):
        analyzer.analyze("NOSUCHTOKEN")
    with pytest.raises(UsageError):
        analyzer.analyze(ONE_DECK, jobs=0)


def test_results_are_frozen(tmp_path: Path) -> None:
    import dataclasses

    result = _result("hand", tmp_path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.report = None  # type: ignore[misc]


def test_progress_callback_hears_every_upcard() -> None:
    seen: list[analyzer.Progress] = []
    analyzer.analyze("1D H17 DOA NDAS SPL1 NS", jobs=2, cache=False, progress=seen.append)
    assert seen[0].done == 0 and seen[-1] == analyzer.Progress("EV by upcard", 10, 10)
    assert [p.done for p in seen] == sorted(p.done for p in seen)


@pytest.mark.slow
def test_quickstart_script_prints_the_cli_figures(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    script = Path(analyzer.__file__).parents[1] / "docs" / "quickstart.py"
    lines = script.read_text().splitlines()
    assert len(lines) <= 15
    assert [ln for ln in lines if ln.startswith(("import", "from"))] == ["import analyzer"]
    monkeypatch.chdir(tmp_path)
    exec(compile(script.read_text(), str(script), "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    game = "1D H17 DOA NDAS SPL1 NS"
    for argv in (["ev", "--rules", game], ["chart", "--rules", game],
                 ["compare", "--base", game, "--vary", "S17|H17", "--vary", "-|BJ6:5",
                  "--no-chart"],
                 ["sidebet", "21+3", "--decks", "1"]):
        assert main(argv) == 0
        assert capsys.readouterr().out in printed, argv
    assert main(["certify", "--rules", game, "--no-pdf", "--float", "--rounds", "100000",
                 "--quiet", "--out", str(tmp_path / "cli")]) == 0
    capsys.readouterr()
    assert (tmp_path / "cli" / "certificate.json").read_text() == \
        (tmp_path / "certificate" / "certificate.json").read_text()
    rtp = json.loads((tmp_path / "cli" / "certificate.json").read_text())
    assert rtp


def test_rules_list_names_every_game_and_show_works_for_each(
        capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.core.presets import CLASSIC_GAMES, PRESETS, VARIANT_GAMES

    listed = _cli_json(capsys, ["rules", "list"])
    assert list(listed) == [*PRESETS, *CLASSIC_GAMES, *VARIANT_GAMES]
    assert {v["kind"] for v in listed.values()} == {"seed", "classic", "variant"}
    assert {n for n, v in listed.items() if v["kind"] == "variant"} == set(VARIANT_GAMES)
    for name in listed:
        shown = _cli_json(capsys, ["rules", "show", name])
        assert shown["name"] == name and shown["spec"] == listed[name]["spec"]
        assert main(["rules", "show", name]) == 0
        text = capsys.readouterr().out
        assert ("no rule text" in text) == (name in CLASSIC_GAMES)


def test_help_is_user_facing_and_jobs_default_to_every_core() -> None:
    from analyzer.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        text = command.format_help()
        assert ":mod:" not in text and ":class:" not in text and "``" not in text, name
        jobs = [a for a in command._actions if a.dest == "jobs"]
        assert all(a.default is None for a in jobs), name
