"""The net result of unsplit hands against one upcard: where each hand ends, then the dealer.

Every unsplit hand is a walk through the hand compositions of
:class:`~analyzer.engine.hands.HandSpace`.  The two-card decision is the
strategy's; from three cards on, hitting or standing depends on the composition
alone (the ``hits`` policy the engine evaluated).  So the chance of *finishing*
on each composition can be carried forward for all starting hands at once,
layer by layer from two cards up, with the engine's draw probabilities.  A hand
finishing on a composition then meets the dealer's outcome distribution for the
shoe less that composition (the engine's ``outcomes``); the payoff of each pair
(composition, outcome) is read off :func:`analyzer.engine.dist_blocks.payoff`.

Where the dealer peeked, the engine's draw probabilities and outcomes are
conditioned on no dealer blackjack, and so is everything here; the caller
settles the blackjack first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.cards import blackjack_value
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine.dist_blocks import payoff
from analyzer.engine.hands import HandValues, PlayRules

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]

# Kinds of finished hands: paid bet of 1, paid double, free double (own bet + free bet).
SINGLE, DOUBLED, FREE_DOUBLED = range(3)


@dataclass
class Finishes:
    """Chance of finishing on each node, per kind of bet; busted hands by kind too."""

    values: HandValues
    exact: bool
    reach: Array = field(init=False)  # (m + 2,) chance of arriving at a node by a hit
    end: Array = field(init=False)  # (3, m) chance of finishing on a node, per kind
    bust: Array = field(init=False)  # (3,) chance of busting, per kind
    bust_bj: Array = field(init=False)  # (3,) ... with an unchecked dealer blackjack
    hit_start: Array = field(init=False)  # (m,) two-card hands that hit

    def __post_init__(self) -> None:
        m = len(self.values.space.comps)
        dtype = object if self.exact else np.float64
        zero: Any = Fraction(0) if self.exact else 0.0
        self.reach = np.full(m + 2, zero, dtype=dtype)
        self.end = np.full((3, m), zero, dtype=dtype)
        self.bust = np.full(3, zero, dtype=dtype)
        self.bust_bj = np.full(3, zero, dtype=dtype)
        self.hit_start = np.full(m, zero, dtype=dtype)

    def stand(self, node: int, mass: Any) -> None:
        self.end[SINGLE, node] += mass

    def hit(self, node: int, mass: Any) -> None:
        self.hit_start[node] += mass

    def double(self, node: int, mass: Any, kind: int, base: tuple[int, ...], upcard: int,
               peeked: bool) -> None:
        """One card, then stand, on a bet of kind ``kind`` (DOUBLED or FREE_DOUBLED)."""
        space = self.values.space
        probs = self.values.probs[node]
        bj = blackjack_value(upcard)
        shoe = np.array(base) - space.comps[node]
        for c in range(10):
            child = int(space.child[node, c])
            p = probs[c] * mass
            if child < space.bust:
                self.end[kind, child] += p
            elif child == space.bust:
                self.bust[kind] += p
                if bj is not None and not peeked:
                    left = shoe.copy()
                    left[c] -= 1
                    ratio = Fraction(int(left[bj - 1]), int(left.sum()))
                    self.bust_bj[kind] += p * (ratio if self.exact else float(ratio))

    def propagate(self, hits: npt.NDArray[np.bool_]) -> None:
        """Carry the hands that hit forward, smallest hands first.

        A busted single bet loses 1 whatever the dealer holds, so its blackjack
        chance is not needed (only "original bet only" doubles need it).
        """
        v = self.values
        space = v.space
        m = space.bust
        for layer in reversed(space.layers):
            if space.ncards[layer[0]] < 2:
                continue
            arriving = self.reach[layer]
            go = hits[layer] & ~v.forced[layer]
            if space.ncards[layer[0]] == 2:
                go = np.zeros(len(layer), dtype=bool)
            self.end[SINGLE, layer] += np.where(go, 0, arriving)
            push = np.where(go, arriving, 0) + self.hit_start[layer]
            flow = push[:, None] * v.probs[layer]
            np.add.at(self.reach, space.child[layer].ravel(), flow.ravel())
        self.bust[SINGLE] += self.reach[m]


def hand_payoffs(values: HandValues, play: PlayRules, kind: int) -> npt.NDArray[np.int64]:
    """``PAY[node, o]`` of a hand finishing on each node with a bet of ``kind``."""
    space = values.space
    rows = []
    for total, ncards in zip(space.total.tolist(), space.ncards.tolist(), strict=True):
        charlie = bool(play.charlie and ncards >= play.charlie)
        if kind == FREE_DOUBLED:
            own = payoff(total, charlie, 1, False, play)
            free = payoff(total, charlie, 1, True, play)
            rows.append([a + b for a, b in zip(own, free, strict=True)])
        else:
            rows.append(payoff(total, charlie, 2 if kind == DOUBLED else 1, False, play))
    pay = np.array(rows, dtype=np.int64).reshape(-1, N_OUTCOMES)
    if not play.bj_takes_all:
        paid = 2 if kind == DOUBLED else 1
        bj = Outcome.BLACKJACK
        pay[:, bj] = np.where(pay[:, bj] < 0, -min(1, paid), pay[:, bj])
    return pay


def settle_finishes(f: Finishes, play: PlayRules) -> dict[Fraction, Any]:
    """``{net result: chance}`` of every finished unsplit hand recorded in ``f``."""
    out: dict[Fraction, Any] = {}
    outcomes = f.values.outcomes
    for kind in (SINGLE, DOUBLED, FREE_DOUBLED):
        mass = f.end[kind]
        if not any(mass != 0):
            continue
        pay = hand_payoffs(f.values, play, kind)
        for o in range(N_OUTCOMES):
            weights = mass * outcomes[:, o]
            for x in np.unique(pay[:, o]):
                total = weights[pay[:, o] == x].sum()
                out[Fraction(int(x))] = out.get(Fraction(int(x)), 0) + total
    lost = (-1, -2, -1)
    for kind in (SINGLE, DOUBLED, FREE_DOUBLED):
        b, with_bj = f.bust[kind], f.bust_bj[kind]
        if kind == DOUBLED and not play.bj_takes_all:
            out[Fraction(-1)] = out.get(Fraction(-1), 0) + with_bj
            b = b - with_bj
        out[Fraction(lost[kind])] = out.get(Fraction(lost[kind]), 0) + b
    return out
