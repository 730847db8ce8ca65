"""``reports/compare/``: the comparison reports ``bja build`` writes.

* ``<game>-effects.{md,csv,png}``: the rule-effect table of each seed game and of each
  variant the build writes (Spanish 21);
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

from analyzer.comparisons.compute import compare_effects, compare_explain
from analyzer.comparisons.model import Comparison
from analyzer.comparisons.outputs import Format, render
from analyzer.comparisons.runner import RunOptions
from analyzer.core.presets import BUILT_VARIANTS, CLASSIC_GAMES, PRESETS, game_base
from analyzer.util.files import write_files

# The explained chain first (each explained from the previous), then the rest beside it.
CHAIN = ("charlie7", "free-bet", "privilege")
BESIDE = ("four-jacks", "6d-s17-das-ls", "8d-s17-das")
BUILD_MAX_PLAYERS = 6  # 64 intermediate games per explained pair
_EXT = {"markdown": "md"}


def _write(folder: Path, stem: str, comparison: Comparison,
           formats: tuple[Format, ...]) -> list[Path]:
    """One comparison in several formats, written as one set (every file old or every new)."""
    files: dict[Path, str | bytes] = {}
    for fmt in formats:
        output = render(comparison, fmt)
        if isinstance(output, str | bytes):
            files[folder / f"{stem}.{_EXT.get(fmt, fmt)}"] = output
    return write_files(files)


def build_compare_reports(root: Path, progress: Callable[[str], None] | None = None,
                          options: RunOptions | None = None) -> list[Path]:
    """Write every comparison report under ``root/reports/compare``."""
    say = progress or (lambda _msg: None)
    options = options or RunOptions()
    folder = root / "reports" / "compare"
    written: list[Path] = []
    # A chart per effects row would multiply the build time by about four (the chart
    # of each seed game is in tables/<game>/); `bja compare --game X --effects` has it.
    plain = dataclasses.replace(options, charts=False)
    for name in (*PRESETS, *BUILT_VARIANTS):
        say(f"rule effects of {name}")
        effects = compare_effects(game_base(name), plain, base_name=name)
        written += _write(folder, f"{name}-effects", effects, ("markdown", "csv", "png"))
    say("seed games side by side, differences explained")
    assert set(CHAIN) | set(BESIDE) <= set(PRESETS) | set(CLASSIC_GAMES)
    games = [(name, game_base(name)) for name in (*CHAIN, *BESIDE)]
    seeds = compare_explain(games, options, max_players=BUILD_MAX_PLAYERS, chain=len(CHAIN))
    written += _write(folder, "seed-games", seeds, ("markdown", "csv", "html", "png"))
    return written

