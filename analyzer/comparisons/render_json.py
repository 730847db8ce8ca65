"""JSON rendering of a comparison (``--json``).

Shape: ``{"mode", "base", "base_name", "engine", "units", "exact", "notes",
"base_ev", "rows": [{"name", "rules", "ev", "rtp", "delta", ...}]}``; with
``--exact`` each row adds ``ev_exact`` / ``delta_exact`` (``"p/q"``); effects rows
add ``change``; explain rows after the first add ``contributions`` (and
``interactions``, ``invalid``) explaining the difference from the previous row.
A row that could not be computed has ``error`` instead of figures.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NotRequired, TypedDict, cast

from analyzer.comparisons.columns import exact_cells, numeric_columns
from analyzer.comparisons.model import Comparison, Explanation, Row
from analyzer.util.text import fraction_text

# "from" is a keyword: the functional form.  ``total`` and ``total_exact`` (exact mode).
ExplainsJson = TypedDict("ExplainsJson", {
    "from": str, "to": str, "total": float | None, "total_exact": NotRequired[str],
    "orders": int, "all_orders": int, "notes": list[str]})


class ContributionJson(TypedDict):
    """One rule's share of a difference, in three readings (``*_exact`` in exact mode)."""

    rule: str
    change: str
    shapley: float | None
    shapley_exact: NotRequired[str]
    alone: float | None
    alone_exact: NotRequired[str]
    last: float | None
    last_exact: NotRequired[str]


class InteractionJson(TypedDict):
    rules: list[str]
    dividend: float | None
    dividend_exact: NotRequired[str]


class InvalidJson(TypedDict):
    intermediate: str
    why: str


class ExplanationJson(TypedDict):
    explains: ExplainsJson
    contributions: list[ContributionJson]
    interactions: list[InteractionJson]
    invalid: list[InvalidJson]


class RowJson(TypedDict):
    """One rule set: the numeric columns some row has (compare/columns.py: ``ev``, ``rtp``,
    ``delta``, ``chart_ev``, ``chart_gap``, ``cdz_ev``, ``cdp1_ev``, ``cdp_ev``), their
    ``*_exact`` fractions, the explanation of the difference from the previous row; or
    ``error``."""

    name: str
    rules: str | None
    change: NotRequired[str]
    error: NotRequired[str]
    ev: NotRequired[float | None]
    rtp: NotRequired[float | None]
    delta: NotRequired[float | None]
    chart_ev: NotRequired[float | None]
    chart_gap: NotRequired[float | None]
    cdz_ev: NotRequired[float | None]
    cdp1_ev: NotRequired[float | None]
    cdp_ev: NotRequired[float | None]
    ev_exact: NotRequired[str]
    delta_exact: NotRequired[str]
    chart_ev_exact: NotRequired[str]
    cdz_ev_exact: NotRequired[str]
    cdp1_ev_exact: NotRequired[str]
    cdp_ev_exact: NotRequired[str]
    explains: NotRequired[ExplainsJson]
    contributions: NotRequired[list[ContributionJson]]
    interactions: NotRequired[list[InteractionJson]]
    invalid: NotRequired[list[InvalidJson]]


class ComparisonHeadJson(TypedDict):
    mode: str
    base: str
    base_name: str
    engine: str
    units: str
    exact: bool
    notes: list[str]
    shoe: NotRequired[str]
    base_ev: NotRequired[float]
    base_ev_exact: NotRequired[str]


class ComparisonJson(ComparisonHeadJson):
    """``bja compare --json``."""

    rows: list[RowJson]


def _explanation(e: Explanation, exact: bool) -> ExplanationJson:
    def number(key: str, x: Fraction | None) -> dict[str, float | str | None]:
        if x is None:
            return {key: None}
        out: dict[str, float | str | None] = {key: float(x)}
        if exact:
            out[f"{key}_exact"] = fraction_text(x)
        return out

    # The figures are keyed by name (``shapley``, ``shapley_exact``...): built as mappings
    # in the order JSON prints them, then given their shape.
    contributions = []
    for k in e.contributions:
        item: dict[str, object] = {"rule": k.rule, "change": k.change}
        for key, x in (("shapley", k.shapley), ("alone", k.alone), ("last", k.last)):
            item.update(number(key, x))
        contributions.append(cast(ContributionJson, item))
    explains = {"from": e.source, "to": e.target, **number("total", e.total),
                "orders": e.orders, "all_orders": e.all_orders, "notes": list(e.notes)}
    return {"explains": cast(ExplainsJson, explains),
            "contributions": contributions,
            "interactions": [cast(InteractionJson, {"rules": list(i.rules),
                                                    **number("dividend", i.dividend)})
                             for i in e.interactions],
            "invalid": [{"intermediate": d, "why": w} for d, w in e.invalid]}


def row_json(c: Comparison, row: Row) -> RowJson:
    data: dict[str, object] = {"name": row.name, "rules": row.rules}
    if row.change is not None:
        data["change"] = row.change
    if row.error is not None:
        data["error"] = row.error
        return cast(RowJson, data)
    for col in numeric_columns(c):  # keyed by the column registry
        data[col.key] = col.get(row)
    data.update(exact_cells(row))
    if row.explanation is not None:
        data.update(_explanation(row.explanation, c.exact))
    return cast(RowJson, data)


def render_json(c: Comparison) -> ComparisonJson:
    base: ComparisonHeadJson = {"mode": c.mode, "base": c.base, "base_name": c.base_name,
                                "engine": c.engine, "units": "per unit initial bet",
                                "exact": c.exact, "notes": list(c.notes)}
    if c.shoe:
        base["shoe"] = c.shoe
    if c.base_figures is not None:
        base["base_ev"] = c.base_figures.ev
        if c.base_figures.ev_exact is not None:
            base["base_ev_exact"] = fraction_text(c.base_figures.ev_exact)
    return {**base, "rows": [row_json(c, r) for r in c.rows]}
