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

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.core.cards import blackjack_value
from analyzer.core.errors import InternalError
from analyzer.core.outcomes import N_OUTCOMES, Outcome
from analyzer.engine.dist_blocks import payoff
from analyzer.engine.hands import HandValues, PlayRules
from analyzer.engine.suits import Law

# float64, or object (Fractions) in exact mode: numpy's stubs define no arithmetic on
# the union of the two dtypes (every operation would need a cast), so Any.
Array = npt.NDArray[Any]

# Kinds of finished hands: paid bet of 1, paid double, free double (own bet + free bet);
# kind ``REDOUBLED + j`` is a double redoubled ``j + 1`` times (stake ``2 ** (j + 2)``).
SINGLE, DOUBLED, FREE_DOUBLED, REDOUBLED = range(4)


def stake(kind: int) -> int:
    """The money at risk of a finished hand of this kind (a free double risks its own 1)."""
    return (1, 2, 1)[kind] if kind < REDOUBLED else 2 ** (kind - REDOUBLED + 2)


def _kind(level: int) -> int:
    """The kind of a paid double at stake level ``level`` (stake ``2**level``)."""
    return DOUBLED if level == 1 else REDOUBLED + level - 2


@dataclass
class Finishes:
    """Chance of finishing on each node, per kind of bet; busted hands by kind too; hands
    given up (a surrender after hitting, a rescued double) by their result."""

    values: HandValues
    exact: bool
    kinds: int = 3  # 3, plus one per redouble allowed
    reach: Array = field(init=False)  # (m + 2,) chance of arriving at a node by a hit
    end: Array = field(init=False)  # (kinds, m) chance of finishing on a node, per kind
    bust: Array = field(init=False)  # (kinds,) chance of busting, per kind
    bust_bj: Array = field(init=False)  # (kinds,) ... with an unchecked dealer blackjack
    hit_start: Array = field(init=False)  # (m,) two-card hands that hit
    given: dict[Fraction, Any] = field(init=False)  # result of a hand given up -> chance
    # (kind, node) -> {pay of its winning 21: chance of finishing there so paid}: the
    # three-card 6-7-8 and 7-7-7 paid by suits (every hand finishing there, recorded as it
    # left its two-card decision)
    tiers: dict[tuple[int, int], dict[Fraction, Any]] = field(init=False)

    def __post_init__(self) -> None:
        m = len(self.values.space.comps)
        dtype = object if self.exact else np.float64
        zero: Any = Fraction(0) if self.exact else 0.0
        self.reach = np.full(m + 2, zero, dtype=dtype)
        self.end = np.full((self.kinds, m), zero, dtype=dtype)
        self.bust = np.full(self.kinds, zero, dtype=dtype)
        self.bust_bj = np.full(self.kinds, zero, dtype=dtype)
        self.hit_start = np.full(m, zero, dtype=dtype)
        self.given = {}
        self.tiers = {}

    def tier(self, kind: int, node: int, card: int, mass: Any, law: Law) -> None:
        """Hands leaving two-card ``node`` (``mass`` of them) on a bet of ``kind`` make a
        bonus 21 with ``card`` (a value), paid as ``law`` says: record where they finish."""
        child = int(self.values.space.child[node, card - 1])
        if child >= self.values.space.bust:
            return
        reach = mass * self.values.probs[node, card - 1]
        into = self.tiers.setdefault((kind, child), {})
        for x, p in law:
            into[x] = into.get(x, 0) + reach * (p if self.exact else float(p))

    def _give(self, result: Fraction, mass: Any) -> None:
        self.given[result] = self.given.get(result, 0) + mass

    def stand(self, node: int, mass: Any) -> None:
        self.end[SINGLE, node] += mass

    def hit(self, node: int, mass: Any) -> None:
        self.hit_start[node] += mass

    def double(self, node: int, mass: Any, kind: int, base: tuple[int, ...], upcard: int,
               peeked: bool, level: int = 1) -> None:
        """One card, then stand, on a bet of kind ``kind`` (DOUBLED or FREE_DOUBLED).

        A paid double, its card dealt, may be given up (DDR: half its stake) or doubled
        again (RDn: one more card at twice the stake, ``level`` + 1), as the values'
        ``rescues`` and ``redoubles`` say.  DDR needs a dealer who peeks with an ace or a
        ten up (the rules refuse it otherwise), so a hand given up never meets a
        blackjack nobody checked: it loses half its stake whatever the dealer holds.
        """
        v = self.values
        space = v.space
        probs = v.probs[node]
        bj = blackjack_value(upcard)
        shoe = np.array(base) - space.comps[node]
        paid = kind != FREE_DOUBLED
        if paid:
            kind = _kind(level)
        for c in range(10):
            child = int(space.child[node, c])
            p = probs[c] * mass
            if child < space.bust:
                if paid and level <= len(v.rescues) and v.rescues[level - 1, child]:
                    self._give(Fraction(-stake(kind), 2), p)
                elif paid and level <= len(v.redoubles) and v.redoubles[level - 1, child]:
                    self.double(child, p, DOUBLED, base, upcard, peeked, level + 1)
                else:
                    self.end[kind, child] += p
            elif child == space.bust:
                self.bust[kind] += p
                if bj is not None and not peeked:
                    left = shoe.copy()
                    left[c] -= 1
                    ratio = Fraction(int(left[bj - 1]), int(left.sum()))
                    self.bust_bj[kind] += p * (ratio if self.exact else float(ratio))

    def propagate(self, hits: npt.NDArray[np.bool_], doubles: npt.NDArray[np.bool_] | None = None,
                  gives: npt.NDArray[np.bool_] | None = None,
                  base: tuple[int, ...] = (), upcard: int = 0, peeked: bool = True) -> None:
        """Carry the hands that hit forward, smallest hands first; from three cards on a
        hand may also double (``doubles``, DAN) or surrender for half its bet (``gives``,
        SAH).

        A busted single bet loses 1 whatever the dealer holds, so its blackjack
        chance is not needed (only "original bet only" doubles need it).
        """
        v = self.values
        space = v.space
        m = space.bust
        half = Fraction(-1, 2)
        for layer in reversed(space.layers):
            if space.ncards[layer[0]] < 2:
                continue
            arriving = self.reach[layer]
            go = hits[layer] & ~v.forced[layer]
            if space.ncards[layer[0]] == 2:
                go = np.zeros(len(layer), dtype=bool)
            else:
                for mask, double in ((gives, False), (doubles, True)):
                    if mask is None or not mask[layer].any():
                        continue
                    chosen = mask[layer] & ~v.forced[layer] & ~go
                    for i in np.flatnonzero(chosen).tolist():
                        node, mass = int(layer[i]), arriving[i]
                        if double:
                            self.double(node, mass, DOUBLED, base, upcard, peeked)
                        else:
                            self._give(half, mass)
                    arriving = np.where(chosen, 0 * arriving, arriving)
            self.end[SINGLE, layer] += np.where(go, 0, arriving)
            push = np.where(go, arriving, 0) + self.hit_start[layer]
            flow = push[:, None] * v.probs[layer]
            np.add.at(self.reach, space.child[layer].ravel(), flow.ravel())
        self.bust[SINGLE] += self.reach[m]


def hand_payoffs(values: HandValues, play: PlayRules, kind: int,
                 scale: int = 1) -> npt.NDArray[np.int64]:
    """``PAY[node, o]`` of a hand finishing on each node with a bet of ``kind``, in units of
    ``1 / scale`` (:func:`analyzer.engine.dist_blocks.pay_scale`)."""
    space = values.space
    rows = []
    wager = stake(kind)
    bonus = kind == SINGLE or (kind != FREE_DOUBLED and play.bonus_doubled)
    for total, ncards in zip(space.total.tolist(), space.ncards.tolist(), strict=True):
        charlie = bool(play.charlie and ncards >= play.charlie)
        if kind == FREE_DOUBLED:
            own = payoff(total, charlie, 1, False, play, scale=scale)
            free = payoff(total, charlie, 1, True, play, scale=scale)
            rows.append([a + b for a, b in zip(own, free, strict=True)])
        else:
            rows.append(payoff(total, charlie, wager, False, play, ncards, bonus, scale))
    pay = np.array(rows, dtype=np.int64).reshape(-1, N_OUTCOMES)
    if not play.bj_takes_all:
        paid = 1 if kind == FREE_DOUBLED else wager
        bj = Outcome.BLACKJACK
        pay[:, bj] = np.where(pay[:, bj] < 0, -min(1, paid) * scale, pay[:, bj])
    return pay


def settle_finishes(f: Finishes, play: PlayRules, scale: int = 1) -> dict[Fraction, Any]:
    """``{net result: chance}`` of every finished unsplit hand recorded in ``f``."""
    out: dict[Fraction, Any] = dict(f.given)
    outcomes = f.values.outcomes
    end = _settle_tiers(f, play, scale, out) if f.tiers else f.end
    for kind in range(f.kinds):
        mass = end[kind]
        if not any(mass != 0):
            continue
        pay = hand_payoffs(f.values, play, kind, scale)
        for o in range(N_OUTCOMES):
            weights = mass * outcomes[:, o]
            for x in np.unique(pay[:, o]):
                total = weights[pay[:, o] == x].sum()
                key = Fraction(int(x), scale)
                out[key] = out.get(key, 0) + total
    for kind in range(f.kinds):
        b, with_bj = f.bust[kind], f.bust_bj[kind]
        if kind != FREE_DOUBLED and kind != SINGLE and not play.bj_takes_all:
            out[Fraction(-1)] = out.get(Fraction(-1), 0) + with_bj
            b = b - with_bj
        lost = Fraction(-stake(kind))
        out[lost] = out.get(lost, 0) + b
    return out


def _settle_tiers(f: Finishes, play: PlayRules, scale: int, out: dict[Fraction, Any]) -> Array:
    """Settle the bonus 21s paid by suits into ``out``; the other finishes are left.

    Every hand finishing on such a node left a two-card hand one card from it, and
    recorded its suits' law there: those records must add up to the node's whole mass,
    or a hand would be paid a bonus it did not get (or miss one), and nothing is settled.
    """
    end = f.end.copy()
    for (kind, node), law in sorted(f.tiers.items()):
        mass = sum(law.values())
        if f.exact and mass != end[kind, node] or not f.exact and not math.isclose(
                mass, end[kind, node], rel_tol=1e-9, abs_tol=1e-15):
            raise InternalError(f"the hands paid by suits on node {node} do not add up to "
                                f"the hands finishing there ({mass} against "
                                f"{end[kind, node]})")
        end[kind, node] = 0 * end[kind, node]
        base = hand_payoffs(f.values, play, kind, scale)[node]
        win = stake(kind) * scale
        for pays, share in law.items():
            for o in range(N_OUTCOMES):
                x = pays * win if base[o] == win else Fraction(int(base[o]))
                key = x / scale
                out[key] = out.get(key, 0) + share * f.values.outcomes[node, o]
    return end
