"""Renderers of a round's distribution: text, Markdown, CSV and JSON, from one report model.

Pure functions of a :class:`~analyzer.report.distribution_model.DistributionReport`;
exact fractions are rounded to decimals without passing through a float (the
side-bet renderers' helpers), so outputs are byte-identical on every machine.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from typing import Any

from analyzer.report.distribution_model import DistributionReport, Extreme, format_result
from analyzer.sidebets.render import _fixed, _md_table, _text_table
from analyzer.sidebets.stats import CONFIDENCES

PLACES = 12


def _dec(x: Any, places: int = PLACES) -> str:
    return _fixed(x, places) if isinstance(x, Fraction) else f"{x:.{places}f}"


def _pct(x: Any, places: int = 6) -> str:
    return _dec(x * 100, places) + "%"


def _exact(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _odds(e: Extreme) -> str:
    n = e.one_in
    return "impossible" if n is None else f"1 in {n:,.1f}"


def _rows(r: DistributionReport) -> list[list[str]]:
    rows = []
    for x, p in r.probabilities.items():
        row = [format_result(x), _dec(p)]
        if r.exact:
            row.append(_exact(p))
        row.append(_dec(x * p if r.exact else float(x) * p))
        rows.append(row)
    rows.append(["total", _dec(r.total)] + (["1"] if r.exact else []) + [_dec(r.mean)])
    return rows


def _header(r: DistributionReport) -> list[str]:
    return ["net result", "probability"] + (["exact"] if r.exact else []) + ["contribution"]


def _figures(r: DistributionReport) -> list[list[str]]:
    win, loss = r.largest_win, r.largest_loss
    ev = f"{_dec(r.mean, 10)}" + (f" ({_exact(r.mean)})" if r.exact else "")
    rows = [
        ["expected value per initial bet", ev],
        ["RTP", _pct(r.rtp)],
        ["engine EV of the same strategy", _dec(r.ev, 10)],
        ["variance", _dec(r.variance, 10)],
        ["standard deviation", f"{r.sd:.10f}"],
        ["skewness", f"{r.skewness:.6f}"],
        ["P(win) = P(net > 0) (hit frequency)", _pct(r.p_win)],
        ["P(push) = P(net = 0)", _pct(r.p_push)],
        ["P(loss) = P(net < 0)", _pct(r.p_loss)],
        ["largest win", f"{format_result(win.result)} units: {_odds(win)}"],
        ["largest loss", f"{format_result(loss.result)} units: {_odds(loss)}"],
        ["volatility index 90% / 95% / 99%",
         " / ".join(f"{v:.4f}" for v in r.volatility().values())],
    ]
    if r.dist.error_bound:
        rows.append(["error bound per probability", f"{float(r.dist.error_bound):.3g}"])
    return rows


def _interval_rows(r: DistributionReport) -> list[list[str]]:
    return [[f"{n:,}", *(f"{100 * lo:.4f}% .. {100 * hi:.4f}%" for lo, hi in cells.values())]
            for n, cells in r.intervals()]


_INTERVAL_HEADER = ["rounds", *(f"{round(100 * c)}%" for c in CONFIDENCES)]


def _about(r: DistributionReport) -> list[str]:
    h = r.header()
    return [f"rules: {h['rules']}", f"shoe: {h['shoe']}", f"strategy: {h['strategy']}",
            f"arithmetic: {h['arithmetic']}; {h['engine']}"]


def render_text(r: DistributionReport) -> str:
    lines = [f"Distribution of a round's net result: {r.title}", *_about(r), ""]
    lines += _text_table(_header(r), _rows(r)) + [""]
    lines += [f"{k}: {v}" for k, v in _figures(r)] + ["", "RTP after n rounds:"]
    lines += _text_table(_INTERVAL_HEADER, _interval_rows(r)) + [""]
    lines += [f"note: {n}" for n in r.dist.notes]
    return "\n".join(lines) + "\n"


def render_markdown(r: DistributionReport) -> str:
    lines = [f"# Distribution of a round's net result: {r.title}", ""]
    lines += [f"- {line}" for line in _about(r)] + [""]
    lines += _md_table(_header(r), _rows(r)) + [""]
    lines += _md_table(["figure", "value"], _figures(r)) + [""]
    lines += ["## Confidence interval of the RTP", ""]
    lines += _md_table(_INTERVAL_HEADER, _interval_rows(r)) + ["", "## Assumptions", ""]
    lines += [f"- {n}" for n in r.dist.notes]
    return "\n".join(lines) + "\n"


def render_csv(r: DistributionReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["net_result", "probability", "probability_exact"])
    for x, p in r.probabilities.items():
        writer.writerow([format_result(x), _dec(p), _exact(p) if r.exact else ""])
    return out.getvalue()


def _num(x: Any) -> float:
    return float(x)


def report_data(r: DistributionReport) -> dict[str, Any]:
    """Every figure as JSON-ready data (exact fractions as ``"p/q"`` in exact mode)."""
    win, loss = r.largest_win, r.largest_loss
    data: dict[str, Any] = {
        **r.header(),
        "ev": _num(r.mean), "engine_ev": _num(r.ev), "rtp": _num(r.rtp),
        "variance": _num(r.variance), "sd": r.sd, "skewness": r.skewness,
        "p_win": _num(r.p_win), "p_push": _num(r.p_push), "p_loss": _num(r.p_loss),
        "hit_frequency": _num(r.p_win),
        "largest_win": {"result": format_result(win.result), "probability": _num(win.probability),
                        "one_in": win.one_in},
        "largest_loss": {"result": format_result(loss.result),
                         "probability": _num(loss.probability), "one_in": loss.one_in},
        "volatility_index": {f"{round(100 * c)}%": v for c, v in r.volatility().items()},
        "rtp_interval": [{"rounds": n, **{f"{round(100 * c)}%": list(v)
                                          for c, v in cells.items()}}
                         for n, cells in r.intervals()],
        "distribution": {format_result(x): _num(p) for x, p in r.probabilities.items()},
        "error_bound": _num(r.dist.error_bound),
        "notes": list(r.dist.notes),
    }
    if r.exact:
        data["distribution_exact"] = {format_result(x): _exact(p)
                                      for x, p in r.probabilities.items()}
        data["ev_exact"] = _exact(r.mean)
        data["variance_exact"] = _exact(r.variance)
    return data


def render_json(r: DistributionReport) -> str:
    return json.dumps(report_data(r), indent=2) + "\n"
