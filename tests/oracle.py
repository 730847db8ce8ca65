"""Brute-force whole-round blackjack oracle, written apart from the engine to check it.

Nothing is shared with the engine's computational modules (``analyzer.dealer``,
``analyzer.player``, ``analyzer.splits``, ``analyzer.game``): only the
:class:`analyzer.rules.Rules` value object is read.  The code is written for
clarity, not speed; it is meant for small shoes (up to about 20 cards).

Model
-----
Cards are values 1 (ace) to 10 (any ten-value card); a shoe is a 10-tuple of
counts, index ``value - 1``.  Every card is drawn uniformly at random, without
replacement, from what really remains of the shoe, and all arithmetic is exact
(:class:`fractions.Fraction`).  EVs are per unit initial bet.

One round:

* Deal the upcard and the player's two cards (the deal order is immaterial by
  exchangeability).  In PEEK games with an ace or a ten up the hole card is then
  drawn explicitly from the rest of the shoe, and the player's cards come from
  what is left after it.  (With any other upcard it cannot matter before the
  dealer plays, so it is drawn as his second card when he does -- the same
  distribution by exchangeability; ``literal_hole=True`` draws it right after the
  deal for every upcard, and the self-check confirms identical results.)  Early
  surrender (ES) is offered now, before the peek, for -1/2.
* PEEK: with an ace or a ten up, a dealer blackjack ends the round at once:
  the player loses 1, or pushes with his own blackjack.  A player blackjack
  (ace + ten as the first two cards, never after a split) wins
  ``blackjack_pays`` when the dealer has none.
* ENHC (``HoleCard.NO_HOLE_CARD``): the dealer's second card is drawn from the
  remaining shoe after all the player's hands are finished.  A dealer blackjack
  then takes every bet on the table (doubles and split hands included); a player
  blackjack pushes against it.  Late surrender (LS) in ENHC gives -1/2, or -1
  when the dealer then turns out to have a blackjack.
* The player may stand, hit, double (one card, bet 2) on two cards when
  ``rules.double`` allows the total (``ANY``; ``NINE_TO_ELEVEN``: 9-11;
  ``TEN_ELEVEN``: 10-11 -- a soft hand never totals 9-11), split a pair of equal
  values (any two tens are a pair) while ``max_hands > 1``, and surrender (LS
  after the peek, ES before it).  The dealer draws to 17, hitting soft 17 when
  ``hits_soft_17``.
* Unsplit play is optimal composition-dependent: each decision maximises the EV
  given everything the player knows -- his cards, the upcard and, in PEEK games
  with an ace or ten up, that the hole card does not complete a dealer
  blackjack.  Given what the player has seen, the unseen cards are in random
  order, so the hole card is distributed in proportion to the unseen counts of
  the values it may have; the player's next card is drawn from the unseen cards
  less that hole card.  Decisions never look at the hole card itself.
* Split play is CDZ-: after a split, each hand holding cards ``h`` takes the
  action that maximises the EV of an UNSPLIT hand of the same composition ``h``,
  computed from the shoe ``initial counts - upcard - h`` with the same
  knowledge (the same no-blackjack conditioning), restricted to what a split
  hand may do: stand, hit, and double on two cards only with
  ``double_after_split`` (and the double rule allowing the total); never
  surrender.  Ties go stand > hit > double: hit only when strictly better than
  stand, double only when strictly better than both.  A pair card drawn to a
  split hand is always resplit while there are fewer than ``max_hands`` hands
  (aces only with ``resplit_aces``); after that a pair is an ordinary hand played
  by that same CDZ- decision.  Split aces without ``hit_split_aces`` take exactly
  one card each and stand (with it they are played like any split hand).  An
  ace + ten after a split is a plain 21.  Hands are played left to right: the
  first hand takes its second card (a resplit puts the new one-card hand
  immediately to its right) and is played out before the next hand takes its
  second card.  Every hand carries one unit (two when doubled).  The player
  splits the initial pair when the exact EV of doing so (under that play) beats
  the other options.

Modelling decisions not fixed by the brief (see also the function docstrings):

* A hand totalling 21 always stands (no hitting or doubling a 21).
* A hand or dealer that must draw from an empty shoe raises
  :class:`ShoeExhausted`; this includes the hits of actions that are only being
  evaluated for a decision.  Use shoes with enough high cards.
* When all the player's hands have busted the dealer does not draw.
* ``hand_evs`` and ``round_ev`` take the shoe BEFORE the deal (it still holds
  the upcard and the player's cards); ``dealer_distribution`` takes a shoe that
  no longer holds the upcard.
* A player blackjack is settled at once: ``hand_evs`` gives it only "stand".
  Early surrender is -1/2 in ENHC too; ``hand_evs`` reports "surrender" under
  either surrender rule, but a round offers ES only before the peek and LS after.
* Doubling split aces needs ``hit_split_aces`` and ``double_after_split``.

Speed and memory: every state is memoised (``clear_caches`` forgets them); the
split states are dropped after each upcard of ``round_ev_by_upcard``.  A
16-card shoe with 4 hands takes about 10 s, a 20-card one about a minute and
1 GB; without splitting a few seconds.

Two separate computations meet in the round EV: decisions use "information"
EVs (the hole card averaged over what the player may believe), while
``round_ev`` plays the round card by card with the hole card fixed.  Their
agreement is checked in ``tests/test_oracle_selfcheck.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from analyzer.rules import Double, Rules, Surrender

Counts = tuple[int, ...]  # 10 counts, index value - 1
Cards = tuple[int, ...]  # the cards of one hand, sorted
Payoffs = tuple[int, ...]  # what some finished hands win against each dealer outcome

ACE = 1
TEN = 10
VALUES = range(1, 11)
BUST = 0  # the final "total" of a busted hand
OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
NO_HANDS: Payoffs = (0,) * len(OUTCOMES)
HALF = Fraction(1, 2)


class ShoeExhausted(Exception):
    """A card had to be drawn from an empty shoe."""


@dataclass(frozen=True, eq=False)
class _Game:
    """A rule set, the shoe before the deal and the upcard.

    ``hole_first``: the hole card is drawn right after the deal (PEEK games with an ace
    or a ten up, or every PEEK game when asked for), instead of after the player's
    hands.  Hashed by identity (one object each, from :func:`_game`): a cheap memo key.
    """

    rules: Rules
    start: Counts
    up: int
    hole_first: bool


@cache
def _game(rules: Rules, start: Counts, up: int, literal_hole: bool) -> _Game:
    hole_first = rules.peeks and (literal_hole or up in (ACE, TEN))
    return _Game(rules, start, up, hole_first)


# --------------------------------------------------------------------- cards


def _take(counts: Counts, card: int) -> Counts:
    if counts[card - 1] == 0:
        raise ValueError(f"no card of value {card} left in {counts}")
    c = list(counts)
    c[card - 1] -= 1
    return tuple(c)


def _take_all(counts: Counts, cards: Cards) -> Counts:
    for card in cards:
        counts = _take(counts, card)
    return counts


def _put(counts: Counts, card: int) -> Counts:
    c = list(counts)
    c[card - 1] += 1
    return tuple(c)


@cache
def _draws(counts: Counts) -> tuple[tuple[int, Fraction, Counts], ...]:
    """Each card that can be drawn, with its probability and the shoe left after it."""
    n = sum(counts)
    if n == 0:
        raise ShoeExhausted("a card must be drawn from an empty shoe")
    return tuple((v, Fraction(counts[v - 1], n), _take(counts, v)) for v in VALUES
                 if counts[v - 1] > 0)


def _with(cards: Cards, card: int) -> Cards:
    return tuple(sorted((*cards, card)))


def _total(cards: Cards) -> int:
    """Best total: one ace counts 11 when that does not bust."""
    hard = sum(cards)
    return hard + 10 if ACE in cards and hard + 10 <= 21 else hard


def _is_soft(cards: Cards) -> bool:
    return ACE in cards and sum(cards) + 10 <= 21


def _is_natural(cards: Cards) -> bool:
    return len(cards) == 2 and ACE in cards and TEN in cards


def _final(cards: Cards) -> int:
    total = _total(cards)
    return BUST if total > 21 else total


# -------------------------------------------------------------------- dealer


@cache
def _dealer(shoe: Counts, cards: Cards, hits_soft_17: bool) -> tuple[tuple[str, Fraction], ...]:
    """Final outcomes of a dealer holding ``cards`` and drawing from ``shoe``."""
    total = _total(cards)
    if len(cards) == 2 and total == 21:
        return (("blackjack", Fraction(1)),)
    if total > 21:
        return (("bust", Fraction(1)),)
    if total > 17 or (total == 17 and not (hits_soft_17 and _is_soft(cards))):
        return ((str(total), Fraction(1)),)
    result: dict[str, Fraction] = {}
    for card, p, rest in _draws(shoe):
        for outcome, q in _dealer(rest, _with(cards, card), hits_soft_17):
            result[outcome] = result.get(outcome, Fraction(0)) + p * q
    return tuple(result.items())


def _settle(total: int, bet: int, outcome: str) -> int:
    """Win (+) or loss (-) of a finished non-blackjack hand against a dealer outcome."""
    if total == BUST or outcome == "blackjack":
        return -bet
    if outcome == "bust":
        return bet
    dealer = int(outcome)
    return bet if total > dealer else -bet if total < dealer else 0


def _payoffs(total: int, bet: int, earlier: Payoffs = NO_HANDS) -> Payoffs:
    """``earlier`` plus what a hand with ``total`` and ``bet`` wins against each outcome."""
    return tuple(e + _settle(total, bet, outcome) for e, outcome in zip(earlier, OUTCOMES,
                                                                          strict=True))


def _settle_table(g: _Game, hole: int | None, shoe: Counts, payoffs: Payoffs) -> Fraction:
    """The dealer plays from ``shoe``, holding the upcard and ``hole`` (drawn if None).

    He does not draw when the outcome cannot matter (every hand busted).
    """
    if len(set(payoffs)) == 1:
        return Fraction(payoffs[0])
    cards = (g.up,) if hole is None else tuple(sorted((g.up, hole)))
    numerators, denominator = _dealer_odds(shoe, cards, g.rules.hits_soft_17)
    return Fraction(sum(n * w for n, w in zip(numerators, payoffs, strict=True)), denominator)


@cache
def _dealer_odds(shoe: Counts, cards: Cards, hits_soft_17: bool) -> tuple[tuple[int, ...], int]:
    """:func:`_dealer` as numerators over one denominator, in OUTCOMES order (for speed)."""
    probs = dict(_dealer(shoe, cards, hits_soft_17))
    denominator = math.lcm(*(p.denominator for p in probs.values()))
    return tuple(int(probs.get(o, 0) * denominator) for o in OUTCOMES), denominator


# ------------------------------------------------------- the player's beliefs


def _blocked_holes(g: _Game) -> tuple[int, ...]:
    """Hole values ruled out by a peek that found no blackjack."""
    if g.rules.peeks and g.up == ACE:
        return (TEN,)
    if g.rules.peeks and g.up == TEN:
        return (ACE,)
    return ()


def _hole_cases(g: _Game, unseen: Counts) -> list[tuple[int | None, Fraction, Counts]]:
    """Where the hole card may be, as the player sees it: (hole, probability, shoe less it).

    PEEK: the hole card is one of the ``unseen`` cards, in proportion to their counts
    among the values a completed peek allows.  Otherwise (ENHC, or no ``hole_first``)
    there is no hole card yet (None).
    """
    if not g.hole_first:
        return [(None, Fraction(1), unseen)]
    blocked = _blocked_holes(g)
    weight = sum(unseen[v - 1] for v in VALUES if v not in blocked)
    if weight == 0:
        raise ValueError("the dealer surely has blackjack: no EV given that he has none")
    return [(v, Fraction(unseen[v - 1], weight), _take(unseen, v)) for v in VALUES
            if v not in blocked and unseen[v - 1] > 0]


def _player_draws(g: _Game, unseen: Counts) -> list[tuple[int, Fraction, Counts]]:
    """The player's next card as he sees it: (card, probability, unseen cards after it)."""
    probs: dict[int, Fraction] = {}
    for _hole, w, rest in _hole_cases(g, unseen):
        for card, p, _ in _draws(rest):
            probs[card] = probs.get(card, Fraction(0)) + w * p
    return [(card, p, _take(unseen, card)) for card, p in sorted(probs.items())]


def _stand_value(g: _Game, unseen: Counts, total: int) -> Fraction:
    """Believed EV per unit of a finished non-blackjack hand with ``total`` (BUST allowed)."""
    ev = Fraction(0)
    for hole, w, rest in _hole_cases(g, unseen):
        ev += w * _settle_table(g, hole, rest, _payoffs(total, 1))
    return ev


# ------------------------------------------------- unsplit hands, optimal play


@cache
def _q_stand(g: _Game, unseen: Counts, hand: Cards) -> Fraction:
    return _stand_value(g, unseen, _final(hand))


@cache
def _q_hit(g: _Game, unseen: Counts, hand: Cards) -> Fraction:
    """Hit once, then play on optimally (stand or hit)."""
    ev = Fraction(0)
    for card, p, rest in _player_draws(g, unseen):
        ev += p * _v_play_on(g, rest, _with(hand, card))
    return ev


@cache
def _q_double(g: _Game, unseen: Counts, hand: Cards) -> Fraction:
    ev = Fraction(0)
    for card, p, rest in _player_draws(g, unseen):
        ev += p * 2 * _stand_value(g, rest, _final(_with(hand, card)))
    return ev


@cache
def _v_play_on(g: _Game, unseen: Counts, hand: Cards) -> Fraction:
    """Value of a hand after a hit: the better of standing and hitting (21 stands)."""
    total = _total(hand)
    if total > 21:
        return Fraction(-1)
    stand = _q_stand(g, unseen, hand)
    if total == 21:
        return stand
    return max(stand, _q_hit(g, unseen, hand))


def _may_double(rules: Rules, hand: Cards) -> bool:
    total = _total(hand)
    if len(hand) != 2 or total >= 21:
        return False
    if rules.double is Double.ANY:
        return True
    if rules.double is Double.NINE_TO_ELEVEN:
        return 9 <= total <= 11
    return 10 <= total <= 11


# ------------------------------------------------------------- split hands


@cache
def _cdz_action(g: _Game, hand: Cards) -> str:
    """CDZ- action of a split hand holding ``hand`` (2+ cards, under 21)."""
    unseen = _take_all(_take(g.start, g.up), hand)
    best, action = _q_stand(g, unseen, hand), "stand"
    hit = _q_hit(g, unseen, hand)
    if hit > best:
        best, action = hit, "hit"
    if g.rules.double_after_split and _may_double(g.rules, hand):
        double = _q_double(g, unseen, hand)
        if double > best:
            action = "double"
    return action


def _may_resplit(rules: Rules, pair: int, hands: int) -> bool:
    return hands < rules.max_hands and (pair != ACE or rules.resplit_aces)


@cache
def _split_round(g: _Game, hole: int | None, shoe: Counts, pair: int, hands: int, waiting: int,
                 current: Cards, done: Payoffs) -> Fraction:
    """Rest of a round after a split, card by card, with the hole card fixed.

    ``shoe``: the cards really left (less the hole card); ``hands``: hands so far;
    ``waiting``: hands to the right of ``current`` still holding one pair card;
    ``current``: the cards of the hand being played; ``done``: what the finished hands
    win against each dealer outcome (all that matters of them now).
    """

    def finish(rest: Counts, cards: Cards, bet: int) -> Fraction:
        finished = _payoffs(_final(cards), bet, done)
        if waiting == 0:
            return _settle_table(g, hole, rest, finished)
        return _split_round(g, hole, rest, pair, hands, waiting - 1, (pair,), finished)

    if len(current) == 1:  # the hand takes its second card, or resplits
        ev = Fraction(0)
        for card, p, rest in _draws(shoe):
            if card == pair and _may_resplit(g.rules, pair, hands):
                ev += p * _split_round(g, hole, rest, pair, hands + 1, waiting + 1, current, done)
            else:
                ev += p * _split_round(g, hole, rest, pair, hands, waiting, _with(current, card),
                                       done)
        return ev
    if _total(current) >= 21 or (pair == ACE and not g.rules.hit_split_aces):
        return finish(shoe, current, 1)
    action = _cdz_action(g, current)
    if action == "stand":
        return finish(shoe, current, 1)
    ev = Fraction(0)
    for card, p, rest in _draws(shoe):
        cards = _with(current, card)
        if action == "double":
            ev += p * finish(rest, cards, 2)
        else:
            ev += p * _split_round(g, hole, rest, pair, hands, waiting, cards, done)
    return ev


def _split_round_start(g: _Game, hole: int | None, shoe: Counts, pair: int) -> Fraction:
    return _split_round(g, hole, shoe, pair, 2, 1, (pair,), NO_HANDS)


# ---------------------------------------------------- decisions on two cards


def _surrender_value(g: _Game, unseen: Counts) -> Fraction:
    """Believed surrender EV: -1/2, but -1 when an ENHC dealer then has blackjack (LS)."""
    if g.rules.peeks or g.rules.surrender is Surrender.EARLY:
        return -HALF
    ev = Fraction(0)
    for card, p, _ in _draws(unseen):
        ev += p * (-1 if _is_natural((g.up, card)) else -HALF)
    return ev


def _natural_value(g: _Game, unseen: Counts) -> Fraction:
    """Believed EV of a player blackjack (pushes a dealer blackjack, else paid)."""
    ev = Fraction(0)
    for hole, w, rest in _hole_cases(g, unseen):
        seconds = [(hole, Fraction(1))] if hole is not None else [
            (card, p) for card, p, _ in _draws(rest)]
        for second, p in seconds:
            ev += w * p * (0 if _is_natural((g.up, second)) else g.rules.blackjack_pays)
    return ev


@cache
def _action_values(g: _Game, hand: Cards, with_surrender: bool) -> tuple[tuple[str, Fraction],
                                                                          ...]:
    """Believed EV of each legal action on an unsplit hand (see :func:`hand_evs`)."""
    unseen = _take_all(_take(g.start, g.up), hand)
    total = _total(hand)
    if total > 21:
        raise ValueError(f"hand {hand} is already bust")
    if _is_natural(hand):
        return (("stand", _natural_value(g, unseen)),)
    values: list[tuple[str, Fraction]] = [("stand", _q_stand(g, unseen, hand))]
    if total < 21:
        values.append(("hit", _q_hit(g, unseen, hand)))
    if _may_double(g.rules, hand):
        values.append(("double", _q_double(g, unseen, hand)))
    if len(hand) == 2 and hand[0] == hand[1] and g.rules.max_hands > 1:
        split = Fraction(0)
        for hole, w, rest in _hole_cases(g, unseen):
            split += w * _split_round_start(g, hole, rest, hand[0])
        values.append(("split", split))
    if with_surrender and len(hand) == 2 and g.rules.surrender is not Surrender.NONE:
        values.append(("surrender", _surrender_value(g, unseen)))
    return tuple(values)


def _play_on(g: _Game, hole: int | None, shoe: Counts, hand: Cards) -> Fraction:
    """An unsplit hand after a hit, played card by card with the hole card fixed."""
    total = _total(hand)
    if total > 21:
        return Fraction(-1)
    unseen = shoe if hole is None else _put(shoe, hole)
    if total == 21 or _q_stand(g, unseen, hand) >= _q_hit(g, unseen, hand):
        return _settle_table(g, hole, shoe, _payoffs(total, 1))
    return sum((p * _play_on(g, hole, rest, _with(hand, card)) for card, p, rest in _draws(shoe)),
               Fraction(0))


def _play(g: _Game, hole: int | None, shoe: Counts, hand: Cards, action: str) -> Fraction:
    """Play ``action`` on the two-card ``hand``, card by card with the hole card fixed."""
    if action == "stand":
        return _settle_table(g, hole, shoe, _payoffs(_total(hand), 1))
    if action == "surrender":  # late; early surrender is settled before the peek
        return _surrender_value(g, shoe) if hole is None else -HALF
    if action == "split":
        return _split_round_start(g, hole, shoe, hand[0])
    ev = Fraction(0)
    for card, p, rest in _draws(shoe):
        cards = _with(hand, card)
        if action == "double":
            ev += p * _settle_table(g, hole, rest, _payoffs(_final(cards), 2))
        else:
            ev += p * _play_on(g, hole, rest, cards)
    return ev


@cache
def _deal_ev(g: _Game, hand: Cards) -> Fraction:
    """Unconditional EV of the round once the upcard and the player's two cards are dealt."""
    rules = g.rules
    unseen = _take_all(_take(g.start, g.up), hand)
    natural = _is_natural(hand)

    def decision() -> str:  # made on what the player knows, after the peek
        values = _action_values(g, hand, rules.surrender is Surrender.LATE)
        return max(values, key=lambda item: item[1])[0]

    if g.hole_first:
        ev = Fraction(0)
        action: str | None = None
        for hole, p, rest in _draws(unseen):  # the hole card, really dealt now
            if _is_natural((g.up, hole)):
                ev += p * (0 if natural else -1)
            elif natural:
                ev += p * rules.blackjack_pays
            else:
                action = action or decision()
                ev += p * _play(g, hole, rest, hand, action)
    elif natural:
        ev = sum((p * (0 if _is_natural((g.up, card)) else rules.blackjack_pays)
                  for card, p, _ in _draws(unseen)), Fraction(0))
    else:
        ev = _play(g, None, unseen, hand, decision())
    if rules.surrender is Surrender.EARLY and not natural:
        ev = max(ev, -HALF)
    return ev


# -------------------------------------------------------------------- public


def round_ev_by_upcard(rules: Rules, counts: Counts, *,
                       literal_hole: bool = False) -> dict[int, Fraction]:
    """EV of the round given each upcard present in the shoe ``counts`` (before the deal).

    ``literal_hole``: in PEEK games draw the hole card right after the deal for every
    upcard, not only for an ace or a ten (slower; the result is the same).
    """
    start = tuple(counts)
    result: dict[int, Fraction] = {}
    for up, _, after_up in _draws(start):
        g = _game(rules, start, up, literal_hole)
        ev = Fraction(0)
        for first, p1, after_first in _draws(after_up):
            for second, p2, _ in _draws(after_first):
                ev += p1 * p2 * _deal_ev(g, tuple(sorted((first, second))))
        result[up] = ev
        _split_round.cache_clear()  # its states serve one upcard only: free the memory
    return result


def round_ev(rules: Rules, counts: Counts, *, literal_hole: bool = False) -> Fraction:
    """EV of one round off the top of the shoe ``counts`` (``literal_hole``: as above)."""
    by_up = round_ev_by_upcard(rules, counts, literal_hole=literal_hole)
    return sum((p * by_up[up] for up, p, _ in _draws(tuple(counts))), Fraction(0))


def hand_evs(rules: Rules, counts: Counts, upcard: int, cards: Cards, *,
             literal_hole: bool = False) -> dict[str, Fraction]:
    """EV of each legal action on an unsplit hand ``cards`` against ``upcard``.

    ``counts`` is the shoe before the deal: it still holds the upcard and ``cards``.
    Actions: "stand", "hit" (then play on optimally; not on 21), "double" (two cards, as
    the double rule allows), "split" (pairs, ``max_hands > 1``, CDZ- play),
    "surrender" (two cards, LS or ES: -1/2; LS in ENHC: -1 when the dealer then has
    blackjack).  A player blackjack only has "stand" (its payout).  In PEEK games the
    EVs are conditioned on the dealer not having blackjack (which matters with an ace
    or ten up); ENHC EVs are unconditioned.  ``literal_hole``: as in
    :func:`round_ev_by_upcard`.
    """
    g = _game(rules, tuple(counts), upcard, literal_hole)
    return dict(_action_values(g, tuple(sorted(cards)), True))


def dealer_distribution(counts: Counts, upcard: int, hits_soft_17: bool) -> dict[str, Fraction]:
    """The dealer's final outcome probabilities, unconditioned.

    ``counts`` no longer holds the upcard; the second card is drawn from it.
    Keys: "17" .. "21", "blackjack", "bust".
    """
    result = dict.fromkeys(OUTCOMES, Fraction(0))
    result.update(_dealer(tuple(counts), (upcard,), hits_soft_17))
    return result


def clear_caches() -> None:
    """Forget every memoised state (they are kept across calls)."""
    for function in (_game, _draws, _dealer, _dealer_odds, _q_stand, _q_hit, _q_double,
                     _v_play_on, _cdz_action, _split_round, _action_values, _deal_ev):
        function.cache_clear()
