"""The two arithmetics of one algorithm: float (fast) and Fraction (exact).

Every EV is computed by the same code in either arithmetic.  Scalar code is
written generic over :data:`Num`, a type variable constrained to ``float`` and
``Fraction``, so mypy checks each function once per arithmetic and rejects a
float leaking into the exact path; the arithmetic of a call is fixed by its
``one`` argument (``1.0`` or ``Fraction(1)``).  :data:`Number` is the type of a
value whose arithmetic is chosen at run time (``exact=`` of an analysis).
Values read out of numpy object arrays (the vectorised engine) are untyped:
numpy cannot say an object array holds Fractions.

Inside the vectorised engine the exact values are GMP rationals (``gmpy2.mpq``,
:func:`fast_ratio`): the same numbers, which compare and hash equal to their
Fractions and convert to the same floats, with arithmetic an order of magnitude
faster than :mod:`fractions` (it is most of exact mode's time).  Arithmetic mixing
the two gives an ``mpq``.  Results leave the engine as Fractions (:func:`public`,
applied where the engine's results are built); the formatters accept either
(:func:`is_exact`), so a value that is still an ``mpq`` prints the same digits.

>>> unit(True), unit(False), ratio(1, 3, Fraction(1)), ratio(1, 4, 1.0)
(Fraction(1, 1), 1.0, Fraction(1, 3), 0.25)
>>> q = fast_ratio(2, 6); q == Fraction(1, 3), public(q), is_exact(q), is_exact(0.5)
(True, Fraction(1, 3), True, False)
"""

from __future__ import annotations

import sys
from fractions import Fraction
from functools import cache
from typing import Any, Literal, TypeAlias, TypeGuard, TypeVar, cast, overload

Num = TypeVar("Num", float, Fraction)
T = TypeVar("T")
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


def quotient(num: int, den: int, exact: bool) -> Number:
    """``num / den`` as a Fraction, or its float: int / int is correctly rounded, so the
    float is the Fraction's, without building the Fraction."""
    return Fraction(num, den) if exact else num / den


def as_number(value: Fraction, exact: bool) -> Number:
    """An exact value, or its float in the float arithmetic."""
    return value if exact else float(value)


@cache
def gmp_rational() -> type:
    """The GMP rational type, ``gmpy2.mpq`` (its constructor takes ``num, den``).

    Imported at the first exact computation, not with the package: gmpy2 loads GMP,
    MPFR and MPC, about 4 MB in every process, which a float analysis has no use for.
    """
    from gmpy2 import mpq

    loaded: type = mpq
    return loaded


def fast_ratio(num: int, den: int) -> Any:
    """``num / den`` as the engine's fast exact type (a GMP rational, ``gmpy2.mpq``)."""
    return gmp_rational()(num, den)


def _is_gmp(x: object) -> bool:
    """Whether ``x`` is a GMP rational (none can exist before gmpy2 is loaded)."""
    return "gmpy2" in sys.modules and isinstance(x, gmp_rational())


def is_exact(x: object) -> TypeGuard[Fraction]:
    """Whether ``x`` is an exact rational of the engine: a Fraction or a GMP rational.

    Typed as a Fraction: a GMP rational has the same arithmetic, comparisons,
    ``numerator`` and ``denominator`` (gmpy2 ships no type stubs).
    """
    return isinstance(x, Fraction) or _is_gmp(x)


def public(x: T) -> T:
    """A GMP rational as the Fraction it equals; anything else unchanged.

    Where the engine's exact results are handed out: a caller sees one exact type,
    :class:`fractions.Fraction`, whichever arithmetic computed it.
    """
    if _is_gmp(x):
        q: Any = x
        return cast(T, Fraction(int(q.numerator), int(q.denominator)))
    return x
