"""Time the exact distribution of a round, beside Eric Farmer's analyzer on the same machine.

The issue's bounds: charlie7 (8 decks, one split) in less than twice the time
Farmer's analyzer takes for the same kind of distribution (8 decks, no resplit:
``8D S17 DOA DAS SPL1 LS``, CDZ-), and privilege (resplits to 4 hands) in under a
minute.  Each run is a fresh process; with ``--reference PATH``, Farmer's binary
(``strategy``, GPL, built outside this project as the README says) is run with the
stdin answers recorded in ``tests/reference/farmer-ca/8d-s17-das-spl1-ls-cdz.txt``.

    python benchmarks/bench_distribution.py [--games charlie7 privilege ...]
                                            [--reference PATH] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FARMER_INPUT = "8\nn\ny\ny\nn\ny\nn\ny\ny\n1.5\n{table}\n0 0\n"  # 8D S17 DAS SPL1 LS, CDZ-

CHILD = r"""
import json, resource, sys, time
from analyzer.core.presets import game_rules
from analyzer.engine.distribution import round_distribution
game, spec, jobs = sys.argv[1] or None, sys.argv[2], int(sys.argv[3])
start = time.perf_counter()
d = round_distribution(game_rules(game, spec), jobs=jobs)
wall = time.perf_counter() - start
peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF,
           resource.RUSAGE_CHILDREN)) / 1024  # the largest process (children: forked upcards)
print(json.dumps({"wall": wall, "peak_mb": peak, "sd": float(
    sum(p * (float(x) - d.mean) ** 2 for x, p in d.probabilities.items())) ** 0.5,
    "error_bound": float(d.error_bound)}))
"""


def ours(game: str, spec: str = "", jobs: int = 1) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, game, spec, str(jobs)], check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def farmer(binary: Path) -> float:
    """Wall time of Farmer's analyzer for 8D S17 DAS SPL1 LS (its distribution included)."""
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "table.txt"
        start = time.perf_counter()
        subprocess.run([str(binary)], input=FARMER_INPUT.format(table=table), text=True,
                       capture_output=True, check=True, cwd=tmp)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=["charlie7", "privilege"])
    parser.add_argument("--reference", type=Path, metavar="PATH",
                        help="Farmer's strategy binary, timed on the same kind of distribution")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, os.cpu_count() or 1],
                        help="process counts to run each game with (default: 1 and all cores;"
                             " Farmer's analyzer uses one)")
    args = parser.parse_args()
    if args.reference is not None and not args.reference.is_file():
        parser.error(f"--reference: no such file: {args.reference}")
    reference = None if args.reference is None else farmer(args.reference)
    jobs = sorted(set(args.jobs))
    if reference is not None:
        print(f"Farmer 8D S17 DAS SPL1 LS: {reference:7.2f} s")
        for n in jobs:
            r = ours("", "8D S17 DOA DAS SPL1 LS", n)
            print(f"bja    8D S17 DAS SPL1 LS, {n} job{'s' if n > 1 else ' '}: {r['wall']:7.2f} s"
                  f"  peak {r['peak_mb']:.0f} MB  {r['wall'] / reference:.2f}x Farmer")
    for game in args.games:
        for n in jobs:
            r = ours(game, "", n)
            ratio = f"  {r['wall'] / reference:.2f}x Farmer" if reference else ""
            bound = f"  error bound {r['error_bound']:.2g}" if r["error_bound"] else ""
            print(f"bja    {game + ',':12} {n} job{'s' if n > 1 else ' '}: {r['wall']:7.2f} s  "
                  f"peak {r['peak_mb']:.0f} MB  SD {r['sd']:.6f}{ratio}{bound}")


if __name__ == "__main__":
    main()
