"""Independent items computed in other processes, this one included.

Why not :mod:`multiprocessing` where ``fork`` exists: a whole 6-deck analysis is
short, and importing multiprocessing, its connections and a shared counter
costs a good part of it before any work.  Plain ``os.fork`` and pipes do the same
here: the items to do are bytes in a *ticket* pipe, and every process (this one
and its children) reads one byte at a time -- a read of one byte from a pipe is
atomic, so each item is taken exactly once, by whichever process is free.
Children send ``(item, result)`` pairs back pickled.  A child that fails, or is
killed, simply sends fewer pairs: what is missing is the caller's to recompute,
so an error surfaces as it would in a serial run.

Where ``os.fork`` is missing (Windows), or ``BJA_FORK=0`` forbids it, a pool of
*spawned* processes (:class:`concurrent.futures.ProcessPoolExecutor`) takes the
children's place: ``work`` goes to each worker once, pickled (a bound method of
an analysis carries the rules and the shoe it needs), and each worker computes
the items it takes from scratch -- the same code on the same inputs, so the same
bits.  A ``work`` that does not pickle (a closure) runs here alone, serially:
nothing else could run it.

One BLAS thread per process while items run (:mod:`threadpoolctl`, set before the
fork, so children inherit it; spawned workers set it themselves).  numpy's OpenBLAS
otherwise starts a thread per core in *every* process, and with two processes on two
cores their matrix products wait for each other: the items ran slower in parallel
than one process alone.

Ctrl-C.  SIGINT is blocked while a child is forked and registered, so a signal
cannot land between the fork and the bookkeeping (a child nobody stops) nor in
an interpreter at-fork hook, where an exception is printed and dropped.
Children restore the default action (a Ctrl-C to the process group ends them
at once; the parent reaps them).  While items run, a handler records any SIGINT
before raising :exc:`KeyboardInterrupt`, and :func:`in_forks` raises it again
at the end if anything on the way swallowed it: an interrupted run never
completes as if nothing happened.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, BinaryIO

from analyzer.core.errors import InternalError
from analyzer.util.pool import can_fork

MARK_ENV = "BJA_TEST_MARK_CHILDREN"  # tests: a line on stderr once the children run
MARK = "bja-test: children running\n"


def in_forks(work: Callable[[int], Any], items: Sequence[int], jobs: int,
             on_done: Callable[[int], None] | None = None) -> dict[int, Any]:
    """``{item: work(item)}`` for the items other processes computed (this one computes too).

    ``items`` are small non-negative integers (below 256), taken in order.  What
    this process computes it keeps itself (``work`` is expected to memoise); the
    returned dict holds the other processes' results only.  ``on_done(item)`` is called
    here as each item is finished, by this process or as another's result arrives
    (a progress display).  An ``Exception`` in
    this process's share is left for the caller to meet again when it recomputes
    the item; a :exc:`KeyboardInterrupt` (any ``BaseException``) is never held back.
    """
    if any(not 0 <= item < 256 for item in items):
        raise InternalError("in_forks: items must be integers 0..255")
    others = min(jobs, len(items)) - 1
    if others < 1:
        return {}
    from threadpoolctl import threadpool_limits  # (only when there are processes to share)

    with _interrupts() as interrupted, threadpool_limits(limits=1, user_api="blas"):
        done = on_done or (lambda _item: None)
        results = (_forked if can_fork() else _spawned)(work, items, others, done)
        if interrupted:  # a SIGINT that something on the way swallowed
            raise KeyboardInterrupt
        return results


@contextlib.contextmanager
def _interrupts() -> Iterator[list[int]]:
    """Record every SIGINT (then raise as Python does) while the items run.

    The list yielded gains an entry per SIGINT.  Only in the main thread and only
    where Python's own handler is installed (a SIGINT that is ignored, or handled
    by the embedding program, is left alone).
    """
    seen: list[int] = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield seen
        return

    def record(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, record)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back (where the platform can); delivered when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _mark() -> None:
    if os.environ.get(MARK_ENV):
        os.write(2, MARK.encode())


def _forked(work: Callable[[int], Any], items: Sequence[int], others: int,
            done: Callable[[int], None]) -> dict[int, Any]:
    tickets, ticket_end = os.pipe()
    os.write(ticket_end, bytes(items))  # a few bytes: never more than a pipe holds
    os.close(ticket_end)  # empty and closed: a read returns b"" and the work is done

    def claimed() -> Iterator[int]:
        while byte := os.read(tickets, 1):
            yield byte[0]

    children: list[tuple[int, BinaryIO]] = []  # (pid, read end of its results)
    try:
        for _ in range(others):
            receive, send = os.pipe()
            with _sigint_blocked():  # fork and bookkeeping as one step for a SIGINT
                pid = os.fork()
                if pid == 0:  # the child: compute, send, leave without running exit handlers
                    status = 0
                    try:
                        signal.signal(signal.SIGINT, signal.SIG_DFL)
                        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
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
        _mark()
        for item in claimed():
            with contextlib.suppress(Exception):  # recomputed by the caller, where it raises
                work(item)
                done(item)
        results: dict[int, Any] = {}
        while children:
            pid, got = children[0]
            # a child that failed mid-write leaves a truncated stream: what came whole counts
            with contextlib.suppress(Exception):
                while True:
                    item, value = pickle.load(got)
                    results[item] = value
                    done(item)
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


# -- without fork: a pool of spawned processes ---------------------------------------------
_WORK: list[Callable[[int], Any]] = []  # in a spawned worker: the work, unpickled once


def _install(payload: bytes) -> None:
    import numpy  # noqa: F401 -- its BLAS loaded, to be limited
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")  # for the worker's life (module doc)
    _WORK[:] = [pickle.loads(payload)]


def _run(item: int) -> Any:
    return _WORK[0](item)


def _spawned(work: Callable[[int], Any], items: Sequence[int], others: int,
             done: Callable[[int], None]) -> dict[int, Any]:
    """The fork path's contract with ``others`` spawned workers in place of children.

    One thread here per worker takes the next item, hands it over and waits, so
    items go to whichever process is free, in order, as with the ticket pipe.
    """
    try:
        payload = pickle.dumps(work)
    except Exception:  # noqa: BLE001 -- a closure: no other process can run it
        return {}
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    todo = deque(items)
    lock = threading.Lock()
    results: dict[int, Any] = {}
    stop = threading.Event()

    def take() -> int | None:
        with lock:
            return todo.popleft() if todo and not stop.is_set() else None

    pool = ProcessPoolExecutor(others, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_install, initargs=(payload,))

    def feed() -> None:
        while (item := take()) is not None:
            try:
                results[item] = pool.submit(_run, item).result()
                with lock:
                    done(item)
            except Exception:  # noqa: BLE001 -- a worker failed: the caller recomputes
                return

    feeders = [threading.Thread(target=feed, daemon=True) for _ in range(others)]
    try:
        for feeder in feeders:
            feeder.start()
        _mark()
        while (item := take()) is not None:
            with contextlib.suppress(Exception):  # recomputed by the caller, where it raises
                work(item)
                with lock:
                    done(item)
        for feeder in feeders:
            feeder.join()
        return dict(results)
    finally:
        stop.set()
        if any(feeder.is_alive() for feeder in feeders):  # interrupted: end the workers
            for process in list(pool._processes.values()):
                with contextlib.suppress(Exception):
                    process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
