"""The edge-by-true-count plot (PNG, matplotlib): a pure function of an :class:`EdgeByCount`.

Object-oriented matplotlib on an Agg canvas (no pyplot state), fixed size and
dpi, saved without the "Software" metadata entry, so a rebuild writes the same
bytes.
"""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analyzer.shoestate.edge import EdgeByCount

DPI = 100
MIN_STATES = 3  # bins with fewer exactly analysed states are not plotted


def edge_png(model: EdgeByCount, title: str) -> bytes:
    """Edge (with one-standard-error bars) and the true count's distribution, by bin."""
    fig = Figure(figsize=(9, 5.6), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.09, 0.14, 0.80, 0.76))
    share_ax = ax.twinx()
    bins = [b for b in model.bins if b.share >= 0.0005 or b.states]
    share_ax.bar([b.true_count for b in bins], [b.share * 100 for b in bins], width=0.8,
                 color="#d9e2ec", edgecolor="#9fb3c8", zorder=0)
    share_ax.set_ylabel("share of rounds (%)", color="#486581")
    shown = [b for b in bins if b.edge is not None and b.states >= MIN_STATES]
    ax.errorbar([b.true_count for b in shown], [b.edge * 100 for b in shown],  # type: ignore[operator]
                yerr=[(b.edge_se or 0) * 100 for b in shown], fmt="o-", color="#c0392b",
                ecolor="#7f8c8d", capsize=3, zorder=3, label="edge (mean exact EV of states)")
    ax.axhline(0, color="#333333", linewidth=0.8)
    ax.axhline(model.full_ev * 100, color="#2c7a7b", linewidth=0.9, linestyle="--",
               label=f"off the top {model.full_ev * 100:+.3f}%")
    ax.set_zorder(share_ax.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_xlabel(f"true count ({model.system}), bins of width 1")
    ax.set_ylabel("player edge (% of initial bet)", color="#c0392b")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.grid(True, axis="y", color="#eeeeee")
    fig.suptitle(title, fontsize=11, fontweight="bold")
    fig.text(0.09, 0.035, f"{model.spec}; cut card after {model.cut} cards"
             + (" (assumed)" if model.cut_assumed else ""), fontsize=7.5, color="#444444")
    fig.text(0.09, 0.012, f"{len(model.states)} states analysed exactly (re-optimised play), "
             f"{model.count_samples:,} count samples, seed {model.seed}; "
             "error bars: one standard error", fontsize=7.5, color="#444444")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


__all__ = ["edge_png"]
