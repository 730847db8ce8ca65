"""The README and the pages of docs/ say what the program does: their commands run as
written and print what is shown, their links resolve, their tables match the tree.

The convention, for README.md and docs/*.md:

* a ```` ```console ```` block holds commands, each on a line starting ``$ ``, each
  followed by its output as the user sees it (standard output and standard error
  together), abridged: a line ``...`` marks lines cut, a line ending in `` ...`` is
  cut short (the real line starts with the rest), every other line is the real line.
  The lines shown must appear in the real output in order, the lines between two cuts
  consecutive, the first and last ones at the start and end unless a cut is there.
  A command shown printing ``bja: error:`` must exit with status 2, any other with 0.
  The block's commands run one after another in a fresh folder, with ``BJA_CACHE_DIR``
  in a temporary folder;
* a block preceded by ``<!-- slow -->`` runs only in the slow run (``-m slow``); in the
  default run its ``bja`` commands are only parsed (``build_parser().parse_args``);
* a ```` ```sh ```` block of the README, and every inline ``bja ...`` of the README, is
  parsed the same way (``bja build`` takes half an hour: parsed, never run here);
* a ```` ```python ```` block with ``>>>`` lines is a doctest, run in a fresh folder
  (what it writes stays there).
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from analyzer.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
CUT = "..."
SLOW_MARK = "<!-- slow -->"
README_MAX_LINES = 300  # the ceiling (aim: about 250)


@dataclass(frozen=True)
class Block:
    """A fenced block of a Markdown page."""

    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    marks: frozenset[str]  # HTML comments on the lines just above the fence

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^(`{3,})(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == fence.group(1))
        marks, k = set(), i - 1
        while k >= 0 and (lines[k].strip().startswith("<!--") or not lines[k].strip()):
            marks.add(lines[k].strip())
            k -= 1
        found.append(Block(page, i + 1, fence.group(2), "\n".join(lines[i + 1:end]),
                           frozenset(marks)))
        i = end + 1
    return found


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """A console block's commands, each with the output lines shown after it."""
    out: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"{block.where}: output before any command"
            out[-1][1].append(line)
    return out


def _fits(shown: str, real: str) -> bool:
    if shown.endswith(" " + CUT):
        return real.startswith(shown[:-len(CUT)].rstrip())
    return real == shown


def find_abridged(shown: list[str], real: list[str]) -> str | None:
    """None if ``shown`` is an abridged copy of ``real`` (the convention above), else why."""
    segments: list[list[str]] = [[]]
    for line in (s.rstrip() for s in shown):
        if line == CUT:
            segments.append([])
        else:
            segments[-1].append(line)
    at = 0
    for n, segment in enumerate(segments):
        anchored_start = n == 0
        anchored_end = n == len(segments) - 1
        if not segment:
            continue
        starts = [at] if anchored_start else range(at, len(real) - len(segment) + 1)
        for start in starts:
            window = real[start:start + len(segment)]
            if len(window) == len(segment) and all(map(_fits, segment, window)):
                if anchored_end and start + len(segment) != len(real):
                    continue
                at = start + len(segment)
                break
        else:
            return f"lines not found in order: {segment!r}"
    return None


def real_lines(output: str) -> list[str]:
    """Output as a terminal shows it, line by line: a carriage return starts a new line
    (a progress bar's redraws, blank ones dropped), trailing blanks cut."""
    lines: list[str] = []
    for line in output.split("\n"):
        pieces = line.split("\r")
        lines += [p.rstrip() for p in pieces if p.strip() or len(pieces) == 1]
    if output.endswith("\n"):
        lines.pop()  # after the last newline
    return lines


def parses(command: str) -> None:
    """A ``bja`` command line parses (its options exist and take these values)."""
    words = shlex.split(command)
    assert words[0] == "bja", command
    try:
        build_parser().parse_args(words[1:])
    except SystemExit as stop:  # --help, --version: exit 0 once parsed
        if stop.code != 0:
            raise AssertionError(f"`{command}` does not parse (exit {stop.code})") from None


def _console_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.lang == "console"]


def _bin_first_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["BJA_CACHE_DIR"] = str(tmp / "cache")
    return env


def run_block(block: Block, tmp: Path) -> None:
    folder = tmp / "cwd"
    folder.mkdir()
    env = _bin_first_env(tmp)
    for command, shown in commands(block):
        done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        expected = 2 if any(s.startswith("bja: error:") for s in shown) else 0
        assert done.returncode == expected, (
            f"{block.where}: `{command}` exited {done.returncode}:\n{done.stdout[-3000:]}")
        why = find_abridged(shown, real_lines(done.stdout))
        assert why is None, f"{block.where}: `{command}`: {why}\n--- real output:\n{done.stdout}"


# -- the console blocks ---------------------------------------------------------------------
FAST = [b for b in _console_blocks() if SLOW_MARK not in b.marks]
SLOW = [b for b in _console_blocks() if SLOW_MARK in b.marks]


@pytest.mark.parametrize("block", FAST, ids=[b.where for b in FAST])
def test_console_block_prints_what_it_shows(block: Block, tmp_path: Path) -> None:
    run_block(block, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("block", SLOW, ids=[b.where for b in SLOW])
def test_slow_console_block_prints_what_it_shows(block: Block, tmp_path: Path) -> None:
    run_block(block, tmp_path)


@pytest.mark.parametrize("block", SLOW, ids=[b.where for b in SLOW])
def test_slow_console_block_parses(block: Block) -> None:
    for command, _shown in commands(block):
        if command.startswith("bja "):
            parses(command)


def section(page: Path, title: str) -> range:
    """The lines (1-based) of the level-2 section ``title`` of a page, fences skipped."""
    start, end, fenced = 0, None, False
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            if line == f"## {title}":
                start = n
            elif start and end is None:
                end = n
    assert start, title
    return range(start, end or n + 1)


def test_the_quick_start_runs_its_five_commands() -> None:
    """ev, chart, compare and sidebet in the default run; the certificate in the slow run."""
    quick = section(README, "Quick start")
    ran = [c.split()[1] for b in _console_blocks() if b.page == README and b.line in quick
           for c, _ in commands(b) if c.startswith("bja ")]
    assert sorted(ran) == ["certify", "chart", "compare", "ev", "sidebet"]
    assert [c for b in SLOW if b.page == README for c, _ in commands(b)
            if c.startswith("bja ")] == [
        "bja certify --game charlie7 --no-pdf --float --rounds 1e5 --out charlie7-cert"]


# -- the rest of the README: parsed ---------------------------------------------------------
def test_readme_sh_and_inline_commands_parse() -> None:
    text = README.read_text(encoding="utf-8")
    lines = [part.strip() for b in blocks(README) if b.lang == "sh"
             for line in b.text.splitlines() for part in line.split("&&")]
    sh = [part for part in lines if part.startswith("bja")]
    assert "bja build" in sh
    inline = [m for m in re.findall(r"`(bja [^`]*)`", text)]
    usage = re.search(r"\{([\w,]+)\}", build_parser().format_usage())
    assert usage is not None
    names = usage.group(1).split(",")
    for command in [*sh, *inline]:
        words = shlex.split(command)
        if len(words) == 2 and words[1] in names:
            continue  # a command named, not run: `bja sidebet`
        parses(command)


def test_readme_install_commands_are_what_ci_runs() -> None:
    """`.ci/run` installs as the README says: the same pip install and pytest commands."""
    sh = [b.text for b in blocks(README) if b.lang == "sh"]
    assert sh[0] == ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . "
                     "&& bja build")
    assert sh[1] == ("python3 -m venv .venv && . .venv/bin/activate && pip install -e "
                     "'.[test]' && python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv .venv" in ci and ". .venv/bin/activate" in ci
    assert "pip install -q -e '.[test]'" in ci
    assert re.search(r"^python -m pytest -q$", ci, re.M)


def test_readme_is_short_and_opens_with_the_quick_start() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:2] == ["Install", "Quick start"]


@pytest.mark.parametrize("word", ["CDZ-", "CDP1", "Shapley", "pp"])
def test_readme_explains_a_term_before_using_it(word: str) -> None:
    """The first use of a term of the trade links the glossary (outputs shown may use it
    only after that)."""
    text = README.read_text(encoding="utf-8")
    first = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w])", text)
    assert first is not None
    link = re.search(rf"\[[^\]]*{re.escape(word)}[^\]]*\]\(docs/glossary\.md#[\w-]+\)", text)
    assert link is not None, f"{word} never linked to the glossary"
    assert link.start() <= first.start(), (
        f"{word} is used (line {text[:first.start()].count(chr(10)) + 1}) before its "
        f"glossary link (line {text[:link.start()].count(chr(10)) + 1})")


# -- doctests -------------------------------------------------------------------------------
DOCTESTS = [b for page in PAGES for b in blocks(page)
            if b.lang == "python" and ">>>" in b.text]


@pytest.mark.parametrize("block", DOCTESTS, ids=[b.where for b in DOCTESTS])
def test_python_block_runs(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path / "cache"))
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.where, str(block.page),
                                               block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_shows_the_library() -> None:
    """The quick start's notebook lines: the API, a comparison, a side bet, a certificate."""
    shown = [b.text for b in DOCTESTS if b.page == README]
    assert any("import analyzer" in t and "analyzer.certify(" in t and "analyzer.compare(" in t
               for t in shown)


# -- links ----------------------------------------------------------------------------------
def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}


LINKED_PAGES = [*PAGES, ROOT / "tests" / "reference" / "README.md"]


@pytest.mark.parametrize("page", LINKED_PAGES,
                         ids=[p.relative_to(ROOT).as_posix() for p in LINKED_PAGES])
def test_links_resolve(page: Path) -> None:
    from analyzer.report.index_page import INDEX

    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        # reports/index.html is written by `bja build` (the list of everything it wrote)
        generated = file == (ROOT / INDEX).resolve()
        assert file.exists() or generated, f"{page.name}: link to missing {target}"
        if anchor:
            assert anchor in anchors(file), f"{page.name}: no heading #{anchor} in {path}"


def test_slug_follows_github() -> None:
    assert slug("charlie7 — Blackjack Charlie 7") == "charlie7--blackjack-charlie-7"
    assert slug("CDZ-") == "cdz-"
    assert slug("Levels of play: how they are computed") == "levels-of-play-how-they-are-computed"
    assert slug("BC, PE, IC") == "bc-pe-ic"


# -- the notation page against the rule registry -----------------------------------------------
def _notation_tokens() -> list[str]:
    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return [span for row in rows for span in re.findall(r"`([^`]+)`", row.split("|")[1])]


def test_every_registry_token_is_in_the_notation_page() -> None:
    from analyzer.core.ruleset import RULES

    shown = [t.upper() for t in _notation_tokens()]
    missing = [(rule.name, token.pattern.pattern) for rule in RULES for token in rule.tokens
               if not any(token.pattern.fullmatch(s) for s in shown)]
    assert not missing, f"rule tokens with no example in docs/notation.md: {missing}"


def test_every_token_of_the_notation_page_parses() -> None:
    from analyzer.core.ruleset import read_spec

    examples = [t for t in _notation_tokens() if "<" not in t]
    assert len(examples) > 40
    for token in examples:
        assert read_spec(token), token


# -- figures quoted in the docs against the committed tables ---------------------------------
def test_the_chart_gaps_of_docs_charts_md_are_the_committed_charts() -> None:
    text = (ROOT / "docs" / "charts.md").read_text(encoding="utf-8")
    figure = r" \| (-[\d.]+%)"
    rows = re.findall(rf"^\| ([\w-]+)(?: \(full shoe\))?{figure * 3} \|$", text, re.M)
    from analyzer.core.presets import all_games
    assert sorted(game for game, *_ in rows) == sorted(all_games())  # every chart built
    for game, *figures in rows:
        chart = (ROOT / "tables" / game / "chart.txt").read_text(encoding="utf-8")
        quoted = [line.split()[-1] for line in chart.splitlines()
                  if line.startswith(("Chart EV", "CDZ- optimum", "Difference"))]
        assert quoted == figures, game


def test_docs_games_md_states_every_named_game_as_the_presets_do() -> None:
    """docs/games.md reads each seed game's rule text; the spec it states is the preset's,
    and its table of classic games is CLASSIC_GAMES."""
    from analyzer.core.presets import CLASSIC_GAMES, PRESETS, VARIANT_GAMES
    from analyzer.core.rules import format_spec, parse_spec

    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    for name, preset in PRESETS.items():
        section = text.split(f"\n## {name} — {preset.title}\n")[1].split("\n## ")[0]
        spec = re.search(r"Spec:\s+`([^`]+)`", section)
        assert spec is not None, name
        assert " ".join(spec.group(1).split()) == format_spec(preset.rules) == preset.spec
        row = re.search(rf"^\| `{re.escape(name)}` \| `([^`]+)` \|", text, re.M)
        assert row is not None and row.group(1) == preset.spec, name
    classic = dict(re.findall(r"^\| `([\w-]+)` \| `([^`]+)` \|$", text, re.M))
    variants = {name: classic.pop(name) for name in VARIANT_GAMES if name in classic}
    assert variants == VARIANT_GAMES  # Spanish 21's table, stated as the presets state it
    assert all(format_spec(parse_spec(s)) == s for s in variants.values())
    assert classic == CLASSIC_GAMES
    assert all(format_spec(parse_spec(s)) == s for s in classic.values())


def _certificate(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (ROOT / "reports" / game / "certificate.json").read_text(encoding="utf-8"))
    return data


def test_the_seed_games_figures_of_docs_games_md_are_the_certificates() -> None:
    """The seed table of docs/games.md, to the digits it prints, is what the committed
    certificates hold; a star marks exactly the games whose distribution has an error
    bound, and the footnote states that bound (the table once kept a bound and an SD of
    an older distribution after the certificates had moved on)."""
    from analyzer.core.presets import PRESETS

    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    starred = []
    for name in PRESETS:
        row = re.search(rf"^\| `{re.escape(name)}` \|.*\|$", text, re.M)
        assert row is not None, name
        cells = [c.strip() for c in row.group(0).strip("|").split("|")]
        cdz, chart, sd, hit = cells[2:6]
        cert = _certificate(name)
        assert cdz.split("%")[0] == f"{cert['rtp_decimal']['cdz'] * 100:.6f}", name
        assert chart.split("%")[0] == f"{cert['rtp_decimal']['chart'] * 100:.6f}", name
        assert sd.removesuffix(" *") == f"{cert['sd']:.4f}", name
        assert hit.removesuffix(" *") == f"{cert['hit_frequency'] * 100:.3f}%", name
        assert sd.endswith(" *") == hit.endswith(" *") == (cert["error_bound"] > 0), name
        if cert["error_bound"] > 0:
            starred.append(f"{cert['error_bound']:.1e}".replace("e-05", "e-5"))
    footnote = text.split("\n\\* ")[1].split("\n\n")[0]
    assert re.findall(r"\d\.\de-\d+", footnote) == starred


def test_the_cross_checks_of_docs_certification_md_are_the_certificates() -> None:
    """docs/certification.md quotes each seed certificate's simulated cross-check."""
    from analyzer.core.presets import PRESETS

    text = " ".join((ROOT / "docs" / "certification.md").read_text(encoding="utf-8").split())
    for name in PRESETS:
        c = _certificate(name)["crosscheck"]
        quoted = re.search(rf"{re.escape(name)} z ([+-]\d\.\d\d), (?:chi-square )?"
                           rf"(\d+\.\d\d) \((\d+)(?: dof)?\) p (\d\.\d\d\d)", text)
        assert quoted is not None, name
        assert quoted.groups() == (f"{c['z']:+.2f}", f"{c['chi2']:.2f}", str(c["dof"]),
                                   f"{c['p_value']:.3f}"), name
