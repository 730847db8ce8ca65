"""Linear card-counting systems: a tag per card value, summed over the cards seen.

A system is its ten tags (A, 2-9, T).  The built-in systems are the classic
published ones; any other linear count is read from a TOML file::

    name = "My count"            # optional; defaults to the file name
    source = "where it is from"  # optional
    [tags]                       # all ten values, numbers (integers or decimals)
    A = -1
    2 = 1
    3 = 1
    4 = 1
    5 = 1
    6 = 1
    7 = 0
    8 = 0
    9 = 0
    T = -1                       # "10" is accepted for T

Tags are kept as exact fractions (a decimal ``0.5`` is one half), so true
counts and the shoes built from them are exact.  A tag's magnitude is 0 or
between :data:`MIN_TAG` and :data:`MAX_TAG`: a count is read by people, and
tags of 1e-300 or 1e308 only make floats underflow or overflow.  The
correlations do not depend on the tags' scale, so they are computed from
:meth:`CountSystem.unit_tags` (the largest tag 1 in magnitude) either way.

>>> hi_lo = get_system("hi-lo")
>>> hi_lo.tag(5), hi_lo.tag(10), hi_lo.balanced
(Fraction(1, 1), Fraction(-1, 1), True)
>>> get_system("ko").balanced
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from analyzer.core.cards import format_value, parse_value
from analyzer.core.errors import AnalyzerError, NotationError
from analyzer.util.toml import load_toml

DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)  # one 52-card deck by value A..T
MIN_TAG = Fraction(1, 10**6)  # smallest magnitude of a nonzero tag
MAX_TAG = 10**6  # largest magnitude of a tag


class CountError(NotationError):
    """An unknown count system, or a malformed count-system file."""


@dataclass(frozen=True)
class CountSystem:
    """A linear count: ``tags[v - 1]`` is added to the running count for each card ``v``."""

    name: str
    tags: tuple[Fraction, ...]
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.tags) != 10 or not all(isinstance(t, Fraction) for t in self.tags):
            raise CountError(f"count {self.name!r}: needs ten tags (A, 2-9, T) as Fractions")
        for v, t in zip(range(1, 11), self.tags, strict=True):
            if t and not MIN_TAG <= abs(t) <= MAX_TAG:
                raise CountError(f"count {self.name!r}: tag of {format_value(v)} is {t}; a tag "
                                 f"is 0 or of magnitude {float(MIN_TAG):g} to {MAX_TAG:g}")
        if len(set(self.tags)) == 1:
            raise CountError(f"count {self.name!r}: every card has the same tag, so the true "
                             "count never moves")

    def tag(self, value: int) -> Fraction:
        return self.tags[value - 1]

    @property
    def deck_sum(self) -> Fraction:
        """Running count after a whole 52-card deck: 0 for a balanced count (KO: +4)."""
        return self.running_count(DECK)

    @property
    def balanced(self) -> bool:
        """Balanced on standard decks, as the count is published."""
        return self.deck_sum == 0

    def balanced_in(self, full: Sequence[int]) -> bool:
        """Balanced on this shoe: its whole running count is 0 (Hi-Lo is not on Spanish
        decks, whose 10s are gone: +4 a deck)."""
        return self.running_count(full) == 0

    def mean_tag_in(self, full: Sequence[int]) -> Fraction:
        """Average tag of a card of the full shoe ``full`` (by value A..T): what a true
        count is centred by, so that it averages 0 over the shoe's own cards."""
        return self.running_count(full) / sum(full)

    def running_count(self, counts: Sequence[int]) -> Fraction:
        """Running count of the cards ``counts`` (how many of each value A..T were seen)."""
        return sum((n * t for n, t in zip(counts, self.tags, strict=True)), Fraction(0))

    def unit_tags(self) -> tuple[float, ...]:
        """The tags scaled so the largest magnitude is 1 (exactly, then as floats).

        Correlations are scale-invariant; scaled tags keep their sums of squares
        far from float underflow and overflow whatever the tags' scale.
        """
        top = max(abs(t) for t in self.tags)
        if top == 0:
            raise CountError(f"count {self.name!r}: every tag is 0, so the count never moves")
        return tuple(float(t / top) for t in self.tags)

    def tag_text(self) -> str:
        """The tags as ``A:-1 2:+1 ...`` (for tables)."""
        return " ".join(f"{format_value(v)}:{_signed(t)}" for v, t in
                        zip(range(1, 11), self.tags, strict=True))


def _signed(t: Fraction) -> str:
    text = str(t) if t.denominator == 1 else f"{float(t):g}"
    return text if t < 0 else f"+{text}" if t > 0 else "0"


def _system(name: str, tags: tuple[float, ...], source: str) -> CountSystem:
    return CountSystem(name=name, tags=tuple(Fraction(t) for t in tags), source=source)


_WONG = "Stanford Wong, Professional Blackjack (1994)"
_HUMBLE = "Humble & Cooper, The World's Greatest Blackjack Book (1980)"
_SYSTEMS = (
    _system("hi-lo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
            "Harvey Dubner (1963); Wong, Professional Blackjack; Schlesinger, Blackjack Attack"),
    _system("ko", (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
            "Vancura & Fuchs, Knock-Out Blackjack (1998); unbalanced (+4 per deck)"),
    _system("hi-opt-1", (0, 0, 1, 1, 1, 1, 0, 0, 0, -1), f"Charles Einstein (1968); {_HUMBLE}"),
    _system("hi-opt-2", (0, 1, 1, 2, 2, 1, 1, 0, 0, -2), _HUMBLE),
    _system("omega-2", (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
            "Bryce Carlson, Blackjack for Blood (1992)"),
    _system("zen", (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
            "Arnold Snyder, Blackbelt in Blackjack (1983)"),
    _system("wong-halves", (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1), _WONG),
)
SYSTEMS: dict[str, CountSystem] = {s.name: s for s in _SYSTEMS}


def builtin_of(system: CountSystem) -> str | None:
    """The built-in system with exactly these tags, whatever ``system`` is called, or None.

    Published figures (indices, efficiencies) belong to the tags, not to a name: a count
    file called "zen" with other tags is not Zen, one with Hi-Lo's tags is Hi-Lo.
    """
    return next((s.name for s in _SYSTEMS if s.tags == system.tags), None)


def system_key(name: str) -> str:
    """A count system's name as compared: case, spaces and hyphens ignored (``hilo``,
    ``Hi-Lo`` and ``hi-lo`` are one name, in every command)."""
    return "".join(name.lower().split()).replace("-", "")


_BY_KEY = {system_key(name): name for name in SYSTEMS}


def get_system(name_or_path: str) -> CountSystem:
    """A built-in system by name, or one read from a ``.toml`` file."""
    key = name_or_path.strip().lower()
    if system_key(key) in _BY_KEY:
        return SYSTEMS[_BY_KEY[system_key(key)]]
    if key.endswith(".toml"):
        return load_system(Path(name_or_path))
    raise CountError(f"unknown count system {name_or_path!r} (known: {', '.join(SYSTEMS)}; "
                     "or a .toml file)")


def load_system(path: Path) -> CountSystem:
    """Read a count system from a TOML file (schema in the module docstring)."""
    data = load_toml(path, "count file", CountError)
    return system_from_mapping(data, default_name=path.stem, where=str(path))


def system_from_mapping(data: dict[str, object], *, default_name: str,
                        where: str) -> CountSystem:
    """A count system from parsed TOML (``name``, ``source``, ``[tags]``)."""
    unknown = sorted(set(data) - {"name", "source", "tags"})
    if unknown:
        raise CountError(f"count file {where!r}: unknown key {unknown[0]!r} "
                         "(expected name, source, [tags])")
    name, source, tags = data.get("name", default_name), data.get("source", ""), data.get("tags")
    if not isinstance(name, str) or not name.strip():
        raise CountError(f"count file {where!r}: name must be a non-empty string")
    if not isinstance(source, str):
        raise CountError(f"count file {where!r}: source must be a string")
    if not isinstance(tags, dict):
        raise CountError(f"count file {where!r}: needs a [tags] table with A, 2-9 and T")
    values: dict[int, Fraction] = {}
    for key, tag in tags.items():
        try:
            value = int(parse_value(str(key)))
        except AnalyzerError:
            raise CountError(f"count file {where!r}: unknown card {key!r} in [tags] "
                             "(use A, 2-9, T)") from None
        if value in values:
            raise CountError(f"count file {where!r}: card {format_value(value)} tagged twice")
        if isinstance(tag, bool) or not isinstance(tag, int | float):
            raise CountError(f"count file {where!r}: tag of {key!r} must be a number, "
                             f"not {tag!r}")
        if tag != tag or tag in (float("inf"), float("-inf")):
            raise CountError(f"count file {where!r}: tag of {key!r} must be finite")
        exact = Fraction(str(tag)) if isinstance(tag, float) else Fraction(tag)
        if exact and not MIN_TAG <= abs(exact) <= MAX_TAG:
            raise CountError(f"count file {where!r}: tag of {key!r} is {tag!r}; a tag is 0 or "
                             f"of magnitude {float(MIN_TAG):g} to {MAX_TAG:g}")
        values[value] = exact
    missing = [format_value(v) for v in range(1, 11) if v not in values]
    if missing:
        raise CountError(f"count file {where!r}: no tag for {', '.join(missing)}")
    system = CountSystem(name=name.strip(), tags=tuple(values[v] for v in range(1, 11)),
                         source=source)
    if len(set(system.tags)) == 1:
        raise CountError(f"count file {where!r}: every card has the same tag, so the true "
                         "count never moves")
    return system


__all__ = ["MAX_TAG", "MIN_TAG", "CountError", "CountSystem", "SYSTEMS", "get_system",
           "load_system"]
