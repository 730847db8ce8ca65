"""The Monte Carlo simulator: an INDEPENDENT cross-check of the exact engine.

Test labs want the exact figures confirmed by a simulation that shares none of
the engine's arithmetic.  Everything here but the strategy is the simulator's
own code: a real shoe of 52-card decks (real ranks J/Q/K where pairs split by
rank), its shuffle, the deal, hand totals, dealer play and the settlement of
every rule (:mod:`~analyzer.sim.config`,
:mod:`~analyzer.sim.kernel`).  The strategy - the engine's
optimal composition-dependent play or a chart - is exported once into plain
decision tables (:mod:`~analyzer.sim.tables`); those tables are the
only thing taken from ``analyzer.engine``.  The loop is compiled with numba,
which is imported only by this package (never by ``bja --help``).

>>> from analyzer.core.rules import parse_spec
>>> from analyzer.sim import simulate
>>> r = simulate(parse_spec("1D S17 DOA DAS SPL3 LS"), 20_000, seed=1, jobs=1)
>>> r.rounds, r.seed, sum(r.histogram.values())
(20000, 1, 20000)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Public names -> the module defining them.  Imported on first use (PEP 562), so that
# the light modules (config, layout, tables) load without numba.
_EXPORTS = {
    "MAX_ROUNDS": "config", "SimulationError": "config", "shoe_codes": "config",
    "AsDealt": "shoe_study", "CounterResult": "shoe_study", "counter_rounds": "shoe_study",
    "counter_win_rate": "shoe_study", "rtp_as_dealt": "shoe_study",
    "SimResult": "estimate", "result_distribution": "estimate", "simulate": "estimate",
    "chart_strategy": "strategies", "optimal_strategy": "strategies",
    "DecisionTables": "tables", "SimStrategy": "tables", "export_tables": "tables",
}

if TYPE_CHECKING:
    from analyzer.sim.config import MAX_ROUNDS, SimulationError, shoe_codes
    from analyzer.sim.estimate import SimResult, result_distribution, simulate
    from analyzer.sim.shoe_study import (
        AsDealt,
        CounterResult,
        counter_rounds,
        counter_win_rate,
        rtp_as_dealt,
    )
    from analyzer.sim.strategies import chart_strategy, optimal_strategy
    from analyzer.sim.tables import DecisionTables, SimStrategy, export_tables


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


__all__ = ["MAX_ROUNDS", "AsDealt", "CounterResult", "DecisionTables", "SimResult",
           "SimStrategy", "SimulationError", "chart_strategy", "counter_rounds",
           "counter_win_rate", "export_tables", "optimal_strategy", "result_distribution",
           "rtp_as_dealt", "shoe_codes", "simulate"]
