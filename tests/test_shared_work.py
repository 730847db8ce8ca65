"""What the analyses of many rule sets share (issue 26: `bja compare --effects`) gives the
figures each would compute alone, bit for bit.

A chart answers a whole hand space at once (one lookup per hand shape); split hands'
values are kept by how they are played; a rule set's hash, a hand's actions and a
space's rows are computed once.  Each is checked here against the plain computation
it replaces.
"""

from __future__ import annotations

import multiprocessing
import pickle
from fractions import Fraction

import numpy as np
import pytest

import analyzer.engine.splits as splits
from analyzer.charts.evaluate import make_chart
from analyzer.charts.rows import prepare, reach
from analyzer.charts.strategy import ChartStrategy
from analyzer.core.actions import DOUBLE, HIT, STAND, SURRENDER
from analyzer.core.errors import HandError, UsageError
from analyzer.core.presets import game_rules
from analyzer.core.rules import Rules, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.hands import hand_space

# DAN, SAH, DDR and a redouble: every bulk answer of a chart is asked
LATER = "2D H17 DOA DAN RD1 DDR DAS SPL1 LS SAH"


@pytest.fixture(scope="module")
def later_chart() -> ChartStrategy:
    rules = parse_spec(LATER)
    return ChartStrategy(make_chart(rules, "later").chart, rules)


@pytest.fixture(scope="module")
def free_chart() -> ChartStrategy:
    rules = game_rules("free-bet")
    return ChartStrategy(make_chart(rules, "free").chart, rules)


def _space() -> np.ndarray:
    return hand_space(tuple(Shoe.decks(2).counts)).comps


@pytest.mark.parametrize("upcard", [1, 2, 6, 7, 10])
def test_bulk_answers_are_the_chart_asked_hand_by_hand(later_chart: ChartStrategy,
                                                       upcard: int) -> None:
    comps = _space()
    rows = [tuple(c) for c in comps.tolist()]
    both = frozenset((STAND, HIT))
    assert later_chart.hit_policy(upcard, comps).tolist() == \
        [later_chart.decide(upcard, c, both) for c in rows]
    # the same answers for a writeable copy (kept by its bytes, not its identity)
    assert later_chart.hit_policy(upcard, comps.copy()).tolist() == \
        later_chart.hit_policy(upcard, comps).tolist()
    rng = np.random.default_rng(upcard)
    may_double, may_give = rng.random(len(rows)) < 0.5, rng.random(len(rows)) < 0.5
    expected = []
    for c, d, g in zip(rows, may_double.tolist(), may_give.tolist(), strict=True):
        options = {STAND, HIT} | ({DOUBLE} if d else set()) | ({SURRENDER} if g else set())
        expected.append(later_chart.decide(upcard, c, frozenset(options)))
    assert later_chart.later_policy(upcard, comps, may_double, may_give).tolist() == expected
    give, again = later_chart.doubled_policy(upcard, comps, 2)
    for level in range(2):
        assert give[level].tolist() == [later_chart.decide_rescue(upcard, c) for c in rows]
        assert again[level].tolist() == [later_chart.decide_redouble(upcard, c, 1)
                                          for c in rows]


def test_the_doubled_hand_section_both_rescues_and_redoubles(later_chart: ChartStrategy) -> None:
    """So the bulk answers above are compared where they say yes, not only no."""
    comps = _space()
    answers = [later_chart.doubled_policy(u, comps, 2) for u in range(1, 11)]
    assert any(give.any() for give, _ in answers) and any(again.any() for _, again in answers)


@pytest.mark.parametrize("upcard", [2, 10])
def test_free_policy_is_decide_free_hand_by_hand(free_chart: ChartStrategy, upcard: int) -> None:
    comps = _space()
    calls = free_chart.free_calls
    bulk = free_chart.free_policy(upcard, comps).tolist()
    assert free_chart.free_calls == calls + len(comps)  # the engine's asking is counted
    assert bulk == [free_chart.decide_free(upcard, tuple(c)) for c in comps.tolist()]


def test_bulk_answers_refuse_negative_counts(later_chart: ChartStrategy) -> None:
    comps = _space()[:5].copy()
    comps[0, 0] = -1
    with pytest.raises(UsageError, match="never negative"):
        later_chart.hit_policy(5, comps)


def test_a_hand_space_is_read_only() -> None:
    space = hand_space(tuple(Shoe.decks(1).counts))
    for array in (space.comps, space.ncards, space.total, space.soft, space.child):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


def test_reach_adds_as_np_add_at_does() -> None:
    """The chance of reaching each hand, summed by bincount, is np.add.at's, bit for bit."""
    analysis = Analysis(parse_spec("6D H17 DOA DAS SPL3 LS"))
    for upcard in (2, 10):
        d = prepare(analysis, upcard)
        space, probs = d.ua.values.space, d.ua.values.probs
        hits = d.ua.values.hits
        start = np.where(d.two, d.deal * d.keep, 0.0)
        m = len(space.comps)
        out = np.zeros(m + 2)
        out[:m] = start
        for layer in reversed(space.layers):
            if int(space.ncards[layer[0]]) < 2:
                continue
            np.add.at(out, space.child[layer],
                      np.where(hits[layer], out[layer], 0.0)[:, None] * probs[layer])
        expected = np.where(space.ncards >= 3, out[:m], 0.0)
        assert reach(d, start, hits).tobytes() == expected.tobytes()


def _split_values(rules: Rules) -> list[float]:
    analysis = Analysis(rules)
    return [float(analysis.split_value(analysis.upcard(u), p))
            for u in (2, 6, 10) for p in (2, 8, 9)]


def test_split_values_are_shared_only_where_split_hands_play_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    base = parse_spec("6D S17 DOA DAS SPL3 LS")
    splits._KNOWN.clear()
    splits._REACHED.clear()
    alone = _split_values(base)
    # A blackjack's payout and surrender never reach a split hand: every value is read.
    def computed(*args: object, **kwargs: object) -> None:
        raise AssertionError("a split value was computed again")

    with monkeypatch.context() as patch:
        patch.setattr(splits, "_played_values", computed)
        assert _split_values(base.replace(blackjack_pays=Fraction(6, 5))) == alone
        assert _split_values(parse_spec("6D S17 DOA DAS SPL3 NS")) == alone
    # No double after splitting plays them otherwise: computed, and as a fresh run does.
    ndas = parse_spec("6D S17 DOA NDAS SPL3 LS")
    shared = _split_values(ndas)
    assert shared != alone
    splits._KNOWN.clear()
    splits._REACHED.clear()
    assert _split_values(ndas) == shared


def test_a_hand_s_actions_are_the_caller_s_own() -> None:
    analysis = Analysis(parse_spec("6D S17 DOA DAS SPL3 LS"))
    first = analysis.actions(10, (8, 8))
    first.clear()
    again = analysis.actions(10, (8, 8))
    assert again and again == Analysis(parse_spec("6D S17 DOA DAS SPL3 LS")).actions(10, (8, 8))


@pytest.mark.parametrize(("spec", "upcard"), [("1D S17 DOA DAS SPL1 ES", 10),
                                               ("1D S17 DOA DAS SPL1 LS", 10),
                                               ("1D S17 DOA DAS SPL1 LS", 6)])
def test_surrender_value_refuses_a_hand_the_shoe_cannot_deal(spec: str, upcard: int) -> None:
    """Early surrender, late surrender against a peeked ten and against a 6 pay half
    without the hole card's chance, yet the hand is checked against the shoe, whose only
    ten is the upcard or the hand's first."""
    analysis = Analysis(parse_spec(spec), Shoe([4, 4, 4, 4, 4, 4, 4, 4, 4, 1]))
    assert analysis.surrender_value(upcard, (0,) * 8 + (2, 0)) == -0.5
    tens = (0,) * 8 + (1, 1) if upcard == 10 else (0,) * 9 + (2,)
    with pytest.raises(HandError, match="no T left"):
        analysis.surrender_value(upcard, tens)


def _hash_in_child(data: bytes, queue: multiprocessing.Queue[bool]) -> None:
    rules = pickle.loads(data)
    queue.put({rules: True}.get(parse_spec(str(rules)), False))


def test_a_rule_set_s_hash_stays_in_its_process() -> None:
    rules = game_rules("spanish21")
    hash(rules)
    data = pickle.dumps(rules)
    assert b"_hash" not in data
    copy = pickle.loads(data)
    assert copy == rules and hash(copy) == hash(rules)
    assert {copy: 1}[rules] == 1
    # in a process whose strings hash otherwise, the unpickled rules find their equal
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[bool] = context.Queue()
    child = context.Process(target=_hash_in_child, args=(data, queue))
    child.start()
    assert queue.get(timeout=60)
    child.join(timeout=60)


def test_exact_dealer_rows_are_shared_within_the_block_only() -> None:
    """In fractions, the levels of one shoe (and a comparison's rule sets) ask the same
    dealer rows: within ``exact_rows_kept`` they are computed once, then dropped."""
    import analyzer.engine.dealer as dealer

    base = tuple(Shoe.decks(1).remove([6]).counts)

    def cache() -> dealer.OutcomeCache:
        return dealer.OutcomeCache.shared(base, 6, hits_soft_17=False, exact=True)

    assert cache() is not cache()  # outside a block: nothing kept
    with dealer.exact_rows_kept():
        kept = cache()
        with dealer.exact_rows_kept():  # nested: the same store
            assert cache() is kept
        assert cache() is kept
        assert dealer.OutcomeCache.shared(base, 6, hits_soft_17=True, exact=True) is not kept
        assert dealer.OutcomeCache.shared(base, 6, hits_soft_17=False, exact=False) is not kept
    assert cache() is not kept and dealer._EXACT is None  # dropped with the last holder


def test_levels_sharing_exact_rows_are_the_levels_computed_apart() -> None:
    """The same fractions whether two levels share their dealer rows or not."""
    import analyzer.engine.dealer as dealer

    rules, shoe = parse_spec("1D S17 DOA DAS SPL1 NS"), Shoe((1, 2, 1, 1, 1, 1, 1, 1, 1, 4))
    with dealer.exact_rows_kept():
        cdz = Analysis(rules, shoe, exact=True).by_upcard()
        assert dealer._EXACT  # the rows CDZ- computed, kept for the next level
        shared = Analysis(rules, shoe, exact=True, split="cdp1").by_upcard()
    apart = Analysis(rules, shoe, exact=True, split="cdp1").by_upcard()
    assert shared == apart and all(isinstance(v, Fraction) for v in apart.values())
    assert shared != cdz  # the levels tell split play apart here


@pytest.mark.parametrize(("count", "jobs", "sizes"), [
    (4, 2, [3, 1]), (3, 2, [2, 1]), (4, 1, [4]), (4, 8, [1, 1, 1, 1]), (4, 3, [2, 1, 1]),
    (0, 2, [])])
def test_a_certificates_levels_are_grouped_a_worker_each(count: int, jobs: int,
                                                        sizes: list[int]) -> None:
    from analyzer.certificates.model import LEVEL_NAMES, _level_groups

    names = LEVEL_NAMES[:count]
    groups = _level_groups(names, jobs)
    assert [len(g) for g in groups] == sizes and sum(groups, ()) == names


def test_a_certificates_levels_are_kept_per_level_whatever_the_grouping(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Computed in one group, read back under two workers: every level from the memo."""
    import analyzer.certificates.model as model

    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    rules = parse_spec("1D S17 DOA DAS SPL3 NS")
    run = make_chart(rules, "levels")
    first = model.strategy_levels_of(rules, run, model.Settings(exact=False, workers=1))

    def never(*args: object) -> None:
        raise AssertionError(f"computed again: {args}")

    monkeypatch.setattr(model, "_levels_ev", never)
    assert model.strategy_levels_of(rules, run, model.Settings(exact=False, workers=2)) == first
    assert [level.name for level in first.levels] == ["chart", "cdz", "cdp1", "cdp", "optimal"]
