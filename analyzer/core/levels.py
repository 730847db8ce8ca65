"""Levels of play: how split hands are played, from the pre-split strategy to full memory.

One vocabulary for the engine (``Analysis(split=...)``), the CLI's ``--split``
and every report.  CDP1 and CDP are Eric Farmer's post-split levels ("Blackjack
Basic Strategy Calculator" v7.6); ``exact`` is not a level of play but the
whole-round enumeration of CDZ- play, kept as a cross-check on small shoes.
A :class:`SplitLevel` is a ``StrEnum``: each member is its string (``"cdz"``), so
the CLI's values, the JSON and every text output read the same.

>>> [str(m) for m in SPLIT_MODES]
['cdz', 'cdp1', 'cdp', 'optimal', 'exact']
>>> SplitLevel("cdp1") is SplitLevel.CDP1, SplitLevel.CDP1 == "cdp1"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class SplitLevel(StrEnum):
    """How split hands are played (``Analysis(split=...)``, ``--split``)."""

    CDZ = "cdz"
    CDP1 = "cdp1"
    CDP = "cdp"
    OPTIMAL = "optimal"
    EXACT = "exact"  # CDZ- play, splits by whole-round enumeration (the cross-check)


SPLIT_TITLES: dict[SplitLevel, str] = {
    SplitLevel.CDZ: "CDZ-, optimal composition-dependent play; split hands use the pre-split "
                    "strategy",
    SplitLevel.CDP1: "CDP1, optimal composition-dependent play; split hands use the post-split "
                     "strategy of the first split hand (Farmer)",
    SplitLevel.CDP: "CDP, optimal composition-dependent play; split hands use the post-split "
                    "strategy for the number of pair cards removed (Farmer)",
    SplitLevel.OPTIMAL: "optimal composition-dependent play; optimal splitting (every card of "
                        "the split round remembered)",
    SplitLevel.EXACT: "CDZ-, splits by whole-round enumeration (cross-check)",
}
SPLIT_MODES: tuple[SplitLevel, ...] = tuple(SplitLevel)

# The levels a certificate states, weakest first: the basic chart, then the split levels.
CHART = "chart"
SPLIT_LEVELS: tuple[SplitLevel, ...] = (SplitLevel.CDZ, SplitLevel.CDP1, SplitLevel.CDP,
                                        SplitLevel.OPTIMAL)  # every split mode but the check
LEVELS: tuple[str, ...] = (CHART, *SPLIT_LEVELS)
LEVEL_TITLES: dict[str, str] = {
    CHART: "basic strategy chart (total-dependent, as written)",
    SplitLevel.CDZ: "CDZ- (split hands play the pre-split strategy)",
    SplitLevel.CDP1: "CDP1 (post-split strategy of the first split hand, Farmer)",
    SplitLevel.CDP: "CDP (post-split strategy by pair cards removed, Farmer)",
    SplitLevel.OPTIMAL: "optimal splitting (every card of the round remembered)",
}
