"""Edge by true count: sampled states, exact EVs, standard errors, the plot, the build.

What is checked: the sampler deals real shoe states (counts, depths, reproducible by
seed), true counts follow their definition, each state's EV is the engine's exact EV of
that shoe, the per-bin means and standard errors are those of the states, and the
renders (PNG included) are byte-identical on a rebuild.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from analyzer.cli.main import main
from analyzer.core.rules import Rules, parse_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.shoestate import build as shoestate_build
from analyzer.shoestate.counts import SYSTEMS
from analyzer.shoestate.edge import deal_states, edge_by_count, true_counts
from analyzer.shoestate.efficiency import EffectsModel
from analyzer.shoestate.plot import edge_png

QUICK = "1D H17 DOA NDAS NSPL NS ENHC"


def test_deal_states_are_real_shoe_states() -> None:
    full = Shoe.decks(2)
    depths, left = deal_states(full, 52, 500, np.random.default_rng(7))
    assert depths.min() >= 0 and depths.max() < 52
    assert (left.sum(axis=1) == 104 - depths).all()
    assert (left >= 0).all() and (left <= np.array(full.counts)).all()
    again = deal_states(full, 52, 500, np.random.default_rng(7))
    assert (again[1] == left).all()


def test_true_count_definition() -> None:
    full = Shoe.decks(1)
    left = np.array([[4, 3, 3, 4, 4, 4, 4, 4, 4, 14]])  # dealt 2, 3, T, T: Hi-Lo 0
    assert true_counts(SYSTEMS["hi-lo"], full, left)[0] == 0
    left = np.array([[4, 3, 3, 3, 4, 4, 4, 4, 4, 16]])  # dealt 2, 3, 4: +3 with 49 left
    assert true_counts(SYSTEMS["hi-lo"], full, left)[0] == pytest.approx(3 / (49 / 52))
    # KO is centred: 4 sevens dealt count +4, less 4 cards * 4/52 per card
    left = np.array([[4, 4, 4, 4, 4, 4, 0, 4, 4, 16]])
    assert true_counts(SYSTEMS["ko"], full, left)[0] == pytest.approx(
        (4 - 4 * 4 / 52) / (48 / 52))


def test_edge_by_count_small_game() -> None:
    rules = parse_spec(QUICK + " CUT20")
    model = edge_by_count(rules, SYSTEMS["hi-lo"], states=3, count_samples=2000, seed=3,
                          use_cache=False)
    assert len(model.states) == 3 and model.cut == 20
    full = Shoe.decks(1)
    assert model.full_ev == pytest.approx(float(Analysis(rules, full).ev()), abs=0)
    _, left = deal_states(full, 20, 3, np.random.default_rng([3, 1]))
    for (dealt, _, ev), row in zip(model.states, left, strict=True):
        assert dealt == 52 - row.sum()
        assert ev == float(Analysis(rules, Shoe([int(c) for c in row])).ev())
    evs = np.array([e for _, _, e in model.states])
    assert model.mean_ev == pytest.approx(evs.mean())
    assert model.mean_se == pytest.approx(evs.std(ddof=1) / math.sqrt(3))
    assert sum(b.states for b in model.bins) == 3
    assert sum(b.share for b in model.bins) == pytest.approx(1)
    png = edge_png(model, "test")
    assert png == edge_png(model, "test") and png.startswith(b"\x89PNG")
    assert b"Software" not in png


def test_edge_needs_a_cut_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--rules", QUICK, "--no-cache"]) == 2
    assert "no cut card" in capsys.readouterr().err
    assert main(["edge", "--rules", QUICK, "--cut", "45", "--no-cache"]) == 2
    # 36, not 40: a state dealt 36+ cards deep may hold 16 or fewer small cards, which a
    # round can run out of (issue 20).
    assert "must be 1 to 36" in capsys.readouterr().err


@pytest.mark.slow
def test_build_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shoestate_build, "EDGE_STATES", 4)
    monkeypatch.setattr(shoestate_build, "EDGE_SAMPLES", 2000)
    games = {"tiny": parse_spec(QUICK + " CUT26")}
    first = shoestate_build.build_shoestate_reports(tmp_path, games=games,
                                                    counted={"tiny": 26}, protected=games,
                                                    protection_rounds=20_000)
    snapshot = {p: p.read_bytes() for p in first}
    names = sorted(p.name for p in first)
    assert names == sorted(["README.md", "eor.md", "eor.json", "counts.md", "counts.json",
                            "indices.md", "indices.json", "edge.md", "edge.json", "edge.png",
                            "protection.md", "protection.json"])
    second = shoestate_build.build_shoestate_reports(tmp_path, games=games,
                                                     counted={"tiny": 26}, protected=games,
                                                     protection_rounds=20_000,
                                                     use_cache=False)
    assert second == first
    assert all(p.read_bytes() == snapshot[p] for p in second)


def test_build_writes_a_games_files_as_one_set(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's reports are written together: a failure after its count systems (at the
    effects of removal) leaves none of its files, not counts.* without the rest (issue 20)."""
    real = shoestate_build.effects_model
    small = Shoe([3, 3, 3, 3, 3, 3, 3, 3, 3, 12])  # 39 cards: small trees

    def small_shoe(rules: Rules, **kwargs: Any) -> EffectsModel:
        return real(rules, small, **{**kwargs, "jobs": 1})

    def failing(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("effects of removal failed")

    monkeypatch.setattr(shoestate_build, "effects_model", small_shoe)
    monkeypatch.setattr(shoestate_build, "effects_of_removal", failing)
    games = {"tiny": parse_spec(QUICK + " CUT26")}
    with pytest.raises(RuntimeError, match="effects of removal failed"):
        shoestate_build.build_shoestate_reports(tmp_path, games=games, counted={"tiny": 26},
                                                protected=games, protection_rounds=20_000)
    folder = tmp_path / "reports" / "shoestate" / "tiny"
    assert not folder.exists() or not any(folder.iterdir())


@pytest.mark.slow
def test_game_protection_table() -> None:
    """Without a cut card the counter always sees a full shoe: it bets the minimum and
    wins exactly the flat-bet result; with one it is the simulator's own counter run."""
    from analyzer.shoestate.protection import (
        game_protection,
        protection_json,
        protection_markdown,
    )
    from analyzer.sim import counter_win_rate

    rules = parse_spec("2D S17 DOA DAS SPL1 NS")
    games = {"shuffled": rules, "dealt": rules.replace(cut_card=52)}
    found = game_protection(games, 20_000, seed=7, jobs=1)
    shuffled, dealt = (r for _, r in found.games)
    assert shuffled.mean_bet == 1 and shuffled.win_per_100 == pytest.approx(
        100 * shuffled.flat_ev, abs=1e-12)
    assert dealt.mean_bet > 1  # positive counts happen: the counter raises its bet
    direct = counter_win_rate(games["dealt"], 20_000, spread=(1, 8), strategy="chart",
                              seed=7, jobs=1)
    assert (dealt.win_per_100, dealt.se_per_100) == (direct.win_per_100, direct.se_per_100)
    text = protection_markdown(found)
    assert "| shuffled | `2D S17 DOA DAS SPL1 NS` | every round |" in text
    assert "| dealt | `2D S17 DOA DAS SPL1 NS CUT52` | after 52 cards |" in text
    data = protection_json(found)
    assert data["games"]["dealt"]["win_per_100"] == dealt.win_per_100
    assert data["rounds"] == 20_000 and data["spread"] == [1, 8]
