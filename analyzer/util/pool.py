"""Independent tasks in worker processes, each result kept in the memo.

Shoe-state sweeps and a certificate's levels are many pure function calls
``fn(*args)``: :func:`run_all` serves each from :mod:`analyzer.util.memo` when
it can (one namespace per function, the arguments as the key) and computes the
rest in ``jobs`` processes (joblib's process pool, which needs no ``fork``).
Workers only compute; this process reads and writes the memo, so the pool works
the same with the cache disabled (``--no-cache``) or unusable.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar, cast

from analyzer.util.memo import Memo, pickled
from analyzer.util.progress import ProgressCallback, report

T = TypeVar("T")
Task = tuple[Callable[..., T], tuple[object, ...]]  # a module-level function, its arguments


def every_core() -> int:
    """The cores this process may use: the default number of processes everywhere."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_tasks(tasks: Sequence[Task[T]], *, jobs: int = 1) -> Iterator[T]:
    """``fn(*args)`` of every task, in order, in up to ``jobs`` worker processes."""
    if jobs <= 1 or len(tasks) <= 1:
        return (fn(*args) for fn, args in tasks)
    import joblib  # only when there is a pool to start

    parallel = joblib.Parallel(n_jobs=min(jobs, len(tasks)), return_as="generator")
    results: Iterator[T] = parallel(joblib.delayed(fn)(*args) for fn, args in tasks)
    return results


def task_memo(fn: Callable[..., object], *, enabled: bool = True) -> Memo[object]:
    """The memo of ``fn``'s results: its own namespace, pickled payloads."""
    return Memo(f"{fn.__module__}.{fn.__qualname__}", pickled(object), enabled=enabled)


def run_all(tasks: Iterable[Task[T]], *, jobs: int = 1, use_cache: bool = True,
            progress: ProgressCallback | None = None, stage: str = "tasks") -> list[T]:
    """Every task's result, in order: from the memo, else computed (``jobs`` processes)
    and kept as each one arrives (an interrupted run keeps what it finished).

    ``progress`` hears of each task done, as ``stage`` (those from the memo at once)."""
    todo = list(tasks)
    memos = {fn: task_memo(fn, enabled=use_cache) for fn, _ in todo}
    found: list[object | None] = [memos[fn].get(args) for fn, args in todo]
    missing = [i for i, value in enumerate(found) if value is None]
    done = len(todo) - len(missing)
    report(progress, stage, done, len(todo))
    for i, value in zip(missing, run_tasks([todo[i] for i in missing], jobs=jobs),
                        strict=True):
        fn, args = todo[i]
        memos[fn].put(args, value)
        found[i] = value
        done += 1
        report(progress, stage, done, len(todo))
    return [cast(T, value) for value in found]


__all__ = ["Task", "every_core", "run_all", "run_tasks", "task_memo"]
