"""bja compare without the engine: grids, effects lists, Shapley algebra, renderers, CLI errors.

The engine-backed checks (rows equal ``bja ev`` bit for bit, exact Shapley sums on
a real lattice, Hoppe's published effects, Dask) are in the other test_compare_*.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.cli.main import main
from analyzer.comparisons.effects import effect_variants
from analyzer.comparisons.explain import dividends, explain, intermediate, players_between, shapley
from analyzer.comparisons.model import Comparison, Figures, Row
from analyzer.comparisons.outputs import render
from analyzer.comparisons.runner import figure_memo
from analyzer.comparisons.variants import GridError, load_grid, parse_axis, product_variants
from analyzer.core.presets import PRESETS, game_base
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.ruleset import COMPONENTS, differing

BASE = parse_spec("6D S17 DOA DAS SPL3 LS")


# -- grid -------------------------------------------------------------------
def test_product_is_cartesian_and_keeps_the_base() -> None:
    axes = [parse_axis("1D|2D|6D|8D", BASE), parse_axis("S17|H17", BASE),
            parse_axis("DAS|NDAS", BASE), parse_axis("LS|NS", BASE)]
    variants = product_variants(BASE, axes)
    assert len(variants) == 32
    assert len({v.spec for v in variants}) == 32
    assert variants[0].spec == "1D S17 DOA DAS SPL3 LS"
    assert product_variants(BASE, [["-", "H17"]])[0].rules == BASE


def test_contradictory_cell_is_a_row_not_a_failure() -> None:
    variants = product_variants(BASE, [parse_axis("S17|H17", BASE), parse_axis("H17|-", BASE)])
    assert [v.error is None for v in variants] == [False, True, True, True]
    assert "contradicts" in (variants[0].error or "")
    # An invalid rule combination (free splits without splitting) is a row too.
    free = product_variants(BASE, [parse_axis("NSPL|-", BASE), parse_axis("FSA-9|-", BASE)])
    assert free[0].rules is None and "free splits" in (free[0].error or "")


@pytest.mark.parametrize("axis", ["XYZ", "S17|", "CH2", "S17 H17|H17"])
def test_bad_axis_is_a_usage_error(axis: str) -> None:
    with pytest.raises(GridError, match="--vary"):
        parse_axis(axis, BASE)


def test_axis_valid_on_the_base_only_is_accepted() -> None:
    charlie = game_base("charlie7")
    assert parse_axis("CHBJ|-", charlie) == ["CHBJ", "-"]


def test_grid_file(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    path.write_text('game = "charlie7"\nvary = [["S17", "H17"]]\n'
                    '[[rows]]\nname = "six decks"\nrules = "6D"\n'
                    '[[rows]]\nname = "broken"\nrules = "NSPL FSA-9"\n')
    grid = load_grid(path)
    assert grid.base == PRESETS["charlie7"].rules and grid.base_name == "charlie7"
    assert [v.name for v in grid.variants] == ["S17", "H17", "six decks", "broken"]
    assert grid.variants[2].rules == grid.base.replace(decks=6)
    assert grid.variants[3].rules is None


@pytest.mark.parametrize("text, message", [
    ("base = 6", "'base' must be a str"),
    ("base = '6D'\ncolour = 1", "unknown key"),
    ("base = '6D'\nvary = [['S17', 'XX']]", "unknown rule token 'XX'"),
    ("base = '6D'\nvary = ['S17']", "non-empty list"),
    ("base = '6D'", "no rows"),
    ("base = '6D'\n[[rows]]\nrule = 'H17'", "rows\\[0\\]"),
    ("base = [", "not valid TOML"),
    ("vary = [['S17']]", "needs --base"),
])
def test_malformed_grid_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "g.toml"
    path.write_text(text)
    with pytest.raises(GridError, match=message):
        load_grid(path)


# -- effects ----------------------------------------------------------------
def test_effects_of_a_classic_base() -> None:
    changes = {v.change for v in effect_variants(BASE)}
    for expected in ("6D -> 1D", "6D -> 8D", "S17 -> H17", "DOA -> D10", "DAS -> NDAS",
                     "SPL3 -> NSPL", "NRSA -> RSA", "NHSA -> HSA", "LS -> ES", "LS -> NS",
                     "no SNA -> SNA", "BJ3:2 -> BJ6:5", "BJ3:2 -> BJ1:1", "PEEK -> ENHC",
                     "PEEK -> PEEKA", "no CH -> CH5", "no A21 -> A21", "no P22 -> P22",
                     "no FD -> FD9-11", "no SPR -> SPR", "no NSA -> NSA"):
        assert expected in changes
    assert "no OBO -> OBO" not in changes  # a peeked blackjack already takes one bet only
    assert "no CHBJ -> CHBJ" not in changes and "no FS -> FSA-9" not in changes  # SPL3
    one_split = {v.change for v in effect_variants(parse_spec("6D SPL1 CH6"))}
    assert "no FS -> FSA-9" in one_split and "NRSA -> RSA" not in one_split
    assert "no CHBJ -> CHBJ" not in one_split  # every blackjack is peeked: CHBJ is moot
    assert all(v.rules is not None and v.rules != BASE for v in effect_variants(BASE))


def test_effects_of_seed_games_apply() -> None:
    free = effect_variants(game_base("free-bet"))
    changes = {v.change for v in free}
    assert {"FD9-11 -> no FD", "FSA-9 -> no FS", "CH6 -> CH7", "CHBJ -> no CHBJ",
            "no OBO -> OBO", "P22 -> no P22"} <= changes
    assert "SPL1 -> NSPL" not in changes  # free splits need splitting
    nspl = effect_variants(parse_spec("6D NSPL"))
    assert not any("DAS" in (v.change or "") or "RSA" in (v.change or "") for v in nspl)


def test_components_cover_every_rule_field() -> None:
    import dataclasses

    fields = {f.name for f in dataclasses.fields(Rules)}
    assert fields == {f for c in COMPONENTS for f in c.field_names}
    assert [c.name for c in differing(BASE, parse_spec("8D H17 DOA DAS SPL3 LS"))] == \
        ["decks", "soft 17"]


def _stable(spec: str) -> float:
    """A made-up EV per spec, the same in every run."""
    return int(hashlib.sha256(spec.encode()).hexdigest(), 16) % 10007 / 1e6


# -- Shapley ----------------------------------------------------------------
def _classical(n: int, v: dict[int, Fraction]) -> list[Fraction]:
    """Shapley by the permutation definition: average marginal over all n! orders."""
    shares = [Fraction(0)] * n
    for order in itertools.permutations(range(n)):
        s = 0
        for i in order:
            shares[i] += v[s | 1 << i] - v[s]
            s |= 1 << i
    return [x / math.factorial(n) for x in shares]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_shapley_matches_the_permutation_definition_and_sums_exactly(n: int) -> None:
    rng = random.Random(n)
    v = {m: Fraction(rng.randint(-10**9, 10**9), rng.randint(1, 10**9)) for m in range(1 << n)}
    shares, orders = shapley(n, v)
    assert orders == math.factorial(n)
    assert shares == _classical(n, v)
    assert sum(shares) == v[(1 << n) - 1] - v[0]
    d = dividends(n, v)
    assert sum(d.values()) == v[(1 << n) - 1] - v[0]  # dividends add up to the total too
    for i in range(n):  # each rule's Shapley value is its share of every dividend
        assert shares[i] == sum(x / m.bit_count() for m, x in d.items() if m >> i & 1)


def test_shapley_over_valid_orders_only() -> None:
    # Player 1 is invalid before player 0 (like CHBJ before a Charlie): mask 0b10 invalid.
    v = {0b00: Fraction(0), 0b01: Fraction(3), 0b11: Fraction(5)}
    shares, orders = shapley(2, v)
    assert orders == 1 and shares == [3, 2] and sum(shares) == 5
    assert dividends(2, v) == {0b01: 3}  # {1} and {0,1} need the invalid subset


def test_shapley_with_no_valid_order_is_reported() -> None:
    assert shapley(2, {0: Fraction(0), 3: Fraction(1)}) == ([], 0)


def test_explain_with_invalid_intermediates_and_exact_sum() -> None:
    a, b = parse_spec("6D S17 SPL3 LS"), parse_spec("6D S17 SPL3 NS CH6 CHBJ")
    names = [p.name for p in players_between(a, b)]
    assert names == ["surrender", "charlie", "charlie beats blackjack"]
    assert isinstance(intermediate(a, b, players_between(a, b), 0b100), str)  # CHBJ alone

    def evaluate(specs: list[str]) -> dict[str, Figures | str]:  # a synthetic EV per spec
        return {s: Figures(ev=_stable(s)) for s in specs}

    e = explain(a, b, evaluate)
    assert sum(k.shapley for k in e.contributions) == e.total
    assert e.total == Fraction(evaluate([format_spec(b)])[format_spec(b)].ev) - \
        Fraction(evaluate([format_spec(a)])[format_spec(a)].ev)
    assert len(e.invalid) == 2 and all("CHBJ" in why for _d, why in e.invalid)
    assert e.orders == 3 and e.all_orders == 6  # CHBJ must come after the Charlie
    chbj = e.contributions[2]
    assert chbj.alone is None and chbj.last is not None


def test_explain_merges_beyond_max_players() -> None:
    a, b = game_base("free-bet"), game_base("privilege")

    def evaluate(specs: list[str]) -> dict[str, Figures | str]:
        return {s: Figures(ev=_stable(s)) for s in specs}

    e = explain(a, b, evaluate, max_players=4)
    assert len(e.contributions) == 4 and e.contributions[-1].rule == "other rules"
    assert sum(k.shapley for k in e.contributions) == e.total
    assert any("largest single-change effect" in n for n in e.notes)


# -- renderers and CLI ------------------------------------------------------
def _comparison(exact: bool = False) -> Comparison:
    f1 = Figures(ev=-0.005, ev_exact=Fraction(-1, 200) if exact else None, chart_ev=-0.0051)
    f2 = Figures(ev=-0.003, ev_exact=Fraction(-3, 1000) if exact else None, chart_ev=-0.0031)
    rows = (Row("H17", "6D H17 DOA DAS SPL3 LS", "S17 -> H17", figures=f1,
                delta=Fraction(-1, 500)),
            Row("bad", None, "x", error="rule token 'H17' contradicts 'S17'"),
            Row("LS", "6D S17 DOA DAS SPL3 LS", "NS -> LS", figures=f2, delta=Fraction(0)))
    return Comparison("effects", "6D S17 DOA DAS SPL3 LS", "classic", f2, rows, exact=exact)


def test_renderers_show_what_is_present() -> None:
    c = _comparison()
    text = render(c, "text")
    assert isinstance(text, str)
    assert "chart EV %" in text and "S17 -> H17" in text and "error: rule token" in text
    data = render(c, "json")
    assert isinstance(data, dict)
    assert data["base"] == c.base and data["rows"][0]["delta"] == -0.002
    assert data["rows"][0]["change"] == "S17 -> H17" and "ev_exact" not in data["rows"][0]
    assert data["rows"][1] == {"name": "bad", "rules": None, "change": "x",
                               "error": "rule token 'H17' contradicts 'S17'"}
    nochart = Comparison("grid", c.base, c.base, c.base_figures,
                         (Row("a", c.base, figures=Figures(ev=0.1), delta=Fraction(0)),))
    assert "chart" not in str(render(nochart, "text")) and "chart_ev" not in \
        str(render(nochart, "csv"))
    exact = render(_comparison(exact=True), "json")
    assert isinstance(exact, dict)
    assert exact["rows"][0]["ev_exact"] == "-1/200" and exact["rows"][0]["delta_exact"] == "-1/500"
    csv_text = render(_comparison(exact=True), "csv")
    assert isinstance(csv_text, str)
    assert csv_text.splitlines()[0].endswith("ev_exact,delta_exact,error")
    for fmt in ("markdown", "html"):
        out = render(c, fmt)
        assert isinstance(out, str) and "S17 -&gt; H17" in out or "S17 -> H17" in str(out)
    levels = Figures(ev=-0.005, ev_exact=Fraction(-1, 200), chart_ev=-0.006,
                     extra=(("cdp1_ev", -0.004),),
                     extra_exact=(("chart_ev", Fraction(-3, 500)), ("cdp1_ev", Fraction(-1, 250))))
    both = Comparison("grid", c.base, c.base, levels, (Row("a", c.base, figures=levels,
                                                          delta=Fraction(0)),), exact=True)
    lines = str(render(both, "csv")).splitlines()  # the CSV dropped every fraction but two
    assert lines[0].endswith("ev_exact,delta_exact,chart_ev_exact,cdp1_ev_exact,error")
    assert lines[1].endswith("-1/200,0/1,-3/500,-1/250,")
    png = render(c, "png")
    assert isinstance(png, bytes) and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert render(c, "png") == png  # the same model gives the same bytes


def test_html_is_one_sortable_page() -> None:
    page = render(_comparison(), "html")
    assert isinstance(page, str)
    assert "<script>" in page and 'data-v="-0.002"' in page
    assert "http" not in page.replace("http-equiv", "")  # no external resource


def test_memo_round_trips_floats_exactly(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    memo = figure_memo()
    x = 0.1 + 0.2
    memo.put(("6D", None, "float"), {"ev": x, "ev_exact": "-1/3"})
    got = memo.get(("6D", None, "float"))
    assert got == {"ev": x, "ev_exact": "-1/3"} and got["ev"] == x
    assert figure_memo(enabled=False).get(("6D", None, "float")) is None
    memo.path(("6D", None, "float")).write_text("{half")
    assert memo.get(("6D", None, "float")) is None


@pytest.mark.parametrize("argv, message", [
    (["--base", "6D", "--vary", "S17|XX"], "unknown rule token 'XX'"),
    (["--base", "6D"], "give one of"),
    (["--vary", "S17|H17"], "needs --base"),
    (["--base", "6D", "--effects", "--vary", "H17"], "give one of"),
    (["charlie7"], "two or more"),
    (["charlie7", "nosuchgame"], "unknown rule token"),
    (["--grid", "/nonexistent.toml"], "cannot read grid file"),
    (["--base", "6D", "--effects", "--png"], "--png needs --out"),
    (["--base", "6D", "--effects", "--backend", "dask"], "--scheduler"),
])
def test_cli_usage_errors_are_one_line(argv: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("bja: error: ")
    assert message in err


def test_vary_value_may_start_with_keep(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--base", "6D", "--vary", "-|XX"]) == 2
    assert "unknown rule token 'XX'" in capsys.readouterr().err


def test_json_shape_from_cached_figures(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A grid served wholly from the memo: no engine run, same JSON shape."""
    specs = ["6D S17 DOA DAS SPL3 LS", "6D H17 DOA DAS SPL3 LS"]
    memo = figure_memo()
    for i, spec in enumerate(specs):
        memo.put((spec, None, "float"), {"ev": -0.003 - i / 1000})
    assert main(["compare", "--base", specs[0], "--vary", "S17|H17", "--no-chart",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["base"] == specs[0] and [r["rules"] for r in data["rows"]] == specs
    assert data["rows"][1]["ev"] == -0.004 and data["rows"][1]["delta"] == float(
        Fraction(-0.004) - Fraction(-0.003))


@pytest.mark.parametrize("payload", [{}, {"ev": "x"}, {"ev": float("nan")},
                                     {"ev": -0.01, "extra": 1}, {"error": 5}],
                         ids=["empty", "text", "nan", "extra-key", "error-number"])
def test_an_entry_of_another_shape_is_recomputed(payload: object, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A payload with its checksum right but not the worker's shape (``{}``) ended in a
    ``KeyError`` traceback; it is absent now, and the row is computed again."""
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    argv = ["compare", "--base", "1D", "--vary", "S17|H17", "--no-chart", "--jobs", "1",
            "--json"]
    assert main(argv) == 0
    cold = capsys.readouterr().out
    key = ("1D H17 DOA DAS SPL3 NS", None, "float")
    assert figure_memo().get(key) == {"ev": json.loads(cold)["rows"][1]["ev"]}  # the entry
    figure_memo().put(key, payload)  # type: ignore[arg-type]
    assert figure_memo().get(key) is not None  # served by the memo, checksum and all
    assert main(argv) == 0
    assert capsys.readouterr().out == cold


def test_an_exact_comparison_values_the_chart_in_fractions() -> None:
    """``compare --exact`` printed the chart's float evaluation, its last digit off the one
    ``ev --levels --exact`` prints (found by a cross-interface tester): the chart's own play
    is valued in fractions too, its float that fraction's.  No splitting: the exact split
    levels ``levels=True`` adds would double the time, and split play is not the point."""
    import analyzer

    spec = "1D H17 DOA NDAS NSPL NS"
    level = analyzer.analyze(spec, exact=True, levels=True, jobs=1).to_dict()["levels"]["chart"]
    (row,) = analyzer.compare(spec, vary=["H17"], exact=True, jobs=1,  # the base alone
                              cache=False).to_dict()["rows"]
    assert row["chart_ev_exact"] == level["ev_exact"]
    assert row["chart_ev"] == level["ev"] == float(Fraction(level["ev_exact"]))
    assert Fraction(row["chart_ev_exact"]) < Fraction(row["ev_exact"])
