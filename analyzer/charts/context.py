"""What a rule set changes about reading and deriving a chart, in one place.

The classic rule sets need none of this; the seed games do (a 7-card Charlie, a
hand of 21 that stands automatically, Free Bet's free doubles and splits).  The
charts follow the engine's rules from these attributes alone:

* ``rules.charlie``: a hand of that many cards stops and wins (0: no Charlie);
* ``rules.stand_on_21``: a hand totalling 21 stands automatically;
* ``rules.free_doubles`` / ``rules.free_splits``: Free Bet's free doubles (two-card
  hard totals) and free splits (pair values);
* ``rules.double_any_cards`` / ``rules.surrender_after_hit``: a D or R code also doubles
  or surrenders a hand of three or more cards (DAN, SAH), so the card count matters;
* ``rules.double_rescue`` / ``rules.redoubles``: a doubled hand still decides once its
  card is dealt (give up, double again): the chart's ``doubled-hand`` section.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.rules import Rules


@dataclass(frozen=True)
class ChartContext:
    """The chart-relevant switches of one rule set."""

    charlie: int | None = None
    twenty_one_stands: bool = False
    free_doubles: frozenset[int] = frozenset()  # two-card hard totals doubled for free
    free_splits: frozenset[int] = frozenset()  # pair values split for free
    later_actions: bool = False  # DAN or SAH: hands of 3+ cards may double or surrender
    doubled_decides: bool = False  # DDR or RDn: a doubled hand may give up or double again

    @classmethod
    def from_rules(cls, rules: Rules) -> ChartContext:
        return cls(charlie=rules.charlie or None, twenty_one_stands=rules.stand_on_21,
                   free_doubles=rules.free_doubles, free_splits=rules.free_splits,
                   later_actions=rules.double_any_cards or rules.surrender_after_hit,
                   doubled_decides=rules.double_rescue or bool(rules.redoubles))

    @property
    def free_bet(self) -> bool:
        return bool(self.free_doubles or self.free_splits)

    def forced_stand(self, total: int, ncards: int) -> bool:
        """Whether the hand has no decision left: 21 standing, or a Charlie."""
        if self.twenty_one_stands and total == 21:
            return True
        return self.charlie is not None and ncards >= self.charlie

    @property
    def by_cards(self) -> bool:
        """Whether the card count can change the play enough to print qualified rows."""
        return self.charlie is not None or self.later_actions
