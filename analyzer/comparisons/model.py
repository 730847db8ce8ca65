"""The model every comparison renderer reads: rows of figures, computed once.

A :class:`Row` holds what the engine computed for one rule set (:class:`Figures`)
and its difference from the base.  Columns beyond the EV are optional
(``chart_ev``, and whatever later levels add to :attr:`Figures.extra`, e.g. a
standard deviation or the CDP EV): renderers show a column only when some row
has it, so adding a figure never changes a renderer.

Units: every EV and difference is per unit initial bet (as ``bja ev --json``);
text renderers print percentages and percentage points.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.version import ENGINE


@dataclass(frozen=True)
class Figures:
    """What the engine computed for one rule set."""

    ev: float  # EV of a round at the comparison's split level, per unit initial bet
    ev_exact: Fraction | None = None  # the same as a fraction (``--exact``)
    chart_ev: float | None = None  # exact EV of the rules' own total-dependent chart
    extra: tuple[tuple[str, float], ...] = ()  # later columns: (key, value) pairs
    extra_exact: tuple[tuple[str, Fraction], ...] = ()  # the same as fractions (``--exact``)

    @property
    def value(self) -> Fraction:
        """The EV as an exact rational: the fraction, or the float's exact value."""
        return self.ev_exact if self.ev_exact is not None else Fraction(self.ev)

    @property
    def chart_gap(self) -> float | None:
        """Chart EV minus the optimum (<= 0): what playing the chart costs."""
        return None if self.chart_ev is None else self.chart_ev - self.ev


@dataclass(frozen=True)
class Contribution:
    """One rule's share of a difference between two games (exact rationals)."""

    rule: str  # component name, e.g. "surrender"
    change: str  # e.g. "LS -> NS"
    shapley: Fraction  # averaged over every valid order of applying the changes
    alone: Fraction | None  # applied first, to the source game (None: invalid there)
    last: Fraction | None  # applied last, completing the target game (None: invalid)


@dataclass(frozen=True)
class Interaction:
    """A Harsanyi dividend: what a set of rules does together beyond its subsets."""

    rules: tuple[str, ...]
    dividend: Fraction


@dataclass(frozen=True)
class Explanation:
    """The difference ``target - source`` split rule by rule (Shapley attribution)."""

    source: str  # canonical specs
    target: str
    total: Fraction
    contributions: tuple[Contribution, ...]
    interactions: tuple[Interaction, ...] = ()
    invalid: tuple[tuple[str, str], ...] = ()  # (rules changed from the source, why invalid)
    orders: int = 0  # valid orders of applying the changes averaged over
    all_orders: int = 0  # every order (n!)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    """One rule set of a comparison and its difference from the base."""

    name: str
    rules: str | None  # canonical spec; None when the variant is not a valid rule set
    change: str | None = None  # effects mode: what was changed, e.g. "S17 -> H17"
    error: str | None = None  # why this row has no figures
    figures: Figures | None = None
    delta: Fraction | None = None  # EV minus the base EV (exact rational)
    explanation: Explanation | None = None  # explain mode: previous row -> this row

    @property
    def ok(self) -> bool:
        return self.figures is not None


@dataclass(frozen=True)
class Comparison:
    """A finished comparison: the base, every row, and how it was computed."""

    mode: str  # "grid", "effects" or "explain"
    base: str  # canonical spec of the base rule set
    base_name: str
    base_figures: Figures | None
    rows: tuple[Row, ...]
    exact: bool = False
    charts: bool = True
    shoe: str | None = None  # a fixed shoe for every row (library use); None: full decks
    notes: tuple[str, ...] = ()
    engine: str = ENGINE

    @property
    def failed(self) -> int:
        return sum(1 for r in self.rows if not r.ok)
