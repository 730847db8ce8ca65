"""Rounds per second of the Monte Carlo simulator, per seed game, with 1 and 2 jobs.

The engine's strategy is built (and the decision memo warmed) before the clock
starts, so the figures are the steady dealing speed that long runs see; the
one-off engine cost is printed apart.  The machines are shared, so take the
best of ``--repeat`` runs.

    python benchmarks/bench_simulate.py [--rounds 2000000] [--jobs 1 2] [--games ...]
"""

from __future__ import annotations

import argparse
import time

from analyzer.core.presets import PRESETS, get_preset
from analyzer.crosscheck.simulate import engine_strategy, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<11} {'engine s':>8} " + " ".join(f"{f'{j} job(s) r/s':>15}"
                                                     for j in args.jobs))
    for name in args.games:
        rules = get_preset(name).rules
        start = time.perf_counter()
        strategy = engine_strategy(rules)
        simulate(rules, 20_000, seed=0, strategy=strategy)  # fills the engine's memo
        engine = time.perf_counter() - start
        speeds = []
        for jobs in args.jobs:
            best = max(simulate(rules, args.rounds, seed=1, jobs=jobs,
                                strategy=strategy).rounds_per_second
                       for _ in range(args.repeat))
            speeds.append(best)
        print(f"{name:<11} {engine:>8.1f} " + " ".join(f"{s:>15,.0f}" for s in speeds),
              flush=True)


if __name__ == "__main__":
    main()
