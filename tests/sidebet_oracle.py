"""Brute-force side-bet oracle, written apart from ``analyzer.sidebets`` to check it.

Cards are physical: a list of strings such as ``"Ts"`` (one entry per card, so
two decks hold two ``"As"``).  The hand bets enumerate every *ordered* deal of
distinct physical cards and divide by the orderings; Bust It enumerates every
ordered deal of the player's two cards and the upcard, then lets the dealer
draw card by card, each physical card once, until the hand ends.  Nothing is
shared with the package: not the card model, the classifiers, the dealer rule
nor the arithmetic.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import permutations

from gmpy2 import mpq as Q  # exact rationals: the values of fractions.Fraction, GMP arithmetic

RANK_ORDER = "A23456789TJQK"


def deck(decks: int, remove: tuple[str, ...] = ()) -> list[str]:
    """``decks`` full decks, less the named physical cards (e.g. ``"As"``)."""
    cards = [r + s for _ in range(decks) for r in RANK_ORDER for s in "shdc"]
    for card in remove:
        cards.remove(card)
    return cards


def rank_number(card: str) -> int:
    return RANK_ORDER.index(card[0]) + 1


def bj_value(card: str) -> int:
    return 1 if card[0] == "A" else 10 if card[0] in "TJQK" else int(card[0])


def poker3(hand: tuple[str, ...], straights: str) -> str:
    ranks = sorted(rank_number(c) for c in hand)
    flush = hand[0][1] == hand[1][1] == hand[2][1]
    if ranks[0] == ranks[2]:
        return "suited-trips" if flush else "three-of-a-kind"
    run = ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1
    straight = {
        "standard": run or ranks == [1, 12, 13],
        "wrap": run or ranks in ([1, 12, 13], [1, 2, 13]),
        "ace-low": run,
        "ace-high": (run and ranks != [1, 2, 3]) or ranks == [1, 12, 13],
    }[straights]
    if straight:
        return "straight-flush" if flush else "straight"
    return "flush" if flush else "lose"


# Own card rules below (soft total, natural), not analyzer.core.cards: independent on purpose.
def hot3(hand: tuple[str, ...]) -> str:
    if [c[0] for c in hand] == ["7", "7", "7"]:
        return "777"
    total = sum(bj_value(c) for c in hand)
    if any(c[0] == "A" for c in hand) and total <= 11:
        total += 10
    if total == 21:
        return "21-suited" if len({c[1] for c in hand}) == 1 else "21-unsuited"
    return {19: "19", 20: "20"}.get(total, "lose")


def any_pair(hand: tuple[str, ...], by_value: bool) -> str:
    a, b = hand
    same = bj_value(a) == bj_value(b) if by_value else a[0] == b[0]
    if not same:
        return "lose"
    return "suited-pair" if a[1] == b[1] else "pair"


def hand_bets(cards: list[str]) -> dict[str, Counter[str]]:
    """Unordered-set counts of every 3-card reading, from all ordered 3-card deals."""
    tallies: dict[str, Counter[str]] = {}
    for deal in permutations(cards, 3):
        for name in ("standard", "wrap", "ace-low", "ace-high"):
            tallies.setdefault(f"21+3/{name}", Counter())[poker3(deal, name)] += 1
        tallies.setdefault("hot3", Counter())[hot3(deal)] += 1
    for deal2 in permutations(cards, 2):
        for name, by_value in (("rank", False), ("value", True)):
            tallies.setdefault(f"any-pair/{name}", Counter())[any_pair(deal2, by_value)] += 1
    out = {}
    for key, tally in tallies.items():
        orderings = 2 if key.startswith("any-pair") else 6
        assert all(n % orderings == 0 for n in tally.values())
        out[key] = Counter({e: n // orderings for e, n in tally.items()})
    return out


@cache
def _dealer(rest: tuple[int, ...], hard: int, ace: bool, ncards: int,
            h17: bool) -> tuple[tuple[int, Q], ...]:
    """(k, P(bust holding k cards)) from this dealer hand; ``rest[v-1]`` cards of value v."""
    soft = ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return ((ncards, Q(1)),)
    if ncards == 2 and total == 21:
        return ()
    if total > 17 or (total == 17 and not (soft and h17)):
        return ()
    left = sum(rest)
    assert left > 0, "the shoe ran out"
    out: dict[int, Q] = {}
    for v in range(1, 11):
        if rest[v - 1] == 0:
            continue
        # each of the rest[v-1] physical cards of value v is one branch; they all
        # lead to the same hand, so they are taken together
        nxt = rest[:v - 1] + (rest[v - 1] - 1,) + rest[v:]
        for k, p in _dealer(nxt, hard + v, ace or v == 1, ncards + 1, h17):
            out[k] = out.get(k, Q(0)) + p * Q(rest[v - 1], left)
    return tuple(sorted(out.items()))


def _values(cards: list[str]) -> list[int]:
    counts = [0] * 10
    for c in cards:
        counts[bj_value(c) - 1] += 1
    return counts


def _bucket(k: int) -> str:
    return "bust-8+" if k >= 8 else f"bust-{k}"


def bust_it(cards: list[str], h17: bool,
            reading: str = "removed") -> tuple[dict[str, Q], int]:
    """Probability of every Bust It outcome, from every ordered deal of the first cards.

    Also returns the most cards a paid (busted) dealer hand holds.
    """
    n = len(cards)
    base = _values(cards)
    result: dict[str, Q] = dict.fromkeys(
        [f"bust-{k}" for k in range(3, 8)] + ["bust-8+", "push", "lose"], Q(0))
    starts: Counter[tuple[tuple[int, ...], int, bool]] = Counter()
    longest = 0
    if reading == "removed":
        for p1, p2, up in permutations(range(n), 3):
            rest = list(base)
            for i in (p1, p2, up):
                rest[bj_value(cards[i]) - 1] -= 1
            bj = {bj_value(cards[p1]), bj_value(cards[p2])} == {1, 10}
            starts[(tuple(rest), bj_value(cards[up]), bj)] += 1
        deals = n * (n - 1) * (n - 2)
        for (rest_t, up_v, bj), count in starts.items():
            weight = Q(count, deals)
            if bj:
                result["push"] += weight
                continue
            for k, p in _dealer(rest_t, up_v, up_v == 1, 1, h17):
                result[_bucket(k)] += weight * p
                longest = max(longest, k)
    else:
        pairs = list(permutations(range(n), 2))
        p_bj = Q(sum(1 for a, b in pairs
                            if {bj_value(cards[a]), bj_value(cards[b])} == {1, 10}), len(pairs))
        result["push"] = p_bj
        for up in range(n):
            rest = list(base)
            rest[bj_value(cards[up]) - 1] -= 1
            up_v = bj_value(cards[up])
            for k, p in _dealer(tuple(rest), up_v, up_v == 1, 1, h17):
                result[_bucket(k)] += Q(1, n) * p * (1 - p_bj)
                longest = max(longest, k)
    result["lose"] = 1 - sum(result.values(), Q(0))
    return result, longest


# --- the bets of issue 25: own classifiers over physical cards ("Qh" = queen of hearts) ----

RED = "hd"


def perfect_pairs(hand: tuple[str, ...]) -> str:
    a, b = hand
    if a[0] != b[0]:
        return "lose"
    if a == b:
        return "perfect"
    return "coloured" if (a[1] in RED) == (b[1] in RED) else "mixed"


def royal_match(hand: tuple[str, ...]) -> str:
    a, b = hand
    if a[1] != b[1]:
        return "lose"
    ranks = sorted([rank_number(a), rank_number(b)])
    if ranks == [12, 13]:
        return "royal"
    if ranks == [1, 13]:
        return "suited-ak"
    if ranks[0] == 1 and ranks[1] >= 10:
        return "suited-blackjack"
    if ranks[0] == ranks[1]:
        return "suited-pair"
    if ranks[1] == ranks[0] + 1:
        return "suited-run"
    return "suited"


def over_under(hand: tuple[str, ...]) -> str:
    total = bj_value(hand[0]) + bj_value(hand[1])
    return "thirteen" if total == 13 else "under" if total < 13 else "over"


def bet_the_set(hand: tuple[str, ...]) -> str:
    a, b = hand
    return "lose" if a[0] != b[0] else "suited-pair" if a[1] == b[1] else "pair"


def classic(hand: tuple[str, ...]) -> str:
    event = poker3(hand, "standard")
    if event == "lose" and len({c[0] for c in hand}) < 3:
        return "pair"
    return event


def xtreme(hand: tuple[str, ...]) -> str:
    event = poker3(hand, "standard")
    return "jackpot" if event == "suited-trips" and hand[0][0] == "A" else event


def lucky_lucky(hand: tuple[str, ...]) -> str:
    suited = hand[0][1] == hand[1][1] == hand[2][1]
    ranks = sorted(c[0] for c in hand)
    prefix = "suited-" if suited else ""
    if ranks == ["7", "7", "7"]:
        return prefix + "777"
    if ranks == ["6", "7", "8"]:
        return prefix + "678"
    total = sum(bj_value(c) for c in hand)
    if "A" in ranks and total + 10 <= 21:
        total += 10
    if total == 21:
        return prefix + "21"
    return {19: "19", 20: "20"}.get(total, "lose")


def match_dealer(up: str, a: str, b: str) -> str:
    same = [c for c in (a, b) if c[0] == up[0]]
    suited = sum(1 for c in same if c[1] == up[1])
    plain = len(same) - suited
    if suited == 2:
        return "two-suited"
    if suited and plain:
        return "suited-unsuited"
    if suited:
        return "suited"
    return {2: "two-unsuited", 1: "unsuited", 0: "lose"}[plain]


def super_sevens(first: tuple[str, ...]) -> str:
    a, b, c = first
    if a[0] != "7":
        return "lose"
    if b[0] != "7":
        return "7"
    if c[0] != "7":
        return "suited-77" if a[1] == b[1] else "77"
    return "suited-777" if a[1] == b[1] == c[1] else "777"


def new_hand_bets(cards: list[str]) -> dict[str, Counter[str]]:
    """Counts, in the package's units, of every 2- and 3-card bet from all ordered deals."""
    tallies: dict[str, Counter[str]] = {k: Counter() for k in (
        "perfect-pairs", "royal-match", "over-under-13", "bet-the-set", "21+3-classic",
        "21+3-xtreme", "lucky-lucky", "match-the-dealer", "super-sevens")}
    for a, b in permutations(cards, 2):
        for name, rule in (("perfect-pairs", perfect_pairs), ("royal-match", royal_match),
                           ("over-under-13", over_under), ("bet-the-set", bet_the_set)):
            tallies[name][rule((a, b))] += 1
    for deal in permutations(cards, 3):
        tallies["21+3-classic"][classic(deal)] += 1
        tallies["21+3-xtreme"][xtreme(deal)] += 1
        tallies["lucky-lucky"][lucky_lucky(deal)] += 1
        tallies["match-the-dealer"][match_dealer(*deal)] += 1  # first card the upcard
        tallies["super-sevens"][super_sevens(deal)] += 1
    orderings = {"perfect-pairs": 2, "royal-match": 2, "over-under-13": 2, "bet-the-set": 2,
                 "21+3-classic": 6, "21+3-xtreme": 6, "lucky-lucky": 6,
                 "match-the-dealer": 2, "super-sevens": 1}  # the player's two: unordered
    out = {}
    for key, tally in tallies.items():
        assert all(n % orderings[key] == 0 for n in tally.values())
        out[key] = Counter({e: n // orderings[key] for e, n in tally.items()})
    return out


def _is_twenty(a: str, b: str) -> bool:
    total = bj_value(a) + bj_value(b)
    return total == 20 or (total == 10 and "A" in (a[0], b[0]))


def lucky_ladies(a: str, b: str) -> str:
    if not _is_twenty(a, b):
        return "lose"
    if a == b:
        return "qh-pair" if a == "Qh" else "matched-20"
    return "suited-20" if a[1] == b[1] else "unsuited-20"


def kings_bounty(a: str, b: str) -> str:
    if not _is_twenty(a, b):
        return "lose"
    if a == b:
        return "ks-pair" if a == "Ks" else "suited-kings" if a[0] == "K" else "suited-qjt"
    if a[0] == b[0] == "K":
        return "unsuited-kings"
    return "suited-20" if a[1] == b[1] else "unsuited-20"


def twenty_bets(cards: list[str]) -> dict[str, Counter[str]]:
    """Ordered deals of the player's two cards and the dealer's two; the dealer's cards are
    dealt out one by one where they matter (the premium pairs), else multiplied in."""
    n = len(cards)
    out = {"lucky-ladies": Counter[str](), "kings-bounty": Counter[str]()}
    for i, j in permutations(range(n), 2):
        a, b = cards[i], cards[j]
        rest = [cards[k] for k in range(n) if k not in (i, j)]
        for name, rule, premium in (("lucky-ladies", lucky_ladies, "qh-pair"),
                                    ("kings-bounty", kings_bounty, "ks-pair")):
            event = rule(a, b)
            if event != premium:
                out[name][event] += (n - 2) * (n - 3)
                continue
            for up, hole in permutations(rest, 2):
                bj = {bj_value(up), bj_value(hole)} == {1, 10}
                out[name][f"{premium}-bj" if bj else premium] += 1
    return out


def buster(cards: list[str], h17: bool, reading: str = "removed") -> dict[str, Q]:
    """Buster Blackjack: the dealer's bust by cards, the 7- and 8+-card busts split by the
    player's blackjack; the dealer plays out whatever the player holds."""
    n = len(cards)
    base = _values(cards)
    result: dict[str, Q] = {}

    def add(event: str, p: Q) -> None:
        result[event] = result.get(event, Q(0)) + p

    if reading == "removed":
        starts: Counter[tuple[tuple[int, ...], int, bool]] = Counter()
        for p1, p2, up in permutations(range(n), 3):
            rest = list(base)
            for i in (p1, p2, up):
                rest[bj_value(cards[i]) - 1] -= 1
            bj = {bj_value(cards[p1]), bj_value(cards[p2])} == {1, 10}
            starts[(tuple(rest), bj_value(cards[up]), bj)] += 1
        weighted = [(rest_t, up_v, bj, Q(k, n * (n - 1) * (n - 2)))
                    for (rest_t, up_v, bj), k in starts.items()]
    else:
        pairs = list(permutations(range(n), 2))
        p_bj = Q(sum(1 for a, b in pairs
                            if {bj_value(cards[a]), bj_value(cards[b])} == {1, 10}), len(pairs))
        weighted = []
        for up in range(n):
            rest = list(base)
            rest[bj_value(cards[up]) - 1] -= 1
            for bj, p in ((True, p_bj), (False, 1 - p_bj)):
                weighted.append((tuple(rest), bj_value(cards[up]), bj, Q(1, n) * p))
    for rest_t, up_v, bj, weight in weighted:
        for k, p in _dealer(rest_t, up_v, up_v == 1, 1, h17):
            event = _bucket(k)
            add(event + ("-bj" if bj and k >= 7 else ""), weight * p)
    result["lose"] = 1 - sum(result.values(), Q(0))
    return result
