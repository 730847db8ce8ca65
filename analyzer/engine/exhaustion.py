"""Whether a round can run out of cards: such a shoe is refused, never analysed.

The engine's formulas assume every card a round asks for is there.  On a shoe
that can run dry they do not fail: a dealer row loses the mass of the draws it
cannot make (taken as "bust 23+", the remainder), a hit from an empty shoe is
worth 0, and the round EV is built on that leaked mass (``bja ev --shoe 2:12``
printed an RTP of 500%).  No rule of the game says what happens then (a casino
would reshuffle), so there is no right figure to compute: the shoe is refused
with an :class:`~analyzer.core.errors.ImpossibleShoeError`.

What counts as running out, exactly
-----------------------------------
A round *runs out* when some sequence of cards the shoe can deal, played by
some play the analysis values, asks for a card the shoe no longer has **and
that card decides a bet**: a player's hit, double or split hand's next card
from an empty shoe; the dealer's hole card or hits while some hand still stands;
or, behind hands that all busted, the hole card alone when an unchecked blackjack
would change the loss (OBO).  A Charlie is paid whatever the dealer draws
(:func:`analyzer.engine.hands.evaluate` values it by the chance of a blackjack
alone): it needs the hole card where an unchecked blackjack may beat it, and no
card where the dealer peeked or cannot have one.  A dealer running out behind
busted hands decides nothing and is no error, as in
:mod:`analyzer.oracle.exact_splits`.  Where the dealer peeked, the hole card is
known not to complete a blackjack: the player's draws always leave one card that
may be the hole card (the engine's conditioned draw probabilities give the other
draws probability zero).

"Some play the analysis values": optimal play compares every action, so the
values of hands only a bad play reaches feed the comparison; every legal play
is checked (hitting a hard 21 too: the engine values it, and from an empty
shoe it is worth 0 instead of -1).  Split hands played by a fixed rule (CDZ-,
the engine's pre-split strategy, or a chart) are checked under that rule
alone, because only its hands enter the split's value: thirteen 8s split to
four hands of 16 that stand, which never run dry, though hitting them would.
The post-split levels (CDP1, CDP, optimal splitting) choose each split hand's
play from the values of every play, so every legal play of the split hands is
checked there.  A split is checked as the real round deals it, every hand's
cards out of the shoe: the per-hand values of Farmer's algorithm are the
round's exact EV only when no such round runs out (the whole-round
enumeration of :mod:`analyzer.oracle.exact_splits` refuses exactly the same
splits, which the tests check).

Why an exact search behind a bound
----------------------------------
A bound alone would refuse small shoes whose rounds are well defined (the
brute-force oracles' 13 to 20 card shoes), and an exact search alone would
walk every round of every ordinary shoe.  So :func:`round_cards_bound` first
bounds the cards any round can take: each participant's cards before its last
sum to at most 21 counting aces as 1 (a player may hit up to a hard 21; the
dealer draws only on a hard 16 or less, upcard included), so a round of ``h``
hands takes at most ``h + 1`` cards plus the most cards of the shoe whose
values sum to ``21 h + 16``.  A shoe holding that many cards cannot run out,
whatever happens: every full 1 to 8 deck shoe, and the large depleted shoes of
the shoe-state studies, pass without a search.  Below it, a depth-first search
over the round (memoised, and cut wherever the same bound, taken from that
state, shows the rest of the shoe cannot be used up) decides exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from analyzer.core.actions import DOUBLE, HIT, STAND
from analyzer.core.cards import blackjack_value, format_value
from analyzer.core.errors import ImpossibleShoeError

Counts = tuple[int, ...]
# A split hand's play under a fixed rule: (composition, may double) -> STAND, HIT or DOUBLE.
SplitPolicy = Callable[[Counts, bool], int]

_PLAYER_LIMIT = 21  # a player may hit while the hard total is at most this
_DEALER_LIMIT = 16  # the dealer draws only while the hard total (upcard included) is at most this


def most_cards(counts: Counts, budget: int) -> int:
    """The most cards of ``counts`` whose values (aces as 1) sum to at most ``budget``."""
    taken = 0
    for v in range(1, 11):
        if budget < v:
            break
        k = min(counts[v - 1], budget // v)
        taken += k
        budget -= k * v
    return taken


def round_cards_bound(counts: Counts, max_hands: int) -> int:
    """At most how many cards one round takes from a shoe (upcard included).

    Every participant's cards but its last sum to at most 21 for a hand (hard
    total, aces as 1) and 16 for the dealer, upcard included (see the module
    doc): ``h + 1`` last cards, and the others are cards of the shoe summing to
    at most ``21 h + 16``.
    """
    return max_hands + 1 + most_cards(counts, _PLAYER_LIMIT * max_hands + _DEALER_LIMIT)


def safe_left(counts: Counts, max_hands: int) -> int:
    """The fewest cards that last any round whichever cards of ``counts`` they are.

    The worst shoe of ``n`` cards drawn from ``counts`` is its ``n`` smallest cards
    (the bound counts small cards), and adding a card raises the bound by at most
    one, so the first ``n`` the bound passes holds for every larger ``n`` too.
    """
    smallest: list[int] = [0] * 10
    n = 0
    for v in range(1, 11):
        for _ in range(counts[v - 1]):
            smallest[v - 1] += 1
            n += 1
            if n >= round_cards_bound(tuple(smallest), max_hands):
                return n
    return n + 1  # no part of this shoe lasts a round for sure


def _minus(r: Counts, v: int) -> Counts:
    return r[:v - 1] + (r[v - 1] - 1,) + r[v:]


def _plus(c: Counts, v: int) -> Counts:
    return c[:v - 1] + (c[v - 1] + 1,) + c[v:]


# What a finished hand needs of the dealer, the most of a round's hands counting:
NOTHING, HOLE, DEALER = 0, 1, 2  # busted; a Charlie a blackjack may beat; standing


@lru_cache(maxsize=1 << 16)
def _hard(c: Counts) -> int:
    """Hard total of counts (aces as 1): asked of the same small shoes again and again."""
    return sum(v * n for v, n in enumerate(c, start=1))


@dataclass
class RoundCheck:
    """The exact search for one upcard (see the module doc); memoised across calls.

    ``r`` is always the shoe without the upcard and the cards dealt so far.
    """

    upcard: int
    hits_soft_17: bool
    conditioned: bool  # the dealer peeked: the hole card does not complete a blackjack
    charlie: int = 0
    stand_on_21: bool = False
    hole_decides_busts: bool = False  # an unchecked blackjack limits a loss (OBO)
    hole_decides_charlie: bool = True  # an unchecked blackjack may beat a Charlie
    _dealer_memo: dict[Counts, bool] = field(default_factory=dict)
    _hand_memo: dict[tuple[Counts, Counts], bool] = field(default_factory=dict)

    @property
    def _bj(self) -> int | None:
        return blackjack_value(self.upcard) if self.conditioned else None

    def _drawable(self, r: Counts) -> list[int]:
        """Values the player can draw, leaving a card that may be the peeked hole card."""
        bj = self._bj
        if bj is None:
            return [v for v in range(1, 11) if r[v - 1]]
        others = sum(r) - r[bj - 1]
        return [v for v in range(1, 11) if r[v - 1] and others - (v != bj) >= 1]

    def _unreachable(self, r: Counts) -> bool:
        """A peeked deal that leaves no card for the hole: it has probability zero.

        The player's draws never lead here (:meth:`_drawable`); a deal asked for
        directly may (a certain dealer blackjack, which the engine refuses itself).
        """
        bj = self._bj
        return bj is not None and sum(r) == r[bj - 1]

    def _short(self, r: Counts, draws: int, budget: int) -> bool:
        """Whether ``r`` surely outlasts ``draws`` participants whose cards before their
        last sum to at most ``budget`` in all.

        To run out, every card of ``r`` is drawn and one more is asked for: the asking
        participant's cards are all before its last request, so at most ``draws - 1``
        cards of ``r`` are some participant's last, and the others sum to at most
        ``budget``.  Taking the largest cards as the last ones gives the test.
        """
        rest = _hard(r) - budget
        if rest <= 0:
            return False
        lasts = draws - 1
        for v in range(10, 0, -1):
            k = min(r[v - 1], lasts)
            rest -= k * v
            lasts -= k
            if rest <= 0 or not lasts:
                break
        return rest > 0

    # -- the dealer -------------------------------------------------------------------
    def dealer_runs_out(self, r: Counts) -> bool:
        """Whether the dealer, from shoe ``r`` (upcard out), may need a card it lacks."""
        if self.upcard + _hard(r) > _DEALER_LIMIT:  # drawing all of r leaves him standing
            return False
        if r not in self._dealer_memo:
            self._dealer_memo[r] = self._dealer(r, self.upcard, self.upcard == 1, 0)
        return self._dealer_memo[r]

    def _dealer(self, r: Counts, hard: int, ace: bool, drawn: int) -> bool:
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if drawn == 1 and total == 21:
            return False  # a blackjack
        soft = ace and hard + 10 <= 21
        if total > 17 or (total == 17 and not (soft and self.hits_soft_17)):
            return False
        values = [v for v in range(1, 11) if r[v - 1]]
        if drawn == 0 and self._bj is not None:
            if not values:
                return True
            values = [v for v in values if v != self._bj]  # none: a zero-probability path
        elif not values:
            return True
        return any(self._dealer(_minus(r, v), hard + v, ace or v == 1, drawn + 1)
                   for v in values)

    def _settle(self, r: Counts, need: int) -> bool:
        """Whether the dealer's play behind the finished hands, the most of which ``need``
        (:data:`DEALER`, :data:`HOLE` or :data:`NOTHING`), may run out."""
        if need == DEALER:
            return self.dealer_runs_out(r)
        return (need == HOLE or self.hole_decides_busts) and not any(r)

    def _charlie(self) -> int:
        """What a Charlie needs: the hole card only where an unchecked blackjack may beat
        it (module doc)."""
        return HOLE if self.hole_decides_charlie else NOTHING

    # -- an unsplit hand ----------------------------------------------------------------
    def hand_runs_out(self, r: Counts, hand: Counts) -> bool:
        """Whether a hand holding ``hand`` (0 to n cards), any legal play, may run out."""
        if self._unreachable(r):
            return False
        key = (r, hand)
        if key not in self._hand_memo:
            self._hand_memo[key] = self._hand(r, hand)
        return self._hand_memo[key]

    def _hand(self, r: Counts, hand: Counts) -> bool:
        n, hard, ace = sum(hand), _hard(hand), hand[0] > 0
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if hard > 21:
            return self._settle(r, NOTHING)
        if n == 2 and total == 21 and hand[0] == 1:
            return False  # a natural is settled at once
        charlie = bool(self.charlie) and n >= self.charlie
        if charlie:  # paid whatever the dealer draws but an unchecked blackjack (module doc)
            return self._settle(r, self._charlie())
        forced = self.stand_on_21 and total == 21
        can_draw = n < 2 or not forced
        budget = (_PLAYER_LIMIT - hard if can_draw else 0) + _DEALER_LIMIT - self.upcard
        if self._short(r, int(can_draw) + 1, budget):
            return False
        if n >= 2 and self._settle(r, DEALER):
            return True
        if not can_draw:
            return False
        values = self._drawable(r)
        if not values:
            return True
        return any(self.hand_runs_out(_minus(r, v), _plus(hand, v)) for v in values)

    # -- a split ------------------------------------------------------------------------
    def split_runs_out(self, r: Counts, pair: int, *, max_hands: int, one_card: bool,
                       may_double: Callable[[Counts], bool],
                       policy: SplitPolicy | None, hit_limit: int = _PLAYER_LIMIT) -> bool:
        """Whether splitting ``pair`` (both cards already out of ``r``) may run out.

        A pair drawn to a split hand is resplit while fewer than ``max_hands``
        hands exist; ``one_card``: each hand takes one card and stands.
        ``policy`` plays the split hands (None: every legal play); ``hit_limit``,
        the highest hard total it hits or doubles on, tightens the search's bound.
        """
        if self._unreachable(r):
            return False
        split = _Split(self, pair, max_hands, one_card, may_double, policy,
                       min(hit_limit, _PLAYER_LIMIT))
        return split.hand(r, _plus((0,) * 10, pair), 2, 1, NOTHING)


@dataclass
class _Split:
    check: RoundCheck
    pair: int
    max_hands: int
    one_card: bool
    may_double: Callable[[Counts], bool]
    policy: SplitPolicy | None
    limit: int  # a hand draws only while its hard total is at most this
    memo: dict[tuple[object, ...], bool] = field(default_factory=dict)

    def hand(self, r: Counts, hand: Counts, made: int, waiting: int, need: int) -> bool:
        """The current hand holds ``hand``; ``waiting`` more hands hold one pair card;
        ``need``, what the finished hands need of the dealer (:data:`DEALER`...)."""
        # Every legal play: a hand acts on its hard total, ace and (for a Charlie) size only.
        shape: object = hand if self.policy is not None else (
            _hard(hand), hand[0] > 0, sum(hand) if self.check.charlie else min(sum(hand), 2))
        key = (r, shape, made, waiting, need)
        if key not in self.memo:
            self.memo[key] = self._hand(r, hand, made, waiting, need)
        return self.memo[key]

    def _next(self, r: Counts, made: int, waiting: int, need: int) -> bool:
        if waiting:
            return self.hand(r, _plus((0,) * 10, self.pair), made, waiting - 1, need)
        return self.check._settle(r, need)

    def _finished(self, cards: int, hard: int) -> int:
        """What a hand of ``cards`` cards and this hard total, done, needs of the dealer."""
        if hard > 21:
            return NOTHING
        return self.check._charlie() if self.check.charlie and cards >= self.check.charlie \
            else DEALER

    def _hand(self, r: Counts, hand: Counts, made: int, waiting: int, need: int) -> bool:
        check, p = self.check, self.pair
        n, hard = sum(hand), _hard(hand)
        if hard > 21:
            return self._next(r, made, waiting, need)
        total = hard + 10 if hand[0] and hard + 10 <= 21 else hard
        forced = (check.charlie and n >= check.charlie) or (check.stand_on_21 and total == 21)
        can_draw = n < 2 or not (forced or self.one_card)
        limit = self.limit
        new_hands = min(self.max_hands - made, r[p - 1])  # a resplit takes a pair card
        budget = (max(limit - hard, 0) * can_draw + waiting * max(limit - p, 0)
                  + new_hands * limit + _DEALER_LIMIT - check.upcard)
        draws = int(can_draw) + waiting + new_hands + 1
        if check._short(r, draws, budget):
            return False
        values = check._drawable(r)
        if n == 1:  # the second card, or a pair card to resplit
            if not values:
                return True
            return any(self.hand(_minus(r, v), hand, made + 1, waiting + 1, need)
                       if v == p and made < self.max_hands
                       else self.hand(_minus(r, v), _plus(hand, v), made, waiting, need)
                       for v in values)
        if not can_draw:  # it stands, or is a Charlie
            return self._next(r, made, waiting, max(need, self._finished(n, hard)))
        actions: set[int] = {STAND, HIT}  # every play: a double draws as a hit, then stands
        if self.policy is not None:
            actions = {self.policy(hand, n == 2 and self.may_double(hand))}
        if STAND in actions and self._next(r, made, waiting, DEALER):
            return True
        if actions & {HIT, DOUBLE} and not values:
            return True
        if HIT in actions and any(self.hand(_minus(r, v), _plus(hand, v), made, waiting,
                                            need) for v in values):
            return True
        if DOUBLE in actions:
            return any(self._next(_minus(r, v), made, waiting,
                                  max(need, self._finished(n + 1, hard + v))) for v in values)
        return False


def refusal(what: str, shoe_total: int, upcard: int) -> ImpossibleShoeError:
    """The one-line error for a round that can run out."""
    return ImpossibleShoeError(
        f"the {shoe_total}-card shoe can run out within a round ({what} vs "
        f"{format_value(upcard)} may need a card the shoe no longer holds): no figure is "
        "defined for it")


__all__ = ["RoundCheck", "SplitPolicy", "most_cards", "refusal", "round_cards_bound",
           "safe_left"]
