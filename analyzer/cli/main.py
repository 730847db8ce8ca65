"""``bja``: a thin command-line shell over the library.

Every command prints plain text, or JSON with ``--json``.  Bad input (an
unknown rule token, an impossible hand or shoe, a malformed file) prints one
line ``bja: error: ...`` and exits with status 2; nothing is written.  Ctrl-C
prints one line and exits 130; a reader that closes the pipe early (``| head``)
ends the command quietly.  Output goes out only once computed in full, and
files are written whole or not at all.

Each command group registers its arguments here without importing the engine:
the handlers import what they need when they run, so ``bja --help`` and
``bja rules list`` load neither numpy nor matplotlib, sympy or joblib.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from analyzer import __version__
from analyzer.cli import build as build_cmd
from analyzer.cli import (
    certify,
    chart,
    compare,
    distribution,
    game,
    rules,
    shoestate,
    sidebet,
    simulate,
)
from analyzer.core.errors import AnalyzerError, InternalError

EXIT_USAGE = 2  # bad input
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in the analyzer
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a C tool killed by a closed pipe


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 and a one-line message for usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"bja: error: {one_line(message)}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def one_line(message: str) -> str:
    """``message`` with control characters escaped, so an error is one line.

    A bad value is echoed back in the message; one holding a newline would
    otherwise split the error over two lines.

    >>> one_line("unrecognized arguments: -\\n")
    'unrecognized arguments: -\\\\n'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bja", description="Exact blackjack combinatorial analyzer")
    parser.add_argument("--version", action="version", version=f"bja {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for group in (game, rules, build_cmd, sidebet, chart, simulate, compare, distribution,
                  shoestate, certify):
        group.register(sub)
    return parser


def _write(out: object) -> None:
    """Print a handler's result: a str as is, anything else as indented JSON."""
    if isinstance(out, str):
        text = out if out.endswith("\n") else out + "\n"
    else:
        text = json.dumps(out, indent=2) + "\n"
    sys.stdout.write(text)
    sys.stdout.flush()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (captured by a test)
        pass
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bja``; returns the exit status (2 for bad input)."""
    try:
        args = build_parser().parse_args(argv)
        out = args.func(args)
        if isinstance(out, int):
            return out
        _write(out)
    except AnalyzerError as err:
        print(f"bja: error: {one_line(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    except InternalError as err:
        print(f"bja: internal error (a bug; please report it): {err}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("bja: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    return 0


__all__ = ["build_parser", "main"]
