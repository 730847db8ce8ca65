"""``bja ev``'s report model kept in the on-disk memo (:mod:`analyzer.util.memo`).

An :class:`~analyzer.report.model.EvReport` is a pure function of (rules, shoe,
arithmetic, split mode, levels) and the code, so it is kept and served again at
once; the text and JSON are rendered from it on every run.  The memo stores
those inputs and the package's fingerprint inside each entry with a checksum,
so a damaged, swapped or stale entry is recomputed, never served.
``--no-cache`` bypasses it (timings then measure computation).
"""

from __future__ import annotations

import math
from fractions import Fraction

from analyzer.core.levels import SplitLevel
from analyzer.core.rules import Rules
from analyzer.core.shoe import Shoe
from analyzer.oracle.split_mode import new_analysis
from analyzer.report.model import EvReport, ev_report
from analyzer.util.memo import Memo, pickled
from analyzer.util.progress import ProgressCallback


def ev_memo(*, enabled: bool = True) -> Memo[EvReport]:
    """The memo of ``bja ev``'s reports (pickled: the model round-trips exactly)."""
    return Memo("ev", pickled(EvReport), enabled=enabled)


def ev_key(rules: Rules, shoe: Shoe, *, exact: bool, split: SplitLevel | str,
           levels: bool, suits: bool = True) -> tuple[object, ...]:
    """Every input a report depends on (``jobs`` is not one: the figures are the same).

    The split mode by its name, so that a level given as text or as an enum member
    finds the same entry; a play by ranks only is marked (the usual play's keys stay
    those of earlier versions)."""
    return (rules, shoe.counts, exact, str(split), levels) + (() if suits else ("ranks",))


def _consistent(report: EvReport) -> bool:
    """Whether a served report's round EV is its upcards' EVs weighted by the shoe, every
    figure finite: checked on the way out of the memo (a payload is never trusted)."""
    values = [report.ev, *(v for _u, v in report.by_upcard)]
    if not all(math.isfinite(float(v)) for v in values):
        return False
    if report.shoe is None or not report.by_upcard:
        return True
    total = report.shoe.total
    weighted = sum((Fraction(report.shoe[u], total) * Fraction(v) for u, v in report.by_upcard),
                   Fraction(0))
    if report.exact:
        return weighted == report.ev
    return abs(float(weighted) - float(report.ev)) <= 1e-12


def cached_ev_report(rules: Rules, shoe: Shoe, *, exact: bool,
                     split: SplitLevel = SplitLevel.CDZ,
                     levels: bool = False, use_cache: bool = True, jobs: int = 1,
                     progress: ProgressCallback | None = None,
                     suits: bool = True) -> EvReport:
    """``bja ev``'s model for these inputs: from the disk memo, else computed (and kept).

    ``jobs`` processes share the upcards; ``progress`` hears of each one done;
    ``suits=False``: the play reads ranks only (:class:`~analyzer.engine.analysis.Analysis`).
    """
    key = ev_key(rules, shoe, exact=exact, split=split, levels=levels, suits=suits)

    def belongs(report: EvReport) -> bool:  # the entry's payload answers these inputs
        return (report.rules == rules
                and (report.shoe is None or report.shoe.counts == shoe.counts)
                and report.exact == exact and str(report.split) == str(split)
                and (report.levels is not None) == levels and report.suits == suits
                and _consistent(report))

    return ev_memo(enabled=use_cache).get_or_compute(
        key, lambda: ev_report(new_analysis(rules, shoe, exact=exact, split=split, jobs=jobs,
                                            memo=use_cache, suits=suits),
                               levels=levels, progress=progress), belongs)


__all__ = ["cached_ev_report", "ev_key", "ev_memo"]
