"""Renderers of a certificate: Markdown, self-contained printable HTML, and JSON.

Pure functions of one :class:`~analyzer.certificates.model.Certificate`.
Markdown and HTML write the same document (:mod:`analyzer.certificates.doc`);
the HTML adds the colour-coded chart and the distribution plot (inline SVG,
:mod:`analyzer.certificates.plot`) and prints on A4 with its own CSS.
JSON carries every figure, exact fractions as ``"p/q"`` strings.
"""

from __future__ import annotations

import json
from html import escape
from typing import TypedDict

from analyzer.certificates.doc import Block, ChartBlock, Literal, Part, PlotBlock, Table, document
from analyzer.certificates.model import Certificate
from analyzer.certificates.plot import render_svg
from analyzer.certificates.sim import POOLING_RULE
from analyzer.charts.model import COLOURS, UPCARD_LABELS, UPCARDS, Chart
from analyzer.charts.render_text import FREE_MARK, blocks, cell_text, free_note, row_name
from analyzer.core.arith import Number, is_exact
from analyzer.core.cards import format_value
from analyzer.core.presets import READINGS
from analyzer.report.distribution_model import format_result
from analyzer.report.distribution_render import (
    FiguresJson,
    ReportJson,
    SpotsJson,
    report_data,
    spots_data,
)
from analyzer.sidebets.render import sheet_data
from analyzer.sim.estimate import RunJson
from analyzer.util.text import fraction_text, md_literal, md_table

Exact = str | float | None  # "p/q" in exact mode, else the float


def _exact(x: Number | None) -> Exact:
    """``"p/q"`` for a fraction, the number itself for a float, None for None."""
    if is_exact(x):
        return fraction_text(x)
    return None if x is None else float(x)


# --- Markdown -------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    if isinstance(text, Literal):
        return md_literal(text)
    return text.replace("|", "\\|").replace(FREE_MARK, "\\" + FREE_MARK)


def _md_table(t: Table) -> list[str]:
    align = "l" + ("r" if t.name == "numbers" else "l") * (len(t.header) - 1)
    return md_table([_md_cell(c) for c in t.header],
                    [[_md_cell(c) for c in row] for row in t.rows], align)


def _md_chart(chart: Chart) -> list[str]:
    lines: list[str] = []
    for section in chart.sections:
        if len(chart.sections) > 1:
            lines += [f"**{section.title}**", ""]
        for title, keys in blocks(section):
            rows = tuple((row_name(k), *(cell_text(section, k, u) for u in UPCARDS))
                         for k in keys)
            lines += _md_table(Table((title, *UPCARD_LABELS), rows)) + [""]
    note = free_note(chart)
    return lines + ([_md_cell(note), ""] if note else [])


def _md_block(block: Block, c: Certificate) -> list[str]:
    if isinstance(block, str):
        return [block, ""]
    if isinstance(block, Table):
        return _md_table(block) + [""]
    if isinstance(block, ChartBlock):
        return _md_chart(c.chart)
    if isinstance(block, PlotBlock):
        return ["(The plot of the distribution is in certificate.html and certificate.pdf.)", ""]
    return [f"- {item}" for item in block] + [""]


def render_markdown(c: Certificate) -> str:
    title, parts = document(c)
    lines = [f"# {title}", ""]
    for part in parts:
        lines += ["#" * part.level + f" {part.title}", ""]
        for block in part.blocks:
            lines += _md_block(block, c)
    return "\n".join(lines).rstrip("\n") + "\n"


# --- HTML -----------------------------------------------------------------------------------

_CSS = """
@page { size: A4 portrait; margin: 17mm 12mm 16mm 12mm; }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 9pt;
  color: #111; margin: 0 auto; max-width: 186mm; line-height: 1.3; }
h1 { font-size: 14pt; border-bottom: 2px solid #333; padding-bottom: 3pt; margin-top: 0; }
h2 { font-size: 12pt; margin: 12pt 0 4pt; border-bottom: 1px solid #999; }
h3 { font-size: 10.5pt; margin: 9pt 0 3pt; }
h1, h2, h3, p:has(+ table) { break-after: avoid; }  /* a table printed with its lead-in */
div.keep { break-inside: avoid; }
p, ul { margin: 3pt 0 5pt; } li { margin: 1pt 0; }
table { border-collapse: collapse; margin: 4pt 0 8pt; break-inside: avoid; max-width: 100%; }
th, td { border: 1px solid #aaa; padding: 1.5pt 4pt; vertical-align: top;
  overflow-wrap: break-word; }
th { background: #e8e8e8; text-align: left; }
tr { break-inside: avoid; }
table.numbers { font-size: 8pt; }
table.numbers td { text-align: right; font-variant-numeric: tabular-nums; }
table.numbers td:first-child { text-align: left; }
table:not(.numbers):not(.chart) { width: 100%; }
table.summary th:first-child { width: 52%; }
table.appendix, table.long { break-inside: auto; }
table.appendix { font-size: 8pt; }
table.appendix td:first-child { white-space: nowrap; }
table.signoff td { height: 16mm; }
table.cover, table.signoff { table-layout: fixed; }
table.cover td + td, table.signoff td + td { overflow-wrap: anywhere; }
table.cover th:first-child { width: 24%; }
table.signoff th:first-child { width: 16%; }
table.signoff th:nth-child(2) { width: 27%; }
table.signoff th:nth-child(3) { width: 40%; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; overflow-wrap: anywhere; }
table.chart td, table.chart th { width: 2.1em; text-align: center; padding: 1pt 2pt;
  font-weight: bold; }
table.chart tbody th { min-width: 6.5em; white-space: nowrap; }
div.plot svg { width: 100%; height: auto; }
p.verdict { font-weight: bold; }
@media screen and (max-width: 700px) {
  body { padding: 0 8px; }
  table.numbers, table.chart, table.appendix { display: block; overflow-x: auto; }
  div.plot { overflow-x: auto; } div.plot svg { min-width: 640px; }
}
"""


LONG_TABLE_ROWS = 12


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal (for the running header and footer)."""
    return '"' + "".join(ch if ch.isalnum() or ch in " .,:;()/+-_=" else f"\\{ord(ch):x} "
                         for ch in text) + '"'


def _page_css(c: Certificate) -> str:
    """The running header (game, rules, engine), footer (rules, source hash) and page N of M."""
    head = " | ".join(dict.fromkeys((c.title, c.spec, c.provenance.engine)))  # title may be spec
    foot = f"rules {c.spec} | source SHA-256 {c.provenance.source_sha256[:16]}"
    box = "font-family: 'DejaVu Sans', sans-serif; font-size: 7.5pt; color: #444;"
    return ("@page { "
            f"@top-left {{ content: {_css_string(head)}; {box} width: 100%; }} "
            f"@bottom-left {{ content: {_css_string(foot)}; {box} width: 78%; }} "
            f'@bottom-right {{ content: "page " counter(page) " of " counter(pages); {box} '
            "width: 22%; text-align: right; white-space: nowrap; } "
            "}")


def _inline(text: str) -> str:
    """Escape ``text``; Markdown-style `code` spans become <code> (not in what the user
    wrote: :class:`~analyzer.certificates.doc.Literal`)."""
    if isinstance(text, Literal):
        return escape(text)
    out = escape(text).split("`")
    return "".join(f"<code>{s}</code>" if i % 2 else s for i, s in enumerate(out))


def _html_table(t: Table) -> list[str]:
    """A table; a long one may run over a page break (its header repeats) so that its
    heading never stands alone at the foot of a page."""
    names = " ".join(n for n in (t.name, "long" if len(t.rows) > LONG_TABLE_ROWS else "") if n)
    cls = f' class="{names}"' if names else ""
    out = [f"<table{cls}>", "<thead><tr>" + "".join(f"<th>{_inline(h)}</th>" for h in t.header)
           + "</tr></thead>", "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in t.rows]
    return out + ["</tbody>", "</table>"]


def _html_chart(chart: Chart) -> list[str]:
    colours = " ".join(f"td.c-{k} {{ background: {v}; }}" for k, v in COLOURS.items())
    out: list[str] = [f"<style>{colours}</style>"]
    for section in chart.sections:
        if len(chart.sections) > 1:
            out.append(f"<h3>{escape(section.title)}</h3>")
        for title, keys in blocks(section):
            out += [f'<table class="chart" data-section="{escape(section.name)}">',
                    f"<thead><tr><th>{escape(title)}</th>"
                    + "".join(f"<th>{u}</th>" for u in UPCARD_LABELS) + "</tr></thead><tbody>"]
            for key in keys:
                cells = []
                for u in UPCARDS:
                    code = section.code(key, u)
                    cells.append(f'<td class="c-{code}" data-row="{key.label}" '
                                 f'data-up="{format_value(u)}">{cell_text(section, key, u)}</td>')
                out.append(f"<tr><th>{escape(row_name(key))}</th>" + "".join(cells) + "</tr>")
            out += ["</tbody>", "</table>"]
    note = free_note(chart)
    return out + ([f"<p>{escape(note)}</p>"] if note else [])


def _html_block(block: Block, c: Certificate, svg: str) -> list[str]:
    if isinstance(block, str):
        verdict = ' class="verdict"' if "Agreement declared" in block else ""
        return [f"<p{verdict}>{_inline(block)}</p>"]
    if isinstance(block, Table):
        return _html_table(block)
    if isinstance(block, ChartBlock):
        return _html_chart(c.chart)
    if isinstance(block, PlotBlock):
        return [f'<div class="plot">{svg}</div>']
    return ["<ul>", *(f"<li>{_inline(item)}</li>" for item in block), "</ul>"]


def _html_part(part: Part, c: Certificate, svg: str) -> list[str]:
    """The part's heading kept on one page with its content's start: the paragraphs up to
    the first table (of a chart, its first table); a plot starts its own page if need be."""
    head = [f"<h{part.level}>{escape(part.title)}</h{part.level}>"]
    rest: list[str] = []
    blocks = list(part.blocks)
    while blocks and not isinstance(blocks[0], PlotBlock):
        block = blocks.pop(0)
        lines = _html_block(block, c, svg)
        if isinstance(block, ChartBlock):
            end = lines.index("</table>") + 1
            head, rest = head + lines[:end], lines[end:]
            break
        head += lines
        if not isinstance(block, str):
            break
    out = ['<div class="keep">', *head, "</div>", *rest]
    for block in blocks:
        out += _html_block(block, c, svg)
    return out


def render_html(c: Certificate) -> str:
    """One self-contained page: no script, no external resource; prints on A4."""
    title, parts = document(c)
    svg = render_svg(c)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title>", f"<style>{_CSS}{_page_css(c)}</style>", "</head>",
           "<body>",
           f"<h1>{escape(title)}</h1>"]
    for part in parts:
        out += _html_part(part, c, svg)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# --- JSON -----------------------------------------------------------------------------------


class LevelsJson(TypedDict):
    """The RTP levels, keyed by level name (``chart``, ``cdz``, ``cdp1``, ``cdp``, ``optimal``)."""

    rtp: dict[str, Exact]
    rtp_decimal: dict[str, float]
    ev_by_level: dict[str, Exact]
    levels_not_computed: dict[str, str | None]
    levels_arithmetic: str


def _levels_data(c: Certificate) -> LevelsJson:
    levels = c.levels.levels
    return {
        "rtp": {lv.name: _exact(1 + lv.ev) if lv.computed else None for lv in levels},
        "rtp_decimal": {lv.name: float(1 + lv.ev) for lv in levels if lv.computed},
        "ev_by_level": {lv.name: _exact(lv.ev) for lv in levels if lv.computed},
        "levels_not_computed": {lv.name: lv.reason for lv in levels if not lv.computed},
        "levels_arithmetic": "exact" if c.levels.exact else "float64",
    }


class DistributionJson(FiguresJson):
    """The CDZ- distribution's figures (see :class:`ReportJson`), the chart's whole."""

    strategy: str
    distribution_mean: float
    distribution_notes: list[str]
    chart_distribution: ReportJson


def _distribution_data(c: Certificate) -> DistributionJson:
    d = report_data(c.optimal)
    return {"strategy": d["strategy"], "distribution": d["distribution"],
            "variance": d["variance"], "sd": d["sd"], "skewness": d["skewness"],
            "hit_frequency": d["hit_frequency"], "p_win": d["p_win"], "p_push": d["p_push"],
            "p_loss": d["p_loss"], "largest_win": d["largest_win"],
            "largest_loss": d["largest_loss"], "volatility_index": d["volatility_index"],
            "rtp_interval": d["rtp_interval"], "error_bound": d["error_bound"],
            "sd_error_bound": d["sd_error_bound"],
            "hit_frequency_error_bound": d["hit_frequency_error_bound"],
            "distribution_mean": d["ev"], "distribution_notes": d["notes"],
            "chart_distribution": report_data(c.chart_dist)}


def _sidebets_data(c: Certificate) -> dict[str, dict[str, object]]:
    """Each bet's par sheet (:class:`~analyzer.sidebets.render.SheetJson`), its RTP and EV
    exact: ``rtp`` and ``ev_exact`` in their places, ``rtp_decimal`` added."""
    out: dict[str, dict[str, object]] = {}
    for s in c.sidebets:
        data = sheet_data(s)
        out[s.bet] = {**data, "rtp": _exact(s.rtp), "rtp_decimal": float(s.rtp),
                      "ev_exact": _exact(s.ev)}
    return out


class CertificateInsuranceJson(TypedDict):
    ev: Exact
    p_ten: Exact
    take: bool
    take_after: list[str]


class TablesJson(TypedDict):
    """Insurance, the dealer table (keyed by upcard, then outcome) and the chart (keyed by
    section, then row)."""

    insurance: CertificateInsuranceJson | None
    dealer: dict[str, dict[str, float]]
    chart: dict[str, dict[str, list[str]]]


def _tables_data(c: Certificate) -> TablesJson:
    ins = c.insurance
    return {
        "insurance": None if ins is None else {
            "ev": _exact(ins.ev), "p_ten": _exact(ins.p_ten), "take": ins.take,
            "take_after": ["".join(format_value(v) for v in h)
                           for h in ins.after_two_cards_take]},
        "dealer": {format_value(r.upcard): {k: float(v) for k, v in (*r.outcomes,
                                                                     ("bust", r.bust))}
                   for r in c.dealer.rows},
        "chart": {s.name: {k.label: list(codes) for k, codes in s.ordered()}
                  for s in c.chart.sections},
    }


class AsDealtJson(RunJson):
    rtp: float
    se: float
    cut_card: int


class GroupJson(TypedDict):
    low: str
    high: str
    observed: int
    expected: float


class CrossCheckJson(RunJson):
    mean: float
    se: float
    exact_ev: float
    z: float
    chi2: float
    dof: int
    p_value: float
    unexpected: int
    pooling: str
    agrees: bool
    groups: list[GroupJson]


class ChecksJson(TypedDict):
    rtp_as_dealt: AsDealtJson | None
    crosscheck: CrossCheckJson


def _checks_data(c: Certificate) -> ChecksJson:
    k, a = c.check, c.as_dealt
    return {
        "rtp_as_dealt": None if a is None else {
            "rtp": a.rtp, "se": a.se, "strategy": a.strategy, "rounds": a.rounds,
            "seed": a.seed, "jobs": a.jobs, "cut_card": a.cut_card},
        "crosscheck": {
            "rounds": k.rounds, "seed": k.seed, "jobs": k.jobs, "strategy": k.strategy,
            "mean": k.mean, "se": k.se, "exact_ev": k.exact_ev, "z": k.z,
            "chi2": k.chi2, "dof": k.dof, "p_value": k.p_value, "unexpected": k.unexpected,
            "pooling": POOLING_RULE, "agrees": k.agrees,
            "groups": [{"low": format_result(g.low), "high": format_result(g.high),
                        "observed": g.observed, "expected": g.expected} for g in k.groups]},
    }


class SettingsJson(TypedDict):
    """What fixes the figures: the arithmetic, and every simulation's rounds, seed and jobs
    (the processes used and the memo are left out: they change no figure)."""

    exact: bool
    check_rounds: int
    check_seed: int
    as_dealt_rounds: int
    as_dealt_seed: int
    jobs: int
    budget: int


class SourceFileJson(TypedDict):
    path: str
    sha256: str


class ReferenceJson(TypedDict):
    reference: str
    checks: str
    tests: list[str]


class ProvenanceJson(TypedDict):
    engine: str
    rules_sha256: str
    source_sha256: str
    source_files: list[SourceFileJson]
    settings: SettingsJson
    verification: list[ReferenceJson]


def _provenance_data(c: Certificate) -> ProvenanceJson:
    p, s = c.provenance, c.settings
    return {
        "engine": p.engine, "rules_sha256": p.rules_sha256, "source_sha256": p.source_sha256,
        "source_files": [{"path": path, "sha256": digest} for path, digest in p.source_files],
        "settings": {"exact": s.exact, "check_rounds": s.check_rounds,
                     "check_seed": s.check_seed, "as_dealt_rounds": s.as_dealt_rounds,
                     "as_dealt_seed": s.as_dealt_seed, "jobs": s.jobs,
                     "budget": s.budget},
        "verification": [{"reference": r.source, "checks": r.checks, "tests": list(r.tests)}
                         for r in c.verification],
    }


class HeadlineJson(TypedDict):
    """The first figure of the summary: the RTP the player meets, and how it was found."""

    figure: str
    rtp: float
    se: float | None
    method: str


class PublishedVariantJson(TypedDict):
    change: str
    rules: str
    rtp: float


def _headline(c: Certificate) -> HeadlineJson:
    if c.as_dealt is not None:
        return {"figure": "rtp_as_dealt", "rtp": c.as_dealt.rtp, "se": c.as_dealt.se,
                "method": "simulation to the cut card, cluster-robust SE per shoe"}
    return {"figure": "rtp_off_the_top", "rtp": float(c.rtp), "se": None,
            "method": "exact" if is_exact(c.rtp) else "float64"}


class CertificateJson(LevelsJson, DistributionJson, TablesJson, ChecksJson, ProvenanceJson,
                      SpotsJson):
    """``certificate.json``: every figure (the parts' keys in this order: the game, the
    cover, the headline, the spots, the levels, the distribution, the tables,
    ``sidebets``, the checks, the provenance)."""

    format: str
    game: str
    title: str
    rules: str
    rules_in_words: list[str]
    rule_text: str | None
    readings: list[str]
    readings_doc: str | None
    published_rtp: str | None
    shoe: str
    meta: dict[str, str | None]
    headline: HeadlineJson
    published_variants: list[PublishedVariantJson]
    ev_exact: Exact
    ev: float
    rtp_exact: Exact
    sidebets: dict[str, dict[str, object]]


def certificate_data(c: Certificate) -> CertificateJson:
    """Every figure of the certificate as JSON-ready data."""
    return {
        "format": "bja-certificate 1", "game": c.name, "title": c.title, "rules": c.spec,
        "rules_in_words": list(c.words), "rule_text": c.source, "readings": list(c.readings),
        "readings_doc": READINGS if c.readings else None,
        "published_rtp": c.published_rtp, "shoe": c.shoe, "meta": c.meta.data(),
        "headline": _headline(c), **spots_data(c.spots, float(c.optimal.variance)),
        "published_variants": [{"change": v.change, "rules": v.spec, "rtp": v.rtp}
                               for v in c.variants],
        "ev_exact": _exact(c.ev) if is_exact(c.ev) else None, "ev": float(c.ev),
        "rtp_exact": _exact(c.rtp) if is_exact(c.rtp) else None,
        **_levels_data(c), **_distribution_data(c), **_tables_data(c),
        "sidebets": _sidebets_data(c), **_checks_data(c), **_provenance_data(c),
    }


def render_json(c: Certificate) -> str:
    return json.dumps(certificate_data(c), indent=2) + "\n"


__all__ = ["certificate_data", "render_html", "render_json", "render_markdown"]
