"""The rule vocabulary is defined once, in the registry (analyzer.core.ruleset).

The notation, the words, the comparison's components and effects and the
simulator's coverage are built from it here and checked against what the public
functions say; every field of ``Rules`` is one rule's; a value of the wrong type
is refused naming the field (issue 20: ``double='DOA'`` gave D10, ``charlie=5.5``
CH6 written ``CH5.5``, ``hits_soft_17='no'`` H17, ``max_hands=True`` NSPL).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from enum import Enum
from fractions import Fraction
from typing import get_type_hints

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.comparisons.effects import effect_variants
from analyzer.core.errors import RuleConflictError, RuleError, SimulationError
from analyzer.core.presets import CLASSIC_GAMES, PRESETS, all_games
from analyzer.core.rules import (
    DEFAULT_RULES,
    Double,
    HoleCard,
    Rules,
    Surrender,
    describe_rules,
    format_spec,
    parse_spec,
)
from analyzer.core.ruleset import (
    BY_NAME,
    COMPONENTS,
    FIELDS,
    RULES,
    Field,
    Rule,
    differing,
    read_spec,
)
from analyzer.sim import layout as L
from analyzer.sim.config import NOT_SIMULATED, NOT_YET, SIMULATED, SimRules, shoe_codes

GAMES = list(all_games().values())


def _reset(rules: Rules, rule: Rule) -> Rules:
    """``rules`` with ``rule`` at its default (may raise: e.g. CHBJ left without a Charlie)."""
    return rules.replace(**{f.name: f.default for f in rule.fields})


# -- every field is one rule's ------------------------------------------------------------
def test_every_rules_field_is_covered_by_exactly_one_rule() -> None:
    names = [f.name for rule in RULES for f in rule.fields]
    assert sorted(names) == sorted(f.name for f in dataclasses.fields(Rules))
    assert len(names) == len(set(names))
    hints = get_type_hints(Rules)
    for f in dataclasses.fields(Rules):  # the registry's type and default are the field's
        assert (FIELDS[f.name].type, FIELDS[f.name].default) == (hints[f.name], f.default)
    assert len({r.name for r in RULES}) == len(RULES)


def test_every_rule_has_examples_that_set_it() -> None:
    for rule in RULES:
        assert rule.examples, rule.name
        for example in rule.examples:
            assert not rule.is_default(parse_spec(example)), (rule.name, example)


# -- the notation ---------------------------------------------------------------------------
def _values(rule: Rule) -> list[Rules]:
    """Rule sets giving ``rule`` each value it can take: every value of a bool or an enum
    field, the examples' values otherwise."""
    out = [parse_spec(e) for e in rule.examples] + [DEFAULT_RULES]
    if len(rule.fields) == 1:
        f = rule.fields[0]
        choices: list[object] = (
            [False, True] if f.type is bool
            else list(f.type) if isinstance(f.type, type) and issubclass(f.type, Enum) else [])
        for base, value in itertools.product(list(out), choices):
            with contextlib.suppress(RuleConflictError):
                out.append(base.replace(**{f.name: value}))
    return out


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_each_rules_token_round_trips(rule: Rule) -> None:
    for rules in _values(rule):
        spec = format_spec(rules)
        assert parse_spec(spec) == rules
        token = rule.token(rules)
        if token is None:
            assert rule.is_default(rules) and not rule.always
            continue
        assert token in spec.split()
        # The token reads back as this rule's value, and no other rule's grammar reads it.
        assert read_spec(token) == dict(zip(rule.field_names, rule.value(rules), strict=True))
        assert [r.name for r in RULES if r.read(token.upper()) is not None] == [rule.name]
        assert parse_spec(token.lower(), base=_reset(rules, rule)) == rules


def test_the_games_are_written_in_the_canonical_notation() -> None:
    for spec in [*(p.spec for p in PRESETS.values()), *CLASSIC_GAMES.values()]:
        assert format_spec(parse_spec(spec)) == spec


def test_the_spec_and_the_words_are_the_registrys() -> None:
    for rules in GAMES:
        assert format_spec(rules) == " ".join(
            t for t in (r.token(rules) for r in RULES) if t is not None)
        assert describe_rules(rules) == [
            w for w in (r.words(rules) for r in RULES) if w is not None]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_every_rule_is_said_in_the_spec_the_words_and_the_label(rule: Rule) -> None:
    """Setting a rule changes the spec, its comparison label, and (in some example) the
    words: a rule the words forget would be a silent rule in every report."""
    said = False
    for example in rule.examples:
        rules = parse_spec(example)
        without = _reset(rules, rule)
        assert format_spec(rules) != format_spec(without)
        assert rule.label(rules) != rule.label(without)
        said = said or describe_rules(rules) != describe_rules(without)
    assert said, rule.name


# Random rule sets: every field drawn over (and a little beyond) its range.
FIELD_VALUES: dict[str, st.SearchStrategy[object]] = {
    "decks": st.one_of(st.integers(1, 8), st.integers(1, 100_000)),
    "spanish_decks": st.booleans(),
    "hits_soft_17": st.booleans(), "double": st.sampled_from(Double),
    "double_any_cards": st.booleans(), "double_rescue": st.booleans(),
    "redoubles": st.integers(0, 3),
    **{f"bonus_{n}": st.sampled_from((Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)))
       for n in (5, 6, 7)},
    **{f"bonus_{n}": st.sampled_from(((Fraction(1),) * 3, (Fraction(3, 2), Fraction(2),
                                                           Fraction(3)),
                                      (Fraction(2), Fraction(2), Fraction(5, 2))))
       for n in ("678", "777")},
    "super_bonus": st.sampled_from((Fraction(0), Fraction(200), Fraction(1000, 5))),
    "suited_blackjack": st.sampled_from((Fraction(0), Fraction(2), Fraction(5, 2))),
    "bonus_not_doubled": st.booleans(), "bonus_not_split": st.booleans(),
    "double_after_split": st.booleans(), "max_hands": st.integers(1, 4),
    "resplit_aces": st.booleans(), "hit_split_aces": st.booleans(),
    "surrender": st.sampled_from(Surrender), "surrender_after_hit": st.booleans(),
    "blackjack_pays": st.fractions(min_value=0, max_value=5, max_denominator=20),
    "hole_card": st.sampled_from(HoleCard), "unpeeked_bj_takes_all": st.booleans(),
    "charlie": st.sampled_from((0, 3, 5, 6, 7, 12)), "charlie_beats_bj": st.booleans(),
    "stand_on_21": st.booleans(), "push_22": st.booleans(),
    "blackjack_wins": st.booleans(), "player_21_wins": st.booleans(),
    "free_doubles": st.frozensets(st.integers(4, 20), max_size=6),
    "free_splits": st.frozensets(st.integers(1, 10), max_size=6),
    "split_by_rank": st.booleans(), "split_aces": st.booleans(),
    "surrender_vs_ace": st.booleans(), "insured_no_split": st.booleans(),
    "cut_card": st.one_of(st.just(0), st.integers(1, 400)),
}


@st.composite
def random_rules(draw: st.DrawFn) -> Rules:
    fields = draw(st.fixed_dictionaries(FIELD_VALUES))
    if fields["free_splits"]:
        fields["max_hands"] = 2
        if 1 in fields["free_splits"]:  # free splits of aces that may be split (FSA, NSA: no)
            fields["split_aces"] = True
    if not fields["charlie"]:
        fields["charlie_beats_bj"] = False
    if fields["hole_card"] is not HoleCard.PEEK:
        fields["double_rescue"] = False
    if fields["hole_card"] is not HoleCard.PEEK or fields["surrender"] is Surrender.NONE:
        fields["surrender_after_hit"] = False
    if fields["free_doubles"]:
        fields["redoubles"] = 0
    if fields["charlie"] or fields["free_doubles"] or fields["free_splits"]:
        for n in (5, 6, 7):
            fields[f"bonus_{n}"] = Fraction(1)
        fields["bonus_678"] = fields["bonus_777"] = (Fraction(1),) * 3
        fields["super_bonus"] = Fraction(0)
    if all(fields[f"bonus_{n}"] == 1 for n in (5, 6, 7)) and not fields["super_bonus"] \
            and fields["bonus_678"] == fields["bonus_777"] == (Fraction(1),) * 3:
        fields["bonus_not_doubled"] = fields["bonus_not_split"] = False
    deck = 48 if fields["spanish_decks"] else 52
    fields["cut_card"] = min(fields["cut_card"], deck * fields["decks"] - 1)  # type: ignore
    return Rules(**fields)  # type: ignore[arg-type]


def test_the_strategy_draws_every_field() -> None:
    assert set(FIELD_VALUES) == set(FIELDS)


@given(random_rules())
@settings(max_examples=300, deadline=None)
def test_rules_print_as_their_spec_and_parse_back(rules: Rules) -> None:
    spec = format_spec(rules)
    assert str(rules) == spec and repr(rules) == f"Rules({spec!r})"
    assert parse_spec(spec) == rules and Rules(spec) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert parse_spec(spec.lower()) == rules
    assert describe_rules(rules) == [w for w in (r.words(rules) for r in RULES) if w]


def test_a_spec_applies_on_top_of_keyword_fields() -> None:
    assert Rules("H17", decks=8) == Rules(decks=8, hits_soft_17=True)
    assert Rules("8D", decks=2) == Rules(decks=8)  # the tokens win, as on a base
    assert Rules("CH7", charlie_beats_bj=True) == parse_spec("CH7 CHBJ")
    assert repr(Rules()) == "Rules('6D S17 DOA DAS SPL3 NS')"
    assert not hasattr(Rules("H17"), "spec") or Rules("H17").spec is None  # type: ignore


@pytest.mark.parametrize("spec, message", [
    ("FD9-", "'9-' is not a number or range"),  # read as FD9 before
    ("FSA-", "'A-' is not a number or range"),  # quoted as typed
    ("S17 H17", "contradicts"),
    ("SPL4", "unknown rule token"),
])
def test_malformed_tokens_are_refused(spec: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        parse_spec(spec)


# -- the comparison -------------------------------------------------------------------------
def test_components_are_the_registrys_rules() -> None:
    assert sorted(r.name for r in COMPONENTS) == sorted(r.name for r in RULES)
    assert len(COMPONENTS) == len(RULES)
    # A comparison lists the rules in registry order, but each compare_after beside its rule.
    names = [r.name for r in COMPONENTS]
    assert names.index("surrender vs ace") == names.index("surrender") + 1
    assert [n for n in names if n != "surrender vs ace"] == \
        [r.name for r in RULES if r.name != "surrender vs ace"]


@given(random_rules(), random_rules())
@settings(max_examples=100, deadline=None)
def test_differing_rules_are_the_differing_fields(a: Rules, b: Rules) -> None:
    changed = {f.name for f in dataclasses.fields(Rules)
               if getattr(a, f.name) != getattr(b, f.name)}
    found = differing(a, b)
    assert {n for r in found for n in r.field_names} == changed
    assert a.replace(**{k: v for r in found for k, v in r.take(b).items()}) == b


@pytest.mark.parametrize("base", GAMES, ids=list(all_games()))
def test_effects_are_the_registrys_candidates(base: Rules) -> None:
    expected = []
    for rule in COMPONENTS:
        for changes in rule.changes(base):
            try:
                rules = base.replace(**changes)
            except RuleError:
                continue
            if rules != base and rules not in expected:
                expected.append(rules)
    variants = effect_variants(base)
    assert [v.rules for v in variants] == expected
    for v in variants:
        assert v.rules is not None
        rule = next(r for r in COMPONENTS if r.differs(base, v.rules))
        assert v.name == rule.label(v.rules)
        assert (v.change or "").startswith(rule.change(base, v.rules))


def test_a_change_that_moves_another_rule_says_so() -> None:
    changes = {v.change for v in effect_variants(parse_spec("6D SPL1 PEEKA CH6 CHBJ"))}
    assert "CH6 -> no CH (and no CHBJ)" in changes and "CH6 -> CH7" in changes


# -- the simulator ------------------------------------------------------------------------
def test_every_rule_is_simulated_or_left_out_with_a_reason() -> None:
    assert set(SIMULATED) | set(NOT_SIMULATED) | set(NOT_YET) == {r.name for r in RULES}
    assert not set(SIMULATED) & set(NOT_SIMULATED)
    assert not (set(SIMULATED) | set(NOT_SIMULATED)) & set(NOT_YET)
    assert all(NOT_SIMULATED.values()) and all(SIMULATED.values()) and all(NOT_YET.values())


@pytest.mark.parametrize("name", sorted(NOT_YET))
def test_a_rule_not_simulated_yet_is_refused_with_its_reason(name: str) -> None:
    rules = parse_spec(BY_NAME[name].examples[0])
    with pytest.raises(SimulationError, match=" yet: ") as refused:
        SimRules.of(rules)
    # the refusal names a rule of the example that is not simulated (a condition such
    # as BND comes with the bonus it conditions, which may be named first), with its reason
    named = [n for n in NOT_YET if not BY_NAME[n].is_default(rules)
             and f"rule '{n}'" in str(refused.value) and NOT_YET[n] in str(refused.value)]
    assert named, str(refused.value)


def _sim_view(rules: Rules) -> tuple[object, ...]:
    """Everything the simulator reads of a rule set: its tables, parameters and shoe."""
    sim = SimRules.of(rules)
    table = np.zeros(L.C_SUITS - L.C_SPLIT_TABLE, dtype=np.int8)
    cfg = sim.cfg(rules.cut_card, None, table)
    tables = dataclasses.replace(sim, rules=DEFAULT_RULES)
    return tables, cfg.tobytes(), shoe_codes(rules).tobytes()


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_every_simulated_rule_changes_what_the_simulator_plays(name: str) -> None:
    rule = BY_NAME[name]
    pairs = [(DEFAULT_RULES, parse_spec(e)) for e in rule.examples]
    for base in GAMES:
        for changes in rule.changes(base):
            with contextlib.suppress(RuleError):
                pairs.append((base, base.replace(**changes)))
    for a, b in pairs:
        if rule.differs(a, b) and not any(r.differs(a, b) for r in RULES if r is not rule):
            # The rule alone changed, where it matters to the game: the simulator must see it.
            if name == "surrender vs ace" and a.surrender is Surrender.NONE:
                continue
            if name == "unpeeked blackjack" and a.hole_card is HoleCard.PEEK:
                continue
            assert _sim_view(a) != _sim_view(b), (name, format_spec(a), format_spec(b))


@pytest.mark.parametrize("name", sorted(NOT_SIMULATED))
def test_a_rule_left_out_changes_nothing_the_simulator_plays(name: str) -> None:
    rule = BY_NAME[name]
    for example in rule.examples:
        rules = parse_spec(example)
        assert _sim_view(rules) == _sim_view(_reset(rules, rule))


def test_a_rule_the_simulator_does_not_know_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(SIMULATED, "push 22")
    with pytest.raises(SimulationError, match="'push 22'"):
        SimRules.of(parse_spec("P22"))
    SimRules.of(parse_spec("H17"))  # the rule at its default: nothing to play
    SimRules.of(parse_spec("INSNS"))  # left out on purpose


# -- exact types ------------------------------------------------------------------------------
BAD_VALUES = [
    ("decks", True), ("decks", 6.0), ("decks", "6"),
    ("hits_soft_17", "no"), ("hits_soft_17", 1), ("hits_soft_17", None),
    ("double", "DOA"), ("double", "D10"), ("surrender", "LS"), ("hole_card", "ENHC"),
    ("double", Surrender.LATE),
    ("double_after_split", 0), ("max_hands", True), ("max_hands", 2.0),
    ("blackjack_pays", 1.5), ("blackjack_pays", 2), ("blackjack_pays", "3:2"),
    ("charlie", 5.5), ("charlie", True), ("cut_card", 20.0),
    ("free_doubles", {9, 10}), ("free_doubles", [9]), ("free_doubles", frozenset({9.0})),
    ("free_splits", frozenset({True})), ("free_splits", "A-9"),
    ("split_aces", "yes"), ("insured_no_split", 1),
]


@pytest.mark.parametrize("name, value", BAD_VALUES, ids=[f"{n}={v!r}" for n, v in BAD_VALUES])
def test_a_value_of_the_wrong_type_is_refused_naming_the_field(name: str, value: object) -> None:
    with pytest.raises(RuleError) as err:
        Rules(**{name: value})  # type: ignore[arg-type]
    assert f"'{name}'" in str(err.value) and repr(value) in str(err.value)
    assert "\n" not in str(err.value)
    with pytest.raises(RuleError, match=name):  # on replace too
        DEFAULT_RULES.replace(**{name: value})


@pytest.mark.parametrize("kind, good, bad", [
    (frozenset[int], [frozenset(), frozenset({1, 2})], [{1}, frozenset({True}), frozenset({1.0})]),
    (tuple[Fraction, ...], [(), (Fraction(3, 2), Fraction(2))],
     [[Fraction(1)], (Fraction(1), 1.5)]),
    (tuple[int, bool], [(1, True)], [(1, 1), (1,), (True, True)]),
    (Fraction | None, [None, Fraction(6, 5)], [1.2, 2, "6:5"]),
])
def test_the_type_check_reads_the_types_new_rules_will_need(kind: object, good: list[object],
                                                            bad: list[object]) -> None:
    """Parametrised rules (bonus payouts ``B678=3:2/2:1/3:1``) will hold tuples or optional
    fractions: the registry's exact type check covers them already."""
    field = Field("bonus", kind, None)
    for value in good:
        field.check_type(value)
    for value in bad:
        with pytest.raises(RuleError, match=r"rule field 'bonus' must be"):
            field.check_type(value)


def test_the_issues_reproductions_are_refused() -> None:
    for fields in ({"decks": 1, "double": "DOA"}, {"hits_soft_17": "no"}, {"charlie": 5.5},
                   {"max_hands": True}):
        with pytest.raises(RuleError):
            Rules(**fields)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="a rule spec must be a str"):
        Rules(6)  # type: ignore[arg-type]


def test_ranges_and_combinations_are_still_checked() -> None:
    for fields, error in (({"decks": 0}, "number of decks"), ({"max_hands": 5}, "max_hands"),
                          ({"blackjack_pays": Fraction(-1)}, "non-negative"),
                          ({"charlie": 2}, "3 to 12"),
                          ({"free_doubles": frozenset({3})}, "hard totals 4-20"),
                          ({"free_splits": frozenset({11})}, "pair values A-T"),
                          ({"cut_card": -1}, "cut card")):
        with pytest.raises(RuleError, match=error):
            Rules(**fields)  # type: ignore[arg-type]
    for fields, error in (({"charlie_beats_bj": True}, "needs a Charlie"),
                          ({"free_splits": frozenset({8})}, "SPL3"),
                          ({"decks": 1, "cut_card": 52}, "CUT52 with 1D"),
                          ({"decks": 1, "spanish_decks": True, "cut_card": 48},
                           "CUT48 with 1D SP: .* 48-card shoe")):
        with pytest.raises(RuleConflictError, match=error):
            Rules(**fields)  # type: ignore[arg-type]
