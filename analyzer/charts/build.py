"""The chart tables ``bja build`` writes: ``tables/<game>/chart.*`` and ``exceptions.txt``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from analyzer.charts.evaluate import make_chart
from analyzer.charts.exceptions import find_exceptions, render_exceptions
from analyzer.charts.fileformat import format_chart
from analyzer.charts.model import Chart
from analyzer.charts.render_html import render_html
from analyzer.charts.render_png import render_png
from analyzer.charts.render_text import render_markdown, render_text
from analyzer.core.presets import all_games
from analyzer.core.rules import Rules, format_spec
from analyzer.report.output import write_atomic, write_bytes_atomic

TEXT_RENDERERS: dict[str, Callable[[Chart], str]] = {
    "txt": render_text, "csv": format_chart, "md": render_markdown, "html": render_html,
}


def build_chart_tables(root: Path, progress: Callable[[str], None] | None = None,
                       games: dict[str, Rules] | None = None) -> list[Path]:
    """Write ``tables/<name>/chart.{txt,csv,md,html,png}`` and ``exceptions.txt``."""
    say = progress or (lambda _msg: None)
    written: list[Path] = []
    for name, rules in (all_games() if games is None else games).items():
        say(f"chart {name} ({format_spec(rules)})")
        run = make_chart(rules, f"{name}: basic strategy")
        folder = root / "tables" / name
        for ext, render in TEXT_RENDERERS.items():
            path = folder / f"chart.{ext}"
            write_atomic(path, render(run.chart))
            written.append(path)
        path = folder / "chart.png"
        write_bytes_atomic(path, render_png(run.chart))
        written.append(path)
        path = folder / "exceptions.txt"
        exceptions = find_exceptions(run.chart, run.optimum, run.deriver)
        write_atomic(path, render_exceptions(run.chart, run.optimum, exceptions))
        written.append(path)
    return written
