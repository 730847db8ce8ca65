"""The infinite deck (``INF``): every card drawn with one deck's chances, whatever was dealt.

Drawing with replacement is the limit of ``n`` decks as ``n`` grows: a card of value
``v`` comes with chance ``p_v`` (1/13 for A-9 and 4/13 for ten-valued cards; 1/12
and 3/12 on Spanish decks) at every draw.  So a hand's future depends on its total,
its softness and its card count (Charlies, 21 bonuses, the first decision), on its
stake and on what it may still do, never on which cards made it: the whole round is a
small recursion over those states, taken here in exact fractions.

Play is the best for each hand under its own rules (a split hand doubles only with
DAS, never surrenders, is paid no bonus under BNS).  On an infinite deck the levels of
play coincide: a hand's cards beyond its total say nothing about the shoe, so a
composition-dependent strategy is a total-dependent one, and the hands of a split
neither share nor deplete a shoe.  The finite engine's CDP figure tends to this one as
the decks grow (``tests/test_infinite.py`` shows 1 to 10**6 decks).

Splits.  Every split hand starts from the pair card and draws its second card.  With
replacement the hands are independent given the number formed, and a round's EV is
linear in them, so a split's worth is ``E[final hands not resplit] x W + E[hands that
drew the pair card with no split left] x B``.  :meth:`InfiniteGame._split` gets both
expectations from the resplit process: ``k`` hands wait for a second card, ``n`` are
formed; one draws, and the pair card (chance ``q``) makes a new waiting hand while
``n < max_hands``.

>>> g = InfiniteGame(Rules("INF S17 DOA DAS NSPL NS"))
>>> float(g.round_ev()) < 0
True
>>> sum(g.dealer(6).values()) == 1
True
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Action
from analyzer.core.cards import Value, check_charlie_cards, checked_hand, format_value
from analyzer.core.errors import HandError, ImpossibleHandError, UsageError
from analyzer.core.outcomes import Outcome
from analyzer.core.rules import Rules
from analyzer.core.ruleset import INFINITE, Double, Surrender

UPCARDS = tuple(Value)
ONE = Fraction(1)
HALF = Fraction(1, 2)


def card_chances(spanish: bool) -> tuple[Fraction, ...]:
    """``p_v`` per value A, 2..9, T (index ``v - 1``): one deck's proportions."""
    deck = 48 if spanish else 52
    tens = 12 if spanish else 16
    return (*(Fraction(4, deck),) * 9, Fraction(tens, deck))


class InfiniteGame:
    """One rule set on an infinite deck: dealer outcomes, hand values and the round's EV.

    Every figure is a :class:`~fractions.Fraction`; the memo of each method holds the
    few hundred states a round visits.
    """

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules) or rules.decks != INFINITE:
            raise UsageError(f"InfiniteGame plays INF rules, not {rules!r} (use "
                             "rules.replace(decks=INFINITE))")
        self.rules = rules
        self.p = card_chances(rules.spanish_decks)
        # Card counts past this one play alike: the bonuses count to 7+, a Charlie to its N.
        # Without those they matter only as 2 against 3+ (the first decision).
        plain = not rules.charlie and (rules.bonus_5, rules.bonus_6, rules.bonus_7) == \
            (ONE, ONE, ONE)
        self.cap = 3 if plain else max(7, rules.charlie)
        # Each game memoises its own states (a class-level cache would keep every game).
        self._dealer_memo: dict[tuple[object, ...], tuple[Fraction, ...]] = {}
        self.dealer: Callable[[int], dict[Outcome, Fraction]] = cache(self._dealer)
        self.stand: Callable[[int, int, int, bool], Fraction] = cache(self._stand)
        self.play: Callable[[int, int, bool, int, bool], Fraction] = cache(self._play)
        self._doubled: Callable[[int, int, bool, int, bool, int], Fraction] = \
            cache(self._double)
        self.split: Callable[[int, int], Fraction] = cache(self._split)
        self.upcard_ev: Callable[[int], Fraction] = cache(self._upcard_ev)

    # -- the dealer -----------------------------------------------------------------------
    def _dealer(self, upcard: int) -> dict[Outcome, Fraction]:
        """The dealer's final outcome given ``upcard``, conditioned on no blackjack where the
        dealer peeks (then the blackjack outcome has chance 0); with ENHC, or PEEKA and a
        ten up, the blackjack is one of the outcomes and takes every bet."""
        peek = self.rules.peeks_on(upcard)
        hole: list[tuple[int, Fraction]] = [(v, self.p[v - 1]) for v in Value]
        if peek:  # the hole card given no blackjack
            hole = [(v, p) for v, p in hole if v + upcard != 11]
            left = sum(p for _v, p in hole)
            hole = [(v, p / left) for v, p in hole]
        out = self._dealer_from(upcard, upcard == 1, 1, tuple(hole))
        return dict(zip(Outcome, out, strict=True))

    def _dealer_from(self, hard: int, ace: bool, cards: int,
                     hole: tuple[tuple[int, Fraction], ...]) -> tuple[Fraction, ...]:
        """The dealer's outcome chances (in :class:`Outcome` order) from a hand of ``cards``
        cards (counted to 3: only the hole card and the two-card blackjack differ)."""
        key = (hard, ace, cards, hole if cards == 1 else ())
        if key in self._dealer_memo:
            return self._dealer_memo[key]
        best = _best(hard, ace)
        out = [Fraction(0)] * len(Outcome)
        if cards == 2 and best == 21:
            out[Outcome.BLACKJACK] = ONE
        elif best > 21:
            out[Outcome.BUST22 if best == 22 else Outcome.BUST23] = ONE
        elif best > 17 or (best == 17 and not (best != hard and self.rules.hits_soft_17)):
            out[Outcome.standing(best)] = ONE
        else:
            chances = hole if cards == 1 else tuple((v, self.p[v - 1]) for v in Value)
            for v, p in chances:
                after = self._dealer_from(hard + v, ace or v == 1, min(cards + 1, 3), hole)
                out = [o + p * x for o, x in zip(out, after, strict=True)]
        self._dealer_memo[key] = tuple(out)
        return self._dealer_memo[key]

    def blackjack_chance(self, upcard: int) -> Fraction:
        """P(the dealer has a blackjack) given the upcard, before any peek."""
        return self.p[10 - upcard] if upcard in (1, 10) else Fraction(0)

    # -- a hand's values (per unit of its stake) ------------------------------------------
    def _stand(self, upcard: int, best: int, cards: int, bonus: bool) -> Fraction:
        """Standing on ``best`` with ``cards`` cards; ``bonus``: the 21 bonuses are paid."""
        r = self.rules
        if best > 21:
            return -ONE
        if r.charlie and cards >= r.charlie:  # it loses to a blackjack nobody checked
            return ONE if r.charlie_beats_bj else 1 - 2 * self.dealer(upcard)[Outcome.BLACKJACK]
        pays = self._pays(cards) if bonus and best == 21 else ONE
        value = Fraction(0)
        for outcome, chance in self.dealer(upcard).items():
            value += chance * _result(best, outcome, r, pays)
        return value

    def _pays(self, cards: int) -> Fraction:
        r = self.rules
        return {5: r.bonus_5, 6: r.bonus_6}.get(cards, r.bonus_7 if cards >= 7 else ONE)

    def _doubles_total(self, best: int, cards: int) -> bool:
        """The doubling rule's totals (D9: 9-11, D10: 10-11, on the best total); a 21 is
        never doubled after hitting."""
        rule = self.rules.double
        if cards >= 3 and best >= 21:
            return False
        return rule is Double.ANY or best in ((9, 10, 11) if rule is Double.NINE_TO_ELEVEN
                                              else (10, 11))

    def _draws(self, hard: int, ace: bool, cards: int,
               then: Callable[[int, bool, int], Fraction], bust: Fraction) -> Fraction:
        """The chance-weighted value of one more card: ``then(hard, ace, cards)``, or
        ``bust`` when the card busts the hand."""
        total = Fraction(0)
        for v in Value:
            h = hard + v
            total += self.p[v - 1] * (bust if h > 21 else then(h, ace or v == 1,
                                                                min(cards + 1, self.cap)))
        return total

    def options(self, upcard: int, hard: int, ace: bool, cards: int,
                split: bool) -> dict[Action, Fraction]:
        """What each play of a live hand is worth, played best after (given no dealer
        blackjack where peeked); splitting is the caller's (:meth:`actions`).

        Two cards: stand, hit, double (with DAS on a split hand), surrender (unsplit,
        LS or ES).  Three or more: stand, hit, double (DAN), surrender (SAH, unsplit).
        A Charlie, or a 21 that stands, only stands.
        """
        r = self.rules
        best = _best(hard, ace)
        bonus = not (split and r.bonus_not_split)
        out = {STAND: self.stand(upcard, best, cards, bonus)}
        if (r.charlie and cards >= r.charlie) or (r.stand_on_21 and best == 21):
            return out

        def on(h: int, a: bool, n: int) -> Fraction:
            return self.play(upcard, h, a, n, split)

        out[HIT] = self._draws(hard, ace, cards, on, -ONE)
        if (not split or r.double_after_split) and (cards == 2 or r.double_any_cards) \
                and self._doubles_total(best, cards):
            out[DOUBLE] = self._doubled(upcard, hard, ace, cards, split, 1)
        may_surrender = r.surrender is not Surrender.NONE and not split and (
            upcard != 1 or r.surrender_vs_ace) and (cards == 2 or r.surrender_after_hit)
        if may_surrender:
            # Half the bet, or all of it to a blackjack nobody checked; an early surrender
            # (ES, two cards) comes before any check: half the bet whatever the hole card.
            early = r.surrender is Surrender.EARLY and cards == 2
            out[SURRENDER] = -HALF if early else \
                -HALF - self.dealer(upcard)[Outcome.BLACKJACK] / 2
        return out

    def _play(self, upcard: int, hard: int, ace: bool, cards: int, split: bool) -> Fraction:
        """A live hand's value under its best play (:meth:`options`)."""
        return max(self.options(upcard, hard, ace, cards, split).values())

    def actions(self, upcard: int, cards: tuple[int, ...]) -> dict[Action, Fraction]:
        """Every play of an unsplit hand of ``cards`` against ``upcard`` and its value
        (``bja hand``), given no dealer blackjack where peeked; a natural has none."""
        upcard, cards = checked_hand(upcard, cards)
        if len(cards) < 2:  # as a finite shoe says: no hand is played from fewer
            raise HandError("a hand needs at least two cards")
        check_charlie_cards(cards, self.rules.charlie)
        hard, ace = sum(cards), 1 in cards
        if _best(hard, ace) > 21:
            raise ImpossibleHandError(
                f"hand {'-'.join(format_value(c) for c in cards)} is busted")
        if len(cards) == 2 and hard == 11 and ace:
            return {}
        out = self.options(upcard, hard, ace, min(len(cards), self.cap), False)
        r = self.rules
        if len(cards) == 2 and cards[0] == cards[1] and r.max_hands > 1 and \
                (cards[0] != 1 or r.split_aces) and len(out) > 1:
            out[SPLIT] = self.split(upcard, cards[0])
        return dict(sorted(out.items()))

    def _double(self, upcard: int, hard: int, ace: bool, cards: int, split: bool,
                 level: int) -> Fraction:
        """The value (per unit of the original stake) of doubling to stake ``2**level``: one
        card, then stand, double again (RDn) or give up half the stake (DDR)."""
        r = self.rules
        stake = Fraction(2 ** level)
        bonus = not (r.bonus_not_doubled or (split and r.bonus_not_split))

        def after(h: int, a: bool, n: int) -> Fraction:
            best = _best(h, a)
            value = stake * self.stand(upcard, best, n, bonus)
            stops = (r.charlie and n >= r.charlie) or (r.stand_on_21 and best == 21)
            if not stops and level <= r.redoubles and self._doubles_total(best, 3):
                value = max(value, self._doubled(upcard, h, a, n, split, level + 1))
            if r.double_rescue:
                value = max(value, -stake / 2)
            return value

        return self._draws(hard, ace, cards, after, -stake)

    def _split_hand(self, upcard: int, pair: int, second: int) -> Fraction:
        """A split hand of ``pair`` that drew ``second`` and is not split again."""
        hard, ace = pair + second, pair == 1 or second == 1
        if pair == 1 and not self.rules.hit_split_aces:  # one card to each split ace
            return self.stand(upcard, _best(hard, ace), 2, not self.rules.bonus_not_split)
        return self.play(upcard, hard, ace, 2, True)

    def _split(self, upcard: int, pair: int) -> Fraction:
        """The value of splitting a pair of ``pair`` (per unit of the original bet)."""
        r = self.rules
        limit = r.max_hands if pair != 1 or r.resplit_aces else min(r.max_hands, 2)
        q = self.p[pair - 1]  # the chance a hand draws the pair card again
        rest = sum((self.p[v - 1] * self._split_hand(upcard, pair, v) for v in Value
                    if v != pair), Fraction(0))
        blocked = self._split_hand(upcard, pair, pair)

        @cache
        def hands(waiting: int, formed: int) -> Fraction:
            """Expected value of ``waiting`` hands still to draw, ``formed`` hands in all."""
            if waiting == 0:
                return Fraction(0)
            value = rest + (1 - q) * hands(waiting - 1, formed)
            if formed < limit:
                return value + q * hands(waiting + 1, formed + 1)
            return value + q * (blocked + hands(waiting - 1, formed))

        return hands(2, 2)

    # -- the round --------------------------------------------------------------------------
    def two_cards(self, upcard: int, first: int, second: int) -> Fraction:
        """A two-card hand's value under its best play, given no dealer blackjack where
        peeked (a natural is paid at once)."""
        r = self.rules
        if first + second == 11 and 1 in (first, second):
            return r.blackjack_pays
        value = self.play(upcard, first + second, 1 in (first, second), 2, False)
        if first == second and r.max_hands > 1 and (first != 1 or r.split_aces):
            value = max(value, self.split(upcard, first))
        return value

    def _upcard_ev(self, upcard: int) -> Fraction:
        """The round's EV given the upcard, the dealer's blackjack included."""
        r = self.rules
        p_bj = self.blackjack_chance(upcard)
        # Peeked, the hands' values are conditioned on no blackjack, which then takes the
        # bet alone; unchecked (ENHC, PEEKA with a ten up) they carry it already.
        p_peeked = p_bj if r.peeks_on(upcard) else Fraction(0)
        total = Fraction(0)
        for a in Value:
            for b in Value:
                chance = self.p[a - 1] * self.p[b - 1]
                if a + b == 11 and 1 in (a, b):  # a natural: pushed by a dealer blackjack
                    value = p_bj * (r.blackjack_pays if r.blackjack_wins else 0) \
                        + (1 - p_bj) * r.blackjack_pays
                else:
                    value = -p_peeked + (1 - p_peeked) * self.two_cards(upcard, a, b)
                    if r.surrender is Surrender.EARLY and (upcard != 1 or r.surrender_vs_ace):
                        value = max(value, -HALF)
                total += chance * value
        return total

    def by_upcard(self) -> dict[int, Fraction]:
        """The EV given each upcard, in the order A, 2..T."""
        return {u: self.upcard_ev(u) for u in UPCARDS}

    def round_ev(self) -> Fraction:
        """The EV of a round per unit of the initial bet, exactly."""
        return sum((self.p[u - 1] * v for u, v in self.by_upcard().items()), Fraction(0))


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


def _result(best: int, outcome: Outcome, rules: Rules, pays: Fraction) -> Fraction:
    """What standing on ``best`` (at most 21) wins per unit of stake against ``outcome``;
    ``pays`` is a winning 21's payout."""
    if outcome is Outcome.BLACKJACK:
        return -ONE
    if best == 21 and rules.player_21_wins:
        return pays
    if outcome is Outcome.BUST23 or (outcome is Outcome.BUST22 and not rules.push_22):
        return pays if best == 21 else ONE
    if outcome is Outcome.BUST22:
        return Fraction(0)
    dealer = 17 + int(outcome)
    if best > dealer:
        return pays if best == 21 else ONE
    return Fraction(0) if best == dealer else -ONE


__all__ = ["InfiniteGame", "card_chances"]
