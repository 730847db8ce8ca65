"""Brute force: two spots and the dealer, card by card, as fractions (small shoes).

Independent of the engine's distribution and spot modules (``analyzer.engine.dist_*``):
built on :mod:`tests.oracle`'s model of the round (its card rules, dealer, settlement
and decisions).  Each spot plays the fixed strategy of a single spot - its decisions
are those :mod:`tests.oracle` makes for a hand off the full shoe, from the spot's own
cards and the upcard - while the cards really come off one shoe: spot 1's hands,
then spot 2's, then the dealer's.  Returns ``E[X1]``, ``E[X2]`` and ``E[X1 X2]``.

After a hit a hand stands, hits, doubles (DAN) or surrenders (SAH) as the oracle's
``_play_on`` chooses; a doubled hand, its card dealt, stands, doubles again (RDn) or is
given up (DDR) as its ``_after_double_choice`` does (a split hand: its ``_cdz_after_double``);
a winning 21 is paid its card-count bonus (``_paid``).
"""

from __future__ import annotations

from gmpy2 import mpq as Q  # exact rationals: the values of fractions.Fraction, GMP arithmetic

from analyzer.core.rules import Rules, Surrender
from tests.oracle import (
    ACE,
    FREE,
    HALF,
    NO_HANDS,
    OUTCOMES,
    PAID,
    PAID_DOUBLE,
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
    _natural_vs_blackjack,
    _outcome_values,
    _paid,
    _payoffs,
    _q_double,
    _q_hit,
    _q_stand,
    _take,
    _take_all,
    _with,
)
from tests.oracle_distribution import _deal

Vec = tuple[Q, ...]  # a spot's result against each dealer outcome, OUTCOMES order
Ends = list[tuple[Q, Vec, Counts]]  # (chance, result vector, shoe after the spot)
N = len(OUTCOMES)


def _vec(rules: Rules, payoffs: Payoffs) -> Vec:
    return tuple(Q(v) for v in _outcome_values(rules, payoffs))


def _settled(g: _Game, hand: Cards, bet: tuple[int, int], split: bool = False) -> Vec:
    """A finished hand's result against each dealer outcome, its bonus 21 paid."""
    return _vec(g.rules, _payoffs(g.rules, _final(g.rules, hand), _paid(g, hand, bet, split)))


def _hit_on(g: _Game, shoe: Counts, hand: Cards, chance: Q, out: Ends) -> None:
    """An unsplit hand after a hit: the single-spot strategy's stand, hit, double (DAN) or
    surrender (SAH), as the oracle's ``_play_on`` chooses."""
    rules = g.rules
    unseen = _take_all(_take(g.start, g.up), hand)  # the spot's own view: its cards only
    if _forced(rules, hand):
        out.append((chance, _settled(g, hand, PAID), shoe))
        return
    stand, hit = _q_stand(g, unseen, hand, PAID), _q_hit(g, unseen, hand, PAID)
    double = _q_double(g, unseen, hand, PAID_DOUBLE) if _may_double(rules, hand) else None
    others = max(stand, hit) if double is None else max(stand, hit, double)
    if _may_surrender_later(g, hand) and others < -HALF:
        out.append((chance, (-HALF,) * N, shoe))  # a peek game: no dealer blackjack is met
    elif double is not None and double > max(stand, hit):
        _doubled(g, shoe, hand, PAID_DOUBLE, chance, out)
    elif stand >= hit:
        out.append((chance, _settled(g, hand, PAID), shoe))
    else:
        for card, p, rest in _draws(shoe):
            _hit_on(g, rest, _with(hand, card), chance * p, out)


def _doubled(g: _Game, shoe: Counts, hand: Cards, bet: tuple[int, int], chance: Q,
             out: Ends) -> None:
    """An unsplit double: one card, then stand, double again (RDn) or give up (DDR)."""
    for card, p, rest in _draws(shoe):
        cards = _with(hand, card)
        unseen = _take_all(_take(g.start, g.up), cards)
        choice = _after_double_choice(_after_double_values(g, unseen, cards, bet))
        if choice == "rescue":
            out.append((chance * p, (Q(-bet[0], 2),) * N, rest))
        elif choice == "redouble":
            _doubled(g, rest, cards, (2 * bet[0], 2 * bet[1]), chance * p, out)
        else:
            out.append((chance * p, _settled(g, cards, bet), rest))


def _split(g: _Game, shoe: Counts, pair: int, hands: int, waiting: int, current: Cards,
           done: Payoffs, chance: Q, out: Ends) -> None:
    """The split hands of one spot (the oracle's ``_split_round``, ending at the spot)."""
    rules = g.rules
    free_hand = pair in rules.free_splits and waiting == 0

    def finish(rest: Counts, cards: Cards, bet: tuple[int, int], p: Q,
               rescued: bool = False) -> None:
        if rescued:  # given up: half the stake whatever comes
            finished = tuple(e - bet[0] // 2 for e in done[:-2]) + done[-2:]
        else:
            finished = _payoffs(rules, _final(rules, cards), _paid(g, cards, bet, True), done)
        if waiting == 0:
            out.append((p, _vec(rules, finished), rest))
        else:
            _split(g, rest, pair, hands, waiting - 1, (pair,), finished, p, out)

    def doubled(rest: Counts, cards: Cards, bet: tuple[int, int], p: Q) -> None:
        choice = _cdz_after_double(g, cards, bet)
        if choice == "redouble":
            for card, q, after in _draws(rest):
                doubled(after, _with(cards, card), (2 * bet[0], 2 * bet[1]), p * q)
        else:
            finish(rest, cards, bet, p, rescued=choice == "rescue")

    if len(current) == 1:
        for card, p, rest in _draws(shoe):
            if card == pair and _may_resplit(rules, pair, hands):
                _split(g, rest, pair, hands + 1, waiting + 1, current, done, chance * p, out)
            else:
                _split(g, rest, pair, hands, waiting, _with(current, card), done, chance * p,
                       out)
        return
    bet = FREE if free_hand else PAID
    if _forced(rules, current) or (pair == ACE and not rules.hit_split_aces):
        finish(shoe, current, bet, chance)
        return
    action = _free_action(g, current) if free_hand else _cdz_action(g, current)
    if action == "stand":
        finish(shoe, current, bet, chance)
        return
    for card, p, rest in _draws(shoe):
        cards = _with(current, card)
        if action == "double":
            doubled(rest, cards, PAID_DOUBLE, chance * p)
        else:
            _split(g, rest, pair, hands, waiting, cards, done, chance * p, out)


def _decision(g: _Game, hand: Cards) -> str:
    """The single-spot strategy's action on two cards (early surrender included)."""
    rules = g.rules
    if rules.surrender is Surrender.EARLY and _may_surrender(g, hand) \
            and _deal(g, hand) == ((-HALF, Q(1)),):
        return "early"
    values = _action_values(g, hand, rules.surrender is Surrender.LATE)
    return max(values, key=lambda item: item[1])[0]


def _spot(g: _Game, shoe: Counts, hand: Cards) -> Ends:
    """Every way one spot holding ``hand`` ends, the dealer not yet drawn."""
    rules = g.rules
    if _is_natural(hand):
        return [(Q(1), (rules.blackjack_pays,) * (N - 1) + (Q(0),), shoe)]
    action = _decision(g, hand)
    out: Ends = []
    if action == "early":
        out.append((Q(1), (-HALF,) * N, shoe))
    elif action == "surrender":  # late: an unchecked blackjack takes the whole bet
        out.append((Q(1), (-HALF,) * (N - 1) + (-HALF if g.peeked else Q(-1),),
                    shoe))
    elif action == "stand":
        out.append((Q(1), _settled(g, hand, PAID), shoe))
    elif action == "hit":
        for card, p, rest in _draws(shoe):
            _hit_on(g, rest, _with(hand, card), p, out)
    elif action == "double":
        bet = _double_bet(rules, hand)
        assert bet is not None
        if bet == PAID_DOUBLE:
            _doubled(g, shoe, hand, bet, Q(1), out)
        else:  # a free double: one card, neither rescued nor redoubled
            for card, p, rest in _draws(shoe):
                out.append((p, _settled(g, _with(hand, card), bet), rest))
    elif action == "split":
        _split(g, shoe, hand[0], 2, 1, (hand[0],), NO_HANDS, Q(1), out)
    else:
        raise AssertionError(action)
    return out


def _peeked_blackjack(g: _Game, hand: Cards) -> Q:
    """A spot's result when a peeked dealer blackjack ends the round at once."""
    if _is_natural(hand):
        return _natural_vs_blackjack(g.rules)  # a push, or its payout under BJW
    early = g.rules.surrender is Surrender.EARLY and _may_surrender(g, hand) and \
        _decision(g, hand) == "early"
    return -HALF if early else Q(-1)


def two_spots(rules: Rules, counts: Counts) -> tuple[Q, Q, Q]:
    """``(E[X1], E[X2], E[X1 X2])`` of two spots off the top of the shoe ``counts``."""
    start = tuple(counts)
    e1 = e2 = e12 = Q(0)
    for up, p_up, after_up in _draws(start):
        g = _game(rules, start, up, False)
        for a, pa, s1 in _draws(after_up):
            for b, pb, s2 in _draws(s1):
                for c, pc, s3 in _draws(s2):
                    for d, pd, s4 in _draws(s3):
                        w = p_up * pa * pb * pc * pd
                        one, two = tuple(sorted((a, b))), tuple(sorted((c, d)))
                        holes = _draws(s4) if g.peeked else ((None, Q(1), s4),)
                        for hole, ph, shoe in holes:
                            if hole is not None and _is_natural((up, hole)):
                                x1, x2 = _peeked_blackjack(g, one), _peeked_blackjack(g, two)
                                e1, e2, e12 = (e1 + w * ph * x1, e2 + w * ph * x2,
                                               e12 + w * ph * x1 * x2)
                                continue
                            m1, m2, m12 = _play_both(g, shoe, one, two, hole)
                            e1, e2, e12 = e1 + w * ph * m1, e2 + w * ph * m2, e12 + w * ph * m12
    return e1, e2, e12


def _play_both(g: _Game, shoe: Counts, one: Cards, two: Cards,
               hole: int | None) -> tuple[Q, Q, Q]:
    """Both spots played in turn, then the dealer: the moments of their results."""
    e1 = e2 = e12 = Q(0)
    cards = (g.up,) if hole is None else tuple(sorted((g.up, hole)))
    for p1, v1, after1 in _spot(g, shoe, one):
        for p2, v2, after2 in _spot(g, after1, two):
            dealer = dict(_dealer(after2, cards, g.rules.hits_soft_17))
            for o, name in enumerate(OUTCOMES):
                q = p1 * p2 * dealer.get(name, Q(0))
                if q:
                    e1, e2, e12 = e1 + q * v1[o], e2 + q * v2[o], e12 + q * v1[o] * v2[o]
    return e1, e2, e12


__all__ = ["two_spots"]
