"""Brute-force distribution of a round's net result, card by card (small shoes, fractions).

Built on :mod:`tests.oracle`, the independent whole-round enumerator: its model
of the round, its dealer, its settlement of finished hands and its decisions
(optimal play of unsplit hands, CDZ- play of split hands, Free Bet's free hand;
doubling after hitting, a doubled hand given up or doubled again, surrender after
hitting; the 21 bonuses by card count) are used as they are.  Where
:mod:`tests.oracle` returns the expectation of a round, the functions here return the
whole distribution ``{net result: probability}``, following the same card sequences
with the hole card fixed.  Nothing is shared with the engine's distribution modules
(``analyzer.engine.dist_*``).  Speed and memory are those of the oracle: shoes
of up to about 16-20 cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from gmpy2 import mpq as Q  # exact rationals: the values of fractions.Fraction, GMP arithmetic

from analyzer.core.rules import Rules, Surrender
from tests.oracle import (
    FREE,
    HALF,
    NO_HANDS,
    OUTCOMES,
    PAID,
    PAID_DOUBLE,
    Bet,
    Cards,
    Counts,
    Payoffs,
    _action_values,
    _after_double_choice,
    _after_double_values,
    _cdz_action,
    _cdz_after_double,
    _dealer,
    _double_bet,
    _draws,
    _final,
    _forced,
    _free_action,
    _Game,
    _game,
    _is_natural,
    _may_double,
    _may_resplit,
    _may_surrender,
    _may_surrender_later,
    _outcome_values,
    _paid,
    _payoffs,
    _put,
    _q_double,
    _q_hit,
    _q_stand,
    _take,
    _take_all,
    _total,
    _with,
)

Dist = tuple[tuple[Q, Q], ...]  # (net result, probability), hashable for caches


def _mix(parts: Iterable[tuple[Q, Dist]]) -> Dist:
    """The mixture ``sum_i w_i * D_i`` of distributions."""
    out: dict[Q, Q] = {}
    for w, dist in parts:
        for x, p in dist:
            out[x] = out.get(x, Q(0)) + w * p
    return tuple(sorted((x, p) for x, p in out.items() if p))


def _point(x: Q | int) -> Dist:
    return ((Q(x), Q(1)),)


def _settle_dist(g: _Game, hole: int | None, shoe: Counts, payoffs: Payoffs) -> Dist:
    """Distribution of the round once the dealer plays (oracle's ``_settle_table``)."""
    values = _outcome_values(g.rules, payoffs)
    if len(set(values)) == 1:
        return _point(values[0])
    cards = (g.up,) if hole is None else tuple(sorted((g.up, hole)))
    probs = dict(_dealer(shoe, cards, g.rules.hits_soft_17))
    return _mix((probs.get(o, Q(0)), _point(v))
                for o, v in zip(OUTCOMES, values, strict=True))


def _unseen(shoe: Counts, hole: int | None) -> Counts:
    return shoe if hole is None else _put(shoe, hole)


def _stand_dist(g: _Game, hole: int | None, shoe: Counts, hand: Cards, bet: Bet,
                split: bool = False) -> Dist:
    return _settle_dist(g, hole, shoe, _payoffs(g.rules, _final(g.rules, hand),
                                                _paid(g, hand, bet, split)))


def _play_on(g: _Game, hole: int | None, shoe: Counts, hand: Cards) -> Dist:
    """An unsplit hand after a hit (oracle's ``_v_play_on``): the best of standing,
    hitting, doubling (DAN) and surrendering (SAH); ties go to the first of these."""
    rules = g.rules
    unseen = _unseen(shoe, hole)
    if _forced(rules, hand):
        return _stand_dist(g, hole, shoe, hand, PAID)
    choices = [("stand", _q_stand(g, unseen, hand, PAID)), ("hit", _q_hit(g, unseen, hand, PAID))]
    if _may_double(rules, hand):
        choices.append(("double", _q_double(g, unseen, hand, PAID_DOUBLE)))
    if _may_surrender_later(g, hand):
        choices.append(("surrender", -HALF))
    action, best = choices[0]
    for name, value in choices[1:]:
        if value > best:
            action, best = name, value
    if action == "stand":
        return _stand_dist(g, hole, shoe, hand, PAID)
    if action == "surrender":
        return _point(-HALF)
    if action == "double":
        return _mix((p, _doubled(g, hole, rest, _with(hand, card), PAID_DOUBLE))
                    for card, p, rest in _draws(shoe))
    return _mix((p, _play_on(g, hole, rest, _with(hand, card))) for card, p, rest in _draws(shoe))


def _doubled(g: _Game, hole: int | None, shoe: Counts, cards: Cards, bet: Bet) -> Dist:
    """An unsplit doubled hand, its card dealt: it stands, or (oracle's
    ``_after_double_values``) is given up for half its stake or doubled again."""
    choice = "stand"
    if _total(cards) <= 21:
        choice = _after_double_choice(_after_double_values(g, _unseen(shoe, hole), cards, bet))
    if choice == "rescue":
        return _point(Q(-bet[0], 2))
    if choice == "redouble":
        again = (2 * bet[0], 2 * bet[1])
        return _mix((p, _doubled(g, hole, rest, _with(cards, card), again))
                    for card, p, rest in _draws(shoe))
    return _stand_dist(g, hole, shoe, cards, bet)


@cache
def _split_round(g: _Game, hole: int | None, shoe: Counts, pair: int, hands: int, waiting: int,
                 current: Cards, done: Payoffs) -> Dist:
    """The rest of a split round (oracle's ``_split_round``), as a distribution."""
    rules = g.rules
    free_hand = pair in rules.free_splits and waiting == 0

    def doubled(rest: Counts, cards: Cards, bet: Bet) -> Dist:
        choice = _cdz_after_double(g, cards, bet)
        if choice == "redouble":
            return _mix((p, doubled(after, _with(cards, card), (2 * bet[0], 2 * bet[1])))
                        for card, p, after in _draws(rest))
        return finish(rest, cards, bet, rescued=choice == "rescue")

    def finish(rest: Counts, cards: Cards, bet: Bet, rescued: bool = False) -> Dist:
        if rescued:  # given up: half the stake whatever comes
            finished = tuple(e - bet[0] // 2 for e in done[:-2]) + done[-2:]
        else:
            finished = _payoffs(rules, _final(rules, cards), _paid(g, cards, bet, True), done)
        if waiting == 0:
            return _settle_dist(g, hole, rest, finished)
        return _split_round(g, hole, rest, pair, hands, waiting - 1, (pair,), finished)

    if len(current) == 1:
        parts = []
        for card, p, rest in _draws(shoe):
            if card == pair and _may_resplit(rules, pair, hands):
                parts.append((p, _split_round(g, hole, rest, pair, hands + 1, waiting + 1,
                                              current, done)))
            else:
                parts.append((p, _split_round(g, hole, rest, pair, hands, waiting,
                                              _with(current, card), done)))
        return _mix(parts)
    bet = FREE if free_hand else PAID
    if _forced(rules, current) or (pair == 1 and not rules.hit_split_aces):
        return finish(shoe, current, bet)
    action = _free_action(g, current) if free_hand else _cdz_action(g, current)
    if action == "stand":
        return finish(shoe, current, bet)
    parts = []
    for card, p, rest in _draws(shoe):
        cards = _with(current, card)
        if action == "double":
            parts.append((p, doubled(rest, cards, PAID_DOUBLE)))
        else:
            parts.append((p, _split_round(g, hole, rest, pair, hands, waiting, cards, done)))
    return _mix(parts)


def _play(g: _Game, hole: int | None, shoe: Counts, hand: Cards, action: str) -> Dist:
    """Play ``action`` on the two-card ``hand`` (oracle's ``_play``)."""
    rules = g.rules
    if action == "stand":
        return _settle_dist(g, hole, shoe, _payoffs(rules, _final(rules, hand), PAID))
    if action == "surrender":  # late
        if hole is None:
            return _mix((p, _point(-1 if _is_natural((g.up, card)) else -HALF))
                        for card, p, _ in _draws(shoe))
        return _point(-1 if not g.peeked and _is_natural((g.up, hole)) else -HALF)
    if action == "split":
        return _split_round(g, hole, shoe, hand[0], 2, 1, (hand[0],), NO_HANDS)
    double = _double_bet(rules, hand)
    parts = []
    for card, p, rest in _draws(shoe):
        cards = _with(hand, card)
        if action == "double":
            assert double is not None
            parts.append((p, _doubled(g, hole, rest, cards, double)))
        else:
            parts.append((p, _play_on(g, hole, rest, cards)))
    return _mix(parts)


def _deal(g: _Game, hand: Cards) -> Dist:
    """The round once the upcard and the player's two cards are dealt (oracle's ``_deal_ev``)."""
    rules = g.rules
    unseen = _take_all(_take(g.start, g.up), hand)
    natural = _is_natural(hand)
    values = _action_values(g, hand, rules.surrender is Surrender.LATE)
    action = max(values, key=lambda item: item[1])[0]
    bj_vs_bj = rules.blackjack_pays if rules.blackjack_wins else 0  # BJW: paid against it
    if g.hole_first:
        parts = []
        for hole, p, rest in _draws(unseen):
            dealer_bj = _is_natural((g.up, hole))
            if g.peeked and dealer_bj:
                parts.append((p, _point(bj_vs_bj if natural else -1)))
            elif natural:
                parts.append((p, _point(bj_vs_bj if dealer_bj else rules.blackjack_pays)))
            else:
                parts.append((p, _play(g, hole, rest, hand, action)))
        dist = _mix(parts)
    elif natural:
        dist = _mix((p, _point(bj_vs_bj if _is_natural((g.up, card)) else rules.blackjack_pays))
                    for card, p, _ in _draws(unseen))
    else:
        dist = _play(g, None, unseen, hand, action)
    if rules.surrender is Surrender.EARLY and not natural and _may_surrender(g, hand):
        ev = sum((x * p for x, p in dist), Q(0))
        if ev < -HALF:
            dist = _point(-HALF)
    return dist


def round_distribution(rules: Rules, counts: Counts) -> dict[Q, Q]:
    """``{net result: probability}`` of one round off the top of the shoe ``counts``."""
    start = tuple(counts)
    parts = []
    for up, p_up, after_up in _draws(start):
        g = _game(rules, start, up, False)
        for first, p1, after_first in _draws(after_up):
            for second, p2, _ in _draws(after_first):
                parts.append((p_up * p1 * p2, _deal(g, tuple(sorted((first, second))))))
        _split_round.cache_clear()
    return dict(_mix(parts))
