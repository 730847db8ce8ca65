"""Wall time of each side bet's exact par sheet on an 8-deck shoe (the target is under 1 s).

Run: ``python benchmarks/bench_sidebets.py``.  Each bet is timed cold (first call in a
fresh process: for Bust It that includes enumerating the dealer's draw tables) and warm
(best of five further calls).
"""

from __future__ import annotations

import time

from analyzer.sidebets.bets import BETS, BetOptions
from analyzer.sidebets.build import report
from analyzer.sidebets.paytable import preset
from analyzer.sidebets.suitshoe import SuitShoe


def _once(name: str, shoe: SuitShoe) -> float:
    bet = BETS[name]
    start = time.perf_counter()
    report(bet, shoe, bet.outcomes(shoe), preset(bet), BetOptions())
    return time.perf_counter() - start


def main() -> None:
    shoe = SuitShoe.decks(8)
    print(f"{'bet':<10} {'cold s':>8} {'warm s':>8}   (8 decks, exact, seed pay table)")
    for name in BETS:
        cold = _once(name, shoe)
        warm = min(_once(name, shoe) for _ in range(5))
        print(f"{name:<10} {cold:8.3f} {warm:8.3f}")


if __name__ == "__main__":
    main()
