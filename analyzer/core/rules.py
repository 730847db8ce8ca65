"""Rule sets: a frozen, validated value object with a compact spec notation.

A spec is a whitespace-separated, order-free, case-insensitive list of tokens,
e.g. ``"6D S17 DOA DAS SPL3 LS"``.  Tokens not given keep the value of the base
rules (the defaults, or a preset when tokens are applied on top of one).
:func:`format_spec` prints the canonical spec, which parses back to equal rules;
a :class:`Rules` prints as its spec and is built from one:

>>> r = parse_spec("ls 6d das s17 spl3 doa")
>>> format_spec(r)
'6D S17 DOA DAS SPL3 LS'
>>> parse_spec(format_spec(r)) == r
True
>>> r
Rules('6D S17 DOA DAS SPL3 LS')
>>> Rules("8D H17 BJ6:5 ENHC NSPL").blackjack_pays
Fraction(6, 5)
>>> Rules("H17", decks=8) == Rules(decks=8, hits_soft_17=True)
True

Every rule's vocabulary (tokens, words, comparison labels, effect candidates,
ranges) is its entry in :mod:`analyzer.core.ruleset`; this module reads it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass
from fractions import Fraction
from typing import get_type_hints

from analyzer.core import ruleset
from analyzer.core.cards import blackjack_value
from analyzer.core.errors import InternalError, RuleError, UsageError
from analyzer.core.numbers import shown
from analyzer.core.ruleset import Double, HoleCard, Surrender
from analyzer.core.shoe import Shoe


@dataclass(frozen=True, kw_only=True, repr=False)
class Rules:
    """One blackjack rule set.  Validated on construction; hashable, so usable as a key.

    Built from keyword fields, from a spec (``Rules("8D H17")``: the spec's tokens apply
    on top of the keyword fields, as :func:`parse_spec` applies them on a base), or both.
    Every field must have exactly its type: an enum field takes the enum member (not
    its token), a bool field a bool (not 0 or ``"no"``), an int field an int (not a
    bool or a float), ``blackjack_pays`` a ``Fraction`` (not an int or a float: a payout
    is exact), the sets frozensets of ints; anything else is a :class:`RuleError`
    naming the field.  ``str()`` is the canonical spec and ``repr()`` evaluates back.
    (``spec`` is only an argument: an instance has no ``spec``; use ``str(rules)``.)
    """

    spec: InitVar[str | None] = dataclasses.field(default=None, kw_only=False)
    decks: int | float = 6  # a whole number of decks, or math.inf (INF: an infinite deck)
    spanish_decks: bool = False  # 48-card decks: the four 10s removed, J Q K kept
    hits_soft_17: bool = False
    double: Double = Double.ANY
    double_any_cards: bool = False  # double on any number of cards, after hitting too (DAN)
    redoubles: int = 0  # after a paid double's card, double again up to this many times (RDn)
    double_rescue: bool = False  # after the double's card, give up for the original bet (DDR)
    double_after_split: bool = True
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = Surrender.NONE
    surrender_after_hit: bool = False  # an unsplit hand may also surrender after hitting (SAH)
    blackjack_pays: Fraction = Fraction(3, 2)
    hole_card: HoleCard = HoleCard.PEEK
    unpeeked_bj_takes_all: bool = True  # an unchecked dealer BJ takes doubles/splits too
    charlie: int = 0  # N-card Charlie (0: none): N cards without busting win 1:1
    charlie_beats_bj: bool = False  # ... also against an unpeeked dealer blackjack
    stand_on_21: bool = False  # a hand of 21 stands automatically (no hitting soft 21)
    push_22: bool = False  # dealer 22 pushes every live hand but blackjack and Charlie
    blackjack_wins: bool = False  # a player blackjack beats a dealer blackjack (BJW)
    player_21_wins: bool = False  # a player's non-natural 21 always wins 1:1 (P21W)
    bonus_5: Fraction = Fraction(1)  # what a winning 21 of exactly five cards pays (B5C)
    bonus_6: Fraction = Fraction(1)  # ... of exactly six cards (B6C)
    bonus_7: Fraction = Fraction(1)  # ... of seven or more cards (B7C)
    # a winning three-card 21 of 6-7-8, 7-7-7: what it pays in mixed suits, one suit, spades
    bonus_678: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(1), Fraction(1))
    bonus_777: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(1), Fraction(1))
    super_bonus: Fraction = Fraction(0)  # suited 7-7-7 against a dealer 7 (SB; 0: none)
    suited_blackjack: Fraction = Fraction(0)  # what a suited blackjack pays (BSBJ; 0: as any)
    bonus_not_doubled: bool = False  # no 21 bonus on a doubled hand (BND)
    bonus_not_split: bool = False  # no 21 bonus on a split hand (BNS)
    free_doubles: frozenset[int] = frozenset()  # two-card hard totals doubled for free
    free_splits: frozenset[int] = frozenset()  # pair values split for free
    split_by_rank: bool = False  # ten-valued cards split only when of the same rank
    split_aces: bool = True
    surrender_vs_ace: bool = True
    insured_no_split: bool = False  # an insured hand may not be split
    cut_card: int = 0  # cards dealt before the reshuffle (0: shuffled every round)

    def __new__(cls, *args: object, **kwargs: object) -> Rules:
        # Before the generated __init__, whose TypeError is not the project's error: a
        # misspelt field (``Rules(hit_soft_17=True)``) is a RuleError naming it.
        unknown = sorted(set(kwargs) - _INIT_NAMES)
        if unknown:
            raise RuleError(f"Rules has no field {unknown[0]!r} (fields such as decks, "
                            "hits_soft_17, double; or a spec: Rules('6D H17'))")
        if len(args) > 1:
            raise RuleError("Rules takes one spec (a str of tokens) and fields by keyword, "
                            f"not {len(args)} positional arguments")
        return super().__new__(cls)

    def __post_init__(self, spec: str | None) -> None:
        if spec is not None:
            if not isinstance(spec, str):
                raise RuleError(f"a rule spec must be a str of tokens, not {spec!r}")
            for name, value in ruleset.read_spec(spec).items():
                object.__setattr__(self, name, value)
        ruleset.check(self)

    def __hash__(self) -> int:
        # Computed once: rule sets key the engine's caches, and hashing their fractions
        # (a payout, the bonuses) on every lookup showed in the profiles.  The fields are
        # what __eq__ compares, so equal rule sets hash alike.
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            object.__setattr__(self, "_hash", known)
        return known

    def __getstate__(self) -> dict[str, object]:
        """The fields only: a hash is this process's own (strings hash per process)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __str__(self) -> str:
        return format_spec(self)

    def __repr__(self) -> str:
        return f"Rules({format_spec(self)!r})"

    @property
    def peeks(self) -> bool:
        """True when the dealer checks for blackjack with both an ace and a ten up."""
        return self.hole_card is HoleCard.PEEK

    def peeks_on(self, upcard: int) -> bool:
        """Whether the dealer checks for blackjack before the players act, with this upcard."""
        if self.hole_card is HoleCard.PEEK:
            return blackjack_value(upcard) is not None
        return self.hole_card is HoleCard.PEEK_ACE and upcard == 1

    @property
    def deck_cards(self) -> int:
        """Cards in one of the game's decks: 48 for a Spanish deck, else 52."""
        return ruleset.deck_cards(self)

    def full_shoe(self) -> Shoe:
        """The game's shoe before a card is dealt: the one place a shoe is built from rules,
        so every computation of a game sees the same decks (Spanish ones with ``SP``).

        An infinite deck (``INF``) has no shoe: only the round's EV and a hand's plays take
        it."""
        return Shoe.decks(self.deck_count, spanish=self.spanish_decks)

    @property
    def deck_count(self) -> int:
        """The number of decks of a finite shoe; a :class:`UsageError` for ``INF``."""
        if isinstance(self.decks, float):  # math.inf: the range check allows no other float
            raise UsageError("INF: an infinite deck has no shoe to deal from; only the "
                             "round's EV (bja ev) and a hand's plays (bja hand) are computed "
                             "for it")
        return self.decks

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _check_registry() -> None:
    """The registry declares exactly the fields of :class:`Rules`, with their types and
    defaults: a field without a rule would be missing from the notation and the words."""
    hints = get_type_hints(Rules)
    fields = {f.name: (hints[f.name], f.default) for f in dataclasses.fields(Rules)}
    declared = {name: (f.type, f.default) for name, f in ruleset.FIELDS.items()}
    if fields != declared or sum(len(r.fields) for r in ruleset.RULES) != len(fields):
        raise InternalError(f"the rule registry does not match the fields of Rules: "
                            f"{sorted(set(fields.items()) ^ set(declared.items()), key=str)}")


_check_registry()
_INIT_NAMES = frozenset(f.name for f in dataclasses.fields(Rules)) | {"spec"}
DEFAULT_RULES = Rules()


def parse_spec(spec: str, base: Rules = DEFAULT_RULES) -> Rules:
    """Apply the tokens of ``spec`` on top of ``base`` and validate the result."""
    return _checked(base).replace(**ruleset.read_spec(spec))


def _checked(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise RuleError(f"expected a Rules, not {shown(rules)}")
    return rules


def format_spec(rules: Rules) -> str:
    """The canonical spec of a rule set; ``parse_spec`` of it gives the same rules."""
    rules = _checked(rules)
    return " ".join(t for t in (rule.token(rules) for rule in ruleset.RULES) if t is not None)


def describe_rules(rules: Rules) -> list[str]:
    """Every rule in words, one line each (for reports and ``bja rules show``)."""
    rules = _checked(rules)
    return [w for w in (rule.words(rules) for rule in ruleset.RULES) if w is not None]


__all__ = ["DEFAULT_RULES", "Double", "HoleCard", "Rules", "Surrender", "describe_rules",
           "format_spec", "parse_spec"]
