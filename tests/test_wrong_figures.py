"""Issue 20, "wrong figures": every reproduction that printed a wrong figure with exit 0.

Each is now refused in one line (exit 2 from the CLI, an ``AnalyzerError`` from
the library) or answered correctly.  Shoes that run out are checked against the
whole-round enumerations, which raise exactly when a card is missing.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from analyzer.charts.evaluate import make_chart
from analyzer.charts.fileformat import load_chart
from analyzer.cli import main as cli_main
from analyzer.cli.main import main
from analyzer.core.cards import card_value, composition, format_value, parse_cards, parse_value
from analyzer.core.errors import (
    AnalyzerError,
    ChartError,
    HandError,
    ImpossibleShoeError,
    ShoeError,
    UsageError,
)
from analyzer.core.presets import game_rules
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe, parse_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.distribution import round_distribution
from analyzer.engine.exhaustion import RoundCheck, round_cards_bound, safe_left
from analyzer.engine.frozen import FrozenStrategy
from analyzer.engine.insurance import insurance
from analyzer.engine.splits import SplitPlan
from analyzer.oracle.split_mode import new_analysis
from analyzer.report.model import dealer_table, ev_report, hand_report
from analyzer.shoestate.counts import CountError, CountSystem, get_system
from analyzer.shoestate.edge import edge_by_count
from analyzer.shoestate.efficiency import EffectsModel, efficiency
from analyzer.shoestate.indices import playing_indices
from tests import oracle

DRY = "2:12"  # twelve 2s: every round runs out
SMALL_CARDS = "2:4,3:4,4:4,5:4"  # a split of small cards runs out


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], needle: str = "") -> str:
    """Run the CLI; assert exit 2, nothing on stdout, one line on stderr; return it."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert out == "" and err.startswith("bja: error: ") and err.count("\n") == 1, err
    assert needle in err, err
    return err


# -- 1. shoes that run out mid-round ------------------------------------------------------
@pytest.mark.parametrize("extra", [[], ["--split", "cdp1"], ["--split", "cdp"],
                                   ["--split", "optimal"], ["--split", "exact"], ["--levels"],
                                   ["--exact"]])
def test_ev_refuses_a_shoe_that_runs_out(extra: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # Was RTP 500% (cdz), 800% (cdp1), 700% (optimal), CDP 900% (--levels), exit 0.
    _refused(["ev", "--shoe", DRY, "--no-cache", *extra], capsys, "run out")


def test_ev_refuses_small_cards_whose_splits_run_out(capsys: pytest.CaptureFixture[str]) -> None:
    # Was +37.44%: the unsplit hands never run dry here, a split of 2s does.
    err = _refused(["ev", "--shoe", SMALL_CARDS, "--rules", "1D", "--no-cache"], capsys,
                   "run out")
    assert "splitting" in err


def test_hand_refuses_a_dealer_that_cannot_finish(capsys: pytest.CaptureFixture[str]) -> None:
    # Was "stand +100%": the dealer cannot finish from the one 2 left.
    _refused(["hand", "--shoe", DRY, "--up", "2", "--cards", "2,2,2,2,2,2,2,2,2"], capsys,
             "run out")


def test_distribution_refuses_a_shoe_that_runs_out(capsys: pytest.CaptureFixture[str]) -> None:
    # Was a traceback (max() arg is an empty sequence).
    _refused(["distribution", "--shoe", DRY], capsys, "run out")


def test_the_library_refuses_a_shoe_that_runs_out() -> None:
    rules = parse_spec("6D")
    for split in ("cdz", "cdp1", "cdp", "optimal"):
        with pytest.raises(ImpossibleShoeError, match="run out"):
            Analysis(rules, parse_shoe(DRY), split=split).ev()
    with pytest.raises(ImpossibleShoeError, match="run out"):
        ev_report(Analysis(rules, parse_shoe(DRY)))
    with pytest.raises(ImpossibleShoeError, match="run out"):
        hand_report(Analysis(rules, parse_shoe(DRY)), 2, (2,) * 9)
    with pytest.raises(ImpossibleShoeError, match="run out"):
        round_distribution(rules, parse_shoe(DRY))
    with pytest.raises(ImpossibleShoeError, match="run out"):
        Analysis(parse_spec("1D"), parse_shoe(SMALL_CARDS)).ev()


def test_a_hand_whose_own_play_lasts_is_still_answered() -> None:
    """Only the quantity asked for is checked: a hand that cannot run dry is valued."""
    shoe = parse_shoe("2:4,3:4,4:4,5:4,T:6")
    analysis = Analysis(parse_spec("1D NSPL"), shoe, exact=True)
    assert set(analysis.actions(5, (10, 10))) >= {0, 1}  # stand and hit on 20


def test_a_dealer_table_needs_only_the_dealer_to_finish() -> None:
    table = dealer_table(Analysis(parse_spec("6D"), parse_shoe(DRY)))
    assert [r.upcard for r in table.rows] == [2]
    assert sum(v for _, v in table.rows[0].outcomes) == 1
    check = RoundCheck(upcard=6, hits_soft_17=False, conditioned=False)
    assert check.dealer_runs_out((0, 3, 0, 0, 0, 0, 0, 0, 0, 0))  # 6-2-2-2: 12, no card
    assert not check.dealer_runs_out((0, 6, 0, 0, 0, 0, 0, 0, 0, 0))  # 6 + 2x6: 18


def test_the_bound_never_needs_a_search_for_full_decks() -> None:
    for decks in range(1, 9):
        shoe = Shoe.decks(decks)
        for hands in (1, 2, 3, 4):
            assert round_cards_bound(shoe.counts, hands) <= shoe.total
            assert safe_left(shoe.counts, hands) <= shoe.total
        rules = parse_spec(f"{decks}D SPL3")
        assert Analysis(rules)._lasts  # no search, no refusal


def test_the_bound_is_a_bound() -> None:
    """Twelve aces and a ten: the dealer's A-A-... and hands of aces take most cards."""
    counts = (40, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    # 4 hands of aces to a hard 21 (84 aces) and the dealer's: more than 40 aces.
    assert round_cards_bound(counts, 4) > 40


def _split_verdicts(rules_spec: str, counts: list[int], up: int,
                    pair: int) -> tuple[bool, bool]:
    """(whole-round enumeration runs out, the engine's check refuses) for one split."""
    rules = parse_spec(rules_spec)
    shoe = Shoe(counts)
    a = new_analysis(rules, shoe, split="exact")
    a._lasts = True  # skip the check: ask the enumeration
    try:
        a.split_value(a.upcard(up), pair)
        enumerated = False
    except ShoeError:
        enumerated = True
    b = new_analysis(rules, shoe, split="exact")
    try:
        b._check_split(b.upcard(up), SplitPlan.from_rules(rules, pair, up))
        checked = False
    except ImpossibleShoeError:
        checked = True
    return enumerated, checked


def _split_cases(seed: int, n: int) -> list[tuple[list[int], int, int]]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        counts = [0] * 10
        for _ in range(rng.randint(13, 17)):
            counts[rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9])] += 1
        ups = [u for u in range(1, 11) if counts[u - 1]]
        up = rng.choice(ups)
        pairs = [p for p in range(1, 11) if counts[p - 1] - (p == up) >= 2]
        if pairs and (up not in (1, 10) or sum(counts) - counts[11 - up - 1 if up == 10 else 9]
                      > 3):
            cases.append((counts, up, rng.choice(pairs)))
    return cases


@pytest.mark.parametrize(("spec", "seed"), [("1D S17 DOA DAS SPL3 LS", 7),
                                            ("1D H17 D10 NDAS SPL1 LS ENHC OBO", 1)])
def test_split_check_agrees_with_whole_round_enumeration(spec: str, seed: int) -> None:
    """The check refuses exactly the splits whose enumerated rounds run out (CDZ- play)."""
    seen = set()
    for counts, up, pair in _split_cases(seed, 10):
        try:
            enumerated, checked = _split_verdicts(spec, counts, up, pair)
        except AnalyzerError:
            continue  # a deal the engine refuses for another reason
        assert enumerated == checked, (counts, up, pair)
        seen.add(checked)
    assert seen == {False, True}  # both verdicts were tested


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["1D S17 DOA DAS SPL3 LS", "1D H17 D10 NDAS SPL1 LS ENHC OBO",
                                  "1D S17 DOA DAS SPL3 HSA RSA ENHC", "1D S17 D9 DAS SPL2 NS"])
def test_split_check_agrees_with_whole_round_enumeration_many(spec: str) -> None:
    for counts, up, pair in _split_cases(11, 60):
        try:
            enumerated, checked = _split_verdicts(spec, counts, up, pair)
        except AnalyzerError:
            continue
        assert enumerated == checked, (counts, up, pair)


@pytest.mark.parametrize("counts", [
    (0, 4, 4, 4, 0, 0, 0, 0, 0, 0),  # runs out ...
    (0, 3, 4, 4, 1, 0, 0, 0, 0, 0),  # ... and with a 5 for a 2, does not
    (0, 6, 4, 2, 0, 0, 0, 0, 0, 0),  # runs out
    (0, 5, 4, 3, 0, 0, 0, 0, 0, 1),  # does not
])
def test_hand_check_agrees_with_the_brute_force_oracle(counts: tuple[int, ...]) -> None:
    """Without splits, a round is refused exactly when the oracle must draw from nothing."""
    mine, theirs = _round_verdicts("1D S17 DOA NDAS NSPL NS", counts)
    assert mine == theirs


def _round_verdicts(spec: str, counts: tuple[int, ...]) -> tuple[Fraction | None,
                                                                 Fraction | None]:
    """The round's exact EV from the engine and from the brute-force oracle, None where
    either refuses the shoe (the engine) or draws from nothing (the oracle)."""
    rules = parse_spec(spec)
    try:
        mine: Fraction | None = Analysis(rules, Shoe(counts), exact=True).ev()
    except ImpossibleShoeError:
        mine = None
    try:
        theirs: Fraction | None = oracle.round_ev(rules, counts)
    except oracle.ShoeExhausted:
        theirs = None
    finally:
        oracle.clear_caches()
    return mine, theirs


@pytest.mark.parametrize(("spec", "counts", "ev"), [
    # A Charlie is paid whatever the dealer draws: these were refused ("a hand vs 2 may
    # need a card", "splitting"), though no round runs out (found by an independent
    # oracle tester).
    # Twelve 2s and 3s: a hand stands on at most four cards (12 points), leaving the
    # dealer 18; hitting always reaches the Charlie, a sure win.
    ("1D S17 DOA NSPL NS CH5", (0, 6, 6, 0, 0, 0, 0, 0, 0, 0), Fraction(1)),
    ("1D S17 DOA NSPL NS CH4", (0, 8, 4, 0, 0, 0, 0, 0, 0, 0), Fraction(1)),
    ("1D S17 DOA NSPL NS CH4 PEEKA", (7, 0, 5, 0, 0, 0, 0, 0, 0, 0), Fraction(1)),
    ("1D S17 DOA NSPL NS CH5 ENHC CHBJ", (5, 5, 0, 0, 4, 0, 0, 0, 0, 0),
     Fraction(125621, 126126)),
    ("1D S17 DOA SPL1 NS CH5", (0, 6, 0, 6, 0, 0, 0, 0, 0, 0), Fraction(16, 11)),
    ("1D S17 DOA SPL1 NS CH5", (0, 5, 5, 0, 0, 0, 0, 0, 0, 4), Fraction(31937, 126126)),
    # a split hand doubled into a three-card Charlie
    ("1D S17 DOA DAS SPL1 NS CH3", (0, 6, 0, 0, 6, 0, 0, 0, 0, 0), Fraction(32, 11)),
    # No peek: a blackjack may beat the Charlie, so the hole card decides it.
    ("1D S17 DOA NSPL NS CH4 ENHC", (1, 8, 2, 0, 0, 0, 0, 0, 0, 1), Fraction(43, 44)),
    ("1D S17 DOA NSPL NS CH4 ENHC", (2, 8, 1, 0, 0, 0, 0, 0, 0, 1), None),  # runs out
    ("1D S17 DOA SPL1 NS CH4 ENHC", (8, 0, 0, 0, 5, 0, 0, 0, 0, 0), Fraction(44, 39)),
    ("1D S17 DOA DAS SPL3 NS CH3 ENHC", (5, 0, 0, 0, 0, 9, 0, 0, 0, 0), Fraction(314, 77)),
    ("1D H17 DOA DAS SPL1 LS CH4 ENHC OBO", (3, 3, 0, 0, 3, 0, 0, 0, 0, 4),
     Fraction(118787, 300300)),
    ("1D H17 DOA DAS SPL1 LS CH4 ENHC OBO", (0, 5, 4, 0, 0, 0, 0, 0, 0, 4), None),
])
def test_a_charlie_needs_no_dealer_cards(spec: str, counts: tuple[int, ...],
                                         ev: Fraction | None) -> None:
    """Refused exactly where the brute-force oracle must draw from nothing, and where
    not, the oracle's figure; the verdicts and figures are the oracle's, on record."""
    mine, theirs = _round_verdicts(spec, counts)
    assert mine == theirs == ev


def test_a_charlie_waits_at_most_for_the_hole_card() -> None:
    five = (0, 5, 0, 0, 0, 0, 0, 0, 0, 0)  # five 2s: a five-card Charlie
    empty = (0,) * 10
    peeked = RoundCheck(upcard=1, hits_soft_17=False, conditioned=True, charlie=5,
                        hole_decides_charlie=False)
    assert not peeked.hand_runs_out(empty, five)
    unchecked = RoundCheck(upcard=1, hits_soft_17=False, conditioned=False, charlie=5)
    assert unchecked.hand_runs_out(empty, five)  # no hole card: the blackjack undecided
    assert not unchecked.hand_runs_out((0, 0, 0, 0, 0, 0, 0, 0, 0, 1), five)


def test_depleted_shoes_of_the_shoe_state_studies_are_refused_before_work() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL3 NS CUT40")
    with pytest.raises(UsageError, match="run out"):
        edge_by_count(rules, get_system("hi-lo"), states=2, count_samples=2, use_cache=False)


# -- 2. a natural has no decision ----------------------------------------------------------
def test_a_natural_has_no_decision(capsys: pytest.CaptureFixture[str]) -> None:
    # Was: stand +90.2%, hit, double and surrender offered for A,T vs 6.
    assert main(["hand", "--up", "6", "--cards", "A,T", "--rules", "LS", "--json",
                 "--exact"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["actions"] == {} and data["best"] is None
    assert data["blackjack"] == 1.5 and data["blackjack_exact"] == "3/2"
    analysis = Analysis(parse_spec("1D LS"), exact=True)
    assert analysis.actions(6, (1, 10)) == {} == analysis.hand_actions(6, (10, 1))
    report = hand_report(analysis, 10, (1, 10), unconditioned=True)
    rest = Shoe.decks(1).remove([10, 1, 10])
    assert report.actions == () and report.blackjack == Fraction(3, 2) * (
        1 - Fraction(rest[1], rest.total))  # pushed by the dealer's blackjack
    assert hand_report(analysis, 10, (1, 10)).blackjack == Fraction(3, 2)  # peeked: none
    assert main(["hand", "--up", "6", "--cards", "A,T"]) == 0
    text = capsys.readouterr().out
    assert "blackjack" in text and "stand" not in text


@pytest.mark.parametrize("spec", ["1D S17 DOA CH5", "INF S17 DOA CH5"])
def test_no_hand_holds_more_cards_than_its_charlie(
        spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A Charlie ends a hand at its card count: a hand of more cards cannot be played.
    Was: 2-2-2-2-3-3-3-A under CH7 (eight cards), "stand +100%", exit 0 (found by a
    newcomer tester); the infinite deck read six cards as five."""
    assert main(["hand", "--rules", spec, "--up", "6", "--cards", "2,2,2,A,A,A"]) == 2
    assert capsys.readouterr().err.strip() == (
        "bja: error: hand 2-2-2-A-A-A holds 6 cards: under CH5 a hand ends as a Charlie at 5")
    assert main(["hand", "--rules", spec, "--up", "6", "--cards", "2,2,2,A,A", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == {"stand": 1.0}
    # the text says why the only action is "stand" (a newcomer read it as a choice)
    assert main(["hand", "--rules", spec, "--up", "6", "--cards", "2,2,2,A,A"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "a 5-card Charlie: the hand takes no more cards and is paid as a Charlie "
        "(listed as stand)")
    assert main(["hand", "--rules", spec, "--up", "6", "--cards", "2,2,2,A"]) == 0
    assert "Charlie" not in capsys.readouterr().out  # four cards: a hand still to play


def test_a_split_ace_and_ten_still_plays() -> None:
    """After a split A-T is a 21, not a natural: three cards and split play are unchanged."""
    analysis = Analysis(parse_spec("6D"))
    assert set(analysis.actions(6, (1, 10, 10))) == {0, 1}
    assert 3 in analysis.actions(6, (1, 1))  # the aces split


# -- 3. public functions validate their arguments -------------------------------------------
@pytest.mark.parametrize("upcard", [0, -1, 11, True, 6.0, "6", None])
def test_hand_report_refuses_a_bad_upcard(upcard: object) -> None:
    # Upcard 0 and -1 returned figures (read as a ten and a nine).
    with pytest.raises(HandError):
        hand_report(Analysis(parse_spec("6D")), upcard, (10, 6))  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", [(0, 6), (-1, 6), (11, 6), (True, 6), (6.0, 5), "T6", 16])
def test_hand_report_refuses_bad_cards(cards: object) -> None:
    # (0, 6) was read as T,6 and (-1, 6) as 9,6.
    with pytest.raises(HandError):
        hand_report(Analysis(parse_spec("6D")), 6, cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("jobs", [1.5, True, 0, -2, "2"])
def test_jobs_must_be_a_positive_whole_number(jobs: object) -> None:
    # jobs=1.5 was accepted.
    with pytest.raises(UsageError):
        Analysis(parse_spec("6D"), jobs=jobs)  # type: ignore[arg-type]


def test_library_entry_points_check_their_types() -> None:
    rules = parse_spec("6D")
    with pytest.raises(UsageError):
        Analysis("6D")  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        Analysis(rules, (24,) * 9 + (96,))  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        Analysis(rules, exact=1)  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        ev_report("analysis")  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        dealer_table(None)  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        hand_report(Analysis(rules), 6, (10, 6), unconditioned="yes")  # type: ignore[arg-type]
    with pytest.raises(HandError):
        Analysis(rules).upcard(0)
    with pytest.raises(HandError):
        insurance(Shoe.decks(1), (0, 6))
    with pytest.raises(ShoeError):
        insurance("1D")  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        FrozenStrategy("analysis")  # type: ignore[arg-type]
    with pytest.raises(HandError):
        FrozenStrategy(Analysis(rules)).decide(0, composition((10, 6)), frozenset({0, 1}))
    with pytest.raises(UsageError):
        make_chart(rules, None)  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        make_chart(rules, "t", by_cards=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("counts", [[True] * 10, [4.0] * 9 + [16.0], [4] * 9 + [-1]])
def test_shoe_counts_are_whole_numbers(counts: list[object]) -> None:
    with pytest.raises(ShoeError):
        Shoe(counts)  # type: ignore[arg-type]
    with pytest.raises(ShoeError):
        Shoe("A:4")  # type: ignore[arg-type]
    with pytest.raises(ShoeError):
        Shoe.decks(True)


def test_card_helpers_refuse_what_is_not_a_card() -> None:
    for bad in (0, -1, 11, True, 6.0, "6"):
        with pytest.raises(HandError):
            card_value(bad)
        with pytest.raises(HandError):
            composition((bad, 6))  # type: ignore[arg-type]
        with pytest.raises(HandError):
            format_value(bad)  # type: ignore[arg-type]
    with pytest.raises(HandError):
        parse_cards(16)  # type: ignore[arg-type]
    with pytest.raises(HandError):
        parse_value(6)  # type: ignore[arg-type]
    with pytest.raises(HandError):
        Shoe.decks(1)[0]
    with pytest.raises(HandError):
        Shoe.decks(1).remove([0])
    import numpy as np
    assert card_value(np.int64(6)) == 6 and composition((np.int64(10), 6)) == composition((10, 6))


# -- 4. chart files -----------------------------------------------------------------------
@cache
def _exported(spec: str, game: str | None = None) -> str:
    rules = game_rules(game, spec)
    from analyzer.charts.fileformat import format_chart
    return format_chart(make_chart(rules, "t").chart)


@pytest.fixture(scope="module")
def free_bet_chart() -> str:
    return _exported("", "free-bet")


def test_a_misspelt_section_is_refused(tmp_path: Path, free_bet_chart: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # Was evaluated with the section ignored: EV -1.5596% instead of -1.5534%.
    path = tmp_path / "c.csv"
    path.write_text(free_bet_chart.replace("[free-bet-hand]", "[free-bet-hnd]"))
    _refused(["evaluate", "--game", "free-bet", "--chart", str(path)], capsys,
             "unknown section [free-bet-hnd]")
    rules = game_rules("free-bet", "")
    path.write_text(free_bet_chart)
    assert len(load_chart(path, rules).sections) == 2  # the file as written is read


@pytest.mark.parametrize(("spec", "edit", "needle"), [
    ("1D NSPL", lambda t: t + "P8,P,P,P,P,P,P,P,P,P,P\n", "never split (NSPL)"),
    ("6D NSA", lambda t: t + "PA,P,P,P,P,P,P,P,P,P,P\n", "never split aces"),
    ("6D", lambda t: t + "[free-bet-hand]\n", "free splits"),
    ("6D", lambda t: t + "[extra]\nH16,S,S,S,S,S,H,H,H,H,H\n", "unknown section [extra]"),
    ("6D", lambda t: t + "[main]\n", "appears twice"),
    ("1D CH5", lambda t: t + "H16/5,S,S,S,S,S,H,H,H,H,H\n", "Charlie"),
    ("6D", lambda t: t.replace("H16,", "H16,S,S,S,S,S,S,S,S,S,S\nH16,", 1), "twice"),
])
def test_a_chart_row_the_rules_never_use_is_refused(tmp_path: Path, spec: str, edit: object,
                                                    needle: str) -> None:
    text = _exported(spec)
    path = tmp_path / "c.csv"
    path.write_text(text)
    load_chart(path, parse_spec(spec))  # the exported chart reads back
    path.write_text(edit(text))  # type: ignore[operator]
    with pytest.raises(ChartError, match="line ") as err:
        load_chart(path, parse_spec(spec))
    assert needle in str(err.value)


def test_codes_other_than_hit_and_stand_in_the_free_bet_hand(tmp_path: Path,
                                                              free_bet_chart: str) -> None:
    head, free = free_bet_chart.split("[free-bet-hand]\n")
    path = tmp_path / "c.csv"
    path.write_text(head + "[free-bet-hand]\n" + free.replace("H10,H,", "H10,D,", 1))
    with pytest.raises(ChartError, match="code D in .free-bet-hand"):
        load_chart(path, game_rules("free-bet", ""))


# -- 5. counts ------------------------------------------------------------------------------
def _scaled(scale: Fraction) -> CountSystem:
    hi_lo = get_system("hi-lo")
    return CountSystem(name="scaled", tags=tuple(t * scale for t in hi_lo.tags))


def _model() -> EffectsModel:
    from analyzer.shoestate.published import WIZARD_6D_S17
    eor = tuple(WIZARD_6D_S17.eor_percent[v] / 100 for v in range(1, 11))
    return EffectsModel(spec="6D", shoe=Shoe.decks(6).counts, penetration=234, game_eor=eor,
                        optimal_game_eor=eor, insurance_eor=(1.0,) * 9 + (-2.25,), decisions=())


def test_absurd_tags_are_refused() -> None:
    # x1e-300 printed BC 0.000 (the same count at +-1: 0.371); +-1e308 gave bare NaN in JSON.
    for scale in (Fraction(1, 10**300), Fraction(10**308)):
        with pytest.raises(CountError, match="magnitude"):
            _scaled(scale)


def test_tags_at_any_allowed_scale_give_the_same_correlations() -> None:
    base = efficiency(_model(), get_system("hi-lo"))
    for scale in (Fraction(1, 10**5), Fraction(10**5), Fraction(-3, 7)):
        got = efficiency(_model(), _scaled(scale))
        assert abs(got.betting - base.betting * (1 if scale > 0 else -1)) < 1e-12
        assert abs(got.insurance - base.insurance * (1 if scale > 0 else -1)) < 1e-12


def test_a_count_file_with_huge_tags_is_one_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.toml"
    tags = "\n".join(f"{k} = {v}" for k, v in zip("A23456789T", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
                                                      strict=True))
    path.write_text("[tags]\n" + tags.replace("= 1", "= 1e308").replace("= -1", "= -1e308"))
    _refused(["counts", "--rules", "1D", "--count", str(path), "--json"], capsys, "magnitude")


def test_json_output_never_holds_nan(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AnalyzerError, match="finite"):
        cli_main._write({"bc": float("nan")})
    with pytest.raises(AnalyzerError, match="finite"):
        cli_main._write({"bc": [float("inf")]})
    assert capsys.readouterr().out == ""


# -- 6. shoe-state options out of range -----------------------------------------------------
@pytest.mark.parametrize("unseen", ["1000000", "310", "12"])
def test_indices_refuse_an_impossible_number_of_unseen_cards(
        unseen: str, capsys: pytest.CaptureFixture[str]) -> None:
    # --unseen 1000000 answered "no flip found".
    _refused(["indices", "--unseen", unseen, "--no-cache", "--decision", "16vT:stand-hit"],
             capsys, "unseen")


def test_library_indices_and_edge_check_their_numbers() -> None:
    rules = parse_spec("6D")
    for bad in (10**6, 5, True, 26.0):
        with pytest.raises(UsageError):
            playing_indices(rules, get_system("hi-lo"), [], unseen=bad)  # type: ignore[arg-type]
    cut = parse_spec("6D CUT234")
    for kwargs in ({"states": 1}, {"states": 2.5}, {"count_samples": True}, {"seed": -1},
                   {"cut": -5}, {"jobs": 0}):
        with pytest.raises(UsageError):
            edge_by_count(cut, get_system("hi-lo"), use_cache=False, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("argv", [
    ["edge", "--rules", "6D CUT234", "--states", "1"],
    ["edge", "--rules", "6D CUT234", "--samples", "0"],
    ["edge", "--rules", "6D CUT234", "--seed", "-1"],
    ["edge", "--rules", "6D", "--cut", "300"],
    ["edge", "--rules", "6D CUT234", "--jobs", "0"],
    ["counts", "--jobs", "0"],
    ["eor", "--jobs", "0"],
    ["indices", "--jobs", "0"],
])
def test_shoe_state_numbers_out_of_range_are_one_line(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _refused([*argv, "--no-cache"], capsys)


@pytest.mark.parametrize("cards", ["5,,6", ",8,8", "8,8,", "T,,"])
def test_an_empty_place_between_commas_is_refused(cards: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``5,,6`` was read as 5,6 (a card left out is another hand), exit 0; the library's
    ``["8", "", "8"]`` was already refused."""
    from analyzer.api import hand
    from analyzer.core.errors import CardNotationError

    assert main(["hand", "--rules", "1D", "--up", "6", "--cards", cards]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: an empty place between commas") and err.count("\n") == 1
    with pytest.raises(CardNotationError, match="empty place"):
        hand("1D", "6", cards)
    assert parse_cards("T, 6") == parse_cards("T 6") == parse_cards(" T,6 ") == (10, 6)


@pytest.mark.parametrize("shoe", ["2:6,3:6", "2:9,3:3", "4:5,5:5,6:2", "7:4,8:4,9:4"])
def test_no_dealer_outcome_is_below_zero_and_no_stand_below_minus_one(shoe: str) -> None:
    """Busting on 23+ is the float remainder ``1 - sum``: where the dealer cannot bust it
    was -2.2e-16, and ``bja hand --rules "1D CH5 NSPL" --shoe 2:6,3:6 --up 2 --cards 2,3``
    printed stand -1.0000000000000004 in its JSON (exact: -1)."""
    import numpy as np

    from analyzer.engine.dealer import outcome_matrix

    counts = np.array(parse_shoe(shoe).counts, dtype=np.int64)
    every = np.array([counts - np.bincount(np.array([a, b, c]), minlength=11)[1:]
                      for a in range(1, 11) for b in range(1, 11) for c in range(1, 11)])
    every = every[(every >= 0).all(axis=1)]
    for upcard in range(1, 11):
        for h17 in (False, True):
            rows = outcome_matrix(upcard, h17, every, exact=False)
            assert rows.min() >= 0.0, (upcard, h17)
    analysis = Analysis(parse_spec("1D CH5 NSPL"), parse_shoe(shoe))
    for up in sorted({v for v in range(1, 11) if parse_shoe(shoe).counts[v - 1]}):
        for key in analysis.upcard(up).values.space.index:
            if len(key) != 2 or key[0] == key[1]:
                continue
            try:
                actions = analysis.hand_actions(up, key)
            except AnalyzerError:  # this shoe cannot deal the hand against the upcard
                continue
            assert min(actions.values()) >= -2.0 and actions[0] >= -1.0, (up, key, actions)


def test_what_an_input_tester_found_in_the_library() -> None:
    """A misspelt field was Python's TypeError, not the project's error; numpy's counts were
    refused (a notebook's shoe); ``True`` and ``1.0`` from a strategy were played as HIT."""
    import numpy as np

    from analyzer.core.errors import RuleError
    from analyzer.core.rules import Rules

    with pytest.raises(RuleError, match="no field 'hit_soft_17'"):
        Rules(hit_soft_17=True)  # type: ignore[call-arg]
    with pytest.raises(RuleError, match="one spec"):
        Rules("6D", "H17")  # type: ignore[misc]
    counts = (4,) * 9 + (16,)
    assert Shoe(np.array(counts, dtype=np.int64)) == Shoe(counts)
    assert all(type(n) is int for n in Shoe(np.array(counts, dtype=np.int32)).counts)
    for bad in (np.bool_(True), np.float64(4.0), 4.0):
        with pytest.raises(ShoeError):
            Shoe((bad,) * 10)

    class Answers:
        def __init__(self, action: object) -> None:
            self.action = action

        def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> object:
            return self.action if 1 in options else min(options)

    rules = parse_spec("1D NSPL")
    hit_all = Analysis(rules, strategy=Answers(1)).ev()  # type: ignore[arg-type]
    assert Analysis(rules, strategy=Answers(np.int64(1))).ev() == hit_all  # type: ignore[arg-type]
    for bad_action in (True, 1.0):
        with pytest.raises(UsageError, match="not one of the options"):
            Analysis(rules, strategy=Answers(bad_action)).ev()  # type: ignore[arg-type]
