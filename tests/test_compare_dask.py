"""``--backend dask``: a small grid on a Dask distributed cluster equals the local run, bit for bit.

The cluster is a ``dask.distributed.LocalCluster`` started inside the test (the
same code path as a remote scheduler: joblib's Dask backend on a ``Client``).
"""

from __future__ import annotations

import pytest

from analyzer.comparisons import RunOptions, compare_grid
from analyzer.comparisons.variants import parse_axis, product_variants
from analyzer.core.errors import AnalyzerError
from analyzer.core.rules import parse_spec

SHOE = "A:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,T:4"
BASE = parse_spec("1D S17 DOA DAS SPL1 LS")


def _figures(options: RunOptions) -> list[object]:
    axes = [parse_axis("S17|H17", BASE), parse_axis("-|NS|NDAS", BASE)]
    return [(r.rules, r.figures, r.delta)
            for r in compare_grid(BASE, product_variants(BASE, axes), options).rows]


@pytest.mark.slow
def test_dask_cluster_gives_the_local_figures_bit_for_bit() -> None:
    distributed = pytest.importorskip("dask.distributed")
    local = _figures(RunOptions(charts=False, jobs=1, shoe=SHOE, use_cache=False,
                                progress=False))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = _figures(RunOptions(charts=False, backend="dask", shoe=SHOE,
                                     scheduler=cluster.scheduler_address, use_cache=False,
                                     progress=False))
    assert remote == local and len(local) == 6


@pytest.mark.slow  # the client waits its 10 s connect timeout
def test_unreachable_scheduler_is_one_error() -> None:
    pytest.importorskip("dask.distributed")
    options = RunOptions(charts=False, backend="dask", scheduler="tcp://127.0.0.1:1",
                         shoe=SHOE, use_cache=False, progress=False)
    with pytest.raises(AnalyzerError, match="cannot reach the Dask scheduler"):
        _figures(options)
