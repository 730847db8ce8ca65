"""Writing result files whole or not at all.

Every table, chart and report goes through a temporary file in the target's
folder, renamed over the target only once fully written, so an interrupted
run never leaves a half-written file behind.  A target that cannot be written
(a folder, no permission, a full disk) is a :class:`~analyzer.core.errors.UsageError`
naming the path, which the CLI prints as one line.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from analyzer.core.errors import UsageError


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (mode 0644)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise UsageError(f"cannot write {str(path)!r}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise UsageError(f"cannot write {str(path)!r}: {err.strerror or err}") from None
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` whole or not at all."""
    write_bytes_atomic(path, text.encode("utf-8"))
