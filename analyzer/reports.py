"""Game reports and the ``bja build`` job that regenerates ``tables/`` and ``reports/``.

Every report names the rules (spec and words), the strategy level, the
assumptions and the engine version, and is a pure function of the analysis,
so a rebuild with the same engine changes no byte.  Files are written
atomically: to a temporary file in the same folder, then renamed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from analyzer import __version__
from analyzer.cards import format_value
from analyzer.dealer import OUTCOME_NAMES, dealer_distribution
from analyzer.game import Analysis
from analyzer.insurance import insurance
from analyzer.output import write_atomic
from analyzer.player import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.presets import CLASSIC_GAMES, PRESETS, Preset
from analyzer.render import UPCARDS, notes
from analyzer.rules import Rules, describe_rules, format_spec, parse_spec

ACTION_CODES = {STAND: "S", HIT: "H", DOUBLE: "D", SPLIT: "P", SURRENDER: "R"}


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
              "| upcard | " + " | ".join(OUTCOME_NAMES) + " |",
              "|---|" + "---|" * len(OUTCOME_NAMES)]
    for u in UPCARDS:
        if not analysis.shoe[u]:
            continue
        d = dealer_distribution(analysis.shoe.remove([u]).counts, u,
                                hits_soft_17=rules.hits_soft_17, exact=False)
        lines.append(f"| {format_value(u)} | "
                     + " | ".join(f"{d.outcomes[k]:.6f}" for k in OUTCOME_NAMES) + " |")
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
            cells.append(f"{ACTION_CODES[best]} {float(actions[best]) * 100:.3f}")
        lines.append(f"| {format_value(p)},{format_value(p)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


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
        write_atomic(path, game_report(name, Analysis(rules), preset))
        written.append(path)
    from analyzer.charts.cli import build_chart_tables
    from analyzer.sidebets.cli import build_sidebet_tables

    written += build_chart_tables(root, progress=say)
    say("side-bet tables")
    written += build_sidebet_tables(root)
    return written
