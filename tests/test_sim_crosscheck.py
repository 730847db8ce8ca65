"""The compiled simulator against the exact engine, rule by rule, and its own machinery:
exact histograms, the cut card, reproducibility, the shoe studies and the error lines.

Agreement tests compare the simulated mean with the engine's exact EV of the same
strategy on small shoes (1-2 decks, where composition matters most) within 4 standard
errors; the default run takes a few combined rule sets, the slow run every rule alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from analyzer.cli import main as cli
from analyzer.core import actions
from analyzer.core.presets import get_preset
from analyzer.core.rules import Rules, parse_spec
from analyzer.engine.analysis import Analysis
from analyzer.engine.frozen import FrozenStrategy
from analyzer.sim import (
    DecisionTables,
    SimulationError,
    counter_rounds,
    counter_win_rate,
    export_tables,
    rtp_as_dealt,
    simulate,
)
from analyzer.sim import layout as L
from analyzer.sim import run as sim_run
from analyzer.sim.shoe_study import parse_spread

COMBINED = [
    "1D H17 DOA DAS SPL3 RSA HSA LS",
    "2D S17 D10 NDAS SPL1 ES BJ6:5 ENHC OBO",
    "2D S17 D9 DAS SPL2 LS SPR NSA SNA PEEKA CH5 A21",
    "2D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9",
]
# One rule at a time on a 1-deck base (the free-bet rules on an NDAS SPL1 base).
BASE = "1D S17 DOA DAS SPL3 NS"
SINGLE = [
    "H17", "D9", "D10", "NDAS", "SPL1", "SPL2", "NSPL", "RSA", "HSA", "LS", "ES", "BJ6:5",
    "PEEKA", "ENHC", "ENHC OBO", "PEEKA OBO", "CH5", "CH6 CHBJ", "CH7", "A21", "P22", "SPR",
    "NSA", "LS SNA", "NDAS SPL1 FD9-11", "NDAS SPL1 FSA-9", "NDAS SPL1 FD10,11 FS2-9 SPR"]


class _Stand:
    """Stand on everything: a strategy that costs nothing to export."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        return L.STAND

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int:
        return L.STAND


class _Simple(_Stand):
    """Surrender 16 (when offered), double 10 and 11, hit below 12, else stand."""

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
        if L.SURRENDER in options and hard == 16:
            return L.SURRENDER
        if L.DOUBLE in options and hard in (10, 11):
            return L.DOUBLE
        return L.HIT if hard < 12 else L.STAND


@pytest.fixture(scope="module")
def four_jacks() -> tuple[Rules, DecisionTables, float]:
    """Four-jacks (2 decks, cut card at 52), its optimal tables and its full-shoe EV."""
    rules = get_preset("four-jacks").rules
    analysis = Analysis(rules.replace(cut_card=0))
    return rules, export_tables(rules, FrozenStrategy(analysis)), float(analysis.ev())


FourJacks = tuple[Rules, DecisionTables, float]


def _agree(spec: str, rounds: int, seed: int, base: str = "") -> None:
    rules = parse_spec(spec, base=parse_spec(base)) if base else parse_spec(spec)
    analysis = Analysis(rules)
    exact = float(analysis.ev())
    result = simulate(rules, rounds, seed=seed, jobs=2, strategy=FrozenStrategy(analysis))
    assert abs(result.z(exact)) < 4, (spec, result.mean, result.se, exact)


def test_action_codes_are_the_strategy_protocols() -> None:
    assert (L.STAND, L.HIT, L.DOUBLE, L.SPLIT, L.SURRENDER) == \
        (actions.STAND, actions.HIT, actions.DOUBLE, actions.SPLIT, actions.SURRENDER)


@pytest.mark.parametrize("spec", COMBINED)
def test_combined_rules_agree_with_the_exact_engine(spec: str) -> None:
    _agree(spec, 1_000_000, seed=31)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SINGLE)
def test_each_rule_agrees_with_the_exact_engine(spec: str) -> None:
    _agree(spec, 4_000_000, seed=32, base=BASE)


# -- the result and its histogram ---------------------------------------------------------
def test_histogram_keys_are_exact_results() -> None:
    rules = parse_spec("2D S17 DOA DAS SPL3 LS BJ6:5")
    result = simulate(rules, 200_000, seed=4, jobs=1, strategy=_Simple())
    hist = result.histogram
    assert sum(hist.values()) == result.rounds
    assert all(isinstance(k, Fraction) and -8 <= k <= 8 for k in hist)
    assert {Fraction(6, 5), Fraction(-1, 2), Fraction(0), Fraction(1), Fraction(-1),
            Fraction(2), Fraction(-2)} <= set(hist)
    assert all((k * 10).denominator == 1 for k in hist)
    assert float(result.mean_exact) == pytest.approx(result.mean, abs=1e-15)
    assert json.dumps(result.to_dict()["histogram"])  # keys as text, e.g. "6/5"


# -- reproducibility ----------------------------------------------------------------------
def test_seed_and_jobs_fix_the_result_whatever_the_chunking(
        monkeypatch: pytest.MonkeyPatch, four_jacks: FourJacks) -> None:
    rules, tables, _ = four_jacks
    a = simulate(rules, 300_000, seed=5, jobs=2, strategy=tables)
    monkeypatch.setattr(sim_run, "CHUNK", 7_919)
    b = simulate(rules, 300_000, seed=5, jobs=2, strategy=tables)
    c = simulate(rules, 300_000, seed=6, jobs=2, strategy=tables)
    assert a.histogram == b.histogram and a.se == b.se and a.seed == 5
    assert c.histogram != a.histogram


# -- the cut card -------------------------------------------------------------------------
def test_cut_card_deals_shoes_down_to_it(four_jacks: FourJacks) -> None:
    rules, tables, exact = four_jacks  # 2 decks, reshuffled after 52 cards
    rec = counter_rounds(rules, 200_000, strategy=tables, seed=8)
    assert len(rec.dealt) == 200_000 and rec.dealt.max() < 52
    firsts = rec.dealt == 0
    shoes = int(firsts.sum())
    assert 200_000 / 12 < shoes < 200_000 / 8  # about 10 rounds a shoe
    assert np.all(rec.true_count[firsts] == 0)  # a fresh shoe counts zero
    # rounds after the first see a count; the first round of each shoe is a full-shoe round
    assert np.abs(rec.true_count[~firsts]).max() > 3
    first = rec.result[firsts]
    assert abs(first.mean() - exact) < 4 * first.std() / np.sqrt(shoes)


def test_a_round_past_the_last_card_reuses_the_discards() -> None:
    rules = parse_spec("1D S17 DOA DAS SPL3 CUT50")  # rounds often start at card 49
    result = simulate(rules, 20_000, seed=3, jobs=1, strategy=_Stand())
    assert result.rounds == 20_000 and -0.3 < result.mean < -0.1  # standing on all: ~-16%


def test_rtp_as_dealt_agrees_with_a_plain_simulation(four_jacks: FourJacks) -> None:
    rules, tables, _ = four_jacks
    dealt = rtp_as_dealt(rules, tables, 1_000_000, seed=1, jobs=2)
    rtp, se, *_ = dealt
    plain = simulate(rules, 1_000_000, seed=2, jobs=2, strategy=tables)
    assert 0 < se < 0.0015 and dealt.cut_card == 52
    assert abs(rtp - plain.rtp) < 4 * (se**2 + plain.se**2) ** 0.5
    with pytest.raises(SimulationError, match="no cut card"):
        rtp_as_dealt(rules.replace(cut_card=0), tables, 1000)


# -- the counter --------------------------------------------------------------------------
def test_counter_without_a_cut_card_bets_one_unit() -> None:
    rules = parse_spec("8D S17 DOA DAS SPL3 LS")
    res = counter_win_rate(rules, 100_000, spread=(1, 8), strategy=_Stand(), seed=2, jobs=1)
    assert res.mean_bet == 1.0 and [r.true_count for r in res.by_true_count] == [0]
    assert res.win_per_100 == pytest.approx(100 * res.flat_ev)


def test_counter_bets_up_with_the_count_and_the_count_predicts_results(
        four_jacks: FourJacks) -> None:
    rules, tables, _ = four_jacks
    res = counter_win_rate(rules, 400_000, spread=(1, 8), strategy=tables, seed=3)
    assert sum(r.share for r in res.by_true_count) == pytest.approx(1.0)
    assert all(r.mean_bet == min(8, max(1, r.true_count)) for r in res.by_true_count)
    assert 1.2 < res.mean_bet < 2.0 and res.se_per_100 > 0
    rec = counter_rounds(rules, 1_000_000, strategy=tables, seed=4)
    assert np.corrcoef(rec.true_count, rec.result)[0, 1] > 0.01  # about 10 SE


@pytest.mark.parametrize("text", ["8-1", "0-8", "1to8", "1-1001", ""])
def test_bad_spreads_are_refused(text: str) -> None:
    with pytest.raises(SimulationError, match="spread"):
        parse_spread(text)
    assert parse_spread(" 2 - 16 ") == (2, 16)


# -- independence and imports -------------------------------------------------------------
def test_simulator_modules_do_not_load_the_engine_and_help_does_not_load_numba() -> None:
    code = ("import sys, analyzer.sim.kernel, analyzer.sim.estimate, "
            "analyzer.sim.shoe_study; "
            "print(any(m.startswith('analyzer.engine') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
    code = "import sys, analyzer.cli.main; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


# -- the command's error lines ------------------------------------------------------------
@pytest.mark.parametrize(("argv", "needle"), [
    (["--rounds", "1e99"], "2 to 100,000,000,000"),
    (["--rounds", "1e999"], "whole number"),
    (["--rounds", "100", "--strategy", "best"], "unknown strategy 'best'"),
    (["--rounds", "100", "--counter", "ko"], "unknown count system 'ko'"),
    (["--rounds", "100", "--counter", "hilo", "--spread", "8-1"], "spread"),
    (["--rounds", "100", "--rules", "CUT416"], "CUT416 with 8D"),
])
def test_cli_refuses_with_one_line(argv: list[str], needle: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--game", "charlie7", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bja: error: ") and err.count("\n") == 1 and needle in err


def test_cli_counter_and_no_cut_card(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--rules", "1D S17 DOA NDAS SPL1 NS CUT26", "--rounds", "20000",
            "--seed", "3", "--quiet"]
    assert cli.main([*argv, "--counter", "hilo", "--spread", "1-8", "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert out["spread"] == [1, 8] and out["cut_card"] == 26 and out["rounds"] == 20000
    assert {"win_per_100", "se_per_100", "mean_bet", "by_true_count"} <= set(out)
    assert cli.main([*argv, "--no-cut-card", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cut_card"] == 0 and sum(out["histogram"].values()) == 20000
