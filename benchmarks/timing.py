"""Timing a command the way a user meets it: a fresh process, wall clock, CPU, peak memory.

Shared by the benchmarks.  Every figure is the median of ``repeat`` runs, since
the machines these run on are shared.  Peak memory is the largest resident set
of the process and of any process it waited for (what ``/usr/bin/time -v``
calls "Maximum resident set size"); with forked workers it is the largest one,
not their sum, so :func:`run` also samples the sum over the process tree.

Every command runs with Python's bytecode cache on, as an installed package has
it (pip compiles the package at install): an environment that sets
``PYTHONDONTWRITEBYTECODE`` (some sandboxes do) would otherwise time the compiling
of every module on every run, about 0.1 s of a ``bja ev``, which no user pays.
"""

from __future__ import annotations

import compileall
import os
import statistics
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    """One run of a command."""

    wall: float  # seconds
    cpu: float  # user + system seconds, children included
    peak_mb: float  # largest resident set of one process (MiB)
    tree_mb: float  # largest sampled sum of the resident sets of the process tree (MiB)
    stdout: str


def _tree_rss(pid: int) -> int:
    """Resident set (KiB) of ``pid`` and all its descendants, from /proc."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines()
                          if line.startswith("VmRSS:"))
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                stack.extend(int(c) for c in children)
        except (OSError, StopIteration, ValueError):
            continue
    return total


PACKAGE = Path(__file__).resolve().parents[1] / "analyzer"


def user_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) with the bytecode cache on, the package compiled."""
    compileall.compile_dir(PACKAGE, quiet=1)
    out = dict(os.environ if env is None else env)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


def measured(argv: Sequence[str], *, stdin: str | None = None, cwd: str | None = None,
             env: dict[str, str] | None = None) -> Run:
    """Run ``argv`` once (an error if it fails); CPU time and peak memory from ``wait4``."""
    env = user_env(env)
    read_out, write_out = os.pipe()
    read_in, write_in = os.pipe() if stdin is not None else (None, None)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: plumb stdin/stdout, silence stderr, exec
        try:
            if read_in is not None:
                os.dup2(read_in, 0)
            os.dup2(write_out, 1)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            if cwd:
                os.chdir(cwd)
            os.execvpe(argv[0], list(argv), env)
        finally:
            os._exit(127)
    os.close(write_out)
    if read_in is not None and write_in is not None:
        os.close(read_in)
        assert stdin is not None
        threading.Thread(target=_feed, args=(write_in, stdin.encode()), daemon=True).start()
    peak_tree = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_tree
        while not done.wait(0.01):
            peak_tree = max(peak_tree, _tree_rss(pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    chunks = []
    while chunk := os.read(read_out, 1 << 16):
        chunks.append(chunk)
    os.close(read_out)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {code}")
    return Run(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_mb=usage.ru_maxrss / 1024,
               tree_mb=max(peak_tree, usage.ru_maxrss) / 1024,
               stdout=b"".join(chunks).decode())


def _feed(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def median_run(argv: Sequence[str], repeat: int = 3, **kwargs: object) -> Run:
    """The median (by wall time) of ``repeat`` runs; CPU and memory medians too."""
    runs = [measured(argv, **kwargs) for _ in range(repeat)]  # type: ignore[arg-type]
    return Run(wall=statistics.median(r.wall for r in runs),
               cpu=statistics.median(r.cpu for r in runs),
               peak_mb=statistics.median(r.peak_mb for r in runs),
               tree_mb=statistics.median(r.tree_mb for r in runs),
               stdout=runs[-1].stdout)
