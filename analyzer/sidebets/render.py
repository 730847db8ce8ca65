"""Renderers of par sheets and pay solutions: pure functions from figures to text.

Decimals are rounded from the exact fractions (never through a float), so a
table is byte-identical on every machine.

>>> fixed(Fraction(-1, 3), 4), fixed(Fraction(2, 3), 2), percent(Fraction(1, 8))
('-0.3333', '0.67', '12.5000%')
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NotRequired, TypedDict

from analyzer.sidebets.paytable import PayTable, format_pay
from analyzer.sidebets.protection import Protection, rank_name
from analyzer.sidebets.solve import Solution
from analyzer.sidebets.stats import (
    CONFIDENCES,
    ROUNDS,
    ParSheet,
    RiskJson,
    rtp_interval,
    volatility_index,
)
from analyzer.sidebets.suitshoe import RANK_SYMBOLS
from analyzer.util.text import fixed, fraction_text, md_literal, md_table, percent, text_table

PLACES = 12  # decimals of probabilities and returns


def _one_in(sheet: ParSheet) -> str:
    top = sheet.top
    odds = "never (impossible in this shoe)" if top.probability == 0 else \
        f"1 in {float(1 / top.probability):,.1f}"
    return f"{top.label} ({format_pay(top.pays)} to 1): {odds}"


def _event_rows(sheet: ParSheet, exact: bool) -> list[list[str]]:
    rows = [[e.label, format_pay(e.pays), f"{e.combinations:,}", fixed(e.probability, PLACES)]
            + ([fraction_text(e.probability)] if exact else []) + [fixed(e.ret, PLACES)]
            for e in sheet.events]
    rows.append(["total", "", f"{sheet.deals:,}", fixed(Fraction(1), PLACES)]
                + (["1"] if exact else []) + [fixed(sheet.ev, PLACES)])
    return rows


def _event_header(exact: bool) -> list[str]:
    return (["event", "pays", "combinations", "probability"] + (["exact"] if exact else [])
            + ["return"])


def _figure_rows(sheet: ParSheet) -> list[list[str]]:
    vi = " / ".join(f"{volatility_index(sheet, c):.4f}" for c in CONFIDENCES)
    return [
        ["expected value per unit bet", f"{fixed(sheet.ev, 8)} ({fraction_text(sheet.ev)})"],
        ["RTP", percent(sheet.rtp)],
        ["house edge", percent(-sheet.ev)],
        ["hit frequency", percent(sheet.hit_frequency)],
        ["variance per unit bet", fixed(sheet.variance, 6)],
        ["standard deviation per unit bet", f"{sheet.sd:.6f}"],
        ["top award", _one_in(sheet)],
        ["volatility index 90% / 95% / 99%", vi],
    ]


def _interval_rows(sheet: ParSheet) -> list[list[str]]:
    rows = []
    for n in ROUNDS:
        cells = [f"{n:,}"]
        for c in CONFIDENCES:
            low, high = rtp_interval(sheet, n, c)
            cells.append(f"{100 * low:.4f}% .. {100 * high:.4f}%")
        rows.append(cells)
    return rows


_INTERVAL_HEADER = ["rounds", *(f"{round(100 * c)}%" for c in CONFIDENCES)]


def _heading(sheet: ParSheet, shown: Callable[[str], str] = str) -> str:
    """``shown``: how text from a pay-table file is written (Markdown: as written)."""
    return f"{sheet.title} — {sheet.shoe}, pay table {shown(sheet.paytable)}"


def _about(sheet: ParSheet, shown: Callable[[str], str] = str) -> str:
    about = f"Combinations: {sheet.unit}; {sheet.deals:,} in all. Pays are \"to 1\"."
    if sheet.table_title:
        about += f" Pay table {shown(sheet.paytable)}: {shown(sheet.table_title)}"
        about += f"; source: {shown(sheet.source)}." if sheet.source else "."
    return about


def render_text(sheet: ParSheet) -> str:
    """The terminal report."""
    lines = [_heading(sheet), _about(sheet), ""]
    lines += text_table(_event_header(False), _event_rows(sheet, exact=False)) + [""]
    lines += [f"{k}: {v}" for k, v in _figure_rows(sheet)] + ["", "RTP after n rounds:"]
    lines += text_table(_INTERVAL_HEADER, _interval_rows(sheet)) + [""]
    if sheet.protection is not None:
        lines += ["Game protection:"] + _protection_lines(sheet.protection, text_table) + [""]
    lines += [f"note: {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"


def render_markdown(sheet: ParSheet) -> str:
    """The par sheet as a Markdown page (``tables/sidebets/*.md``)."""
    lines = [f"# {_heading(sheet, md_literal)}", "", _about(sheet, md_literal), ""]
    lines += md_table(_event_header(True), _event_rows(sheet, exact=True)) + [""]
    lines += md_table(["figure", "value"], _figure_rows(sheet)) + [""]
    lines += ["## Confidence interval of the RTP", ""]
    lines += md_table(_INTERVAL_HEADER, _interval_rows(sheet)) + [""]
    if sheet.protection is not None:
        lines += ["## Game protection", ""] + _protection_lines(sheet.protection, md_table)
        lines += [""]
    lines += ["## Assumptions", ""]
    lines += [f"- {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"


def render_csv(sheet: ParSheet) -> str:
    """One row per outcome and a total row; probabilities exact and decimal."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["event", "label", "pays", "combinations", "probability",
                     "probability_exact", "return", "return_exact"])
    for e in sheet.events:
        writer.writerow([e.name, e.label, format_pay(e.pays), e.combinations,
                         fixed(e.probability, PLACES), fraction_text(e.probability),
                         fixed(e.ret, PLACES), fraction_text(e.ret)])
    writer.writerow(["total", "all outcomes", "", sheet.deals, fixed(Fraction(1), PLACES), "1/1",
                     fixed(sheet.ev, PLACES), fraction_text(sheet.ev)])
    return out.getvalue()


def _number(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


# "return" is a keyword: the functional form.
EventJson = TypedDict("EventJson", {
    "name": str, "label": str, "pays": int | float, "combinations": int, "probability": str,
    "return": float, "return_exact": str})


class TopAwardJson(TypedDict):
    """The highest pay the shoe can deal: ``events`` paying it (``event`` the first), the
    chance of any of them as ``one_in`` (None: none can be dealt)."""

    event: str
    events: list[str]
    label: str
    pays: int | float
    one_in: float | None


class EffectJson(TypedDict):
    """One effect of removal: ``rank`` (by rank) or ``card`` (by physical card) with it."""

    copies: int
    eor: float
    eor_exact: str


class RankEffectJson(EffectJson):
    rank: str


class CardEffectJson(EffectJson):
    card: str


class CountJson(TypedDict):
    level: int
    tags: dict[str, int]
    betting_correlation: float
    slope: float
    trigger: float | None
    best: bool


class CounterJson(TypedDict):
    shoes: int
    rounds: int
    seed: int
    penetration: float
    positive: float
    win_per_100: float
    win_per_100_se: float
    edge_when_bet: float | None
    top_mean: float
    top_se: float


class ProtectionJson(TypedDict):
    """``bja sidebet --protection --json``: the game-protection figures."""

    ev_exact: str
    suits_pay: bool
    rank_effects: list[RankEffectJson]
    card_effects: list[CardEffectJson]
    counts: list[CountJson]
    simulated: CounterJson | None


class SheetJson(RiskJson):
    """``bja sidebet --json``: the par sheet."""

    bet: str
    shoe: str
    paytable: str
    unit: str
    deals: int
    events: list[EventJson]
    ev: float
    ev_exact: str
    rtp: float
    rtp_exact: str
    house_edge: float
    hit_frequency: float
    hit_frequency_exact: str
    variance: float
    variance_exact: str
    sd: float
    top_award: TopAwardJson
    notes: list[str]
    protection: NotRequired[ProtectionJson]


class NearestJson(TypedDict):
    pays: int | float
    rtp: float
    rtp_exact: str


class SolutionJson(TypedDict):
    """``bja sidebet --solve EVENT --json``: the exact pay and the practical ones nearby."""

    bet: str
    shoe: str
    paytable: str
    event: str
    target_rtp: float
    target_rtp_exact: str
    pay: float
    pay_exact: str
    nearest: list[NearestJson]
    notes: list[str]


def sheet_data(sheet: ParSheet) -> SheetJson:
    """The par sheet as JSON-ready data."""
    top = sheet.top
    data: SheetJson = {
        "bet": sheet.bet, "shoe": sheet.shoe, "paytable": sheet.paytable,
        "unit": sheet.unit, "deals": sheet.deals,
        "events": [{"name": e.name, "label": e.label, "pays": _number(e.pays),
                    "combinations": e.combinations, "probability": fraction_text(e.probability),
                    "return": float(e.ret), "return_exact": fraction_text(e.ret)}
                   for e in sheet.events],
        "ev": float(sheet.ev), "ev_exact": fraction_text(sheet.ev),
        "rtp": float(sheet.rtp), "rtp_exact": fraction_text(sheet.rtp),
        "house_edge": float(-sheet.ev),
        "hit_frequency": float(sheet.hit_frequency),
        "hit_frequency_exact": fraction_text(sheet.hit_frequency),
        "variance": float(sheet.variance), "variance_exact": fraction_text(sheet.variance),
        "sd": sheet.sd,
        "top_award": {"event": top.name, "events": list(top.names), "label": top.label,
                      "pays": _number(top.pays),
                      "one_in": float(1 / top.probability) if top.probability else None},
        "volatility_index": {f"{round(100 * c)}%": volatility_index(sheet, c)
                             for c in CONFIDENCES},
        "rtp_interval": [{"rounds": n, **{f"{round(100 * c)}%": list(rtp_interval(sheet, n, c))
                                          for c in CONFIDENCES}} for n in ROUNDS],
        "notes": list(sheet.notes),
    }
    if sheet.protection:
        data["protection"] = protection_data(sheet.protection)
    return data


def render_json(sheet: ParSheet) -> str:
    return json.dumps(sheet_data(sheet), indent=2) + "\n"


def solution_data(sheet: ParSheet, solution: Solution) -> SolutionJson:
    return {
        "bet": sheet.bet, "shoe": sheet.shoe, "paytable": sheet.paytable,
        "event": solution.event, "target_rtp": float(solution.target_rtp),
        "target_rtp_exact": fraction_text(solution.target_rtp),
        "pay": float(solution.pay), "pay_exact": fraction_text(solution.pay),
        "nearest": [{"pays": _number(p), "rtp": float(r), "rtp_exact": fraction_text(r)}
                    for p, r in solution.nearest],
        "notes": list(sheet.notes),
    }


def render_solution_json(sheet: ParSheet, solution: Solution) -> str:
    return json.dumps(solution_data(sheet, solution), indent=2) + "\n"


def render_solution_text(sheet: ParSheet, solution: Solution) -> str:
    """The exact pay for the target RTP and the practical pays on either side."""
    lines = [
        _heading(sheet),
        f"{solution.event} pays exactly {format_pay(solution.pay)} "
        f"(= {fixed(solution.pay, 6)}) to 1 for an RTP of {percent(solution.target_rtp)}, "
        "the other pays unchanged",
    ]
    lines += [f"  {format_pay(p)} to 1: RTP {percent(r)}" for p, r in solution.nearest]
    lines += [f"note: {n}" for n in sheet.notes]
    return "\n".join(lines) + "\n"


# --- game protection ------------------------------------------------------------------------

EOR_PLACES = 8
Table = Callable[[Sequence[str], Sequence[Sequence[str]]], list[str]]


def _trigger(x: float | None) -> str:
    return "never (no linear count)" if x is None else f"{x:+.2f}"


def _protection_lines(pro: Protection, table: Table) -> list[str]:
    """Effects of removal, the counts and the simulated counter, in ``table``'s format."""
    out = [f"Return off the top: {fixed(pro.ev, EOR_PLACES)} per unit bet. Effect of removal "
           "(EOR): the exact change of that return when one card leaves the shoe (by "
           "suit where suits pay, else one value per rank); copies x EOR sums to 0.", ""]
    suits = "SHDC"
    by_card = {c: e for c, _, e in pro.card_effects}
    header = ["rank", "copies", "EOR"] + ([f"EOR {s}" for s in suits] if pro.suits_pay else [])
    header += [f"level {c.level}" for c in pro.counts]
    rows = []
    for rank, copies, e in pro.rank_effects:
        row = [rank_name(rank), f"{copies:,}", fixed(e, EOR_PLACES)]
        if pro.suits_pay:
            row += [fixed(by_card[(rank, s)], EOR_PLACES) if (rank, s) in by_card else ""
                    for s in range(4)]
        row += [f"{c.tags[rank - 1]:+d}" for c in pro.counts]
        rows.append(row)
    out += table(header, rows) + [""]
    out += table(["count", "betting correlation", "return per true count", "turns positive at "
                  "true count"],
                 [[f"level {c.level}" + (" (best)" if c == pro.best else ""),
                   f"{c.correlation:.4f}", f"{c.slope:+.6f}", _trigger(c.trigger)]
                  for c in pro.counts]) + [""]
    out.append("True count: the running count less the average tag per card dealt, per 52 "
               "cards left; the return at a true count is the linear estimate from the EORs.")
    sim = pro.simulated
    if sim is None:
        return out
    edge = "no round bet" if sim.edge_when_bet is None else f"{100 * sim.edge_when_bet:+.3f}%"
    out += ["", f"A counter using the level-{pro.best.level} count, betting 1 unit only at a true "
            f"count at or above {_trigger(pro.best.trigger)} (simulated):", ""]
    out += table(["figure", "value"], [
        ["shoes dealt (seed)", f"{sim.shoes:,} ({sim.seed})"],
        ["penetration (cut card)", f"{float(sim.penetration):.2%} of the shoe"],
        ["rounds dealt", f"{sim.rounds:,}"],
        ["rounds at or above the trigger", f"{100 * sim.positive:.3f}%"],
        ["average result of the rounds bet", edge],
        ["units won per 100 rounds dealt", f"{sim.win_per_100:+.4f} (SE {sim.win_se:.4f})"],
        ["first round of each shoe, always bet (check)",
         f"{sim.top_mean:+.5f} (SE {sim.top_se:.5f}; exact {fixed(pro.ev, 5)})"],
    ])
    out += ["", "Each simulated round deals the player two cards and the dealer two, the dealer "
            "draws to 17, then one more player card; the player's other hits are not dealt."]
    return out


def protection_data(pro: Protection) -> ProtectionJson:
    """The game-protection figures as JSON-ready data (EORs exact and decimal)."""
    sim = pro.simulated
    return {
        "ev_exact": fraction_text(pro.ev),
        "suits_pay": pro.suits_pay,
        "rank_effects": [{"rank": rank_name(r), "copies": n, "eor": float(e),
                          "eor_exact": fraction_text(e)} for r, n, e in pro.rank_effects],
        "card_effects": [{"card": rank_name(c[0]) + "SHDC"[c[1]], "copies": n, "eor": float(e),
                          "eor_exact": fraction_text(e)} for c, n, e in pro.card_effects],
        "counts": [{"level": c.level, "tags": dict(zip(RANK_SYMBOLS, c.tags, strict=True)),
                    "betting_correlation": c.correlation, "slope": c.slope,
                    "trigger": c.trigger, "best": c == pro.best} for c in pro.counts],
        "simulated": None if sim is None else {
            "shoes": sim.shoes, "rounds": sim.rounds, "seed": sim.seed,
            "penetration": float(sim.penetration), "positive": sim.positive,
            "win_per_100": sim.win_per_100, "win_per_100_se": sim.win_se,
            "edge_when_bet": sim.edge_when_bet, "top_mean": sim.top_mean,
            "top_se": sim.top_se},
    }


def paytables_data(tables: Sequence[PayTable], paying: Sequence[str]) -> list[dict[str, Any]]:
    """``--list-paytables --json``: each shipped table as data, pays as ``format_pay`` text."""
    return [{"name": f"{t.bet}:{t.name}", "title": t.title, "source": t.source,
             "pays": {e: format_pay(t.pays[e]) for e in paying}} for t in tables]


def render_paytables(tables: Sequence[PayTable], paying: Sequence[str]) -> str:
    """``--list-paytables``: each shipped table's name, title, source and pays."""
    lines = []
    for t in tables:
        lines.append(f"{t.bet}:{t.name} — {t.title}")
        lines.append(f"  source: {t.source}")
        lines.append("  pays: " + ", ".join(f"{e} {format_pay(t.pays[e])}" for e in paying))
    return "\n".join(lines) + "\n"
