"""A play by ranks only where suit bonuses pay (``bja ev --rank-only``, ``suits=False``).

The engine's default player reads the suits of his first two cards and of the upcard
where a 6-7-8 or 7-7-7 bonus can pay by suit; a player who ignores them decides on the
ranks and meets each suit pay at its average over the suits.  The brute-force oracle
(tests/oracle.py, ``by_suits=False``: the same deal enumerated with the suit cases
merged) gives that play's EV as fractions.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from analyzer.api import analyze
from analyzer.cli.main import main as bja
from analyzer.core.errors import UsageError
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from tests import oracle
from tests.test_suit_bonus import RICH, SEVENS, SUITED

BONUS_SPEC = f"2D H17 NSPL LS DAN {SUITED} SB=50:1 BSBJ=5:2 BND"


def _check(spec: str, counts: tuple[int, ...]) -> None:
    rules = parse_spec(spec)
    ranks = Analysis(rules, Shoe(counts), exact=True, suits=False)
    assert ranks.by_upcard() == oracle.round_ev_by_upcard(rules, counts, by_suits=False)
    suits = Analysis(rules, Shoe(counts), exact=True).ev()
    assert ranks.ev() < suits  # these shoes make suited 6-7-8s and 7-7-7s: reading pays
    oracle.clear_caches()


def test_rank_only_play_equals_the_oracle() -> None:
    _check(BONUS_SPEC, SEVENS)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [f"2D S17 SPL1 NS {SUITED}",
                                  f"2D S17 SPL1 LS {SUITED} SB=50:1 BNS"],
                         ids=["split-7s", "split-7s-BNS"])
def test_rank_only_play_equals_the_oracle_with_splits(spec: str) -> None:
    _check(spec, RICH)


def test_without_suit_bonuses_reading_ranks_changes_nothing() -> None:
    rules = parse_spec("2D H17 DOA DAS SPL1 LS B5C=3:2")
    shoe = Shoe(RICH)
    assert Analysis(rules, shoe, exact=True, suits=False).ev() == \
        Analysis(rules, shoe, exact=True).ev()


def test_analyze_marks_the_play_and_keeps_it_apart_in_the_memo(tmp_path: object,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               ) -> None:
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    spec = "1D H17 NSPL B678=2:1/3:1/5:1 B777=3:1/5:1/10:1"
    by_suits = analyze(spec, exact=True, jobs=1)
    by_ranks = analyze(spec, exact=True, jobs=1, suits=False)
    again = analyze(spec, exact=True, jobs=1)  # from the memo: the suits' entry, not the ranks'
    assert by_ranks.ev < by_suits.ev == again.ev
    assert isinstance(by_ranks.ev, Fraction)
    data = by_ranks.to_dict()
    assert data["rank_only"] is True and "rank_only" not in by_suits.to_dict()
    assert any("ranks only" in note for note in data["notes"])
    levels = analyze(spec, exact=True, jobs=1, suits=False, levels=True).to_dict()["levels"]
    assert Fraction(levels["cdz"]["ev_exact"]) == by_ranks.ev
    with pytest.raises(UsageError, match="suits must be True or False"):
        analyze(spec, jobs=1, suits="no")  # type: ignore[arg-type]


def test_the_cli_flag(capsys: pytest.CaptureFixture[str], tmp_path: object,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    spec = "1D H17 NSPL B678=2:1/3:1/5:1"
    assert bja(["ev", "--rules", spec, "--jobs", "1", "--json", "--rank-only"]) == 0
    ranks = json.loads(capsys.readouterr().out)
    assert bja(["ev", "--rules", spec, "--jobs", "1", "--json"]) == 0
    suits = json.loads(capsys.readouterr().out)
    assert ranks["rank_only"] is True and ranks["ev"] < suits["ev"]
    assert bja(["ev", "--rules", spec, "--jobs", "1", "--rank-only"]) == 0
    assert "note: played by ranks only" in capsys.readouterr().out
