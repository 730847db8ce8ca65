"""Analyses in several threads of one process give the figures of one analysis alone.

The engine's dealer-outcome caches are shared by the analyses of one shoe (a chart
beside the optimum, DAS beside NDAS); two threads filling one cache at once wrote
their rows into the same places and every later analysis of that shoe in the
process read wrong outcomes (a web server, a notebook's thread pool).  The figures
here are computed cold in a fresh process, then again in threads of this one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import analyzer

# Rule sets sharing shoes and dealer rules, so that their analyses share caches; in no
# other test, so that the caches are cold in this process.
SPECS = ["3D S17 DOA NDAS SPL2 LS P22", "3D S17 DOA DAS SPL2 LS P22",
         "3D S17 D10 NDAS SPL2 LS P22", "3D H17 DOA NDAS SPL2 LS P22"]
ALONE = """
import json, sys
import analyzer
print(json.dumps([analyzer.analyze(s, jobs=1, cache=False).to_dict()["ev"]
                  for s in sys.argv[1:]]))
"""


def test_threads_give_the_figures_of_an_analysis_alone() -> None:
    alone = json.loads(subprocess.run([sys.executable, "-c", ALONE, *SPECS], check=True,
                                      capture_output=True, text=True).stdout)

    def ev(spec: str) -> float:
        return float(analyzer.analyze(spec, jobs=1, cache=False).to_dict()["ev"])

    with ThreadPoolExecutor(max_workers=len(SPECS) * 2) as pool:
        together = list(pool.map(ev, SPECS * 2))
    assert together == alone * 2
    assert [ev(s) for s in SPECS] == alone  # and the caches are sound after
