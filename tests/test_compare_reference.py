"""Rule effects against Hoppe's published table (tests/reference/hoppe-rule-effects.md).

Every row agrees with his probabilistic ("prob") column to 0.001 percentage
points, except where the rule conventions differ, each explained here:

* hit split aces: in bja, HSA with DAS lets a split ace hand double as well as
  hit (the engine applies DAS to every split hand); Hoppe's "hit split aces"
  only hits and lists "double after splitting aces" as a separate rule.  Our
  -0.1849 agrees with the Wizard of Odds calculator's -0.185 (his `wiz` column).
* unlimited resplitting and doubling split aces alone are not rules bja models
  (at most 4 hands; doubling after a split follows DAS for every pair).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.comparisons import RunOptions, compare_grid
from analyzer.comparisons.variants import named_variant
from analyzer.core.rules import parse_spec

TABLE = Path(__file__).parent / "reference" / "hoppe-rule-effects.md"
BASE = parse_spec("6D H17 DOA DAS SPL3 LS")
# Convention differences (see the module docstring): compare with this column instead.
OTHER_COLUMN = {"HSA": "wiz"}


def _rows() -> list[tuple[str, dict[str, float | None]]]:
    rows = []
    for line in TABLE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[1] in ("tokens", "---") or cells[1].startswith("("):
            continue
        figures = {k: float(v) if v else None for k, v in zip(("prob", "sim", "wiz"), cells[2:],
                                                                strict=True)}
        rows.append((cells[1], figures))
    return rows


def test_table_is_read() -> None:
    rows = dict(_rows())
    assert len(rows) == 14 and rows["S17"]["prob"] == -0.197 and rows["HSA"]["wiz"] == -0.185


@pytest.mark.slow
def test_rule_effects_agree_with_hoppe() -> None:
    rows = _rows()
    variants = [named_variant(t, t, BASE) for t, _ in rows]
    variants += [named_variant("SPL1", "SPL1", BASE), named_variant("SPL1 NDAS", "SPL1 NDAS",
                                                                      BASE)]
    c = compare_grid(BASE, variants, RunOptions(charts=False, progress=False))
    # House-edge change = minus our EV change, in percentage points.
    effect = {r.name: -float(r.delta) * 100 for r in c.rows if r.delta is not None}
    for tokens, figures in rows:
        column = OTHER_COLUMN.get(tokens, "prob")
        published = figures[column]
        assert published is not None
        assert effect[tokens] == pytest.approx(published, abs=0.001), (tokens, column)
    # His second base: split to 2 hands; no double after split +0.124.
    assert effect["SPL1 NDAS"] - effect["SPL1"] == pytest.approx(0.124, abs=0.001)
    # The HSA convention difference is real: Hoppe's hit-only figure is 0.008 away.
    assert abs(effect["HSA"] - dict(rows)["HSA"]["prob"]) > 0.005  # type: ignore[operator]
