"""``reports/index.html``: one page linking every file ``bja build`` writes, a line each.

A pure renderer of the build's list of written files: each file is told apart by
its place in the tree (:data:`KINDS`, one pattern and one line of description per
kind of file), the formats of one item (``chart.txt``, ``chart.csv``, ...) share
its line, and the lines are grouped by section.  The page is one self-contained
file (inline CSS, no script, nothing fetched), readable from phone to desktop
widths; a file of no known kind is still linked, under "Other files", so nothing
the build wrote is left out.

>>> html = index_page(["reports/charlie7.md", "tables/charlie7/chart.txt",
...                    "tables/charlie7/chart.png"], engine="bja 0.1.0")
>>> 'href="charlie7.md"' in html, 'href="../tables/charlie7/chart.png"' in html
(True, True)
>>> kind_of("tables/sidebets/21+3-8d.csv")[1]
"21+3: par sheet with the bet's usual pay table, 8 decks"
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import PurePosixPath

from analyzer.sidebets.bets import BETS

INDEX = "reports/index.html"  # where the page goes, relative to the project folder


@dataclass(frozen=True)
class Kind:
    """One kind of generated file: where it lives, its section and what it holds."""

    pattern: re.Pattern[str]  # the path without its extension, relative to the project
    section: str
    describe: Callable[[re.Match[str]], str]


def _kind(pattern: str, section: str, describe: Callable[[re.Match[str]], str]) -> Kind:
    return Kind(re.compile(pattern), section, describe)


GAME = r"(?P<game>[\w+-]+)"
# The side bets by name, longest first: "21+3-classic" is not 21+3 with a pay table.
BET = "(?P<bet>" + "|".join(re.escape(b) for b in sorted(BETS, key=len, reverse=True)) + ")"
SECTIONS = ("Games", "Certificates", "Strategy charts", "Comparisons", "Shoe state",
            "Side bets", "Other files")

KINDS: tuple[Kind, ...] = (
    _kind(rf"reports/{GAME}", "Games", lambda m: f"{m['game']}: exact analysis — EV by "
          "upcard, RTP at every level of play, the dealer's outcomes"),
    _kind(rf"reports/{GAME}/certificate", "Certificates", lambda m: f"{m['game']}: the "
          "certificate a test lab files — exact RTP by level, distribution, side bets, "
          "simulation cross-check, provenance"),
    _kind(rf"tables/{GAME}/chart", "Strategy charts", lambda m: f"{m['game']}: basic-strategy "
          "chart, its EV computed exactly as written"),
    _kind(rf"tables/{GAME}/exceptions", "Strategy charts", lambda m: f"{m['game']}: the "
          "hands where composition-dependent play departs from the chart"),
    _kind(r"reports/compare/seed-games", "Comparisons", lambda _m: "the seed games beside "
          "classic games, their differences explained rule by rule (Shapley)"),
    _kind(rf"reports/compare/{GAME}-effects", "Comparisons", lambda m: f"{m['game']}: the "
          "effect of every single rule change"),
    _kind(r"reports/shoestate/README", "Shoe state", lambda _m: "what each shoe-state "
          "file holds, and how it is computed"),
    _kind(r"reports/shoestate/protection", "Shoe state", lambda _m: "game protection: what "
          "a Hi-Lo counter wins at each seed game (simulated)"),
    _kind(rf"reports/shoestate/{GAME}/eor", "Shoe state", lambda m: f"{m['game']}: effects "
          "of removal, exact"),
    _kind(rf"reports/shoestate/{GAME}/counts", "Shoe state", lambda m: f"{m['game']}: count "
          "systems — betting correlation, playing efficiency, insurance correlation"),
    _kind(rf"reports/shoestate/{GAME}/indices", "Shoe state", lambda m: f"{m['game']}: index "
          "plays — the true count at which each decision flips"),
    _kind(rf"reports/shoestate/{GAME}/edge", "Shoe state", lambda m: f"{m['game']}: the "
          "player's edge by true count"),
    _kind(rf"tables/sidebets/{BET}-(?P<decks>\d+)(?P<spanish>d|spanish)(?:-(?P<table>[\w-]+))?",
          "Side bets", lambda m: f"{m['bet']}: par sheet with the "
          + (f"{m['table']} pay table" if m["table"] else "bet's usual pay table")
          + f", {m['decks']} {'Spanish ' if m['spanish'] == 'spanish' else ''}"
          f"deck{'s' if m['decks'] != '1' else ''}"),
    _kind(r"reports/sidebets/protection", "Side bets", lambda _m: "game protection of every "
          "bet: effects of removal, the best counts, a simulated counter"),
)


def kind_of(path: str) -> tuple[str, str]:
    """The section and the one-line description of a generated file (by its path)."""
    stem = str(PurePosixPath(path).with_suffix(""))
    for kind in KINDS:
        match = kind.pattern.fullmatch(stem)
        if match:
            return kind.section, kind.describe(match)
    return "Other files", PurePosixPath(path).name


_CSS = """
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; font-size: 16px;
       line-height: 1.5; color: #1d1d1f; background: #fff; margin: 0; }
main { max-width: 58rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 .4rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .2rem;
     border-bottom: 1px solid #d0d0d5; }
p.about { color: #444; margin: 0 0 1rem; }
nav { display: flex; flex-wrap: wrap; gap: .3rem .9rem; margin: .5rem 0 0; }
ul { list-style: none; margin: 0; padding: 0; }
li { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .1rem 1rem;
     padding: .45rem 0; border-bottom: 1px solid #eee; }
.what { flex: 1 1 22rem; min-width: 0; }
.path { display: block; color: #5f6368; font-size: .8rem; overflow-wrap: anywhere; }
.files { display: flex; flex-wrap: wrap; gap: .2rem .35rem; align-items: baseline; }
.files a { font-family: "DejaVu Sans Mono", monospace; font-size: .85rem;
           padding: .1rem .5rem; border: 1px solid #c8c8d0; border-radius: .3rem;
           text-decoration: none; color: #0b57d0; white-space: nowrap; }
.files a:hover, .files a:focus { background: #eef3fd; }
a { color: #0b57d0; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: .9em; }
"""


def _href(path: str) -> str:
    """A project-relative path as a link from ``reports/``."""
    parts = PurePosixPath(path).parts
    return "/".join(parts[1:]) if parts[0] == "reports" else "/".join(("..", *parts))


def index_page(paths: Sequence[str], *, engine: str) -> str:
    """The index of ``paths`` (project-relative, POSIX), grouped by section, in their order.

    Each item's files (the same path but for the extension) share one line; every
    path given is linked exactly once, the index itself is not listed.
    """
    items: dict[str, list[str]] = {}
    for path in paths:
        if path != INDEX:
            items.setdefault(str(PurePosixPath(path).with_suffix("")), []).append(path)
    by_section: dict[str, list[str]] = {s: [] for s in SECTIONS}
    for stem, files in items.items():
        section, what = kind_of(files[0])
        links = " ".join(f'<a href="{escape(_href(f))}">{escape(PurePosixPath(f).suffix[1:])}'
                         "</a>" for f in files)
        subject, colon, rest = what.partition(": ")
        said = (f"<b>{escape(subject)}</b>: {escape(rest)}" if colon else escape(what))
        by_section[section].append(
            f'<li><div class="what">{said}<code class="path">{escape(stem)}</code></div>'
            f'<span class="files">{links}</span></li>')
    shown = [s for s in SECTIONS if by_section[s]]
    nav = " ".join(f'<a href="#{_anchor(s)}">{escape(s)}</a>' for s in shown)
    body = [f'<h2 id="{_anchor(s)}">{escape(s)}</h2>\n<ul>\n' + "\n".join(by_section[s])
            + "\n</ul>" for s in shown]
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>bja: generated tables and reports</title>", f"<style>{_CSS}</style>",
        "</head>", "<body>", "<main>",
        "<h1>Generated tables and reports</h1>",
        f'<p class="about">Every file <code>bja build</code> writes ({escape(engine)}), '
        "a line each: exact figures unless marked simulated. The words are explained in "
        '<a href="../docs/glossary.md">docs/glossary.md</a>, the games and their rule '
        'readings in <a href="../docs/games.md">docs/games.md</a>.</p>',
        f"<nav>{nav}</nav>", *body, "</main>", "</body>", "</html>", ""])


def _anchor(section: str) -> str:
    return section.lower().replace(" ", "-")


__all__ = ["INDEX", "KINDS", "SECTIONS", "index_page", "kind_of"]
