"""Renderers of effects of removal and count efficiencies: pure functions of the models.

Text for the terminal, Markdown for ``reports/``, JSON data for ``--json``.
EVs are per unit of the initial bet; text and Markdown print them in percent.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analyzer import __version__
from analyzer.core.cards import format_value
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.shoestate.efficiency import EffectsModel, Efficiency
from analyzer.shoestate.eor import Effects, EorTable
from analyzer.shoestate.published import (
    EFFICIENCY_NOTE,
    PUBLISHED_EFFICIENCY,
    WIZARD_6D_S17,
    PublishedEor,
)

ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
STRATEGY_WORDS = {
    "optimal": "optimal composition-dependent play (CDZ-) re-optimised on every shoe",
    "fixed": "the full shoe's optimal CDZ- strategy, frozen (not re-optimised)",
}


def _values(effects: dict[int, Any], exact: bool) -> dict[str, Any]:
    return {format_value(v): None if x is None else float(x) for v, x in effects.items()}


def _exact(effects: dict[int, Any]) -> dict[str, str | None]:
    return {format_value(v): None if x is None else str(Fraction(x)) for v, x in effects.items()}


def _effects_json(e: Effects, exact: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"name": e.name, "full": float(e.full),
                            "removed": _values(e.removed, exact), "eor": _values(e.eor, exact)}
    if exact:
        data |= {"full_exact": str(Fraction(e.full)), "removed_exact": _exact(e.removed),
                 "eor_exact": _exact(e.eor)}
    return data


def eor_json(table: EorTable, game: str) -> dict[str, Any]:
    """``bja eor --json``: ``full``, ``removed``, ``eor`` keyed A, 2..T, and the identity."""
    data = {"game": game, "rules": table.spec, "shoe": format_shoe(Shoe(table.shoe)),
            "engine": f"bja {__version__}", "strategy": table.strategy, "exact": table.exact,
            "units": "fraction of the initial bet", **_effects_json(table.game, table.exact)}
    data["identity"] = {
        "weighted_sum": float(table.weighted_sum(table.game)),
        "reoptimisation_gain": float(table.reoptimisation_gain),
        "statement": identity_statement(table)}
    data["decisions"] = [_effects_json(d, table.exact) for d in table.decisions]
    return data


def identity_statement(table: EorTable) -> str:
    gain = float(table.reoptimisation_gain) * 100
    if table.strategy == "fixed":
        return ("fixed strategy: sum_v n_v EOR_v = 0 exactly (removing a random card changes "
                f"no expectation); here sum_v n_v EOR_v / N = {gain:.3g}% (rounding only)")
    return ("re-optimised play: sum_v n_v EOR_v / N = G, the average gain from re-optimising "
            f"after one card is seen, G = {gain:.9f}% (second order; exactly 0 for a fixed "
            "strategy)")


def _row(label: str, values: dict[int, Any], digits: int) -> str:
    cells = [" " * 9 if values[v] is None else f"{float(values[v]) * 100:+9.{digits}f}"
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
        lines += ["", f"decision  {d.name}: value {float(d.full) * 100:+.4f}% "
                  + ("(per unit of the insurance bet)" if d.name == "insurance" else ""),
                  _row("EOR", d.eor, 4)]
    lines += ["", "identity  " + identity_statement(table)]
    return "\n".join(lines)


def eor_markdown(table: EorTable, game: str, published: PublishedEor | None = None) -> str:
    cols = " | ".join(format_value(v) for v in ORDER)
    lines = [f"# Effects of removal: {game}", "",
             f"- Engine: bja {__version__} (exact analysis of every shoe; no sampling)",
             f"- Rules: `{table.spec}`; shoe of {table.total} cards",
             f"- Strategy: {STRATEGY_WORDS[table.strategy]}",
             f"- EV of the full shoe: {float(table.game.full) * 100:+.9f}%",
             "- EOR of a value = EV with one card of it removed minus EV of the full shoe, in "
             "percent of the initial bet", "",
             f"| | {cols} |", "|---" * 11 + "|",
             "| EV, card removed | " + " | ".join(_cell(table.game.removed[v], 6) for v in ORDER)
             + " |",
             "| EOR | " + " | ".join(_cell(table.game.eor[v], 4) for v in ORDER) + " |"]
    if published is not None:
        lines.append("| published EOR | " + " | ".join(
            f"{published.eor_percent[v]:+.3f}" for v in ORDER) + " |")
    for d in table.decisions:
        lines.append(f"| EOR of {d.name} | " + " | ".join(_cell(d.eor[v], 4) for v in ORDER)
                     + " |")
    lines += ["", f"Zero-sum identity: {identity_statement(table)}."]
    if published is not None:
        lines += ["", f"Published: {published.source} (rules as published: "
                  f"`{published.rules}`; {published.note})."]
    return "\n".join(lines) + "\n"


def _cell(x: Any, digits: int) -> str:
    return "" if x is None else f"{float(x) * 100:+.{digits}f}"


def efficiency_rows(effs: list[Efficiency]) -> list[dict[str, Any]]:
    rows = []
    for e in effs:
        pub = PUBLISHED_EFFICIENCY.get(e.system.name)
        rows.append({"system": e.system.name, "tags": e.system.tag_text(),
                     "balanced": e.system.balanced, "betting_correlation": e.betting,
                     "playing_efficiency": e.playing, "insurance_correlation": e.insurance,
                     "published": None if pub is None else {
                         "betting_correlation": pub.betting, "playing_efficiency": pub.playing,
                         "insurance_correlation": pub.insurance, "source": pub.source}})
    return rows


def efficiency_json(model: EffectsModel, effs: list[Efficiency], game: str) -> dict[str, Any]:
    return {"game": game, "rules": model.spec, "engine": f"bja {__version__}",
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
        rows.append([r["system"], f"{r['betting_correlation']:.3f}",
                     f"{r['playing_efficiency']:.3f}", f"{r['insurance_correlation']:.3f}",
                     shown, r["tags"]])
    about = [f"rules: {model.spec}; PE over depths to {model.penetration} cards dealt; "
             f"{len(model.decisions)} two-card decisions",
             "BC, IC: correlation of the tags with the exact EORs of the game EV and of "
             "insurance; PE: Griffin's normal model (analyzer.shoestate.efficiency)",
             EFFICIENCY_NOTE]
    if markdown:
        lines = [f"# Count systems: {game}", "", f"- Engine: bja {__version__}",
                 *[f"- {a}" for a in about], "", "| " + " | ".join(head) + " |",
                 "|---" * len(head) + "|", *["| " + " | ".join(r) + " |" for r in rows]]
        sources = sorted({r["published"]["source"] for r in efficiency_rows(effs)
                          if r["published"]})
        lines += ["", "Published figures: " + "; ".join(sources) + "."]
        return "\n".join(lines) + "\n"
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([f"Count systems: {game}", *about, "", fmt.format(*head),
                      *[fmt.format(*r) for r in rows]])


__all__ = ["eor_json", "eor_markdown", "eor_text", "efficiency_json", "efficiency_text",
           "identity_statement", "WIZARD_6D_S17"]
