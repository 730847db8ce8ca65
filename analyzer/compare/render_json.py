"""JSON rendering of a comparison (``--json``).

Shape: ``{"mode", "base", "base_name", "engine", "units", "exact", "notes",
"base_ev", "rows": [{"name", "rules", "ev", "rtp", "delta", ...}]}``; with
``--exact`` each row adds ``ev_exact`` / ``delta_exact`` (``"p/q"``); effects rows
add ``change``; explain rows after the first add ``contributions`` (and
``interactions``, ``invalid``) explaining the difference from the previous row.
A row that could not be computed has ``error`` instead of figures.
"""

from __future__ import annotations

from typing import Any

from analyzer.compare.columns import exact_cells, fraction_text, numeric_columns
from analyzer.compare.model import Comparison, Explanation, Row


def _explanation(e: Explanation, exact: bool) -> dict[str, Any]:
    def number(key: str, x: Any) -> dict[str, Any]:
        if x is None:
            return {key: None}
        out: dict[str, Any] = {key: float(x)}
        if exact:
            out[f"{key}_exact"] = fraction_text(x)
        return out

    contributions = []
    for k in e.contributions:
        item: dict[str, Any] = {"rule": k.rule, "change": k.change}
        for key, x in (("shapley", k.shapley), ("alone", k.alone), ("last", k.last)):
            item.update(number(key, x))
        contributions.append(item)
    return {"explains": {"from": e.source, "to": e.target, **number("total", e.total),
                         "orders": e.orders, "all_orders": e.all_orders, "notes": list(e.notes)},
            "contributions": contributions,
            "interactions": [{"rules": list(i.rules), **number("dividend", i.dividend)}
                             for i in e.interactions],
            "invalid": [{"intermediate": d, "why": w} for d, w in e.invalid]}


def row_json(c: Comparison, row: Row) -> dict[str, Any]:
    data: dict[str, Any] = {"name": row.name, "rules": row.rules}
    if row.change is not None:
        data["change"] = row.change
    if row.error is not None:
        data["error"] = row.error
        return data
    for col in numeric_columns(c):
        data[col.key] = col.get(row)
    data.update(exact_cells(row))
    if row.explanation is not None:
        data.update(_explanation(row.explanation, c.exact))
    return data


def render_json(c: Comparison) -> dict[str, Any]:
    base: dict[str, Any] = {"mode": c.mode, "base": c.base, "base_name": c.base_name,
                            "engine": c.engine, "units": "per unit initial bet",
                            "exact": c.exact, "notes": list(c.notes)}
    if c.shoe:
        base["shoe"] = c.shoe
    if c.base_figures is not None:
        base["base_ev"] = c.base_figures.ev
        if c.base_figures.ev_exact is not None:
            base["base_ev_exact"] = fraction_text(c.base_figures.ev_exact)
    base["rows"] = [row_json(c, r) for r in c.rows]
    return base
