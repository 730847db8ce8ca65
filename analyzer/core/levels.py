"""Levels of play: how split hands are played, from the pre-split strategy to full memory.

One vocabulary for the engine (``Analysis(split=...)``), the CLI's ``--split``
and every report.  CDP1 and CDP are Eric Farmer's post-split levels ("Blackjack
Basic Strategy Calculator" v7.6); ``exact`` is not a level of play but the
whole-round enumeration of CDZ- play, kept as a cross-check on small shoes.

>>> SPLIT_MODES
('cdz', 'cdp1', 'cdp', 'optimal', 'exact')
"""

from __future__ import annotations

SPLIT_TITLES: dict[str, str] = {
    "cdz": "CDZ-, optimal composition-dependent play; split hands use the pre-split strategy",
    "cdp1": "CDP1, optimal composition-dependent play; split hands use the post-split "
            "strategy of the first split hand (Farmer)",
    "cdp": "CDP, optimal composition-dependent play; split hands use the post-split strategy "
           "for the number of pair cards removed (Farmer)",
    "optimal": "optimal composition-dependent play; optimal splitting (every card of the "
               "split round remembered)",
    "exact": "CDZ-, splits by whole-round enumeration (cross-check)",
}
SPLIT_MODES = tuple(SPLIT_TITLES)

# The levels a certificate states, weakest first: the basic chart, then the split levels.
LEVELS: tuple[str, ...] = ("chart", "cdz", "cdp1", "cdp", "optimal")
SPLIT_LEVELS = LEVELS[1:]  # the levels of split play: every split mode but the cross-check
LEVEL_TITLES: dict[str, str] = {
    "chart": "basic strategy chart (total-dependent, as written)",
    "cdz": "CDZ- (split hands play the pre-split strategy)",
    "cdp1": "CDP1 (post-split strategy of the first split hand, Farmer)",
    "cdp": "CDP (post-split strategy by pair cards removed, Farmer)",
    "optimal": "optimal splitting (every card of the round remembered)",
}
