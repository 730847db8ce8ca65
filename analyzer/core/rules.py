"""Rule sets: a frozen, validated value object with a compact spec notation.

A spec is a whitespace-separated, order-free, case-insensitive list of tokens,
e.g. ``"6D S17 DOA DAS SPL3 LS"``.  Tokens not given keep the value of the base
rules (the defaults, or a preset when tokens are applied on top of one).
:func:`format_spec` prints the canonical spec, which parses back to equal rules:

>>> r = parse_spec("ls 6d das s17 spl3 doa")
>>> format_spec(r)
'6D S17 DOA DAS SPL3 LS'
>>> parse_spec(format_spec(r)) == r
True
>>> parse_spec("8D H17 BJ6:5 ENHC NSPL").blackjack_pays
Fraction(6, 5)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from analyzer.core.cards import blackjack_value
from analyzer.core.errors import RuleConflictError, RuleError
from analyzer.core.shoe import MAX_DECKS


class Double(Enum):
    """Which two-card hands may double down."""

    ANY = "DOA"
    NINE_TO_ELEVEN = "D9"
    TEN_ELEVEN = "D10"


class Surrender(Enum):
    """Surrender rule: late is offered after the dealer's peek, early before it."""

    NONE = "NS"
    LATE = "LS"
    EARLY = "ES"


class HoleCard(Enum):
    """When the dealer checks the hole card for blackjack."""

    PEEK = "PEEK"  # American: peek with an ace or a ten up, before any decision
    PEEK_ACE = "PEEKA"  # peek with an ace up only; a ten up is not checked
    NO_HOLE_CARD = "ENHC"  # European: the second card is dealt after the players


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One blackjack rule set.  Validated on construction; hashable, so usable as a key."""

    decks: int = 6
    hits_soft_17: bool = False
    double: Double = Double.ANY
    double_after_split: bool = True
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = Surrender.NONE
    blackjack_pays: Fraction = Fraction(3, 2)
    hole_card: HoleCard = HoleCard.PEEK
    unpeeked_bj_takes_all: bool = True  # an unchecked dealer BJ takes doubles/splits too
    charlie: int = 0  # N-card Charlie (0: none): N cards without busting win 1:1
    charlie_beats_bj: bool = False  # ... also against an unpeeked dealer blackjack
    stand_on_21: bool = False  # a hand of 21 stands automatically (no hitting soft 21)
    push_22: bool = False  # dealer 22 pushes every live hand but blackjack and Charlie
    free_doubles: frozenset[int] = frozenset()  # two-card hard totals doubled for free
    free_splits: frozenset[int] = frozenset()  # pair values split for free
    split_by_rank: bool = False  # ten-valued cards split only when of the same rank
    split_aces: bool = True
    surrender_vs_ace: bool = True
    insured_no_split: bool = False  # an insured hand may not be split
    cut_card: int = 0  # cards dealt before the reshuffle (0: shuffled every round)

    def __post_init__(self) -> None:
        self._check_ranges()
        self._check_combinations()

    def _check_ranges(self) -> None:
        """Each field alone: a value its token can say (a notation error otherwise)."""
        if not isinstance(self.decks, int) or not 1 <= self.decks <= MAX_DECKS:
            raise RuleError(f"number of decks must be a whole number 1 to {MAX_DECKS}, not "
                            f"{self.decks!r}")
        if self.max_hands not in (1, 2, 3, 4):
            raise RuleError(f"max_hands must be 1 (no split) to 4, not {self.max_hands!r}")
        if not isinstance(self.blackjack_pays, Fraction) or self.blackjack_pays < 0:
            raise RuleError(f"blackjack payout must be a non-negative fraction, not "
                            f"{self.blackjack_pays!r}")
        if self.charlie and not 3 <= self.charlie <= 12:
            raise RuleError(f"Charlie card count must be 3 to 12, not {self.charlie!r}")
        if not all(4 <= t <= 20 for t in self.free_doubles):
            raise RuleError(
                f"free doubles must be hard totals 4-20, not {sorted(self.free_doubles)}")
        if not all(1 <= v <= 10 for v in self.free_splits):
            raise RuleError(f"free splits must be pair values A-T, not {sorted(self.free_splits)}")
        if not isinstance(self.cut_card, int) or self.cut_card < 0:
            raise RuleError(f"cut card must be a whole number >= 0 of cards, not "
                            f"{self.cut_card!r}")

    def _check_combinations(self) -> None:
        """Fields together: rules that contradict each other, or that no engine path plays."""
        if self.charlie_beats_bj and not self.charlie:
            raise RuleConflictError("CHBJ (Charlie beats a dealer blackjack) needs a Charlie "
                                    "rule (CHn)")
        if self.free_splits:
            fs = "FS" + _format_set(self.free_splits, symbols=True)
            if self.max_hands < 2:
                raise RuleConflictError(f"{fs}: free splits need splitting allowed (not NSPL)")
            if self.max_hands > 2:
                raise RuleConflictError(
                    f"{fs} with SPL{self.max_hands - 1}: a free split is modelled for one "
                    "split only (use SPL1)")
        shoe = 52 * self.decks
        if self.cut_card >= shoe:
            raise RuleConflictError(
                f"CUT{self.cut_card} with {self.decks}D: the cut card must come before the end "
                f"of the {shoe}-card shoe")

    @property
    def peeks(self) -> bool:
        """True when the dealer checks for blackjack with both an ace and a ten up."""
        return self.hole_card is HoleCard.PEEK

    def peeks_on(self, upcard: int) -> bool:
        """Whether the dealer checks for blackjack before the players act, with this upcard."""
        if self.hole_card is HoleCard.PEEK:
            return blackjack_value(upcard) is not None
        return self.hole_card is HoleCard.PEEK_ACE and upcard == 1

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)


DEFAULT_RULES = Rules()

_Setter = Callable[[re.Match[str]], dict[str, Any]]

# Each token pattern maps to the fields it sets.  Two tokens setting the same
# field in one spec contradict each other and are rejected.
_TOKENS: list[tuple[re.Pattern[str], _Setter]] = [
    (re.compile(r"(\d+)D"), lambda m: {"decks": int(m.group(1))}),
    (re.compile(r"S17"), lambda m: {"hits_soft_17": False}),
    (re.compile(r"H17"), lambda m: {"hits_soft_17": True}),
    (re.compile(r"DOA|D9|D10"), lambda m: {"double": Double(m.group(0))}),
    (re.compile(r"DAS"), lambda m: {"double_after_split": True}),
    (re.compile(r"NDAS"), lambda m: {"double_after_split": False}),
    (re.compile(r"NSPL"), lambda m: {"max_hands": 1}),
    (re.compile(r"SPL([123])"), lambda m: {"max_hands": int(m.group(1)) + 1}),
    (re.compile(r"RSA"), lambda m: {"resplit_aces": True}),
    (re.compile(r"NRSA"), lambda m: {"resplit_aces": False}),
    (re.compile(r"HSA"), lambda m: {"hit_split_aces": True}),
    (re.compile(r"NHSA"), lambda m: {"hit_split_aces": False}),
    (re.compile(r"LS|ES|NS"), lambda m: {"surrender": Surrender(m.group(0))}),
    (re.compile(r"BJ(\d+):(\d+)"),
     lambda m: {"blackjack_pays": _ratio(m.group(1), m.group(2))}),
    (re.compile(r"ENHC|PEEKA|PEEK"), lambda m: {"hole_card": HoleCard(m.group(0))}),
    (re.compile(r"OBO"), lambda m: {"unpeeked_bj_takes_all": False}),
    (re.compile(r"CH(\d+)"), lambda m: {"charlie": _positive(m)}),
    (re.compile(r"CHBJ"), lambda m: {"charlie_beats_bj": True}),
    (re.compile(r"A21"), lambda m: {"stand_on_21": True}),
    (re.compile(r"P22"), lambda m: {"push_22": True}),
    (re.compile(r"FD([\d,-]+)"), lambda m: {"free_doubles": _int_set(m.group(1), m.group(0))}),
    (re.compile(r"FS([\dAT,-]+)"), lambda m: {"free_splits": _value_set(m.group(1), m.group(0))}),
    (re.compile(r"SPR"), lambda m: {"split_by_rank": True}),
    (re.compile(r"NSA"), lambda m: {"split_aces": False}),
    (re.compile(r"SNA"), lambda m: {"surrender_vs_ace": False}),
    (re.compile(r"INSNS"), lambda m: {"insured_no_split": True}),
    (re.compile(r"CUT(\d+)"), lambda m: {"cut_card": _positive(m)}),
]


def _int_set(text: str, token: str) -> frozenset[int]:
    """``"9-11"`` or ``"9,10,11"`` as a set of integers."""
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise RuleError(f"rule token {token!r}: {part!r} is not a number or range")
        first, last = int(lo), int(hi or lo)
        if not first <= last <= first + 21:  # every FD/FS value lies within 1..21
            raise RuleError(f"rule token {token!r}: {part!r} is not an ascending range of "
                            "hand totals or pair values")
        out.update(range(first, last + 1))
    return frozenset(out)


def _value_set(text: str, token: str) -> frozenset[int]:
    """Pair values written with A and T, e.g. ``"A-9"`` -> {1, ..., 9}."""
    return _int_set(text.upper().replace("A", "1").replace("T", "10"), token)


def _format_set(values: frozenset[int], symbols: bool = False) -> str:
    """Inverse of :func:`_int_set`: ranges where contiguous."""
    def sym(v: int) -> str:
        return ("A" if v == 1 else "T" if v == 10 else str(v)) if symbols else str(v)

    items = sorted(values)
    runs: list[str] = []
    start = prev = items[0]
    for v in [*items[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        runs.append(sym(start) if start == prev else f"{sym(start)}-{sym(prev)}")
        if v is not None:
            start = prev = v
    return ",".join(runs)


def _positive(match: re.Match[str]) -> int:
    """The count of ``CHn``/``CUTn``; 0 would silently mean "no such rule", so it is refused."""
    if int(match.group(1)) == 0:
        raise RuleError(f"rule token {match.group(0)!r}: the count must be at least 1 (leave "
                        "the token out for no such rule)")
    return int(match.group(1))


def _ratio(num: str, den: str) -> Fraction:
    if int(den) == 0:
        raise RuleError(f"blackjack payout BJ{num}:{den} divides by zero")
    return Fraction(int(num), int(den))


def parse_spec(spec: str, base: Rules = DEFAULT_RULES) -> Rules:
    """Apply the tokens of ``spec`` on top of ``base`` and validate the result."""
    changes: dict[str, Any] = {}
    setter_of: dict[str, str] = {}
    for raw in spec.split():
        token = raw.upper()
        for pattern, setter in _TOKENS:
            match = pattern.fullmatch(token)
            if match:
                for field, value in setter(match).items():
                    if field in setter_of:
                        raise RuleError(
                            f"rule token {raw!r} contradicts {setter_of[field]!r}")
                    setter_of[field] = raw
                    changes[field] = value
                break
        else:
            raise RuleError(f"unknown rule token {raw!r}")
    return base.replace(**changes)


def format_spec(rules: Rules) -> str:
    """The canonical spec of a rule set; ``parse_spec`` of it gives the same rules."""
    parts = [f"{rules.decks}D", "H17" if rules.hits_soft_17 else "S17", rules.double.value,
             "DAS" if rules.double_after_split else "NDAS",
             "NSPL" if rules.max_hands == 1 else f"SPL{rules.max_hands - 1}"]
    if rules.resplit_aces:
        parts.append("RSA")
    if rules.hit_split_aces:
        parts.append("HSA")
    parts.append(rules.surrender.value)
    if rules.blackjack_pays != Fraction(3, 2):
        pays = rules.blackjack_pays
        parts.append(f"BJ{pays.numerator}:{pays.denominator}")
    if rules.hole_card is not HoleCard.PEEK:
        parts.append(rules.hole_card.value)
    if not rules.unpeeked_bj_takes_all:
        parts.append("OBO")
    if rules.charlie:
        parts.append(f"CH{rules.charlie}")
    flags = [("CHBJ", rules.charlie_beats_bj), ("A21", rules.stand_on_21),
             ("P22", rules.push_22)]
    parts += [t for t, on in flags if on]
    if rules.free_doubles:
        parts.append("FD" + _format_set(rules.free_doubles))
    if rules.free_splits:
        parts.append("FS" + _format_set(rules.free_splits, symbols=True))
    flags = [("SPR", rules.split_by_rank), ("NSA", not rules.split_aces),
             ("SNA", not rules.surrender_vs_ace), ("INSNS", rules.insured_no_split)]
    parts += [t for t, on in flags if on]
    if rules.cut_card:
        parts.append(f"CUT{rules.cut_card}")
    return " ".join(parts)


def describe_rules(rules: Rules) -> list[str]:
    """Every rule in words, one line each (for reports and ``bja rules show``)."""
    double = {Double.ANY: "any first two cards", Double.NINE_TO_ELEVEN: "hard 9, 10 or 11 only",
              Double.TEN_ELEVEN: "hard 10 or 11 only"}[rules.double]
    splits = ("no splitting" if rules.max_hands == 1 else
              f"pairs of equal value split up to {rules.max_hands} hands"
              + ("" if rules.max_hands == 2 else " (resplits)"))
    surrender = {Surrender.NONE: "no surrender",
                 Surrender.LATE: "late surrender (after the peek), first two cards only",
                 Surrender.EARLY: "early surrender (before any dealer blackjack check)"
                 }[rules.surrender]
    hole = {HoleCard.PEEK: "dealer peeks for blackjack with an ace or ten up; a peeked "
                           "blackjack takes only the original bet",
            HoleCard.PEEK_ACE: "dealer peeks for blackjack with an ace up only; with a ten "
                               "up a dealer blackjack shows at the end",
            HoleCard.NO_HOLE_CARD: "no hole card (ENHC): the dealer's second card comes "
                                   "after the players"}[rules.hole_card]
    pays = rules.blackjack_pays
    extra = []
    if rules.hole_card is not HoleCard.PEEK:
        extra.append("an unchecked dealer blackjack takes " + (
            "all the money the player paid (doubles, splits)" if rules.unpeeked_bj_takes_all
            else "only the original bet"))
    if rules.charlie:
        extra.append(f"{rules.charlie}-card Charlie wins 1:1 automatically"
                     + (", also against an unchecked dealer blackjack"
                        if rules.charlie_beats_bj else ""))
    if rules.stand_on_21:
        extra.append("a hand of 21 stands automatically (no hitting a soft 21)")
    if rules.push_22:
        extra.append("a dealer 22 pushes every live hand except blackjack and Charlie")
    if rules.free_doubles:
        extra.append("free double on two-card hard " + _format_set(rules.free_doubles)
                     + " (the free bet wins 1:1, costs nothing otherwise)")
    if rules.free_splits:
        extra.append("free split of pairs " + _format_set(rules.free_splits, symbols=True)
                     + "; the second hand carries the free bet")
    if rules.split_by_rank:
        extra.append("pairs split by rank only (J-K is not a pair)")
    if not rules.split_aces:
        extra.append("aces may not be split")
    if not rules.surrender_vs_ace and rules.surrender is not Surrender.NONE:
        extra.append("no surrender against an ace")
    if rules.insured_no_split:
        extra.append("an insured hand may not be split")
    if rules.cut_card:
        extra.append(f"reshuffle after {rules.cut_card} cards (cut card)")
    return [
        f"{rules.decks} deck{'s' if rules.decks > 1 else ''}",
        "dealer hits soft 17" if rules.hits_soft_17 else "dealer stands on soft 17",
        f"double down on {double}",
        "double after split allowed" if rules.double_after_split else "no double after split",
        splits,
        "aces may be resplit" if rules.resplit_aces else "aces split once",
        "split aces may be hit" if rules.hit_split_aces else "split aces receive one card each",
        surrender,
        f"blackjack pays {pays.numerator}:{pays.denominator}; A+T after a split is 21",
        hole,
        *extra,
    ]
