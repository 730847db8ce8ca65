"""Wall time of each side bet's exact par sheet on an 8-deck shoe (the target is under 1 s),
and of the whole side-bet build (the target is under 2 minutes on 2 cores).

Run: ``python benchmarks/bench_sidebets.py [--build]``.  Each bet is timed cold (first call
in this process: for Bust It and Buster that includes enumerating the dealer's draw tables)
and warm (best of three further calls), as ``bja sidebet NAME --decks 8`` computes it (the
default pay table, no game-protection section).  ``--build`` then times
``build_sidebet_tables`` (every bet, pay table and shoe, with game protection) into a
temporary folder, with two worker processes.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from analyzer.sidebets.bets import BETS, BetOptions
from analyzer.sidebets.build import build_sidebet_tables, report
from analyzer.sidebets.paytable import preset
from analyzer.sidebets.suitshoe import SuitShoe


def _once(name: str, shoe: SuitShoe) -> float:
    bet = BETS[name]
    start = time.perf_counter()
    report(bet, shoe, bet.outcomes(shoe), preset(bet), BetOptions())
    return time.perf_counter() - start


def main() -> None:
    shoe = SuitShoe.decks(8)
    print(f"{'bet':<18} {'cold s':>8} {'warm s':>8}   (8 decks, exact, default pay table)")
    for name in BETS:
        cold = _once(name, shoe)
        warm = min(_once(name, shoe) for _ in range(3))
        print(f"{name:<18} {cold:8.3f} {warm:8.3f}")
    if "--build" in sys.argv[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            cpu = time.process_time()
            paths = build_sidebet_tables(Path(tmp), jobs=2)
            print(f"side-bet build: {len(paths)} files in {time.perf_counter() - start:.1f} s "
                  f"wall ({time.process_time() - cpu:.1f} s CPU in this process)")


if __name__ == "__main__":
    main()
