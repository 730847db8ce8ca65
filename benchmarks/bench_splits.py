"""Time the post-split levels (CDZ-, CDP1, CDP) and optimal splitting.

* The full analysis of ``6D S17 DOA DAS SPL3 LS`` under each level, each in a
  fresh process, ``--repeat`` interleaved rounds: median CPU and wall seconds,
  peak memory, and the median ratio to CDZ- within a round (target: CDP1 and
  CDP within 1.5x).  CPU time is the fairer figure on a shared machine; both
  are printed.
* Optimal splitting of ``8D S17 DOA DAS SPL1`` pair by upcard: ``--optimal N``
  times N of the 100 cases (pairs chosen from the most to the least costly
  spread) and prints each case's time and the sum; ``--optimal 100`` runs them
  all (target: under 5 minutes on 2 cores within 2 GB).
* ``--cases 2:6,8:6``: those (pair, upcard) cases instead, e.g. with
  ``--optimal-rules "1D H17 DOA DAS SPL3"``: optimal resplitting on one deck.
* ``--optimal-ev``: the same 100 cases as a user runs them, ``bja ev --split optimal
  --jobs <cores> --no-cache`` in one fresh process tree: wall, CPU and peak memory.

    python benchmarks/bench_splits.py [--repeat N] [--optimal N] [--cases P:U,...]
                                      [--optimal-ev] [--skip-levels]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

LEVEL_CHILD = r"""
import json, resource, sys, time
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
spec, split = sys.argv[1], sys.argv[2]
cpu, wall = time.process_time(), time.perf_counter()
ev = Analysis(parse_spec(spec), split=split).ev()
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "ev": float(ev)}))
"""

OPTIMAL_CHILD = r"""
import json, resource, sys, time
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.optimal_split import OptimalSplit
from analyzer.engine.splits import SplitPlan
rules = parse_spec(sys.argv[1])
up, pair = int(sys.argv[2]), int(sys.argv[3])
base = rules.full_shoe().remove([up]).counts
cpu, wall = time.process_time(), time.perf_counter()
value = OptimalSplit(base, up, SplitPlan.from_rules(rules, pair, up),
                     hits_soft_17=rules.hits_soft_17, conditioned=rules.peeks_on(up),
                     exact=False).value()
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "ev": float(value)}))
"""


def _run(child: str, *args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", child, *args], check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def levels(spec: str, repeat: int) -> None:
    """Each level ``repeat`` times, interleaved (cdz, cdp1, cdp, cdz, ...), fresh processes.

    This VM's speed drifts by up to 2x within minutes, so one run of each level
    can show any ratio: the ratios are taken within each round (the three runs
    back to back) and their median printed, beside each level's median times.
    """
    print(f"full analysis of {spec}: {repeat} interleaved rounds of fresh processes")
    runs: dict[str, list[dict[str, float]]] = {split: [] for split in ("cdz", "cdp1", "cdp")}
    for _ in range(repeat):
        for split, found in runs.items():
            found.append(_run(LEVEL_CHILD, spec, split))
    for split, found in runs.items():
        cpu = statistics.median(r["cpu"] for r in found)
        wall = statistics.median(r["wall"] for r in found)
        ratio = statistics.median(r["cpu"] / z["cpu"] for r, z in zip(found, runs["cdz"],
                                                                    strict=True))
        wall_ratio = statistics.median(r["wall"] / z["wall"] for r, z in zip(found, runs["cdz"],
                                                                           strict=True))
        print(f"  {split:<5} cpu {cpu:7.2f} s  wall {wall:7.2f} s (medians; cpu min "
              f"{min(r['cpu'] for r in found):.2f} s)  peak "
              f"{max(r['peak_mb'] for r in found):6.0f} MB  cpu x{ratio:.2f}  wall "
              f"x{wall_ratio:.2f} (median ratios)  EV {found[0]['ev'] * 100:.9f}%")


def optimal(spec: str, count: int, chosen: str | None = None) -> None:
    cases = [(up, pair) for pair in (10, 1, 9, 8, 7, 6, 5, 4, 3, 2)
             for up in (6, 10, 2, 1, 7, 3, 8, 4, 9, 5)][:count]
    if chosen:  # "pair:upcard,...", values 1 (ace) to 10
        cases = [(int(u), int(p)) for p, u in (c.split(":") for c in chosen.split(","))]
    print(f"optimal splitting, {spec}: {len(cases)} of the 100 pair/upcard cases")
    cpu = wall = peak = 0.0
    for up, pair in cases:
        r = _run(OPTIMAL_CHILD, spec, str(up), str(pair))
        cpu, wall, peak = cpu + r["cpu"], wall + r["wall"], max(peak, r["peak_mb"])
        print(f"  pair {pair:>2} vs {up:>2}: cpu {r['cpu']:7.2f} s  wall {r['wall']:7.2f} s  "
              f"peak {r['peak_mb']:6.0f} MB  E(split) {r['ev']:.12f}")
    print(f"  total: cpu {cpu:.1f} s, wall {wall:.1f} s (one process at a time), "
          f"peak {peak:.0f} MB")


def optimal_ev(spec: str) -> None:
    """The whole game under optimal splitting, upcards shared by every core."""
    jobs = os.cpu_count() or 1
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "analyzer", "ev", "--rules", spec, "--split",
                          "optimal", "--no-cache", "--jobs", str(jobs), "--json"],
                         check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"bja ev --rules \"{spec}\" --split optimal --jobs {jobs}: wall {wall:.1f} s, "
          f"cpu {cpu:.1f} s, peak {after.ru_maxrss / 1024:.0f} MB (largest process), "
          f"EV {json.loads(out)['ev'] * 100:.9f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="6D S17 DOA DAS SPL3 LS")
    parser.add_argument("--optimal-rules", default="8D S17 DOA DAS SPL1")
    parser.add_argument("--optimal", type=int, default=2, help="optimal cases to time")
    parser.add_argument("--cases", default=None, metavar="P:U,...",
                        help="these pair:upcard cases (1 = ace) instead of --optimal's")
    parser.add_argument("--optimal-ev", action="store_true",
                        help="time bja ev --split optimal on every core (all 100 cases)")
    parser.add_argument("--skip-levels", action="store_true")
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds of the levels")
    args = parser.parse_args()
    if not args.skip_levels:
        levels(args.rules, args.repeat)
    if args.optimal or args.cases:
        optimal(args.optimal_rules, args.optimal, args.cases)
    if args.optimal_ev:
        optimal_ev(args.optimal_rules)


if __name__ == "__main__":
    main()
