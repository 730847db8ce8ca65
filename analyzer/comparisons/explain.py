"""Why two games differ, rule by rule: Shapley attribution over the rule lattice.

The players are the rule components that differ between a *source* and a
*target* game (the rules of :data:`analyzer.core.ruleset.COMPONENTS`).  For a set ``S`` of players,
the intermediate game is the source with the rules of ``S`` taken from the
target; ``v(S)`` is its EV.  Applying the changes one at a time in some order
walks from ``v(∅)`` (source) to ``v(N)`` (target), and each change is credited
with the EV step it makes; a rule's contribution is its step averaged over the
orders (Shapley 1953).  Every order telescopes to ``v(N) - v(∅)``, so the
contributions add up to the total difference exactly; the numbers are exact
rationals (in float mode, of the floats' exact values).

Invalid intermediates.  Some intermediates are not rule sets (CHBJ without a
Charlie, free splits without splitting) or are refused by the engine.  The rule
used here: an order is *valid* when every game it passes through is valid, and
the average is taken over the valid orders only.  The valid intermediates form
a directed acyclic graph (an edge applies one more change); a valid order is a
path from the source to the target, so the weight of a step ``S -> S+i`` is
``paths(∅ -> S) * paths(S+i -> N) / paths(∅ -> N)``, counted on the graph
(networkx).  With every intermediate valid this is the classical Shapley value
(the weights become ``|S|! (n-|S|-1)! / n!``).  Each valid order still
telescopes, so the sum is still exact.  If no valid order exists, the changes
are shown as one.

Interactions are Harsanyi dividends ``d(T) = Σ_{S⊆T} (-1)^{|T|-|S|} v(S)``:
what the rules of ``T`` do together beyond their subsets (a single rule's
dividend is its effect alone on the source).  Shapley gives each rule of ``T``
the share ``d(T)/|T|``.  A dividend is shown where every subset is valid.

References: L. S. Shapley, "A value for n-person games", Contributions to the
Theory of Games II (1953); J. C. Harsanyi, "A simplified bargaining model for
the n-person cooperative game", Int. Econ. Rev. 4 (1963).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.comparisons.model import Contribution, Explanation, Figures, Interaction
from analyzer.core.errors import AnalyzerError, RuleConflictError, UsageError
from analyzer.core.limits import MAX_PLAYERS as PLAYERS_CAP
from analyzer.core.rules import Rules, format_spec
from analyzer.core.ruleset import Rule, differing

Evaluate = Callable[[list[str]], dict[str, Figures | str]]
MAX_PLAYERS = 8  # the default: 2**8 = 256 intermediate games at most
MIN_DIVIDEND = Fraction(1, 10**12)  # smaller interactions are not listed


@dataclass(frozen=True)
class Player:
    """One or more rule components changed together."""

    name: str
    components: tuple[Rule, ...]
    change: str


def players_between(a: Rules, b: Rules) -> list[Player]:
    return [Player(c.name, (c,), c.change(a, b)) for c in differing(a, b)]


def intermediate(a: Rules, b: Rules, players: Sequence[Player], mask: int) -> Rules | str:
    """The source with the players of ``mask`` changed to the target, or why it is invalid."""
    changes = {}
    for i, p in enumerate(players):
        if mask >> i & 1:
            for c in p.components:
                changes.update(c.take(b))
    try:
        return a.replace(**changes)
    except AnalyzerError as err:
        return str(err)


def _values(a: Rules, b: Rules, players: Sequence[Player], masks: Sequence[int],
            evaluate: Evaluate) -> tuple[dict[int, Fraction], dict[int, str]]:
    """``v(S)`` of each valid mask, and the reason of each invalid one."""
    rules = {m: intermediate(a, b, players, m) for m in masks}
    specs = [format_spec(r) for r in rules.values() if isinstance(r, Rules)]
    figures = evaluate(specs)
    values: dict[int, Fraction] = {}
    invalid: dict[int, str] = {}
    for m, r in rules.items():
        got = figures[format_spec(r)] if isinstance(r, Rules) else r
        if isinstance(got, Figures):
            values[m] = got.value
        else:
            invalid[m] = got
    return values, invalid


def lattice_graph(n: int, valid: set[int]) -> Any:
    """Valid intermediates as nodes; an edge ``S -> S+i`` labelled with player ``i``.

    A ``networkx.DiGraph`` (imported here: only explanations need it).
    """
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(valid)
    for s in valid:
        for i in range(n):
            t = s | 1 << i
            if t != s and t in valid:
                graph.add_edge(s, t, player=i)
    return graph


def _path_counts(graph: Any, source: int, sink: int) -> tuple[dict[int, int], dict[int, int]]:
    """Paths from the source to each node, and from each node to the sink."""
    import networkx as nx

    order = list(nx.topological_sort(graph))
    into = {v: 0 for v in order}
    out = {v: 0 for v in order}
    into[source] = 1
    for v in order:
        for w in graph.successors(v):
            into[w] += into[v]
    out[sink] = 1
    for v in reversed(order):
        for w in graph.successors(v):
            out[v] += out[w]
    return into, out


def shapley(n: int, values: dict[int, Fraction]) -> tuple[list[Fraction], int]:
    """Shapley contributions averaged over valid orders, and how many orders were valid."""
    full = (1 << n) - 1
    if 0 not in values or full not in values:
        raise RuleConflictError("the source and target games must both be valid")
    import networkx as nx

    graph = lattice_graph(n, set(values))
    if not nx.has_path(graph, 0, full):
        return [], 0
    into, out = _path_counts(graph, 0, full)
    orders = into[full]
    shares = [Fraction(0)] * n
    for s, t, data in graph.edges(data=True):
        weight = into[s] * out[t]
        if weight:
            shares[data["player"]] += weight * (values[t] - values[s])
    return [x / orders for x in shares], orders


def dividends(n: int, values: dict[int, Fraction]) -> dict[int, Fraction]:
    """Harsanyi dividend of every mask whose subsets are all valid."""
    out: dict[int, Fraction] = {}
    for t in range(1, 1 << n):
        total = Fraction(0)
        sub = t
        while True:
            if sub not in values:
                break
            total += values[sub] if (t.bit_count() - sub.bit_count()) % 2 == 0 else -values[sub]
            if sub == 0:
                out[t] = total
                break
            sub = (sub - 1) & t
    return out


def _merge(a: Rules, b: Rules, fine: list[Player], evaluate: Evaluate,
           limit: int) -> tuple[list[Player], str]:
    """Keep the ``limit - 1`` rules with the largest single-change effect; merge the rest."""
    n = len(fine)
    full = (1 << n) - 1
    masks = [0, full, *(1 << i for i in range(n)), *(full ^ 1 << i for i in range(n))]
    values, _ = _values(a, b, fine, masks, evaluate)

    def score(i: int) -> Fraction:
        steps = [abs(values[1 << i] - values[0]) if 1 << i in values and 0 in values else 0,
                 abs(values[full] - values[full ^ 1 << i])
                 if full ^ 1 << i in values and full in values else 0]
        return Fraction(max(steps))

    ranked = sorted(range(n), key=lambda i: (-score(i), i))
    keep = sorted(ranked[:limit - 1])
    rest = [fine[i] for i in sorted(ranked[limit - 1:])]
    other = Player("other rules", tuple(c for p in rest for c in p.components),
                   ", ".join(p.change for p in rest))
    note = (f"{n} rules differ: the {limit - 1} with the largest single-change effect are "
            f"attributed one by one, the other {len(rest)} together as 'other rules' "
            f"({', '.join(p.name for p in rest)}); at most {limit} players keep the "
            f"lattice to {2 ** limit} games")
    return [*(fine[i] for i in keep), other], note


def check_players(max_players: int) -> None:
    """Refuse a lattice past :data:`~analyzer.core.limits.MAX_PLAYERS` players (2^n games)."""
    if isinstance(max_players, bool) or not isinstance(max_players, int) \
            or not 1 <= max_players <= PLAYERS_CAP:
        raise UsageError(f"max_players must be a whole number 1 to {PLAYERS_CAP} (a lattice "
                         f"of 2^{PLAYERS_CAP} games at most), not {max_players!r}")


def explain(a: Rules, b: Rules, evaluate: Evaluate, max_players: int = MAX_PLAYERS) -> Explanation:
    """The difference ``EV(b) - EV(a)`` attributed rule by rule (see the module docstring)."""
    check_players(max_players)
    players = players_between(a, b)
    notes: list[str] = []
    if len(players) > max_players:
        players, note = _merge(a, b, players, evaluate, max_players)
        notes.append(note)
    n = len(players)
    values, invalid = _values(a, b, players, range(1 << n), evaluate)
    full = (1 << n) - 1
    shares, orders = shapley(n, values)
    bad = tuple((" + ".join(players[i].name for i in range(n) if m >> i & 1), why)
                for m, why in sorted(invalid.items()))
    if n and not orders:
        notes.append("no order of single-rule changes passes through valid games only: "
                     "the changes are shown together")
        players = [Player("all rules", tuple(c for p in players for c in p.components),
                          ", ".join(p.change for p in players))]
        shares, orders, n = [values[full] - values[0]], 1, 1
        values, full = {0: values[0], 1: values[full]}, 1
    div = dividends(n, values)
    contributions = tuple(
        Contribution(p.name, p.change, shares[i],
                     div.get(1 << i), values[full] - values[full ^ 1 << i]
                     if full ^ 1 << i in values else None)
        for i, p in enumerate(players))
    interactions = sorted(
        (Interaction(tuple(players[i].name for i in range(n) if t >> i & 1), d)
         for t, d in div.items() if t.bit_count() > 1 and abs(d) >= MIN_DIVIDEND),
        key=lambda x: (-abs(x.dividend), x.rules))
    return Explanation(source=format_spec(a), target=format_spec(b),
                       total=values[full] - values[0], contributions=contributions,
                       interactions=tuple(interactions), invalid=bad, orders=orders,
                       all_orders=math.factorial(n), notes=tuple(notes))
