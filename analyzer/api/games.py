"""One resolver for a game, used by every API function and by the CLI's --game/--rules.

>>> resolve("charlie7")
(Rules('8D S17 DOA DAS SPL1 LS CH7 A21'), 'charlie7')
>>> resolve("charlie7 6D")
(Rules('6D S17 DOA DAS SPL1 LS CH7 A21'), 'charlie7 6D')
>>> resolve("charlie7 8D")  # tokens that change nothing: the game itself
(Rules('8D S17 DOA DAS SPL1 LS CH7 A21'), 'charlie7')
>>> resolve("6d s17 doa das spl3 ls")
(Rules('6D S17 DOA DAS SPL3 LS'), '6D S17 DOA DAS SPL3 LS')
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import cast

from analyzer.core.errors import RuleConflictError, RuleError, UsageError
from analyzer.core.numbers import shown
from analyzer.core.presets import (
    CLASSIC_GAMES,
    PRESETS,
    VARIANT_GAMES,
    game_base,
    game_rules,
    known_games,
)
from analyzer.core.rules import Rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe, parse_shoe
from analyzer.util.progress import ProgressCallback

Game = Rules | str  # a Rules, a spec, a game name, or a game name and tokens


def is_game_name(word: str) -> bool:
    """Whether ``word`` names a game (a seed preset, a classic table or a variant)."""
    return word in PRESETS or word in CLASSIC_GAMES or word in VARIANT_GAMES


def resolve(game: Game, spec: str = "") -> tuple[Rules, str]:
    """The rules of ``game`` and a name for titles.

    ``game`` is a :class:`Rules`, a spec (``"6D S17 DOA DAS SPL3 LS"``), a game
    name (``"charlie7"``) or a game name followed by tokens applied on top of
    it (``"charlie7 6D"``).  ``spec`` tokens apply on top of all that.  The name
    is the game's when one is named, with the tokens where they change its rules (a
    title must not call another rule set by the game's name), else the canonical spec.
    """
    if isinstance(game, Rules):
        rules = parse_spec(spec, base=game) if spec else game
        return rules, format_spec(rules)
    if not isinstance(game, str):
        raise RuleError(f"a game is a Rules, a spec or a game name, not {game!r}")
    words = game.split()
    if words and is_game_name(words[0]):
        tokens = " ".join([*words[1:], spec]).strip()
        rules = game_rules(words[0], tokens)
        return rules, words[0] if rules == game_base(words[0]) else f"{words[0]} {tokens}"
    if words and words[0] != words[0].lower() and is_game_name(words[0].lower()):
        # read as a rule token it would be "unknown rule token": say what it is
        raise RuleError(f"unknown game {words[0]!r}: games are named in lower case "
                        f"({words[0].lower()}, as bja rules list prints them)")
    try:
        rules = game_rules(None, " ".join([game, spec]).strip())
    except RuleError as err:  # the first word may have meant a game: say so, and list them
        if words and str(err) == f"unknown rule token {words[0]!r}" and words[0].islower():
            raise type(err)(f"unknown rule token or game {words[0]!r} (games: "
                            f"{known_games()})") from None
        raise
    return rules, format_spec(rules)


def describe(game: Game) -> list[str]:
    """Every rule of ``game`` in words, one line each (``bja rules show``'s lines), for any
    spec, not only a named game.

    >>> describe("1D H17 NDAS")[:2]
    ['1 deck', 'dealer hits soft 17']
    """
    from analyzer.core.rules import describe_rules

    return describe_rules(resolve(game)[0])


def cli_game(game: str | None, spec: str) -> str:
    """The one game string of the CLI's ``--game NAME`` and ``--rules TOKENS``.

    ``--game`` must be a game name (a spec there is an unknown game, as ever).
    """
    if game is None:
        return spec
    game_base(game)  # an unknown name: the error listing the known ones
    return f"{game} {spec}".strip()


def shoe_of(rules: Rules, shoe: Shoe | str | None) -> Shoe:
    """The shoe of a round: given (a :class:`Shoe` or its text), else the rules' full decks;
    a cut card at or past its end is refused."""
    if shoe is None:
        return rules.full_shoe()
    found = parse_shoe(shoe) if isinstance(shoe, str) else shoe
    if not isinstance(found, Shoe):
        raise UsageError(f"a shoe is a Shoe or its text (A:24,2:24,...), not {shoe!r}")
    if rules.cut_card >= found.total:
        raise RuleConflictError(f"CUT{rules.cut_card} with --shoe: the cut card must come "
                                f"before the end of the {found.total}-card shoe")
    return found


def jobs_of(jobs: int | None) -> int:
    """Processes to use: ``jobs``, else every core (the same default everywhere)."""
    from analyzer.core.limits import MAX_JOBS
    from analyzer.engine.analysis import checked_jobs

    return min(os.cpu_count() or 1, MAX_JOBS) if jobs is None else checked_jobs(jobs)


# The library's arguments checked as the CLI's parser checks its options: a value of the
# wrong type is one UsageError naming it, never a TypeError from deep inside, nor a
# string read as True ("no" is truthy).
def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be True or False, not {shown(value)}")
    return value


def text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{name} must be a string, not {shown(value)}")
    return value


def optional_text(value: object, name: str) -> str | None:
    return None if value is None else text(value, name)


def texts(values: object, name: str) -> tuple[str, ...]:
    """A sequence of strings (a lone string is refused: it would be read letter by letter)."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise UsageError(f"{name} must be a list of strings, not {shown(values)}")
    return tuple(text(v, f"each of {name}") for v in values)


def callback(value: object, name: str = "progress") -> ProgressCallback | None:
    if value is not None and not callable(value):
        raise UsageError(f"{name} must be a function or None, not {shown(value)}")
    return cast("ProgressCallback | None", value)


__all__ = ["Game", "callback", "cli_game", "describe", "flag", "is_game_name", "jobs_of",
           "optional_text", "resolve", "shoe_of", "text", "texts"]
