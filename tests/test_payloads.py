"""Every ``--json`` payload has the shape its TypedDict states, at run time too.

mypy checks the code that builds a payload against its TypedDict; this checks the
payloads themselves, key by key and value by value, nested TypedDicts, lists and
``dict[str, X]`` included: every required key present, no key the type does not
name, every value of a declared type.  That covers what mypy cannot see: a
comparison row is built by the column registry and cast to ``RowJson``, and the
JSON a command prints went through ``json.dumps``.  Small shoes keep it quick.
"""

from __future__ import annotations

import contextlib
import io
import json
import types
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from analyzer.cli.main import main
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import Shoe

RULES = "1D S17 DOA DAS SPL1 LS"
NO_SPLIT = "1D H17 DOA NDAS NSPL NS"  # exact arithmetic without splits: quick
SHOE = Shoe([2, 2, 2, 2, 2, 2, 2, 2, 2, 8])  # 26 cards: no round runs out


def _is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def check(value: object, tp: Any, where: str = "payload") -> None:
    """``value`` is of type ``tp`` (TypedDicts, lists, dicts, unions, scalars)."""
    origin = get_origin(tp)
    if origin is NotRequired:
        check(value, get_args(tp)[0], where)
    elif _is_typeddict(tp):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        # Read NotRequired from the hints: under ``from __future__ import annotations``
        # Python 3.11 counts every key of a TypedDict in __required_keys__.
        hints = get_type_hints(tp, include_extras=True)
        required = {k for k, t in hints.items() if get_origin(t) is not NotRequired}
        missing = required - value.keys()
        unknown = value.keys() - hints.keys()
        assert not missing and not unknown, f"{where}: missing {missing}, unknown {unknown}"
        for key, item in value.items():
            check(item, hints[key], f"{where}.{key}")
    elif origin in (Union, types.UnionType):
        errors = []
        for option in get_args(tp):
            try:
                check(value, option, where)
                return
            except AssertionError as err:
                errors.append(str(err))
        raise AssertionError(f"{where}: {value!r} is none of {get_args(tp)}: {errors}")
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            check(item, get_args(tp)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a mapping"
        key_type, item_type = get_args(tp)
        for key, item in value.items():
            check(key, key_type, f"{where} key")
            check(item, item_type, f"{where}[{key!r}]")
    elif tp is object:
        return
    elif tp is type(None):
        assert value is None, f"{where}: {value!r} is not null"
    elif tp is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), \
            f"{where}: {value!r} is not a number"
    elif tp in (int, str, bool):
        assert type(value) is tp, f"{where}: {value!r} is not {tp.__name__}"
    else:  # pragma: no cover - a type this checker does not know
        raise AssertionError(f"{where}: cannot check type {tp!r}")


def _json_of(*argv: str) -> object:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return json.loads(out.getvalue())


def test_the_checker_refuses_a_wrong_payload() -> None:
    from analyzer.sim.estimate import RunJson

    good = {"strategy": "chart", "rounds": 10, "seed": 1, "jobs": 2}
    check(good, RunJson)
    for bad in ({**good, "rounds": "10"}, {k: v for k, v in good.items() if k != "seed"},
                {**good, "extra": 1}, {**good, "jobs": True}):
        with pytest.raises(AssertionError):
            check(bad, RunJson)


EXACT = [False, pytest.param(True, marks=pytest.mark.slow)]  # fractions: the slow part


def _printed(payload: object) -> object:
    """The payload as a command prints it (``--json``)."""
    return json.loads(json.dumps(payload))


@pytest.mark.parametrize("exact", EXACT)
def test_game_payloads(exact: bool) -> None:
    from analyzer.core.presets import PRESETS
    from analyzer.engine.analysis import Analysis
    from analyzer.report.model import dealer_table, ev_report, hand_report
    from analyzer.report.render import (
        DealerJson,
        EvJson,
        HandJson,
        PresetJson,
        dealer_json,
        ev_json,
        hand_json,
        preset_json,
    )

    analysis = Analysis(parse_spec(NO_SPLIT if exact else RULES), SHOE, exact=exact)
    check(_printed(ev_json(ev_report(analysis, levels=not exact))), EvJson)
    check(_printed(hand_json(hand_report(analysis, 10, (8, 8)))), HandJson)
    check(_printed(hand_json(hand_report(analysis, 6, (1, 10)))), HandJson)
    check(_printed(dealer_json(dealer_table(analysis))), DealerJson)
    check(_printed(preset_json(PRESETS["four-jacks"])), PresetJson)


@pytest.mark.parametrize("exact", EXACT)
def test_distribution_payload(exact: bool) -> None:
    from analyzer.engine.distribution import round_distribution
    from analyzer.report.distribution_model import make_report
    from analyzer.report.distribution_render import ReportJson, report_data

    dist = round_distribution(parse_spec(NO_SPLIT if exact else RULES), SHOE, exact=exact)
    check(_printed(report_data(make_report(dist, "small", 0.0))), ReportJson)


def test_sidebet_payloads() -> None:
    from analyzer.sidebets.render import SheetJson, SolutionJson

    check(_json_of("sidebet", "hot3", "--decks", "1", "--json"), SheetJson)
    check(_json_of("sidebet", "21+3", "--decks", "1", "--solve", "flush", "--target-rtp",
                   "0.96", "--json"), SolutionJson)


@pytest.mark.parametrize("exact", EXACT)
def test_compare_payloads(exact: bool) -> None:
    """Rows built from the column registry and explanations: the casts in render_json."""
    from analyzer.comparisons import RunOptions, compare_explain, compare_grid
    from analyzer.comparisons.render_json import ComparisonJson, render_json
    from analyzer.comparisons.variants import parse_axis, product_variants

    shoe = "A:2,2:2,3:2,4:2,5:2,6:2,7:2,8:2,9:2,T:8"
    base = parse_spec(NO_SPLIT)
    options = RunOptions(exact=exact, charts=False, jobs=1, progress=False, use_cache=False,
                         shoe=shoe, levels=not exact)
    grid = compare_grid(base, product_variants(base, [parse_axis("S17|H17", base)]), options)
    check(_printed(render_json(grid)), ComparisonJson)
    explained = compare_explain([("a", base), ("b", base.replace(hits_soft_17=False))],
                                options)
    data = _printed(render_json(explained))
    check(data, ComparisonJson)
    assert isinstance(data, dict) and "contributions" in data["rows"][1]


def test_shoestate_payloads() -> None:
    from analyzer.shoestate.decisions import parse_decision
    from analyzer.shoestate.eor import effects_of_removal
    from analyzer.shoestate.render_eor import EorJson, eor_json

    decisions = [parse_decision(t) for t in ("16vT:stand-hit", "insurance")]
    for exact in (False, True):
        table = effects_of_removal(parse_spec("1D H17 DOA NDAS NSPL NS ENHC"),
                                   Shoe([4, 0, 0, 4, 0, 4, 4, 4, 0, 16]), decisions=decisions,
                                   exact=exact, use_cache=False)
        check(_printed(eor_json(table, "small")), EorJson)


def test_simulator_payloads() -> None:
    """The simulator's results as to_dict gives them (the CLI adds the game's name)."""
    from fractions import Fraction

    from analyzer.sim.estimate import SimResult, SimResultJson
    from analyzer.sim.shoe_study import CounterJson, CounterResult, TrueCountRow

    run = {"rules": RULES, "strategy": "optimal", "rounds": 10, "seed": 1, "jobs": 2,
           "cut_card": 0}
    result = SimResult(**run, mean=-0.1, sd=1.1, se=0.3, se_iid=0.3,
                       histogram={Fraction(-1): 6, Fraction(3, 2): 4}, seconds=0.1,
                       cpu_seconds=0.1, table_seconds=0.1, compile_seconds=0.1)
    check(_printed(result.to_dict()), SimResultJson)
    counter = CounterResult(**run, spread=(1, 8), win_per_100=1.0, se_per_100=0.5,
                            mean_bet=2.0, flat_ev=-0.01,
                            by_true_count=(TrueCountRow(0, 10, 1.0, -0.01, 1.0),))
    check(_printed(counter.to_dict()), CounterJson)


def test_chart_payloads(tmp_path: Any) -> None:
    """ChartOutJson holds ChartJson's every key: one derivation checks both."""
    from analyzer.api.play import ChartOutJson, EvaluateJson

    out = tmp_path / "chart.csv"
    check(_json_of("chart", "--rules", RULES, "--format", "csv", "--out", str(out), "--json"),
          ChartOutJson)
    check(_json_of("evaluate", "--rules", RULES, "--chart", str(out), "--json"), EvaluateJson)

