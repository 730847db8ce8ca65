"""Plain-text and Markdown charts: pure functions of one :class:`~analyzer.charts.model.Chart`.

Every chart carries, above the grid, its rule set (canonical spec and in
words), its exact EV beside the CDZ- optimum when known, the legend and the
lookup rules, so a printed chart is never separated from what it assumes.
"""

from __future__ import annotations

import textwrap

from analyzer.charts.model import (
    LEGEND,
    LOOKUP_RULES,
    UPCARD_LABELS,
    UPCARDS,
    Chart,
    RowKey,
    Section,
)
from analyzer.core.cards import format_value
from analyzer.core.rules import describe_rules, format_spec
from analyzer.util.text import md_table

BLOCKS = (("H", "Hard totals"), ("S", "Soft totals"), ("P", "Pairs"))
FREE_MARK = "*"


def row_name(key: RowKey) -> str:
    """How a row is labelled on a printed chart: ``16``, ``16 (5 cards)``, ``A,A``."""
    if key.kind == "P":
        v = format_value(key.total)
        return f"{v},{v}"
    return f"{key.total}" + ("" if key.cards is None else f" ({key.cards} cards)")


def pct(x: float) -> str:
    return f"{x * 100:.9f}%"


def figures(chart: Chart) -> list[tuple[str, str]]:
    """The EV lines: chart EV (exact, as written), CDZ- optimum, difference."""
    ev = chart.evaluation
    if ev is None:
        return []
    return [("Chart EV (exact, the chart as written)", pct(ev.chart_ev)),
            ("CDZ- optimum (composition-dependent)", pct(ev.optimum_ev)),
            ("Difference (chart - optimum)", pct(ev.gap))]


def free_note(chart: Chart) -> str | None:
    if not any(s.free for s in chart.sections):
        return None
    return f"{FREE_MARK} free: the double or split costs nothing (Free Bet)"


def cell_text(section: Section, key: RowKey, upcard: int) -> str:
    code = section.code(key, upcard)
    return code + (FREE_MARK if (key, upcard) in section.free else "")


def blocks(section: Section) -> list[tuple[str, list[RowKey]]]:
    """The section's rows split into hard, soft and pair blocks, in chart order."""
    ordered = [key for key, _ in section.ordered()]
    out = []
    for kind, title in BLOCKS:
        keys = [k for k in ordered if k.kind == kind]
        if keys:
            out.append((title, keys))
    return out


def render_text(chart: Chart) -> str:
    lines = [chart.title, "=" * len(chart.title), "",
             f"Rules: {format_spec(chart.rules)}"]
    lines += [f"  - {line}" for line in describe_rules(chart.rules)]
    if chart.evaluation is not None:
        lines.append("")
        lines += [f"{name + ':':<42}{value:>16}" for name, value in figures(chart)]
    lines += ["", "Legend:"]
    lines += [f"  {code:<3} {words}" for code, words in LEGEND.items()]
    note = free_note(chart)
    if note:
        lines.append(f"  {note}")
    lines += ["", "Lookup:"]
    for rule in (*LOOKUP_RULES, *chart.notes):
        lines += textwrap.wrap(rule, width=100, initial_indent="  - ", subsequent_indent="    ")
    for section in chart.sections:
        if len(chart.sections) > 1:
            lines += ["", f"[{section.name}] {section.title}"]
        for title, keys in blocks(section):
            width = max(len(row_name(k)) for k in keys)
            width = max(width, len(title))
            lines += ["", f"{title:<{width}} |" + "".join(f"{u:>4}" for u in UPCARD_LABELS),
                      "-" * (width + 1) + "+" + "-" * (4 * len(UPCARDS))]
            for key in keys:
                cells = "".join(f"{cell_text(section, key, u):>4}" for u in UPCARDS)
                lines.append(f"{row_name(key):>{width}} |{cells}")
    return "\n".join(lines) + "\n"


def render_markdown(chart: Chart) -> str:
    lines = [f"# {chart.title}", "", f"Rules: `{format_spec(chart.rules)}`", ""]
    lines += [f"- {line}" for line in describe_rules(chart.rules)]
    if chart.evaluation is not None:
        lines += ["", *md_table(["figure", "EV per unit initial bet"],
                                figures(chart), "lr", compact=True)]
    lines += ["", "Legend: " + "; ".join(f"**{c}** {w}" for c, w in LEGEND.items()) + "."]
    note = free_note(chart)
    if note:
        lines += ["", note.replace(FREE_MARK, "\\" + FREE_MARK, 1)]
    lines += ["", "Lookup rules:", ""] + [f"- {rule}" for rule in LOOKUP_RULES]
    lines += [f"- {n}" for n in chart.notes]
    for section in chart.sections:
        if len(chart.sections) > 1:
            lines += ["", f"## {section.title} (`[{section.name}]`)"]
        for title, keys in blocks(section):
            rows = [[f"**{row_name(key)}**",
                     *(cell_text(section, key, u).replace(FREE_MARK, "\\" + FREE_MARK)
                       for u in UPCARDS)] for key in keys]
            lines += ["", f"### {title}", "",
                      *md_table(["", *UPCARD_LABELS], rows, "l" + "c" * len(UPCARDS),
                                compact=True)]
    return "\n".join(lines) + "\n"
