"""One self-contained HTML page: the comparison as a sortable table.

No external resources: the style and a small sorting script are inline.  A
click on a heading sorts by that column (again: reversed); numeric cells carry
their full-precision value in ``data-v`` so sorting never reads rounded text.
"""

from __future__ import annotations

from html import escape

from analyzer.comparisons.columns import display, exact_cells, label, numeric_columns
from analyzer.comparisons.model import Comparison
from analyzer.comparisons.render_text import MODES, explained, explanation_lines, header_lines

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.35em; } h2 { font-size: 1.1em; margin-top: 1.4em; }
table.cmp { border-collapse: collapse; font-size: 0.9em; }
table.cmp th, table.cmp td { border: 1px solid #999; padding: 0.2em 0.55em; }
table.cmp th { background: #333; color: #fff; cursor: pointer; user-select: none; }
table.cmp th.asc::after { content: " \\25B2"; } table.cmp th.desc::after { content: " \\25BC"; }
table.cmp td.num { text-align: right; font-family: monospace; }
table.cmp td.spec { font-family: monospace; font-size: 0.9em; }
table.cmp tr:nth-child(even) td { background: #f3f3f3; }
td.pos { color: #0a6b1f; } td.neg { color: #a11; } td.err { color: #a11; font-style: italic; }
pre { background: #f6f6f6; padding: 0.8em; font-size: 0.85em; white-space: pre-wrap; }
.small { font-size: 0.85em; color: #555; }
"""

_SCRIPT = """
document.querySelectorAll("table.cmp").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var asc = !th.classList.contains("asc");
      table.querySelectorAll("th").forEach(function (h) { h.classList.remove("asc", "desc"); });
      th.classList.add(asc ? "asc" : "desc");
      function key(row) {
        var cell = row.cells[col];
        if (!cell) { return null; }
        var v = cell.getAttribute("data-v");
        return v === null ? cell.textContent : parseFloat(v);
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === y) { return 0; }
        if (x === null || x === "") { return 1; }
        if (y === null || y === "") { return -1; }
        var r = (typeof x === "number" && typeof y === "number") ? x - y
          : String(x).localeCompare(String(y));
        return asc ? r : -r;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def _table(c: Comparison) -> list[str]:
    cols = numeric_columns(c)
    head = ["row", "rules", *[col.header for col in cols]]
    if c.exact:
        head += ["EV (exact)"]
    out = ['<table class="cmp">', "<thead><tr>"
           + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead>", "<tbody>"]
    for r in c.rows:
        cells = [f"<td>{escape(label(c, r))}</td>",
                 f'<td class="spec">{escape(r.rules or "-")}</td>']
        if r.error:
            cells.append(f'<td class="err" colspan="{len(head) - 2}">'
                         f"error: {escape(r.error)}</td>")
        else:
            for col in cols:
                v = col.get(r)
                sign = "" if col.kind != "pp" or not isinstance(v, float) or v == 0 else \
                    (" pos" if v > 0 else " neg")
                data = "" if v is None else f' data-v="{v!r}"'
                cells.append(f'<td class="num{sign}"{data}>{escape(display(col, v))}</td>')
            if c.exact:
                cells.append(f'<td class="spec">{escape(exact_cells(r).get("ev_exact", ""))}'
                             "</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>"]
    return out


def render_html(c: Comparison) -> str:
    title = f"bja compare: {MODES[c.mode]} ({c.base_name})"
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
           f"<h1>{escape(title)}</h1>", "<ul>"]
    out += [f"<li>{escape(line)}</li>" for line in header_lines(c)[1:]]
    out += ["</ul>", '<p class="small">Click a column heading to sort; EVs in % of the '
            "initial bet, differences in percentage points.</p>", *_table(c)]
    for title, e in explained(c):
        out += [f"<h2>{escape(title)}: the difference rule by rule</h2>",
                "<pre>" + escape("\n".join(explanation_lines(e, c.exact, title))) + "</pre>"]
    out += [f"<script>{_SCRIPT}</script>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
