"""Brute-force distribution of a round's net result, card by card (small shoes, fractions).

Built on :mod:`tests.oracle`, the independent whole-round enumerator: its model
of the round, its dealer, its settlement of finished hands and its decisions
(optimal play of unsplit hands, CDZ- play of split hands, Free Bet's free hand;
doubling after hitting, a doubled hand given up or doubled again, surrender after
hitting; the 21 bonuses by card count; a two-card hand one card from a bonus 21 played
case by case of the suits the player sees) are used as they are.  Where the oracle pays
a bonus 21 by suits at its average over them, the functions here deal the suits: the
physical cards of the deal (a natural's ace and ten, an unsplit hand's third card after
its seen two) and, for the split hands of one round together, every choice of distinct
physical cards for the bonus hands' 6s, 7s and 8s.  Where
:mod:`tests.oracle` returns the expectation of a round, the functions here return the
whole distribution ``{net result: probability}``, following the same card sequences
with the hole card fixed.  Nothing is shared with the engine's distribution modules
(``analyzer.engine.dist_*``).  Speed and memory are those of the oracle: shoes
of up to about 16-20 cards.
"""

from __future__ import annotations

import itertools
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
    _deal_ev,
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
    _may_split,
    _may_surrender,
    _may_surrender_later,
    _outcome_values,
    _paid,
    _payoffs,
    _physical,
    _put,
    _q_double,
    _q_hit,
    _q_stand,
    _selections,
    _settle,
    _split_by_ranks,
    _suits_matter,
    _take,
    _take_all,
    _three_pay,
    _total,
    _with,
    hole_only,
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
    if (law := hole_only(g, hole, shoe, values)) is not None:
        return _mix((p, _point(v)) for p, v in law)
    cards = (g.up,) if hole is None else tuple(sorted((g.up, hole)))
    probs = dict(_dealer(shoe, cards, g.rules.hits_soft_17))
    return _mix((probs.get(o, Q(0)), _point(v))
                for o, v in zip(OUTCOMES, values, strict=True))


def _unseen(shoe: Counts, hole: int | None) -> Counts:
    return shoe if hole is None else _put(shoe, hole)


def _stand_dist(g: _Game, hole: int | None, shoe: Counts, hand: Cards, bet: Bet,
                split: bool = False) -> Dist:
    return _mix((p, _settle_dist(g, hole, shoe, _payoffs(g.rules, _final(g.rules, hand), paid)))
                for p, paid in _paid_law(g, hand, bet, split))


def _is_suit_bonus(g: _Game, cards: Cards, bet: Bet, split: bool) -> bool:
    """A three-card 6-7-8 or 7-7-7 that the oracle pays a bonus by suits."""
    return cards in ((6, 7, 8), (7, 7, 7)) and _paid(g, cards, bet, split) != bet


def _paid_law(g: _Game, cards: Cards, bet: Bet, split: bool) -> list[tuple[Q, Bet]]:
    """The oracle's ``_paid`` with the suits of an unsplit bonus 21 dealt: the hand's
    first two cards as the deal saw them, its third any unseen physical card of its rank."""
    if g.dealt is None or split or not _is_suit_bonus(g, cards, bet, split):
        return [(Q(1), _paid(g, cards, bet, split))]
    up_suit, first, second = g.dealt
    rest = list(cards)
    for rank, _suit in (first, second):
        rest.remove(rank)
    third = rest[0]
    left = _physical(g.rules)
    for rank, suit in ((g.up, up_suit), first, second):
        if rank == third and suit is not None:
            left.remove(next(c for c in left if c[0] == suit))
    super_bonus = g.up == 7 and bet[0] == 1
    law: dict[Q, Q] = {}
    for suit, _copy in left:
        pay = _three_pay(g.rules, cards, (first[1], second[1], suit), super_bonus)
        law[pay] = law.get(pay, Q(0)) + Q(1, len(left))
    return [(p, (bet[0] * pay, bet[1])) for pay, p in sorted(law.items())]


@cache
def _split_extras(rules: Rules, hands: tuple[tuple[Cards, int], ...]) -> Dist:
    """What split hands' winning bonus 21s (cards, stake) add to their 1:1 wins, together:
    every choice of distinct physical cards for their 6s, 7s and 8s, each rank apart."""
    physical = _physical(rules)
    per_rank = []
    for rank in (6, 7, 8):
        owners = [i for i, (cards, _) in enumerate(hands) for c in cards if c == rank]
        counts: dict[tuple[int, ...], int] = {}
        for choice in itertools.permutations(physical, len(owners)):
            key = tuple(suit for suit, _copy in choice)
            counts[key] = counts.get(key, 0) + 1
        total = sum(counts.values())
        per_rank.append((owners, [(key, Q(n, total)) for key, n in counts.items()]))
    law: dict[Q, Q] = {}
    for combo in itertools.product(*(choices for _, choices in per_rank)):
        suits: list[list[int]] = [[] for _ in hands]
        chance = Q(1)
        for (owners, _), (key, p) in zip(per_rank, combo, strict=True):
            chance *= p
            for i, suit in zip(owners, key, strict=True):
                suits[i].append(suit)
        extra = sum(((_three_pay(rules, cards, tuple(suits[i]), False) - 1) * stake
                     for i, (cards, stake) in enumerate(hands)), Q(0))
        law[extra] = law.get(extra, Q(0)) + chance
    return tuple(sorted(law.items()))


def _settle_split(g: _Game, hole: int | None, shoe: Counts, payoffs: Payoffs,
                  bonus: tuple[tuple[Cards, int], ...]) -> Dist:
    """A split round's settlement, its bonus 21s (paid 1:1 in ``payoffs``) paid by suits."""
    if not bonus:
        return _settle_dist(g, hole, shoe, payoffs)
    wins = [_settle(g.rules, 21, (1, 1), outcome) == 1 for outcome in OUTCOMES[:-1]]
    parts = []
    for extra, p in _split_extras(g.rules, tuple(sorted(bonus))):
        paid = tuple(x + extra if i < len(wins) and wins[i] else x
                     for i, x in enumerate(payoffs))
        parts.append((p, _settle_dist(g, hole, shoe, paid)))
    return _mix(parts)


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
                 current: Cards, done: Payoffs,
                 bonus: tuple[tuple[Cards, int], ...] = ()) -> Dist:
    """The rest of a split round (oracle's ``_split_round``), as a distribution; ``bonus``:
    the finished hands' bonus 21s paid by suits (cards, stake), settled together."""
    rules = g.rules
    free_hand = pair in rules.free_splits and waiting == 0

    def doubled(rest: Counts, cards: Cards, bet: Bet) -> Dist:
        choice = _cdz_after_double(g, cards, bet)
        if choice == "redouble":
            return _mix((p, doubled(after, _with(cards, card), (2 * bet[0], 2 * bet[1])))
                        for card, p, after in _draws(rest))
        return finish(rest, cards, bet, rescued=choice == "rescue")

    def finish(rest: Counts, cards: Cards, bet: Bet, rescued: bool = False) -> Dist:
        more = bonus
        if rescued:  # given up: half the stake whatever comes
            finished = tuple(e - bet[0] // 2 for e in done[:-2]) + done[-2:]
        elif _is_suit_bonus(g, cards, bet, True):  # 1:1 here, its suits at the end
            finished = _payoffs(rules, _final(rules, cards), bet, done)
            more = tuple(sorted((*bonus, (cards, bet[0]))))
        else:
            finished = _payoffs(rules, _final(rules, cards), _paid(g, cards, bet, True), done)
        if waiting == 0:
            return _settle_split(g, hole, rest, finished, more)
        return _split_round(g, hole, rest, pair, hands, waiting - 1, (pair,), finished, more)

    if len(current) == 1:
        parts = []
        for card, p, rest in _draws(shoe):
            if card == pair and _may_resplit(rules, pair, hands):
                parts.append((p, _split_round(g, hole, rest, pair, hands + 1, waiting + 1,
                                              current, done, bonus)))
            else:
                parts.append((p, _split_round(g, hole, rest, pair, hands, waiting,
                                              _with(current, card), done, bonus)))
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
            parts.append((p, _split_round(g, hole, rest, pair, hands, waiting, cards, done,
                                          bonus)))
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
    if action == "split":  # split hands play and pay by the ranks: the suits unseen
        return _split_round(g.plain, hole, shoe, hand[0], 2, 1, (hand[0],), NO_HANDS)
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


def _natural(rules: Rules, against_blackjack: bool) -> Dist:
    """A player's natural: its pay over the physical suits of its ace and ten (BSBJ), pushed
    by a dealer blackjack unless BJW pays it there too."""
    if against_blackjack and not rules.blackjack_wins:
        return _point(0)
    if not rules.suited_blackjack:
        return _point(rules.blackjack_pays)
    physical = _physical(rules)
    return _mix((Q(1, len(physical) ** 2), _point(rules.suited_blackjack if a[0] == t[0]
                                                   else rules.blackjack_pays))
                for a in physical for t in physical)


def _deal(g: _Game, hand: Cards, plays: str = "all") -> Dist:
    """The round once the upcard and the player's two cards are dealt (oracle's
    ``_deal_ev``): a hand one card from a bonus 21 paid by suits case by case of the
    suits the player sees, and where 7-7 is split on its ranks, split in every case
    when that is worth more than the cases' own plays."""
    rules = g.rules
    if g.dealt is None and plays == "all" and _suits_matter(rules, hand, g.up):
        up_pays = g.up in (6, 7, 8)
        ranks = (g.up, *hand) if up_pays else hand
        keep = "keep" if _may_split(rules, hand) and _split_by_ranks(rules) else "all"
        cases = [(p, _game(rules, g.start, g.up, g.literal_hole,
                           (suits[0] if up_pays else None, (hand[0], suits[-2]),
                            (hand[1], suits[-1]))))
                 for suits, p in _selections(rules, ranks).items()]
        if keep == "keep" and _deal_ev(g, hand, "split") > sum(
                (p * _deal_ev(case, hand, "keep") for p, case in cases), Q(0)):
            return _deal(g, hand, "split")
        return _mix((p, _deal(case, hand, keep)) for p, case in cases)
    unseen = _take_all(_take(g.start, g.up), hand)
    natural = _is_natural(hand)
    values = [v for v in _action_values(g, hand, rules.surrender is Surrender.LATE)
              if plays == "all" or (v[0] == "split") == (plays == "split")
              or v[0] == "surrender"]
    action = max(values, key=lambda item: item[1])[0]
    if g.hole_first:
        parts = []
        for hole, p, rest in _draws(unseen):
            dealer_bj = _is_natural((g.up, hole))
            if g.peeked and dealer_bj:
                parts.append((p, _natural(rules, True) if natural else _point(-1)))
            elif natural:
                parts.append((p, _natural(rules, dealer_bj)))
            else:
                parts.append((p, _play(g, hole, rest, hand, action)))
        dist = _mix(parts)
    elif natural:
        dist = _mix((p, _natural(rules, _is_natural((g.up, card))))
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
