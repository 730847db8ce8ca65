"""Small exception taxonomy: every user-facing error is a ``ValueError``.

The CLI catches :class:`AnalyzerError`, prints its one-line message and exits 2,
so each subclass message must name the offending value.
"""


class AnalyzerError(ValueError):
    """Base of every error caused by bad input (rules, shoe, hand, pay table)."""


class RuleError(AnalyzerError):
    """An unknown, malformed or contradictory rule token or preset name."""


class ShoeError(AnalyzerError):
    """An impossible shoe: empty, negative counts, unknown card value."""


class HandError(AnalyzerError):
    """An impossible or malformed hand (cards not in the shoe, bad card)."""


class PayTableError(AnalyzerError):
    """A malformed pay table file, or an unknown event name."""


class ChartError(AnalyzerError):
    """A malformed strategy chart file."""
