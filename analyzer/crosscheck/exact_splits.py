"""The exact expected value of a whole split round, by enumeration, on small shoes.

:mod:`analyzer.engine.splits` values a split with Eric Farmer's algorithm: each split
hand is played against a dealer drawing from the shoe less the upcard, its own
cards and the pair cards split off (second cards of the other hands enter only
as random non-pair cards); the cards *hit* to the other split hands are not
removed.  This module instead enumerates every card sequence of the round,
exactly as a casino deals it, with the player following a *given* decision
rule.  It is an independent check: for strategies that look only at a hand's
own cards (CDZ-), both agree exactly, as fractions, which the tests verify.

What is modelled
----------------
The pair is split into two hands, each holding one pair card.  Hand 1 receives
its second card; a pair card is split off into a new hand (played right after
the current one) while there are fewer than ``max_hands`` hands, and the hand
draws again.  Once it holds a non-resplit second card it is played to the end
by ``decide(composition, options)``: ``{STAND, HIT}``, plus ``DOUBLE`` on two
cards when ``double_allowed(composition)``; ``{STAND, HIT}`` after a hit; play
stops on a bust (a hand of 21 is still asked).  With ``one_card`` (split aces)
each hand takes one card and stands.  Then the next hand gets its second card,
and so on.  The dealer completes his hand from the cards actually left (stands
on 17, hits soft 17 if ``hits_soft_17``).  A bust loses its bet (1, or 2 when
doubled); otherwise the hand is compared with the dealer; ace + ten after a split
is 21, not a blackjack.

* ``peek`` with an ace or a ten up: the dealer is known to have no blackjack.
  The hole card is drawn first, uniformly among the unseen cards that do not
  complete a blackjack; the dealer later draws his hits from what remains.
* Otherwise the hole card is the dealer's first card after the players.  In a
  no-peek game a blackjack then takes each hand's full bet (``bj_loses_all``)
  or exactly one unit for the whole split (``not bj_loses_all``).

The result is in units of the original bet, summed over every hand.

How
---
The player's decisions depend only on a hand's composition, so the play from
any point does not depend on the hands already finished.  Each recursion state
(cards left, the current hand, the number of hands waiting and made) therefore
returns a vector: the EV of the hands finished from there on, and for each
possible final total of a hand finished *before* it (16 or less, 17..21, bust)
its expected result against the eventual dealer hand.  A hand finishing on
total ``t`` with bet ``b`` adds ``b * vector[t]`` of the state it leaves; no
list of finished hands is carried.  States are memoised
(:func:`functools.cache`), decisions are asked once per composition, and the
dealer's outcomes are memoised per (cards left, dealer hand).

The peek condition is handled by Bayes: the unseen cards are in uniformly
random order, so the law of (hole card, player cards, dealer hits) is the same
whether the hole is drawn first or right after the players.  The round is
enumerated with the hole drawn after the players, a dealer blackjack paying 0,
and the total divided by ``P(no blackjack) = (N - b) / N`` -- exactly the
expectation under "hole drawn first among the non-blackjack cards", without a
hole-card dimension in the states.

A value at a state with ``n`` cards left is carried times ``n!``, so drawing a
card of value ``v`` (``c_v`` of them) multiplies by the integer ``c_v``:
``exact=True`` runs in integers and divides once into a
:class:`fractions.Fraction`; ``exact=False`` runs the same code in floats.

Scale: a 20-card shoe takes a few seconds; a full deck is far out of reach (the
number of states grows like the product of the counts), so shoes of more than
60 cards are refused.

Small shoes can run out.  No rule is invented for that: a
:class:`~analyzer.core.errors.ShoeError` is raised when a reachable sequence needs a
card the shoe no longer has *and that card decides a bet* -- a split hand's
second card or a hit or double drawn from an empty shoe, or the dealer's hole
card or hits while some hand still stands (or, without a hole card to tell,
whether there is a dealer blackjack, when it matters).  A dealer running out
behind hands that have all busted decides nothing and is no error.

>>> tens = (0,) * 9 + (8,)
>>> stand_17 = lambda comp, options: 0  # always stand
>>> exact_split_ev(tens, 7, 8, max_hands=4, one_card=False, decide=stand_17,
...                double_allowed=lambda comp: True, hits_soft_17=False, peek=True)
Fraction(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from analyzer.core.errors import ImpossibleShoeError, RuleConflictError, ShoeError, StrategyError

STAND, HIT, DOUBLE = 0, 1, 2  # the engine's action codes (analyzer.engine.hands)
MAX_CARDS = 60

# Dealer outcome indices of dealer_final_distribution.
D17, D18, D19, D20, D21, D_BUST, D_BLACKJACK = range(7)
N_DEALER = 7

# Categories of a finished player hand (its total, as far as settling goes).
_LOW, _BUST = 0, 6  # 16 or less; 17..21 are 1..5; bust
_FUTURE = 7  # the vector slot holding the EV of the hands still to finish
_VEC = 8

Number = Any  # int (exact, scaled by n!) or float: one algorithm, two arithmetics
Vec = tuple[Any, ...]
Shoe = tuple[int, ...]


def _blackjack_card(upcard: int) -> int:
    """The hole value that completes a dealer blackjack (0: none)."""
    return 10 if upcard == 1 else 1 if upcard == 10 else 0


def _minus(shoe: Shoe, value: int) -> Shoe:
    return shoe[: value - 1] + (shoe[value - 1] - 1,) + shoe[value:]


def _total(comp: Shoe) -> int:
    hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
    return hard + 10 if comp[0] and hard + 10 <= 21 else hard


def _category(total: int) -> int:
    return _BUST if total > 21 else _LOW if total <= 16 else total - 16


def _exhausted(who: str) -> ShoeError:
    return ImpossibleShoeError(f"the shoe runs out of cards while the {who} must draw on a "
                               "reachable card sequence that decides a bet; the exact split EV "
                               "is only defined when every such sequence can be dealt")


class _Undefined:
    """An outcome that needs a card the shoe no longer has; absorbs all arithmetic.

    It only becomes an error when a bet's result is read from it: a dealer who
    runs out of cards behind busted hands decides nothing.
    """

    def __repr__(self) -> str:
        return "UNDEFINED"

    def _absorb(self, other: object) -> _Undefined:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _absorb

    def __neg__(self) -> _Undefined:
        return self


UNDEFINED = _Undefined()


class _Dealer:
    """The dealer's outcomes, memoised over (cards left, dealer hand), scaled by ``m!``.

    A value at a state with ``m`` cards left is stored times ``m!``: drawing
    value ``v`` (``c_v`` of ``m``) then multiplies by ``c_v`` exactly, since
    ``m! * c_v / m = c_v * (m - 1)!``.  Exact mode stays in integers.
    """

    def __init__(self, upcard: int, hits_soft_17: bool, fact: list[Number]) -> None:
        self.upcard = upcard
        self.fact = fact
        self.zero: Number = fact[0] * 0
        self._memo: dict[tuple[Shoe, int, bool], list[Number]] = {}
        # _stop[ace][hard]: the outcome index of a finished hand, or -1 to draw on.
        self._stop = [[-1] * 32, [-1] * 32]
        for ace in (0, 1):
            for hard in range(2, 32):
                soft = bool(ace) and hard <= 11
                total = hard + 10 if soft else hard
                if total > 21:
                    self._stop[ace][hard] = D_BUST
                elif total > 17 or (total == 17 and not (soft and hits_soft_17)):
                    self._stop[ace][hard] = total - 17

    def _unit(self, outcome: int, m: int) -> list[Number]:
        vec = [self.zero] * N_DEALER
        vec[outcome] = self.fact[m]
        return vec

    def draw(self, shoe: Shoe, hard: int, ace: bool) -> list[Number]:
        """Outcomes of a dealer hand of hard total ``hard`` (2+ cards) drawing from ``shoe``."""
        stop = self._stop[ace][hard]
        if stop >= 0:
            return self._unit(stop, sum(shoe))
        key = (shoe, hard, ace)
        found = self._memo.get(key)
        if found is not None:
            return found
        m = sum(shoe)
        if not m:  # every outcome but a blackjack is undefined
            return [UNDEFINED] * D_BLACKJACK + [self.zero]
        acc = [self.zero] * N_DEALER
        step = self.fact[m - 1]  # a finished hand's m! * c / m, per card c
        for v in range(1, 11):
            c = shoe[v - 1]
            if not c:
                continue
            now_ace = ace or v == 1
            stop = self._stop[now_ace][hard + v]
            if stop >= 0:
                acc[stop] += c * step
            else:
                sub = self.draw(_minus(shoe, v), hard + v, now_ace)
                acc = [a + c * x for a, x in zip(acc, sub, strict=True)]
        self._memo[key] = acc
        return acc

    def final(self, shoe: Shoe, hole: int) -> list[Number]:
        """Outcomes with hole card ``hole`` (out of ``shoe``), or ``0``: the hole is drawn now."""
        up = self.upcard
        bj = _blackjack_card(up)
        if hole:
            if hole == bj:
                return self._unit(D_BLACKJACK, sum(shoe))
            return self.draw(shoe, up + hole, up == 1 or hole == 1)
        if not any(shoe):  # no hole card: only "no blackjack" is known, if none is possible
            return [UNDEFINED] * D_BLACKJACK + [UNDEFINED if bj else self.zero]
        acc = [self.zero] * N_DEALER
        for v in range(1, 11):
            c = shoe[v - 1]
            if c:
                left = _minus(shoe, v)
                sub = (self._unit(D_BLACKJACK, sum(left)) if v == bj
                       else self.draw(left, up + v, up == 1 or v == 1))
                acc = [a + c * x for a, x in zip(acc, sub, strict=True)]
        return acc


def _factorials(n: int, exact: bool) -> list[Number]:
    fact: list[Number] = [1 if exact else 1.0]
    for k in range(1, n + 1):
        fact.append(fact[-1] * k)
    return fact


def _scale(value: Number, den: int, exact: bool) -> Fraction | float:
    """``value / den``: a Fraction of two integers, or a float."""
    return Fraction(value, den) if exact else float(value) / float(den)


def dealer_final_distribution(
    shoe: tuple[int, ...], upcard: int, hole: int | None, hits_soft_17: bool, *,
    exact: bool = True,
) -> tuple[Fraction | float, ...]:
    """The dealer's final outcomes ``(17, 18, 19, 20, 21, bust, blackjack)``.

    ``shoe`` holds the cards left (without the upcard, and without ``hole`` when
    the hole card is known).  With ``hole=None`` the hole card is the next card
    drawn, and a blackjack is possible.

    >>> d = dealer_final_distribution((0,) * 9 + (3,), 1, None, False)
    >>> d[6]
    Fraction(1, 1)
    >>> [str(x) for x in dealer_final_distribution((0, 0, 0, 0, 1, 0, 0, 0, 0, 1), 6, 10, False)]
    ['0', '0', '0', '0', '1/2', '1/2', '0']
    """
    counts = _check_shoe(shoe)
    if not 1 <= upcard <= 10 or (hole is not None and not 1 <= hole <= 10):
        raise ShoeError(f"card values are 1..10, got upcard {upcard}, hole {hole}")
    n = sum(counts)
    fact = _factorials(n, exact)
    dealer = _Dealer(upcard, hits_soft_17, fact)
    scaled = dealer.final(counts, hole or 0)
    if any(x is UNDEFINED for x in scaled):
        raise _exhausted("dealer")
    return tuple(_scale(x, math.factorial(n), exact) for x in scaled)


def _check_shoe(shoe: tuple[int, ...]) -> Shoe:
    counts = tuple(int(c) for c in shoe)
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise ShoeError(f"a shoe is ten non-negative counts (aces..tens), got {shoe!r}")
    if sum(counts) > MAX_CARDS:
        raise ImpossibleShoeError(f"exact split enumeration is for small shoes: "
                                  f"{sum(counts)} cards exceed the limit of {MAX_CARDS}")
    return counts


def exact_split_ev(
    shoe: tuple[int, ...],
    upcard: int,
    pair: int,
    *,
    max_hands: int,
    one_card: bool,
    decide: Callable[[tuple[int, ...], frozenset[int]], int],
    double_allowed: Callable[[tuple[int, ...]], bool],
    hits_soft_17: bool,
    peek: bool,
    bj_loses_all: bool = True,
    exact: bool = True,
) -> Fraction | float:
    """The exact EV of splitting ``pair`` against ``upcard``, the player following ``decide``.

    ``shoe``: counts of the unseen cards (index ``v - 1`` for value ``v``), the
    upcard and both pair cards already removed; in peek games the hole card is
    among them.  ``max_hands`` (2..4 in practice) bounds the number of hands;
    ``one_card``: each hand takes one card and stands (split aces; pass
    ``max_hands=2`` when aces may not be resplit).  ``decide(comp, options)``
    returns ``STAND`` (0), ``HIT`` (1) or ``DOUBLE`` (2) for a split hand's
    composition (ten counts, pair card included); ``double_allowed(comp)`` says
    whether a two-card split hand may double.  ``peek``: the dealer has checked
    for blackjack and has none (the result is conditioned on it);
    ``bj_loses_all``: in no-peek games, whether a dealer blackjack takes every
    bet (doubles included) or one unit in total.

    Returns the EV of the whole split in original-bet units (a Fraction when
    ``exact``, else a float).  Raises :class:`~analyzer.core.errors.ShoeError` (a
    ``ValueError``) for a malformed shoe, one of more than 60 cards, a peek
    conditioning no hole card satisfies, or a reachable draw from an empty shoe;
    ``ValueError`` for an action ``decide`` may not take.
    """
    counts = _check_shoe(shoe)
    if not 1 <= upcard <= 10 or not 1 <= pair <= 10:
        raise ShoeError(f"card values are 1..10, got upcard {upcard}, pair {pair}")
    if max_hands < 2:
        raise RuleConflictError(f"a split makes at least 2 hands, got max_hands={max_hands}")
    n_total = sum(counts)
    bj_card = _blackjack_card(upcard)
    conditioned = peek and bj_card > 0
    if conditioned and n_total == counts[bj_card - 1]:
        raise ImpossibleShoeError(f"every unseen card completes a dealer blackjack under upcard "
                        f"{upcard}: the no-blackjack condition is impossible")

    fact = _factorials(n_total, exact)
    zero: Number = fact[0] * 0
    dealer = _Dealer(upcard, hits_soft_17, fact)
    # What a dealer blackjack costs: with a peek it is conditioned away (paid 0 here,
    # then the total is divided by P(no blackjack)).
    bj_each = not peek and bj_loses_all  # every hand loses its bet
    bj_once = not peek and not bj_loses_all  # the split loses one unit in all
    decisions: dict[tuple[Shoe, bool], int] = {}

    def choose(comp: Shoe, two_cards: bool) -> int:
        key = (comp, two_cards)
        action = decisions.get(key)
        if action is None:
            options = {STAND, HIT}
            if two_cards and double_allowed(comp):
                options.add(DOUBLE)
            allowed = frozenset(options)
            action = decide(comp, allowed)
            if action not in allowed:
                raise StrategyError(f"decide returned {action!r} for hand {comp}, "
                                 f"allowed {sorted(allowed)}")
            decisions[key] = action
        return action

    def finished(vec: Vec, total: int, bet: int) -> Vec:
        """``vec`` of the state a hand leaves, plus that hand's own result."""
        result = vec[_category(total)]
        if result is UNDEFINED:
            raise _exhausted("dealer")
        out = list(vec)
        out[_FUTURE] = vec[_FUTURE] + bet * result
        return tuple(out)

    @cache
    def settle(rest: Shoe) -> Vec:
        """Every value times ``n!`` (``n`` cards left), like the dealer's."""
        d = dealer.final(rest, 0)
        one = fact[sum(rest)]
        made = d[D17:D21 + 1]
        bj = d[D_BLACKJACK]
        lose_bj = bj if bj_each else zero
        vec = [zero] * _VEC
        vec[_LOW] = d[D_BUST] - sum(made, zero) - lose_bj
        for t in range(17, 22):
            above = sum(made[t - 16:], zero)
            below = sum(made[: t - 17], zero)
            vec[_category(t)] = d[D_BUST] + below - above - lose_bj
        vec[_BUST] = -one if bj_each else bj - one
        vec[_FUTURE] = -bj if bj_once else zero
        return tuple(vec)

    def after_hand(rest: Shoe, pending: int, hands: int) -> Vec:
        return deal(rest, pending - 1, hands) if pending else settle(rest)

    @cache
    def deal(rest: Shoe, pending: int, hands: int) -> Vec:
        """A hand holding one pair card takes its second card; ``pending`` more wait."""
        if not any(rest):
            raise _exhausted("player")
        acc = [zero] * _VEC
        for v in range(1, 11):
            c = rest[v - 1]
            if not c:
                continue
            left = _minus(rest, v)
            if v == pair and hands < max_hands:
                child = deal(left, pending + 1, hands + 1)
            else:
                comp = [0] * 10
                comp[pair - 1] += 1
                comp[v - 1] += 1
                if one_card:
                    child = finished(after_hand(left, pending, hands),
                                     _total(tuple(comp)), 1)
                else:
                    child = play(left, tuple(comp), pair + v, True, pending, hands)
            acc = [a + c * x for a, x in zip(acc, child, strict=True)]
        return tuple(acc)

    @cache
    def play(rest: Shoe, comp: Shoe, hard: int, two_cards: bool, pending: int,
             hands: int) -> Vec:
        """A hand of composition ``comp`` (hard total ``hard``, not bust) plays on."""
        action = choose(comp, two_cards)
        if action == STAND:
            total = hard + 10 if comp[0] and hard <= 11 else hard
            return finished(after_hand(rest, pending, hands), total, 1)
        if not any(rest):
            raise _exhausted("player")
        acc = [zero] * _VEC
        ace = comp[0] > 0
        for v in range(1, 11):
            c = rest[v - 1]
            if not c:
                continue
            left = _minus(rest, v)
            new_hard = hard + v
            total = new_hard + 10 if (ace or v == 1) and new_hard <= 11 else new_hard
            if action == DOUBLE:
                child = finished(after_hand(left, pending, hands), total, 2)
            elif total > 21:
                child = finished(after_hand(left, pending, hands), total, 1)
            else:
                new = comp[: v - 1] + (comp[v - 1] + 1,) + comp[v:]
                child = play(left, new, new_hard, False, pending, hands)
            acc = [a + c * x for a, x in zip(acc, child, strict=True)]
        return tuple(acc)

    scaled = deal(counts, 1, 2)[_FUTURE]  # the EV times N!
    den = math.factorial(n_total)
    if conditioned:
        # Divide by P(no blackjack) = (N - b) / N: the hole card is exchangeable with
        # the cards the players draw, so drawing it first or after them is the same.
        n_ok = n_total - counts[bj_card - 1]
        scaled, den = scaled * n_total, den * n_ok
    if scaled is UNDEFINED:  # the hole card decides the one-unit blackjack loss
        raise _exhausted("dealer")
    return _scale(scaled, den, exact)
