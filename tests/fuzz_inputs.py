"""Hypothesis strategies for the fuzz tests: every notation the user types, plus garbage.

Each strategy mixes well-formed input (so the fuzz reaches the engine and the
round-trip properties) with near misses (a count out of range, a token with a
bad number, a truncated file, a number past Python's 4,300-digit limit) and
plain garbage, including Unicode digits and line breaks.  :func:`fuzz` turns
one property into a default-run test (a few dozen examples) and a ``slow`` one
(thousands).
"""

from __future__ import annotations

import io
import string
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli.main import main
from analyzer.core.ruleset import RULES

T = TypeVar("T")
ROOT = Path(__file__).parents[1]

# Letters, digits and the notation's punctuation, with Unicode digits and line breaks.
GARBAGE = st.text(alphabet=string.ascii_letters + string.digits + ":-,.+*=/_%[]#\"' \t\n"
                  + "²٣½" + "\u00a0", min_size=1, max_size=12)

# Numbers past the 4,300 digits Python converts (a ValueError from int()), and near it.
HUGE = st.integers(4290, 4400).map(lambda n: "9" * n)

# The rule tokens come from the registry, so a new rule is fuzzed without a change here:
# every token without a number, and the tokens of each rule's examples.
FIXED_TOKENS = tuple(t.pattern.pattern for r in RULES for t in r.tokens if not t.pattern.groups)
EXAMPLE_TOKENS = tuple(dict.fromkeys(tok for r in RULES for e in r.examples for tok in e.split()))
PAIR_SYMBOLS = ("A", "1", "2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "11", "0")


def _cased(token: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(token, st.sampled_from((str.upper, str.lower, str.title))).map(
        lambda t: t[1](t[0]))


def _ranges(prefix: str, items: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    part = st.one_of(items, st.tuples(items, items).map("-".join))
    return st.lists(part, min_size=1, max_size=3).map(lambda ps: prefix + ",".join(ps))


def rule_tokens() -> st.SearchStrategy[str]:
    """Every rule token of the notation, with numbers in and out of range, and garbage."""
    number = st.one_of(st.integers(0, 14), st.integers(0, 10**7))
    return _cased(st.one_of(
        st.sampled_from(FIXED_TOKENS),
        st.one_of(st.integers(0, 9), st.integers(0, 200_000)).map(lambda n: f"{n}D"),
        st.tuples(number, number).map(lambda t: f"BJ{t[0]}:{t[1]}"),
        st.integers(0, 14).map(lambda n: f"CH{n}"),
        st.integers(0, 9).map(lambda n: f"SPL{n}"),
        _ranges("FD", st.integers(0, 23).map(str)),
        _ranges("FS", st.sampled_from(PAIR_SYMBOLS)),
        st.one_of(st.integers(0, 120), st.integers(0, 900)).map(lambda n: f"CUT{n}"),
        GARBAGE.filter(lambda t: t.strip() != "" and not any(c.isspace() for c in t)),
    ))


def rule_specs(max_tokens: int = 8) -> st.SearchStrategy[str]:
    sep = st.sampled_from((" ", "  ", "\t", " \n"))
    return st.tuples(st.lists(rule_tokens(), max_size=max_tokens), sep).map(
        lambda t: t[1].join(t[0]))


def valid_rule_specs() -> st.SearchStrategy[str]:
    """Specs from valid tokens only (the rules may still contradict each other)."""
    token = st.one_of(st.sampled_from(FIXED_TOKENS), st.sampled_from(EXAMPLE_TOKENS))
    return st.lists(token, max_size=6, unique=True).map(" ".join)


SYMBOLS = ("A", "a", "1", "2", "3", "4", "5", "6", "7", "8", "9", "T", "t", "10", "J", "Q", "K",
           "0", "11", "X", "", "²")


def shoe_texts() -> st.SearchStrategy[str]:
    """``VALUE:COUNT`` lists: good, bad and absurd entries."""
    count = st.one_of(st.integers(-3, 40).map(str), st.integers(0, 10**9).map(str), GARBAGE,
                      HUGE)
    entry = st.one_of(st.tuples(st.sampled_from(SYMBOLS), count).map(":".join), GARBAGE)
    return st.lists(entry, max_size=11).map(",".join)


def tiny_shoes() -> st.SearchStrategy[str]:
    """Well-formed shoes of 12-20 cards over at most four values: cheap to analyse."""
    values = st.lists(st.sampled_from("A23456789T"), min_size=2, max_size=4, unique=True)
    return st.tuples(values, st.lists(st.integers(1, 6), min_size=4, max_size=4)).map(
        lambda t: ",".join(f"{v}:{n}" for v, n in zip(t[0], t[1], strict=False))).filter(
        lambda text: 12 <= sum(int(e.split(":")[1]) for e in text.split(",")) <= 20)


def card_texts() -> st.SearchStrategy[str]:
    cards = st.lists(st.one_of(st.sampled_from(SYMBOLS), GARBAGE, HUGE), max_size=6)
    return st.tuples(cards, st.sampled_from((",", " ", ", ", ";"))).map(lambda t: t[1].join(t[0]))


SUITED = tuple(r + s for r in "A23456789TJQK" for s in "SHDC")


def suit_shoe_texts() -> st.SearchStrategy[str]:
    """Suit-aware shoe specs: ``Ndecks``, ``+CARD``, ``-CARD*K``, ``CARD:K``, and garbage."""
    card = st.one_of(st.sampled_from(SUITED), st.sampled_from(("AX", "1S", "ZZ", "K", "")))
    item = st.one_of(
        st.integers(0, 2).map(lambda n: f"{n}decks"),
        st.tuples(st.sampled_from(("+", "-", "")), card).map("".join),
        st.tuples(st.sampled_from(("+", "-")), card, st.integers(-1, 5)).map(
            lambda t: f"{t[0]}{t[1]}*{t[2]}"),
        st.tuples(card, st.integers(-1, 6)).map(lambda t: f"{t[0]}:{t[1]}"),
        st.tuples(card, HUGE).map(lambda t: f"{t[0]}:{t[1]}"), HUGE.map(lambda n: f"{n}decks"),
        GARBAGE)
    return st.lists(item, min_size=1, max_size=6).map(",".join)


def tiny_suit_shoes() -> st.SearchStrategy[str]:
    """Well-formed suit shoes of 10-30 cards."""
    return st.lists(st.tuples(st.sampled_from(SUITED), st.integers(1, 3)), min_size=4,
                    max_size=12, unique_by=lambda t: t[0]).map(
        lambda items: ",".join(f"{c}:{n}" for c, n in items))


def mutated(base: str) -> st.SearchStrategy[bytes]:
    """A file's text with lines dropped, doubled, edited or cut short, or random bytes."""
    lines = base.splitlines(keepends=True)

    @st.composite
    def draw_mutation(draw: st.DrawFn) -> bytes:
        out = list(lines)
        for _ in range(draw(st.integers(0, 4))):
            if not out:
                break
            i = draw(st.integers(0, len(out) - 1))
            op = draw(st.sampled_from(("drop", "double", "edit", "insert", "cut", "case")))
            if op == "drop":
                del out[i]
            elif op == "double":
                out.insert(i, out[i])
            elif op == "edit":
                j = draw(st.integers(0, max(0, len(out[i]) - 1)))
                out[i] = out[i][:j] + draw(GARBAGE) + out[i][j + 1:]
            elif op == "insert":
                out.insert(i, draw(GARBAGE) + "\n")
            elif op == "cut":
                out = out[:i] + [out[i][: draw(st.integers(0, len(out[i])))]]
            else:
                out[i] = out[i].lower()
        data = "".join(out).encode()
        if draw(st.integers(0, 19)) == 0:
            data += draw(st.binary(max_size=8))  # perhaps not UTF-8 any more
        return data

    return draw_mutation()


def fuzz(strategy: st.SearchStrategy[T], check: Callable[[T], None], name: str, *,
         fast: int = 60, slow: int = 2000) -> tuple[Callable[..., None], Callable[..., None]]:
    """A default-run test (``fast`` examples) and a ``slow`` one (``slow`` examples)."""
    checks = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]

    def run(value: T) -> None:
        check(value)

    tests = []
    for examples in (fast, slow):
        test: Any = given(strategy)(lambda value: run(value))
        test = settings(max_examples=examples, deadline=None, suppress_health_check=checks)(test)
        test.__name__ = test.__qualname__ = f"test_{name}" + ("_slow" if examples == slow else "")
        tests.append(test)
    return tests[0], pytest.mark.slow(tests[1])


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``bja argv`` in this process: (status, stdout, stderr); argparse's exits included."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def assert_result_or_one_line(argv: list[str]) -> tuple[int, str]:
    """The property every command keeps: a result, or one ``bja: error:`` line and status 2."""
    status, out, err = run_cli(argv)
    if status == 2:
        assert err.startswith("bja: error: ") and err.count("\n") == 1, (argv, err)
        assert len(err) <= 320, (argv, err)  # the value named, not echoed whole
        assert out == "", argv
    else:
        assert status == 0, (argv, status, err)
        assert out and err == "", (argv, err)
    return status, out
