"""``bja serve`` in a real browser: headless Chromium (the system ``chromium``) driven by
Playwright against a live uvicorn server.  The pages' figures are the CLI's: the RTP after
changing decks, soft 17 and surrender is what ``bja ev`` prints; a chart cell shows its
EVs (``bja hand``); an edited side-bet pay recomputes to ``bja sidebet``'s RTP; an exact
job shows progress and finishes; a certificate downloads and its JSON is ``bja certify``'s.
Screenshots at 1280 and 390 px (copied to ``$BJA_WEB_SHOTS`` when set): nothing scrolls
sideways, no text below 12 px."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed "
                               "(pip install -e '.[test]')")
import uvicorn  # noqa: E402

import analyzer  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402
from analyzer.web.jobs import ENGINE_LOCK  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = os.environ.get("BJA_WEB_SHOTS")  # a folder to copy the screenshots to, for people
WIDTHS = (1280, 390)


def _chromium() -> str:
    found = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    if not found:
        pytest.skip("no chromium found (/usr/bin/chromium or on PATH; .ci/run installs it)")
    return found


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(workers=2, queue=32), host="127.0.0.1", port=port,
                            log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            yield b
        finally:
            b.close()


def _page(browser: Any, width: int = 1280) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900}, accept_downloads=True)
    page.set_default_timeout(60_000)
    return page


def cli(function: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The figures ``bja`` prints (``to_dict`` is its ``--json``), computed in this process
    while the server computes none (the engine's caches are not thread-safe)."""
    with ENGINE_LOCK:
        data: dict[str, Any] = function(*args, **kwargs).to_dict()
    return data


def pct(x: float, digits: int = 4) -> str:
    """The page's way of printing a fraction as a percentage (app.js ``pct``)."""
    return f"{100 * x:.{digits}f}%"


def test_game_page_recomputes_to_the_cli_figure(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(f"{server}/game?rules=1D+S17+DOA+DAS+SPL1+NS")
    first = cli(analyzer.analyze, "1D S17 DOA DAS SPL1 NS", jobs=1)["rtp"]
    page.wait_for_function("t => document.getElementById('rtp').textContent === t", arg=pct(first))
    page.select_option('[data-rule="decks"]', "2D")
    page.select_option('[data-rule="soft17"]', "H17")
    page.select_option('[data-rule="surrender"]', "LS")
    spec = page.input_value("#spec")
    assert spec.split()[:2] == ["2D", "H17"] and "LS" in spec.split()
    rtp = cli(analyzer.analyze, spec, jobs=1)["rtp"]  # bja ev --rules SPEC --json
    page.wait_for_function("t => document.getElementById('rtp').textContent === t", arg=pct(rtp))
    assert page.text_content("#edge") == pct(-(rtp - 1))
    assert "rules=2D+H17" in page.url  # the state is the query string: bookmarkable
    # the chart: present, and a cell shows its EVs (bja hand's)
    page.wait_for_selector("#chart tbody tr")
    assert page.locator("#chart tbody tr").count() >= 30
    cell = page.locator("#chart tbody tr", has_text="H16").locator("td").nth(8)  # vs T
    cell.click()
    page.wait_for_function("() => /best/.test(document.getElementById('cell-ev').textContent)")
    shown = page.text_content("#cell-ev")
    hand = cli(analyzer.hand, spec, "T", "T,6")
    assert f"stand {hand['actions']['stand']:.4f}" in shown and f"best {hand['best']}" in shown
    page.close()


def test_sidebet_page_recomputes_an_edited_pay(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(f"{server}/sidebet?bet=21%2B3&decks=6")
    page.wait_for_selector("#paytable input")
    first = page.locator("#paytable input").first
    event = first.get_attribute("data-event")
    first.fill("77")
    first.dispatch_event("change")
    names = page.eval_on_selector_all("#paytable input", "xs => xs.map(x => x.dataset.event)")
    pays = page.eval_on_selector_all("#paytable input", "xs => xs.map(x => x.value)")
    spec = ",".join(f"{n}={p}" for n, p in zip(names, pays, strict=True))
    assert f"{event}=77" in spec
    rtp = cli(analyzer.sidebet, "21+3", decks=6, pays=spec)["rtp"]  # bja sidebet --pays
    page.wait_for_function("t => document.getElementById('sb-rtp').textContent === t",
                           arg=pct(float(rtp)))
    assert f"{event}%3D77" in page.url
    page.close()


@pytest.mark.slow
def test_an_exact_job_shows_progress_and_finishes(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(f"{server}/game?rules=1D+S17+DOA+DAS+NSPL+NS")
    page.wait_for_function("() => document.getElementById('rtp').textContent.endsWith('%')")
    page.click("#exact-btn")
    page.wait_for_selector("#exact-progress:not([hidden])")  # the job's progress bar
    page.wait_for_function("() => document.getElementById('exact-out').textContent.length > 0")
    exact = cli(analyzer.analyze, "1D S17 DOA DAS NSPL NS", exact=True, jobs=1)
    assert page.text_content("#exact-out") == (f"EV = {exact['ev_exact']} = {exact['ev']} "
                                               f"(RTP {exact['rtp']})")
    assert page.is_hidden("#exact-progress")
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
def test_pages_fit_the_window(server: str, browser: Any, width: int, tmp_path: Path) -> None:
    page = _page(browser, width)
    for name in ("game", "sidebet", "effects", "shoe", "certificate"):
        page.goto(f"{server}/{name}")
        ready = {"game": "#chart tbody tr", "sidebet": "#paytable input",
                 "shoe": "#hand-out:not(:empty)"}.get(name)
        if ready:
            page.wait_for_selector(ready)
        shot = tmp_path / f"{name}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(SHOTS) / shot.name)
        figures = page.evaluate("""() => {
            const doc = document.documentElement;
            const sizes = [...document.querySelectorAll('body *')]
                .filter(e => e.childNodes.length && e.getClientRects().length
                        && !e.closest('svg'))
                .map(e => parseFloat(getComputedStyle(e).fontSize));
            return {scroll: doc.scrollWidth, client: doc.clientWidth,
                    smallest: Math.min(...sizes)};
        }""")
        assert figures["scroll"] <= figures["client"], f"{name} scrolls sideways at {width}"
        assert figures["smallest"] >= 12, f"{name}: text below 12 px at {width}"
        assert page.text_content("#error") in ("", None) or page.is_hidden("#error"), name
    page.close()


@pytest.mark.slow
def test_a_certificate_downloads_and_its_json_is_the_cli_one(server: str, browser: Any,
                                                              tmp_path: Path) -> None:
    from analyzer.cli.main import main as bja

    spec = "1D H17 DOA NDAS SPL1 NS"
    page = _page(browser)
    page.goto(f"{server}/certificate?rules=" + spec.replace(" ", "+"))
    page.fill("#cert-rounds", "100000")
    page.click("#cert-btn")
    page.wait_for_selector("#cert-progress:not([hidden])")
    link = page.locator("#cert-files a", has_text="certificate.json")
    link.wait_for(timeout=300_000)
    with page.expect_download() as got:
        link.click()
    downloaded = json.loads(Path(got.value.path()).read_text())
    out = tmp_path / "cli"
    with ENGINE_LOCK:
        status = bja(["certify", "--rules", spec, "--float", "--no-pdf", "--rounds", "100000",
                      "--seed", "1", "--out", str(out), "--quiet"])
    assert status == 0
    assert downloaded == json.loads((out / "certificate.json").read_text())
    page.close()


# The answers for the shoes between clicks are held back until after the last shoe's: the
# page must still show the last shoe's EV (it once showed whichever answer came last).
_LATE_ANSWERS = """
const realFetch = window.fetch;
window.fetch = async (url, ...rest) => {
  const answer = await realFetch(url, ...rest);
  if (String(url).includes("/api/ev?") && !String(url).includes("5%3A3")) {
    await new Promise((ok) => setTimeout(ok, 1500));
  }
  return answer;
};
"""


def test_shoe_page_removes_cards(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(f"{server}/shoe?rules=1D+S17+DOA+DAS+SPL1+NS")
    page.wait_for_selector("#hand-out:not(:empty)")
    page.evaluate(_LATE_ANSWERS)
    for label in ("−A", "−A", "−5"):
        page.click(f"#remove button:text-is('{label}')")
    shoe = "A:2,2:4,3:4,4:4,5:3,6:4,7:4,8:4,9:4,T:16"
    page.wait_for_function("s => document.getElementById('shoe').value === s", arg=shoe)
    ev = cli(analyzer.analyze, "1D S17 DOA DAS SPL1 NS", shoe=shoe, jobs=1)
    text = f"{pct(ev['ev'])} (RTP {pct(ev['rtp'])})"
    page.wait_for_function("t => document.getElementById('shoe-ev').textContent === t", arg=text)
    page.wait_for_timeout(2500)  # the held-back answers for the earlier shoes arrive now
    assert page.text_content("#shoe-ev") == text
    assert "shoe=A%3A2" in page.url
    page.close()


@pytest.mark.slow
def test_effects_table_has_words_and_sorts(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(f"{server}/effects?rules=1D+S17+DOA+DAS+SPL1+NS")
    page.click("#effects-btn")
    page.wait_for_selector("#effects tbody tr", timeout=240_000)
    expected = cli(analyzer.compare, "1D S17 DOA DAS SPL1 NS", effects=True, charts=False,
                   jobs=1)
    rows = page.eval_on_selector_all("#effects tbody tr",
                                     "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert {r[0] for r in rows} == {row["name"] for row in expected["rows"]}
    h17 = next(r for r in rows if r[0] == "H17")
    assert h17[1] == "dealer hits soft 17"
    page.click("#effects thead th:nth-child(4)")  # sort by the effect on RTP
    effects = page.eval_on_selector_all("#effects tbody tr td:nth-child(4)",
                                        "cs => cs.map(c => parseFloat(c.textContent))")
    numbers = [e for e in effects if e == e]
    assert numbers == sorted(numbers, reverse=True)
    page.close()
