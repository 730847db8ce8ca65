"""Exact blackjack combinatorial analyzer.

Every figure is enumerated over card compositions; nothing is sampled except in
the explicitly named simulator used as a cross-check.
"""

__version__ = "0.1.0"
