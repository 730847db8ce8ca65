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
(per :class:`_SplitRound`), decisions are asked once per composition, and the
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

Scale: the number of states grows like the product of the counts plus one: a
20-card shoe has about 10^4 (seconds), a full deck 3.3 x 10^7 (about five minutes
and a gigabyte); shoes of more than 60 cards, or of more than 40,000,000 sub-shoes
(``exact_dealer.MAX_SUB_SHOES``: a 60-card shoe can have 1.4 x 10^8), are refused.

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

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.errors import ImpossibleShoeError, RuleConflictError, ShoeError, StrategyError
from analyzer.oracle.exact_dealer import (
    D17,
    D21,
    D_BLACKJACK,
    D_BUST,
    UNDEFINED,
    Dealer,
    Scaled,
    Shoe,
    Vec,
    blackjack_card,
    check_split_shoe,
    exhausted,
    factorials,
    minus,
    scale,
)

# Categories of a finished player hand (its total, as far as settling goes).
_LOW, _BUST = 0, 6  # 16 or less; 17..21 are 1..5; bust
_FUTURE = 7  # the vector slot holding the EV of the hands still to finish
_VEC = 8

# The card rules are re-derived here, not imported from analyzer.core.cards: this
# module is an independent check of the engine and shares no game logic on purpose.
def _total(comp: Shoe) -> int:
    """Best total of a composition (an ace as 11 if it fits); own copy, see above"""
    hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
    return hard + 10 if comp[0] and hard + 10 <= 21 else hard


def _category(total: int) -> int:
    return _BUST if total > 21 else _LOW if total <= 16 else total - 16


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
    ``ValueError``) for a malformed shoe, one too large (above), a peek
    conditioning no hole card satisfies, or a reachable draw from an empty shoe;
    ``ValueError`` for an action ``decide`` may not take.
    """
    counts = check_split_shoe(shoe)
    if not 1 <= upcard <= 10 or not 1 <= pair <= 10:
        raise ShoeError(f"card values are 1..10, got upcard {upcard}, pair {pair}")
    if max_hands < 2:
        raise RuleConflictError(f"a split makes at least 2 hands, got max_hands={max_hands}")
    n_total = sum(counts)
    bj_card = blackjack_card(upcard)
    conditioned = peek and bj_card > 0
    if conditioned and n_total == counts[bj_card - 1]:
        raise ImpossibleShoeError(f"every unseen card completes a dealer blackjack under upcard "
                        f"{upcard}: the no-blackjack condition is impossible")
    fact = factorials(n_total, exact)
    split = _SplitRound(
        pair, max_hands=max_hands, one_card=one_card, decide=decide,
        double_allowed=double_allowed, dealer=Dealer(upcard, hits_soft_17, fact), fact=fact,
        peek=peek, bj_loses_all=bj_loses_all)
    scaled = split.deal(counts, 1, 2)[_FUTURE]  # the EV times N!
    den = math.factorial(n_total)
    if conditioned:
        # Divide by P(no blackjack) = (N - b) / N: the hole card is exchangeable with
        # the cards the players draw, so drawing it first or after them is the same.
        n_ok = n_total - counts[bj_card - 1]
        scaled, den = scaled * n_total, den * n_ok
    if scaled is UNDEFINED:  # the hole card decides the one-unit blackjack loss
        raise exhausted("dealer")
    return scale(scaled, den, exact)


class _SplitRound:
    """The recursion of one split round: states are (cards left, the hand, hands waiting).

    Every value at a state with ``n`` cards left is carried times ``n!``, like
    the dealer's (see the module docstring for the vector a state returns).
    """

    def __init__(self, pair: int, *, max_hands: int, one_card: bool,
                 decide: Callable[[Shoe, frozenset[int]], int],
                 double_allowed: Callable[[Shoe], bool], dealer: Dealer, fact: list[Scaled],
                 peek: bool, bj_loses_all: bool) -> None:
        self.pair = pair
        self.max_hands = max_hands
        self.one_card = one_card
        self.decide = decide
        self.double_allowed = double_allowed
        self.dealer = dealer
        self.fact = fact
        self.zero: Scaled = fact[0] * 0
        # What a dealer blackjack costs: with a peek it is conditioned away (paid 0
        # here, then the total is divided by P(no blackjack)).
        self.bj_each = not peek and bj_loses_all  # every hand loses its bet
        self.bj_once = not peek and not bj_loses_all  # the split loses one unit in all
        self._decisions: dict[tuple[Shoe, bool], int] = {}
        self._settled: dict[Shoe, Vec] = {}
        self._dealt: dict[tuple[Shoe, int, int], Vec] = {}
        self._played: dict[tuple[Shoe, Shoe, int, bool, int, int], Vec] = {}

    def choose(self, comp: Shoe, two_cards: bool) -> int:
        """The player's action, asked once per (composition, two cards or not)."""
        key = (comp, two_cards)
        action = self._decisions.get(key)
        if action is None:
            options = {STAND, HIT}
            if two_cards and self.double_allowed(comp):
                options.add(DOUBLE)
            allowed = frozenset(options)
            action = self.decide(comp, allowed)
            if action not in allowed:
                raise StrategyError(f"decide returned {action!r} for hand {comp}, "
                                 f"allowed {sorted(allowed)}")
            self._decisions[key] = action
        return action

    @staticmethod
    def finished(vec: Vec, total: int, bet: int) -> Vec:
        """``vec`` of the state a hand leaves, plus that hand's own result."""
        result = vec[_category(total)]
        if result is UNDEFINED:
            raise exhausted("dealer")
        out = list(vec)
        out[_FUTURE] = vec[_FUTURE] + bet * result
        return tuple(out)

    def settle(self, rest: Shoe) -> Vec:
        """Results against the dealer's hand once every split hand is played."""
        found = self._settled.get(rest)
        if found is not None:
            return found
        zero = self.zero
        d = self.dealer.final(rest, 0)
        one = self.fact[sum(rest)]
        made = d[D17:D21 + 1]
        bj = d[D_BLACKJACK]
        lose_bj = bj if self.bj_each else zero
        vec = [zero] * _VEC
        vec[_LOW] = d[D_BUST] - sum(made, zero) - lose_bj
        for t in range(17, 22):
            above = sum(made[t - 16:], zero)
            below = sum(made[: t - 17], zero)
            vec[_category(t)] = d[D_BUST] + below - above - lose_bj
        vec[_BUST] = -one if self.bj_each else bj - one
        vec[_FUTURE] = -bj if self.bj_once else zero
        self._settled[rest] = result = tuple(vec)
        return result

    def after_hand(self, rest: Shoe, pending: int, hands: int) -> Vec:
        return self.deal(rest, pending - 1, hands) if pending else self.settle(rest)

    def deal(self, rest: Shoe, pending: int, hands: int) -> Vec:
        """A hand holding one pair card takes its second card; ``pending`` more wait."""
        key = (rest, pending, hands)
        found = self._dealt.get(key)
        if found is not None:
            return found
        if not any(rest):
            raise exhausted("player")
        pair = self.pair
        acc = [self.zero] * _VEC
        for v in range(1, 11):
            c = rest[v - 1]
            if not c:
                continue
            left = minus(rest, v)
            if v == pair and hands < self.max_hands:
                child = self.deal(left, pending + 1, hands + 1)
            else:
                comp = [0] * 10
                comp[pair - 1] += 1
                comp[v - 1] += 1
                if self.one_card:
                    child = self.finished(self.after_hand(left, pending, hands),
                                          _total(tuple(comp)), 1)
                else:
                    child = self.play(left, tuple(comp), pair + v, True, pending, hands)
            acc = [a + c * x for a, x in zip(acc, child, strict=True)]
        self._dealt[key] = result = tuple(acc)
        return result

    def play(self, rest: Shoe, comp: Shoe, hard: int, two_cards: bool, pending: int,
             hands: int) -> Vec:
        """A hand of composition ``comp`` (hard total ``hard``, not bust) plays on."""
        key = (rest, comp, hard, two_cards, pending, hands)
        found = self._played.get(key)
        if found is None:
            found = self._played[key] = self._play(*key)
        return found

    def _play(self, rest: Shoe, comp: Shoe, hard: int, two_cards: bool, pending: int,
              hands: int) -> Vec:
        action = self.choose(comp, two_cards)
        if action == STAND:
            total = hard + 10 if comp[0] and hard <= 11 else hard
            return self.finished(self.after_hand(rest, pending, hands), total, 1)
        if not any(rest):
            raise exhausted("player")
        acc = [self.zero] * _VEC
        ace = comp[0] > 0
        for v in range(1, 11):
            c = rest[v - 1]
            if not c:
                continue
            left = minus(rest, v)
            new_hard = hard + v
            total = new_hard + 10 if (ace or v == 1) and new_hard <= 11 else new_hard
            if action == DOUBLE:
                child = self.finished(self.after_hand(left, pending, hands), total, 2)
            elif total > 21:
                child = self.finished(self.after_hand(left, pending, hands), total, 1)
            else:
                new = comp[: v - 1] + (comp[v - 1] + 1,) + comp[v:]
                child = self.play(left, new, new_hard, False, pending, hands)
            acc = [a + c * x for a, x in zip(acc, child, strict=True)]
        return tuple(acc)
