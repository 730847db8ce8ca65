"""The shoe at a given true count: Griffin's proportional deflection, made of whole shoes.

A counter who knows the true count does not know the composition; what the
count tells him is its *expected* composition.  For cards seen at random, that
expectation given the count is, to the accuracy of the normal approximation,
the average composition *deflected in proportion to each value's count and its
centred tag* -- Griffin's "proportional deflection" (*The Theory of Blackjack*,
5th ed. 1996, ch. 4 appendix; used for algebraic indices by ETFan, "Algebraic
Indices for Unbalanced Counts", Blackjack Forum Online, 2010).  Concretely, with
``B`` the shoe less the known cards (upcard, player's hand), ``q = B / |B|``,
centred tags ``u_v = t_v - t'`` (``t'`` the full shoe's mean tag), ``k`` random
cards seen and ``c`` their centred count::

    E[seen_v | c] = k q_v + q_v (u_v - u_B) (c - k u_B) / sum_w q_w (u_w - u_B)^2

and the unseen cards are ``B - E[seen]``.  The true count is the centred
running count of every card seen (known ones included) per 52 unseen cards;
for a balanced count it is the usual running count / decks remaining.

This composition is fractional.  It is written exactly (rational arithmetic) as
a convex combination of at most eleven whole shoes -- the vertices of the
Freudenthal simplex of the unit cube containing it -- and any shoe quantity
(a decision's value) at the true count is the same combination of the exact
values at those whole shoes.  That interpolation is linear between shoes at
most one card of each value apart, so its error is second order in one card
(about 1e-5 of a bet on a 3-deck remainder, far below an index's resolution).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from analyzer.core.errors import ImpossibleError
from analyzer.core.shoe import Shoe
from analyzer.shoestate.counts import CountSystem


class TrueCountError(ImpossibleError):
    """A true count the shoe cannot reach, or an impossible depth."""


@dataclass(frozen=True)
class CountShoe:
    """The shoe at a true count: whole pre-deal shoes and their weights (sum 1)."""

    true_count: Fraction
    unseen: tuple[Fraction, ...]  # expected unseen composition, A..T
    vertices: tuple[tuple[Fraction, Shoe], ...]  # (weight, shoe incl. the known cards)


def unseen_at(system: CountSystem, full: Shoe, known: tuple[int, ...], true_count: Fraction,
              unseen: int) -> tuple[Fraction, ...]:
    """Expected composition of the ``unseen`` cards at ``true_count`` (module docstring)."""
    base = list(full.counts)
    for card in known:
        if base[card - 1] == 0:
            raise TrueCountError(f"the shoe has no {card} for the known cards")
        base[card - 1] -= 1
    size = sum(base)
    if not 0 < unseen <= size:
        raise TrueCountError(f"{unseen} unseen cards is not possible (1 to {size})")
    mean_tag = system.mean_tag_in(full.counts)
    u = [t - mean_tag for t in system.tags]
    q = [Fraction(b, size) for b in base]
    u_base = sum((qv * uv for qv, uv in zip(q, u, strict=True)), Fraction(0))
    spread = sum((qv * (uv - u_base) ** 2 for qv, uv in zip(q, u, strict=True)), Fraction(0))
    seen = size - unseen
    count_known = sum((u[c - 1] for c in known), Fraction(0))
    count_random = true_count * Fraction(unseen, 52) - count_known
    shift = (count_random - seen * u_base) / spread if spread else Fraction(0)
    if spread == 0 and count_random != seen * u_base:
        raise TrueCountError("the count cannot move on this shoe")
    rest = tuple(b - (seen * qv + qv * (uv - u_base) * shift)
                 for b, qv, uv in zip(base, q, u, strict=True))
    if any(not 0 <= r <= b for r, b in zip(rest, base, strict=True)):  # seen: 0 to b each
        raise TrueCountError(f"true count {float(true_count):+g} is out of reach with "
                             f"{unseen} cards unseen")
    return rest


def freudenthal(point: tuple[Fraction, ...]) -> list[tuple[Fraction, tuple[int, ...]]]:
    """``point`` as a convex combination of whole vectors (weights > 0, summing to 1).

    >>> freudenthal((Fraction(1, 4), Fraction(3, 2)))
    [(Fraction(1, 2), (0, 1)), (Fraction(1, 4), (0, 2)), (Fraction(1, 4), (1, 2))]
    """
    low = [floor(x) for x in point]
    frac = [x - f for x, f in zip(point, low, strict=True)]
    levels = sorted({f for f in frac if f > 0}, reverse=True)
    vertices = []
    previous = Fraction(1)
    current = list(low)
    for level in [*levels, Fraction(0)]:
        weight = previous - level
        if weight > 0:
            vertices.append((weight, tuple(current)))
        current = [c + (1 if f >= level and f > 0 else 0) for c, f in zip(low, frac,
                                                                          strict=True)]
        previous = level
    return vertices


def count_shoe(system: CountSystem, full: Shoe, known: tuple[int, ...], true_count: Fraction,
               unseen: int) -> CountShoe:
    """The shoe at ``true_count`` as whole pre-deal shoes (known cards put back in)."""
    rest = unseen_at(system, full, known, true_count, unseen)
    vertices = []
    for weight, counts in freudenthal(rest):
        shoe = list(counts)
        for card in known:
            shoe[card - 1] += 1
        vertices.append((weight, Shoe(shoe)))
    return CountShoe(true_count=true_count, unseen=rest, vertices=tuple(vertices))


__all__ = ["CountShoe", "TrueCountError", "count_shoe", "freudenthal", "unseen_at"]
