"""Progress of long work: one small value, reported through an optional callback.

The library reports how far a long computation has gone as :class:`Progress`
values (the stage being computed, items done, items in the stage) to a
``progress`` callback; ``None`` reports nothing.  A notebook or a web page
shows them as it likes; the CLI draws them as a tqdm bar on stderr
(:func:`terminal_bar`), never on stdout, so ``--json`` output stays clean.

>>> seen = []
>>> tick = stepper(seen.append, "upcards", 2)
>>> tick(); tick()
>>> seen
[Progress(stage='upcards', done=0, total=2), Progress(stage='upcards', done=1, total=2), \
Progress(stage='upcards', done=2, total=2)]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Progress:
    """How far a stage of the work has gone: ``done`` of ``total`` items of ``stage``."""

    stage: str
    done: int
    total: int


ProgressCallback = Callable[[Progress], None]


def report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    """Call ``progress`` with ``Progress(stage, done, total)``, if there is a callback."""
    if progress is not None:
        progress(Progress(stage, done, total))


def stepper(progress: ProgressCallback | None, stage: str, total: int) -> Callable[[], None]:
    """Report ``stage`` at 0 of ``total`` now; the function returned reports one more done."""
    done = 0
    report(progress, stage, 0, total)

    def tick() -> None:
        nonlocal done
        done = min(done + 1, total)
        report(progress, stage, done, total)

    return tick


def scaled(progress: ProgressCallback | None, stage: str,
           scale: int) -> ProgressCallback | None:
    """A callback that reports a nested stage's fraction as ``scale`` steps of ``stage``."""
    if progress is None:
        return None
    outer = progress

    def inner(p: Progress) -> None:
        outer(Progress(f"{stage}: {p.stage}", p.done * scale // max(p.total, 1), scale))

    return inner


class TerminalBar:
    """A tqdm bar on ``stream`` (stderr), one per stage, with the stage named and an ETA.

    A callable :data:`ProgressCallback`.  ``close()`` clears the last bar.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._bar: object | None = None
        self._stage: str | None = None
        try:  # a terminal that says it has no size (a bare pseudo-terminal): 80 x 24
            size = os.get_terminal_size(self.stream.fileno())
        except (AttributeError, OSError, ValueError):
            size = os.terminal_size((0, 0))
        self._ncols = None if size.columns else 80
        self._nrows = None if size.lines else 24

    def __call__(self, p: Progress) -> None:
        from tqdm import tqdm

        if p.stage != self._stage or self._bar is None:
            self.close()
            self._stage = p.stage
            self._bar = tqdm(total=p.total, desc=p.stage, file=self.stream, leave=False,
                             dynamic_ncols=self._ncols is None, ncols=self._ncols,
                             nrows=self._nrows, mininterval=0.2)
        bar = self._bar
        assert isinstance(bar, tqdm)
        if p.total != bar.total:
            bar.total = p.total
        if p.done > bar.n:
            bar.update(p.done - bar.n)

    def close(self) -> None:
        """Close the current bar (erased from the terminal: only the output stays)."""
        if self._bar is not None:
            self._bar.close()  # type: ignore[attr-defined]
            self._bar = None


class StageLines:
    """A progress callback that writes each new stage's name on a line of ``stream``
    (the display where a bar cannot be drawn: stderr is a file or a pipe).  A part of
    the stage last written (its name followed by `` (part)``) adds no line."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._stage: str | None = None

    def __call__(self, p: Progress) -> None:
        if self._stage is not None and (p.stage == self._stage
                                        or p.stage.startswith(f"{self._stage} (")):
            return
        self._stage = p.stage
        print(p.stage, file=self.stream, flush=True)


def terminal_bar(mode: bool | None, stream: TextIO | None = None) -> TerminalBar | None:
    """The CLI's progress display: ``mode`` True (``--progress``) always, False
    (``--quiet``) never, None when ``stream`` (stderr) is a terminal."""
    stream = stream if stream is not None else sys.stderr
    if mode is None:
        try:
            mode = stream.isatty()
        except (AttributeError, ValueError):  # closed or not a file
            mode = False
    return TerminalBar(stream) if mode else None


__all__ = ["Progress", "ProgressCallback", "StageLines", "TerminalBar", "report", "scaled",
           "stepper", "terminal_bar"]
