"""Text, Markdown and CSV renderings of a comparison: pure functions of the model."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from analyzer.comparisons.columns import (
    display,
    exact_cells,
    label,
    numeric_columns,
)
from analyzer.comparisons.model import Comparison, Explanation
from analyzer.util.text import fraction_text, md_table, text_table

MODES = {"grid": "grid of rule variants", "effects": "effect of each single-rule change",
         "explain": "games side by side, differences explained rule by rule"}


def _pp(x: Fraction | None) -> str:
    return "" if x is None else f"{float(x) * 100:+.6f}"


def header_lines(c: Comparison) -> list[str]:
    base_ev = "" if c.base_figures is None else f"{c.base_figures.ev * 100:.9f}%"
    lines = [f"bja compare: {MODES[c.mode]}   ({c.engine})",
             f"base: {c.base_name}" + (f" ({c.base})" if c.base_name != c.base else ""),
             f"base EV: {base_ev}   RTP: {(1 + c.base_figures.ev) * 100:.9f}%"
             if c.base_figures else "base EV: -"]
    if c.shoe:
        lines.append(f"shoe (every row): {c.shoe}")
    lines += [f"note: {n}" for n in c.notes]
    return lines


def _table(c: Comparison) -> tuple[list[str], list[list[str]]]:
    cols = numeric_columns(c)
    head = ["row", "rules", *[col.header for col in cols]]
    body = []
    for r in c.rows:
        cells = [label(c, r), r.rules or "-", *[display(col, col.get(r)) for col in cols]]
        if r.error:
            cells[2:] = [f"error: {r.error}"]
        body.append(cells)
    return head, body


def render_text(c: Comparison) -> str:
    head, body = _table(c)
    align = "ll" + "r" * (len(head) - 2)
    lines = [*header_lines(c), "", *text_table(head, body, align=align, rule=True)]
    if c.exact:
        lines += ["", "exact values (per unit initial bet):"]
        for r in c.rows:
            cells = exact_cells(r)
            if cells:
                lines.append(f"  {label(c, r)}: EV {cells['ev_exact']}"
                             + (f"; diff {cells['delta_exact']}" if "delta_exact" in cells
                                else ""))
    for title, e in explained(c):
        lines += ["", *explanation_lines(e, c.exact, title)]
    return "\n".join(lines) + "\n"


def explained(c: Comparison) -> list[tuple[str, Explanation]]:
    """``("previous -> row", explanation)`` of every explained row."""
    return [(f"{label(c, prev)} -> {label(c, r)}", r.explanation)
            for prev, r in zip(c.rows, c.rows[1:], strict=False) if r.explanation]


def explanation_lines(e: Explanation, exact: bool, title: str = "") -> list[str]:
    """One explanation as text: contributions, interactions, invalid intermediates."""
    lines = [f"{title or 'difference'}: {_pp(e.total)} pp", f"  from {e.source}",
             f"  to   {e.target}",
             f"  {'rule':<26}{'change':<28}{'Shapley pp':>13}{'alone pp':>13}{'last pp':>13}"]
    for k in e.contributions:
        change = k.change if len(k.change) < 28 else ""
        lines.append(f"  {k.rule:<26}{change:<28}{_pp(k.shapley):>13}{_pp(k.alone):>13}"
                     f"{_pp(k.last):>13}")
        if not change:
            lines.append(f"    ({k.change})")
    total = sum((k.shapley for k in e.contributions), Fraction(0))
    lines.append(f"  {'sum':<54}{_pp(total):>13}   (= the difference"
                 f"{', exactly' if total == e.total else ' (NOT EQUAL)'})")
    if exact:
        lines += [f"    {k.rule}: {fraction_text(k.shapley)}" for k in e.contributions]
    lines.append(f"  orders averaged: {e.orders} of {e.all_orders} (alone = applied first, "
                 "last = applied last)")
    if e.interactions:
        lines.append("  interactions (Harsanyi dividends, pp; Shapley splits each equally):")
        lines += [f"    {' x '.join(i.rules)}: {_pp(i.dividend)}" for i in e.interactions[:10]]
        if len(e.interactions) > 10:
            lines.append(f"    ... {len(e.interactions) - 10} smaller ones")
    reasons: dict[str, list[str]] = {}
    for desc, why in e.invalid:
        reasons.setdefault(why, []).append(desc)
    for why, games in reasons.items():
        lines.append(f"  {len(games)} intermediate game(s) not valid ({why}): the source "
                     "with " + "; with ".join(games))
    lines += [f"  note: {n}" for n in e.notes]
    return lines


def render_markdown(c: Comparison) -> str:
    head, body = _table(c)
    lines = [f"# {MODES[c.mode].capitalize()}", ""]
    lines += [f"- {line}" for line in header_lines(c)[1:]]
    rows = [[x.replace("|", "\\|") for x in b + [""] * (len(head) - len(b))] for b in body]
    lines += ["", *md_table(head, rows, "l" * len(head), compact=True)]
    for title, e in explained(c):
        lines += ["", f"## {title}: the difference rule by rule", "", "```",
                  *explanation_lines(e, c.exact, title), "```"]
    return "\n".join(lines) + "\n"


def render_csv(c: Comparison) -> str:
    """One line per row; full float precision (``repr``), fractions in exact mode."""
    cols = numeric_columns(c)
    keys = ["name", "rules", "change", *[col.key for col in cols]]
    if c.exact:  # every fraction some row has: the EV and difference, the chart's, levels'
        keys += ["ev_exact", "delta_exact"]
        keys += dict.fromkeys(k for r in c.rows for k in exact_cells(r) if k not in keys)
    keys.append("error")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(keys)
    for r in c.rows:
        values: dict[str, object] = {"name": r.name, "rules": r.rules or "",
                                     "change": r.change or "", "error": r.error or ""}
        values.update({col.key: "" if col.get(r) is None else repr(col.get(r)) for col in cols})
        values.update(exact_cells(r))
        writer.writerow([values.get(k, "") for k in keys])
    return out.getvalue()
