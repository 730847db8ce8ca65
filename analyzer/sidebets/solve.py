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
from analyzer.sidebets.bets import SideBet
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable, exponent_ok, format_pay
from analyzer.sidebets.stats import par_sheet


@dataclass(frozen=True)
class Solution:
    """The exact pay for the target, and the practical pays below and above with their RTPs."""

    event: str
    target_rtp: Fraction
    pay: Fraction
    nearest: tuple[tuple[Fraction, Fraction], ...]  # (pay, rtp), lower pay first


def parse_target(text: str) -> Fraction:
    """``"0.96"``, ``"24/25"`` or ``"96%"``."""
    raw = text.strip()
    if not exponent_ok(raw):
        raise PayTableError(f"target RTP {text!r} is not a number")
    try:
        value = Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise PayTableError(f"target RTP {text!r} is not a number") from None
    if value <= 0:
        raise PayTableError(f"target RTP {text!r} must be positive")
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

    # Imported here: sympy's 0.2 s import would otherwise slow every bja command.
    import sympy  # type: ignore[import-untyped]

    def rational(q: Fraction) -> Any:
        return sympy.Rational(q.numerator, q.denominator)

    x = sympy.Symbol("x")
    equation = sympy.Eq(rational(rtp(Fraction(0))) + x * rational(p_event), rational(target_rtp))
    root = sympy.solve(equation, x)[0]
    pay = Fraction(int(root.p), int(root.q))
    if pay < -1:
        raise ImpossiblePayError(f"--solve: RTP {format_pay(target_rtp)} needs {event} to pay "
                            f"{float(pay):.4f}, below -1")
    low, high = math.floor(pay / step) * step, math.ceil(pay / step) * step
    pays = [p for p in dict.fromkeys((Fraction(low), Fraction(high))) if p >= -1]
    return Solution(event, target_rtp, pay, tuple((p, rtp(p)) for p in pays))


def _with(table: PayTable, event: str, pay: Fraction) -> PayTable:
    return PayTable(table.bet, table.name, {**table.pays, event: pay})
