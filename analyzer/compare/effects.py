"""Every single-rule change that applies to a base: the rule-effect table's rows.

Each component of :mod:`analyzer.compare.components` is changed alone, to each
value players meet in casinos: decks 1/2/4/6/8; S17/H17; DOA/D9/D10; DAS/NDAS;
NSPL/SPL1-3; RSA, HSA; NS/LS/ES and SNA; blackjack 3:2, 6:5, 1:1, 2:1; peek,
PEEKA, ENHC and OBO; Charlie 5/6/7 (or none); CHBJ, A21, P22; free doubles
(hard 9-11) and free splits (A-9, where one split is allowed: the engine
models a free split with SPL1 only); split by rank; aces splittable.

A change applies when it matters to the base and gives a valid rule set: DAS
only where pairs split, RSA only where a third hand is allowed, SNA only with
surrender, OBO only where a blackjack can go unchecked, CHBJ only where a
Charlie can meet an unchecked blackjack.  Not varied: the cut card and INSNS,
which do not enter the full-shoe EV of a round (the cut-card effect is not
computed; insurance is a separate bet).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from analyzer.compare.components import BY_NAME
from analyzer.compare.variants import Variant
from analyzer.core.errors import RuleError
from analyzer.core.rules import Double, HoleCard, Rules, Surrender

DECKS = (1, 2, 4, 6, 8)
PAYOUTS = (Fraction(3, 2), Fraction(6, 5), Fraction(1), Fraction(2))
CHARLIES = (5, 6, 7)
FREE_DOUBLES = frozenset({9, 10, 11})
FREE_SPLITS = frozenset(range(1, 10))


def _changes(r: Rules) -> Iterator[tuple[str, dict[str, Any]]]:
    """(component name, field changes) of every candidate single-rule change."""
    splits = r.max_hands > 1
    yield from (("decks", {"decks": d}) for d in DECKS)
    yield "soft 17", {"hits_soft_17": not r.hits_soft_17}
    yield from (("doubling", {"double": d}) for d in Double)
    if splits:
        yield "double after split", {"double_after_split": not r.double_after_split}
    # The engine models a free split with one split only (SPL1).
    yield from (("splits", {"max_hands": m}) for m in (1, 2, 3, 4)
                if not r.free_splits or m == 2)
    if splits and r.split_aces:
        if r.max_hands > 2 or r.resplit_aces:  # resplitting needs a third hand
            yield "resplit aces", {"resplit_aces": not r.resplit_aces}
        yield "hit split aces", {"hit_split_aces": not r.hit_split_aces}
    yield from (("surrender", {"surrender": s}) for s in Surrender)
    if r.surrender is not Surrender.NONE:
        yield "surrender vs ace", {"surrender_vs_ace": not r.surrender_vs_ace}
    yield from (("blackjack payout", {"blackjack_pays": p}) for p in PAYOUTS)
    yield from (("hole card", {"hole_card": h}) for h in HoleCard)
    if r.hole_card is not HoleCard.PEEK:
        yield "unpeeked blackjack", {"unpeeked_bj_takes_all": not r.unpeeked_bj_takes_all}
    yield from (("charlie", {"charlie": c, "charlie_beats_bj": False})
                for c in (*CHARLIES, 0) if c != r.charlie and (r.charlie or c))
    if r.charlie and (r.hole_card is not HoleCard.PEEK or r.charlie_beats_bj):
        # Only an unchecked dealer blackjack can meet a Charlie.
        yield "charlie beats blackjack", {"charlie_beats_bj": not r.charlie_beats_bj}
    yield "21 stands", {"stand_on_21": not r.stand_on_21}
    yield "push 22", {"push_22": not r.push_22}
    yield "free doubles", {"free_doubles": frozenset() if r.free_doubles else FREE_DOUBLES}
    if r.max_hands == 2 or r.free_splits:
        yield "free splits", {"free_splits": frozenset() if r.free_splits else FREE_SPLITS}
    if splits:
        yield "split by rank", {"split_by_rank": not r.split_by_rank}
        yield "split aces", {"split_aces": not r.split_aces}


def effect_variants(base: Rules) -> list[Variant]:
    """One variant per applicable single-rule change of ``base`` (labelled ``from -> to``)."""
    variants: list[Variant] = []
    seen: set[Rules] = {base}
    for name, fields in _changes(base):
        if all(getattr(base, f) == v for f, v in fields.items()):
            continue
        if name == "charlie" and base.charlie and fields["charlie"]:
            fields = {**fields, "charlie_beats_bj": base.charlie_beats_bj}
        try:
            rules = base.replace(**fields)
        except RuleError:  # e.g. NSPL with free splits: not a change that applies
            continue
        if rules in seen:
            continue
        seen.add(rules)
        component = BY_NAME[name]
        change = component.change(base, rules)
        if name == "charlie" and base.charlie_beats_bj and not rules.charlie:
            change += " (and no CHBJ)"
        variants.append(Variant(component.label(rules), rules, change=change))
    return variants
