"""The shoe-state reports ``bja build`` writes under ``reports/shoestate/<game>/``.

For every named game: effects of removal (``eor.md``/``eor.json``) and the
count systems' efficiencies (``counts.md``/``counts.json``); for the seed games,
what a Hi-Lo counter wins (``protection.md``/``protection.json``, game
protection).  For the games a counter can attack (a cut card, or the classic
six-deck table at 75% penetration): Hi-Lo playing indices against the
Illustrious 18 and Fab 4 (``indices.*``), and the edge by true count
(``edge.md``/``edge.json``/``edge.png``).  A game's files are written as one
set (:func:`~analyzer.util.files.write_files`): an interrupted or failed build
leaves every one old or every one new.  Every analysis is memoized on disk
(:mod:`analyzer.util.memo`), seeds are fixed and the PNG carries no software
stamp, so a rebuild writes the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

from analyzer.core.presets import PRESETS, all_games
from analyzer.core.rules import Rules, format_spec
from analyzer.shoestate.counts import SYSTEMS
from analyzer.shoestate.decisions import not_allowed, parse_decision
from analyzer.shoestate.edge import edge_by_count
from analyzer.shoestate.efficiency import effects_model, efficiency
from analyzer.shoestate.eor import effects_of_removal
from analyzer.shoestate.indices import playing_indices
from analyzer.shoestate.plot import edge_png
from analyzer.shoestate.protection import game_protection, protection_json, protection_markdown
from analyzer.shoestate.published import ILLUSTRIOUS_18_FAB_4, WIZARD_6D_S17
from analyzer.shoestate.render_eor import (
    efficiency_json,
    efficiency_text,
    eor_json,
    eor_markdown,
)
from analyzer.shoestate.render_play import edge_json, edge_text, indices_json, indices_text
from analyzer.util.files import write_atomic, write_files
from analyzer.util.pool import every_core
from analyzer.util.text import md_table

# The protection simulation's seed streams: its figures depend on them (and it prints
# them), so they are fixed, not the machine's core count.
PROTECTION_JOBS = 2
EOR_DECISIONS = ("16vT:stand-hit", "12v4:stand-hit", "11vA:double-hit", "insurance")
# Games a counter can attack, with the cut card used (cards dealt before the shuffle).
COUNTED = {"6d-s17-das-ls": 234, "four-jacks": 52, "privilege": 234}
EDGE_STATES = 200
EDGE_SAMPLES = 100_000
SEED = 2024
PROTECTION_ROUNDS = 200_000_000  # a standard error of about 0.015 units per 100 rounds


def _json(data: Mapping[str, object]) -> str:
    return json.dumps(data, indent=2) + "\n"


def _game_reports(name: str, rules: Rules, folder: Path, say: Callable[[str], None],
                  use_cache: bool, jobs: int) -> dict[Path, str | bytes]:
    decisions = [d for t in EOR_DECISIONS
                 if not_allowed(d := parse_decision(t), rules) is None]
    say(f"shoe state: count systems, {name} ({format_spec(rules)})")
    model = effects_model(rules, jobs=jobs, use_cache=use_cache)
    say(f"shoe state: effects of removal, {name}")  # the same shoes: read from the memo
    table = effects_of_removal(rules, decisions=decisions, jobs=jobs, use_cache=use_cache)
    published = WIZARD_6D_S17 if format_spec(rules) == WIZARD_6D_S17.rules else None
    effs = [efficiency(model, s) for s in SYSTEMS.values()]
    return {folder / "eor.md": eor_markdown(table, name, published),
            folder / "eor.json": _json(eor_json(table, name)),
            folder / "counts.md": efficiency_text(model, effs, name, True),
            folder / "counts.json": _json(efficiency_json(model, effs, name))}


def _counted_reports(name: str, rules: Rules, cut: int, folder: Path,
                     say: Callable[[str], None], use_cache: bool,
                     jobs: int) -> dict[Path, str | bytes]:
    hi_lo = SYSTEMS["hi-lo"]
    say(f"shoe state: Hi-Lo indices, {name}")
    decisions = [d for p in ILLUSTRIOUS_18_FAB_4
                 if not_allowed(d := parse_decision(p.decision), rules) is None]
    results = playing_indices(rules, hi_lo, decisions, jobs=jobs, use_cache=use_cache)
    spec = format_spec(rules)
    say(f"shoe state: edge by true count, {name} (cut card {cut})")
    edge = edge_by_count(rules, hi_lo, states=EDGE_STATES, count_samples=EDGE_SAMPLES,
                         seed=SEED, cut=cut, jobs=jobs, use_cache=use_cache)
    return {folder / "indices.md": indices_text(results, name, spec, hi_lo, True),
            folder / "indices.json": _json(indices_json(results, name, spec, hi_lo)),
            folder / "edge.md": edge_text(edge, name, markdown=True),
            folder / "edge.json": _json(edge_json(edge, name)),
            folder / "edge.png": edge_png(edge, f"{name}: edge by Hi-Lo true count")}


def index_markdown(games: dict[str, Rules], counted: dict[str, int]) -> str:
    """``reports/shoestate/README.md``: what each file holds, how it is computed."""
    lines = [
        "# Shoe-state analysis", "",
        "Generated by `bja build` (analyzer/shoestate). Per game folder:", "",
        "- `eor.md`/`eor.json`: exact effects of removal on the game EV and on a few "
        "decisions (`bja eor`); the zero-sum identity is stated and evaluated in each.",
        "- `counts.md`/`counts.json`: betting correlation, playing efficiency and insurance "
        "correlation of the built-in count systems (`bja counts`).",
        "- `indices.*` (games a counter can attack): Hi-Lo indices of the Illustrious 18 and "
        "Fab 4 the rules allow, against Schlesinger's (`bja indices`).",
        "- `edge.*` (same games): the edge by Hi-Lo true count of a player who re-optimises "
        "at every shoe state, with the true count's distribution (`bja edge`).", "",
        "And `protection.md`/`protection.json`: game protection, what a Hi-Lo counter with a "
        "1-8 spread wins at each seed game dealt to its cut card (`bja simulate --counter "
        "hilo`; sampled, with standard errors).", "",
        "Exact: every EV of every shoe analysed. Modelled: playing efficiency (Griffin's "
        "normal model on exact EORs) and the shoe at a true count (Griffin's proportional "
        "deflection). Sampled: which shoe states the edge by count analyses (fixed seed "
        f"{SEED}; standard errors printed).", "",
    ]
    rows = []
    for name, rules in games.items():
        cut = counted.get(name)
        shown = "-" if cut is None else f"{cut}" + ("" if rules.cut_card == cut else
                                                    " (assumed)")
        rows.append([f"[{name}]({name}/)", f"`{format_spec(rules)}`", shown])
    lines += md_table(["game", "rules", "cut card for indices/edge"], rows, "lll", compact=True)
    return "\n".join(lines) + "\n"


def _protection_reports(root: Path, games: dict[str, Rules], rounds: int,
                        say: Callable[[str], None]) -> list[Path]:
    say(f"shoe state: game protection, a Hi-Lo counter at {', '.join(games)}")
    found = game_protection(games, rounds, seed=SEED, jobs=PROTECTION_JOBS)
    folder = root / "reports" / "shoestate"
    return write_files({folder / "protection.md": protection_markdown(found),
                        folder / "protection.json": _json(protection_json(found))})


def build_shoestate_reports(root: Path, progress: Callable[[str], None] | None = None, *,
                            games: dict[str, Rules] | None = None,
                            counted: dict[str, int] | None = None,
                            protected: dict[str, Rules] | None = None,
                            protection_rounds: int = PROTECTION_ROUNDS,
                            use_cache: bool = True, jobs: int | None = None) -> list[Path]:
    """Write ``reports/shoestate/<game>/...`` for every named game (module docstring).

    ``protected``: the games of the game-protection table (default: the seed games);
    ``jobs``: processes for the exact analyses (default every core).
    """
    jobs = every_core() if jobs is None else jobs
    say = progress or (lambda _msg: None)
    chosen = all_games() if games is None else games
    attack = COUNTED if counted is None else counted
    index = root / "reports" / "shoestate" / "README.md"
    write_atomic(index, index_markdown(chosen, attack))
    written: list[Path] = [index]
    for name, rules in chosen.items():
        folder = root / "reports" / "shoestate" / name
        files = _game_reports(name, rules, folder, say, use_cache, jobs)
        if name in attack:
            files |= _counted_reports(name, rules, attack[name], folder, say, use_cache, jobs)
        written += write_files(files)  # a game's files as one set: all old or all new
    seeds = {name: preset.rules for name, preset in PRESETS.items()}
    written += _protection_reports(root, seeds if protected is None else protected,
                                   protection_rounds, say)
    return written


__all__ = ["build_shoestate_reports"]
