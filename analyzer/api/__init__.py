"""The analyzer as a library: one function per job, each returning a frozen result.

Every function takes a game first (a :class:`~analyzer.core.rules.Rules`, a
spec such as ``"6D S17 DOA DAS SPL3 LS"``, a game name such as ``"charlie7"``,
or a name and tokens, ``"charlie7 6D"``) and keyword options after it.  Each
returns a :class:`~analyzer.api.result.Result`: ``to_dict()`` is what the
matching ``bja`` command prints with ``--json``, ``to_text()`` what it prints
otherwise, ``to_frame()`` a tidy pandas DataFrame.  Long functions take
``progress=``, a callback receiving :class:`~analyzer.util.progress.Progress`
values; ``jobs=None`` uses every core.  Bad input raises an
:class:`~analyzer.core.errors.AnalyzerError`.

>>> import analyzer
>>> analyzer.analyze("1D H17 DOA NDAS SPL1 NS", jobs=1).to_dict()["rtp"]
0.9983123328811533
"""

from __future__ import annotations

from analyzer.api.games import Game, resolve
from analyzer.api.play import (
    ChartResult,
    DealerResult,
    DistributionResult,
    EvaluationResult,
    EvResult,
    HandResult,
    analyze,
    chart,
    dealer,
    distribution,
    evaluate_chart,
    hand,
)
from analyzer.api.result import UPCARDS, Result
from analyzer.api.studies import (
    CertificateResult,
    ComparisonResult,
    CountsResult,
    EdgeResult,
    EorResult,
    IndicesResult,
    SidebetResult,
    SimulationResult,
    certify,
    compare,
    counts,
    edge,
    eor,
    indices,
    sidebet,
    simulate,
)
from analyzer.util.progress import Progress, ProgressCallback

__all__ = ["UPCARDS", "CertificateResult", "ChartResult", "ComparisonResult", "CountsResult",
           "DealerResult", "DistributionResult", "EdgeResult", "EorResult", "EvResult",
           "EvaluationResult", "Game", "HandResult", "IndicesResult", "Progress",
           "ProgressCallback", "Result", "SidebetResult", "SimulationResult", "analyze",
           "certify", "chart", "compare", "counts", "dealer", "distribution", "edge", "eor",
           "evaluate_chart", "hand", "indices", "resolve", "sidebet", "simulate"]
