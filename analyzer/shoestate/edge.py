"""The edge by true count of a player who re-optimises at every shoe state.

What is EXACT: the EV of each shoe state -- the full analysis
(:class:`~analyzer.engine.analysis.Analysis`, optimal CDZ- play, one round off
the top) of the cards left in it.  What is SAMPLED: which shoe states.  A state
is made by dealing ``k`` random cards from the full shoe, ``k`` uniform on
``0 .. cut - 1`` (a round starts at any depth before the cut card about equally
often), the dealt cards drawn without replacement (multivariate
hypergeometric).  Two independent streams from one seed:

* many cheap states (``count_samples``, count only) give the distribution of
  the true count, each bin's share with its binomial standard error;
* fewer states (``states``) are analysed exactly; a bin's edge is the mean EV
  of its states, with the standard error of that mean over states (the spread
  of the EV among states at the same true count), and the overall mean is the
  flat-bet edge of the re-optimising player at this penetration.

The true count is the running count of the dealt cards per 52 cards left,
centred for an unbalanced count (``RC - k * mean tag``); bin ``b`` holds true
counts in ``[b - 1/2, b + 1/2)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.core.errors import RuleConflictError, UsageError
from analyzer.core.limits import MAX_COUNT_SAMPLES, MAX_STATES
from analyzer.core.numbers import shown
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe
from analyzer.engine.analysis import checked_jobs
from analyzer.engine.exhaustion import safe_left
from analyzer.shoestate.counts import CountSystem
from analyzer.shoestate.summary import summaries
from analyzer.util.progress import ProgressCallback

MIN_LEFT = 12  # the engine needs this many cards to deal a round


@dataclass(frozen=True)
class CountBin:
    true_count: int
    share: float  # chance a round starts in this bin
    share_se: float
    states: int  # exactly analysed states in the bin
    edge: float | None  # mean exact EV of those states
    edge_se: float | None  # standard error of that mean (None below 2 states)


@dataclass(frozen=True)
class EdgeByCount:
    spec: str
    system: str
    cut: int  # cards dealt before the reshuffle
    cut_assumed: bool  # True when the cut card is not the game's own (its rules have none)
    seed: int
    count_samples: int
    full_ev: float  # off the top of the full shoe
    mean_ev: float  # flat-bet edge of the re-optimising player over the states
    mean_se: float
    bins: tuple[CountBin, ...]
    states: tuple[tuple[int, float, float], ...]  # (cards dealt, true count, exact EV)


def deal_states(full: Shoe, cut: int, n: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random shoe states: (cards dealt per state, cards left by value, ``(n, 10)``)."""
    depths = rng.integers(0, cut, size=n)
    left = np.empty((n, 10), dtype=np.int64)
    colours = np.array(full.counts, dtype=np.int64)
    for k in np.unique(depths):
        rows = np.flatnonzero(depths == k)
        dealt = rng.multivariate_hypergeometric(colours, int(k), size=len(rows))
        left[rows] = colours - dealt
    return depths, left


def true_counts(system: CountSystem, full: Shoe, left: np.ndarray) -> np.ndarray:
    """Centred true count of each state (rows of cards left)."""
    tags = np.array([float(t) for t in system.tags])
    dealt = np.array(full.counts) - left
    running = dealt @ tags - dealt.sum(axis=1) * float(system.mean_tag_in(full.counts))
    return np.asarray(running / (left.sum(axis=1) / 52.0), dtype=float)


def _bin(tc: np.ndarray) -> np.ndarray:
    return np.floor(tc + 0.5).astype(np.int64)


def edge_by_count(rules: Rules, system: CountSystem, *, states: int = 200,
                  count_samples: int = 100_000, seed: int = 1, cut: int | None = None,
                  jobs: int = 1, use_cache: bool = True,
                  progress: ProgressCallback | None = None) -> EdgeByCount:
    """Sample shoe states, analyse each exactly, and tabulate the edge by true count
    (``progress``: each state analysed)."""
    full = rules.full_shoe()
    depth = cut if cut is not None else rules.cut_card
    if cut is None and not depth:  # a cut given is checked with the other numbers below
        raise RuleConflictError("the game reshuffles before every round (no cut card): every "
                            "round is dealt off the top at true count 0; give a cut card: "
                            "the rule CUT234, or the command's --cut 234 (cut=234)")
    # Worded as the command's options are (parse_whole), the same bounds.
    for name, value, low, high in (("states", states, 2, MAX_STATES),
                                   ("samples", count_samples, 2, MAX_COUNT_SAMPLES),
                                   ("seed", seed, 0, None), ("cut", depth, 1, None)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low \
                or (high is not None and value > high):
            bound = f"{low:,} to {high:,}" if high is not None else f"{low:,} or more"
            raise UsageError(f"{name} must be a whole number {bound}, not {shown(value)}")
    jobs = checked_jobs(jobs)
    # A state is dealt up to cut - 1 cards deep; the cards left must last any round,
    # whatever they are (a state that could run out has no figure).
    last = min(full.total - MIN_LEFT, full.total + 1 - safe_left(full.counts, rules.max_hands))
    if depth > last:
        raise UsageError(f"cut card after {depth} cards: must be 1 to {last} for a "
                         f"{full.total}-card shoe (a round dealt deeper may run out of "
                         "cards)")
    counts_rng, states_rng = (np.random.default_rng([seed, stream]) for stream in (0, 1))
    _, sample_left = deal_states(full, depth, count_samples, counts_rng)
    sample_bins = _bin(true_counts(system, full, sample_left))
    dealt, left = deal_states(full, depth, states, states_rng)
    tcs = true_counts(system, full, left)
    spec = format_spec(rules)
    shoes = [full.counts] + [tuple(int(c) for c in row) for row in left]
    results = summaries(spec, shoes, reference=full.counts, jobs=jobs, use_cache=use_cache,
                        progress=progress, stage="shoe states")
    evs = np.array([float(r.ev) for r in results[1:]])
    state_bins = _bin(tcs)
    bins = []
    for b in sorted(set(sample_bins.tolist()) | set(state_bins.tolist())):
        share = float(np.mean(sample_bins == b))
        chosen = evs[state_bins == b]
        edge = float(chosen.mean()) if len(chosen) else None
        se = float(chosen.std(ddof=1) / math.sqrt(len(chosen))) if len(chosen) > 1 else None
        bins.append(CountBin(true_count=int(b), share=share,
                             share_se=math.sqrt(share * (1 - share) / count_samples),
                             states=len(chosen), edge=edge, edge_se=se))
    return EdgeByCount(
        spec=spec, system=system.name, cut=depth, cut_assumed=depth != rules.cut_card,
        seed=seed, count_samples=count_samples,
        full_ev=float(results[0].ev), mean_ev=float(evs.mean()),
        mean_se=float(evs.std(ddof=1) / math.sqrt(len(evs))), bins=tuple(bins),
        states=tuple((int(k), float(t), float(e)) for k, t, e in zip(dealt, tcs, evs,
                                                                     strict=True)))


__all__ = ["CountBin", "EdgeByCount", "deal_states", "edge_by_count",
           "true_counts"]
