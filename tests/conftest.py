"""Test-wide setup: keep the on-disk memo of ``bja ev`` in a temporary folder.

Under pytest-xdist every core already runs a worker, so analyses stay in their
worker's process (``BJA_JOBS=1``) unless a test asks for helper processes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("BJA_JOBS", "1")

import pytest

from analyzer.report import cache


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path_factory.getbasetemp() / "bja-cache"
    monkeypatch.setenv("BJA_CACHE_DIR", str(folder))
    cache._memory.cache_clear()
    yield folder
