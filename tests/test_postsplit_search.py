"""The search for the split hands CDP1 and CDP need, and the batch that evaluates them.

Under optimal post-split play a hand's children get dealer outcomes only when
hitting it might pay, by a bound from the hand's own dealer outcomes
(``SplitLevels.hit_bounds``, argued in its docstring).  Checked here, with every
split hand evaluated (``prune=False``) as the reference: the bound is at or above
the true hit EV of every split hand of several rule sets; the search changes no
value (floats bit for bit, fractions on one deck); it does leave hands out; the
pairs evaluated together equal one pair at a time; and the compiled bound is the
plain-Python reading of the same formula.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.outcomes import N_OUTCOMES
from analyzer.core.rules import parse_spec
from analyzer.engine import kernel as _dealer  # the compiled loops in use (BJA_KERNEL)
from analyzer.engine.analysis import Analysis
from analyzer.engine.hands import payoff_matrix
from analyzer.engine.postsplit import Level, LevelHands, PostSplit, SplitLevels, level_count
from analyzer.engine.splits import SplitPlan

RULES = [
    "6D S17 DOA DAS SPL3 LS",
    "6D H17 DOA DAS SPL3 ENHC",
    "8D S17 DOA DAS SPL3 LS CH5 A21",  # Charlie children bound by 1; 21 never hits
    "6D S17 DOA DAS SPL3 P22",  # another payoff table
    "1D S17 DOA DAS SPL3",  # hands whose next card is no longer in the shoe
]


def _levels(spec: str, upcard: int, prune: bool,
            ) -> tuple[SplitLevels, dict[Level, LevelHands], list[Level]]:
    rules = parse_spec(spec)
    ua = Analysis(rules).upcard(upcard)
    plans = [SplitPlan.from_rules(rules, p, upcard) for p in range(2, 11)
             if ua.shoe[p - 1] >= 2]
    levels = SplitLevels(ua.values, ua.shoe, upcard, plans, hits_soft_17=rules.hits_soft_17,
                         exact=False, prune=prune)
    wanted = [(plan.pair, a) for plan in plans
              for a in range(level_count(ua.shoe, upcard, plan))]
    return levels, levels.values(wanted), wanted


@pytest.mark.parametrize("spec", RULES)
@pytest.mark.parametrize("upcard", [1, 2, 6, 10])
def test_bound_is_above_every_true_hit_value(spec: str, upcard: int) -> None:
    levels, hands, wanted = _levels(spec, upcard, prune=False)
    play = levels.play
    checked = 0
    for p, a in wanted:
        h = hands[(p, a)]
        space = h.space
        assert len(h.nodes) == len(space.comps)  # every hand kept
        out = space.comps.copy()
        out[:, p - 1] += a + 1
        live = ((levels.base - out) >= 0).all(axis=1)  # hands this level can hold
        stops = np.zeros(len(space.comps), dtype=bool)
        if play.charlie:
            stops |= space.ncards >= play.charlie
        if play.stand_on_21:
            stops |= space.total == 21
        nodes = np.flatnonzero(live & ~stops)
        rows = levels.dealer.rows(out[nodes])
        stand, bound = levels.hit_bounds(space, nodes, rows, out[nodes])
        values = h.values
        true_stand = values.stand[h.start + nodes]
        true_hit = values.hit[h.start + nodes]
        assert np.allclose(stand, true_stand, rtol=0, atol=1e-12)
        assert (true_hit <= bound + 1e-12).all(), (p, a, float((true_hit - bound).max()))
        checked += len(nodes)
    assert checked > 1000


@pytest.mark.parametrize("spec", RULES)
@pytest.mark.parametrize("level", ["cdp1", "cdp"])
def test_search_changes_no_value(spec: str, level: str) -> None:
    rules = parse_spec(spec)
    analysis = Analysis(rules)
    for upcard in (1, 5, 10):
        ua = analysis.upcard(upcard)
        plans = [SplitPlan.from_rules(rules, p, upcard) for p in range(1, 11)
                 if ua.shoe[p - 1] >= 2]
        evs = []
        for prune in (True, False):
            post = PostSplit(level, ua.values, ua.shoe, upcard,
                             hits_soft_17=rules.hits_soft_17, exact=False, prune=prune)
            for plan in plans:
                post.expect(plan)
            evs.append([post.ev(plan) for plan in plans])
        assert evs[0] == evs[1], (upcard, evs)


@pytest.mark.slow
@pytest.mark.parametrize("upcard", [1, 6, 10])
def test_search_changes_no_fraction(upcard: int) -> None:
    rules = parse_spec("1D S17 DOA DAS SPL3")
    ua = Analysis(rules, exact=True).upcard(upcard)
    plans = [SplitPlan.from_rules(rules, p, upcard) for p in range(1, 11)]
    evs = []
    for prune in (True, False):
        post = PostSplit("cdp", ua.values, ua.shoe, upcard, hits_soft_17=False, exact=True,
                         prune=prune)
        for plan in plans:
            post.expect(plan)
        evs.append([post.ev(plan) for plan in plans])
    assert evs[0] == evs[1]


def test_search_leaves_hands_out() -> None:
    """Six decks: about half the split hands surely stand and lose their children.

    Measured 2026-12-01: kept 14,144, 9,454 and 28,975 of 36,780 hands against
    2, 6 and 10 (the bound is loosest where standing on 17 is poor).
    """
    kept = every = 0
    for upcard in (2, 6, 10):
        _, pruned, wanted = _levels("6D S17 DOA DAS SPL3 LS", upcard, prune=True)
        _, full, _ = _levels("6D S17 DOA DAS SPL3 LS", upcard, prune=False)
        kept += sum(len(pruned[w].nodes) for w in wanted)
        every += sum(len(full[w].nodes) for w in wanted)
    assert kept < 0.55 * every, (kept, every)


@pytest.mark.parametrize("level", ["cdp1", "cdp"])
def test_pairs_together_equal_one_at_a_time(level: str) -> None:
    rules = parse_spec("6D S17 DOA DAS SPL3 LS")
    ua = Analysis(rules).upcard(9)
    plans = [SplitPlan.from_rules(rules, p, 9) for p in range(1, 11)]
    together = PostSplit(level, ua.values, ua.shoe, 9, hits_soft_17=False, exact=False)
    for plan in plans:
        together.expect(plan)
    batch = [together.ev(plan) for plan in plans]
    alone = [PostSplit(level, ua.values, ua.shoe, 9, hits_soft_17=False, exact=False).ev(plan)
             for plan in plans]
    assert batch == alone


def _bounds_by_hand(rows: np.ndarray, pay: np.ndarray, shoes: np.ndarray, total: np.ndarray,
                    hard: np.ndarray, kid_total: np.ndarray, charlie: np.ndarray,
                    slack: float) -> tuple[list[float], list[float]]:
    """The formula of ``split_bounds`` read one hand and one card at a time."""
    stands, hits = [], []
    for i in range(len(total)):
        shoe = [max(int(c), 0) for c in shoes[i]]
        n = max(sum(shoe), 1)
        stands.append(float(rows[i] @ pay[total[i]]))
        hit = 0.0
        for x in range(1, 11):
            if shoe[x - 1] == 0:
                continue
            if kid_total[i, x - 1] < 0:
                value = -1.0
            elif charlie[i]:
                value = 1.0
            else:
                stays = float(rows[i] @ pay[kid_total[i, x - 1]]) + slack / n
                left = list(shoe)
                left[x - 1] -= 1
                busting = sum(left[y - 1] for y in range(1, 11) if hard[i] + x + y > 21)
                value = max(stays, 1 - 2 * busting / max(sum(left), 1), 0.0)
            hit += shoe[x - 1] * value
        hits.append(hit / n)
    return stands, hits


def test_split_bounds_is_its_formula() -> None:
    rng = np.random.default_rng(7)
    k = 300
    rows = rng.dirichlet(np.ones(N_OUTCOMES), size=k)
    pay = payoff_matrix(False).astype(np.float64)
    shoes = rng.integers(-1, 6, size=(k, 10)).astype(np.int64)
    hard = rng.integers(4, 22, size=k).astype(np.int64)
    total = np.where(hard <= 11, hard + 10 * rng.integers(0, 2, size=k), hard).astype(np.int64)
    kid_total = np.where(hard[:, None] + np.arange(1, 11) > 21, -1,
                         np.minimum(total[:, None] + np.arange(1, 11), 21)).astype(np.int64)
    charlie = (rng.random(k) < 0.1).astype(np.int64)
    stand, hit = np.empty(k), np.empty(k)
    _dealer.split_bounds(rows, pay, shoes, total, hard, kid_total, charlie, 18.0, stand, hit)
    want_stand, want_hit = _bounds_by_hand(rows, pay, shoes, total, hard, kid_total, charlie,
                                           18.0)
    assert np.allclose(stand, want_stand, rtol=0, atol=1e-14)
    assert np.allclose(hit, want_hit, rtol=0, atol=1e-14)


def test_split_bounds_refuses_bad_input() -> None:
    pay = payoff_matrix(False).astype(np.float64)
    rows = np.full((2, N_OUTCOMES), 0.1)
    shoes = np.ones((2, 10), dtype=np.int64)
    one = np.array([12, 13], dtype=np.int64)
    kids = np.full((2, 10), 15, dtype=np.int64)
    flags = np.zeros(2, dtype=np.int64)
    out = np.empty(2)
    with pytest.raises(ValueError, match="sizes disagree"):
        _dealer.split_bounds(rows[:1], pay, shoes, one, one, kids, flags, 1.0, out, out)
    with pytest.raises(ValueError, match="outside 0..21"):
        _dealer.split_bounds(rows, pay, shoes, one, one, kids + 10, flags, 1.0, out, out)
