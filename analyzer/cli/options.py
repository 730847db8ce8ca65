"""Numeric command-line options, read through :mod:`analyzer.core.numbers` as they are parsed.

argparse's ``type=int`` echoes a 5,000-digit value whole and knows no bound;
these actions give one line naming the option, the value and its range,
before any work starts (the caps: :mod:`analyzer.core.limits`).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.core.errors import UsageError
from analyzer.core.limits import MAX_JOBS, MAX_SEED
from analyzer.core.numbers import parse_whole

if TYPE_CHECKING:
    from analyzer.util.progress import ProgressCallback


def whole(minimum: int, maximum: int) -> type[argparse.Action]:
    """An argparse ``action``: a whole number ``minimum..maximum``, ``1e9`` and ``2.5e6``
    too where the value is whole (every option reads numbers alike, as the web app does)."""

    class Whole(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: str | Sequence[Any] | None, option_string: str | None = None,
                     ) -> None:
            try:
                value = parse_whole(str(values), option_string or self.dest, UsageError,
                                    minimum=minimum, maximum=maximum, scientific=True)
            except UsageError as err:
                parser.error(str(err))  # one line, status 2
            setattr(namespace, self.dest, value)

    return Whole


def out_file(text: str) -> Path | None:
    """An argparse ``type`` for ``--out FILE``: ``-`` is stdout (None), as the option's
    default; any other text a path (a file literally named ``-`` is ``./-``)."""
    return None if text == "-" else Path(text)


def add_progress(p: argparse.ArgumentParser, *, quiet: bool = True) -> None:
    """``--progress`` and ``--quiet`` (or ``--no-progress``, the same): the progress bar on
    stderr (shown by default only when stderr is a terminal; never on stdout)."""
    p.add_argument("--progress", action="store_true",
                   help="show the progress bar on stderr even when it is not a terminal")
    if quiet:
        p.add_argument("--quiet", "--no-progress", dest="quiet", action="store_true",
                       help="no progress bar")


@contextlib.contextmanager
def progress_bar(args: argparse.Namespace) -> Iterator[ProgressCallback | None]:
    """The progress display the options ask for (None: none), closed at the end.

    A caller that set ``args.progress_callback`` (the web app's jobs) gets that one."""
    from analyzer.util.progress import terminal_bar

    given = getattr(args, "progress_callback", None)
    if given is not None:
        yield given
        return

    quiet = getattr(args, "quiet", False)
    bar = terminal_bar(True if getattr(args, "progress", False) and not quiet
                       else False if quiet else None)
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


JOBS = whole(1, MAX_JOBS)  # --jobs N: processes or threads
SEED = whole(0, MAX_SEED)  # --seed N

__all__ = ["JOBS", "SEED", "add_progress", "progress_bar", "whole"]
