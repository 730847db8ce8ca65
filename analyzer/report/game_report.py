"""The Markdown report of one game: rules, return, EV by upcard, dealer table, pairs.

Every report names the rules (spec and words), the strategy level, the
assumptions and the engine version, and is a pure function of the analysis,
so a rebuild with the same engine changes no byte.  Files are written
atomically: to a temporary file in the same folder, then renamed.
"""

from __future__ import annotations

from analyzer import __version__
from analyzer.core.actions import Action
from analyzer.core.cards import format_value
from analyzer.core.outcomes import Outcome
from analyzer.core.presets import Preset
from analyzer.core.rules import describe_rules, format_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import dealer_distribution
from analyzer.engine.insurance import insurance
from analyzer.report.render import UPCARDS, notes


def game_report(name: str, analysis: Analysis, preset: Preset | None = None) -> str:
    """A Markdown report of one rule set: RTP, EV by upcard, dealer table, pair decisions."""
    rules = analysis.rules
    ev = analysis.ev()
    title = f"{preset.title} ({name})" if preset else name
    lines = [
        f"# {title}: exact analysis", "",
        f"- Engine: bja {__version__} (exact combinatorial analysis; no sampling)",
        f"- Rules: `{format_spec(rules)}`",
        f"- Shoe: {analysis.shoe.total} cards, reshuffled every round (full-shoe EV = RTP)",
        "- Strategy level: CDZ- (optimal composition-dependent play of every hand; split "
        "hands follow the pre-split strategy; pairs are resplit whenever allowed)",
        "- Splits: Farmer's algorithm, exact for CDZ- (checked against a whole-round "
        "enumeration on small shoes)",
        "- Per-hand EVs are conditioned on no dealer blackjack where the dealer peeks",
        "", "## Rules in words", "",
        *[f"- {line}" for line in describe_rules(rules)],
    ]
    if preset:
        lines += ["", f"## Readings and assumptions (rule text: `{preset.source}`)", "",
                  *[f"- {a}" for a in preset.assumptions]]
    ins = insurance(analysis.shoe)
    lines += [
        "", "## Return", "",
        f"- EV per initial unit bet: {float(ev) * 100:.9f}%",
        f"- RTP: {(1 + float(ev)) * 100:.9f}%",
        *([f"- Published RTP: {preset.published_rtp} (difference: see the README)"]
          if preset and preset.published_rtp else []),
        *[f"- Note: {n}" for n in notes(analysis)],
        f"- Insurance (ace up, full shoe): {float(ins.ev) * 100:.6f}% of the insurance bet "
        f"({'take' if ins.take else 'decline'}; p(ten) = {float(ins.p_ten):.6f})",
        "", "## EV by upcard (unconditional, % of initial bet)", "",
        "| upcard | EV |", "|---|---|",
    ]
    by = analysis.by_upcard()
    lines += [f"| {format_value(u)} | {float(by[u]) * 100:.9f} |" for u in UPCARDS if u in by]
    lines += ["", "## Dealer outcomes (unconditional)", "",
              "| upcard | " + " | ".join(o.label for o in Outcome) + " |",
              "|---|" + "---|" * len(Outcome)]
    for u in UPCARDS:
        if not analysis.shoe[u]:
            continue
        d = dealer_distribution(analysis.shoe.remove([u]).counts, u,
                                hits_soft_17=rules.hits_soft_17, exact=False)
        lines.append(f"| {format_value(u)} | "
                     + " | ".join(f"{d.outcomes[o.label]:.6f}" for o in Outcome) + " |")
    lines += ["", "## Best play of each pair (code; EV of that play, % conditioned)", "",
              "| pair | " + " | ".join(format_value(u) for u in UPCARDS) + " |",
              "|---|" + "---|" * len(UPCARDS)]
    for p in (1, *range(2, 11)):
        cells = []
        for u in UPCARDS:
            try:
                actions = analysis.actions(u, (p, p))
            except ValueError:
                cells.append("-")
                continue
            best = max(actions, key=lambda a: actions[a])
            cells.append(f"{Action(best).code} {float(actions[best]) * 100:.3f}")
        lines.append(f"| {format_value(p)},{format_value(p)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
