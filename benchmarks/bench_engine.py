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
from analyzer.engine.analysis import Analysis
from analyzer.core.presets import game_rules
spec, exact = sys.argv[1], sys.argv[2] == "1"
game = sys.argv[3] if len(sys.argv) > 3 else None
start = time.perf_counter()
ev = Analysis(game_rules(game, spec), exact=exact).ev()
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mb": peak, "ev": float(ev)}))
"""


def run(spec: str, exact: bool, game: str | None = None) -> dict[str, float]:
    argv = [sys.executable, "-c", CHILD, spec, "1" if exact else "0", *([game] if game else [])]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="6D S17 DOA DAS SPL3 LS")
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--presets", action="store_true",
                        help="also time each seed preset (float) against the classic analysis")
    args = parser.parse_args()
    print(f"rules: {args.rules}")
    classic = None
    for exact in (False, True):
        if exact and args.skip_exact:
            continue
        r = run(args.rules, exact)
        if not exact:
            classic = r["wall"]
        mode = "exact" if exact else "float"
        print(f"{mode:5}: {r['wall']:8.2f} s  peak {r['peak_mb']:7.1f} MB  "
              f"ratio to C++ reference {r['wall'] / REFERENCE_SECONDS:6.1f}x  "
              f"EV {r['ev'] * 100:.9f}%")
    if args.presets and classic:
        from analyzer.core.presets import PRESETS

        for name in PRESETS:
            r = run("", False, name)
            print(f"{name:11}: {r['wall']:8.2f} s  peak {r['peak_mb']:7.1f} MB  "
                  f"{r['wall'] / classic:4.2f}x the classic analysis  "
                  f"RTP {(1 + r['ev']) * 100:.6f}%")


if __name__ == "__main__":
    main()
