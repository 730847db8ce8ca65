"""The rule sets of a grid: a base, axes of alternatives, their cartesian product.

An axis is ``"S17|H17"``: alternatives separated by ``|``, each a spec fragment
(one or more tokens) applied on top of the base; ``-`` keeps the base.  A cell
applies one alternative of every axis at once, so two axes setting the same rule
(``--vary "S17|H17" --vary "H17|-"``) make some cells contradictory: those
cells become rows that say why, and the rest of the grid is computed.

An alternative that is wrong whatever it is combined with (an unknown token, two
tokens of one rule, ``CH2``) is a usage error: it is rejected before anything
runs.  An alternative counts as valid when it parses on top of the base or of
the default rules (so ``CHBJ`` is accepted for a Charlie base).

Grid file (TOML)::

    # exactly one of base / game (game: a preset or classic table name;
    # with both, base tokens apply on top of the game)
    base = "6D S17 DOA DAS SPL3 LS"
    vary = [["1D", "2D", "6D", "8D"], ["S17", "H17"], ["DAS", "NDAS"]]  # optional

    [[rows]]            # optional named rows: tokens on top of the base
    name = "Strip"
    rules = "4D S17 DAS"

The rows of ``vary`` come first (cartesian product, in axis order), then the
named rows.  Unknown keys, wrong types or bad tokens: one error line.  A grid
has at most :data:`~analyzer.core.limits.MAX_GRID_CELLS` rows (each an exact
analysis), counted before any is built.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.core.errors import GridError, RuleConflictError, RuleError
from analyzer.core.limits import MAX_GRID_CELLS
from analyzer.core.numbers import shown
from analyzer.core.presets import game_rules
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.util.toml import load_toml

KEEP = "-"


@dataclass(frozen=True)
class Variant:
    """One row to compute: its name, and its rules or why there are none."""

    name: str
    rules: Rules | None
    error: str | None = None
    change: str | None = None

    @property
    def spec(self) -> str | None:
        return None if self.rules is None else format_spec(self.rules)


def parse_axis(text: str, base: Rules) -> list[str]:
    """The alternatives of ``"S17|H17"``; a :class:`GridError` for a bad one."""
    alternatives = [alt.strip() for alt in text.split("|")]
    check_cells(len(alternatives), f"--vary {shown(text)}")
    for alt in alternatives:
        if not alt:
            raise GridError(f"--vary {text!r}: empty alternative (use - for 'as the base')")
        if alt == KEEP:
            continue
        try:
            parse_spec(alt, base)
        except RuleConflictError:  # a combination the engine refuses: a row that says why
            pass
        except RuleError as err:  # an unknown, malformed or self-contradictory alternative
            raise GridError(f"--vary {text!r}: {err}") from None
    return alternatives


def check_cells(cells: int, what: str) -> None:
    """Refuse a grid of more than :data:`MAX_GRID_CELLS` rows before any is built."""
    if cells > MAX_GRID_CELLS:
        raise GridError(f"{what}: {cells:,} rows; at most {MAX_GRID_CELLS:,} (each row is an "
                        "exact analysis)")


def product_variants(base: Rules, axes: Sequence[Sequence[str]], extra: int = 0) -> list[Variant]:
    """One variant per cell of the cartesian product of the axes (and ``extra`` rows more)."""
    check_cells(math.prod(len(a) for a in axes) + extra,
                f"axes of {' x '.join(str(len(a)) for a in axes)} alternatives"
                + (f" and {extra} named rows" if extra else ""))
    variants = []
    for cell in itertools.product(*axes):
        chosen = [alt for alt in cell if alt != KEEP]
        name = " ".join(chosen) if chosen else "base"
        tokens = dict.fromkeys(t.upper() for alt in chosen for t in alt.split())  # H17 twice
        try:
            variants.append(Variant(name, parse_spec(" ".join(tokens), base)))
        except RuleError as err:
            variants.append(Variant(name, None, error=str(err)))
    return variants


def named_variant(name: str, tokens: str, base: Rules) -> Variant:
    try:
        return Variant(name, parse_spec(tokens, base))
    except RuleError as err:
        return Variant(name, None, error=str(err))


def resolve_base(base: str | None, game: str | None) -> Rules:
    """The base rules: a game with ``base`` tokens on top, or ``base`` alone."""
    if base is None and game is None:
        raise GridError("a comparison needs --base SPEC or --game NAME")
    return game_rules(game, base or "")


@dataclass(frozen=True)
class GridFile:
    base: Rules
    base_name: str
    variants: list[Variant]
    cells: tuple[tuple[str, ...], ...] = ()  # each product row's alternative of every axis


def _typed(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise GridError(f"{where}: {key!r} must be a {kind.__name__}, not {value!r}")
    return value


def load_grid(path: Path) -> GridFile:
    """Read a grid file (schema in the module docstring)."""
    where = str(path)
    data = load_toml(path, "grid file", GridError)
    unknown = set(data) - {"base", "game", "vary", "rows"}
    if unknown:
        raise GridError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                        "(known: base, game, vary, rows)")
    spec, game = _typed(data, "base", str, where), _typed(data, "game", str, where)
    try:
        base = resolve_base(spec, game)
    except RuleError as err:
        raise GridError(f"{where}: {err}") from None
    axes = [parse_axis("|".join(_strings(axis, where, "vary")), base)
            for axis in _typed(data, "vary", list, where) or []]
    rows = _typed(data, "rows", list, where) or []
    check_cells(len(rows), f"{where}: rows")
    variants = product_variants(base, axes, len(rows)) if axes else []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) - {"name", "rules"} \
                or not isinstance(row.get("rules", ""), str):
            raise GridError(f"{where}: rows[{i}] must be a table with name and rules strings")
        tokens = row.get("rules", "")
        variants.append(named_variant(str(row.get("name") or tokens or "base"), tokens, base))
    if not variants:
        raise GridError(f"{where}: no rows (give vary, rows, or both)")
    return GridFile(base, game if game and not spec else format_spec(base), variants,
                    tuple(itertools.product(*axes)))  # cells counted by product_variants


def _strings(axis: Any, where: str, key: str) -> list[str]:
    if not isinstance(axis, list) or not axis or not all(isinstance(a, str) for a in axis):
        raise GridError(f"{where}: every {key} entry must be a non-empty list of strings, "
                        f"not {axis!r}")
    return list(axis)


__all__ = ["GridError", "Variant", "check_cells", "parse_axis", "product_variants", "load_grid",
           "KEEP"]
