"""The three comparisons, as library calls returning one :class:`Comparison` model.

* :func:`compare_grid`: the rows of a grid (cartesian product or named rows);
* :func:`compare_effects`: every single-rule change of a base, sorted by effect;
* :func:`compare_explain`: games side by side, each difference from the previous
  game explained rule by rule (:mod:`analyzer.comparisons.explain`).

Every EV is the engine's own (the same calls as ``bja ev``), so a difference is
the difference of two exact analyses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from analyzer.comparisons.effects import effect_variants
from analyzer.comparisons.explain import MAX_PLAYERS, check_players, explain
from analyzer.comparisons.model import Comparison, Figures, Row
from analyzer.comparisons.runner import FigureMemo, RunOptions, evaluate_specs, figure_memo
from analyzer.comparisons.variants import Variant
from analyzer.core.errors import RuleConflictError, UsageError
from analyzer.core.levels import LEVEL_TITLES, SPLIT_TITLES
from analyzer.core.limits import MAX_EXPLAIN_GAMES
from analyzer.core.rules import Rules, format_spec
from analyzer.core.ruleset import INFINITE


def _notes(options: RunOptions) -> tuple[str, ...]:
    level = LEVEL_TITLES[options.split]
    notes = [f"strategy: {SPLIT_TITLES[options.split]}; every shoe reshuffled each round "
             "(full-shoe EV = RTP)"]
    if options.charts:
        arithmetic = "fractions" if options.exact else "float arithmetic"
        notes.append("chart: the rules' own total-dependent basic-strategy chart (as bja "
                     "chart derives it), its EV computed exactly over every card "
                     f"({arithmetic}); gap = chart EV - {level.split(' ')[0]} EV")
    if options.levels:
        notes.append("levels: the EV of the round at every other level of split play: "
                     + "; ".join(LEVEL_TITLES[v] for v in options.level_columns)
                     + " (a blank cell: the level is refused for that rule set)")
    if options.exact:
        notes.append("exact: EVs and differences as fractions (rational arithmetic)")
    return tuple(notes)


def _rows(variants: Sequence[Variant], base: Rules, options: RunOptions,
          memo: FigureMemo | None) -> tuple[Figures | None, list[Row]]:
    specs = [format_spec(base), *(v.spec for v in variants if v.spec is not None)]
    figures = evaluate_specs(specs, options, memo)
    base_figures = figures[specs[0]]
    base_value = base_figures.value if isinstance(base_figures, Figures) else None
    rows = []
    for v in variants:
        got: Figures | str | None = v.error if v.spec is None else figures[v.spec]
        if isinstance(got, Figures):
            delta = None if base_value is None else got.value - base_value
            rows.append(Row(v.name, v.spec, v.change, figures=got, delta=delta))
        else:
            rows.append(Row(v.name, v.spec, v.change, error=got))
    return (base_figures if isinstance(base_figures, Figures) else None), rows


def _base_error(base: Rules, figures: Figures | None, options: RunOptions,
                memo: FigureMemo | None) -> None:
    if figures is None:
        got = evaluate_specs([format_spec(base)], options, memo)[format_spec(base)]
        raise RuleConflictError(f"the base {format_spec(base)} cannot be analysed: {got}")


def _check_base(base: Rules) -> None:
    """Refuse a base no comparison can analyse before any variant is (INF has no shoe)."""
    if base.decks == INFINITE:
        raise UsageError(f"the base {format_spec(base)}: a comparison analyses shoes, and an "
                         "infinite deck has none (bja ev and bja hand compute INF)")


def compare_grid(base: Rules, variants: Sequence[Variant], options: RunOptions,
                 *, base_name: str | None = None, memo: FigureMemo | None = None) -> Comparison:
    """Every variant's figures and its difference from ``base``, in the given order."""
    _check_base(base)
    base_figures, rows = _rows(variants, base, options, memo)
    _base_error(base, base_figures, options, memo)
    return Comparison("grid", format_spec(base), base_name or format_spec(base), base_figures,
                      tuple(rows), exact=options.exact, charts=options.charts,
                      shoe=options.shoe, notes=_notes(options))


def compare_effects(base: Rules, options: RunOptions, *, base_name: str | None = None,
                    memo: FigureMemo | None = None) -> Comparison:
    """The rule-effect table of ``base``: most favourable to the player first."""
    _check_base(base)
    base_figures, rows = _rows(effect_variants(base), base, options, memo)
    _base_error(base, base_figures, options, memo)
    rows.sort(key=lambda r: (r.delta is None, -(r.delta or 0), r.change or ""))
    notes = (*_notes(options), "effects: one rule changed at a time; the cut card and INSNS "
             "are not varied (they do not enter the full-shoe EV of a round)")
    return Comparison("effects", format_spec(base), base_name or format_spec(base),
                      base_figures, tuple(rows), exact=options.exact, charts=options.charts,
                      shoe=options.shoe, notes=notes)


def compare_explain(games: Sequence[tuple[str, Rules]], options: RunOptions, *,
                    max_players: int = MAX_PLAYERS, chain: int | None = None,
                    memo: FigureMemo | None = None) -> Comparison:
    """Games side by side; each one's difference from the previous explained rule by rule.

    ``chain``: only the first ``chain`` games are explained (the rest are shown beside).
    """
    if not 2 <= len(games) <= MAX_EXPLAIN_GAMES:
        raise UsageError(f"explain needs 2 to {MAX_EXPLAIN_GAMES} games or specs, not "
                         f"{len(games)}")
    check_players(max_players)  # before any game is analysed
    memo = memo if memo is not None else figure_memo(options.use_cache)
    (base_name, base), *rest = games
    _check_base(base)
    variants = [Variant(name, rules) for name, rules in games]
    base_figures, rows = _rows(variants, base, options, memo)
    _base_error(base, base_figures, options, memo)
    plain = dataclasses.replace(options, charts=False, levels=False)

    def evaluate(specs: list[str]) -> dict[str, Figures | str]:
        return evaluate_specs(specs, plain, memo)

    for k in range(1, min(len(rows), chain or len(rows))):
        if rows[k].ok and rows[k - 1].ok:
            why = explain(games[k - 1][1], games[k][1], evaluate, max_players)
            rows[k] = dataclasses.replace(rows[k], explanation=why)
    return Comparison("explain", format_spec(base), base_name, base_figures, tuple(rows),
                      exact=options.exact, charts=options.charts, shoe=options.shoe,
                      notes=(*_notes(options), "explain: diff is from the first game; each "
                             "explained difference is from the previous game, attributed rule "
                             "by rule (Shapley)"))
