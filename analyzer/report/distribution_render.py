"""Renderers of a round's distribution: text, Markdown, CSV and JSON, from one report model.

Pure functions of a :class:`~analyzer.report.distribution_model.DistributionReport`;
exact fractions are rounded to decimals without passing through a float (the
side-bet renderers' helpers), so outputs are byte-identical on every machine.
"""

from __future__ import annotations

import csv
import io
import json
from typing import NotRequired, TypedDict

from analyzer.core.arith import Number
from analyzer.report.distribution_model import (
    DistributionReport,
    Extreme,
    HeaderJson,
    Spots,
    extreme_text,
    format_result,
)
from analyzer.sidebets.stats import CONFIDENCES, RiskJson
from analyzer.util.text import fixed, fraction_text, md_table, text_table

PLACES = 12


def _dec(x: Number, places: int = PLACES) -> str:
    return fixed(x, places)


def _pct(x: Number, places: int = 6) -> str:
    return _dec(x * 100, places) + "%"



def _rows(r: DistributionReport) -> list[list[str]]:
    rows = []
    for x, p in r.probabilities.items():
        row = [format_result(x), _dec(p)]
        if r.exact:
            row.append(fraction_text(p))
        row.append(_dec(x * p if r.exact else float(x) * p))
        rows.append(row)
    rows.append(["total", _dec(r.total)] + (["1"] if r.exact else []) + [_dec(r.mean)])
    return rows


def _header(r: DistributionReport) -> list[str]:
    bound = f" (+- {float(r.dist.error_bound):.2g})" if r.dist.error_bound else ""
    return (["net result", f"probability{bound}"] + (["exact"] if r.exact else [])
            + ["contribution"])


def _figures(r: DistributionReport) -> list[list[str]]:
    win, loss = r.largest_win, r.largest_loss
    bound = float(r.dist.error_bound)
    if r.dist.error_bound:  # the mean of probabilities known within a bound is no exact EV
        ev = (f"{_dec(r.mean, 10)} (the mean of these probabilities, each within "
              f"{float(r.dist.error_bound):.2g}: the EV is the engine's, below)")
    else:
        ev = f"{_dec(r.mean, 10)}" + (f" ({fraction_text(r.mean)})" if r.exact else "")
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
        ["largest win", extreme_text(win, bound)],
        ["largest loss", extreme_text(loss, bound)],
        ["volatility index 90% / 95% / 99%",
         " / ".join(f"{v:.4f}" for v in r.volatility().values())],
    ]
    if r.dist.error_bound:
        rows.append(["error bound per probability", f"{float(r.dist.error_bound):.3g}"])
        rows.append(["error bound of the standard deviation", f"{r.sd_bound:.3g}"])
        rows.append(["error bound of the hit frequency",
                     f"{r.chance_bound(lambda x: x > 0):.3g}"])
    return rows


def _spot_rows(r: DistributionReport) -> list[list[str]]:
    k = r.spots
    if k is None:
        return []
    how = "exact (every card enumerated)" if k.method == "exact" else \
        f"simulated, {k.rounds:,} rounds, seed {k.seed} ({k.why_simulated})"
    rows = [["covariance of two spots (same dealer hand)",
             f"{k.covariance:.6f}" + ("" if k.method == "exact"
                                      else f" +- {k.simulated_se:.6f}") + f": {how}"]]
    rows += [[Spots.round_label(n), f"{sd:.6f}"]
             for n, sd in k.sd_by_spots(float(r.variance), r.n_spots).items()]
    refused = k.spots_refused(r.n_spots)
    if refused:
        rows.append([Spots.round_label(k.most_spots + 1, r.n_spots), refused])
    if k.method == "exact":
        rows.append(["simulated covariance (check)",
                     f"{k.simulated:.6f} +- {k.simulated_se:.6f} ({k.rounds:,} rounds, "
                     f"seed {k.seed}): " + ("agrees" if k.agrees else "DISAGREES")])
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
    lines += text_table(_header(r), _rows(r)) + [""]
    lines += [f"{k}: {v}" for k, v in _figures(r) + _spot_rows(r)] + ["", "RTP after n rounds:"]
    lines += text_table(_INTERVAL_HEADER, _interval_rows(r)) + [""]
    lines += [f"note: {n}" for n in r.dist.notes]
    return "\n".join(lines) + "\n"


def render_markdown(r: DistributionReport) -> str:
    lines = [f"# Distribution of a round's net result: {r.title}", ""]
    lines += [f"- {line}" for line in _about(r)] + [""]
    lines += md_table(_header(r), _rows(r)) + [""]
    lines += md_table(["figure", "value"], _figures(r) + _spot_rows(r)) + [""]
    lines += ["## Confidence interval of the RTP", ""]
    lines += md_table(_INTERVAL_HEADER, _interval_rows(r)) + ["", "## Assumptions", ""]
    lines += [f"- {n}" for n in r.dist.notes]
    return "\n".join(lines) + "\n"


def render_csv(r: DistributionReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["net_result", "probability", "probability_exact"])
    for x, p in r.probabilities.items():
        writer.writerow([format_result(x), _dec(p), fraction_text(p) if r.exact else ""])
    return out.getvalue()


def _num(x: Number) -> float:
    return float(x)


class ExtremeJson(TypedDict):
    result: str
    probability: float
    one_in: float | None


class FiguresJson(RiskJson):
    """A distribution's figures; ``distribution`` keyed by net result (``"-1"``, ``"3/2"``)."""

    distribution: dict[str, float]
    variance: float
    sd: float
    skewness: float
    hit_frequency: float
    p_win: float
    p_push: float
    p_loss: float
    largest_win: ExtremeJson | None  # None: no round wins (loses)
    largest_loss: ExtremeJson | None
    error_bound: float
    sd_error_bound: float
    hit_frequency_error_bound: float


class CovarianceJson(TypedDict):
    """Two spots against one dealer hand: the covariance, how found, the simulator's."""

    value: float
    method: str
    simulated: float
    simulated_se: float
    rounds: int
    seed: int
    agrees: bool
    why_simulated: str | None


class SpotsJson(TypedDict):
    covariance: CovarianceJson | None
    sd_by_spots: dict[str, float] | None
    sd_by_spots_refused: NotRequired[str]  # why the spots past those given have no SD


def spots_data(k: Spots | None, variance: float, spots: int = 3) -> SpotsJson:
    """The spots' figures (None when not computed); ``sd_by_spots`` for 1..``spots``."""
    if k is None:
        return {"covariance": None, "sd_by_spots": None}
    data: SpotsJson = {
        "covariance": {"value": k.covariance, "method": k.method,
                       "simulated": k.simulated, "simulated_se": k.simulated_se,
                       "rounds": k.rounds, "seed": k.seed, "agrees": k.agrees,
                       "why_simulated": k.why_simulated},
        "sd_by_spots": {str(n): sd for n, sd in k.sd_by_spots(variance, spots).items()}}
    refused = k.spots_refused(spots)
    if refused:
        data["sd_by_spots_refused"] = refused
    return data


class ReportJson(HeaderJson, FiguresJson):
    """``bja distribution --json``: every figure."""

    ev: float
    engine_ev: float
    rtp: float
    notes: list[str]
    distribution_exact: NotRequired[dict[str, str]]
    ev_exact: NotRequired[str]
    variance_exact: NotRequired[str]
    covariance: NotRequired[CovarianceJson | None]
    sd_by_spots: NotRequired[dict[str, float] | None]
    sd_by_spots_refused: NotRequired[str]


def _extreme_data(e: Extreme | None) -> ExtremeJson | None:
    if e is None:
        return None
    return {"result": format_result(e.result), "probability": _num(e.probability),
            "one_in": e.one_in}


def report_data(r: DistributionReport) -> ReportJson:
    """Every figure as JSON-ready data (exact fractions as ``"p/q"`` in exact mode)."""
    win, loss = r.largest_win, r.largest_loss
    h = r.header()
    data: ReportJson = {
        "game": h["game"], "rules": h["rules"], "shoe": h["shoe"], "strategy": h["strategy"],
        "arithmetic": h["arithmetic"], "engine": h["engine"],
        "ev": _num(r.mean), "engine_ev": _num(r.ev), "rtp": _num(r.rtp),
        "variance": _num(r.variance), "sd": r.sd, "skewness": r.skewness,
        "p_win": _num(r.p_win), "p_push": _num(r.p_push), "p_loss": _num(r.p_loss),
        "hit_frequency": _num(r.p_win),
        "largest_win": _extreme_data(win), "largest_loss": _extreme_data(loss),
        "volatility_index": {f"{round(100 * c)}%": v for c, v in r.volatility().items()},
        "rtp_interval": [{"rounds": n, **{f"{round(100 * c)}%": list(v)
                                          for c, v in cells.items()}}
                         for n, cells in r.intervals()],
        "distribution": {format_result(x): _num(p) for x, p in r.probabilities.items()},
        "error_bound": _num(r.dist.error_bound), "sd_error_bound": r.sd_bound,
        "hit_frequency_error_bound": r.chance_bound(lambda x: x > 0),
        "notes": list(r.dist.notes),
    }
    if r.spots is not None:
        spots = spots_data(r.spots, float(r.variance), r.n_spots)
        data["covariance"] = spots["covariance"]
        data["sd_by_spots"] = spots["sd_by_spots"]
        if "sd_by_spots_refused" in spots:
            data["sd_by_spots_refused"] = spots["sd_by_spots_refused"]
    if r.exact and not r.dist.error_bound:  # fractions of probabilities known within a
        data["distribution_exact"] = {format_result(x): fraction_text(p)  # bound: not exact
                                      for x, p in r.probabilities.items()}
        data["ev_exact"] = fraction_text(r.mean)
        data["variance_exact"] = fraction_text(r.variance)
    return data


def render_json(r: DistributionReport) -> str:
    return json.dumps(report_data(r), indent=2) + "\n"
