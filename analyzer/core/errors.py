"""The closed error model: every error a user can cause is one :class:`AnalyzerError`.

Two kinds split it, so a caller can tell a typo from a question with no answer:

* :class:`NotationError`: the input cannot be read as what it should say: an
  unknown or malformed rule token, card, shoe entry, pay table or chart file,
  a command-line value outside its range;
* :class:`ImpossibleError`: the input reads fine but describes what cannot be:
  contradictory rules, a hand or a deal the shoe cannot hold, an empty shoe, and
  work this machine cannot hold (:class:`TooLargeError`: a table larger than the
  memory free).

Each topic (rules, shoe, hand, pay table, ...) has a class with one subclass
per kind, and raising the topic class itself gives its usual kind, the way
``OSError(errno.ENOENT, ...)`` gives a ``FileNotFoundError``:

>>> err = RuleError("unknown rule token 'X17'")
>>> type(err).__name__, isinstance(err, RuleError), isinstance(err, NotationError)
('RuleNotationError', True, True)
>>> isinstance(RuleConflictError("FSA-9 with SPL3"), ImpossibleError)
True

The CLI prints the one-line message of an :class:`AnalyzerError` and exits 2,
so every message names the offending value.  :class:`InternalError` is the
other side of the line: a broken invariant of the engine, never the user's
fault (the CLI reports it as a bug, exit status 70).
"""

from __future__ import annotations

from typing import Any, Self, cast


class AnalyzerError(ValueError):
    """Base of every error caused by input (a ``ValueError``, so ``except ValueError`` works)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        # A topic class raised as such becomes its default kind (see the module doc).
        return cast(Self, super().__new__(_DEFAULT_KIND.get(cls, cls), *args, **kwargs))


class NotationError(AnalyzerError):
    """The input cannot be read: unknown or malformed token, card, entry, file, value."""


class ImpossibleError(AnalyzerError):
    """The input is well formed but cannot be: contradictory rules, an impossible deal."""


# -- rules ------------------------------------------------------------------------------
class RuleError(AnalyzerError):
    """A rule problem; raised as such, a :class:`RuleNotationError`."""


class RuleNotationError(RuleError, NotationError):
    """An unknown or malformed rule token, a value outside its range, an unknown game."""


class RuleConflictError(RuleError, ImpossibleError):
    """Rules that contradict each other, or that the engine cannot play together."""


# -- shoe -------------------------------------------------------------------------------
class ShoeError(AnalyzerError):
    """A shoe problem; raised as such, a :class:`ShoeNotationError`."""


class ShoeNotationError(ShoeError, NotationError):
    """A shoe that cannot be read: bad entry, unknown card, count not a whole number >= 0."""


class ImpossibleShoeError(ShoeError, ImpossibleError):
    """A shoe that cannot deal what is asked: empty, too small, runs out, certain blackjack."""


# -- hand -------------------------------------------------------------------------------
class HandError(AnalyzerError):
    """A hand problem; raised as such, an :class:`ImpossibleHandError`."""


class CardNotationError(HandError, NotationError):
    """A card symbol or card list that cannot be read."""


class ImpossibleHandError(HandError, ImpossibleError):
    """A hand the shoe cannot hold, a busted hand, a pair the shoe cannot split."""


# -- files and other inputs --------------------------------------------------------------
class PayTableError(AnalyzerError):
    """A pay-table problem; raised as such, a :class:`PayTableNotationError`."""


class PayTableNotationError(PayTableError, NotationError):
    """A malformed pay table file or ``--pays`` item, or an unknown event name."""


class ImpossiblePayError(PayTableError, ImpossibleError):
    """A pay that cannot be met: an event that cannot occur, an unreachable target RTP."""


class ChartError(NotationError):
    """A malformed strategy chart file, or a chart option missing its companion."""


class GridError(NotationError):
    """A malformed ``--vary`` axis, grid file or comparison option."""


class SimulationError(NotationError):
    """Bad simulation input: round count, job count, seed, spread or an impossible cut card."""


class UsageError(NotationError):
    """Command-line arguments that are missing, unknown or do not go together."""


class StrategyError(ImpossibleError):
    """A strategy chose an action the hand does not allow."""


class TooLargeError(ImpossibleError):
    """Work whose tables would not fit in the memory free, refused before allocating them
    (:mod:`analyzer.util.memory`)."""


# What the CLI and the web app say of a MemoryError met past those checks (an allocation
# the system refused): one line, as for any error of the input.
OUT_OF_MEMORY = ("out of memory: this computation needs more memory than is free (exact "
                 "mode needs the most: try it without exact, with fewer jobs, or on a "
                 "smaller shoe)")


_DEFAULT_KIND: dict[type, type] = {
    RuleError: RuleNotationError,
    ShoeError: ShoeNotationError,
    HandError: ImpossibleHandError,
    PayTableError: PayTableNotationError,
}


class InternalError(RuntimeError):
    """A broken invariant of the engine: a bug to report, never caused by the input."""


__all__ = [
    "OUT_OF_MEMORY", "AnalyzerError", "CardNotationError", "ChartError", "HandError",
    "ImpossibleError",
    "ImpossibleHandError", "ImpossiblePayError", "ImpossibleShoeError", "InternalError",
    "NotationError", "PayTableError", "PayTableNotationError", "RuleConflictError",
    "GridError", "RuleError", "RuleNotationError", "ShoeError", "ShoeNotationError",
    "SimulationError",
    "StrategyError", "TooLargeError", "UsageError",
]
