"""On-disk memo of ``bja ev``'s report model, keyed by the inputs *and* the engine's source.

An :class:`~analyzer.report.model.EvReport` is a pure function of (rules, shoe,
arithmetic, split mode) and the code, so it is kept on disk and served again at
once; the text and JSON are rendered from it on every run.  A wrong figure
served from a cache is the worst failure, so:

* the key hashes every file of the package (:func:`engine_fingerprint`) with
  the inputs: a changed engine never serves a stale figure;
* an entry is written whole or not at all (a temporary file renamed over the
  target): processes running at once each see no entry or a complete one, and
  two that compute the same entry both write the same bytes;
* an entry carries the SHA-256 of its payload and the inputs it answers; one
  that fails either check (truncated, corrupted, foreign) is recomputed and
  rewritten, never served.  A cache folder that cannot be written is skipped.

``--no-cache`` bypasses it (timings then measure computation).  The folder is
``$BJA_CACHE_DIR``, else ``~/.cache/bja``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from functools import cache
from pathlib import Path

from analyzer.core.errors import UsageError
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import Analysis
from analyzer.report.model import EvReport, ev_report
from analyzer.report.output import write_bytes_atomic

_MAGIC = b"bja-ev-report 1\n"  # format of an entry: this line, a hex digest line, the pickle


def fingerprint_of(root: Path) -> str:
    """SHA-256 of every file under ``root`` (relative path and bytes), caches left out."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def engine_fingerprint() -> str:
    """The fingerprint of the installed package: part of every cache key."""
    return fingerprint_of(Path(__file__).parents[1])


def cache_dir() -> Path:
    return Path(os.environ.get("BJA_CACHE_DIR") or Path.home() / ".cache" / "bja")


def entry_path(rules: Rules, shoe: Shoe, *, exact: bool, split: str,
               levels: bool = False) -> Path:
    """Where the report of these inputs is kept (for the current engine)."""
    key = repr((engine_fingerprint(), format_spec(rules), shoe.counts, exact, split,
                levels)).encode()
    return cache_dir() / "ev" / f"{hashlib.sha256(key).hexdigest()}.pkl"


def _encode(report: EvReport) -> bytes:
    payload = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
    return _MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def _decode(data: bytes, rules: Rules, shoe: Shoe, exact: bool, split: str,
            levels: bool) -> EvReport | None:
    """The entry's report, or None unless it is whole, untouched and answers these inputs."""
    head, _, rest = data.partition(b"\n")
    digest, _, payload = rest.partition(b"\n")
    if head + b"\n" != _MAGIC or hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        report = pickle.loads(payload)
    except Exception:  # a payload of another version of the model
        return None
    if not isinstance(report, EvReport) or (
            report.rules, report.shoe, report.exact, report.split, report.levels is not None
    ) != (rules, shoe, exact, split, levels):
        return None
    return report


def cached_ev_report(rules: Rules, shoe: Shoe, *, exact: bool, split: str = "cdz",
                     levels: bool = False, use_cache: bool = True, jobs: int = 1) -> EvReport:
    """``bja ev``'s model for these inputs: from the disk memo, else computed (and kept).

    ``jobs`` processes share the upcards (not part of the key: the figures are the same).
    """
    if not use_cache:
        return ev_report(Analysis(rules, shoe, exact=exact, split=split, jobs=jobs),
                         levels=levels)
    path = entry_path(rules, shoe, exact=exact, split=split, levels=levels)
    try:
        found = _decode(path.read_bytes(), rules, shoe, exact, split, levels)
    except OSError:
        found = None
    if found is not None:
        return found
    report = ev_report(Analysis(rules, shoe, exact=exact, split=split, jobs=jobs),
                       levels=levels)
    with contextlib.suppress(UsageError):  # an unwritable folder costs speed, not the answer
        write_bytes_atomic(path, _encode(report))
    return report


__all__ = ["cache_dir", "cached_ev_report", "engine_fingerprint", "entry_path", "fingerprint_of"]
