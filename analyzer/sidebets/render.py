"""Renderers of par sheets and pay solutions: pure functions from figures to text.

Decimals are rounded from the exact fractions (never through a float), so a
table is byte-identical on every machine.

>>> _fixed(Fraction(-1, 3), 4), _fixed(Fraction(2, 3), 2), percent(Fraction(1, 8))
('-0.3333', '0.67', '12.5000%')
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analyzer.sidebets.paytable import format_pay
from analyzer.sidebets.solve import Solution
from analyzer.sidebets.stats import (
    CONFIDENCES,
    ROUNDS,
    ParSheet,
    rtp_interval,
    volatility_index,
)

PLACES = 12  # decimals of probabilities and returns


def _fixed(x: Fraction, places: int) -> str:
    scaled = round(abs(x) * 10**places)
    whole, frac = divmod(scaled, 10**places)
    sign = "-" if x < 0 and scaled else ""
    return f"{sign}{whole}.{frac:0{places}d}" if places else f"{sign}{whole}"


def percent(x: Fraction, places: int = 4) -> str:
    return _fixed(x * 100, places) + "%"


def _exact(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _one_in(sheet: ParSheet) -> str:
    top = sheet.top
    odds = "never (impossible in this shoe)" if top.probability == 0 else \
        f"1 in {float(1 / top.probability):,.1f}"
    return f"{top.label} ({format_pay(top.pays)} to 1): {odds}"


def _event_rows(sheet: ParSheet, exact: bool) -> list[list[str]]:
    rows = [[e.label, format_pay(e.pays), f"{e.combinations:,}", _fixed(e.probability, PLACES)]
            + ([_exact(e.probability)] if exact else []) + [_fixed(e.ret, PLACES)]
            for e in sheet.events]
    rows.append(["total", "", f"{sheet.deals:,}", _fixed(Fraction(1), PLACES)]
                + (["1"] if exact else []) + [_fixed(sheet.ev, PLACES)])
    return rows


def _event_header(exact: bool) -> list[str]:
    return (["event", "pays", "combinations", "probability"] + (["exact"] if exact else [])
            + ["return"])


def _figure_rows(sheet: ParSheet) -> list[list[str]]:
    vi = " / ".join(f"{volatility_index(sheet, c):.4f}" for c in CONFIDENCES)
    return [
        ["expected value per unit bet", f"{_fixed(sheet.ev, 8)} ({_exact(sheet.ev)})"],
        ["RTP", percent(sheet.rtp)],
        ["house edge", percent(-sheet.ev)],
        ["hit frequency", percent(sheet.hit_frequency)],
        ["variance per unit bet", f"{float(sheet.variance):.6f}"],
        ["standard deviation per unit bet", f"{sheet.sd:.6f}"],
        ["top award", _one_in(sheet)],
        ["volatility index 90% / 95% / 99%", vi],
    ]


def _interval_rows(sheet: ParSheet) -> list[list[str]]:
    rows = []
    for n in ROUNDS:
        cells = [f"{n:,}"]
        for c in CONFIDENCES:
            low, high = rtp_interval(sheet, n, c)
            cells.append(f"{100 * low:.4f}% .. {100 * high:.4f}%")
        rows.append(cells)
    return rows


_INTERVAL_HEADER = ["rounds", *(f"{round(100 * c)}%" for c in CONFIDENCES)]


def _md_table(header: Sequence[str], rows: list[list[str]]) -> list[str]:
    rule = ["---" if i == 0 else "--:" for i in range(len(header))]
    return ["| " + " | ".join(r) + " |" for r in [list(header), rule, *rows]]


def _text_table(header: Sequence[str], rows: list[list[str]]) -> list[str]:
    table = [list(header), *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in table]


def _heading(sheet: ParSheet) -> str:
    return f"{sheet.title} — {sheet.shoe}, pay table {sheet.paytable}"


def _about(sheet: ParSheet) -> str:
    return f"Combinations: {sheet.unit}; {sheet.deals:,} in all. Pays are \"to 1\"."


def render_text(sheet: ParSheet) -> str:
    """The terminal report."""
    lines = [_heading(sheet), _about(sheet), ""]
    lines += _text_table(_event_header(False), _event_rows(sheet, exact=False)) + [""]
    lines += [f"{k}: {v}" for k, v in _figure_rows(sheet)] + ["", "RTP after n rounds:"]
    lines += _text_table(_INTERVAL_HEADER, _interval_rows(sheet)) + [""]
    lines += [f"note: {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"


def render_markdown(sheet: ParSheet) -> str:
    """The par sheet as a Markdown page (``tables/sidebets/*.md``)."""
    lines = [f"# {_heading(sheet)}", "", _about(sheet), ""]
    lines += _md_table(_event_header(True), _event_rows(sheet, exact=True)) + [""]
    lines += _md_table(["figure", "value"], _figure_rows(sheet)) + [""]
    lines += ["## Confidence interval of the RTP", ""]
    lines += _md_table(_INTERVAL_HEADER, _interval_rows(sheet)) + ["", "## Assumptions", ""]
    lines += [f"- {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"


def render_csv(sheet: ParSheet) -> str:
    """One row per outcome and a total row; probabilities exact and decimal."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["event", "label", "pays", "combinations", "probability",
                     "probability_exact", "return", "return_exact"])
    for e in sheet.events:
        writer.writerow([e.name, e.label, format_pay(e.pays), e.combinations,
                         _fixed(e.probability, PLACES), _exact(e.probability),
                         _fixed(e.ret, PLACES), _exact(e.ret)])
    writer.writerow(["total", "all outcomes", "", sheet.deals, _fixed(Fraction(1), PLACES), "1/1",
                     _fixed(sheet.ev, PLACES), _exact(sheet.ev)])
    return out.getvalue()


def _number(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


def sheet_data(sheet: ParSheet) -> dict[str, Any]:
    """The par sheet as JSON-ready data."""
    top = sheet.top
    return {
        "bet": sheet.bet, "shoe": sheet.shoe, "paytable": sheet.paytable,
        "unit": sheet.unit, "deals": sheet.deals,
        "events": [{"name": e.name, "label": e.label, "pays": _number(e.pays),
                    "combinations": e.combinations, "probability": _exact(e.probability),
                    "return": float(e.ret), "return_exact": _exact(e.ret)}
                   for e in sheet.events],
        "ev": float(sheet.ev), "ev_exact": _exact(sheet.ev),
        "rtp": float(sheet.rtp), "rtp_exact": _exact(sheet.rtp),
        "house_edge": float(-sheet.ev),
        "hit_frequency": float(sheet.hit_frequency),
        "hit_frequency_exact": _exact(sheet.hit_frequency),
        "variance": float(sheet.variance), "variance_exact": _exact(sheet.variance),
        "sd": sheet.sd,
        "top_award": {"event": top.name, "pays": _number(top.pays),
                      "one_in": float(1 / top.probability) if top.probability else None},
        "volatility_index": {f"{round(100 * c)}%": volatility_index(sheet, c)
                             for c in CONFIDENCES},
        "rtp_interval": [{"rounds": n, **{f"{round(100 * c)}%": list(rtp_interval(sheet, n, c))
                                          for c in CONFIDENCES}} for n in ROUNDS],
        "notes": list(sheet.notes),
    }


def render_json(sheet: ParSheet) -> str:
    return json.dumps(sheet_data(sheet), indent=2) + "\n"


def solution_data(sheet: ParSheet, solution: Solution) -> dict[str, Any]:
    return {
        "bet": sheet.bet, "shoe": sheet.shoe, "paytable": sheet.paytable,
        "event": solution.event, "target_rtp": float(solution.target_rtp),
        "target_rtp_exact": _exact(solution.target_rtp),
        "pay": float(solution.pay), "pay_exact": _exact(solution.pay),
        "nearest": [{"pays": _number(p), "rtp": float(r), "rtp_exact": _exact(r)}
                    for p, r in solution.nearest],
        "notes": list(sheet.notes),
    }


def render_solution_json(sheet: ParSheet, solution: Solution) -> str:
    return json.dumps(solution_data(sheet, solution), indent=2) + "\n"


def render_solution_text(sheet: ParSheet, solution: Solution) -> str:
    """The exact pay for the target RTP and the practical pays on either side."""
    lines = [
        _heading(sheet),
        f"{solution.event} pays exactly {format_pay(solution.pay)} "
        f"(= {_fixed(solution.pay, 6)}) to 1 for an RTP of {percent(solution.target_rtp)}, "
        "the other pays unchanged",
    ]
    lines += [f"  {format_pay(p)} to 1: RTP {percent(r)}" for p, r in solution.nearest]
    lines += [f"note: {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"
