"""The rule registry: every rule of the game, defined once.

A :class:`Rule` is one switch of :class:`~analyzer.core.rules.Rules`: the field (or
fields) one token sets, with everything the project says about it:

* the fields, each with its exact type, its default, its range and the rules it
  cannot go with (:class:`Field`, ``out_of_range``, ``conflict``);
* the notation: the token patterns and the field values each reads (``tokens``),
  and the token a value is written as (``spell``; the canonical spec writes it
  unless the value is the default, or always when ``always``);
* the words of :func:`~analyzer.core.rules.describe_rules` (``words``);
* the comparison's component: its ``name`` and the label of a value (``spell``:
  ``"H17"``, ``"no CHBJ"``);
* the rule-effects table's candidates: the values tried and when a change applies
  (``changes``);
* ``examples``: spec fragments that set the rule away from its default (tests, docs).

:data:`RULES` lists the rules in the order of the canonical spec and of the words;
:data:`COMPONENTS` in the order of a comparison.  The readers: ``parse_spec``,
``format_spec``, ``describe_rules`` and the checks of ``Rules`` (core/rules.py), the
effects table (compare/effects.py), Shapley explanations (compare/explain.py) and the
simulator's coverage check (sim/config.py, which plays each rule with its own code).
Adding a rule is a field of ``Rules``, one entry here, and its engine and simulator
code; ``tests/test_vocabulary.py`` checks that nothing else is needed.

>>> from analyzer.core.rules import Rules
>>> BY_NAME["splits"].spell(Rules("SPL1")), BY_NAME["charlie"].spell(Rules())
('SPL1', 'no CH')
>>> [r.name for r in differing(Rules("6D S17"), Rules("8D H17"))]
['decks', 'soft 17']
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import UnionType
from typing import TYPE_CHECKING, Union, get_args, get_origin

from analyzer.core.errors import RuleConflictError, RuleError
from analyzer.core.limits import MAX_RULE_PAY
from analyzer.core.numbers import MAX_DIGITS, parse_whole, shown
from analyzer.core.shoe import MAX_DECKS

if TYPE_CHECKING:  # the registry describes Rules; rules.py imports it to build and check them
    from analyzer.core.rules import Rules


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


Changes = dict[str, object]  # field name -> value, as Rules.replace takes them


# -- fields: exact types -------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """One field of ``Rules``: its name, exact type and default.

    ``type`` is ``bool``, ``int``, ``Fraction``, an ``Enum`` class or ``frozenset[int]``;
    a value must be of exactly that type (a bool is not an int, a string not an enum
    member), so a typing slip is refused instead of read as some other rule.
    """

    name: str
    type: object
    default: object

    def check_type(self, value: object) -> None:
        """A :class:`RuleError` naming the field and the value unless it has the type."""
        if not _has_type(value, self.type):
            raise RuleError(f"rule field {self.name!r} must be {_type_name(self.type)}, "
                            f"not {value!r}")


def _has_type(value: object, kind: object) -> bool:
    """``value`` is of type ``kind``: a class (bool and int told apart), ``frozenset[T]``,
    ``tuple[T, ...]``, ``tuple[T, U]`` or a union (``Fraction | None``)."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is frozenset:
        return isinstance(value, frozenset) and all(_has_type(v, args[0]) for v in value)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_has_type(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(_has_type, value, args))
    if origin is Union or isinstance(kind, UnionType):
        return any(_has_type(value, a) for a in args)
    return isinstance(kind, type) and isinstance(value, kind)


def _plural(kind: object) -> str:
    return _type_name(kind).removeprefix("a ").removeprefix("an ").split(" (")[0] + "s"


def _type_name(kind: object) -> str:
    origin, args = get_origin(kind), get_args(kind)
    if kind is bool:
        return "a bool (True or False)"
    if kind is int:
        return "an int"
    if kind is type(None):
        return "None"
    if origin is frozenset:
        return f"a frozenset of {_plural(args[0])}"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_plural(args[0])}"
        return f"a tuple ({', '.join(_type_name(a) for a in args)})"
    if origin is Union or isinstance(kind, UnionType):
        return " or ".join(_type_name(a) for a in args)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return f"a {kind.__name__} ({', '.join(str(m) for m in kind)})"
    return f"a {getattr(kind, '__name__', kind)}"


# -- the notation's pieces -------------------------------------------------------------------
@dataclass(frozen=True)
class Token:
    """One token pattern of the notation and the field values a match reads."""

    pattern: re.Pattern[str]
    read: Callable[[re.Match[str]], Changes]


def _fixed(text: str, **values: object) -> Token:
    """A token without a number: ``text`` sets ``values``."""
    return Token(re.compile(re.escape(text)), lambda _m: dict(values))


def _whole(text: str) -> int:
    """The number written in a token: the one place the notation reads a number, so the
    digit cap (:mod:`analyzer.core.numbers`) applies to every rule token."""
    return parse_whole(text, "rule token number", RuleError, minimum=None)


def _positive(match: re.Match[str]) -> int:
    """The count of ``CHn``/``CUTn``; 0 would silently mean "no such rule", so it is refused."""
    count = _whole(match.group(1))
    if count == 0:
        raise RuleError(f"rule token {match.group(0)!r}: the count must be at least 1 (leave "
                        "the token out for no such rule)")
    return count


def _ratio(match: re.Match[str], num: str, den: str) -> Fraction:
    """A payout ``num:den`` written in the token ``match``, named when it divides by zero or
    pays more than :data:`~analyzer.core.limits.MAX_RULE_PAY` to 1 (past any table's pay,
    and figures past the digits a float holds)."""
    if _whole(den) == 0:
        raise RuleError(f"rule token {match.group(0)!r}: the payout {num}:{den} divides by zero")
    pays = Fraction(_whole(num), _whole(den))
    if pays > MAX_RULE_PAY:
        raise RuleError(f"rule token {match.group(0)!r}: a payout of at most {MAX_RULE_PAY:,}:1")
    return pays


def _int_set(text: str, token: str, symbols: bool = False) -> frozenset[int]:
    """``"9-11"`` or ``"9,10,11"`` as a set of integers (``symbols``: pair values, where
    ``A`` is 1 and ``T`` 10).  A refusal quotes the part as it was typed."""
    def number(written: str) -> str:
        return {"A": "1", "T": "10"}.get(written.upper(), written) if symbols else written

    out: set[int] = set()
    for part in text.split(","):
        lo, dash, hi = part.partition("-")
        lo, hi = number(lo), number(hi)
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise RuleError(f"rule token {token!r}: {part!r} is not a number or range")
        first, last = _whole(lo), _whole(hi or lo)
        if not first <= last <= first + 21:  # every FD/FS value lies within 1..21
            raise RuleError(f"rule token {token!r}: {part!r} is not an ascending range of "
                            "hand totals or pair values")
        out.update(range(first, last + 1))
    return frozenset(out)


def _value_set(text: str, token: str) -> frozenset[int]:
    """Pair values written with A and T, e.g. ``"A-9"`` -> {1, ..., 9}."""
    return _int_set(text, token, symbols=True)


def format_set(values: frozenset[int], symbols: bool = False) -> str:
    """Inverse of the ``FD``/``FS`` lists: ranges where contiguous (A and T with ``symbols``)."""
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


# -- the registry's entry --------------------------------------------------------------------
def _fine(_rules: Rules) -> str | None:
    return None


def _unvaried(_rules: Rules) -> Iterator[Changes]:
    return iter(())


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule: its fields, notation, words, comparison label and effect candidates."""

    name: str  # the comparison's component name ("soft 17")
    fields: tuple[Field, ...]
    tokens: tuple[Token, ...]
    spell: Callable[[Rules], str]  # a value as a token, the default too ("S17", "no CHBJ")
    words: Callable[[Rules], str | None]  # the describe_rules line (None: no line)
    always: bool = False  # the canonical spec writes the token at the default too
    out_of_range: Callable[[Rules], str | None] = _fine  # a value the token cannot say
    conflict: Callable[[Rules], str | None] = _fine  # other rules this one cannot go with
    changes: Callable[[Rules], Iterable[Changes]] = _unvaried  # the effects table's tries
    compare_after: str | None = None  # a comparison lists it after this rule (None: in order)
    examples: tuple[str, ...] = ()  # spec fragments setting the rule away from its default

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def value(self, rules: Rules) -> tuple[object, ...]:
        return tuple(getattr(rules, f.name) for f in self.fields)

    def is_default(self, rules: Rules) -> bool:
        return self.value(rules) == tuple(f.default for f in self.fields)

    def token(self, rules: Rules) -> str | None:
        """The rule's token in the canonical spec (None: left out at the default)."""
        return self.spell(rules) if self.always or not self.is_default(rules) else None

    def read(self, token: str) -> Changes | None:
        """The field values an upper-case ``token`` sets, or None if it is not this rule's."""
        for t in self.tokens:
            match = t.pattern.fullmatch(token)
            if match:
                return t.read(match)
        return None

    # -- as a component of a comparison
    def label(self, rules: Rules) -> str:
        return self.spell(rules)

    def differs(self, a: Rules, b: Rules) -> bool:
        return self.value(a) != self.value(b)

    def take(self, target: Rules) -> Changes:
        """The field changes that give a rule set ``target``'s value of this rule."""
        return {f.name: getattr(target, f.name) for f in self.fields}

    def change(self, a: Rules, b: Rules) -> str:
        return f"{self.label(a)} -> {self.label(b)}"


def _switch(name: str, field_name: str, *, on: str, off: str | None = None,
            default: bool = False, said: tuple[str | None, str | None] | None = None,
            words: Callable[[Rules], str | None] | None = None, always: bool = False,
            conflict: Callable[[Rules], str | None] = _fine,
            changes: Callable[[Rules], Iterable[Changes]] = _unvaried,
            compare_after: str | None = None, examples: tuple[str, ...] = ()) -> Rule:
    """A yes/no rule: token ``on`` sets the field to ``not default``, ``off`` to the default.

    ``said``: the words at the default and when set (None: no line); ``words`` instead
    when the line depends on other rules.
    """
    spell_off = off or f"no {on}"
    tokens = (_fixed(on, **{field_name: not default}),
              *((_fixed(off, **{field_name: default}),) if off else ()))

    def spell(r: Rules) -> str:
        return on if getattr(r, field_name) != default else spell_off

    def words_of(r: Rules) -> str | None:
        assert said is not None
        return said[getattr(r, field_name) != default]

    return Rule(name, (Field(field_name, bool, default),), tokens, spell,
                words if words is not None else words_of, always=always, conflict=conflict,
                changes=changes,
                compare_after=compare_after, examples=examples or (on,))


def _toggle(field_name: str, when: Callable[[Rules], bool] = lambda _r: True,
            ) -> Callable[[Rules], Iterator[Changes]]:
    """The effects candidate of a yes/no rule: the other value, where ``when`` holds."""
    def changes(r: Rules) -> Iterator[Changes]:
        if when(r):
            yield {field_name: not getattr(r, field_name)}
    return changes


def _choice(name: str, field_name: str, enum: type[Enum], default: Enum, *,
            words: dict[Enum, str], always: bool) -> Rule:
    """A rule whose tokens are the values of an enum (each tried by the effects table)."""
    return Rule(
        name, (Field(field_name, enum, default),),
        tuple(_fixed(str(m.value), **{field_name: m}) for m in enum),
        lambda r: str(getattr(r, field_name).value),
        lambda r: words[getattr(r, field_name)], always=always,
        changes=lambda _r: ({field_name: m} for m in enum),
        examples=tuple(str(m.value) for m in enum if m is not default))


def _splits(r: Rules) -> bool:
    return r.max_hands > 1


# -- the effects table's values ---------------------------------------------------------------
DECKS = (1, 2, 4, 6, 8)
INFINITE = math.inf  # the decks of ``INF``: drawn with replacement (engine/infinite.py)
PAYOUTS = (Fraction(3, 2), Fraction(6, 5), Fraction(1), Fraction(2))
CHARLIES = (5, 6, 7)
FREE_DOUBLES = frozenset({9, 10, 11})  # the usual free-bet doubles: hard 9-11
FREE_SPLITS = frozenset(range(1, 10))  # the usual free-bet splits: A-9


def _split_changes(r: Rules) -> Iterator[Changes]:
    # The engine models a free split with one split only (SPL1).
    return ({"max_hands": m} for m in (1, 2, 3, 4) if not r.free_splits or m == 2)


def _charlie_changes(r: Rules) -> Iterator[Changes]:
    # A Charlie changed keeps CHBJ; a Charlie removed takes CHBJ with it (labelled so).
    return ({"charlie": c, "charlie_beats_bj": c != 0 and r.charlie_beats_bj}
            for c in (*CHARLIES, 0) if c != r.charlie and (r.charlie or c))


def _free_split_conflict(r: Rules) -> str | None:
    if not r.free_splits:
        return None
    fs = "FS" + format_set(r.free_splits, symbols=True)
    if r.max_hands < 2:
        return f"{fs}: free splits need splitting allowed (not NSPL)"
    if r.max_hands > 2:
        return (f"{fs} with SPL{r.max_hands - 1}: a free split is modelled for one split only "
                "(use SPL1)")
    if 1 in r.free_splits and not r.split_aces:
        return f"{fs} with NSA: aces that may not be split cannot be split free"
    return None


def _rescue_conflict(r: Rules) -> str | None:
    if r.double_rescue and r.hole_card is not HoleCard.PEEK:
        return (f"DDR with {r.hole_card.value}: double-down rescue is modelled where the dealer "
                "peeks with an ace or a ten up (PEEK): what an unchecked dealer blackjack "
                "takes from a rescued double is unsettled")
    return None


def _sah_conflict(r: Rules) -> str | None:
    if not r.surrender_after_hit:
        return None
    if r.surrender is Surrender.NONE:
        return ("SAH with NS: surrender after hitting extends a surrender rule (LS or ES), "
                "and the game allows none")
    if r.hole_card is not HoleCard.PEEK:
        return (f"SAH with {r.hole_card.value}: surrender after hitting is modelled where the "
                "dealer peeks with an ace or a ten up (PEEK): what an unchecked dealer "
                "blackjack takes from a hand surrendered after hitting is unsettled")
    return None


SPANISH_21_BONUS = (Fraction(3, 2), Fraction(2), Fraction(3))  # 5, 6, 7+ cards: the effects' try


def _bonuses(r: Rules) -> tuple[tuple[int, Fraction], ...]:
    return ((5, r.bonus_5), (6, r.bonus_6), (7, r.bonus_7))


def _bonus_rule(cards: int, usual: Fraction) -> Rule:
    """``B5C=3:2``: what a winning 21 of ``cards`` cards (7: seven or more) pays; the
    effects table tries ``usual`` (Spanish 21's) where it pays 1:1."""
    name = f"bonus_{cards}"
    counted = f"{cards} or more" if cards == 7 else f"{cards}"
    said = f"{cards} or more" if cards == 7 else f"exactly {cards}"

    def read(m: re.Match[str]) -> Changes:
        return {name: _ratio(m, m.group(1), m.group(2))}

    def spell(r: Rules) -> str:
        pays = getattr(r, name)
        return f"B{cards}C={_pays(pays)}" if pays != 1 else f"no B{cards}C"

    def words(r: Rules) -> str | None:
        pays = getattr(r, name)
        return None if pays == 1 else (
            f"a winning 21 of {said} cards pays {_pays(pays)} instead of 1:1, on the "
            "hand's stake")

    def out_of_range(r: Rules) -> str | None:
        pays = getattr(r, name)
        return None if pays >= 1 else (
            f"a 21 bonus must pay at least 1:1, not {spell(r)}")

    return Rule(f"21 bonus {counted} cards", (Field(name, Fraction, Fraction(1)),),
                (Token(re.compile(rf"B{cards}C=(\d+):(\d+)"), read),), spell, words,
                out_of_range=out_of_range, conflict=_bonus_conflict,
                changes=lambda r: [{name: Fraction(1) if getattr(r, name) != 1 else usual}],
                examples=tuple(dict.fromkeys((f"B{cards}C=3:2", f"B{cards}C={_pays(usual)}"))))


SPANISH_21_SUITS = (Fraction(3, 2), Fraction(2), Fraction(3))  # mixed, suited, spades
NO_SUIT_BONUS = (Fraction(1), Fraction(1), Fraction(1))
SUPER_BONUS = Fraction(200)  # $1000 on a $5 bet, $5000 on $25: the effects table's try


def _pays(p: Fraction) -> str:
    return f"{p.numerator}:{p.denominator}"


def _suit_bonus_rule(ranks: str) -> Rule:
    """``B678=3:2/2:1/3:1``: what a winning three-card 21 of 6-7-8 (or 7-7-7) pays in mixed
    suits, in one suit and in spades; the effects table tries Spanish 21's."""
    name = f"bonus_{ranks}"
    shown = "-".join(ranks)

    def read(m: re.Match[str]) -> Changes:
        return {name: tuple(_ratio(m, m.group(i), m.group(i + 1)) for i in (1, 3, 5))}

    def spell(r: Rules) -> str:
        pays = getattr(r, name)
        return f"B{ranks}=" + "/".join(map(_pays, pays)) if pays != NO_SUIT_BONUS else \
            f"no B{ranks}"

    def words(r: Rules) -> str | None:
        mixed, suited, spades = getattr(r, name)
        return None if getattr(r, name) == NO_SUIT_BONUS else (
            f"a winning three-card 21 of {shown} pays {_pays(mixed)} in mixed suits, "
            f"{_pays(suited)} in one suit, {_pays(spades)} in spades, on the hand's stake")

    def out_of_range(r: Rules) -> str | None:
        return None if all(p >= 1 for p in getattr(r, name)) else (
            f"a 21 bonus must pay at least 1:1, not {spell(r)}")

    usual = "/".join(map(_pays, SPANISH_21_SUITS))
    return Rule(f"21 bonus {shown}", (Field(name, tuple[Fraction, Fraction, Fraction],
                                            NO_SUIT_BONUS),),
                (Token(re.compile(rf"B{ranks}=(\d+):(\d+)/(\d+):(\d+)/(\d+):(\d+)"), read),),
                spell, words, out_of_range=out_of_range, conflict=_bonus_conflict,
                changes=lambda r: [{name: NO_SUIT_BONUS if getattr(r, name) != NO_SUIT_BONUS
                                    else SPANISH_21_SUITS}],
                examples=(f"B{ranks}={usual}", f"B{ranks}=2:1/2:1/2:1"))


def _ratio_rule(name: str, field_name: str, token: str, words: Callable[[Fraction], str],
                usual: Fraction, low: Fraction,
                conflict: Callable[[Rules], str | None] = _fine) -> Rule:
    """A payout written ``TOKEN=n:m`` (0: the rule is off), at least ``low`` when on."""
    def spell(r: Rules) -> str:
        pays = getattr(r, field_name)
        return f"{token}={_pays(pays)}" if pays else f"no {token}"

    def read(m: re.Match[str]) -> Changes:
        pays = _ratio(m, m.group(1), m.group(2))
        if pays == 0:
            raise RuleError(f"rule token {m.group(0)!r}: leave the token out for no "
                            f"{name}")
        return {field_name: pays}

    return Rule(name, (Field(field_name, Fraction, Fraction(0)),),
                (Token(re.compile(rf"{token}=(\d+):(\d+)"), read),), spell,
                lambda r: words(getattr(r, field_name)) if getattr(r, field_name) else None,
                out_of_range=lambda r: None if getattr(r, field_name) == 0 or
                getattr(r, field_name) >= low else f"{spell(r)}: {name} must pay at least "
                f"{_pays(low)}",
                conflict=conflict,
                changes=lambda r: [{field_name: Fraction(0) if getattr(r, field_name)
                                    else usual}],
                examples=(f"{token}={_pays(usual)}",))


PAY_FIELDS = frozenset({"blackjack_pays", "bonus_5", "bonus_6", "bonus_7", "bonus_678",
                        "bonus_777", "super_bonus", "suited_blackjack"})


def pay_tokens(r: Rules) -> tuple[str, ...]:
    """The payouts ``r`` sets away from their defaults, as its tokens (``BJ6:5``,
    ``B5C=3:2``): what a refusal names when the pays make a round's results too many or
    too fine to count."""
    return tuple(rule.spell(r) for rule in RULES
                 if PAY_FIELDS & set(rule.field_names) and not rule.is_default(r))


def suit_bonuses(r: Rules) -> bool:
    """Whether a payout depends on suits (B678, B777, SB, BSBJ)."""
    return (r.bonus_678 != NO_SUIT_BONUS or r.bonus_777 != NO_SUIT_BONUS
            or bool(r.super_bonus) or bool(r.suited_blackjack))


def _has_bonus(r: Rules) -> bool:
    """A 21 bonus (by card count, 6-7-8, 7-7-7, the Super Bonus) is paid."""
    return any(p != 1 for _n, p in _bonuses(r)) or r.bonus_678 != NO_SUIT_BONUS \
        or r.bonus_777 != NO_SUIT_BONUS or bool(r.super_bonus)


def _bonus_conflict(r: Rules) -> str | None:
    if not _has_bonus(r):
        return None
    if r.charlie:
        return (f"21 bonuses with CH{r.charlie}: a Charlie and a bonus on the "
                "same hand are not modelled")
    if r.free_doubles or r.free_splits:
        return "21 bonuses with free doubles or splits (FD, FS) are not modelled"
    return None


def _bonus_condition(r: Rules, token: str, on: bool) -> str | None:
    if on and not _has_bonus(r):
        return (f"{token} (a condition of the 21 bonuses) needs a bonus paying more than 1:1 "
                "(B5C, B6C, B7C, B678, B777 or SB)")
    return None


def deck_cards(r: Rules) -> int:
    """Cards in one deck of the game: a Spanish deck has no 10s (48 cards)."""
    return 48 if r.spanish_decks else 52


def _cut_conflict(r: Rules) -> str | None:
    shoe = deck_cards(r) * r.decks
    if r.cut_card >= shoe and r.decks != INFINITE:  # INF refuses any cut card itself
        return (f"CUT{r.cut_card} with {r.decks}D{' SP' if r.spanish_decks else ''}: the cut "
                f"card must come before the end of the {shoe}-card shoe")
    return None


_DOUBLE_WORDS: dict[Enum, str] = {
    Double.ANY: "double down on any first two cards",
    Double.NINE_TO_ELEVEN: "double down on hard 9, 10 or 11 only",
    Double.TEN_ELEVEN: "double down on hard 10 or 11 only"}
_SURRENDER_WORDS: dict[Enum, str] = {
    Surrender.NONE: "no surrender",
    Surrender.LATE: "late surrender (after the peek), first two cards only",
    Surrender.EARLY: "early surrender (before any dealer blackjack check)"}
_HOLE_WORDS: dict[Enum, str] = {
    HoleCard.PEEK: "dealer peeks for blackjack with an ace or ten up; a peeked blackjack "
                   "takes only the original bet",
    HoleCard.PEEK_ACE: "dealer peeks for blackjack with an ace up only; with a ten up a "
                       "dealer blackjack shows at the end",
    HoleCard.NO_HOLE_CARD: "no hole card (ENHC): the dealer's second card comes after the "
                           "players"}


def _decks_token(m: re.Match[str]) -> Changes:
    decks = _whole(m.group(1))
    if decks == 0:
        raise RuleError(f"rule token {m.group(0)!r}: a shoe needs at least one deck (INF for "
                        "an infinite deck)")
    return {"decks": decks}


def _decks_words(r: Rules) -> str:
    if r.decks == INFINITE:
        return ("an infinite deck (INF): every card drawn with one "
                f"{'Spanish ' if r.spanish_decks else ''}deck's chances, whatever was dealt")
    return f"{r.decks} deck{'s' if r.decks > 1 else ''}"


def _decks_range(r: Rules) -> str | None:
    if isinstance(r.decks, float):  # the field's type admits a float for math.inf only
        return None if r.decks == INFINITE else (
            f"rule field 'decks' must be an int or math.inf (INF), not {r.decks!r}")
    return None if 1 <= r.decks <= MAX_DECKS else (
        f"number of decks must be a whole number 1 to {MAX_DECKS}, not {r.decks!r}")


def infinite_refusal(r: Rules) -> str | None:
    """Why an infinite deck cannot go with these rules (the engine models it without suits,
    free bets, ranks of tens, a cut card, or OBO where a blackjack goes unchecked)."""
    if r.decks != INFINITE:
        return None
    why = []
    if r.hole_card is not HoleCard.PEEK and not r.unpeeked_bj_takes_all:
        why.append(f"OBO with {r.hole_card.value} (an unchecked dealer blackjack is modelled "
                   "taking every bet there)")
    if suit_bonuses(r):
        why.append("suit bonuses (B678, B777, SB, BSBJ)")
    if r.free_doubles or r.free_splits:
        why.append("free doubles or splits (FD, FS)")
    if r.split_by_rank:
        why.append("SPR")
    if r.cut_card:
        why.append(f"CUT{r.cut_card} (an infinite deck has no cut card)")
    return "INF with " + ", ".join(why) + ": not modelled on an infinite deck" if why else None


RULES: tuple[Rule, ...] = (
    Rule("decks", (Field("decks", int | float, 6),),
         (Token(re.compile(r"(\d+)D"), _decks_token), _fixed("INF", decks=INFINITE)),
         lambda r: "INF" if r.decks == INFINITE else f"{r.decks}D", _decks_words, always=True,
         out_of_range=_decks_range,
         conflict=infinite_refusal,
         changes=lambda _r: ({"decks": d} for d in DECKS), examples=("1D", "2D", "8D")),
    _switch("spanish decks", "spanish_decks", on="SP",
            said=(None, "Spanish decks: 48 cards each, the four 10s removed (J, Q, K kept)"),
            changes=_toggle("spanish_decks"), examples=("SP", "1D SP", "8D SP")),
    _switch("soft 17", "hits_soft_17", on="H17", off="S17", always=True,
            said=("dealer stands on soft 17", "dealer hits soft 17"),
            changes=_toggle("hits_soft_17"), examples=("H17",)),
    _choice("doubling", "double", Double, Double.ANY, words=_DOUBLE_WORDS, always=True),
    _switch("double any cards", "double_any_cards", on="DAN",
            said=(None, "double down on any number of cards, after hitting too (split hands "
                        "with DAS), on the totals the doubling rule allows; a 21 is not "
                        "doubled"),
            changes=_toggle("double_any_cards")),
    Rule("redoubles", (Field("redoubles", int, 0),),
         (Token(re.compile(r"RD(\d+)"), lambda m: {"redoubles": _positive(m)}),),
         lambda r: f"RD{r.redoubles}" if r.redoubles else "no RD",
         lambda r: None if not r.redoubles else (
             f"redouble: after a paid double's card the hand may double again, up to "
             f"{r.redoubles} more time{'s' if r.redoubles > 1 else ''} (stakes 4"
             + ("" if r.redoubles == 1 else ", 8" if r.redoubles == 2 else ", 8, 16")
             + "), on the totals the doubling rule allows; a 21 is not redoubled"),
         out_of_range=lambda r: None if 0 <= r.redoubles <= 3 else (
             f"redoubles must be 1 to 3 (RD1-RD3), not {r.redoubles!r}"),
         conflict=lambda r: None if not (r.redoubles and r.free_doubles) else (
             f"RD{r.redoubles} with free doubles (FD): a redouble of a free double is not "
             "modelled"),
         changes=lambda r: [{"redoubles": 0 if r.redoubles else 3}],
         examples=("RD1", "RD3", "RD2 DAN")),
    _switch("double-down rescue", "double_rescue", on="DDR",
            said=(None, "double-down rescue: after the double's card the player may give up "
                        "the hand and lose half its stake: the original bet, or half the "
                        "redoubled stake after redoubles (a paid double, split hands too; a "
                        "busted double is lost)"),
            conflict=_rescue_conflict, changes=_toggle("double_rescue")),
    _switch("double after split", "double_after_split", on="NDAS", off="DAS", default=True,
            always=True, said=("double after split allowed", "no double after split"),
            changes=_toggle("double_after_split", _splits), examples=("NDAS",)),
    Rule("splits", (Field("max_hands", int, 4),),
         (_fixed("NSPL", max_hands=1),
          Token(re.compile(r"SPL([123])"), lambda m: {"max_hands": _whole(m.group(1)) + 1})),
         lambda r: "NSPL" if r.max_hands == 1 else f"SPL{r.max_hands - 1}",
         lambda r: "no splitting" if r.max_hands == 1 else (
             f"pairs of equal value split up to {r.max_hands} hands"
             + ("" if r.max_hands == 2 else " (resplits)")), always=True,
         out_of_range=lambda r: None if r.max_hands in (1, 2, 3, 4) else (
             f"max_hands must be 1 (no split) to 4, not {r.max_hands!r}"),
         changes=_split_changes, examples=("NSPL", "SPL1", "SPL2")),
    _switch("resplit aces", "resplit_aces", on="RSA", off="NRSA",
            said=("aces split once", "aces may be resplit"),
            # resplitting needs a third hand
            changes=_toggle("resplit_aces", lambda r: _splits(r) and r.split_aces
                            and (r.max_hands > 2 or r.resplit_aces)), examples=("RSA",)),
    _switch("hit split aces", "hit_split_aces", on="HSA", off="NHSA",
            said=("split aces receive one card each", "split aces may be hit"),
            changes=_toggle("hit_split_aces", lambda r: _splits(r) and r.split_aces),
            examples=("HSA",)),
    _choice("surrender", "surrender", Surrender, Surrender.NONE, words=_SURRENDER_WORDS,
            always=True),
    _switch("surrender after hitting", "surrender_after_hit", on="SAH",
            said=(None, "surrender after hitting too (SAH overrides \"first two cards only\"): "
                        "a hand not split or doubled may also be surrendered at three cards "
                        "or more, for half its bet"),
            conflict=_sah_conflict,
            changes=_toggle("surrender_after_hit",
                            lambda r: r.surrender is not Surrender.NONE
                            and r.hole_card is HoleCard.PEEK),
            examples=("LS SAH", "ES SAH")),
    Rule("blackjack payout", (Field("blackjack_pays", Fraction, Fraction(3, 2)),),
         (Token(re.compile(r"BJ(\d+):(\d+)"),
                lambda m: {"blackjack_pays": _ratio(m, m.group(1), m.group(2))}),),
         lambda r: f"BJ{r.blackjack_pays.numerator}:{r.blackjack_pays.denominator}",
         lambda r: (f"blackjack pays {r.blackjack_pays.numerator}:"
                    f"{r.blackjack_pays.denominator}; A+T after a split is 21"),
         out_of_range=lambda r: None if r.blackjack_pays >= 0 else (
             f"blackjack payout must be a non-negative fraction, not {r.blackjack_pays!r}"),
         changes=lambda _r: ({"blackjack_pays": p} for p in PAYOUTS),
         examples=("BJ6:5", "BJ1:1", "BJ2:1", "BJ7:5", "BJ0:1")),
    _choice("hole card", "hole_card", HoleCard, HoleCard.PEEK, words=_HOLE_WORDS,
            always=False),
    _switch("unpeeked blackjack", "unpeeked_bj_takes_all", on="OBO", default=True,
            words=lambda r: None if r.hole_card is HoleCard.PEEK else (
                "an unchecked dealer blackjack takes " + (
                    "all the money the player paid (doubles, splits)"
                    if r.unpeeked_bj_takes_all else "only the original bet")),
            changes=_toggle("unpeeked_bj_takes_all", lambda r: r.hole_card is not HoleCard.PEEK),
            examples=("OBO", "OBO ENHC")),
    Rule("charlie", (Field("charlie", int, 0),),
         (Token(re.compile(r"CH(\d+)"), lambda m: {"charlie": _positive(m)}),),
         lambda r: f"CH{r.charlie}" if r.charlie else "no CH",
         lambda r: None if not r.charlie else (
             f"{r.charlie}-card Charlie wins 1:1 automatically"
             + (", also against an unchecked dealer blackjack" if r.charlie_beats_bj else "")),
         out_of_range=lambda r: None if not r.charlie or 3 <= r.charlie <= 12 else (
             f"Charlie card count must be 3 to 12, not {r.charlie!r}"),
         changes=_charlie_changes, examples=("CH3", "CH7", "CH12")),
    # Said in the Charlie's line.  Only an unchecked dealer blackjack can meet a Charlie.
    _switch("charlie beats blackjack", "charlie_beats_bj", on="CHBJ", words=_fine,
            conflict=lambda r: None if r.charlie or not r.charlie_beats_bj else (
                "CHBJ (Charlie beats a dealer blackjack) needs a Charlie rule (CHn)"),
            changes=_toggle("charlie_beats_bj", lambda r: bool(r.charlie) and (
                r.hole_card is not HoleCard.PEEK or r.charlie_beats_bj)),
            examples=("CHBJ CH6", "CHBJ CH5 ENHC")),
    _switch("21 stands", "stand_on_21", on="A21",
            said=(None, "a hand of 21 stands automatically (no hitting a soft 21)"),
            changes=_toggle("stand_on_21")),
    _switch("push 22", "push_22", on="P22",
            said=(None, "a dealer 22 pushes every live hand except blackjack and Charlie"),
            changes=_toggle("push_22")),
    _switch("blackjack beats blackjack", "blackjack_wins", on="BJW",
            words=lambda r: None if not r.blackjack_wins else (
                "a player's blackjack beats a dealer blackjack: paid "
                f"{r.blackjack_pays.numerator}:{r.blackjack_pays.denominator} instead of pushing"),
            changes=_toggle("blackjack_wins")),
    _switch("player 21 wins", "player_21_wins", on="P21W",
            said=(None, "a player's 21 that is not a blackjack (after hitting, doubling or "
                        "splitting) always wins 1:1 on its stake, against a dealer 21 or 22 "
                        "too; only a dealer blackjack nobody checked beats it"),
            changes=_toggle("player_21_wins")),
    *(_bonus_rule(n, pays) for n, pays in zip((5, 6, 7), SPANISH_21_BONUS, strict=True)),
    _suit_bonus_rule("678"),
    _suit_bonus_rule("777"),
    _ratio_rule("super bonus", "super_bonus", "SB",
                lambda p: f"Super Bonus: a winning suited 7-7-7 (three cards) against a "
                          f"dealer 7 pays {_pays(p)}, not on a split or doubled hand",
                SUPER_BONUS, Fraction(1), _bonus_conflict),
    _ratio_rule("suited blackjack", "suited_blackjack", "BSBJ",
                lambda p: f"a suited blackjack (ace and ten-valued card of one suit) pays "
                          f"{_pays(p)}", Fraction(2), Fraction(0)),
    _switch("bonus not on doubles", "bonus_not_doubled", on="BND",
            said=(None, "the 21 bonuses are not paid on a doubled hand (it is paid 1:1)"),
            conflict=lambda r: _bonus_condition(r, "BND", r.bonus_not_doubled),
            changes=_toggle("bonus_not_doubled", _has_bonus),
            examples=("BND B5C=3:2",)),
    _switch("bonus not on splits", "bonus_not_split", on="BNS",
            said=(None, "the 21 bonuses are not paid on a split hand"),
            conflict=lambda r: _bonus_condition(r, "BNS", r.bonus_not_split),
            changes=_toggle("bonus_not_split", lambda r: _has_bonus(r) and _splits(r)),
            examples=("BNS B5C=3:2",)),
    Rule("free doubles", (Field("free_doubles", frozenset[int], frozenset()),),
         (Token(re.compile(r"FD([\d,-]+)"),
                lambda m: {"free_doubles": _int_set(m.group(1), m.group(0))}),),
         lambda r: "FD" + format_set(r.free_doubles) if r.free_doubles else "no FD",
         lambda r: None if not r.free_doubles else (
             "free double on two-card hard " + format_set(r.free_doubles)
             + " (the free bet wins 1:1, costs nothing otherwise)"),
         out_of_range=lambda r: None if all(4 <= t <= 20 for t in r.free_doubles) else (
             f"free doubles must be hard totals 4-20, not {sorted(r.free_doubles)}"),
         changes=lambda r: [{"free_doubles": frozenset() if r.free_doubles else FREE_DOUBLES}],
         examples=("FD9-11", "FD10,11", "FD4-20", "FD4,6-8,20")),
    Rule("free splits", (Field("free_splits", frozenset[int], frozenset()),),
         (Token(re.compile(r"FS([\dAT,-]+)"),
                lambda m: {"free_splits": _value_set(m.group(1), m.group(0))}),),
         lambda r: "FS" + format_set(r.free_splits, symbols=True) if r.free_splits else "no FS",
         lambda r: None if not r.free_splits else (
             "free split of pairs " + format_set(r.free_splits, symbols=True)
             + "; the second hand carries the free bet"),
         out_of_range=lambda r: None if all(1 <= v <= 10 for v in r.free_splits) else (
             f"free splits must be pair values A-T, not {sorted(r.free_splits)}"),
         conflict=_free_split_conflict,
         changes=lambda r: [{"free_splits": frozenset() if r.free_splits else FREE_SPLITS}]
         if r.max_hands == 2 or r.free_splits else [],
         examples=("FSA-9 SPL1", "FS8 SPL1", "FSA,T SPL1", "FS2-4,6 SPL1")),
    _switch("split by rank", "split_by_rank", on="SPR",
            said=(None, "pairs split by rank only (J-K is not a pair)"),
            changes=_toggle("split_by_rank", _splits)),
    _switch("split aces", "split_aces", on="NSA", default=True,
            said=(None, "aces may not be split"), changes=_toggle("split_aces", _splits)),
    _switch("surrender vs ace", "surrender_vs_ace", on="SNA", default=True,
            words=lambda r: "no surrender against an ace"
            if not r.surrender_vs_ace and r.surrender is not Surrender.NONE else None,
            changes=_toggle("surrender_vs_ace", lambda r: r.surrender is not Surrender.NONE),
            compare_after="surrender", examples=("SNA", "SNA LS")),
    # Not varied by the effects table: insurance is a separate bet.
    _switch("insured hand splits", "insured_no_split", on="INSNS",
            said=(None, "an insured hand may not be split")),
    # Not varied by the effects table: the cut-card effect is not in a round's full-shoe EV.
    Rule("cut card", (Field("cut_card", int, 0),),
         (Token(re.compile(r"CUT(\d+)"), lambda m: {"cut_card": _positive(m)}),),
         lambda r: f"CUT{r.cut_card}" if r.cut_card else "no CUT",
         lambda r: f"reshuffle after {r.cut_card} cards (cut card)" if r.cut_card else None,
         out_of_range=lambda r: None if r.cut_card >= 0 else (
             f"cut card must be a whole number >= 0 of cards, not {r.cut_card!r}"),
         conflict=_cut_conflict, examples=("CUT1", "CUT52", "CUT200")),
)
"""Every rule, in the order of the canonical spec and of the words."""



def _in_comparison_order(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    order = [r for r in rules if r.compare_after is None]
    for r in rules:
        if r.compare_after is not None:
            at = next(i for i, o in enumerate(order) if o.name == r.compare_after)
            order.insert(at + 1, r)
    return tuple(order)


COMPONENTS: tuple[Rule, ...] = _in_comparison_order(RULES)
"""Every rule in the order of a comparison (components, effects, Shapley players)."""
BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}
FIELDS: dict[str, Field] = {f.name: f for r in RULES for f in r.fields}


def differing(a: Rules, b: Rules) -> list[Rule]:
    """The rules whose value differs between two rule sets, in :data:`COMPONENTS` order."""
    return [r for r in COMPONENTS if r.differs(a, b)]


def read_spec(spec: str) -> Changes:
    """The field values the tokens of ``spec`` set (a :class:`RuleError` for a bad token).

    Two tokens setting the same field contradict each other and are refused.
    """
    if not isinstance(spec, str):
        raise RuleError(f"a rule spec is a string of tokens, not {shown(spec)}")
    changes: Changes = {}
    setter_of: dict[str, str] = {}
    for raw in spec.split():
        token = raw.upper()
        found = next((c for c in (r.read(token) for r in RULES) if c is not None), None)
        if found is None:
            raise RuleError(f"unknown rule token {raw!r}")
        for name, value in found.items():
            if name in setter_of:
                if setter_of[name].upper() == token:
                    raise RuleError(f"rule token {raw!r} is given twice")
                raise RuleError(f"rule token {raw!r} contradicts {setter_of[name]!r}")
            setter_of[name] = raw
            changes[name] = value
    return changes


def _check_pays(rules: Rules) -> None:
    """The notation's caps on a payout (:func:`_ratio`) for rules built from fields too
    (``Rules(blackjack_pays=Fraction(10**12))`` gave an RTP of 4.6 x 10^12 percent, and a
    repr that did not evaluate back)."""
    for name in sorted(PAY_FIELDS):
        value = getattr(rules, name)
        for pays in value if isinstance(value, tuple) else (value,):
            if isinstance(pays, Fraction) and (pays > MAX_RULE_PAY
                                               or pays.denominator > 10**MAX_DIGITS):
                raise RuleError(f"{name} = {shown(pays)}: a payout of at most {MAX_RULE_PAY:,}:1, "
                                f"in numbers of at most {MAX_DIGITS} digits")


def check(rules: Rules) -> None:
    """Refuse a rule set with a field of the wrong type or range, or contradictory rules.

    Types and ranges are notation errors (:class:`RuleError`), checked field by field
    first; contradictions between rules (:class:`RuleConflictError`) after.
    """
    for name, f in FIELDS.items():
        f.check_type(getattr(rules, name))
    _check_pays(rules)
    for rule in RULES:
        problem = rule.out_of_range(rules)
        if problem:
            raise RuleError(problem)
    for rule in RULES:
        problem = rule.conflict(rules)
        if problem:
            raise RuleConflictError(problem)


__all__ = ["BY_NAME", "COMPONENTS", "Changes", "Double", "FIELDS", "Field", "HoleCard",
           "INFINITE", "PAY_FIELDS", "RULES", "Rule", "Surrender", "Token", "check",
           "deck_cards", "differing", "format_set", "infinite_refusal", "pay_tokens",
           "read_spec"]
