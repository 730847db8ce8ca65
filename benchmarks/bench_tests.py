"""The default test run as CI and a contributor meet it: the README's test command.

Runs ``python -m pytest -q`` (the default run: ``-m 'not slow'`` on every core, from
``pyproject.toml``) ``--repeat`` times in this checkout, and prints each run's wall time,
its test counts and the slowest cases with the share of the run's test time they take,
the list that ``tests/conftest.py``'s HEAVY is chosen from.  The load average is printed
before and after: on a shared machine a busy neighbour shows there first.

    python benchmarks/bench_tests.py [--repeat 1] [--slowest 25]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 180.0  # issue 26: the default run in at most three minutes on two cores
DURATION = re.compile(r"^\s*([0-9.]+)s (call|setup|teardown)\s+(\S.*?)\s*$", re.M)
SUMMARY = re.compile(r"\d+ passed(?:, \d+ skipped)?")


def one_run(slowest: int) -> tuple[float, str, list[tuple[float, str]], float]:
    """Wall seconds, the summary line, the slowest cases and the sum of every case's time."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--durations=0", "--durations-min=0"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"the test run failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
    cases: dict[str, float] = {}
    for seconds, _phase, nodeid in DURATION.findall(done.stdout):
        cases[nodeid] = cases.get(nodeid, 0.0) + float(seconds)
    found = SUMMARY.search(done.stdout)
    summary = found.group(0) if found else "no summary line"
    ranked = sorted(((s, n) for n, s in cases.items()), reverse=True)
    return wall, summary, ranked[:slowest], sum(cases.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=25)
    args = parser.parse_args()
    if args.repeat < 1 or args.slowest < 0:
        parser.error("--repeat must be at least 1 and --slowest at least 0")
    print(f"cores: {os.cpu_count()}, load before: {os.getloadavg()[0]:.2f}")
    walls = []
    for i in range(args.repeat):
        wall, summary, ranked, total = one_run(args.slowest)
        walls.append(wall)
        print(f"\nrun {i + 1}: {wall:.1f} s wall ({summary}); the cases' own times sum to "
              f"{total:.1f} s over the workers")
        print(f"{'seconds':>8} {'share':>6}  case")
        for seconds, nodeid in ranked:
            print(f"{seconds:8.2f} {seconds / total:6.1%}  {nodeid}")
    print(f"\nload after: {os.getloadavg()[0]:.2f}")
    print(f"\n| default test run (README command) | {', '.join(f'{w:.0f} s' for w in walls)} "
          f"| target <= {TARGET:.0f} s: {'met' if max(walls) <= TARGET else 'not met'} |")


if __name__ == "__main__":
    main()
