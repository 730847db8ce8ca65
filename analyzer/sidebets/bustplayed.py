"""Bust It's third reading: the dealer's bust after the player has played his hand.

The player's first two cards and the upcard leave the shoe, then the player plays
the main game's optimal composition-dependent strategy (the engine's
:class:`~analyzer.engine.frozen.FrozenStrategy`: hit, stand, double, split, split
hands played one after the other), each hit leaving the shoe as it is dealt, and
only then does the dealer draw.  A dealer blackjack (peeked) ends the round before
the player plays; a player blackjack pushes.

An exact enumeration of every branch of the player's play (splits included)
followed by the dealer's draw on each remainder is out of reach here for an
8-deck shoe (its split branches number in the millions), so this reading is
*simulated*, off the top of a fresh shoe each round, and stated with its standard
error.  With a player who always stands it is exactly the ``removed`` reading,
which the tests use to check the simulator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND
from analyzer.core.errors import ImpossibleShoeError, RuleConflictError, SimulationError
from analyzer.core.limits import MAX_PLAYED_ROUNDS
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.hands import double_allowed, doubling_refusal

MAX_ROUNDS = MAX_PLAYED_ROUNDS


@dataclass(frozen=True)
class Played:
    """Simulated shares of rounds: player blackjack, dealer bust by cards, the rest."""

    rounds: int
    seed: int
    counts: dict[str, int]  # Bust It events (bust-3 .. bust-8+, push, lose) -> rounds

    def probability(self, event: str) -> float:
        return self.counts.get(event, 0) / self.rounds


def _total(cards: list[int]) -> tuple[int, bool]:
    hard = sum(cards)
    soft = 1 in cards and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


def simulate_played(values: tuple[int, ...], rules: Rules, rounds: int, seed: int, *,
                    stand_only: bool = False) -> Played:
    """Deal ``rounds`` rounds off the top of the shoe ``values`` (ten counts)."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SimulationError(f"rounds {rounds} must be 1 to {MAX_ROUNDS:,}")
    reason = doubling_refusal(rules, "the played reading of Bust It (its own round)",
                              payouts=False)
    if reason:
        raise RuleConflictError(reason)
    n = sum(values)
    if n < 40:
        raise ImpossibleShoeError(f"the played reading needs at least 40 cards, not {n}")
    strategy = FrozenStrategy(Analysis(rules, Shoe(values)))
    decide = lru_cache(maxsize=None)(strategy.decide)
    deck = np.repeat(np.arange(1, 11, dtype=np.int8), values) if n <= LARGE_SHOE else None
    rng = np.random.default_rng(seed)
    counts: dict[str, int] = {}
    done = 0
    while done < rounds:
        batch = min(20_000, rounds - done)
        if n > LARGE_SHOE:
            block = _first_cards(rng, values, batch, 40).tolist()
        else:
            assert deck is not None
            block = rng.permuted(np.tile(deck, (batch, 1)), axis=1)[:, :40].tolist()
        for cards in block:
            event = _round(cards, rules, decide, stand_only)
            counts[event] = counts.get(event, 0) + 1
        done += batch
    return Played(rounds, seed, counts)


LARGE_SHOE = 5_000  # cards: past this a round's cards are drawn value by value


def _first_cards(rng: np.random.Generator, values: tuple[int, ...], rows: int,
                 k: int) -> npt.NDArray[np.int8]:
    """The first ``k`` cards of ``rows`` shuffles of the shoe ``values``, drawn one at a time
    from the value counts left (the same law as shuffling the whole shoe, without a row
    of every card: a million decks would need 52 million a round)."""
    left = np.tile(np.asarray(values, dtype=np.int64), (rows, 1))
    out = np.empty((rows, k), dtype=np.int8)
    at = np.arange(rows)
    for j in range(k):
        cum = left.cumsum(axis=1)
        pick = rng.integers(0, cum[:, -1])  # a card of the shoe left, each alike
        value = (cum <= pick[:, None]).sum(axis=1)
        out[:, j] = value + 1
        left[at, value] -= 1
    return out


def _round(cards: list[int], rules: Rules, decide: object, stand_only: bool) -> str:
    p1, up, p2, hole = cards[:4]
    pos = 4
    if sorted((p1, p2)) == [1, 10]:
        return "push"
    if sorted((up, hole)) == [1, 10]:
        return "lose"  # peeked: no bust, the player does not play
    hands = [[p1, p2]]
    i = 0
    while i < len(hands) and not stand_only:
        hand = hands[i]
        split = len(hands) > 1
        first = True
        while True:
            best, _ = _total(hand)
            if best >= 21 or (split and hand[0] == 1 and len(hand) == 2
                              and not rules.hit_split_aces):
                break
            comp = tuple(hand.count(v) for v in range(1, 11))
            options = {STAND, HIT}
            if first and len(hand) == 2:
                if double_allowed(rules.double, comp) and (not split or rules.double_after_split):
                    options.add(DOUBLE)
                if hand[0] == hand[1] and len(hands) < rules.max_hands and (
                        hand[0] != 1 or not split or rules.resplit_aces):
                    options.add(SPLIT)
            action = decide(up, comp, frozenset(options))  # type: ignore[operator]
            first = False
            if action == STAND:
                break
            if action == SPLIT:
                hands.append([hand.pop()])
                hand.append(cards[pos])
                pos += 1
                first = True
                split = True
                continue
            hand.append(cards[pos])
            pos += 1
            if action == DOUBLE:
                break
        i += 1
        if i < len(hands) and len(hands[i]) == 1:
            hands[i].append(cards[pos])
            pos += 1
    dealer = [up, hole]
    while True:
        best, soft = _total(dealer)
        if best > 21:
            k = len(dealer)
            return "bust-8+" if k >= 8 else f"bust-{k}"
        if best > 17 or (best == 17 and not (soft and rules.hits_soft_17)):
            return "lose"
        dealer.append(cards[pos])
        pos += 1


def standard_error(played: Played, pays: dict[str, float]) -> tuple[float, float]:
    """Mean result per unit bet and its standard error, priced by ``pays``."""
    mean = sum(pays[e] * played.probability(e) for e in played.counts)
    second = sum(pays[e] ** 2 * played.probability(e) for e in played.counts)
    return mean, math.sqrt(max(second - mean**2, 0.0) / played.rounds)
