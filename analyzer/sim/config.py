"""The simulator's own reading of a rule set, and the flat parameters the compiled loop takes.

Deliberately independent of ``analyzer.engine``: which two-card hands may
double, which pairs split, when the dealer peeks, what a free bet is - every
such rule is re-coded here from :class:`~analyzer.core.rules.Rules` alone, so
that the simulation checks the engine rather than repeating it.  Which rules exist
comes from the registry (:data:`analyzer.core.ruleset.RULES`): :data:`SIMULATED`
says where each rule is played, :data:`NOT_SIMULATED` why a rule is left out, and a
rule in neither is refused when set, so a new rule is never silently ignored here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.core.errors import SimulationError
from analyzer.core.limits import MAX_JOBS, MAX_RESULT_BINS, MAX_SEED
from analyzer.core.rules import Double, HoleCard, Rules, Surrender
from analyzer.core.ruleset import INFINITE, RULES, pay_tokens
from analyzer.sim import layout as L
from analyzer.util.pool import every_core as default_jobs  # every core, as elsewhere

# Largest run accepted: 10^11 rounds give a standard error near 4e-6 (0.0004 percentage
# points), a hundredth of the finest figure a certificate quotes; past that a typing
# slip (1e99) would run for ever.  Counters are int64, far from overflowing there.
MAX_ROUNDS = 10**11
HANDS_MAX = 4  # the simulator's rows hold four hands (SPL3)

# Each rule of the registry, by name, and where the simulator plays it (SimRules, the kernel).
SIMULATED: dict[str, str] = {
    "decks": "the shoe (limits, shoe_codes)",
    "spanish decks": "shoe_codes: no rank-10 cards in the shoe; limits: 12 tens a deck",
    "soft 17": "C_H17: the dealer's draw",
    "doubling": "paid_double: the two-card hands that may double",
    "double any cards": "later_double: the totals a hand of three or more cards may double "
                        "on (the hit table's decisions; a split hand's own bits under NDAS)",
    "double-down rescue": "rescue: the hit table's bits 6-9 (stake levels 1-4) where a paid "
                          "double's card lands; a hand given up loses half its stake",
    "redoubles": "redouble_on: the totals a doubled hand may double again on; the hit "
                 "table's bits 10-12 (stake levels 1-3); _play doubles the stake each time",
    **{f"21 bonus {n} cards": "C_BONUS5..C_BONUS7: what a standing 21 of five, six, seven or "
                              "more cards wins, in ticks per unit of its stake (_record)"
       for n in ("5", "6", "7 or more")},
    "bonus not on doubles": "C_BND: a doubled hand's 21 wins ticks per unit of stake (_record)",
    "bonus not on splits": "C_BNS: a split hand's 21 wins ticks per unit of stake (_record)",
    "double after split": "C_DAS",
    "splits": "can_split, C_MAX_HANDS",
    "resplit aces": "aces_hands: the hands a split of aces may reach",
    "hit split aces": "C_ONE_CARD",
    "surrender": "surrender_on, C_EARLY",
    "blackjack payout": "C_BJ in ticks",
    "hole card": "peek_on, C_ENHC",
    "unpeeked blackjack": "C_TAKES_ALL",
    "charlie": "C_CHARLIE",
    "charlie beats blackjack": "C_CHBJ",
    "21 stands": "C_A21",
    "push 22": "C_P22",
    "blackjack beats blackjack": "C_BJW: a natural paid against a dealer blackjack",
    "player 21 wins": "C_P21W: a standing 21 paid against every dealer total",
    "free doubles": "free_double: the two-card hard totals doubled for free",
    "free splits": "free_split: the pair values split for free",
    "split by rank": "shoe_codes: real ranks J, Q, K in the shoe",
    "split aces": "can_split of aces",
    "surrender vs ace": "surrender_on an ace",
    "surrender after hitting": "surrender_later: the hit table offers surrender to an "
                               "unsplit hand of three or more cards (_play: state 3)",
    "cut card": "the run's cut (simulate and rtp_as_dealt deal down to rules.cut_card)",
    "21 bonus 6-7-8": "C_THREE: a winning three-card 6-7-8 (T_THREE) paid by the suits the "
                      "shoe's cards carry (_play follows them, _record pays); C_SUITED: "
                      "6-7, 6-8, 7-8 played by their suits and the upcard's",
    "21 bonus 7-7-7": "C_THREE: a winning three-card 7-7-7 paid by its suits; C_SUITED: 7-7 "
                      "played by its suits and the upcard's",
    "super bonus": "C_SUPER: a winning suited 7-7-7, neither doubled nor split, against an "
                   "upcard 7 (_record)",
    "suited blackjack": "C_SBJ: a natural of one suit (_round)",
}
# Rules the simulator leaves out on purpose, and why.
NOT_SIMULATED: dict[str, str] = {
    "insured hand splits": "the simulated player never insures, so no hand is insured",
}
# Rules the simulator does not play yet, and why: a rule set setting one is refused.
NOT_YET: dict[str, str] = {}


def check_simulated(rules: Rules) -> None:
    """Refuse a rule set that sets a rule the simulator neither plays nor leaves out."""
    if rules.decks == INFINITE:
        raise SimulationError("the simulator does not play INF: it deals from a finite shoe "
                              "(an infinite deck's EV is exact: bja ev)")
    for rule in RULES:
        if (rule.name not in SIMULATED and rule.name not in NOT_SIMULATED
                and not rule.is_default(rules)):
            why = f": {NOT_YET[rule.name]}" if rule.name in NOT_YET else ""
            raise SimulationError(f"the simulator does not play the rule {rule.name!r} "
                                  f"({rule.spell(rules)}) yet{why}")


def check_counts(rounds: object, jobs: object, seed: object) -> None:
    """Refuse counts that are not whole numbers in range, naming the value and the bound."""
    for value, what, low in ((rounds, "number of rounds", 2), (jobs, "number of jobs", 1),
                             (0 if seed is None else seed, "seed", 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SimulationError(f"{what} must be a whole number >= {low}, not {value!r}")
    assert isinstance(rounds, int) and isinstance(jobs, int)
    if jobs > MAX_JOBS:
        raise SimulationError(f"number of jobs {jobs} is above the maximum {MAX_JOBS}")
    if isinstance(seed, int) and seed > MAX_SEED:
        raise SimulationError(f"seed {seed:.3g} is above the maximum 2**128 - 1")
    if rounds > MAX_ROUNDS:
        raise SimulationError(f"number of rounds {rounds:.3g} is above the maximum "
                              f"{MAX_ROUNDS:.0e} (a standard error near 4e-6 already)")


def check_cut(rules: Rules, cut: int) -> None:
    """Refuse a cut card at or beyond the end of the shoe."""
    size = len(shoe_codes(rules))
    if not 0 <= cut < size:
        raise SimulationError(f"cut card at {cut} cards is not inside the {size}-card shoe")


def reads_suits(rules: Rules) -> bool:
    """Whether a payout reads suits: a 6-7-8 or 7-7-7 bonus, the Super Bonus, a suited
    blackjack's pay."""
    plain = (Fraction(1),) * 3
    return (rules.bonus_678 != plain or rules.bonus_777 != plain or bool(rules.super_bonus)
            or bool(rules.suited_blackjack))


def _two_card_total(a: int, b: int) -> tuple[int, bool]:
    hard = a + b
    return (hard + 10, True) if 1 in (a, b) and hard <= 11 else (hard, False)


@dataclass(frozen=True)
class SimRules:
    """Per-value and per-hand rule tables, read from ``Rules`` by the simulator itself."""

    rules: Rules
    limits: tuple[int, ...]  # cards of each value A..T in the shoe
    charlie: int  # cards that make a Charlie (99: none)
    stand_on_21: bool
    max_hands: int
    aces_hands: int  # hands a split of aces may reach
    one_card_aces: bool
    double_after_split: bool
    can_split: tuple[bool, ...]  # by pair value, index 1..10
    free_split: tuple[bool, ...]
    surrender_on: tuple[bool, ...]  # by upcard
    peek_on: tuple[bool, ...]
    paid_double: tuple[tuple[bool, ...], ...]  # [a][b]
    free_double: tuple[tuple[bool, ...], ...]
    later_double: tuple[bool, ...]  # by best total 0..21: a hand of 3+ cards may double (DAN)
    rescue: bool  # a paid double may be given up once its card is dealt (DDR)
    surrender_later: tuple[bool, ...]  # by upcard: an unsplit hand of 3+ cards may (SAH)
    redoubles: int  # times a paid double may double again after its card (RDn)
    redouble_on: tuple[bool, ...]  # by best total 0..21: a doubled hand may double again
    bonus: tuple[Fraction, Fraction, Fraction]  # what a 21 of 5, 6, 7+ cards pays per stake
    three: tuple[tuple[Fraction, Fraction, Fraction], ...]  # 6-7-8, 7-7-7: mixed, suited, spades
    super_bonus: Fraction  # a suited 7-7-7 against a 7 (0: none)
    suited_blackjack: Fraction  # a natural of one suit (0: as any natural)
    suits: bool  # a payout reads suits: the shoe's cards carry them
    ticks: int  # result units per initial bet: results are whole numbers of ticks

    @classmethod
    def of(cls, rules: Rules) -> SimRules:
        check_simulated(rules)
        split = rules.max_hands > 1
        peek = (False, *(rules.hole_card is HoleCard.PEEK and u in (1, 10)
                         or rules.hole_card is HoleCard.PEEK_ACE and u == 1
                         for u in range(1, 11)))
        surrender = (False, *(rules.surrender is not Surrender.NONE
                              and (u != 1 or rules.surrender_vs_ace) for u in range(1, 11)))
        low = (9, 10, 11) if rules.double is Double.NINE_TO_ELEVEN else (10, 11)
        bonus = (rules.bonus_5, rules.bonus_6, rules.bonus_7)
        paid = [[False] * 11 for _ in range(11)]
        free = [[False] * 11 for _ in range(11)]
        for a in range(1, 11):
            for b in range(1, 11):
                total, soft = _two_card_total(a, b)
                free[a][b] = not soft and total in rules.free_doubles
                paid[a][b] = rules.double is Double.ANY or total in low
        return cls(
            rules=rules, limits=_limits(rules),
            charlie=rules.charlie or 99, stand_on_21=rules.stand_on_21,
            max_hands=rules.max_hands,
            aces_hands=rules.max_hands if rules.resplit_aces else min(rules.max_hands, 2),
            one_card_aces=not rules.hit_split_aces,
            double_after_split=rules.double_after_split,
            can_split=(False, split and rules.split_aces, *(split for _ in range(2, 11))),
            free_split=(False, *(v in rules.free_splits for v in range(1, 11))),
            surrender_on=surrender, peek_on=peek,
            paid_double=tuple(tuple(r) for r in paid), free_double=tuple(tuple(r) for r in free),
            later_double=tuple(rules.double_any_cards and t < 21
                               and (rules.double is Double.ANY or t in low)
                               for t in range(22)),
            rescue=rules.double_rescue, redoubles=rules.redoubles,
            surrender_later=tuple(s and rules.surrender_after_hit for s in surrender),
            redouble_on=tuple(bool(rules.redoubles) and t < 21
                              and (rules.double is Double.ANY or t in low) for t in range(22)),
            bonus=bonus, three=(rules.bonus_678, rules.bonus_777),
            super_bonus=rules.super_bonus, suited_blackjack=rules.suited_blackjack,
            suits=reads_suits(rules),
            ticks=math.lcm(2, rules.blackjack_pays.denominator,
                           *(b.denominator for b in (*bonus, *rules.bonus_678, *rules.bonus_777,
                                                     rules.super_bonus,
                                                     rules.suited_blackjack))))

    @property
    def stake(self) -> int:
        """The largest stake of one hand, in initial bets: doubled, then redoubled."""
        return 1 << (1 + self.redoubles)

    @property
    def most_lost(self) -> int:
        """The largest loss of a round, in initial bets: every hand at the largest stake."""
        return HANDS_MAX * self.stake

    @property
    def most_won(self) -> Fraction:
        """The largest win of a round, in initial bets: every hand at the largest stake,
        paid the largest 21 bonus; or a blackjack (suited), or the Super Bonus."""
        largest = max(Fraction(1), *self.bonus, *self.three[0], *self.three[1])
        return max(self.most_lost * largest, self.rules.blackjack_pays, self.suited_blackjack,
                   self.super_bonus)

    @property
    def low(self) -> int:
        """The smallest result, in ticks (the histogram's first bin)."""
        return -self.most_lost * self.ticks

    @property
    def bins(self) -> int:
        return int(self.most_won * self.ticks) - self.low + 1

    def cfg(self, cut: int, spread: tuple[int, int] | None, split_table: npt.NDArray[np.int8],
            suited: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int64]:
        """The kernel's parameter vector (see :mod:`~analyzer.sim.layout`); ``suited`` the
        first actions by suits, ``(11, 4, SUIT_CASES)`` (None: every hand by its ranks)."""
        r = self.rules
        v = np.zeros(L.CFG_SIZE, dtype=np.int64)
        scalars = {
            L.C_H17: r.hits_soft_17, L.C_A21: r.stand_on_21, L.C_P22: r.push_22,
            L.C_BJW: r.blackjack_wins, L.C_P21W: r.player_21_wins,
            L.C_CHBJ: r.charlie_beats_bj, L.C_CHARLIE: self.charlie,
            L.C_TAKES_ALL: r.unpeeked_bj_takes_all, L.C_BJ: int(r.blackjack_pays * self.ticks),
            L.C_TICKS: self.ticks, L.C_EARLY: r.surrender is Surrender.EARLY,
            L.C_ENHC: r.hole_card is HoleCard.NO_HOLE_CARD, L.C_DAS: self.double_after_split,
            L.C_MAX_HANDS: self.max_hands, L.C_ACES_HANDS: self.aces_hands,
            L.C_ONE_CARD: self.one_card_aces, L.C_CUT: cut, L.C_LOW: self.low,
            L.C_BND: r.bonus_not_doubled, L.C_BNS: r.bonus_not_split,
            **{L.C_BONUS5 + i: int(b * self.ticks) for i, b in enumerate(self.bonus)},
            L.C_SUITS: self.suits, L.C_SBJ: int(self.suited_blackjack * self.ticks),
            L.C_SUPER: int(self.super_bonus * self.ticks),
            **{L.C_THREE + 3 * k + case: int(pay * self.ticks)
               for k, pays in enumerate(self.three) for case, pay in enumerate(pays)}}
        if spread is not None:
            scalars |= {L.C_COUNTING: 1, L.C_SPREAD_LO: spread[0], L.C_SPREAD_HI: spread[1]}
        for index, value in scalars.items():
            v[index] = int(value)
        for start, row in ((L.C_PEEK, self.peek_on), (L.C_SURRENDER, self.surrender_on),
                           (L.C_CAN_SPLIT, self.can_split), (L.C_FREE_SPLIT, self.free_split)):
            v[start:start + 11] = row
        v[L.C_PAID_DOUBLE:L.C_PAID_DOUBLE + 121] = np.array(self.paid_double).ravel()
        v[L.C_FREE_DOUBLE:L.C_FREE_DOUBLE + 121] = np.array(self.free_double).ravel()
        v[L.C_SPLIT_TABLE:L.C_SUITS] = split_table.ravel()
        v[L.C_SUITED:] = -1 if suited is None else suited.ravel()
        return v


def _ranks(rules: Rules) -> list[int]:
    """The ranks of one deck, 1-13 (A, 2-10, J, Q, K): a Spanish deck has no 10s."""
    return [r for r in range(1, 14) if not (rules.spanish_decks and r == 10)]


def _limits(rules: Rules) -> tuple[int, ...]:
    """Cards of each value A..T in the shoe, counted from the deck's ranks (four suits)."""
    values = [min(r, 10) for r in _ranks(rules)]
    return tuple(4 * rules.deck_count * values.count(v) for v in range(1, 11))


def shoe_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """The card codes of the shoe: 1-13 (A, 2-10, J, Q, K) when pairs split by rank, else
    values 1-10 (any two tens are a pair); Spanish decks (``SP``) hold no 10s.  Where a
    payout reads suits, each code adds ``16 * suit`` (suit 0 spades): ``d`` cards of each
    rank in each suit."""
    ranks = np.repeat(np.array(_ranks(rules), dtype=np.int8), 4 * rules.deck_count)
    codes = ranks if rules.split_by_rank else np.minimum(ranks, 10).astype(np.int8)
    if reads_suits(rules):  # each rank's 4d cards: d of suit 0, then d of suit 1, ...
        suit = np.tile(np.repeat(np.arange(4, dtype=np.int8), rules.deck_count), len(_ranks(rules)))
        codes = (codes + (suit << L.SUIT_SHIFT)).astype(np.int8)
    return codes


# Sizes, checked before a run starts (kept apart from the rule mapping above).
MAX_JOB_BYTES = 1 << 30  # the arrays of every job together: shoe, histogram
_INT64 = 2**63 - 1


def check_size(rules: Rules, rounds: int, jobs: int, cut: int,
               spread: tuple[int, int] | None = None) -> None:
    """Refuse a run whose arrays or 64-bit sums would not hold, naming the value and the cap.

    The histogram has a bin per possible result in ticks, so a payout such as
    ``BJ1:99999999999`` (a tick of 1/10^11 bet) would ask for terabytes; each job
    holds its shoe and histogram; and the sums of squares the kernel accumulates (per
    round, and per shoe of at most ``cut // 3 + 1`` rounds: a round deals at least three
    cards) must stay within int64 even if every round paid the largest result at the
    largest bet.
    """
    sr = SimRules.of(rules)
    if sr.bins > MAX_RESULT_BINS:
        raise SimulationError(
            f"{' '.join(pay_tokens(rules)) or 'the payouts'}: the simulator's histogram of "
            "round results "
            f"(steps of 1/{sr.ticks:,} bet) would need {sr.bins:,} bins; at most "
            f"{MAX_RESULT_BINS:,}")
    cards = sum(sr.limits)
    per_job = 8 * (sr.bins + L.SHOE + cards)
    if min(jobs, rounds) * per_job > MAX_JOB_BYTES:
        raise SimulationError(f"{jobs} jobs of a {cards:,}-card shoe would hold "
                              f"{min(jobs, rounds) * per_job:,} bytes; at most "
                              f"{MAX_JOB_BYTES:,} (use fewer jobs)")
    largest = max(Fraction(sr.most_lost), sr.most_won) * sr.ticks
    extreme = (spread[1] if spread else 1) * int(largest)
    per_shoe = cut // 3 + 1 if cut else 1
    most = _INT64 // (per_shoe * extreme * extreme)
    if rounds > most:
        raise SimulationError(f"{rounds:,} rounds of results up to {extreme:,} ticks could "
                              f"overflow the simulator's 64-bit sums; at most {most:,} rounds "
                              "with this payout, spread and cut card")


__all__ = ["MAX_JOB_BYTES", "MAX_ROUNDS", "NOT_SIMULATED", "SIMULATED", "SimRules",
           "SimulationError", "check_counts", "check_cut", "check_simulated", "check_size",
           "default_jobs", "shoe_codes"]
