"""A fixed strategy's decisions over a hand space, as policy evaluation needs them.

:func:`analyzer.engine.hands.evaluate` values a policy: per node the action a hand reached
by hitting takes, and per stake level where a doubled hand is given up (DDR) or doubled
again (RDn).  This module asks a :class:`~analyzer.engine.strategy.Strategy` for them
with the options the rules leave each hand, exactly as the simulator asks
(:mod:`analyzer.sim.tables`), so the exact EV of a strategy and its simulated EV are of
the same play:

* an unsplit hand of three or more cards chooses among stand, hit, double where DAN
  allows its total, and surrender where SAH allows it against this upcard;
* a split hand has no surrender after hitting, and doubles after hitting only under DAS;
* a doubled hand at stake ``2**level``, its card dealt, is given up where the strategy's
  ``decide_rescue`` says so, else doubled again where the redoubling rule allows its
  total and ``decide_redouble`` says so.

A strategy may answer a whole space at once (``hit_policy``, ``later_policy``,
``doubled_policy``); otherwise it is asked hand by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, STAND, SURRENDER
from analyzer.core.errors import RuleConflictError, UsageError
from analyzer.core.rules import Rules
from analyzer.engine.hands import HandSpace, PlayRules, forced_nodes, later_doubles
from analyzer.engine.strategy import Strategy

Bools = npt.NDArray[np.bool_]
Codes = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FixedPlay:
    """A fixed strategy's play over one hand space against one upcard."""

    policy: Codes  # per node: STAND, HIT, DOUBLE (DAN) or SURRENDER (SAH), unsplit hands
    rescues: Bools | None  # (levels, nodes): a doubled hand given up (DDR), else None
    redoubles: Bools | None  # (levels, nodes): a doubled hand doubled again (RDn), else None


def _checked(action: int, options: frozenset[int], comp: tuple[int, ...],
             upcard: int) -> int:
    """The strategy's answer, refused in one line where it is not one of the options (an
    action is a whole number: ``True`` or ``1.0`` equal HIT's 1 but are not an action)."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
            or action not in options:
        raise UsageError(f"the strategy chose {action!r} for {comp} against {upcard}, not one "
                         f"of the options {sorted(options)}")
    return int(action)


def _later(strategy: Strategy, upcard: int, space: HandSpace, nodes: npt.NDArray[np.int64],
           may_double: Bools, may_give: Bools) -> Codes:
    """The strategy's action for ``nodes`` (hands of 3+ cards) with their own options."""
    bulk = getattr(strategy, "later_policy", None)
    comps = space.comps[nodes]
    if bulk is not None:
        result: Codes = np.asarray(bulk(upcard, comps, may_double[nodes], may_give[nodes]),
                                   dtype=np.int64)
        allowed = (result == STAND) | (result == HIT) | ((result == DOUBLE) & may_double[nodes]) \
            | ((result == SURRENDER) & may_give[nodes])
        if result.shape != (len(nodes),) or not allowed.all():
            raise UsageError("the strategy's later_policy chose an action that is not one of "
                             "the options")
        return result
    out = np.empty(len(nodes), dtype=np.int64)
    for k, (node, row) in enumerate(zip(nodes.tolist(), comps.tolist(), strict=True)):
        options = {STAND, HIT}
        if may_double[node]:
            options.add(DOUBLE)
        if may_give[node]:
            options.add(SURRENDER)
        comp = tuple(row)
        frozen = frozenset(options)
        out[k] = _checked(strategy.decide(upcard, comp, frozen), frozen, comp, upcard)
    return out


def later_options(space: HandSpace, play: PlayRules) -> tuple[Bools, Bools]:
    """Per node, whether an unsplit hand reached by hitting may double (DAN) and may
    surrender (SAH)."""
    later = (space.ncards >= 3) & ~forced_nodes(space, play)
    none = np.zeros(len(space.comps), dtype=bool)
    may_double = later & later_doubles(space, play.double_any) \
        if play.double_any is not None else none
    return may_double, later if play.surrender_later else none


def fixed_play(strategy: Strategy, rules: Rules, play: PlayRules, upcard: int,
               space: HandSpace) -> FixedPlay:
    """What ``strategy`` does with every hand of ``space`` against ``upcard`` (module doc)."""
    policy = play_policy(strategy, play, upcard, space)
    rescues = redoubles = None
    if play.rescue or play.redoubles:
        later = (space.ncards >= 3) & ~forced_nodes(space, play)
        rescues, redoubles = _doubled(strategy, rules, play, upcard, space, later)
    return FixedPlay(policy=policy, rescues=rescues if play.rescue else None,
                     redoubles=redoubles if play.redoubles else None)


def play_policy(strategy: Strategy, play: PlayRules, upcard: int,
                space: HandSpace) -> Codes:
    """Per node, the action an unsplit hand takes: two-card hands with the options stand
    and hit (their first decision is asked elsewhere), larger ones with their own."""
    bulk = getattr(strategy, "hit_policy", None)
    both = frozenset((STAND, HIT))
    if bulk is not None:  # the whole space at once (frozen and chart strategies)
        policy: Codes = np.asarray(bulk(upcard, space.comps), dtype=np.int64).copy()
        if policy.shape != (len(space.comps),) or not np.isin(policy, (STAND, HIT)).all():
            raise UsageError("the strategy's hit_policy chose an action other than stand or hit")
    else:
        policy = np.array([_checked(strategy.decide(upcard, tuple(c), both), both, tuple(c),
                                    upcard) for c in space.comps.tolist()], dtype=np.int64)
    may_double, may_give = later_options(space, play)
    asked = np.flatnonzero(may_double | may_give)
    if len(asked):
        policy[asked] = _later(strategy, upcard, space, asked, may_double, may_give)
    return policy


def free_policy(strategy: Strategy | None, upcard: int, space: HandSpace) -> Bools | None:
    """Per node, whether the hand carrying a free bet hits (``decide_free``), or None
    where no strategy says (that hand then plays its own optimum).  A strategy may answer
    the whole space at once (``free_policy(upcard, comps)``)."""
    bulk = getattr(strategy, "free_policy", None)
    if bulk is not None:
        answer = np.asarray(bulk(upcard, space.comps))
        if answer.shape != (len(space.comps),) or not np.isin(answer, (STAND, HIT)).all():
            raise UsageError("the strategy's free_policy chose an action other than stand or "
                             "hit")
        hits: Bools = answer == HIT
        return hits
    decide_free = getattr(strategy, "decide_free", None)
    if decide_free is None:
        return None
    return np.array([decide_free(upcard, tuple(c)) == HIT for c in space.comps.tolist()],
                    dtype=bool)


def _doubled(strategy: Strategy, rules: Rules, play: PlayRules, upcard: int,
             space: HandSpace, later: Bools) -> tuple[Bools, Bools]:
    """Per stake level and node: a doubled hand given up, and one doubled again."""
    levels = play.redoubles + 1
    m = len(space.comps)
    rescues = np.zeros((levels, m), dtype=bool)
    redoubles = np.zeros((levels, m), dtype=bool)
    nodes = np.flatnonzero(later)  # a doubled hand holds its card: three or more cards
    bulk = getattr(strategy, "doubled_policy", None)
    if bulk is not None:
        give, again = bulk(upcard, space.comps[nodes], levels)
        give = np.asarray(give, dtype=bool)
        again = np.asarray(again, dtype=bool)
        if give.shape != (levels, len(nodes)) or again.shape != give.shape:
            raise UsageError(f"the strategy's doubled_policy answered arrays of shape "
                             f"{give.shape} and {again.shape}, not {(levels, len(nodes))}")
        rescues[:, nodes] = give
        redoubles[:, nodes] = again
    else:
        for question, table, on in (("decide_rescue", rescues, play.rescue),
                                    ("decide_redouble", redoubles, bool(play.redoubles))):
            if not on:
                continue
            ask = getattr(strategy, question, None)
            if ask is None:
                rule = "DDR" if question == "decide_rescue" else f"RD{rules.redoubles}"
                raise RuleConflictError(f"{rule}: the strategy {type(strategy).__name__} does "
                                        f"not say what a doubled hand does ({question})")
            top = levels if question == "decide_rescue" else levels - 1
            for node, row in zip(nodes.tolist(), space.comps[nodes].tolist(), strict=True):
                for level in range(1, top + 1):
                    answer = ask(upcard, tuple(row), level)
                    if not isinstance(answer, (bool, np.bool_)):
                        raise UsageError(f"the strategy's {question} answer for {tuple(row)} "
                                         f"against {upcard} is {answer!r}, not True or False")
                    table[level - 1, node] = bool(answer)
    # evaluate() doubles again only where the rule allows it, below the highest stake, and
    # never a hand given up
    return rescues, redoubles


def split_policy(strategy: Strategy, rules: Rules, play: PlayRules, upcard: int,
                 space: HandSpace, policy: Codes) -> tuple[Bools, Bools]:
    """Per node, whether a split hand reached by hitting hits, and whether it doubles.

    Where a split hand has the options of the unsplit one, it plays as that hand; where it
    has fewer (no surrender after hitting; no double after hitting without DAS) the
    strategy is asked again with the split hand's own options.
    """
    unsplit_double, unsplit_give = later_options(space, play)
    may_double = unsplit_double if rules.double_after_split else np.zeros_like(unsplit_double)
    asked = np.flatnonzero(unsplit_give | (unsplit_double & ~may_double))
    split = policy.copy()
    if len(asked):
        split[asked] = _later(strategy, upcard, space, asked, may_double,
                              np.zeros_like(unsplit_give))
    return split == HIT, split == DOUBLE
