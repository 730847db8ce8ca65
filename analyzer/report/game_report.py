"""The Markdown report of one game: rules, return, EV by upcard, dealer table, pairs.

Every report names the rules (spec and words), the strategy level, the
assumptions and the engine version.  It formats a
:class:`~analyzer.report.model.GameModel` and computes nothing, so a rebuild
with the same engine changes no byte.
"""

from __future__ import annotations

from analyzer.core.actions import Action
from analyzer.core.cards import format_value
from analyzer.core.levels import LEVEL_TITLES
from analyzer.core.presets import READINGS, Preset
from analyzer.core.rules import describe_rules, format_spec
from analyzer.report.model import UPCARDS, GameModel
from analyzer.util.text import md_table

ACTION_CODES = {a.label: a.code for a in Action}


def _return_section(model: GameModel, preset: Preset | None) -> list[str]:
    report = model.ev
    ev = float(report.ev)
    ins = report.insurance
    insured = ("- Insurance: none offered (no ace in the shoe)" if ins is None else
               f"- Insurance (ace up, full shoe): {float(ins.ev) * 100:.6f}% of the insurance "
               f"bet ({'take' if ins.take else 'decline'}; p(ten) = {float(ins.p_ten):.6f})")
    return [
        "", "## Return", "",
        f"- EV per initial unit bet: {ev * 100:.9f}%",
        f"- RTP: {(1 + ev) * 100:.9f}%",
        *([f"- Published RTP: {preset.published_rtp} (the difference: {READINGS})"]
          if preset and preset.published_rtp else []),
        *[f"- Note: {n}" for n in report.notes],
        insured,
    ]


def _tables(model: GameModel) -> list[str]:
    lines = ["", "## EV by upcard (unconditional, % of initial bet)", ""]
    lines += md_table(["upcard", "EV"], [[format_value(u), f"{float(v) * 100:.9f}"]
                                         for u, v in model.ev.by_upcard], "ll", compact=True)
    names = [name for name, _ in model.dealer.rows[0].outcomes] if model.dealer.rows else []
    lines += ["", "## Dealer outcomes (unconditional)", ""]
    lines += md_table(["upcard", *names],
                      [[format_value(row.upcard), *(f"{float(v):.6f}" for _, v in row.outcomes)]
                       for row in model.dealer.rows], "l" * (1 + len(names)), compact=True)
    lines += ["", "## Best play of each pair (code; EV of that play, % conditioned)", ""]
    rows = [[f"{format_value(p)},{format_value(p)}",
             *("-" if play is None else f"{ACTION_CODES[play.best]} {float(play.ev) * 100:.3f}"
               for play in plays)] for p, plays in model.pairs]
    lines += md_table(["pair", *(format_value(u) for u in UPCARDS)], rows,
                      "l" * (1 + len(UPCARDS)), compact=True)
    return lines


def _levels_section(model: GameModel) -> list[str]:
    if model.levels is None:
        return []
    lines = ["", "## RTP at every level of play", "",
             "Only the play of split hands differs between CDZ-, CDP1 and CDP (Farmer's "
             "definitions); without resplits CDP is CDP1. The chart is the rules' own "
             "total-dependent basic strategy (as `bja chart` derives it).", ""]
    rows = []
    for level in model.levels.levels:
        title = LEVEL_TITLES[level.name]
        if level.computed:
            ev = float(level.ev)
            rows.append([level.name, f"{ev * 100:.9f}", f"{(1 + ev) * 100:.9f}", title])
        else:
            rows.append([level.name, "-", "-", f"{title}; {level.reason}"])
    return lines + md_table(["level", "EV %", "RTP %", "strategy"], rows, "llll", compact=True)


def game_report(name: str, model: GameModel, preset: Preset | None = None) -> str:
    """A Markdown report of one rule set: RTP, EV by upcard, dealer table, pair decisions."""
    rules = model.ev.rules
    title = f"{preset.title} ({name})" if preset else name
    lines = [
        f"# {title}: exact analysis", "",
        f"- Engine: {model.ev.engine} (exact combinatorial analysis; no sampling)",
        f"- Rules: `{format_spec(rules)}`",
        "- Shoe: " + ("infinite (cards drawn with replacement)" if model.ev.shoe is None else
                      f"{model.ev.shoe.total} cards, reshuffled every round (full-shoe EV = "
                      "RTP)"),
        "- Strategy level: CDZ- (optimal composition-dependent play of every hand; split "
        "hands follow the pre-split strategy; pairs are resplit whenever allowed)",
        "- Splits: Farmer's algorithm, exact for CDZ- (checked against a whole-round "
        "enumeration on small shoes)",
        "- Per-hand EVs are conditioned on no dealer blackjack where the dealer peeks",
        "", "## Rules in words", "",
        *[f"- {line}" for line in describe_rules(rules)],
    ]
    if preset:
        lines += ["", f"## Readings and assumptions ({READINGS})", "",
                  f"Rule text read: {preset.source}.", "",
                  *[f"- {a}" for a in preset.assumptions]]
    lines += _return_section(model, preset) + _levels_section(model) + _tables(model)
    return "\n".join(lines) + "\n"
