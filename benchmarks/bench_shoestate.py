"""Wall time of the shoe-state computations, without the disk memo, with 1 and 2 jobs.

EOR = the full shoe and its ten one-card-removed shoes (11 exact analyses); counts =
the same with every hand's action EVs plus the fixed-strategy analyses (22); indices =
a few Hi-Lo decisions searched from true count 0; edge = exact analyses of sampled
shoe states.  The machines are shared: take the best of ``--repeat`` runs.

    python benchmarks/bench_shoestate.py [--specs "1D S17 DOA NDAS SPL1 NS" ...] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from analyzer.core.rules import Rules, parse_spec
from analyzer.shoestate.counts import SYSTEMS
from analyzer.shoestate.decisions import Decision, parse_decision
from analyzer.shoestate.edge import edge_by_count
from analyzer.shoestate.efficiency import effects_model
from analyzer.shoestate.eor import effects_of_removal
from analyzer.shoestate.indices import playing_indices

DECISIONS = ("insurance", "T,6vT:stand-hit", "T,Tv6:split-stand", "6,5vA:double-hit")


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="+",
                        default=["1D S17 DOA NDAS SPL1 NS", "6D S17 DOA DAS SPL3 LS"])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--states", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    decisions = [parse_decision(d) for d in DECISIONS]
    print(f"{'rules':<26} {'jobs':>4} {'eor s':>7} {'counts s':>8} {'indices s':>9} "
          f"{'edge s/state':>12}")
    for spec in args.specs:
        rules = parse_spec(spec)
        for jobs in args.jobs:
            row = measure(rules, jobs, decisions, args.states, args.repeat)
            print(f"{spec:<26} {jobs:>4} " + " ".join(f"{x:>{w}.{d}f}" for x, w, d in
                                                      zip(row, (7, 8, 9, 12), (1, 1, 1, 2),
                                                          strict=True)), flush=True)


def measure(rules: Rules, jobs: int, decisions: list[Decision], states: int,
            repeat: int) -> tuple[float, float, float, float]:
    """Seconds for EOR, counts, indices, and per exactly analysed edge state."""
    hi_lo = SYSTEMS["hi-lo"]
    cut = rules.cut_card or 39 * rules.decks
    eor = best(partial(effects_of_removal, rules, jobs=jobs, use_cache=False), repeat)
    counts = best(partial(effects_model, rules, jobs=jobs, use_cache=False), repeat)
    indices = best(partial(playing_indices, rules, hi_lo, decisions, jobs=jobs,
                           use_cache=False), repeat)
    edge = best(partial(edge_by_count, rules, hi_lo, states=states, count_samples=10_000,
                        cut=cut, jobs=jobs, use_cache=False), repeat)
    return eor, counts, indices, edge / (states + 1)


if __name__ == "__main__":
    main()
