"""A certificate's print layout measured in headless Chromium (Playwright) and in its PDF.

* Width: the HTML laid out at the printable width of A4 portrait (210 mm less the
  12 mm margins, 186 mm), print media; no element's box may reach past it, no
  table cell may hold content wider than itself (bounding boxes, scroll widths) and
  no cell holding one word or number (up to 40 characters) may break it over lines.
* Headings: in the PDF as printed (``bja certify``'s own Chromium print), every
  heading of a part is on the same page as the start of its content: the first
  table, list or plot before the next heading (else the element after it).
* Page numbers: the PDF's text holds "page 1 of".
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

PRINTABLE_MM = 210 - 2 * 12
PX_PER_MM = 96 / 25.4
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

_MEASURE = r"""(limit) => {
  const bad = [];
  const origin = document.body.getBoundingClientRect().left;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right - origin > limit + 0.5 || r.left - origin < -0.5)
      bad.push(`${el.tagName}.${el.className}: ${r.left - origin}..${r.right - origin}`);
    if ((el.tagName === 'TD' || el.tagName === 'TH') && el.scrollWidth > el.clientWidth + 1)
      bad.push(`${el.tagName} overflows: ${el.textContent.slice(0, 40)}`);
    const text = el.textContent.trim();
    if ((el.tagName === 'TD' || el.tagName === 'TH') && text && !/\s/.test(text)
        && text.length <= 40) {  // one word or number: on one line, never broken inside
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set(Array.from(range.getClientRects(), q => Math.round(q.top)));
      if (tops.size > 1) bad.push(`${el.tagName} breaks inside a word: ${text}`);
    }
  }
  if (document.documentElement.scrollWidth > limit + 0.5)
    bad.push(`page scrolls sideways: ${document.documentElement.scrollWidth}`);
  return bad;
}"""

_HEADINGS = r"""() => {
  const isHeading = el => /^H[1-6]$/.test(el.tagName);
  const isBody = el => el.tagName === 'TABLE' || el.tagName === 'UL'
      || el.classList.contains('plot');
  const after = el => {  // the next element in reading order, leaving a keep group
    if (el.nextElementSibling) return el.nextElementSibling;
    const up = el.parentElement;
    return up && up.classList.contains('keep') ? up.nextElementSibling : null;
  };
  const enter = el => el && el.classList.contains('keep') ? el.firstElementChild : el;
  return Array.from(document.querySelectorAll('h1, h2, h3')).map(h => {
    let first = null, body = null;
    for (let el = enter(after(h)); el && !isHeading(el); el = enter(after(el))) {
      if (el.tagName === 'STYLE') continue;
      first = first || el;
      if (isBody(el)) { body = el; break; }
    }
    const start = body || first;
    if (start && start.tagName === 'TABLE') {  // its first cells: a PDF's text reorders cells
      const cells = Array.from(start.querySelectorAll('th, td')).slice(0, 3);
      return [h.textContent, cells.map(c => c.innerText).join('\n\n')];
    }
    return [h.textContent, start ? start.innerText.split('\n')[0] : ''];
  });
}"""


def too_wide(html: Path, chromium: str) -> list[str]:
    """Elements of ``html`` wider than A4's printable area when printed (empty: none)."""
    from playwright.sync_api import sync_playwright

    width = PRINTABLE_MM * PX_PER_MM
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": int(width), "height": 1100})
            page.goto(html.resolve().as_uri())
            page.emulate_media(media="print")
            bad: list[str] = page.evaluate(_MEASURE, width)
            return bad
        finally:
            browser.close()


def headings(html: Path, chromium: str) -> list[tuple[str, str]]:
    """Each heading and the text of the element after it, in document order."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": int(PRINTABLE_MM * PX_PER_MM),
                                              "height": 1100})
            page.goto(html.resolve().as_uri())
            page.emulate_media(media="print")
            found: list[list[str]] = page.evaluate(_HEADINGS)
            return [(a, b) for a, b in found]
        finally:
            browser.close()


def pdf_pages(pdf: Path) -> list[str]:
    """The text of each page of ``pdf`` (pdftotext)."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")


def _squash(text: str) -> str:
    """Letters and digits only: line breaks, hyphenation and spacing differ in a PDF's text."""
    return re.sub(r"[^0-9A-Za-z]", "", text)


def stranded_headings(pairs: list[tuple[str, str]], pages: list[str]) -> list[str]:
    """Headings whose content starts on a later page than the heading itself."""
    squashed = [_squash(p) for p in pages]
    bad = []
    page, at = 0, 0
    for heading, after in pairs:
        needle = _squash(heading)
        while page < len(squashed) and squashed[page].find(needle, at) < 0:
            page, at = page + 1, 0
        if page == len(squashed):
            bad.append(f"{heading!r} not found in the PDF")
            break
        at = squashed[page].find(needle, at) + len(needle)
        pieces = [_squash(piece)[:24] for piece in after.split("\n\n")]
        if any(piece and squashed[page].find(piece, at) < 0 for piece in pieces):
            bad.append(f"{heading!r} (page {page + 1}) is apart from {after[:40]!r}")
    return bad


__all__ = ["CHROMIUM_ARGS", "headings", "pdf_pages", "stranded_headings", "too_wide"]
