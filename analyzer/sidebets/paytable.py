"""Pay tables: the seed presets, TOML files and ``EVENT=N`` overrides, all validated.

A pay is "N to 1" (the stake comes back on a win), any rational N >= -1 — -1
makes an event lose, 0 makes it push.  A file names its bet and prices every
paying event of it, so a table cannot be applied to the wrong bet or silently
inherit a price::

    bet = "21+3"
    title = "my table"          # optional
    [pays]
    suited-trips = 100
    straight-flush = "81/2"     # a string for a fraction or a decimal
    ...

>>> from analyzer.sidebets.bets import get_bet
>>> t = override(preset(get_bet("any-pair")), "pair=7.5")
>>> t.name, format_pay(t.pays["pair"]), format_pay(t.pays["suited-pair"])
('seed with pair=15/2', '15/2', '25')
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from analyzer.core.errors import PayTableError
from analyzer.sidebets.bets import SideBet, get_bet

_PACKAGE = "analyzer.sidebets"  # holds paytables/<bet>-<preset>.toml


@dataclass(frozen=True)
class PayTable:
    """The pays ("to 1") of one bet's paying events."""

    bet: str
    name: str  # preset name or file, plus any overrides
    pays: Mapping[str, Fraction]


def exponent_ok(text: str) -> bool:
    """False for an absurd exponent: ``Fraction("1e999999999")`` would build a
    billion-digit integer (found by the fuzz tests) instead of failing."""
    exponent = re.search(r"[eE]\s*([+-]?\d+)", text)
    return not exponent or abs(int(exponent.group(1))) <= 1000


def parse_pay(raw: object, where: str) -> Fraction:
    """A pay from TOML (int, float, string) or the command line: ``"8"``, ``"7.5"``, ``"15/2"``."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise PayTableError(f"{where}: pay {raw!r} is not a number")
    if not exponent_ok(str(raw)):
        raise PayTableError(f"{where}: pay {raw!r} is not a number")
    try:
        pay = Fraction(str(raw).strip())
    except (ValueError, ZeroDivisionError):
        raise PayTableError(f"{where}: pay {raw!r} is not a number") from None
    if pay < -1:
        raise PayTableError(f"{where}: pay {raw!r} is below -1 (a stake cannot lose more)")
    return pay


def format_pay(pay: Fraction) -> str:
    """``"100"``, ``"15/2"`` — the form :func:`parse_pay` reads back."""
    return str(pay.numerator) if pay.denominator == 1 else f"{pay.numerator}/{pay.denominator}"


def _known(bet: SideBet, event: str, where: str) -> str:
    if event not in bet.paying:
        raise PayTableError(f"{where}: {bet.name} has no paying event {event!r} "
                            f"(events: {', '.join(bet.paying)})")
    return event


def table_from_data(bet: SideBet, data: Mapping[str, Any], name: str) -> PayTable:
    """Validate parsed TOML against ``bet``: right bet, every paying event priced, no others."""
    unknown = sorted(set(data) - {"bet", "title", "pays"})
    if unknown:
        raise PayTableError(f"{name}: unknown key {unknown[0]!r} (keys: bet, title, pays)")
    if data.get("bet") != bet.name:
        raise PayTableError(f"{name}: bet = {data.get('bet')!r} but the table is read for "
                            f"{bet.name!r}")
    pays = data.get("pays")
    if not isinstance(pays, dict):
        raise PayTableError(f"{name}: no [pays] table")
    table = {_known(bet, event, name): parse_pay(raw, f"{name}: {event}")
             for event, raw in pays.items()}
    missing = [e for e in bet.paying if e not in table]
    if missing:
        raise PayTableError(f"{name}: no pay for {missing[0]!r}")
    return PayTable(bet.name, name, {e: table[e] for e in bet.paying})


def preset_names(bet: SideBet) -> list[str]:
    """Presets shipped for ``bet`` (``paytables/<bet>-<name>.toml``)."""
    prefix = f"{bet.name}-"
    files = resources.files(_PACKAGE).joinpath("paytables").iterdir()
    return sorted(f.name[len(prefix):-5] for f in files
                  if f.name.startswith(prefix) and f.name.endswith(".toml"))


def preset(bet: SideBet, name: str = "seed") -> PayTable:
    """A shipped pay table; the ``seed`` preset is the free-bet game's."""
    if name not in preset_names(bet):
        raise PayTableError(f"no {bet.name} pay-table preset {name!r} "
                            f"(presets: {', '.join(preset_names(bet))})")
    text = resources.files(_PACKAGE).joinpath("paytables", f"{bet.name}-{name}.toml")
    return table_from_data(bet, tomllib.loads(text.read_text(encoding="utf-8")), name)


def load_paytable(bet: SideBet, path: Path) -> PayTable:
    """Read a TOML pay table; any problem with the file is one :class:`PayTableError` line."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise PayTableError(f"cannot read pay table {str(path)!r}: {err.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise PayTableError(f"pay table {str(path)!r} is not valid TOML: {first}") from None
    return table_from_data(bet, data, str(path))


def override(table: PayTable, text: str) -> PayTable:
    """Apply ``"EVENT=N,EVENT=N"`` on top of ``table``."""
    bet = get_bet(table.bet)
    pays = dict(table.pays)
    changed: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        event, sep, raw = item.partition("=")
        if not sep:
            raise PayTableError(f"--pays item {item!r} is not EVENT=N")
        event = _known(bet, event.strip(), "--pays")
        pays[event] = parse_pay(raw, f"--pays {event}")
        changed.append(f"{event}={format_pay(pays[event])}")
    if not changed:
        return table
    return PayTable(table.bet, f"{table.name} with {','.join(changed)}", pays)
