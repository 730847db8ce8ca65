"""The submission's particulars a lab adds to a certificate: who submits it, where, when.

``bja certify --meta FILE.toml`` reads them (through the one TOML loader,
:mod:`analyzer.util.toml`, with its caps).  Nothing is taken from the clock
or the machine: a field not given prints as "not supplied", so a certificate
stays a pure function of its inputs.  Example::

    lab = "Example Test Lab"
    manufacturer = "Example Games Ltd"
    game_name = "Charlie 7 Blackjack"
    submission_reference = "EX-2026-0042"
    jurisdiction = "Nevada"
    submission_date = 2026-11-30
    report_date = 2026-12-01
    mathematician = "A. Analyst"
    reviewer = "R. Reviewer"
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from analyzer.core.errors import UsageError
from analyzer.util.toml import load_toml

NOT_SUPPLIED = "not supplied"
MAX_FIELD = 200  # characters of one field: a name or a reference, not a document


@dataclass(frozen=True)
class Meta:
    """The submission's particulars; ``None`` where not supplied."""

    lab: str | None = None
    manufacturer: str | None = None
    game_name: str | None = None  # the game's name as marketed
    submission_reference: str | None = None
    jurisdiction: str | None = None
    submission_date: str | None = None
    report_date: str | None = None
    mathematician: str | None = None
    reviewer: str | None = None

    def __post_init__(self) -> None:
        """The file's checks for a Meta built in Python too (a newline broke the table)."""
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and _field(f.name, value, "meta") != value:
                raise UsageError(f"meta: {f.name} has spaces around it")

    def text(self, name: str) -> str:
        value: str | None = getattr(self, name)
        return NOT_SUPPLIED if value is None else value

    def data(self) -> dict[str, str | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


LABELS: dict[str, str] = {
    "lab": "test laboratory", "manufacturer": "manufacturer / supplier",
    "game_name": "game name as marketed", "submission_reference": "submission reference",
    "jurisdiction": "jurisdiction", "submission_date": "submission date",
    "report_date": "report date", "mathematician": "mathematician",
    "reviewer": "reviewer",
}


# Characters a signed document must not hold: controls (C0 and C1: NEL too), line and
# paragraph separators, and the marks that reverse the direction of the text after them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _hidden(ch: str) -> bool:
    """Controls, separators and format characters (the direction marks among them, and
    zero-width ones that make two names look alike)."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or ch in _BIDI


DATES = ("submission_date", "report_date")  # a TOML date, or its text: 2026-11-30


def _date(name: str, text: str, where: str) -> str:
    """A date's ISO text, refused unless it is one ("next Tuesday" is not a date)."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise UsageError(f"{where}: {name} must be a date such as 2026-11-30, not {text!r}")


def _field(name: str, value: Any, where: str) -> str:
    """One field as text: a string, or a TOML date (printed ISO); a date field a date."""
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value.isoformat()
    if not isinstance(value, str):
        raise UsageError(f"{where}: {name} must be text or a date, not {type(value).__name__}")
    if len(value) > MAX_FIELD:
        raise UsageError(f"{where}: {name} is {len(value)} characters; at most {MAX_FIELD}")
    odd = next((ch for ch in value if _hidden(ch)), None)
    if odd is not None:
        raise UsageError(f"{where}: {name} holds a control character (U+{ord(odd):04X})")
    if not value.strip():
        raise UsageError(f"{where}: {name} is blank (leave it out instead)")
    return _date(name, value.strip(), where) if name in DATES else value.strip()


def meta_from(data: dict[str, Any], where: str) -> Meta:
    """A :class:`Meta` from parsed TOML; an unknown key or a bad value is a UsageError."""
    known = set(LABELS)
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(LABELS)})")
    return Meta(**{name: _field(name, value, where) for name, value in data.items()})


def load_meta(path: Path) -> Meta:
    """The particulars in the TOML file ``path``."""
    return meta_from(load_toml(path, "metadata file", UsageError),
                     f"metadata file {str(path)!r}")


__all__ = ["DATES", "LABELS", "MAX_FIELD", "NOT_SUPPLIED", "Meta", "load_meta", "meta_from"]
