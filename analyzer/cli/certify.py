"""``bja certify``: a game's certificate in Markdown, HTML, PDF and JSON.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass, which
the main CLI prints as one line before exiting with status 2.  Without
Chromium the Markdown, HTML and JSON are written and the missing PDF is that
one error line (exit 2).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

from analyzer.core.errors import UsageError
from analyzer.core.presets import PRESETS, game_base
from analyzer.core.rules import format_spec, parse_spec

__all__ = ["register", "run", "slug"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``certify`` to the main CLI."""
    p = sub.add_parser(
        "certify", help="a game's certificate: certificate.{md,html,pdf,json}",
        description="Write the certificate a test lab files for one game: rules and readings, "
                    "RTP by strategy level (exact), the distribution of a round (SD, hit "
                    "frequency, largest win and loss), insurance, dealer table, strategy "
                    "chart, side-bet par sheets, RTP as dealt under a cut card, the "
                    "simulation cross-check, hashes and the verification record.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help="a named game (see `bja rules list`)")
    which.add_argument("--rules", help='a rule spec, e.g. "6D S17 DOA DAS SPL3 LS"')
    p.add_argument("--out", type=Path, default=None,
                   help="folder (default reports/<game>/, or reports/<spec slug>/)")
    p.add_argument("--no-pdf", action="store_true", help="skip the PDF (no Chromium needed)")
    p.add_argument("--float", action="store_true",
                   help="RTP levels in float arithmetic (faster; no exact fractions)")
    p.add_argument("--rounds", type=float, default=None,
                   help="rounds of the simulation cross-check (default 2e7)")
    p.add_argument("--seed", type=int, default=None, help="seed of the cross-check")
    p.set_defaults(func=run)


def slug(spec: str) -> str:
    """A folder name for a rule spec: ``6D S17 BJ6:5`` -> ``6d-s17-bj6-5``."""
    return re.sub(r"[^a-z0-9]+", "-", spec.lower()).strip("-")


def _rounds(value: float | None) -> int | None:
    if value is None:
        return None
    if not value.is_integer() or not 1 <= value <= 10**10:
        raise UsageError(f"--rounds must be a whole number from 1 to 1e10, not {value:g}")
    return int(value)


def run(args: argparse.Namespace) -> int:
    from analyzer.report.certificate_files import write_certificate
    from analyzer.report.certificate_model import Settings, certify

    if args.game is not None:
        rules, name = game_base(args.game), args.game
    else:
        rules = parse_spec(args.rules)
        name = format_spec(rules)
    out = args.out or Path("reports") / (args.game or slug(name))
    settings = Settings(exact=not args.float)
    rounds = _rounds(args.rounds)
    if rounds is not None:
        settings = dataclasses.replace(settings, check_rounds=rounds)
    if args.seed is not None:
        settings = dataclasses.replace(settings, check_seed=args.seed)
    cert = certify(rules, name, PRESETS.get(name), settings,
                   progress=lambda msg: print(msg, file=sys.stderr))
    written = write_certificate(cert, out, pdf=False)
    print("\n".join(str(p) for p in written), flush=True)
    if not args.no_pdf:
        print(write_pdf(out), flush=True)
    return 0


def write_pdf(out: Path) -> Path:
    """Print ``out/certificate.html`` to ``out/certificate.pdf``."""
    from analyzer.report.certificate_files import print_pdf
    from analyzer.report.output import write_bytes_atomic

    path = out / "certificate.pdf"
    write_bytes_atomic(path, print_pdf(out / "certificate.html"))
    return path
