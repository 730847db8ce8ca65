"""``reports/compare/``: the comparison reports ``bja build`` writes.

* ``<seed>-effects.{md,csv,png}``: each seed game's rule-effect table;
* ``seed-games.{md,csv,html,png}``: the four seed games beside the classic 6- and
  8-deck games, with the charlie7 -> free-bet -> privilege differences explained
  rule by rule.

Every file is a pure function of the engine (served from the memo on a
re-run), written atomically: a rebuild changes no byte.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from analyzer.compare.compute import compare_effects, compare_explain
from analyzer.compare.model import Comparison
from analyzer.compare.outputs import render
from analyzer.compare.runner import RunOptions
from analyzer.core.presets import CLASSIC_GAMES, PRESETS, game_base
from analyzer.report.output import write_atomic, write_bytes_atomic

# The explained chain first (each explained from the previous), then the rest beside it.
CHAIN = ("charlie7", "free-bet", "privilege")
BESIDE = ("four-jacks", "6d-s17-das-ls", "8d-s17-das")
BUILD_MAX_PLAYERS = 6  # 64 intermediate games per explained pair
_EXT = {"markdown": "md"}


def _write(folder: Path, stem: str, comparison: Comparison, formats: tuple[str, ...]) -> list[Path]:
    written = []
    for fmt in formats:
        path = folder / f"{stem}.{_EXT.get(fmt, fmt)}"
        output = render(comparison, fmt)
        if isinstance(output, bytes):
            write_bytes_atomic(path, output)
        elif isinstance(output, str):
            write_atomic(path, output)
        written.append(path)
    return written


def build_compare_reports(root: Path, progress: Callable[[str], None] | None = None,
                          options: RunOptions | None = None) -> list[Path]:
    """Write every comparison report under ``root/reports/compare``."""
    say = progress or (lambda _msg: None)
    options = options or RunOptions(progress=False)
    folder = root / "reports" / "compare"
    written: list[Path] = []
    # A chart per effects row would multiply the build time by about four (the chart
    # of each seed game is in tables/<game>/); `bja compare --game X --effects` has it.
    plain = dataclasses.replace(options, charts=False)
    for name, preset in PRESETS.items():
        say(f"rule effects of {name}")
        effects = compare_effects(preset.rules, plain, base_name=name)
        written += _write(folder, f"{name}-effects", effects, ("markdown", "csv", "png"))
    say("seed games side by side, differences explained")
    assert set(CHAIN) | set(BESIDE) <= set(PRESETS) | set(CLASSIC_GAMES)
    games = [(name, game_base(name)) for name in (*CHAIN, *BESIDE)]
    seeds = compare_explain(games, options, max_players=BUILD_MAX_PLAYERS, chain=len(CHAIN))
    written += _write(folder, "seed-games", seeds, ("markdown", "csv", "html", "png"))
    return written

