"""Layers that run one way: no import cycle between analyzer's packages, and the contract.

The graph is grimp's (import-linter's own library): every ``import`` in every
module of ``analyzer``, those inside functions and under ``TYPE_CHECKING``
included.  Each module is reduced to its package (``analyzer.engine.dealer`` ->
``analyzer.engine``; a top-level module such as ``analyzer.build`` is its own
node), and the packages must form a directed acyclic graph (issue 20 found five
package-level cycles).  ``lint-imports`` then checks the layer order of
``pyproject.toml``'s contract, which a DAG alone does not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent


# The two shells of the top layer are one node: the web app runs the CLI's own parser and
# handlers, and ``bja serve`` starts the web app (the contract's ``cli : web`` siblings).
SHELLS = {"analyzer.cli": "analyzer.shells", "analyzer.web": "analyzer.shells"}


def package_of(module: str) -> str:
    """``analyzer.engine.dealer`` -> ``analyzer.engine``; ``analyzer`` stays itself; the
    command line and the web app are the shells."""
    package = ".".join(module.split(".")[:2])
    return SHELLS.get(package, package)


@pytest.fixture(scope="module")
def packages() -> nx.DiGraph:
    graph = grimp.build_graph("analyzer")
    deps = nx.DiGraph()
    for module in graph.modules:
        deps.add_node(package_of(module))
        for imported in graph.find_modules_directly_imported_by(module):
            if package_of(imported) != package_of(module):
                deps.add_edge(package_of(module), package_of(imported))
    return deps


def test_the_graph_counts_imports_inside_functions(packages: nx.DiGraph) -> None:
    # analyzer/build.py imports the certificates and the comparison only inside build():
    # the graph must see them, or a cycle through such an import would go unnoticed.
    assert packages.has_edge("analyzer.build", "analyzer.certificates")
    assert packages.has_edge("analyzer.build", "analyzer.comparisons")
    assert {"analyzer.core", "analyzer.engine", "analyzer.shells"} <= set(packages)
    assert packages.has_edge("analyzer.shells", "analyzer.api")


def test_no_package_level_import_cycle(packages: nx.DiGraph) -> None:
    cycles = list(nx.simple_cycles(packages))
    assert nx.is_directed_acyclic_graph(packages), f"import cycles between packages: {cycles}"


def test_import_linter_contract_holds() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
