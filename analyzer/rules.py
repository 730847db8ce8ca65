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

from analyzer.errors import RuleError


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

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or self.decks < 1:
            raise RuleError(f"number of decks must be a whole number >= 1, not {self.decks!r}")
        if self.max_hands not in (1, 2, 3, 4):
            raise RuleError(f"max_hands must be 1 (no split) to 4, not {self.max_hands!r}")
        if not isinstance(self.blackjack_pays, Fraction) or self.blackjack_pays < 0:
            raise RuleError(f"blackjack payout must be a non-negative fraction, not "
                            f"{self.blackjack_pays!r}")

    @property
    def peeks(self) -> bool:
        """True when a dealer blackjack is found before the players act."""
        return self.hole_card is HoleCard.PEEK

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
    (re.compile(r"ENHC"), lambda m: {"hole_card": HoleCard.NO_HOLE_CARD}),
    (re.compile(r"PEEK"), lambda m: {"hole_card": HoleCard.PEEK}),
]


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
    if rules.hole_card is HoleCard.NO_HOLE_CARD:
        parts.append("ENHC")
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
    hole = ("dealer peeks for blackjack with an ace or ten up; a dealer blackjack takes "
            "only the original bet" if rules.peeks else
            "no hole card (ENHC): a dealer blackjack takes every bet, doubles and splits "
            "included")
    pays = rules.blackjack_pays
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
    ]
