"""Independent items computed in forked processes, this one included.

Why not :mod:`multiprocessing`: a whole 6-deck analysis takes about half a
second, and importing multiprocessing, its connections and a shared counter
cost a tenth of that before any work.  Plain ``os.fork`` and pipes do the same
here: the items to do are bytes in a *ticket* pipe, and every process (this one
and its children) reads one byte at a time -- a read of one byte from a pipe is
atomic, so each item is taken exactly once, by whichever process is free.
Children send ``(item, result)`` pairs back pickled.  A child that fails, or is
killed, simply sends fewer pairs: what is missing is the caller's to recompute,
so an error surfaces as it would in a serial run.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO

from analyzer.core.errors import InternalError


def available() -> bool:
    """Whether items may go to forked children from this process.

    Not where ``os.fork`` is missing (Windows), and not inside a daemon process of
    :mod:`multiprocessing` (a pool worker: its pool owns the cores and may end it
    at any moment).
    """
    mp = sys.modules.get("multiprocessing")
    return hasattr(os, "fork") and not (mp is not None and mp.current_process().daemon)


def in_forks(work: Callable[[int], Any], items: Sequence[int], jobs: int) -> dict[int, Any]:
    """``{item: work(item)}`` for the items children computed (this process computes too).

    ``items`` are small non-negative integers (below 256), taken in order.  What
    this process computes it keeps itself (``work`` is expected to memoise); the
    returned dict holds the children's results only.  Exceptions in this
    process's share are swallowed too: the caller recomputes what it lacks.
    """
    if any(not 0 <= item < 256 for item in items):
        raise InternalError("in_forks: items must be integers 0..255")
    tickets, ticket_end = os.pipe()
    os.write(ticket_end, bytes(items))  # a few bytes: never more than a pipe holds
    os.close(ticket_end)  # empty and closed: a read returns b"" and the work is done

    def claimed() -> Iterator[int]:
        while byte := os.read(tickets, 1):
            yield byte[0]

    children: list[tuple[int, BinaryIO]] = []  # (pid, read end of its results)
    try:
        for _ in range(min(jobs, len(items)) - 1):
            receive, send = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: compute, send, and leave without running exit handlers
                status = 0
                try:
                    os.close(receive)
                    with os.fdopen(send, "wb") as out:
                        for item in claimed():
                            pickle.dump((item, work(item)), out)
                            out.flush()
                except BaseException:  # noqa: BLE001 -- the parent recomputes what is missing
                    status = 1
                finally:
                    os._exit(status)
            os.close(send)
            children.append((pid, os.fdopen(receive, "rb")))
        with contextlib.suppress(Exception):  # recomputed by the caller, where it raises
            for item in claimed():
                work(item)
        results: dict[int, Any] = {}
        while children:
            pid, got = children[0]
            # a child that failed mid-write leaves a truncated stream: what came whole counts
            with contextlib.suppress(Exception):
                while True:
                    item, value = pickle.load(got)
                    results[item] = value
            got.close()
            os.waitpid(pid, 0)
            children.pop(0)
        return results
    finally:
        os.close(tickets)
        for pid, got in children:  # interrupted: stop the children still running, reap them
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
            got.close()
