"""Numbers and tables as text: the one definition of each format every output uses.

A figure is printed the same way wherever it appears, so a certificate, a CLI
table and a JSON payload that show one figure show the same digits.

>>> fraction_text(Fraction(-3, 6)), fraction_text(2), fraction_text(2, bare_integers=True)
('-1/2', '2/1', '2')
>>> fixed(Fraction(-1, 3), 4), fixed(0.5, 2), percent(Fraction(1, 8), 3)
('-0.3333', '0.50', '12.500%')
>>> print("\\n".join(md_table(["event", "pays"], [["pair", "6"]])))
| event | pays |
| --- | --: |
| pair | 6 |
>>> print("\\n".join(text_table(["event", "pays"], [["pair", "6"]])))
event  pays
pair      6
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from fractions import Fraction

from analyzer.core.arith import Number, is_exact, public


def fraction_text(x: int | Fraction | float, *, bare_integers: bool = False) -> str:
    """``"p/q"`` of an exact value (floats are converted exactly).

    ``bare_integers`` prints a whole number as ``"n"`` (pay tables, net results),
    otherwise as ``"n/1"`` (figures that are fractions by nature).
    """
    f = Fraction(public(x))
    if bare_integers and f.denominator == 1:
        return str(f.numerator)
    return f"{f.numerator}/{f.denominator}"


def fixed(x: Number | int, places: int) -> str:
    """``x`` with ``places`` decimals: rounded exactly (half to even) for a fraction.

    A float prints as Python rounds it; a fraction is never converted to a float
    first, so a long exact figure keeps every digit asked for.
    """
    if not is_exact(x):
        return f"{float(x):.{places}f}"
    x = public(x)
    scaled = round(abs(x) * 10**places)
    whole, frac = divmod(scaled, 10**places)
    sign = "-" if x < 0 and scaled else ""
    return f"{sign}{whole}.{frac:0{places}d}" if places else f"{sign}{whole}"


def percent(x: Number | int, places: int = 4) -> str:
    """``x`` as a percentage with ``places`` decimals (see :func:`fixed`)."""
    return fixed(x * 100, places) + "%"


# What Markdown reads as markup in a line or a table cell: a backslash before each (links
# and images need their brackets), the HTML Markdown passes through as entities, and no
# bare address made a link (GFM autolinks); line breaks become spaces.
_MD_PUNCTUATION = re.compile(r"([\\`*_\[\]|~])")


def md_literal(text: str) -> str:
    """``text`` as written, in Markdown: a name or a title a user wrote (a pay table's, a
    count's, a certificate's particulars) is never markup."""
    flat = " ".join(text.splitlines())
    escaped = _MD_PUNCTUATION.sub(r"\\\1", html.escape(flat, quote=False))
    return escaped.replace("://", "&#58;//").replace("www.", "www&#46;")


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]],
             align: Sequence[str] | None = None, *, compact: bool = False) -> list[str]:
    """A Markdown table; columns after the first right-aligned unless ``align`` says.

    ``align`` holds one of ``"l"``, ``"r"``, ``"c"`` per column (``"l"`` is
    Markdown's default, ``---``).  ``compact`` writes the rule line without
    spaces (``|---|---:|``), as the reports under ``reports/`` have it.  An
    empty header cell is one space (``| | A |``: a corner above row labels).

    >>> print("\\n".join(md_table(["", "A"], [["x", "1"]], "lc", compact=True)))
    | | A |
    |---|:---:|
    | x | 1 |
    """
    marks = ({"l": "---", "r": "---:", "c": ":---:"} if compact else
             {"l": "---", "r": "--:", "c": ":-:"})
    kinds = list(align) if align is not None else ["l"] + ["r"] * (len(header) - 1)
    rule = [marks[k] for k in kinds]
    head = "|" + "|".join(f" {c} " if c else " " for c in header) + "|"
    line = ("|" + "|".join(rule) + "|") if compact else _md_row(rule)
    return [head, line, *(_md_row(r) for r in rows)]


def _md_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], gap: str = "  ",
               align: Sequence[str] | None = None, *, rule: bool = False,
               strip: bool = True) -> list[str]:
    """A fixed-width table: the first column left-aligned, the rest right-aligned.

    ``align`` holds ``"l"`` or ``"r"`` per column instead.  ``rule`` puts a line
    of dashes under the header.  A row of another length than the header ends
    in a cell that spans the remaining columns (a message in place of
    figures): printed as it is and not measured.  ``strip=False`` keeps the padding at the end of
    a line (a left-aligned last column).

    >>> print("\\n".join(text_table(["row", "EV", "RTP"],
    ...                              [["a", "1.5", "101.5"], ["b", "error: no ace"]], rule=True)))
    row   EV    RTP
    ---  ---  -----
    a    1.5  101.5
    b    error: no ace
    """
    kinds = list(align) if align is not None else ["l"] + ["r"] * (len(header) - 1)
    n = len(header)
    measured = [list(header), *(r if len(r) == n else r[:-1] for r in rows)]
    widths = [max(len(r[i]) for r in measured if i < len(r)) for i in range(n)]

    def pad(cells: Sequence[str]) -> list[str]:
        return [c.ljust(w) if k == "l" else c.rjust(w)
                for c, w, k in zip(cells, widths, kinds, strict=False)]

    def line(cells: Sequence[str]) -> str:
        if len(cells) == n:
            text = gap.join(pad(cells))
            return text.rstrip() if strip else text
        return gap.join([*pad(cells[:-1]), cells[-1]]).rstrip()  # the last cell spans

    lines = [line(header)] + ([gap.join("-" * w for w in widths)] if rule else [])
    return lines + [line(r) for r in rows]


__all__ = ["fixed", "fraction_text", "md_table", "percent", "text_table"]
