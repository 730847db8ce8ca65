"""The rule components a comparison varies: one per independent switch of :class:`Rules`.

A component groups the :class:`~analyzer.core.rules.Rules` fields that one rule
token sets (``SPL3`` sets ``max_hands``, ``CH7`` sets ``charlie``...), and labels
a rule set's value of it the way a spec writes it (``"H17"``, ``"no CHBJ"``).
Effects tables change one component at a time; explanations treat each
component that differs between two games as one player of the Shapley game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analyzer.core.rules import Rules, format_spec


@dataclass(frozen=True)
class Component:
    """One switch of the rules: the fields it sets and how a spec writes its value."""

    name: str
    fields: tuple[str, ...]
    label: Callable[[Rules], str]

    def value(self, rules: Rules) -> tuple[Any, ...]:
        return tuple(getattr(rules, f) for f in self.fields)

    def differs(self, a: Rules, b: Rules) -> bool:
        return self.value(a) != self.value(b)

    def take(self, target: Rules) -> dict[str, Any]:
        """The field changes that give a rule set ``target``'s value of this component."""
        return {f: getattr(target, f) for f in self.fields}

    def change(self, a: Rules, b: Rules) -> str:
        return f"{self.label(a)} -> {self.label(b)}"


def _flag(token: str, field: str, on: bool = True) -> Callable[[Rules], str]:
    """Label of a boolean switch: ``token`` when set, ``"no token"`` otherwise."""
    return lambda r: token if bool(getattr(r, field)) == on else f"no {token}"


def _token(rules: Rules, prefix: str) -> str:
    """The token of the canonical spec starting with ``prefix`` ("" if absent)."""
    return next((t for t in format_spec(rules).split() if t.startswith(prefix)), "")


def _splits(r: Rules) -> str:
    return "NSPL" if r.max_hands == 1 else f"SPL{r.max_hands - 1}"


def _payout(r: Rules) -> str:
    return f"BJ{r.blackjack_pays.numerator}:{r.blackjack_pays.denominator}"


COMPONENTS: tuple[Component, ...] = (
    Component("decks", ("decks",), lambda r: f"{r.decks}D"),
    Component("soft 17", ("hits_soft_17",), lambda r: "H17" if r.hits_soft_17 else "S17"),
    Component("doubling", ("double",), lambda r: r.double.value),
    Component("double after split", ("double_after_split",),
              lambda r: "DAS" if r.double_after_split else "NDAS"),
    Component("splits", ("max_hands",), _splits),
    Component("resplit aces", ("resplit_aces",), lambda r: "RSA" if r.resplit_aces else "NRSA"),
    Component("hit split aces", ("hit_split_aces",),
              lambda r: "HSA" if r.hit_split_aces else "NHSA"),
    Component("surrender", ("surrender",), lambda r: r.surrender.value),
    Component("surrender vs ace", ("surrender_vs_ace",), _flag("SNA", "surrender_vs_ace", False)),
    Component("blackjack payout", ("blackjack_pays",), _payout),
    Component("hole card", ("hole_card",), lambda r: r.hole_card.value),
    Component("unpeeked blackjack", ("unpeeked_bj_takes_all",),
              _flag("OBO", "unpeeked_bj_takes_all", False)),
    Component("charlie", ("charlie",), lambda r: f"CH{r.charlie}" if r.charlie else "no CH"),
    Component("charlie beats blackjack", ("charlie_beats_bj",),
              _flag("CHBJ", "charlie_beats_bj")),
    Component("21 stands", ("stand_on_21",), _flag("A21", "stand_on_21")),
    Component("push 22", ("push_22",), _flag("P22", "push_22")),
    Component("free doubles", ("free_doubles",), lambda r: _token(r, "FD") or "no FD"),
    Component("free splits", ("free_splits",), lambda r: _token(r, "FS") or "no FS"),
    Component("split by rank", ("split_by_rank",), _flag("SPR", "split_by_rank")),
    Component("split aces", ("split_aces",), _flag("NSA", "split_aces", False)),
    Component("insured hand splits", ("insured_no_split",), _flag("INSNS", "insured_no_split")),
    Component("cut card", ("cut_card",), lambda r: f"CUT{r.cut_card}" if r.cut_card else "no CUT"),
)

BY_NAME: dict[str, Component] = {c.name: c for c in COMPONENTS}


def differing(a: Rules, b: Rules) -> list[Component]:
    """The components whose value differs between two rule sets, in :data:`COMPONENTS` order."""
    return [c for c in COMPONENTS if c.differs(a, b)]
