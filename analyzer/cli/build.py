"""``bja build``: regenerate the committed tables and reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``build`` to the main CLI."""
    p = sub.add_parser("build", help="regenerate tables/ and reports/")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default .)")
    p.set_defaults(func=cmd_build)


def cmd_build(args: argparse.Namespace) -> str:
    from analyzer.report.build import build

    written = build(args.root, progress=lambda msg: print(msg, file=sys.stderr))
    return "\n".join(str(p) for p in written)


__all__ = ["register"]
