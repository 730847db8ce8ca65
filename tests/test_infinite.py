"""The infinite deck (``INF``) against its definition: the limit of ``n`` decks.

The finite engine's EV of ``n`` decks is a rational function of ``n`` whose
expansion in ``1/n`` starts ``EV(INF) + c/n``: so ``n (EV(n) - EV(INF))`` must settle
on a constant as ``n`` grows (to many digits between 10**4 and 10**6 decks).  An
infinite-deck figure off by a misread rule shows as a gap that does not shrink: that
is the test.  The two computations share no code but the rule vocabulary: the finite
engine enumerates card compositions from counts, the infinite one recurses over
totals with fixed chances.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import pytest

from analyzer.api import analyze, hand
from analyzer.core.errors import AnalyzerError, RuleConflictError, RuleError, UsageError
from analyzer.core.outcomes import Outcome
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.ruleset import INFINITE
from analyzer.engine.infinite import InfiniteGame


def _finite(rules: Rules, decks: int) -> float:
    ev = analyze(rules.replace(decks=decks), jobs=1, cache=False).ev
    assert isinstance(ev, float)
    return ev


def _infinite(rules: Rules) -> Fraction:
    return InfiniteGame(rules.replace(decks=INFINITE)).round_ev()


def test_decks_converge_to_the_infinite_deck_from_above() -> None:
    """1, 8, 100, 10**4 and 10**6 decks: more decks are worse for the player (the player's
    removed cards help him less), each closer to INF, the gap shrinking as 1/n."""
    rules = Rules("6D S17 DOA DAS SPL3 LS")
    inf = float(_infinite(rules))
    decks = (1, 8, 100, 10**4, 10**6)
    evs = [_finite(rules, n) for n in decks]
    assert all(a > b for a, b in zip(evs, evs[1:], strict=False)), evs
    assert evs[-1] > inf
    gaps = [(ev - inf) * n for ev, n in zip(evs, decks, strict=True)]
    assert abs(gaps[-1] - gaps[-2]) < 1e-5 * abs(gaps[-1]), gaps  # the 1/n**2 term left
    assert abs(gaps[2] - gaps[-1]) < 1e-3 * abs(gaps[-1]), gaps  # 100 decks: c/n already


CONVERGING = [
    "2D H17 D9 DAS SPL2 LS SNA BJ6:5",
    "6D H17 D10 NDAS SPL1 NS",
    "6D H17 DOA DAS SPL3 RSA HSA ES",
    "6D S17 DOA DAS SPL3 LS ENHC",
    pytest.param("6D H17 DOA DAS SPL3 RSA LS ENHC CH5 CHBJ", marks=pytest.mark.slow),
    pytest.param("6D H17 D10 NDAS SPL1 ES PEEKA P21W B5C=3:2 BJW", marks=pytest.mark.slow),
    pytest.param("6D S17 DOA DAS SPL3 LS PEEKA CH6", marks=pytest.mark.slow),
    pytest.param("2D S17 LS ENHC SNA DAN RD1 P22 A21", marks=pytest.mark.slow),
    pytest.param("6D S17 SPL3 LS ENHC RSA HSA SP B6C=2:1 B7C=3:1 BND DAN RD2",
                 marks=pytest.mark.slow),
    pytest.param("6D S17 DOA DAS SPL3 LS RD2 DAN DDR SAH", marks=pytest.mark.slow),
    pytest.param("6D SP H17 DOA DAS SPL3 RSA HSA LS DAN DDR P21W BJW B5C=3:2 B6C=2:1 "
                 "B7C=3:1 BND", marks=pytest.mark.slow),
    pytest.param("6D H17 CH5 A21 P22 NSA LS", marks=pytest.mark.slow),
    pytest.param("6D S17 RD3 DDR SPL1 NDAS CH7 NSA SNA LS", marks=pytest.mark.slow),
    pytest.param("4D H17 SPL3 P21W B5C=2:1 B6C=3:1 B7C=5:1", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("spec", CONVERGING)
def test_every_rule_converges(spec: str) -> None:
    """Per upcard: ``n (EV(n) - EV(INF))`` the same at 10**4 and 10**5 decks (CDZ-).

    BNS is left out: there the pre-split strategy of CDZ- chases bonuses a split hand is
    not paid, so CDZ- tends to less than the best play (INF refuses CDZ- there); CDP
    converges instead, below.
    """
    _converges(Rules(spec), "cdz")


@pytest.mark.parametrize("spec", ["6D H17 DOA DAS SPL3 LS B5C=3:2 B6C=2:1 B7C=3:1 BNS",
                                  "6D H17 DOA DAS SPL1 LS B5C=3:2 BNS"])
def test_unpaid_split_bonuses_converge_under_cdp(spec: str) -> None:
    """Under BNS a split hand plays for its own 1:1 pay at CDP, which is INF's play in the
    limit: the finite CDP figures converge to INF's (CDZ- would not)."""
    _converges(Rules(spec), "cdp")


def _converges(rules: Rules, split: str) -> None:
    by = {n: analyze(rules.replace(decks=n), jobs=1, cache=False, split=split).by_upcard
          for n in (10**4, 10**5)}
    inf = InfiniteGame(rules.replace(decks=INFINITE)).by_upcard()
    for key, up in zip("A23456789T", range(1, 11), strict=True):
        gaps = [(by[n][key] - float(inf[up])) * n for n in by]
        assert abs(gaps[0] - gaps[1]) < 1e-6 + 1e-4 * abs(gaps[1]), (key, gaps)


def test_exact_figures() -> None:
    """The round's EV is a Fraction; the dealer's outcomes sum to 1 exactly; the float
    report is the exact figure rounded."""
    rules = Rules("INF S17 DOA DAS SPL3 LS")
    game = InfiniteGame(rules)
    assert all(sum(game.dealer(u).values()) == 1 for u in range(1, 11))
    assert game.dealer(10)[Outcome.BLACKJACK] == 0  # peeked: conditioned on none
    exact = analyze(rules, exact=True).ev
    assert isinstance(exact, Fraction) and exact == game.round_ev()
    assert analyze(rules).ev == float(exact)
    # A dealer 6 up busts 42.31% of the time on an infinite shoe, S17 (Alan Krigman, "How
    # Well Can You Predict Dealers' Final Totals from their Upcards?", Casino City Times,
    # 25 October 2006; printed to two decimals, cut short: 42.31 <= x < 42.32).
    bust = game.dealer(6)[Outcome.BUST22] + game.dealer(6)[Outcome.BUST23]
    assert Fraction(4231, 10**4) <= bust < Fraction(4232, 10**4), float(bust)


@pytest.mark.slow
def test_invariants_between_rules() -> None:
    """A rule that only adds an option cannot lower the EV; a bonus not paid on split
    hands is worth less than one paid; Spanish decks cost the player."""
    base = Rules("INF S17 DOA DAS SPL3 NS")
    ev = InfiniteGame(base).round_ev()
    for more in ("LS", "RSA", "HSA", "DAN", "RD1", "DDR", "P21W", "BJW", "B5C=3:2"):
        assert InfiniteGame(parse_spec(more, base)).round_ev() >= ev, more
    paid = InfiniteGame(parse_spec("B5C=2:1", base)).round_ev()
    assert InfiniteGame(parse_spec("B5C=2:1 BNS", base)).round_ev() < paid
    assert InfiniteGame(parse_spec("SP", base)).round_ev() < ev
    # without splits, BNS has no hand to withhold a bonus from
    assert InfiniteGame(parse_spec("NSPL B5C=2:1 BNS", base)).round_ev() == \
        InfiniteGame(parse_spec("NSPL B5C=2:1", base)).round_ev()


def test_notation_round_trips() -> None:
    rules = parse_spec("INF SP H17")
    assert rules.decks == INFINITE and format_spec(rules).startswith("INF SP H17")
    assert parse_spec(format_spec(rules)) == rules
    assert Rules(decks=math.inf) == parse_spec("INF")
    with pytest.raises(RuleError, match="0D"):
        parse_spec("0D")
    for bad in (0, 6.0, -math.inf, math.nan):
        with pytest.raises(RuleError, match="decks"):
            Rules(decks=bad)


@pytest.mark.parametrize("spec,named", [("INF ENHC OBO", "OBO with ENHC"),
                                        ("INF PEEKA OBO", "OBO with PEEKA"),
                                        ("INF B678=3:2/2:1/3:1", "suit bonuses"),
                                        ("INF BSBJ=2:1", "suit bonuses"),
                                        ("INF FD9-11", "free doubles"), ("INF SPR", "SPR"),
                                        ("INF CUT100", "cut card")])
def test_rules_not_modelled_are_refused(spec: str, named: str) -> None:
    with pytest.raises(RuleConflictError, match=named):
        parse_spec(spec)


def test_what_needs_a_shoe_is_refused() -> None:
    rules = Rules("INF")
    with pytest.raises(UsageError, match="no shoe"):
        rules.full_shoe()
    with pytest.raises(UsageError, match="INF with a shoe"):
        analyze(rules, shoe="A:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,T:16")
    with pytest.raises(UsageError, match="levels"):
        analyze(rules, levels=True)
    with pytest.raises(RuleConflictError, match="BNS and --split cdz"):
        analyze("INF B5C=3:2 BNS")
    bns = analyze("INF B5C=3:2 BNS", split="cdp")
    assert bns.ev == float(InfiniteGame(Rules("INF B5C=3:2 BNS")).round_ev())
    # its note names the levels that give its figure: not CDZ-, refused just above
    assert any("CDP1, CDP and optimal splitting give this one figure here (CDZ- is not "
               "computed: BNS)" in n for n in bns.report.notes)
    assert any("CDZ-, CDP1, CDP and optimal" in n for n in analyze("INF B5C=3:2").report.notes)
    with pytest.raises(AnalyzerError):
        InfiniteGame(Rules("6D"))


@pytest.mark.parametrize("cards", [["T"], []])
@pytest.mark.parametrize("spec", ["INF H17", "1D H17"])
def test_a_hand_of_fewer_than_two_cards_is_refused_on_any_deck(spec: str,
                                                                cards: list[str]) -> None:
    """An infinite deck printed the values of a one-card and an empty hand (found by an
    adversarial test); a finite shoe refused them."""
    from analyzer import hand

    with pytest.raises(AnalyzerError):
        hand(spec, "6", cards)


@pytest.mark.parametrize("argv", [
    ["dealer", "--rules", "INF"],
    ["chart", "--rules", "INF"],
    ["distribution", "--rules", "INF"],
    ["simulate", "--rules", "INF", "--rounds", "1000"],
    ["compare", "--effects", "--base", "INF"],
    ["eor", "--rules", "INF"],
])
def test_commands_without_an_infinite_deck_say_so(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "analyzer", *argv], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert "INF" in done.stderr, done.stderr


@pytest.mark.parametrize("spec,up,cards", [
    ("6D S17 DOA DAS SPL3 LS", "6", "8,8"), ("6D S17 DOA DAS SPL3 LS", "T", "T,6"),
    ("6D H17 DOA DAS SPL3 LS ENHC", "A", "A,7"), ("6D SP H17 LS DAN RD1 DDR SAH", "9", "2,3,4")])
def test_a_hands_plays_converge(spec: str, up: str, cards: str) -> None:
    """``bja hand``: each play's EV, conditioned and not, as 10**4 and 10**5 decks tend."""
    rules = Rules(spec)
    for unconditioned in (False, True):
        inf = hand(rules.replace(decks=INFINITE), up, cards, unconditioned=unconditioned)
        by = {n: hand(rules.replace(decks=n), up, cards, unconditioned=unconditioned).actions
              for n in (10**4, 10**5)}
        assert set(inf.actions) == set(by[10**5])
        for action, value in inf.actions.items():
            gaps = [(by[n][action] - value) * n for n in by]
            assert abs(gaps[0] - gaps[1]) < 1e-6 + 1e-4 * abs(gaps[1]), (action, gaps)
    natural = hand(Rules("INF S17"), "A", "A,T", unconditioned=True).to_dict()["blackjack"]
    assert natural == pytest.approx(1.5 * 9 / 13)


def test_bja_ev_prints_the_infinite_deck() -> None:
    done = subprocess.run([sys.executable, "-m", "analyzer", "ev", "--rules",
                           "INF S17 DOA DAS SPL3 LS", "--exact", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"shoe": "INF"' in done.stdout
    assert str(_infinite(Rules("INF S17 DOA DAS SPL3 LS"))) in done.stdout


def _rebuilt(spec: str, upcard: int, *, unconditioned: bool) -> Fraction:
    """``bja hand``'s best value of every two-card hand (a natural's own value), weighted by
    its chance: what ``bja ev`` gives for the upcard, where the hands carry the blackjack."""
    labels = "A23456789T"
    game = InfiniteGame(parse_spec(spec))
    total = Fraction(0)
    for a in range(1, 11):
        for b in range(1, 11):
            result = hand(spec, labels[upcard - 1], [labels[a - 1], labels[b - 1]],
                          exact=True, unconditioned=unconditioned)
            value = result.report.blackjack if result.best == "" else max(
                result.actions.values())
            total += game.p[a - 1] * game.p[b - 1] * Fraction(value)
    return total


@pytest.mark.parametrize("spec,upcard", [("INF S17 DOA DAS SPL3 ES ENHC", 1),
                                         ("INF S17 DOA DAS SPL3 ES ENHC", 10),
                                         ("INF S17 DOA DAS SPL3 ES PEEKA", 10),
                                         ("INF H17 DOA DAS SPL1 ES", 1)])
def test_every_hand_under_early_surrender_rebuilds_the_upcards_ev(spec: str,
                                                                   upcard: int) -> None:
    """An early surrender is half the bet, made before any blackjack check: ``bja hand`` on
    an infinite deck gave it the late value against an unchecked blackjack (-65.38% for 2-3
    against an ace under ENHC, so "hit" best where surrender is), as no deck count does.
    Every hand's best value, summed over the deal, is the upcard's EV exactly; unchecked,
    the surrender is -1/2; a peeked ace's hands are the unconditioned ones."""
    game = InfiniteGame(parse_spec(spec))
    peeked = parse_spec(spec).peeks_on(upcard)
    assert _rebuilt(spec, upcard, unconditioned=peeked) == game.upcard_ev(upcard)
    two_three = hand(spec, "A23456789T"[upcard - 1], "2,3", exact=True, unconditioned=peeked)
    assert two_three.actions["surrender"] == Fraction(-1, 2)
    if upcard == 1 and not peeked:  # against an unchecked ace, 2-3 gives up
        assert two_three.best == "surrender"
