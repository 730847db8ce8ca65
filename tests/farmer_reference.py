"""Parser for the reference outputs of Eric Farmer's analyzer, copied into ``tests/reference``.

Source: Eric Farmer, "Blackjack Basic Strategy Calculator" v7.6 (C++), repository
possibly-wrong/blackjack, commit a1f7dbb; run on the rules named in each file (see
the header of each file and ``tests/reference/README.md``).  All EVs there are percent
of the initial bet printed to 9 decimals; per-hand EVs are conditioned on the dealer
not having blackjack, the overall and per-upcard EVs are not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REFERENCE_DIR = Path(__file__).parent / "reference" / "farmer-ca"
PAIR_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # rows: A,A then 2,2 .. 10,10
UP_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # columns


@dataclass
class FarmerReference:
    name: str
    overall: float
    by_upcard: dict[int, float]
    dealer: dict[int, dict[str, float]]
    queries: list[tuple[int, tuple[int, ...], dict[str, float]]]
    pair_tables: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    text: str = ""


def _card(symbol: str) -> int:
    return 1 if symbol.strip() == "A" else int(symbol)


def load(name: str) -> FarmerReference:
    text = (REFERENCE_DIR / name).read_text()
    overall = float(re.search(r"\n\s*Total \|\s+(-?\d+\.\d{9})(?: \+/- [\d.]+)?\n", text).group(1))  # type: ignore[union-attr]
    by_upcard = {_card(m.group(1)): float(m.group(2))
                 for m in re.finditer(r"^\s+(\d+|A)\s+\|\s+(-?\d+\.\d{9})$", text, re.M)}
    dealer: dict[int, dict[str, float]] = {}
    keys = ("bust", "17", "18", "19", "20", "21", "blackjack")
    for m in re.finditer(r"^\s+(\d+|A)\s+\|((?: \d\.\d{5} \|){6} \d\.\d{5})$", text, re.M):
        values = [float(v) for v in m.group(2).split("|")]
        dealer[_card(m.group(1))] = dict(zip(keys, values, strict=True))
    queries = []
    for m in re.finditer(r"\[(\d+) (\d+) ([\d ]+)\]: (.*)$", text, re.M):
        up = int(m.group(1))
        cards = tuple(int(c) for c in m.group(3).split())
        evs = {k.lower(): float(v) for k, v in re.findall(r"(\w+)=(-?\d+\.\d+)", m.group(4))}
        queries.append((up, cards, evs))
    tables: dict[str, dict[tuple[int, int], float]] = {}
    for m in re.finditer(r"-- E\((\w+)\) % --\npair.*\n((?:.+\n?){10})", text):
        table = {}
        for row, line in zip(PAIR_ORDER, m.group(2).splitlines(), strict=True):
            values = [float(v) for v in line.split()[1:]]
            for up, v in zip(UP_ORDER, values, strict=True):
                table[(row, up)] = v
        tables[m.group(1).lower()] = table
    return FarmerReference(name=name, overall=overall, by_upcard=by_upcard, dealer=dealer,
                           queries=queries, pair_tables=tables, text=text)
