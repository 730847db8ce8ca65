"""``bja certify``'s machinery, fast: the chi-square and its pooling, the PDF pinning, the
hashes against ``sha256sum``, the verification record, and the command's refusals.

Whole certificates (seconds to minutes each) are in ``test_certificate_model.py``.
"""

from __future__ import annotations

import hashlib
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.certificates.files import PINNED_DATE, page_count, pin_pdf, print_pdf
from analyzer.certificates.provenance import VERIFICATION, provenance
from analyzer.certificates.sim import Group, SimCheck, chi2_sf, pool
from analyzer.cli.certify import slug
from analyzer.cli.main import main
from analyzer.core.errors import UsageError
from analyzer.core.rules import parse_spec

ROOT = Path(__file__).resolve().parents[1]
F = Fraction


def test_pooling_groups_expect_five_rounds_and_keep_every_count() -> None:
    probs = {F(-2): 1e-6, F(-1): 0.5, F(0): 1e-7, F(1): 0.4, F(3, 2): 0.0999, F(2): 3e-7,
             F(8): 1e-8}
    observed = {F(-2): 1, F(-1): 500_000, F(1): 400_000, F(3, 2): 99_900, F(8): 1}
    groups = pool(probs, observed, 1_000_000)
    assert all(g.expected >= 5 for g in groups)
    assert sum(g.observed for g in groups) == sum(observed.values())
    assert math.isclose(sum(g.expected for g in groups), 1_000_000 * sum(probs.values()))
    # -2 joins -1; 0 joins 1; the short tail (2, 8) joins 3/2, the group before it
    assert [(g.low, g.high) for g in groups] == [(F(-2), F(-1)), (F(0), F(1)), (F(3, 2), F(8))]


def test_chi_square_tail_against_closed_forms() -> None:
    # dof 2: P(X >= x) = exp(-x/2); dof 1 at 3.841458820694124 (the 95% point): 0.05
    for x in (0.1, 1.0, 5.0, 20.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(math.inf, 3) == 0.0 and chi2_sf(1.0, 0) == 1.0


def _check(groups: tuple[Group, ...], unexpected: int = 0) -> SimCheck:
    return SimCheck(rounds=1000, seed=1, jobs=1, strategy="s", mean=-0.01, se=0.005,
                    exact_ev=0.0, groups=groups, unexpected=unexpected)


def test_cross_check_figures() -> None:
    groups = (Group(F(-1), F(-1), 480, 500.0), Group(F(0), F(1), 520, 500.0))
    check = _check(groups)
    assert check.z == pytest.approx(-2.0) and check.dof == 1
    assert check.chi2 == pytest.approx(0.8 + 0.8)
    assert check.p_value == pytest.approx(chi2_sf(1.6, 1)) and check.agrees
    bad = _check(groups, unexpected=1)  # a result the exact distribution calls impossible
    assert bad.chi2 == math.inf and bad.p_value == 0.0 and not bad.agrees
    assert (check.verdict, bad.verdict) == ("agrees", "DISAGREES")


def test_too_few_rounds_are_no_test_and_never_agree() -> None:
    """Two rounds once printed "AGREES": one pooled group (no degrees of freedom, p = 1)
    and a spread of 0 (z forced to 0).  Neither is a test."""
    one_group = _check((Group(F(-1), F(1), 2, 2.0),))
    assert one_group.dof == 0 and not one_group.tested and not one_group.agrees
    groups = (Group(F(-1), F(-1), 480, 500.0), Group(F(0), F(1), 520, 500.0))
    flat = SimCheck(rounds=1000, seed=1, jobs=1, strategy="s", mean=-1.0, se=0.0,
                    exact_ev=-0.004, groups=groups, unexpected=0)
    assert not flat.tested and not flat.agrees and flat.verdict == "NOT TESTED"


def test_pdf_dates_are_pinned_without_moving_a_byte() -> None:
    stamp = b"D:20261201021824+00'00'"
    pdf = (b"%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n"
           b"3 0 obj <</Type /Page>>\n4 0 obj <</CreationDate (" + stamp + b")\n/ModDate ("
           + stamp + b")>>\n5 0 obj <</ModDate (D:2026)>>\n")
    pinned = pin_pdf(pdf)
    assert len(pinned) == len(pdf) and stamp not in pinned
    assert pinned.count(PINNED_DATE) == 2 and b"(D:2026)" in pinned  # other lengths kept
    assert page_count(pinned) == 2


def test_source_hash_is_what_the_printed_recipe_computes() -> None:
    found = provenance(parse_spec("6D S17 DOA DAS SPL3 LS"))
    assert found.rules_sha256 == hashlib.sha256(b"6D S17 DOA DAS SPL3 LS").hexdigest()
    recipe = ("find . -name '*.py' -o -name '*.toml' -o -name '*.c' | sed 's|^./||' "
              "| LC_ALL=C sort | xargs sha256sum | sha256sum")
    shell = subprocess.run(["sh", "-c", recipe], cwd=ROOT / "analyzer", check=True,
                           capture_output=True, text=True).stdout.split()[0]
    assert shell == found.source_sha256
    assert hashlib.sha256(found.manifest.encode()).hexdigest() == found.source_sha256
    assert any(path == "certificates/model.py" for path, _ in found.source_files)
    assert any(path == "engine/_dealer.c" for path, _ in found.source_files)  # the C kernel


def test_verification_record_names_tests_that_cite_their_reference() -> None:
    for ref in VERIFICATION:
        assert ref.tests
        for name in ref.tests:
            text = (ROOT / name).read_text(encoding="utf-8")
            assert "def test_" in text and ref.cite.lower() in text.lower(), (name, ref.cite)


def test_slug() -> None:
    assert slug("6D S17 DOA DAS SPL3 LS") == "6d-s17-doa-das-spl3-ls"
    assert slug("1D H17 BJ6:5 FD9-11") == "1d-h17-bj6-5-fd9-11"


@pytest.mark.parametrize(("argv", "needle"), [
    (["certify"], "which game? give --game NAME or --rules SPEC"),
    (["certify", "--rules", "charlie8 6D"], "unknown rule token or game 'charlie8' (games:"),
    (["certify", "--game", "nope"], "unknown game 'nope'"),
    (["certify", "--rules", "6D S17 7Q"], "'7Q'"),
    (["certify", "--game", "charlie7", "--rounds", "0.5"], "--rounds"),
    (["certify", "--game", "charlie7", "--rounds", "999"], "--rounds must be a whole number "
                                                           "1,000 to"),
])
def test_cli_refuses_in_one_line(argv: list[str], needle: str,
                                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    try:
        status = main([*argv, "--out", str(tmp_path / "out")])
    except SystemExit as exit_:  # argparse's refusals
        status = exit_.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bja: error:") and needle in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("argv", "game", "folder"), [
    (["--game", "charlie7"], "charlie7", "charlie7"),
    (["--game", "charlie7", "--rules", "6D"], "charlie7 6D", "6d-s17-doa-das-spl1-ls-ch7-a21"),
    (["--rules", "charlie7 6D"], "charlie7 6D", "6d-s17-doa-das-spl1-ls-ch7-a21"),
    (["--rules", "charlie7"], "charlie7", "charlie7"),
    (["--rules", "1D H17"], "1D H17", "1d-h17-doa-das-spl3-ns"),
])
def test_a_game_and_tokens_are_certified_as_a_rule_set_of_their_own(
        argv: list[str], game: str, folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--game NAME --rules TOKENS`` and ``--rules "NAME TOKENS"`` are one rule set, as in
    every command that takes rules (docs/notation.md); it was refused ("not allowed with
    argument --game", "unknown rule token 'charlie7'"), found by a newcomer tester."""
    import argparse

    import analyzer.api
    from analyzer.cli.certify import certificate

    asked: list[tuple[object, object]] = []
    monkeypatch.setattr(analyzer.api, "certify",
                        lambda g, *, out, **_: asked.append((g, out)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default=None)
    parser.add_argument("--rules", default="")
    args = parser.parse_args(argv)
    args.no_pdf, args.float, args.rounds, args.seed, args.meta = True, True, None, None, None
    certificate(args, None, None)
    assert asked == [(game, Path("reports") / folder)]


def test_no_chromium_is_one_clear_error(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("BJA_CHROMIUM", "")
    html = tmp_path / "certificate.html"
    html.write_text("<p>x</p>")
    with pytest.raises(UsageError, match="chromium not found"):
        print_pdf(html)


def test_certify_command_loads_nothing_heavy() -> None:
    code = ("import sys; from analyzer.cli.main import build_parser; "
            "build_parser().parse_args(['certify', '--game', 'charlie7']); "
            "print(sorted(m for m in ('numpy', 'matplotlib', 'numba', 'sympy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_certificate_modules_stay_small() -> None:
    for path in (ROOT / "analyzer" / "report").glob("certificate*.py"):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 400, path
        starts = [i for i, line in enumerate(lines) if re.match(r"\s*def ", line)]
        for a, b in zip(starts, [*starts[1:], len(lines)], strict=True):
            assert b - a <= 60, (path.name, lines[a])
