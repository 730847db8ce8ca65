"""Strategy charts without the engine: file format, lookup rules, renderers.

The chart used here is a hand-written 6-deck chart (it need not be optimal:
these tests pin how a chart is read and drawn, not how it is derived).
"""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

import pytest

from analyzer.charts.context import ChartContext
from analyzer.charts.fileformat import format_chart, format_rows, parse_sections
from analyzer.charts.model import (
    CODES,
    LEGEND,
    UPCARD_LABELS,
    UPCARDS,
    Chart,
    Evaluation,
    RowKey,
    parse_label,
)
from analyzer.charts.render_html import render_html
from analyzer.charts.render_png import render_png
from analyzer.charts.render_text import render_markdown, render_text
from analyzer.charts.strategy import ChartStrategy, hand_shape
from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.errors import ChartError
from analyzer.core.rules import parse_spec

CHART = """\
# a 6-deck S17 DAS LS chart
H5  H H H H H H H H H H
H6  H H H H H H H H H H
H7  H H H H H H H H H H
H8  H H H H H H H H H H
H9  H D D D D H H H H H
H10 D D D D D D D D H H
H11 D D D D D D D D D H
H12 H H S S S H H H H H
H13 S S S S S H H H H H
H14 S S S S S H H H H H
H15 S S S S S H H H R H
H16 S S S S S H H R Rs R
H17 S S S S S S S S S S
H18,S,S,S,S,S,S,S,S,S,S
H19,S,S,S,S,S,S,S,S,S,S
H20,S,S,S,S,S,S,S,S,S,S
S13 H H H D D H H H H H
S14 H H H D D H H H H H
S15 H H D D D H H H H H
S16 H H D D D H H H H H
S17 H D D D D H H H H H
S18 S Ds Ds Ds Ds S S H H H
S19 S S S S S S S S S S
S20 S S S S S S S S S S
P2 Ph Ph P P P P H H H H
P3 Ph Ph P P P P H H H H
P4 H H H Ph Ph H H H H H
P5 D D D D D D D D H H
P6 Ph P P P P H H H H H
P7 P P P P P P H H H H
P8 P P P P P P P P P Rp
P9 P P P P P S P P S S
PT S S S S S S S S S S
PA P P P P P P P P P P
"""
RULES = parse_spec("6D S17 DOA DAS SPL3 LS")
BOTH = frozenset((STAND, HIT))
ALL = frozenset((STAND, HIT, DOUBLE, SPLIT, SURRENDER))


def comp(*cards: int) -> tuple[int, ...]:
    c = [0] * 10
    for v in cards:
        c[v - 1] += 1
    return tuple(c)


def chart(text: str = CHART, rules: str = "6D S17 DOA DAS SPL3 LS") -> Chart:
    return Chart(rules=parse_spec(rules), sections=parse_sections(text), title="test chart",
                 evaluation=Evaluation(-0.0033, -0.0032, {u: 0.0 for u in UPCARDS}))


# -- file format ---------------------------------------------------------------
def test_file_round_trips_and_optional_rows_may_be_missing() -> None:
    c = chart()
    rows = c.main.rows
    assert RowKey("H", 4) not in rows and RowKey("S", 12) not in rows
    assert rows[RowKey("H", 16)][UPCARDS.index(10)] == "Rs"
    again = parse_sections(format_chart(c))
    assert again[0].rows == rows
    assert format_rows(again[0].rows) == format_rows(rows)


def test_a_spreadsheets_byte_order_mark_and_line_ends_are_read() -> None:
    """A chart saved by a spreadsheet as "CSV UTF-8" starts with U+FEFF and ends lines with
    CR LF; the mark was refused as an unknown row label (an adversarial test)."""
    saved = "\ufeff" + CHART.replace("\n", "\r\n")
    assert parse_sections(saved)[0].rows == parse_sections(CHART)[0].rows


def test_labels_and_codes_are_case_insensitive() -> None:
    text = CHART.replace("S18 S Ds", "s18 S ds").replace("PT ", "p10 ").replace("PA ", "p1 ")
    assert parse_sections(text)[0].rows == parse_sections(CHART)[0].rows
    assert parse_label("H16/5") == RowKey("H", 16, 5)
    assert RowKey("H", 16, 5).label == "H16/5" and RowKey("P", 1).label == "PA"


@pytest.mark.parametrize(("change", "message"), [
    (("H12 H H S", "H12 H X S"), "line 9: unknown code 'X' in row H12"),
    (("H13 S S S S S H H H H H", "H13 S S S S S H H H H"), "line 10: row H13 has 9 codes"),
    (("H14 S", "H3 S"), "line 11: row label 'H3': a hard total must be 4..21"),
    (("H15 S", "X15 S"), "line 12: unknown row label 'X15'"),
    (("H16 S S S S S H H R Rs R", "H16 S S S S S H H P Rs R"), "code P in row H16 is for pair"),
    (("H17 S", "H12 S"), "line 14: row H12 appears twice"),
    (("H19,S,S,S,S,S,S,S,S,S,S\n", ""), "missing row H19"),
    (("H20", ",\nH20"), "line 17: a row of separators with no label"),  # found by the fuzzer
    # lines end at "\n" only: \u2028, \x0c and NEL numbered the following lines one off
    # (found by an adversarial test)
    (("# a 6-deck", "# a\u20286-deck"), "line 9: unknown code 'X' in row H12"),
    (("# a 6-deck", "# a\x0c6-deck"), "line 9: unknown code 'X' in row H12"),
    (("# a 6-deck", "# a\x856-deck"), "line 9: unknown code 'X' in row H12"),
])
def test_a_malformed_file_names_the_bad_line(change: tuple[str, str], message: str) -> None:
    text = CHART.replace(*change, 1)
    if change[0] == "# a 6-deck":  # a line break of splitlines() in the comment, then a
        text = text.replace("H12 H H S", "H12 H X S", 1)  # bad code on the row of line 9
    with pytest.raises(ChartError, match=message.replace("(", r"\(")) as err:
        parse_sections(text, "c.csv")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("row", "message"), [
    ("H4/3", "no hand of 3 cards is a hard 4"),
    ("H16/21", "no hand of 21 cards is a hard 16"),
    ("S12/3", "no hand of 3 cards is a soft 12"),
])
def test_a_row_no_hand_can_reach_is_refused(row: str, message: str) -> None:
    """``H4/3`` and ``H16/21`` were accepted and never consulted, although the format
    refuses what the rules never consult (found by an adversarial test)."""
    codes = " ".join(["H"] * 10)
    with pytest.raises(ChartError, match=message):
        parse_sections(CHART + f"{row} {codes}\n", "c.csv", rules=parse_spec("6D S17 DAS LS"))
    parse_sections(CHART + f"H16/3 {codes}\n", "c.csv", rules=parse_spec("6D S17 DAS LS"))


def test_sections() -> None:
    text = CHART + "[free-bet-hand]\n" + "\n".join(
        line for line in CHART.splitlines() if line[:1] in "HS") + "\n"
    sections = parse_sections(text)
    assert [s.name for s in sections] == ["main", "free-bet-hand"]
    with pytest.raises(ChartError, match="section \\[main\\] appears twice"):
        parse_sections(text + "[main]\n")


# -- lookup rules --------------------------------------------------------------
def test_lookup_rules() -> None:
    s = ChartStrategy(chart(), RULES)
    assert s.decide(10, comp(8, 8), ALL) == SPLIT  # pair row when the pair may be split
    assert s.decide(10, comp(8, 8), BOTH) == STAND  # else its total: H16 vs T, Rs -> stand
    assert s.decide(1, comp(8, 8), ALL) == SURRENDER  # Rp
    assert s.decide(1, comp(8, 8), ALL - {SURRENDER}) == SPLIT
    assert s.decide(10, comp(10, 6), ALL) == SURRENDER
    assert s.decide(10, comp(10, 6), BOTH) == STAND  # Rs without surrender
    assert s.decide(10, comp(10, 5), BOTH) == HIT  # R without surrender
    assert s.decide(6, comp(6, 5), ALL) == DOUBLE
    assert s.decide(6, comp(2, 4, 5), BOTH) == HIT  # D on three cards
    assert s.decide(4, comp(1, 7), ALL) == DOUBLE
    assert s.decide(4, comp(1, 2, 5), BOTH) == STAND  # Ds on three cards
    assert s.decide(2, comp(2, 2), ALL) == SPLIT  # Ph with DAS
    ndas = ChartStrategy(chart(), parse_spec("6D S17 DOA NDAS SPL3 LS"))
    assert ndas.decide(2, comp(2, 2), ALL) == HIT  # Ph without DAS


def test_missing_rows() -> None:
    s = ChartStrategy(chart(), RULES)
    assert s.code_for(5, comp(2, 2), BOTH) == s.code_for(5, comp(2, 3), BOTH)  # H4 uses H5
    assert s.decide(6, comp(1, 1), BOTH) == HIT  # missing S12 hits
    assert s.decide(10, comp(10, 5, 6), BOTH) == STAND  # missing H21 stands
    assert s.decide(10, comp(1, 5, 5), BOTH) == STAND  # missing S21 stands
    assert s.decide(10, (1,) + (0,) * 9, BOTH) == HIT  # one-card start of a split hand
    no_pairs = "\n".join(line for line in CHART.splitlines() if not line.startswith("P"))
    s = ChartStrategy(chart(no_pairs), RULES)
    assert s.decide(6, comp(8, 8), ALL) == STAND  # no pair row: its total


def test_card_count_rows_charlie_and_21() -> None:
    text = CHART + "H16/5 S S S S S S S S S S\n"
    s = ChartStrategy(chart(text), RULES)
    assert s.decide(7, comp(2, 2, 3, 4, 5), BOTH) == STAND  # H16/5
    assert s.decide(7, comp(2, 3, 5, 6), BOTH) == HIT  # four cards: H16
    context = ChartContext(charlie=5, twenty_one_stands=True)
    s = ChartStrategy(chart(), RULES, context=context)
    assert s.decide(2, comp(2, 2, 2, 2, 2), BOTH) == STAND  # a Charlie stops
    assert s.decide(2, comp(1, 2, 8), BOTH) == STAND  # 21 stands


def test_context_reads_the_rules() -> None:
    context = ChartContext.from_rules(parse_spec("8D S17 NDAS SPL1 NS CH6 A21 FD9-11 FSA-9"))
    assert context == ChartContext(charlie=6, twenty_one_stands=True,
                                   free_doubles=frozenset({9, 10, 11}),
                                   free_splits=frozenset(range(1, 10)))
    assert context.free_bet and context.by_cards
    assert ChartContext.from_rules(RULES) == ChartContext()


def test_hand_shape() -> None:
    assert hand_shape(comp(1, 6)) == (17, True, 2)
    assert hand_shape(comp(1, 6, 10)) == (17, False, 3)


# -- renderers -----------------------------------------------------------------
class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, str, str], str] = {}
        self.classes: dict[tuple[str, str, str], list[str]] = {}
        self._open: tuple[str, str, str] | None = None
        self._section = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and a.get("data-section"):
            self._section = a["data-section"] or ""
        if tag == "td" and "data-row" in a:
            self._open = (self._section, a["data-row"] or "", a["data-up"] or "")
            self.cells[self._open] = ""
            self.classes[self._open] = (a.get("class") or "").split()

    def handle_data(self, data: str) -> None:
        if self._open:
            self.cells[self._open] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._open = None


def test_html_cells_match_the_model() -> None:
    c = chart()
    key = RowKey("H", 16)
    evs = {(key, 10): {"Rs": -0.54, "R": -0.5401, "H": -0.557}}
    c = dataclasses.replace(c, sections=(dataclasses.replace(c.main, evs=evs),))
    html = render_html(c)
    parser = _Cells()
    parser.feed(html)
    expected = {("main", k.label, UPCARD_LABELS[i]): code
                for k, codes in c.main.rows.items() for i, code in enumerate(codes)}
    assert parser.cells == expected
    assert all(f"c-{code}" in parser.classes[cell] for cell, code in expected.items())
    assert 'title="Rs -54.000% | R -54.010% | H -55.700%"' in html
    assert "<script" not in html and "http" not in html.replace("http-equiv", "")
    for code in CODES:
        assert f"td.c-{code} {{ background:" in html


def test_text_and_markdown_carry_rules_legend_and_figures() -> None:
    c = chart()
    for text in (render_text(c), render_markdown(c)):
        assert "6D S17 DOA DAS SPL3 LS" in text and "late surrender" in text
        assert all(words in text for words in LEGEND.values())
        assert "-0.330000000%" in text and "-0.010000000%" in text
        assert text.index("Legend") < text.index("Hard totals")
    md = render_markdown(c)
    assert "| **16** | S | S | S | S | S | H | H | R | Rs | R |" in md


def test_png_is_produced_and_reproducible() -> None:
    c = chart()
    png = render_png(c)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    assert render_png(c) == png
    assert b"Software" not in png


def test_free_cells_are_marked() -> None:
    c = chart()
    free = frozenset({(RowKey("H", 10), 2), (RowKey("P", 8), 2)})
    c = dataclasses.replace(c, sections=(dataclasses.replace(c.main, free=free),))
    assert "  D*" in render_text(c) and "P\\*" in render_markdown(c)
    assert render_html(c).count('free" data-row') == 2
    assert render_png(c) != render_png(chart())
