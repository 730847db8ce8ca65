"""A PNG chart (matplotlib): the printed-card look of the HTML chart, as an image.

Drawn with the object-oriented API on an Agg canvas (no pyplot state, no
display), at a fixed size and dpi, and saved without the "Software" metadata
entry, so the same chart renders to the same bytes on a rebuild.
"""

from __future__ import annotations

import io
import textwrap

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from analyzer.charts.model import COLOURS, LEGEND, UPCARD_LABELS, UPCARDS, Chart, Section
from analyzer.charts.render_text import blocks, cell_text, figures, free_note, row_name
from analyzer.core.rules import describe_rules, format_spec

DPI = 100
UNIT = 0.3  # inches per cell
LABEL_W = 3.2  # row-label column width, in cells
GAP = 1.0  # between blocks
MARGIN = 0.25  # inches around the drawing


def _block_width() -> float:
    return LABEL_W + len(UPCARDS)


def _section_height(section: Section) -> int:
    return 2 + max(len(keys) for _, keys in blocks(section))


def _draw_section(ax: Axes, section: Section, top: float, multi: bool) -> None:
    if multi:
        ax.text(0, top + 0.2, section.title, fontsize=11, fontweight="bold", va="bottom")
    for b, (title, keys) in enumerate(blocks(section)):
        x0 = b * (_block_width() + GAP)
        y = top - 1
        ax.add_patch(Rectangle((x0, y), _block_width(), 1, facecolor="#333333",
                               edgecolor="#666666"))
        ax.text(x0 + LABEL_W / 2, y + 0.5, title, color="white", fontsize=8,
                fontweight="bold", ha="center", va="center")
        for j, label in enumerate(UPCARD_LABELS):
            ax.text(x0 + LABEL_W + j + 0.5, y + 0.5, label, color="white", fontsize=9,
                    fontweight="bold", ha="center", va="center")
        for key in keys:
            y -= 1
            ax.add_patch(Rectangle((x0, y), LABEL_W, 1, facecolor="#555555",
                                   edgecolor="#666666"))
            ax.text(x0 + LABEL_W / 2, y + 0.5, row_name(key), color="white", fontsize=8,
                    fontweight="bold", ha="center", va="center")
            for j, u in enumerate(UPCARDS):
                code = section.code(key, u)
                free = (key, u) in section.free
                ax.add_patch(Rectangle((x0 + LABEL_W + j, y), 1, 1, facecolor=COLOURS[code],
                                       edgecolor="#222222" if free else "#666666",
                                       linewidth=2.0 if free else 0.6,
                                       linestyle="--" if free else "-"))
                ax.text(x0 + LABEL_W + j + 0.5, y + 0.5, cell_text(section, key, u), fontsize=8,
                        fontweight="bold", ha="center", va="center")


def render_png(chart: Chart) -> bytes:
    """The chart as PNG bytes (byte-identical for the same chart)."""
    n_blocks = max(len(blocks(s)) for s in chart.sections)
    width = n_blocks * _block_width() + (n_blocks - 1) * GAP
    words = textwrap.wrap("; ".join(describe_rules(chart.rules)), width=int(width * 4.2))
    note = free_note(chart)
    legend_rows = (len(LEGEND) + 2) // 3 + (1 if note else 0)
    n_figures = len(figures(chart)) if chart.evaluation is not None else 0
    # long titles and rule specs wrap (the characters per unit of width of each size)
    titles = textwrap.wrap(chart.title, width=int(width * 2.5)) or [""]
    specs = textwrap.wrap(f"Rules: {format_spec(chart.rules)}", width=int(width * 3.6))
    head = 2.2 + 1.0 * (len(titles) - 1) + 0.8 * (len(specs) - 1) + 0.7 * len(words) \
        + 0.8 * n_figures + legend_rows + 1
    multi = len(chart.sections) > 1
    body = sum(_section_height(s) + (1 if multi else 0) for s in chart.sections)
    height = head + body
    fig_w, fig_h = width * UNIT + 2 * MARGIN, height * UNIT + 2 * MARGIN
    fig = Figure(figsize=(fig_w, fig_h), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((MARGIN / fig_w, MARGIN / fig_h, width * UNIT / fig_w,
                       height * UNIT / fig_h))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.axis("off")
    y = height - 0.5
    for i, line in enumerate(titles):
        y -= 1.0 if i else 0
        ax.text(0, y, line, fontsize=13, fontweight="bold", va="center")
    for i, line in enumerate(specs):
        y -= 0.8 if i else 1.1
        ax.text(0, y, line, fontsize=10, va="center")
    for line in words:
        y -= 0.7
        ax.text(0, y, line, fontsize=8, va="center", color="#444444")
    for name, value in figures(chart) if chart.evaluation is not None else []:
        y -= 0.8
        ax.text(0, y, f"{name + ':':<40}{value:>16}", fontsize=9, va="center",
                family="monospace")
    y -= 0.6
    for i, (code, meaning) in enumerate(LEGEND.items()):
        row, col = divmod(i, 3)
        x = col * (width / 3)
        ax.add_patch(Rectangle((x, y - row - 0.9), 1.2, 0.8, facecolor=COLOURS[code],
                               edgecolor="#666666", linewidth=0.6))
        ax.text(x + 0.6, y - row - 0.5, code, fontsize=8, fontweight="bold", ha="center",
                va="center")
        ax.text(x + 1.5, y - row - 0.5, meaning, fontsize=8, va="center")
    if note:
        ax.text(0, y - legend_rows + 0.5, note, fontsize=8, va="center")
    top = height - head
    for section in chart.sections:
        if multi:
            top -= 1
        _draw_section(ax, section, top, multi)
        top -= _section_height(section)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
