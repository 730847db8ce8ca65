"""The columns of a comparison table, shared by every renderer.

A column is shown when at least one row has a value for it, so a figure added
to :class:`~analyzer.comparisons.model.Figures` later (``extra``: a standard
deviation, a strategy level's EV) appears in every format by adding one entry
to :data:`EXTRA_COLUMNS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analyzer.comparisons.model import Comparison, Row
from analyzer.util.text import fraction_text


@dataclass(frozen=True)
class Column:
    key: str  # JSON / CSV name
    header: str  # table heading
    get: Callable[[Row], float | str | None]
    kind: str = "pct"  # "pct" (x100, %), "pp" (x100, points), "text", "ratio"



def label(comparison: Comparison, row: Row) -> str:
    """What names a row: the change (effects mode) or the row's name."""
    return row.change if comparison.mode == "effects" and row.change else row.name


def _ev(row: Row) -> float | None:
    return row.figures.ev if row.figures else None


def _rtp(row: Row) -> float | None:
    return 1 + row.figures.ev if row.figures else None


def _delta(row: Row) -> float | None:
    return None if row.delta is None else float(row.delta)


def _chart(row: Row) -> float | None:
    return row.figures.chart_ev if row.figures else None


def _gap(row: Row) -> float | None:
    return row.figures.chart_gap if row.figures else None


def _extra(key: str) -> Callable[[Row], float | None]:
    return lambda row: dict(row.figures.extra).get(key) if row.figures else None


# Figures beyond the EV: the other strategy levels (``--levels``).
EXTRA_COLUMNS: tuple[Column, ...] = (
    Column("cdz_ev", "CDZ- EV %", _extra("cdz_ev")),
    Column("cdp1_ev", "CDP1 EV %", _extra("cdp1_ev")),
    Column("cdp_ev", "CDP EV %", _extra("cdp_ev")),
)

NUMERIC: tuple[Column, ...] = (
    Column("ev", "EV %", _ev),
    Column("rtp", "RTP %", _rtp),
    Column("delta", "diff pp", _delta, "pp"),
    Column("chart_ev", "chart EV %", _chart),
    Column("chart_gap", "chart gap pp", _gap, "pp"),
)


def numeric_columns(comparison: Comparison) -> list[Column]:
    """The numeric columns some row has a value for, in display order."""
    cols = [*NUMERIC, *EXTRA_COLUMNS]
    return [c for c in cols if any(c.get(r) is not None for r in comparison.rows)]


def display(column: Column, value: float | str | None, places: int = 6) -> str:
    """A cell as text: percentages and points with ``places`` decimals, signed points."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if column.kind == "pp":
        return f"{value * 100:+.{places}f}"
    if column.kind == "pct":
        return f"{value * 100:.{places}f}"
    return f"{value:.{places}f}"


def exact_cells(row: Row) -> dict[str, str]:
    """``ev_exact`` / ``delta_exact`` of a row, as ``"p/q"`` (exact mode)."""
    out = {}
    if row.figures and row.figures.ev_exact is not None:
        out["ev_exact"] = fraction_text(row.figures.ev_exact)
        if row.delta is not None:
            out["delta_exact"] = fraction_text(row.delta)
        for key, value in row.figures.extra_exact:
            out[f"{key}_exact"] = fraction_text(value)
    return out
