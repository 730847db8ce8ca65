"""Exact side-bet par sheets: 21+3, Hot 3, Any Pair and Bust It, any pay table, any shoe.

Counting (:mod:`~analyzer.sidebets.outcomes` and one module per bet) is kept
apart from pricing (:mod:`~analyzer.sidebets.paytable`, :mod:`~analyzer.sidebets.stats`),
so one count serves every pay table a lab wants to compare.
"""
