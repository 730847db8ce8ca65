"""The result objects of :mod:`analyzer.api`: one small frozen base class.

Every API function returns a :class:`Result`.  Its ``to_dict()`` is exactly the
JSON the matching ``bja`` command prints with ``--json`` (the command prints
it: one code path), its text renderings are what the command prints otherwise,
and ``to_frame()`` is a tidy :class:`pandas.DataFrame` (pandas is the optional
``frames`` extra).  Values are plain Python numbers and strings, never numpy
scalars, and upcards are named ``"2"``..``"9"``, ``"T"``, ``"A"`` in that order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar

from analyzer.core.arith import is_exact, public
from analyzer.core.cards import format_value
from analyzer.core.errors import UsageError

if TYPE_CHECKING:
    import pandas as pd

UPCARD_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # the order every table shows
UPCARDS: tuple[str, ...] = tuple(format_value(u) for u in UPCARD_ORDER)  # "2".."9", "T", "A"
CARD_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # card values removed, ace first (shoe order)

Row = dict[str, Any]


def plain(value: Any) -> Any:
    """``value`` with every numpy scalar and array made plain Python (float, int, bool, list).

    >>> import numpy as np
    >>> from analyzer.core.levels import SplitLevel
    >>> plain({"x": np.float64(0.5), "n": [np.int64(3)], "t": (np.bool_(True),),
    ...        "split": SplitLevel.CDZ})
    {'x': 0.5, 'n': [3], 't': (True,), 'split': 'cdz'}
    """
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if value is None or type(value) in (str, int, float, bool, Fraction):
        return value
    if is_exact(value):  # a GMP rational: the Fraction it equals
        return public(value)
    if isinstance(value, str):  # a StrEnum member (a split level): its text
        return str.__str__(value)
    item = getattr(value, "item", None)  # a numpy scalar or 0-d array
    if callable(item) and getattr(value, "ndim", 1) == 0:
        return plain(item())
    tolist = getattr(value, "tolist", None)  # a numpy array
    if callable(tolist):
        return plain(tolist())
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def number(x: Any) -> float | Fraction | int:
    """A figure as a plain number: a Fraction stays exact, anything else is a float."""
    if is_exact(x):
        exact: Fraction = public(x)
        return exact
    if type(x) is int:
        return x
    return float(x)


def upcard_dict(values: Mapping[int, Any]) -> dict[str, Any]:
    """``{upcard value: figure}`` keyed ``"2"``..``"9"``, ``"T"``, ``"A"`` in that order."""
    return {format_value(u): number(values[u]) for u in UPCARD_ORDER if u in values}


def frame(rows: Sequence[Row], columns: Sequence[str]) -> pd.DataFrame:
    """A DataFrame of ``rows`` with exactly ``columns``; a one-line error without pandas."""
    try:
        import pandas as pd
    except ImportError:
        raise UsageError("to_frame() needs pandas: pip install 'bja-analyzer[frames]'") from None
    return pd.DataFrame([[row.get(c) for c in columns] for row in rows], columns=list(columns))


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.9g}"
    return "" if value is None else str(value)


def html_table(columns: Sequence[str], rows: Sequence[Row], caption: str = "") -> str:
    """A small HTML table (the notebook view of a result)."""
    out = ["<table>"]
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in columns)
               + "</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{escape(_cell(row.get(c)))}</td>" for c in columns)
                   + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


@dataclass(frozen=True, repr=False)
class Result:
    """What an API function returns: figures, their JSON, text and a tidy table.

    Subclasses say what their rows and columns are (``columns``, ``rows()``),
    how they print (``to_text()``) and their JSON (``to_dict()``).
    """

    columns: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """Exactly what the ``bja`` command prints with ``--json``."""
        raise NotImplementedError

    def to_text(self) -> str:
        """What the ``bja`` command prints without ``--json``."""
        raise NotImplementedError

    def rows(self) -> list[Row]:
        """The tidy rows of :meth:`to_frame`, one dict per row (plain values)."""
        raise NotImplementedError

    def frame_columns(self) -> tuple[str, ...]:
        """The columns of :meth:`to_frame`."""
        return self.columns

    def to_frame(self) -> pd.DataFrame:
        """The figures as a tidy :class:`pandas.DataFrame` (``pip install
        'bja-analyzer[frames]'``): one row per item, one column per figure."""
        return frame(self.rows(), self.frame_columns())

    def summary(self) -> str:
        """The one line of ``repr``, inside ``<...>``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{self.summary()}>"

    def _repr_html_(self) -> str:
        return html_table(self.frame_columns(), self.rows(), self.summary())


__all__ = ["CARD_ORDER", "Result", "UPCARDS", "UPCARD_ORDER", "frame", "html_table", "number",
           "plain", "upcard_dict"]
