"""Text and JSON of the main game's report models: pure formatting, nothing computed.

Each function takes a model of :mod:`analyzer.report.model` (or a preset) and
returns a string or JSON-ready data.  Percentages print with 9 decimals, the
precision of published analyzers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from analyzer.core.cards import format_value, hand_total
from analyzer.core.levels import LEVEL_TITLES, SPLIT_TITLES
from analyzer.core.presets import READINGS, Preset
from analyzer.core.rules import Surrender, describe_rules, format_spec
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.util.text import fraction_text

if TYPE_CHECKING:
    from analyzer.report.levels import Levels
    from analyzer.report.model import DealerTable, EvReport, HandReport, InsuranceFigures

DEALER_COLUMNS = ("bust", "17", "18", "19", "20", "21", "blackjack", "bust22")


class HeaderJson(TypedDict):
    """What every game payload opens with."""

    rules: str
    shoe: str
    engine: str
    exact: bool


class FullShoeInsuranceJson(TypedDict):
    ev: float
    ev_exact: str
    p_ten: float
    take: bool


class InsuranceJson(TypedDict):
    per_unit_of_insurance_bet: bool
    full_shoe: FullShoeInsuranceJson
    after_two_cards_take: list[str]


class LevelJson(TypedDict):
    """One level of play: its figures, or why it was not computed."""

    title: str
    ev: NotRequired[float]
    rtp: NotRequired[float]
    ev_exact: NotRequired[str]
    not_computed: NotRequired[str]


class EvJson(HeaderJson):
    """``bja ev --json``; ``by_upcard`` keyed A, 2..T."""

    split: str
    ev: float
    rtp: float
    notes: list[str]
    insurance: InsuranceJson | None
    by_upcard: dict[str, float]
    ev_exact: NotRequired[str]
    levels: NotRequired[dict[str, LevelJson]]
    rank_only: NotRequired[bool]  # present (true) only for a play by ranks alone


class PresetJson(TypedDict):
    """``bja rules show NAME --json``."""

    name: str
    title: str
    spec: str
    source: str
    readings_doc: str
    rules: list[str]
    assumptions: list[str]
    published_rtp: str | None


class HandJson(HeaderJson):
    """``bja hand --json``: the EV of every action (keyed by its name)."""

    upcard: str
    cards: list[str]
    split: str
    conditioned_on_no_dealer_blackjack: bool
    actions: dict[str, float]
    best: str | None
    blackjack: float | None
    actions_exact: NotRequired[dict[str, str]]
    blackjack_exact: NotRequired[str]
    by_suits: NotRequired[list[SuitCaseJson]]


class SuitCaseJson(TypedDict):
    """One suit case of a hand under suit bonuses (``bja hand --json``)."""

    suits: str
    chance: float
    actions: dict[str, float]
    best: str


class DealerRowJson(TypedDict, total=False):
    """One upcard's outcomes: ``"17"``..``"21"``, ``"blackjack"``, ``"bust22"`` (keyed by
    outcome, as the model names them), then these."""

    bust: float
    bust_by_cards: dict[str, float]
    exact: dict[str, str]


class DealerJson(HeaderJson):
    """``bja dealer --json``: a row per upcard (keyed A, 2..T)."""

    upcards: dict[str, dict[str, float | dict[str, float] | dict[str, str]]]
    note: str


def insurance_json(ins: InsuranceFigures | None) -> InsuranceJson | None:
    if ins is None:
        return None
    return {
        "per_unit_of_insurance_bet": True,
        "full_shoe": {"ev": float(ins.ev), "ev_exact": fraction_text(ins.ev),
                      "p_ten": float(ins.p_ten), "take": ins.take},
        "after_two_cards_take": ["-".join(format_value(c) for c in cards)
                                 for cards in ins.after_two_cards_take],
    }


def shoe_text(shoe: Shoe | None) -> str:
    """A shoe as ``VALUE:COUNT`` text; ``INF`` for an infinite deck."""
    return "INF" if shoe is None else format_shoe(shoe)


def ev_json(report: EvReport) -> EvJson:
    data: EvJson = {
        "rules": format_spec(report.rules), "shoe": shoe_text(report.shoe),
        "engine": report.engine, "exact": report.exact, "split": report.split,
        "ev": float(report.ev), "rtp": 1 + float(report.ev),
        "notes": list(report.notes), "insurance": insurance_json(report.insurance),
        "by_upcard": {format_value(u): float(v) for u, v in report.by_upcard}}
    if report.exact:
        data["ev_exact"] = fraction_text(report.ev)
    if report.levels is not None:
        data["levels"] = levels_json(report.levels)
    if not report.suits:
        data["rank_only"] = True
    return data


def ev_text(report: EvReport) -> str:
    strategy = SPLIT_TITLES.get(report.split, report.split) if report.shoe is not None else \
        "best play of each hand on an infinite deck, where the levels of play meet"
    lines = [f"rules: {format_spec(report.rules)}   (strategy: {strategy})",
             f"shoe:  {shoe_text(report.shoe)}", "",
             " upcard | EV (% of initial bet)", "--------+----------------"]
    lines += [f"   {format_value(u)}    | {float(v) * 100:15.9f}" for u, v in report.by_upcard]
    lines += ["--------+----------------", f" total  | {float(report.ev) * 100:15.9f}"]
    if report.exact:
        lines.append(f"exact EV = {fraction_text(report.ev)}")
    lines.append(f"RTP = {(1 + float(report.ev)) * 100:.9f}%")
    ins = report.insurance
    if ins is None:
        lines.append("insurance: none offered (no ace in the shoe)")
    else:
        lines.append(f"insurance (ace up, full shoe): EV {float(ins.ev) * 100:.6f}% of the "
                     f"insurance bet: {'take' if ins.take else 'decline'}")
    lines += [f"note: {n}" for n in report.notes]
    if report.levels is not None:
        lines += ["", "RTP by level of play:", *levels_text(report.levels)]
    return "\n".join(lines)


def preset_json(preset: Preset) -> PresetJson:
    """A named game: its rules in words and its readings, citing the page that explains them
    (``docs/games.md``, in the repository) beside the operator's rule text it reads."""
    return {"name": preset.name, "title": preset.title, "spec": format_spec(preset.rules),
            "source": preset.source, "readings_doc": READINGS,
            "rules": describe_rules(preset.rules),
            "assumptions": list(preset.assumptions), "published_rtp": preset.published_rtp}


def preset_text(preset: Preset) -> str:
    data = preset_json(preset)
    lines = [f"{data['title']} ({data['name']})", f"spec: {data['spec']}",
             f"rule text: {data['source']}", "", "rules:"]
    lines += [f"  - {r}" for r in data["rules"]]
    lines += ["", f"readings and assumptions ({data['readings_doc']}):"]
    lines += [f"  - {a}" for a in data["assumptions"]]
    if data["published_rtp"]:
        lines.append(f"published RTP: {data['published_rtp']}")
    return "\n".join(lines)


def hand_json(report: HandReport) -> HandJson:
    data: HandJson = {
        "rules": format_spec(report.rules), "shoe": shoe_text(report.shoe),
        "engine": report.engine, "exact": report.exact, "upcard": format_value(report.upcard),
        "cards": [format_value(c) for c in report.cards],
        "split": report.split,
        "conditioned_on_no_dealer_blackjack": report.conditioned,
        "actions": {name: float(v) for name, v in report.actions},
        "best": report.best or None,
        "blackjack": None if report.blackjack is None else float(report.blackjack),
    }
    if report.suits:
        data["by_suits"] = [{"suits": c.label, "chance": float(c.chance),
                             "actions": {name: float(v) for name, v in c.actions},
                             "best": c.best} for c in report.suits]
    if report.exact:
        data["actions_exact"] = {name: fraction_text(v)
                                 for name, v in report.actions}
        if report.blackjack is not None:
            data["blackjack_exact"] = fraction_text(report.blackjack)
    return data


def hand_text(report: HandReport) -> str:
    if report.upcard not in (1, 10):
        cond = "no dealer blackjack possible"
    elif report.conditioned:
        cond = "conditioned on the dealer not having blackjack"
    else:
        cond = "unconditioned: a dealer blackjack is possible"
    shown = "-".join(format_value(c) for c in report.cards)
    lines = [f"rules: {format_spec(report.rules)}",
             f"hand {shown} vs {format_value(report.upcard)}  (EV % of initial bet, {cond})"]
    if report.blackjack is not None:
        lines.append(f"  blackjack {float(report.blackjack) * 100:15.9f}  (a natural: settled at "
                     "once, no decision)")
    for name, v in report.actions:
        mark = "  <- best" if name == report.best else ""
        lines.append(f"  {name:<9} {float(v) * 100:15.9f}{mark}")
    charlie = report.rules.charlie
    if charlie and len(report.cards) == charlie and hand_total(report.cards)[0] <= 21:
        lines.append(f"a {charlie}-card Charlie: the hand takes no more cards and is paid as a "
                     "Charlie (listed as stand)")
    if report.conditioned and report.rules.surrender is Surrender.EARLY and \
            any(name == "surrender" for name, _v in report.actions):
        lines.append("early surrender is made before the peek: the best play weighs it against "
                     "the others with the dealer blackjack in (--unconditioned shows them so)")
    if report.suits:
        lines.append("by the suits you see (the figures above average over them):")
        for case in report.suits:
            evs = dict(case.actions)
            lines.append(f"  {case.label:<52} {float(case.chance):8.2%}  {case.best:<9} "
                         f"{float(evs[case.best]) * 100:15.9f}")
        split = dict(report.actions).get("split")
        if split is not None and all(name != "split" for name, _v in report.suits[0].actions):
            others = sum(float(c.chance) * float(dict(c.actions)[c.best]) for c in report.suits)
            lines.append(f"  split is decided on the ranks (split hands are paid the suit "
                         f"bonuses): {float(split) * 100:.9f} against the cases' "
                         f"{others * 100:.9f}")
    return "\n".join(lines)


def dealer_json(table: DealerTable) -> DealerJson:
    rows: dict[str, dict[str, float | dict[str, float] | dict[str, str]]] = {}
    for r in table.rows:
        row: dict[str, float | dict[str, float] | dict[str, str]] = {
            k: float(v) for k, v in r.outcomes}
        row["bust"] = float(r.bust)
        row["bust_by_cards"] = {str(k): float(v) for k, v in r.bust_by_cards}
        if table.exact:
            row["exact"] = {k: fraction_text(v) for k, v in r.outcomes}
        rows[format_value(r.upcard)] = row
    return {"rules": format_spec(table.rules), "shoe": format_shoe(table.shoe),
            "engine": table.engine, "exact": table.exact, "upcards": rows,
            "note": "unconditioned: the upcard removed from the shoe, blackjack not ruled out"}


def dealer_text(table: DealerTable) -> str:
    data = dealer_json(table)
    lines = [f"rules: {data['rules']}", data["note"], "",
             " up | " + " ".join(f"{c:>9}" for c in DEALER_COLUMNS), "----+" + "-" * 80]
    for u, row in data["upcards"].items():
        lines.append(f"  {u} | " + " ".join(f"{row[c]:9.6f}" for c in DEALER_COLUMNS))
    return "\n".join(lines)


def levels_json(levels: Levels) -> dict[str, LevelJson]:
    """``{name: {"ev", "rtp", "title"} | {"not_computed": reason, "title"}}``."""
    out: dict[str, LevelJson] = {}
    for level in levels.levels:
        entry: LevelJson = {"title": LEVEL_TITLES[level.name]}
        if level.computed:
            entry.update({"ev": float(level.ev), "rtp": 1 + float(level.ev)})
            if levels.exact:
                entry["ev_exact"] = fraction_text(level.ev)
        else:
            entry["not_computed"] = level.reason
        out[level.name] = entry
    return out


def levels_text(levels: Levels) -> list[str]:
    lines = [" level   | RTP (%)          | strategy", "---------+------------------+---------"]
    for level in levels.levels:
        figure = f"{(1 + float(level.ev)) * 100:16.9f}" if level.computed else f"{'-':>16}"
        lines.append(f" {level.name:<7} | {figure} | {LEVEL_TITLES[level.name]}")
        if not level.computed:
            lines.append(f"         |                  | {level.reason}")
    return lines
