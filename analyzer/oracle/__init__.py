"""Oracles: independent enumerations that check the engine, sharing none of its arithmetic.

:mod:`~analyzer.oracle.exact_dealer` and :mod:`~analyzer.oracle.exact_splits` deal
every card sequence of a round as a casino would; they import nothing of the
engine.  :mod:`~analyzer.oracle.split_mode` hands the split enumeration to an
analysis (``--split exact``), the one place the two meet.
"""
