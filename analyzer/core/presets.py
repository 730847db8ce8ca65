"""Named rule sets: the four seed games, as ``docs/games.md`` reads their rule texts.

Every reading marked *assumed* there is a rule switch here, listed with the
preset, so a user can flip it (``--game privilege --rules 8D``) and see its cost.
The rule texts themselves are the operators' published pages, named by ``source``;
they are not shipped, so every output cites ``docs/games.md`` (:data:`READINGS`),
which states each reading in the project's own words.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.errors import RuleError
from analyzer.core.rules import Rules, format_spec, parse_spec

READINGS = "docs/games.md"  # where the readings of every named game are written out


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    spec: str
    source: str  # the operator's published rule text the readings are of (not shipped)
    assumptions: tuple[str, ...]
    published_rtp: str | None = None
    sidebets: tuple[str, ...] = ()  # side bets offered with the game (analyzer.sidebets)

    @property
    def rules(self) -> Rules:
        return parse_spec(self.spec)


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset(
        name="charlie7", title="Blackjack Charlie 7",
        spec="8D S17 DOA DAS SPL1 LS CH7 A21",
        source='the operator\'s online rules page for "BlackJack Charlie7" (last updated '
               '17 August 2020)',
        assumptions=(
            "8 decks shuffled before every round, so the full-shoe EV is the RTP",
            "a dealer blackjack (peeked with A or ten up) takes only the original bet",
            "any two ten-valued cards are a pair (K-Q splits); one split per hand",
            "split aces get one card each and may not double",
            "late surrender on the first two cards, also against an ace, not after a split",
            "a 7-card Charlie wins 1:1 automatically; no hand holds more than 7 cards",
            "a hand of 21 stands automatically (no hitting a soft 21)",
            "insurance is a separate decision, reported on its own",
        ),
        published_rtp="99.62%",
    ),
    Preset(
        name="free-bet", title="Free Bet Blackjack",
        spec="8D S17 DOA NDAS SPL1 NS PEEKA CH6 CHBJ A21 P22 FD9-11 FSA-9",
        source='the live-dealer game\'s rules page ("Free Bet Blackjack", with its side bets '
               'Any Pair, 21+3, Hot 3 and Bust It)',
        assumptions=(
            "8 decks reshuffled every round (full-shoe EV)",
            "the dealer peeks only with an ace up; with a ten up a dealer blackjack shows at "
            "the end and takes all the money the player paid (original bet, paid double, paid "
            "split) - assumed; the other reading, the original bet only (OBO), is refused "
            "here: when a split Charlie beats the blackjack it is unsettled which hand pays "
            "the original bet; free bets cost nothing",
            "free double on two-card hard 9, 10, 11 of the unsplit hand; paid double otherwise",
            "free split of pairs A-9 (one split only); ten-valued pairs split for a paid bet",
            "the free split hand is played for its own payoff (win 1, else 0)",
            "no double after split; split aces one card each",
            "a 6-card Charlie wins 1:1, also against dealer 22 and an unpeeked blackjack",
            "a dealer 22 pushes every live hand except blackjack (paid 3:2) and Charlie",
            "a soft 21 stands automatically; no surrender",
        ),
        sidebets=("21+3", "hot3", "any-pair", "bust-it"),
    ),
    Preset(
        name="privilege", title="Privilege Blackjack",
        spec="6D S17 DOA DAS SPL3 LS SPR NSA SNA INSNS",
        source="the Privilege Casino's online blackjack rules",
        assumptions=(
            "number of decks not stated: 6 assumed (a switch: e.g. --rules 8D)",
            "blackjack pays 3:2 - assumed (the text gives no payout; BJ6:5 is the switch)",
            "pairs split only when of the same rank (two cards of the same type); "
            "ten-valued ranks assumed evenly spread in the shoe",
            "resplit up to 4 hands; aces cannot be split; double after splits",
            "late surrender, first two cards only, not against an ace",
            "an insured hand may not be split (matters only to a player who insures)",
        ),
    ),
    Preset(
        name="four-jacks", title="Four Jacks Blackjack",
        spec="2D S17 DOA NDAS SPL2 NS SPR CUT52",
        source='"The 4 Jacks Casino", Rules for Blackjack',
        assumptions=(
            "2 decks reshuffled after half the cards (52) are dealt: the RTP as dealt differs "
            "from the full-shoe EV by the cut-card effect; exact figures are full-shoe EVs "
            "(every round off a full shoe), the RTP as dealt is estimated by simulation "
            "(bja certify, bja simulate)",
            "the dealer peeks with an ace or a ten up - assumed (not stated)",
            "split equal value but not mixed tens (two jacks split, J-K not); up to 3 hands",
            "split aces one card each; resplitting aces not allowed - assumed (RSA switch)",
            "no double after split; no surrender",
        ),
    ),
)}


# Common casino rule sets analysed beside the seed games (reports, charts).
CLASSIC_GAMES: dict[str, str] = {
    "6d-s17-das-ls": "6D S17 DOA DAS SPL3 LS",
    "6d-h17-das": "6D H17 DOA DAS SPL3 NS",
    "8d-s17-das": "8D S17 DOA DAS SPL3 NS",
    "2d-h17-das": "2D H17 DOA DAS SPL3 NS",
    "1d-h17-ndas": "1D H17 DOA NDAS SPL1 NS",
    "1d-h17-bj65": "1D H17 DOA NDAS SPL1 NS BJ6:5",
    "6d-s17-enhc": "6D S17 DOA DAS SPL3 NS ENHC",
}


# Spanish 21 as docs/games.md reads it: named rule sets analysed on request (ev, hand,
# chart, compare, the studies, simulate, certify).
SPANISH21 = ("6D SP H17 DOA DAN DDR DAS SPL3 RSA HSA LS BJW P21W B5C=3:2 B6C=2:1 B7C=3:1 "
             "B678=3:2/2:1/3:1 B777=3:2/2:1/3:1 BND")
VARIANT_GAMES: dict[str, str] = {
    "spanish21": SPANISH21,
    "spanish21-s17": SPANISH21.replace("H17", "S17"),
}
# The variants bja build writes beside the classic tables: report, chart, rule effects,
# shoe state and certificate (the seed games' outputs; the classic tables have a report
# and a chart).
BUILT_VARIANTS: tuple[str, ...] = ("spanish21",)


def get_preset(name: str) -> Preset:
    """The preset called ``name``; an error listing the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(f"unknown game {name!r} (known: {', '.join(PRESETS)})") from None


def all_games() -> dict[str, Rules]:
    """Every game ``bja build`` writes: the seed presets, the classic tables, then the
    variants it builds (:data:`BUILT_VARIANTS`)."""
    games = {name: preset.rules for name, preset in PRESETS.items()}
    games.update({name: parse_spec(spec) for name, spec in CLASSIC_GAMES.items()})
    games.update({name: parse_spec(VARIANT_GAMES[name]) for name in BUILT_VARIANTS})
    return games


def game_base(name: str) -> Rules:
    """The rules of a named game: a seed preset, a classic table or a variant."""
    if name in CLASSIC_GAMES:
        return parse_spec(CLASSIC_GAMES[name])
    if name in VARIANT_GAMES:
        return parse_spec(VARIANT_GAMES[name])
    if name in PRESETS:
        return PRESETS[name].rules
    raise RuleError(f"unknown game {name!r} (known: {known_games()})")


def known_games() -> str:
    """Every game's name, as an error lists them."""
    return ", ".join([*PRESETS, *CLASSIC_GAMES, *VARIANT_GAMES])


def game_rules(game: str | None, spec: str = "") -> Rules:
    """Rules of a named game with ``spec`` tokens applied on top, or of ``spec`` alone."""
    if game is None:
        return parse_spec(spec)
    return parse_spec(spec, base=game_base(game))


def resolve_game(game: str | None, spec: str = "") -> tuple[Rules, str]:
    """:func:`game_rules` and a name for titles: the game's, or the canonical spec."""
    rules = game_rules(game, spec)
    return rules, game if game else format_spec(rules)
