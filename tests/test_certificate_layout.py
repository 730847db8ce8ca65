"""Every seed game's certificate printed on A4 portrait in headless Chromium.

For each seed game (float levels and short simulations: the layout is the same as
with exact figures, only the fractions move to the appendix, and one game is
certified exactly to have them): no element wider than the printable area, every
heading on the same page as the start of its content, "page 1 of N" in the PDF's
text with the running header (game, rules, engine) and footer (rules, source hash)
on every page.  The measuring is :mod:`tests.layout_check`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analyzer.certificates.files import find_chromium, print_pdf
from analyzer.certificates.meta import Meta
from analyzer.certificates.model import Certificate, Settings, certify
from analyzer.certificates.render import render_html
from analyzer.core.presets import PRESETS
from analyzer.core.rules import parse_spec
from tests.layout_check import headings, pdf_pages, stranded_headings, too_wide

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_chromium() is None or shutil.which("pdftotext") is None,
                                 reason="needs chromium and pdftotext (poppler-utils)")]
# No joint enumeration of three- and four-hand rounds (budget 0): those rounds are settled
# as independent hands within the bound the certificate states; the tables are the same.
SETTINGS = Settings(exact=False, check_rounds=20_000, as_dealt_rounds=20_000,
                    spots_rounds=20_000, jobs=2, workers=1, cache=False, budget=0)
META = Meta(lab="Example Test Lab", manufacturer="Example Games Ltd", mathematician="A. Analyst")


def _check_print(cert: Certificate, folder: Path) -> list[str]:
    chromium = find_chromium()
    assert chromium is not None
    html = folder / "certificate.html"
    html.write_text(render_html(cert), encoding="utf-8")
    pdf = folder / "certificate.pdf"
    pdf.write_bytes(print_pdf(html))
    pages = pdf_pages(pdf)[:-1]  # pdftotext ends the last page with a form feed too
    problems = too_wide(html, chromium)
    problems += stranded_headings(headings(html, chromium), pages)
    if "page 1 of" not in pages[0]:
        problems.append("no 'page 1 of' on the first page")
    hash16 = cert.provenance.source_sha256[:16]
    for n, text in enumerate(pages, 1):
        flat = " ".join(text.split())
        for needle in (f"page {n} of {len(pages)}", cert.spec, cert.provenance.engine, hash16):
            if needle not in flat:
                problems.append(f"page {n}: no {needle!r} in the header or footer")
    return problems


@pytest.mark.parametrize("game", list(PRESETS))
def test_seed_certificate_prints_on_a4(game: str, tmp_path: Path) -> None:
    preset = PRESETS[game]
    cert = certify(preset.rules, game, preset, SETTINGS, meta=META)
    assert _check_print(cert, tmp_path) == []


def test_exact_certificate_with_its_appendix_prints_on_a4(tmp_path: Path) -> None:
    settings = Settings(exact=True, check_rounds=20_000, as_dealt_rounds=20_000,
                        spots_rounds=20_000, jobs=2, workers=1, cache=False)
    cert = certify(parse_spec("1D S17 DOA DAS SPL1 NS CUT26"), "cheap", settings=settings)
    html = render_html(cert)
    assert "Appendix A: exact values" in html and "exact fraction: appendix A.1" in html
    assert _check_print(cert, tmp_path) == []


def test_long_particulars_stay_on_the_page(tmp_path: Path) -> None:
    """A 200-character name without a space (the longest ``--meta`` takes) widened its
    column past the page: values clipped on page 1, the sign-off's signature and date
    columns pushed off the page (found by a print audit).  The cover and the sign-off are
    laid out in fixed columns, and a long word breaks inside its own."""
    unbroken, words = "W" * 200, ("Wide Words " * 19)[:200].strip()
    meta = Meta(lab=words, manufacturer=words, game_name=words, submission_reference=unbroken,
                jurisdiction=words, mathematician=unbroken, reviewer=words)
    preset = PRESETS["charlie7"]
    cert = certify(preset.rules, "charlie7", preset, SETTINGS, meta=meta)
    assert _check_print(cert, tmp_path) == []
