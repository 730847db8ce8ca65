"""The on-disk memo of ``bja ev``: models, not text; never a damaged or stale entry served.

The reference figure is the same computation without the cache (``--no-cache``),
so each test can fail only if the cache serves something else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core.rules import format_spec, parse_spec
from analyzer.core.shoe import Shoe, format_shoe, parse_shoe
from analyzer.report import cache
from analyzer.report.model import EvReport
from analyzer.report.render import ev_json

RULES = parse_spec("1D H17 DOA NDAS SPL1 NS")
SHOE = parse_shoe("A:2,5:4,8:3,T:6")
OTHER = parse_shoe("A:2,5:4,8:4,T:6")


def _report(shoe: Shoe = SHOE, *, use_cache: bool = True) -> EvReport:
    return cache.cached_ev_report(RULES, shoe, exact=True, use_cache=use_cache)


def test_entries_are_models_and_are_served_again() -> None:
    fresh = _report(use_cache=False)
    first = _report()
    path = cache.entry_path(RULES, SHOE, exact=True, split="cdz")
    assert path.exists() and first == fresh
    stamp = path.stat().st_mtime_ns
    assert _report() == fresh and path.stat().st_mtime_ns == stamp  # served, not rewritten
    assert isinstance(fresh.ev, type(fresh.by_upcard[0][1]))  # Fractions kept when exact


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage", "foreign"])
def test_a_damaged_entry_is_recomputed_not_served(damage: str) -> None:
    fresh = _report(use_cache=False)
    _report()
    path = cache.entry_path(RULES, SHOE, exact=True, split="cdz")
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # one bit of the pickled figures: the digest no longer matches
        i = len(data) - 40
        path.write_bytes(data[:i] + bytes([data[i] ^ 1]) + data[i + 1:])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    else:  # a whole, valid entry of other inputs, moved to this key
        _report(OTHER)
        shutil.copy(cache.entry_path(RULES, OTHER, exact=True, split="cdz"), path)
    assert _report() == fresh
    assert path.read_bytes() != b"" and _report() == fresh  # the entry was rewritten whole


def test_an_unwritable_cache_folder_costs_only_speed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("BJA_CACHE_DIR", str(blocker))
    assert _report() == _report(use_cache=False)


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
    assert len(files) == 1 and files[0].suffix == ".pkl"  # no temporary file left
    monkeypatch.setenv("BJA_CACHE_DIR", str(tmp_path))
    assert cache.entry_path(RULES, SHOE, exact=True, split="cdz") == files[0]
    stamp = files[0].stat().st_mtime_ns
    assert _report() == _report(use_cache=False) and files[0].stat().st_mtime_ns == stamp


def test_the_fingerprint_covers_every_file_of_the_package(tmp_path: Path) -> None:
    package = Path(cache.__file__).parents[1]
    copy = tmp_path / "analyzer"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    base = cache.fingerprint_of(copy)
    assert base == cache.engine_fingerprint()
    table = next(copy.rglob("*.toml"))
    table.write_text(table.read_text() + "\n")
    assert cache.fingerprint_of(copy) != base
    table.rename(table.with_suffix(".toml.moved"))
    assert cache.fingerprint_of(copy) != base
