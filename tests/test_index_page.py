"""``reports/index.html``: every file ``bja build`` writes linked once, with a line saying
what it is; the page self-contained and readable in a browser from phone to desktop.

Three lists of files are checked: the build's own list (``bja build`` run with every
builder replaced by one writing a few files: the index step is the real one), the
committed ``reports/`` and ``tables/`` (rendered by the same renderer), and, once
``bja build`` has regenerated it, the committed ``reports/index.html`` itself.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

import pytest

import analyzer.build as build_module
from analyzer.report import index_page as page_module
from analyzer.report.index_page import INDEX, SECTIONS, index_page, kind_of

ROOT = Path(__file__).resolve().parents[1]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.tags: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "link" or found.get("src"):
            raise AssertionError(f"the page fetches something: <{tag} {attrs}>")


def links(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


def linked_files(html: str) -> list[str]:
    """The project files the page links (project-relative), anchors and docs aside."""
    out = []
    for href in links(html).hrefs:
        if href.startswith("#") or href.startswith("../docs/"):
            continue
        out.append(str(PurePosixPath("reports", href)).replace("reports/../", ""))
    return out


def committed_files() -> list[str]:
    """Every file under reports/ and tables/ (the index aside), project-relative."""
    return sorted(p.relative_to(ROOT).as_posix() for folder in ("reports", "tables")
                  for p in (ROOT / folder).rglob("*") if p.is_file()
                  and p.relative_to(ROOT).as_posix() != INDEX)


def test_every_committed_file_is_linked_once_with_a_known_kind() -> None:
    files = committed_files()
    assert len(files) > 150
    html = index_page(files, engine="bja test")
    assert sorted(linked_files(html)) == files
    unknown = [f for f in files if kind_of(f)[0] == "Other files"]
    assert not unknown, f"files of no known kind (add a line to KINDS): {unknown}"


def test_each_link_of_the_page_resolves_from_reports(tmp_path: Path) -> None:
    files = committed_files()
    html = index_page(files, engine="bja test")
    for href in links(html).hrefs:
        if not href.startswith("#"):
            assert (ROOT / "reports" / href).resolve().exists(), href
    ids = links(html).ids
    assert all(h[1:] in ids for h in links(html).hrefs if h.startswith("#"))


def test_a_file_of_no_known_kind_is_still_linked() -> None:
    html = index_page(["reports/odd/new-thing.svg", "tables/charlie7/chart.txt"], engine="x")
    assert sorted(linked_files(html)) == ["reports/odd/new-thing.svg", "tables/charlie7/chart.txt"]
    assert ">Other files<" in html


def test_the_page_is_a_pure_function_of_the_list() -> None:
    files = committed_files()
    assert index_page(files, engine="e") == index_page(list(files), engine="e")
    assert index_page(files, engine="e") != index_page(files[:-1], engine="e")


def test_the_descriptions_say_what_each_file_is() -> None:
    assert kind_of("reports/charlie7/certificate.pdf")[0] == "Certificates"
    assert kind_of("tables/sidebets/bust-it-1d.md")[1] == (
        "bust-it: par sheet with the bet's usual pay table, 1 deck")
    assert kind_of("reports/shoestate/four-jacks/edge.png")[1].startswith("four-jacks: the player")
    assert kind_of("reports/compare/free-bet-effects.csv")[1].startswith("free-bet: the effect")
    assert kind_of("reports/6d-s17-das-ls.md")[0] == "Games"
    assert set(SECTIONS) >= {k.section for k in page_module.KINDS}


def test_bja_build_writes_the_index_of_what_it_wrote(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's last step: the real index step over the real build's list, each
    builder replaced by one that writes two files (the engine is not run)."""
    def fake(*rels: str) -> Callable[..., list[Path]]:
        def builder(root: Path, *_args: object, **_kwargs: object) -> list[Path]:
            out = []
            for rel in rels:
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(rel)
                out.append(root / rel)
            return out
        return builder

    import analyzer.certificates.files
    import analyzer.comparisons.reports
    import analyzer.shoestate.build

    monkeypatch.setattr(build_module, "PRESETS", {})
    monkeypatch.setattr(build_module, "all_games", dict)
    monkeypatch.setattr(analyzer.certificates.files, "build_certificates",
                        fake("reports/charlie7/certificate.md",
                             "reports/charlie7/certificate.json"))
    monkeypatch.setattr(build_module, "build_chart_tables",
                        fake("tables/charlie7/chart.txt", "tables/charlie7/exceptions.txt"))
    monkeypatch.setattr(build_module, "build_sidebet_tables",
                        fake("tables/sidebets/hot3-8d.md", "tables/sidebets/hot3-8d.csv"))
    monkeypatch.setattr(analyzer.comparisons.reports, "build_compare_reports",
                        fake("reports/compare/seed-games.md", "reports/compare/seed-games.png"))
    monkeypatch.setattr(analyzer.shoestate.build, "build_shoestate_reports",
                        fake("reports/shoestate/README.md", "reports/shoestate/x/eor.md"))
    said: list[str] = []
    written = build_module.build(tmp_path, progress=said.append)
    index = tmp_path / INDEX
    assert written[-1] == index and said[-1] == "index page"
    html = index.read_text()
    assert sorted(linked_files(html)) == sorted(p.relative_to(tmp_path).as_posix()
                                                for p in written[:-1])
    assert all((tmp_path / "reports" / h).exists() for h in links(html).hrefs
               if not h.startswith(("#", "../docs/")))


def test_the_committed_index_links_every_committed_file() -> None:
    """Once `bja build` has regenerated the tree: the page it wrote links every file."""
    index = ROOT / INDEX
    if not index.exists():
        pytest.skip("reports/index.html not generated yet (bja build writes it)")
    assert sorted(linked_files(index.read_text())) == committed_files()


# -- in a browser ---------------------------------------------------------------------------
CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = (1280, 390)  # a desktop window, a phone


def _render(html: str, width: int, shot: Path | None = None) -> dict[str, float]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed "
                                   "(pip install -e '.[test]')")
    executable = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if not executable:
        pytest.skip("chromium not installed (.ci/run installs the Debian package)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(executable), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.set_content(html)
            figures: dict[str, float] = page.evaluate("""() => {
                const doc = document.documentElement;
                const sizes = [...document.querySelectorAll('body *')]
                    .filter(e => e.childNodes.length && e.getClientRects().length)
                    .map(e => parseFloat(getComputedStyle(e).fontSize));
                const outside = [...document.querySelectorAll('a, .what, h1, h2')]
                    .filter(e => e.getBoundingClientRect().right > doc.clientWidth + 0.5);
                return {scroll: doc.scrollWidth, client: doc.clientWidth,
                        smallest: Math.min(...sizes), outside: outside.length,
                        links: document.querySelectorAll('a[href]').length};
            }""")
            if shot is not None:
                page.screenshot(path=str(shot), full_page=False)
        finally:
            browser.close()
    assert [u for u in requests if not u.startswith(("about:", "data:"))] == []
    return figures


@pytest.mark.parametrize("width", WIDTHS)
def test_the_index_renders_in_chromium_without_overflow(width: int, tmp_path: Path) -> None:
    html = index_page(committed_files(), engine="bja test")
    figures = _render(html, width, tmp_path / f"index-{width}.png")
    assert figures["scroll"] <= figures["client"], "the page scrolls sideways"
    assert figures["outside"] == 0, "an element overflows the window"
    assert figures["smallest"] >= 12, "text too small to read"
    assert figures["links"] == len(links(html).hrefs)
    assert re.search(r"<title>[^<]+</title>", html)
