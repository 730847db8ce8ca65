"""Compute the figures of many rule sets: memo first, then in parallel.

Variants are independent, so the rule sets the memo does not hold are sent to
joblib workers (processes on this machine, or a Dask distributed cluster through
joblib's Dask backend).  Workers only compute; the parent reads and writes the
memo, so a remote cluster needs no shared disk.  Every figure comes from the
same engine calls as ``bja ev`` and ``bja chart``, so a row equals the separate
command bit for bit whichever backend ran it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.compare import worker
from analyzer.compare.memo import Memo
from analyzer.compare.model import Figures
from analyzer.core.errors import UsageError
from analyzer.core.levels import SPLIT_LEVELS
from analyzer.core.rules import parse_spec

BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class RunOptions:
    """How to compute: arithmetic, columns, parallelism, memo, progress."""

    exact: bool = False
    charts: bool = True
    jobs: int | None = None  # None: every core
    backend: str = "loky"
    scheduler: str | None = None  # Dask scheduler address (backend "dask")
    use_cache: bool = True
    progress: bool = True  # a bar on stderr when the work takes over a second
    shoe: str | None = None  # one shoe for every rule set (library use); None: full decks
    split: str = "cdz"  # the level of split play of the EV column (analyzer.core.levels)
    levels: bool = False  # also a column per other level: CDZ-, CDP1, CDP

    def __post_init__(self) -> None:
        if self.split not in SPLIT_LEVELS:
            raise UsageError(f"unknown split level {self.split!r} for a comparison "
                             f"(use {', '.join(SPLIT_LEVELS)})")

    def kind(self, level: str) -> str:
        """The memo/worker kind of the EV at ``level``: "float", "exact:cdp1"..."""
        arithmetic = "exact" if self.exact else "float"
        return arithmetic if level == "cdz" else f"{arithmetic}:{level}"

    @property
    def level_columns(self) -> tuple[str, ...]:
        """The levels shown as extra columns (``levels``): every other one but optimal."""
        if not self.levels:
            return ()
        return tuple(v for v in ("cdz", "cdp1", "cdp") if v != self.split)


def _kinds(options: RunOptions) -> tuple[str, ...]:
    kinds = [options.kind(options.split)] + (["chart"] if options.charts else [])
    return tuple(kinds + [options.kind(v) for v in options.level_columns])


def _number(data: dict[str, Any]) -> tuple[float, Fraction | None]:
    """A level's figure as stored: (float, exact fraction or None)."""
    if "ev_exact" in data:
        exact = Fraction(data["ev_exact"])
        return float(exact), exact
    return float(data["ev"]), None


def _figures(found: dict[str, dict[str, Any]], options: RunOptions) -> Figures | str:
    if "error" in found:
        return str(found["error"]["error"])
    main = found[options.kind(options.split)]
    if "error" in main:  # the chosen level is refused for this rule set
        return str(main["error"])
    ev, ev_exact = _number(main)
    extra, extra_exact = [], []
    for level in options.level_columns:
        data = found[options.kind(level)]
        if "error" not in data:
            value, value_exact = _number(data)
            extra.append((f"{level}_ev", value))
            if value_exact is not None:
                extra_exact.append((f"{level}_ev", value_exact))
    return Figures(ev=ev, ev_exact=ev_exact, chart_ev=found.get("chart", {}).get("chart_ev"),
                   extra=tuple(extra), extra_exact=tuple(extra_exact))


def evaluate_specs(specs: Sequence[str], options: RunOptions,
                   memo: Memo | None = None) -> dict[str, Figures | str]:
    """Figures (or the reason there are none) of every canonical spec, each computed once."""
    memo = memo if memo is not None else Memo(options.use_cache)
    kinds = _kinds(options)
    found: dict[str, dict[str, dict[str, Any]]] = {}
    todo: list[tuple[str, tuple[str, ...]]] = []
    for spec in dict.fromkeys(specs):
        have = {k: d for k in kinds if (d := memo.get(spec, options.shoe, k)) is not None}
        found[spec] = have
        missing = tuple(k for k in kinds if k not in have)
        if missing:
            todo.append((spec, missing))
    for spec, result in _run(todo, options):
        if "error" in result:
            found[spec] = {"error": result}
            continue
        for kind, data in result.items():
            memo.put(spec, options.shoe, kind, data)
            found[spec][kind] = data
    return {spec: _figures(have, options) for spec, have in found.items()}


def _run(todo: list[tuple[str, tuple[str, ...]]],
         options: RunOptions) -> Iterator[tuple[str, dict[str, Any]]]:
    """Compute every task, yielding ``(spec, result)`` as tasks finish."""
    if not todo:
        return
    bar = _progress_bar(len(todo), options.progress)
    try:
        for done in _dispatch(todo, options):
            bar(len(done))
            yield from done
    finally:
        bar(0)


def chunks(todo: list[tuple[str, tuple[str, ...]]],
           jobs: int) -> list[list[tuple[str, tuple[str, ...]]]]:
    """Tasks grouped by shoe (deck count), about two chunks per worker, largest shoes first.

    Same-shoe rule sets in one process reuse the engine's per-shoe caches; large
    shoes first keeps the workers evenly loaded (longest tasks scheduled first).
    """
    size = max(1, -(-len(todo) // (2 * jobs)))
    groups: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
    for task in todo:
        groups.setdefault(parse_spec(task[0]).decks, []).append(task)
    out = []
    for decks in sorted(groups, reverse=True):
        group = groups[decks]
        out += [group[i:i + size] for i in range(0, len(group), size)]
    return out


def _dispatch(todo: list[tuple[str, tuple[str, ...]]],
              options: RunOptions) -> Iterable[list[tuple[str, dict[str, Any]]]]:
    """Lists of ``(spec, result)``, one per finished chunk."""
    jobs = options.jobs or os.cpu_count() or 1
    if options.backend not in BACKENDS:
        raise UsageError(f"unknown backend {options.backend!r} (use {', '.join(BACKENDS)})")
    if options.backend == "loky" and (jobs == 1 or len(todo) == 1):
        return ([(spec, worker.compute(spec, options.shoe, kinds))] for spec, kinds in todo)
    import joblib

    tasks = (joblib.delayed(worker.compute_chunk)(chunk, options.shoe)
             for chunk in chunks(todo, jobs))
    if options.backend == "dask":
        return _on_dask(tasks, options.scheduler)
    parallel = joblib.Parallel(n_jobs=min(jobs, len(todo)), return_as="generator_unordered")
    result: Iterable[list[tuple[str, dict[str, Any]]]] = parallel(tasks)
    return result


def _on_dask(tasks: Iterable[Any],
             scheduler: str | None) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Run the tasks on the Dask cluster at ``scheduler`` (joblib's Dask backend)."""
    if not scheduler:
        raise UsageError("--backend dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    try:
        import joblib
        from dask.distributed import Client
    except ImportError:
        raise UsageError("--backend dask needs dask[distributed]: "
                            "pip install 'bja-analyzer[dask]'") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
    except OSError as err:
        raise UsageError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") from None
    try:
        with joblib.parallel_config(backend="dask", client=client):
            yield from joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _progress_bar(total: int, enabled: bool) -> Callable[[int], None]:
    """``step(1)`` advances, ``step(0)`` closes; shown on stderr only after one second."""
    if not enabled:
        return lambda _n: None
    from tqdm import tqdm

    bar = tqdm(total=total, file=sys.stderr, delay=1.0, unit="rule set", leave=False,
               dynamic_ncols=True)

    def step(n: int) -> None:
        if n:
            bar.update(n)
        else:
            bar.close()

    return step
