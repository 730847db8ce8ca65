"""Monte Carlo simulation of a game: an independent cross-check of the exact figures.

Test labs want the exact EVs confirmed by a simulation that shares none of the
engine's arithmetic, so everything but the strategy has its own code here: a
real shoe of 52-card decks (ranks A-K, so "same rank" splits come naturally),
dealing, hand totals, dealer play and the settlement of every rule.  Only the
*decisions* come from the engine (:class:`~analyzer.engine.strategy.FrozenStrategy`),
memoized, as each engine call costs tens of microseconds.

With ``cut_card`` the shoe is dealt round after round and reshuffled once that
many cards are out (checked between rounds), as on the floor: the mean then
estimates the RTP under the cut card, which the full-shoe analysis cannot
give.  Without it every round gets a freshly shuffled shoe and the mean
estimates the engine's full-shoe EV itself.

Conventions: deal order player, upcard, player, hole card (after the players
under ``NO_HOLE_CARD``); insurance never taken; early surrender before the
peek, late after it (without a peek, a dealer blackjack voids it).  An
unchecked dealer blackjack takes every paid bet, or under OBO the original
bet only (``min(1, paid money of the losing hands)``, busted hands included);
free bets never cost anything, a player blackjack pushes it, and a Charlie
beats it only with ``charlie_beats_bj``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.errors import SimulationError, StrategyError
from analyzer.core.rules import Double, HoleCard, Rules, Surrender, format_spec

Cards = list[int]
PlayRound = Callable[[Cards, int], tuple[float, int]]  # (cards, position) -> (result, end)

_HS = 1 << STAND | 1 << HIT
_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # card code -> blackjack value
_WEIGHT = (0, *(1 << 5 * (v - 1) for v in range(1, 11)))  # value -> composition-key unit
_HEAD = 12  # cards pre-shuffled per fresh-shoe round; longer rounds shuffle the rest
_BATCH = 8192  # rounds (fresh shoe) prepared per numpy call
_WARM_UP = 20_000  # rounds played to fill the decision memo before parallel jobs


class SimStrategy(Protocol):
    """What the simulator asks the engine: :class:`~analyzer.engine.strategy.FrozenStrategy`."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int: ...

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int: ...


def engine_strategy(rules: Rules) -> SimStrategy:
    """The engine's optimal composition-dependent strategy for ``rules``."""
    from analyzer.engine.analysis import (
        Analysis,  # the engine is only needed once a decision is missed
    )
    from analyzer.engine.frozen import FrozenStrategy

    return FrozenStrategy(Analysis(rules))


def _comp(key: int) -> tuple[int, ...]:
    """The counts of A..T packed in a composition key (5 bits per value)."""
    return tuple(key >> 5 * i & 31 for i in range(10))


class _Memo(dict[int, int]):
    """A dict that asks ``compute`` for a missing key (one C-level lookup on a hit)."""

    def __init__(self, compute: Callable[[int], int], known: dict[int, int]) -> None:
        super().__init__(known)
        self.compute = compute

    def __missing__(self, key: int) -> int:
        self[key] = value = self.compute(key)
        return value


class Decisions:
    """Memo of the strategy's answers, keyed by packed integers for the hot loop.

    ``table`` maps ``comp << 11 | upcard << 5 | options`` (options as a bit mask
    of actions) to the action; ``free`` maps ``comp << 4 | upcard`` to the
    free-hand action.  The strategy is built only at the first miss, so a
    worker process handed warm tables rarely needs the engine at all.
    """

    def __init__(self, rules: Rules, strategy: SimStrategy | None = None,
                 known: tuple[dict[int, int], dict[int, int]] = ({}, {})) -> None:
        self.rules = rules
        self._strategy = strategy
        self.table = _Memo(self._decide, known[0])
        self.free = _Memo(lambda key: self._decide(key, free=True), known[1])
        self.engine_seconds = 0.0  # spent building the strategy and asking it

    @property
    def strategy(self) -> SimStrategy:
        if self._strategy is None:
            self._strategy = engine_strategy(self.rules)
        return self._strategy

    def _decide(self, key: int, free: bool = False) -> int:
        start = time.perf_counter()
        if free:
            opts: frozenset[int] = frozenset((STAND, HIT))
            action = self.strategy.decide_free(key & 15, _comp(key >> 4))
        else:
            opts = frozenset(a for a in range(5) if key >> a & 1)
            action = self.strategy.decide(key >> 5 & 63, _comp(key >> 11), opts)
        if action not in opts:
            raise StrategyError(f"strategy chose {action}, not among {sorted(opts)}")
        self.engine_seconds += time.perf_counter() - start
        return action


def _two_card_total(a: int, b: int) -> tuple[int, bool]:
    hard = a + b
    return (hard + 10, True) if 1 in (a, b) and hard <= 11 else (hard, False)


def make_round(rules: Rules, decisions: Decisions) -> PlayRound:
    """A function playing one round from ``cards[pos:]``: ``(result, position after it)``.

    ``cards`` are card codes: 1-13 (A, 2-10, J, Q, K) when pairs split by rank,
    else 1-10 (any two tens are a pair).  Running out of cards raises
    ``IndexError``; the round is a pure function of the cards, so the caller
    may extend the list and replay it.  The result is per unit initial bet.
    """
    V, W = _VALUE, _WEIGHT
    table, free_table = decisions.table, decisions.free
    peek_on = (False, *(rules.peeks_on(u) for u in range(1, 11)))
    enhc = rules.hole_card is HoleCard.NO_HOLE_CARD
    h17, a21, p22 = rules.hits_soft_17, rules.stand_on_21, rules.push_22
    chbj, charlie = rules.charlie_beats_bj, rules.charlie or 99
    takes_all, bj_pays = rules.unpeeked_bj_takes_all, float(rules.blackjack_pays)
    early = rules.surrender is Surrender.EARLY
    surrender_on = (False, *(rules.surrender is not Surrender.NONE
                             and (u != 1 or rules.surrender_vs_ace) for u in range(1, 11)))
    can_split = (False, rules.max_hands > 1 and rules.split_aces,
                 *(rules.max_hands > 1 for _ in range(2, 11)))
    free_split = (False, *(v in rules.free_splits for v in range(1, 11)))
    das, max_hands = rules.double_after_split, rules.max_hands
    aces_hands = max_hands if rules.resplit_aces else min(max_hands, 2)
    one_card_aces = not rules.hit_split_aces
    paid_double = [[False] * 11 for _ in range(11)]
    free_double = [[False] * 11 for _ in range(11)]
    for a in range(1, 11):
        for b in range(1, 11):
            total, soft = _two_card_total(a, b)
            free_double[a][b] = not soft and total in rules.free_doubles
            paid_double[a][b] = (rules.double is Double.ANY or total in (
                (9, 10, 11) if rules.double is Double.NINE_TO_ELEVEN else (10, 11)))

    def play(cards: Cards, pos: int, u: int, a: int, b: int, act: int, win: int, loss: int,
             free: bool) -> tuple[int, int, int, int, int]:
        """Play a two-card hand after its first action: ``(pos, state, total, win, loss)``.

        ``state`` is 0 busted, 1 standing on ``total``, 2 Charlie; ``win`` and
        ``loss`` are what the hand wins or loses (a free bet only wins).
        """
        hard, ace = a + b, a == 1 or b == 1
        n, key = 2, W[a] + W[b]
        while act in (HIT, DOUBLE):
            v = V[cards[pos]]
            pos += 1
            hard += v
            if hard > 21:
                return pos, 0, hard, win, loss
            n += 1
            ace = ace or v == 1
            if n >= charlie:
                return pos, 2, 21, win, loss
            if act == DOUBLE:
                break
            key += W[v]
            if a21 and (hard == 21 or ace and hard == 11):
                return pos, 1, 21, win, loss
            act = free_table[key << 4 | u] if free else table[key << 11 | u << 5 | _HS]
        return pos, 1, hard + 10 if ace and hard <= 11 else hard, win, loss

    def split(cards: Cards, pos: int, u: int, pc: int) -> tuple[int, list[tuple[int, ...]]]:
        """Play the hands a split of the pair ``pc`` (a card code) leads to, resplits included."""
        p = V[pc]
        free = free_split[p]
        limit = 2 if free else aces_hands if p == 1 else max_hands
        one_card = p == 1 and one_card_aces
        firsts = 2
        hands: list[tuple[int, ...]] = []
        while len(hands) < firsts:
            c = cards[pos]
            pos += 1
            b = V[c]
            free_hand = free and len(hands) == 1
            act = -1
            if c == pc and firsts < limit:
                opts = 1 << STAND | 1 << SPLIT
                if not one_card:
                    opts |= _HS | (1 << DOUBLE if das and paid_double[p][p] else 0)
                act = table[(2 * W[p]) << 11 | u << 5 | opts]
                if act == SPLIT:
                    firsts += 1
                    continue
            total, _ = _two_card_total(p, b)
            if one_card or (a21 and total == 21):
                hands.append((1, total, 1, 0 if free_hand else 1))
                continue
            if free_hand:
                act = free_table[(W[p] + W[b]) << 4 | u]
                res = play(cards, pos, u, p, b, act, 1, 0, True)
            else:
                if act < 0:
                    opts = _HS | (1 << DOUBLE if das and paid_double[p][b] else 0)
                    act = table[(W[p] + W[b]) << 11 | u << 5 | opts]
                stake = 2 if act == DOUBLE else 1
                res = play(cards, pos, u, p, b, act, stake, stake, False)
            pos = res[0]
            hands.append(res[1:])
        return pos, hands

    def settle(cards: Cards, pos: int, u: int, hole: int, peeked: bool,
               hands: list[tuple[int, ...]]) -> tuple[float, int]:
        """The dealer's turn and the payment of every hand."""
        live = unbusted = False
        for h in hands:
            live = live or h[0] == 1
            unbusted = unbusted or h[0] != 0
        check_bj = (u == 1 or u == 10) and not peeked and (unbusted or not takes_all)
        if enhc and (live or check_bj):
            hole, pos = cards[pos], pos + 1
        hv, d = V[hole], 0
        if check_bj and hv + u == 11:  # a dealer blackjack nobody checked
            gain = lost = 0
            for h in hands:
                if h[0] == 2 and chbj:
                    gain += h[2]
                else:
                    lost += h[3]
            return float(gain - (lost if takes_all else min(lost, 1))), pos
        hard, ace = u + hv, u == 1 or hv == 1
        while live:  # the dealer draws only while some hand waits for the total
            soft = ace and hard <= 11
            d = hard + 10 if soft else hard
            if d > 17 or d == 17 and not (soft and h17):
                break
            v = V[cards[pos]]
            pos += 1
            hard += v
            ace = ace or v == 1
        result = 0
        for state, total, win, loss in hands:  # no hand stands unless the dealer drew
            if state == 0:
                result -= loss
            elif state == 2 or d > 22 or d == 22 and not p22 or d < total <= 21:
                result += win
            elif total < d <= 21:
                result -= loss
        return float(result), pos

    def round_(cards: Cards, pos: int) -> tuple[float, int]:
        c1, up, c2 = cards[pos], cards[pos + 1], cards[pos + 2]
        pos += 3
        u, a, b = V[up], V[c1], V[c2]
        hole = 0
        if not enhc:
            hole, pos = cards[pos], pos + 1
        may_bj = u == 1 or u == 10
        peek = peek_on[u]
        if a + b == 11 and (a == 1 or b == 1):  # player blackjack
            if may_bj:
                if enhc:
                    hole, pos = cards[pos], pos + 1
                if V[hole] + u == 11:
                    return 0.0, pos
            return bj_pays, pos
        fd = free_double[a][b]
        opts = _HS | (1 << DOUBLE if fd or paid_double[a][b] else 0)
        if c1 == c2 and can_split[a]:
            opts |= 1 << SPLIT
        if surrender_on[u]:
            opts |= 1 << SURRENDER
        act = table[(W[a] + W[b]) << 11 | u << 5 | opts]
        if act == SURRENDER and early:
            return -0.5, pos
        if peek and V[hole] + u == 11:
            return -1.0, pos
        if act == SURRENDER:
            if may_bj and not peek:
                if enhc:
                    hole, pos = cards[pos], pos + 1
                if V[hole] + u == 11:
                    return -1.0, pos
            return -0.5, pos
        if act == SPLIT:
            pos, hands = split(cards, pos, u, c1)
        else:
            stake = 2 if act == DOUBLE else 1
            res = play(cards, pos, u, a, b, act, stake, 1 if fd else stake, False)
            pos, hands = res[0], [res[1:]]
        return settle(cards, pos, u, hole, peek, hands)

    return round_


def shoe_codes(rules: Rules) -> npt.NDArray[np.int8]:
    """The card codes of ``rules.decks`` decks (ten-valued ranks merged unless split by rank)."""
    ranks = np.repeat(np.arange(1, 14, dtype=np.int8), 4 * rules.decks)
    return ranks if rules.split_by_rank else np.minimum(ranks, 10).astype(np.int8)


def _deal_rounds(play: PlayRound, rules: Rules, rounds: int,
                 rng: np.random.Generator) -> tuple[float, float]:
    """Play ``rounds`` rounds; ``(sum, sum of squares)`` of their results.

    With a cut card, rounds follow one another through a shuffled shoe until
    ``cut_card`` cards are out; a round running past the last card goes on, as
    on the floor, with the earlier rounds' discards reshuffled.  Without one,
    each round gets a fresh shoe of which only the first :data:`_HEAD` cards
    are shuffled (a vectorised partial Fisher-Yates: that is what makes fresh
    shoes cheap); the rare longer round shuffles the rest of its shoe.
    """
    codes, cut = shoe_codes(rules), rules.cut_card
    n, head = len(codes), min(_HEAD, len(codes))
    s = s2 = 0.0
    done = 0
    while done < rounds:
        if cut:
            shoes = rng.permuted(np.tile(codes, (64, 1)), axis=1).tolist()
        else:
            b = min(_BATCH, rounds - done)
            deck, rows = np.tile(codes, (b, 1)), np.arange(b)
            picks = rng.integers(np.arange(head), n, size=(b, head))
            for i in range(head):
                j = picks[:, i]
                chosen = deck[rows, j]
                deck[rows, j] = deck[:, i]
                deck[:, i] = chosen
            shoes = deck[:, :head].tolist()
        for r, row in enumerate(shoes):
            pos = 0
            while done < rounds:
                try:
                    x, end = play(row, pos)
                except IndexError:
                    rest = deck[r, head:] if not cut else np.array(row[:pos], dtype=np.int8)
                    row = row + rng.permutation(rest).tolist()
                    x, end = play(row, pos)
                s += x
                s2 += x * x
                done += 1
                pos = end
                if pos >= cut:
                    break
            if done >= rounds:
                break
    return s, s2


def _run_chunk(rules: Rules, rounds: int, seed: np.random.SeedSequence,
               decisions: Decisions) -> tuple[float, float]:
    """One job: ``rounds`` rounds from its own seed."""
    return _deal_rounds(make_round(rules, decisions), rules, rounds, np.random.default_rng(seed))


def _worker(rules: Rules, rounds: int, seed: np.random.SeedSequence, strategy: SimStrategy,
            known: tuple[dict[int, int], dict[int, int]]) -> tuple[float, float]:
    """A job in its own process, with a copy of the parent's strategy and warm memo."""
    return _run_chunk(rules, rounds, seed, Decisions(rules, strategy, known))


@dataclass(frozen=True)
class SimResult:
    """The estimate of one simulation: the mean result per initial unit bet and its error.

    ``se`` treats rounds as independent; under a cut card neighbouring rounds
    share a shoe, but the correlation is negligible (four-jacks, CUT52: the
    per-shoe cluster SE is 0.999 times the independent one).  ``seconds`` is
    the wall time, ``engine_seconds`` the part spent in the engine's strategy.
    """

    rules: str
    rounds: int
    seed: int
    jobs: int
    mean: float
    sd: float
    se: float
    seconds: float
    engine_seconds: float

    @property
    def rtp(self) -> float:
        """Return to player: the money back per unit staked initially (1 + EV)."""
        return 1.0 + self.mean

    @property
    def rounds_per_second(self) -> float:
        """Dealing speed, the one-off engine time left out."""
        return self.rounds / max(self.seconds - self.engine_seconds, 1e-9)

    def z(self, exact_ev: float) -> float:
        """How many standard errors the estimate lies from ``exact_ev``."""
        return (self.mean - exact_ev) / self.se if self.se > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rtp": self.rtp, "rounds_per_second": self.rounds_per_second}


def simulate(rules: Rules, rounds: int, *, seed: int | None = None, jobs: int = 1,
             strategy: SimStrategy | None = None) -> SimResult:
    """Play ``rounds`` rounds of ``rules`` under the engine's strategy (or ``strategy``).

    The result depends only on ``(rules, rounds, seed, jobs)``: job ``i`` plays
    its share of the rounds from the ``i``-th child of ``SeedSequence(seed)``.
    Without a seed a fresh one is drawn and reported, so any run can be
    repeated.  With ``jobs > 1`` the chunks run in joblib worker processes,
    which receive the strategy (it must pickle) and a warm decision memo.
    """
    for value, what, low in ((rounds, "number of rounds", 2), (jobs, "number of jobs", 1),
                             (0 if seed is None else seed, "seed", 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SimulationError(f"{what} must be a whole number >= {low}, not {value!r}")
    if rules.cut_card >= 52 * rules.decks:
        raise SimulationError(f"cut card at {rules.cut_card} cards is not inside the "
                              f"{52 * rules.decks}-card shoe")
    root = np.random.SeedSequence(seed)
    used_seed = int(root.entropy)  # type: ignore[arg-type]
    jobs = min(jobs, rounds)
    shares = [rounds // jobs + (i < rounds % jobs) for i in range(jobs)]
    start = time.perf_counter()
    decisions = Decisions(rules, strategy)
    children = root.spawn(jobs)
    if jobs == 1:
        parts = [_run_chunk(rules, rounds, children[0], decisions)]
    else:
        # Warm the memo once here rather than in every worker; the warm-up's own
        # results are dropped (a memo never changes what a round does).
        _run_chunk(rules, min(rounds, _WARM_UP), root.spawn(1)[0], decisions)
        known = (dict(decisions.table), dict(decisions.free))
        parts = Parallel(n_jobs=jobs)(
            delayed(_worker)(rules, n, child, decisions.strategy, known)
            for n, child in zip(shares, children, strict=True))
    seconds = time.perf_counter() - start
    mean = sum(p[0] for p in parts) / rounds
    sd = float(np.sqrt(max(sum(p[1] for p in parts) - rounds * mean**2, 0.0) / (rounds - 1)))
    return SimResult(rules=format_spec(rules), rounds=rounds, seed=used_seed, jobs=jobs,
                     mean=mean, sd=sd, se=sd / float(np.sqrt(rounds)), seconds=seconds,
                     engine_seconds=decisions.engine_seconds)


__all__ = ["Decisions", "SimResult", "SimStrategy", "SimulationError", "engine_strategy",
           "make_round", "shoe_codes", "simulate"]
