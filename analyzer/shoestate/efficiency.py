"""How well a count system tracks the game: betting correlation, playing efficiency, insurance.

All three are computed from exact effects of removal (:mod:`analyzer.shoestate.eor`),
as Peter Griffin defined them (*The Theory of Blackjack*, 5th ed. 1996, ch. 4
"Exploiting the spectrum -- single parameter systems" and its appendix).

Correlations are Pearson correlations over the cards of the shoe (each value
weighted by its count ``n_v``, tags and effects both centred on their shoe
means, so unbalanced counts are handled)::

    corr(t, e) = sum n_v (t_v - t') (e_v - e') / sqrt(sum n_v (t_v - t')^2 * sum n_v (e_v - e')^2)

* **Betting correlation (BC)**: ``corr(tags, EOR of the game EV)``, the EORs
  of a player who keeps the full shoe's strategy (Griffin's effects of removal
  are those of the basic strategist: bet variation and strategy variation are
  measured apart, BC and PE).
* **Insurance correlation (IC)**: ``corr(tags, EOR of the insurance bet)``, the
  insurance EORs exact for the shoe (the ace upcard removed).
* **Playing efficiency (PE)**, Griffin's normal model of strategy variation.
  For every two-card decision ``d`` (hand against upcard) let ``m_d >= 0`` be
  the full-shoe EV margin of the best action over the runner-up and ``e_d`` the
  EORs of (runner-up minus best).  With ``n`` of ``N`` cards left, the linear
  estimate of the margin's change has standard deviation
  ``s_d = sqrt((N - 1) (N - n) / n) * sqrt(sum_v n_v (e_dv - e_d')^2 / N)``; a
  player who knew every card switches when the margin turns, gaining
  ``s_d * UNL(m_d / s_d)`` (``UNL(z) = phi(z) - z (1 - Phi(z))``, the unit normal
  loss integral); a count with correlation ``r_d`` to ``e_d`` sees only ``|r_d|``
  of that spread and gains ``|r_d| s_d * UNL(m_d / (|r_d| s_d))``.  PE is the
  ratio of the count's gain to the perfect-information gain, each summed over
  every decision weighted by its chance of being dealt (times the chance the
  dealer has no blackjack, where EVs are conditioned on it), and over depths
  spread evenly from the top of the shoe to the cut card (75% of the shoe when
  the game has none).  Insurance is not a playing decision here (IC covers it).

Exact: every EOR.  Modelled (Griffin's approximations): the linear estimate of
a shoe state's values from EORs and the normal distribution of the count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe
from analyzer.shoestate.counts import CountSystem
from analyzer.shoestate.decisions import deal_weight
from analyzer.shoestate.summary import ShoeSummary, remember_optimal, summarise_both
from analyzer.util.pool import run_all
from analyzer.util.progress import ProgressCallback

VALUES = tuple(range(1, 11))
DEFAULT_PENETRATION = Fraction(3, 4)
DEPTH_STEPS = 12  # depths sampled evenly in (0, cut card]


@dataclass(frozen=True)
class DecisionEffects:
    """One two-card decision: its full-shoe margin, weight and margin EORs."""

    upcard: int
    hand: tuple[int, int]
    best: int
    runner_up: int
    margin: float  # EV(best) - EV(runner-up) >= 0, full shoe
    weight: float  # chance the decision is faced
    eor: tuple[float, ...]  # EOR of EV(runner-up) - EV(best), by value A..T


@dataclass(frozen=True)
class EffectsModel:
    """Everything the efficiencies need, from one set of one-card-removed analyses."""

    spec: str
    shoe: tuple[int, ...]
    penetration: int  # cards dealt before the reshuffle
    game_eor: tuple[float, ...]  # fixed (full-shoe) strategy: for BC
    optimal_game_eor: tuple[float, ...]  # re-optimised play, for reference
    insurance_eor: tuple[float, ...]
    decisions: tuple[DecisionEffects, ...]


@dataclass(frozen=True)
class Efficiency:
    system: CountSystem
    betting: float
    playing: float
    insurance: float
    balanced: bool  # on the game's own shoe (Hi-Lo is not on Spanish decks)


def correlation(shoe: Sequence[int], x: Sequence[float], y: Sequence[float]) -> float:
    """Card-weighted Pearson correlation of two per-value vectors (0 if one is flat).

    >>> round(correlation((4,) * 9 + (16,), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    ...                   (1,) * 9 + (-2.25,)), 4)
    0.7601
    """
    n = sum(shoe)
    mx = sum(c * a for c, a in zip(shoe, x, strict=True)) / n
    my = sum(c * b for c, b in zip(shoe, y, strict=True)) / n
    sxy = sum(c * (a - mx) * (b - my) for c, a, b in zip(shoe, x, y, strict=True))
    sxx = sum(c * (a - mx) ** 2 for c, a in zip(shoe, x, strict=True))
    syy = sum(c * (b - my) ** 2 for c, b in zip(shoe, y, strict=True))
    return 0.0 if sxx <= 0 or syy <= 0 else float(sxy / math.sqrt(sxx * syy))


def insurance_eor(shoe: Shoe) -> tuple[float, ...]:
    """Exact EORs of the insurance bet (per unit of it), dealer ace up."""
    def ev(s: tuple[int, ...]) -> Fraction:
        return 3 * Fraction(s[9], sum(s) - 1) - 1

    full = ev(shoe.counts)
    return tuple(float(ev(shoe.remove([v]).counts) - full) if shoe[v] else 0.0
                 for v in VALUES)


def effects_model(rules: Rules, shoe: Shoe | None = None, *, jobs: int = 1,
                  use_cache: bool = True,
                  progress: ProgressCallback | None = None) -> EffectsModel:
    """Analyse the full shoe and its ten one-card-removed shoes (optimal play, then the
    full shoe's strategy fixed; ``progress``: each shoe analysed)."""
    full = shoe if shoe is not None else rules.full_shoe()
    spec = format_spec(rules)
    shoes = [full.counts] + [full.remove([v]).counts for v in VALUES]
    both = run_all(((summarise_both, (spec, s, full.counts, False)) for s in shoes),
                   jobs=jobs, use_cache=use_cache, progress=progress,
                   stage="shoes, optimal and fixed play")
    base, *removed = [optimal for optimal, _ in both]
    remember_optimal(spec, [base, *removed], full.counts, use_cache=use_cache)
    fixed_base, *fixed = [played for _, played in both]
    game = tuple(float(r.ev - fixed_base.ev) for r in fixed)
    decisions = tuple(d for key in base.hands
                      if (d := _decision(rules, full, base, removed, key)) is not None)
    cut = rules.cut_card or int(full.total * DEFAULT_PENETRATION)
    return EffectsModel(spec=spec, shoe=full.counts, penetration=min(cut, full.total - 12),
                        game_eor=game, optimal_game_eor=tuple(float(r.ev - base.ev)
                                                              for r in removed),
                        insurance_eor=insurance_eor(full), decisions=decisions)


def _decision(rules: Rules, full: Shoe, base: ShoeSummary, removed: list[ShoeSummary],
              key: tuple[int, int, int]) -> DecisionEffects | None:
    up, a, b = key
    evs = base.hands[key]
    if len(evs) < 2:
        return None
    ranked = sorted(evs, key=lambda act: evs[act], reverse=True)
    best, runner = ranked[0], ranked[1]
    eor = []
    for r in removed:
        other = r.hands.get(key)
        if other is None or best not in other or runner not in other:
            return None
        eor.append(float((other[runner] - other[best]) - (evs[runner] - evs[best])))
    weight = deal_weight(full, up, (a, b))
    if rules.peeks_on(up):
        rest = full.remove([up, a, b])
        bj = 10 if up == 1 else 1
        weight *= 1 - Fraction(rest[bj], rest.total)
    return DecisionEffects(upcard=up, hand=(a, b), best=best, runner_up=runner,
                           margin=float(evs[best] - evs[runner]),
                           weight=float(Fraction(full[up], full.total) * weight),
                           eor=tuple(eor))


def _unl(z: float) -> float:
    """Unit normal loss integral ``E[max(X - z, 0)]``, X standard normal."""
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) - z * 0.5 * math.erfc(z / math.sqrt(2))


@dataclass(frozen=True)
class _Spread:
    """One decision's perfect-information terms, the same for every count system."""

    decision: DecisionEffects
    sigmas: tuple[float, ...]  # the margin's standard deviation at each depth
    ideal: tuple[float, ...]  # the perfect-information gain at each depth, weighted


@lru_cache(maxsize=8)
def _spreads(model: EffectsModel) -> tuple[_Spread, ...]:
    """Every decision's :class:`_Spread` (a decision whose EORs are all equal has none)."""
    shoe = model.shoe
    total = sum(shoe)
    depths = [model.penetration * (i + 1) / DEPTH_STEPS for i in range(DEPTH_STEPS)]
    out = []
    for d in model.decisions:
        mean = sum(n * e for n, e in zip(shoe, d.eor, strict=True)) / total
        spread = math.sqrt(sum(n * (e - mean) ** 2 for n, e in zip(shoe, d.eor, strict=True))
                           / total)
        if spread == 0:
            continue
        sigmas = tuple(spread * math.sqrt((total - 1) * dealt / (total - dealt))
                       for dealt in depths)
        out.append(_Spread(d, sigmas, tuple(d.weight * sigma * _unl(d.margin / sigma)
                                            for sigma in sigmas)))
    return tuple(out)


def playing_efficiency(model: EffectsModel, system: CountSystem) -> float:
    """Griffin's playing efficiency of ``system`` (module docstring)."""
    tags = list(system.unit_tags())
    count_gain = ideal_gain = 0.0
    for s in _spreads(model):  # the terms added in the order of decisions, then depths
        d = s.decision
        rho = abs(correlation(model.shoe, tags, d.eor))
        for sigma, ideal in zip(s.sigmas, s.ideal, strict=True):
            ideal_gain += ideal
            if rho > 0:
                count_gain += d.weight * rho * sigma * _unl(d.margin / (rho * sigma))
    return count_gain / ideal_gain if ideal_gain else 0.0


def efficiency(model: EffectsModel, system: CountSystem) -> Efficiency:
    """BC, PE and IC of ``system`` for the game of ``model``."""
    tags = list(system.unit_tags())
    return Efficiency(system=system,
                      betting=correlation(model.shoe, tags, model.game_eor),
                      playing=playing_efficiency(model, system),
                      insurance=correlation(model.shoe, tags, model.insurance_eor),
                      balanced=system.balanced_in(model.shoe))


__all__ = ["DecisionEffects", "Efficiency", "EffectsModel", "correlation", "effects_model",
           "efficiency", "insurance_eor", "playing_efficiency"]
