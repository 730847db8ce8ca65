"""A sorted horizontal bar chart of effects (matplotlib, Agg, no pyplot state).

Effects and grid modes: one bar per row, its difference from the base in
percentage points, largest gain for the player on top.  Explain mode: one panel
per explained difference, a bar per rule (its Shapley contribution).  Saved
without the "Software" metadata entry, so the same model gives the same bytes.
"""

from __future__ import annotations

import io

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.comparisons.columns import label
from analyzer.comparisons.model import Comparison
from analyzer.comparisons.render_text import MODES, explained

DPI = 100
BAR = 0.32  # inches per bar
GAIN, LOSS = "#2e7d32", "#c62828"


def _bars(c: Comparison) -> list[tuple[str, list[tuple[str, float]]]]:
    """Panels of (title, [(label, points)]) sorted with the largest value first."""
    if c.mode == "explain":
        panels = []
        for title, e in explained(c):
            items = [(_short(f"{k.rule}: {k.change}"), float(k.shapley) * 100)
                     for k in e.contributions]
            panels.append((f"{title}: {float(e.total) * 100:+.4f} pp, rule by rule "
                           "(Shapley)", items))
        return [(t, sorted(i, key=lambda kv: -kv[1])) for t, i in panels]
    items = [(label(c, r), float(r.delta) * 100) for r in c.rows if r.delta is not None]
    return [(f"{MODES[c.mode]}\nbase: {c.base_name}", sorted(items, key=lambda kv: -kv[1]))]


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def _draw(ax: Axes, title: str, items: list[tuple[str, float]]) -> None:
    names = [n for n, _ in items]
    values = [v for _, v in items]
    y = list(range(len(items)))[::-1]
    ax.barh(y, values, color=[GAIN if v >= 0 else LOSS for v in values], height=0.7)
    ax.set_yticks(y, names, fontsize=8)
    ax.axvline(0, color="#333333", linewidth=0.8)
    ax.set_title(title, fontsize=10, loc="left")
    ax.set_xlabel("change of the player's EV (percentage points)", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    span = max((abs(v) for v in values), default=1.0) or 1.0
    ax.set_xlim(min(0.0, min(values, default=0.0)) - 0.25 * span,
                max(0.0, max(values, default=0.0)) + 0.25 * span)
    for yi, v in zip(y, values, strict=True):
        ax.text(v, yi, f" {v:+.3f} " if abs(v) < 10 else f" {v:+.2f} ", fontsize=7,
                va="center", ha="left" if v >= 0 else "right")


def render_png(c: Comparison) -> bytes:
    """The bar chart as PNG bytes (byte-identical for the same comparison)."""
    panels = [p for p in _bars(c) if p[1]] or [("no rows with a difference", [])]
    heights = [1.2 + BAR * max(len(items), 1) for _, items in panels]
    fig = Figure(figsize=(9.0, sum(heights) + 0.4), dpi=DPI)
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(panels), 1, squeeze=False,
                        gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, (title, items) in zip(axes, panels, strict=True):
        _draw(ax, title, items)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
