"""The distribution of a round's net result (analyzer.engine.distribution) against references.

* Eric Farmer's analyzer (v7.6, ``blackjack_pdf.cpp``) prints the exact outcome
  distribution and SD of a no-resplit CDZ- game: every probability (9 decimals)
  and the SD (9 decimals of a percent) must agree to the last printed digit.
  Sources: ``tests/reference/farmer-ca/1d-h17-ndas-spl1-ns-cdz.txt`` and
  ``8d-s17-das-spl1-ls-cdz.txt`` (his binary run on this project's machine, the input
  recorded in each file).
* The independent brute-force enumerator ``tests/oracle_distribution.py`` (built on
  ``tests/oracle.py``) must give the same distribution as fractions on small shoes,
  splits, resplits and the seed games' rules included.
* Invariants: the distribution sums to 1 (exactly in exact mode) and its mean is
  the engine's EV of the same strategy (exactly, or to 1e-12 in floats).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from analyzer.core.errors import UsageError
from analyzer.core.presets import game_rules
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dist_blocks import resplit_patterns
from analyzer.engine.distribution import RoundDistribution, round_distribution
from tests.distribution_checks import check_against_the_oracle
from tests.farmer_reference import REFERENCE_DIR

FARMER = {
    "1d-h17-ndas-spl1-ns-cdz.txt": "1D H17 DOA NDAS SPL1 NS",
    "8d-s17-das-spl1-ls-cdz.txt": "8D S17 DOA DAS SPL1 LS",
}


def _farmer_table(name: str) -> tuple[dict[Fraction, float], float]:
    """Farmer's "Outcome | Probability" table and his "+/- sigma" (percent)."""
    text = (REFERENCE_DIR / name).read_text()
    rows = re.findall(r"^\s*(-?\d+\.\d)\s+\|\s+(\d\.\d{9})$", text, re.M)
    sigma = float(re.search(r"Total \|\s+-?\d+\.\d+ \+/- (\d+\.\d{9})", text).group(1))  # type: ignore[union-attr]
    return {Fraction(x).limit_denominator(10): float(p) for x, p in rows}, sigma


@cache
def _dist(spec: str, game: str | None = None) -> RoundDistribution:
    return round_distribution(game_rules(game, spec) if game else parse_spec(spec))


@pytest.mark.slow
@pytest.mark.parametrize("name", FARMER)
def test_farmer_outcome_table_and_sd(name: str) -> None:
    table, sigma = _farmer_table(name)
    dist = _dist(FARMER[name])
    assert set(dist.probabilities) == set(table)
    for x, p in table.items():
        assert round(dist.probabilities[x], 9) == pytest.approx(p, abs=1e-12), x
    mean = dist.mean
    sd = math.sqrt(sum(p * (float(x) - mean) ** 2 for x, p in dist.probabilities.items()))
    assert round(sd * 100, 9) == pytest.approx(sigma, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["charlie7", "free-bet"])
def test_seed_games_sum_to_one_and_mean_is_ev(game: str) -> None:
    dist = _dist("", game)
    assert dist.error_bound == 0
    assert abs(dist.total - 1) < 1e-12
    assert abs(dist.mean - Analysis(game_rules(game)).ev()) < 1e-12


def test_resplit_patterns() -> None:
    # Four hands: hand 1 may draw up to two pair cards, etc.; every way counted once.
    found = resplit_patterns(4, True)
    assert found[(2, 0)] == 1  # no resplit: both second cards non-pair
    assert sum(found.values()) == 1 + 2 + 5  # 2 hands, 3 hands (2 ways), 4 hands (5 ways)
    assert resplit_patterns(4, False) == {(0, 2): 1}


SHOE = (2, 1, 1, 2, 1, 2, 1, 1, 1, 4)  # 16 cards (the oracle tests' shoe)
SMALL = (1, 1, 1, 2, 1, 1, 1, 2, 1, 3)  # 14 cards, pairs of 4s and 8s
RESPLIT = (1, 1, 0, 3, 1, 1, 1, 3, 1, 3)  # 15 cards: three 4s and 8s, so resplits happen
# (16 cards cost over 10 minutes of exact arithmetic; 15 about one)
ORACLE_CASES = [
    pytest.param("1D S17 DOA NDAS NSPL NS", SMALL, id="no-split"),
    pytest.param("1D H17 DOA DAS SPL1 LS", SMALL, id="split-DAS-LS"),
    pytest.param("1D S17 DOA NDAS SPL1 ES ENHC", SMALL, id="ENHC-ES"),
    pytest.param("1D S17 DOA DAS SPL1 NS ENHC OBO", SMALL, id="ENHC-OBO"),
    pytest.param("1D S17 DOA NDAS SPL3 NS", RESPLIT, id="resplit-4-hands"),
    pytest.param("1D S17 DOA DAS SPL1 LS CH5 A21", SMALL, id="charlie7-like"),
    pytest.param("1D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9", SMALL,
                 id="free-bet-like"),
    # Resplits on the 15-card shoe: on SMALL the oracle's hands can exhaust the shoe.
    pytest.param("1D S17 DOA NDAS SPL3 LS NSA SNA", RESPLIT, id="privilege-like"),
    pytest.param("1D S17 DOA NDAS SPL2 NS BJ6:5", RESPLIT, id="four-jacks-like-6:5"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "counts"), ORACLE_CASES)
def test_brute_force_oracle(spec: str, counts: tuple[int, ...]) -> None:
    check_against_the_oracle(spec, counts)


def test_small_shoe_exact_and_float_agree() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL1 LS")
    exact = round_distribution(rules, Shoe(SMALL), exact=True)
    floats = round_distribution(rules, Shoe(SMALL))
    assert exact.total == 1
    assert exact.mean == Analysis(rules, Shoe(SMALL), exact=True).ev()
    assert set(exact.probabilities) == set(floats.probabilities)
    for x, p in exact.probabilities.items():
        assert floats.probabilities[x] == pytest.approx(float(p), abs=1e-14)


@pytest.mark.parametrize("exact", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_forked_upcards_give_the_same_bits(exact: bool) -> None:
    """``jobs=2`` (upcards in forked processes) against the serial run: equal, not close."""
    if exact:  # resplits on a small shoe: every hand and the dealer enumerated jointly
        rules, shoe = parse_spec("1D H17 DOA DAS SPL3 LS"), Shoe(RESPLIT)
    else:
        rules, shoe = parse_spec("1D S17 DOA DAS SPL1 LS"), None
    serial = round_distribution(rules, shoe, exact=exact)
    forked = round_distribution(rules, shoe, exact=exact, jobs=2)
    assert forked.by_upcard == serial.by_upcard
    assert forked.probabilities == serial.probabilities
    assert forked.error_bound == serial.error_bound


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import main

    with pytest.raises(UsageError, match=r"jobs must be a whole number 1 to 256 \(proc"):
        round_distribution(parse_spec("1D S17"), jobs=0)
    with pytest.raises(SystemExit) as refused:  # the option's parser: argparse's exit
        main(["distribution", "--rules", "1D S17", "--jobs", "0"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs must be a whole number 1 to 256, not '0'" in err


@pytest.mark.slow
def test_approximated_rounds_carry_at_least_their_exact_total() -> None:
    """Where a further hand's kind is narrower than every hand (no pair card first, a
    resplit still open), its law normalised over that kind gives the approximated rounds
    more than their exact total: the printed total passes 1, by less than the bound, and
    every probability stays within the bound (session 57: Spanish 21's total 1.0000189)."""
    rules = parse_spec("1D H17 DOA DAS SPL3 RSA LS")
    exact = round_distribution(rules, budget=10**9, jobs=2)
    rough = round_distribution(rules, budget=300, jobs=2)
    assert exact.error_bound == 0 and abs(sum(exact.probabilities.values()) - 1) < 1e-12
    excess = sum(rough.probabilities.values()) - 1
    assert 1e-6 < excess <= rough.error_bound
    for x in set(exact.probabilities) | set(rough.probabilities):
        gap = abs(exact.probabilities.get(x, 0) - rough.probabilities.get(x, 0))
        assert gap <= rough.error_bound, x


@pytest.mark.slow
def test_resplit_error_bound_holds() -> None:
    """With no budget, 3-4 hand rounds are approximated: the bound must cover the error."""
    rules = parse_spec("1D S17 DOA NDAS SPL3 NS")  # with DAS this shoe costs many minutes
    exact = round_distribution(rules, Shoe(RESPLIT), exact=True)
    rough = round_distribution(rules, Shoe(RESPLIT), exact=True, budget=0)
    assert exact.error_bound == 0 and rough.error_bound > 0
    assert rough.total == 1
    for x in set(exact.probabilities) | set(rough.probabilities):
        gap = abs(exact.probabilities.get(x, 0) - rough.probabilities.get(x, 0))
        assert gap <= rough.error_bound, x
    assert abs(exact.mean - rough.mean) <= 16 * rough.error_bound
    # its printed mean is no exact EV: said so, and no fraction is printed for it (it looked
    # exact beside the engine's EV; found by an adversarial test)
    from analyzer.report.distribution_model import DistributionReport
    from analyzer.report.distribution_render import render_text

    ev = Analysis(rules, Shoe(RESPLIT), exact=True).ev()
    text = render_text(DistributionReport(dist=rough, title="t", ev=ev))
    line = next(x for x in text.splitlines() if x.startswith("expected value"))
    assert "the EV is the engine's" in line and "/" not in line
    line = next(x for x in render_text(DistributionReport(dist=exact, title="t", ev=ev))
                .splitlines() if x.startswith("expected value"))
    assert "/" in line  # an exact distribution's mean: the fraction


@pytest.mark.slow
def test_chart_strategy_mean_is_chart_ev() -> None:
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.strategy import ChartStrategy

    rules = parse_spec("1D H17 DOA NDAS SPL1 LS")
    chart = ChartStrategy(make_chart(rules, "test").chart, rules)
    dist = round_distribution(rules, strategy=chart)
    assert abs(dist.total - 1) < 1e-12
    assert abs(dist.mean - Analysis(rules, strategy=chart).ev()) < 1e-12


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from analyzer.cli.main import main

    shoe = "A:1,2:1,3:1,4:2,5:1,6:1,7:1,8:2,9:1,T:3"
    assert main(["distribution", "--rules", "1D S17 DOA NDAS NSPL NS", "--shoe", shoe,
                 "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = {Fraction(k): Fraction(v) for k, v in data["distribution_exact"].items()}
    assert sum(exact.values()) == 1
    assert data["ev_exact"] == str(sum(x * p for x, p in exact.items()))
    assert data["ev"] == data["engine_ev"]
    assert set(data) >= {"ev", "variance", "sd", "distribution"}
    assert abs(data["sd"] ** 2 - data["variance"]) < 1e-12


def test_cli_bad_game(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import main

    assert main(["distribution", "--game", "nope"]) == 2
    assert capsys.readouterr().err.startswith("bja: error: unknown game")


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "counts"), [("1D S17 DOA DAS SPL1 LS", SMALL),
                                              ("1D S17 DOA NDAS SPL2 NS", RESPLIT)])
def test_pairing_by_slices_gives_the_same_fractions(spec: str, counts: tuple[int, ...],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Splits paired a few head sets at a time (the memory bound) give the same figures."""
    import analyzer.engine.dist_splits as dist_splits

    rules = parse_spec(spec)
    whole = round_distribution(rules, Shoe(counts), exact=True)
    floats = round_distribution(rules, Shoe(counts))
    # a few pairs at a time: the pairing in slices, a hand's rounds added in slices and
    # merged twice (too many pairs of results to tabulate)
    monkeypatch.setattr(dist_splits, "PAIRS_AT_ONCE", 5)
    sliced = round_distribution(rules, Shoe(counts), exact=True)
    assert sliced.by_upcard == whole.by_upcard and sliced.error_bound == whole.error_bound == 0
    assert sliced.mean == Analysis(rules, Shoe(counts), exact=True).ev()
    sliced_floats = round_distribution(rules, Shoe(counts))
    for u, dist in floats.by_upcard.items():
        assert sliced_floats.by_upcard[u] == pytest.approx(dist, rel=0, abs=1e-15)


def test_error_bounds_of_the_figures_hold() -> None:
    """Resplit rounds approximated (no budget): every probability, the SD and the hit
    frequency within their printed bounds of the jointly enumerated figures."""
    from analyzer.report.distribution_model import make_report

    rules = parse_spec("1D S17 DOA NDAS SPL3 NS")
    whole = make_report(round_distribution(rules, Shoe(RESPLIT)), "x", 0.0)
    rough = make_report(round_distribution(rules, Shoe(RESPLIT), budget=0), "x", 0.0)
    e = float(rough.dist.error_bound)
    assert whole.dist.error_bound == 0 and e > 0 and rough.sd_bound > 0
    for x in set(whole.probabilities) | set(rough.probabilities):
        assert abs(whole.probabilities.get(x, 0) - rough.probabilities.get(x, 0)) <= e
    # the bound is the approximated rounds' total probability, which the approximation
    # keeps: the two laws differ by at most 2e in all, and any set of results by e
    assert sum(abs(whole.probabilities.get(x, 0) - rough.probabilities.get(x, 0))
               for x in set(whole.probabilities) | set(rough.probabilities)) <= 2 * e
    assert set(whole.probabilities) <= set(rough.probabilities)  # within the printed range
    assert abs(whole.sd - rough.sd) <= rough.sd_bound
    for test in (lambda x: x > 0, lambda x: x < 0, lambda x: x == 0, lambda x: abs(x) > 1):
        assert abs(whole.chance(test) - rough.chance(test)) <= rough.chance_bound(test) == e
    assert abs(whole.sd - rough.sd) > 0  # the approximation differs: the bounds are tested


def test_the_memo_serves_split_rounds_to_a_strategy_that_splits_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``memo`` each split round is kept by how its hands are played: the same
    figures, bit for bit; the optimum frozen and played as a strategy splits alike and
    adds no entry; a damaged entry is recomputed, not served."""
    from analyzer.engine import dist_splits
    from analyzer.engine.frozen import FrozenStrategy

    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    rules, shoe = parse_spec("1D H17 DOA DAS SPL3 LS"), Shoe(RESPLIT)
    plain = round_distribution(rules, shoe)
    kept = round_distribution(rules, shoe, memo=True)
    entries = sorted(tmp_path.glob("split-distribution/*/*"))
    assert entries and kept.by_upcard == plain.by_upcard
    assert kept.error_bound == plain.error_bound
    frozen = FrozenStrategy(Analysis(rules, shoe))
    played = round_distribution(rules, shoe, strategy=frozen)
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:-2] + b"!!")  # every entry damaged
    assert round_distribution(rules, shoe, strategy=frozen, memo=True).by_upcard == \
        played.by_upcard
    assert sorted(tmp_path.glob("split-distribution/*/*")) == entries  # rewritten, no more

    def recomputed(*_args: object) -> None:
        raise AssertionError("a split round kept in the memo was computed again")

    monkeypatch.setattr(dist_splits, "split_distribution", recomputed)
    again = round_distribution(rules, shoe, strategy=frozen, memo=True)
    assert again.by_upcard == played.by_upcard


@pytest.mark.parametrize("spec", ["1D S17 DOA NDAS SPL3 NS", "1D H17 DOA DAS SPL3 NS"])
def test_a_resplit_the_shoe_cannot_deal_is_no_round(spec: str) -> None:
    """Two aces and ten tens, an ace up: a split of tens whose two hands both draw a
    non-ten needs two aces where one is left.  That pattern has no round, and its
    enumeration crashed (a bare ValueError; found by an adversarial test).  The oracle
    refuses this shoe (some deals are a sure dealer blackjack under the peek), so the
    checks are the invariants: sums to 1, exactly, with the engine's exact EV as mean."""
    rules, shoe = parse_spec(spec), Shoe((2, 0, 0, 0, 0, 0, 0, 0, 0, 10))
    dist = round_distribution(rules, shoe, exact=True)
    assert dist.error_bound == 0 and dist.total == 1
    assert dist.mean == Analysis(rules, shoe, exact=True).ev()


@pytest.mark.parametrize("spec", ["1D S17 DOA DAS SPL3 NS", "1D S17 DOA DAS SPL3 ES",
                                  "1D H17 DOA NDAS SPL1 NS"])
def test_a_hand_the_peek_surely_ends_is_never_played(spec: str) -> None:
    """Three aces and twelve tens, an ace up: against A-A the hole card is surely a ten, so
    the peek ends the round before the hand is played.  The round has an EV (the oracle's,
    as a fraction), but the engine asked for the hand's EV given no blackjack and refused
    the whole shoe ("the dealer has blackjack with certainty in this shoe"; found by an
    adversarial test); the distribution refused it too."""
    import tests.oracle as oracle

    rules, counts = parse_spec(spec), (3, 0, 0, 0, 0, 0, 0, 0, 0, 12)
    ev = Analysis(rules, Shoe(counts), exact=True).ev()
    assert ev == oracle.round_ev(rules, counts)
    dist = round_distribution(rules, Shoe(counts), exact=True)
    assert dist.error_bound == 0 and dist.total == 1 and dist.mean == ev
    # the chart's machinery asks every hand too: it refused the shoe as well (found by a
    # review); the chart's distribution and its level agree
    from analyzer.charts.evaluate import make_chart
    from analyzer.charts.strategy import ChartStrategy

    chart = make_chart(rules, "basic strategy", shoe=Shoe(counts)).chart
    play = ChartStrategy(chart, rules)
    dist = round_distribution(rules, Shoe(counts), exact=True, strategy=play)
    assert dist.total == 1
    assert dist.mean == Analysis(rules, Shoe(counts), exact=True, strategy=play).ev()


@pytest.mark.parametrize(("spec", "counts"), [
    ("1D S17 DOA DAS SPL3 NS", (0, 0, 0, 0, 0, 0, 0, 13, 0, 0)),
    ("1D S17 DOA DAS SPL2 NS", (0, 0, 0, 0, 0, 0, 0, 16, 0, 0)),
    ("1D S17 DOA DAS SPL3 NS", (1, 0, 0, 0, 0, 0, 0, 15, 0, 0)),
    ("1D S17 DOA DAS SPL3 LS", (0, 0, 0, 0, 0, 0, 2, 14, 0, 0)),
])
def test_a_kind_of_split_hand_the_shoe_cannot_deal_has_no_round(
        spec: str, counts: tuple[int, ...]) -> None:
    """Eights only: a split hand cannot start with a card other than the pair's, so that
    kind of hand has no blocks, and resplitting crashed with a bare ValueError (exit 70
    from ``bja distribution --shoe 8:40``; found by an adversarial test).  The oracle's
    fractions; the one-rank shoes' rounds are sure wins of 4 and 3 units."""
    check_against_the_oracle(spec, counts)
    if counts.count(0) == 9:
        rules = parse_spec(spec)
        assert round_distribution(rules, Shoe(counts)).probabilities == {rules.max_hands: 1.0}


def test_no_round_that_cannot_lose_has_a_largest_loss() -> None:
    """The largest loss was the least result whatever its sign: a shoe of aces only
    (every round a blackjack paying 1) printed a "largest loss" of 1 unit, sure to
    happen (found by an adversarial test).  It is the least *negative* result with a
    chance, and "none" where there is none; likewise the largest win."""
    from analyzer.report.distribution_model import Extreme, make_report
    from analyzer.report.distribution_render import render_text, report_data

    rules, shoe = parse_spec("1D S17 DOA DAS SPL3 NS"), Shoe((40, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    dist = round_distribution(rules, shoe)
    report = make_report(dist, "aces", Analysis(rules, shoe).ev())
    assert report.largest_win == Extreme(Fraction(1), 1.0) and report.largest_loss is None
    assert report_data(report)["largest_loss"] is None
    assert "largest loss: none" in render_text(report)
    rules = parse_spec("1D H17 DOA NDAS NSPL NS")
    full = make_report(round_distribution(rules), "1D", Analysis(rules).ev())
    assert full.largest_win is not None and full.largest_win.result == 2
    assert full.largest_loss is not None and full.largest_loss.result == -2


def test_card_keys_decode_every_digit_of_what_they_encode() -> None:
    """``CardKeys.decode`` takes every digit of a key at once; checked against the
    digits read off one by one in Python integers, for random widths up to 62 bits (a
    key's limit) and random card counts below them."""
    import numpy as np

    from analyzer.engine.dist_splits import CardKeys

    rng = np.random.default_rng(61)
    for _ in range(200):
        limits = rng.integers(0, 40, size=10)
        while float(np.prod((limits + 1).astype(np.float64))) >= 2.0**62:
            limits = limits // 2
        keys = CardKeys(limits)
        counts = np.stack([rng.integers(0, int(top) + 1, size=50) for top in limits], axis=1)
        encoded = keys.encode(counts)
        expected = []
        for key in encoded.tolist():
            digits = []
            for radix in reversed((limits + 1).tolist()):
                key, digit = divmod(key, radix)
                digits.append(digit)
            expected.append(digits[::-1])
        assert keys.decode(encoded).tolist() == expected == counts.tolist()
    assert keys.decode(np.array([], dtype=np.int64)).shape == (0, 10)


def test_the_notes_of_a_round_settled_past_the_budget_do_not_claim_a_joint_enumeration() -> None:
    """Found by a tester: privilege's certificate said every split hand was enumerated
    jointly, then that some rounds were settled approximately."""
    from analyzer.engine.distribution import _notes

    rules = parse_spec("6D S17 DOA DAS SPL3 LS")
    joint = "every hand of a split is enumerated jointly with the others and the dealer"
    assert joint in _notes(rules, 0.0, suits_read=True)
    within = _notes(rules, 7e-5, suits_read=True)
    assert f"{joint}, within the enumeration budget (below)" in within
    assert any(note.startswith("rounds with three or four split hands beyond") for note in within)
