"""Report models of the main game: every figure an output shows, computed once.

Like the charts' :class:`~analyzer.charts.model.Chart` and the side bets'
``ParSheet``, these models hold results, not text: :mod:`analyzer.report.render`
and :mod:`analyzer.report.game_report` format them (text, JSON, Markdown) and
:mod:`analyzer.report.cache` keeps them on disk.  Figures are Fractions when the
analysis is exact, floats otherwise; a renderer never computes one.

>>> from analyzer.core.rules import parse_spec
>>> from analyzer.engine.analysis import Analysis
>>> report = ev_report(Analysis(parse_spec("1D H17 DOA NDAS SPL1 NS")))
>>> f"{report.ev:.9%}", [u for u, _ in report.by_upcard]
('-0.168766712%', [2, 3, 4, 5, 6, 7, 8, 9, 10, 1])
>>> report.insurance.ev  # Fractions whatever the arithmetic: insurance is exact and cheap
Fraction(-1, 17)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.actions import Action
from analyzer.core.cards import checked_hand
from analyzer.core.errors import HandError, RuleConflictError, UsageError
from analyzer.core.levels import SplitLevel
from analyzer.core.outcomes import Outcome
from analyzer.core.rules import Rules, Surrender
from analyzer.core.ruleset import INFINITE, suit_bonuses
from analyzer.core.shoe import Shoe
from analyzer.core.version import ENGINE
from analyzer.engine.analysis import Analysis, best_play, unpeeked_play
from analyzer.engine.dealer import dealer_distribution
from analyzer.engine.infinite import InfiniteGame
from analyzer.engine.insurance import insurance, insurance_table
from analyzer.report.levels import Levels, strategy_levels
from analyzer.util.progress import ProgressCallback

Number = float | Fraction
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # the order every table shows


@dataclass(frozen=True)
class InsuranceFigures:
    """Insurance against an ace up: off the full shoe, and which two-card hands take it."""

    ev: Fraction  # per unit of the insurance bet, full shoe
    p_ten: Fraction
    take: bool
    after_two_cards_take: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class EvReport:
    """The round: EV, EV by upcard, insurance and caveats of one rule set and shoe."""

    rules: Rules
    shoe: Shoe | None  # None: an infinite deck (INF), cards drawn with replacement
    exact: bool
    split: SplitLevel  # the split mode of the analysis
    engine: str
    ev: Number
    by_upcard: tuple[tuple[int, Number], ...]  # in UPCARDS order, upcards the shoe holds
    insurance: InsuranceFigures | None  # None: no ace in the shoe, no insurance
    notes: tuple[str, ...]
    levels: Levels | None = None  # the RTP of every level of play, when asked for
    # False: every decision on the ranks alone, though suit bonuses pay (``--rank-only``)
    suits: bool = True


@dataclass(frozen=True)
class HandReport:
    """Every legal action of one hand against one upcard, with its EV."""

    rules: Rules
    shoe: Shoe | None  # None: an infinite deck (INF)
    exact: bool
    engine: str
    upcard: int
    cards: tuple[int, ...]
    split: SplitLevel  # how a split is played
    conditioned: bool  # EVs conditioned on no dealer blackjack
    actions: tuple[tuple[str, Number], ...]  # action name -> EV, in the engine's order
    best: str  # the best action's name; "" for a natural (no decision)
    # A natural (ace and ten as the first two cards) is settled at once: its value, paid
    # per the rules and pushed by a dealer blackjack, and no actions.  None otherwise.
    blackjack: Number | None = None
    # Under suit bonuses, a hand one card from a 6-7-8 or 7-7-7 in each suit case the
    # player tells apart: (what he sees, its chance, the actions' EVs, the best action).
    suits: tuple[SuitCase, ...] = ()


@dataclass(frozen=True)
class SuitCase:
    """One suit case of a hand (:meth:`analyzer.engine.analysis.Analysis.suit_actions`)."""

    label: str
    chance: Fraction
    actions: tuple[tuple[str, Number], ...]
    best: str


@dataclass(frozen=True)
class DealerRow:
    """The dealer's final outcomes with one upcard (unconditioned)."""

    upcard: int
    outcomes: tuple[tuple[str, Number], ...]  # Outcome order
    bust: Number
    bust_by_cards: tuple[tuple[int, Number], ...]  # total dealer cards -> P(bust)

    def outcome(self, name: str) -> Number:
        return dict(self.outcomes)[name]


@dataclass(frozen=True)
class DealerTable:
    """The dealer's outcomes for every upcard the shoe holds."""

    rules: Rules
    shoe: Shoe
    exact: bool
    engine: str
    rows: tuple[DealerRow, ...]  # in UPCARDS order


@dataclass(frozen=True)
class PairPlay:
    """The best play of a pair against one upcard (``None`` where the shoe cannot deal it)."""

    best: str
    ev: Number


@dataclass(frozen=True)
class GameModel:
    """Everything the Markdown report of a game shows."""

    ev: EvReport
    dealer: DealerTable
    pairs: tuple[tuple[int, tuple[PairPlay | None, ...]], ...]  # pair -> one play per upcard
    levels: Levels | None = None  # the RTP at every level of play (chart ... CDP)


RANK_ONLY_NOTE = ("played by ranks only: no decision reads a suit, so each suit bonus is met "
                  "at its average over the suits (without --rank-only the first two cards' "
                  "suits and the upcard's are read where a suit bonus can pay)")


def notes(rules: Rules) -> tuple[str, ...]:
    """Caveats every EV output must carry for these rules."""
    out = []
    if rules.cut_card:
        out.append(f"the shoe is reshuffled after {rules.cut_card} cards: the cut-card RTP is "
                   "NOT yet computed; the EV shown is the full-shoe EV (every round off a "
                   "fresh shoe)")
    if rules.split_by_rank:
        out.append("pairs split by rank: two ten-valued cards split only when of the same "
                   "rank (ten ranks taken as evenly spread); resplit odds of tens use values")
    return tuple(out)


def insurance_figures(shoe: Shoe) -> InsuranceFigures | None:
    """Insurance against an ace up; None for a shoe without an ace (no insurance offered)."""
    if not shoe[1]:
        return None
    full = insurance(shoe)
    return InsuranceFigures(
        ev=full.ev, p_ten=full.p_ten, take=full.take,
        after_two_cards_take=tuple(i.cards for i in insurance_table(shoe) if i.take))


def _cdz_refused(rules: Rules) -> bool:
    """Whether CDZ- is refused on this infinite deck: under BNS its pre-split strategy (the
    unsplit hands' play, bonus included) is not the one an infinite deck computes."""
    return rules.bonus_not_split and rules.max_hands > 1


def _infinite_game(rules: Rules, split: SplitLevel) -> InfiniteGame:
    """The infinite-deck game, where the split mode asked is the play it computes."""
    if rules.decks != INFINITE:
        raise UsageError(f"an infinite-deck report needs INF rules, not {rules.decks} decks")
    if split in (SplitLevel.CDZ, SplitLevel.EXACT) and _cdz_refused(rules):
        raise RuleConflictError(
            f"INF with BNS and --split {split}: the pre-split strategy of CDZ- is not computed "
            "on an infinite deck where split hands are paid no bonus (use --split cdp: "
            "optimal play, which every other level reaches there)")
    return InfiniteGame(rules)


def infinite_hand_report(rules: Rules, upcard: int, cards: tuple[int, ...], *, exact: bool,
                         split: SplitLevel, unconditioned: bool = False) -> HandReport:
    """Every action of one hand on an infinite deck (``bja hand --rules INF``)."""
    upcard, cards = checked_hand(upcard, cards)
    if not isinstance(unconditioned, bool):
        raise UsageError(f"unconditioned must be True or False, not {unconditioned!r}")
    game = _infinite_game(rules, split)
    peeked = rules.peeks_on(upcard) and bool(game.blackjack_chance(upcard))
    p_bj = game.blackjack_chance(upcard) if peeked and unconditioned else Fraction(0)

    def shown(x: Fraction) -> Number:
        return x if exact else float(x)

    actions = game.actions(upcard, cards)
    natural: Number | None = None
    listed: tuple[tuple[str, Number], ...] = tuple(
        (a.label, shown(Fraction(unpeeked_play(a, v, p_bj, rules.surrender))))
        for a, v in actions.items())  # Fractions in, a Fraction out
    p_peek = game.blackjack_chance(upcard) if peeked else Fraction(0)
    early = rules.surrender is Surrender.EARLY and len(cards) == 2
    best = best_play(actions, p_peek, early=early).label if actions else ""
    if not actions:  # a natural: paid, pushed by a dealer blackjack (paid under BJW)
        pays = rules.blackjack_pays
        natural = shown(pays if rules.blackjack_wins or (peeked and not unconditioned)
                        else (1 - game.blackjack_chance(upcard)) * pays)
    return HandReport(rules=rules, shoe=None, exact=exact, engine=ENGINE, upcard=upcard,
                      cards=cards, split=split, conditioned=peeked and not unconditioned,
                      actions=listed, best=best, blackjack=natural)


def infinite_report(rules: Rules, *, exact: bool, split: SplitLevel) -> EvReport:
    """The round on an infinite deck (``INF``): computed exactly, shown as floats unless
    ``exact``; every split mode but CDZ- under BNS gives the same figure there."""
    game = _infinite_game(rules, split)
    by = game.by_upcard()
    ten = game.p[9]

    def shown(x: Fraction) -> Number:
        return x if exact else float(x)

    levels = ("CDP1, CDP and optimal splitting give this one figure here (CDZ- is not "
              "computed: BNS)" if _cdz_refused(rules)
              else "CDZ-, CDP1, CDP and optimal splitting give this one figure here")
    return EvReport(
        rules=rules, shoe=None, exact=exact, split=split, engine=ENGINE,
        ev=shown(game.round_ev()), by_upcard=tuple((u, shown(by[u])) for u in UPCARDS),
        insurance=InsuranceFigures(ev=3 * ten - 1, p_ten=ten, take=3 * ten > 1,
                                   after_two_cards_take=()),
        notes=(*notes(rules), "infinite deck: each hand is played best by its total, softness "
               "and card count under its own rules (split hands: DAS, no surrender, BNS); "
               f"{levels}"))


def _check_analysis(analysis: object) -> None:
    if not isinstance(analysis, Analysis):
        raise UsageError(f"expected an Analysis, not {analysis!r}")


def ev_report(analysis: Analysis, *, levels: bool = False,
              progress: ProgressCallback | None = None) -> EvReport:
    """The round's figures (the slow part: every upcard, hand and split).

    With ``levels`` also the RTP of every level of play (several analyses more).
    ``progress`` hears of each upcard done.
    """
    _check_analysis(analysis)
    if not isinstance(levels, bool):
        raise UsageError(f"levels must be True or False, not {levels!r}")
    by = analysis.by_upcard(progress)
    found = None
    if levels:
        found = strategy_levels(analysis.rules, analysis.shoe, analysis.exact,
                                analyses={analysis.split: analysis}, suits=analysis.suits)
    ranks = not analysis.suits and suit_bonuses(analysis.rules)
    return EvReport(
        rules=analysis.rules, shoe=analysis.shoe, exact=analysis.exact, split=analysis.split,
        engine=ENGINE, ev=analysis.ev(), by_upcard=tuple((u, by[u]) for u in UPCARDS if u in by),
        insurance=insurance_figures(analysis.shoe),
        notes=notes(analysis.rules) + ((RANK_ONLY_NOTE,) if ranks else ()), levels=found,
        suits=analysis.suits)


def hand_report(analysis: Analysis, upcard: int, cards: tuple[int, ...], *,
                unconditioned: bool = False) -> HandReport:
    """Every action of one hand (conditioned on no dealer blackjack unless ``unconditioned``).

    A natural has no decision: its report has no actions and gives ``blackjack``,
    the natural's value, instead.
    """
    _check_analysis(analysis)
    upcard, cards = checked_hand(upcard, cards)
    if not isinstance(unconditioned, bool):
        raise UsageError(f"unconditioned must be True or False, not {unconditioned!r}")
    actions = analysis.hand_actions(upcard, cards, unconditioned=unconditioned)
    natural: Number | None = None
    suits = []
    for state, evs in analysis.suit_actions(upcard, cards):
        best_case = analysis.best_of(upcard, cards, evs)
        if unconditioned and analysis.conditioned(upcard):
            p_bj = analysis.p_blackjack(upcard, cards)
            evs = {a: unpeeked_play(a, v, p_bj, analysis.rules.surrender)
                   for a, v in evs.items()}
        suits.append(SuitCase(label=state.label, chance=state.chance,
                              actions=tuple((Action(a).label, v) for a, v in evs.items()),
                              best=Action(best_case).label))
    if actions:  # the engine's play, chosen as its EV counts it (ties, early surrender)
        top = analysis.best_of(upcard, cards, analysis.actions(upcard, cards))
        listed, best = tuple((Action(a).label, v) for a, v in actions.items()), Action(top).label
    else:  # a natural: settled at once
        natural = analysis.natural_value(upcard, unconditioned=unconditioned)
        listed, best = (), ""
    return HandReport(
        rules=analysis.rules, shoe=analysis.shoe, exact=analysis.exact, engine=ENGINE,
        upcard=upcard, cards=cards, split=analysis.split,
        conditioned=analysis.conditioned(upcard) and not unconditioned,
        actions=listed, best=best, blackjack=natural, suits=tuple(suits))


def dealer_table(analysis: Analysis) -> DealerTable:
    """The dealer's outcomes per upcard, the upcard removed from the shoe."""
    _check_analysis(analysis)
    rows = []
    for u in UPCARDS:
        if not analysis.shoe[u]:
            continue
        analysis.check_dealer(u)
        d = dealer_distribution(analysis.shoe.remove([u]).counts, u,
                                hits_soft_17=analysis.rules.hits_soft_17, exact=analysis.exact)
        outcomes = tuple((o.label, d.outcomes[o.label]) for o in Outcome)
        rows.append(DealerRow(upcard=u, outcomes=outcomes,
                              bust=d.bust, bust_by_cards=tuple(d.bust_by_cards.items())))
    return DealerTable(rules=analysis.rules, shoe=analysis.shoe, exact=analysis.exact,
                       engine=ENGINE, rows=tuple(rows))


def _pair_play(analysis: Analysis, upcard: int, pair: int) -> PairPlay | None:
    try:
        actions = analysis.actions(upcard, (pair, pair))
    except HandError:  # the shoe cannot deal this pair against this upcard
        return None
    best = analysis.best_of(upcard, (pair, pair), actions)
    return PairPlay(best=Action(best).label, ev=actions[best])


def game_model(analysis: Analysis, *, levels: bool = False, optimal: bool = False,
               jobs: int = 1, memo: bool = False) -> GameModel:
    """The round, the dealer table, the best play of every pair; ``levels``: every level
    (with ``optimal``, optimal splitting too, its upcards shared by ``jobs`` processes,
    each pair's figure kept in the on-disk memo with ``memo``)."""
    pairs = tuple((p, tuple(_pair_play(analysis, u, p) for u in UPCARDS))
                  for p in (1, *range(2, 11)))
    found = (strategy_levels(analysis.rules, analysis.shoe, analysis.exact, optimal=optimal,
                             jobs=jobs, analyses={analysis.split: analysis}, memo=memo)
             if levels else None)
    return GameModel(ev=ev_report(analysis), dealer=dealer_table(analysis), pairs=pairs,
                     levels=found)


__all__ = ["UPCARDS", "DealerRow", "DealerTable", "EvReport", "GameModel", "HandReport",
           "InsuranceFigures", "PairPlay", "dealer_table", "ev_report", "game_model",
           "hand_report", "insurance_figures", "notes"]
