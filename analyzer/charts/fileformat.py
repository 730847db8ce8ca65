"""The chart file: what ``bja chart --format csv`` writes and ``bja evaluate --chart`` reads.

One row per line: a label (``H4``..``H21``, ``S12``..``S21``, ``P2``..``P9``,
``PT``, ``PA``; ``H16/5`` for a row that applies to five-card hands only), then
ten codes for upcards 2..9, T, A, separated by commas or whitespace.  ``#``
starts a comment.  Labels and codes are case-insensitive.  A line ``[name]``
starts a further section (Free Bet's ``[free-bet-hand]``); rows before any such
line are the main chart.  H4, S12, H21, S21 and the pair rows may be left out
(see :data:`~analyzer.charts.model.LOOKUP_RULES`); every other row is required.

>>> text = format_rows({RowKey("H", 16): ("S",) * 5 + ("H", "H", "R", "R", "R")})
>>> text
'H16,S,S,S,S,S,H,H,R,R,R\\n'
>>> parse_sections(text, require_all=False)[0].rows[RowKey("H", 16)][-1]
'R'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from analyzer.charts.model import (
    LEGEND,
    PAIR_ONLY_CODES,
    UPCARDS,
    Chart,
    RowKey,
    Section,
    canonical_code,
    parse_label,
    validate_rows,
)
from analyzer.core.errors import ChartError
from analyzer.core.rules import Rules, format_spec

_SEPARATORS = re.compile(r"[,\s]+")
_SECTION = re.compile(r"\[\s*([A-Za-z0-9_-]+)\s*\]")


def parse_sections(text: str, source: str = "chart", *,
                   require_all: bool = True) -> tuple[Section, ...]:
    """Parse a chart file's text; a malformed line raises ChartError naming it."""
    sections: list[tuple[str, dict[RowKey, tuple[str, ...]]]] = [("main", {})]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}, line {number}"
        header = _SECTION.fullmatch(line)
        if header:
            name = header.group(1).lower()
            if name == "main" and len(sections) == 1 and not sections[0][1]:
                continue  # an explicit [main] at the top
            if any(name == s[0] for s in sections):
                raise ChartError(f"{where}: section [{name}] appears twice")
            sections.append((name, {}))
            continue
        tokens = [t for t in _SEPARATORS.split(line) if t]
        if not tokens:
            raise ChartError(f"{where}: a row of separators with no label or codes: {line!r}")
        try:
            key = parse_label(tokens[0])
        except ChartError as err:
            raise ChartError(f"{where}: {err}") from None
        rows = sections[-1][1]
        if key in rows:
            raise ChartError(f"{where}: row {key.label} appears twice")
        if len(tokens) - 1 != len(UPCARDS):
            raise ChartError(f"{where}: row {key.label} has {len(tokens) - 1} codes, expected 10 "
                             "(upcards 2..9, T, A)")
        codes = []
        for token in tokens[1:]:
            code = canonical_code(token)
            if code is None:
                raise ChartError(f"{where}: unknown code {token!r} in row {key.label} "
                                 f"(use {', '.join(LEGEND)})")
            if code in PAIR_ONLY_CODES and key.kind != "P":
                raise ChartError(f"{where}: code {code} in row {key.label} is for pair rows only")
            codes.append(code)
        rows[key] = tuple(codes)
    result = []
    for name, rows in sections:
        if require_all:
            validate_rows(rows, f"{source} [{name}]" if name != "main" else source)
        result.append(Section(name=name, title=name, rows=rows))
    return tuple(result)


def load_chart(path: Path, rules: Rules) -> Chart:
    """Read a chart file; the rules come from the command line, not the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ChartError(f"cannot read chart file {str(path)!r}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise ChartError(f"chart file {str(path)!r} is not UTF-8 text") from None
    sections = parse_sections(text, str(path))
    return Chart(rules=rules, sections=sections, title=path.name)


def format_rows(rows: Mapping[RowKey, tuple[str, ...]]) -> str:
    """The row lines of one section, in chart order."""
    ordered = sorted(rows.items(), key=lambda kv: kv[0].sort_key())
    return "".join(f"{key.label}," + ",".join(codes) + "\n" for key, codes in ordered)


def format_chart(chart: Chart) -> str:
    """The chart file (CSV): comments with the rules and figures, then the rows."""
    lines = [f"# {chart.title}", f"# rules: {format_spec(chart.rules)}"]
    ev = chart.evaluation
    if ev is not None:
        lines += [f"# chart EV (exact, as written): {ev.chart_ev * 100:.9f}%",
                  f"# CDZ- optimum: {ev.optimum_ev * 100:.9f}%",
                  f"# difference: {ev.gap * 100:.9f}%"]
    lines += ["# row, then codes vs upcards 2,3,4,5,6,7,8,9,T,A; "
              + "; ".join(f"{c} {w}" for c, w in LEGEND.items())]
    out = "\n".join(lines) + "\n"
    for i, section in enumerate(chart.sections):
        if i:
            out += f"[{section.name}]\n"
        out += format_rows(section.rows)
    return out
