"""A query string as a ``bja`` command: the CLI's own parser and handlers, the same JSON.

``/api/ev?rules=6D+S17&exact=1`` becomes ``bja ev --rules "6D S17" --exact --json``:
each key an option (``no_cache`` or ``no-cache``: ``--no-cache``), a flag given as
``1``/``true``/``on``/``yes`` or left out, a repeated key a repeated option; ``bet``
(side bets), ``games`` (compare) and ``action``/``name`` (rules) are the positional
arguments.  The CLI's parser checks every value (a bad one: its one line, HTTP 400)
and the CLI's handler runs, so the answer is byte for byte what ``--json`` prints.
Options that name a file or a process the server does not own are refused (no path
from a request reaches the file system), and the work a request may ask for is
capped (:class:`WorkLimit`, HTTP 422) before it starts.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.api import ProgressCallback, resolve
from analyzer.cli.main import build_parser, output_text, parse_argv
from analyzer.core.errors import UsageError
from analyzer.core.numbers import parse_whole
from analyzer.core.rules import Rules
from analyzer.core.ruleset import INFINITE

# The commands of /api/<command>: every bja command that answers with JSON and reads
# no file (evaluate reads a chart file; build writes the repository).  certify runs
# as a job only: its answer is a folder of files.
COMMANDS = ("ev", "hand", "dealer", "chart", "distribution", "sidebet", "compare", "eor",
            "counts", "indices", "edge", "simulate", "rules")
JOB_COMMANDS = (*COMMANDS, "certify")
POSITIONALS = {"sidebet": ("bet",), "compare": ("games",), "rules": ("action", "name")}
REPEATED = frozenset({"games"})  # the positionals that take several values (one key each)
# Options a request may not set: files, folders, processes, output formats and help.
REFUSED = frozenset({"help", "version", "out", "paytable", "chart", "grid", "png", "meta",
                     "scheduler", "backend", "progress", "quiet", "no-progress", "json", "csv",
                     "markdown", "html", "format"})
TRUE = frozenset({"", "1", "true", "on", "yes"})
FALSE = frozenset({"0", "false", "off", "no"})

# Work one request may ask for (the library's own caps are far above: they guard a
# machine, these a shared server).
MAX_ROUNDS = 10**7  # simulate --rounds, certify --rounds
MAX_GRID_CELLS = 64  # compare: rule sets of a --vary grid
MAX_GAMES = 8  # compare: games explained side by side
MAX_LATTICE = 512  # compare: the rule sets an explanation values, over all its pairs
MAX_EXACT_LATTICE = 64  # the same in exact arithmetic (several seconds a rule set)
MAX_EDGE_STATES = 1_000  # edge --states
MAX_PROTECTION_SHOES = 100_000  # sidebet --protection --shoes (the counter's simulation)
MAX_PLAYED_ROUNDS = 10**6  # sidebet --played (Bust It's played reading, simulated)
MAX_EXACT_DECKS = 8  # --exact: shoes of up to 8 decks
MAX_OPTIMAL_DECKS = 2  # --split optimal: minutes per rule set past 2 decks
MAX_EXACT_DISTRIBUTION_HANDS = 2  # distribution --exact: minutes and GB past 2 hands a round
MAX_EXACT_SPLIT_SUB_SHOES = 1_000_000  # --split exact: about half a minute of sub-shoes
MAX_QUERY_CHARS = 8_192  # the whole query string


class TooLong(UsageError):
    """A request's options longer than a query may be (HTTP 413, as a long query string)."""


class WorkLimit(UsageError):
    """A request asks for more work than one request of the server may (HTTP 422)."""


@dataclass(frozen=True)
class Command:
    """A checked request: the command, its argv and the parsed arguments."""

    name: str
    argv: tuple[str, ...]
    args: argparse.Namespace


def _options(command: str) -> dict[str, argparse.Action]:
    """The command's options by name without dashes (argparse's own table: one source)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: dict[str, argparse.Action] = {}
    for action in sub.choices[command]._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                found[flag[2:]] = action
    return found


_OPTION_CACHE: dict[str, dict[str, argparse.Action]] = {}


def options_of(command: str) -> dict[str, argparse.Action]:
    if command not in _OPTION_CACHE:
        _OPTION_CACHE[command] = _options(command)
    return _OPTION_CACHE[command]


def to_argv(command: str, items: Sequence[tuple[str, str]]) -> list[str]:
    """The ``bja`` argv of ``/api/<command>?items`` (``--json`` added); bad keys refused."""
    if command not in JOB_COMMANDS:
        raise UsageError(f"unknown command {command!r} (use {', '.join(JOB_COMMANDS)})")
    options = options_of(command)
    positional: list[str] = []
    argv = [command]
    seen: set[str] = set()
    for raw_key, value in items:
        key = raw_key.strip().replace("_", "-")
        if key in POSITIONALS.get(command, ()):
            if key in seen and key not in REPEATED:
                raise UsageError(f"{raw_key!r} is given twice (it takes one value)")
            seen.add(key)
            positional.append(value)
            continue
        if key in REFUSED:
            raise UsageError(f"option {raw_key!r} is not available over HTTP (files, "
                             "processes and output formats are the server's)")
        action = options.get(key)
        if action is None:
            raise UsageError(f"unknown option {raw_key!r} of bja {command}")
        if key in seen and not isinstance(action, argparse._AppendAction):
            raise UsageError(f"option {raw_key!r} is given twice (it takes one value)")
        seen.add(key)
        if action.nargs == 0:  # a flag
            word = value.strip().lower()
            if word in TRUE:
                argv.append(f"--{key}")
            elif word not in FALSE:
                raise UsageError(f"option {raw_key!r} is a switch: 1 or 0, not {value!r}")
            continue
        argv.append(f"--{key}={value}")  # "=": a value starting with "-" stays a value
    if command == "rules" and len(positional) > 2:
        raise UsageError("rules takes an action and at most one name")
    if command != "certify":
        argv.append("--json")
    if positional:  # "--": a positional value is a value even when it starts with "-"
        argv.append("--")
    return argv + positional


def check(command: str, items: Sequence[tuple[str, str]], *, max_jobs: int) -> Command:
    """The request parsed by the CLI's parser and its work checked against the limits."""
    if sum(len(k) + len(v) + 2 for k, v in items) > MAX_QUERY_CHARS:
        raise TooLong(f"the query holds more than {MAX_QUERY_CHARS:,} characters")
    argv = to_argv(command, items)
    args = parse_argv(argv)
    _refused_unset(command, args)
    _limits(command, args, max_jobs)
    return Command(command, tuple(argv), args)


def _refused_unset(command: str, args: argparse.Namespace) -> None:
    """Every refused option still at its default, whatever the request's text: a second
    lock behind :func:`to_argv`'s, on what the parser actually set."""
    options = options_of(command)
    ours = {options["json"].dest} if "json" in options else set()  # the server sets it
    for key, action in options.items():
        if (key in REFUSED and action.dest not in ours
                and getattr(args, action.dest, action.default) != action.default):
            raise UsageError(f"option {key!r} is not available over HTTP (files, "
                             "processes and output formats are the server's)")


def _number(value: object, what: str) -> int | None:
    """A whole number the CLI left as text (``"1e6"``); the handler checks it again."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip().lower()
    if len(text) > 40:
        raise UsageError(f"{what} {text[:20]!r}... is not a number of at most 40 characters")
    try:  # read as the handlers read it: "1e8" and "100000000.0" are 10^8 to both
        return min(parse_whole(text, what, UsageError, minimum=None, scientific=True), 10**30)
    except UsageError:
        return None  # not a whole number: the handler names it


def _limits(command: str, args: argparse.Namespace, max_jobs: int) -> None:
    """Refuse work past one request's share of the server, before any of it starts."""
    rounds = _number(getattr(args, "rounds", None), "rounds")
    if rounds is not None and rounds > MAX_ROUNDS:
        raise WorkLimit(f"rounds {rounds:,} is above this server's limit of {MAX_ROUNDS:,} "
                        "rounds per request")
    jobs = _number(getattr(args, "jobs", None), "jobs")
    if jobs is not None and jobs > max_jobs:
        raise WorkLimit(f"jobs {jobs} is above this server's limit of {max_jobs} processes "
                        "per request")
    if command == "sidebet":
        for name, cap, what in (("shoes", MAX_PROTECTION_SHOES, "shoes"),
                                ("played", MAX_PLAYED_ROUNDS, "played rounds")):
            value = _number(getattr(args, name, None), name)
            if value is not None and value > cap:
                raise WorkLimit(f"{name} {value:,} is above this server's limit of {cap:,} "
                                f"{what} per request")
    states = _number(getattr(args, "states", None), "states")
    if command == "edge" and states is not None and states > MAX_EDGE_STATES:
        raise WorkLimit(f"states {states:,} is above this server's limit of "
                        f"{MAX_EDGE_STATES:,} shoe states per request")
    if command == "compare":
        cells = 1
        for axis in args.vary:
            cells *= max(1, len(axis.split("|")))
            if cells > MAX_GRID_CELLS:
                raise WorkLimit(f"the grid has more than {MAX_GRID_CELLS} rule sets: this "
                                f"server's limit of {MAX_GRID_CELLS} cells per request")
        if len(args.games) > MAX_GAMES:
            raise WorkLimit(f"{len(args.games)} games: this server's limit is {MAX_GAMES} "
                            "games per comparison")
        rules = [resolve(name)[0] for name in args.games]  # a bad one refused now
        if len(rules) > 1:  # explained pair by pair: 2^players rule sets each
            from analyzer.comparisons.explain import players_between

            players = _number(getattr(args, "max_players", None), "max_players") or 0
            # past max_players the rules are ranked by their single-change effects first
            # (2 + 2n more rule sets), then merged (explain._merge)
            lattice = sum(2 ** n if n <= players else 2 ** players + 2 + 2 * n
                          for n in (len(players_between(a, b))
                                    for a, b in zip(rules, rules[1:], strict=False)))
            cap = MAX_EXACT_LATTICE if getattr(args, "exact", False) else MAX_LATTICE
            if lattice > cap:
                how = " in exact arithmetic" if cap < MAX_LATTICE else ""
                raise WorkLimit(f"explaining these games values {lattice:,} rule sets: this "
                                f"server's limit is {cap}{how} per request (fewer games, or "
                                "a lower max_players)")
    if command != "compare" and (getattr(args, "rules", None) or getattr(args, "game", None)):
        _named_rules(command, args)  # a bad rule set refused now, not by a job failing later
    for value in getattr(args, "count", None) or ():
        if isinstance(value, str) and (value.strip().lower().endswith(".toml")
                                       or any(c in value for c in "/\\")):
            raise UsageError(f"count system {value!r}: a count file is not available over "
                             "HTTP (use a built-in system)")
    _deck_limits(command, args)


def _named_rules(command: str, args: argparse.Namespace) -> list[Rules]:
    """Every rule set the request names: its game or rules, and for ``compare`` each cell
    of its grid and each game it explains (a cap checked on one would let the others by)."""
    game = getattr(args, "rules", None) or getattr(args, "base", None) or ""
    if getattr(args, "game", None):
        game = f"{args.game} {game}".strip()
    found: list[Rules] = []
    if game or command != "compare":
        found.append(resolve(game)[0])
    if command == "compare":
        from analyzer.comparisons.variants import parse_axis, product_variants

        if found and args.vary:
            axes = [parse_axis(axis, found[0]) for axis in args.vary]
            found += [v.rules for v in product_variants(found[0], axes) if v.rules is not None]
        if found and args.effects:  # every single-rule change is a rule set analysed too
            from analyzer.comparisons.effects import effect_variants

            found += [v.rules for v in effect_variants(found[0]) if v.rules is not None]
        found += [resolve(name)[0] for name in args.games]
    return found


def _deck_limits(command: str, args: argparse.Namespace) -> None:
    exact = bool(getattr(args, "exact", False)) or (
        command == "certify" and not getattr(args, "float", False))
    optimal = getattr(args, "split", None) == "optimal"
    if getattr(args, "split", None) == "exact":
        _exact_split_limit(command, args)
    if not (exact or optimal) or command not in ("ev", "hand", "dealer", "distribution",
                                                   "eor", "compare", "certify"):
        return
    for rules in _named_rules(command, args):
        if rules.decks == INFINITE:  # a recursion over totals: quick in exact mode too
            continue
        decks = rules.deck_count
        shoe = getattr(args, "shoe", None)
        if shoe:
            from analyzer.api.games import shoe_of

            decks = math.ceil(shoe_of(rules, shoe).total / 52)
        if exact and decks > MAX_EXACT_DECKS:
            raise WorkLimit(f"exact mode with {decks} decks: this server's limit is "
                            f"{MAX_EXACT_DECKS} decks in exact mode")
        if (exact and command == "distribution"
                and rules.max_hands > MAX_EXACT_DISTRIBUTION_HANDS):
            raise WorkLimit(f"an exact distribution of a game that resplits (up to "
                            f"{rules.max_hands} hands a round) takes minutes and gigabytes "
                            "on any shoe: this server gives it in floats (without exact); "
                            "the CLI gives it exactly")
        if optimal and decks > MAX_OPTIMAL_DECKS:
            raise WorkLimit(f"split=optimal with {decks} decks: this server's limit is "
                            f"{MAX_OPTIMAL_DECKS} decks for optimal splitting")
        if optimal and rules.max_hands > 2:
            raise WorkLimit(f"split=optimal with resplits (up to {rules.max_hands} hands): "
                            "minutes and gigabytes per pair and upcard; this server splits "
                            "optimally where one split is allowed")


def _exact_split_limit(command: str, args: argparse.Namespace) -> None:
    """``split=exact`` enumerates every sub-shoe of the shoe: minutes past a million."""
    from analyzer.api.games import shoe_of
    from analyzer.oracle.exact_dealer import sub_shoes

    for rules in _named_rules(command, args):
        if rules.decks == INFINITE:
            continue  # refused by the engine in one line
        counts = shoe_of(rules, getattr(args, "shoe", None)).counts
        visited = sub_shoes(counts)
        if visited > MAX_EXACT_SPLIT_SUB_SHOES:
            raise WorkLimit(f"split=exact on a {sum(counts)}-card shoe enumerates "
                            f"{visited:,} sub-shoes: this server's limit is "
                            f"{MAX_EXACT_SPLIT_SUB_SHOES:,} (a shoe of about 30 cards)")


def run(cmd: Command, progress: ProgressCallback | None, *, jobs: int) -> str:
    """The command's ``--json`` output, as the CLI prints it.

    Commands that fork worker processes run with ``jobs`` of them unless the request
    says (the figures do not depend on it); a simulation keeps the CLI's default,
    since its rounds are dealt per job.
    """
    args = argparse.Namespace(**vars(cmd.args))
    args.progress_callback = progress
    args.quiet = True
    if hasattr(args, "jobs") and args.jobs is None and cmd.name != "simulate":
        args.jobs = jobs if cmd.name not in ("eor", "counts", "indices", "edge") else str(jobs)
    out = args.func(args)
    if isinstance(out, int):  # compare: every row failed (the rows said why)
        raise UsageError("every row of the comparison failed")
    return output_text(out)


def repeatable(cmd: Command) -> bool:
    """Whether the answer is a function of the argv alone, so it may be served again: not a
    simulation (fresh seeds, timings) nor a request that asked to bypass the memo."""
    return cmd.name != "simulate" and "--no-cache" not in cmd.argv


def certificate(cmd: Command, folder: str, progress: ProgressCallback | None) -> None:
    """Write the certificate of a checked ``certify`` request into ``folder``."""
    from pathlib import Path

    from analyzer.cli.certify import certificate as write

    result = write(cmd.args, Path(folder), progress)
    if result.no_pdf is not None and not cmd.args.no_pdf:
        raise UsageError(result.no_pdf)


def default_jobs() -> int:
    return os.cpu_count() or 1


__all__ = ["COMMANDS", "JOB_COMMANDS", "MAX_EDGE_STATES", "MAX_EXACT_DECKS", "MAX_GRID_CELLS",
           "MAX_QUERY_CHARS", "MAX_ROUNDS", "Command", "TooLong", "WorkLimit",
           "certificate", "check", "repeatable", "run", "to_argv"]
