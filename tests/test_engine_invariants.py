"""Invariants of the engine: exact distributions, float = exact, rules round-trip, bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cli.main import main
from analyzer.core.actions import SURRENDER
from analyzer.core.errors import HandError, RuleError, ShoeError, UsageError
from analyzer.core.levels import SplitLevel
from analyzer.core.rules import Double, Rules, Surrender, format_spec, parse_spec
from analyzer.core.ruleset import INFINITE
from analyzer.core.shoe import Shoe, parse_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import dealer_distribution, outcome_matrix
from analyzer.report.model import hand_report, infinite_hand_report


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("decks", [1, 6])
def test_exact_dealer_distributions_sum_to_one(h17: bool, decks: int) -> None:
    shoe = Shoe.decks(decks)
    for up in range(1, 11):
        d = dealer_distribution(shoe.remove([up]).counts, up, hits_soft_17=h17, exact=True)
        assert sum(d.outcomes.values()) == 1
        assert sum(d.bust_by_cards.values()) == d.bust
        assert all(isinstance(v, Fraction) for v in d.outcomes.values())


def test_vectorised_dealer_matches_single_shoe_evaluation() -> None:
    shoes = np.array([Shoe.decks(2).remove([5, 5, 10]).counts, [3, 0, 1, 2, 4, 4, 4, 4, 4, 9]])
    for up in (1, 6, 10):
        rows = outcome_matrix(up, True, shoes, exact=True)
        for row, counts in zip(rows, shoes.tolist(), strict=True):
            d = dealer_distribution(counts, up, hits_soft_17=True, exact=True)
            assert sum(row) == 1
            assert list(row[:6]) == [d.outcomes[k] for k in ("17", "18", "19", "20", "21",
                                                             "blackjack")]
            assert row[6] == d.outcomes["bust22"]


def test_exact_dealer_is_bit_identical_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact mode evaluates shoes in chunks (to bound memory): every row stays the same."""
    from analyzer.engine import dealer

    rng = np.random.default_rng(5)
    shoes = Shoe.decks(6).counts - rng.integers(0, 6, size=(5, 10))
    monkeypatch.setattr(dealer, "CHUNK", 10**6)
    exact = outcome_matrix(10, False, shoes, exact=True)
    monkeypatch.setattr(dealer, "CHUNK", 2)
    assert (outcome_matrix(10, False, shoes, exact=True) == exact).all()


def _random_shoes(seed: int) -> npt.NDArray[np.int64]:
    """Depleted 6-deck shoes, small shoes (fewer cards than the dealer may draw), empty values."""
    rng = np.random.default_rng(seed)
    big = Shoe.decks(6).counts - rng.integers(0, 12, size=(300, 10))
    small = rng.integers(0, 3, size=(300, 10))
    return np.concatenate([big, small, np.zeros((1, 10), dtype=np.int64)])


@pytest.mark.parametrize("h17", [False, True])
def test_compiled_dealer_kernel_against_numpy_and_fractions(h17: bool) -> None:
    """The C kernel (float mode) against the numpy path and exact Fractions, every upcard.

    Same factorised product, different order of additions: the two float paths agree
    to a few units in the last place, and both are within 1e-14 of the exact value.
    The kernel's bits do not depend on the batch a shoe is evaluated in.
    """
    from analyzer.core.outcomes import Outcome
    from analyzer.engine import dealer

    shoes = _random_shoes(11)
    for up in range(1, 11):
        fast = outcome_matrix(up, h17, shoes, exact=False)
        sums, _ = dealer._outcome_sums(up, h17, shoes, exact=False, short=True)
        sums[:, Outcome.BUST23] = 1.0 - sums.sum(axis=1)
        assert np.allclose(fast, sums, rtol=1e-14, atol=1e-15), up
        pick = [0, 7, 299, 300, 450, 600]
        alone = outcome_matrix(up, h17, shoes[pick][::-1], exact=False)[::-1]
        assert (alone == fast[pick]).all(), up
        exact = outcome_matrix(up, h17, shoes[pick], exact=True)
        for row, ex in zip(fast[pick], exact, strict=True):
            assert max(abs(float(e) - f) for e, f in zip(ex, row, strict=True)) < 1e-14


def test_compiled_dealer_kernel_refuses_mismatched_arrays() -> None:
    from analyzer.engine import kernel as _dealer
    from analyzer.engine.dealer import _kernel

    k = _kernel(10, False)
    shoes = np.full((3, 10), 24, dtype=np.int64)
    with pytest.raises(ValueError, match="sizes disagree"):
        _dealer.outcome_sums(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of,
                             k.runs, k.mult, k.kmax, np.empty((2, 8)))
    out = np.empty((3, len(k.runs) - 1))
    _dealer.outcome_sums(shoes, k.blocks, k.block_of, k.halves, k.low_of, k.high_of,
                         k.runs, k.mult, k.kmax, out)
    assert np.isfinite(out).all() and (out[0] == out[2]).all()


@pytest.mark.parametrize("counts", [
    pytest.param((1, 1, 1, 2, 1, 2, 1, 2, 1, 5), id="17-card shoe"),
    pytest.param(None, id="one deck", marks=pytest.mark.slow),  # ~50 s of exact arithmetic
])
def test_exact_and_float_agree_on_overall_ev(counts: tuple[int, ...] | None) -> None:
    rules = parse_spec("1D H17 DOA NDAS SPL3 LS")
    shoe = Shoe(counts) if counts is not None else None
    exact = Analysis(rules, shoe, exact=True)
    fast = Analysis(rules, shoe)
    ev = exact.ev()
    assert isinstance(ev, Fraction)
    assert abs(float(ev) - fast.ev()) < 1e-12
    for up, value in exact.by_upcard().items():
        assert abs(float(value) - fast.by_upcard()[up]) < 1e-12


SPECS = st.builds(
    lambda d, h, dbl, das, spl, rsa, sur, bj, enhc: " ".join(
        t for t in (f"{d}D", h, dbl, das, spl, rsa, sur, bj, enhc) if t),
    st.integers(1, 12), st.sampled_from(["S17", "H17"]), st.sampled_from(["DOA", "D9", "D10"]),
    st.sampled_from(["DAS", "NDAS"]), st.sampled_from(["NSPL", "SPL1", "SPL2", "SPL3"]),
    st.sampled_from(["", "RSA"]), st.sampled_from(["LS", "ES", "NS"]),
    st.sampled_from(["", "BJ6:5", "BJ1:1"]), st.sampled_from(["", "ENHC"]))


@settings(max_examples=200, deadline=None)
@given(SPECS)
def test_spec_round_trips(spec: str) -> None:
    rules = parse_spec(spec)
    assert parse_spec(format_spec(rules)) == rules
    assert format_spec(parse_spec(format_spec(rules))) == format_spec(rules)


def test_spec_tokens() -> None:
    r = parse_spec("8d h17 d10 ndas spl1 rsa es bj6:5 enhc")
    assert r == Rules(decks=8, hits_soft_17=True, double=Double.TEN_ELEVEN,
                      double_after_split=False, max_hands=2, resplit_aces=True,
                      surrender=Surrender.EARLY, blackjack_pays=Fraction(6, 5),
                      hole_card=r.hole_card)
    assert not r.peeks
    assert parse_spec("8D", base=r).decks == 8
    assert parse_spec("2D", base=r).hits_soft_17


@pytest.mark.parametrize("spec,bad", [("6D X17", "X17"), ("S17 H17", "H17"), ("0D", "0"),
                                      ("LS NS", "NS"), ("BJ3:0", "BJ3:0")])
def test_bad_specs_name_the_token(spec: str, bad: str) -> None:
    with pytest.raises(RuleError, match=bad):
        parse_spec(spec)


@pytest.mark.parametrize("text", ["A:-1,T:3", "Z:4", "A:x", "A:0", "A:4,A:4", "A4"])
def test_bad_shoes(text: str) -> None:
    with pytest.raises(ShoeError):
        parse_shoe(text)


def test_impossible_hands() -> None:
    analysis = Analysis(parse_spec("1D S17 NSPL"))
    with pytest.raises(HandError, match="no 5 left"):
        analysis.actions(10, (5, 5, 5, 5, 5))
    with pytest.raises(HandError, match="busted"):
        analysis.actions(10, (10, 10, 5))


@pytest.mark.parametrize("argv,needle", [
    (["ev", "--rules", "6D X17"], "unknown rule token 'X17'"),
    (["hand", "--rules", "1D", "--up", "T", "--cards", "5,5,5,5,5"], "no 5 left"),
    (["hand", "--rules", "1D", "--up", "Z", "--cards", "5,5"], "unknown card 'Z'"),
    (["ev", "--shoe", "A:-1,T:3"], "count of A"),
    (["ev", "--shoe", "A:1,T:3"], "below the analyzer's floor of 12 cards"),
])
def test_cli_bad_input_is_one_line_exit_2(argv: list[str], needle: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("shoe", [
    pytest.param(["--shoe", "A:2,2:2,3:2,4:2,5:2,6:2,7:2,8:2,9:2,T:8"], id="small shoe"),
    pytest.param([], id="one deck", marks=pytest.mark.slow),  # ~12 s of exact arithmetic
])
def test_cli_ev_json(shoe: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["ev", "--rules", "1D H17 DOA NDAS SPL1 NS", "--exact", "--json",
                 "--no-cache", *shoe]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "1D H17 DOA NDAS SPL1 NS"
    assert data["split"] == "cdz"
    assert set(data["by_upcard"]) == {"2", "3", "4", "5", "6", "7", "8", "9", "T", "A"}
    num, den = (int(x) for x in data["ev_exact"].split("/"))
    assert abs(data["ev"] - num / den) < 1e-15
    if not shoe:  # Farmer's analyzer prints -0.168766712% for these rules (tests/reference).
        assert abs(num / den * 100 - -0.168766712) < 1e-9


def test_cli_hand_says_it_is_conditioned(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "--rules", "6D S17 DOA DAS SPL3 LS", "--up", "T", "--cards",
                 "T,6"]) == 0
    out = capsys.readouterr().out
    assert "conditioned on the dealer not having blackjack" in out
    assert "-54.095443902" in out  # Farmer's stand EV for T,6 vs T


def test_cli_ev_cache_serves_the_same_bytes(capsys: pytest.CaptureFixture[str],
                                             _private_cache: object) -> None:
    argv = ["ev", "--rules", "1D H17 DOA NDAS SPL1 NS", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert main([*argv, "--no-cache"]) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("exact", [False, True])
def test_upcards_in_forked_processes_give_the_same_bits(exact: bool) -> None:
    """``jobs=2`` (upcards in forked processes) against the serial run: equal, not close."""
    rules = parse_spec("1D H17 DOA DAS SPL3 LS")
    shoe = Shoe((1, 1, 1, 1, 2, 2, 2, 2, 2, 6)) if exact else None  # pairs of 5s..Ts split
    serial = Analysis(rules, shoe, exact=exact)
    forked = Analysis(rules, shoe, exact=exact, jobs=2)
    assert forked.by_upcard() == serial.by_upcard()
    if exact:  # seconds of work: the child always takes some upcards, so it was compared
        assert forked._evs, "no upcard came from a forked process"
    assert forked.ev() == serial.ev()
    assert forked.actions(10, (8, 8)) == serial.actions(10, (8, 8))  # served after the pool


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UsageError, match="jobs must be a whole number 1 to 256"):
        Analysis(parse_spec("6D S17"), jobs=0)
    with pytest.raises(SystemExit) as refused:  # the option's parser: argparse's exit
        main(["ev", "--rules", "1D S17", "--jobs", "0", "--no-cache"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs must be a whole number 1 to 256, not '0'" in err


def test_an_error_in_a_forked_upcard_surfaces_as_in_a_serial_run() -> None:
    """A child that fails sends nothing; this process computes that upcard and raises."""
    from analyzer.core.errors import ImpossibleShoeError

    shoe = Shoe((1, 40, 0, 0, 0, 0, 0, 0, 0, 1))  # a 2 up: splitting 2-2 can run out
    for jobs in (1, 2):
        with pytest.raises(ImpossibleShoeError, match="can run out within a round"):
            Analysis(parse_spec("1D S17"), shoe, jobs=jobs).ev()


@pytest.mark.parametrize("spec,upcard", [("1D S17 DOA DAS SPL1 ES", 1),
                                         ("1D H17 DOA DAS SPL3 ES", 10),
                                         ("1D S17 DOA DAS SPL1 LS", 10)])
def test_unconditioned_hands_rebuild_the_upcards_ev(spec: str, upcard: int) -> None:
    """``bja hand --unconditioned``: each two-card hand's best EV with the dealer blackjack
    put back (a natural's own value), weighted by its chance, is ``bja ev``'s EV for the
    upcard, exactly.  An early surrender is made before the peek: -1/2 whatever the hole
    card (it was given -65.3% against an ace, the blackjack's loss added)."""
    analysis = Analysis(parse_spec(spec), exact=True)
    shoe = list(analysis.shoe.counts)
    shoe[upcard - 1] -= 1
    total, rebuilt = sum(shoe), Fraction(0)
    for a in range(1, 11):
        for b in range(1, 11):
            chance = Fraction(shoe[a - 1], total) * Fraction(
                shoe[b - 1] - (a == b), total - 1)
            if not chance:
                continue
            actions = analysis.hand_actions(upcard, (a, b), unconditioned=True)
            rebuilt += chance * (max(actions.values()) if actions
                                 else analysis.natural_value(upcard, unconditioned=True))
            if "ES" in spec.split():
                assert actions.get(SURRENDER, Fraction(-1, 2)) == Fraction(-1, 2)
    assert rebuilt == analysis.upcard_ev(upcard)


@pytest.mark.parametrize("spec", ["6D S17 DOA DAS SPL3 ES", "INF S17 DOA DAS SPL3 ES ENHC",
                                  "INF H17 DOA DAS SPL3 ES"])
def test_bja_hand_marks_early_surrender_best_where_the_engine_makes_it(spec: str) -> None:
    """An early surrender is made before the peek.  ``bja hand`` marked the best play by the
    values given no dealer blackjack: 2-3 against an ace showed hit best (-28.1% against
    -50%) while with the blackjack in hit is -51.1% and the engine surrenders (found by a
    chart tester: 30 of 108 two-card hands against an ace or a ten).  Both views mark the
    play whose value with the blackjack in is the best, the one the round's EV counts."""
    rules = parse_spec(spec)
    analysis = None if rules.decks == INFINITE else Analysis(rules, exact=True)
    surrendered = 0
    for upcard in (1, 10):
        for a in range(2, 11):
            for b in range(a, 11):
                if analysis is None:
                    shown = infinite_hand_report(rules, upcard, (a, b), exact=True,
                                                 split=SplitLevel.CDZ)
                    full = infinite_hand_report(rules, upcard, (a, b), exact=True,
                                                split=SplitLevel.CDZ, unconditioned=True)
                else:
                    shown = hand_report(analysis, upcard, (a, b))
                    full = hand_report(analysis, upcard, (a, b), unconditioned=True)
                values = dict(full.actions)
                top = max(values.values())
                assert shown.best == full.best, (upcard, a, b)
                assert values[full.best] == top, (upcard, a, b)
                surrendered += full.best == "surrender"
    assert surrendered >= 10  # the test meets early surrenders
