"""Files read with a size cap, and written whole or not at all, alone or as a set.

Reading: a file named by the user (a chart, a pay table, a grid, a count
system) must be a regular file of at most :data:`~analyzer.core.limits.MAX_INPUT_BYTES`;
``/dev/zero``, a pipe that never ends or a folder is one error line, not a
read until memory runs out (:func:`read_input`).

Writing: every table, chart and report goes through a temporary file in the
target's folder, renamed over the target only once fully written, so an
interrupted run never leaves a half-written file behind.  Only a regular file
is replaced: a target that is a device (``/dev/null``), a folder or a symbolic
link is refused, and left as it was.  A symbolic link is refused rather than
written through, so a link planted where an output goes cannot redirect the
write; the link itself is never replaced.  A target that cannot be written
(no permission, a full disk) is a :class:`~analyzer.core.errors.UsageError`
naming the path, which the CLI prints as one line.

Sets: files that are read together (a certificate's Markdown, HTML, JSON and
PDF) are written as one set.  :func:`replacing_folder` builds them in a
temporary folder beside the target and swaps it in with one rename, so an
interrupted or failed run leaves the old set whole; :func:`write_files`
commits files that share a folder with others with every rename done while
Ctrl-C is held back, so an interrupt cannot fall between two of them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from types import FrameType

from analyzer.core.errors import AnalyzerError, InternalError, UsageError
from analyzer.core.limits import MAX_INPUT_BYTES


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def read_input(path: Path, what: str, error: type[AnalyzerError],
               limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes; else ``error``.

    ``what`` names the file in the message ("chart file", "pay table", ...).
    The file is opened without blocking, so a FIFO with no writer is refused
    instead of waited on.
    """
    where = f"{what} {str(path)!r}"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise error(f"cannot read {where}: {_why(err)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device or pipe"
            raise error(f"{where} is {kind}, not a regular file")
        if info.st_size > limit:
            raise error(f"{where} has {info.st_size:,} bytes; at most {limit:,} are read")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)  # the size may have grown since fstat
    except OSError as err:
        raise error(f"cannot read {where}: {_why(err)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error(f"{where} has more than {limit:,} bytes; at most {limit:,} are read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{where} is not UTF-8 text") from None


def _lstat(path: Path, cannot: str) -> os.stat_result | None:
    """``os.lstat(path)``, None when nothing is there; any other failure a UsageError."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise UsageError(f"{cannot}: {_why(err)}") from None


def check_target(path: Path) -> None:
    """A :class:`UsageError` unless ``path`` is absent or a regular file (not a link)."""
    info = _lstat(path, f"cannot write {str(path)!r}")
    if info is None:
        return
    if stat.S_ISLNK(info.st_mode):
        raise UsageError(f"cannot write {str(path)!r}: it is a symbolic link (bja replaces "
                         "only a regular file; name the link's target instead)")
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
        raise UsageError(f"cannot write {str(path)!r}: it is {kind}, not a regular file")


def _temporary(path: Path) -> tuple[int, str]:
    check_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise UsageError(f"cannot write {str(path)!r}: {_why(err)}") from None


def _fill(fd: int, tmp: str, path: Path, data: bytes) -> None:
    """Write ``data`` to the open temporary file; on any failure, remove it."""
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise UsageError(f"cannot write {str(path)!r}: {_why(err)}") from None
        raise


def _commit(tmp: str, path: Path) -> None:
    try:
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"cannot write {str(path)!r}: {_why(err)}") from None


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (mode 0644)."""
    fd, tmp = _temporary(path)
    _fill(fd, tmp, path, data)
    try:
        _commit(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` whole or not at all."""
    write_bytes_atomic(path, text.encode("utf-8"))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP: each caught is raised again on the way out.

    Python-level handlers, not a signal mask: a mask holds a signal back from one
    thread only, and the kernel hands it to another (a progress bar's, a pool's),
    whose trip still interrupts the main thread.  Handlers can only be set from the
    main thread; elsewhere nothing is held back.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    names = ("SIGINT", "SIGTERM", "SIGHUP")
    numbers = [getattr(signal, n) for n in names if hasattr(signal, n)]
    before = {s: h for s in numbers if (h := signal.getsignal(s)) is not None}
    for s in before:
        signal.signal(s, hold)
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        for s in dict.fromkeys(caught):
            signal.raise_signal(s)  # now, to the handler it was meant for


def write_files(files: Mapping[Path, str | bytes]) -> list[Path]:
    """Write several files as one set: every one in full first, then all renamed at once.

    For files that share a folder with others (a report's Markdown, CSV and PNG
    among other reports'): the renames run with Ctrl-C held back, so an
    interrupt leaves the old set or the new one, never a mix.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, content in files.items():
            fd, tmp = _temporary(path)
            staged.append((tmp, path))
            _fill(fd, tmp, path, content.encode("utf-8") if isinstance(content, str)
                  else content)
        with _signals_held():
            while staged:
                _commit(*staged[0])
                staged.pop(0)
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
    return list(files)


def check_folder(folder: Path, names: Collection[str]) -> None:
    """A :class:`UsageError` unless ``folder`` is absent or a folder holding only ``names``.

    The folder is replaced as a whole (:func:`replacing_folder`), so anything
    else in it would be lost: it is refused before any work is done.
    """
    info = _lstat(folder, f"cannot write into {str(folder)!r}")
    if info is None:
        return
    if not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
        raise UsageError(f"cannot write into {str(folder)!r}: it is {what}")
    try:
        entries = sorted(folder.iterdir())
        other = [p.name for p in entries if p.name not in names]
        # a file's name is not enough: a folder or a link of that name would be lost with
        # the old folder as surely as any other entry
        odd = [p.name for p in entries if p.name in names
               and not stat.S_ISREG(p.lstat().st_mode)]
    except OSError as err:
        raise UsageError(f"cannot write into {str(folder)!r}: {_why(err)}") from None
    if other:
        raise UsageError(f"{str(folder)!r} holds {other[0]!r} besides the "
                         f"{', '.join(sorted(names))} it is replaced with; choose a new or "
                         "empty folder")
    if odd:
        raise UsageError(f"{str(folder)!r} holds {odd[0]!r} that is not a regular file (a "
                         "folder or a link), which writing the set would lose; choose a new "
                         "or empty folder")


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # a C library without it
        return False
    at_fdcwd, rename_exchange = -100, 2
    done: int = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return done == 0


def _swap_in(new: Path, folder: Path) -> None:
    """Put the folder ``new`` at ``folder``, which may exist (its old content is removed)."""
    with _signals_held():
        if not os.path.lexists(folder):
            os.rename(new, folder)
            return
        if _exchange(new, folder):
            shutil.rmtree(new)  # now the old set
            return
        holder = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-"))
        os.rename(folder, holder / folder.name)
        os.rename(new, folder)
    shutil.rmtree(holder)


@contextlib.contextmanager
def replacing_folder(folder: Path, names: Collection[str]) -> Iterator[Path]:
    """A temporary folder to build a set of files in, then put at ``folder`` in one step.

    ``names`` are the files the set may hold (checked by :func:`check_folder`:
    nothing else may be in the old folder).  If the block raises or is
    interrupted, the temporary folder is removed and ``folder`` is untouched.
    """
    check_folder(folder, names)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        new = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.new-"))
        os.chmod(new, 0o755)
    except OSError as err:
        raise UsageError(f"cannot write into {str(folder)!r}: {_why(err)}") from None
    try:
        yield new
        check_folder(folder, names)
        extra = sorted(p.name for p in new.iterdir() if p.name not in names)
        if extra:
            raise InternalError(f"{extra[0]!r} is not one of the files of {str(folder)!r}")
        _swap_in(new, folder)
    except OSError as err:
        raise UsageError(f"cannot write into {str(folder)!r}: {_why(err)}") from None
    finally:
        shutil.rmtree(new, ignore_errors=True)


__all__ = ["check_folder", "check_target", "read_input", "replacing_folder", "write_atomic",
           "write_bytes_atomic", "write_files"]
