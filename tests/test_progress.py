"""Progress on every long wait: a tqdm bar with the stage and an ETA on a terminal's
stderr, none on stdout (``--json`` stays clean), none with ``--quiet``; and the
library's ``progress=`` callbacks."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from analyzer.util.progress import Progress, StageLines, TerminalBar, stepper, terminal_bar

ONE_DECK = "1D S17 DOA NDAS SPL1 NS"
ETA = re.compile(r"\d\d:\d\d<\d\d:\d\d")  # tqdm's [elapsed<remaining]


def _run_on_a_terminal(argv: list[str], timeout: float = 240) -> tuple[str, str, int]:
    """``bja argv`` with stderr on a pseudo-terminal and stdout on a pipe."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *argv], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            err += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read() if proc.stdout else b""
    status = proc.wait(timeout=30)
    os.close(master)
    return out.decode(), err.decode(errors="replace"), status


LONG_COMMANDS = {
    "ev --exact": ["ev", "--rules", "1D S17 DOA NDAS NSPL NS", "--exact", "--no-cache", "--jobs",
                   "1"],
    "distribution": ["distribution", "--rules", ONE_DECK, "--jobs", "1"],
    "compare": ["compare", "--base", ONE_DECK, "--vary", "S17|H17", "--vary", "DAS|NDAS",
                "--no-chart", "--no-cache", "--jobs", "1"],
    "eor": ["eor", "--rules", ONE_DECK, "--no-cache", "--jobs", "1"],
    "simulate": ["simulate", "--rules", "1D", "--rounds", "2e7", "--seed", "1", "--jobs", "1"],
}
SLOW_COMMANDS = {
    "counts": ["counts", "--rules", ONE_DECK, "--count", "hi-lo", "--no-cache"],
    # Long enough for the bar to refresh with an ETA (tqdm redraws every 0.2 s and the bar
    # is erased at the end): one decision on one deck ends in a quarter of a second.
    "indices": ["indices", "--rules", "6D S17 DOA DAS SPL3 LS", "--no-cache"],
    "edge": ["edge", "--rules", ONE_DECK + " CUT26", "--states", "40", "--samples", "1000",
             "--no-cache"],
}


@pytest.mark.parametrize("name", list(LONG_COMMANDS))
def test_a_bar_with_an_eta_on_a_terminal_and_none_in_json(name: str) -> None:
    out, err, status = _run_on_a_terminal([*LONG_COMMANDS[name], "--json"])
    assert status == 0, err
    assert ETA.search(err), err[-2000:]
    json.loads(out)  # stdout is the JSON alone
    assert "\r" not in out and not ETA.search(out)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SLOW_COMMANDS))
def test_a_bar_on_the_shoe_state_commands(name: str) -> None:
    out, err, status = _run_on_a_terminal([*SLOW_COMMANDS[name], "--json"])
    assert status == 0, err
    assert ETA.search(err), err[-2000:]
    json.loads(out)


@pytest.mark.slow
def test_quiet_silences_the_bar() -> None:
    out, err, status = _run_on_a_terminal([*LONG_COMMANDS["simulate"], "--quiet"])
    assert status == 0
    assert not ETA.search(err) and "rounds" in out


@pytest.mark.slow
def test_no_bar_when_stderr_is_not_a_terminal() -> None:
    done = subprocess.run([sys.executable, "-m", "analyzer", *LONG_COMMANDS["simulate"]],
                          capture_output=True, text=True, timeout=240, check=True)
    assert done.stderr == ""


def test_terminal_bar_modes() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    class File:
        def isatty(self) -> bool:
            return False

    assert isinstance(terminal_bar(None, Tty()), TerminalBar)  # type: ignore[arg-type]
    assert terminal_bar(None, File()) is None  # type: ignore[arg-type]
    assert terminal_bar(False, Tty()) is None  # type: ignore[arg-type]
    assert isinstance(terminal_bar(True, File()), TerminalBar)  # type: ignore[arg-type]


def test_stage_lines_name_each_stage_once(capsys: pytest.CaptureFixture[str]) -> None:
    lines = StageLines(sys.stderr)
    tick = stepper(lines, "shoes", 3)
    for _ in range(3):
        tick()
    stepper(lines, "levels", 1)()
    stepper(lines, "levels (upcards)", 2)()  # a part of the stage: no line of its own
    stepper(lines, "levels of play", 1)()  # another stage whose name starts alike
    assert capsys.readouterr().err == "shoes\nlevels\nlevels of play\n"


@pytest.mark.slow
def test_library_callbacks_hear_each_item() -> None:
    import analyzer

    seen: list[Progress] = []
    analyzer.eor(ONE_DECK, jobs=1, cache=False, progress=seen.append)
    assert seen[-1] == Progress("shoes less one card", 11, 11)
    seen.clear()
    analyzer.distribution("1D S17 DOA NDAS SPL1 NS", jobs=2, progress=seen.append)
    stages = {p.stage for p in seen}
    assert stages == {"distribution: splits", "distribution: upcards", "EV by upcard"}
    assert Progress("distribution: upcards", 10, 10) in seen
    seen.clear()
    analyzer.simulate("1D", 300_000, seed=1, jobs=1, progress=seen.append)
    assert seen[-1] == Progress("simulating", 300_000, 300_000)
    seen.clear()
    analyzer.compare(ONE_DECK, vary=["S17|H17"], charts=False, cache=False, jobs=1,
                     progress=seen.append)
    assert seen[-1] == Progress("rule sets", 2, 2)


def test_the_build_reports_its_steps_of_all(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: object) -> None:
    """The build's stages (and so its ETA) count every step, ending at total."""
    import analyzer.build as build_module

    monkeypatch.setattr(build_module, "game_model", lambda *a, **k: None)
    monkeypatch.setattr(build_module, "game_report", lambda *a, **k: "")
    monkeypatch.setattr(build_module, "build_chart_tables", lambda *a, **k: [])
    monkeypatch.setattr(build_module, "build_sidebet_tables", lambda *a, **k: [])
    monkeypatch.setattr(build_module, "Analysis", lambda *a, **k: None)
    from analyzer.certificates import files
    from analyzer.comparisons import reports
    from analyzer.shoestate import build as shoestate

    monkeypatch.setattr(files, "build_certificates", lambda *a, **k: [])
    monkeypatch.setattr(reports, "build_compare_reports", lambda *a, **k: [])
    monkeypatch.setattr(shoestate, "build_shoestate_reports", lambda *a, **k: [])
    seen: list[Progress] = []
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "reports").mkdir()
    build_module.build(root, stages=seen.append)
    total = seen[0].total
    assert [p.done for p in seen] == list(range(total + 1))
    assert seen[-1] == Progress("build: done", total, total)
    assert any(p.stage == "build: certificate of charlie7" for p in seen)
