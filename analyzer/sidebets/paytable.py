"""Pay tables: the seed presets, TOML files and ``EVENT=N`` overrides, all validated.

A pay is "N to 1" (the stake comes back on a win), any rational N from -1 to
:data:`~analyzer.core.limits.MAX_PAY` — -1 makes an event lose, 0 makes it push;
a bound, so that a typing slip (``1e160``) is an error line, not an overflow in
the variance.  A file names its bet and prices every
paying event of it, so a table cannot be applied to the wrong bet or silently
inherit a price::

    bet = "21+3"
    title = "my table"          # optional
    source = "where it is used" # optional
    decks = 6                   # optional: the decks it is dealt from where published
    spanish = false             # optional: those decks are Spanish (no 10s)
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

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from analyzer.core.errors import PayTableError
from analyzer.core.limits import MAX_PAY
from analyzer.core.numbers import parse_rational, shown
from analyzer.sidebets.bets import BETS, SideBet, get_bet
from analyzer.util.text import fraction_text
from analyzer.util.toml import load_toml, parse_toml

_PACKAGE = "analyzer.sidebets"  # holds paytables/<bet>-<preset>.toml


@dataclass(frozen=True)
class PayTable:
    """The pays ("to 1") of one bet's paying events."""

    bet: str
    name: str  # preset name or file, plus any overrides
    pays: Mapping[str, Fraction]
    title: str = ""  # what the table is called where it is dealt
    source: str = ""  # where its pays were published
    decks: int | None = None  # the decks it is published for (a par sheet of others says so)
    spanish: bool = False  # those decks are Spanish decks


def parse_pay(raw: object, where: str) -> Fraction:
    """A pay from TOML (int, float, string) or the command line: ``"8"``, ``"7.5"``, ``"15/2"``.

    A TOML float is read from its shortest decimal form (``7.5``, ``1e+160``), exactly.
    """
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise PayTableError(f"{where}: pay {raw!r} is not a number")
    pay = parse_rational(str(raw), f"{where}: pay", PayTableError)
    if pay < -1:
        raise PayTableError(f"{where}: pay {shown(str(raw))} is below -1 (a stake cannot "
                            "lose more)")
    if pay > MAX_PAY:
        raise PayTableError(f"{where}: pay {shown(str(raw))} is above the bound {MAX_PAY:,} "
                            "to 1")
    return pay


def format_pay(pay: Fraction) -> str:
    """``"100"``, ``"15/2"`` — the form :func:`parse_pay` reads back."""
    return fraction_text(pay, bare_integers=True)


def _known(bet: SideBet, event: str, where: str) -> str:
    if event not in bet.paying:
        raise PayTableError(f"{where}: {bet.name} has no paying event {event!r} "
                            f"(events: {', '.join(bet.paying)})")
    return event


def table_from_data(bet: SideBet, data: Mapping[str, Any], name: str) -> PayTable:
    """Validate parsed TOML against ``bet``: right bet, every paying event priced, no others."""
    unknown = sorted(set(data) - {"bet", "title", "source", "decks", "spanish", "pays"})
    if unknown:
        raise PayTableError(f"{name}: unknown key {unknown[0]!r} (keys: bet, title, source, "
                            "decks, spanish, pays)")
    if not isinstance(data.get("spanish", False), bool):
        raise PayTableError(f"{name}: spanish is true or false, not {shown(data['spanish'])}")
    decks = data.get("decks")
    if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int)
                              or not 1 <= decks <= 8):
        raise PayTableError(f"{name}: decks is a whole number 1 to 8, not {shown(decks)}")
    for key in ("title", "source"):
        if not isinstance(data.get(key, ""), str):
            raise PayTableError(f"{name}: {key} is not a string")
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
    return PayTable(bet.name, name, {e: table[e] for e in bet.paying},
                    str(data.get("title", "")), str(data.get("source", "")), decks,
                    bool(data.get("spanish", False)))


def preset_names(bet: SideBet) -> list[str]:
    """Presets shipped for ``bet`` (``paytables/<bet>-<name>.toml``)."""
    prefix = f"{bet.name}-"
    longer = [f"{b}-" for b in BETS if b.startswith(prefix)]  # 21+3-classic is not 21+3's
    files = resources.files(_PACKAGE).joinpath("paytables").iterdir()
    return sorted(f.name[len(prefix):-5] for f in files
                  if f.name.startswith(prefix) and f.name.endswith(".toml")
                  and not any(f.name.startswith(other) for other in longer))


def preset(bet: SideBet, name: str | None = None) -> PayTable:
    """A shipped pay table; by default the bet's usual one (``seed``: the free-bet game's)."""
    name = bet.default_table if name is None else name
    if name not in preset_names(bet):
        raise PayTableError(f"no {bet.name} pay-table preset {name!r} "
                            f"(presets: {', '.join(preset_names(bet))})")
    text = resources.files(_PACKAGE).joinpath("paytables", f"{bet.name}-{name}.toml")
    return table_from_data(bet, parse_toml(text.read_text(encoding="utf-8"),
                                           f"pay table {name!r}", PayTableError), name)


def presets(bet: SideBet) -> list[PayTable]:
    """Every shipped pay table of ``bet``, the default first."""
    names = preset_names(bet)
    return [preset(bet, n) for n in sorted(names, key=lambda n: (n != bet.default_table, n))]


def select_paytable(bet: SideBet, text: str) -> PayTable:
    """``--paytable``: ``BET:NAME`` picks a shipped table, anything else is a TOML file.

    ``BET:NAME`` is read as a shipped table only when BET is a side bet's name; a file
    whose name has that form is reached as ``./BET:NAME``.
    """
    named, colon, table = text.partition(":")
    if colon and named.strip().lower() in BETS and "/" not in text and "\\" not in text:
        if named.strip().lower() != bet.name:
            raise PayTableError(f"--paytable {text!r} is a {named.strip().lower()} table, not "
                                f"{bet.name}'s")
        return preset(bet, table.strip())
    return load_paytable(bet, Path(text))


def load_paytable(bet: SideBet, path: Path) -> PayTable:
    """Read a TOML pay table; any problem with the file is one :class:`PayTableError` line."""
    return table_from_data(bet, load_toml(path, "pay table", PayTableError), str(path))


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
        if any(c.startswith(f"{event}=") for c in changed):
            raise PayTableError(f"--pays names {event!r} twice")
        pays[event] = parse_pay(raw, f"--pays {event}")
        changed.append(f"{event}={format_pay(pays[event])}")
    if not changed:
        return table
    return PayTable(table.bet, f"{table.name} with {','.join(changed)}", pays, table.title,
                    table.source, table.decks, table.spanish)
