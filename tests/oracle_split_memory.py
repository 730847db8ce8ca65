"""Brute-force optimal splitting with full card memory: the whole round, card by card.

Independent of the engine (``analyzer.engine.*``): only the oracle of
``tests/oracle.py`` is reused for what it already checks -- the rules model, the
player's beliefs about the hole card (``_hole_cases``, ``_player_draws``), the
dealer and the settlement of all the round's hands together (``_payoffs``,
``_settle_table``, which applies OBO, Charlie, push-22, free bets).

What is enumerated: after the split every hand is played in turn; at every
decision (stand, hit, double where allowed, resplit or not when a pair card
comes) the player takes the action maximising the EV of the *whole round* given
everything he has seen (every card of every hand, the upcard, and after a peek
that the dealer has no blackjack).  The state is the unseen cards, the current
hand, the hands still waiting, the resplits left and what the finished hands
win against each dealer outcome; the round is settled only when the dealer
plays, with all hands at once -- no decomposition into per-hand values, so it
checks the engine's martingale argument (:mod:`analyzer.engine.optimal_split`).

Spanish 21's rules as a split hand meets them: with DAS a hand doubles on two cards and,
under DAN, on more; once a paid double's card is dealt the player stands, doubles again
(RDn) or gives the hand up for half its stake (DDR), whichever is best for the whole
round; a winning 21 is paid its bonus by card count (not under BNS, nor doubled under
BND) and a 6-7-8 or 7-7-7 its pay averaged over the suits (the play is by ranks: the
suits of the round's cards are not followed); no surrender after hitting, no Super Bonus.

Small shoes only (about 20 cards with resplits; every state is memoised).
"""

from __future__ import annotations

from functools import cache

from gmpy2 import mpq as Q  # exact rationals: the values of fractions.Fraction, GMP arithmetic

from analyzer.core.rules import Rules
from tests.oracle import (
    ACE,
    FREE,
    NO_HANDS,
    PAID,
    PAID_DOUBLE,
    Bet,
    Cards,
    Counts,
    Payoffs,
    _final,
    _forced,
    _Game,
    _game,
    _hole_cases,
    _may_double,
    _paid,
    _payoffs,
    _player_draws,
    _redouble_offered,
    _rescue_offered,
    _settle_table,
    _take,
    _take_all,
    _with,
)


def _end(g: _Game, unseen: Counts, done: Payoffs) -> Q:
    """All hands finished: the dealer plays, as the player believes the hole card lies."""
    return sum((w * _settle_table(g, hole, rest, done)
                for hole, w, rest in _hole_cases(g, unseen)), Q(0))


@cache
def _round(g: _Game, unseen: Counts, pair: int, waiting: int, resplits: int, current: Cards,
           done: Payoffs, free_next: bool) -> Q:
    """Best EV of the rest of the round.

    ``current``: the hand in play (one card: it takes its second card next);
    ``waiting``: one-card hands after it; ``free_next``: the last hand carries the
    free bet (Free Bet, one split).
    """
    rules = g.rules
    free_hand = free_next and waiting == 0
    bet: Bet = FREE if free_hand else PAID

    def finish(rest: Counts, cards: Cards, stake: Bet, rescued: bool = False) -> Q:
        if rescued:  # given up: half the stake, whatever the dealer holds (a peek game)
            settled = tuple(e - stake[0] // 2 for e in done[:-2]) + done[-2:]
        else:  # a split hand's 21 bonus (by card count; a suit bonus averaged over suits)
            settled = _payoffs(rules, _final(rules, cards), _paid(g, cards, stake, True), done)
        if waiting == 0:
            return _end(g, rest, settled)
        return _round(g, rest, pair, waiting - 1, resplits, (pair,), settled, free_next)

    def doubled(rest: Counts, cards: Cards, stake: Bet) -> Q:
        """A paid double's card is dealt: stand, double again (RDn) or give up (DDR),
        whichever is best for the whole round."""
        best = finish(rest, cards, stake)
        if _redouble_offered(rules, cards, stake):
            again = (2 * stake[0], 2 * stake[1])
            best = max(best, sum((p * doubled(after, _with(cards, card), again)
                                  for card, p, after in _player_draws(g, rest)), Q(0)))
        if _rescue_offered(rules, cards, stake):
            best = max(best, finish(rest, cards, stake, rescued=True))
        return best

    if len(current) == 1:  # the second card; a pair card may be resplit
        ev = Q(0)
        for card, p, rest in _player_draws(g, unseen):
            keep = _round(g, rest, pair, waiting, resplits, _with(current, card), done,
                          free_next)
            if card == pair and resplits > 0:
                keep = max(keep, _round(g, rest, pair, waiting + 1, resplits - 1, current,
                                        done, free_next))
            ev += p * keep
        return ev
    if _forced(rules, current) or (pair == ACE and not rules.hit_split_aces):
        return finish(unseen, current, bet)
    best = finish(unseen, current, bet)
    hit = sum((p * _round(g, rest, pair, waiting, resplits, _with(current, card), done,
                          free_next) if _final(rules, _with(current, card)) else
               p * finish(rest, _with(current, card), bet)
               for card, p, rest in _player_draws(g, unseen)), Q(0))
    best = max(best, hit)
    # two cards, or any number under DAN; a split hand doubles only with DAS
    if not free_hand and rules.double_after_split and _may_double(rules, current):
        double = sum((p * doubled(rest, _with(current, card), PAID_DOUBLE)
                      for card, p, rest in _player_draws(g, unseen)), Q(0))
        best = max(best, double)
    return best


def optimal_split_ev(rules: Rules, counts: Counts, upcard: int, pair: int) -> Q:
    """Best EV of splitting ``pair`` against ``upcard``, every card of the round remembered.

    ``counts`` is the shoe before the deal (it still holds the upcard and the pair).
    Conditioned on no dealer blackjack where the dealer peeks with this upcard, as
    :func:`tests.oracle.hand_evs` reports a split.  Resplits up to
    ``rules.max_hands`` (aces only with ``resplit_aces``; never after a free split).
    """
    g = _game(rules, tuple(counts), upcard, False)
    unseen = _take_all(_take(tuple(counts), upcard), (pair, pair))
    free = pair in rules.free_splits
    hands = 2 if free or (pair == ACE and not rules.resplit_aces) else rules.max_hands
    return _round(g, unseen, pair, 1, hands - 2, (pair,), NO_HANDS, free)


def clear_caches() -> None:
    _round.cache_clear()
