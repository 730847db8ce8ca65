"""Renderers of a certificate: Markdown, self-contained printable HTML, and JSON.

Pure functions of one :class:`~analyzer.report.certificate_model.Certificate`.
Markdown and HTML write the same document (:mod:`analyzer.report.certificate_doc`);
the HTML adds the colour-coded chart and the distribution plot (inline SVG,
:mod:`analyzer.report.certificate_plot`) and prints on A4 with its own CSS.
JSON carries every figure, exact fractions as ``"p/q"`` strings.
"""

from __future__ import annotations

import json
from fractions import Fraction
from html import escape
from typing import Any

from analyzer.charts.model import COLOURS, UPCARD_LABELS, UPCARDS, Chart
from analyzer.charts.render_text import FREE_MARK, blocks, cell_text, free_note, row_name
from analyzer.core.cards import format_value
from analyzer.report.certificate_doc import Block, ChartBlock, Part, PlotBlock, Table, document
from analyzer.report.certificate_model import Certificate
from analyzer.report.certificate_plot import render_svg
from analyzer.report.certificate_sim import POOLING_RULE
from analyzer.report.distribution_model import format_result
from analyzer.report.distribution_render import report_data
from analyzer.sidebets.render import sheet_data


def _exact(x: Any) -> Any:
    """``"p/q"`` for a fraction, the number itself for a float, None for None."""
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    return None if x is None else float(x)


# --- Markdown -------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace(FREE_MARK, "\\" + FREE_MARK)


def _md_table(t: Table) -> list[str]:
    rule = ["---"] + ["--:" if t.name == "numbers" else "---"] * (len(t.header) - 1)
    return ["| " + " | ".join(_md_cell(c) for c in row) + " |"
            for row in [t.header, tuple(rule), *t.rows]]


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
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 9.5pt;
  color: #111; margin: 0 auto; max-width: 190mm; line-height: 1.35; }
h1 { font-size: 15pt; border-bottom: 2px solid #333; padding-bottom: 3pt; }
h2 { font-size: 12pt; margin: 14pt 0 4pt; border-bottom: 1px solid #999;
  break-after: avoid; }
h3 { font-size: 10.5pt; margin: 10pt 0 3pt; break-after: avoid; }
p, ul { margin: 3pt 0 5pt; } li { margin: 1pt 0; }
table { border-collapse: collapse; margin: 4pt 0 8pt; break-inside: avoid; }
th, td { border: 1px solid #aaa; padding: 1.5pt 5pt; vertical-align: top; }
th { background: #e8e8e8; text-align: left; }
table.numbers td { text-align: right; font-variant-numeric: tabular-nums; }
table.numbers td:first-child { text-align: left; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; word-break: break-all; }
table.chart td, table.chart th { width: 2.1em; text-align: center; padding: 1pt 2pt;
  font-weight: bold; }
table.chart tbody th { min-width: 6.5em; white-space: nowrap; }
div.plot svg { width: 100%; height: auto; }
p.verdict { font-weight: bold; }
"""


def _inline(text: str) -> str:
    """Escape ``text``; Markdown-style `code` spans become <code>."""
    out = escape(text).split("`")
    return "".join(f"<code>{s}</code>" if i % 2 else s for i, s in enumerate(out))


def _html_table(t: Table) -> list[str]:
    cls = f' class="{t.name}"' if t.name else ""
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
    out = [f"<h{part.level}>{escape(part.title)}</h{part.level}>"]
    for block in part.blocks:
        out += _html_block(block, c, svg)
    return out


def render_html(c: Certificate) -> str:
    """One self-contained page: no script, no external resource; prints on A4."""
    title, parts = document(c)
    svg = render_svg(c)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{escape(title)}</h1>"]
    for part in parts:
        out += _html_part(part, c, svg)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# --- JSON -----------------------------------------------------------------------------------


def _levels_data(c: Certificate) -> dict[str, Any]:
    levels = c.levels.levels
    return {
        "rtp": {lv.name: _exact(1 + lv.ev) if lv.computed else None for lv in levels},
        "rtp_decimal": {lv.name: float(1 + lv.ev) for lv in levels if lv.computed},
        "ev_by_level": {lv.name: _exact(lv.ev) for lv in levels if lv.computed},
        "levels_not_computed": {lv.name: lv.reason for lv in levels if not lv.computed},
        "levels_arithmetic": "exact" if c.levels.exact else "float64",
    }


def _distribution_data(c: Certificate) -> dict[str, Any]:
    d = report_data(c.optimal)
    keep = ("strategy", "distribution", "variance", "sd", "skewness", "hit_frequency", "p_win",
            "p_push", "p_loss", "largest_win", "largest_loss", "volatility_index",
            "rtp_interval", "error_bound")
    return {**{k: d[k] for k in keep}, "distribution_mean": d["ev"],
            "distribution_notes": d["notes"],
            "chart_distribution": report_data(c.chart_dist)}


def _sidebets_data(c: Certificate) -> dict[str, Any]:
    out = {}
    for s in c.sidebets:
        data = sheet_data(s)
        out[s.bet] = {**data, "rtp": _exact(s.rtp), "rtp_decimal": float(s.rtp),
                      "ev_exact": _exact(s.ev)}
    return out


def _tables_data(c: Certificate) -> dict[str, Any]:
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


def _checks_data(c: Certificate) -> dict[str, Any]:
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


def _provenance_data(c: Certificate) -> dict[str, Any]:
    p = c.provenance
    return {
        "engine": p.engine, "rules_sha256": p.rules_sha256, "source_sha256": p.source_sha256,
        "source_files": [{"path": path, "sha256": digest} for path, digest in p.source_files],
        "settings": dict(c.settings.__dict__),
        "verification": [{"reference": r.source, "checks": r.checks, "tests": list(r.tests)}
                         for r in c.verification],
    }


def certificate_data(c: Certificate) -> dict[str, Any]:
    """Every figure of the certificate as JSON-ready data."""
    return {
        "format": "bja-certificate 1", "game": c.name, "title": c.title, "rules": c.spec,
        "rules_in_words": list(c.words), "rule_text": c.source, "readings": list(c.readings),
        "published_rtp": c.published_rtp, "shoe": c.shoe,
        "ev_exact": _exact(c.ev) if isinstance(c.ev, Fraction) else None, "ev": float(c.ev),
        "rtp_exact": _exact(c.rtp) if isinstance(c.rtp, Fraction) else None,
        **_levels_data(c), **_distribution_data(c), **_tables_data(c),
        "sidebets": _sidebets_data(c), **_checks_data(c), **_provenance_data(c),
    }


def render_json(c: Certificate) -> str:
    return json.dumps(certificate_data(c), indent=2) + "\n"


__all__ = ["certificate_data", "render_html", "render_json", "render_markdown"]
