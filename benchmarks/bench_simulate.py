"""Rounds per second of the compiled simulator on one core, against a C build of its own loop.

The reference is ``benchmarks/sim_reference.c``: the kernel's round loop
(``analyzer/sim/kernel.py``) translated to C, built here with the system compiler
(``cc -O2``; ``--cflags`` to change) and the layout constants of
``analyzer/sim/layout.py``, loaded with ctypes and fed the very arrays the
simulator builds.  Before timing, both play the same seeds under several
settings (no cut card, the cut card, a counter's spread with per-round records)
and must give the same histograms, sums, records and generator state; every
timed pair is checked again.  Then the two run interleaved (A B A B ...), one
job each, and the script prints each run, the medians and the median of the
per-pair ratios (reference time / simulator time: above 1, the simulator is the
faster).  Speeds are per CPU second of the job's thread, which a shared, busy
machine does not hide; wall-clock speeds are printed beside them, with the load.

The simulator is timed through ``simulate`` (threads, chunks, progress plumbing
included); tables are exported and the kernel compiled (or loaded from numba's
cache) before the clock starts.  ``--games`` adds the older table: every listed
game with the optimal strategy, per number of jobs.

    python benchmarks/bench_simulate.py [--game charlie7] [--strategy chart]
        [--rounds 5000000] [--repeat 7] [--games ...] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt

from analyzer.core.presets import PRESETS, get_preset
from analyzer.core.rules import Rules
from analyzer.sim import export_tables, optimal_strategy, simulate
from analyzer.sim import layout as L
from analyzer.sim.config import SimRules
from analyzer.sim.run import _Job
from analyzer.sim.strategies import STRATEGIES, strategy_tables
from analyzer.sim.tables import DecisionTables

SOURCE = Path(__file__).with_name("sim_reference.c")
I64 = npt.NDArray[np.int64]


def build_reference(cc: str, cflags: list[str], out_dir: Path) -> ctypes.CDLL:
    """Compile the C reference with the layout's constants; the loaded library."""
    consts = {name: value for name, value in vars(L).items()
              if name.isupper() and isinstance(value, int)}
    defines = [f"-D{name}={value}" for name, value in sorted(consts.items())]
    lib_path = out_dir / "sim_reference.so"
    subprocess.run([cc, *cflags, "-shared", "-fPIC", *defines, "-o", str(lib_path),
                    str(SOURCE), "-lm"], check=True)
    lib = ctypes.CDLL(str(lib_path))
    lib.run_chunk.restype = ctypes.c_int64
    lib.run_chunk.argtypes = [ctypes.c_int64, *[ctypes.c_void_p] * 4, ctypes.c_int64,
                              *[ctypes.c_void_p] * 3, ctypes.c_int64]
    lib.close_shoe.restype = None
    lib.close_shoe.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    return lib


def _ptr(a: npt.NDArray[np.generic]) -> int:
    assert a.flags.c_contiguous
    return int(a.ctypes.data)


def reference_job(lib: ctypes.CDLL, job: _Job, rounds: int) -> int:
    """Play ``job``'s share through the C reference, like ``_Job.run``; its error code."""
    recs = job.records
    err = lib.run_chunk(rounds, _ptr(job.st), _ptr(job.tab), _ptr(job.cfg), _ptr(job.hist),
                        len(job.hist), _ptr(job.shoe_acc), _ptr(job.tc_acc), _ptr(recs),
                        len(recs))
    lib.close_shoe(_ptr(job.st), _ptr(job.shoe_acc))
    job.done = rounds
    return int(err)


def simulator_job(job: _Job, rounds: int, chunk: int = 1 << 18) -> int:
    """Play ``job``'s share through the project's kernel in chunks, like ``_Job.run``."""
    while job.done < rounds:
        job.chunk(min(chunk, rounds - job.done))
    from analyzer.sim.kernel import close_shoe

    close_shoe(job.st, job.shoe_acc)
    return 0


def check_same(lib: ctypes.CDLL, rules: Rules, tables: DecisionTables) -> None:
    """Both loops, same seeds and arrays, under several settings: every output identical."""
    sr = SimRules.of(rules)
    cut = rules.cut_card or 26 * rules.decks
    settings = [(0, None, False), (cut, None, False), (cut, (1, 8), True), (0, (2, 4), True)]
    for cut_card, spread, record in settings:
        cfg = sr.cfg(cut_card, spread, tables.split, tables.suited)
        outputs = []
        for play in (simulator_job, lambda job, n: reference_job(lib, job, n)):
            job = _Job(sr, tables.packed(), cfg, 100_000, np.random.SeedSequence(9), record)
            play(job, 100_000)
            outputs.append([job.hist, job.shoe_acc, job.tc_acc, job.records, job.st])
        for name, a, b in zip(["hist", "shoe_acc", "tc_acc", "records", "st"], *outputs,
                              strict=True):
            if not np.array_equal(a, b):
                sys.exit(f"the C reference differs from the kernel ({name}; cut {cut_card}, "
                         f"spread {spread}): it is not the same loop")


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(thread CPU seconds, wall seconds) of ``fn()``."""
    cpu, wall = time.thread_time(), time.perf_counter()
    fn()
    return time.thread_time() - cpu, time.perf_counter() - wall


def compare(lib: ctypes.CDLL, game: str, strategy: str, rounds: int,
            repeat: int) -> tuple[float, float, float]:
    """The simulator and the reference interleaved, one job each; medians and ratios.

    Returns the medians: the simulator's rounds per CPU second, the reference's, and the
    reference's time over the simulator's (pair by pair)."""
    rules = get_preset(game).rules
    tables, label = strategy_tables(rules, strategy)
    check_same(lib, rules, tables)
    sr = SimRules.of(rules)
    cfg = sr.cfg(rules.cut_card, None, tables.split, tables.suited)
    simulate(rules, 1000, seed=0, jobs=1, strategy=tables)  # compile, or load the cache
    print(f"{game}, {label}, {rounds:,} rounds a run, one job; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'run':>3} {'simulator r/CPU-s':>18} {'C r/CPU-s':>12} {'ratio':>6} "
          f"{'simulator r/s':>14} {'C r/s':>12}")
    sim_cpu, ref_cpu, sim_wall, ref_wall, ratios = [], [], [], [], []
    for i in range(repeat):
        seed = 100 + i
        result = simulate(rules, rounds, seed=seed, jobs=1, strategy=tables)
        job = _Job(sr, tables.packed(), cfg, rounds, np.random.SeedSequence(seed).spawn(1)[0],
                   False)
        cpu, wall = _timed(lambda job=job: reference_job(lib, job, rounds))
        hist = {Fraction(sr.low + j, sr.ticks): int(n) for j, n in enumerate(job.hist) if n}
        if hist != result.histogram:
            sys.exit(f"run {i}: the C reference's histogram differs from the simulator's")
        sim_cpu.append(rounds / result.cpu_seconds)
        ref_cpu.append(rounds / cpu)
        sim_wall.append(rounds / result.seconds)
        ref_wall.append(rounds / wall)
        ratios.append(cpu / result.cpu_seconds)
        print(f"{i:>3} {sim_cpu[-1]:>18,.0f} {ref_cpu[-1]:>12,.0f} {ratios[-1]:>6.2f} "
              f"{sim_wall[-1]:>14,.0f} {ref_wall[-1]:>12,.0f}", flush=True)
    med = statistics.median
    print(f"{'med':>3} {med(sim_cpu):>18,.0f} {med(ref_cpu):>12,.0f} {med(ratios):>6.2f} "
          f"{med(sim_wall):>14,.0f} {med(ref_wall):>12,.0f}")
    print(f"simulator {med(sim_cpu) / 1e6:.1f} M rounds per CPU second, C reference "
          f"{med(ref_cpu) / 1e6:.1f} M: the simulator takes {1 / med(ratios):.2f}x the "
          f"reference's time (median of {repeat} interleaved pairs); load average "
          f"{os.getloadavg()[0]:.1f}")
    return med(sim_cpu), med(ref_cpu), med(ratios)


def games_table(games: list[str], jobs_list: list[int], rounds: int, repeat: int) -> None:
    """Every game with its optimal strategy, per number of jobs (best of ``repeat``)."""
    cols = " ".join(f"{f'{j} job wall r/s':>16} {f'{j} job r/CPU-s':>15}" for j in jobs_list)
    print(f"\n{'game':<11} {'tables s':>8} {'compile s':>9} {cols}")
    for name in games:
        rules = get_preset(name).rules
        start = time.perf_counter()
        tables = export_tables(rules, optimal_strategy(rules))
        export = time.perf_counter() - start
        compile_s = simulate(rules, 1000, seed=0, jobs=1, strategy=tables).compile_seconds
        figures = []
        for jobs in jobs_list:
            runs = [simulate(rules, rounds, seed=1, jobs=jobs, strategy=tables)
                    for _ in range(repeat)]
            figures.append(f"{max(r.rounds_per_second for r in runs):>16,.0f} "
                           f"{max(r.rounds_per_cpu_second for r in runs):>15,.0f}")
        print(f"{name:<11} {export:>8.1f} {compile_s:>9.2f} " + " ".join(figures), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="charlie7", choices=list(PRESETS))
    parser.add_argument("--strategy", default="chart", choices=STRATEGIES)
    parser.add_argument("--rounds", type=int, default=5_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    parser.add_argument("--cflags", default="-O2", help="compiler flags, one string")
    parser.add_argument("--games", nargs="*", choices=list(PRESETS),
                        help="also the per-game table (optimal strategy)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib = build_reference(args.cc, shlex.split(args.cflags), Path(tmp))
        compare(lib, args.game, args.strategy, args.rounds, args.repeat)
    if args.games:
        games_table(args.games, args.jobs, 4 * args.rounds, 1)


if __name__ == "__main__":
    main()
