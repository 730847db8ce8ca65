"""Background jobs: a bounded pool of worker threads, progress, cancellation.

Every computation of the server runs here, a request's too, one at a time
(:data:`ENGINE_LOCK`), so a flood of requests
queues at most ``queue`` jobs and is told 503 past that (:class:`QueueFull`).  A job
reports the library's :class:`~analyzer.api.Progress` values; cancelling a running
job makes its next progress report raise :class:`Cancelled`, which unwinds the
library's work the way Ctrl-C does (its worker processes stopped, nothing written).
Finished jobs are kept, the oldest dropped past ``keep``, so memory stays bounded.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from analyzer.api import Progress
from analyzer.core.errors import OUT_OF_MEMORY, AnalyzerError

# Every computation of the server holds this lock: jobs run one at a time per process and
# the pool's threads only queue, report and cancel.  The engine's shared caches are safe
# across threads (tests/test_threads.py); the lock keeps a server's memory and cores to
# one computation's share, and guards any process-wide state a future module may add.
ENGINE_LOCK = threading.Lock()


class QueueFull(Exception):
    """Every worker is busy and the queue holds its most: try again later (HTTP 503)."""


class Cancelled(BaseException):
    """Raised inside a cancelled job's progress report (a BaseException, so no ``except
    Exception`` of the library swallows it)."""


@dataclass
class Job:
    """One piece of work: its state, last progress report, and result or error line."""

    id: str
    command: str
    argv: tuple[str, ...]
    state: str = "queued"  # queued, running, done, failed, cancelled
    stage: str = ""
    done: int = 0
    total: int = 0
    result: str | None = None  # the command's JSON text
    error: str | None = None  # the one line of a failure
    folder: str | None = None  # a certificate's files
    created: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    future: Future[None] | None = None

    def report(self, progress: Progress) -> None:
        if self.cancel.is_set():
            raise Cancelled
        self.stage, self.done, self.total = progress.stage, progress.done, progress.total

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "command": self.command, "argv": list(self.argv),
                "state": self.state, "stage": self.stage, "done": self.done,
                "total": self.total, "error": self.error,
                "files": [] if self.folder is None or self.state != "done" else
                sorted(p.name for p in _files(self.folder))}


def _files(folder: str) -> list[Any]:
    from pathlib import Path

    return [p for p in Path(folder).iterdir() if p.is_file() and not p.is_symlink()]


class JobPool:
    """``workers`` threads; at most ``queue`` jobs waiting or running; ``keep`` kept."""

    def __init__(self, workers: int = 2, queue: int = 16, keep: int = 64) -> None:
        self.workers, self.queue, self.keep = workers, queue, keep
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bja-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._root: str | None = None  # made by the first job with files, so an app that
        # never writes one (or is never shut down, as under a bare ASGI transport) leaves
        # no folder behind

    def active(self) -> int:
        with self._lock:
            return sum(j.state in ("queued", "running") for j in self._jobs.values())

    def submit(self, command: str, argv: tuple[str, ...],
               work: Callable[[Job], str | None], *, files: bool = False) -> Job:
        """Queue ``work(job)`` (its return: the JSON text); :class:`QueueFull` when full."""
        with self._lock:
            if sum(j.state in ("queued", "running") for j in self._jobs.values()) >= self.queue:
                raise QueueFull
            job = Job(uuid.uuid4().hex, command, argv)
            if files:
                if self._root is None:
                    self._root = tempfile.mkdtemp(prefix="bja-web-")
                job.folder = tempfile.mkdtemp(prefix=f"{command}-", dir=self._root)
            self._jobs[job.id] = job
            self._trim()
            job.future = self._executor.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Job], str | None]) -> None:
        with ENGINE_LOCK:
            self._run_alone(job, work)

    def _run_alone(self, job: Job, work: Callable[[Job], str | None]) -> None:
        with self._lock:  # against cancel(): a job is cancelled or running, never both
            if job.cancel.is_set():
                job.state = "cancelled"
                return
            job.state = "running"
        try:
            job.result = work(job)
            job.state = "done"
        except Cancelled:
            job.state = "cancelled"
        except KeyboardInterrupt:  # the library's workers stopped by a cancel report
            job.state = "cancelled" if job.cancel.is_set() else "failed"
            job.error = None if job.cancel.is_set() else "interrupted"
        except AnalyzerError as err:
            job.error, job.state = _line(str(err)), "failed"
        except MemoryError:  # an allocation refused past analyzer.util.memory's checks
            job.error, job.state = _line(OUT_OF_MEMORY), "failed"
        except Exception as err:  # a bug: said, never a silent figure
            job.error, job.state = _line(f"internal error (a bug): {type(err).__name__}: "
                                         f"{err}"), "failed"

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Cancel a job: a queued one at once (also one whose thread waits for the engine),
        a running one at its next progress report."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and job.state in ("queued", "running"):
                job.cancel.set()
                if job.future is not None:
                    job.future.cancel()
                if job.state == "queued":
                    job.state = "cancelled"
        return job

    def _trim(self) -> None:
        """Drop the oldest finished jobs (and their files) past ``keep``."""
        finished = [j for j in self._jobs.values() if j.state not in ("queued", "running")]
        for job in finished[:max(0, len(self._jobs) - self.keep)]:
            del self._jobs[job.id]
            if job.folder is not None:
                shutil.rmtree(job.folder, ignore_errors=True)

    def close(self) -> None:
        for job in list(self._jobs.values()):
            job.cancel.set()
            if job.future is not None and job.future.cancel():
                job.state = "cancelled"
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)


class Answers:
    """The last answers of ``/api`` requests, by their argv: a repeated request is free.

    Bounded in entries and bytes (the oldest go first), so memory stays bounded however
    many requests come; only the event loop's thread touches it.  Only requests whose
    answer is a function of their argv are kept (:func:`analyzer.web.commands.repeatable`).
    """

    def __init__(self, entries: int = 256, chars: int = 32 * 1024 * 1024) -> None:
        self.entries, self.chars = entries, chars
        self._kept: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[str, ...]) -> str | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: tuple[str, ...], text: str) -> None:
        if not self.entries or len(text) > self.chars // 4 or key in self._kept:
            return
        self._kept[key] = text
        self._size += len(text)
        while len(self._kept) > self.entries or self._size > self.chars:
            _old, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped)


def _line(message: str) -> str:
    from analyzer.cli.main import one_line

    return one_line(message)


__all__ = ["ENGINE_LOCK", "Answers", "Cancelled", "Job", "JobPool", "QueueFull"]
