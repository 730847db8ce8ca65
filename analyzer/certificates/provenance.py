"""Where a certificate's figures come from: engine version, hashes, and the verification record.

A test lab files a certificate with the exact code that produced it.  The
hashes here let anyone check that: the SHA-256 of the canonical rule spec
(UTF-8, no newline) and of every source file of the package, listed as
``sha256sum`` prints them (``<hex>  <path>``, paths relative to the package
folder, sorted by byte order), and the SHA-256 of that list, so that

    cd analyzer && find . -name '*.py' -o -name '*.toml' -o -name '*.c' | sed 's|^\\./||' \\
        | LC_ALL=C sort | xargs sha256sum | sha256sum

prints the certificate's source hash for the same code.

The verification record names the independent references the engine is tested
against and the test files that hold each comparison (a test checks that every
file named here exists and cites its reference).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from analyzer.core.rules import Rules, format_spec
from analyzer.core.version import ENGINE

SOURCE_SUFFIXES = (".py", ".toml", ".c")  # .c: the compiled dealer kernel


@dataclass(frozen=True)
class Reference:
    """One independent reference, what it checks, and the tests that compare against it."""

    source: str  # who or what produced the reference figures
    checks: str  # which of the engine's figures it pins, and to what precision
    tests: tuple[str, ...]  # test files (relative to the project folder) holding the comparison
    cite: str  # a word every one of those files contains (checked by the tests)


VERIFICATION: tuple[Reference, ...] = (
    Reference("Eric Farmer, Blackjack Basic Strategy Calculator v7.6 (C++)",
              "CDZ- EV of the round, by upcard, of every two-card hand and split, dealer "
              "probabilities: to the printed 9 decimals of a percentage",
              ("tests/test_farmer_reference.py",), "Farmer"),
    Reference("Eric Farmer's analyzer, post-split levels",
              "CDP1 and CDP EVs of the round, by upcard and of every split, on several "
              "rule sets: to the printed 9 decimals of a percentage",
              ("tests/test_farmer_postsplit.py", "tests/test_farmer_runs.py"), "Farmer"),
    Reference("Eric Farmer's analyzer, outcome distribution (blackjack_pdf)",
              "every probability of a round's net result and the SD, no-resplit CDZ- games: "
              "to the last printed digit",
              ("tests/test_distribution.py",), "Farmer"),
    Reference("Eric Farmer's analyzer on one-card-removed shoes",
              "effects of removal: to the printed 9 decimals of a percentage",
              ("tests/test_shoestate_eor.py",), "Farmer"),
    Reference("Eric Farmer's CD strategy table",
              "the derived basic chart against his composition-dependent decisions",
              ("tests/test_charts_engine.py",), "Farmer"),
    Reference("independent brute-force enumerator of whole rounds (tests/oracle.py)",
              "exact fractions on small shoes: dealer, every action EV, EV by upcard and of "
              "the round, splits and resplits, every seed-game rule",
              ("tests/test_oracle_agreement.py", "tests/test_oracle_seed_rules.py"), "oracle"),
    Reference("independent distribution enumerator (tests/oracle_distribution.py)",
              "the distribution of a round's net result as exact fractions on small shoes, "
              "resplits and the seed rules included",
              ("tests/test_distribution.py",), "oracle"),
    Reference("exact whole-round split enumerator (analyzer/oracle/exact_splits.py)",
              "Farmer's split algorithm equals the card-by-card split EV, exactly",
              ("tests/test_split_exactness.py", "tests/test_exact_splits.py"), "exact"),
    Reference("brute-force enumerator with full card memory (tests/oracle_split_memory.py)",
              "optimal splitting, exact fractions on small shoes",
              ("tests/test_optimal_split.py",), "oracle"),
    Reference("Hoppe's published table of rule effects",
              "the cost of each rule change: to 0.001 percentage points",
              ("tests/test_compare_reference.py",), "Hoppe"),
    Reference("independent side-bet enumerator over ordered deals of physical cards "
              "(tests/sidebet_oracle.py)",
              "every side-bet event count and RTP, exactly, on 1-2 decks and depleted shoes",
              ("tests/test_sidebets_oracle.py",), "oracle"),
    Reference("Wizard of Odds' published 21+3 counts; Buster Blackjack bust-by-cards figures",
              "21+3 event counts (6 decks) exactly; Bust It dealer figures",
              ("tests/test_sidebets.py",), "Wizard"),
    Reference("the compiled Monte Carlo simulator (analyzer/sim), sharing only "
              "the strategy tables with the engine",
              "every rule's settlement on stacked decks; the exact EV within 4 standard errors",
              ("tests/test_sim_crosscheck.py", "tests/test_simulate.py"), "exact"),
    Reference("invariants of the engine",
              "dealer distributions sum to 1 exactly; float and exact arithmetic agree",
              ("tests/test_engine_invariants.py",), "exact"),
    Reference("the one-card-removed identity",
              "for a fixed strategy, the average EV over one-card-removed shoes equals the "
              "full-shoe EV (every state's bookkeeping, splits included)",
              ("tests/test_one_card_removed.py",), "removed"),
    Reference("the seed games' figures pinned perft-style (tests/reference/seed-games.txt)",
              "exact RTP fractions of the four seed games and their side bets",
              ("tests/test_seed_figures.py",), "exact"),
)


@dataclass(frozen=True)
class Provenance:
    """Engine version and the hashes that tie a certificate to its rules and code."""

    engine: str
    spec: str
    rules_sha256: str
    source_sha256: str
    source_files: tuple[tuple[str, str], ...]  # (path relative to the package, sha256)

    @property
    def manifest(self) -> str:
        """The file list as ``sha256sum`` prints it; its SHA-256 is ``source_sha256``."""
        return "".join(f"{digest}  {path}\n" for path, digest in self.source_files)


def source_files(root: Path) -> tuple[tuple[str, str], ...]:
    """Every source file under ``root`` (``.py``, ``.toml``, ``.c``), by byte order, hashed."""
    found = [p for p in root.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES
             and "__pycache__" not in p.parts]
    rel = sorted((p.relative_to(root).as_posix() for p in found), key=lambda s: s.encode())
    return tuple((name, hashlib.sha256((root / name).read_bytes()).hexdigest()) for name in rel)


def provenance(rules: Rules, root: Path | None = None) -> Provenance:
    """Hash the canonical spec of ``rules`` and the package's source (``root``: the package)."""
    root = root if root is not None else Path(__file__).resolve().parents[1]
    spec = format_spec(rules)
    files = source_files(root)
    manifest = "".join(f"{digest}  {path}\n" for path, digest in files)
    return Provenance(engine=ENGINE, spec=spec,
                      rules_sha256=hashlib.sha256(spec.encode()).hexdigest(),
                      source_sha256=hashlib.sha256(manifest.encode()).hexdigest(),
                      source_files=files)


__all__ = ["VERIFICATION", "Provenance", "Reference", "provenance", "source_files"]
