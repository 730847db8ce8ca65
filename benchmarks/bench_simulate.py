"""Rounds per second of the compiled Monte Carlo simulator, per seed game, by number of jobs.

The strategy is exported into decision tables and the kernel compiled (or loaded from
numba's cache) before the clock starts, so the figures are the steady dealing speed
that long runs see; export and compile times are printed apart.  Two speeds: wall
(all jobs together) and per CPU second of one core (thread CPU time), which a shared,
busy machine does not hide.  Take the best of ``--repeat`` runs.

    python benchmarks/bench_simulate.py [--rounds 20000000] [--jobs 1 2] [--games ...]
"""

from __future__ import annotations

import argparse
import time

from analyzer.core.presets import PRESETS, get_preset
from analyzer.crosscheck.sim import export_tables, optimal_strategy, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    cols = " ".join(f"{f'{j} job wall r/s':>16} {f'{j} job r/CPU-s':>15}" for j in args.jobs)
    print(f"{'game':<11} {'tables s':>8} {'compile s':>9} {cols}")
    for name in args.games:
        rules = get_preset(name).rules
        start = time.perf_counter()
        tables = export_tables(rules, optimal_strategy(rules))
        export = time.perf_counter() - start
        compile_s = simulate(rules, 1000, seed=0, jobs=1, strategy=tables).compile_seconds
        figures = []
        for jobs in args.jobs:
            runs = [simulate(rules, args.rounds, seed=1, jobs=jobs, strategy=tables)
                    for _ in range(args.repeat)]
            figures.append(f"{max(r.rounds_per_second for r in runs):>16,.0f} "
                           f"{max(r.rounds_per_cpu_second for r in runs):>15,.0f}")
        print(f"{name:<11} {export:>8.1f} {compile_s:>9.2f} " + " ".join(figures), flush=True)


if __name__ == "__main__":
    main()
