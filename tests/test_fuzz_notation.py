"""Fuzz every notation: rule specs, shoes, cards, suit shoes, chart files, pay tables.

Each input must give a value or the notation's own ``AnalyzerError`` (one line,
naming the value); every value must survive its format/parse round trip.
"""

from __future__ import annotations

import tempfile
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import strategies as st

from analyzer.core.cards import format_value, parse_cards
from analyzer.core.errors import (
    AnalyzerError,
    CardNotationError,
    ChartError,
    PayTableError,
    RuleError,
    ShoeError,
)
from analyzer.core.presets import PRESETS, game_rules
from analyzer.core.rules import (
    Double,
    HoleCard,
    Rules,
    Surrender,
    describe_rules,
    format_spec,
    parse_spec,
)
from analyzer.core.shoe import format_shoe, parse_shoe
from analyzer.sidebets.bets import BETS, BetOptions
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import load_paytable, override, parse_pay
from analyzer.sidebets.solve import parse_target
from analyzer.sidebets.stats import par_sheet
from analyzer.sidebets.suitshoe import SuitShoe, format_suit_shoe, parse_suit_shoe
from tests.fuzz_inputs import (
    GARBAGE,
    ROOT,
    card_texts,
    fuzz,
    mutated,
    rule_specs,
    shoe_texts,
    suit_shoe_texts,
)


def _one_line(err: AnalyzerError) -> None:
    assert str(err) and "\n" not in str(err)


# -- rule specs -------------------------------------------------------------------------
def check_spec(spec: str) -> None:
    try:
        rules = parse_spec(spec)
    except RuleError as err:
        _one_line(err)
    else:
        canonical = format_spec(rules)
        assert parse_spec(canonical) == rules
        assert format_spec(parse_spec(canonical.lower())) == canonical
        assert describe_rules(rules)
    for name in PRESETS:  # the same tokens on top of each preset
        try:
            on_top = game_rules(name, spec)
        except RuleError as err:
            _one_line(err)
        else:
            assert parse_spec(format_spec(on_top)) == on_top


test_rule_specs, test_rule_specs_slow = fuzz(rule_specs(), check_spec, "rule_specs",
                                             fast=100, slow=5000)

RULE_FIELDS = st.fixed_dictionaries({
    "decks": st.one_of(st.integers(1, 8), st.integers(-1, 200_000)),
    "spanish_decks": st.booleans(),
    "hits_soft_17": st.booleans(), "double": st.sampled_from(Double),
    "double_after_split": st.booleans(), "max_hands": st.integers(0, 5),
    "resplit_aces": st.booleans(), "hit_split_aces": st.booleans(),
    "surrender": st.sampled_from(Surrender),
    "blackjack_pays": st.fractions(min_value=-1, max_value=3, max_denominator=12),
    "hole_card": st.sampled_from(HoleCard), "unpeeked_bj_takes_all": st.booleans(),
    "charlie": st.integers(0, 13), "charlie_beats_bj": st.booleans(),
    "stand_on_21": st.booleans(), "push_22": st.booleans(),
    "blackjack_wins": st.booleans(), "player_21_wins": st.booleans(),
    "free_doubles": st.frozensets(st.integers(2, 22), max_size=5),
    "free_splits": st.frozensets(st.integers(0, 11), max_size=5),
    "split_by_rank": st.booleans(), "split_aces": st.booleans(),
    "surrender_vs_ace": st.booleans(), "insured_no_split": st.booleans(),
    "cut_card": st.integers(-1, 700),
})


def check_rules_round_trip(fields: dict[str, object]) -> None:
    """Every field, hence every token, survives format_spec then parse_spec."""
    try:
        rules = Rules(**fields)  # type: ignore[arg-type]
    except RuleError as err:
        _one_line(err)
        return
    assert parse_spec(format_spec(rules)) == rules


test_rules_round_trip, test_rules_round_trip_slow = fuzz(
    RULE_FIELDS, check_rules_round_trip, "rules_round_trip", fast=80, slow=5000)


# -- shoes and cards --------------------------------------------------------------------
def check_shoe(text: str) -> None:
    try:
        shoe = parse_shoe(text)
    except ShoeError as err:
        _one_line(err)
    else:
        assert shoe.total > 0 and parse_shoe(format_shoe(shoe)) == shoe


test_shoes, test_shoes_slow = fuzz(shoe_texts(), check_shoe, "shoes", fast=100, slow=5000)


def check_cards(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardNotationError as err:
        _one_line(err)
    else:
        assert cards and parse_cards(",".join(format_value(c) for c in cards)) == cards


test_cards, test_cards_slow = fuzz(card_texts(), check_cards, "cards", fast=60, slow=3000)


def check_suit_shoe(text: str) -> None:
    try:
        shoe = parse_suit_shoe(text)
    except ShoeError as err:
        _one_line(err)
    else:
        assert shoe.total > 0 and parse_suit_shoe(format_suit_shoe(shoe)) == shoe


test_suit_shoes, test_suit_shoes_slow = fuzz(suit_shoe_texts(), check_suit_shoe, "suit_shoes",
                                             fast=60, slow=3000)


# -- files ------------------------------------------------------------------------------
CHART = (ROOT / "tables" / "free-bet" / "chart.csv").read_text()


# One folder per test process, removed when it exits: a folder per example left tens of
# thousands behind in the system's temporary directory.
_FOLDER = tempfile.TemporaryDirectory(prefix="bja-fuzz-")


def _in_a_file(data: bytes, name: str) -> Path:
    path = Path(_FOLDER.name) / name
    path.write_bytes(data)
    return path


def check_chart_file(data: bytes) -> None:
    from analyzer.charts.fileformat import format_chart, load_chart

    rules = PRESETS["free-bet"].rules
    path = _in_a_file(data, "chart.csv")
    try:
        chart = load_chart(path, rules)
    except ChartError as err:
        _one_line(err)
    else:
        again = _in_a_file(format_chart(chart).encode(), "again.csv")
        assert load_chart(again, rules).sections == chart.sections


test_chart_files, test_chart_files_slow = fuzz(mutated(CHART), check_chart_file, "chart_files",
                                               fast=50, slow=2000)

PAYTABLES = {bet: (ROOT / "analyzer" / "sidebets" / "paytables"
                   / f"{bet}-{BETS[bet].default_table}.toml").read_text() for bet in BETS}


@cache
def _outcomes(bet: str) -> Outcomes:
    """Counts off one small shoe: pricing is what the pay-table fuzz exercises."""
    shoe = parse_suit_shoe("AS:2,TH:3,KD:2,7C:3,7H:2,5S:2,9D:2,2C:2,8H:2")
    return BETS[bet].outcomes(shoe, BetOptions())


def check_paytable(case: tuple[str, bytes, str]) -> None:
    bet_name, data, pays = case
    bet = BETS[bet_name]
    try:
        table = load_paytable(bet, _in_a_file(data, "pays.toml"))
        if pays:
            table = override(table, pays)
    except PayTableError as err:
        _one_line(err)
        return
    sheet = par_sheet(bet, _outcomes(bet_name), table, "fuzz shoe")
    assert sheet.rtp == 1 + sheet.ev


PAYTABLE_CASES = st.sampled_from(sorted(BETS)).flatmap(lambda bet: st.tuples(
    st.just(bet), mutated(PAYTABLES[bet]),
    st.one_of(st.just(""), GARBAGE, st.tuples(st.sampled_from(BETS[bet].paying), GARBAGE).map(
        "=".join))))
test_paytables, test_paytables_slow = fuzz(PAYTABLE_CASES, check_paytable, "paytables",
                                           fast=40, slow=2000)


def check_numbers(text: str) -> None:
    for parse in (lambda t: parse_pay(t, "fuzz"), parse_target):
        try:
            value = parse(text)
        except PayTableError as err:
            _one_line(err)
        else:
            assert isinstance(value, Fraction)


NUMBERS = st.one_of(GARBAGE, st.floats(allow_nan=True).map(str), st.fractions().map(str),
                    st.integers(-10, 10).map(lambda e: f"1e{e}"), st.sampled_from(
                        ("96%", "24/25", "0.96", "1e999999999", "inf", "-1", "1/0")))
test_pay_numbers, test_pay_numbers_slow = fuzz(NUMBERS, check_numbers, "pay_numbers",
                                               fast=60, slow=3000)


def test_suit_shoe_strategy_sees_real_shoes() -> None:
    assert parse_suit_shoe("1decks") == SuitShoe.decks(1)


@pytest.mark.parametrize(("text", "message"), [
    ("J:5,Q:5,K:5,A:3", "shoe names the value T twice, again as 'Q' (T, J, Q and K are one "
                        "value here, a ten: give their total as T:COUNT)"),
    ("A:5,2:4,A:3", "shoe names the value A twice, again as 'A'"),
])
def test_a_value_named_twice_says_which_value(text: str, message: str) -> None:
    """J:5,Q:5 said "shoe names 'Q' twice", with Q named once: J and Q are one value."""
    from analyzer.core.errors import ShoeError

    with pytest.raises(ShoeError) as err:
        parse_shoe(text)
    assert str(err.value) == message
