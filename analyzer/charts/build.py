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
from analyzer.util.pool import run_tasks

TextFormat = Literal["txt", "csv", "md", "html"]
TEXT_RENDERERS: dict[TextFormat, Callable[[Chart], str]] = {
    "txt": render_text, "csv": format_chart, "md": render_markdown, "html": render_html,
}


def build_chart_tables(root: Path, progress: Callable[[str], None] | None = None,
                       games: dict[str, Rules] | None = None, *, jobs: int = 1) -> list[Path]:
    """Write ``tables/<name>/chart.{txt,csv,md,html,png}`` and ``exceptions.txt``, the
    games shared by ``jobs`` processes.

    A game's six files are written as one set (:func:`~analyzer.util.files.write_files`):
    an interrupted build leaves every one old or every one new.
    """
    say = progress or (lambda _msg: None)
    chosen = all_games() if games is None else games
    tasks = [(chart_files, (name, rules)) for name, rules in chosen.items()]
    say(f"strategy charts of {len(tasks)} games")
    written: list[Path] = []
    for (name, rules), files in zip(chosen.items(), run_tasks(tasks, jobs=jobs), strict=True):
        say(f"chart {name} ({format_spec(rules)})")
        written += write_files({root / "tables" / name / file: data
                                for file, data in files.items()})
    return written


def chart_files(name: str, rules: Rules) -> dict[str, str | bytes]:
    """A game's chart files by name: the chart in each format and its exceptions."""
    run = make_chart(rules, f"{name}: basic strategy")
    files: dict[str, str | bytes] = {
        f"chart.{ext}": render(run.chart) for ext, render in TEXT_RENDERERS.items()}
    files["chart.png"] = render_png(run.chart)
    exceptions = find_exceptions(run.chart, run.optimum, run.deriver)
    files["exceptions.txt"] = render_exceptions(run.chart, run.optimum, exceptions)
    return files
