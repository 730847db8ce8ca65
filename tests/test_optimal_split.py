"""Optimal splitting against a brute-force whole-round enumeration with full card memory.

Reference: ``tests/oracle_split_memory.py`` (independent of the engine: it plays every
hand card by card and settles the round with all hands at once), exact fractions on
small shoes; one split and resplits, and the seed rules.  Also the order of the levels
of play and the refusals.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.cli.main import main
from analyzer.core.actions import SPLIT
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import Rules, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.optimal_split import OptimalSplit, SplitInfeasible
from analyzer.engine.splits import SplitPlan
from tests.oracle_split_memory import clear_caches, optimal_split_ev


def engine(rules: Rules, counts: tuple[int, ...], up: int, pair: int,
           exact: bool = True) -> Fraction | float:
    base = list(counts)
    base[up - 1] -= 1
    plan = SplitPlan.from_rules(rules, pair, up)
    return OptimalSplit(tuple(base), up, plan, hits_soft_17=rules.hits_soft_17,  # type: ignore[no-any-return]
                        conditioned=rules.peeks_on(up), exact=exact).value()


SMALL = (0, 2, 1, 0, 1, 1, 1, 0, 1, 6)  # 13 cards: seconds
FAST = [
    ("1D S17 DOA DAS SPL1 NS", SMALL, 6, 2),
    ("1D S17 DOA DAS SPL1 NS", SMALL, 10, 2),  # peek with a ten up: conditioned
    # Split aces take one card: only the two-card hands are played.
    ("1D S17 DOA DAS SPL1 NS", (3, 1, 1, 1, 1, 1, 1, 1, 1, 5), 6, 1),
    ("1D S17 DOA DAS SPL3 RSA NS", (4, 1, 1, 1, 1, 1, 1, 1, 1, 5), 10, 1),  # resplit aces
]
SLOW = [
    ("1D H17 D10 NDAS SPL1 NS", (3, 1, 1, 1, 1, 1, 1, 1, 1, 5), 1, 1),  # aces, ace up
    ("1D S17 DOA DAS SPL1 NS", (2, 2, 2, 2, 1, 1, 1, 1, 1, 6), 6, 2),
    ("1D S17 DOA DAS SPL1 NS", (2, 2, 2, 2, 1, 1, 1, 1, 1, 6), 10, 2),
    ("1D H17 DOA NDAS SPL1 NS", (2, 3, 2, 1, 2, 1, 2, 1, 1, 6), 1, 3),
    ("1D S17 DOA DAS SPL1 ENHC OBO NS", (1, 3, 1, 1, 1, 1, 1, 1, 1, 8), 10, 2),
    ("1D S17 DOA DAS SPL1 NS CH5 A21 P22", (1, 3, 1, 1, 1, 1, 1, 1, 1, 8), 6, 2),
    ("1D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FS2", (1, 3, 1, 1, 1, 1, 1, 1, 1, 8), 10,
     2),
    ("1D S17 DOA DAS SPL3 NS", (1, 3, 1, 1, 1, 1, 1, 1, 1, 9), 6, 2),  # resplits
    ("1D S17 DOA DAS SPL3 RSA HSA NS", (3, 1, 1, 1, 1, 1, 1, 1, 1, 9), 5, 1),
]


@pytest.mark.parametrize(("spec", "counts", "up", "pair"), FAST)
def test_matches_whole_round_enumeration(spec: str, counts: tuple[int, ...], up: int,
                                         pair: int) -> None:
    rules = parse_spec(spec)
    assert engine(rules, counts, up, pair) == optimal_split_ev(rules, counts, up, pair)
    clear_caches()


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "counts", "up", "pair"), SLOW)
def test_matches_whole_round_enumeration_more(spec: str, counts: tuple[int, ...], up: int,
                                              pair: int) -> None:
    rules = parse_spec(spec)
    exact = engine(rules, counts, up, pair)
    assert exact == optimal_split_ev(rules, counts, up, pair)
    assert abs(engine(rules, counts, up, pair, exact=False) - float(exact)) < 1e-13
    clear_caches()


# Spanish 21's rules as split hands meet them: doubling after hitting (DAN, with DAS),
# redoubling (RDn), double-down rescue (DDR), the 21 bonuses by card count (not doubled
# under BND, not at all under BNS) and by suits (averaged over them), P21W, OBO.  Each rule
# moves the figure from the same game without it, so the comparison can fail.
S16 = (1, 3, 1, 1, 1, 1, 1, 1, 1, 5)
RESPLITS = (1, 3, 1, 1, 1, 1, 1, 1, 1, 9)
SEVENS = (0, 1, 1, 1, 1, 2, 3, 2, 0, 9)
SPANISH = ("DAN DDR BJW P21W B5C=3:2 B6C=2:1 B7C=3:1 B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 "
           "BND")
SPANISH_FAST = [
    pytest.param("1D S17 D10 DAS SPL1 LS", "DAN RD1 DDR", S16, 9, 2, id="DAN-RD1-DDR"),
    pytest.param("1D S17 DOA DAS SPL1 NS", "DAN B5C=3:2 B6C=2:1 B7C=3:1", S16, 6, 2,
                 id="DAN-B5C", marks=pytest.mark.slow),  # its BND sibling is slow too
]
SPANISH_SLOW = [
    pytest.param("1D S17 DOA DAS SPL1 NS", "DAN", S16, 6, 2, id="DAN"),
    pytest.param("1D S17 DOA DAS SPL1 NS", "DAN RD2", S16, 6, 2, id="DAN-RD2"),
    pytest.param("1D S17 DOA DAS SPL1 LS", "DDR", S16, 10, 2, id="DDR-ten-up"),
    pytest.param("1D S17 DOA DAS SPL1 LS", "DAN RD1 DDR", S16, 9, 2, id="DAN-RD1-DDR-DOA"),
    pytest.param("1D S17 DOA DAS SPL1 NS", "DAN B5C=3:2 B6C=2:1 B7C=3:1 BND", S16, 6, 2,
                 id="DAN-BND"),
    pytest.param("1D S17 DOA DAS SPL1 NS", "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1",
                 (1, 1, 1, 1, 1, 2, 4, 2, 1, 5), 10, 7, id="suits"),
    pytest.param("1D S17 DOA DAS SPL1 NS ENHC OBO", "DAN RD1", S16, 10, 2, id="OBO-DAN-RD1"),
    pytest.param("1D S17 DOA DAS SPL1 NS P21W", "DAN RD1", S16, 6, 2, id="P21W-DAN-RD1"),
    pytest.param("1D S17 DOA DAS SPL3 NS", "DAN RD1 DDR B5C=3:2", RESPLITS, 6, 2,
                 id="resplits"),
    # Spanish 21 itself on small shoes, resplits included: twos, aces (hit and doubled),
    # sevens (6-7-8 and 7-7-7 in reach)
    pytest.param("1D SP H17 DOA DAS SPL3 RSA HSA LS", SPANISH, RESPLITS, 6, 2,
                 id="spanish21-twos"),
    pytest.param("1D SP H17 DOA DAS SPL3 RSA HSA LS", f"{SPANISH} RD1",
                 (3, 1, 1, 1, 1, 1, 1, 1, 1, 9), 5, 1, id="spanish21-RD1-aces"),
    pytest.param("1D SP H17 DOA DAS SPL3 RSA HSA LS", SPANISH, SEVENS, 6, 7,
                 id="spanish21-sevens"),
]


def _with_and_without(base: str, extra: str, counts: tuple[int, ...], up: int,
                      pair: int) -> None:
    ruled = parse_spec(f"{base} {extra}")
    value = engine(ruled, counts, up, pair)
    assert value == optimal_split_ev(ruled, counts, up, pair)
    assert value != engine(parse_spec(base), counts, up, pair)  # the rules reach the split
    assert abs(engine(ruled, counts, up, pair, exact=False) - float(value)) < 1e-13
    clear_caches()


@pytest.mark.parametrize(("base", "extra", "counts", "up", "pair"), SPANISH_FAST)
def test_spanish_rules_match_the_whole_round_enumeration(base: str, extra: str,
                                                         counts: tuple[int, ...], up: int,
                                                         pair: int) -> None:
    _with_and_without(base, extra, counts, up, pair)


@pytest.mark.slow
@pytest.mark.parametrize(("base", "extra", "counts", "up", "pair"), SPANISH_SLOW)
def test_spanish_rules_match_the_whole_round_enumeration_more(
        base: str, extra: str, counts: tuple[int, ...], up: int, pair: int) -> None:
    _with_and_without(base, extra, counts, up, pair)


def test_a_bonus_not_paid_after_splitting_leaves_the_split_alone() -> None:
    """BNS: the five-card 21 is not paid on a split hand, so the figure is the plain
    game's, and the enumeration agrees."""
    plain = engine(parse_spec("1D S17 DOA DAS SPL1 NS"), S16, 6, 2)
    rules = parse_spec("1D S17 DOA DAS SPL1 NS B5C=3:2 BNS")
    assert engine(rules, S16, 6, 2) == plain == optimal_split_ev(rules, S16, 6, 2)
    clear_caches()


def test_float_agrees_with_exact() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL1 NS")
    exact = engine(rules, SMALL, 6, 2)
    assert abs(engine(rules, SMALL, 6, 2, exact=False) - float(exact)) < 1e-14


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["1D S17 DOA DAS SPL1 NS", "1D H17 DOA NDAS SPL1 LS ENHC",
                                  f"1D SP H17 DOA DAS SPL1 HSA LS RD1 {SPANISH}"])
def test_order_of_levels_every_pair_and_upcard(spec: str) -> None:
    """CDZ- <= CDP1 <= CDP <= optimal for every pair and upcard; CDP = CDP1 (no resplit)."""
    rules = parse_spec(spec)
    shoe = Shoe([2, 3, 2, 2, 2, 2, 2, 2, 2, 8])
    # Floats (the exact path's agreement is pinned above and by the oracle tests):
    # exact optimal splitting costs ~15 s a case on this shoe, floats ~0.3 s.
    levels = {s: Analysis(rules, shoe, exact=False, split=s) for s in
              ("cdz", "cdp1", "cdp", "optimal")}
    tol = 1e-12
    for up in range(1, 11):
        for pair in range(1, 11):
            if shoe[pair] - (up == pair) < 2:
                continue
            v = {s: a.actions(up, (pair, pair))[SPLIT] for s, a in levels.items()}
            assert v["cdz"] <= v["cdp1"] + tol, (up, pair, v)
            assert abs(v["cdp1"] - v["cdp"]) < tol, (up, pair, v)
            assert v["cdp"] <= v["optimal"] + tol, (up, pair, v)


def test_refusals() -> None:
    with pytest.raises(SplitInfeasible, match="at most 52 cards"):
        Analysis(parse_spec("6D S17 DOA DAS SPL3 LS"), split="optimal")
    with pytest.raises(SplitInfeasible, match="by rank"):
        Analysis(parse_spec("2D S17 DOA NDAS SPL2 NS SPR"), split="optimal")
    with pytest.raises(AnalyzerError, match="fixed strategy"):
        from analyzer.engine.frozen import FrozenStrategy  # noqa: F401
        Analysis(parse_spec("1D"), strategy=object(), split="cdp")  # type: ignore[arg-type]


def test_cli_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--rules", "6D S17 DOA DAS SPL3 LS", "--split", "optimal",
                 "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: optimal splitting with resplits") and err.count("\n") == 1


def test_a_case_past_the_dealer_budget_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Resplits on a deck or two can need tens of millions of dealer shoes (hours, more
    memory than the machine): past ``MAX_DEALER_ROWS`` the case stops with the reason,
    the same way every time.  Lowered here so that a small shoe reaches it."""
    from analyzer.engine import optimal_split

    rules = parse_spec("1D S17 DOA DAS SPL3 NS")
    counts = (1, 3, 1, 1, 1, 1, 1, 1, 1, 9)
    within = engine(rules, counts, 6, 2, exact=False)
    assert within > 0  # within the budget: a figure
    monkeypatch.setattr(optimal_split, "MAX_DEALER_ROWS", 50)
    with pytest.raises(SplitInfeasible, match=r"^optimal splitting of 2,2 against 6 needs "
                                              r"the dealer in more than 50 shoes on this "
                                              r"20-card shoe with resplits to 4 hands"):
        engine(rules, counts, 6, 2, exact=False)
    exact = engine(rules, counts, 6, 2)  # exact's own budget is not yet reached
    assert float(exact) == pytest.approx(within, abs=1e-12)
    clear_caches()
    monkeypatch.setattr(optimal_split, "MAX_EXACT_ROWS", 40)
    with pytest.raises(SplitInfeasible, match=r"more than 40 shoes in exact mode on this"):
        engine(rules, counts, 6, 2)
    shoe = ",".join(f"{'A23456789T'[v]}:{n}" for v, n in enumerate(counts))
    assert main(["ev", "--rules", "1D S17 DOA DAS SPL3 NS", "--shoe", shoe, "--split",
                 "optimal", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: optimal splitting of ") and err.count("\n") == 1


def test_sets_the_shoe_cannot_hold_take_no_work() -> None:
    """A hand's nodes serve a chunk of card sets at once, so most (set, node) pairs hold
    more of some value than the shoe: a round reached with chance 0.  They take no dealer
    shoe and no round after them.  Played out, this 20-card case needed 201,381 dealer
    shoes and 35,144 card sets; the same figure needs 1,180 and 1,128 (the oracle's
    agreement on it is the slow test below)."""
    rules = parse_spec("1D S17 DOA DAS SPL3 NS")
    counts = (1, 3, 1, 1, 1, 0, 1, 1, 1, 9)  # the shoe below, less the upcard 6
    split = OptimalSplit(counts, 6, SplitPlan.from_rules(rules, 2, 6), hits_soft_17=False,
                         conditioned=False, exact=False)
    split.value()
    assert len(split._dealer.table) <= 2_000
    held = [key for key, _, _ in split._memo]
    assert len(held) <= 2_000
    base = {v: n for v, n in enumerate(counts)}
    for key in held:  # every set kept is one the shoe can deal: no count above the shoe's
        assert all((key >> (6 * v)) & 63 <= base[v] for v in range(10)), key


@pytest.mark.slow
def test_the_budget_case_within_its_budget_equals_the_oracle() -> None:
    """The figure the refusal test above computes before lowering the budget, against the
    brute-force oracle as fractions (20 s: kept out of the default run)."""
    rules = parse_spec("1D S17 DOA DAS SPL3 NS")
    counts = (1, 3, 1, 1, 1, 1, 1, 1, 1, 9)
    try:
        assert engine(rules, counts, 6, 2) == optimal_split_ev(rules, counts, 6, 2)
    finally:
        clear_caches()


def test_cdp_equals_cdp1_without_resplits() -> None:
    """With one split there is only one level of removed pair cards: CDP is CDP1."""
    rules = parse_spec("2D H17 DOA DAS SPL1 LS")
    cdz, cdp1, cdp = (Analysis(rules, split=s) for s in ("cdz", "cdp1", "cdp"))
    for up in (6, 10):
        for pair in range(1, 11):
            v = [a.split_value(a.upcard(up), pair) for a in (cdz, cdp1, cdp)]
            assert v[0] <= v[1] + 1e-15 and v[1] == v[2], (up, pair, v)


@pytest.mark.parametrize("exact", [False, True])
def test_counts_past_the_cache_keys_give_the_same_value(monkeypatch: pytest.MonkeyPatch,
                                                        exact: bool) -> None:
    """A card set whose counts the dealer cache's keys cannot hold (64+ of a value, a
    shoe of 17+ decks) has its dealer figures computed on its own: the same value.
    Forced here by lowering the limit optimal splitting checks against."""
    from analyzer.engine import optimal_split

    rules = parse_spec("1D S17 DOA DAS SPL1 NS")
    counts = (2, 2, 2, 2, 1, 1, 1, 1, 1, 6) if not exact else SMALL
    want = engine(rules, counts, 6, 2, exact=exact)
    monkeypatch.setattr(optimal_split, "KEY_LIMIT", 2)  # a 2 out twice spills
    assert engine(rules, counts, 6, 2, exact=exact) == want


def test_the_memo_shares_a_pair_between_games_that_differ_outside_split_hands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 6:5 game reads the 3:2 game's split figures from the memo (the build's one-deck
    pair); each is the figure computed without it, bit for bit, and a damaged entry is
    recomputed, not served."""
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    shoe = Shoe((2, 2, 2, 2, 1, 1, 1, 1, 1, 6))
    plain, paid = (parse_spec(s) for s in ("1D H17 DOA NDAS SPL1 NS",
                                           "1D H17 DOA NDAS SPL1 LS BJ6:5"))
    fresh = Analysis(paid, shoe, split="optimal").actions(6, (2, 2))[SPLIT]
    Analysis(plain, shoe, split="optimal", memo=True).actions(6, (2, 2))
    entries = list(tmp_path.glob("optimal-split/*/*"))
    assert len(entries) == 1  # one pair against one upcard
    read = Analysis(paid, shoe, split="optimal", memo=True).actions(6, (2, 2))[SPLIT]
    assert repr(read) == repr(fresh)
    assert len(list(tmp_path.glob("optimal-split/*/*"))) == 1  # read, not recomputed
    entries[0].write_bytes(entries[0].read_bytes()[:-3] + b"xyz")
    again = Analysis(paid, shoe, split="optimal", memo=True).actions(6, (2, 2))[SPLIT]
    assert repr(again) == repr(fresh)
    other = Analysis(parse_spec("1D S17 DOA NDAS SPL1 NS"), shoe, split="optimal", memo=True)
    assert other.actions(6, (2, 2))[SPLIT] != fresh  # the dealer's rule is in the key
    assert len(list(tmp_path.glob("optimal-split/*/*"))) == 2
    exact = Analysis(paid, shoe, split="optimal", exact=True).actions(6, (2, 2))[SPLIT]
    kept = Analysis(plain, shoe, split="optimal", exact=True, memo=True)
    assert kept.actions(6, (2, 2))[SPLIT] == exact

    def computed(_self: OptimalSplit) -> None:
        raise AssertionError("a figure kept in the memo was computed again")

    monkeypatch.setattr(OptimalSplit, "value", computed)
    for arithmetic in (True, False):  # read back, a GMP rational or a float
        again = Analysis(paid, shoe, split="optimal", exact=arithmetic, memo=True)
        assert again.actions(6, (2, 2))[SPLIT] == (exact if arithmetic else fresh)
