"""The ``bja`` console script and ``python -m analyzer``: Ctrl-C handled from the first instruction.

Building the parser imports every command group, and a command then imports
the engine (numpy, matplotlib...); Ctrl-C in that time used to end in a
``KeyboardInterrupt`` traceback from deep inside an import.  This module
imports nothing but a few standard modules, and the first instruction of
:func:`main` makes Ctrl-C print one line and exit 130 at once: nothing has
been computed or written yet, so there is nothing to clean up.  Once the
command runs, Ctrl-C raises ``KeyboardInterrupt`` again, so that temporary
files are removed and worker processes stopped on the way out
(:func:`analyzer.cli.main.main` catches it: the same line, status 130).  A
reader that closes the pipe early ends the command with status 141, quietly
(``BrokenPipeError``: Python ignores ``SIGPIPE``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in the analyzer
DEBUG_ENV = "BJA_DEBUG"  # "1": a bug's traceback on standard error
INTERRUPTED = b"bja: interrupted\n"


def _exit_interrupted(_signum: int, _frame: FrameType | None) -> None:
    """Before the command runs (or after it is done): say so in one line and exit now."""
    with contextlib.suppress(OSError):  # stderr closed: the status still says it
        os.write(2, INTERRUPTED)
    os._exit(EXIT_INTERRUPTED)


_SEEN: list[int] = []  # the Ctrl-Cs received while the command runs


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    """While the command runs: ``KeyboardInterrupt``, remembered.  Some C code turns it
    into another error (numpy, interrupted while it imports ``datetime`` through
    ``PyCapsule_Import``, raises ``ImportError``); :func:`main` still reads it as Ctrl-C."""
    _SEEN.append(signum)
    signal.default_int_handler(signum, frame)


def _bug(err: Exception) -> int:
    """An exception nothing expected: a bug of the analyzer.  One line and status 70, as
    for an :class:`~analyzer.core.errors.InternalError`; the traceback with ``BJA_DEBUG=1``
    (for the report)."""
    if os.environ.get(DEBUG_ENV) == "1":
        import traceback

        traceback.print_exception(err)
    text = " ".join(f"{type(err).__name__}: {err}".split())[:300]
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"bja: internal error (a bug; please report it, with the traceback "
                         f"{DEBUG_ENV}=1 prints): {text}\n")
    return EXIT_INTERNAL


def main() -> int:
    """Run ``bja`` with the process's arguments; the exit status.

    Only the entry points call this: importing the module changes no handler.
    """
    signal.signal(signal.SIGINT, _exit_interrupted)  # the first instruction of the command
    from analyzer.cli.main import main as run  # the parser and every command group

    try:
        signal.signal(signal.SIGINT, _raise_interrupted)
        return run()
    except KeyboardInterrupt:  # between the two lines above, or past run's own handler
        sys.stderr.write(INTERRUPTED.decode())
        return EXIT_INTERRUPTED
    except Exception as err:
        if _SEEN:
            sys.stderr.write(INTERRUPTED.decode())  # a Ctrl-C some C code reraised as an error
            return EXIT_INTERRUPTED
        return _bug(err)
    finally:
        signal.signal(signal.SIGINT, _exit_interrupted)  # the interpreter's shutdown


__all__ = ["main"]
