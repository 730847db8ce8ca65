"""Brute-force whole-round blackjack oracle, written apart from the engine to check it.

Nothing is shared with the engine's computational modules (``analyzer.engine.dealer``,
``analyzer.engine.hands``, ``analyzer.engine.splits``, ``analyzer.engine.analysis``,
``analyzer.oracle.exact_splits``): only the :class:`analyzer.core.rules.Rules` value object is
read.  The code is written for clarity, not speed; it is meant for small shoes (up
to about 20 cards).

Model
-----
Cards are values 1 (ace) to 10 (any ten-value card); a shoe is a 10-tuple of
counts, index ``value - 1``.  Every card is drawn uniformly at random, without
replacement, from what really remains of the shoe, and all arithmetic is exact
(GMP rationals, :class:`gmpy2.mpq`: the values of :class:`fractions.Fraction`, compared and
hashed equal to them, with arithmetic an order of magnitude faster).  EVs are per unit
initial bet.

One round:

* Deal the upcard and the player's two cards (the deal order is immaterial by
  exchangeability).  When the dealer peeks with this upcard (``PEEK``: an ace or
  a ten up; ``PEEK_ACE``: an ace up) the hole card is then drawn explicitly from
  the rest of the shoe, and the player's cards come from what is left after it.
  (Otherwise it cannot be seen before the dealer plays, so it is drawn as his
  second card when he does -- the same distribution by exchangeability;
  ``literal_hole=True`` draws it right after the deal for every upcard, in every
  game, and the self-check confirms identical results.)  Early surrender (ES) is
  offered now, before the peek, for -1/2.
* A PEEKED dealer blackjack ends the round at once: the player loses 1, or
  pushes with his own blackjack (with ``blackjack_wins``, BJW, is paid
  ``blackjack_pays`` for it; likewise against an unchecked one).  A player
  blackjack (ace + ten as the first two cards, never after a split) wins
  ``blackjack_pays`` when the dealer has none.
* An UNCHECKED dealer blackjack (ENHC, or a ten up in ``PEEK_ACE`` games) shows
  when the dealer plays, after all the player's hands.  A player blackjack
  pushes it.  Otherwise, with ``unpeeked_bj_takes_all`` (the default) it takes
  all the money the player paid: the original bet, paid doubles, paid split
  hands (busted ones too); free bets cost nothing.  Without it ("OBO") it takes
  only the original bet: the round loses ``min(1, money paid)`` in total, over
  every hand but a Charlie that beats it.  A Charlie hand (below) beats it with
  ``charlie_beats_bj`` (winning as against any other dealer hand), else it loses
  to it like any hand.  Late surrender against it: -1 (-1/2 otherwise).
* The player may stand, hit, double (one card, bet 2) on two cards when
  ``rules.double`` allows the total (``ANY``; ``NINE_TO_ELEVEN``: 9-11;
  ``TEN_ELEVEN``: 10-11 -- a soft hand never totals 9-11), split a pair of equal
  values (any two tens are a pair; aces only with ``split_aces``) while
  ``max_hands > 1``, and surrender (LS after the peek, ES before it; not with an
  ace up unless ``surrender_vs_ace``).  The dealer draws to 17, hitting soft 17
  when ``hits_soft_17``.
* ``charlie`` = N > 0: a hand (split hands too, counting the hand's own cards)
  that reaches N cards without busting stops and wins 1:1 on its bet (2 units if
  it was a paid double, own + free bet on a free double) against every dealer
  hand -- 21 and 22 included -- except an unchecked blackjack (see above).
* ``stand_on_21``: a hand of 21 may not hit.  Without it any 21 may hit (a hard
  21 surely busts; a soft 21 may gain, e.g. towards a Charlie); a 21 is never
  doubled.
* ``player_21_wins`` (P21W): a finished non-blackjack hand of 21 (split A+T too)
  wins its bet against every dealer outcome but an unchecked dealer blackjack,
  which takes it as it takes any hand (a peeked one never meets it).
* ``push_22``: a dealer finishing on exactly 22 pushes every non-busted player
  hand except a Charlie, which wins (a player blackjack is settled at once).
* ``free_doubles``: on the unsplit first two cards with a HARD total in the set,
  the double is free (it replaces the paid double there, whatever ``double``
  says): one card; the own bet settles normally and the free bet wins 1 when the
  hand wins, else nothing.  Other two-card hands double under ``double``.
* ``free_splits``: splitting a pair in the set is free and is one split only (no
  resplit; ``max_hands > 2`` with free splits is not modelled): the first hand
  carries the original bet, the second the free bet (+1 if it wins, 0 on a push,
  a loss, a bust or a dealer blackjack).  The first hand is played by the CDZ-
  split strategy below; the second by the composition-only rule for its own
  payoff: stand or hit (never double or split), whichever maximises the free
  payoff -- the win probability, played on likewise -- of an UNSPLIT hand of
  that composition from ``initial counts - upcard - composition``, with the same
  no-blackjack conditioning; hit only when strictly better.  Other pairs split
  for a paid bet as usual.
* Unsplit play is optimal composition-dependent: each decision maximises the EV
  given everything the player knows -- his cards, the upcard and, when the dealer
  peeked with that upcard, that the hole card does not complete a dealer
  blackjack.  Given what the player has seen, the unseen cards are in random
  order, so the hole card is distributed in proportion to the unseen counts of
  the values it may have; the player's next card is drawn from the unseen cards
  less that hole card.  Decisions never look at the hole card itself.
* Split play is CDZ-: after a split, each hand holding cards ``h`` takes the
  action that maximises the EV of an UNSPLIT hand of the same composition ``h``,
  computed from the shoe ``initial counts - upcard - h`` with the same
  knowledge (the same no-blackjack conditioning), restricted to what a split
  hand may do: stand, hit, and double on two cards only with
  ``double_after_split`` (and the double rule allowing the total; a paid
  double); never surrender.  Ties go stand > hit > double: hit only when
  strictly better than stand, double only when strictly better than both.  A
  pair card drawn to a split hand is always resplit while there are fewer than
  ``max_hands`` hands (aces only with ``resplit_aces``; never after a free
  split); after that a pair is an ordinary hand played by that same CDZ-
  decision.  Split aces without ``hit_split_aces`` take exactly one card each
  and stand (with it they are played like any split hand).  An ace + ten after
  a split is a plain 21, and it stands: unsplit it is a blackjack, which has no
  decision for CDZ- to copy (Farmer's analyzer stands it; so do the engine and
  this oracle; under a three-card Charlie or a large five-card bonus hitting it is
  worth more, and CDP1 hits it).  Hands are played left to right: the first hand takes
  its second card (a resplit puts the new one-card hand immediately to its
  right) and is played out before the next hand takes its second card.  Every
  paid hand carries one unit (two when doubled).  The player splits the initial
  pair when the exact EV of doing so (under that play) beats the other options.
  ``split_play="cdp1"`` plays split hands by Farmer's CDP1 instead (see the split hands'
  section): optimal for a split hand of their cards, one more pair card gone.

Modelling decisions not fixed by the brief (see also the function docstrings):

* A hand totalling 21 is never doubled.
* A hand or dealer that must draw from an empty shoe raises
  :class:`ShoeExhausted`; this includes the hits of actions that are only being
  evaluated for a decision.  Use shoes with enough high cards.
* When every hand's result is settled whatever the dealer does (e.g. all busted
  under "takes all") the dealer does not draw.
* ``hand_evs`` and ``round_ev`` take the shoe BEFORE the deal (it still holds
  the upcard and the player's cards); ``dealer_distribution`` takes a shoe that
  no longer holds the upcard.
* A player blackjack is settled at once: ``hand_evs`` gives it only "stand"; so
  does a hand that may not act (a Charlie, or 21 under ``stand_on_21``).
  Early surrender is -1/2 in ENHC too; ``hand_evs`` reports "surrender" under
  either surrender rule, but a round offers ES only before the peek and LS after.
  ``hand_evs`` reports a free double under "double" and a free split under
  "split".
* Doubling split aces needs ``hit_split_aces`` and ``double_after_split``.
* ``double_any_cards`` (DAN): a hand of three or more cards (after hitting) may
  double too, on the totals ``rules.double`` allows it on two cards, never on
  21; a split hand only with ``double_after_split``.  Optimal unsplit play weighs
  it at every decision; a split hand takes it where the unsplit hand of the same
  composition would (CDZ-), or, when split hands may not double, the better of
  standing and hitting for that unsplit hand.
* ``double_rescue`` (DDR, peek games): once a PAID double's card is dealt and the
  hand is not busted, the player may give it up and lose half its stake: the
  original bet after one double (the double comes back), half the redoubled stake
  after redoubles.  ``redoubles`` (RDn): he may instead double again (one more
  card, the stake doubled: 4, then 8, 16) while fewer than n redoubles were made,
  on a total the doubling rule allows (not 21, not a Charlie).  He takes the best
  of standing, redoubling and rescuing as he believes them (the hole card unseen;
  ties: stand, then redouble, then rescue); a doubled split hand chooses as the
  unsplit hand of those cards and stake would (CDZ-).  A free double is neither
  rescued nor redoubled.
* ``surrender_after_hit`` (SAH, peek games): an unsplit, undoubled hand of three or
  more cards may be surrendered for half its bet, against the upcards surrender is
  allowed against; the player takes it where it is strictly better than every other
  play.  A split hand may not; it plays as the unsplit hand of its cards would, or,
  where that surrenders, the best of its other plays.
* ``bonus_5``, ``bonus_6``, ``bonus_7`` (B5C, B6C, B7C): a winning hand of 21 holding
  exactly five, exactly six, or seven or more cards is paid that much per unit of
  its stake instead of 1 (a push stays a push; with P21W it always wins); not on a
  doubled hand under ``bonus_not_doubled`` (BND), not on a split hand under
  ``bonus_not_split`` (BNS).  Decisions weigh the bonus like any payoff.
* ``bonus_678``, ``bonus_777`` (B678, B777), ``super_bonus`` (SB), ``suited_blackjack``
  (BSBJ): a winning three-card 6-7-8 or 7-7-7 paid by its suits (mixed, one suit,
  spades), a suited 7-7-7 against a 7 paid the Super Bonus (unsplit, undoubled), a
  suited natural its own payout.  Suits are counted as physical cards (see "suits"
  below).  A two-card hand one card from a bonus 21 is played case by case of the suits
  the player sees (his two cards, the upcard where it is of the completing rank), each
  case its own game; split hands play and pay by the ranks (the pays averaged over the
  suits nobody saw), and where they are paid the suit bonuses, whether to split 7-7 is
  decided on the ranks (the best of splitting and of the cases' other plays).
* Not modelled: ``split_by_rank`` (the oracle works on card values: it raises
  :class:`NotImplementedError`), free splits with ``max_hands > 2`` (likewise),
  insurance (so ``insured_no_split`` is moot) and ``cut_card`` (every round is
  off the given shoe).

Speed and memory: every state is memoised (``clear_caches`` forgets them); the
split states are dropped after each upcard of ``round_ev_by_upcard``.  A
16-card shoe with 4 hands takes about 10 s, a 20-card one about a minute and
1 GB; without splitting a few seconds.

Two separate computations meet in the round EV: decisions use "information"
EVs (the hole card averaged over what the player may believe), while
``round_ev`` plays the round card by card with the hole card fixed.  Their
agreement is checked in ``tests/test_oracle_selfcheck.py``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

from gmpy2 import mpq as Q  # exact rationals (see the module docstring)

from analyzer.core.rules import Double, Rules, Surrender

Counts = tuple[int, ...]  # 10 counts, index value - 1
Cards = tuple[int, ...]  # the cards of one hand, sorted
Bet = tuple[int, int]  # what a hand wins when it wins, and loses when it loses
# Payoffs: what some finished hands win against each dealer outcome but a blackjack
# (OUTCOMES[:-1] order), then against an unchecked dealer blackjack: what Charlies
# win, and the money paid by every other hand (the money that blackjack takes).
Payoffs = tuple[int, ...]
Dealt = tuple[int | None, tuple[int, int], tuple[int, int]]

ACE = 1
TEN = 10
VALUES = range(1, 11)
BUST = 0  # the final "total" of a busted hand
CHARLIE = 99  # the final "total" of a Charlie hand
OUTCOMES = ("17", "18", "19", "20", "21", "22", "bust", "blackjack")  # "bust": 23 or more
NO_HANDS: Payoffs = (0,) * (len(OUTCOMES) + 1)
HALF = Q(1, 2)
PAID: Bet = (1, 1)
FREE: Bet = (1, 0)
PAID_DOUBLE: Bet = (2, 2)
FREE_DOUBLE: Bet = (2, 1)  # own bet at risk, free bet wins only


class ShoeExhausted(Exception):
    """A card had to be drawn from an empty shoe."""


@dataclass(frozen=True, eq=False)
class _Game:
    """A rule set, the shoe before the deal and the upcard.

    ``peeked``: the dealer checks for blackjack with this upcard before the player acts.
    ``hole_first``: the hole card is drawn right after the deal (when peeked, or always
    when asked for), instead of after the player's hands.  Hashed by identity (one
    object each, from :func:`_game`): a cheap memo key.
    """

    rules: Rules
    start: Counts
    up: int
    peeked: bool
    hole_first: bool
    # the suits the player sees: the upcard's (None where it pays nothing), then each card
    # of the deal as (rank, suit); None: suits unseen (a pay over suits is its average)
    dealt: Dealt | None = None
    literal_hole: bool = False
    split_play: str = "cdz"  # how split hands decide: "cdz" or "cdp1" (see split hands)
    by_suits: bool = True  # False: the player reads ranks only (pays averaged over suits)

    @property
    def plain(self) -> _Game:
        """The same deal with its suits unseen (split hands play and pay by the ranks)."""
        return self if self.dealt is None else _game(self.rules, self.start, self.up,
                                                     self.literal_hole, None, self.split_play,
                                                     self.by_suits)


@cache
def _game(rules: Rules, start: Counts, up: int, literal_hole: bool,
          dealt: Dealt | None = None, split_play: str = "cdz", by_suits: bool = True) -> _Game:
    if rules.split_by_rank:
        raise NotImplementedError("split_by_rank: the oracle works on card values only")
    if rules.free_splits and rules.max_hands > 2:
        raise NotImplementedError("free splits with resplits (max_hands > 2) are not modelled")
    if split_play not in ("cdz", "cdp1"):
        raise ValueError(f"unknown split play {split_play!r}")
    if split_play == "cdp1" and rules.free_splits:
        raise NotImplementedError("the free split hand's CDP1 play is not modelled")
    peeked = rules.peeks_on(up)
    return _Game(rules, start, up, peeked, peeked or literal_hole, dealt, literal_hole,
                 split_play, by_suits)


# ------------------------------------------------------------------- suits
#
# A shoe of value counts is what is left of ``rules.decks`` full decks, the cards gone
# unseen: each rank's cards are ``decks`` physical cards of each of four suits (suit 0:
# spades), and a card of a rank is any of that rank's physical cards not yet seen, all
# equally likely.  Every chance below counts physical cards.

SUITS = range(4)
SPADES_SUIT = 0


def _physical(rules: Rules) -> list[tuple[int, int]]:
    """One rank's physical cards: (suit, copy)."""
    return [(suit, copy) for suit in SUITS for copy in range(rules.decks)]


def _selections(rules: Rules, ranks: tuple[int, ...]) -> dict[tuple[int, ...], Q]:
    """The chance of each suit sequence of cards of ``ranks`` dealt one after another:
    every choice of distinct physical cards is equally likely."""
    physical = _physical(rules)
    counts: dict[tuple[int, ...], int] = {}
    total = 0
    for choice in itertools.product(physical, repeat=len(ranks)):
        taken = [(r, c) for r, c in zip(ranks, choice, strict=True)]
        if len(set(taken)) < len(taken):
            continue
        key = tuple(suit for suit, _copy in choice)
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return {key: Q(n, total) for key, n in counts.items()}


def _three_pay(rules: Rules, cards: Cards, suits: tuple[int, ...], super_bonus: bool,
               ) -> Q:
    """What a winning three-card 21 of 6-7-8 or 7-7-7 in these suits pays per unit."""
    mixed, one_suit, spades = rules.bonus_777 if cards == (7, 7, 7) else rules.bonus_678
    if len(set(suits)) > 1:
        return mixed
    if super_bonus and cards == (7, 7, 7) and rules.super_bonus:
        return rules.super_bonus
    return spades if suits[0] == SPADES_SUIT else one_suit


@cache
def _average_three_pay(rules: Rules, cards: Cards, super_bonus: bool) -> Q:
    """A 6-7-8 or 7-7-7 whose suits nobody saw (a split hand, or the question asked without
    suits); with the Super Bonus the upcard 7 is one more physical 7 taken."""
    ranks = (*cards, 7) if super_bonus else cards
    return sum((p * _three_pay(rules, cards, suits[:3], super_bonus)
                for suits, p in _selections(rules, ranks).items()), Q(0))


def _seen_three_pay(g: _Game, cards: Cards, super_bonus: bool) -> Q:
    """The unsplit hand of the deal made a 6-7-8 or 7-7-7: its first two cards' suits (and
    the upcard's) are seen, the third card is any unseen physical card of its rank."""
    assert g.dealt is not None
    up_suit, *hand = g.dealt
    rest = list(cards)
    for rank, _suit in hand:
        rest.remove(rank)
    third = rest[0]
    left = _physical(g.rules)
    for rank, suit in ((g.up, up_suit), *hand):
        if rank == third and suit is not None:
            left.remove(next(c for c in left if c[0] == suit))
    return sum((Q(1, len(left)) * _three_pay(g.rules, cards,
                                                     (hand[0][1], hand[1][1], suit), super_bonus)
                for suit, _copy in left), Q(0))


def _suits_matter(rules: Rules, hand: Cards, up: int) -> bool:
    """A two-card hand one card from a 6-7-8 or 7-7-7 that a bonus pays by suits."""
    if len(hand) != 2:
        return False
    for card in (6, 7, 8):
        trio = tuple(sorted((*hand, card)))
        if trio == (6, 7, 8) and rules.bonus_678 != (1, 1, 1):
            return True
        if trio == (7, 7, 7) and (rules.bonus_777 != (1, 1, 1)
                                  or (rules.super_bonus and up == 7)):
            return True
    return False


def _natural_pays(rules: Rules) -> Q:
    """A blackjack's pay over the suits of its ace and ten (BSBJ: suited pays more)."""
    if not rules.suited_blackjack:
        return rules.blackjack_pays
    pairs = [(a, t) for a in SUITS for t in SUITS]
    return sum((rules.suited_blackjack if a == t else rules.blackjack_pays
                for a, t in pairs), Q(0)) / len(pairs)


# --------------------------------------------------------------------- cards


def _take(counts: Counts, card: int) -> Counts:
    if counts[card - 1] == 0:
        raise ValueError(f"no card of value {card} left in {counts}")
    c = list(counts)
    c[card - 1] -= 1
    return tuple(c)


def _take_all(counts: Counts, cards: Cards) -> Counts:
    for card in cards:
        counts = _take(counts, card)
    return counts


def _put(counts: Counts, card: int) -> Counts:
    c = list(counts)
    c[card - 1] += 1
    return tuple(c)


@cache
def _draws(counts: Counts) -> tuple[tuple[int, Q, Counts], ...]:
    """Each card that can be drawn, with its probability and the shoe left after it."""
    n = sum(counts)
    if n == 0:
        raise ShoeExhausted("a card must be drawn from an empty shoe")
    return tuple((v, Q(counts[v - 1], n), _take(counts, v)) for v in VALUES
                 if counts[v - 1] > 0)


def _with(cards: Cards, card: int) -> Cards:
    return tuple(sorted((*cards, card)))


# Own card rules (total, softness, natural), not analyzer.core.cards: independent on purpose.
def _total(cards: Cards) -> int:
    """Best total: one ace counts 11 when that does not bust."""
    hard = sum(cards)
    return hard + 10 if ACE in cards and hard + 10 <= 21 else hard


def _is_soft(cards: Cards) -> bool:
    return ACE in cards and sum(cards) + 10 <= 21


def _is_natural(cards: Cards) -> bool:
    return len(cards) == 2 and ACE in cards and TEN in cards


def _final(rules: Rules, cards: Cards) -> int:
    """How a finished hand is settled: BUST, CHARLIE, or its total."""
    total = _total(cards)
    if total > 21:
        return BUST
    if rules.charlie and len(cards) >= rules.charlie:
        return CHARLIE
    return total


def _forced(rules: Rules, cards: Cards) -> bool:
    """The hand may not act any more: bust, a Charlie, or 21 under ``stand_on_21``."""
    final = _final(rules, cards)
    return final in (BUST, CHARLIE) or (final == 21 and rules.stand_on_21)


# -------------------------------------------------------------------- dealer


@cache
def _dealer(shoe: Counts, cards: Cards, hits_soft_17: bool) -> tuple[tuple[str, Q], ...]:
    """Final outcomes of a dealer holding ``cards`` and drawing from ``shoe``."""
    total = _total(cards)
    if len(cards) == 2 and total == 21:
        return (("blackjack", Q(1)),)
    if total > 21:
        return (("22" if total == 22 else "bust", Q(1)),)
    if total > 17 or (total == 17 and not (hits_soft_17 and _is_soft(cards))):
        return ((str(total), Q(1)),)
    result: dict[str, Q] = {}
    for card, p, rest in _draws(shoe):
        for outcome, q in _dealer(rest, _with(cards, card), hits_soft_17):
            result[outcome] = result.get(outcome, Q(0)) + p * q
    return tuple(result.items())


def _natural_vs_blackjack(rules: Rules) -> Q:
    """A player blackjack against a dealer blackjack: a push, or the payout with BJW."""
    return _natural_pays(rules) if rules.blackjack_wins else Q(0)


def _settle(rules: Rules, final: int, bet: Bet, outcome: str) -> int:
    """Win (+) or loss (-) of a finished non-blackjack hand against a dealer outcome
    other than a blackjack."""
    win, lose = bet
    if final == BUST:
        return -lose
    if final == CHARLIE or outcome == "bust":
        return win
    if final == 21 and rules.player_21_wins:  # P21W: a 21 beats any dealer hand here
        return win
    if outcome == "22":
        return 0 if rules.push_22 else win
    dealer = int(outcome)
    return win if final > dealer else -lose if final < dealer else 0


def _payoffs(rules: Rules, final: int, bet: Bet, earlier: Payoffs = NO_HANDS) -> Payoffs:
    """``earlier`` plus a finished hand ``final`` carrying ``bet`` (see :data:`Payoffs`)."""
    ordinary = tuple(_settle(rules, final, bet, outcome) for outcome in OUTCOMES[:-1])
    against_bj = (bet[0], 0) if final == CHARLIE and rules.charlie_beats_bj else (0, bet[1])
    return tuple(e + x for e, x in zip(earlier, ordinary + against_bj, strict=True))


def _outcome_values(rules: Rules, payoffs: Payoffs) -> tuple[int, ...]:
    """What the round's finished hands win against each dealer outcome, in OUTCOMES order.

    An unchecked dealer blackjack takes all the money paid, or with OBO the original bet
    at most (``min(1, paid)``); Charlies beating it are paid on top.
    """
    charlie_wins, paid = payoffs[-2:]
    taken = paid if rules.unpeeked_bj_takes_all else min(1, paid)
    return (*payoffs[:-2], charlie_wins - taken)


def hole_only(g: _Game, hole: int | None, shoe: Counts,
              values: tuple[int, ...]) -> list[tuple[Q, int]] | None:
    """The round's law where only a dealer blackjack could change it (every other outcome
    pays alike: under OBO, every hand busted with a double or a split paid), without
    playing the dealer's hand out, which could need cards the shoe lacks though no result
    depends on them; None where more than the hole card matters."""
    others = {v for o, v in zip(OUTCOMES, values, strict=True) if o != "blackjack"}
    if len(others) != 1:
        return None
    other, blackjack = others.pop(), values[OUTCOMES.index("blackjack")]
    need = {ACE: TEN, TEN: ACE}.get(g.up)  # the hole card that makes a blackjack
    if need is None:
        return [(Q(1), other)]
    if hole is not None:
        return [(Q(1), blackjack if hole == need else other)]
    if not sum(shoe):
        raise ShoeExhausted("the hole card")
    p = Q(shoe[need - 1], sum(shoe))
    return [(p, blackjack), (1 - p, other)]


def _settle_table(g: _Game, hole: int | None, shoe: Counts, payoffs: Payoffs) -> Q:
    """The dealer plays from ``shoe``, holding the upcard and ``hole`` (drawn if None).

    He does not draw when the outcome cannot matter (every result already settled), nor
    past the hole card when only a blackjack could change it (:func:`hole_only`).
    """
    values = _outcome_values(g.rules, payoffs)
    if len(set(values)) == 1:
        return Q(values[0])
    if (law := hole_only(g, hole, shoe, values)) is not None:
        return sum((p * v for p, v in law), Q(0))
    cards = (g.up,) if hole is None else tuple(sorted((g.up, hole)))
    numerators, denominator = _dealer_odds(shoe, cards, g.rules.hits_soft_17)
    return Q(sum(n * w for n, w in zip(numerators, values, strict=True)), denominator)


@cache
def _dealer_odds(shoe: Counts, cards: Cards, hits_soft_17: bool) -> tuple[tuple[int, ...], int]:
    """:func:`_dealer` as numerators over one denominator, in OUTCOMES order (for speed)."""
    probs = dict(_dealer(shoe, cards, hits_soft_17))
    denominator = math.lcm(*(p.denominator for p in probs.values()))
    return tuple(int(probs.get(o, 0) * denominator) for o in OUTCOMES), denominator


# ------------------------------------------------------- the player's beliefs


def _blocked_holes(g: _Game) -> tuple[int, ...]:
    """Hole values ruled out by a peek that found no blackjack."""
    if g.peeked and g.up == ACE:
        return (TEN,)
    if g.peeked and g.up == TEN:
        return (ACE,)
    return ()


def _hole_cases(g: _Game, unseen: Counts) -> list[tuple[int | None, Q, Counts]]:
    """Where the hole card may be, as the player sees it: (hole, probability, shoe less it).

    With ``hole_first`` the hole card is one of the ``unseen`` cards, in proportion to
    their counts among the values a completed peek allows.  Otherwise there is no hole
    card yet (None).
    """
    if not g.hole_first:
        return [(None, Q(1), unseen)]
    blocked = _blocked_holes(g)
    weight = sum(unseen[v - 1] for v in VALUES if v not in blocked)
    if weight == 0:
        raise ValueError("the dealer surely has blackjack: no EV given that he has none")
    return [(v, Q(unseen[v - 1], weight), _take(unseen, v)) for v in VALUES
            if v not in blocked and unseen[v - 1] > 0]


def _player_draws(g: _Game, unseen: Counts) -> list[tuple[int, Q, Counts]]:
    """The player's next card as he sees it: (card, probability, unseen cards after it)."""
    probs: dict[int, Q] = {}
    for _hole, w, rest in _hole_cases(g, unseen):
        for card, p, _ in _draws(rest):
            probs[card] = probs.get(card, Q(0)) + w * p
    return [(card, p, _take(unseen, card)) for card, p in sorted(probs.items())]


def _stand_value(g: _Game, unseen: Counts, final: int, bet: Bet) -> Q:
    """Believed EV of one finished non-blackjack hand ``final`` carrying ``bet``."""
    ev = Q(0)
    for hole, w, rest in _hole_cases(g, unseen):
        ev += w * _settle_table(g, hole, rest, _payoffs(g.rules, final, bet))
    return ev


# ------------------------------------------------- unsplit hands, optimal play
#
# ``bet`` PAID: the hand's EV; FREE: the free split hand's payoff (its win probability).
# ``split``: the hand is a split hand, valued as one (paid as a split hand, doubling after
# hitting only with DAS, never surrendering): what CDP1 weighs (see the split hands).


@cache
def _q_stand(g: _Game, unseen: Counts, hand: Cards, bet: Bet, split: bool = False) -> Q:
    return _stand_value(g, unseen, _final(g.rules, hand), _paid(g, hand, bet, split))


def _paid(g: _Game, cards: Cards, bet: Bet, split: bool) -> Bet:
    """``bet`` with a winning 21 paid its bonus: of five or more cards (B5C: exactly 5,
    B6C: 6, B7C: 7 or more), a three-card 6-7-8 or 7-7-7 by its suits (B678, B777; the
    Super Bonus on an unsplit, undoubled suited 7-7-7 against a 7), unless the hand is
    doubled under BND or split under BNS."""
    rules = g.rules
    n = len(cards)
    doubled = bet[0] >= 2
    if _total(cards) != 21 or bet[0] != bet[1] or (split and rules.bonus_not_split) \
            or (doubled and rules.bonus_not_doubled):
        return bet
    if n >= 5:
        pay = rules.bonus_5 if n == 5 else rules.bonus_6 if n == 6 else rules.bonus_7
    elif cards in ((6, 7, 8), (7, 7, 7)):
        super_bonus = g.up == 7 and not split and not doubled
        pay = _seen_three_pay(g, cards, super_bonus) if g.dealt is not None and not split \
            else _average_three_pay(rules, cards, super_bonus)
    else:
        return bet
    return (bet[0] * pay, bet[1])  # type: ignore[return-value]  # a rational win


@cache
def _q_hit(g: _Game, unseen: Counts, hand: Cards, bet: Bet, split: bool = False) -> Q:
    """Hit once, then play on optimally (stand or hit) for the same payoff."""
    ev = Q(0)
    for card, p, rest in _player_draws(g, unseen):
        ev += p * _v_play_on(g, rest, _with(hand, card), bet, split)
    return ev


@cache
def _q_double(g: _Game, unseen: Counts, hand: Cards, bet: Bet, split: bool = False) -> Q:
    """One card, then stand, with ``bet`` (a paid double's stake, or FREE_DOUBLE); a paid
    double that did not bust may then double again (RDn) or be given up for half the stake
    (DDR), where that is better."""
    ev = Q(0)
    for card, p, rest in _player_draws(g, unseen):
        ev += p * max(_after_double_values(g, rest, _with(hand, card), bet, split).values())
    return ev


def _after_double_values(g: _Game, unseen: Counts, doubled: Cards, bet: Bet,
                         split: bool = False) -> dict[str, Q]:
    """Believed value of each choice a doubled hand has once its card is dealt."""
    values = {"stand": _q_stand(g, unseen, doubled, bet, split)}
    if _redouble_offered(g.rules, doubled, bet):
        values["redouble"] = _q_double(g, unseen, doubled, (2 * bet[0], 2 * bet[1]), split)
    if _rescue_offered(g.rules, doubled, bet):
        values["rescue"] = Q(-bet[0], 2)  # half the stake: the original bet, doubled once
    return values


def _after_double_choice(values: dict[str, Q]) -> str:
    """The best choice; ties go stand, then redouble, then rescue."""
    best = "stand"
    for choice in ("redouble", "rescue"):
        if choice in values and values[choice] > values[best]:
            best = choice
    return best


def _paid_double(bet: Bet) -> bool:
    return bet[0] == bet[1] >= 2


def _rescue_offered(rules: Rules, doubled: Cards, bet: Bet) -> bool:
    """DDR: a paid double's hand, its card dealt and not busted, may be given up."""
    return rules.double_rescue and _paid_double(bet) and _total(doubled) <= 21


def _redouble_offered(rules: Rules, doubled: Cards, bet: Bet) -> bool:
    """RDn: a paid double's hand may double again while fewer than n redoubles were made,
    on a total the doubling rule allows (never 21, never a hand that must stand)."""
    return (_paid_double(bet) and bet[0] < 2 ** (rules.redoubles + 1)
            and not _forced(rules, doubled) and _double_total(rules, _total(doubled)))


@cache
def _v_play_on(g: _Game, unseen: Counts, hand: Cards, bet: Bet, split: bool = False) -> Q:
    """Value of a hand after a hit: the best of standing, hitting and, on paid hands,
    doubling (DAN; a split hand with DAS) and surrendering (SAH; not a split hand), unless
    forced to stand."""
    stand = _q_stand(g, unseen, hand, bet, split)
    if _forced(g.rules, hand):
        return stand
    best = max(stand, _q_hit(g, unseen, hand, bet, split))
    if bet == PAID and _may_double(g.rules, hand) and (g.rules.double_after_split or not split):
        best = max(best, _q_double(g, unseen, hand, PAID_DOUBLE, split))
    if bet == PAID and not split and _may_surrender_later(g, hand):
        best = max(best, -HALF)
    return best


def _may_double(rules: Rules, hand: Cards) -> bool:
    """A paid double under ``rules.double`` (any two cards under 21 it allows; with
    ``double_any_cards`` any number of cards)."""
    if len(hand) < 2 or (len(hand) > 2 and not rules.double_any_cards):
        return False
    return _double_total(rules, _total(hand))


def _double_total(rules: Rules, total: int) -> bool:
    """A total the doubling rule lets double (never 21 or more)."""
    if total >= 21:
        return False
    if rules.double is Double.ANY:
        return True
    if rules.double is Double.NINE_TO_ELEVEN:
        return 9 <= total <= 11
    return 10 <= total <= 11


def _free_double(rules: Rules, hand: Cards) -> bool:
    """An unsplit two-card hard total that doubles for free."""
    return len(hand) == 2 and not _is_soft(hand) and sum(hand) in rules.free_doubles


def _double_bet(rules: Rules, hand: Cards) -> Bet | None:
    """The double offered on the unsplit two-card ``hand``: free, paid, or None."""
    if _free_double(rules, hand):
        return FREE_DOUBLE
    return PAID_DOUBLE if _may_double(rules, hand) else None


def _may_split(rules: Rules, hand: Cards) -> bool:
    return (len(hand) == 2 and hand[0] == hand[1] and rules.max_hands > 1
            and (hand[0] != ACE or rules.split_aces))


# ------------------------------------------------------------- split hands


@cache
def _cdz_action(g: _Game, hand: Cards) -> str:
    """CDZ- action of a paid split hand holding ``hand`` (2+ cards, not forced)."""
    if sorted(hand) == [1, 10]:
        return "stand"  # a blackjack unsplit: no pre-split decision (see the brief)
    unseen = _take_all(_take(g.start, g.up), hand)
    best, action = _q_stand(g, unseen, hand, PAID), "stand"
    hit = _q_hit(g, unseen, hand, PAID)
    if hit > best:
        best, action = hit, "hit"
    if g.rules.double_after_split and _may_double(g.rules, hand):
        double = _q_double(g, unseen, hand, PAID_DOUBLE)
        if double > best:
            action = "double"
    return action


@cache
def _cdz_after_double(g: _Game, doubled: Cards, bet: Bet) -> str:
    """A doubled split hand's choice once its card is dealt (stand, redouble or rescue):
    the unsplit hand's of the same cards and stake (CDZ-)."""
    if _total(doubled) > 21:
        return "stand"
    unseen = _take_all(_take(g.start, g.up), doubled)
    return _after_double_choice(_after_double_values(g, unseen, doubled, bet))


# CDP1 (Farmer's post-split level): a split hand takes the action that is optimal for a
# SPLIT hand of its cards in the shoe less the upcard, the hand and one more pair card
# (the split's other first card), every other card unseen: a split hand's options and
# pays (stand, hit, double on two cards and under DAN after hitting only with DAS, never
# surrender; BNS; no Super Bonus; suit bonuses averaged over the suits), a doubled hand's
# redouble and rescue weighed the same way.  That decision is kept at every state of the
# round, whatever further pair cards the resplits took.  It depends on the hand's own
# cards only, so the round's EV under it is what the engine's CDP1 level computes.


def _split_unseen(g: _Game, pair: int, hand: Cards) -> Counts:
    return _take(_take_all(_take(g.start, g.up), hand), pair)


@cache
def _cdp1_action(g: _Game, pair: int, hand: Cards) -> str:
    """CDP1 action of a paid split hand holding ``hand`` (2+ cards, not forced)."""
    unseen = _split_unseen(g, pair, hand)
    best, action = _q_stand(g, unseen, hand, PAID, True), "stand"
    hit = _q_hit(g, unseen, hand, PAID, True)
    if hit > best:
        best, action = hit, "hit"
    if g.rules.double_after_split and _may_double(g.rules, hand):
        double = _q_double(g, unseen, hand, PAID_DOUBLE, True)
        if double > best:
            action = "double"
    return action


@cache
def _cdp1_after_double(g: _Game, pair: int, doubled: Cards, bet: Bet) -> str:
    """A doubled split hand's choice once its card is dealt, as CDP1 weighs it."""
    if _total(doubled) > 21:
        return "stand"
    unseen = _split_unseen(g, pair, doubled)
    return _after_double_choice(_after_double_values(g, unseen, doubled, bet, True))


@cache
def _free_action(g: _Game, hand: Cards) -> str:
    """Action of the free split hand holding ``hand`` (2+ cards, not forced): the better
    for the free payoff of an unsplit hand ``hand``; hit only when strictly better."""
    unseen = _take_all(_take(g.start, g.up), hand)
    return "hit" if _q_hit(g, unseen, hand, FREE) > _q_stand(g, unseen, hand, FREE) else "stand"


def _may_resplit(rules: Rules, pair: int, hands: int) -> bool:
    return (pair not in rules.free_splits and hands < rules.max_hands
            and (pair != ACE or rules.resplit_aces))


@cache
def _split_round(g: _Game, hole: int | None, shoe: Counts, pair: int, hands: int, waiting: int,
                 current: Cards, done: Payoffs) -> Q:
    """Rest of a round after a split, card by card, with the hole card fixed.

    ``shoe``: the cards really left (less the hole card); ``hands``: hands so far;
    ``waiting``: hands to the right of ``current`` still holding one pair card;
    ``current``: the cards of the hand being played; ``done``: what the finished hands
    win against each dealer outcome (all that matters of them now).  After a free
    split (two hands, no resplit) the second hand, played when ``waiting`` is 0,
    carries the free bet.
    """
    rules = g.rules
    free_hand = pair in rules.free_splits and waiting == 0

    def doubled(rest: Counts, cards: Cards, bet: Bet) -> Q:
        choice = (_cdz_after_double(g, cards, bet) if g.split_play == "cdz"
                  else _cdp1_after_double(g, pair, cards, bet))
        if choice == "redouble":
            return sum((p * doubled(after, _with(cards, card), (2 * bet[0], 2 * bet[1]))
                        for card, p, after in _draws(rest)), Q(0))
        return finish(rest, cards, bet, rescued=choice == "rescue")

    def finish(rest: Counts, cards: Cards, bet: Bet, rescued: bool = False) -> Q:
        if rescued:  # given up: half the stake whatever comes
            finished = tuple(e - bet[0] // 2 for e in done[:-2]) + done[-2:]
        else:
            finished = _payoffs(rules, _final(rules, cards), _paid(g, cards, bet, True), done)
        if waiting == 0:
            return _settle_table(g, hole, rest, finished)
        return _split_round(g, hole, rest, pair, hands, waiting - 1, (pair,), finished)

    if len(current) == 1:  # the hand takes its second card, or resplits
        ev = Q(0)
        for card, p, rest in _draws(shoe):
            if card == pair and _may_resplit(rules, pair, hands):
                ev += p * _split_round(g, hole, rest, pair, hands + 1, waiting + 1, current, done)
            else:
                ev += p * _split_round(g, hole, rest, pair, hands, waiting, _with(current, card),
                                       done)
        return ev
    bet = FREE if free_hand else PAID
    if _forced(rules, current) or (pair == ACE and not rules.hit_split_aces):
        return finish(shoe, current, bet)
    action = (_free_action(g, current) if free_hand else _cdz_action(g, current)
              if g.split_play == "cdz" else _cdp1_action(g, pair, current))
    if action == "stand":
        return finish(shoe, current, bet)
    ev = Q(0)
    for card, p, rest in _draws(shoe):
        cards = _with(current, card)
        if action == "double":
            ev += p * doubled(rest, cards, PAID_DOUBLE)
        else:
            ev += p * _split_round(g, hole, rest, pair, hands, waiting, cards, done)
    return ev


def _split_round_start(g: _Game, hole: int | None, shoe: Counts, pair: int) -> Q:
    return _split_round(g, hole, shoe, pair, 2, 1, (pair,), NO_HANDS)


# ---------------------------------------------------- decisions on two cards


def _may_surrender(g: _Game, hand: Cards) -> bool:
    return (len(hand) == 2 and g.rules.surrender is not Surrender.NONE
            and (g.up != ACE or g.rules.surrender_vs_ace))


def _may_surrender_later(g: _Game, hand: Cards) -> bool:
    """SAH: an unsplit hand of three or more cards (a peek game: the dealer has no
    blackjack by now) may be surrendered, where surrender is allowed against the upcard."""
    return (len(hand) >= 3 and g.rules.surrender_after_hit
            and (g.up != ACE or g.rules.surrender_vs_ace))


def _surrender_value(g: _Game, unseen: Counts) -> Q:
    """Believed surrender EV: -1/2, but -1 when an unchecked dealer blackjack then shows
    (late surrender without a peek)."""
    if g.peeked or g.rules.surrender is Surrender.EARLY:
        return -HALF
    ev = Q(0)
    for card, p, _ in _draws(unseen):
        ev += p * (-1 if _is_natural((g.up, card)) else -HALF)
    return ev


def _natural_value(g: _Game, unseen: Counts) -> Q:
    """Believed EV of a player blackjack (pushes a dealer blackjack or, with BJW, is paid
    against it; else paid)."""
    ev = Q(0)
    for hole, w, rest in _hole_cases(g, unseen):
        seconds = [(hole, Q(1))] if hole is not None else [
            (card, p) for card, p, _ in _draws(rest)]
        for second, p in seconds:
            ev += w * p * (_natural_vs_blackjack(g.rules) if _is_natural((g.up, second))
                           else _natural_pays(g.rules))
    return ev


@cache
def _action_values(g: _Game, hand: Cards, with_surrender: bool) -> tuple[tuple[str, Q],
                                                                          ...]:
    """Believed EV of each legal action on an unsplit hand (see :func:`hand_evs`)."""
    rules = g.rules
    unseen = _take_all(_take(g.start, g.up), hand)
    if _total(hand) > 21:
        raise ValueError(f"hand {hand} is already bust")
    if _is_natural(hand):
        return (("stand", _natural_value(g, unseen)),)
    values: list[tuple[str, Q]] = [("stand", _q_stand(g, unseen, hand, PAID))]
    if _forced(rules, hand):
        return tuple(values)
    values.append(("hit", _q_hit(g, unseen, hand, PAID)))
    double = _double_bet(rules, hand)
    if double is not None:
        values.append(("double", _q_double(g, unseen, hand, double)))
    if _may_split(rules, hand):
        split = Q(0)
        for hole, w, rest in _hole_cases(g, unseen):
            split += w * _split_round_start(g.plain, hole, rest, hand[0])
        values.append(("split", split))
    if with_surrender and _may_surrender(g, hand):
        values.append(("surrender", _surrender_value(g, unseen)))
    if _may_surrender_later(g, hand):
        values.append(("surrender", -HALF))
    return tuple(values)


def _play_on(g: _Game, hole: int | None, shoe: Counts, hand: Cards) -> Q:
    """An unsplit hand after a hit, played card by card with the hole card fixed."""
    rules = g.rules
    unseen = shoe if hole is None else _put(shoe, hole)
    if _forced(rules, hand):
        return _settle_hand(g, hole, shoe, hand, PAID)
    stand, hit = _q_stand(g, unseen, hand, PAID), _q_hit(g, unseen, hand, PAID)
    double = _q_double(g, unseen, hand, PAID_DOUBLE) if _may_double(rules, hand) else None
    others = max(stand, hit) if double is None else max(stand, hit, double)
    if _may_surrender_later(g, hand) and others < -HALF:
        return -HALF  # a peek game: no dealer blackjack can take more
    if double is not None and double > max(stand, hit):
        return _play_double(g, hole, shoe, hand, PAID_DOUBLE)
    if stand >= hit:
        return _settle_hand(g, hole, shoe, hand, PAID)
    return sum((p * _play_on(g, hole, rest, _with(hand, card)) for card, p, rest in _draws(shoe)),
               Q(0))


def _settle_hand(g: _Game, hole: int | None, shoe: Counts, hand: Cards, bet: Bet) -> Q:
    """An unsplit finished ``hand`` carrying ``bet`` against the dealer's play from ``shoe``."""
    return _settle_table(g, hole, shoe, _payoffs(g.rules, _final(g.rules, hand),
                                                 _paid(g, hand, bet, False)))


def _play_double(g: _Game, hole: int | None, shoe: Counts, hand: Cards, bet: Bet) -> Q:
    """A double on an unsplit ``hand``: one card, then stand, double again (RDn) or give up
    for half the stake (DDR), whichever the player believes best."""
    ev = Q(0)
    for card, p, rest in _draws(shoe):
        cards = _with(hand, card)
        unseen = rest if hole is None else _put(rest, hole)
        choice = _after_double_choice(_after_double_values(g, unseen, cards, bet))
        if choice == "rescue":
            ev -= p * Q(bet[0], 2)
        elif choice == "redouble":
            ev += p * _play_double(g, hole, rest, cards, (2 * bet[0], 2 * bet[1]))
        else:
            ev += p * _settle_hand(g, hole, rest, cards, bet)
    return ev


def _play(g: _Game, hole: int | None, shoe: Counts, hand: Cards, action: str) -> Q:
    """Play ``action`` on the two-card ``hand``, card by card with the hole card fixed."""
    rules = g.rules
    if action == "stand":
        return _settle_hand(g, hole, shoe, hand, PAID)
    if action == "surrender":  # late; early surrender is settled before the peek
        if hole is None:
            return _surrender_value(g, shoe)
        return Q(-1) if not g.peeked and _is_natural((g.up, hole)) else -HALF
    if action == "split":
        return _split_round_start(g.plain, hole, shoe, hand[0])
    if action == "double":
        double = _double_bet(rules, hand)
        assert double is not None
        return _play_double(g, hole, shoe, hand, double)
    return sum((p * _play_on(g, hole, rest, _with(hand, card)) for card, p, rest in _draws(shoe)),
               Q(0))


def _split_by_ranks(rules: Rules) -> bool:
    """Split hands are paid suit bonuses: whether to split 7-7 is decided on the ranks."""
    return not rules.bonus_not_split and (rules.bonus_678 != (1, 1, 1)
                                          or rules.bonus_777 != (1, 1, 1))


@cache
def _deal_ev(g: _Game, hand: Cards, plays: str = "all") -> Q:
    """Unconditional EV of the round once the upcard and the player's two cards are dealt.

    A hand one card from a suit bonus is played by the suits the player sees, case by
    case (each case of the deal's physical cards counted); where split hands are paid
    suit bonuses, splitting 7-7 is decided on the ranks and the other plays by the suits.
    ``plays``: "all", "split" (split or surrender only) or "keep" (anything but split).
    """
    rules = g.rules
    if g.dealt is None and g.by_suits and plays == "all" and _suits_matter(rules, hand, g.up):
        by_suits = Q(0)
        up_pays = g.up in (6, 7, 8)
        ranks = (g.up, *hand) if up_pays else hand
        keep = "keep" if _may_split(rules, hand) and _split_by_ranks(rules) else "all"
        for suits, p in _selections(rules, ranks).items():
            up_suit = suits[0] if up_pays else None
            first, second = suits[-2:]
            case = _game(rules, g.start, g.up, g.literal_hole,
                         (up_suit, (hand[0], first), (hand[1], second)), g.split_play,
                         g.by_suits)
            by_suits += p * _deal_ev(case, hand, keep)
        if keep == "keep":
            return max(by_suits, _deal_ev(g, hand, "split"))
        return by_suits
    unseen = _take_all(_take(g.start, g.up), hand)
    natural = _is_natural(hand)

    def decision() -> str:  # made on what the player knows, after the peek
        values = [v for v in _action_values(g, hand, rules.surrender is Surrender.LATE)
                  if plays == "all" or (v[0] == "split") == (plays == "split")
                  or v[0] == "surrender"]
        return max(values, key=lambda item: item[1])[0]

    if g.hole_first:
        ev = Q(0)
        action: str | None = None
        for hole, p, rest in _draws(unseen):  # the hole card, really dealt now
            dealer_bj = _is_natural((g.up, hole))
            if g.peeked and dealer_bj:
                ev += p * (_natural_vs_blackjack(rules) if natural else -1)
            elif natural:
                ev += p * (_natural_vs_blackjack(rules) if dealer_bj else _natural_pays(rules))
            else:
                action = action or decision()
                ev += p * _play(g, hole, rest, hand, action)
    elif natural:
        ev = sum((p * (_natural_vs_blackjack(rules) if _is_natural((g.up, card))
                       else _natural_pays(rules))
                  for card, p, _ in _draws(unseen)), Q(0))
    else:
        ev = _play(g, None, unseen, hand, decision())
    if rules.surrender is Surrender.EARLY and not natural and _may_surrender(g, hand):
        ev = max(ev, -HALF)
    return ev


# -------------------------------------------------------------------- public


def round_ev_by_upcard(rules: Rules, counts: Counts, *, literal_hole: bool = False,
                       split_play: str = "cdz", by_suits: bool = True) -> dict[int, Q]:
    """EV of the round given each upcard present in the shoe ``counts`` (before the deal).

    ``literal_hole``: draw the hole card right after the deal for every upcard, not only
    when the dealer peeks (slower; the result is the same).  ``split_play``: how split
    hands decide, "cdz" (CDZ-) or "cdp1" (CDP1, see the split hands' section).
    ``by_suits=False``: every decision on the ranks alone, as a player who ignores the
    suits; the suit bonuses are still paid, so each pay is met at its average over the
    suits of the cards nobody looked at.
    """
    start = tuple(counts)
    result: dict[int, Q] = {}
    for up, _, after_up in _draws(start):
        g = _game(rules, start, up, literal_hole, None, split_play, by_suits)
        ev = Q(0)
        for first, p1, after_first in _draws(after_up):
            for second, p2, _ in _draws(after_first):
                ev += p1 * p2 * _deal_ev(g, tuple(sorted((first, second))))
        result[up] = ev
        _split_round.cache_clear()  # its states serve one upcard only: free the memory
    return result


def round_ev(rules: Rules, counts: Counts, *, literal_hole: bool = False,
             split_play: str = "cdz", by_suits: bool = True) -> Q:
    """EV of one round off the top of the shoe ``counts`` (the options: as above)."""
    by_up = round_ev_by_upcard(rules, counts, literal_hole=literal_hole, split_play=split_play,
                               by_suits=by_suits)
    return sum((p * by_up[up] for up, p, _ in _draws(tuple(counts))), Q(0))


def hand_evs(rules: Rules, counts: Counts, upcard: int, cards: Cards, *,
             literal_hole: bool = False, split_play: str = "cdz") -> dict[str, Q]:
    """EV of each legal action on an unsplit hand ``cards`` against ``upcard``.

    ``counts`` is the shoe before the deal: it still holds the upcard and ``cards``.
    Actions: "stand", "hit" (then play on optimally; not on 21 under ``stand_on_21``),
    "double" (two cards: the free double on its hard totals, else as the double rule
    allows), "split" (pairs, ``max_hands > 1``, CDZ- play; free for ``free_splits``),
    "surrender" (two cards, LS or ES, not against an ace without ``surrender_vs_ace``:
    -1/2; LS against an unchecked blackjack: -1).  A player blackjack, a Charlie and a
    21 under ``stand_on_21`` only have "stand".  Where the dealer peeked with this
    upcard the EVs are conditioned on his not having blackjack; otherwise (ENHC, a ten
    up under ``PEEK_ACE``) they are unconditioned.  ``literal_hole``: as in
    :func:`round_ev_by_upcard`, and so is ``split_play``.
    """
    g = _game(rules, tuple(counts), upcard, literal_hole, None, split_play)
    return dict(_action_values(g, tuple(sorted(cards)), True))


def dealer_distribution(counts: Counts, upcard: int, hits_soft_17: bool) -> dict[str, Q]:
    """The dealer's final outcome probabilities, unconditioned.

    ``counts`` no longer holds the upcard; the second card is drawn from it.
    Keys: "17" .. "21", "blackjack", "bust" (22 included).
    """
    result = dict.fromkeys(("17", "18", "19", "20", "21", "blackjack", "bust"), Q(0))
    for outcome, p in _dealer(tuple(counts), (upcard,), hits_soft_17):
        result["bust" if outcome == "22" else outcome] += p
    return result


def clear_caches() -> None:
    """Forget every memoised state (they are kept across calls)."""
    for function in (_game, _draws, _dealer, _dealer_odds, _q_stand, _q_hit, _q_double,
                     _v_play_on, _cdz_action, _cdz_after_double, _free_action, _split_round,
                     _cdp1_action, _cdp1_after_double,
                     _action_values, _deal_ev):
        function.cache_clear()
