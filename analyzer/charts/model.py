"""The chart model: rows x upcards -> codes, with the rules, legend and figures around it.

One :class:`Chart` is what every renderer draws and what a chart file holds, so
the five output formats cannot disagree.  A chart has one or more sections:
the first is the chart for the ordinary (real-money) hand; games with a second
kind of hand (Free Bet's free-bet hand after a split) add a section for it.

Rows are keyed by :class:`RowKey`: hard totals ``H4``..``H21``, soft totals
``S12``..``S21``, pairs ``P2``..``P9``, ``PT``, ``PA``, and rows qualified by
the number of cards (``H16/5``: hard 16 of exactly five cards) where the card
count changes the play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Action
from analyzer.core.cards import format_value
from analyzer.core.errors import ChartError
from analyzer.core.numbers import parse_whole, shown
from analyzer.core.rules import Rules

UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # chart column order: 2..9, T, A
UPCARD_LABELS = tuple(format_value(u) for u in UPCARDS)

LEGEND: Mapping[str, str] = MappingProxyType({
    "H": "hit",
    "S": "stand",
    "D": "double if allowed, otherwise hit",
    "Ds": "double if allowed, otherwise stand",
    "P": "split",
    "Ph": "split if double after split is allowed, otherwise hit",
    "R": "surrender if allowed, otherwise hit",
    "Rs": "surrender if allowed, otherwise stand",
    "Rp": "surrender if allowed, otherwise split",
})
CODES = tuple(LEGEND)
# The action each code names first, and its fallback where that action is not an option.
CODE_ACTIONS: Mapping[str, tuple[Action, Action]] = MappingProxyType({
    "H": (HIT, HIT), "S": (STAND, STAND), "D": (DOUBLE, HIT), "Ds": (DOUBLE, STAND),
    "P": (SPLIT, HIT), "Ph": (SPLIT, HIT), "R": (SURRENDER, HIT), "Rs": (SURRENDER, STAND),
    "Rp": (SURRENDER, SPLIT),
})
# Cell colours of the HTML and PNG charts, after the printed strategy cards.
COLOURS: Mapping[str, str] = MappingProxyType({
    "H": "#ffffff", "S": "#f6d55c", "D": "#4f9fe0", "Ds": "#9cc9f0", "P": "#5cb85c",
    "Ph": "#ade0ad", "R": "#e0606b", "Rs": "#f0a6ab", "Rp": "#c98bd9",
})
PAIR_ONLY_CODES = frozenset({"P", "Ph", "Rp"})
_CANONICAL = {c.upper(): c for c in CODES}

LOOKUP_RULES = (
    "A hand of 21 stands where the rules stand it automatically; a Charlie hand stops.",
    "A pair row is used only for a two-card pair that may be split right now; its code "
    "is the decision.",
    "Every other hand uses the hard or soft row of its total (a row qualified by the number "
    "of cards, such as H16/5, when the chart has one for the hand's card count).",
    "D/Ds fall back to hit/stand where doubling is not allowed (three or more cards, after "
    "a split without DAS, split aces); R/Rs/Rp fall back to hit/stand/split where "
    "surrender is not allowed.",
    "Free Bet: a D on a two-card hard 9-11 is the free double, a P on a pair A-9 the free "
    "split.",
    "A missing H4 row uses H5; a missing S12 hits; missing H21/S21 stand; a missing pair "
    "row means that pair is played by its total.",
)


def canonical_code(text: str) -> str | None:
    """The code as the legend spells it (case-insensitive), or None if unknown."""
    return _CANONICAL.get(text.strip().upper())


@dataclass(frozen=True, order=True)
class RowKey:
    """A chart row: ``kind`` H (hard), S (soft) or P (pair); ``total`` (pair: card value)."""

    kind: str
    total: int
    cards: int | None = None  # exactly this many cards (None: any number)

    @property
    def label(self) -> str:
        if self.kind == "P":
            return "P" + format_value(self.total)
        qualifier = "" if self.cards is None else f"/{self.cards}"
        return f"{self.kind}{self.total}{qualifier}"

    @property
    def base(self) -> RowKey:
        return RowKey(self.kind, self.total)

    def sort_key(self) -> tuple[int, int, int]:
        """Chart order: hard, soft, then pairs 2..T, A; qualified rows after their base row."""
        kind = "HSP".index(self.kind)
        total = 11 if self.kind == "P" and self.total == 1 else self.total
        return kind, total, self.cards or 0

    def describe(self) -> str:
        if self.kind == "P":
            v = format_value(self.total)
            return f"pair {v},{v}"
        words = "hard" if self.kind == "H" else "soft"
        cards = "" if self.cards is None else f" ({self.cards} cards)"
        return f"{words} {self.total}{cards}"


_LABEL = re.compile(r"([HS])(\d+)(?:/(\d+))?|P(10|[2-9TA1])")


def parse_label(text: str) -> RowKey:
    """``H16`` -> hard 16, ``S18``, ``PT``/``P10``, ``PA``, ``H16/5`` (five cards)."""
    m = _LABEL.fullmatch(text.strip().upper())
    if m is None:
        raise ChartError(f"unknown row label {text!r} (use H4..H21, S12..S21, P2..P9, PT, PA)")
    if m.group(4) is not None:
        symbol = m.group(4)
        value = 1 if symbol in ("A", "1") else 10 if symbol in ("T", "10") else int(symbol)
        return RowKey("P", value)
    kind, total = m.group(1), parse_whole(m.group(2), f"row label {shown(text)}", ChartError,
                                          minimum=None)
    low = 4 if kind == "H" else 12
    if not low <= total <= 21:
        raise ChartError(f"row label {text!r}: a {'hard' if kind == 'H' else 'soft'} total "
                         f"must be {low}..21")
    cards = None if m.group(3) is None else parse_whole(
        m.group(3), f"row label {shown(text)}: card count", ChartError, minimum=None)
    if cards is not None and not 3 <= cards <= 21:
        raise ChartError(f"row label {text!r}: a card-count qualifier must be 3..21")
    return RowKey(kind, total, cards)


def standard_rows(pairs: bool = True) -> tuple[RowKey, ...]:
    """The rows of a full chart: hard 4-21, soft 12-21, and the pairs when splits exist."""
    rows = [RowKey("H", t) for t in range(4, 22)] + [RowKey("S", t) for t in range(12, 22)]
    if pairs:
        rows += [RowKey("P", v) for v in (*range(2, 11), 1)]
    return tuple(rows)


# Rows a chart may leave out, and what a hand of that row then does.
OPTIONAL_ROWS = frozenset({RowKey("H", 4), RowKey("S", 12), RowKey("H", 21), RowKey("S", 21)})


@dataclass(frozen=True)
class Section:
    """One grid of codes: ``rows[key][i]`` is the code against ``UPCARDS[i]``."""

    name: str  # "main"; a Free Bet chart adds "free-bet-hand"
    title: str
    rows: Mapping[RowKey, tuple[str, ...]]
    # Per cell, the EV (per unit bet, averaged over the row's hands) of each candidate code.
    evs: Mapping[tuple[RowKey, int], Mapping[str, float]] = field(default_factory=dict)
    # Cells whose double or split is free (Free Bet), marked by the renderers.
    free: frozenset[tuple[RowKey, int]] = frozenset()

    def ordered(self) -> list[tuple[RowKey, tuple[str, ...]]]:
        return sorted(self.rows.items(), key=lambda kv: kv[0].sort_key())

    def code(self, key: RowKey, upcard: int) -> str:
        return self.rows[key][UPCARDS.index(upcard)]


@dataclass(frozen=True)
class Evaluation:
    """Exact EV of the chart as written, beside the CDZ- optimum of the same rules."""

    chart_ev: float
    optimum_ev: float
    by_upcard: Mapping[int, float]

    @property
    def gap(self) -> float:
        """Chart minus optimum (<= 0): what playing the chart instead of CDZ- costs."""
        return self.chart_ev - self.optimum_ev


@dataclass(frozen=True)
class Chart:
    """A strategy chart for one rule set: sections, title, and (if computed) its figures."""

    rules: Rules
    sections: tuple[Section, ...]
    title: str
    evaluation: Evaluation | None = None
    notes: tuple[str, ...] = ()

    @property
    def main(self) -> Section:
        return self.sections[0]

    def section(self, name: str) -> Section:
        for s in self.sections:
            if s.name == name:
                return s
        raise ChartError(f"the chart has no section {name!r}")


def validate_rows(rows: Mapping[RowKey, tuple[str, ...]], where: str = "chart") -> None:
    """Every non-optional hard and soft row present, ten known codes, pair codes on pairs."""
    for key, codes in rows.items():
        if len(codes) != len(UPCARDS):
            raise ChartError(f"{where}: row {key.label} has {len(codes)} codes, expected 10")
        for code in codes:
            if code not in LEGEND:
                raise ChartError(f"{where}: row {key.label}: unknown code {code!r}")
            if code in PAIR_ONLY_CODES and key.kind != "P":
                raise ChartError(f"{where}: row {key.label}: code {code} is for pair rows only")
    for key in standard_rows(pairs=False):
        if key not in rows and key not in OPTIONAL_ROWS:
            raise ChartError(f"{where}: missing row {key.label}")
