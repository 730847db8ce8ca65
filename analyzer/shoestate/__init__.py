"""Shoe-state analysis: what the cards already dealt do to the game.

Everything else in the analyzer is "off the top" (one round from a full shoe).
This package analyses depleted shoes exactly and turns them into the classic
counting tables:

* :mod:`~analyzer.shoestate.eor` -- effects of removal on the game and on decisions,
  with the zero-sum identity (``bja eor``);
* :mod:`~analyzer.shoestate.counts` and :mod:`~analyzer.shoestate.efficiency` -- count
  systems (built-in or TOML) and their betting correlation, playing efficiency and
  insurance correlation (``bja counts``);
* :mod:`~analyzer.shoestate.truecount` and :mod:`~analyzer.shoestate.indices` -- the
  shoe at a true count and the count at which a decision flips (``bja indices``);
* :mod:`~analyzer.shoestate.edge` -- the edge by true count of a player who
  re-optimises at every sampled shoe state (``bja edge``);
* :mod:`~analyzer.shoestate.build` -- the ``reports/shoestate/`` tables and plots.

Exact: every EV of every shoe analysed.  Modelled (named where used): Griffin's
normal model of playing efficiency, Griffin's proportional deflection for the
shoe at a true count.  Sampled: only which shoe states the edge by count visits.
"""
