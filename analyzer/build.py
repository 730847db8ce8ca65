"""``bja build``: regenerate every committed table and report.

Every output is a pure function of the engine and the rules, written atomically
(a temporary file renamed over the target), so a rebuild changes no byte.  The
last step writes ``reports/index.html``, a page linking everything the build
wrote (:mod:`analyzer.report.index_page`), from the list of files written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from analyzer.charts.build import build_chart_tables
from analyzer.core.errors import UsageError
from analyzer.core.numbers import shown
from analyzer.core.presets import BUILT_VARIANTS, PRESETS, Preset, all_games
from analyzer.core.rules import Rules, format_spec
from analyzer.core.version import __version__
from analyzer.engine.analysis import Analysis
from analyzer.report.game_report import game_report
from analyzer.report.index_page import INDEX, index_page
from analyzer.report.model import game_model
from analyzer.sidebets.build import build_sidebet_tables
from analyzer.util.files import write_atomic
from analyzer.util.pool import every_core, warm_workers
from analyzer.util.progress import ProgressCallback, report

INDEX_PAGE = Path(INDEX)  # reports/index.html, relative to the project folder


def build(root: Path, progress: Callable[[str], None] | None = None, *,
          stages: ProgressCallback | None = None, jobs: int | None = None) -> list[Path]:
    """Regenerate every committed table and report under ``root``.

    ``progress`` hears each step's name; ``stages`` hears the build's steps done
    of all (:class:`~analyzer.util.progress.Progress`, the step named), so a
    display can give an ETA for the whole build.  ``jobs``: processes for the
    exact analyses (default every core); the figures do not depend on it.  Its
    sweeps share warm worker processes (:func:`~analyzer.util.pool.warm_workers`)."""
    check_root(root)
    with warm_workers():
        return _build(root, progress, stages, every_core() if jobs is None else jobs)


def check_root(root: Path) -> None:
    """Refuse, before any work, a root the build could not write into: missing, not a
    folder (a file, a device, a dangling link) or read-only."""
    if not isinstance(root, Path) or not str(root):
        raise UsageError(f"the build's root must be a folder path, not {shown(root)}")
    if not root.is_dir():
        state = "does not exist" if not os.path.lexists(root) else "is not a folder"
        raise UsageError(f"the build's root {str(root)!r} {state}: give the project folder")
    if not os.access(root, os.W_OK | os.X_OK):
        raise UsageError(f"the build's root {str(root)!r} is not writable")


def _build(root: Path, progress: Callable[[str], None] | None, stages: ProgressCallback | None,
           jobs: int) -> list[Path]:
    written: list[Path] = []
    say = progress or (lambda _msg: None)
    games: list[tuple[str, Rules, Preset | None]] = [
        (name, preset.rules, preset) for name, preset in PRESETS.items()]
    games += [(name, rules, None) for name, rules in all_games().items() if name not in PRESETS]
    certified = (*PRESETS, *BUILT_VARIANTS)
    total = len(games) + len(certified) + 5  # game reports, certificates, four groups, index
    step = 0

    def next_step(label: str) -> None:
        nonlocal step
        report(stages, f"build: {label}", step, total)
        step += 1

    for name, rules, preset in games:
        next_step(f"report of {name}")
        say(f"analysing {name} ({format_spec(rules)})")
        path = root / "reports" / f"{name}.md"
        # Optimal splitting for one split only: with resplits its card sets multiply
        # past a build's time, and the report says so.  Its figures go through the memo:
        # games that differ only outside split hands (1d-h17-bj65) share them.
        model = game_model(Analysis(rules), levels=True, optimal=rules.max_hands <= 2,
                           jobs=jobs, memo=True)
        write_atomic(path, game_report(name, model, preset))
        written.append(path)
    from analyzer.certificates.files import build_certificates  # simulator: lazily
    from analyzer.certificates.model import Settings
    for name in certified:
        next_step(f"certificate of {name}")
        written += build_certificates(root, progress=say, games=(name,),
                                      settings=Settings(workers=jobs))
    next_step("strategy charts")
    written += build_chart_tables(root, progress=say, jobs=jobs)
    next_step("side-bet tables")
    say("side-bet tables")
    written += build_sidebet_tables(root)
    next_step("rule comparisons")
    from analyzer.comparisons.reports import build_compare_reports  # networkx, joblib: lazily
    from analyzer.comparisons.runner import RunOptions
    written += build_compare_reports(root, progress=say,
                                     options=RunOptions(jobs=jobs))
    next_step("shoe-state reports")
    from analyzer.shoestate.build import build_shoestate_reports  # heavy: only when building
    written += build_shoestate_reports(root, progress=say, jobs=jobs)
    next_step("index page")
    say("index page")
    written.append(write_index(root, written))
    report(stages, "build: done", total, total)
    return written


def write_index(root: Path, written: list[Path]) -> Path:
    """``reports/index.html`` linking every file in ``written`` (paths under ``root``)."""
    paths = [p.relative_to(root).as_posix() for p in written]
    path = root / INDEX_PAGE
    write_atomic(path, index_page(paths, engine=f"bja {__version__}"))
    return path
