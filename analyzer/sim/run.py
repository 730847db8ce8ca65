"""Running the compiled loop: jobs on threads, reproducible seeds, progress, and the sums.

Each job owns a shoe, a generator seeded from the ``i``-th child of
``SeedSequence(seed)`` and its share of the rounds, so a run depends only on
``(rules, tables, rounds, seed, jobs)``: the chunking that feeds the progress
bar never changes a result.  Jobs run on threads (the kernel releases the GIL),
sharing the read-only decision tables.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.sim import layout as L
from analyzer.sim.config import (
    SimRules,
    SimulationError,
    check_counts,
    check_cut,
    check_size,
    shoe_codes,
)
from analyzer.sim.kernel import close_shoe, run_chunk
from analyzer.sim.tables import DecisionTables
from analyzer.util.progress import ProgressCallback, report

CHUNK = 1 << 18  # rounds per kernel call: small, so the progress bar moves smoothly
_ERRORS = {1: "a round used up the whole shoe", 2: "a hand drew a card the shoe cannot hold",
           3: "the decision tables miss a hand that was dealt",
           4: "a round's result fell outside the histogram"}
I64 = npt.NDArray[np.int64]


@dataclass
class Totals:
    """What the jobs accumulated, summed: see :func:`~analyzer.sim.kernel.run_chunk`."""

    hist: I64
    shoe_acc: I64
    tc_acc: I64
    records: npt.NDArray[np.float64] | None
    seconds: float
    cpu_seconds: float
    compile_seconds: float
    seed: int
    jobs: int
    per_job: list[int] = field(default_factory=list)


class _Job:
    """One job's shoe, generator and accumulators; it plays its share in chunks."""

    def __init__(self, sr: SimRules, tab: npt.NDArray[np.int32], cfg: I64, share: int,
                 seed: np.random.SeedSequence, record: bool) -> None:
        shoe = shoe_codes(sr.rules)
        self.st = np.zeros(L.SHOE + len(shoe), np.int64)
        self.st[L.SHOE:] = shoe
        self.st[L.SIZE] = len(shoe)
        rng = seed.generate_state(4, np.uint64)
        if not rng.any():  # pragma: no cover - xoshiro's one forbidden state
            rng[0] = 1
        self.st[L.RNG:L.RNG + 4] = rng.view(np.int64)
        self.tab, self.cfg = tab.reshape(-1), cfg  # the kernel indexes rows itself
        self.hist = np.zeros(sr.bins, np.int64)
        self.shoe_acc = np.zeros(6, np.int64)
        self.tc_acc = np.zeros((2 * L.TC_MAX + 1, 6), np.int64)
        self.records = np.zeros((share if record else 0, 3), np.float64)
        self.share, self.done = share, 0
        self.cpu_seconds = 0.0  # this job's thread CPU time (a per-core speed on a busy box)

    def chunk(self, n: int) -> None:
        rec = self.records[self.done:self.done + n] if len(self.records) else self.records
        err = run_chunk(n, self.st, self.tab, self.cfg, self.hist, self.shoe_acc, self.tc_acc,
                        rec)
        if err:
            raise SimulationError(f"simulation failed: {_ERRORS.get(int(err), err)}")
        self.done += n

    def run(self, stop: threading.Event) -> None:
        start = time.thread_time()
        while self.done < self.share and not stop.is_set():
            self.chunk(min(CHUNK, self.share - self.done))
        close_shoe(self.st, self.shoe_acc)  # the last, partly dealt shoe
        self.cpu_seconds = time.thread_time() - start


def _progress(jobs: list[_Job], total: int, futures: list[Any], label: str,
              progress: ProgressCallback) -> None:
    """Wait for the jobs, telling ``progress`` the rounds played ten times a second."""
    last = -1
    while True:
        done, _ = wait(futures, timeout=0.1, return_when=FIRST_EXCEPTION)
        finished = len(done) == len(futures) or any(f.exception() for f in done)
        count = sum(j.done for j in jobs)
        if count != last:
            report(progress, label, count, total)
            last = count
        if finished:
            return


def run(sr: SimRules, tables: DecisionTables, rounds: int, *, seed: int | None, jobs: int,
        cut: int, spread: tuple[int, int] | None = None, record: bool = False,
        progress: ProgressCallback | None = None, label: str = "simulating") -> Totals:
    """Play ``rounds`` rounds in ``jobs`` parallel jobs and sum what they accumulated
    (``progress`` hears of the rounds played, as ``label``)."""
    check_counts(rounds, jobs, seed)
    check_cut(sr.rules, cut)
    check_size(sr.rules, rounds, jobs, cut, spread)
    root = np.random.SeedSequence(seed)
    used_seed = int(root.entropy)  # type: ignore[arg-type]
    jobs = min(jobs, rounds)
    cfg = sr.cfg(cut, spread, tables.split, tables.suited)
    tab = tables.packed()
    shares = [rounds // jobs + (i < rounds % jobs) for i in range(jobs)]
    work = [_Job(sr, tab, cfg, n, child, record)
            for n, child in zip(shares, root.spawn(jobs), strict=True)]
    start = time.perf_counter()
    _Job(sr, tab, cfg, 0, root, False).chunk(0)  # compiles, or loads the cache, once
    compiled = time.perf_counter()
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(job.run, stop) for job in work]
        try:
            if progress is not None:
                _progress(work, rounds, futures, label, progress)
            for f in futures:
                f.result()
        except BaseException:
            stop.set()
            raise
    seconds = time.perf_counter() - compiled
    records = np.concatenate([j.records for j in work]) if record else None
    return Totals(hist=sum((j.hist for j in work), np.zeros(sr.bins, np.int64)),
                  shoe_acc=sum((j.shoe_acc for j in work), np.zeros(6, np.int64)),
                  tc_acc=sum((j.tc_acc for j in work), np.zeros_like(work[0].tc_acc)),
                  records=records, seconds=seconds,
                  cpu_seconds=sum(j.cpu_seconds for j in work), compile_seconds=compiled - start,
                  seed=used_seed, jobs=jobs, per_job=shares)


def play_round(sr: SimRules, tables: DecisionTables, cards: list[int]) -> tuple[int, int]:
    """One round dealt from a stacked shoe - ``cards`` (codes) first, then the rest of the
    shoe in order - through the compiled loop: ``(result in ticks, cards used)``."""
    rest = list(shoe_codes(sr.rules))
    for c in cards:
        if c not in rest:
            raise SimulationError(f"card code {c} is not (or no longer) in the shoe")
        rest.remove(c)
    n = len(rest) + len(cards)
    job = _Job(sr, tables.packed(), sr.cfg(n - 1, None, tables.split, tables.suited), 1,
               np.random.SeedSequence(0), False)
    job.st[L.SHOE:] = [*cards, *rest]
    job.st[L.STACKED] = 1
    job.chunk(1)
    return sr.low + int(np.flatnonzero(job.hist)[0]), int(job.st[L.K])
