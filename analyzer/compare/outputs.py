"""One entry point from a finished comparison to any output format."""

from __future__ import annotations

from typing import Any

from analyzer.compare.model import Comparison
from analyzer.compare.render_json import render_json
from analyzer.compare.render_text import render_csv, render_markdown, render_text


def render(comparison: Comparison, fmt: str) -> str | bytes | dict[str, Any]:
    """``text``, ``json`` (a dict), ``csv``, ``markdown``, ``html`` or ``png`` (bytes)."""
    if fmt == "json":
        return render_json(comparison)
    if fmt == "html":
        from analyzer.compare.render_html import render_html

        return render_html(comparison)
    if fmt == "png":
        from analyzer.compare.render_png import render_png  # matplotlib: only when asked

        return render_png(comparison)
    return {"text": render_text, "csv": render_csv, "markdown": render_markdown}[fmt](comparison)
