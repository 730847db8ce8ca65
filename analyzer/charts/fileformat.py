"""The chart file: what ``bja chart --format csv`` writes and ``bja evaluate --chart`` reads.

One row per line: a label (``H4``..``H21``, ``S12``..``S21``, ``P2``..``P9``,
``PT``, ``PA``; ``H16/5`` for a row that applies to five-card hands only), then
ten codes for upcards 2..9, T, A, separated by commas or whitespace.  ``#``
starts a comment.  Labels and codes are case-insensitive.  A line ``[name]``
starts a further section (Free Bet's ``[free-bet-hand]``; ``[doubled-hand]`` where a
doubled hand may be given up or doubled again); rows before any such line are the
main chart.  H4, S12, H21, S21 and the pair rows may be left out
(see :data:`~analyzer.charts.model.LOOKUP_RULES`); every other row is required.

Read for a rule set (:func:`load_chart`), a file must also fit it: a section,
row or code the rules never consult is refused, naming its line, rather than
ignored (a typo ``[free-bet-hnd]`` would otherwise drop the free-bet hand's
play and evaluate another strategy than the one written).  Refused: a section
other than the main one, ``[free-bet-hand]`` in games with free splits and
``[doubled-hand]`` under DDR or RDn; a
section or row given twice; pair rows where the rules never split, ``PA``
where aces may not be split; a row qualified by a card count the hand never
decides at (a Charlie stops it); in ``[free-bet-hand]`` (the hand carrying the
free bet only hits or stands) a pair row or a code other than H and S; in
``[doubled-hand]`` a pair row or a code other than S, Rs (DDR) and Ds (RDn).

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
from analyzer.charts.strategy import DOUBLED_SECTION, FREE_SECTION
from analyzer.core.errors import ChartError
from analyzer.core.rules import Rules, format_spec
from analyzer.util.files import read_input

_SEPARATORS = re.compile(r"[,\s]+")
_SECTION = re.compile(r"\[\s*([A-Za-z0-9_-]+)\s*\]")


def _unused(rules: Rules, section: str, key: RowKey, codes: tuple[str, ...]) -> str | None:
    """Why the rules never consult this row (None: they do)."""
    if section not in ("main", FREE_SECTION, DOUBLED_SECTION):
        known = [name for name, on in (("[free-bet-hand] with free splits", rules.free_splits),
                                       ("[doubled-hand] with DDR or RDn", _doubled(rules)))
                 if on]
        return (f"unknown section [{section}] (the main chart, then "
                f"{', '.join(known) or 'none'})")
    if section == FREE_SECTION and not rules.free_splits:
        return "section [free-bet-hand] is for games with free splits (FS), and these rules "\
            "have none"
    if section == DOUBLED_SECTION:
        if not _doubled(rules):
            return ("section [doubled-hand] is for games where a doubled hand may be given "
                    "up or doubled again (DDR, RDn), and these rules have neither")
        if key.kind == "P":
            return f"row {key.label}: a doubled hand is never a pair"
        allowed = {"S"} | ({"Rs"} if rules.double_rescue else set()) | \
            ({"Ds"} if rules.redoubles else set())
        bad = sorted(set(codes) - allowed)
        if bad:
            return (f"row {key.label}: code {bad[0]} in [doubled-hand] (these rules let a "
                    f"doubled hand {'/'.join(sorted(allowed))}: S stands, Rs gives up (DDR), "
                    "Ds doubles again (RDn))")
    if key.kind == "P":
        if section == FREE_SECTION:
            return f"row {key.label}: the free-bet hand never splits"
        if rules.max_hands < 2:
            return (f"row {key.label}: these rules never split (NSPL), so a pair is played by "
                    "its total's row and this row would never be read (remove it)")
        if key.total == 1 and not rules.split_aces:
            return (f"row {key.label}: these rules never split aces (NSA), so A,A is played by "
                    "the soft 12 row and this row would never be read (remove it)")
    if key.cards is not None and key.kind in "HS" and not _holds(key.kind, key.total,
                                                                 key.cards):
        soft = "soft" if key.kind == "S" else "hard"
        return f"row {key.label}: no hand of {key.cards} cards is a {soft} {key.total}"
    if key.cards is not None and rules.charlie and key.cards >= rules.charlie:
        return (f"row {key.label}: a hand of {key.cards} cards is a Charlie (CH{rules.charlie}) "
                "and takes no decision")
    if section == FREE_SECTION:
        bad = sorted(set(codes) - {"H", "S"})
        if bad:
            return (f"row {key.label}: code {bad[0]} in [free-bet-hand] (the free-bet hand only "
                    "hits or stands: H or S)")
    return None


def _holds(kind: str, total: int, cards: int) -> bool:
    """Whether some hand of ``cards`` cards (values 1-10, aces counted 1 in ``hard``) has
    this total: hard without an ace (2 to 10 a card), or hard with one where an ace as 11
    would pass 21; soft (an ace as 11) on a hard total of ``total - 10``, an ace in it."""
    if kind == "S":
        hard = total - 10
        return total <= 21 and cards <= hard <= 1 + 10 * (cards - 1)
    return 2 * cards <= total <= 10 * cards or (total >= 12 and cards <= total <= 10 * cards - 9)


def _doubled(rules: Rules) -> bool:
    """Whether a doubled hand still decides (DDR, RDn): the doubled-hand section applies."""
    return rules.double_rescue or bool(rules.redoubles)


def parse_sections(text: str, source: str = "chart", *, require_all: bool = True,
                   rules: Rules | None = None) -> tuple[Section, ...]:
    """Parse a chart file's text; a malformed line raises ChartError naming it.

    With ``rules``, a section, row or code those rules never consult is refused
    too (see the module doc).
    """
    sections: list[tuple[str, dict[RowKey, tuple[str, ...]]]] = [("main", {})]
    text = text.removeprefix("\ufeff")  # the byte-order mark spreadsheets save CSV with
    # Lines end at "\n" (or "\r\n") only: str.splitlines() also breaks at \v, \f, NEL and
    # U+2028, which numbered the lines after them one off and put two rows on one line.
    for number, raw in enumerate(text.split("\n"), start=1):
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
            if rules is not None:
                why = _unused(rules, name, RowKey("H", 16), ())
                if why:
                    raise ChartError(f"{where}: {why}")
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
        if rules is not None:
            why = _unused(rules, sections[-1][0], key, tuple(codes))
            if why:
                raise ChartError(f"{where}: {why}")
        rows[key] = tuple(codes)
    result = []
    for name, rows in sections:
        if require_all:
            validate_rows(rows, f"{source} [{name}]" if name != "main" else source)
        result.append(Section(name=name, title=name, rows=rows))
    return tuple(result)


def load_chart(path: Path, rules: Rules) -> Chart:
    """Read a chart file; the rules come from the command line, not the file."""
    text = read_input(path, "chart file", ChartError)  # a regular file, size-capped
    sections = parse_sections(text, str(path), rules=rules)
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
