"""A self-contained HTML chart, colour-coded like a printed strategy card.

One file, no scripts or external resources.  Every cell is a ``<td>`` whose
text is the code, with ``data-row``/``data-up``/``data-section`` naming it (so
tests and tools can read the chart back) and, on hover (``title``), the EV of
each candidate code averaged over the hands of that row.
"""

from __future__ import annotations

from html import escape

from analyzer.charts.model import COLOURS, LEGEND, LOOKUP_RULES, UPCARD_LABELS, UPCARDS, Chart
from analyzer.charts.render_text import blocks, cell_text, figures, free_note, row_name
from analyzer.core.rules import describe_rules, format_spec

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
table.chart td, table.chart th { border: 1px solid #666; width: 2.4em; height: 1.6em;
  text-align: center; font-weight: bold; font-size: 0.95em; }
table.chart th { background: #333; color: #fff; }
table.chart tbody th { background: #555; min-width: 4.5em; }
table.figures td, table.legend td { padding: 0.15em 0.6em; }
table.figures td.ev { text-align: right; font-family: monospace; }
td.free { outline: 3px dashed #222; outline-offset: -4px; }
td[title] { cursor: help; }
.small { font-size: 0.85em; color: #555; }
"""


def _colour_css() -> str:
    return "\n".join(f"td.c-{code} {{ background: {colour}; }}"
                     for code, colour in COLOURS.items())


def _hover(values: dict[str, float] | None) -> str:
    if not values:
        return ""
    ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    return " | ".join(f"{code} {ev * 100:+.3f}%" for code, ev in ranked)


def render_html(chart: Chart) -> str:
    title = escape(chart.title)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{title}</title>", f"<style>{_STYLE}{_colour_css()}\n</style>", "</head>",
           "<body>", f"<h1>{title}</h1>",
           f"<p>Rules: <code>{escape(format_spec(chart.rules))}</code></p>", "<ul>"]
    out += [f"<li>{escape(line)}</li>" for line in describe_rules(chart.rules)]
    out.append("</ul>")
    if chart.evaluation is not None:
        out.append('<table class="figures">')
        out += [f'<tr><td>{escape(name)}</td><td class="ev">{value}</td></tr>'
                for name, value in figures(chart)]
        out.append("</table>")
    out.append('<table class="legend">')
    out += [f'<tr><td class="c-{code}"><b>{code}</b></td><td>{escape(words)}</td></tr>'
            for code, words in LEGEND.items()]
    out.append("</table>")
    note = free_note(chart)
    if note:
        out.append(f'<p class="small">Dashed outline: {escape(note)}</p>')
    out.append('<p class="small">Hover over a cell for the EV of each candidate code, per unit '
               "bet, averaged over the hands of that row (dealer blackjack included).</p>")
    for section in chart.sections:
        if len(chart.sections) > 1:
            out.append(f"<h2>{escape(section.title)}</h2>")
        for block_title, keys in blocks(section):
            out += [f"<h2>{escape(block_title)}</h2>",
                    f'<table class="chart" data-section="{escape(section.name)}">',
                    "<thead><tr><th></th>"
                    + "".join(f"<th>{u}</th>" for u in UPCARD_LABELS) + "</tr></thead>",
                    "<tbody>"]
            for key in keys:
                cells = []
                for u in UPCARDS:
                    code = section.code(key, u)
                    classes = f"c-{code}" + (" free" if (key, u) in section.free else "")
                    hover = _hover(dict(section.evs.get((key, u), {})))
                    attr = f' title="{escape(hover)}"' if hover else ""
                    cells.append(f'<td class="{classes}" data-row="{key.label}" '
                                 f'data-up="{UPCARD_LABELS[UPCARDS.index(u)]}"{attr}>'
                                 f'{cell_text(section, key, u)}</td>')
                out.append(f"<tr><th>{escape(row_name(key))}</th>" + "".join(cells) + "</tr>")
            out += ["</tbody>", "</table>"]
    out += ["<h2>Lookup rules</h2>", "<ul>"]
    out += [f"<li>{escape(rule)}</li>" for rule in (*LOOKUP_RULES, *chart.notes)]
    out += ["</ul>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
