"""Independent tasks in worker processes, each result kept in the memo.

Shoe-state sweeps and a certificate's levels are many pure function calls
``fn(*args)``: :func:`run_all` serves each from :mod:`analyzer.util.memo` when
it can (one namespace per function, the arguments as the key) and computes the
rest in ``jobs`` processes.  Workers only compute; this process reads and writes
the memo, so the pool works the same with the cache disabled (``--no-cache``) or
unusable.

The processes are forked where ``fork`` exists (:func:`can_fork`): a forked worker
has every module this process imported, where a spawned one (joblib's pool, the
fallback: Windows, or ``BJA_FORK=0``) imports them again -- together with importing
joblib itself, about half a second of a two-second ``bja counts``.  Forked workers
run one BLAS thread each (threadpoolctl): two processes starting a BLAS thread per
core wait for each other's matrix products (:mod:`analyzer.engine.forked`).

A long job that runs many sweeps (``bja build``) asks for :func:`warm_workers`
instead: joblib's reusable workers, started once, keep the caches they fill (a
game's dealer outcomes, its frozen strategy) from one sweep to the next, where
workers forked anew for each sweep would start from this process's, which never
computed them, and copy its memory, by then large.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar, cast

from analyzer.util.memo import Memo, pickled
from analyzer.util.progress import ProgressCallback, report

T = TypeVar("T")
Task = tuple[Callable[..., T], tuple[object, ...]]  # a module-level function, its arguments
FORK_ENV = "BJA_FORK"  # "0": never fork (spawned processes instead), as where fork is missing


def can_fork() -> bool:
    """Whether ``os.fork`` exists here and is not turned off (``BJA_FORK=0``)."""
    return hasattr(os, "fork") and os.environ.get(FORK_ENV, "1") != "0"


def available() -> bool:
    """Whether work may go to other processes from this one (forked, or spawned).

    Not inside a daemon process of :mod:`multiprocessing` (a pool worker: its pool
    owns the cores and may end it at any moment; a daemon may not have children).
    """
    mp = sys.modules.get("multiprocessing")
    return not (mp is not None and mp.current_process().daemon)


def every_core() -> int:
    """The cores this process may use: the default number of processes everywhere."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


_WARM: list[bool] = []  # inside warm_workers(): joblib's reusable workers


@contextlib.contextmanager
def warm_workers() -> Iterator[None]:
    """Within: tasks go to joblib's reusable workers, kept between calls (module doc)."""
    _WARM.append(True)
    try:
        yield
    finally:
        _WARM.pop()


def run_tasks(tasks: Sequence[Task[T]], *, jobs: int = 1) -> Iterator[T]:
    """``fn(*args)`` of every task, in order, in up to ``jobs`` worker processes."""
    if jobs <= 1 or len(tasks) <= 1:
        return (fn(*args) for fn, args in tasks)
    if can_fork() and available() and not _WARM:
        return _forked(tasks, min(jobs, len(tasks)))
    import joblib  # only when there is a pool to start

    parallel = joblib.Parallel(n_jobs=min(jobs, len(tasks)), return_as="generator",
                               initializer=_keeps_caches)
    results: Iterator[T] = parallel(joblib.delayed(fn)(*args) for fn, args in tasks)
    return results


def _keeps_caches() -> None:
    """Each joblib worker's first act: no memory-leak check.

    joblib's pool (loky) takes a worker whose memory has grown by 300 MB since its
    first task for a leak: it ends it, starts another and warns "A worker stopped
    while some jobs were given to the executor" (three times in a ``bja build``).  A
    reusable worker grows on purpose, by the caches it keeps for the next sweep, and
    the new worker would fill them again.  The figures do not depend on it either way.
    """
    from joblib.externals.loky import process_executor

    process_executor._MAX_MEMORY_LEAK_SIZE = sys.maxsize


def _forked(tasks: Sequence[Task[T]], jobs: int) -> Iterator[T]:
    """The tasks' results in order, from ``jobs`` forked worker processes (module doc).

    An error in a task is raised here at its turn, as in a serial run; interrupted or
    failed, the tasks not started are cancelled and the running ones awaited.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from threadpoolctl import threadpool_limits

    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))
    finished = False
    try:
        with threadpool_limits(limits=1, user_api="blas"):  # the workers fork at the first
            futures = [pool.submit(fn, *args) for fn, args in tasks]
        for future in futures:
            yield future.result()
        finished = True
    finally:
        pool.shutdown(wait=True, cancel_futures=not finished)


def task_memo(fn: Callable[..., object], *, enabled: bool = True) -> Memo[object]:
    """The memo of ``fn``'s results: its own namespace, pickled payloads."""
    return Memo(f"{fn.__module__}.{fn.__qualname__}", pickled(object), enabled=enabled)


Grouping = Callable[[list[Task[T]]], list[tuple[list[int], Task[Sequence[T]]]]]


def run_all(tasks: Iterable[Task[T]], *, jobs: int = 1, use_cache: bool = True,
            progress: ProgressCallback | None = None, stage: str = "tasks",
            together: Grouping[T] | None = None) -> list[T]:
    """Every task's result, in order: from the memo, else computed (``jobs`` processes)
    and kept as each one arrives (an interrupted run keeps what it finished).

    ``progress`` hears of each task done, as ``stage`` (those from the memo at once).
    ``together``, given the tasks the memo lacks, says how to compute them in groups, a
    process each: a group is its tasks' places in that list and one task returning their
    results in order (tasks that share work, such as a shoe's dealer rows, share it so).
    Each result is still kept under its own task, whatever the grouping."""
    todo = list(tasks)
    memos = {fn: task_memo(fn, enabled=use_cache) for fn, _ in todo}
    found: list[object | None] = [memos[fn].get(args) for fn, args in todo]
    missing = [i for i, value in enumerate(found) if value is None]
    done = len(todo) - len(missing)
    report(progress, stage, done, len(todo))
    lacking = [todo[i] for i in missing]
    groups = together(lacking) if together is not None else \
        [([k], (_alone, task)) for k, task in enumerate(lacking)]
    for (places, _), values in zip(groups, run_tasks([task for _, task in groups], jobs=jobs),
                                   strict=True):
        for k, value in zip(places, values, strict=True):
            fn, args = lacking[k]
            memos[fn].put(args, value)
            found[missing[k]] = value
            done += 1
        report(progress, stage, done, len(todo))
    return [cast(T, value) for value in found]


def _alone(fn: Callable[..., T], args: tuple[object, ...]) -> tuple[T]:
    """One task as a group of one."""
    return (fn(*args),)


__all__ = ["FORK_ENV", "Grouping", "Task", "available", "can_fork", "every_core", "run_all",
           "run_tasks", "task_memo", "warm_workers"]
