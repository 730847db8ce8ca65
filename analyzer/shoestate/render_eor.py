"""Renderers of effects of removal and count efficiencies: pure functions of the models.

Text for the terminal, Markdown for ``reports/``, JSON data for ``--json``.
EVs are per unit of the initial bet; text and Markdown print them in percent.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from analyzer.core.arith import Number
from analyzer.core.cards import format_value
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.core.version import ENGINE
from analyzer.shoestate.counts import builtin_of
from analyzer.shoestate.efficiency import EffectsModel, Efficiency
from analyzer.shoestate.eor import Effects, EorTable
from analyzer.shoestate.published import (
    EFFICIENCY_NOTE,
    PUBLISHED_EFFICIENCY,
    WIZARD_6D_S17,
    PublishedEor,
)
from analyzer.util.text import fraction_text, md_literal, md_table, text_table

ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
STRATEGY_WORDS = {
    "optimal": "optimal composition-dependent play (CDZ-) re-optimised on every shoe",
    "fixed": "the full shoe's optimal CDZ- strategy, frozen (not re-optimised)",
}


class EffectsJson(TypedDict):
    """One set of effects (the game's, or a decision's), keyed A, 2..T; ``None`` where the
    shoe holds no card of that value, or (a decision) where one of its hands cannot be
    dealt once that card is gone."""

    name: str
    full: float
    removed: dict[str, float | None]
    eor: dict[str, float | None]
    full_exact: NotRequired[str]
    removed_exact: NotRequired[dict[str, str | None]]
    eor_exact: NotRequired[dict[str, str | None]]


class IdentityJson(TypedDict):
    weighted_sum: float
    reoptimisation_gain: float
    statement: str


class DecisionJson(EffectsJson):
    """A decision's effects, in its own units (insurance: per unit of the insurance bet)."""

    units: str


class EorJson(EffectsJson):
    """``bja eor --json``: the game's effects and each decision's."""

    game: str
    rules: str
    shoe: str
    engine: str
    strategy: str
    exact: bool
    units: str
    identity: IdentityJson
    decisions: list[DecisionJson]


class PublishedEfficiencyJson(TypedDict):
    betting_correlation: float
    playing_efficiency: float
    insurance_correlation: float
    source: str


class SystemJson(TypedDict):
    system: str
    tags: str
    balanced: bool
    betting_correlation: float
    playing_efficiency: float
    insurance_correlation: float
    published: PublishedEfficiencyJson | None


class EfficiencyJson(TypedDict):
    """``bja counts --json``."""

    game: str
    rules: str
    engine: str
    penetration_cards: int
    decisions: int
    systems: list[SystemJson]
    note: str


def _values(effects: dict[int, Number | None], exact: bool) -> dict[str, float | None]:
    return {format_value(v): None if x is None else float(x) for v, x in effects.items()}


def _exact(effects: dict[int, Number | None]) -> dict[str, str | None]:
    return {format_value(v): None if x is None else fraction_text(x, bare_integers=True)
            for v, x in effects.items()}


def _effects_json(e: Effects, exact: bool) -> EffectsJson:
    data: EffectsJson = {"name": e.name, "full": float(e.full),
                            "removed": _values(e.removed, exact), "eor": _values(e.eor, exact)}
    if exact:
        data |= {"full_exact": fraction_text(e.full, bare_integers=True),
                 "removed_exact": _exact(e.removed), "eor_exact": _exact(e.eor)}
    return data


def eor_json(table: EorTable, game: str) -> EorJson:
    """``bja eor --json``: ``full``, ``removed``, ``eor`` keyed A, 2..T, and the identity."""
    return {"game": game, "rules": table.spec, "shoe": format_shoe(Shoe(table.shoe)),
            "engine": ENGINE, "strategy": table.strategy, "exact": table.exact,
            "units": "fraction of the initial bet", **_effects_json(table.game, table.exact),
            "identity": {"weighted_sum": float(table.game_sum),
                         "reoptimisation_gain": float(table.reoptimisation_gain),
                         "statement": identity_statement(table)},
            "decisions": [_decision_json(d, table.exact) for d in table.decisions]}


def _decision_json(effects: Effects, exact: bool) -> DecisionJson:
    units = ("fraction of the insurance bet" if effects.name == "insurance"
             else "fraction of the initial bet")
    return {**_effects_json(effects, exact), "units": units}


def _undealt(table: EorTable, effects: Effects) -> str:
    """Why a decision's effect is blank though the shoe holds that card, or ''."""
    blank = [format_value(v) for v in ORDER if effects.eor[v] is None and table.shoe[v - 1]]
    if not blank:
        return ""
    return (f"blank under {', '.join(blank)}: a hand of this decision cannot be dealt once "
            "that card is gone (the effects keep the full shoe's mix of its hands)")


def identity_statement(table: EorTable) -> str:
    gain = float(table.reoptimisation_gain) * 100
    if table.strategy == "fixed":
        here = (f"here sum_v n_v EOR_v / N = {table.reoptimisation_gain}, as fractions"
                if table.exact else
                f"here sum_v n_v EOR_v / N = {gain:.3g}% (float rounding only)")
        return ("fixed strategy: sum_v n_v EOR_v = 0 exactly (removing a random card changes "
                f"no expectation); {here}")
    gain = round(gain, 9) + 0.0  # G >= 0: a float's -1e-17 is not printed as -0.000000000
    return ("re-optimised play: sum_v n_v EOR_v / N = G, the average gain from re-optimising "
            f"after one card is seen, G = {gain:.9f}% (second order; exactly 0 for a fixed "
            "strategy)")


def _row(label: str, values: dict[int, Number | None], digits: int) -> str:
    cells = [" " * 9 if (x := values[v]) is None else f"{float(x) * 100:+9.{digits}f}"
             for v in ORDER]
    return f"{label:<22}" + " ".join(cells)


def eor_text(table: EorTable, game: str) -> str:
    head = f"{'':<22}" + " ".join(f"{format_value(v):>9}" for v in ORDER)
    lines = [f"Effects of removal: {game}", f"rules     {table.spec}",
             f"shoe      {format_shoe(Shoe(table.shoe))} ({table.total} cards)",
             f"strategy  {STRATEGY_WORDS[table.strategy]}",
             f"EV        {float(table.game.full) * 100:+.9f}% (full shoe)", "",
             "percent of the initial bet; EOR = EV(shoe minus one card) - EV(shoe)", head,
             _row("EV, card removed", table.game.removed, 4),
             _row("EOR", table.game.eor, 4)]
    for d in table.decisions:
        lines += ["", f"decision  {d.name}: value {float(d.full) * 100:+.4f}%"
                  + (" (per unit of the insurance bet)" if d.name == "insurance" else ""),
                  _row("EOR", d.eor, 4)]
        if why := _undealt(table, d):
            lines.append(f"{'':<10}{why}")
    lines += ["", "identity  " + identity_statement(table)]
    return "\n".join(lines)


def eor_markdown(table: EorTable, game: str, published: PublishedEor | None = None) -> str:
    rows = [["EV, card removed", *(_cell(table.game.removed[v], 6) for v in ORDER)],
            ["EOR", *(_cell(table.game.eor[v], 4) for v in ORDER)]]
    if published is not None:
        rows.append(["published EOR", *(f"{published.eor_percent[v]:+.3f}" for v in ORDER)])
    rows += [[f"EOR of {d.name}", *(_cell(d.eor[v], 4) for v in ORDER)]
             for d in table.decisions]
    lines = [f"# Effects of removal: {game}", "",
             f"- Engine: {ENGINE} (exact analysis of every shoe; no sampling)",
             f"- Rules: `{table.spec}`; shoe of {table.total} cards",
             f"- Strategy: {STRATEGY_WORDS[table.strategy]}",
             f"- EV of the full shoe: {float(table.game.full) * 100:+.9f}%",
             "- EOR of a value = EV with one card of it removed minus EV of the full shoe, in "
             "percent of the initial bet", "",
             *md_table(["", *(format_value(v) for v in ORDER)], rows, "l" * 11, compact=True)]
    lines += ["", f"Zero-sum identity: {identity_statement(table)}."]
    for d in table.decisions:
        if why := _undealt(table, d):
            lines += ["", f"EOR of {d.name}: {why}."]
    if published is not None:
        lines += ["", f"Published: {published.source} (rules as published: "
                  f"`{published.rules}`; {published.note})."]
    return "\n".join(lines) + "\n"


def _cell(x: Number | None, digits: int) -> str:
    return "" if x is None else f"{float(x) * 100:+.{digits}f}"


def efficiency_rows(effs: list[Efficiency]) -> list[SystemJson]:
    rows: list[SystemJson] = []
    for e in effs:
        pub = PUBLISHED_EFFICIENCY.get(builtin_of(e.system) or "")
        rows.append({"system": e.system.name, "tags": e.system.tag_text(),
                     "balanced": e.balanced, "betting_correlation": e.betting,
                     "playing_efficiency": e.playing, "insurance_correlation": e.insurance,
                     "published": None if pub is None else {
                         "betting_correlation": pub.betting, "playing_efficiency": pub.playing,
                         "insurance_correlation": pub.insurance, "source": pub.source}})
    return rows


def efficiency_json(model: EffectsModel, effs: list[Efficiency], game: str) -> EfficiencyJson:
    return {"game": game, "rules": model.spec, "engine": ENGINE,
            "penetration_cards": model.penetration, "decisions": len(model.decisions),
            "systems": efficiency_rows(effs), "note": EFFICIENCY_NOTE}


def efficiency_text(model: EffectsModel, effs: list[Efficiency], game: str,
                    markdown: bool = False) -> str:
    head = ["system", "BC", "PE", "IC", "published BC/PE/IC", "tags A..T"]
    rows = []
    for r in efficiency_rows(effs):
        pub = r["published"]
        shown = "" if pub is None else (f"{pub['betting_correlation']:.2f} / "
                                         f"{pub['playing_efficiency']:.2f} / "
                                         f"{pub['insurance_correlation']:.2f}")
        rows.append([md_literal(r["system"]) if markdown else r["system"],
                     f"{r['betting_correlation']:.3f}",
                     f"{r['playing_efficiency']:.3f}", f"{r['insurance_correlation']:.3f}",
                     shown, r["tags"]])
    about = [f"rules: {model.spec}; PE over depths to {model.penetration} cards dealt; "
             f"{len(model.decisions)} two-card decisions",
             "BC, IC: correlation of the tags with the exact EORs of the game EV and of "
             "insurance; PE: Griffin's normal model (analyzer.shoestate.efficiency)",
             EFFICIENCY_NOTE]
    if markdown:
        lines = [f"# Count systems: {game}", "", f"- Engine: {ENGINE}",
                 *[f"- {a}" for a in about], "",
                 *md_table(head, rows, "l" * len(head), compact=True)]
        sources = sorted({r["published"]["source"] for r in efficiency_rows(effs)
                          if r["published"]})
        lines += ["", "Published figures: " + "; ".join(sources) + "."]
        return "\n".join(lines) + "\n"
    return "\n".join([f"Count systems: {game}", *about, "",
                      *text_table(head, rows, align="l" * len(head), strip=False)])


__all__ = ["eor_json", "eor_markdown", "eor_text", "efficiency_json", "efficiency_text",
           "identity_statement", "WIZARD_6D_S17"]
