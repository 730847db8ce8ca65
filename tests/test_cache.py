"""The on-disk memo of ``bja ev``: models, not text, keyed by every input.

The reference figure is the same computation without the cache (``--no-cache``),
so each test can fail only if the cache serves something else.  Damaged, swapped,
stale entries and unusable folders, for every user of the memo: ``tests/test_memo.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe, format_shoe, parse_shoe
from analyzer.report import cache
from analyzer.report.model import EvReport
from analyzer.report.render import ev_json

RULES = parse_spec("1D H17 DOA NDAS SPL1 NS")
SHOE = parse_shoe("A:2,5:4,8:3,T:6")
OTHER = parse_shoe("A:2,5:4,8:4,T:6")


def _report(shoe: Shoe = SHOE, *, use_cache: bool = True) -> EvReport:
    return cache.cached_ev_report(RULES, shoe, exact=True, use_cache=use_cache)


def _path(shoe: Shoe = SHOE, *, exact: bool = True, split: str = "cdz",
          levels: bool = False, rules: Rules = RULES) -> Path:
    return cache.ev_memo().path(cache.ev_key(rules, shoe, exact=exact, split=split,
                                             levels=levels))


def test_entries_are_models_and_are_served_again() -> None:
    fresh = _report(use_cache=False)
    first = _report()
    path = _path()
    assert path.exists() and first == fresh
    stamp = path.stat().st_mtime_ns
    assert _report() == fresh and path.stat().st_mtime_ns == stamp  # served, not rewritten
    assert isinstance(fresh.ev, type(fresh.by_upcard[0][1]))  # Fractions kept when exact


def test_every_input_of_a_report_is_in_its_key() -> None:
    paths = {_path(), _path(OTHER), _path(exact=False), _path(split="cdp1"),
             _path(levels=True), _path(rules=parse_spec("1D S17 DOA NDAS SPL1 NS"))}
    assert len(paths) == 6
    assert cache.ev_key(RULES, SHOE, exact=True, split="cdz", levels=False) == cache.ev_key(
        parse_spec(format_spec(RULES)), parse_shoe(format_shoe(SHOE)), exact=True,
        split="cdz", levels=False)


def test_two_processes_on_one_cache_folder_both_print_the_right_figure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [sys.executable, "-m", "analyzer", "ev", "--rules", format_spec(RULES),
            "--shoe", format_shoe(SHOE), "--exact", "--json"]
    env = {**os.environ, "BJA_CACHE_DIR": str(tmp_path)}
    # Both start on a cold cache, so both compute and write the same entry at once.
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]
    results = [p.communicate(timeout=300) for p in procs]
    expected = json.dumps(ev_json(_report(use_cache=False)), indent=2) + "\n"
    assert [p.returncode for p in procs] == [0, 0]
    assert results == [(expected, ""), (expected, "")]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    assert files == [_path()]  # one entry, no temporary file left
    stamp = files[0].stat().st_mtime_ns
    assert _report() == _report(use_cache=False) and files[0].stat().st_mtime_ns == stamp


def test_a_payload_forged_under_another_key_with_its_checksum_is_not_served() -> None:
    """Another report's payload written under this key, the entry's SHA-256 recomputed (an
    adversarial test: the checksum then matches) printed the other rules' figures with exit
    0.  The report names its own inputs, and one that names others is recomputed."""
    import hashlib

    other_rules = parse_spec("1D S17 DOA NDAS SPL1 NS")
    fresh = _report(use_cache=False)
    cache.cached_ev_report(other_rules, SHOE, exact=True)
    _report()
    magic, header, _, _ = _path().read_bytes().split(b"\n", 3)
    payload = _path(rules=other_rules).read_bytes().split(b"\n", 3)[3]
    digest = hashlib.sha256(header + b"\n" + payload).hexdigest().encode()
    _path().write_bytes(b"\n".join([magic, header, digest, payload]))
    assert cache.ev_memo().get(cache.ev_key(RULES, SHOE, exact=True, split="cdz",
                                            levels=False)).rules == other_rules  # forged
    assert _report() == fresh


@pytest.mark.parametrize("exact", [True, False], ids=["exact", "float"])
@pytest.mark.parametrize("change", ["total", "row", "nan"])
def test_an_entry_whose_figures_disagree_is_recomputed(exact: bool, change: str) -> None:
    """An entry rewritten with a right checksum but a total that is not its rows weighted
    by the shoe (or not finite) printed an RTP of 850% with exit 0; it is absent now."""
    import dataclasses

    fresh = cache.cached_ev_report(RULES, SHOE, exact=exact, use_cache=False)
    assert cache.cached_ev_report(RULES, SHOE, exact=exact) == fresh
    rows = list(fresh.by_upcard)
    bad = {"total": {"ev": fresh.ev + 1},
           "row": {"by_upcard": ((rows[0][0], rows[0][1] + 1), *rows[1:])},
           "nan": {"ev": float("nan")}}[change]
    key = cache.ev_key(RULES, SHOE, exact=exact, split="cdz", levels=False)
    cache.ev_memo().put(key, dataclasses.replace(fresh, **bad))  # type: ignore[arg-type]
    assert cache.ev_memo().get(key) != fresh  # the memo holds the bad entry...
    assert cache.cached_ev_report(RULES, SHOE, exact=exact) == fresh  # ...never served
