"""Memory a computation's largest tables may take, checked before they are allocated.

An exact distribution of a round that resplits builds tables of gigabytes (a card set's
dealer weights modulo a dozen primes, for millions of card sets).  Where the machine
has less free, numpy's allocation may succeed and the kernel's out-of-memory killer end
the process minutes later, with nothing said; :func:`reserve` refuses such a table in
one line before it exists.  Free memory is the kernel's own estimate of what can be
given without swapping (``MemAvailable`` in ``/proc/meminfo``, Linux), or less where the
process's control group (a container) has a memory limit; where the system says
nothing, nothing is refused and the CLI's handler of :class:`MemoryError` has the last
word.  The check counts the table asked for, not the rest of the process nor other
processes starting tables at the same moment: it stops what cannot fit, and a run at
the edge can still be killed.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.core.errors import TooLargeError

MEMINFO = Path("/proc/meminfo")
CGROUPS = Path("/sys/fs/cgroup")
OWN_CGROUPS = Path("/proc/self/cgroup")
NO_LIMIT = 2**60  # cgroup v1 writes "no limit" as a number near 2**63


def _number(path: Path) -> int | None:
    """The whole number a one-line file holds, or None (absent, unreadable, ``max``)."""
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _cgroup_room() -> int | None:
    """Bytes the control group's memory limit still allows, or None without a limit.

    cgroup v2 (``memory.max`` less ``memory.current``) and v1 (``memory.limit_in_bytes``
    less ``memory.usage_in_bytes``), at the process's own group as ``/proc/self/cgroup``
    names it and at the mount's root (a container's own group, under a cgroup namespace).
    """
    places = [(CGROUPS, "memory.max", "memory.current"),
              (CGROUPS / "memory", "memory.limit_in_bytes", "memory.usage_in_bytes")]
    try:
        for line in OWN_CGROUPS.read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controllers == "":
                places.append((CGROUPS / path.lstrip("/"), "memory.max", "memory.current"))
            elif "memory" in controllers.split(","):
                places.append((CGROUPS / "memory" / path.lstrip("/"),
                               "memory.limit_in_bytes", "memory.usage_in_bytes"))
    except (OSError, ValueError):
        pass
    rooms = []
    for folder, limit_file, usage_file in places:
        limit, usage = _number(folder / limit_file), _number(folder / usage_file)
        if limit is not None and usage is not None and limit < NO_LIMIT:
            rooms.append(max(limit - usage, 0))
    return min(rooms, default=None)


def available() -> int | None:
    """Bytes of memory free for a new allocation, or None where the system does not say.

    >>> free = available()
    >>> free is None or free >= 0
    True
    """
    free = None
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                free = int(line.split()[1]) * 1024  # the kernel counts in KiB
                break
    except (OSError, ValueError, IndexError):
        pass
    room = _cgroup_room()
    if room is None:
        return free
    return room if free is None else min(free, room)


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
