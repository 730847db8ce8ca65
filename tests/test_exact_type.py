"""Exact results are Fractions: the engine's GMP rationals never reach a caller.

Inside the vectorised engine exact values are ``gmpy2.mpq`` (``analyzer.core.arith``);
every result it hands out is converted to :class:`fractions.Fraction`.  Each public
job is run in exact mode on a small shoe and its result walked field by field: a GMP
rational anywhere fails, and the exact figures must be Fractions, equal to what they
were computed from.  The formatters take either type and print the same digits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from fractions import Fraction

import numpy as np
import pytest

import analyzer
from analyzer.core.actions import SPLIT
from analyzer.core.arith import fast_ratio, gmp_rational, is_exact, public
from analyzer.core.rules import parse_spec
from analyzer.core.shoe import parse_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dist_spots import spot_covariance
from analyzer.util.memo import _plain
from analyzer.util.text import fixed, fraction_text, percent

# 16 cards, a pair of aces and of sixes: splits, doubles, surrender on a shoe the exact
# engine walks in seconds (one split: more could run the shoe out within a round)
SHOE = "A:2,2:1,3:1,4:2,5:1,6:2,7:1,8:1,9:1,T:4"
RULES = "1D H17 DOA DAS SPL1 LS"
SPOTS_SHOE = "A:1,3:1,5:2,8:3,9:1,T:10"  # 18 cards: two spots cannot run it out


def _leaves(value: object) -> Iterator[object]:
    """Every scalar inside a result: dataclass fields, mappings (keys too), sequences and
    object arrays."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _leaves(getattr(value, f.name))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaves(k)
            yield from _leaves(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, np.ndarray):
        if value.dtype == object:
            for v in value.ravel().tolist():
                yield from _leaves(v)
    else:
        yield value


def _no_gmp(result: object) -> int:
    """Fail on a GMP rational anywhere in ``result``; the number of Fractions seen."""
    seen = 0
    for leaf in _leaves(result):
        assert not isinstance(leaf, gmp_rational()), f"a GMP rational escaped: {leaf!r}"
        seen += isinstance(leaf, Fraction)
    return seen


def test_the_analysis_hands_out_fractions() -> None:
    a = Analysis(parse_spec(RULES), parse_shoe(SHOE), exact=True, jobs=1)
    ev = a.ev()
    assert isinstance(ev, Fraction)
    by_upcard = a.by_upcard()
    assert all(isinstance(v, Fraction) for v in by_upcard.values())
    for up in (4, 7, 10):
        for cards in ((1, 1), (10, 10), (10, 6), (2, 3, 5)):
            for values in (a.actions(up, cards), a.hand_actions(up, cards, unconditioned=True)):
                assert values and all(isinstance(v, Fraction) for v in values.values())
        assert isinstance(a.actions(up, (10, 10))[SPLIT], Fraction)
        assert isinstance(a.natural_value(up), Fraction)
        assert isinstance(a.surrender_value(up, (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)), Fraction)
    assert ev == sum(Fraction(parse_shoe(SHOE)[u], 16) * v for u, v in by_upcard.items())


@pytest.mark.parametrize("job", ["analyze", "levels", "hand", "dealer", "distribution", "spots",
                                 "eor", "chart"])
def test_every_exact_job_hands_out_fractions(job: str) -> None:
    if job == "analyze":
        result: object = analyzer.analyze(RULES, shoe=SHOE, exact=True, jobs=1, cache=False)
    elif job == "levels":
        result = analyzer.analyze(RULES, shoe=SHOE, exact=True, levels=True, jobs=1,
                                  cache=False)
    elif job == "hand":
        result = analyzer.hand(RULES, "T", "6,6", shoe=SHOE, exact=True)
    elif job == "dealer":
        result = analyzer.dealer(RULES, shoe=SHOE, exact=True)
    elif job == "distribution":
        result = analyzer.distribution(RULES, shoe=SHOE, exact=True, jobs=1)
    elif job == "spots":  # the API takes spots off a full shoe only: the engine's function
        result = spot_covariance(parse_spec(RULES), parse_shoe(SPOTS_SHOE), exact=True)
    elif job == "eor":
        result = analyzer.eor(RULES, shoe=SHOE, exact=True, jobs=1, cache=False)
    else:  # derived in floats, its EV played exactly
        result = analyzer.chart(RULES, shoe=SHOE)
    assert _no_gmp(result) > 0  # exact figures there, and every one a Fraction
    if job != "spots":
        _no_gmp(result.to_dict())  # type: ignore[attr-defined]


def test_the_formatters_print_a_gmp_rational_as_its_fraction() -> None:
    """A value still an mpq prints the digits its Fraction prints, never through a float."""
    for num, den in ((1, 3), (-2, 3), (7, 1), (123456789123456789123, 10**30 + 7), (0, 5)):
        q, f = fast_ratio(num, den), Fraction(num, den)
        assert is_exact(q) and is_exact(f) and not is_exact(0.5)
        assert public(q) == f and type(public(q)) is Fraction and public(f) is f
        assert fraction_text(q) == fraction_text(f)
        assert fixed(q, 40) == fixed(f, 40) and percent(q, 30) == percent(f, 30)
        assert _plain(q) == _plain(f) == {"fraction": fraction_text(f)}
        assert hash(q) == hash(f) and q == f and float(q) == float(f)
