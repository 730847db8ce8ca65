"""The committed certificates (reports/<game>/certificate.json, written by ``bja build``)
hold distributions that sum to 1 and whose mean is the engine's EV: to 1e-9 where every
round was enumerated, within the stated error bound where some were approximated (the
total then at least 1)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.core.presets import BUILT_VARIANTS, PRESETS

REPORTS = Path(__file__).resolve().parents[1] / "reports"


@pytest.mark.parametrize("game", [*PRESETS, *BUILT_VARIANTS])
def test_distribution_sums_to_one_with_the_engines_ev_as_mean(game: str) -> None:
    data = json.loads((REPORTS / game / "certificate.json").read_text(encoding="utf-8"))
    dist = {Fraction(x): p for x, p in data["distribution"].items()}
    bound = data["error_bound"]
    # the approximated rounds' printed total is e, their exact one e* in [0, e]
    # (analyzer.engine.dist_splits._independent_extra): the whole total is in [1, 1 + e]
    assert -1e-9 <= sum(dist.values()) - 1 <= 1e-9 + bound
    mean = sum(float(x) * p for x, p in dist.items())
    assert mean == pytest.approx(data["distribution_mean"], abs=1e-12)
    # each of the k probabilities within e: the mean within k e max|x|
    slack = bound * len(dist) * max(abs(float(x)) for x in dist)
    assert abs(mean - data["ev"]) <= 1e-9 + slack
    if game == "four-jacks":  # every round of four-jacks enumerated jointly
        assert bound == 0


def test_four_jacks_leads_with_its_rtp_as_dealt() -> None:
    data = json.loads((REPORTS / "four-jacks" / "certificate.json").read_text(encoding="utf-8"))
    assert data["headline"]["figure"] == "rtp_as_dealt" and data["headline"]["se"] < 5e-5


def test_a_note_of_one_play_names_the_play() -> None:
    """Spanish 21's two distributions differ in their error bounds, and only the CDZ- play
    reads suits: each such note says whose it is, and none is printed twice."""
    text = (REPORTS / "spanish21" / "certificate.md").read_text(encoding="utf-8")
    notes = text.split("Assumptions:", 1)[1].split("\n#", 1)[0]
    lines = [line[2:] for line in notes.splitlines() if line.startswith("- ")]
    assert len(lines) == len(set(lines)) > 0
    assert "basic chart: the strategy reads ranks only" in " ".join(lines)
    bounds = [line for line in lines if "every probability is within" in line]
    assert len(bounds) == 2 and {b.split(":", 1)[0] for b in bounds} == {"CDZ-", "basic chart"}
