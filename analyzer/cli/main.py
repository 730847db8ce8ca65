"""``bja``: a thin command-line shell over the library.

Every command prints plain text, or JSON with ``--json``.  Bad input (an
unknown rule token, an impossible hand or shoe, a malformed file, a size past
its cap) prints one line ``bja: error: ...`` and exits with status 2; nothing
is written.  Output that cannot be written (a full disk, ``> /dev/full``) is
one such line too, status 2, as for a file named by ``--out``.  Ctrl-C prints
one line and exits 130, from the first instruction of the process
(:mod:`analyzer.cli.entry`); a reader that closes the pipe early (``| head``)
ends the command quietly with status 141.  Output goes out only once computed
in full, and files are written whole or not at all.

Each command group registers its arguments here without importing the engine:
the handlers import what they need when they run, so ``bja --help`` and
``bja rules list`` load neither numpy nor matplotlib, sympy or joblib.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from analyzer.cli import build as build_cmd
from analyzer.cli import (
    certify,
    chart,
    compare,
    distribution,
    game,
    rules,
    serve,
    shoestate,
    sidebet,
    simulate,
)
from analyzer.cli.entry import EXIT_INTERNAL, EXIT_INTERRUPTED
from analyzer.core.errors import (
    OUT_OF_MEMORY,
    AnalyzerError,
    ImpossibleError,
    InternalError,
    UsageError,
)
from analyzer.core.version import __version__
from analyzer.engine import kernel  # light: names the kernel path without loading it

EXIT_USAGE = 2  # bad input
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a C tool killed by a closed pipe
# Errors of a write to standard output (files named by --out are UsageErrors already).
OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO")
                          if hasattr(errno, name))


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 and a one-line message for usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"bja: error: {one_line(message)}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """``--help`` and ``--version``'s text; argparse's own drops a failed write (a
        full disk) and exits 0, here it is the output error every command gives."""
        if message:
            (file or sys.stderr).write(message)


class _RaisingParser(_Parser):
    """The parser of :func:`parse_argv`: a usage error raised, not printed (the web app's
    400 carries the same one line)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(one_line(message))

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        raise UsageError(one_line(message or "the command stopped before its work (--help)"))


MAX_MESSAGE = 300  # characters of an error line; a longer one keeps its start and its end


def one_line(message: str) -> str:
    """``message`` with control characters escaped, so an error is one line, and short.

    A bad value is echoed back in the message; one holding a newline would
    otherwise split the error over two lines, and one of thousands of
    characters (a 100 KB rule token) would bury the message: its middle is
    cut, so the line still starts by naming the value and ends with the hint.

    >>> one_line("unrecognized arguments: -\\n")
    'unrecognized arguments: -\\\\n'
    >>> line = one_line("unknown card '" + "9" * 5000 + "' (use A, 2-9, T)")
    >>> len(line) <= 300, line[:17], line[-20:], "…(4771 characters)…" in line
    (True, "unknown card '999", "999' (use A, 2-9, T)", True)
    """
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(line) <= MAX_MESSAGE:
        return line
    head, tail = 200, 60
    return f"{line[:head]} …({len(line) - head - tail} characters)… {line[-tail:]}"


def build_parser(parser_class: type[_Parser] = _Parser) -> argparse.ArgumentParser:
    parser = parser_class(prog="bja", description="Exact blackjack combinatorial analyzer")
    parser.add_argument("--version", action="version",
                        version=f"bja {__version__} (dealer kernel: {kernel.describe()})")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=parser_class)
    for group in (game, rules, build_cmd, sidebet, chart, simulate, compare, distribution,
                  shoestate, certify, serve):
        group.register(sub)
    return parser


def parse_argv(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` (without ``bja``) parsed and checked as ``bja`` does; a usage error raised as
    a :class:`UsageError` holding the CLI's one line (the web app's way in)."""
    return build_parser(_RaisingParser).parse_args(list(argv))


def output_text(out: object) -> str:
    """What ``bja`` prints for a handler's result: a str as is, anything else as indented
    JSON (one function, so the web app's ``/api`` answers the same bytes)."""
    if isinstance(out, str):
        return out if out.endswith("\n") else out + "\n"
    try:
        return json.dumps(out, indent=2, allow_nan=False) + "\n"
    except ValueError:  # NaN or infinity: not JSON, and not a figure
        raise ImpossibleError("a figure of this output is not a finite number (NaN or "
                              "infinity): no JSON is written for it") from None


class _Unwritable(UsageError):
    """Standard output cannot take the result (closed, read-only, a full disk...)."""


def _write(out: object) -> None:
    """Print a handler's result: a str as is, anything else as indented JSON."""
    text = output_text(out)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as err:  # EBADF, ENOSPC, EIO...; a closed stream
        raise _Unwritable(getattr(err, "strerror", None) or str(err)) from None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's), or None
        pass
    finally:
        os.close(devnull)


def _say(line: str) -> None:
    """One line on standard error, if it can take it: the status tells the rest."""
    if sys.stderr is None:  # started with standard error closed: print() would use stdout
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(line, file=sys.stderr)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; ``--help`` and ``--version`` print and stop here (``SystemExit``), and
    their text, flushed now, meets a full disk as every output does."""
    try:
        return build_parser().parse_args(argv)
    except SystemExit as stop:
        if stop.code == 0 and sys.stdout is not None:
            try:
                sys.stdout.flush()
            except (OSError, ValueError) as err:
                raise _Unwritable(getattr(err, "strerror", None) or str(err)) from None
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bja``; returns the exit status (2 for bad input)."""
    try:
        args = _parse(argv)
        kernel.requested()  # a bad BJA_KERNEL refused even where the memo has the answer
        if sys.stdout is None:  # started with fd 1 closed: every command's output, refused
            raise _Unwritable("standard output is closed")  # before any work
        out = args.func(args)
        if isinstance(out, int):
            return out
        _write(out)
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except _Unwritable as err:
        _quiet_stdout()  # standard output cannot take it: a full disk, /dev/full, closed
        _say(f"bja: error: cannot write the output: {one_line(str(err))}")
        return EXIT_USAGE
    except OSError as err:
        if err.errno not in OUTPUT_ERRNOS:
            raise
        _quiet_stdout()  # a handler's own write to standard output: a full disk, /dev/full
        _say(f"bja: error: cannot write the output: {err.strerror or err}")
        return EXIT_USAGE
    except AnalyzerError as err:
        _say(f"bja: error: {one_line(str(err))}")
        return EXIT_USAGE
    except MemoryError:  # an allocation refused past the checks of analyzer.util.memory
        _say(f"bja: error: {OUT_OF_MEMORY}")
        return EXIT_USAGE
    except InternalError as err:
        _say(f"bja: internal error (a bug; please report it): {err}")
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        _say("bja: interrupted")
        return EXIT_INTERRUPTED
    return 0


__all__ = ["build_parser", "main", "output_text", "parse_argv"]
