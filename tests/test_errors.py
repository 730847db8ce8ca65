"""The closed error model, and every bad-input path of issue 8 pinned: one line, exit 2.

Every error a user can cause is an ``AnalyzerError`` of exactly one kind,
notation or impossible content; the engine raises no bare ``ValueError``; the
rules refuse contradictory combinations when built; the CLI ends quietly on a
closed pipe, in one line on Ctrl-C, and loads no heavy module for ``--help``.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.core import errors
from analyzer.core.errors import (
    AnalyzerError,
    ImpossibleError,
    NotationError,
    RuleConflictError,
    RuleError,
)
from analyzer.core.rules import Rules, parse_spec

PACKAGE = Path(errors.__file__).parents[1]
KINDS = (NotationError, ImpossibleError)


def _bja(*argv: str, env: dict[str, str] | None = None, timeout: float = 120,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analyzer", *argv], capture_output=True,
                          text=True, timeout=timeout, env=env)


# -- the model ------------------------------------------------------------------------
def _error_classes() -> list[type[AnalyzerError]]:
    return [c for _, c in inspect.getmembers(errors, inspect.isclass)
            if issubclass(c, AnalyzerError) and c not in (AnalyzerError, *KINDS)]


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: c.__name__)
def test_every_error_raised_is_of_exactly_one_kind(cls: type[AnalyzerError]) -> None:
    err = cls("message naming the value")
    assert isinstance(err, ValueError) and isinstance(err, cls)
    assert sum(isinstance(err, kind) for kind in KINDS) == 1
    assert str(err) == "message naming the value"


def test_historical_names_are_kept() -> None:
    from analyzer.crosscheck import sim

    assert sim.SimulationError is errors.SimulationError
    for name in ("RuleError", "ShoeError", "HandError", "PayTableError", "ChartError"):
        assert issubclass(getattr(errors, name), AnalyzerError)
    assert isinstance(errors.ShoeError("x"), NotationError)
    assert isinstance(errors.HandError("x"), ImpossibleError)
    assert isinstance(errors.ChartError("x"), NotationError)


def _raises() -> list[tuple[str, int, str]]:
    """(file, line, raised name) of every ``raise Name(...)`` in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    isinstance(node.exc.func, ast.Name):
                found.append((str(path.relative_to(PACKAGE)), node.lineno, node.exc.func.id))
    return found


def test_every_raise_in_the_package_is_a_closed_model_error() -> None:
    raised = [r for r in _raises() if r[2] != "SystemExit"]  # exit statuses, not errors
    assert len(raised) > 100  # the scan sees the package
    for file, line, name in raised:
        module = importlib.import_module(
            "analyzer." + file.removesuffix(".py").replace("/", ".").removesuffix(".__init__"))
        raised_object = getattr(module, name, None) or getattr(builtins, name, None)
        assert raised_object is not None, f"{file}:{line}: {name} not found"
        if not isinstance(raised_object, type):
            continue  # a factory function: what it returns is constructed elsewhere
        where = f"{file}:{line} raises {name}"
        if file.endswith("__init__.py") and raised_object is AttributeError:
            continue  # the module __getattr__ protocol, not an input error
        if (file, raised_object) == ("engine/hands.py", KeyError):
            continue  # the Mapping protocol (a sub-space's index), not an input error
        assert raised_object is not AnalyzerError, f"{where}, the bare base: pick a kind"
        if issubclass(raised_object, errors.InternalError):
            continue  # a broken invariant, reported as a bug
        assert issubclass(raised_object, AnalyzerError), f"{where}, not an AnalyzerError"
        assert issubclass(raised_object, KINDS) or raised_object in errors._DEFAULT_KIND, \
            f"{where}, neither a notation nor an impossible-content error"


# -- rules refused when built ---------------------------------------------------------
@pytest.mark.parametrize("spec,needle", [
    ("FSA-T", "FSA-T with SPL3"),
    ("8D SPL2 FS8", "FS8 with SPL2"),
    ("NSPL FSA-9", "not NSPL"),
    ("CUT0", "'CUT0'"),
    ("CH0", "'CH0'"),
    ("1D CUT52", "CUT52 with 1D"),
    ("2D CUT500", "104-card shoe"),
    ("CHBJ", "CHBJ"),
])
def test_contradictory_or_empty_rules_are_refused(spec: str, needle: str) -> None:
    with pytest.raises(RuleError, match=needle):
        parse_spec(spec)


@pytest.mark.parametrize("spec", ["FD11-9", "FS9-A", "FD4-99999999999999", "100001D"])
def test_ranges_that_say_nothing_or_too_much_are_refused(spec: str) -> None:
    with pytest.raises(RuleError):
        parse_spec(spec)


def test_conflicts_are_impossible_content_and_ranges_are_notation() -> None:
    with pytest.raises(RuleConflictError):
        Rules(max_hands=3, free_splits=frozenset({8}))
    with pytest.raises(RuleConflictError):
        Rules(decks=1, cut_card=60)
    with pytest.raises(NotationError):
        Rules(charlie=2)
    assert Rules(decks=1, cut_card=51).cut_card == 51
    assert parse_spec("CUT1").cut_card == 1


# -- found by the fuzz tests ----------------------------------------------------------
def test_a_shoe_of_pair_cards_only_splits_without_dividing_by_zero() -> None:
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    # Thirteen 8s (was a ZeroDivisionError): the 8-8 splits to four hands of 16 and the
    # dealer's 8-8 draws an 8 and busts, so every deal wins four units.
    for exact in (False, True):
        assert Analysis(parse_spec("1D"), parse_shoe("8:13"), exact=exact).ev() == 4


def test_a_certain_dealer_blackjack_is_one_error_not_a_nan() -> None:
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    # One ace and twelve tens: under the ace, a split of tens leaves only tens (was a NaN
    # split EV in floats and a ZeroDivisionError in fractions).
    for exact in (False, True):
        with pytest.raises(errors.ImpossibleShoeError, match="certainty"):
            Analysis(parse_spec("1D"), parse_shoe("A:1,T:12"), exact=exact).ev()


# -- every path of issue 8's "What was found" -----------------------------------------
@pytest.mark.parametrize("argv,needle", [
    (["ev", "--game", "free-bet", "--rules", "SPL3"], "modelled for one split only"),
    (["ev", "--rules", "FSA-T"], "FSA-T with SPL3"),
    (["ev", "--rules", "CUT0"], "'CUT0'"),
    (["ev", "--rules", "1D CUT52"], "cut card"),
    (["ev", "--rules", "1D CUT40", "--shoe", "A:4,T:16,5:8"], "28-card shoe"),
    (["rules", "show"], "needs a game name"),
    (["ev", "--split", "both"], "invalid choice"),
    (["rules", "list", "-\n"], "unrecognized arguments: -\\n"),  # found by the fuzzer
])
def test_found_paths_give_one_line_and_status_2(argv: list[str], needle: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import main

    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's own usage errors
        status = exit_.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("bja: error: ") and err.count("\n") == 1 and needle in err


def test_absurd_round_count_is_refused() -> None:
    # The refusal comes before any simulation (and before numba loads), so it is quick.
    done = _bja("simulate", "--game", "charlie7", "--rounds", "1e99", timeout=30)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("bja: error: ") and done.stderr.count("\n") == 1


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path)}
    argv = [sys.executable, "-m", "analyzer", "ev", "--rules", "1D S17 DOA DAS SPL3 LS",
            "--shoe", "A:2,T:6,5:4,8:4", "--json", "--no-cache"]
    # The reader goes away before the output comes, as `| head -c 100` does.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""
    shell = subprocess.run(
        f"{sys.executable} -m analyzer ev --rules '6D S17 DOA DAS SPL3 LS' --shoe "
        "A:2,T:6,5:4,8:4 --json --no-cache | head -c 100", shell=True, capture_output=True,
        text=True, env=env, timeout=120)
    assert len(shell.stdout) == 100 and shell.stderr == ""


def _interrupt(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *argv], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2.5)  # past the imports, into the computation (minutes long)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stdout, stderr


def test_ctrl_c_ends_with_130_and_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path)}
    status, stdout, stderr = _interrupt(
        ["ev", "--rules", "8D S17 DOA DAS SPL3 LS", "--exact"], env)
    assert (status, stdout, stderr) == (130, "", "bja: interrupted\n")
    assert not list(tmp_path.rglob("*.pkl*"))  # no cache entry, whole or partial


@pytest.mark.slow
def test_ctrl_c_leaves_no_output_file(tmp_path: Path) -> None:
    """Interrupted mid-computation, a command with ``--out`` leaves no file, whole or partial.

    Exact analyses of two 8-deck rule sets, one process: half a minute of work at
    least, so the signal always lands inside it (a chart now takes under 2 s).
    """
    out = tmp_path / "out" / "grid.csv"
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path / "cache")}
    status, stdout, stderr = _interrupt(
        ["compare", "--base", "8D S17 DOA DAS SPL3 LS", "--vary", "S17|H17", "--exact",
         "--jobs", "1", "--no-chart", "--csv", "--out", str(out)], env)
    assert (status, stdout, stderr) == (130, "", "bja: interrupted\n")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    from analyzer.report.output import write_atomic

    with pytest.raises(errors.UsageError, match="cannot write"):
        write_atomic(tmp_path, "a folder is not a file")
    assert list(tmp_path.iterdir()) == []


# -- start-up cost ----------------------------------------------------------------------
HEAVY = ("numpy", "matplotlib", "sympy", "joblib", "scipy")


@pytest.mark.parametrize("argv", [["--help"], ["rules", "list"], ["rules", "show", "privilege"],
                                  ["ev", "--help"], ["sidebet", "--help"], ["chart", "--help"]])
def test_help_and_rules_load_no_heavy_module(argv: list[str]) -> None:
    code = ("import sys\nfrom analyzer.cli.main import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\n"
            f"print('HEAVY', [m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=60)
    assert "HEAVY []" in done.stderr, done.stderr


def test_help_costs_little_cpu() -> None:
    # CPU time, not wall time, so that other jobs on the machine do not count: `bja --help`
    # beyond a bare interpreter's start-up must stay within the 0.3 s budget.
    help_ = min(_cpu([sys.executable, "-m", "analyzer", "--help"]) for _ in range(3))
    bare = min(_cpu([sys.executable, "-c", "pass"]) for _ in range(3))
    assert help_ - bare < 0.3, (help_, bare)


def _cpu(argv: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, capture_output=True, timeout=60, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def test_static_cli_names_match_the_library() -> None:
    from analyzer.charts.build import TEXT_RENDERERS
    from analyzer.cli import chart, sidebet
    from analyzer.sidebets.bets import BETS
    from analyzer.sidebets.bustit import READINGS

    assert tuple(BETS) == sidebet.BET_NAMES
    assert tuple(READINGS) == sidebet.BUST_IT_READINGS
    assert tuple(TEXT_RENDERERS) == chart.TEXT_FORMATS
