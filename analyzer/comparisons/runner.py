"""Compute the figures of many rule sets: memo first, then in parallel.

Variants are independent, so the rule sets the memo does not hold are sent to worker
processes (:func:`analyzer.util.pool.run_tasks`: forked on this machine, joblib's
reusable ones within ``bja build``), or to a Dask distributed cluster through joblib's
Dask backend.  Workers only compute; the parent reads and writes the
memo (:func:`figure_memo`), so a remote cluster needs no shared disk.  Every figure comes from the
same engine calls as ``bja ev`` and ``bja chart``, so a row equals the separate
command bit for bit whichever backend ran it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.comparisons import worker
from analyzer.comparisons.model import Figures
from analyzer.core.errors import UsageError
from analyzer.core.levels import SPLIT_LEVELS, SplitLevel
from analyzer.core.limits import MAX_JOBS
from analyzer.core.numbers import shown
from analyzer.core.rules import parse_spec
from analyzer.util.memo import JSON, Memo
from analyzer.util.pool import every_core, run_tasks
from analyzer.util.progress import ProgressCallback, report

BACKENDS = ("loky", "dask")
FigureMemo = Memo[dict[str, Any]]


def figure_memo(enabled: bool = True) -> FigureMemo:
    """The memo of per-rule-set figures, one entry per (spec, shoe, kind): JSON, floats by
    ``repr`` and fractions as ``"p/q"`` text, so every figure round-trips exactly."""
    return Memo("compare", JSON, enabled=enabled)


_SCHEDULER = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)"
                        r":([0-9]{1,5})")


def check_scheduler(address: str | None) -> None:
    """Refuse a Dask scheduler address that cannot be one, before any work.

    A bad one would otherwise surface only once the rule sets are dispatched,
    as a traceback from the Dask client (which then waits its close timeout).
    """
    if not address:
        raise UsageError("--backend dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    m = _SCHEDULER.fullmatch(address)
    if m is None or not 1 <= int(m[1]) <= 65535:
        raise UsageError(f"--scheduler {shown(address)} is not a Dask scheduler address "
                         "[tcp://]HOST:PORT (e.g. tcp://10.0.0.5:8786)")


@dataclass(frozen=True)
class RunOptions:
    """How to compute: arithmetic, columns, parallelism, memo, progress."""

    exact: bool = False
    charts: bool = True
    jobs: int | None = None  # None: every core
    backend: str = "loky"
    scheduler: str | None = None  # Dask scheduler address (backend "dask")
    use_cache: bool = True
    progress: ProgressCallback | None = None  # told of each rule set computed
    shoe: str | None = None  # one shoe for every rule set (library use); None: full decks
    split: SplitLevel = SplitLevel.CDZ  # the level of split play of the EV column
    levels: bool = False  # also a column per other level: CDZ-, CDP1, CDP

    def __post_init__(self) -> None:
        if self.split not in SPLIT_LEVELS:
            raise UsageError(f"unknown split level {str(self.split)!r} for a comparison "
                             f"(use {', '.join(SPLIT_LEVELS)})")
        if self.jobs is not None and not 1 <= self.jobs <= MAX_JOBS:
            raise UsageError(f"jobs must be 1 to {MAX_JOBS}, not {self.jobs}")
        if self.backend not in BACKENDS:
            raise UsageError(f"unknown backend {self.backend!r} (use {', '.join(BACKENDS)})")
        if self.backend == "dask":
            check_scheduler(self.scheduler)
        elif self.scheduler is not None:
            raise UsageError("--scheduler goes with --backend dask")

    def kind(self, level: SplitLevel) -> str:
        """The memo/worker kind of the EV at ``level``: "float", "exact:cdp1"..."""
        arithmetic = "exact" if self.exact else "float"
        return arithmetic if level == "cdz" else f"{arithmetic}:{level}"

    @property
    def level_columns(self) -> tuple[SplitLevel, ...]:
        """The levels shown as extra columns (``levels``): every other one but optimal."""
        if not self.levels:
            return ()
        return tuple(v for v in (SplitLevel.CDZ, SplitLevel.CDP1, SplitLevel.CDP)
                     if v != self.split)


def _kinds(options: RunOptions) -> tuple[str, ...]:
    charts = ["chart"] + ([worker.EXACT_CHART] if options.exact else [])
    kinds = [options.kind(options.split)] + (charts if options.charts else [])
    return tuple(kinds + [options.kind(v) for v in options.level_columns])


def _well_formed(kind: str, data: object) -> bool:
    """Whether a memo entry's figures are what the worker writes for ``kind``: a reason, or
    finite figures (an exact one as ``"p/q"``).  An entry that is not is absent (recomputed):
    the memo's checksum catches damage, this a payload of another shape."""
    if not isinstance(data, dict):
        return False
    if "error" in data:
        return set(data) == {"error"} and isinstance(data["error"], str)
    names = ("ev", "chart_ev") if kind == "chart" else \
        ("ev_exact",) if kind.startswith("exact") else ("ev",)
    if set(data) != set(names):
        return False
    try:
        values = [float(Fraction(data[n])) if n == "ev_exact" else data[n] for n in names]
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return all(isinstance(v, float) and math.isfinite(v) for v in values)


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
    chart_ev = found.get("chart", {}).get("chart_ev")
    if worker.EXACT_CHART in found:  # exact mode: the chart's EV is its fraction's float
        chart_ev, chart_exact = _number(found[worker.EXACT_CHART])
        assert chart_exact is not None
        extra_exact.insert(0, ("chart_ev", chart_exact))
    return Figures(ev=ev, ev_exact=ev_exact, chart_ev=chart_ev,
                   extra=tuple(extra), extra_exact=tuple(extra_exact))


def evaluate_specs(specs: Sequence[str], options: RunOptions,
                   memo: FigureMemo | None = None) -> dict[str, Figures | str]:
    """Figures (or the reason there are none) of every canonical spec, each computed once."""
    memo = memo if memo is not None else figure_memo(options.use_cache)
    kinds = _kinds(options)
    found: dict[str, dict[str, dict[str, Any]]] = {}
    todo: list[tuple[str, tuple[str, ...]]] = []
    for spec in dict.fromkeys(specs):
        have = {k: d for k in kinds
                if (d := memo.get((spec, options.shoe, k))) is not None and _well_formed(k, d)}
        found[spec] = have
        missing = tuple(k for k in kinds if k not in have)
        if missing:
            todo.append((spec, missing))
    for spec, result in _run(todo, options):
        if "error" in result:
            found[spec] = {"error": result}
            continue
        for kind, data in result.items():
            memo.put((spec, options.shoe, kind), data)
            found[spec][kind] = data
    return {spec: _figures(have, options) for spec, have in found.items()}


def _run(todo: list[tuple[str, tuple[str, ...]]],
         options: RunOptions) -> Iterator[tuple[str, dict[str, Any]]]:
    """Compute every task, yielding ``(spec, result)`` as tasks finish."""
    if not todo:
        return
    count = 0
    report(options.progress or None, "rule sets", 0, len(todo))
    for done in _dispatch(todo, options):
        count += len(done)
        report(options.progress or None, "rule sets", count, len(todo))
        yield from done


def chunks(todo: list[tuple[str, tuple[str, ...]]],
           jobs: int) -> list[list[tuple[str, tuple[str, ...]]]]:
    """Tasks grouped by shoe (deck count), about four chunks per worker, largest shoes first.

    Same-shoe rule sets in one process reuse the engine's per-shoe caches; large
    shoes first, in chunks small enough that the last ones end together, keeps the
    workers evenly loaded (two chunks a worker left one idle for the last tenth).
    """
    size = max(1, -(-len(todo) // (4 * jobs)))
    groups: dict[int | float, list[tuple[str, tuple[str, ...]]]] = {}
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
    jobs = options.jobs or every_core()
    if options.backend == "loky" and (jobs == 1 or len(todo) == 1):
        return ([(spec, worker.compute(spec, options.shoe, kinds))] for spec, kinds in todo)
    if options.backend == "dask":
        import joblib

        return _on_dask((joblib.delayed(worker.compute_chunk)(chunk, options.shoe)
                         for chunk in chunks(todo, jobs)), options.scheduler)
    # forked workers for a one-shot command, joblib's warm ones in a build (util.pool)
    return run_tasks([(worker.compute_chunk, (chunk, options.shoe))
                      for chunk in chunks(todo, jobs)], jobs=min(jobs, len(todo)))


def _on_dask(tasks: Iterable[Any],
             scheduler: str | None) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Run the tasks on the Dask cluster at ``scheduler`` (joblib's Dask backend)."""
    check_scheduler(scheduler)
    try:
        import joblib
        from dask.distributed import Client
    except ImportError:
        raise UsageError("--backend dask needs dask[distributed]: "
                            "pip install 'bja-analyzer[dask]'") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, ValueError) as err:  # TimeoutError is an OSError
        raise UsageError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") from None
    try:
        with joblib.parallel_config(backend="dask", client=client):
            yield from joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
    finally:
        client.close()  # type: ignore[no-untyped-call]

