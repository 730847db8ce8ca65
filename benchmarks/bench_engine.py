"""Time the full analysis of a rule set (all hands, all upcards, resplits), float and exact.

Prints wall time and peak memory of each run and the ratio to the reference C++
analyzer (Farmer's, about 1.0 s for this analysis on the project's 2-core machines;
tests/reference/farmer-ca/6d-s17-das-spl3-ls-cdz.txt records 1.02-1.15 s).
Each run is in a fresh process so no memo survives between runs.

    python benchmarks/bench_engine.py [--rules SPEC] [--skip-exact]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

REFERENCE_SECONDS = 1.02  # Farmer's C++ analyzer, best of 3, same rules and machine type

CHILD = r"""
import json, resource, sys, time
from analyzer.game import Analysis
from analyzer.rules import parse_spec
spec, exact = sys.argv[1], sys.argv[2] == "1"
start = time.perf_counter()
ev = Analysis(parse_spec(spec), exact=exact).ev()
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mb": peak, "ev": float(ev)}))
"""


def run(spec: str, exact: bool) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, spec, "1" if exact else "0"],
                         check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="6D S17 DOA DAS SPL3 LS")
    parser.add_argument("--skip-exact", action="store_true")
    args = parser.parse_args()
    print(f"rules: {args.rules}")
    for exact in (False, True):
        if exact and args.skip_exact:
            continue
        r = run(args.rules, exact)
        mode = "exact" if exact else "float"
        print(f"{mode:5}: {r['wall']:8.2f} s  peak {r['peak_mb']:7.1f} MB  "
              f"ratio to C++ reference {r['wall'] / REFERENCE_SECONDS:6.1f}x  "
              f"EV {r['ev'] * 100:.9f}%")


if __name__ == "__main__":
    main()
