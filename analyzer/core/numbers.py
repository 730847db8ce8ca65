"""Numbers read from user text: length-checked before they are converted, named when bad.

Python refuses to turn a string of more than 4,300 digits into an ``int`` (a
bare ``ValueError``), and below that limit a long digit string or a large
exponent (``1e999999999``) costs time and memory out of all proportion; no
count, payout or seed the project reads needs more than a few dozen digits.
So every number read from user text (rule specs, shoes, cards, pay tables,
grids and count files, command-line options) goes through this module, which
checks the length first and raises the caller's own error class, with a
message that names the field and the value (shortened if long).  The rule is
defined here once: at most :data:`MAX_DIGITS` digits in one number, an
exponent of at most :data:`MAX_EXPONENT` (so ``1e160`` is read, to be refused
by the field's bound, and ``1e999999999`` is not), ASCII digits only (``int`` would
also read ``'٣'``, which no notation of the project uses).

>>> from analyzer.core.errors import UsageError
>>> parse_whole("1_000_000", "--rounds", UsageError, scientific=True)
1000000
>>> parse_whole("1e9", "--rounds", UsageError, scientific=True)
1000000000
>>> parse_whole("12", "--jobs", UsageError, maximum=8)
Traceback (most recent call last):
analyzer.core.errors.UsageError: --jobs must be a whole number 0 to 8, not '12'
>>> parse_rational("15/2", "pay", UsageError), parse_rational("0.1", "pay", UsageError)
(Fraction(15, 2), Fraction(1, 10))
>>> check_digits("9" * 31 + "D", "rule spec", UsageError)  # doctest: +ELLIPSIS
Traceback (most recent call last):
analyzer.core.errors.UsageError: rule spec '9999...' (32 characters) has a number of 31 digits;...
"""

from __future__ import annotations

import re
from fractions import Fraction

from analyzer.core.errors import AnalyzerError

MAX_DIGITS = 30  # digits in one number a user types (a count, a pay, a bound)
MAX_EXPONENT = 1000  # |n| in "1e<n>": a 1000-digit power of ten is cheap, a bound refuses it
SHOWN = 24  # characters of a long value echoed in a message

_DIGIT_RUN = re.compile(r"\d+")  # any Unicode decimal digit: what a \d pattern reads
_WHOLE = re.compile(r"[+-]?[0-9](?:_?[0-9])*")
_DECIMAL = re.compile(r"([+-]?)([0-9](?:_?[0-9])*)?(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_RATIO = re.compile(r"([+-]?[0-9]+)\s*/\s*([0-9]+)")


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)``, cut short when long (with its length), so an error stays readable.

    The one truncation of a value a message echoes, whatever its type.

    >>> shown("A:4"), shown("9" * 100)
    ("'A:4'", "'999999999999999999999999…' (100 characters)")
    >>> shown(10**40)
    '100000000000000000000000… (41 characters)'
    """
    if isinstance(value, str):
        if len(value) <= limit + 2:
            return repr(value)
        return f"{value[:limit] + '…'!r} ({len(value)} characters)"
    text = str(value) if isinstance(value, (int, Fraction)) else repr(value)
    if len(text) <= limit + 2:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def check_digits(text: str, what: str, error: type[AnalyzerError],
                 max_digits: int = MAX_DIGITS) -> None:
    """Refuse ``text`` if one of its numbers has more than ``max_digits`` digits.

    For notations whose parser picks numbers out with ``\\d+`` patterns (a rule
    spec): one call on the whole text, before any of them is converted.
    """
    longest = max((len(m) for m in _DIGIT_RUN.findall(text)), default=0)
    if longest > max_digits:
        raise error(f"{what} {shown(text)} has a number of {longest} digits; at most "
                    f"{max_digits}")


def _digits(text: str, what: str, error: type[AnalyzerError], max_digits: int) -> None:
    count = sum(c.isdigit() for c in text)
    if count > max_digits:
        raise error(f"{what} {shown(text)} has {count} digits; at most {max_digits}")


def parse_whole(text: str, what: str, error: type[AnalyzerError], *, minimum: int | None = 0,
                maximum: int | None = None, scientific: bool = False,
                max_digits: int = MAX_DIGITS) -> int:
    """A whole number ``minimum..maximum`` written in ``text``, or ``error`` naming it.

    ``None`` for a bound: none on that side (the caller checks the range itself).

    ``1_000`` is read as 1000; with ``scientific``, ``1e9`` and ``2.5e6`` too
    (a round count is easier to type so), provided the value is whole.
    """
    raw = text.strip()
    _digits(raw, what, error, max_digits)
    if _WHOLE.fullmatch(raw):
        value = int(raw)
    elif scientific and (number := _decimal(raw, what, error)) is not None \
            and number.denominator == 1:
        value = int(number)
    else:
        raise error(f"{what} must be a whole number, not {shown(text)}")
    low, high = minimum is not None and value < minimum, maximum is not None and value > maximum
    if low or high:
        bound = (f"{minimum:,} to {maximum:,}" if minimum is not None and maximum is not None
                 else f"{minimum:,} or more" if minimum is not None else f"at most {maximum:,}")
        raise error(f"{what} must be a whole number {bound}, not {shown(text)}")
    return value


def _decimal(raw: str, what: str, error: type[AnalyzerError]) -> Fraction | None:
    """``[+-]digits[.digits][e[+-]n]`` as an exact fraction; None if not of that form."""
    m = _DECIMAL.fullmatch(raw)
    if m is None or (m[2] is None and not m[3]):
        return None
    exponent = int(m[4] or "0")
    if abs(exponent) > MAX_EXPONENT:
        raise error(f"{what} {shown(raw)} has an exponent beyond ±{MAX_EXPONENT}")
    whole = (m[2] or "0").replace("_", "")
    frac = m[3] or ""
    value = Fraction(int(whole + frac), 10 ** len(frac)) * Fraction(10) ** exponent
    return -value if m[1] == "-" else value


def parse_rational(text: str, what: str, error: type[AnalyzerError], *,
                   max_digits: int = MAX_DIGITS, percent: bool = False) -> Fraction:
    """An exact rational written ``8``, ``7.5``, ``15/2``, ``1e3`` (and ``96%`` if ``percent``).

    Never through a float, so ``0.1`` is exactly 1/10.
    """
    raw = text.strip()
    _digits(raw, what, error, max_digits)
    scale = Fraction(1)
    if percent and raw.endswith("%"):
        raw, scale = raw[:-1].strip(), Fraction(1, 100)
    if (m := _RATIO.fullmatch(raw)) is not None:
        if int(m[2]) == 0:
            raise error(f"{what} {shown(text)} divides by zero")
        return Fraction(int(m[1]), int(m[2])) * scale
    value = _decimal(raw, what, error)
    if value is None:
        raise error(f"{what} {shown(text)} is not a number")
    return value * scale


__all__ = ["MAX_DIGITS", "MAX_EXPONENT", "check_digits", "parse_rational", "parse_whole",
           "shown"]
