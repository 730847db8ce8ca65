"""Every single-rule change that applies to a base: the rule-effect table's rows.

Each rule of the registry (:data:`analyzer.core.ruleset.COMPONENTS`, in that order)
is changed alone, to each value its ``changes`` tries (the values players meet in
casinos), where the change matters to the base and gives a valid rule set; the
registry says which and why for each rule.  A change that also moves another rule
(a Charlie removed takes CHBJ with it) says so in its label.
"""

from __future__ import annotations

from analyzer.comparisons.variants import Variant
from analyzer.core.errors import RuleError
from analyzer.core.rules import Rules
from analyzer.core.ruleset import COMPONENTS, differing


def effect_variants(base: Rules) -> list[Variant]:
    """One variant per applicable single-rule change of ``base`` (labelled ``from -> to``)."""
    variants: list[Variant] = []
    seen: set[Rules] = {base}
    for rule in COMPONENTS:
        for fields in rule.changes(base):
            if all(getattr(base, f) == v for f, v in fields.items()):
                continue
            try:
                rules = base.replace(**fields)
            except RuleError:  # e.g. NSPL with free splits: not a change that applies
                continue
            if rules in seen:
                continue
            seen.add(rules)
            also = [r.label(rules) for r in differing(base, rules) if r is not rule]
            change = rule.change(base, rules) + (f" (and {', '.join(also)})" if also else "")
            variants.append(Variant(rule.label(rules), rules, change=change))
    return variants
