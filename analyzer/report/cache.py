"""On-disk memo of whole analyses (joblib), keyed by the inputs *and* the engine's source.

An analysis is a pure function of (rules, shoe, arithmetic), so its rendered
result can be kept on disk and served again instantly.  The key includes a hash
of every engine source file, so a changed engine never serves a stale figure.
``--no-cache`` bypasses it (timings then measure computation).  The folder is
``$BJA_CACHE_DIR``, else ``~/.cache/bja``.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

import joblib

from analyzer.core.rules import parse_spec
from analyzer.core.shoe import parse_shoe
from analyzer.engine.analysis import Analysis
from analyzer.report.levels import levels_json, strategy_levels
from analyzer.report.render import ev_json, ev_text


@cache
def engine_fingerprint() -> str:
    """SHA-256 of the package's source files: part of every cache key."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parents[1].rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _compute_ev(spec: str, shoe: str, exact: bool, as_json: bool, split: str,
                fingerprint: str) -> dict[str, Any] | str:
    del fingerprint  # only part of the key
    analysis = Analysis(parse_spec(spec), parse_shoe(shoe), exact=exact, split=split)
    if not as_json:
        return ev_text(analysis)
    levels = strategy_levels(analysis.rules, analysis.shoe, exact, analyses={split: analysis})
    return ev_json(analysis, levels_json(levels))


@cache
def _memory() -> joblib.Memory:
    folder = os.environ.get("BJA_CACHE_DIR") or str(Path.home() / ".cache" / "bja")
    return joblib.Memory(location=folder, verbose=0)


def ev_report(spec: str, shoe: str, *, exact: bool, as_json: bool, use_cache: bool,
              split: str = "cdz") -> dict[str, Any] | str:
    """``bja ev``'s output for a canonical rule spec and shoe, memoized on disk."""
    if not use_cache:
        return _compute_ev(spec, shoe, exact, as_json, split, "")
    cached = _memory().cache(_compute_ev)
    result: dict[str, Any] | str = cached(spec, shoe, exact, as_json, split,
                                          engine_fingerprint())
    return result
