"""The plot of a round's distribution, as inline SVG with reproducible bytes.

Bars of P(net = x) on a log scale, optimal CDZ- play (solid) beside the basic chart
(hatched), so the two series read apart in grey print too.
Text is drawn as paths (no font needed by the reader), the SVG ids come from a
fixed hash salt and the date and creator metadata are left out, so the same
certificate draws the same bytes on every run.
"""

from __future__ import annotations

import io
import re
from fractions import Fraction

from analyzer.certificates.model import Certificate
from analyzer.report.distribution_model import format_result

MOST_LABELS = 24  # tick labels that fit under a 7-inch plot at 9 points


def render_svg(c: Certificate) -> str:
    """The distribution plot of ``c`` as an ``<svg>`` element (no XML prolog)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    a, b = c.optimal.probabilities, c.chart_dist.probabilities
    xs = sorted(set(a) | set(b))
    pos = range(len(xs))
    with matplotlib.rc_context({"svg.hashsalt": "bja-certificate", "svg.fonttype": "path",
                                "font.family": "DejaVu Sans", "font.size": 9}):
        fig, ax = plt.subplots(figsize=(7.0, 2.8))
        # Told apart without colour too: solid dark bars, hatched light bars with an outline.
        ax.bar([i - 0.2 for i in pos], [float(a.get(x, 0)) for x in xs], width=0.4,
               label="optimal (CDZ-), solid", color="#1f4e8c", edgecolor="#1f4e8c")
        ax.bar([i + 0.2 for i in pos], [float(b.get(x, 0)) for x in xs], width=0.4,
               label="basic chart, hatched", color="#f3d9a4", edgecolor="#9a5b00",
               hatch="////", linewidth=0.6)
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks(list(pos), _labels(xs))
        ax.set_xlabel("net result of a round (units of the initial bet)")
        ax.set_ylabel("probability (log scale)")
        ax.grid(axis="y", which="major", color="#dddddd", linewidth=0.5)
        ax.set_axisbelow(True)
        ax.legend(loc="upper right", frameon=False)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
        plt.close(fig)
    text = out.getvalue()
    return re.sub(r"\s*<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)


def _labels(xs: list[Fraction]) -> list[str]:
    """The results' tick labels: every one while they fit (at most :data:`MOST_LABELS`),
    else whole units only, each at least ``k`` bars after the last one labelled (one bar
    per result: where no half unit lies between, whole units are neighbours; half units,
    from bonuses paid 3:2, keep their unlabelled ticks).

    >>> _labels([Fraction(n, 2) for n in range(-16, 25)])[:5]
    ['-8', '', '-7', '', '-6']
    >>> _labels([Fraction(n) for n in range(-30, 31)])[:5]
    ['-30', '', '', '-27', '']
    >>> _labels([Fraction(n, 2) for n in range(-16, 25)] + [Fraction(13)])[-3:]
    ['', '12', '']
    """
    if len(xs) <= MOST_LABELS:
        return [format_result(x) for x in xs]
    gap = -(-len(xs) // MOST_LABELS)
    labels, last = [], -gap
    for i, x in enumerate(xs):
        shown = x.denominator == 1 and i - last >= gap
        labels.append(format_result(x) if shown else "")
        last = i if shown else last
    return labels


__all__ = ["render_svg"]
