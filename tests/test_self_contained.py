"""Nothing the program prints or writes, and nothing in the repository's docs, tests or
code, refers to a file outside the repository: a user's clone holds all it cites.

The game readings and the seed pay tables are the project's own pages
(``docs/games.md``, ``docs/sidebets.md``); outputs cite them, and name the operators'
rule texts they read by title, not by a path.  Scanned: every file under ``tables/``,
``reports/``, ``docs/``, the README and the other top-level pages, the package and the
tests (bytes, PDFs and PNGs included), and the outputs of ``bja rules show`` for every
game, ``bja ev``, ``bja chart``, a game report and a certificate.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analyzer.cli.main import main
from analyzer.core.presets import PRESETS, READINGS

ROOT = Path(__file__).resolve().parents[1]
# Spelled in pieces so this file does not hold them itself.
OUTSIDE = "../" + "shared"
# Names of files that were never in the repository: the shared folder's pages and seed
# texts, and paths on the machine the references were run on.
ELSEWHERE = re.compile("|".join([re.escape(OUTSIDE), "shared" + "/", "GAMES" + r"\.md",
                                 "SIDEBETS" + r"\.md", "seeds" + "/", "/work" + "/"]))

SCANNED = ("tables", "reports", "docs", "analyzer", "tests", "benchmarks")
TOP_PAGES = ("README.md", "CHANGELOG.md", "ARCHITECTURE.md", "pyproject.toml", "setup.py")
SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

def repository_files() -> list[str]:
    files = [p for folder in SCANNED for p in (ROOT / folder).rglob("*")
             if p.is_file() and not SKIPPED_PARTS & set(p.parts)
             and p.suffix not in (".so", ".pyc")]
    files += [ROOT / name for name in TOP_PAGES if (ROOT / name).exists()]
    return sorted(p.relative_to(ROOT).as_posix() for p in files)


FILES = repository_files()


def test_no_file_of_the_repository_points_into_the_shared_folder() -> None:
    assert len(FILES) > 300
    hits = [f for f in FILES if OUTSIDE.encode() in (ROOT / f).read_bytes()]
    assert hits == []


def _elsewhere(text: str) -> list[str]:
    return sorted({m.group(0) for m in ELSEWHERE.finditer(text)})


def test_no_file_names_a_file_outside_the_repository() -> None:
    """Benchmarks aside: they default to the path of the C++ reference binary on the
    machine that measured them (GPL, not vendored; each takes its path as an option)."""
    hits = {f: _elsewhere((ROOT / f).read_bytes().decode("utf-8", "replace")) for f in FILES
            if f != "tests/test_self_contained.py"
            and not f.startswith("benchmarks/")}
    assert {f: h for f, h in hits.items() if h} == {}


# -- what the program prints and writes -------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out + err


def games(capsys: pytest.CaptureFixture[str]) -> list[str]:
    names = list(json.loads(run(capsys, "rules", "list", "--json")))
    assert set(PRESETS) <= set(names)
    return names


def test_rules_show_cites_the_docs_for_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    for name in games(capsys):
        text = run(capsys, "rules", "show", name)
        data = json.loads(run(capsys, "rules", "show", name, "--json"))
        assert _elsewhere(text) == [] and _elsewhere(json.dumps(data)) == [], name
        if name in PRESETS:
            assert f"readings and assumptions ({READINGS}):" in text
            assert f"rule text: {PRESETS[name].source}" in text
            assert data["source"] == PRESETS[name].source and data["readings_doc"] == READINGS


def test_ev_and_chart_name_no_outside_file(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("ev", "--game", "free-bet"), ("chart", "--game", "charlie7", "--json")):
        assert _elsewhere(run(capsys, *argv)) == [], argv


def test_a_game_report_cites_the_docs() -> None:
    from analyzer.core.rules import parse_spec
    from analyzer.engine.analysis import Analysis
    from analyzer.report.game_report import game_report
    from analyzer.report.model import game_model

    # The readings come from the preset; small rules keep the analysis quick.
    text = game_report("charlie7", game_model(Analysis(parse_spec("1D NSPL"))),
                       PRESETS["charlie7"])
    assert _elsewhere(text) == []
    assert f"## Readings and assumptions ({READINGS})" in text
    assert f"Rule text read: {PRESETS['charlie7'].source}." in text
    assert f"Published RTP: 99.62% (the difference: {READINGS})" in text


@pytest.mark.slow
def test_a_certificate_cites_the_docs(tmp_path: Path) -> None:
    from analyzer.certificates.files import write_certificate
    from analyzer.certificates.model import Settings, certify
    from analyzer.core.rules import parse_spec

    # free-bet's readings and side bets; small rules and a short simulation keep it quick.
    cert = certify(parse_spec("1D S17 NSPL"), "free-bet", PRESETS["free-bet"],
                   Settings(exact=False, check_rounds=10_000, jobs=1, workers=1, cache=False))
    paths, _ = write_certificate(cert, tmp_path / "cert", pdf=False)
    assert [p.name for p in paths] == ["certificate.md", "certificate.html",
                                       "certificate.json"]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert _elsewhere(text) == [], path.name
        assert READINGS in text, path.name
        if path.suffix != ".json":  # the JSON names each side bet's pay table instead
            assert "pay tables as in docs/sidebets.md" in text, path.name
    data = json.loads(paths[2].read_text(encoding="utf-8"))
    assert data["readings_doc"] == READINGS and data["rule_text"] == PRESETS["free-bet"].source


@pytest.mark.slow
def test_bja_certify_writes_no_outside_file_name(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "certify", "--game", "free-bet", "--no-pdf", "--float", "--rounds",
              "1e5", "--out", str(tmp_path / "free-bet"))
    assert _elsewhere(out) == []
    for name in ("certificate.md", "certificate.html", "certificate.json"):
        text = (tmp_path / "free-bet" / name).read_text(encoding="utf-8")
        assert _elsewhere(text) == [] and READINGS in text, name
