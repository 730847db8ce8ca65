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
import json
import os
import resource
import select
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
    from analyzer import sim

    assert sim.SimulationError is errors.SimulationError
    for name in ("RuleError", "ShoeError", "HandError", "PayTableError", "ChartError"):
        assert issubclass(getattr(errors, name), AnalyzerError)
    assert isinstance(errors.ShoeError("x"), NotationError)
    assert isinstance(errors.HandError("x"), ImpossibleError)
    assert isinstance(errors.ChartError("x"), NotationError)


def _raises() -> list[tuple[str, int, str]]:
    """(file, line, raised name) of every ``raise Name(...)`` in the package.

    A name that is a parameter of the enclosing function (a parser raising its
    caller's error class) is reported as ``param:<annotation>``.
    """
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        params: dict[int, str] = {}  # raise line -> annotation of the raised parameter
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef):
                args = {a.arg: a.annotation for a in (*func.args.args, *func.args.kwonlyargs)}
                for node in ast.walk(func):
                    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                            isinstance(node.exc.func, ast.Name) and node.exc.func.id in args:
                        annotation = args[node.exc.func.id]
                        params[node.lineno] = "" if annotation is None else ast.unparse(annotation)
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    isinstance(node.exc.func, ast.Name):
                name = node.exc.func.id
                if node.lineno in params:
                    name = f"param:{params[node.lineno]}"
                found.append((str(path.relative_to(PACKAGE)), node.lineno, name))
    return found


def test_every_raise_in_the_package_is_a_closed_model_error() -> None:
    found = _raises()
    # A caller-chosen class must be typed so (mypy --strict checks every call site).
    for file, line, name in found:
        if name.startswith("param:"):
            assert name == "param:type[AnalyzerError]", f"{file}:{line} raises {name}"
    assert sum(name.startswith("param:") for _, _, name in found) >= 5  # numbers, files, toml
    raised = [r for r in found if r[2] != "SystemExit" and not r[2].startswith("param:")]
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
    ("SPL1 NSA FSA", "FSA with NSA"),  # was answered as NSA alone (a differential tester)
    ("CUT0", "'CUT0'"),
    ("CH0", "'CH0'"),
    ("1D CUT52", "CUT52 with 1D"),
    ("2D CUT500", "104-card shoe"),
    ("CHBJ", "CHBJ"),
])
def test_contradictory_or_empty_rules_are_refused(spec: str, needle: str) -> None:
    with pytest.raises(RuleError, match=needle):
        parse_spec(spec)


@pytest.mark.parametrize("spec", ["FD11-9", "FS9-A", "FD4-99999999999999", "1000001D"])
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


def test_a_certain_dealer_blackjack_is_no_nan_and_no_refusal() -> None:
    from fractions import Fraction

    import tests.oracle as oracle
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis

    # One ace and twelve tens: under the ace, T-T leaves only tens, so the peek surely ends
    # the round before the hand is played (was a NaN split EV in floats and a
    # ZeroDivisionError in fractions, then a refusal of the whole shoe).  The round's EV is
    # the oracle's; the hand itself has no EV given no blackjack, and says so.
    rules, shoe = parse_spec("1D"), parse_shoe("A:1,T:12")
    assert oracle.round_ev(rules, shoe.counts) == Fraction(7, 13)
    assert Analysis(rules, shoe, exact=True).ev() == Fraction(7, 13)
    assert Analysis(rules, shoe).ev() == pytest.approx(7 / 13, abs=1e-15)
    with pytest.raises(errors.ImpossibleShoeError, match="surely has blackjack"):
        Analysis(rules, shoe).hand_actions(1, (10, 10))  # bja hand: no EV given none
    assert set(Analysis(rules, shoe).hand_actions(1, (10, 10), unconditioned=True).values()) \
        == {-1}  # with the blackjack: every play loses the bet


@pytest.mark.parametrize("spec,shoe,up", [("1D S17 DOA DAS SPL3 LS", "A:2,T:12", "A"),
                                          ("1D S17 NSPL", "A:11,T:2", "T")])
def test_a_natural_the_peek_surely_pushes_has_no_conditioned_value(
        spec: str, shoe: str, up: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every card left gives the dealer blackjack: a natural, like any hand, has no EV
    "given no dealer blackjack" (it printed the 3:2 payout, labelled conditioned, exit 0).
    Unconditioned it pushes: 0, as the oracle counts it (a natural against a blackjack)."""
    from analyzer.cli.main import main

    argv = ["hand", "--rules", spec, "--shoe", shoe, "--up", up, "--cards", "A,T", "--exact"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "surely has blackjack" in err and err.count("\n") == 1
    assert main([*argv, "--unconditioned", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["blackjack_exact"] == "0/1"


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
    (["rules", "list", "zzz"], "takes no name (bja rules show zzz)"),  # it listed, exit 0
    (["ev", "--rules", "S17 s17"], "rule token 's17' is given twice"),  # "contradicts"
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


def _interrupt(argv: list[str], env: dict[str, str],
               children: bool = False) -> tuple[int, str, str]:
    """Send SIGINT into a command's computation; its status, stdout and stderr.

    SIGINT is set to its default action in the child first: a test runner started
    with SIGINT ignored (a background job) would pass that on, and Python then keeps
    it ignored.  ``children``: signal once the upcards run in forked children (the
    engine prints a marker under ``forked.MARK_ENV``), not after a fixed delay.
    """
    from analyzer.engine import forked

    env = {**env, forked.MARK_ENV: "1"} if children else env
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *argv], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    if children:
        ready, _, _ = select.select([proc.stderr], [], [], 120)
        assert ready and proc.stderr.readline() == forked.MARK, "the children never ran"
    else:
        time.sleep(2.5)  # past the imports, into the computation (minutes long)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stdout, stderr


def test_ctrl_c_ends_with_130_and_one_line(tmp_path: Path) -> None:
    """Interrupted while the upcards run in forked children (this process computing too)."""
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path)}
    status, stdout, stderr = _interrupt(
        ["ev", "--rules", "8D S17 DOA DAS SPL3 LS", "--exact", "--jobs", "2"], env,
        children=True)
    assert (status, stdout, stderr) == (130, "", "bja: interrupted\n")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # no entry, whole or partial


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
    from analyzer.util.files import write_atomic

    with pytest.raises(errors.UsageError, match="cannot write"):
        write_atomic(tmp_path, "a folder is not a file")
    assert list(tmp_path.iterdir()) == []


# -- issue 20: no traceback, no unbounded work, files written safely ------------------
HUGE = "9" * 5000  # past Python's 4,300-digit limit of int(str)
TINY = "A:2,T:6,5:4,8:4"  # a 16-card shoe: a whole analysis in milliseconds
AXIS = "|".join(["S17", "H17"] * 125)  # 250 alternatives: four such axes, 3.9e9 cells


def _one_line(status: int, out: str, err: str, needle: str) -> None:
    assert status == 2, (status, err[-2000:])
    assert out == "" and err.startswith("bja: error: ") and err.count("\n") == 1, err[-2000:]
    assert len(err) < 400, err  # the bad value named, not echoed whole
    assert needle in err, err


@pytest.mark.parametrize("argv,needle", [
    (["ev", "--shoe", f"A:{HUGE}"], "5000 digits"),
    (["dealer", "--shoe", f"A:4,T:{HUGE}"], "5000 digits"),
    (["hand", "--up", HUGE, "--cards", "T,6"], "unknown card"),
    (["hand", "--up", "6", "--cards", f"T,{HUGE}"], "unknown card"),
    (["sidebet", "hot3", f"--shoe=AS:{HUGE}"], "5000 digits"),
    (["sidebet", "hot3", f"--shoe={HUGE}decks"], "5000 digits"),
    (["sidebet", "hot3", "--decks", HUGE], "--decks"),
    (["sidebet", "hot3", "--pays", f"777={HUGE}"], "777"),
    (["sidebet", "hot3", "--pays", "777=1e160"], "777: pay '1e160' is above the bound"),
    (["sidebet", "hot3", "--pays", "777=1e999999999"], "exponent beyond"),
    (["sidebet", "hot3", "--solve", "777", "--target-rtp", HUGE], "target RTP"),
    (["sidebet", "hot3", "--solve", "777", "--target-rtp", "1e300"], "at most 1000"),
    (["simulate", "--game", "charlie7", "--rounds", HUGE], "number of rounds"),
    (["simulate", "--game", "charlie7", "--rounds", "1000", "--seed", HUGE], "seed"),
    (["simulate", "--game", "charlie7", "--rounds", "1000", "--counter", "hilo", "--spread",
      f"1-{HUGE}"], "bet spread"),
    (["indices", "--game", "four-jacks", "--decision", f"{HUGE}vT:S-H"], "decision"),
    (["indices", "--game", "four-jacks", "--unseen", HUGE], "--unseen"),
    (["edge", "--game", "four-jacks", "--samples", HUGE], "--samples"),
    (["edge", "--game", "four-jacks", "--seed", HUGE], "--seed"),
    (["eor", "--game", "four-jacks", "--jobs", HUGE], "--jobs"),
    (["ev", "--jobs", HUGE], "--jobs"),
    (["distribution", "--jobs", "1000"], "--jobs must be a whole number 1 to 256, not '1000'"),
    (["ev", "--jobs", "0"], "--jobs must be a whole number 1 to 256, not '0'"),
    (["certify", "--game", "charlie7", "--rounds", HUGE], "--rounds"),
    (["certify", "--game", "charlie7", "--rounds", "1e400"], "--rounds"),
    (["certify", "--game", "charlie7", "--seed", HUGE], "--seed"),
    (["compare", "charlie7", "free-bet", "--max-players", HUGE], "--max-players"),
    (["compare", "--base", "6D", "--vary", "S17|H17", "--jobs", HUGE], "--jobs"),
])
def test_huge_numbers_give_one_short_line(argv: list[str], needle: str) -> None:
    from tests.fuzz_inputs import run_cli

    _one_line(*run_cli(argv), needle)


@pytest.mark.parametrize("spec", [f"{HUGE}D", f"BJ{HUGE}:1", f"BJ3:{HUGE}", f"CUT{HUGE}",
                                  f"CH{HUGE}", f"FD{HUGE}", f"FS{HUGE}-9"])
def test_huge_numbers_in_a_rule_spec_give_one_short_line(spec: str) -> None:
    from tests.fuzz_inputs import run_cli

    _one_line(*run_cli(["ev", "--rules", spec, "--shoe", TINY]), "digits; at most 30")


def _deep_files(tmp_path: Path) -> dict[str, Path]:
    files = {"deep": "a = " + "[" * 50_000, "brace": "a = " + "{b = " * 10_000,
             "digits": f"bet = 'hot3'\n[pays]\n777 = {HUGE}\n"}
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name}.toml"
        paths[name].write_text(text)
    return paths


@pytest.mark.parametrize("kind", ["deep", "brace", "digits"])
@pytest.mark.parametrize("command", [
    ["counts", "--rules", "1D", "--count", "FILE"], ["sidebet", "hot3", "--paytable", "FILE"],
    ["compare", "--grid", "FILE"]])
def test_hostile_toml_gives_one_line(tmp_path: Path, kind: str, command: list[str]) -> None:
    from tests.fuzz_inputs import run_cli

    path = _deep_files(tmp_path)[kind]  # was a RecursionError (3,002 lines), or a ValueError
    argv = [str(path) if a == "FILE" else a for a in command]
    _one_line(*run_cli(argv), "deep" if kind != "digits" else "not valid TOML")


def _limited(argv: list[str], *, timeout: float = 60,
             stdout: Any = subprocess.PIPE) -> tuple[int, str, str]:
    """``bja argv`` in a process that may not take 8 GiB nor a minute (so main fails, safely)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))

    done = subprocess.run([sys.executable, "-m", "analyzer", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout,
                          preexec_fn=limit, env={**os.environ, "TQDM_DISABLE": "1"})
    return done.returncode, done.stdout or "", done.stderr


@pytest.mark.parametrize("argv,needle", [
    (["edge", "--game", "four-jacks", "--samples", "10000000000"], "--samples"),  # 74.5 GiB
    (["edge", "--game", "four-jacks", "--samples", "1e10"], "--samples"),
    (["edge", "--game", "four-jacks", "--states", "1000000"], "--states"),
    (["simulate", "--rules", "BJ999999999:1", "--rounds", "1000"], "payout of at most"),
    (["simulate", "--rules", "BJ1:99999999999", "--rounds", "1000"], "bins"),
    (["simulate", "--rules", "100000D", "--rounds", "1000", "--jobs", "256"], "fewer jobs"),
    (["simulate", "--game", "charlie7", "--rounds", "1e11", "--counter", "hilo", "--spread",
      "1-1000"], "64-bit sums"),
    (["simulate", "--game", "charlie7", "--rounds", "1000", "--jobs", "100000"], "jobs"),
    (["compare", "--base", "6D", "--no-chart", *(["--vary", AXIS] * 4)],
     "250 x 250 x 250 x 250 alternatives: 3,906,250,000 rows; at most 10,000"),
    (["compare", "charlie7", "free-bet", "--no-chart", "--max-players", "20"],
     "--max-players must be a whole number 1 to 12"),  # a 2^20 lattice
    (["compare", "--base", "6D", "--vary", "S17|H17", "--no-chart", "--backend", "dask",
      "--scheduler", "garbage"], "--scheduler 'garbage'"),  # 55 lines after 21 s
    (["ev", "--shoe", TINY, "--no-cache", "--jobs", "100000"], "--jobs"),
    (["evaluate", "--game", "charlie7", "--chart", "/dev/zero"], "device or pipe"),
    (["sidebet", "hot3", "--paytable", "/dev/zero"], "device or pipe"),
    (["compare", "--grid", "/dev/zero"], "device or pipe"),
    (["distribution", "--shoe", TINY, "--chart", "/dev/zero"], "/dev/zero"),
])
def test_sizes_past_their_caps_are_refused_before_work(argv: list[str], needle: str) -> None:
    _one_line(*_limited(argv), needle)


def test_pipes_and_devices_named_as_input_files_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "hi-lo.toml"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        _one_line(*_limited(["counts", "--rules", "1D", "--count", str(path)], timeout=30),
                  "device or pipe")
    _one_line(*_limited(["evaluate", "--game", "charlie7", "--chart", str(fifo)], timeout=30),
              "device or pipe")
    # bja distribution called a device or a folder "not found" (an adversarial test)
    for path, kind in ((fifo, "device or pipe"), (tmp_path, "folder")):
        _one_line(*_limited(["distribution", "--rules", "1D NSPL", "--chart", str(path)],
                            timeout=30), kind)


def test_a_dotted_key_of_fifty_thousand_parts_is_refused_at_once(tmp_path: Path) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text("a" + ".a" * 50_000 + " = 1\n")  # tomllib: minutes
    started = time.monotonic()
    _one_line(*_limited(["compare", "--grid", str(grid)], timeout=60), "dotted parts")
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("how", ["closed", "read-only"])
def test_a_standard_output_that_cannot_be_written_is_one_line(how: str,
                                                              tmp_path: Path) -> None:
    """Started with fd 1 closed (``>&-``: Python's sys.stdout is None) or open read-only
    (EBADF), bja ended in a traceback, status 1 (an adversarial test)."""
    if how == "closed":
        done = subprocess.run([sys.executable, "-m", "analyzer", "rules", "list"],
                              stderr=subprocess.PIPE, text=True, timeout=60,
                              pass_fds=(), close_fds=True, stdout=None,
                              preexec_fn=lambda: os.close(1))
        words = "standard output is closed"
    else:
        target = tmp_path / "ro.txt"
        target.write_text("x")
        with open(target) as read_only:
            done = subprocess.run([sys.executable, "-m", "analyzer", "rules", "list"],
                                  stdout=read_only, stderr=subprocess.PIPE, text=True,
                                  timeout=60)
        words = "Bad file descriptor"
    assert done.returncode == 2
    assert done.stderr == f"bja: error: cannot write the output: {words}\n"


def test_a_closed_standard_error_keeps_the_message_off_standard_output() -> None:
    """print(file=None) writes to stdout: the error line went into the output stream."""
    done = subprocess.run([sys.executable, "-m", "analyzer", "ev", "--rules", "X17"],
                          capture_output=False, stdout=subprocess.PIPE, text=True,
                          timeout=60, preexec_fn=lambda: os.close(2))
    assert done.returncode == 2 and done.stdout == ""


@pytest.mark.parametrize("argv", [["serve", "--port", "1"], ["compare", "--base", "1D",
                                                             "--vary", "S17|H17"]])
def test_commands_writing_their_own_output_refuse_a_closed_standard_output(
        argv: list[str]) -> None:
    """serve (uvicorn's logger asked None.isatty(): a traceback) and compare write their
    output themselves: a closed fd 1 is refused before any work, for every command."""
    done = subprocess.run([sys.executable, "-m", "analyzer", *argv], stdout=None,
                          stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == "bja: error: cannot write the output: standard output is closed\n"


def test_an_unwritable_standard_error_still_exits_2() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "analyzer", "ev", "--rules", "X17"],
                              stdout=subprocess.PIPE, stderr=full, timeout=60)
    assert done.returncode == 2  # was 1: the message could not be printed


def test_a_bad_kernel_choice_is_refused_when_the_memo_has_the_answer() -> None:
    env = {**os.environ, "BJA_KERNEL": "bogus"}
    done = subprocess.run([sys.executable, "-m", "analyzer", "rules", "show", "charlie7"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2 and done.stderr.startswith("bja: error: BJA_KERNEL must be")


def test_a_full_standard_output_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        status, _, err = _limited(["rules", "list"], stdout=full)
    assert (status, err) == (2, "bja: error: cannot write the output: No space left on device\n")


# The interpreter starts, then the entry point: a SIGINT at the N-th import of the process.
_AT_IMPORT = """
import os, signal, sys
N, names = int(sys.argv[1]), []
class Hook:
    def find_spec(self, name, path, target=None):
        names.append(name)
        if len(names) == N:
            os.kill(os.getpid(), signal.SIGINT)
sys.meta_path.insert(0, Hook())
sys.argv = ["bja", *sys.argv[2:]]
try:
    if os.environ.get("ENTRY") == "module":
        import runpy
        runpy.run_module("analyzer", run_name="__main__", alter_sys=True)
    else:  # what the console script does
        from analyzer.cli.entry import main
        sys.exit(main())
finally:
    if N == 0:
        print("\\n".join(names), file=sys.stderr)
"""


def _at_import(n: int, argv: list[str], entry: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-c", _AT_IMPORT, str(n), *argv], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "ENTRY": entry})
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("entry", ["script", "module"])
def test_ctrl_c_at_any_import_after_the_entry_point_is_one_line(tmp_path: Path,
                                                                 entry: str) -> None:
    """Deterministic (no timing): the process interrupts itself as its N-th import begins.

    From the entry point's first instruction on (the next import is the parser's,
    ``analyzer.cli.main``), every point gives one line and status 130, the imports
    of every command group and of the engine (numpy) included; before it (the
    interpreter's start-up, the ``analyzer`` package), nothing can.
    """
    argv = ["ev", "--rules", "1D", "--shoe", TINY, "--no-cache"]
    status, out, names_text = _at_import(0, argv, entry)
    assert status == 0 and out, names_text[-2000:]
    names = names_text.split()
    first = names.index("analyzer.cli.main") + 1  # N counts from 1
    assert "numpy" in names[first:] and len(names) - first > 50  # imports to interrupt
    step = max(1, (len(names) - first) // 6)
    for n in sorted({first, *range(first, len(names) + 1, step), len(names)}):
        status, out, err = _at_import(n, argv, entry)
        assert (status, out, err) == (130, "", "bja: interrupted\n"), (n, names[n - 1], err)


def test_importing_the_entry_module_changes_no_handler() -> None:
    code = ("import signal\nbefore = signal.getsignal(signal.SIGINT)\n"
            "import analyzer.cli.entry\nprint(signal.getsignal(signal.SIGINT) is before)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == "True\n", done.stderr


def test_out_on_a_symlink_or_a_pipe_replaces_nothing(tmp_path: Path) -> None:
    from tests.fuzz_inputs import run_cli

    real = tmp_path / "real.csv"
    real.write_text("keep")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    grid = tmp_path / "grid.toml"
    grid.write_text('base = "6D"\nvary = [["S17", "H17"]]\n')
    for target in (link, fifo):
        # the target is checked before the work (here: served from no memo at all)
        status, out, err = run_cli(["compare", "--grid", str(grid), "--no-chart", "--csv",
                                    "--out", str(target), "--no-cache", "--no-progress"])
        _one_line(status, out, err, "cannot write")
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert real.read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fifo.csv", "grid.toml", "link.csv", "real.csv"]


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
    from analyzer.cli import chart, distribution, sidebet
    from analyzer.report.distribution_model import MAX_SPOTS
    from analyzer.sidebets.bets import BETS
    from analyzer.sidebets.bustit import READINGS

    assert distribution.MAX_SPOTS == MAX_SPOTS
    assert tuple(BETS) == sidebet.BET_NAMES
    assert tuple(READINGS) == sidebet.BUST_IT_READINGS
    assert tuple(TEXT_RENDERERS) == chart.TEXT_FORMATS


def test_a_shoe_below_the_floor_is_refused_as_such() -> None:
    """Eleven tens deal a round with no split to its end (at most five cards), so "too
    small to deal a round" was false: the refusal is the analyzer's floor, and says so;
    twelve tens are analysed (every round a push)."""
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import MIN_ROUND_CARDS, Analysis

    with pytest.raises(errors.ImpossibleShoeError,
                       match=f"11 cards is below the analyzer's floor of {MIN_ROUND_CARDS}"):
        Analysis(parse_spec("1D S17 NSPL"), parse_shoe("T:11"))
    assert Analysis(parse_spec("1D S17 NSPL"), parse_shoe("T:12"), exact=True).ev() == 0


_BUG = """
import sys
import analyzer.cli.game as game
def broken(args):
    raise KeyError("ev")  # a bug: no error of the project's own
game.cmd_dealer = broken
sys.argv = ["bja", "dealer", "--rules", "1D"]
from analyzer.cli.entry import main
sys.exit(main())
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "BJA_DEBUG"])
def test_an_unexpected_exception_is_one_line_and_status_70(debug: bool) -> None:
    """A ``KeyError`` in a command (a memo payload of another shape did it) printed a
    traceback and exited 1; the documented status of a bug is 70."""
    env = {**os.environ, "BJA_DEBUG": "1" if debug else "0"}
    done = subprocess.run([sys.executable, "-c", _BUG], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 70
    last = done.stderr.splitlines()[-1]
    assert last.startswith("bja: internal error (a bug; please report it") and \
        last.endswith("KeyError: 'ev'")
    assert ("Traceback" in done.stderr) == debug
    assert debug or done.stderr.count("\n") == 1


@pytest.mark.parametrize("argv", [["--help"], ["ev", "--help"], ["--version"]])
def test_help_lost_to_a_full_disk_is_an_output_error(argv: list[str]) -> None:
    """argparse drops a failed write of its help and exits 0."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        status, _, err = _limited(argv, stdout=full)
    assert (status, err) == (2, "bja: error: cannot write the output: No space left on device\n")


@pytest.mark.parametrize("root", ["afile", "missing", "dangling", ""])
def test_a_build_root_it_cannot_write_is_refused_before_work(root: str, tmp_path: Path) -> None:
    """``bja build --root FILE`` analysed for half a minute, then failed on its first write;
    ``--root ""`` built into the current folder."""
    (tmp_path / "afile").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    target = str(tmp_path / root) if root else ""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "analyzer", "build", "--root", target,
                           "--quiet"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "BJA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("bja: error: ") and time.monotonic() - start < 20
    assert not (tmp_path / "reports").exists()
