"""Test-wide setup: keep the on-disk memo of ``bja ev`` in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.getbasetemp() / "bja-cache"
    monkeypatch.setenv("BJA_CACHE_DIR", str(folder))
    return folder
