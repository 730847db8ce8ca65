"""The public library API listed in ``analyzer/__init__.py``: complete, lazy, typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import analyzer


def test_every_listed_name_resolves_to_its_module() -> None:
    assert set(analyzer.__all__) == {"__version__", *analyzer._API}
    for name, module in analyzer._API.items():
        value = getattr(analyzer, name)
        assert getattr(sys.modules[module], name) is value


def test_import_analyzer_is_light() -> None:
    code = ("import sys, analyzer\n"
            "print([m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'matplotlib', 'sympy', 'joblib') or m.startswith('analyzer.')])")
    # Only the version constant comes with the package.
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "['analyzer.core', 'analyzer.core.version']"


def test_the_package_says_it_is_typed() -> None:
    assert (Path(analyzer.__file__).parent / "py.typed").is_file()
    pyproject = (Path(analyzer.__file__).parents[1] / "pyproject.toml").read_text()
    assert '"analyzer" = ["py.typed"]' in pyproject


def test_architecture_md_matches_the_tree() -> None:
    import re

    root = Path(analyzer.__file__).parents[1]
    text = (root / "ARCHITECTURE.md").read_text()
    named = set(re.findall(r"\b((?:core|engine|crosscheck|charts|sidebets|report|cli)/[\w*]+\.py)",
                           text))
    assert len(named) > 20
    missing = [p for p in sorted(named) if not list((root / "analyzer").glob(p))]
    assert missing == []
    for path in re.findall(r"`(tests/\w+\.py)`", text):
        assert (root / path).is_file(), path
    packages = {p.name for p in (root / "analyzer").iterdir() if (p / "__init__.py").is_file()}
    assert all(f"{name}/" in text for name in packages), packages


# Found by an adversarial test: each raised a bare AttributeError, TypeError or
# AssertionError, or (a string for a switch, "no" being truthy) gave a wrong figure.  Each
# refusal names the argument it is about.
WRONG_TYPES = {
    "sidebet(None)": (lambda a: a.sidebet(None), "bet"),
    "sidebet(shoe=5)": (lambda a: a.sidebet("21+3", shoe=5), "shoe"),
    "sidebet(h17='no')": (lambda a: a.sidebet("bust-it", decks=1, h17="no"), "h17"),
    "sidebet(protection='no')": (lambda a: a.sidebet("21+3", decks=1, protection="no"),
                                 "protection"),
    "sidebet(played='5')": (lambda a: a.sidebet("bust-it", decks=1, played="5"), "played"),
    "sidebet(seed='x')": (lambda a: a.sidebet("21+3", decks=1, protection=True, seed="x"),
                          "seed"),
    "compare(vary=[None])": (lambda a: a.compare("1D", vary=[None]), "vary"),
    "compare(vary=5)": (lambda a: a.compare("1D", vary=5), "vary"),
    "compare(vary='S17|H17')": (lambda a: a.compare("1D", vary="S17|H17"), "vary"),
    "compare(jobs='1')": (lambda a: a.compare("1D", vary=["S17|H17"], jobs="1"), "jobs"),
    "compare(grid=5)": (lambda a: a.compare(grid=5), "grid"),
    "compare(progress=5)": (lambda a: a.compare("1D", vary=["S17|H17"], progress=5),
                            "progress"),
    "compare(exact='no')": (lambda a: a.compare("1D", vary=["S17|H17"], exact="no"), "exact"),
    "compare(charts='no')": (lambda a: a.compare("1D", vary=["S17|H17"], charts="no"),
                             "charts"),
    "eor(shoe=5)": (lambda a: a.eor("1D", shoe=5), "shoe"),
    "eor(shoe=[])": (lambda a: a.eor("1D", shoe=[]), "shoe"),
    "eor(decisions=[None])": (lambda a: a.eor("1D", decisions=[None]), "decisions"),
    "counts(systems=[None])": (lambda a: a.counts("1D", systems=[None]), "systems"),
    "counts(cache='no')": (lambda a: a.counts("1D", cache="no"), "cache"),
    "indices(count=None)": (lambda a: a.indices("1D", count=None), "count"),
    "edge(count=5)": (lambda a: a.edge("1D CUT20", count=5), "count"),
    "edge(seed=2**200)": (lambda a: a.edge("1D CUT20", seed=2**200, states=2, samples=100),
                          "seed"),
    "simulate(rounds=None)": (lambda a: a.simulate("1D", None), "rounds"),
    "simulate(counter=5)": (lambda a: a.simulate("1D", 1000, counter=5), "counter"),
    "simulate(spread=5)": (lambda a: a.simulate("1D", 1000, counter="hilo", spread=5),
                           "spread"),
    "simulate(cut_card='no')": (lambda a: a.simulate("1D", 1000, cut_card="no"), "cut_card"),
    "simulate(compare='no')": (lambda a: a.simulate("1D", 1000, compare="no"), "compare"),
    "certify(pdf='no')": (lambda a: a.certify("1D", pdf="no"), "pdf"),
    "certify(exact='no')": (lambda a: a.certify("1D", exact="no"), "exact"),
    "certify(meta={})": (lambda a: a.certify("1D", meta={"lab": "x"}), "meta"),
    "analyze(jobs=10**6)": (lambda a: a.analyze("1D", jobs=10**6), "jobs"),
    "parse_shoe(None)": (lambda a: a.parse_shoe(None), "shoe"),
    "game_rules(None, None)": (lambda a: a.game_rules(None, None), "spec"),
    "format_spec(5)": (lambda a: a.format_spec(5), "Rules"),
    "describe_rules(5)": (lambda a: a.describe_rules(5), "Rules"),
    "format_shoe(5)": (lambda a: a.format_shoe(5), "Shoe"),
    "hand_total(['A'])": (lambda a: a.hand_total(["A"]), "cards"),
    "hand_total([0])": (lambda a: a.hand_total([0]), "cards"),
    "hand_total([11])": (lambda a: a.hand_total([11]), "cards"),
    # a progress that is not a function: refused before any work, even when the memo
    # holds the answer (analyze() once accepted it then, and raised TypeError otherwise)
    "analyze(progress=5)": (lambda a: a.analyze("1D", progress=5), "progress"),
    "distribution(progress=5)": (lambda a: a.distribution("1D", progress=5), "progress"),
    "eor(progress=5)": (lambda a: a.eor("1D", progress=5), "progress"),
    "counts(progress=5)": (lambda a: a.counts("1D", progress=5), "progress"),
    "indices(progress=5)": (lambda a: a.indices("1D", progress=5), "progress"),
    "edge(progress=5)": (lambda a: a.edge("1D CUT20", progress=5), "progress"),
    "simulate(progress=5)": (lambda a: a.simulate("1D", 1000, progress=5), "progress"),
    "certify(progress=5)": (lambda a: a.certify("1D", progress=5), "progress"),
    # options the library accepted and then ignored, or ended in numpy's own error
    "sidebet(seed=-1)": (lambda a: a.sidebet("21+3", decks=1, protection=True, seed=-1),
                         "seed must be a whole number 0 to"),
    "sidebet(played=0)": (lambda a: a.sidebet("bust-it", decks=1, played=0),
                          "played must be a whole number 1 to"),
    "sidebet(solve, protection)": (lambda a: a.sidebet("21+3", decks=1, solve="flush",
                                                       target_rtp="0.95", protection=True),
                                   "--solve finds a pay"),
    "paytable_list(as_data='no')": (lambda a: a.api.studies.paytable_list("21+3",
                                                                          as_data="no"),
                                    "as_data"),
    "compare(split='exact')": (lambda a: a.compare("1D", vary=["S17|H17"], split="exact"),
                               "unknown split level 'exact'"),
    "compare(scheduler)": (lambda a: a.compare("1D", vary=["S17|H17"], scheduler="h:1"),
                           "--scheduler goes with --backend dask"),
    "compare(max_players=5)": (lambda a: a.compare("1D", vary=["S17|H17"], max_players=5),
                               "--max-players goes with explain mode"),
    "simulate(compare, counter)": (lambda a: a.simulate("1D CUT26", 1000, compare=True,
                                                        counter="hilo"), "--compare"),
    "hand(cards=16)": (lambda a: a.hand("1D", "T", 16), "cards must be"),
    "hand(upcard=None)": (lambda a: a.hand("1D", None, "T,6"), "upcard must be"),
    "edge(cut=0)": (lambda a: a.edge("1D", cut=0), "cut must be"),
    "certify(rounds=10**11)": (lambda a: a.certify("1D", rounds=10**11), "rounds must be"),
    "certify(rounds=999)": (lambda a: a.certify("1D", rounds=999),
                            "rounds must be a whole number 1,000 to"),
    # simulate read any value as its text: 1000.0 rounds and seed 1.0 ran (an adversarial
    # test), and 0 was echoed as '0'
    "simulate(rounds=1000.0)": (lambda a: a.simulate("1D", 1000.0), "not 1000.0"),
    "simulate(seed=1.0)": (lambda a: a.simulate("1D", 1000, seed=1.0), "seed must be"),
    "simulate(jobs=2.0)": (lambda a: a.simulate("1D", 1000, jobs=2.0), "jobs must be"),
    "simulate(rounds=True)": (lambda a: a.simulate("1D", True), "not True"),
    # an empty chart was read as the path '.', "a folder"
    "distribution(strategy='')": (lambda a: a.distribution("1D", strategy=""),
                                  "the strategy is empty"),
    "evaluate_chart('')": (lambda a: a.evaluate_chart("1D", ""), "the chart is empty"),
    "simulate(rounds=0)": (lambda a: a.simulate("1D", 0), "2 to 100,000,000,000, not 0$"),
    # the command's line, its bounds and words (a cross-interface tester: the library
    # dropped the upper bound of states and said "from 1 to" for spots)
    "distribution(spots=0)": (lambda a: a.distribution("1D", spots=0),
                              "^spots must be a whole number 1 to 7, not 0$"),
    "edge(states=0)": (lambda a: a.edge("1D CUT26", states=0),
                       "^states must be a whole number 2 to 10,000, not 0$"),
    "edge(states=10001)": (lambda a: a.edge("1D CUT26", states=10_001),
                           "^states must be a whole number 2 to 10,000, not 10001$"),
    "edge(samples=1)": (lambda a: a.edge("1D CUT26", samples=1),
                        "^samples must be a whole number 2 to 1,000,000, not 1$"),
    # a game named in capitals was "unknown rule token 'CHARLIE7'"
    "analyze('CHARLIE7')": (lambda a: a.analyze("CHARLIE7"),
                            "unknown game 'CHARLIE7': games are named in lower case"),
}


@pytest.mark.parametrize("call", list(WRONG_TYPES), ids=list(WRONG_TYPES))
def test_a_wrong_type_is_one_analyzer_error(call: str) -> None:
    import analyzer

    run, needle = WRONG_TYPES[call]
    with pytest.raises(analyzer.AnalyzerError, match=needle):
        run(analyzer)


def test_explain_mode_takes_a_game_name_with_tokens() -> None:
    """``Game`` promises "charlie7 6D" everywhere; explain mode read it as a spec
    ("unknown rule token 'charlie7'")."""
    import analyzer

    got = analyzer.compare(games=["charlie7", "charlie7 6D"], charts=False, jobs=1)
    rows = got.to_dict()["rows"]
    assert [r["name"] for r in rows] == ["charlie7", "charlie7 6D"]
    assert rows[1]["rules"] == analyzer.format_spec(analyzer.game_rules("charlie7", "6D"))


def test_a_certificate_cancelled_after_its_figures_writes_no_file(tmp_path: Path) -> None:
    """The files had no progress report of their own, so a web job cancelled during the
    last figures (two spots) went on to write them all, PDF included (an adversarial
    test): the files are a stage now, and a callback that stops there leaves nothing."""
    import analyzer.certificates.model as model
    from analyzer.util.progress import Progress, report

    class Stop(Exception):
        pass

    stages: list[str] = []

    def stop_at_the_files(p: Progress) -> None:
        stages.append(p.stage)
        if p.stage.startswith("certificate: files"):
            raise Stop

    def figures(*_args: object, stages: Any = None, **_kwargs: object) -> object:
        report(stages, "certificate 5/5: two spots against one dealer hand", 0, 1)
        return object()  # the figures, as far as the files stage: never read

    out = tmp_path / "cert"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(model, "certify", figures)
        with pytest.raises(Stop):
            analyzer.certify("1D H17 DOA NDAS NSPL NS", out=out, pdf=False, exact=False,
                             rounds=1000, seed=1, progress=stop_at_the_files)
    assert not out.exists()
    assert stages == ["certificate 5/5: two spots against one dealer hand",
                      "certificate: files (Markdown, HTML, JSON)"]


def test_a_certificate_written_reports_its_last_stage_done(tmp_path: Path) -> None:
    """A finished web certificate job showed "done": 0 of "total": 1 (found by a newcomer
    tester): the files stage reports its one step done once they are written."""
    from analyzer.util.progress import Progress

    heard: list[Progress] = []
    analyzer.certify("1D H17 DOA NDAS NSPL NS", out=tmp_path / "cert", pdf=False, exact=False,
                     rounds=1000, seed=1, progress=heard.append)
    assert (tmp_path / "cert" / "certificate.json").exists()
    assert heard[-1] == Progress("certificate: files (Markdown, HTML, JSON)", 1, 1)
