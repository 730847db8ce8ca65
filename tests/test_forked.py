"""Upcards in other processes (analyzer.engine.forked): without fork, and under Ctrl-C.

* With fork turned off (``BJA_FORK=0``, as on Windows) a pool of spawned processes
  computes the upcards, and the analysis has the bits of a serial run.
* A SIGINT is never lost: not when it lands while a child is forked (where an
  interpreter at-fork hook would drop the exception), not when an exception in
  this process's own share replaces the KeyboardInterrupt.  Both run in a fresh
  interpreter, where Python's own SIGINT handler is installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest

from analyzer.core.rules import parse_spec
from analyzer.engine import forked
from analyzer.engine.analysis import Analysis
from analyzer.util import pool

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def test_without_fork_the_spawn_pool_gives_the_serial_bits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pool.FORK_ENV, "0")
    assert not pool.can_fork() and pool.available()
    spec = parse_spec("2D H17 DOA DAS SPL3 LS")
    serial = Analysis(spec, jobs=1).by_upcard()
    pooled = Analysis(spec, jobs=2)
    calls: list[int] = []
    real = forked._spawned

    def spy(*args: Any) -> dict[int, Any]:
        got = real(*args)
        calls.append(len(got))
        return got

    monkeypatch.setattr(forked, "_spawned", spy)
    assert pooled.by_upcard() == serial  # the same floats, bit for bit
    assert calls and calls[0] > 0  # some upcards came from the spawned worker


def test_without_fork_a_closure_runs_here_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pool.FORK_ENV, "0")
    done: list[int] = []
    assert forked.in_forks(lambda item: done.append(item), [1, 2, 3], jobs=2) == {}
    assert done == []  # nothing computed twice: the caller computes every item


@needs_fork
def test_children_take_sigint_by_default() -> None:
    """A Ctrl-C to the process group ends a child at once; the parent reaps it."""
    def work(item: int) -> object:
        time.sleep(0.02)  # long enough for the child to take some items
        return signal.getsignal(signal.SIGINT)

    got = forked.in_forks(work, list(range(32)), jobs=2)  # the children start within 0.6 s
    assert got and set(got.values()) == {signal.SIG_DFL}


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with SIGINT at its default (Python's handler)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@needs_fork
def test_a_sigint_during_the_fork_is_not_lost() -> None:
    """The signal lands while a child is forked; an at-fork hook would drop it.

    Before the fix the KeyboardInterrupt was raised inside the interpreter's
    after-fork hook, printed as ignored, and the items ran to completion (exit 0).
    """
    done = _python("""
        import os, signal, time
        from analyzer.engine import forked
        armed = [True]
        def hook():
            if armed:
                armed.clear()
                os.kill(os.getpid(), signal.SIGINT)
        os.register_at_fork(after_in_parent=hook)
        try:
            forked.in_forks(lambda item: time.sleep(0.05), list(range(6)), jobs=2)
        except KeyboardInterrupt:
            print("interrupted")
        else:
            print("completed")
    """)
    assert done.stdout == "interrupted\n", (done.stdout, done.stderr)


def test_a_sigint_hidden_by_an_exception_in_this_share_is_not_lost() -> None:
    """Cleanup code that raises while a KeyboardInterrupt unwinds replaces it.

    The share's exceptions are left for the caller to meet again, so the
    replacement was swallowed and the run went on (exit 0, the whole output).
    """
    done = _python("""
        import os, signal, time
        from analyzer.engine import forked
        parent, fired = os.getpid(), []
        def work(item):
            if os.getpid() != parent:
                time.sleep(0.05)
            elif not fired:  # this process's first item
                fired.append(item)
                try:
                    os.kill(parent, signal.SIGINT)
                    sum(range(1000))  # the handler runs here
                finally:
                    raise ValueError("cleanup failed")
            return item
        try:
            forked.in_forks(work, [0, 1, 2, 3], jobs=2)
        except KeyboardInterrupt:
            print("interrupted")
        else:
            print("completed")
    """)
    assert done.stdout == "interrupted\n", (done.stdout, done.stderr)


def _blas_threads(_item: int) -> int:
    from threadpoolctl import threadpool_info

    return max((pool["num_threads"] for pool in threadpool_info()
                if pool["user_api"] == "blas"), default=1)


@pytest.mark.parametrize("fork", ["1", "0"])
def test_every_process_runs_one_blas_thread_while_items_run(
        monkeypatch: pytest.MonkeyPatch, fork: str) -> None:
    """Two processes on two cores, each with a BLAS thread per core, wait for each other
    (forked.py's notes): children, spawned workers and this process's own share run one
    BLAS thread, and this process gets its threads back afterwards."""
    import numpy  # noqa: F401 -- its BLAS loaded, so that there is a pool to count
    from threadpoolctl import threadpool_limits

    monkeypatch.setenv(pool.FORK_ENV, fork)
    with threadpool_limits(limits=2, user_api="blas"):
        if _blas_threads(0) < 2:
            pytest.skip("this numpy's BLAS runs one thread anyway")
        mine: list[int] = []

        def work(item: int) -> int:
            mine.append(_blas_threads(item))
            return mine[-1]

        got = forked.in_forks(work if fork == "1" else _blas_threads, list(range(8)), jobs=2)
        assert got and set(got.values()) == {1}
        assert set(mine) <= {1}
        assert _blas_threads(0) == 2
