"""``bja build``: regenerate every committed table and report.

Every output is a pure function of the engine and the rules, written atomically
(a temporary file renamed over the target), so a rebuild changes no byte.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from analyzer.charts.build import build_chart_tables
from analyzer.core.presets import CLASSIC_GAMES, PRESETS, Preset
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.report.game_report import game_report
from analyzer.report.model import game_model
from analyzer.report.output import write_atomic
from analyzer.sidebets.build import build_sidebet_tables


def build(root: Path, progress: Callable[[str], None] | None = None) -> list[Path]:
    """Regenerate every committed table and report under ``root``."""
    written: list[Path] = []
    say = progress or (lambda _msg: None)
    games: list[tuple[str, Rules, Preset | None]] = [
        (name, preset.rules, preset) for name, preset in PRESETS.items()]
    games += [(name, parse_spec(spec), None) for name, spec in CLASSIC_GAMES.items()]
    for name, rules, preset in games:
        say(f"analysing {name} ({format_spec(rules)})")
        path = root / "reports" / f"{name}.md"
        # Optimal splitting for one split (3 minutes for 8 decks on two cores); with
        # resplits it takes minutes per pair and upcard, and the report says so.
        model = game_model(Analysis(rules), levels=True, optimal=rules.max_hands <= 2, jobs=2)
        write_atomic(path, game_report(name, model, preset))
        written.append(path)
    from analyzer.report.certificate_files import build_certificates  # simulator: lazily
    written += build_certificates(root, progress=say)
    written += build_chart_tables(root, progress=say)
    say("side-bet tables")
    written += build_sidebet_tables(root)
    from analyzer.compare.reports import build_compare_reports  # networkx, joblib: lazily
    written += build_compare_reports(root, progress=say)
    from analyzer.shoestate.build import build_shoestate_reports  # heavy: only when building
    written += build_shoestate_reports(root, progress=say)
    return written
