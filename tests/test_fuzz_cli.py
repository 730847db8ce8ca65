"""Fuzz every command's arguments: a result, or one ``bja: error:`` line and status 2.

The main-game commands run on tiny shoes (12-20 cards over at most four values)
so each example takes milliseconds; ``chart``, ``evaluate`` and ``simulate``
always get at least one bad argument, since a valid one runs a full analysis
(their valid runs are in their own tests).  ``build`` is not fuzzed: it takes
no input but a folder and rebuilds everything.  No command leaves a partial
or temporary output file behind when it fails.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import strategies as st

from analyzer.core.errors import AnalyzerError
from analyzer.core.presets import CLASSIC_GAMES, PRESETS, game_rules
from tests.fuzz_inputs import (
    GARBAGE,
    HUGE,
    ROOT,
    assert_result_or_one_line,
    card_texts,
    fuzz,
    mutated,
    rule_specs,
    shoe_texts,
    suit_shoe_texts,
    tiny_shoes,
    tiny_suit_shoes,
    valid_rule_specs,
)

GAMES = st.sampled_from((*PRESETS, *CLASSIC_GAMES, "nope", ""))
CHART = (ROOT / "tables" / "charlie7" / "chart.csv").read_text()
PAYTABLE = (ROOT / "analyzer" / "sidebets" / "paytables" / "hot3-seed.toml").read_text()


def _options(draw: st.DrawFn, options: dict[str, st.SearchStrategy[str] | None]) -> list[str]:
    """Some of ``options``: a flag (None) or an option with a drawn value."""
    argv: list[str] = []
    for name, values in options.items():
        if draw(st.booleans()):
            argv += [name] if values is None else [name, draw(values)]
    return argv


@st.composite
def game_argv(draw: st.DrawFn) -> list[str]:
    """``ev``, ``hand`` or ``dealer`` on a tiny or malformed shoe."""
    command = draw(st.sampled_from(("ev", "hand", "dealer")))
    shoe = draw(st.one_of(tiny_shoes(), tiny_shoes(), shoe_texts()))
    argv = [command, "--shoe", shoe, "--rules",
            draw(st.one_of(valid_rule_specs(), valid_rule_specs(), rule_specs()))]
    argv += _options(draw, {"--game": GAMES, "--json": None})
    if draw(st.integers(0, 9)) == 0:
        argv.append("--exact")
    if command == "ev":
        argv += _options(draw, {"--split": st.sampled_from(("cdz", "exact", "both")),
                                "--no-cache": None})
    if command == "hand":
        argv += ["--up", draw(st.one_of(st.sampled_from("A23456789TK"), GARBAGE)),
                 "--cards", draw(st.one_of(card_texts(), st.sampled_from(("T,6", "8,8", "A,A",
                                                                          "2,3,4"))))]
        argv += _options(draw, {"--unconditioned": None})
    return argv


def check_game(argv: list[str]) -> None:
    assert_result_or_one_line(argv)


test_game_commands, test_game_commands_slow = fuzz(game_argv(), check_game, "game_commands",
                                                   fast=25, slow=1500)


@st.composite
def rules_argv(draw: st.DrawFn) -> list[str]:
    argv = ["rules", draw(st.sampled_from(("list", "show", "shows", "")))]
    if draw(st.booleans()):
        argv.append(draw(st.one_of(GAMES, GARBAGE)))
    return argv + _options(draw, {"--json": None})


test_rules_command, test_rules_command_slow = fuzz(
    rules_argv(), assert_result_or_one_line, "rules_command", fast=15, slow=500)


@st.composite
def sidebet_argv(draw: st.DrawFn) -> tuple[list[str], bytes]:
    """``sidebet`` on tiny shoes, shipped or fuzzed pay tables; the file's bytes apart."""
    argv = ["sidebet", draw(st.one_of(st.sampled_from(("21+3", "hot3", "any-pair", "bust-it")),
                                      GARBAGE))]
    shoe = draw(st.sampled_from(("shoe", "shoe", "bad-shoe", "decks", "none")))
    if shoe == "shoe":
        argv.append(f"--shoe={draw(tiny_suit_shoes())}")
    elif shoe == "bad-shoe":
        argv.append(f"--shoe={draw(suit_shoe_texts())}")
    elif shoe == "decks":
        argv += ["--decks", draw(st.one_of(st.sampled_from(("0", "-1", "x", "1.5", "100001")),
                                           HUGE))]
    else:
        argv += ["--preset", "nope"]  # 8 decks would be slow: give it a bad argument
    data = draw(mutated(PAYTABLE)) if draw(st.booleans()) else b""
    if data:
        argv += ["--paytable", "PAYTABLE"]
    events = st.sampled_from(("777", "21-suited", "pair", "bust-3", "straight", "push", "x"))
    argv += _options(draw, {
        "--pays": st.one_of(GARBAGE, st.tuples(events, st.one_of(
            GARBAGE, HUGE, st.sampled_from(("1e160", "-1e160", "1e999999999")))).map("=".join)),
        "--straights": st.sampled_from(("standard", "wrap", "ace-low", "x")),
        "--pair-by": st.sampled_from(("rank", "value", "x")), "--h17": None,
        "--reading": st.sampled_from(("removed", "ignored", "x")),
        "--solve": events, "--target-rtp": st.one_of(GARBAGE, st.sampled_from(
            ("0.95", "96%", "24/25", "0", "2"))),
        "--step": st.sampled_from(("1", "0", "1/2", "x")),
        "--json": None, "--markdown": None, "--csv": None})
    return argv, data


def check_sidebet(case: tuple[list[str], bytes]) -> None:
    argv, data = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pays.toml"
        path.write_bytes(data)
        assert_result_or_one_line([str(path) if a == "PAYTABLE" else a for a in argv])


test_sidebet_command, test_sidebet_command_slow = fuzz(
    sidebet_argv(), check_sidebet, "sidebet_command", fast=25, slow=1500)


def _rules_fail(game: str | None, spec: str) -> bool:
    try:
        game_rules(game, spec)
    except AnalyzerError:
        return True
    return False


@st.composite
def chart_argv(draw: st.DrawFn) -> tuple[list[str], bytes]:
    """``chart`` or ``evaluate`` with at least one bad argument (a valid one computes)."""
    command = draw(st.sampled_from(("chart", "evaluate")))
    game = draw(st.one_of(st.none(), GAMES))
    spec = draw(rule_specs())
    argv = [command, "--rules", spec] + (["--game", game] if game is not None else [])
    argv += _options(draw, {"--json": None})
    data = b""
    if command == "chart":
        fmt = draw(st.sampled_from(("txt", "csv", "md", "html", "png", "exceptions", "pdf")))
        argv += ["--format", fmt] + _options(draw, {"--by-cards": None})
        if draw(st.booleans()):
            argv += ["--out", "OUT"]
        bad = _rules_fail(game, spec) or fmt == "pdf" or (fmt == "png" and "OUT" not in argv)
    else:
        data = draw(mutated(CHART))
        argv += ["--chart", "CHART"]
        bad = _rules_fail(game, spec) or not _chart_loads(data, spec, game)
    if not bad:
        argv.insert(1, "--no-such-option")
    return argv, data


def _chart_loads(data: bytes, spec: str, game: str | None) -> bool:
    from analyzer.charts.fileformat import load_chart

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "chart.csv"
        path.write_bytes(data)
        try:
            load_chart(path, game_rules(game, spec))
        except AnalyzerError:
            return False
    return True


def check_chart(case: tuple[list[str], bytes]) -> None:
    argv, data = case
    with tempfile.TemporaryDirectory() as folder:
        chart, out = Path(folder) / "chart.csv", Path(folder) / "out" / "chart.png"
        chart.write_bytes(data)
        argv = [str(chart) if a == "CHART" else str(out) if a == "OUT" else a for a in argv]
        status, _ = assert_result_or_one_line(argv)
        assert status == 2  # every case here has a bad argument
        left = [p.name for p in Path(folder).rglob("*") if p.is_file()]
        assert left == ["chart.csv"]  # no output file, whole or partial


test_chart_commands, test_chart_commands_slow = fuzz(
    chart_argv(), check_chart, "chart_commands", fast=20, slow=1500)


def _could_be_a_round_count(text: str) -> bool:
    try:
        number = float(text.replace("_", ""))
    except ValueError:
        return False
    return number >= 2


@st.composite
def simulate_argv(draw: st.DrawFn) -> list[str]:
    """``simulate`` with a bad round, job or seed count (valid ones run the engine)."""
    argv = ["simulate", "--rules", draw(rule_specs()),
            "--rounds", draw(st.one_of(GARBAGE, st.sampled_from(
                ("0", "1", "-5", "1.5", "nan", "-inf", "1e-3", ""))).filter(
                lambda t: not _could_be_a_round_count(t)))]
    game = draw(st.one_of(st.none(), GAMES))
    if game is not None:
        argv += ["--game", game]
    return argv + _options(draw, {"--jobs": st.one_of(GARBAGE, HUGE, st.sampled_from(("0", "2"))),
                                  "--seed": st.one_of(GARBAGE, HUGE, st.sampled_from(("-1", "7"))),
                                  "--json": None, "--compare": None})


def check_simulate(argv: list[str]) -> None:
    status, _ = assert_result_or_one_line(argv)
    assert status == 2


test_simulate_command, test_simulate_command_slow = fuzz(
    simulate_argv(), check_simulate, "simulate_command", fast=15, slow=1000)
