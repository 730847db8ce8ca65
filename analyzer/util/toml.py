"""The one TOML loader: pay tables, grid files and count systems are read through it.

``tomllib`` parses nested arrays and inline tables by recursion, so a file
nested 50,000 deep ends in a ``RecursionError`` (thousands of traceback
lines), and it resolves a dotted key in time quadratic in its parts (a key of
tens of thousands of parts would hold the command for ever).  So the text is
first checked for depth: at most :data:`~analyzer.core.limits.MAX_TOML_DEPTH`
arrays or tables open at once and as many parts in one key, counted outside
strings and comments.  The file is read with the size cap of
:func:`~analyzer.util.files.read_input`, and every problem (not UTF-8, not
TOML, an integer past Python's 4,300 digits) becomes the caller's own error
class, in one line naming the file.

>>> parse_toml('bet = "hot3"\\n[pays]\\n777 = 100', "pay table", ValueError)
{'bet': 'hot3', 'pays': {'777': 100}}
>>> parse_toml("a = " + "[" * 40 + "]" * 40, "grid file 'g.toml'", ValueError)
Traceback (most recent call last):
ValueError: grid file 'g.toml' nests arrays or tables 40 deep; at most 32
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from analyzer.core.errors import AnalyzerError
from analyzer.core.limits import MAX_TOML_DEPTH
from analyzer.util.files import read_input

_BASIC = r'"(?:[^"\\\n]|\\.)*"'
_LITERAL = r"'[^'\n]*'"
_PART = re.compile(rf"[A-Za-z0-9_-]+|{_BASIC}|{_LITERAL}")
_TOKEN = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|' r"'''.*?'''|"  # multi-line strings: skipped
    r"#[^\n]*|"  # comments: skipped
    rf"(?P<key>(?:{_PART.pattern})(?:[ \t]*\.[ \t]*(?:{_PART.pattern}))*)|"  # (dotted) keys
    r"(?P<open>[\[{])|(?P<close>[\]}])", re.S)


def nesting(text: str) -> tuple[int, int]:
    """The deepest nesting of arrays and tables, and the most parts of one (dotted) key.

    >>> nesting('a = [[1, 2], {b = "[["}]  # [[[\\nx.y."z.w" = 1.5')
    (2, 3)
    """
    depth = deepest = parts = 0
    for m in _TOKEN.finditer(text):
        if m["key"] is not None:
            parts = max(parts, len(_PART.findall(m["key"])))
        elif m["open"] is not None:
            depth += 1
            deepest = max(deepest, depth)
        elif m["close"] is not None:
            depth = max(0, depth - 1)
    return deepest, parts


def parse_toml(text: str, where: str, error: type[AnalyzerError]) -> dict[str, Any]:
    """``text`` parsed as TOML, or ``error`` naming ``where`` (e.g. ``"pay table 'x.toml'"``)."""
    deepest, parts = nesting(text)
    if deepest > MAX_TOML_DEPTH:
        raise error(f"{where} nests arrays or tables {deepest} deep; at most {MAX_TOML_DEPTH}")
    if parts > MAX_TOML_DEPTH:
        raise error(f"{where} has a key of {parts} dotted parts; at most {MAX_TOML_DEPTH}")
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as err:  # TOMLDecodeError, or an int past 4,300 digits
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise error(f"{where} is not valid TOML: {first}") from None


def load_toml(path: Path, what: str, error: type[AnalyzerError]) -> dict[str, Any]:
    """The TOML file ``path`` (a regular file, size-capped), or ``error`` naming it.

    ``what`` names the kind of file in messages: ``"pay table"``, ``"grid file"``...
    A leading byte-order mark (as some Windows editors write UTF-8) is dropped: TOML has
    none, and the parser's "invalid statement at line 1, column 1" did not say why.
    """
    text = read_input(path, what, error).removeprefix("\ufeff")
    return parse_toml(text, f"{what} {str(path)!r}", error)


__all__ = ["load_toml", "nesting", "parse_toml"]
