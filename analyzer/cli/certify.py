"""``bja certify``: a game's certificate in Markdown, HTML, PDF and JSON.

Bad input raises an :class:`~analyzer.core.errors.AnalyzerError` subclass, which
the main CLI prints as one line before exiting with status 2.  The files are
written as one set, in place of the folder's old ones (which may be nothing
else: checked before the work).  Without Chromium the Markdown, HTML and JSON
are written and the missing PDF is that one error line (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from analyzer.cli.options import SEED, add_progress, progress_bar, whole
from analyzer.core.errors import UsageError
from analyzer.core.limits import MAX_CHECK_ROUNDS, MIN_CHECK_ROUNDS

__all__ = ["certificate", "register", "run", "slug"]


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``certify`` to the main CLI."""
    p = sub.add_parser(
        "certify", help="a game's certificate: certificate.{md,html,pdf,json}",
        description="Write the certificate a test lab files for one game: rules and readings, "
                    "RTP by strategy level (exact), the distribution of a round (SD, hit "
                    "frequency, largest win and loss), insurance, dealer table, strategy "
                    "chart, side-bet par sheets, RTP as dealt under a cut card, the "
                    "simulation cross-check, hashes and the verification record.")
    p.add_argument("--game", default=None, metavar="NAME",
                   help="a named game (see `bja rules list`; --rules tokens apply on top)")
    p.add_argument("--rules", default="",
                   help='a rule spec, e.g. "6D S17 DOA DAS SPL3 LS" (or a game name and '
                        'tokens, "charlie7 6D")')
    p.add_argument("--out", type=Path, default=None,
                   help="folder (default reports/<game>/, or reports/<spec slug>/)")
    p.add_argument("--no-pdf", action="store_true", help="skip the PDF (no Chromium needed)")
    p.add_argument("--float", action="store_true",
                   help="RTP levels in float arithmetic (faster; no exact fractions)")
    p.add_argument("--rounds", action=whole(MIN_CHECK_ROUNDS, MAX_CHECK_ROUNDS), default=None,
                   help="rounds of the simulation cross-check (default 2e7; 1e3 to 1e10)")
    p.add_argument("--seed", action=SEED, default=None, help="seed of the cross-check")
    p.add_argument("--meta", type=Path, default=None, metavar="FILE.toml",
                   help="the submission's particulars (lab, manufacturer, game name as "
                        "marketed, submission reference, jurisdiction, dates, mathematician, "
                        "reviewer) for the cover and sign-off blocks")
    add_progress(p)
    p.set_defaults(func=run)


def slug(spec: str) -> str:
    """A folder name for a rule spec: ``6D S17 BJ6:5`` -> ``6d-s17-bj6-5``."""
    from analyzer.api.studies import slug as api_slug

    return api_slug(spec)


def run(args: argparse.Namespace) -> int:
    with progress_bar(args) as bar:
        result = certificate(args, args.out, bar or _stage_lines(args))
    print("\n".join(str(p) for p in result.written), flush=True)
    if result.no_pdf is not None:
        raise UsageError(result.no_pdf)
    return 0


def certificate(args: argparse.Namespace, out: Path | None, progress: Any) -> Any:
    """The certificate the parsed arguments ask for, written to ``out`` (default
    reports/<game>/); the web app's jobs call this with a folder of their own."""
    from analyzer.api import certify
    from analyzer.api.games import cli_game
    from analyzer.api.studies import certificate_folder

    game = cli_game(args.game, args.rules)
    if not game.strip():
        raise UsageError("which game? give --game NAME or --rules SPEC")
    folder = out or certificate_folder(game)
    return certify(game, out=folder, pdf=not args.no_pdf, exact=not args.float,
                   rounds=args.rounds, seed=args.seed, meta=args.meta, progress=progress)


def _stage_lines(args: argparse.Namespace) -> Any:
    """Without a bar (stderr not a terminal): each stage's name on a line, as it starts."""
    if args.quiet:
        return None
    from analyzer.util.progress import StageLines

    return StageLines(sys.stderr)
