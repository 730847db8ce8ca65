"""A certificate as a lab files it: cover and sign-off from ``--meta``, the headline figure,
exact values moved to the appendix, the published-figure explanation, the free-double mark
and the plot's two series.

One cheap certificate (one deck, float levels, a short cross-check) serves the module;
the print layout of the seed games' certificates in Chromium is in
``test_certificate_layout.py`` (slow).
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.certificates.doc import Appendix, document, scientific
from analyzer.certificates.meta import NOT_SUPPLIED, Meta, load_meta
from analyzer.certificates.model import Certificate, Settings, certify, published_variants
from analyzer.certificates.render import render_html, render_json, render_markdown
from analyzer.certificates.sim import AsDealtFigures
from analyzer.cli.main import main
from analyzer.core.errors import UsageError
from analyzer.core.presets import PRESETS
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis

SPEC = "1D S17 DOA DAS SPL1 NS"
META = """lab = "Example Test Lab"
manufacturer = "Example Games Ltd"
game_name = "Lucky Seven Blackjack"
submission_reference = "EX-2026-0042"
jurisdiction = "Nevada"
submission_date = 2026-11-30
mathematician = "A. Analyst"
"""


@pytest.fixture(scope="module")
def cert() -> Certificate:
    settings = Settings(exact=False, check_rounds=2_000, spots_rounds=20_000, jobs=1, workers=1,
                        cache=False)
    return certify(parse_spec(SPEC), "tiny", settings=settings)


def test_scientific_rounds_exactly() -> None:
    assert scientific(12345678901234567890123) == "1.234567890 x 10^22"
    assert scientific(99999999999_6) == "1.000000000 x 10^12"  # rounds up a decade
    assert scientific(10**36) == "1.000000000 x 10^36"


def test_appendix_takes_long_fractions_and_counts() -> None:
    ax = Appendix()
    assert ax.fraction(Fraction(3, 7), "short") == "`3/7`"
    long = Fraction(10**40 + 1, 3 * 10**40)
    assert ax.fraction(long, "long") == "exact fraction: appendix A.1"
    assert ax.fraction(0.5, "float") == "-"
    assert ax.count(123_456, "few") == "123,456"
    big = 1234567890123456789012345678901234567
    assert ax.count(big, "many") == "1.234567890 x 10^36 (A.2)"
    assert ax.rows == [("A.1", "long", f"`{long.numerator}/{long.denominator}`"),
                       ("A.2", "many", f"`{big}`")]


@pytest.mark.slow
def test_without_meta_the_blocks_say_not_supplied(cert: Certificate) -> None:
    md = render_markdown(cert)
    assert "## Submission" in md and "## Sign-off" in md
    assert md.count(NOT_SUPPLIED) >= 9  # every particular in the cover, both names
    assert "| prepared by (mathematician) | not supplied |  |  |" in md


@pytest.mark.slow
def test_meta_fills_the_cover_and_the_sign_off(cert: Certificate, tmp_path: Path) -> None:
    path = tmp_path / "meta.toml"
    path.write_text(META, encoding="utf-8")
    meta = load_meta(path)
    assert meta.submission_date == "2026-11-30" and meta.reviewer is None
    filed = dataclasses.replace(cert, meta=meta)
    md = render_markdown(filed)
    for line in ("| test laboratory | Example Test Lab |", "| jurisdiction | Nevada |",
                 "| submission date | 2026-11-30 |", "| reviewer | not supplied |",
                 "| prepared by (mathematician) | A. Analyst |  |  |",
                 "| reviewed by | not supplied |  |  |"):
        assert line in md, line
    html = render_html(filed)
    assert "Example Test Lab" in html and 'class="signoff"' in html
    assert json.loads(render_json(filed))["meta"]["lab"] == "Example Test Lab"
    # what the user wrote is never markup, on the way through the whole document
    hostile = dataclasses.replace(cert, meta=Meta(
        lab="<!-- x", manufacturer="[click](javascript:alert(1)) https://evil.example",
        reviewer="<script>alert(1)</script>"))
    md, html = render_markdown(hostile), render_html(hostile)
    assert "| test laboratory | &lt;!-- x |" in md and "<script>" not in md
    assert "[click](" not in md and "\\[click\\](" in md and "https://evil" not in md
    assert "<script>" not in html and "<!-- x" not in html and "&lt;!-- x" in html
    assert json.loads(render_json(hostile))["meta"]["lab"] == "<!-- x"  # data as written


def test_what_a_user_wrote_is_never_markup_in_the_certificate() -> None:
    """``--meta`` text reached certificate.md raw: ``<script>``, an unclosed ``<!--`` that
    hid the rest of the certificate in a Markdown viewer, live links and remote images
    (found by an adversarial test).  The HTML escaped them, and still does, without
    reading backticks as code."""
    from analyzer.certificates.doc import Literal
    from analyzer.certificates.render import _inline, _md_cell

    for text in ("<script>alert(1)</script>", "<!-- x", "[click](javascript:alert(1))",
                 "![i](http://evil.example/t.png)", "a|b", "`x` *y* _z_ ~~w~~ & co"):
        md, html = _md_cell(Literal(text)), _inline(Literal(text))
        assert "<" not in md and "](" not in md.replace("\\](", "") and "|" not in \
            md.replace("\\|", "")
        assert "<" not in html and "<code>" not in html
    assert _md_cell(Literal("ACME Labs, Inc.")) == "ACME Labs, Inc."  # plain text stays
    assert _md_cell("`1D S17`") == "`1D S17`"  # the body's own code spans stay


@pytest.mark.parametrize(("text", "needle"), [
    ('lab = "x"\ncolour = "red"\n', "unknown key 'colour'"),
    ("lab = 3\n", "lab must be text or a date"),
    (f'lab = "{"x" * 201}"\n', "at most 200"),
    ('lab = "a\\tb"\n', "control character"),
    ('lab = "a\\u0085b"\n', "control character (U+0085)"),  # NEL, a C1 control
    ('lab = "a\\u2028b"\n', "control character (U+2028)"),  # a line separator
    ('lab = "a\\u202eb"\n', "control character (U+202E)"),  # right-to-left override
    ('lab = "  "\n', "blank"),
    # a date field takes a date: "next Tuesday, probably" once printed as one
    ('submission_date = "next Tuesday, probably"\n',
     "submission_date must be a date such as 2026-11-30, not 'next Tuesday, probably'"),
    ('report_date = "2026-02-30"\n', "report_date must be a date"),
    ("report_date = 2026-12-01T10:00:00\n", "report_date must be text or a date"),
    ("lab = \n", "not valid TOML"),
])
def test_bad_meta_is_refused_before_the_work(tmp_path: Path, text: str, needle: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "meta.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=re.escape(needle)):
        load_meta(path)
    assert main(["certify", "--rules", SPEC, "--meta", str(path), "--out",
                 str(tmp_path / "out"), "--no-pdf"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: ") and needle in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_certify_meta_twice_gives_the_same_bytes(cert: Certificate, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import analyzer.certificates.model as model

    def computed(*args: object, meta: Meta | None = None, **kwargs: object) -> Certificate:
        return dataclasses.replace(cert, meta=meta or Meta())

    monkeypatch.setattr(model, "certify", computed)  # the figures once; the files twice
    path = tmp_path / "meta.toml"
    path.write_text(META, encoding="utf-8")
    for out in ("a", "b"):
        assert main(["certify", "--rules", SPEC, "--meta", str(path), "--out",
                     str(tmp_path / out), "--no-pdf"]) == 0
    for name in ("certificate.md", "certificate.html", "certificate.json"):
        first = (tmp_path / "a" / name).read_bytes()
        assert first == (tmp_path / "b" / name).read_bytes(), name
        assert b"Example Test Lab" in first


@pytest.mark.slow
def test_a_cut_card_game_leads_with_its_rtp_as_dealt(cert: Certificate) -> None:
    dealt = AsDealtFigures(rtp=0.99412, se=0.00005, strategy="basic strategy chart",
                           rounds=1000, seed=1, jobs=1, cut_card=26)
    _, parts = document(dataclasses.replace(cert, as_dealt=dealt))
    summary = next(p for p in parts if p.title == "Summary")
    table = summary.blocks[1]
    rows = table.rows  # type: ignore[union-attr]
    assert rows[0][0].startswith("RTP as dealt to the cut card") and "SE" in rows[0][0]
    assert rows[0][1] == "99.4120% +- 0.0050% (1 SE)"
    for label, _, _ in rows[1:]:
        assert "(off the top)" in label, label  # every other figure says which it is
    data = json.loads(render_json(dataclasses.replace(cert, as_dealt=dealt)))
    assert data["headline"]["figure"] == "rtp_as_dealt" and data["headline"]["se"] == 0.00005
    # Off the top is the game's figure when every round is off a full shoe.
    plain = next(p for p in document(cert)[1] if p.title == "Summary").blocks[1]
    assert plain.rows[0][0] == "RTP, optimal play (CDZ-)"  # type: ignore[union-attr]


def test_published_figure_is_explained_by_computed_variants() -> None:
    rules = PRESETS["charlie7"].rules
    found = {v.change: v for v in published_variants(rules)}
    assert set(found) == {"6 decks instead of 8", "resplits to 4 hands instead of 2",
                          "without '21 stands'"}
    for v in found.values():
        assert v.rtp == float(1 + Analysis(parse_spec(v.spec)).ev())
    # docs/games.md: 6 decks 99.6256%, resplits 99.6556%, without "21 stands" 99.60044%
    assert f"{100 * found['6 decks instead of 8'].rtp:.4f}" == "99.6256"
    assert f"{100 * found['resplits to 4 hands instead of 2'].rtp:.4f}" == "99.6556"
    assert f"{100 * found[chr(39).join(['without ', '21 stands', ''])].rtp:.5f}" == "99.60044"


def test_free_doubles_are_marked_on_pair_rows_too() -> None:
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.model import RowKey
    from analyzer.charts.render_html import render_html as chart_html
    from analyzer.charts.render_text import cell_text

    chart = make_chart(parse_spec("1D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 "
                                  "FSA-9"), "free").chart
    main_section = chart.main
    fives = RowKey("P", 5)
    doubled = [u for u in range(2, 11) if main_section.code(fives, u) in ("D", "Ds")]
    assert doubled  # 5,5 doubles against small cards: a two-card hard 10, free
    for u in doubled:
        assert cell_text(main_section, fives, u) in ("D*", "Ds*")
    page = chart_html(chart)
    assert re.search(r'data-row="P5"[^>]*>D\*<', page)


@pytest.mark.slow
def test_plot_series_read_apart_without_colour(cert: Certificate) -> None:
    from analyzer.certificates.plot import render_svg

    svg = render_svg(cert)
    assert "<pattern" in svg  # the chart's bars are hatched, the optimal's solid


@pytest.mark.slow
def test_several_spots_in_the_certificate(cert: Certificate) -> None:
    from analyzer.engine.dist_spots import spot_covariance

    assert cert.spots is not None and cert.spots.method == "exact"
    assert cert.spots.covariance == float(spot_covariance(cert.rules).covariance)
    md = render_markdown(cert)
    assert "## Several spots" in md and "SD of a round on 3 spots (off the top)" in md
    data = json.loads(render_json(cert))
    v = data["variance"]
    c = data["covariance"]["value"]
    assert data["covariance"]["method"] == "exact" and data["covariance"]["agrees"]
    assert data["sd_by_spots"]["3"] == pytest.approx((3 * v + 6 * c) ** 0.5, rel=1e-12)
