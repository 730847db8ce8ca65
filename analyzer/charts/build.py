"""The chart tables ``bja build`` writes: ``tables/<game>/chart.*`` and ``exceptions.txt``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from analyzer.charts.evaluate import make_chart
from analyzer.charts.exceptions import find_exceptions, render_exceptions
from analyzer.charts.fileformat import format_chart
from analyzer.charts.model import Chart
from analyzer.charts.render_html import render_html
from analyzer.charts.render_png import render_png
from analyzer.charts.render_text import render_markdown, render_text
from analyzer.core.presets import all_games
from analyzer.core.rules import Rules, format_spec
from analyzer.util.files import write_files

TextFormat = Literal["txt", "csv", "md", "html"]
TEXT_RENDERERS: dict[TextFormat, Callable[[Chart], str]] = {
    "txt": render_text, "csv": format_chart, "md": render_markdown, "html": render_html,
}


def build_chart_tables(root: Path, progress: Callable[[str], None] | None = None,
                       games: dict[str, Rules] | None = None) -> list[Path]:
    """Write ``tables/<name>/chart.{txt,csv,md,html,png}`` and ``exceptions.txt``.

    A game's six files are written as one set (:func:`~analyzer.util.files.write_files`):
    an interrupted build leaves every one old or every one new.
    """
    say = progress or (lambda _msg: None)
    written: list[Path] = []
    for name, rules in (all_games() if games is None else games).items():
        say(f"chart {name} ({format_spec(rules)})")
        run = make_chart(rules, f"{name}: basic strategy")
        folder = root / "tables" / name
        files: dict[Path, str | bytes] = {
            folder / f"chart.{ext}": render(run.chart) for ext, render in TEXT_RENDERERS.items()}
        files[folder / "chart.png"] = render_png(run.chart)
        exceptions = find_exceptions(run.chart, run.optimum, run.deriver)
        files[folder / "exceptions.txt"] = render_exceptions(run.chart, run.optimum, exceptions)
        written += write_files(files)
    return written
