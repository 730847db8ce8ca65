"""Renderers for the engine's results: pure functions from a model to text or JSON data.

Percentages print with 9 decimals, the precision of published analyzers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from analyzer import __version__
from analyzer.core.cards import format_value
from analyzer.core.presets import Preset
from analyzer.core.rules import describe_rules, format_spec
from analyzer.core.shoe import format_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import OUTCOME_NAMES, dealer_distribution
from analyzer.engine.hands import ACTION_NAMES
from analyzer.engine.insurance import insurance, insurance_table

UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def fraction_text(x: Any) -> str:
    """``"p/q"`` for a Fraction (an int prints as ``"n/1"``)."""
    f = Fraction(x)
    return f"{f.numerator}/{f.denominator}"


def pct(x: Any) -> str:
    return f"{float(x) * 100:.9f}%"


def _header(analysis: Analysis) -> dict[str, Any]:
    return {"rules": format_spec(analysis.rules), "shoe": format_shoe(analysis.shoe),
            "engine": f"bja {__version__}", "exact": analysis.exact}


def notes(analysis: Analysis) -> list[str]:
    """Caveats every EV output must carry for these rules."""
    rules = analysis.rules
    out = []
    if rules.cut_card:
        out.append(f"the shoe is reshuffled after {rules.cut_card} cards: the cut-card RTP is "
                   "NOT yet computed; the EV shown is the full-shoe EV (every round off a "
                   "fresh shoe)")
    if rules.split_by_rank:
        out.append("pairs split by rank: two ten-valued cards split only when of the same "
                   "rank (ten ranks taken as evenly spread); resplit odds of tens use values")
    return out


def insurance_json(analysis: Analysis) -> dict[str, Any]:
    full = insurance(analysis.shoe)
    positive = [i for i in insurance_table(analysis.shoe) if i.take]
    return {
        "per_unit_of_insurance_bet": True,
        "full_shoe": {"ev": float(full.ev), "ev_exact": fraction_text(full.ev),
                      "p_ten": float(full.p_ten), "take": full.take},
        "after_two_cards_take": ["-".join(format_value(c) for c in i.cards) for i in positive],
    }


SPLIT_LEVELS = {"cdz": "CDZ-, optimal composition-dependent play; split hands use the "
                       "pre-split strategy",
                "cdp1": "CDP1, optimal composition-dependent play; split hands use the "
                        "post-split strategy of the first split hand (Farmer)",
                "cdp": "CDP, optimal composition-dependent play; split hands use the post-split "
                       "strategy for the number of pair cards removed (Farmer)",
                "optimal": "optimal composition-dependent play; optimal splitting (every card "
                           "of the split round remembered)",
                "exact": "CDZ-, splits by whole-round enumeration (cross-check)"}


def ev_json(analysis: Analysis, levels: dict[str, Any] | None = None) -> dict[str, Any]:
    """``bja ev --json``; ``levels`` (see :mod:`analyzer.report.levels`) when computed."""
    ev = analysis.ev()
    data = _header(analysis)
    data.update({"split": analysis.split, "ev": float(ev), "rtp": 1 + float(ev),
                 "notes": notes(analysis), "insurance": insurance_json(analysis),
                 "by_upcard": {format_value(u): float(v)
                               for u, v in sorted(analysis.by_upcard().items(),
                                                  key=lambda kv: UPCARDS.index(kv[0]))}})
    if analysis.exact:
        data["ev_exact"] = fraction_text(ev)
    if levels is not None:
        data["levels"] = levels
    return data


def ev_text(analysis: Analysis) -> str:
    ev = analysis.ev()
    lines = [f"rules: {format_spec(analysis.rules)}   (strategy: "
             f"{SPLIT_LEVELS.get(analysis.split, analysis.split)})",
             f"shoe:  {format_shoe(analysis.shoe)}", "",
             " upcard | EV (% of initial bet)", "--------+----------------"]
    by = analysis.by_upcard()
    for u in UPCARDS:
        if u in by:
            lines.append(f"   {format_value(u)}    | {float(by[u]) * 100:15.9f}")
    lines += ["--------+----------------", f" total  | {float(ev) * 100:15.9f}"]
    if analysis.exact:
        lines.append(f"exact EV = {fraction_text(ev)}")
    lines.append(f"RTP = {(1 + float(ev)) * 100:.9f}%")
    ins = insurance(analysis.shoe)
    lines.append(f"insurance (ace up, full shoe): EV {float(ins.ev) * 100:.6f}% of the "
                 f"insurance bet: {'take' if ins.take else 'decline'}")
    lines += [f"note: {n}" for n in notes(analysis)]
    return "\n".join(lines)


def preset_json(preset: Preset) -> dict[str, Any]:
    return {"name": preset.name, "title": preset.title, "spec": format_spec(preset.rules),
            "source": preset.source, "rules": describe_rules(preset.rules),
            "assumptions": list(preset.assumptions), "published_rtp": preset.published_rtp}


def preset_text(preset: Preset) -> str:
    data = preset_json(preset)
    lines = [f"{data['title']} ({data['name']})", f"spec: {data['spec']}",
             f"rule text: ../shared/{data['source']}", "", "rules:"]
    lines += [f"  - {r}" for r in data["rules"]]
    lines += ["", "readings and assumptions (../shared/GAMES.md):"]
    lines += [f"  - {a}" for a in data["assumptions"]]
    if data["published_rtp"]:
        lines.append(f"published RTP: {data['published_rtp']}")
    return "\n".join(lines)


def hand_json(analysis: Analysis, up: int, cards: tuple[int, ...], *,
              unconditioned: bool) -> dict[str, Any]:
    actions = analysis.hand_actions(up, cards, unconditioned=unconditioned)
    best = max(actions, key=lambda a: actions[a])
    data = _header(analysis)
    data.update({
        "upcard": format_value(up), "cards": [format_value(c) for c in cards],
        "split": analysis.split,
        "conditioned_on_no_dealer_blackjack": analysis.conditioned(up) and not unconditioned,
        "actions": {ACTION_NAMES[a]: float(v) for a, v in actions.items()},
        "best": ACTION_NAMES[best],
    })
    if analysis.exact:
        data["actions_exact"] = {ACTION_NAMES[a]: fraction_text(v) for a, v in actions.items()}
    return data


def hand_text(analysis: Analysis, up: int, cards: tuple[int, ...], *,
              unconditioned: bool) -> str:
    data = hand_json(analysis, up, cards, unconditioned=unconditioned)
    if up not in (1, 10):
        cond = "no dealer blackjack possible"
    elif data["conditioned_on_no_dealer_blackjack"]:
        cond = "conditioned on the dealer not having blackjack"
    else:
        cond = "unconditioned: a dealer blackjack is possible"
    lines = [f"rules: {data['rules']}",
             f"hand {'-'.join(data['cards'])} vs {data['upcard']}  (EV % of initial bet, {cond})"]
    for name, v in data["actions"].items():
        mark = "  <- best" if name == data["best"] else ""
        lines.append(f"  {name:<9} {v * 100:15.9f}{mark}")
    return "\n".join(lines)


def dealer_json(analysis: Analysis) -> dict[str, Any]:
    data = _header(analysis)
    table: dict[str, Any] = {}
    for u in UPCARDS:
        if not analysis.shoe[u]:
            continue
        d = dealer_distribution(analysis.shoe.remove([u]).counts, u,
                                hits_soft_17=analysis.rules.hits_soft_17, exact=analysis.exact)
        row: dict[str, Any] = {k: float(d.outcomes[k]) for k in OUTCOME_NAMES}
        row["bust"] = float(d.bust)
        row["bust_by_cards"] = {str(k): float(v) for k, v in d.bust_by_cards.items()}
        if analysis.exact:
            row["exact"] = {k: fraction_text(d.outcomes[k]) for k in OUTCOME_NAMES}
        table[format_value(u)] = row
    data["upcards"] = table
    data["note"] = "unconditioned: the upcard removed from the shoe, blackjack not ruled out"
    return data


def dealer_text(analysis: Analysis) -> str:
    data = dealer_json(analysis)
    cols = ("bust", "17", "18", "19", "20", "21", "blackjack", "bust22")
    lines = [f"rules: {data['rules']}", data["note"], "",
             " up | " + " ".join(f"{c:>9}" for c in cols), "----+" + "-" * 80]
    for u, row in data["upcards"].items():
        lines.append(f"  {u} | " + " ".join(f"{row[c]:9.6f}" for c in cols))
    return "\n".join(lines)
