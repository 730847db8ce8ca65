"""Playing decisions as values of a shoe: how much better one action is than another.

A *decision* compares two actions for a two-card hand against an upcard; its
value on a shoe is ``EV(first) - EV(second)`` per unit of the initial bet,
from an exact analysis of that shoe (conditioned on no dealer blackjack where
the dealer peeks, as every per-hand EV).  The special decision ``insurance``
is the EV of the insurance bet per unit of that bet, ``3 p - 1``.

Syntax (``--decision``, case-insensitive, spaces ignored)::

    HANDvUP:FIRST-SECOND     e.g.  16vT:stand-hit   T,6vT:S-H   T,Tv6:split-stand
    insurance

``HAND`` is either cards (``T,6``; a pair ``8,8``) or a total: ``16`` or
``h16`` (hard), ``s18`` (soft).  A total stands for every two-card hand with
that total *except pairs* (a pair is its own decision: give its cards), each
weighted by its chance of being dealt from the shoe analysed.  ``UP`` is the
dealer's upcard (A, 2-9, T).  Actions: ``stand``/``S``, ``hit``/``H``,
``double``/``D``, ``split``/``P``, ``surrender``/``R``.

>>> d = parse_decision("16vT:stand-hit")
>>> d.label, d.hands
('16 v T: stand - hit', ((6, 10), (7, 9)))
>>> parse_decision("t,tv5:p-s").key
'T,Tv5:split-stand'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Action
from analyzer.core.arith import Number
from analyzer.core.cards import composition, format_value, hand_total, parse_cards, parse_value
from analyzer.core.errors import AnalyzerError, HandError, UsageError
from analyzer.core.numbers import parse_whole, shown
from analyzer.core.rules import Rules, Surrender
from analyzer.core.shoe import Shoe
from analyzer.engine.hands import double_allowed

ActionsOf = Callable[[int, tuple[int, ...]], dict[int, Number]]  # (up, hand) -> action EVs
ACTIONS = {**{a.label: a for a in Action}, **{a.code.lower(): a for a in Action}}
_SYNTAX = re.compile(r"^(?P<hand>[^v:]+)v(?P<up>[^:]+):(?P<first>[a-z]+)-(?P<second>[a-z]+)$")


class DecisionError(UsageError):
    """A malformed decision, or one the rules or the shoe do not allow."""


@dataclass(frozen=True)
class Decision:
    """``EV(first) - EV(second)`` for ``hands`` against ``upcard`` (or insurance)."""

    label: str  # for tables: "16 v T: stand - hit"
    key: str  # canonical --decision text: "16vT:stand-hit"
    upcard: int
    hands: tuple[tuple[int, int], ...] = ()
    first: int = STAND
    second: int = HIT
    insurance: bool = False

    def value(self, shoe: Shoe, actions: ActionsOf, exact: bool = False,
              mix: Shoe | None = None) -> Number:
        """The decision's value on ``shoe``, reading hand EVs from ``actions(up, hand)``.

        A total's hands are mixed by their chance of being dealt from ``mix`` (default
        ``shoe``); effects of removal hold the full shoe's mix, so that they measure the
        change in the hands' values, not in how often each hand is dealt.
        """
        if self.insurance:
            if shoe[1] == 0 or shoe.total < 2:
                raise DecisionError("insurance: the shoe holds no ace for the upcard")
            p = Fraction(shoe[10], shoe.total - 1)
            return 3 * p - 1 if exact else float(3 * p - 1)
        total: Number = 0
        weight_sum: Number = 0
        for hand in self.hands:
            w = deal_weight(mix if mix is not None else shoe, self.upcard, hand)
            if w == 0:
                continue
            weight: Number = w if exact else float(w)
            total += weight * self.hand_value(actions, hand)
            weight_sum += weight
        if not weight_sum:
            raise DecisionError(f"{self.label}: no such hand can be dealt from this shoe")
        return total / weight_sum

    def hand_value(self, actions: ActionsOf, hand: tuple[int, int]) -> Number:
        """``EV(first) - EV(second)`` for one two-card hand."""
        try:
            evs = actions(self.upcard, hand)
        except (HandError, KeyError) as err:
            raise DecisionError(f"{self.label}: {err}") from None
        for action in (self.first, self.second):
            if action not in evs:
                shown = ",".join(format_value(c) for c in hand)
                raise DecisionError(f"{self.label}: {Action(action).label} is not allowed "
                                    f"with {shown} against {format_value(self.upcard)} "
                                    "under these rules")
        return evs[self.first] - evs[self.second]


def not_allowed(decision: Decision, rules: Rules) -> str | None:
    """Why ``rules`` never offer one of the decision's actions, or None if they may."""
    if decision.insurance:
        return None
    for action in (decision.first, decision.second):
        if action == SURRENDER and (rules.surrender is Surrender.NONE or
                                    (decision.upcard == 1 and not rules.surrender_vs_ace)):
            return "no surrender against this upcard"
        if action == DOUBLE and not any(
                double_allowed(rules.double, composition(h)) or
                hand_total(h)[0] in rules.free_doubles for h in decision.hands):
            return "no double on this hand"
        if action == SPLIT and (rules.max_hands < 2 or
                                (decision.hands[0][0] == 1 and not rules.split_aces)):
            return "no split of this pair"
    return None


def deal_weight(shoe: Shoe, upcard: int, hand: tuple[int, int]) -> Fraction:
    """Chance of being dealt ``hand`` (either order), given the upcard came from ``shoe``."""
    a, b = hand
    n = list(shoe.counts)
    if n[upcard - 1] == 0:
        return Fraction(0)
    n[upcard - 1] -= 1
    rest = sum(n)
    ways = n[a - 1] * (n[b - 1] - (a == b))
    if ways <= 0:
        return Fraction(0)
    return Fraction(ways * (1 if a == b else 2), rest * (rest - 1))


def hands_with_total(total: int, soft: bool) -> tuple[tuple[int, int], ...]:
    """The two-card non-pair hands with this total (``soft``: an ace counted 11).

    >>> hands_with_total(12, False)
    ((2, 10), (3, 9), (4, 8), (5, 7))
    """
    found = []
    for a in range(1, 11):
        for b in range(a + 1, 11):
            if hand_total((a, b)) == (total, soft) and not (a == 1 and b == 10):
                found.append((a, b))
    return tuple(found)


def parse_decision(text: str) -> Decision:
    """Parse the ``--decision`` syntax of the module docstring."""
    compact = re.sub(r"\s+", "", text).lower()
    if compact in ("insurance", "ins"):
        return Decision(label="insurance", key="insurance", upcard=1, insurance=True)
    m = _SYNTAX.match(compact)
    if not m:
        raise DecisionError(f"decision {text!r} is not HANDvUP:ACTION-ACTION "
                            "(e.g. 16vT:stand-hit, T,Tv6:split-stand) or 'insurance'")
    try:
        up = int(parse_value(m["up"]))
    except AnalyzerError:
        raise DecisionError(f"decision {text!r}: unknown upcard {m['up']!r}") from None
    first, second = (_action(m[k], text) for k in ("first", "second"))
    if first == second:
        raise DecisionError(f"decision {text!r} compares {Action(first).label} with itself")
    hand_text = m["hand"]
    if "," in hand_text:
        hands, shown = _cards_hand(hand_text, text)
    else:
        hands, shown = _total_hand(hand_text, text, first, second)
    if SPLIT in (first, second) and hands[0][0] != hands[0][1]:
        raise DecisionError(f"decision {text!r}: only a pair can split")
    up_text, words = format_value(up), (Action(first).label, Action(second).label)
    return Decision(label=f"{shown} v {up_text}: {words[0]} - {words[1]}",
                    key=f"{shown}v{up_text}:{words[0]}-{words[1]}",
                    upcard=up, hands=hands, first=first, second=second)


def _action(word: str, text: str) -> int:
    if word not in ACTIONS:
        raise DecisionError(f"decision {text!r}: unknown action {word!r} (use stand, hit, "
                            "double, split, surrender or S, H, D, P, R)")
    return ACTIONS[word]


def _cards_hand(hand_text: str, text: str) -> tuple[tuple[tuple[int, int], ...], str]:
    try:
        cards = tuple(int(c) for c in parse_cards(hand_text))
    except AnalyzerError as err:
        raise DecisionError(f"decision {text!r}: {err}") from None
    if len(cards) != 2:
        raise DecisionError(f"decision {text!r}: a decision is about a two-card hand")
    if sorted(cards) == [1, 10]:
        raise DecisionError(f"decision {text!r}: a blackjack has no decision")
    a, b = sorted(cards)
    shown = f"A,{format_value(b)}" if a == 1 else f"{format_value(b)},{format_value(a)}"
    return ((a, b),), shown


def _total_hand(hand_text: str, text: str, first: int,
                second: int) -> tuple[tuple[tuple[int, int], ...], str]:
    m = re.fullmatch(r"([hs]?)(\d+)", hand_text)
    if not m:
        raise DecisionError(f"decision {text!r}: hand {hand_text!r} is neither cards "
                            "(T,6) nor a total (16, h16, s18)")
    soft = m[1] == "s"
    total = parse_whole(m[2], f"decision {shown(text)}: total", DecisionError, minimum=None)
    if SPLIT in (first, second):
        raise DecisionError(f"decision {text!r}: a split needs the pair's cards (e.g. 8,8)")
    hands = hands_with_total(total, soft)
    if not hands:
        kind = "soft" if soft else "hard"
        raise DecisionError(f"decision {text!r}: no two-card non-pair hand is {kind} {total}")
    return hands, f"{'s' if soft else ''}{total}"


__all__ = ["Decision", "DecisionError", "deal_weight", "hands_with_total", "not_allowed",
           "parse_decision"]
