"""Issue 20's helpers: numbers read length-checked, TOML depth, capped reads, safe writes.

The command-line reproductions (one line, status 2) are in ``test_errors.py``;
here each helper is pinned against an independent statement of its rule:
Python's own ``int``/``Fraction`` for the values that are accepted, the file
system's state for the writes.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.errors import (
    OUT_OF_MEMORY,
    ChartError,
    GridError,
    InternalError,
    NotationError,
    PayTableError,
    SimulationError,
    TooLargeError,
    UsageError,
)
from analyzer.core.limits import MAX_INPUT_BYTES, MAX_TOML_DEPTH
from analyzer.core.numbers import MAX_DIGITS, check_digits, parse_rational, parse_whole
from analyzer.util.files import (
    check_folder,
    read_input,
    replacing_folder,
    write_atomic,
    write_bytes_atomic,
)
from analyzer.util.toml import load_toml, nesting, parse_toml

HUGE = "9" * 5000  # past Python's 4,300-digit limit of int(str)


# -- numbers ----------------------------------------------------------------------------
@given(st.integers(-10**MAX_DIGITS + 1, 10**MAX_DIGITS - 1))
@settings(max_examples=200)
def test_whole_numbers_read_as_python_reads_them(n: int) -> None:
    assert parse_whole(str(n), "n", UsageError, minimum=None) == n
    assert parse_whole(f"{n:_}", "n", UsageError, minimum=None) == n


@given(st.fractions(max_denominator=10**6).filter(lambda q: abs(q) < 10**12))
@settings(max_examples=200)
def test_rationals_read_exactly(q: Fraction) -> None:
    assert parse_rational(f"{q.numerator}/{q.denominator}", "q", UsageError) == q
    if q.denominator in (1, 2, 4, 5, 8, 10):  # a terminating decimal: the decimal form too
        text = f"{float(q):.6f}"
        assert parse_rational(text, "q", UsageError) == Fraction(text)


@pytest.mark.parametrize("text,value", [
    ("1e9", 10**9), ("2.5e6", 2_500_000), ("1E3", 1000), ("10_000_000", 10**7), (" 7 ", 7)])
def test_scientific_whole_numbers(text: str, value: int) -> None:
    assert parse_whole(text, "--rounds", UsageError, scientific=True) == value


@pytest.mark.parametrize("text,needle", [
    (HUGE, "5000 digits; at most 30"), ("1" + "0" * 30, "31 digits"), ("1.5", "whole number"),
    ("1e-3", "whole number"), ("nan", "whole number"), ("٣", "whole number"), ("", "whole"),
    ("1e999999999", "exponent beyond"), ("-1", "0 to 8"), ("9", "0 to 8")])
def test_bad_whole_numbers_are_named_in_one_short_line(text: str, needle: str) -> None:
    with pytest.raises(UsageError, match=needle) as err:
        parse_whole(text, "--jobs", UsageError, maximum=8, scientific=True)
    assert str(err.value).startswith("--jobs") and len(str(err.value)) < 120
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text,needle", [
    (HUGE, "at most 30"), ("1/0", "divides by zero"), ("inf", "not a number"),
    ("1e1001", "exponent beyond"), ("1/2/3", "not a number")])
def test_bad_rationals_are_named(text: str, needle: str) -> None:
    with pytest.raises(PayTableError, match=needle):
        parse_rational(text, "pay", PayTableError)


def test_a_digit_run_check_sees_unicode_digits_as_a_d_pattern_does() -> None:
    check_digits("BJ" + "9" * 30 + ":2 6D", "rule spec", UsageError)
    for spec in (f"{HUGE}D", f"BJ3:{HUGE}", "CH" + "٣" * 31):
        with pytest.raises(UsageError, match="at most 30"):
            check_digits(spec, "rule spec", UsageError)


def test_numbers_in_chart_labels_and_decisions_are_length_checked() -> None:
    from analyzer.charts.model import parse_label
    from analyzer.shoestate.decisions import DecisionError, parse_decision

    with pytest.raises(ChartError, match="5000 digits"):
        parse_label("H" + HUGE)  # was a ValueError from int()
    with pytest.raises(ChartError, match="card-count qualifier"):
        parse_label("H16/" + "9" * 25)  # 25 digits: read, then out of range
    with pytest.raises(DecisionError, match="5000 digits"):
        parse_decision(f"{HUGE}vT:S-H")


# -- TOML -------------------------------------------------------------------------------
@pytest.mark.parametrize("text,depth,parts", [
    ('a = 1\n[t]\nb = "[[[["\n', 1, 1),
    ("a = [[1], [2, [3]]]  # [[[[[[\n", 3, 1),
    ("x.'y.z'.\"w.v\" = {p = [1.5, {q = 2}]}", 3, 3),
    ("s = '''\n[[[[\n'''\nt = \"\"\"\n{{{\"\"\"", 0, 1),
])
def test_nesting_counts_outside_strings_and_comments(text: str, depth: int, parts: int) -> None:
    assert nesting(text) == (depth, parts)


@pytest.mark.parametrize("text,needle", [
    ("a = " + "[" * 50_000, "50000 deep"),  # was a RecursionError (3,002 lines)
    ("a = " + "{b = " * 40 + "1" + "}" * 40, "40 deep"),
    ("a" + ".a" * 50_000 + " = 1", "50001 dotted parts"),  # was minutes in tomllib
    ("[t" + ".t" * 100 + "]", "101 dotted parts"),
    (f"a = {HUGE}", "not valid TOML: Exceeds the limit"),  # a ValueError from int()
    ("a = [1, 2", "not valid TOML"),
])
def test_bad_toml_is_the_callers_error_in_one_line(text: str, needle: str) -> None:
    with pytest.raises(GridError, match=needle) as err:
        parse_toml(text, "grid file 'g.toml'", GridError)
    assert "\n" not in str(err.value)


def test_a_byte_order_mark_is_no_toml_error(tmp_path: Path) -> None:
    """A UTF-8 file saved with a byte-order mark is read as without one (it was refused as
    "invalid statement at line 1, column 1")."""
    path = tmp_path / "meta.toml"
    path.write_bytes(b"\xef\xbb\xbflab = \"Example Test Lab\"\n")
    assert load_toml(path, "metadata file", UsageError) == {"lab": "Example Test Lab"}


def test_toml_at_the_depth_cap_is_read() -> None:
    d = MAX_TOML_DEPTH
    data = parse_toml("a = " + "[" * d + "]" * d, "f", GridError)
    for _ in range(d):
        data = data["a"] if isinstance(data, dict) else data[0]
    with pytest.raises(GridError):
        parse_toml("a = " + "[" * (d + 1) + "]" * (d + 1), "f", GridError)


# -- reading ----------------------------------------------------------------------------
def test_read_input_takes_a_regular_file_up_to_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_bytes(b"x" * MAX_INPUT_BYTES)
    assert len(read_input(path, "grid file", GridError)) == MAX_INPUT_BYTES
    path.write_bytes(b"x" * (MAX_INPUT_BYTES + 1))
    with pytest.raises(GridError, match="at most 1,048,576"):
        read_input(path, "grid file", GridError)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(GridError, match="not UTF-8"):
        read_input(path, "grid file", GridError)
    with pytest.raises(GridError, match="No such file"):
        read_input(tmp_path / "missing", "grid file", GridError)
    with pytest.raises(GridError, match="a folder"):
        read_input(tmp_path, "grid file", GridError)


def test_read_input_refuses_devices_and_pipes_without_reading(tmp_path: Path) -> None:
    with pytest.raises(ChartError, match="'/dev/zero' is a device or pipe"):
        read_input(Path("/dev/zero"), "chart file", ChartError)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # no writer: opening it for reading would wait for ever
    with pytest.raises(ChartError, match="a device or pipe"):
        read_input(fifo, "chart file", ChartError)
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")  # a name that looks like a file, and is not
    with pytest.raises(NotationError, match="a device or pipe"):
        load_toml(link, "count file", NotationError)


# -- writing ----------------------------------------------------------------------------
def _kinds_of_targets(tmp_path: Path) -> dict[str, Path]:
    """A symbolic link to a file, a dangling one, a FIFO and a folder: none is replaced."""
    target = tmp_path / "real.txt"
    target.write_text("keep")
    links = {"link": tmp_path / "link.txt", "dangling": tmp_path / "dangling.txt"}
    links["link"].symlink_to(target)
    links["dangling"].symlink_to(tmp_path / "nowhere.txt")
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    return {**links, "fifo": fifo, "folder": folder}


def test_only_a_regular_file_is_replaced(tmp_path: Path) -> None:
    for kind, path in _kinds_of_targets(tmp_path).items():
        before = os.lstat(path)
        with pytest.raises(UsageError, match="cannot write") as err:
            write_atomic(path, "new")
        assert "\n" not in str(err.value), kind
        after = os.lstat(path)
        assert (stat.S_IFMT(after.st_mode), after.st_ino) == \
            (stat.S_IFMT(before.st_mode), before.st_ino), kind
    assert (tmp_path / "real.txt").read_text() == "keep"
    assert not (tmp_path / "nowhere.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    write_atomic(tmp_path / "real.txt", "new")  # a regular file is
    assert (tmp_path / "real.txt").read_text() == "new"


def test_a_device_node_is_not_replaced(tmp_path: Path) -> None:
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    with pytest.raises(UsageError, match="a device, pipe or socket"):
        write_bytes_atomic(node, b"new")
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_full_disk_stays_one_usage_error(tmp_path: Path) -> None:
    # RLIMIT_FSIZE makes the kernel refuse the write (EFBIG) as a full disk would (ENOSPC).
    code = ("import resource, signal, sys\nfrom pathlib import Path\n"
            "from analyzer.core.errors import UsageError\n"
            "from analyzer.util.files import write_atomic\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))\n"
            "try:\n    write_atomic(Path(sys.argv[1]), 'x' * 5000)\n"
            "except UsageError as err:\n    print(err)\n")
    out = tmp_path / "out.txt"
    done = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.startswith(f"cannot write {str(out)!r}: File too large"), done
    assert list(tmp_path.iterdir()) == []  # no partial file, no temporary file


WRITE_SET_INTERRUPTED = """
import os, signal, sys
from pathlib import Path
from analyzer.util.files import write_files
folder = Path(sys.argv[1])
signal.signal(signal.SIGINT, signal.default_int_handler)  # a test runner may ignore it
real_replace = os.replace
def replace_then_interrupt(src, dst):
    real_replace(src, dst)
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C right after the first file
os.replace = replace_then_interrupt
try:
    write_files({folder / f"f{i}.txt": f"new {i}" for i in range(3)})
except KeyboardInterrupt:
    print("interrupted after the set")
"""


def test_write_files_commits_a_set_with_ctrl_c_held_back(tmp_path: Path) -> None:
    """In a process of its own: a SIGINT sent to the test worker itself would reach
    whatever else the worker runs."""
    old = {tmp_path / f"f{i}.txt": f"old {i}" for i in range(3)}
    for path, text in old.items():
        path.write_text(text)
    run = subprocess.run([sys.executable, "-c", WRITE_SET_INTERRUPTED, str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.stdout == "interrupted after the set\n", run.stderr
    # the interrupt came after the last rename: every file is new, none old
    assert [p.read_text() for p in old] == ["new 0", "new 1", "new 2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.txt", "f1.txt", "f2.txt"]


NAMES = ("a.md", "b.json")


def _folder(path: Path, tag: str) -> None:
    path.mkdir()
    for name in NAMES:
        (path / name).write_text(f"{tag} {name}")


def _content(path: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in path.iterdir()}


def test_replacing_folder_swaps_the_set_or_leaves_the_old_one(tmp_path: Path) -> None:
    out = tmp_path / "cert"
    _folder(out, "old")
    with pytest.raises(KeyboardInterrupt), replacing_folder(out, NAMES) as new:
        (new / "a.md").write_text("new a.md")
        raise KeyboardInterrupt  # Ctrl-C after the first file of the new set
    assert _content(out) == {"a.md": "old a.md", "b.json": "old b.json"}
    with replacing_folder(out, NAMES) as new:
        (new / "a.md").write_text("new a.md")  # a set without b.json: none stays
    assert _content(out) == {"a.md": "new a.md"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cert"]  # no staging left
    with replacing_folder(tmp_path / "fresh" / "cert", NAMES) as new:
        (new / "b.json").write_text("{}")
    assert _content(tmp_path / "fresh" / "cert") == {"b.json": "{}"}
    assert stat.S_IMODE(os.stat(tmp_path / "fresh" / "cert").st_mode) == 0o755


@pytest.mark.parametrize("kind", ["folder", "link"])
def test_replacing_folder_refuses_a_set_name_that_is_not_a_file(tmp_path: Path,
                                                                 kind: str) -> None:
    """A folder named like one of the set's files (with the user's files in it) was
    replaced with the set, its contents lost, exit 0 (found by an adversarial test)."""
    out = tmp_path / "out"
    out.mkdir()
    if kind == "folder":
        (out / "a.md").mkdir()
        (out / "a.md" / "notes.txt").write_text("mine")
    else:
        (tmp_path / "target.md").write_text("mine")
        (out / "a.md").symlink_to(tmp_path / "target.md")
    with pytest.raises(UsageError, match="not a regular file"), \
            replacing_folder(out, NAMES) as _new:
        pass
    if kind == "folder":
        assert (out / "a.md" / "notes.txt").read_text() == "mine"
    else:
        assert (out / "a.md").is_symlink()


def test_replacing_folder_refuses_a_folder_with_other_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _folder(out, "old")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="holds 'notes.txt'"):
        check_folder(out, NAMES)
    with pytest.raises(UsageError, match="holds 'notes.txt'"), \
            replacing_folder(out, NAMES) as _new:
        pass
    assert (out / "notes.txt").read_text() == "mine"
    link = tmp_path / "link"
    link.symlink_to(out)
    with pytest.raises(UsageError, match="symbolic link"):
        check_folder(link, NAMES)
    with pytest.raises(InternalError), replacing_folder(tmp_path / "x", NAMES) as new:
        (new / "other").write_text("")


# -- sizes ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec,kwargs,needle", [
    ("8D BJ1:99999999999", {}, "BJ1:99999999999: the simulator's histogram .* "
     "3,199,999,999,969 bins"),
    # the pay that makes the bins is named, not the blackjack's
    ("6D SP SB=10000:1 B5C=10000:9999", {}, "B5C=10000:9999 SB=10000:1: .* 200,139,985 bins"),
    ("8D BJ7:5", {"jobs": 300}, "above the maximum 256"),
    ("8D", {"rounds": 10**11, "spread": (1, 1000)}, "64-bit sums"),
    ("100000D", {"jobs": 256}, "use fewer jobs"),
])
def test_simulator_sizes_are_refused_before_work(spec: str, kwargs: dict[str, Any],
                                                 needle: str) -> None:
    from analyzer.core.rules import parse_spec
    from analyzer.sim.config import check_counts, check_size

    args = {"rounds": 1000, "jobs": 2, "cut": 0, "spread": None} | kwargs
    rules = parse_spec(spec)
    with pytest.raises(SimulationError, match=needle):
        check_counts(args["rounds"], args["jobs"], None)
        check_size(rules, args["rounds"], args["jobs"], args["cut"], args["spread"])


def test_simulator_sizes_accept_every_shipped_game() -> None:
    from analyzer.core.presets import all_games
    from analyzer.sim.config import MAX_ROUNDS, check_size

    for rules in all_games().values():
        check_size(rules, MAX_ROUNDS, 8, rules.cut_card)
        check_size(rules, 10**9, 8, rules.cut_card, (1, 8))  # the counter of game protection


# -- a certificate's files, as one set --------------------------------------------------
def _fake_renders(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """The three renderers return text naming ``game`` (a real certificate takes minutes)."""
    from analyzer.certificates import render

    for name, ext in (("render_markdown", "md"), ("render_html", "html"),
                      ("render_json", "json")):
        monkeypatch.setattr(render, name, lambda _c, ext=ext: f"{game} {ext}\n")


def _old_certificate(out: Path) -> dict[str, str]:
    out.mkdir()
    for ext in ("md", "html", "json", "pdf"):
        (out / f"certificate.{ext}").write_text(f"old {ext}\n")
    return _content(out)


def test_an_interrupted_certificate_leaves_the_old_set_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.certificates import files

    out = tmp_path / "game"
    old = _old_certificate(out)
    _fake_renders(monkeypatch, "new")

    def interrupted(_html: Path, _chromium: str | None = None) -> bytes:
        raise KeyboardInterrupt  # Ctrl-C while Chromium prints, after the other three

    monkeypatch.setattr(files, "print_pdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_certificate(object(), out)  # type: ignore[arg-type]
    assert _content(out) == old  # was: new md, html and json beside the old PDF
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


def test_a_certificate_without_its_pdf_keeps_no_stale_pdf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.certificates import files

    out = tmp_path / "game"
    _old_certificate(out)
    _fake_renders(monkeypatch, "new")
    monkeypatch.setenv("BJA_CHROMIUM", "")  # no Chromium: the PDF cannot be printed
    written, no_pdf = files.write_certificate(object(), out)  # type: ignore[arg-type]
    assert no_pdf is not None and no_pdf.startswith("chromium not found")
    assert _content(out) == {f"certificate.{e}": f"new {e}\n" for e in ("md", "html", "json")}
    assert written == [out / f"certificate.{e}" for e in ("md", "html", "json")]
    written, no_pdf = files.write_certificate(object(), out, pdf=False)  # type: ignore[arg-type]
    assert no_pdf is None and len(written) == 3


def test_certify_refuses_a_folder_holding_other_files_before_the_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.certificates import model
    from tests.fuzz_inputs import run_cli

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("certify ran")

    monkeypatch.setattr(model, "certify", never)
    (tmp_path / "notes.txt").write_text("mine")
    status, out, err = run_cli(["certify", "--game", "charlie7", "--out", str(tmp_path)])
    assert (status, out) == (2, "") and "holds 'notes.txt'" in err and err.count("\n") == 1
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("token", ["BJ10001:1", "BJ1000000001:1", "B5C=10000000000000000000:1",
                                   "B678=3:2/2:1/10001:1", "SB=20001:2", "BSBJ=2000000000:1"])
def test_a_payout_past_ten_thousand_to_one_is_refused(token: str) -> None:
    """A payout of 10^30:1 gave an RTP of 10^30 percent, and overflowed the distribution's
    integers; one of 10^9:1 printed round EVs whose last four digits were not the exact
    ones (the float engine holds about 16 significant digits): a rule's payout is capped
    where every printed digit is still the exact figure's."""
    from analyzer.core.errors import RuleError
    from analyzer.core.rules import parse_spec

    with pytest.raises(RuleError, match=r"a payout of at most 10,000:1"):
        parse_spec(f"6D {token}")
    assert parse_spec("6D BJ10000:1 B5C=10000:1").bonus_5 == 10**4  # the cap itself


def test_at_the_payout_cap_the_float_figures_print_the_exact_digits(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The cap's reason: at 10^4:1 the float engine's round EVs, printed to nine decimals of
    a percent, are the exact fractions' digits (at 10^9:1 the last four differed)."""
    from analyzer.cli.main import main

    shown = []
    for arithmetic in ([], ["--exact"]):
        assert main(["ev", "--rules", "1D NSPL BJ10000:1 BSBJ=10000:1", "--jobs", "1",
                     *arithmetic]) == 0
        shown.append([line for line in capsys.readouterr().out.splitlines()
                      if "|" in line or line.startswith("RTP")])
    assert shown[0] == shown[1] and len(shown[0]) == 13  # header, ten upcards, total, RTP


def test_pays_the_distribution_cannot_count_are_refused_before_work() -> None:
    """Three bonuses of coprime ten-digit denominators count a round in units of 10^-27 of
    the bet: past 64 bits (an OverflowError, exit 1), now one line naming the pays."""
    from analyzer.core.errors import RuleConflictError
    from analyzer.core.rules import parse_spec
    from analyzer.engine.dist_spots import spot_covariance
    from analyzer.engine.distribution import round_distribution

    spec = (
        "6D SPL1 B5C=1000000009:1000000007 B6C=1000000033:1000000021 B7C=1000000093:1000000087")
    for compute in (round_distribution, spot_covariance):
        with pytest.raises(RuleConflictError, match=r"^B5C=1000000009:1000000007 B6C=.* "
                           r"past the 64-bit integers"):
            compute(parse_spec(spec))
    done = subprocess.run([sys.executable, "-m", "analyzer", "distribution", "--rules", spec,
                           "--jobs", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and not done.stdout


@pytest.mark.parametrize(("spec", "needle"), [
    ("INF", "INF: an infinite deck has no shoe to deal from"),
    ("1D NSPL BJ1:99999999999", "BJ1:99999999999: the simulator's histogram"),
    ("6D SPL1 B5C=1000000009:1000000007 B6C=1000000033:1000000021 "
     "B7C=1000000093:1000000087", "past the 64-bit integers"),
])
def test_what_would_stop_a_certificate_is_refused_before_its_first_stage(
        spec: str, needle: str) -> None:
    """An infinite deck, a simulation past the simulator's sizes, pays the distribution
    cannot count: refused before the chart, where the refusal came minutes later."""
    from analyzer.certificates.model import Settings, certify
    from analyzer.core.errors import AnalyzerError
    from analyzer.core.rules import parse_spec

    heard: list[str] = []
    with pytest.raises(AnalyzerError, match=needle):
        certify(parse_spec(spec), "x", settings=Settings(check_rounds=10_000,
                                                         spots_rounds=10_000),
                progress=heard.append)
    assert heard == []


@pytest.mark.parametrize(("spec", "quoted"), [("FST-A", "'T-A'"), ("FS9-A", "'9-A'")])
def test_a_pair_range_is_quoted_as_typed(spec: str, quoted: str) -> None:
    """``FST-A`` was refused as "'10-1' is not an ascending range": a value the user never
    typed."""
    from analyzer.core.errors import RuleError
    from analyzer.core.rules import parse_spec

    with pytest.raises(RuleError, match=f"rule token '{spec}': {quoted} is not"):
        parse_spec(spec)
    assert parse_spec("SPL1 FSa-t").free_splits == parse_spec("SPL1 FSA-T").free_splits


def test_exact_splits_refuse_a_shoe_past_their_reach_before_work() -> None:
    """``--split exact`` allowed any shoe of at most 60 cards, and such a shoe can have 1.4
    x 10^8 sub-shoes to enumerate (a full deck's 3.3 x 10^7 take five minutes)."""
    from analyzer.core.errors import ImpossibleShoeError
    from analyzer.core.rules import parse_spec
    from analyzer.core.shoe import Shoe
    from analyzer.oracle.split_mode import new_analysis

    rules = parse_spec("1D H17 NDAS SPL1")
    with pytest.raises(ImpossibleShoeError, match=r"60 cards make 142,767,360 sub-shoes.* "
                       r"at most 40,000,000"):
        new_analysis(rules, Shoe((4, 5, 5, 5, 5, 5, 5, 5, 5, 16)), split="exact")
    assert new_analysis(rules, split="exact").shoe == rules.full_shoe()  # 33,203,125
    # the dealer alone visits only the sub-shoes he draws into: the same shoe is his
    from analyzer.oracle.exact_dealer import dealer_final_distribution
    assert sum(dealer_final_distribution((4, 5, 5, 5, 5, 5, 5, 5, 5, 16), 6, None, False)) == 1


@pytest.mark.parametrize("fields", [
    {"blackjack_pays": Fraction(10**12)},
    {"blackjack_pays": Fraction(1, 10**40)},
    {"super_bonus": Fraction(10**15)},
    {"bonus_5": Fraction(10**10, 3)},
])
def test_rules_built_from_fields_keep_the_notations_payout_caps(fields: dict[str, Fraction],
                                                                ) -> None:
    """``Rules(blackjack_pays=Fraction(10**12))`` was accepted (an RTP of 4.6 x 10^12
    percent, and a repr that did not evaluate back); the notation refused it."""
    from analyzer.core.errors import RuleError
    from analyzer.core.rules import Rules, format_spec

    with pytest.raises(RuleError, match="payout of at most"):
        Rules(decks=1, max_hands=2, **fields)
    top = Rules(decks=1, blackjack_pays=Fraction(10**4))
    assert Rules(format_spec(top)) == top  # the cap itself is a rule set, both ways


@pytest.mark.parametrize("argv,dest,value", [
    (["sidebet", "bust-it", "--played", "1e3"], "played", 1000),
    (["sidebet", "21+3", "--protection", "--shoes", "1e2"], "shoes", 100),
    (["sidebet", "21+3", "--decks", "1e1"], "decks", 10),
    (["sidebet", "21+3", "--seed", "2.5e1"], "seed", 25),
    (["ev", "--rules", "1D", "--jobs", "1e0"], "jobs", 1),
    (["compare", "charlie7", "free-bet", "--max-players", "5e0"], "max_players", 5),
    (["distribution", "--game", "charlie7", "--spots", "2e0"], "spots", 2),
    (["serve", "--port", "8e3"], "port", 8000),
    (["certify", "--game", "charlie7", "--rounds", "1e5"], "rounds", 10**5)])
def test_every_whole_number_option_reads_an_exponent(argv: list[str], dest: str,
                                                     value: object) -> None:
    """docs/errors-and-limits.md: a number typed may carry an exponent, on every option
    (``--played 1e8``, the cap as the doc writes it), not on some commands only."""
    from analyzer.cli.main import parse_argv

    assert getattr(parse_argv(argv), dest) == value
    with pytest.raises(UsageError, match="whole number"):
        parse_argv([*argv[:-1], "1.5"])


def test_free_memory_is_the_kernels_estimate(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``MemAvailable`` in KiB, read as bytes; none where the file or the line is not."""
    from analyzer.util import memory

    info = tmp_path / "meminfo"
    info.write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\n"
                    "MemAvailable:   12345678 kB\nBuffers: 5 kB\n")
    monkeypatch.setattr(memory, "MEMINFO", info)
    monkeypatch.setattr(memory, "CGROUPS", tmp_path / "no-cgroups")  # this machine's own
    monkeypatch.setattr(memory, "OWN_CGROUPS", tmp_path / "no-cgroups")  # limits aside
    assert memory.available() == 12345678 * 1024
    memory.reserve(12345678 * 1024, "a table")  # what is free fits
    with pytest.raises(TooLargeError, match=r"^a table needs 12.6 GB of memory and 12.6 GB "
                                            r"is free; say less$"):
        memory.reserve(12345678 * 1024 + 1, "a table", "say less")
    info.write_text("MemTotal: 5 kB\n")
    assert memory.available() is None
    monkeypatch.setattr(memory, "MEMINFO", tmp_path / "absent")
    assert memory.available() is None
    memory.reserve(10**18, "a table")  # the system says nothing: nothing refused


def test_a_containers_memory_limit_bounds_the_free_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a control group's limit (a container) the room left in it, where smaller
    than what the machine has free: cgroup v2 and v1, at the process's own group."""
    from analyzer.util import memory

    info = tmp_path / "meminfo"
    info.write_text("MemAvailable:   1000 kB\n")  # 1,024,000 bytes
    own = tmp_path / "self-cgroup"
    monkeypatch.setattr(memory, "MEMINFO", info)
    monkeypatch.setattr(memory, "CGROUPS", tmp_path / "cg")
    monkeypatch.setattr(memory, "OWN_CGROUPS", own)
    own.write_text("0::/box\n")
    v2 = tmp_path / "cg" / "box"
    v2.mkdir(parents=True)
    (v2 / "memory.max").write_text("max\n")
    (v2 / "memory.current").write_text("5000\n")
    assert memory.available() == 1_024_000  # no limit: the machine's
    (v2 / "memory.max").write_text("605000\n")
    assert memory.available() == 600_000
    (v2 / "memory.current").write_text("900000\n")  # past its limit: no room
    assert memory.available() == 0
    own.write_text("4:memory:/box1\n0::/\n")
    v1 = tmp_path / "cg" / "memory" / "box1"
    v1.mkdir(parents=True)
    (v1 / "memory.limit_in_bytes").write_text(f"{2**63 - 4096}\n")  # v1's "no limit"
    (v1 / "memory.usage_in_bytes").write_text("10\n")
    assert memory.available() == 1_024_000
    (v1 / "memory.limit_in_bytes").write_text("70010\n")
    assert memory.available() == 70_000
    monkeypatch.setattr(memory, "MEMINFO", tmp_path / "absent")
    assert memory.available() == 70_000  # the group's room alone


@pytest.mark.parametrize(("exact", "needle"), [
    (True, r"^exact mode: a table of the dealer's weights for 275 card sets \(\d+ primes\) "
           r"needs \d+ kB of memory and 1 kB is free; in floats \(without exact\) it takes "
           r"24 kB$"),
    (False, r"^a table of the dealer's weights for 275 card sets needs 24 kB of memory and "
            r"1 kB is free$"),
])
def test_a_dealer_table_past_the_free_memory_is_refused_before_it_exists(
        monkeypatch: pytest.MonkeyPatch, exact: bool, needle: str) -> None:
    """Where the machine has less memory free than a table of the dealer's weights, it is
    refused in one line before it is filled (the CLI test below runs a whole round)."""
    from itertools import combinations_with_replacement

    import numpy as np

    from analyzer.engine import dist_dealer
    from analyzer.util import memory

    base = (4, 4, 4, 4, 4, 3, 4, 4, 4, 16)  # one deck, a 6 up
    drawn = np.zeros((275, 10), dtype=np.int64)  # every set of two or three cards
    for row, cards in enumerate([*combinations_with_replacement(range(10), 2),
                                 *combinations_with_replacement(range(10), 3)]):
        np.add.at(drawn[row], list(cards), 1)
    filled: list[str] = []
    for name in ("_fill", "_fill_residues"):
        real = getattr(dist_dealer, name)
        monkeypatch.setattr(dist_dealer, name,
                            lambda *a, real=real, name=name: filled.append(name) or real(*a))

    def table() -> object:
        if exact:
            return dist_dealer.joint_residues(base, drawn, 6, hits_soft_17=False, bits=1)
        return dist_dealer.joint_weights(base, drawn, 6, hits_soft_17=False)

    table()  # with the memory there is: filled
    assert filled
    filled.clear()
    monkeypatch.setattr(memory, "available", lambda: 1_000)
    with pytest.raises(TooLargeError, match=needle):
        table()
    assert not filled  # refused before the table was made


def test_the_cli_says_out_of_memory_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A MemoryError past the checks (an allocation the system refused) is one line and
    status 2 from the CLI, never a traceback; a refused table is its own line."""
    import analyzer.api
    from analyzer.cli.main import main
    from analyzer.util import memory

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(analyzer.api, "analyze", no_memory)
    assert main(["ev", "--rules", "1D", "--no-cache"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"bja: error: {OUT_OF_MEMORY}\n"
    monkeypatch.undo()
    monkeypatch.setattr(memory, "available", lambda: 1_000)
    assert main(["distribution", "--exact", "--rules", "1D SPL1", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("bja: error: exact mode: a table of the dealer's ")
    assert err.count("\n") == 1
