"""Test-wide setup: keep the on-disk memo of ``bja ev`` in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from analyzer.report import cache


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path_factory.getbasetemp() / "bja-cache"
    monkeypatch.setenv("BJA_CACHE_DIR", str(folder))
    cache._memory.cache_clear()
    yield folder
