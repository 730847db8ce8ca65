"""Published shoe-state figures the reports print beside the computed ones, with sources.

These are reference data for comparison (reports and tests), never inputs to a
computation.  Each table names its source and the rules it was published for.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PublishedEor:
    source: str
    rules: str  # the table's rules in our spec notation, as far as the source states them
    note: str
    eor_percent: dict[int, float]  # value -> EOR in percent of the initial bet


# Wizard of Odds, "Effect of Card Removal in Blackjack" (appendix 7, updated 2019-01-20),
# six decks, "stand soft 17" column; derived there from k_c's Composition Dependent
# Combinatorial Analyzer (bjstrat.net).  The page states: double any two cards, DAS,
# split anything only once, strategy adjusted to each composition.
WIZARD_6D_S17 = PublishedEor(
    source="Wizard of Odds, Effect of Card Removal in Blackjack (wizardofodds.com/games/"
           "blackjack/appendix/7), 6 decks, S17 column, from bjstrat.net's CDCA",
    rules="6D S17 DOA DAS SPL1 LS",
    note="the page states DOA, DAS, split once and re-optimised play, not the surrender "
         "rule; its figures are those of late surrender (with no surrender the 4 and 5 "
         "effects are 0.098% and 0.125%, not 0.110% and 0.141%); with late surrender they "
         "agree to 0.0025 points, not to the printed 0.0005 (3, 4, 5, 6, 9, T differ by "
         "0.0007-0.0024): a detail of that analyzer's rules or strategy not stated",
    eor_percent={2: 0.069, 3: 0.082, 4: 0.110, 5: 0.141, 6: 0.079, 7: 0.041, 8: -0.008,
                 9: -0.040, 10: -0.091, 1: -0.094})


@dataclass(frozen=True)
class PublishedEfficiency:
    betting: float
    playing: float
    insurance: float
    source: str


_BJINFO = ("Ken Smith, BlackjackInfo, 'New Efficiency Calculator Added' (2009-08-20), "
           "after Griffin, The Theory of Blackjack")
_QFIT = "QFIT (Norm Wattenberger), card-counting systems table (qfit.com/card-counting.htm)"
_WIKI = "Wikipedia, 'Card counting', systems table (after Griffin, The Theory of Blackjack)"
PUBLISHED_EFFICIENCY: dict[str, PublishedEfficiency] = {
    "hi-lo": PublishedEfficiency(0.97, 0.51, 0.76, _BJINFO),
    "ko": PublishedEfficiency(0.98, 0.55, 0.78, _BJINFO),
    "hi-opt-1": PublishedEfficiency(0.88, 0.61, 0.85, _BJINFO),
    "hi-opt-2": PublishedEfficiency(0.91, 0.67, 0.91, _WIKI),
    "omega-2": PublishedEfficiency(0.92, 0.67, 0.85, _QFIT),
    "zen": PublishedEfficiency(0.96, 0.63, 0.85, _QFIT),
    "wong-halves": PublishedEfficiency(0.99, 0.57, 0.72, _BJINFO),
}
EFFICIENCY_NOTE = (
    "The published correlations and efficiencies are single-deck figures (Griffin's method "
    "on his single-deck effects of removal); they are quoted for every game, but the "
    "effects of removal, and so BC and PE, depend on the number of decks and the rules.")


@dataclass(frozen=True)
class PublishedIndex:
    decision: str  # our --decision syntax
    index: int
    set: str  # "I18" or "Fab4"


# Don Schlesinger, Blackjack Attack (3rd ed., 2005), the "Illustrious 18" and the "Fab 4"
# (late surrender) Hi-Lo indices for multi-deck S17 games, reproduced at Wizard of Odds,
# "High-Low card counting" (wizardofodds.com/games/blackjack/card-counting/high-low/).
# Play the first action at true counts >= the index (insurance: insure at >= +3).
SCHLESINGER_SOURCE = ("Schlesinger, Blackjack Attack (3rd ed., 2005): Illustrious 18 and Fab 4, "
                      "Hi-Lo, multi-deck S17 (reproduced at wizardofodds.com, High-Low card "
                      "counting)")
ILLUSTRIOUS_18_FAB_4: tuple[PublishedIndex, ...] = tuple(
    PublishedIndex(d, i, s) for d, i, s in (
        ("insurance", 3, "I18"),
        ("16vT:stand-hit", 0, "I18"),
        ("15vT:stand-hit", 4, "I18"),
        ("T,Tv5:split-stand", 5, "I18"),
        ("T,Tv6:split-stand", 4, "I18"),
        ("10vT:double-hit", 4, "I18"),
        ("12v3:stand-hit", 2, "I18"),
        ("12v2:stand-hit", 3, "I18"),
        ("11vA:double-hit", 1, "I18"),
        ("9v2:double-hit", 1, "I18"),
        ("10vA:double-hit", 4, "I18"),
        ("9v7:double-hit", 3, "I18"),
        ("16v9:stand-hit", 5, "I18"),
        ("13v2:stand-hit", -1, "I18"),
        ("12v4:stand-hit", 0, "I18"),
        ("12v5:stand-hit", -2, "I18"),
        ("12v6:stand-hit", -1, "I18"),
        ("13v3:stand-hit", -2, "I18"),
        ("14vT:surrender-hit", 3, "Fab4"),
        ("15vT:surrender-hit", 0, "Fab4"),
        ("15v9:surrender-hit", 2, "Fab4"),
        ("15vA:surrender-hit", 1, "Fab4"),
    ))

__all__ = ["EFFICIENCY_NOTE", "ILLUSTRIOUS_18_FAB_4", "PUBLISHED_EFFICIENCY", "PublishedEfficiency",
           "PublishedEor", "PublishedIndex", "SCHLESINGER_SOURCE", "WIZARD_6D_S17"]
