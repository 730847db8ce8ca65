"""One entry point from a finished comparison to any output format."""

from __future__ import annotations

from typing import Literal

from analyzer.comparisons.model import Comparison
from analyzer.comparisons.render_json import ComparisonJson, render_json
from analyzer.comparisons.render_text import render_csv, render_markdown, render_text

Format = Literal["text", "json", "csv", "markdown", "html", "png"]


def render(comparison: Comparison, fmt: Format) -> str | bytes | ComparisonJson:
    """``text``, ``json`` (a dict), ``csv``, ``markdown``, ``html`` or ``png`` (bytes)."""
    if fmt == "json":
        return render_json(comparison)
    if fmt == "html":
        from analyzer.comparisons.render_html import render_html

        return render_html(comparison)
    if fmt == "png":
        from analyzer.comparisons.render_png import render_png  # matplotlib: only when asked

        return render_png(comparison)
    return {"text": render_text, "csv": render_csv, "markdown": render_markdown}[fmt](comparison)
