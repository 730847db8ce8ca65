"""The simulator's compiled loop against its C reference and against its own records.

* The C build of the same loop (``benchmarks/sim_reference.c``, what the benchmark
  measures the kernel against) must reproduce the kernel exactly: histogram, sums,
  per-round records and generator state, for rule sets that exercise every branch.
* The sums the kernel adds once a chunk (true-count bins, per-shoe sums) must equal
  those recomputed round by round from its per-round records, and the Hi-Lo count it
  keeps must be that of the cards dealt from the shoe.
* The dealer's stop table must stop where the rules say.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from analyzer.core.actions import DOUBLE, STAND
from analyzer.core.presets import get_preset
from analyzer.core.rules import Rules, parse_spec
from analyzer.sim import export_tables
from analyzer.sim import layout as L
from analyzer.sim.config import SimRules
from analyzer.sim.kernel import _DEALER, close_shoe, run_chunk
from analyzer.sim.run import _Job
from analyzer.sim.tables import DecisionTables
from tests.test_simulate import Script

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_simulate.py"
HILO = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1, 11: -1, 12: -1, 13: -1}
SPECS = [
    "1D H17 DOA DAS SPL3 RSA HSA LS",
    "2D S17 D10 NDAS SPL1 ES BJ6:5 ENHC OBO",
    "2D S17 D9 DAS SPL2 LS SPR NSA SNA PEEKA CH5 A21",
    "2D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9",
    "1D S17 DOA DAS SPL3 CH5 CHBJ ENHC",
    "1D S17 DOA DAS SPL3 CUT50",  # rounds run past the last card and reuse the discards
    "1D SP H17 DOA DAS SPL3 RSA HSA BJW P21W ENHC",  # Spanish decks, BJW, P21W
    "2D H17 DOA DAS SPL3 LS DAN DDR",  # doubles after hitting, split hands too; rescues
    "1D S17 D10 NDAS SPL1 NS DAN DDR FD9-11 CH6",  # a free double is not rescued
    # redoubles, rescues at every stake, 21 bonuses (not on doubled hands)
    "2D H17 DOA DAS SPL3 LS DAN DDR RD3 B5C=3:2 B6C=2:1 B7C=5:1 BND",
    "1D S17 D10 NDAS SPL3 RD2 B5C=7:4 B6C=2:1 B7C=3:1 BNS ENHC OBO",  # ticks of 1/4 bet
    "2D H17 DOA DAS SPL3 LS SAH DAN",  # surrender after hitting (unsplit hands)
    # suits: 6-7-8 and 7-7-7 by suit, the Super Bonus, a suited blackjack, hands by suits
    "3D H17 DOA DAS SPL3 LS B678=3:2/2:1/3:1 B777=2:1/5:1/9:1 SB=50:1 BSBJ=2:1",
    "3D S17 DOA DAS SPL3 SPR DAN B678=2:1/3:1/5:1 B777=3:2/2:1/3:1 SB=20:1 BND BNS P21W",
]


class _Rescuer(Script):
    """The script, giving up a double that landed on hard 12-16 (DDR) and doubling again on
    9-11 (RDn)."""

    def decide_redouble(self, upcard: int, comp: tuple[int, ...], level: int) -> bool:
        hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
        return 9 <= hard <= 11 and not comp[0]

    def decide_rescue(self, upcard: int, comp: tuple[int, ...], level: int = 1) -> bool:
        hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
        return 12 <= hard <= 16 and not (comp[0] and hard <= 11)

    def decide_suits(self, upcard: int, comp: tuple[int, ...], hand_suits: tuple[int, int],
                     upcard_suit: int, options: frozenset[int]) -> int:
        """Double one suit in spades or with the upcard in another suit, stand other single
        suits, play mixed suits as the script."""
        if hand_suits[0] != hand_suits[1]:
            return self.decide(upcard, comp, options)
        if DOUBLE in options and (hand_suits[0] == 0 or upcard_suit != hand_suits[0]):
            return DOUBLE
        return STAND


def _tables(rules: Rules) -> DecisionTables:
    return export_tables(rules, _Rescuer(split_tens=True, surrender_16=True))


def _settings(rules: Rules) -> list[tuple[int, tuple[int, int] | None, bool]]:
    """(cut, spread, records): no cut card; the cut card; a counter; a counter without cut."""
    cut = rules.cut_card or 26 * rules.decks
    return [(0, None, False), (cut, None, True), (cut, (1, 8), True), (0, (2, 4), True)]


def _job(rules: Rules, tables: DecisionTables, cut: int, spread: tuple[int, int] | None,
         record: bool, rounds: int, seed: int = 9) -> _Job:
    sr = SimRules.of(rules)
    return _Job(sr, tables.packed(), sr.cfg(cut, spread, tables.split, tables.suited), rounds,
                np.random.SeedSequence(seed), record)


# -- the C reference ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, object]:
    """The benchmark module and the C reference it builds (skipped without a C compiler)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) to build the reference")
    spec = importlib.util.spec_from_file_location("bench_simulate", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_simulate"] = module
    spec.loader.exec_module(module)
    return module, module.build_reference("cc", ["-O2"], tmp_path_factory.mktemp("ref"))


@pytest.mark.parametrize("spec", SPECS)
def test_the_c_reference_reproduces_the_kernel(spec: str,
                                               bench: tuple[ModuleType, object]) -> None:
    module, lib = bench
    rules = parse_spec(spec)
    tables = _tables(rules)
    for cut, spread, record in _settings(rules):
        jobs = [_job(rules, tables, cut, spread, record, 30_000) for _ in range(2)]
        module.simulator_job(jobs[0], 30_000)
        assert module.reference_job(lib, jobs[1], 30_000) == 0
        for name in ("hist", "shoe_acc", "tc_acc", "records", "st"):
            assert np.array_equal(getattr(jobs[0], name), getattr(jobs[1], name)), \
                (spec, cut, spread, name)


# -- the sums against the records ---------------------------------------------------------
def _sums_from_records(records: np.ndarray, spread: tuple[int, int] | None,
                       tc_max: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's tc_acc and shoe_acc recomputed round by round from its records."""
    tc_acc = np.zeros((2 * tc_max + 1, 6), np.int64)
    shoes: list[list[int]] = []
    for tc, x, dealt in records.tolist():
        x = int(x)
        floor_tc = math.floor(tc) if spread else 0
        bet = min(max(floor_tc, spread[0]), spread[1]) if spread else 1
        w = bet * x
        row = tc_acc[max(-tc_max, min(tc_max, floor_tc)) + tc_max]
        row += np.array([1, x, x * x, bet, w, w * w], np.int64)
        if dealt == 0 or not shoes:  # a fresh shoe starts at its first card
            shoes.append([0, 0])
        shoes[-1][0] += w
        shoes[-1][1] += 1
    s = np.array([w for w, _ in shoes], np.int64)
    m = np.array([n for _, n in shoes], np.int64)
    shoe_acc = np.array([len(shoes), s.sum(), (s * s).sum(), m.sum(), (m * m).sum(),
                         (s * m).sum()], np.int64)
    return tc_acc, shoe_acc


@pytest.mark.parametrize("spec", [SPECS[0], SPECS[1], SPECS[5]])
def test_sums_added_once_a_chunk_are_the_rounds_sums(spec: str) -> None:
    rules = parse_spec(spec)
    tables = _tables(rules)
    for cut, spread, _ in _settings(rules):
        job = _job(rules, tables, cut, spread, True, 20_000, seed=3)
        for start in range(0, 20_000, 3_000):  # chunks end inside shoes
            job.chunk(min(3_000, 20_000 - start))
        close_shoe(job.st, job.shoe_acc)
        tc_acc, shoe_acc = _sums_from_records(job.records, spread, L.TC_MAX)
        assert np.array_equal(job.tc_acc, tc_acc), (spec, cut, spread)
        assert np.array_equal(job.shoe_acc, shoe_acc), (spec, cut, spread)
        results = job.records[:, 1].astype(np.int64) - SimRules.of(rules).low
        assert np.array_equal(job.hist, np.bincount(results, minlength=len(job.hist)))


def test_the_running_count_is_that_of_the_cards_dealt() -> None:
    rules = get_preset("four-jacks").rules  # 2 decks, cut card at 52, split by rank
    job = _job(rules, _tables(rules), rules.cut_card, (1, 8), False, 3_000)
    counts = set()
    for _ in range(3_000):  # one round a call: the state is checked between every two
        assert run_chunk(1, job.st, job.tab, job.cfg, job.hist, job.shoe_acc, job.tc_acc,
                         job.records) == 0
        dealt = job.st[L.SHOE:L.SHOE + job.st[L.K]].tolist()  # this shoe's cards so far
        assert job.st[L.RC] == sum(HILO[c] for c in dealt)
        counts.add(int(job.st[L.RC]))
    assert len(counts) > 10  # the count moved


# -- the dealer ---------------------------------------------------------------------------
@pytest.mark.parametrize("h17", [0, 1])
def test_the_dealer_stop_table_follows_the_rules(h17: int) -> None:
    for hard in range(2, 28):
        for ace in (0, 1):
            if ace and hard < 2:
                continue
            best = hard + 10 if ace and hard <= 11 else hard
            soft = best != hard
            stop = int(_DEALER[64 * h17 + 2 * hard + ace])
            if best >= 18 or (best == 17 and not (soft and h17)):
                assert stop == best, (hard, ace)  # stands (or busts) on this total
            else:
                assert stop == 0, (hard, ace)  # draws: below 17, or soft 17 under H17
    assert _DEALER[64 * 0 + 2 * 7 + 1] == 17 and _DEALER[64 * 1 + 2 * 7 + 1] == 0
