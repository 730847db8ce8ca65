"""Sanity checks of the whole-round oracle (tests/oracle.py) itself, without the engine.

* dealer tables: probabilities sum to 1, forced outcomes;
* rounds whose EV can be worked out by hand (a shoe of tens and one ace, split aces), and
  one for each rule beyond the classic ones (Charlie, unchecked blackjacks and OBO,
  push 22, free doubles and splits, 21 standing, no split aces, no surrender vs an ace);
* two computations inside the oracle that must agree: the round played card by card
  with the hole card fixed, against the player's belief-level action EVs (``hand_evs``),
  and drawing the hole card before or after the player's hands; the memoised split
  recursion against playing out every deck order (free splits, Charlies, OBO included);
* unsplit one-deck hand EVs against Eric Farmer's CA (tests/reference/farmer-ca,
  1d-h17-ndas-spl1-ns-cdz.txt), which prints them to 1e-9 percent.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.errors import RuleConflictError
from analyzer.core.rules import Double, HoleCard, Rules, Surrender, parse_spec
from tests import oracle

F = Fraction
ACE, TEN = 1, 10
ONE_ACE_NINE_TENS = (1, 0, 0, 0, 0, 0, 0, 0, 0, 9)
ENHC = HoleCard.NO_HOLE_CARD
PEEKA = HoleCard.PEEK_ACE


def shoe(**counts: int) -> tuple[int, ...]:
    """A shoe from keyword counts: a=aces, c2..c9, t=tens."""
    names = ["a", *(f"c{v}" for v in range(2, 10)), "t"]
    return tuple(counts.get(name, 0) for name in names)


# ---------------------------------------------------------------- dealer


@pytest.mark.parametrize("counts", [(4,) * 9 + (16,), (1, 1, 1, 1, 1, 1, 1, 1, 2, 6),
                                    (2, 0, 2, 1, 1, 1, 1, 2, 0, 2)])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_dealer_distribution_sums_to_one(counts: tuple[int, ...], hits_soft_17: bool) -> None:
    for up in range(1, 11):
        if counts[up - 1] == 0:
            continue
        rest = list(counts)
        rest[up - 1] -= 1
        dist = oracle.dealer_distribution(tuple(rest), up, hits_soft_17)
        assert set(dist) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
        assert sum(dist.values()) == 1
        assert all(p >= 0 for p in dist.values())
        assert (dist["blackjack"] > 0) == (up in (ACE, TEN) and rest[11 - up - 1] > 0)


def test_dealer_forced_outcomes() -> None:
    assert oracle.dealer_distribution(shoe(t=3), 6, False)["bust"] == 1  # 16, then a ten
    assert oracle.dealer_distribution(shoe(t=3), 7, False)["17"] == 1
    assert oracle.dealer_distribution(shoe(t=3), ACE, False)["blackjack"] == 1
    # 5 up with one 6 and one ten left: 5+6+10 or 5+10+6, both 21
    assert oracle.dealer_distribution(shoe(c6=1, t=1), 5, False)["21"] == 1


def test_dealer_soft_17() -> None:
    # A up, one 6 and one 2 left: A6 is soft 17 (S17 stands; H17 takes the 2: soft 19),
    # A2 is soft 13 and takes the 6: soft 19.
    s17 = oracle.dealer_distribution(shoe(c2=1, c6=1), ACE, False)
    h17 = oracle.dealer_distribution(shoe(c2=1, c6=1), ACE, True)
    assert (s17["17"], s17["19"]) == (F(1, 2), F(1, 2))
    assert (h17["17"], h17["19"]) == (F(0), F(1))


def test_empty_shoe_raises() -> None:
    with pytest.raises(oracle.ShoeExhausted):
        oracle.dealer_distribution(shoe(t=1), 2, False)  # 2 + 10 = 12 must draw again


# ------------------------------------------------------- hand-worked rounds


def test_all_tens_push() -> None:
    # Every hand is 20 against 20; hitting busts; every split hand is 20 again.
    tens = shoe(t=12)
    for rules in (Rules(), Rules(hole_card=ENHC), Rules(max_hands=1)):
        assert oracle.round_ev(rules, tens) == 0
    evs = oracle.hand_evs(Rules(surrender=Surrender.LATE), tens, TEN, (TEN, TEN))
    assert evs == {"stand": 0, "hit": -1, "double": -2, "split": 0, "surrender": F(-1, 2)}


# One ace, nine tens (PEEK).  Ace up (1/10): the player holds T,T, the hole is a ten:
# -1.  Ten up (9/10): the player has the ace (2/9) and is paid 3/2; else he holds T,T
# and the hole is the ace (1/7): -1, or a ten (6/7): the dealer stands on 20 and the
# player's best is to split: with 4 hands the resplits use up all six cards left, so
# the ace surely lands on a split hand (21): +1; with 3 hands four cards are drawn
# (+1 with prob 4/6), with 2 hands two (2/6).  Standing pushes.
@pytest.mark.parametrize(("max_hands", "split_ev", "ev"), [
    (1, None, F(1, 10)), (2, F(1, 3), F(3, 10)), (3, F(2, 3), F(1, 2)), (4, F(1), F(7, 10))])
def test_one_ace_nine_tens(max_hands: int, split_ev: Fraction | None, ev: Fraction) -> None:
    rules = Rules(max_hands=max_hands)
    by_up = oracle.round_ev_by_upcard(rules, ONE_ACE_NINE_TENS)
    ten_up = F(2, 9) * F(3, 2) + F(7, 9) * (F(1, 7) * -1 + F(6, 7) * max(0, split_ev or 0))
    assert by_up == {ACE: -1, TEN: ten_up}
    assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == ev
    evs = oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))
    # hitting 20: the ace (1 of the 6 cards left besides the hole ten) makes 21
    expected = {"stand": F(0), "hit": F(-2, 3), "double": F(-4, 3)}
    if split_ev is not None:
        expected["split"] = split_ev
    assert evs == expected


def test_one_ace_nine_tens_early_surrender() -> None:
    # Ace up: T,T surrenders early (-1/2 instead of -1); ten up: never.
    rules = Rules(surrender=Surrender.EARLY)
    assert oracle.round_ev_by_upcard(rules, ONE_ACE_NINE_TENS)[ACE] == F(-1, 2)
    assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == F(3, 4)
    assert oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))["surrender"] == F(-1, 2)


# ENHC, same shoe, ten up, T,T: the dealer's second card comes last.  Standing: -1/7
# (the ace makes him a blackjack).  Splitting to n hands draws 2n-2 of the 7 cards; if
# the ace is among them +1, else the dealer draws his card from the rest and a
# blackjack takes all n bets.
@pytest.mark.parametrize(("max_hands", "ev"), [(1, F(1, 10)), (2, F(1, 5)), (3, F(3, 10)),
                                               (4, F(2, 5))])
@pytest.mark.parametrize("obo", [False, True])
def test_one_ace_nine_tens_enhc(max_hands: int, ev: Fraction, obo: bool) -> None:
    # OBO: the blackjack takes one unit however many hands were split (the round EV is the
    # same: splitting is then worth 0 or +1 against the ten, never chosen at a loss).
    rules = Rules(max_hands=max_hands, hole_card=ENHC, surrender=Surrender.LATE,
                  unpeeked_bj_takes_all=not obo)
    if not obo:
        assert oracle.round_ev(rules, ONE_ACE_NINE_TENS) == ev
    evs = oracle.hand_evs(rules, ONE_ACE_NINE_TENS, TEN, (TEN, TEN))
    assert evs["stand"] == F(-1, 7)
    assert evs["surrender"] == F(6, 7) * F(-1, 2) + F(1, 7) * -1
    if max_hands > 1:
        drawn = 2 * max_hands - 2
        rest = 7 - drawn
        lost = 1 if obo else max_hands
        assert evs["split"] == F(drawn, 7) + F(rest, 7) * F(1, rest) * -lost
    assert oracle.hand_evs(rules, ONE_ACE_NINE_TENS, ACE, (TEN, TEN))["stand"] == -1


def test_split_aces() -> None:
    # Ten up, A,A, the hole is a ten (the other ace would be a blackjack); left: A + 6 T.
    # One card to each ace: 21 (+1) with a ten, soft 12 (-1) with the ace: 2 * 5/7.
    counts = shoe(a=3, t=8)
    assert oracle.hand_evs(Rules(), counts, TEN, (ACE, ACE))["split"] == F(10, 7)
    # Resplitting to 4 hands: the ace makes a third hand and every ace gets a ten.
    rsa = oracle.hand_evs(Rules(resplit_aces=True), counts, TEN, (ACE, ACE))["split"]
    assert rsa == F(1, 7) * 3 + F(6, 7) * (F(1, 6) * 3 + F(5, 6) * 2)


# --------------------------------------------- hand-worked rounds, new rules


def test_charlie_wins_by_card_count() -> None:
    # 3-card Charlie, 7 up, 2,2; left: an ace and six tens.  The dealer makes 17 or soft 18:
    # standing on 4 loses; any third card makes a Charlie (at most 14): +1, doubled +2.
    evs = oracle.hand_evs(Rules(charlie=3), shoe(a=1, c2=2, c7=1, t=6), 7, (2, 2))
    assert (evs["stand"], evs["hit"], evs["double"]) == (F(-1), F(1), F(2))


@pytest.mark.parametrize(("rules", "hit", "double"), [
    (Rules(charlie=3, hole_card=PEEKA), F(2, 3), F(4, 3)),
    (Rules(charlie=3, hole_card=PEEKA, charlie_beats_bj=True), F(1), F(2)),
    (Rules(charlie=3, hole_card=PEEKA, unpeeked_bj_takes_all=False), F(2, 3), F(3, 2)),
    (Rules(charlie=3, hole_card=ENHC), F(2, 3), F(4, 3)),
    (Rules(charlie=3), F(1), F(2)),  # PEEK: the peek found no blackjack
])
def test_charlie_against_an_unchecked_blackjack(rules: Rules, hit: Fraction,
                                                double: Fraction) -> None:
    # Ten up (not peeked under PEEK_ACE), 2,2; left: an ace and five tens.  Hitting or
    # doubling surely makes a Charlie; the dealer has blackjack when the ace is his second
    # card (1/6, whatever the player draws first): -1 (-2 for the double, -1 under OBO)
    # unless a Charlie beats it.  Standing on 4 loses to 20 and to blackjack alike.
    evs = oracle.hand_evs(rules, shoe(a=1, c2=2, t=6), TEN, (2, 2))
    assert (evs["stand"], evs["hit"], evs["double"]) == (F(-1), hit, double)


def test_charlie_beats_bj_is_moot_when_the_dealer_peeks() -> None:
    # Ace up (peeked), 2,2; left: an ace, two 2s, six tens.  The hole is the ace or a 2 and
    # the dealer always busts (at most A,A,2,2 = soft 16 before a ten, then hard 16 + ten):
    # every live hand wins, a split of two hands (no doubling) +2.  A Charlie never meets
    # a blackjack here.
    counts = (2, 4, 0, 0, 0, 0, 0, 0, 0, 6)
    rules = Rules(charlie=3, max_hands=2, double_after_split=False)
    plain = oracle.hand_evs(rules, counts, ACE, (2, 2))
    assert plain == oracle.hand_evs(rules.replace(charlie_beats_bj=True), counts, ACE, (2, 2))
    assert plain == {"stand": 1, "hit": 1, "double": 2, "split": 2}


def test_unchecked_blackjack_takes_all_or_only_the_original_bet() -> None:
    # PEEK_ACE, ten up, 5,6 (11); left: one ace, six tens.  Doubling: the ace is the
    # dealer's second card with probability 1/7 (blackjack: -2, or -1 under OBO); else the
    # player draws the ace (1/7: soft 12 vs 20, -2) or a ten (5/7: 21 vs 20, +2).
    counts = shoe(a=1, c5=1, c6=1, t=7)
    takes_all = oracle.hand_evs(Rules(hole_card=PEEKA), counts, TEN, (5, 6))
    obo = oracle.hand_evs(Rules(hole_card=PEEKA, unpeeked_bj_takes_all=False), counts, TEN,
                          (5, 6))
    assert takes_all["double"] == F(1, 7) * -2 + F(1, 7) * -2 + F(5, 7) * 2
    assert obo["double"] == F(1, 7) * -1 + F(1, 7) * -2 + F(5, 7) * 2
    assert takes_all["stand"] == obo["stand"] == -1


def test_push_22() -> None:
    # 2 up; left: tens only.  The dealer makes 2+T+T = 22; the player's 20 pushes under P22.
    counts = shoe(c2=1, t=9)
    plain = oracle.hand_evs(Rules(max_hands=2), counts, 2, (TEN, TEN))
    push = oracle.hand_evs(Rules(max_hands=2, push_22=True), counts, 2, (TEN, TEN))
    assert plain == {"stand": 1, "hit": -1, "double": -2, "split": 2}
    assert push == {"stand": 0, "hit": -1, "double": -2, "split": 0}
    # A Charlie still wins against 22: 2,2 + a ten is a 3-card 14.
    charlie = oracle.hand_evs(Rules(push_22=True, charlie=3), shoe(c2=3, t=9), 2, (2, 2))
    assert (charlie["hit"], charlie["double"]) == (F(1), F(2))


def test_free_double() -> None:
    # Ten up, 4,5; left: tens.  One card: 19 against 20.  A paid double loses 2; the free
    # double loses only the own bet.  It is offered on a free total whatever ``double``
    # says, and not on a soft hand.
    counts = shoe(a=1, c4=1, c5=1, c8=1, t=8)
    free = Rules(free_doubles=frozenset({9, 10, 11}))
    assert oracle.hand_evs(Rules(), shoe(c4=1, c5=1, t=8), TEN, (4, 5))["double"] == -2
    assert oracle.hand_evs(free, shoe(c4=1, c5=1, t=8), TEN, (4, 5))["double"] == -1
    d10 = Rules(free_doubles=frozenset({9}), double=Double.TEN_ELEVEN)
    assert oracle.hand_evs(d10, shoe(c4=1, c5=1, t=8), TEN, (4, 5))["double"] == -1
    # A,8 is soft 19, not hard 9: the paid double (DOA), -2 against a sure 20 ... or 21
    soft = oracle.hand_evs(free, counts, TEN, (ACE, 8))
    assert soft["double"] == oracle.hand_evs(Rules(), counts, TEN, (ACE, 8))["double"]
    # Winning: 6 up, the dealer busts (6+T+T): own bet +1 and free bet +1.
    assert oracle.hand_evs(free, shoe(c4=1, c5=1, c6=1, t=8), 6, (4, 5))["double"] == 2


def test_free_split() -> None:
    # Ten up, 8,8; left: tens.  Each hand is 18 against 20: the first loses its bet, the
    # free hand costs nothing.  Tens split for a paid bet as usual.
    free = Rules(max_hands=2, free_splits=frozenset(range(1, 10)))
    assert oracle.hand_evs(free, shoe(c8=2, t=8), TEN, (8, 8))["split"] == -1
    assert oracle.hand_evs(Rules(max_hands=2), shoe(c8=2, t=8), TEN, (8, 8))["split"] == -2
    # 7 up, 9,9: both hands 19 against 17: +1 each, free or paid.
    assert oracle.hand_evs(free, shoe(c7=1, c9=2, t=8), 7, (9, 9))["split"] == 2
    # A pair of tens against 9 up (left: tens): 20 vs 19 twice, a paid split, +2.
    assert oracle.hand_evs(free, shoe(c9=1, t=10), 9, (TEN, TEN))["split"] == 2
    # The free hand plays for its win only.  9,9 against ten up; left: a 2, tens.  The
    # hand 9,T (as unsplit: unseen 2, 9, 7 tens) standing on 19 wins only when the hole is
    # the 2 and the dealer then busts (1/9 * 7/8 = 7/72); hitting wins when it draws the 2
    # (1/9 = 8/72: 21 beats 19 and 20).  The paid hand stands: 7/72 - 57/72 beats -7/9.
    game = oracle._game(free, shoe(c2=1, c9=2, t=9), TEN, False)
    assert oracle._free_action(game, (9, TEN)) == "hit"
    assert oracle._cdz_action(game, (9, TEN)) == "stand"


def test_free_split_worked_by_hand() -> None:
    # 7 up, 6,6; left (S'): three aces, six tens.  The dealer makes 17 (a ten) or soft 18
    # (an ace), whatever the hands took.  By exchangeability each hand is worth what it
    # is worth played first from S'.
    # Paid hand (CDZ-: hit 16, hit soft 17, stand on hard 17 and soft 18): 6,T (6/9) hits:
    # an ace (3/8) makes 17 (-2/7 against 17/18 from 2 aces, 5 tens), a ten busts: -41/56;
    # 6,A (3/9) hits: an ace (2/8) makes soft 18 (+6/7), a ten (6/8) hard 17 (-2/7): 0.
    # So -41/84, and a paid split is -41/42.
    # Free hand: the composition rule (unseen: S' plus the other 6) stands on 6,T (1/9
    # beats 1/14), hits soft 17 (85/252 > 1/9), stands on soft 18, and hits A,6,T (hard 17:
    # standing wins only if the dealer draws the 6 and busts, 1/8; hitting wins with an
    # ace and then 18 against 17, 2/8 * 6/7 = 3/14).  Win probability: 6,T: 0; 6,A:
    # 2/8 * 6/7 (A: soft 18 vs 17) + 6/8 * 2/7 * 5/6 (T then A: 18 vs 17) = 11/28.
    # So 3/9 * 11/28 = 11/84, and the free split is -41/84 + 11/84 = -5/14.
    counts = (3, 0, 0, 0, 0, 2, 1, 0, 0, 6)
    free = parse_spec("1D S17 DOA NDAS SPL1 NS FSA-9")
    paid = free.replace(free_splits=frozenset())
    assert oracle.hand_evs(paid, counts, 7, (6, 6))["split"] == F(-41, 42)
    assert oracle.hand_evs(free, counts, 7, (6, 6))["split"] == F(-5, 14)
    game = oracle._game(free, counts, 7, False)
    decisions = [oracle._free_action(game, h)
                 for h in [(6, TEN), (ACE, 6), (ACE, ACE, 6), (ACE, 6, TEN)]]
    assert decisions == ["stand", "hit", "stand", "hit"]


def test_free_split_is_one_split_only() -> None:
    # 6,6 vs 7, a third 6 comes: no resplit after a free split (max_hands 2 anyway), and
    # free splits with resplits are not modelled: the rules themselves refuse them now, and
    # the oracle still does for rules built past that check.
    with pytest.raises(RuleConflictError, match="one split only"):
        Rules(max_hands=3, free_splits=frozenset({6}))
    resplits = Rules(max_hands=2, free_splits=frozenset({6}))
    object.__setattr__(resplits, "max_hands", 3)
    with pytest.raises(NotImplementedError):
        oracle.hand_evs(resplits, shoe(c6=3, c7=1, t=8), 7, (6, 6))


def test_stand_on_21_and_forced_hands() -> None:
    counts = (2, 1, 1, 2, 2, 2, 1, 1, 1, 6)
    # A soft 21 of three cards may hit unless 21 stands; a Charlie only stands.
    assert set(oracle.hand_evs(Rules(), counts, 6, (ACE, 5, 5))) == {"stand", "hit"}
    assert set(oracle.hand_evs(Rules(stand_on_21=True), counts, 6, (ACE, 5, 5))) == {"stand"}
    assert oracle.hand_evs(Rules(charlie=5), counts, 6, (ACE, 2, 3, 4, 5)) == {"stand": 1}
    # A 4-card soft 21 with a 5-card Charlie: hitting is a sure Charlie (+1), standing is not.
    evs = oracle.hand_evs(Rules(charlie=5), counts, 6, (ACE, 2, 3, 5))
    assert evs["hit"] == 1 > evs["stand"]
    assert set(oracle.hand_evs(Rules(charlie=5, stand_on_21=True), counts, 6, (ACE, 2, 3, 5))
               ) == {"stand"}


def test_no_split_aces_no_surrender_against_an_ace() -> None:
    assert "split" not in oracle.hand_evs(Rules(split_aces=False), shoe(a=3, t=8), TEN,
                                          (ACE, ACE))
    assert "split" in oracle.hand_evs(Rules(), shoe(a=3, t=8), TEN, (ACE, ACE))
    sna = Rules(surrender=Surrender.LATE, surrender_vs_ace=False)
    counts = shoe(a=2, c9=1, t=9)
    assert "surrender" not in oracle.hand_evs(sna, counts, ACE, (TEN, TEN))
    assert "surrender" in oracle.hand_evs(sna, counts, TEN, (TEN, TEN))
    assert "surrender" in oracle.hand_evs(sna.replace(surrender_vs_ace=True), counts, ACE,
                                          (TEN, TEN))
    # Early surrender: T,T may not give up against the ace any more: -1 instead of -1/2.
    es = Rules(surrender=Surrender.EARLY, surrender_vs_ace=False)
    assert oracle.round_ev_by_upcard(es, ONE_ACE_NINE_TENS)[ACE] == -1


def test_split_by_rank_is_not_modelled() -> None:
    with pytest.raises(NotImplementedError):
        oracle.round_ev(parse_spec("1D SPR"), ONE_ACE_NINE_TENS)


# ------------------------------------------------- internal consistency


ELEVEN = (1, 1, 0, 2, 0, 1, 2, 1, 1, 2)  # pairs of 4s, 7s and tens
TWELVE = (2, 0, 2, 1, 1, 1, 1, 2, 0, 2)  # pairs of aces, 3s and 8s
MORE_TENS = (0,) * 9 + (1,)  # one more ten, so that eager free hands do not empty the shoe
ELEVEN_T = tuple(a + b for a, b in zip(ELEVEN, MORE_TENS, strict=True))
TWELVE_T = tuple(a + b for a, b in zip(TWELVE, MORE_TENS, strict=True))
CASES = [
    (Rules(), ELEVEN),
    (Rules(hole_card=ENHC, surrender=Surrender.LATE, hits_soft_17=True), ELEVEN),
    (Rules(surrender=Surrender.LATE, double_after_split=False, max_hands=2), ELEVEN),
    (Rules(surrender=Surrender.EARLY, resplit_aces=True, hit_split_aces=True,
           double=Double.NINE_TO_ELEVEN, blackjack_pays=F(6, 5)), TWELVE),
    (Rules(hole_card=ENHC, surrender=Surrender.EARLY, max_hands=3, double=Double.TEN_ELEVEN),
     ELEVEN),
    # the free-bet rules (one paid split: tens), and with OBO and paid doubles after splits
    (parse_spec("1D S17 DOA NDAS SPL1 NS PEEKA CH4 CHBJ A21 P22 FD9-11 FSA-9"), ELEVEN_T),
    (parse_spec("1D H17 DOA DAS SPL1 NS PEEKA OBO CH4 FD9-11 FS4"), ELEVEN_T),
    (parse_spec("1D S17 DOA DAS SPL2 LS PEEKA CH5 SNA NSA"), TWELVE),
    (parse_spec("1D S17 DOA DAS SPL1 ES ENHC OBO CH4 CHBJ SNA FSA"), TWELVE_T),
]


def _take(counts: tuple[int, ...], card: int) -> tuple[int, ...]:
    c = list(counts)
    c[card - 1] -= 1
    return tuple(c)


def belief_level_by_upcard(rules: Rules, counts: tuple[int, ...], up: int) -> Fraction:
    """The EV given ``up`` from ``hand_evs``: peek settlement, then the best action."""
    after_up = _take(counts, up)
    total = F(0)
    for first in range(1, 11):
        for second in range(1, 11):
            if after_up[first - 1] == 0 or _take(after_up, first)[second - 1] == 0:
                continue
            p = F(after_up[first - 1], sum(after_up))
            p *= F(_take(after_up, first)[second - 1], sum(after_up) - 1)
            hand = (first, second)
            unseen = _take(_take(after_up, first), second)
            natural = sorted(hand) == [ACE, TEN]
            evs = oracle.hand_evs(rules, counts, up, hand)
            if rules.surrender is not Surrender.LATE:
                evs.pop("surrender", None)
            p_bj = F(0)
            if rules.peeks_on(up):
                p_bj = F(unseen[11 - up - 1], sum(unseen))
            value = p_bj * (0 if natural else -1)
            if p_bj < 1:
                value += (1 - p_bj) * max(evs.values())
            if (rules.surrender is Surrender.EARLY and not natural
                    and (up != ACE or rules.surrender_vs_ace)):
                value = max(value, F(-1, 2))
            total += p * value
    return total


@pytest.mark.parametrize(("rules", "counts"), CASES)
def test_card_by_card_round_matches_belief_level(rules: Rules, counts: tuple[int, ...]) -> None:
    by_up = oracle.round_ev_by_upcard(rules, counts)
    assert set(by_up) == {v for v in range(1, 11) if counts[v - 1]}
    for up, ev in by_up.items():
        assert ev == belief_level_by_upcard(rules, counts, up), up


@pytest.mark.parametrize(("rules", "counts"), [CASES[0], CASES[3], CASES[4], CASES[5],
                                               CASES[8]])
def test_hole_card_drawn_first_or_last_agree(rules: Rules, counts: tuple[int, ...]) -> None:
    assert (oracle.round_ev_by_upcard(rules, counts)
            == oracle.round_ev_by_upcard(rules, counts, literal_hole=True))


def _best(cards: list[int]) -> int:
    return sum(cards) + 10 if ACE in cards and sum(cards) <= 11 else sum(cards)


class _NeedCard(Exception):
    """The deck order given so far is too short for the round."""


def _split_by_deck_order(rules: Rules, game: oracle._Game, up: int, hole: int | None,
                         order: tuple[int, ...], pair: int) -> int:
    """Play a split round on a known deck order, as a list of hands, left to right.

    Bets are (win, lose): a paid hand (1, 1), doubled (2, 2), the free hand of a free
    split (1, 0).  Settled here from the rules' words, apart from the oracle's payoffs.
    """
    deck = iter(order)

    def draw() -> int:
        card = next(deck, None)
        if card is None:
            raise _NeedCard
        return card

    free = pair in rules.free_splits
    hands, bets = [[pair], [pair]], [(1, 1), (0, 0)]
    bets[1] = (1, 0) if free else (1, 1)
    i = 0
    while i < len(hands):
        hand = hands[i]
        while True:
            if len(hand) == 1:
                card = draw()
                if card == pair and not free and len(hands) < rules.max_hands and (
                        pair != ACE or rules.resplit_aces):
                    hands.insert(i + 1, [pair])
                    bets.insert(i + 1, (1, 1))
                else:
                    hand.append(card)
                continue
            total = _best(hand)
            if (total > 21 or (rules.charlie and len(hand) >= rules.charlie)
                    or (total == 21 and rules.stand_on_21)
                    or (pair == ACE and not rules.hit_split_aces)):
                break
            if free and i == 1:
                action = oracle._free_action(game, tuple(sorted(hand)))
            else:
                action = oracle._cdz_action(game, tuple(sorted(hand)))
            if action == "stand":
                break
            hand.append(draw())
            if action == "double":
                bets[i] = (2, 2)
                break
        i += 1

    def settle(dealer: int) -> int:  # dealer: his total (22, 23: bust), or 0 for a blackjack
        result = paid = 0
        for hand, (win, lose) in zip(hands, bets, strict=True):
            mine = _best(hand)
            charlie = rules.charlie and len(hand) >= rules.charlie and mine <= 21
            if dealer == 0:
                if charlie and rules.charlie_beats_bj:
                    result += win
                else:
                    paid += lose
            elif mine > 21:
                result -= lose
            elif charlie or dealer > 22 or (dealer == 22 and not rules.push_22):
                result += win
            elif dealer == 22:
                pass
            elif mine != dealer:
                result += win if mine > dealer else -lose
        return result - (paid if rules.unpeeked_bj_takes_all else min(1, paid))

    if len({settle(dealer) for dealer in (0, *range(17, 24))}) == 1:
        return settle(17)  # the dealer need not draw
    dealer = [up, hole if hole is not None else draw()]
    if sorted(dealer) == [ACE, TEN]:
        return settle(0)
    while _best(dealer) < 17 or (_best(dealer) == 17 and rules.hits_soft_17
                                 and ACE in dealer and sum(dealer) == 7):
        dealer.append(draw())
    return settle(min(_best(dealer), 23))


def _average_over_deck_orders(rules: Rules, game: oracle._Game, up: int, hole: int | None,
                              rest: list[int], pair: int, order: tuple[int, ...] = ()) -> Fraction:
    """Average of the round over all orders of ``rest``, extending ``order`` as needed."""
    try:
        return F(_split_by_deck_order(rules, game, up, hole, order, pair))
    except _NeedCard:
        left = list(rest)
        for card in order:
            left.remove(card)
        return sum((F(left.count(card), len(left))
                    * _average_over_deck_orders(rules, game, up, hole, rest, pair, (*order, card))
                    for card in sorted(set(left))), F(0))


@pytest.mark.parametrize(("rules", "up", "pair", "hole", "rest"), [
    (Rules(), 6, 2, 10, (8, 5, 9, 4, 4, 10, 10, 2, 10)),
    (Rules(hits_soft_17=True, max_hands=3), 1, 8, 6, (5, 5, 2, 2, 8, 10, 10, 10, 6, 8, 10)),
    (Rules(hole_card=ENHC, double_after_split=False), 10, 3, None,
     (10, 10, 3, 1, 10, 10, 6, 8, 6, 3, 10)),
    (Rules(resplit_aces=True, hit_split_aces=True), 9, 1, 5,
     (10, 7, 5, 6, 10, 10, 10, 9, 7, 1, 10)),
    # a free split (the free hand's own play; a third 6 is not resplit)
    (Rules(max_hands=2, free_splits=frozenset({6})), 7, 6, 10,
     (1, 10, 6, 2, 10, 5, 10, 1, 9, 10, 3)),
    # Charlies, push 22, resplits
    (Rules(charlie=4, push_22=True, max_hands=3), 2, 3, 10, (2, 3, 10, 10, 10, 5, 10, 1, 10, 9)),
    # ENHC, OBO, a Charlie beating the blackjack, doubles after splits
    (Rules(hole_card=ENHC, unpeeked_bj_takes_all=False, charlie=4, charlie_beats_bj=True,
           max_hands=2), 10, 2, None, (1, 2, 10, 3, 10, 1, 10, 4, 10, 5, 9)),
    (Rules(hole_card=ENHC, charlie=4, max_hands=2), 1, 2, None, (2, 10, 3, 10, 1, 10, 4, 10, 9)),
    # PEEK_ACE with a ten up: the unchecked hole card is the ace (blackjack) or a ten
    (Rules(hole_card=PEEKA, free_splits=frozenset(range(1, 10)), max_hands=2, charlie=4,
           push_22=True), 10, 4, 1, (1, 10, 4, 2, 10, 7, 3, 10, 10, 6)),
    (Rules(hole_card=PEEKA, free_splits=frozenset(range(1, 10)), max_hands=2, charlie=4,
           unpeeked_bj_takes_all=False), 10, 4, 10, (1, 10, 4, 2, 10, 7, 3, 10, 10, 6)),
])
def test_split_round_matches_every_deck_order(rules: Rules, up: int, pair: int,
                                              hole: int | None, rest: tuple[int, ...]) -> None:
    """The memoised split recursion against playing out every order of the remaining cards."""
    counts = [0] * 10
    for card in (*rest, up, pair, pair, *(() if hole is None else (hole,))):
        counts[card - 1] += 1
    game = oracle._game(rules, tuple(counts), up, True)
    remaining = tuple(rest.count(v) for v in range(1, 11))
    expected = oracle._split_round_start(game, hole, remaining, pair)
    assert _average_over_deck_orders(rules, game, up, hole, list(rest), pair) == expected


# ---------------------------------------------------------------- Farmer


FARMER_1D_H17 = Rules(decks=1, hits_soft_17=True, double_after_split=False, max_hands=1)
FARMER_QUERIES = [  # percent, conditioned on no dealer blackjack
    (10, (10, 6), {"stand": -54.295185382, "hit": -50.692924258, "double": -101.385848516}),
    (10, (9, 7), {"stand": -51.803413932, "hit": -51.200873521, "double": -102.401747043}),
    (1, (6, 5), {"stand": -57.537435085, "hit": 14.300327023, "double": 23.429617169}),
    (10, (10, 4, 2), {"stand": -54.480773770, "hit": -54.908676876}),
]


@pytest.mark.parametrize(("up", "cards", "expected"), FARMER_QUERIES)
def test_unsplit_hands_match_farmer_one_deck(up: int, cards: tuple[int, ...],
                                             expected: dict[str, float]) -> None:
    evs = oracle.hand_evs(FARMER_1D_H17, (4,) * 9 + (16,), up, cards)
    assert set(evs) == set(expected)
    for action, value in expected.items():
        assert abs(float(evs[action]) * 100 - value) <= 1e-9, action


@pytest.mark.slow  # the distribution oracle on 14 cards: about 10 s
def test_every_hand_busted_under_obo_draws_the_hole_card_only() -> None:
    """Under OBO, with every hand busted, only a dealer blackjack changes the round (it
    takes the original bet only): the oracles drew the dealer's whole hand anyway and ran
    out of cards on shoes the engine analyses (an adversarial tester's case, 14 cards, a
    split and doubles after hitting).  Now they draw the hole card only, and agree."""
    from analyzer.core.shoe import parse_shoe
    from analyzer.engine.analysis import Analysis
    from tests.distribution_checks import check_against_the_oracle

    spec, shoe = "1D H17 D9 NDAS SPL1 RSA NS ENHC OBO DAN BJ6:5", "A:2,2:3,3:1,5:3,6:2,9:2,T:1"
    counts = parse_shoe(shoe).counts
    assert oracle.round_ev(parse_spec(spec), counts) == Fraction(-23629, 3363360) == \
        Analysis(parse_spec(spec), parse_shoe(shoe), exact=True).ev()
    check_against_the_oracle(spec, counts)


def test_the_hole_card_alone_settles_a_round_only_a_blackjack_can_change() -> None:
    """:func:`oracle.hole_only` against the dealer's full play on a shoe that holds it."""
    rules = parse_spec("1D S17 DOA DAS SPL1 NS ENHC OBO")
    shoe = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    values = (-4, -4, -4, -4, -4, -4, -4, -1)  # every hand busted, two bets doubled: OBO
    for up, hole in ((1, None), (10, None), (10, 1), (10, 5), (7, None)):
        game = oracle._game(rules, shoe, up, hole is not None)
        law = oracle.hole_only(game, hole, shoe, values)
        assert law is not None
        cards = (up,) if hole is None else tuple(sorted((up, hole)))
        full = dict(oracle._dealer(shoe, cards, False))
        assert sum(p * v for p, v in law) == sum(
            full.get(o, 0) * v for o, v in zip(oracle.OUTCOMES, values, strict=True))
    assert oracle.hole_only(oracle._game(rules, shoe, 7, False), None, shoe,
                            (1, -1, -1, -1, -1, -1, 1, -1)) is None  # the dealer's total counts
