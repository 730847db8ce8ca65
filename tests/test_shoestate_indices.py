"""The shoe at a true count, and playing indices against Schlesinger's Illustrious 18 / Fab 4.

Published indices: Don Schlesinger, Blackjack Attack (3rd ed., 2005), Hi-Lo, multi-deck
S17 (Fab 4 with late surrender), printed as whole true counts: agreement means within
0.5 of the printed integer.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.actions import HIT, STAND
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.shoestate.counts import SYSTEMS
from analyzer.shoestate.decisions import not_allowed, parse_decision
from analyzer.shoestate.indices import playing_indices
from analyzer.shoestate.published import ILLUSTRIOUS_18_FAB_4
from analyzer.shoestate.truecount import TrueCountError, count_shoe, freudenthal, unseen_at

fractions = st.fractions(min_value=0, max_value=30, max_denominator=50)


@given(st.lists(fractions, min_size=1, max_size=10))
@settings(max_examples=40, deadline=None)
def test_freudenthal_is_an_exact_convex_combination(point: list[Fraction]) -> None:
    parts = freudenthal(tuple(point))
    assert sum(w for w, _ in parts) == 1
    assert all(w > 0 for w, _ in parts)
    assert len(parts) <= len(point) + 1
    for i, x in enumerate(point):
        assert sum(w * v[i] for w, v in parts) == x


@pytest.mark.parametrize("name", list(SYSTEMS))
@pytest.mark.parametrize("tc", [Fraction(-3), Fraction(0), Fraction(5, 2)])
def test_unseen_composition_has_the_true_count(name: str, tc: Fraction) -> None:
    """Cards seen (known ones included) carry exactly tc * unseen / 52 of centred count."""
    system, full, known, unseen = SYSTEMS[name], Shoe.decks(6), (10, 10, 6), 156
    rest = unseen_at(system, full, known, tc, unseen)
    assert sum(rest) == unseen
    seen = [n - r for n, r in zip(full.counts, rest, strict=True)]
    centred = system.running_count(seen) - sum(seen) * system.mean_tag_in(full.counts)
    assert centred == tc * Fraction(unseen, 52)


def test_neutral_count_without_known_cards_is_the_average_shoe() -> None:
    rest = unseen_at(SYSTEMS["hi-lo"], Shoe.decks(6), (), Fraction(0), 156)
    assert rest == tuple(Fraction(n, 2) for n in Shoe.decks(6).counts)
    shoe = count_shoe(SYSTEMS["hi-lo"], Shoe.decks(6), (), Fraction(0), 156)
    assert shoe.vertices == ((Fraction(1), Shoe.decks(3)),)


@pytest.mark.parametrize("name", ["hi-lo", "ko", "wong-halves"])
def test_spanish_decks_are_centred_on_their_own_cards(name: str) -> None:
    """Hi-Lo gains +4 a Spanish deck (no 10s): it is not balanced there, and the true count
    is centred by the Spanish shoe's mean tag, so true count 0 is the average Spanish shoe
    (it was centred by a 52-card deck's: every Spanish index shifted by the drift)."""
    system, full = SYSTEMS[name], parse_spec("2D SP").full_shoe()
    assert not system.balanced_in(full.counts)
    assert system.balanced_in(Shoe.decks(2).counts) == system.balanced
    rest = unseen_at(system, full, (), Fraction(0), 48)
    assert rest == tuple(Fraction(n, 2) for n in full.counts)


def test_a_scaled_count_has_scaled_indices() -> None:
    """Hi-Lo with every tag x10 (or /1000) is the same count: the same shoes at ten times
    (a thousandth of) the true count, so the same index scaled, found where a search in
    whole counts to +-12 reported "no flip within reach"."""
    from analyzer.shoestate.counts import CountSystem

    hilo = SYSTEMS["hi-lo"]
    rules = parse_spec("1D H17 DOA NDAS NSPL NS ENHC")
    decisions = [parse_decision("insurance"), parse_decision("T,6vT:stand-hit")]
    base = playing_indices(rules, hilo, decisions, use_cache=False)
    for factor in (Fraction(10), Fraction(1, 1000)):
        scaled = CountSystem(f"hi-lo x{factor}", tuple(t * factor for t in hilo.tags))
        found = playing_indices(rules, scaled, decisions, use_cache=False)
        for b, f in zip(base, found, strict=True):
            assert b.index is not None and f.index is not None
            assert f.index == pytest.approx(b.index * float(factor), rel=1e-12)
            assert f.rule != b.rule and f.limit is None


@pytest.mark.parametrize(("root", "said"), [(30.0, "+12"), (-25.0, "-12"), (4.2, None)])
def test_a_search_stopped_at_its_limit_says_so(root: float, said: str | None) -> None:
    """A flip past +-12 count units is not reported as out of the shoe's reach: the
    search says where it stopped, on the side it went."""
    from analyzer.shoestate.indices import MAX_TC, IndexResult, _Search

    decision = parse_decision("16vT:stand-hit")
    search = _Search(decision, reach=MAX_TC)
    for _ in range(30):
        counts = search.next_counts()
        if not counts:
            break
        for tc in counts:
            search.values[tc] = 0.01 * (tc - root)
        search.bracket()
    assert (search.index is None) == (said is not None)
    result = IndexResult(decision, search.index, True, tuple(sorted(search.values.items())),
                         26, limit=Fraction(search.limit) if search.limit else None)
    assert ("searched to TC" in result.rule) == (said is not None)
    if said is not None:
        assert f"searched to TC {said})" in result.rule


@pytest.mark.parametrize("factor", [Fraction(3), Fraction(4), Fraction(16, 5)])
def test_the_search_step_does_not_jump_with_the_tags(factor: Fraction) -> None:
    """The step was the power of ten nearest the largest tag: at tags x3.17 it jumped from
    1 to 10, and Hi-Lo x4 printed +12.14 for +12.25 (found by a review).  It is a power of
    ten at most the largest tag, reaching 12 largest tags either way."""
    from analyzer.shoestate.counts import CountSystem
    from analyzer.shoestate.indices import count_unit

    hilo = SYSTEMS["hi-lo"]
    scaled = CountSystem("scaled", tuple(t * factor for t in hilo.tags))
    assert count_unit(scaled) == (Fraction(1), int(-(-12 * factor // 1)))
    rules = parse_spec("1D H17 DOA NDAS NSPL NS ENHC")
    decision = [parse_decision("T,6vT:stand-hit")]
    (base,) = playing_indices(rules, hilo, decision, use_cache=False)
    (found,) = playing_indices(rules, scaled, decision, use_cache=False)
    assert base.index is not None and found.index is not None
    assert abs(found.index - base.index * float(factor)) < 0.05 * float(factor)


def test_unreachable_count() -> None:
    with pytest.raises(TrueCountError, match="out of reach"):
        unseen_at(SYSTEMS["hi-lo"], Shoe.decks(1), (), Fraction(60), 26)


@pytest.mark.parametrize("decks,known,unseen,tc", [(1, (10, 10, 6), 49, 0), (1, (10, 10, 6), 49, 3),
                                                  (6, (10, 10, 6), 300, 4)])
def test_a_count_that_needs_cards_seen_less_than_none_is_out_of_reach(
        decks: int, known: tuple[int, ...], unseen: int, tc: int) -> None:
    """Each value's unseen count lies between none and what the shoe holds (its cards seen,
    0 to all).  Only the lower end was checked: one deck, 49 cards unseen (none seen at
    random) put 14.39 tens unseen of the 14 left at true count 0, 17 tens in the shoes at
    +3, and ``bja indices`` printed indices from those shoes (found by a tester); six
    decks, 300 unseen, +4 put 100.83 of 94 tens unseen."""
    with pytest.raises(TrueCountError, match="out of reach"):
        unseen_at(SYSTEMS["hi-lo"], Shoe.decks(decks), known, Fraction(tc), unseen)
    # with no random card seen, the one count in reach is that of the known cards
    reach = Fraction(-52, 49)  # T, T, 6 seen: -1 -1 +1 per 49 unseen, 52 a deck
    rest = unseen_at(SYSTEMS["hi-lo"], Shoe.decks(1), (10, 10, 6), reach, 49)
    assert rest == (4, 4, 4, 4, 4, 3, 4, 4, 4, 14)


def test_indices_at_a_depth_where_nothing_else_is_reachable() -> None:
    """``bja indices --unseen 49`` on one deck: no random card seen, so no flip is found
    (it printed +2.77 for 16 v T and +1.42 for insurance, from impossible shoes)."""
    rules = parse_spec("1D H17 DOA DAS SPL3 LS")
    found = playing_indices(rules, SYSTEMS["hi-lo"],
                            [parse_decision("16vT:stand-hit"), parse_decision("insurance")],
                            unseen=49, use_cache=False)
    assert [r.index for r in found] == [None, None]


def test_index_brackets_a_sign_change() -> None:
    """Values either side of the index have opposite signs, and one of them re-computes."""
    rules, system = parse_spec("1D H17 DOA NDAS NSPL NS ENHC"), SYSTEMS["hi-lo"]
    decision = parse_decision("T,6vT:stand-hit")
    (result,) = playing_indices(rules, system, [decision], use_cache=False)
    assert result.index is not None and result.rising
    values = dict(result.values)
    low, high = int(result.index // 1), int(result.index // 1) + 1
    assert values[low] < 0 < values[high]
    cs = count_shoe(system, Shoe.decks(1), (10, 10, 6), Fraction(high), 26)
    again = 0.0
    for weight, shoe in cs.vertices:
        actions = Analysis(rules, shoe).actions(10, (6, 10))
        again += float(weight) * float(actions[STAND] - actions[HIT])
    assert again == pytest.approx(values[high], abs=1e-12)


def test_insurance_index_is_algebraic() -> None:
    """Insurance needs only the deflected share of tens: 3 p - 1 crosses 0 where p = 1/3."""
    (result,) = playing_indices(parse_spec("6D S17 DOA DAS SPL3 LS"), SYSTEMS["hi-lo"],
                                [parse_decision("insurance")], use_cache=False)
    assert result.index is not None
    rest = unseen_at(SYSTEMS["hi-lo"], Shoe.decks(6), (1,), Fraction(result.index), 156)
    assert float(rest[9] / sum(rest)) == pytest.approx(1 / 3, abs=1e-4)  # linear between counts
    assert abs(result.index - 3) <= 0.5  # published +3


@pytest.mark.slow
def test_illustrious_18_and_fab_4_six_decks() -> None:
    """Six-deck S17 DAS LS: every index within 1 of Schlesinger's, most within his rounding."""
    rules = parse_spec("6D S17 DOA DAS SPL3 LS")
    published = [p for p in ILLUSTRIOUS_18_FAB_4
                 if not_allowed(parse_decision(p.decision), rules) is None]
    assert len(published) == 22
    results = playing_indices(rules, SYSTEMS["hi-lo"],
                              [parse_decision(p.decision) for p in published], jobs=2)
    gaps = {p.decision: r.index - p.index for p, r in zip(published, results, strict=True)
            if r.index is not None}
    assert len(gaps) == 22
    assert all(abs(g) <= 1.0 for g in gaps.values()), gaps
    assert sum(abs(g) <= 0.5 for g in gaps.values()) >= 18, gaps


@pytest.mark.parametrize("argv", [
    ["indices", "--rules", "1D NS", "--decision", "15vT:surrender-hit"],
    ["indices", "--rules", "1D NSPL", "--decision", "T,Tv6:split-stand"],
    ["indices", "--rules", "1D", "--decision", "s21vT:stand-hit"],
    ["indices", "--rules", "1D", "--unseen", "5"],
    ["indices", "--rules", "1D", "--count", "nope"],
])
def test_indices_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import main

    assert main([*argv, "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("root", [-7.3, -0.4, 0.0, 0.6, 4.97, 11.2])
@pytest.mark.parametrize("slope", [0.013, -0.05])
def test_search_finds_a_linear_crossing(root: float, slope: float) -> None:
    """The stepping search brackets the crossing between consecutive whole counts."""
    from analyzer.shoestate.indices import _Search

    search = _Search(parse_decision("16vT:stand-hit"))
    for _ in range(30):
        counts = search.next_counts()
        if not counts:
            break
        for tc in counts:
            search.values[tc] = slope * (tc - root) + 1e-4 * (tc - root) ** 2
        search.bracket()
    assert search.index is not None
    assert abs(search.index - root) < 0.01
    assert len(search.values) <= 7


def test_only_hi_lo_is_compared_with_the_published_hi_lo_indices() -> None:
    """Schlesinger's indices are Hi-Lo's: a count tagging only the 5s "agreed" with them.

    Hi-Lo is known by its tags, not its name: a count file named "hi-lo" with KO's tags
    is not compared, one named "mine" with Hi-Lo's tags is."""
    from dataclasses import replace

    from analyzer.shoestate.render_eor import efficiency_rows
    from analyzer.shoestate.render_play import indices_json, indices_text

    rules = parse_spec("1D H17 DOA NDAS NSPL NS ENHC")
    systems = {"hi-lo": (SYSTEMS["hi-lo"], True), "ko": (SYSTEMS["ko"], False),
               "hi-lo named": (replace(SYSTEMS["ko"], name="hi-lo"), False),
               "mine": (replace(SYSTEMS["hi-lo"], name="mine"), True)}
    for system, hi_lo in systems.values():
        results = playing_indices(rules, system, [parse_decision("insurance")],
                                  use_cache=False)
        data = indices_json(results, "g", "1D", system)
        assert data["system"] == system.name
        assert (data["indices"][0]["comparison"] is not None) == hi_lo
        assert (data["published_source"] is not None) == hi_lo
        assert ("'agrees'" in indices_text(results, "g", "1D", system)) == hi_lo

    class Eff:  # what efficiency_rows reads of an Efficiency
        def __init__(self, system: object) -> None:
            self.system, self.balanced = system, True
            self.betting = self.playing = self.insurance = 0.5

    fives = tuple(Fraction(int(v == 5)) for v in range(1, 11))
    effs: list[Any] = [Eff(SYSTEMS["zen"]), Eff(replace(SYSTEMS["zen"], tags=fives)),
                       Eff(replace(SYSTEMS["ko"], name="zen"))]
    rows = efficiency_rows(effs)
    assert rows[0]["published"] is not None
    assert rows[1]["published"] is None
    ko = efficiency_rows([cast(Any, Eff(SYSTEMS["ko"]))])[0]["published"]
    assert ko is not None and rows[2]["published"] == ko and rows[2]["system"] == "zen"


def test_the_fewest_unseen_cards_allowed_give_indices() -> None:
    """13 unseen cards is in the stated range, but a shoe at a count with fewer than a
    round's cards refused the whole run ("a shoe of 11 cards"; found by an adversarial
    test): such a count now ends its decision's search like an unreachable one."""
    from analyzer.shoestate.indices import MIN_UNSEEN

    rules = parse_spec("1D")
    decisions = [d for p in ILLUSTRIOUS_18_FAB_4
                 if not_allowed(d := parse_decision(p.decision), rules) is None]
    results = playing_indices(rules, SYSTEMS["hi-lo"], decisions, unseen=MIN_UNSEEN,
                              use_cache=False)
    assert len(results) == len(decisions) and any(r.index is not None for r in results)


def test_a_decision_without_a_figure_names_no_play() -> None:
    """On 13 unseen cards of a Spanish deck every count of 2,2 v T can run the shoe out,
    so no value was computed, yet the play read "hit at every count within reach" (found
    by an adversarial test).  It reads "not computed" with the reason; a search the
    shoe's reach cut short names the counts it computed."""
    from analyzer.shoestate.render_play import indices_json

    hilo = SYSTEMS["hi-lo"]
    rules = parse_spec("1D SP")
    found = playing_indices(rules, hilo, [parse_decision("2,2vT:split-hit"),
                                          parse_decision("16vT:stand-hit")], unseen=13)
    none, short = found
    assert none.values == () and none.index is None
    assert none.rule == "not computed: the shoe at this count can run out within a round"
    data = indices_json(found, "1D SP", "1D SP", hilo)["indices"]
    assert data[0]["values"] == {} and data[1]["comparison"] == "no flip found"
    assert short.index is None and [tc for tc, _ in short.values] == [0, 1]
    assert short.rule == ("hit at every count within reach (TC +0 to +1 computed; beyond: "
                          "the shoe at this count can run out within a round)")
    from analyzer.shoestate.indices import IndexResult

    bare = IndexResult(parse_decision("insurance"), None, False, (), 13, why="no shoe")
    assert bare.rule == "not computed: no shoe"  # insurance too, where no count had one
