"""Whole certificates against the library's independent computations, in a real browser.

* A cheap game (one deck, one split, a cut card; float arithmetic) certified once:
  its RTP levels are the engine's EVs of the same play, its distributions sum to 1
  with the engine's EV as mean (1e-12), the simulation agrees with them, the RTP
  as dealt is the simulator's, the JSON carries every key with parseable
  fractions, and headless Chromium renders the HTML (tables present) and prints
  a PDF of the expected pages, byte-identical twice.
* A seed game (charlie7) built end to end twice by ``bja build``'s certificate
  step: byte-identical files; its exact CDZ- RTP is the fraction pinned in
  ``tests/reference/seed-games.txt`` (``bja ev --exact``, checked there against
  the brute-force oracle), its chart EV the pinned ``bja chart`` figure.

Everything here takes seconds to minutes: the whole module is ``slow``.
"""

from __future__ import annotations

import json
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.certificates.files import (
    build_certificates,
    find_chromium,
    page_count,
    print_pdf,
)
from analyzer.certificates.model import Certificate, Settings, certify
from analyzer.certificates.render import render_html, render_json, render_markdown
from analyzer.charts.evaluate import make_chart
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.sim import rtp_as_dealt

pytestmark = pytest.mark.slow
SPEC = "1D S17 DOA DAS SPL1 NS CUT26"
SETTINGS = Settings(exact=False, check_rounds=2_000_000, as_dealt_rounds=1_000_000,
                    spots_rounds=1_000_000, jobs=2, workers=1)
SEED_FIGURES = Path(__file__).parent / "reference" / "seed-games.txt"
needs_chromium = pytest.mark.skipif(find_chromium() is None,
                                    reason="chromium not installed (.ci/run installs the "
                                           "Debian package 'chromium' when it can)")


@pytest.fixture(scope="module")
def cert() -> Certificate:
    return certify(parse_spec(SPEC), "cheap", settings=SETTINGS)


def test_rtp_levels_are_the_engines_evs(cert: Certificate) -> None:
    rules = cert.rules
    for split in ("cdz", "cdp1", "cdp"):
        assert cert.levels[split].ev == Analysis(rules, split=split).ev()
    chart = make_chart(rules, "x").chart
    assert chart.evaluation is not None
    assert cert.levels["chart"].ev == chart.evaluation.chart_ev
    evs = [cert.levels[name].ev for name in ("chart", "cdz", "cdp1", "cdp")]
    assert evs == sorted(evs) and not cert.levels["optimal"].computed


def test_distributions_sum_to_one_with_the_engines_ev_as_mean(cert: Certificate) -> None:
    for report, ev in ((cert.optimal, cert.levels["cdz"].ev),
                       (cert.chart_dist, cert.levels["chart"].ev)):
        assert abs(report.total - 1) <= 1e-12
        assert abs(report.mean - ev) <= 1e-12
        assert report.largest_win.result == max(report.probabilities)
        assert report.p_win == pytest.approx(
            sum(p for x, p in report.probabilities.items() if x > 0), abs=1e-15)
        assert report.sd == pytest.approx(float(report.variance) ** 0.5)


def test_simulation_agrees_with_the_exact_distribution(cert: Certificate) -> None:
    check = cert.check
    assert check.agrees, (check.z, check.chi2, check.dof, check.p_value)
    assert sum(g.observed for g in check.groups) == check.rounds
    assert sum(g.expected for g in check.groups) == pytest.approx(check.rounds, rel=1e-12)
    assert check.dof == len(check.groups) - 1 >= 3 and check.unexpected == 0


def test_rtp_as_dealt_is_the_simulators(cert: Certificate) -> None:
    dealt = cert.as_dealt
    assert dealt is not None and dealt.cut_card == 26
    again = rtp_as_dealt(cert.rules, "chart", SETTINGS.as_dealt_rounds,
                         seed=SETTINGS.as_dealt_seed, jobs=SETTINGS.jobs)
    assert (dealt.rtp, dealt.se, dealt.rounds, dealt.seed) == (again.rtp, again.se,
                                                               again.rounds, again.seed)
    assert abs(dealt.rtp - (1 + cert.levels["chart"].ev)) < 5 * dealt.se + 0.005


def test_json_carries_every_figure(cert: Certificate) -> None:
    data = json.loads(render_json(cert))
    for key in ("rules", "rtp", "ev_exact", "distribution", "sd", "hit_frequency", "sidebets",
                "rtp_as_dealt", "crosscheck", "dealer", "chart", "insurance",
                "source_sha256", "rules_sha256", "verification"):
        assert key in data, key
    assert data["rules"] == SPEC and set(data["rtp"]) == {"chart", "cdz", "cdp1", "cdp",
                                                         "optimal"}
    assert {"rtp", "se", "strategy", "rounds", "seed"} <= set(data["rtp_as_dealt"])
    dist = {Fraction(k): v for k, v in data["distribution"].items()}
    assert sum(dist.values()) == pytest.approx(1, abs=1e-12)
    assert Fraction(data["insurance"]["ev"]) == Fraction(-1, 17)  # 16 tens in 51 cards
    assert data["crosscheck"]["dof"] == len(data["crosscheck"]["groups"]) - 1


def test_markdown_and_html_state_the_sections(cert: Certificate) -> None:
    md, html = render_markdown(cert), render_html(cert)
    for title in ("Summary", "Rules in words", "RTP by strategy level",
                  "Distribution of a round's net result", "RTP as dealt to the cut card",
                  "Insurance", "Dealer outcomes by upcard", "Basic strategy chart",
                  "Simulation cross-check", "Provenance", "Verification record"):
        assert f"## {title}" in md and f">{title}</h" in html.replace("&#x27;", "'")
    assert "<script" not in html and "@import" not in html  # nothing fetched from outside:
    assert not re.search(r'((src|href)="|url\()["\']?(https?:)?//', html)
    assert html.count("<svg") == 1 and cert.provenance.source_sha256 in md


@needs_chromium
def test_chromium_renders_the_tables(cert: Certificate, tmp_path: Path) -> None:
    page = tmp_path / "certificate.html"
    page.write_text(render_html(cert), encoding="utf-8")
    chromium = find_chromium()
    assert chromium is not None
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                          f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|svg)\b.*?</\1>", "", dom, flags=re.S))
    assert len(text.split()) > 1500  # not a blank page
    assert dom.count("<table") >= 12 and 'data-row="H16"' in dom
    assert "RTP by strategy level" in dom and "<svg" in dom


@needs_chromium
def test_pdf_has_the_expected_pages_and_prints_the_same_twice(cert: Certificate,
                                                              tmp_path: Path) -> None:
    page = tmp_path / "certificate.html"
    page.write_text(render_html(cert), encoding="utf-8")
    first, second = print_pdf(page), print_pdf(page)
    assert first == second
    count = re.search(rb"/Type /Pages\s*/Count (\d+)", first) or re.search(
        rb"/Count (\d+)", first)
    assert count is not None
    pages = page_count(first)
    assert pages == int(count.group(1))
    assert 6 <= pages <= 14  # A4, about nine pages of tables for a one-split game


def _pinned(game: str, figure: str) -> list[str]:
    for line in SEED_FIGURES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells[:2] == [game, figure]:
            return cells
    raise AssertionError(f"no pinned {figure} for {game}")


def _pinned_rtp(game: str) -> Fraction:
    return Fraction(_pinned(game, "rtp")[2])


def _pinned_chart_ev(game: str) -> float:
    return float(_pinned(game, "chart_ev")[3])


def test_seed_game_certificate_end_to_end_and_byte_identical(tmp_path: Path) -> None:
    # charlie7: the cheapest seed game to certify exactly (no resplit, so CDP = CDP1 is
    # computed once); the second build serves the exact levels from the disk memo.  The
    # simulations are shorter than the build's: their length changes no code path.
    settings = Settings(check_rounds=2_000_000, spots_rounds=1_000_000)
    first = build_certificates(tmp_path / "a", games=("charlie7",), settings=settings)
    second = build_certificates(tmp_path / "b", games=("charlie7",), settings=settings)
    names = sorted(p.name for p in first)
    assert names == sorted(p.name for p in second)
    assert {"certificate.md", "certificate.html", "certificate.json"} <= set(names)
    for a, b in zip(sorted(first), sorted(second), strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    data = json.loads((tmp_path / "a" / "reports" / "charlie7" / "certificate.json")
                      .read_text(encoding="utf-8"))
    assert Fraction(data["rtp"]["cdz"]) == _pinned_rtp("charlie7")
    assert Fraction(data["ev_exact"]) == _pinned_rtp("charlie7") - 1
    assert Fraction(data["rtp"]["cdp"]) == Fraction(data["rtp"]["cdp1"]) >= _pinned_rtp(
        "charlie7") > Fraction(data["rtp"]["chart"])
    assert abs(float(Fraction(data["rtp"]["chart"])) - 1 - _pinned_chart_ev("charlie7")) < 1e-12
    assert data["crosscheck"]["agrees"] and data["crosscheck"]["rounds"] == 2_000_000
    assert data["rtp_as_dealt"] is None and data["sidebets"] == {}
    assert data["largest_win"]["result"] == "4" and data["largest_loss"]["result"] == "-4"
    dist = {Fraction(k): v for k, v in data["distribution"].items()}
    assert sum(dist.values()) == pytest.approx(1, abs=1e-12)
    assert sum(x * v for x, v in dist.items()) == pytest.approx(data["ev"], abs=1e-12)
    if find_chromium() is not None:
        assert "certificate.pdf" in names


def test_cli_without_chromium_writes_three_files_and_one_error_line(
        cert: Certificate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.certificates import model
    from analyzer.cli.main import main

    monkeypatch.setattr(model, "certify", lambda *args, **kwargs: cert)  # computed once
    monkeypatch.setenv("BJA_CHROMIUM", "")
    assert main(["certify", "--rules", SPEC, "--out", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    stage, error = err.splitlines()  # the files' stage (a cancel point), then one error line
    assert stage == "certificate: files (Markdown, HTML, JSON, PDF)"
    assert error.startswith("bja: error: chromium not found")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "certificate.html", "certificate.json", "certificate.md"]
    assert out.split() == [str(tmp_path / f"certificate.{e}") for e in ("md", "html", "json")]
    assert main(["certify", "--rules", SPEC, "--out", str(tmp_path / "b"), "--no-pdf"]) == 0


def test_a_game_with_suit_bonuses_is_certified() -> None:
    """Suit bonuses (a Spanish 21 flavour on two decks, one split): the distribution by
    suits has the engine's EV as mean, the simulator (its own round loop, suits dealt)
    agrees with its histogram, and the two spots are simulated, labelled."""
    rules = parse_spec("2D H17 DOA DAS SPL1 LS DAN DDR P21W B5C=3:2 B678=3:2/2:1/3:1 "
                       "B777=3:2/2:1/3:1 BSBJ=2:1")
    suited = certify(rules, "suited", settings=SETTINGS)
    for report, ev in ((suited.optimal, suited.levels["cdz"].ev),
                       (suited.chart_dist, suited.levels["chart"].ev)):
        assert abs(report.total - 1) <= 1e-12 and abs(report.mean - ev) <= 1e-12
    assert {Fraction(2), Fraction(3)} <= set(suited.optimal.probabilities)
    check = suited.check
    assert check.agrees, (check.z, check.chi2, check.dof, check.p_value)
    assert suited.spots is not None and suited.spots.method == "simulated"
