"""``bja build``: regenerate the committed tables and reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from analyzer.cli.options import add_progress, progress_bar


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``build`` to the main CLI."""
    p = sub.add_parser("build", help="regenerate tables/ and reports/")
    p.add_argument("--root", type=_folder, default=Path("."), help="project folder (default .)")
    add_progress(p)
    p.set_defaults(func=cmd_build)


def _folder(text: str) -> Path:
    """``--root``: a path, never the empty string (which would mean the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (give the project folder, . for here)")
    return Path(text)


def cmd_build(args: argparse.Namespace) -> str:
    """The build's steps as a bar with an ETA for the whole build on a terminal (or
    ``--progress``), else each step's name on a line of stderr (none with ``--quiet``)."""
    from analyzer.build import build

    with progress_bar(args) as bar:
        if bar is not None:
            written = build(args.root, stages=bar)
        else:
            written = build(args.root, progress=None if args.quiet else
                            lambda msg: print(msg, file=sys.stderr))
    return "\n".join(str(p) for p in written)


__all__ = ["register"]
