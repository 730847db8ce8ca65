"""The public library API listed in ``analyzer/__init__.py``: complete, lazy, typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import analyzer


def test_every_listed_name_resolves_to_its_module() -> None:
    assert set(analyzer.__all__) == {"__version__", *analyzer._API}
    for name, module in analyzer._API.items():
        value = getattr(analyzer, name)
        assert getattr(sys.modules[module], name) is value


def test_import_analyzer_is_light() -> None:
    code = ("import sys, analyzer\n"
            "print([m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'matplotlib', 'sympy', 'joblib') or m.startswith('analyzer.')])")
    # Only the version constant comes with the package.
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "['analyzer.core', 'analyzer.core.version']"


def test_the_package_says_it_is_typed() -> None:
    assert (Path(analyzer.__file__).parent / "py.typed").is_file()
    pyproject = (Path(analyzer.__file__).parents[1] / "pyproject.toml").read_text()
    assert '"analyzer" = ["py.typed"]' in pyproject


def test_architecture_md_matches_the_tree() -> None:
    import re

    root = Path(analyzer.__file__).parents[1]
    text = (root / "ARCHITECTURE.md").read_text()
    named = set(re.findall(r"\b((?:core|engine|crosscheck|charts|sidebets|report|cli)/[\w*]+\.py)",
                           text))
    assert len(named) > 20
    missing = [p for p in sorted(named) if not list((root / "analyzer").glob(p))]
    assert missing == []
    for path in re.findall(r"`(tests/\w+\.py)`", text):
        assert (root / path).is_file(), path
    packages = {p.name for p in (root / "analyzer").iterdir() if (p / "__init__.py").is_file()}
    assert all(f"{name}/" in text for name in packages), packages
