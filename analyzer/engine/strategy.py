"""Playing strategies as data: what to do with a hand, given the options the rules leave.

The engine plays optimally unless an :class:`Analysis` is given a ``Strategy``;
then every decision (first two cards, hands reached by hitting, split hands)
is the strategy's, and the analysis evaluates that strategy exactly (policy
evaluation, not optimisation).  :class:`~analyzer.engine.frozen.FrozenStrategy`
fixes the optimal decisions of one analysis so they can be evaluated on another
shoe: the one-card-removed identity and card-counting studies rest on that.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from analyzer.core.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER
from analyzer.core.errors import UsageError

PREFERENCE = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)  # order that breaks exact ties
TIE = 1e-11  # float values closer than this are equal: a tie, broken by PREFERENCE


def beats(a: Any, b: Any) -> Any:
    """Whether the value ``a`` is better than ``b`` (numbers or arrays): ``a > b`` exactly,
    ``a > b + TIE`` in floats.

    Every decision the engine makes asks this, so a tie is one in both arithmetics: two
    plays worth the same exactly (common on small shoes: -46/165 both) differ in floats
    by rounding, and a strict ``>`` let the rounding pick the play.  The value of the
    hand is the same either way, but the play is also what its split hands and frozen
    strategies play (CDZ-), and those it changes, by up to 3e-5 of the round's EV.  The
    engine's float values carry errors of about 1e-14; two values apart by less than
    ``TIE`` yet not equal exactly are far rarer than exact ties.
    """
    if _floats(a) or _floats(b):
        return a > b + TIE
    return a > b


def _floats(x: object) -> bool:
    return isinstance(x, (float, np.floating)) or (isinstance(x, np.ndarray)
                                                    and x.dtype.kind == "f")


class Strategy(Protocol):
    """Anything that picks one of ``options`` for a hand composition against an upcard.

    A strategy for games with free split hands (Free Bet) may also define
    ``decide_free(upcard, comp) -> HIT | STAND`` for the hand carrying the free
    bet (``free_policy(upcard, comps)`` for a space at once); without it that hand
    plays its own optimum.  It may also define
    ``hit_policy(upcard, comps) -> array`` giving ``decide`` with the options stand
    and hit for every row of a hand space at once, which an analysis then asks
    instead of one call per hand.

    Under DAN or SAH a hand of three or more cards is asked with double or surrender
    among its options (``later_policy(upcard, comps, may_double, may_give)`` answers a
    space at once).  Under DDR and RDn a doubled hand, its card dealt, asks
    ``decide_rescue(upcard, comp, level) -> bool`` and ``decide_redouble(upcard, comp,
    level) -> bool`` (``doubled_policy(upcard, comps, levels)`` at once); a strategy
    without them cannot be played under those rules (:mod:`analyzer.engine.fixed`).
    """

    def decide(self, upcard: int, comp: tuple[int, ...], options: frozenset[int]) -> int:
        """The action for hand ``comp`` (counts of A..T) among the legal ``options``."""
        ...


def checked_comps(comps: object) -> npt.NDArray[np.int64]:
    """``comps`` as the rows of a hand space (an ``(m, 10)`` integer array), or a
    :class:`UsageError`: what a strategy's ``hit_policy`` is asked about."""
    if not isinstance(comps, np.ndarray) or comps.ndim != 2 or comps.shape[1] != 10 or \
            comps.dtype.kind not in "iu":
        shown = (f"an array of shape {comps.shape} and dtype {comps.dtype}"
                 if isinstance(comps, np.ndarray) else f"{comps!r:.60}")
        raise UsageError(f"hands are an (m, 10) integer array of counts of A..T, not {shown}")
    if comps.size and comps.min() < 0:
        raise UsageError(f"hands are counts of A..T, never negative, not {comps.min()}")
    return comps
