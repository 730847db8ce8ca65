"""Effects of removal: the exact change in EV when one card of a value leaves the shoe.

For a shoe of ``N`` cards, ``n_v`` of value ``v``, the effect of removal of
``v`` on a quantity ``Q`` (the EV of a round, or a decision's value) is::

    EOR_v = Q(shoe - v) - Q(shoe)

each term an exact analysis (Griffin, *The Theory of Blackjack*, 5th ed. 1996,
ch. 3; Wizard of Odds, "Effect of Card Removal in Blackjack", from k_c's
combinatorial analyzer).  A decision given as a total keeps the full shoe's mix
of its hands, so its EOR is the change in the hands' values.

The zero-sum identity.  A card drawn at random from the shoe is ``v`` with
chance ``n_v / N``, and removing a random card changes nothing in expectation
about the cards dealt after it.  So for a FIXED strategy (one that does not
react to the removed card) the identity is exact::

    sum_v n_v * Q(shoe - v) / N  ==  Q(shoe),   i.e.   sum_v n_v * EOR_v == 0

(exactly, in rational arithmetic).  A player who RE-OPTIMISES on each
one-card-removed shoe does at least as well as the fixed strategy there, so
with re-optimised play::

    sum_v n_v * EOR_v / N  =  G  >=  0

where ``G`` is the average gain from re-optimising after seeing one card: a
second-order quantity (the EORs are first order in 1/N, ``G`` is of order
``1/N^2``), which :class:`EorTable` reports as ``reoptimisation_gain``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.arith import Number
from analyzer.core.errors import ImpossibleShoeError
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import MIN_ROUND_CARDS
from analyzer.shoestate.decisions import Decision, DecisionError
from analyzer.shoestate.summary import ShoeSummary, summaries
from analyzer.util.progress import ProgressCallback

VALUES = tuple(range(1, 11))


@dataclass(frozen=True)
class Effects:
    """One quantity on the full shoe and on each one-card-removed shoe."""

    name: str
    full: Number
    removed: dict[int, Number | None]  # None: no card of that value to remove
    eor: dict[int, Number | None]

    @classmethod
    def from_values(cls, name: str, full: Number,
                    removed: dict[int, Number | None]) -> Effects:
        eor = {v: None if r is None else r - full for v, r in removed.items()}
        return cls(name=name, full=full, removed=removed, eor=eor)


@dataclass(frozen=True)
class EorTable:
    """Effects of removal on a game's EV and on chosen decisions (per unit initial bet)."""

    spec: str
    shoe: tuple[int, ...]
    strategy: str  # "optimal" (re-optimised on every shoe) or "fixed"
    exact: bool
    game: Effects
    decisions: tuple[Effects, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.shoe)

    def weighted_sum(self, effects: Effects) -> Number:
        """``sum_v n_v * EOR_v`` (0 exactly for the game EV under a fixed strategy)."""
        zero: Number = Fraction(0) if self.exact else 0.0
        return sum((n * e for n, e in zip(self.shoe, effects.eor.values(), strict=True)
                    if e is not None), zero)

    @property
    def game_sum(self) -> Number:
        """``sum_v n_v EOR_v`` of the game's EV: 0 for a fixed strategy, ``N G`` for
        re-optimised play.  ``G >= 0`` is a theorem, so in floats a negative sum (a
        difference of nearly equal EVs rounding the other way, as on a million decks,
        where G is below a float's resolution) is 0."""
        total = self.weighted_sum(self.game)
        return 0.0 if self.strategy == "optimal" and not self.exact and total < 0 else total

    @property
    def reoptimisation_gain(self) -> Number:
        """``sum_v n_v EV(shoe - v) / N - EV(shoe)``: 0 if fixed, the gain G if optimal."""
        return self.game_sum / self.total


def effects_of_removal(rules: Rules, shoe: Shoe | None = None, *,
                       decisions: Sequence[Decision] = (), strategy: str = "optimal",
                       exact: bool = False, jobs: int = 1,
                       use_cache: bool = True,
                       progress: ProgressCallback | None = None) -> EorTable:
    """The exact effects of removal of each value on the game and on ``decisions``
    (``progress``: each shoe analysed)."""
    full = shoe if shoe is not None else rules.full_shoe()
    spec = format_spec(rules)
    if full.total - 1 < MIN_ROUND_CARDS:
        raise ImpossibleShoeError(f"effects of removal analyse the shoe less each card: the "
                                  f"{full.total}-card shoe less one holds {full.total - 1}, "
                                  f"below the analyzer's floor of {MIN_ROUND_CARDS} cards")
    shoes = [full.counts] + [full.remove([v]).counts for v in VALUES if full[v] > 0]
    try:
        results = summaries(spec, shoes, strategy=strategy, reference=full.counts,
                            exact=exact, with_hands=bool(decisions), jobs=jobs,
                            use_cache=use_cache, progress=progress,
                            stage="shoes less one card")
    except ImpossibleShoeError as err:  # said of the shoe with a card out, not the user's
        raise ImpossibleShoeError(f"effects of removal analyse the {full.total}-card shoe and "
                                  f"that shoe less each card: {err}") from None
    base, rest = results[0], iter(results[1:])
    by_value: dict[int, ShoeSummary | None] = {
        v: next(rest) if full[v] > 0 else None for v in VALUES}
    game = Effects.from_values("game EV", base.ev, {
        v: None if s is None else s.ev for v, s in by_value.items()})
    rows = tuple(_decision_effects(d, full, base, by_value, exact) for d in decisions)
    return EorTable(spec=spec, shoe=full.counts, strategy=strategy, exact=exact, game=game,
                    decisions=rows)


def _decision_effects(decision: Decision, full: Shoe, base: ShoeSummary,
                      by_value: dict[int, ShoeSummary | None], exact: bool) -> Effects:
    def on(shoe: Shoe, summary: ShoeSummary) -> Number:
        return decision.value(shoe, lambda up, hand: summary.hands[(up, hand[0], hand[1])],
                              exact, mix=full)

    removed: dict[int, Number | None] = {}
    for v, summary in by_value.items():
        try:
            removed[v] = None if summary is None else on(Shoe(summary.counts), summary)
        except DecisionError:
            removed[v] = None  # the hand cannot be dealt once that card is gone
    return Effects.from_values(decision.label, on(full, base), removed)


__all__ = ["EorTable", "Effects", "effects_of_removal"]
