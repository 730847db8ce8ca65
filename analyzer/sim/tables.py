"""Decision tables: a strategy exported once into plain arrays the compiled loop reads.

The simulator asks its strategy (the engine's optimal composition-dependent
play, a chart, anything with ``decide``/``decide_free``) every question it can
meet *before* dealing, so the compiled loop never calls back into Python:

* ``first[u, node, pair]``: the first two cards (``pair``: a split is offered,
  i.e. two cards of the same rank, or value when tens pair by value);
* ``split[u, p, b, resplit]``: a split hand ``p`` + ``b`` (``resplit``: ``b``
  is the pair's rank and another split is allowed);
* ``hit[u, node]``: a hand of three or more cards: bits 0-2 the unsplit hand's action
  (hit, stand, double where DAN allows, surrender where SAH does), bits 3-5 a split
  hand's (which may not surrender, nor double without DAS); where a paid double's card
  lands here at stake level ``l`` (``2**l`` bets), bit ``5 + l`` whether it is given up
  (DDR, ``l`` 1-4) and bit ``9 + l`` whether it doubles again (RDn, ``l`` 1-3);
* ``free[u, node]``: the hand carrying Free Bet's free split bet (hit or stand);
* ``suited[u, hand, case]``: where a suit bonus pays, the first action of 6-7, 6-8, 7-8
  and 7-7 (:data:`~analyzer.sim.layout.SUIT_HANDS`) in each suit case the player can
  tell apart (:data:`~analyzer.sim.layout.SUIT_CASES`), asked of a strategy that reads
  suits (``decide_suits``); ``-1`` where the hand plays by its ranks.

Hands are nodes of the simulator's own composition graph (:class:`HandNodes`):
``nxt[node, v - 1]`` is the hand after drawing value ``v``, ``-1`` a bust.
The tables are the only thing taken from the engine; every rule that decides
which options a hand has is re-coded here, deliberately apart from
``analyzer.engine``.  An entry of ``-1`` marks a hand the shoe cannot deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np
import numpy.typing as npt

from analyzer.core.rules import Rules
from analyzer.sim import layout as L
from analyzer.sim.config import SimRules, SimulationError
from analyzer.sim.layout import DOUBLE, HIT, SPLIT, STAND, SURRENDER

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
_SIX_SEVEN_EIGHT = (0, 0, 0, 0, 0, 1, 1, 1, 0, 0)
_THREE_SEVENS = (0, 0, 0, 0, 0, 0, 3, 0, 0, 0)
RESCUE_BIT, REDOUBLE_BIT = 5, 9  # + stake level: the hit table's bits (module docstring)


class SimStrategy(Protocol):
    """What the simulator asks a strategy (``analyzer.engine.strategy.Strategy`` codes).

    Where a suit bonus pays it asks, if the strategy has it, ``decide_suits(upcard, comp,
    hand_suits, upcard_suit, options) -> action`` for 6-7, 6-8, 7-8 and 7-7 (suits 0-3, 0
    spades); a strategy without it plays those hands by their ranks.
    Under DDR it also asks ``decide_rescue(upcard, comp, level) -> bool``: whether a
    doubled hand holding ``comp`` at stake ``2**level`` is given up; under RDn
    ``decide_redouble(upcard, comp, level) -> bool``: whether it doubles again (a
    strategy without the question cannot play that rule).
    """

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int: ...

    def decide_free(self, upcard: int, comp: tuple[int, ...]) -> int: ...


@dataclass(frozen=True)
class HandNodes:
    """Every hand composition with hard total <= 21 that ``limits`` (cards per value) allow."""

    comps: list[tuple[int, ...]]  # node -> counts of A..T; node 0 is the empty hand
    nxt: I32  # (m, 10): node after drawing value v (column v - 1); -1 bust, -2 impossible
    total: I32  # (m,): best total (an ace counts 11 where that does not bust)
    ncards: I32  # (m,)

    @classmethod
    def build(cls, limits: tuple[int, ...]) -> HandNodes:
        comps: list[tuple[int, ...]] = [(0,) * 10]
        index = {comps[0]: 0}
        rows: list[list[int]] = []
        i = 0
        while i < len(comps):  # breadth first: children get higher numbers
            comp = comps[i]
            hard = sum(v * n for v, n in zip(range(1, 11), comp, strict=True))
            row = []
            for v in range(1, 11):
                if hard + v > 21:
                    row.append(-1)
                elif comp[v - 1] >= limits[v - 1]:
                    row.append(-2)
                else:
                    child = comp[:v - 1] + (comp[v - 1] + 1,) + comp[v:]
                    if child not in index:
                        index[child] = len(comps)
                        comps.append(child)
                    row.append(index[child])
            rows.append(row)
            i += 1
        hard_totals = [sum(v * n for v, n in zip(range(1, 11), c, strict=True)) for c in comps]
        total = [h + 10 if c[0] and h <= 11 else h for h, c in zip(hard_totals, comps, strict=True)]
        return cls(comps=comps, nxt=np.array(rows, dtype=np.int32),
                   total=np.array(total, dtype=np.int32),
                   ncards=np.array([sum(c) for c in comps], dtype=np.int32))

    def node(self, *values: int) -> int:
        """The node reached by drawing ``values`` from the empty hand."""
        n = 0
        for v in values:
            n = int(self.nxt[n, v - 1])
        return n


@dataclass(frozen=True)
class DecisionTables:
    """A strategy's answers for one rule set, as arrays (see the module docstring)."""

    nodes: HandNodes
    first: I8  # (11, m, 2)
    split: I8  # (11, 11, 11, 2)
    hit: I16  # (11, m)
    free: I8  # (11, m)
    seconds: float  # time spent asking the strategy
    suited: I8 | None = None  # (11, 4, SUIT_CASES); None: every hand by its ranks

    def packed(self) -> I32:
        """One row per hand node, in the kernel's layout (see ``layout``)."""
        n = self.nodes
        tab = np.full((len(n.comps), L.T_WIDTH), -1, dtype=np.int32)
        tab[:, :10] = n.nxt
        tab[:, L.T_TOTAL] = n.total
        tab[:, L.T_NCARDS] = n.ncards
        tab[:, L.T_FIRST:L.T_FIRST + 20] = self.first[1:].transpose(1, 0, 2).reshape(-1, 20)
        tab[:, L.T_HIT:L.T_HIT + 10] = self.hit[1:].T
        tab[:, L.T_FREE:L.T_FREE + 10] = self.free[1:].T
        tab[:, L.T_THREE] = [1 if c == _SIX_SEVEN_EIGHT else 2 if c == _THREE_SEVENS else 0
                             for c in n.comps]
        return tab


def _mask(options: int) -> frozenset[int]:
    return frozenset(a for a in range(5) if options >> a & 1)


class _Asker:
    """Asks the strategy and checks that each answer is one of the options offered."""

    def __init__(self, strategy: SimStrategy, limits: tuple[int, ...]) -> None:
        self.strategy, self.limits = strategy, limits

    def possible(self, u: int, comp: tuple[int, ...]) -> bool:
        return comp[u - 1] < self.limits[u - 1]  # the upcard is one of its value's cards

    def decide(self, u: int, comp: tuple[int, ...], options: int) -> int:
        opts = _mask(options)
        action = self.strategy.decide(u, comp, opts)
        if action not in opts:
            raise SimulationError(f"the strategy chose action {action} for {comp} against "
                                  f"{u}, not one of the options {sorted(opts)}")
        return action

    def doubled(self, question: str, u: int, comp: tuple[int, ...], level: int) -> bool:
        """``question`` (``decide_rescue`` under DDR, ``decide_redouble`` under RDn) for the
        doubled hand ``comp`` at stake level ``level``; a strategy without the question
        cannot play the rule."""
        ask = getattr(self.strategy, question, None)
        if ask is None:
            rule = "DDR" if question == "decide_rescue" else "RDn"
            raise SimulationError(f"the strategy {type(self.strategy).__name__} does not "
                                  f"answer {question}, which {rule} needs")
        answer = ask(u, comp, level)
        if not isinstance(answer, (bool, np.bool_)):
            raise SimulationError(f"the strategy's {question} answer for {comp} against {u} "
                                  f"is {answer!r}, not True or False")
        return bool(answer)

    def decide_suits(self, u: int, comp: tuple[int, ...], suits: tuple[int, int], up: int,
                     options: int) -> int | None:
        """The action for ``comp`` in one suit case, or None: the strategy reads ranks only."""
        ask = getattr(self.strategy, "decide_suits", None)
        if ask is None:
            return None
        opts = _mask(options)
        action = ask(u, comp, suits, up, opts)
        if action not in opts:
            raise SimulationError(f"the strategy chose action {action} for {comp} in suits "
                                  f"{suits} against {u} of suit {up}, not one of the options "
                                  f"{sorted(opts)}")
        return int(action)

    def decide_free(self, u: int, comp: tuple[int, ...]) -> int:
        action = self.strategy.decide_free(u, comp)
        if action not in (STAND, HIT):
            raise SimulationError(f"the strategy chose action {action} for the free hand "
                                  f"{comp} against {u}, not hit or stand")
        return action


def _terminal(sr: SimRules, nodes: HandNodes, node: int) -> bool:
    """No decision left: a Charlie, or 21 where 21 stands."""
    return bool(nodes.ncards[node] >= sr.charlie or (sr.stand_on_21 and nodes.total[node] == 21))


def _first_table(sr: SimRules, nodes: HandNodes, ask: _Asker) -> I8:
    first = np.full((11, len(nodes.comps), 2), -1, dtype=np.int8)
    hs = 1 << STAND | 1 << HIT
    for a in range(1, 11):
        for b in range(a, 11):
            node = nodes.node(a, b)
            if node < 0 or {a, b} == {1, 10}:
                continue
            comp = nodes.comps[node]
            opts = hs | (1 << DOUBLE if sr.free_double[a][b] or sr.paid_double[a][b] else 0)
            for u in range(1, 11):
                if not ask.possible(u, comp):
                    continue
                surr = 1 << SURRENDER if sr.surrender_on[u] else 0
                first[u, node, 0] = first[u, node, 1] = ask.decide(u, comp, opts | surr)
                if a == b and sr.can_split[a]:
                    first[u, node, 1] = ask.decide(u, comp, opts | surr | 1 << SPLIT)
    return first


def _split_table(sr: SimRules, nodes: HandNodes, ask: _Asker) -> I8:
    table = np.full((11, 11, 11, 2), -1, dtype=np.int8)
    hs = 1 << STAND | 1 << HIT
    for p in range(1, 11):
        if not sr.can_split[p]:
            continue
        one_card = p == 1 and sr.one_card_aces
        resplit = (2 if sr.free_split[p] else sr.aces_hands if p == 1 else sr.max_hands) > 2
        for b in range(1, 11):
            node = nodes.node(p, b)
            comp = nodes.comps[node]
            dbl = 1 << DOUBLE if sr.double_after_split and sr.paid_double[p][b] else 0
            for u in range(1, 11):
                if not ask.possible(u, comp):
                    continue
                if one_card or (sr.stand_on_21 and nodes.total[node] == 21):
                    table[u, p, b, 0] = STAND
                else:
                    table[u, p, b, 0] = ask.decide(u, comp, hs | dbl)
                if b == p and resplit:
                    opts = 1 << STAND | 1 << SPLIT | (0 if one_card else hs | dbl)
                    table[u, p, b, 1] = ask.decide(u, comp, opts)
    return table


def _hit_tables(sr: SimRules, nodes: HandNodes, ask: _Asker) -> tuple[I16, I8]:
    m = len(nodes.comps)
    hit = np.full((11, m), -1, dtype=np.int16)
    free = np.full((11, m), -1, dtype=np.int8)
    both = 1 << STAND | 1 << HIT
    for node, comp in enumerate(nodes.comps):
        n = nodes.ncards[node]
        if n < 2 or _terminal(sr, nodes, node):
            continue
        for u in range(1, 11):
            if not ask.possible(u, comp):
                continue
            if n >= 3:
                may = 1 << DOUBLE if sr.later_double[nodes.total[node]] else 0
                give = 1 << SURRENDER if sr.surrender_later[u] else 0  # unsplit hands only
                act = ask.decide(u, comp, both | may | give)
                split_opts = both | (may if sr.double_after_split else 0)
                split_act = act if split_opts == both | may | give else ask.decide(u, comp,
                                                                                   split_opts)
                cell = act | split_act << 3
                for level in range(1, sr.redoubles + 2):  # stakes 2, 4, ...: a double landed
                    if sr.rescue and ask.doubled("decide_rescue", u, comp, level):
                        cell |= 1 << (RESCUE_BIT + level)
                    elif (level <= sr.redoubles and sr.redouble_on[nodes.total[node]]
                          and ask.doubled("decide_redouble", u, comp, level)):
                        cell |= 1 << (REDOUBLE_BIT + level)
                hit[u, node] = cell
            if any(sr.free_split):
                free[u, node] = ask.decide_free(u, comp)
    return hit, free


# One suit case each (``SUIT_CASES``' order): the hand's suits and the upcard's.
_CASE_SUITS = (((0, 1), 2), ((0, 0), 0), ((0, 0), 1), ((1, 1), 1), ((1, 1), 2))


def _suited_table(sr: SimRules, nodes: HandNodes, ask: _Asker) -> I8 | None:
    """The first actions by suits (module docstring), or None: no suit bonus on a three-card
    21, or a strategy that reads ranks only."""
    plain = (Fraction(1),) * 3
    if sr.three[0] == plain and sr.three[1] == plain and not sr.super_bonus:
        return None
    table = np.full((11, len(L.SUIT_HANDS), L.SUIT_CASES), -1, dtype=np.int8)
    for hand, (a, b) in enumerate(L.SUIT_HANDS):
        node = nodes.node(a, b)
        comp = nodes.comps[node]
        kind = 1 if a == b else 0  # 7-7 one card from 7-7-7, the others from 6-7-8
        opts = 1 << STAND | 1 << HIT | (1 << DOUBLE if sr.paid_double[a][b] else 0)
        if a == b and sr.can_split[a]:
            opts |= 1 << SPLIT
        for u in range(1, 11):
            if not ask.possible(u, comp) or (sr.three[kind] == plain and not (
                    kind == 1 and sr.super_bonus and u == 7)):
                continue  # no suit pays this hand against this upcard
            surr = 1 << SURRENDER if sr.surrender_on[u] else 0
            for case, (suits, up) in enumerate(_CASE_SUITS):
                action = ask.decide_suits(u, comp, suits, up, opts | surr)
                if action is None:
                    return None
                table[u, hand, case] = action
    return table


def export_tables(rules: Rules, strategy: SimStrategy) -> DecisionTables:
    """Ask ``strategy`` every decision the simulator may meet under ``rules``, once."""
    start = time.perf_counter()
    sr = SimRules.of(rules)
    nodes = HandNodes.build(sr.limits)
    ask = _Asker(strategy, sr.limits)
    first = _first_table(sr, nodes, ask)
    split = _split_table(sr, nodes, ask)
    hit, free = _hit_tables(sr, nodes, ask)
    suited = _suited_table(sr, nodes, ask)
    return DecisionTables(nodes=nodes, first=first, split=split, hit=hit, free=free,
                          seconds=time.perf_counter() - start, suited=suited)


__all__ = ["DecisionTables", "HandNodes", "SimStrategy", "export_tables"]
