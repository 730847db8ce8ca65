"""Game protection: can a card counter beat a side bet, and how much would he win?

Exact part.  The *effect of removal* of a card is the change in the bet's
return when one card of that identity leaves the shoe:
``EOR(c) = R(shoe - c) - R(shoe)``, an exact fraction from the counts with one
card removed (:mod:`~analyzer.sidebets.outcomes`).  Since a card burnt at random
leaves the return unchanged, ``sum(n_c * EOR(c)) = 0`` exactly.  A rank's effect
is the mean of its suits' effects, weighted by their counts.

Count.  The best linear count tags each rank with its effect; a playable count
of level L (1, 2, 3) has integer tags from -L to L.  Its *betting correlation*
is the weighted correlation of tags and effects, and the count of each level is
the one of highest correlation among all ``(2L + 1)^ranks`` tag sets, found
exactly by :func:`best_tags` (rounding the effects, scaled, to integers is not
the best: on Hot 3 it loses 0.025 at level 1).  With the tags
centred (a running count less the average tag per card dealt), the linear
estimate of the return at true count ``tc`` (running count per 52 cards left) is
``R + slope * tc`` with ``slope = (n / 52) * sum(p e t) / sum(p t^2)`` (``p`` the
ranks' shares, ``n`` the shoe's cards), so the bet turns positive at
``tc = -R / slope``.

Simulated part.  Shoes are dealt to a cut card; each round deals the player two
cards and the dealer two (player, dealer, player, dealer), the dealer draws to
17, then one more card for the player (Super Sevens' third card).  The player's
other hits are not dealt, so every round off the top is exactly the bet's
exact reading (the dealer drawing after the player's two cards).  A counter bets
one unit only on rounds whose true count is at or above the trigger.  Standard
errors are taken over shoes (the rounds of a shoe are not independent).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, permutations, product

import numpy as np
import numpy.typing as npt

from analyzer.core.errors import ImpossibleShoeError, SimulationError
from analyzer.sidebets.bets import BetOptions, SideBet
from analyzer.sidebets.firstcards import kings_bounty, lucky_ladies, super_sevens
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable
from analyzer.sidebets.suitshoe import CARDS, RANK_SYMBOLS, Card, SuitShoe, card_value

LEVELS = (1, 2, 3)
DEFAULT_SHOES = 20_000
SEED = 2024
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Count:
    """A linear count: integer tags by rank (A..K; ranks absent from the shoe get 0)."""

    level: int
    tags: tuple[int, ...]
    correlation: float  # betting correlation with the exact effects
    slope: float  # change of the return per unit of true count (linear estimate)
    trigger: float | None  # true count at which the bet turns positive; None: never


@dataclass(frozen=True)
class Simulated:
    """A counter playing the bet only at or above the trigger, dealt to a cut card."""

    shoes: int
    rounds: int
    penetration: Fraction  # share of the shoe dealt before the cut card
    seed: int
    top_mean: float  # mean result of the first round of each shoe (always bet)
    top_se: float
    positive: float  # share of rounds at or above the trigger
    win_per_100: float  # units won per 100 rounds dealt (betting only at the trigger)
    win_se: float
    edge_when_bet: float | None  # mean result of the rounds bet


@dataclass(frozen=True)
class Protection:
    """Everything the game-protection section of a par sheet states."""

    ev: Fraction  # return off the top per unit bet
    card_effects: tuple[tuple[Card, int, Fraction], ...]  # (card, copies, EOR)
    rank_effects: tuple[tuple[int, int, Fraction], ...]  # (rank, copies, EOR)
    suits_pay: bool  # the effects differ by suit within a rank
    counts: tuple[Count, ...]  # levels 1, 2, 3
    best: Count  # the level whose betting correlation is highest (lowest level on ties)
    simulated: Simulated | None


def card_effects(bet: SideBet, outcomes: Outcomes, table: PayTable
                 ) -> tuple[Fraction, dict[Card, Fraction]]:
    """The exact return and the effect of removal of every card identity present."""
    from analyzer.sidebets.stats import par_sheet  # stats imports nothing of this module

    base = par_sheet(bet, outcomes, table, "").ev
    if not outcomes.removed:
        raise SimulationError("effects of removal need the counts with one card removed")
    if not outcomes.removed_deals:  # the shoe holds one deal: less a card, it deals nothing
        raise ImpossibleShoeError("effects of removal need a shoe that still deals the bet "
                                  "with any one card removed; this shoe holds one deal")
    return base, {card: par_sheet(bet, outcomes.without(card), table, "").ev - base
                  for card in outcomes.removed}


def _rank_effects(shoe: SuitShoe, effects: dict[Card, Fraction]
                  ) -> list[tuple[int, int, Fraction]]:
    out = []
    for rank in range(1, 14):
        cards = [(c, n) for c, n in shoe.items() if c[0] == rank]
        copies = sum(n for _, n in cards)
        if copies:
            out.append((rank, copies, sum((n * effects[c] for c, n in cards), Fraction(0))
                        / copies))
    return out


def best_tags(level: int, copies: list[int], effects: list[float]) -> tuple[int, ...]:
    """The tags from ``-level`` to ``level``, one per rank, of highest betting correlation.

    With ``C = sum(n e t)`` (``sum(n e) = 0``) and ``Q_s = sum(n (t - s)^2)``, the
    correlation is ``C / sqrt(E min_s Q_s)``, so the best tags are the best of
    ``C / sqrt(Q_s)`` over tags and a real offset ``s``.  For a fixed ``s`` the best
    ratio lies on the upper concave hull of the tag sets' ``(Q_s, C)`` points (a
    point under a chord of two hull points has a ratio no higher than theirs, the
    square root being concave), and each hull point maximises ``C - mu Q_s`` for
    some ``mu > 0``, which splits by rank: ``t = clip(round(s + a e), -L, L)`` with
    ``a = 1 / (2 mu)``.  So the best tags are among these roundings, which change
    only where ``s + a e_r`` crosses a half-integer: lines in the ``(s, a)`` plane.
    Between two values of ``a`` where lines cross, the lines keep their order, so
    sweeping ``s`` at one ``a`` of each such band meets every tag set the lines
    cut out: at most ``(2 L k)^2`` bands of ``2 L k + 1`` tag sets for ``k`` ranks,
    whatever the counts.  Ties go to the smaller ``sum(n t^2)``, then to the
    first tag set in order.
    """
    n = np.array(copies, dtype=float)
    e = np.array(effects, dtype=float)
    k = len(copies)
    if not k:
        return ()
    rank = np.repeat(np.arange(k), 2 * level)  # one line per rank and half-integer
    half = np.tile(np.arange(-level, level) + 0.5, k)
    slope = e[rank]
    # where two lines cross: s = half_i - a slope_i = half_j - a slope_j
    i, j = np.triu_indices(len(rank), 1)
    apart = slope[i] != slope[j]
    cross = (half[i] - half[j])[apart] / (slope[i] - slope[j])[apart]
    cuts = np.unique(cross[cross > 0])
    edges = np.concatenate(([0.0], cuts, [2 * cuts[-1] + 1 if len(cuts) else 1.0]))
    bands = (edges[:-1] + edges[1:]) / 2
    best: tuple[float, float, tuple[int, ...]] | None = None
    for a in bands:  # the tag sets met sweeping s upwards: one rank's tag up at each line
        order = np.argsort(half - a * slope, kind="stable")
        steps = np.zeros((len(order) + 1, k))
        steps[np.arange(1, len(order) + 1), rank[order]] = 1
        tags = np.cumsum(steps, axis=0) - level
        c, b, t = tags @ (n * e), (tags * tags) @ n, tags @ n
        spread = b - t * t / n.sum()
        usable = spread > 1e-9
        corr = np.full(len(tags), -np.inf)
        corr[usable] = c[usable] / np.sqrt(spread[usable])
        m = int(np.argmax(corr))
        if not usable[m]:
            continue
        tie = 1e-12 * abs(best[0]) if best else 0.0
        for x in np.flatnonzero(corr >= corr[m] - tie):
            found = (float(corr[x]), float(b[x]), tuple(int(v) for v in tags[x]))
            if best is None or found[0] > best[0] + tie or \
                    (found[0] >= best[0] - tie and (found[1], found[2]) < (best[1], best[2])):
                best = found
    # no tag set correlates (every effect zero, as a pair bet's on a full shoe): no count
    return best[2] if best and best[0] > 0 else (0,) * k


def _count(level: int, ranks: list[tuple[int, int, Fraction]], total: int,
           ev: Fraction) -> Count:
    tags = dict.fromkeys(range(1, 14), 0)
    found = best_tags(level, [n for _, n, _ in ranks], [float(e) for _, _, e in ranks])
    for (rank, _, _), t in zip(ranks, found, strict=True):
        tags[rank] = t
    share = np.array([n / total for _, n, _ in ranks])
    eor = np.array([float(x) for _, _, x in ranks])
    tag = np.array([float(tags[r]) for r, _, _ in ranks])
    tag = tag - float(share @ tag)
    tt, ee = float(share @ (tag * tag)), float(share @ (eor * eor))
    et = float(share @ (eor * tag))
    corr = et / math.sqrt(tt * ee) if tt and ee else 0.0
    slope = total / 52 * et / tt if tt else 0.0
    trigger = None if slope <= 0 else -float(ev) / slope
    return Count(level, tuple(tags[r] for r in range(1, 14)), corr, slope, trigger)


def protection(bet: SideBet, shoe: SuitShoe, outcomes: Outcomes, table: PayTable,
               options: BetOptions, *, shoes: int = DEFAULT_SHOES, seed: int = SEED,
               simulate: bool = True) -> Protection:
    """Effects of removal, the best count of each level and (``simulate``) a counter's
    results; ``outcomes`` must hold the counts with one card removed."""
    ev, effects = card_effects(bet, outcomes, table)
    ranks = _rank_effects(shoe, effects)
    suits_pay = any(effects[c] != e for r, _, e in ranks for c, _ in shoe.items()
                    if c[0] == r)
    counts = tuple(_count(level, ranks, shoe.total, ev) for level in LEVELS)
    best = max(counts, key=lambda c: (round(c.correlation, 12), -c.level))
    sim = simulate_counter(bet, shoe, table, options, best, shoes=shoes, seed=seed) \
        if simulate else None
    return Protection(ev, tuple((c, shoe.count(c), effects[c]) for c, _ in shoe.items()),
                      tuple(ranks), suits_pay, counts, best, sim)


# --- the simulator --------------------------------------------------------------------------

def penetration(shoe: SuitShoe) -> Fraction:
    """Where the cut card goes: 75% of one or two decks, 5/6 of a bigger shoe."""
    return Fraction(3, 4) if shoe.total <= 104 else Fraction(5, 6)


@dataclass(frozen=True)
class _Rounds:
    """Every simulated round: card identities (index into CARDS), the dealer's hand."""

    shoe: Ints  # which shoe
    start: Ints  # cards dealt from the shoe before the round
    p1: Ints
    p2: Ints
    up: Ints
    hole: Ints
    p3: Ints
    dealer_cards: Ints  # cards in the dealer's final hand
    dealer_bust: Ints  # 1 where the dealer busted


_VALUE = np.array([card_value(c) for c in CARDS], dtype=np.int64)
_VALUE8 = _VALUE.astype(np.int8)


@lru_cache(maxsize=2)
def _deal(shoe: SuitShoe, shoes: int, seed: int, hits_soft_17: bool
          ) -> tuple[_Rounds, Ints, int]:
    """Shuffle ``shoes`` shoes and deal rounds to the cut card, every shoe at once."""
    deck = np.repeat(np.arange(52, dtype=np.int8), shoe.counts)
    n = len(deck)
    cut = int(penetration(shoe) * n)
    rng = np.random.default_rng(seed)
    cards = rng.permuted(np.tile(deck, (shoes, 1)), axis=1)
    values = _VALUE8[cards]
    pos = np.zeros(shoes, dtype=np.int64)
    rows = np.arange(shoes)
    parts: dict[str, list[Ints]] = {k: [] for k in (
        "shoe", "start", "p1", "p2", "up", "hole", "p3", "dealer_cards", "dealer_bust")}
    while True:
        live = rows[pos < cut]
        live = live[pos[live] + 6 <= n]  # room for the four cards, a draw and the third card
        if not len(live):
            break
        at = pos[live]
        p1, up, p2, hole = (cards[live, at + k].astype(np.int64) for k in range(4))
        hard = _VALUE[up] + _VALUE[hole]
        ace = (_VALUE[up] == 1) | (_VALUE[hole] == 1)
        natural = ace & (hard == 11)
        ncards = np.full(len(live), 2)
        nxt = at + 4
        ok = np.ones(len(live), dtype=bool)
        while True:
            total = np.where(ace & (hard + 10 <= 21), hard + 10, hard)
            soft = ace & (hard + 10 <= 21)
            draw = ~natural & ((total < 17) | (hits_soft_17 & soft & (total == 17)))
            draw &= ok
            if not draw.any():
                break
            room = nxt < n - 1
            ok &= room | ~draw
            draw &= room
            v = values[live[draw], nxt[draw]].astype(np.int64)
            hard[draw] += v
            ace[draw] |= v == 1
            ncards[draw] += 1
            nxt[draw] += 1
        bust = (hard > 21).astype(np.int64)
        p3 = cards[live, np.minimum(nxt, n - 1)].astype(np.int64)
        keep = ok
        for key, arr in (("shoe", live), ("start", at), ("p1", p1), ("p2", p2), ("up", up),
                         ("hole", hole), ("p3", p3), ("dealer_cards", ncards),
                         ("dealer_bust", bust)):
            parts[key].append(arr[keep])
        pos[live] = np.where(keep, nxt + 1, n)
    cat = {k: np.concatenate(v) if v else np.zeros(0, dtype=np.int64) for k, v in parts.items()}
    order = np.lexsort((cat["start"], cat["shoe"]))
    rounds = _Rounds(**{k: v[order] for k, v in cat.items()})
    return rounds, cards, n


@lru_cache(maxsize=32)
def _table(size: int, classify: Callable[[tuple[Card, ...]], str], labels: tuple[str, ...],
           ordered: bool) -> Ints:
    """Event index of every tuple of card identities (sorted first unless ``ordered``)."""
    events = {e: i for i, e in enumerate(labels)}
    out = np.zeros((52,) * size, dtype=np.int64)
    keys = product(range(52), repeat=size) if ordered else \
        combinations_with_replacement(range(52), size)
    for key in keys:
        event = events[classify(tuple(CARDS[i] for i in key))]
        for idx in ((key,) if ordered else set(permutations(key))):
            out[idx] = event
    return out


def _any_pair(cards: tuple[Card, ...]) -> str:
    from analyzer.sidebets.anypair import classify

    return classify(cards, "rank")


def _poker3(cards: tuple[Card, ...]) -> str:
    from analyzer.sidebets.twentyone3 import classify

    return classify(cards, "standard")


def _upcard_match(cards: tuple[Card, ...]) -> str:
    from analyzer.sidebets.threecard import match_the_dealer

    return match_the_dealer(cards)[0]


def _settle(bet: SideBet, r: _Rounds) -> Ints:
    """The event index (in the bet's label order) of every simulated round."""
    from analyzer.sidebets import threecard, twocard
    from analyzer.sidebets.hot3 import classify as hot3

    events = {e: i for i, e in enumerate(bet.labels)}
    labels = tuple(bet.labels)
    two: dict[str, Callable[[tuple[Card, ...]], str]] = {
        "any-pair": _any_pair, "perfect-pairs": twocard.perfect_pairs,
        "royal-match": twocard.royal_match, "over-under-13": twocard.over_under,
        "bet-the-set": twocard.bet_the_set}
    three: dict[str, Callable[[tuple[Card, ...]], str]] = {
        "21+3": _poker3, "hot3": hot3,
        "21+3-classic": threecard.classic, "21+3-xtreme": threecard.xtreme,
        "lucky-lucky": threecard.lucky_lucky}
    if bet.name in two:
        return _table(2, two[bet.name], labels, False)[r.p1, r.p2]
    if bet.name in three:
        return _table(3, three[bet.name], labels, False)[r.p1, r.p2, r.up]
    if bet.name == "match-the-dealer":
        return _table(3, _upcard_match, labels, True)[
            r.up, r.p1, r.p2]
    if bet.name == "super-sevens":
        return _table(3, super_sevens, labels, True)[r.p1, r.p2, r.p3]
    if bet.name in ("lucky-ladies", "kings-bounty"):
        classify, name = (lucky_ladies, "qh-pair") if bet.name == "lucky-ladies" else \
            (kings_bounty, "ks-pair")
        event = _table(2, classify, labels, False)[r.p1, r.p2]
        bj = ((_VALUE[r.up] == 1) & (_VALUE[r.hole] == 10)) | \
            ((_VALUE[r.up] == 10) & (_VALUE[r.hole] == 1))
        return np.where((event == events[name]) & bj, events[f"{name}-bj"], event)
    player_bj = ((_VALUE[r.p1] == 1) & (_VALUE[r.p2] == 10)) | \
        ((_VALUE[r.p1] == 10) & (_VALUE[r.p2] == 1))
    k = np.minimum(r.dealer_cards, 8)
    names = np.array([f"bust-{j}" if j < 8 else "bust-8+" for j in range(9)])
    busts = names[k]
    if bet.name == "bust-it":
        out = np.array([events.get(b, events["lose"]) for b in busts])
        out = np.where(r.dealer_bust == 1, out, events["lose"])
        return np.where(player_bj, events["push"], out)
    if bet.name == "buster-blackjack":
        plain = np.array([events.get(b, events["lose"]) for b in busts])
        bonus = np.array([events.get(f"{b}-bj", events.get(b, events["lose"])) for b in busts])
        out = np.where(player_bj, bonus, plain)
        return np.where(r.dealer_bust == 1, out, events["lose"])
    raise SimulationError(f"no simulator for {bet.name}")


MAX_DEALT = 50_000_000  # cards of all the shoes dealt at once (about 40 bytes each)


def check_deal_size(cards: int, shoes: int) -> None:
    """Refuse a counter's simulation too large to deal, before any work: every shoe is
    dealt at once, so memory grows with shoes x cards (1,000 decks at the default shoes
    reached 17 GB)."""
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= 10_000_000:
        raise SimulationError(f"shoes {shoes!r} must be 1 to 10,000,000")
    if shoes * cards > MAX_DEALT:
        fits = MAX_DEALT // cards
        advice = (f"give {fits:,} shoes or fewer, or a smaller shoe" if fits else
                  f"give a shoe of at most {MAX_DEALT:,} cards")
        raise SimulationError(
            f"the protection counter would deal {shoes:,} shoes of {cards:,} cards "
            f"({shoes * cards:,} cards at once; at most {MAX_DEALT:,}): {advice}")


def simulate_counter(bet: SideBet, shoe: SuitShoe, table: PayTable, options: BetOptions,
                     count: Count, *, shoes: int = DEFAULT_SHOES, seed: int = SEED
                     ) -> Simulated:
    """Deal ``shoes`` shoes; the counter bets only at or above ``count``'s trigger."""
    check_deal_size(shoe.total, shoes)
    if shoe.total < 7:
        raise ImpossibleShoeError(f"a shoe of {shoe.total} cards cannot deal a round")
    rounds, cards, n = _deal(shoe, shoes, seed, options.hits_soft_17)
    if not len(rounds.shoe):
        raise ImpossibleShoeError(f"a shoe of {n} cards deals no round before its cut card")
    pays = np.array([float({**bet.fixed, **table.pays}[e]) for e in bet.labels])
    result = pays[_settle(bet, rounds)]
    rank_of = np.array([c[0] - 1 for c in CARDS])
    tags = np.array([count.tags[r - 1] for r in range(1, 14)], dtype=np.float64)
    mean_tag = float(sum(tags[c[0] - 1] * k for c, k in shoe.items())) / n
    card_tags = tags[rank_of[cards]] - mean_tag
    running = np.concatenate([np.zeros((shoes, 1)), np.cumsum(card_tags, axis=1)], axis=1)
    rc = running[rounds.shoe, rounds.start]
    tc = rc / ((n - rounds.start) / 52)
    bet_on = tc >= count.trigger if count.trigger is not None else np.zeros(len(tc), bool)
    first = rounds.start == 0
    top = result[first]
    per_shoe_rounds = np.bincount(rounds.shoe, minlength=shoes).astype(np.float64)
    won = np.bincount(rounds.shoe, weights=np.where(bet_on, result, 0.0), minlength=shoes)
    total_rounds = float(per_shoe_rounds.sum())
    rate = float(won.sum()) / total_rounds
    resid = won - rate * per_shoe_rounds
    se = math.sqrt(float(resid @ resid) * shoes / max(shoes - 1, 1)) / total_rounds
    n_bet = int(bet_on.sum())
    return Simulated(
        shoes=shoes, rounds=int(total_rounds), penetration=penetration(shoe), seed=seed,
        top_mean=float(top.mean()), top_se=float(top.std(ddof=1) / math.sqrt(len(top)))
        if len(top) > 1 else math.inf,
        positive=n_bet / total_rounds, win_per_100=100 * rate, win_se=100 * se,
        edge_when_bet=float(result[bet_on].mean()) if n_bet else None)


def release_deals() -> None:
    """Forget the dealt shoes kept for the pay tables of one bet and shoe."""
    _deal.cache_clear()


def rank_name(rank: int) -> str:
    return RANK_SYMBOLS[rank - 1]
