"""Memory a computation's largest tables may take, checked before they are allocated.

An exact distribution of a round that resplits builds tables of gigabytes (a card set's
dealer weights modulo a dozen primes, for millions of card sets).  Where the machine
has less free, numpy's allocation may succeed and the kernel's out-of-memory killer end
the process minutes later, with nothing said; :func:`reserve` refuses such a table in
one line before it exists.  Free memory is the kernel's own estimate of what can be
given without swapping (``MemAvailable`` in ``/proc/meminfo``, Linux); where there is
none, nothing is refused and the CLI's handler of :class:`MemoryError` has the last word.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.core.errors import TooLargeError

MEMINFO = Path("/proc/meminfo")


def available() -> int | None:
    """Bytes of memory free for a new allocation, or None where the system does not say.

    >>> free = available()
    >>> free is None or free > 0
    True
    """
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024  # the kernel counts in KiB
    except (OSError, ValueError, IndexError):
        return None
    return None


def size_text(nbytes: int) -> str:
    """A size as people read it, in decimal units.

    >>> size_text(2_456_000_000), size_text(40_400_000), size_text(1_000)
    ('2.5 GB', '40 MB', '1 kB')
    """
    if nbytes >= 10**9:
        return f"{nbytes / 1e9:.1f} GB"
    return f"{nbytes / 1e6:.0f} MB" if nbytes >= 10**6 else f"{nbytes / 1e3:.0f} kB"


def reserve(nbytes: int, what: str, hint: str = "") -> None:
    """Refuse, as a :class:`TooLargeError`, a table of ``nbytes`` that the free memory
    cannot hold (``what`` names it in the message, ``hint`` says what needs less)."""
    free = available()
    if free is not None and nbytes > free:
        more = f"; {hint}" if hint else ""
        raise TooLargeError(f"{what} needs {size_text(nbytes)} of memory and "
                            f"{size_text(free)} is free{more}")


__all__ = ["available", "reserve", "size_text"]
