"""On-disk memo of per-rule-set figures, so a repeated variant costs nothing.

One small JSON file per (rule set, shoe, kind of figure: ``float``, ``exact``,
``chart``, ``float:cdp1``...), named by the SHA-256
of its key, in a folder named by the engine fingerprint: a hash of every source
file a figure depends on (rules, engine, split cross-check, charts, and the
worker that calls them), as :mod:`analyzer.report.cache` keys ``bja ev``.  A
changed engine never serves a stale figure; a changed renderer keeps the memo.
Floats are stored by ``repr`` (JSON round-trips them exactly) and fractions as
``"p/q"``.  Files are written atomically, so an interrupted run leaves whole
entries or none.  The parent process reads and
writes the memo; workers (local or on a Dask cluster) only compute.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from analyzer.report.output import write_atomic

SOURCES = ("core", "engine", "crosscheck", "charts", "compare/worker.py", "__init__.py")


@cache
def engine_fingerprint() -> str:
    """SHA-256 of the source files the figures depend on (see the module docstring)."""
    package = Path(__file__).parents[1]
    digest = hashlib.sha256()
    for source in SOURCES:
        path = package / source
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(package).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def memo_folder() -> Path:
    """``$BJA_CACHE_DIR/compare/<engine fingerprint>`` (default ``~/.cache/bja``)."""
    root = os.environ.get("BJA_CACHE_DIR") or str(Path.home() / ".cache" / "bja")
    return Path(root) / "compare" / engine_fingerprint()[:24]


class Memo:
    """Read and write memo entries; a disabled memo stores nothing."""

    def __init__(self, enabled: bool = True, folder: Path | None = None) -> None:
        self.enabled = enabled
        self.folder = folder if folder is not None else (memo_folder() if enabled else None)

    def _path(self, spec: str, shoe: str | None, kind: str) -> Path:
        assert self.folder is not None
        key = json.dumps([spec, shoe or "", kind])
        return self.folder / f"{hashlib.sha256(key.encode()).hexdigest()}.json"

    def get(self, spec: str, shoe: str | None, kind: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            text = self._path(spec, shoe, kind).read_text(encoding="utf-8")
        except OSError:
            return None
        try:
            data: dict[str, Any] = json.loads(text)
        except json.JSONDecodeError:  # not written by us: ignore, it will be rewritten
            return None
        return data

    def put(self, spec: str, shoe: str | None, kind: str, data: dict[str, Any]) -> None:
        if self.enabled:
            write_atomic(self._path(spec, shoe, kind), json.dumps(data, sort_keys=True))
