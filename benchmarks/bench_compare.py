"""Time the 32-variant grid of ``bja compare``, cold and warm, against the C++ reference.

The grid (issue 9)::

    bja compare --base "6D S17 DOA DAS SPL3 LS" --vary "1D|2D|6D|8D" --vary "S17|H17" \\
        --vary "DAS|NDAS" --vary "LS|NS"

Cold: a fresh, empty memo folder, in a fresh process (no in-memory state).
Warm: the same command again on the memo the cold run filled; its time is split
into the CLI's imports and the compare itself (memo reads, rendering).  Both with and
without the basic-strategy chart column (``--no-chart``), which derives and
evaluates one chart per variant.  ``--reference PATH`` also times Farmer's C++
analyzer (its ``strategy`` binary, built outside the project as the README says;
answers on stdin) on the same 32 rule sets one after another, the way a user would
compare them without this command.

    python benchmarks/bench_compare.py [--jobs N] [--reference PATH] [--skip-chart]
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRID = ["--base", "6D S17 DOA DAS SPL3 LS", "--vary", "1D|2D|6D|8D", "--vary", "S17|H17",
        "--vary", "DAS|NDAS", "--vary", "LS|NS"]


CHILD = r"""
import contextlib, io, json, sys, time
start = time.perf_counter()
from analyzer.cli.main import main
imported = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
done = time.perf_counter()
print(json.dumps({"imports": imported - start, "compare": done - imported, "status": status}))
"""


def _cpu() -> float:
    """User + system CPU seconds of every finished child process (workers included)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_grid(cache: Path, chart: bool, jobs: int | None) -> tuple[float, float, float, float]:
    """``bja compare`` of the grid in a fresh process: (wall, imports, compare, CPU s)."""
    argv = [sys.executable, "-c", CHILD, "compare", *GRID, "--json", "--no-progress"]
    argv += [] if chart else ["--no-chart"]
    argv += [] if jobs is None else ["--jobs", str(jobs)]
    env = {"BJA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    start, cpu = time.perf_counter(), _cpu()
    out = subprocess.run(argv, check=True, capture_output=True, env=env, text=True).stdout
    wall = time.perf_counter() - start
    parts = json.loads(out.strip().splitlines()[-1])
    assert parts["status"] == 0
    return wall, parts["imports"], parts["compare"], _cpu() - cpu


def reference_input(decks: int, h17: bool, das: bool, ls: bool) -> str:
    """Farmer's prompts, in order: decks, H17, double any total, double soft, double any
    number of cards, DAS, resplit, resplit aces, CDZ-, late surrender, payoff, table file;
    then "0 0" ends the hand queries."""
    yes = {True: "y", False: "n"}
    answers = [str(decks), yes[h17], "y", "y", "n", yes[das], "y", "n", "y", yes[ls], "1.5",
               "table.txt", "0 0"]
    return "\n".join(answers) + "\n"


def run_reference(binary: Path) -> tuple[float, float]:
    """Wall time and CPU seconds of the C++ analyzer on the 32 rule sets, one after another."""
    start, cpu = time.perf_counter(), _cpu()
    with tempfile.TemporaryDirectory() as folder:
        for decks, h17, das, ls in itertools.product((1, 2, 6, 8), (False, True),
                                                     (True, False), (True, False)):
            subprocess.run([str(binary)], input=reference_input(decks, h17, das, ls),
                           text=True, check=True, capture_output=True, cwd=folder)
    return time.perf_counter() - start, _cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--reference", type=Path, metavar="PATH",
                        help="also time the C++ analyzer (its strategy binary)")
    parser.add_argument("--skip-chart", action="store_true", help="only the --no-chart grid")
    args = parser.parse_args()
    if args.reference is not None and not args.reference.is_file():
        parser.error(f"--reference: no such file: {args.reference}")
    print(f"grid: {' '.join(GRID)}  (32 rule sets; jobs: {args.jobs or 'all cores'})")
    for chart in (False,) if args.skip_chart else (False, True):
        cache = Path(tempfile.mkdtemp(prefix="bja-bench-"))
        try:
            cold = run_grid(cache, chart, args.jobs)
            warm = run_grid(cache, chart, args.jobs)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        label = "with chart column" if chart else "without chart (--no-chart)"
        print(f"{label:<28} cold {cold[0]:7.1f} s ({cold[3]:.0f} CPU s)   warm {warm[0]:5.2f} s "
              f"(process; of which CLI imports {warm[1]:.2f} s, the compare itself "
              f"{warm[2]:.2f} s)", flush=True)
    if args.reference is not None:
        wall, cpu = run_reference(args.reference)
        print(f"{'C++ reference, 32 runs':<28} {wall:7.1f} s ({cpu:.0f} CPU s)")


if __name__ == "__main__":
    main()
