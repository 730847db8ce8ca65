"""CDP1 and CDP on more rule sets, against Farmer's analyzer run for this project.

Source: Eric Farmer, "Blackjack Basic Strategy Calculator" v7.6 (repository
possibly-wrong/blackjack, commit a1f7dbb), built and run for this project; each file in
``tests/reference/farmer-runs/`` holds the exact stdin answers (rules, post-split level,
the 100 pair queries) and the verbatim output.  Compared: the overall EV, the EV by
upcard and the split EV of every pair against every upcard, to the printed 9 decimals
of a percentage (1e-9 percentage points).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer.core.actions import SPLIT
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis

RUNS = Path(__file__).parent / "reference" / "farmer-runs"
CASES = {
    "1d-h17-ndas-spl3-ns-cdp1.txt": ("1D H17 DOA NDAS SPL3 NS", "cdp1"),
    "1d-h17-ndas-spl3-ns-cdp.txt": ("1D H17 DOA NDAS SPL3 NS", "cdp"),
    "2d-s17-das-spl3-rsa-ls-cdp1.txt": ("2D S17 DOA DAS SPL3 RSA LS", "cdp1"),
    "2d-s17-das-spl3-rsa-ls-cdp.txt": ("2D S17 DOA DAS SPL3 RSA LS", "cdp"),
    "8d-h17-das-spl3-ls-cdp.txt": ("8D H17 DOA DAS SPL3 LS", "cdp"),
}
TOL = 1e-9
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def parse(text: str) -> tuple[float, dict[int, float], dict[tuple[int, int], float]]:
    """Overall EV, EV by upcard and split EVs (pair, upcard) of one run (percent)."""
    overall = float(re.search(r"\n\s*Total \|\s+(-?\d+\.\d{9})\n", text).group(1))  # type: ignore[union-attr]
    by_upcard = {1 if m.group(1) == "A" else int(m.group(1)): float(m.group(2))
                 for m in re.finditer(r"^\s+(\d+|A)\s+\|\s+(-?\d+\.\d{9})$", text, re.M)}
    stdout = text.split("=== STDOUT")[1].split("=== TABLE FILE")[0]
    blocks = stdout.split("Enter dealer up card and player hand (Ctrl-C to exit): ")[1:]
    splits = [float(m.group(1)) for b in blocks
              if (m := re.search(r"Split\s+E\(X\) =\s+(-?\d+\.\d{9})%", b))]
    assert len(splits) == 100
    cells = [(pair, up) for pair in range(1, 11) for up in UPS]
    return overall, by_upcard, dict(zip(cells, splits, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_run(name: str) -> None:
    spec, level = CASES[name]
    overall, by_upcard, splits = parse((RUNS / name).read_text())
    analysis = Analysis(parse_spec(spec), split=level)
    assert abs(analysis.ev() * 100 - overall) <= TOL
    assert len(by_upcard) == 10
    for up, value in by_upcard.items():
        assert abs(analysis.by_upcard()[up] * 100 - value) <= TOL, up
    for (pair, up), value in splits.items():
        mine = analysis.actions(up, (pair, pair))[SPLIT] * 100
        assert abs(mine - value) <= TOL, (pair, up)
