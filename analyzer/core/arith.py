"""The two arithmetics of one algorithm: float (fast) and Fraction (exact).

Every EV is computed by the same code in either arithmetic.  Scalar code is
written generic over :data:`Num`, a type variable constrained to ``float`` and
``Fraction``, so mypy checks each function once per arithmetic and rejects a
float leaking into the exact path; the arithmetic of a call is fixed by its
``one`` argument (``1.0`` or ``Fraction(1)``).  :data:`Number` is the type of a
value whose arithmetic is chosen at run time (``exact=`` of an analysis).
Values read out of numpy object arrays (the vectorised engine) are untyped:
numpy cannot say an object array holds Fractions.

>>> unit(True), unit(False), ratio(1, 3, Fraction(1)), ratio(1, 4, 1.0)
(Fraction(1, 1), 1.0, Fraction(1, 3), 0.25)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, TypeAlias, TypeVar, overload

Num = TypeVar("Num", float, Fraction)
Number: TypeAlias = float | Fraction


@overload
def unit(exact: Literal[True]) -> Fraction: ...
@overload
def unit(exact: Literal[False]) -> float: ...
@overload
def unit(exact: bool) -> Number: ...
def unit(exact: bool) -> Number:
    """The number one in the chosen arithmetic."""
    return Fraction(1) if exact else 1.0


def ratio(num: int, den: int, one: Num) -> Num:
    """``num / den`` in the arithmetic of ``one``."""
    return num * one / den


def as_number(value: Fraction, exact: bool) -> Number:
    """An exact value, or its float in the float arithmetic."""
    return value if exact else float(value)
