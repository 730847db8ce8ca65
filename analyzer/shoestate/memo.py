"""Disk memo and process pool for shoe-state sweeps (joblib).

A sweep analyses hundreds of depleted shoes, each a pure function of (rules,
shoe, arithmetic, strategy) and of the engine's source.  Results are kept on
disk under ``$BJA_CACHE_DIR/shoestate`` (else ``~/.cache/bja/shoestate``),
keyed by those inputs *and* a fingerprint of the engine's source (``core``,
``engine``, ``crosscheck``; joblib adds the memoized function's own code), so a
rebuild serves them instantly and a changed engine never serves a stale figure,
while an edit to a report does not throw the analyses away.  Independent
analyses run in joblib worker processes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import joblib

T = TypeVar("T")


ENGINE_PACKAGES = ("core", "engine", "crosscheck")


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """SHA-256 of the source files an exact analysis runs through."""
    digest = hashlib.sha256()
    root = Path(__file__).parents[1]
    for package in ENGINE_PACKAGES:
        for path in sorted(p for p in (root / package).rglob("*") if p.suffix in (".py", ".c")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=4)
def _memory(folder: str) -> joblib.Memory:
    return joblib.Memory(location=folder, verbose=0)


def cache_folder() -> str:
    base = os.environ.get("BJA_CACHE_DIR") or str(Path.home() / ".cache" / "bja")
    return str(Path(base) / "shoestate")


def memoized(fn: Callable[..., T], *args: Any, use_cache: bool = True) -> T:
    """``fn(*args, fingerprint)`` served from the disk memo when possible.

    ``fn`` takes the engine fingerprint as its last argument (only part of the key).
    """
    if not use_cache:
        return fn(*args, "")
    cached = _memory(cache_folder()).cache(fn)
    result: T = cached(*args, engine_fingerprint())
    return result


def run_all(tasks: Iterable[tuple[Callable[..., T], tuple[Any, ...]]], *, jobs: int = 1,
            use_cache: bool = True) -> list[T]:
    """Run memoized ``(fn, args)`` tasks, in ``jobs`` worker processes, in order."""
    todo = list(tasks)
    if jobs <= 1 or len(todo) <= 1:
        return [memoized(fn, *args, use_cache=use_cache) for fn, args in todo]
    results: list[T] = joblib.Parallel(n_jobs=jobs)(
        joblib.delayed(_in_worker)(fn, args, use_cache, cache_folder()) for fn, args in todo)
    return results


def _in_worker(fn: Callable[..., T], args: tuple[Any, ...], use_cache: bool,
               folder: str) -> T:
    os.environ["BJA_CACHE_DIR"] = str(Path(folder).parent)  # the parent's memo folder
    return memoized(fn, *args, use_cache=use_cache)


__all__ = ["cache_folder", "engine_fingerprint", "memoized", "run_all"]
