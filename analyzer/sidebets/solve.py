"""Solve a pay table: the pay of one event giving a target RTP, and the practical pays near it.

The RTP is linear in each pay, so the exact pay is one rational root; sympy
solves it so the answer is an exact rational however large the shoe's
denominators.  Practical pays are the multiples of ``step`` (1 by default: whole
"to 1" pays) on either side.

>>> from analyzer.sidebets.bets import get_bet
>>> from analyzer.sidebets.paytable import preset
>>> from analyzer.sidebets.suitshoe import SuitShoe
>>> bet = get_bet("any-pair")
>>> s = solve_pay(bet, bet.outcomes(SuitShoe.decks(1)), preset(bet), "pair", Fraction(24, 25))
>>> s.pay, [(str(p), str(r)) for p, r in s.nearest]
(Fraction(383, 25), [('15', '16/17'), ('16', '1')])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.core.errors import ImpossiblePayError, PayTableError
from analyzer.core.limits import MAX_PAY, MAX_TARGET_RTP
from analyzer.core.numbers import parse_rational, shown
from analyzer.sidebets.bets import SideBet
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable, format_pay
from analyzer.sidebets.stats import par_sheet


@dataclass(frozen=True)
class Solution:
    """The exact pay for the target, and the practical pays below and above with their RTPs."""

    event: str
    target_rtp: Fraction
    pay: Fraction
    nearest: tuple[tuple[Fraction, Fraction], ...]  # (pay, rtp), lower pay first


def parse_target(text: str) -> Fraction:
    """``"0.96"``, ``"24/25"`` or ``"96%"``: above 0, at most :data:`MAX_TARGET_RTP`."""
    value = parse_rational(text, "target RTP", PayTableError, percent=True)
    if not 0 < value <= MAX_TARGET_RTP:
        raise PayTableError(f"target RTP {shown(text)} must be above 0 and at most "
                            f"{MAX_TARGET_RTP} ({MAX_TARGET_RTP:.0%})")
    return value


def solve_pay(
    bet: SideBet, outcomes: Outcomes, table: PayTable, event: str, target_rtp: Fraction,
    step: Fraction = Fraction(1),
) -> Solution:
    """The pay of ``event`` (others as in ``table``) whose RTP is exactly ``target_rtp``."""
    if event not in bet.paying:
        raise PayTableError(f"--solve: {bet.name} has no paying event {event!r} "
                            f"(events: {', '.join(bet.paying)})")
    if step <= 0:
        raise PayTableError(f"--step {format_pay(step)} must be positive")
    p_event = outcomes.probability(event)
    if p_event == 0:
        raise ImpossiblePayError(f"--solve: {event!r} cannot occur in this shoe")

    def rtp(pay: Fraction) -> Fraction:
        return par_sheet(bet, outcomes, _with(table, event, pay), "").rtp

    # Imported here: sympy's import would otherwise slow every bja command.
    import sympy  # type: ignore[import-untyped]

    def rational(q: Fraction) -> Any:
        return sympy.Rational(q.numerator, q.denominator)

    x = sympy.Symbol("x")
    equation = sympy.Eq(rational(rtp(Fraction(0))) + x * rational(p_event), rational(target_rtp))
    root = sympy.solve(equation, x)[0]
    pay = Fraction(int(root.p), int(root.q))
    if not -1 <= pay <= MAX_PAY:
        bound = "below -1" if pay < -1 else f"above the bound {MAX_PAY:,} to 1"
        raise ImpossiblePayError(f"--solve: RTP {format_pay(target_rtp)} needs {event} to pay "
                                 f"{float(pay):.4g}, {bound}")
    low, high = math.floor(pay / step) * step, math.ceil(pay / step) * step
    pays = [p for p in dict.fromkeys((Fraction(low), Fraction(high))) if p >= -1]
    return Solution(event, target_rtp, pay, tuple((p, rtp(p)) for p in pays))


def _with(table: PayTable, event: str, pay: Fraction) -> PayTable:
    return PayTable(table.bet, table.name, {**table.pays, event: pay})
