"""Studies of many rule sets or shoes: comparisons, side bets, shoe states, simulation.

>>> import analyzer
>>> sheet = analyzer.sidebet("21+3", decks=1)
>>> sheet
<Side bet 21+3 (seed), 1 deck (52 cards): RTP 81.791855%>
>>> list(sheet.to_frame().columns)
['event', 'label', 'pays', 'combinations', 'probability', 'return']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from analyzer.api.games import (
    Game,
    callback,
    flag,
    is_game_name,
    jobs_of,
    optional_text,
    resolve,
    text,
    texts,
)
from analyzer.api.result import CARD_ORDER, Result, Row, plain
from analyzer.core.cards import format_value
from analyzer.core.errors import (
    GridError,
    ImpossibleShoeError,
    PayTableError,
    RuleConflictError,
    SimulationError,
    UsageError,
)
from analyzer.core.levels import SplitLevel
from analyzer.core.numbers import shown
from analyzer.core.rules import Rules, format_spec
from analyzer.core.shoe import Shoe
from analyzer.util.progress import ProgressCallback, report

if TYPE_CHECKING:
    from analyzer.certificates.meta import Meta
    from analyzer.comparisons.model import Comparison
    from analyzer.shoestate.counts import CountSystem
    from analyzer.shoestate.edge import EdgeByCount
    from analyzer.shoestate.efficiency import EffectsModel, Efficiency
    from analyzer.shoestate.eor import EorTable
    from analyzer.shoestate.indices import IndexResult
    from analyzer.sidebets.solve import Solution
    from analyzer.sidebets.stats import ParSheet


# -- compare ------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class ComparisonResult(Result):
    """A grid, a rule-effects table or an explanation of games (``bja compare``).

    ``to_frame()``: one row per rule set: ``row`` (its label), ``rules`` (the spec),
    ``change`` (effects), ``error``, then the figures (``ev``, ``rtp``,
    ``delta_pp``, ... as in ``--csv``) and, for a grid, one column per axis
    (``axis1``, ``axis2``, ...: the alternative of that axis, ``-`` for the base).
    """

    comparison: Comparison
    axes: tuple[tuple[str, ...], ...] = ()  # a grid's axes: each row's alternatives

    def to_dict(self) -> dict[str, Any]:
        from analyzer.comparisons.render_json import render_json

        return plain(render_json(self.comparison))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.comparisons.render_text import render_text

        return render_text(self.comparison)

    def to_csv(self) -> str:
        from analyzer.comparisons.render_text import render_csv

        return render_csv(self.comparison)

    def to_markdown(self) -> str:
        from analyzer.comparisons.render_text import render_markdown

        return render_markdown(self.comparison)

    def to_html(self) -> str:
        from analyzer.comparisons.render_html import render_html

        return render_html(self.comparison)

    def to_png(self) -> bytes:
        from analyzer.comparisons.render_png import render_png

        return render_png(self.comparison)

    def frame_columns(self) -> tuple[str, ...]:
        from analyzer.comparisons.columns import numeric_columns

        width = max((len(a) for a in self.axes), default=0)
        return ("row", "rules", "change", "error",
                *[c.key for c in numeric_columns(self.comparison)],
                *[f"axis{i + 1}" for i in range(width)])

    def rows(self) -> list[Row]:
        from analyzer.comparisons.columns import label, numeric_columns

        c = self.comparison
        cols = numeric_columns(c)
        out = []
        for i, r in enumerate(c.rows):
            row: Row = {"row": label(c, r), "rules": r.rules, "change": r.change,
                        "error": r.error}
            row.update({col.key: col.get(r) for col in cols})
            if i < len(self.axes):
                row.update({f"axis{k + 1}": alt for k, alt in enumerate(self.axes[i])})
            out.append(plain(row))
        return out

    def _repr_html_(self) -> str:
        from analyzer.comparisons.render_html import _table

        return "\n".join(_table(self.comparison))

    def summary(self) -> str:
        c = self.comparison
        return f"Comparison ({c.mode}) of {c.base_name}: {len(c.rows)} rule sets"


def _explain_games(games: Sequence[Game]) -> list[tuple[str, Rules]]:
    """Each explain game as (name, rules): a Rules by its spec; a game name, a name and
    tokens (``"charlie7 6D"``) or a spec by itself as written."""
    out = []
    for g in games:
        if isinstance(g, Rules):
            out.append((format_spec(g), g))
        elif isinstance(g, str):
            out.append((" ".join(g.split()), resolve(g)[0]))
        else:
            raise GridError(f"a game to explain is a name, a spec or a Rules, not {g!r}")
    return out


def compare(base: Game | None = None, *, vary: Sequence[str] = (),
            grid: Path | str | None = None, effects: bool = False,
            games: Sequence[Game] = (), exact: bool = False, split: str = "cdz",
            levels: bool = False, charts: bool = True, max_players: int = 8,
            jobs: int | None = None, backend: str = "loky", scheduler: str | None = None,
            cache: bool = True, progress: ProgressCallback | None = None) -> ComparisonResult:
    """Compare rule sets: a grid, every single-rule change, or games explained (``bja compare``).

    One mode: ``base`` with ``vary`` axes, a ``grid`` file, ``base`` with
    ``effects=True``, or two or more ``games``.  A rule set that cannot be analysed is
    a row saying why, not an error (unless it is the base).

    Parameters
    ----------
    base : Rules or str, optional
        The base game (a Rules, a spec, a game name, or a name and tokens) of ``vary``
        and ``effects``; None with ``grid`` and ``games``.
    vary : sequence of str, default ()
        Axes on top of the base, each ``"A|B|..."`` (``"S17|H17"``); an alternative may
        hold several tokens (``"DAS RSA"``), ``-`` keeps the base.  Every cell is a row.
    grid : Path or str, optional
        A grid file (TOML, schema in :mod:`analyzer.comparisons.variants`) naming its own
        base and rows.
    effects : bool, default False
        Every single-rule change of ``base``, most favourable to the player first.
    games : sequence of Rules or str, default ()
        Explain mode: 2 to 32 game names, specs or Rules side by side, each difference
        from the previous game attributed rule by rule (Shapley).
    exact : bool, default False
        Exact rational arithmetic: EVs and differences as Fractions.
    split : str, default "cdz"
        Split play of the EV column: ``cdz``, ``cdp1``, ``cdp`` or ``optimal`` (minutes
        per rule set); ``exact`` is refused.
    levels : bool, default False
        Also a column for each other level of CDZ-, CDP1 and CDP.
    charts : bool, default True
        The basic-strategy chart's EV column (about half the work); False skips it.
    max_players : int, default 8
        Explain mode: at most this many rules (1 to 12) attributed one by one; more are
        merged into groups.  Not read in the other modes.
    jobs : int, optional
        Worker processes, 1 to 256 (default: every core).
    backend : str, default "loky"
        ``"loky"`` (processes here) or ``"dask"`` (a Dask cluster, needs ``scheduler``).
    scheduler : str, optional
        The Dask scheduler's address, ``[tcp://]HOST:PORT``; read with ``backend="dask"``.
    cache : bool, default True
        Serve and keep each rule set's figures in the on-disk memo.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as rule sets finish.

    Returns
    -------
    ComparisonResult
        One row per rule set: its spec, EV, difference from the base (chart EV, levels).

    Raises
    ------
    AnalyzerError
        A GridError for no mode or two, a bad axis, grid file or game; a UsageError for a
        bad option; a RuleConflictError when the base cannot be analysed.

    Examples
    --------
    >>> r = compare("1D S17 DOA DAS SPL1 NS", vary=["S17|H17"], charts=False, jobs=1)
    >>> r.to_frame()[["row", "axis1"]].values.tolist()
    [['S17', 'S17'], ['H17', 'H17']]
    """
    progress = callback(progress)
    from analyzer.comparisons import RunOptions, compare_effects, compare_explain, compare_grid
    from analyzer.comparisons.variants import load_grid, parse_axis, product_variants

    vary = texts(vary, "vary")
    if isinstance(games, str) or not isinstance(games, Sequence):
        raise GridError(f"games must be a list of games, specs or Rules, not {games!r}")
    if grid is not None and not isinstance(grid, (str, Path)):
        raise GridError(f"grid must be a file's path, not {grid!r}")
    effects, exact, levels = flag(effects, "effects"), flag(exact, "exact"), flag(levels, "levels")
    charts, cache = flag(charts, "charts"), flag(cache, "cache")
    options = RunOptions(exact=exact, charts=charts,
                         jobs=None if jobs is None else jobs_of(jobs),
                         backend=text(backend, "backend"),
                         scheduler=optional_text(scheduler, "scheduler"), use_cache=cache,
                         progress=progress,
                         split=SplitLevel(split) if split in [str(s) for s in SplitLevel]
                         else split,  # type: ignore[arg-type]  # RunOptions names a bad one
                         levels=levels)
    modes = [m for m, on in (("explain", bool(games)), ("effects", effects),
                             ("grid file", grid is not None), ("vary", bool(vary))) if on]
    if len(modes) != 1:
        raise GridError("give one of: two or more games/specs, --effects, --grid FILE, "
                        f"--vary (got {', '.join(modes) or 'none'})")
    from analyzer.comparisons.explain import MAX_PLAYERS, check_players

    check_players(max_players)
    if not games and max_players != MAX_PLAYERS:
        raise UsageError("--max-players goes with explain mode (two or more games)")
    if games:
        if base is not None:
            raise GridError("explain mode takes games/specs as arguments, not --base/--game")
        if len(games) < 2:
            raise GridError("explain mode needs two or more games or specs")
        return ComparisonResult(compare_explain(_explain_games(games), options,
                                                max_players=max_players))
    if grid is not None:
        if base is not None:
            raise GridError("--grid FILE names its own base; drop --base/--game")
        loaded = load_grid(Path(grid))
        return ComparisonResult(compare_grid(loaded.base, loaded.variants, options,
                                             base_name=loaded.base_name),
                                tuple(loaded.cells))
    if base is None:
        from analyzer.comparisons.variants import resolve_base

        resolve_base(None, None)  # the error naming what is missing
    rules, _name = resolve(base if base is not None else "")
    words = base.split() if isinstance(base, str) else []
    name = words[0] if len(words) == 1 and is_game_name(words[0]) else None
    if effects:
        return ComparisonResult(compare_effects(rules, options, base_name=name))
    axes = [parse_axis(axis, rules) for axis in vary]
    variants = product_variants(rules, axes)  # the number of cells checked first
    cells = tuple(tuple(cell) for cell in itertools.product(*axes))
    return ComparisonResult(compare_grid(rules, variants, options, base_name=name), cells)


# -- side bets ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class SidebetResult(Result):
    """A side bet's par sheet, or the pay of one event for a target RTP (``bja sidebet``).

    ``to_frame()``: one row per event: ``event``, ``label``, ``pays`` (to 1),
    ``combinations``, ``probability``, ``return``.
    """

    sheet: ParSheet
    solution: Solution | None = None
    columns = ("event", "label", "pays", "combinations", "probability", "return")

    @property
    def rtp(self) -> Fraction:
        return self.sheet.rtp

    def to_dict(self) -> dict[str, Any]:
        from analyzer.sidebets.render import sheet_data, solution_data

        if self.solution is not None:
            return plain(solution_data(self.sheet, self.solution))  # type: ignore[no-any-return]
        return plain(sheet_data(self.sheet))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.sidebets.render import render_solution_text, render_text

        if self.solution is not None:
            return render_solution_text(self.sheet, self.solution)
        return render_text(self.sheet)

    def to_markdown(self) -> str:
        from analyzer.sidebets.render import render_markdown

        return render_markdown(self.sheet)

    def to_csv(self) -> str:
        from analyzer.sidebets.render import render_csv

        return render_csv(self.sheet)

    def rows(self) -> list[Row]:
        return [{"event": e.name, "label": e.label,
                 "pays": e.pays.numerator if e.pays.denominator == 1 else float(e.pays),
                 "combinations": e.combinations, "probability": float(e.probability),
                 "return": float(e.ret)} for e in self.sheet.events]

    def summary(self) -> str:
        s = self.sheet
        if self.solution is not None:
            return f"Side bet {s.bet}, {s.shoe}: {self.solution.event} pays {self.solution.pay}"
        return f"Side bet {s.bet} ({s.paytable}), {s.shoe}: RTP {float(s.rtp):.6%}"


DEFAULT_SIDEBET_DECKS = 8  # the free-bet game's shoe


def sidebet(bet: str, *, decks: int | None = None, shoe: str | None = None,
            paytable: Path | str | None = None, preset: str | None = None,
            pays: str | None = None, straights: str | None = None,
            pair_by: Literal["rank", "value"] | None = None, h17: bool = False,
            reading: Literal["removed", "ignored"] | None = None, solve: str | None = None,
            target_rtp: str | float | Fraction | None = None, step: str | None = None,
            protection: bool = False, shoes: int | None = None, seed: int | None = None,
            played: int | None = None) -> SidebetResult:
    """The exact par sheet of a side bet (``bja sidebet``).

    Parameters
    ----------
    bet : str
        The bet: 21+3, hot3, any-pair, bust-it, perfect-pairs, lucky-ladies, royal-match,
        match-the-dealer, lucky-lucky, buster-blackjack, 21+3-xtreme, 21+3-classic,
        super-sevens, over-under-13, kings-bounty or bet-the-set.
    decks : int, optional
        Full 52-card decks, 1 to 1,000,000 (default 8); not with ``shoe``.
    shoe : str, optional
        Any shoe, card by card: ``"6decks-AS-KH*2"``, ``"6spanish"`` (48-card decks),
        ``"AS:2,7C:1"``; not with ``decks``.
    paytable : Path or str, optional
        ``"BET:NAME"`` for a shipped pay table (``"perfect-pairs:A"``), anything else a
        TOML file's path; not with ``preset``.
    preset : str, optional
        A shipped pay table of this bet by name (default: its usual one; see
        :func:`paytable_list`).
    pays : str, optional
        Single pays overridden, ``"EVENT=N,..."`` (``"flush=6"``), N to 1 as ``"8"``,
        ``"7.5"`` or ``"15/2"``.
    straights : str, optional
        21+3 only: ``standard`` (A-2-3 and Q-K-A, not K-A-2; the default), ``wrap``,
        ``ace-low``, ``ace-high``.  Like ``pair_by`` and ``reading``, it is refused for a
        bet that does not read it, even given at its default (``h17`` only when True).
    pair_by : {"rank", "value"}, optional
        Any Pair only: a pair is the same rank (the default), or the same blackjack
        value (K-Q).
    h17 : bool, default False
        Bust It and Buster Blackjack only: the dealer hits soft 17.
    reading : {"removed", "ignored"}, optional
        Bust It and Buster Blackjack only: the player's first two cards are removed from
        the shoe (the default), or ignored.
    solve : str, optional
        A paying event whose pay to find for ``target_rtp`` (the two go together); the
        result is that pay instead of the par sheet.
    target_rtp : str, float or Fraction, optional
        The RTP to solve for: ``"0.96"``, ``"24/25"`` or ``"96%"``; above 0, at most 1000.
    step : str, optional
        With ``solve``: practical pays are multiples of this (positive, default 1); the
        multiples either side of the exact pay are given with their RTPs.
    protection : bool, default False
        Add game protection: the effects of removal, the best counts and a simulated
        counter.  Not read when solving.
    shoes : int, optional
        With ``protection``: shoes the counter is dealt, 1 to 10,000,000 (default 20,000).
    seed : int, optional
        With ``protection`` or ``played``: the simulations' seed (default 2024).
    played : int, optional
        Bust It only: also its played reading (the player's hits dealt before the dealer
        draws), simulated over this many rounds, 1 to 100,000,000.

    Returns
    -------
    SidebetResult
        Every event's pays, combinations, probability and return, the RTP (or the pay).

    Raises
    ------
    AnalyzerError
        A PayTableError for a bad pay table, pays or target, or two sources given; a
        UsageError for an option the bet does not read or out of place; a ShoeError.

    Examples
    --------
    >>> r = sidebet("21+3", decks=1, solve="flush", target_rtp="0.95")
    >>> r.to_dict()["pay_exact"]
    '8399/1096'
    >>> sidebet("21+3", decks=1, pays="flush=6")
    <Side bet 21+3 (seed with flush=6), 1 deck (52 cards): RTP 86.751131%>
    """
    from analyzer.core.limits import MAX_PLAYED_ROUNDS, MAX_SIDEBET_SEED, MAX_SIDEBET_SHOES
    from analyzer.core.shoe import MAX_DECKS
    from analyzer.sidebets.bets import BetOptions, get_bet
    from analyzer.sidebets.build import report
    from analyzer.sidebets.paytable import override, parse_pay, select_paytable
    from analyzer.sidebets.paytable import preset as preset_table
    from analyzer.sidebets.protection import DEFAULT_SHOES, SEED
    from analyzer.sidebets.solve import parse_target, solve_pay
    from analyzer.sidebets.stats import par_sheet
    from analyzer.sidebets.suitshoe import SuitShoe, parse_suit_shoe

    found = get_bet(text(bet, "bet"))
    shoe, pays, preset = (optional_text(shoe, "shoe"), optional_text(pays, "pays"),
                          optional_text(preset, "preset"))
    solve = optional_text(solve, "solve")
    h17, protection = flag(h17, "h17"), flag(protection, "protection")
    for number, what, low, high in ((decks, "decks", 1, MAX_DECKS),
                                     (shoes, "shoes", 1, MAX_SIDEBET_SHOES),
                                     (seed, "seed", 0, MAX_SIDEBET_SEED),
                                     (played, "played", 1, MAX_PLAYED_ROUNDS)):
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or not low <= number <= high):
            raise UsageError(f"{what} must be a whole number {low:,} to {high:,}, "
                             f"not {shown(number)}")
    for word, what in ((straights, "straights"), (pair_by, "pair_by"), (reading, "reading"),
                       (step, "step")):
        optional_text(word, what)
    if paytable is not None and not isinstance(paytable, (str, Path)):
        raise PayTableError(f"paytable must be 'BET:NAME' or a file's path, not {paytable!r}")
    if decks is not None and shoe is not None:
        raise PayTableError("give decks or shoe, not both")
    if paytable is not None and preset is not None:
        raise PayTableError("give a preset or a pay table, not both")
    if shoes is not None and not protection:
        raise UsageError("--shoes goes with --protection")
    if seed is not None and not (protection or played):
        raise UsageError("--seed goes with --protection or --played")
    if played is not None and found.name != "bust-it":
        raise UsageError("--played is Bust It's third reading")
    if step is not None and solve is None:
        raise UsageError("--step goes with --solve")
    if solve is not None and (protection or played is not None):
        raise UsageError("--solve finds a pay: --protection and --played go without it")
    suits = parse_suit_shoe(shoe) if shoe is not None else SuitShoe.decks(
        DEFAULT_SIDEBET_DECKS if decks is None else decks)
    if protection and solve is None:  # the counter's deal sized before any work
        from analyzer.sidebets.protection import check_deal_size

        check_deal_size(suits.total, DEFAULT_SHOES if shoes is None else shoes)
    table = (select_paytable(found, str(paytable)) if paytable is not None
             else preset_table(found, preset))
    if pays:
        table = override(table, pays)
    given = {"straights": straights, "pair_by": pair_by, "hits_soft_17": h17 or None,
             "reading": reading}
    for option, flag_name in (("straights", "--straights"), ("pair_by", "--pair-by"),
                              ("hits_soft_17", "--h17"), ("reading", "--reading")):
        if option not in found.reads and given[option] is not None:
            raise UsageError(f"{flag_name} does not apply to {found.name} (its count does not "
                             "read it)")
    options = BetOptions(**{k: v for k, v in given.items()  # type: ignore[arg-type]
                            if v is not None})
    if (solve is None) != (target_rtp is None):
        raise PayTableError("--solve EVENT and --target-rtp RTP go together")
    try:
        outcomes = found.outcomes(suits, options, removals=protection and solve is None)
    except ImpossibleShoeError as err:
        if not (protection and solve is None):
            raise
        found.outcomes(suits, options)  # the shoe itself: its own refusal if it deals nothing
        raise ImpossibleShoeError(f"effects of removal need the {suits.total}-card shoe less "
                                  f"any one card to deal the bet: less one, {err}") from None
    if solve is not None:
        sheet = par_sheet(found, outcomes, table, suits.describe())  # the assumptions
        solution = solve_pay(found, outcomes, table, solve, parse_target(str(target_rtp)),
                             parse_pay("1" if step is None else step, "--step"))
        return SidebetResult(sheet, solution)
    return SidebetResult(report(found, suits, outcomes, table, options, protect=protection,
                                shoes=DEFAULT_SHOES if shoes is None else shoes,
                                seed=SEED if seed is None else seed,
                                played_rounds=0 if played is None else played))


@overload
def paytable_list(bet: str, *, as_data: Literal[False] = False) -> str: ...


@overload
def paytable_list(bet: str, *, as_data: Literal[True]) -> list[dict[str, Any]]: ...


def paytable_list(bet: str, *, as_data: bool = False) -> str | list[dict[str, Any]]:
    """The bet's shipped pay tables with their sources (``bja sidebet NAME --list-paytables``).

    Parameters
    ----------
    bet : str
        A side bet's name, as for :func:`sidebet`.
    as_data : bool, default False
        A list of dicts (``name``, ``title``, ``source``, ``pays``), as ``--json`` prints,
        instead of the text.

    Returns
    -------
    str or list of dict
        Every shipped table of the bet, the default first, with its source and pays.

    Raises
    ------
    AnalyzerError
        A RuleNotationError for an unknown bet, a UsageError for a ``bet`` not a string.

    Examples
    --------
    >>> paytable_list("21+3").splitlines()[0]
    '21+3:seed — free-bet game (seed)'
    >>> [t["name"] for t in paytable_list("perfect-pairs", as_data=True)]
    ['perfect-pairs:A', 'perfect-pairs:B', 'perfect-pairs:C', 'perfect-pairs:D']
    """
    from analyzer.sidebets.bets import get_bet
    from analyzer.sidebets.paytable import presets
    from analyzer.sidebets.render import paytables_data, render_paytables

    found = get_bet(text(bet, "bet"))
    if flag(as_data, "as_data"):
        return paytables_data(presets(found), found.paying)
    return render_paytables(presets(found), found.paying)


# -- shoe states --------------------------------------------------------------------------
def _decisions(texts: Sequence[str] | None, rules: Rules) -> list[Any]:
    """Parsed decisions; an error for one the rules never offer."""
    from analyzer.core.limits import MAX_DECISIONS
    from analyzer.shoestate.decisions import not_allowed, parse_decision

    if len(texts or []) > MAX_DECISIONS:
        raise UsageError(f"{len(texts or [])} --decision options; at most {MAX_DECISIONS} (each "
                         "is analysed on every shoe)")
    decisions = [parse_decision(t) for t in texts or []]
    for d in decisions:
        why = not_allowed(d, rules)
        if why:
            raise RuleConflictError(f"decision {d.key}: {why} under these rules")
    return decisions


@dataclass(frozen=True, repr=False)
class EorResult(Result):
    """Exact effects of removal on the game and on decisions (``bja eor``).

    ``to_frame()``: one row per card value removed (``card``: ``"A"``, ``"2"``..``"T"``),
    one column per figure: ``game EV`` then each decision's label (the change of that
    figure when one card of that value is removed; None where it cannot be).
    """

    table: EorTable
    name: str

    def to_dict(self) -> dict[str, Any]:
        from analyzer.shoestate.render_eor import eor_json

        return plain(eor_json(self.table, self.name))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.shoestate.render_eor import eor_text

        return eor_text(self.table, self.name)

    def to_markdown(self) -> str:
        from analyzer.shoestate.render_eor import eor_markdown

        return eor_markdown(self.table, self.name)

    def frame_columns(self) -> tuple[str, ...]:
        return ("card", self.table.game.name, *[d.name for d in self.table.decisions])

    def rows(self) -> list[Row]:
        figures = [self.table.game, *self.table.decisions]
        return [plain({"card": format_value(v),
                       **{f.name: None if f.eor.get(v) is None else float(f.eor[v])  # type: ignore[arg-type]
                          for f in figures}})
                for v in CARD_ORDER]

    def summary(self) -> str:
        return f"EOR {self.table.spec} ({self.table.strategy})"


def eor(game: Game, *, shoe: Shoe | str | None = None, decisions: Sequence[str] = (),
        strategy: str = "optimal", exact: bool = False, jobs: int | None = None,
        cache: bool = True, progress: ProgressCallback | None = None) -> EorResult:
    """Exact effects of removal of each card value on the game and on decisions (``bja eor``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    shoe : Shoe or str, optional
        The shoe cards are removed from (``"A:4,...,T:16"``); the rules' full decks by
        default.  Less one card it must still deal a round.
    decisions : sequence of str, default ()
        Up to 100 decisions, ``HANDvUP:FIRST-SECOND`` (``"16vT:stand-hit"``,
        ``"T,Tv6:split-stand"``) or ``"insurance"``; each valued EV(first) - EV(second).
    strategy : str, default "optimal"
        ``"optimal"`` (re-optimised on every shoe) or ``"fixed"`` (the full shoe's play,
        frozen: the EORs weighted by the cards then sum to exactly 0).
    exact : bool, default False
        Exact rational arithmetic (slow): the effects are Fractions.
    jobs : int, optional
        Worker processes, 1 to 256 (default: every core); the same figures.
    cache : bool, default True
        Serve and keep each shoe's analysis in the on-disk memo.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as shoes are analysed.

    Returns
    -------
    EorResult
        Per card value removed, the change of the game's EV and of each decision's value.

    Raises
    ------
    AnalyzerError
        A UsageError for an unknown strategy or a bad decision; a RuleConflictError for a
        decision these rules never offer; a ShoeError for a shoe too small.

    Examples
    --------
    >>> r = eor("1D S17 DOA NDAS SPL1 NS", jobs=1)
    >>> r.to_frame()["card"].tolist()
    ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T']
    """
    progress = callback(progress)
    from analyzer.core.shoe import parse_shoe
    from analyzer.shoestate.eor import effects_of_removal

    rules, name = resolve(game)
    if shoe is not None and not isinstance(shoe, (str, Shoe)):
        raise UsageError(f"shoe must be a Shoe or its text ('A:4,...,T:16'), not {shoe!r}")
    found = parse_shoe(shoe) if isinstance(shoe, str) else shoe
    decisions, exact, cache = texts(decisions, "decisions"), flag(exact, "exact"), flag(cache,
                                                                                    "cache")
    if strategy not in ("optimal", "fixed"):
        raise UsageError(f"unknown strategy {strategy!r} (use optimal or fixed)")
    table = effects_of_removal(rules, found, decisions=_decisions(decisions, rules),
                               strategy=strategy, exact=exact, jobs=jobs_of(jobs),
                               use_cache=cache, progress=progress)
    return EorResult(table, name)


@dataclass(frozen=True, repr=False)
class CountsResult(Result):
    """Betting correlation, playing efficiency and insurance correlation of count systems.

    ``to_frame()``: one row per count system (``system``, ``tags``, ``balanced``,
    ``betting_correlation``, ``playing_efficiency``, ``insurance_correlation``).
    """

    model: EffectsModel
    efficiencies: tuple[Efficiency, ...]
    name: str
    columns = ("system", "tags", "balanced", "betting_correlation", "playing_efficiency",
               "insurance_correlation")

    def to_dict(self) -> dict[str, Any]:
        from analyzer.shoestate.render_eor import efficiency_json

        return plain(efficiency_json(self.model, list(self.efficiencies),  # type: ignore[no-any-return]
                                     self.name))

    def to_text(self) -> str:
        from analyzer.shoestate.render_eor import efficiency_text

        return efficiency_text(self.model, list(self.efficiencies), self.name)

    def rows(self) -> list[Row]:
        from analyzer.shoestate.render_eor import efficiency_rows

        return [plain({k: v for k, v in r.items() if k != "published"})
                for r in efficiency_rows(list(self.efficiencies))]

    def summary(self) -> str:
        return f"Count systems for {self.name}: {len(self.efficiencies)}"


def counts(game: Game, *, systems: Sequence[str] = (), jobs: int | None = None,
           cache: bool = True, progress: ProgressCallback | None = None) -> CountsResult:
    """How well count systems track a game (``bja counts``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    systems : sequence of str, default ()
        Count systems by name (hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, wong-halves) or
        ``.toml`` file; empty: every built-in one.
    jobs : int, optional
        Worker processes, 1 to 256 (default: every core); the same figures.
    cache : bool, default True
        Serve and keep the effects of removal behind the figures in the on-disk memo.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as shoes are analysed.

    Returns
    -------
    CountsResult
        Each system's betting correlation, playing efficiency and insurance correlation.

    Raises
    ------
    AnalyzerError
        A CountError (a NotationError) for an unknown system or a bad ``.toml`` file.

    Examples
    --------
    >>> r = counts("1D H17 DOA NDAS NSPL NS", systems=["hi-lo"], jobs=1)
    >>> round(r.to_dict()["systems"][0]["betting_correlation"], 3)
    0.968
    """
    progress = callback(progress)
    from analyzer.shoestate.counts import SYSTEMS, get_system
    from analyzer.shoestate.efficiency import effects_model, efficiency

    rules, name = resolve(game)
    systems = texts(systems, "systems")
    chosen = [get_system(n) for n in systems] if systems else list(SYSTEMS.values())
    model = effects_model(rules, jobs=jobs_of(jobs), use_cache=flag(cache, "cache"),
                          progress=progress)
    return CountsResult(model, tuple(efficiency(model, s) for s in chosen), name)


@dataclass(frozen=True, repr=False)
class IndicesResult(Result):
    """The true counts at which decisions flip (``bja indices``).

    ``to_frame()``: one row per decision (``decision``, ``label``, ``index``,
    ``rising``, ``rule``, ``published``, ``comparison``).
    """

    results: tuple[IndexResult, ...]
    name: str
    spec: str
    count: CountSystem
    columns = ("decision", "label", "index", "rising", "rule", "published", "comparison")

    def to_dict(self) -> dict[str, Any]:
        from analyzer.shoestate.render_play import indices_json

        return plain(indices_json(list(self.results), self.name,  # type: ignore[no-any-return]
                                  self.spec, self.count))

    @property
    def system(self) -> str:
        """The count's name."""
        return self.count.name

    def to_text(self) -> str:
        from analyzer.shoestate.render_play import indices_text

        return indices_text(list(self.results), self.name, self.spec, self.count)

    def rows(self) -> list[Row]:
        return [{k: v for k, v in r.items() if k != "values"}
                for r in self.to_dict()["indices"]]

    def summary(self) -> str:
        return f"Indices ({self.system}) for {self.name}: {len(self.results)} decisions"


def indices(game: Game, *, count: str = "hi-lo", decisions: Sequence[str] = (),
            unseen: int | None = None, jobs: int | None = None, cache: bool = True,
            progress: ProgressCallback | None = None) -> IndicesResult:
    """Playing indices: the true count at which each decision flips (``bja indices``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    count : str, default "hi-lo"
        The count system, by name or ``.toml`` file (as for :func:`counts`).
    decisions : sequence of str, default ()
        Up to 100 decisions ``HANDvUP:FIRST-SECOND`` or ``"insurance"`` (as for
        :func:`eor`); empty: the Illustrious 18 and Fab 4 that the rules allow.
    unseen : int, optional
        Cards unseen at the decision, 13 to the shoe less 3 (default: half the shoe).
    jobs : int, optional
        Worker processes, 1 to 256 (default: every core); the same figures.
    cache : bool, default True
        Serve and keep each shoe's analysis in the on-disk memo.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as shoes are analysed.

    Returns
    -------
    IndicesResult
        Each decision's index, its rule in words and the published index beside it.

    Raises
    ------
    AnalyzerError
        A CountError for an unknown count; a UsageError for a bad decision or ``unseen``;
        a RuleConflictError for a decision these rules never offer.

    Examples
    --------
    >>> r = indices("1D H17 DOA NDAS NSPL NS", decisions=["16vT:stand-hit"], jobs=1)
    >>> r.to_dict()["indices"][0]["rule"]
    'stand at TC >= +2.07 (else hit)'
    """
    progress = callback(progress)
    from analyzer.shoestate.counts import get_system
    from analyzer.shoestate.decisions import not_allowed, parse_decision
    from analyzer.shoestate.indices import playing_indices
    from analyzer.shoestate.published import ILLUSTRIOUS_18_FAB_4

    rules, name = resolve(game)
    system = get_system(text(count, "count"))
    decisions = texts(decisions, "decisions")
    if decisions:
        chosen = _decisions(decisions, rules)
    else:
        chosen = [d for p in ILLUSTRIOUS_18_FAB_4
                  if not_allowed(d := parse_decision(p.decision), rules) is None]
    results = playing_indices(rules, system, chosen, unseen=unseen, jobs=jobs_of(jobs),
                              use_cache=flag(cache, "cache"), progress=progress)
    return IndicesResult(tuple(results), name, format_spec(rules), system)


@dataclass(frozen=True, repr=False)
class EdgeResult(Result):
    """The edge by true count of a re-optimising player (``bja edge``).

    ``to_frame()``: one row per true count: ``true_count``, ``share``, ``share_se``,
    ``states``, ``edge``, ``edge_se``.
    """

    model: EdgeByCount
    name: str
    columns = ("true_count", "share", "share_se", "states", "edge", "edge_se")

    def to_dict(self) -> dict[str, Any]:
        from analyzer.shoestate.render_play import edge_json

        return plain(edge_json(self.model, self.name))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.shoestate.render_play import edge_text

        return edge_text(self.model, self.name)

    def to_png(self) -> bytes:
        from analyzer.shoestate.plot import edge_png

        return edge_png(self.model, f"{self.name}: edge by true count")

    def rows(self) -> list[Row]:
        return list(self.to_dict()["bins"])

    def summary(self) -> str:
        return f"Edge by count ({self.model.system}) for {self.name}: {len(self.model.bins)} bins"


def edge(game: Game, *, count: str = "hi-lo", states: int = 200, samples: int = 100_000,
         seed: int = 1, cut: int | None = None, jobs: int | None = None, cache: bool = True,
         progress: ProgressCallback | None = None) -> EdgeResult:
    """The edge by true count: sampled shoe states analysed exactly (``bja edge``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    count : str, default "hi-lo"
        The count system, by name or ``.toml`` file (as for :func:`counts`).
    states : int, default 200
        Shoe states dealt before the cut card and analysed exactly, 2 to 10,000.
    samples : int, default 100_000
        Count-only states for the true-count distribution, 2 to 1,000,000.
    seed : int, default 1
        The seed of both samplings, 0 to 2**128 - 1.
    cut : int, optional
        Cards dealt before the reshuffle (default: the game's CUT token); one of the two
        is needed, and a round dealt past it must not run out of cards.
    jobs : int, optional
        Worker processes, 1 to 256 (default: every core); the same figures.
    cache : bool, default True
        Serve and keep each state's analysis in the on-disk memo.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as states are analysed.

    Returns
    -------
    EdgeResult
        Per true count: its share of rounds and the mean edge of the states there.

    Raises
    ------
    AnalyzerError
        A RuleConflictError with no cut card; a UsageError for a number out of range.

    Examples
    --------
    >>> r = edge("1D H17 DOA NDAS NSPL NS", cut=26, states=2, samples=100, jobs=1)
    >>> d = r.to_dict()
    >>> d["cut_card"], d["cut_card_assumed"], round(d["full_ev"], 6)
    (26, True, -0.005223)
    """
    progress = callback(progress)
    from analyzer.core.limits import MAX_SEED
    from analyzer.shoestate.counts import get_system
    from analyzer.shoestate.edge import edge_by_count

    rules, name = resolve(game)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed must be a whole number 0 to 2**128 - 1, not {seed!r}")
    model = edge_by_count(rules, get_system(text(count, "count")), states=states,
                          count_samples=samples,
                          seed=seed, cut=cut, jobs=jobs_of(jobs),
                          use_cache=flag(cache, "cache"),
                          progress=progress)
    return EdgeResult(model, name)


# -- simulation ---------------------------------------------------------------------------
def _sim_text(game: str, out: dict[str, Any]) -> str:
    pct = 100.0
    lines = [
        f"Monte Carlo simulation: {game}",
        f"rules         {out['rules']}",
        f"strategy      {out['strategy']}",
        f"rounds        {out['rounds']:,} (seed {out['seed']}, {out['jobs']} "
        f"job{'s' if out['jobs'] > 1 else ''})"
        + (f", reshuffled after {out['cut_card']} cards" if out["cut_card"] else
           ", every round from a freshly shuffled shoe"),
        f"EV            {out['mean']:+.5f} ± {out['se']:.5f} per initial bet (1 SE)  "
        f"= {out['mean'] * pct:+.3f}% ± {out['se'] * pct:.3f}%",
        f"RTP           {out['rtp'] * pct:.3f}%",
        f"SD per round  {out['sd']:.4f}",
    ]
    if "rounds_per_second" in out:
        lines.append(f"speed         {out['rounds_per_second']:,.0f} rounds/s "
                     f"({out['seconds']:.1f} s wall; {out['rounds_per_cpu_second']:,.0f} "
                     "rounds per CPU second)")
    if "exact_ev" in out:
        lines += [
            f"exact EV      {out['exact_ev']:+.5f}  = {out['exact_ev'] * pct:+.3f}% "
            "(full shoe, shuffled every round)",
            f"difference    {out['difference']:+.5f} = {out['difference_se']:+.2f} SE",
        ]
        if out["cut_card"]:
            lines.append(f"note: the shoe is reshuffled after {out['cut_card']} cards; the "
                         "difference estimates the cut-card effect (plus noise)")
    return "\n".join(lines)


def _counter_text(game: str, out: dict[str, Any]) -> str:
    lo, hi = out["spread"]
    lines = [
        f"Hi-Lo counter, bet spread {lo}-{hi}: {game}",
        f"rules         {out['rules']}",
        f"strategy      {out['strategy']}; no index plays, no insurance",
        f"ramp          bet = min({hi}, max({lo}, floor(true count))) units; true count = "
        "running count / (cards left / 52)",
        f"rounds        {out['rounds']:,} (seed {out['seed']}, {out['jobs']} "
        f"job{'s' if out['jobs'] > 1 else ''})"
        + (f", reshuffled after {out['cut_card']} cards" if out["cut_card"]
           else ", shuffled every round: nothing to count"),
        f"win rate      {out['win_per_100']:+.3f} ± {out['se_per_100']:.3f} units per 100 "
        "rounds (1 SE)",
        f"mean bet      {out['mean_bet']:.3f} units; win per unit bet "
        f"{out['win_per_unit_bet'] * 100:+.3f}%",
        f"flat-bet EV   {out['flat_ev'] * 100:+.3f}% per round",
        "",
        f"{'TC':>4} {'share':>8} {'EV flat':>9} {'bet':>5}",
    ]
    lines += [f"{r['true_count']:>4} {r['share'] * 100:>7.3f}% {r['ev'] * 100:>+8.3f}% "
              f"{r['mean_bet']:>5.2f}" for r in out["by_true_count"] if r["share"] >= 1e-4]
    return "\n".join(lines)


@dataclass(frozen=True, repr=False)
class SimulationResult(Result):
    """A Monte Carlo estimate of a game's EV, or a counter's win rate (``bja simulate``).

    ``to_frame()``: one row (``mean``, ``se``, ``rtp``, ``sd``, ``rounds``, ``seed``);
    for a counter one row per true count (``true_count``, ``share``, ``ev``, ``mean_bet``).
    """

    data: dict[str, Any] = field(hash=False)
    title: str = "custom rules"

    @property
    def counter(self) -> bool:
        return "by_true_count" in self.data

    def to_dict(self) -> dict[str, Any]:
        return plain(dict(self.data))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        data = self.to_dict()
        return _counter_text(self.title, data) if self.counter else _sim_text(self.title, data)

    def frame_columns(self) -> tuple[str, ...]:
        if self.counter:
            return ("true_count", "share", "ev", "mean_bet")
        return ("mean", "se", "rtp", "sd", "rounds", "seed")

    def rows(self) -> list[Row]:
        data = self.to_dict()
        if self.counter:
            return list(data["by_true_count"])
        return [data]

    def summary(self) -> str:
        d = self.data
        if self.counter:
            return f"Counter {self.title}: {d['win_per_100']:+.3f} units per 100 rounds"
        return f"Simulation {self.title}: EV {d['mean']:+.4%} ± {d['se']:.4%}"


# A simulation's wall-clock figures (``timing=True`` only): never twice the same.
SIMULATION_TIMING = frozenset({"seconds", "cpu_seconds", "table_seconds", "compile_seconds",
                               "rounds_per_second", "rounds_per_cpu_second"})


def _whole(value: int | str | None, what: str, minimum: int, maximum: int) -> int | None:
    from analyzer.core.numbers import parse_whole

    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if not minimum <= value <= maximum:
            raise SimulationError(f"{what} must be a whole number {minimum:,} to {maximum:,}, "
                                  f"not {shown(value)}")
        return value
    if not isinstance(value, str):  # 1000.0 was read as its text, a bool as 'True'
        raise SimulationError(f"{what} must be a whole number or its text (\"1e7\"), not "
                              f"{shown(value)}")
    return parse_whole(value, what, SimulationError, minimum=minimum, maximum=maximum,
                       scientific=True)


def _exact_play(rules: Rules, strategy: str) -> tuple[float, Any]:
    """The exact full-shoe EV of the strategy that will be played, and that strategy."""
    full = rules.replace(cut_card=0)
    if strategy == "chart":
        from analyzer.charts.evaluate import make_chart
        from analyzer.charts.strategy import ChartStrategy

        chart_run = make_chart(full, "basic strategy").chart
        assert chart_run.evaluation is not None
        return chart_run.evaluation.chart_ev, ChartStrategy(chart_run, full)
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.frozen import FrozenStrategy

    analysis = Analysis(full)
    return float(analysis.ev()), FrozenStrategy(analysis)


def simulate(game: Game, rounds: int | str, *, seed: int | str | None = None,
             jobs: int | str | None = None, strategy: str = "optimal", cut_card: bool = True,
             compare: bool = False, counter: str | None = None, spread: str | None = None,
             timing: bool = False,
             progress: ProgressCallback | None = None) -> SimulationResult:
    """A Monte Carlo estimate of a game's EV through the simulator's own code (``bja simulate``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    rounds : int or str
        Rounds to play, 2 to 1e11, as a number or text (``"1e7"``).
    seed : int or str, optional
        0 to 2**128 - 1; None: a fresh one, reported in the result.  The figures depend
        on the seed and ``jobs`` together.
    jobs : int or str, optional
        Parallel jobs, 1 to 256 (default: every core this process may use).
    strategy : str, default "optimal"
        ``"optimal"`` (the engine's composition-dependent play) or ``"chart"`` (the game's
        basic-strategy chart).
    cut_card : bool, default True
        Deal the shoe down to the game's cut card; False: every round from a full shoe.
    compare : bool, default False
        Also the exact full-shoe EV of the strategy played and the difference in standard
        errors.  Not read with a counter.
    counter : str, optional
        ``"hilo"``: play a Hi-Lo counter with a bet spread instead (its win rate by true
        count); refused on Spanish decks.
    spread : str, optional
        The counter's bet spread ``"LOW-HIGH"`` in units, at most 1000 (default ``"1-8"``);
        only with ``counter``.
    timing : bool, default False
        Keep the speed (seconds, rounds per second): never twice the same, so a seeded
        simulation's output is byte for byte the same without it.  Not with a counter.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as rounds are played.

    Returns
    -------
    SimulationResult
        The mean result per round with its standard error, RTP, SD and histogram (or the
        counter's win rate).

    Raises
    ------
    AnalyzerError
        A SimulationError for a number out of range, an unknown strategy or counter, or a
        ``spread`` or ``timing`` out of place.

    Examples
    --------
    >>> r = simulate("1D", 20_000, seed=1, jobs=1)
    >>> r.to_dict()["rounds"], r.to_dict()["seed"]
    (20000, 1)
    >>> r.to_dict()["mean"]
    -0.00225
    >>> simulate("1D H17 CUT26", 2000, seed=1, jobs=1, counter="hilo", spread="1-4")
    <Counter custom rules: -3.600 units per 100 rounds>
    """
    progress = callback(progress)
    from analyzer.core.limits import MAX_JOBS, MAX_SEED
    from analyzer.sim.config import MAX_ROUNDS, check_counts, check_size, default_jobs

    rules, name = resolve(game)
    words = game.split() if isinstance(game, str) else []
    game_name = words[0] if words and is_game_name(words[0]) else None
    if not cut_card:
        rules = rules.replace(cut_card=0)
    if rounds is None:
        raise SimulationError("the number of rounds is missing")
    count = _whole(rounds, "number of rounds", 2, MAX_ROUNDS)
    assert count is not None
    cut_card, compare, timing = (flag(cut_card, "cut_card"), flag(compare, "compare"),
                                 flag(timing, "timing"))
    counter, spread = optional_text(counter, "counter"), optional_text(spread, "spread")
    if counter is None and spread is not None:
        raise SimulationError("--spread is the counter's bet spread: it goes with --counter")
    if counter is not None and timing:
        raise SimulationError("--timing times a simulation of the EV, not a counter's")
    if counter is not None and compare:
        raise SimulationError("--compare sets the EV beside the exact one; a counter's win "
                              "rate has no exact figure to compare with")
    strategy = text(strategy, "strategy")
    workers = _whole(jobs, "number of jobs", 1, MAX_JOBS)
    workers = default_jobs() if workers is None else workers
    chosen_seed = _whole(seed, "seed", 0, MAX_SEED)
    check_counts(count, workers, chosen_seed)  # refuse 1e99 before numba or the engine loads
    from analyzer.sim import counter_win_rate
    from analyzer.sim import simulate as run_simulation
    from analyzer.sim.shoe_study import parse_spread
    from analyzer.sim.strategies import STRATEGIES

    if strategy not in STRATEGIES:
        raise SimulationError(f"unknown strategy {strategy!r} (use {', '.join(STRATEGIES)})")
    title = game_name or "custom rules"
    if counter is not None:
        from analyzer.shoestate.counts import system_key

        if not isinstance(counter, str) or system_key(counter) != system_key("hi-lo"):
            raise SimulationError(f"unknown count system {counter!r} for the simulated "
                                  "counter (it plays Hi-Lo: hi-lo, or hilo)")
        if rules.spanish_decks:  # bja edge and bja indices centre it; this counter does not
            raise SimulationError("the simulated Hi-Lo counter's true count is not centred: "
                                  "on Spanish decks (SP) Hi-Lo gains 4 a deck, so it would "
                                  "bet on the depth, not the cards; not simulated")
        bets = parse_spread("1-8" if spread is None else spread)
        check_size(rules, count, workers, rules.cut_card, bets)
        res = counter_win_rate(rules, count, spread=bets, strategy=strategy,
                               seed=chosen_seed, jobs=workers, progress=progress)
        return SimulationResult({"game": game_name, **res.to_dict()}, title)
    play: Any = strategy
    exact: float | None = None
    check_size(rules, count, workers, rules.cut_card)  # before the exact analysis
    if compare:
        exact, play = _exact_play(rules, strategy)
    result = run_simulation(rules, count, seed=chosen_seed, jobs=workers, strategy=play,
                            progress=progress)
    out = {"game": game_name, **result.to_dict()}
    if not timing:
        out = {k: v for k, v in out.items() if k not in SIMULATION_TIMING}
    out["strategy"] = strategy
    if exact is not None:
        out |= {"exact_ev": exact, "difference": result.mean - exact,
                "difference_se": result.z(exact)}
    del name
    return SimulationResult(out, title)


# -- certificates -------------------------------------------------------------------------
def slug(spec: str) -> str:
    """A folder name for a rule spec: ``6D S17 BJ6:5`` -> ``6d-s17-bj6-5``."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", spec.lower()).strip("-")


def _certified(game: Game) -> tuple[Rules, str]:
    """A game's rules and the name its certificate goes by: a named game's own, and for
    tokens on top of a game (a rule set of its own) or a bare spec, its spec."""
    rules, name = resolve(game)
    return rules, name if is_game_name(name) else format_spec(rules)


def certificate_folder(game: Game) -> Path:
    """Where ``bja certify`` files a game's certificate by default: ``reports/<game>/``
    for a named game, ``reports/<spec slug>/`` for any other rule set.

    Examples
    --------
    >>> certificate_folder("charlie7").as_posix(), certificate_folder("charlie7 6D").as_posix()
    ('reports/charlie7', 'reports/6d-s17-doa-das-spl1-ls-ch7-a21')
    """
    rules, name = _certified(game)
    return Path("reports") / (name if is_game_name(name) else slug(name))


@dataclass(frozen=True, repr=False)
class CertificateResult(Result):
    """A game's certificate (``bja certify``): the figures, and the files written.

    ``to_dict()`` is the certificate's JSON file; ``to_frame()``: one row per level
    of play (``level``, ``title``, ``ev``, ``rtp``, ``not_computed``).
    """

    certificate: Any  # analyzer.certificates.model.Certificate
    written: tuple[Path, ...] = ()
    no_pdf: str | None = None  # why the PDF was not written, when asked for
    columns = ("level", "title", "ev", "rtp", "not_computed")

    @property
    def rtp(self) -> Any:
        return self.certificate.rtp

    def to_dict(self) -> dict[str, Any]:
        from analyzer.certificates.render import certificate_data

        return plain(certificate_data(self.certificate))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        return self.to_markdown()

    def to_markdown(self) -> str:
        from analyzer.certificates.render import render_markdown

        return render_markdown(self.certificate)

    def to_html(self) -> str:
        from analyzer.certificates.render import render_html

        return render_html(self.certificate)

    def rows(self) -> list[Row]:
        from analyzer.core.levels import LEVEL_TITLES

        out = []
        for level in self.certificate.levels.levels:
            ev = None if level.ev is None else float(level.ev)
            out.append({"level": str(level.name), "title": LEVEL_TITLES.get(level.name, ""),
                        "ev": ev, "rtp": None if ev is None else 1 + ev,
                        "not_computed": level.reason})
        return out

    def summary(self) -> str:
        c = self.certificate
        return f"Certificate {c.name}: RTP {float(c.rtp):.6%}"


def certify(game: Game, *, out: Path | str | None = None, pdf: bool = True,
            exact: bool = True, rounds: int | None = None, seed: int | None = None,
            meta: Path | str | Meta | None = None,
            progress: ProgressCallback | None = None) -> CertificateResult:
    """A game's certificate (``bja certify``); written to the folder ``out`` if given.

    A named game keeps its readings; tokens on top of it make a new rule set,
    certified under its spec.  Every stage runs, its fixed simulations too: 4,000,000
    two-spot rounds, and 800,000,000 rounds as dealt when the game has a cut card.

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    out : Path or str, optional
        The folder to write ``certificate.{md,html,json,pdf}`` into, replaced as a whole:
        it must be absent or hold only those files (checked first).  None: no files.
    pdf : bool, default True
        With ``out``, the PDF too (needs Chromium); without it the others are written and
        the result's ``no_pdf`` says why (nothing is raised).
    exact : bool, default True
        The RTP levels in exact rational arithmetic; False: float (faster).
    rounds : int, optional
        Rounds of the simulation cross-check, 1,000 to 1e10 (default 20,000,000).
    seed : int, optional
        The cross-check's seed, 0 to 2**128 - 1 (default 20251201).
    meta : Path, str or Meta, optional
        The submission's particulars for the cover and sign-off blocks: a TOML file or a
        :class:`~analyzer.certificates.meta.Meta`.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as each stage goes, its
        stage named ``"certificate k/n: ..."``.

    Returns
    -------
    CertificateResult
        The certificate's figures (``to_dict()`` is its JSON), the paths written.

    Raises
    ------
    AnalyzerError
        A UsageError for an ``out`` holding other files, ``INF`` or a bad ``meta``; a
        SimulationError for ``rounds`` or ``seed`` out of range.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = certify("1D H17 DOA NDAS NSPL NS", out=Path(tmp) / "cert", pdf=False,
    ...                 exact=False, rounds=1000, seed=1)
    ...     [p.name for p in r.written]
    ['certificate.md', 'certificate.html', 'certificate.json']
    >>> r
    <Certificate 1D H17 DOA NDAS NSPL NS: RTP 99.477709%>
    """
    progress = callback(progress)
    import dataclasses

    from analyzer.certificates.files import CERTIFICATE_FILES, write_certificate
    from analyzer.certificates.meta import Meta, load_meta
    from analyzer.certificates.model import Settings
    from analyzer.certificates.model import certify as certify_model
    from analyzer.core.presets import PRESETS
    from analyzer.util.files import check_folder

    pdf, exact = flag(pdf, "pdf"), flag(exact, "exact")
    if meta is not None and not isinstance(meta, (str, Path, Meta)):
        raise UsageError(f"meta must be a TOML file's path or a Meta, not {shown(meta)}")
    from analyzer.core.limits import MAX_CHECK_ROUNDS, MAX_SEED, MIN_CHECK_ROUNDS

    for value, what, low, high in ((rounds, "rounds", MIN_CHECK_ROUNDS, MAX_CHECK_ROUNDS),
                                   (seed, "seed", 0, MAX_SEED)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not low <= value <= high):
            raise UsageError(f"{what} must be a whole number {low:,} to {high:,}, "
                             f"not {shown(value)}")
    particulars = load_meta(Path(meta)) if isinstance(meta, (str, Path)) else meta
    rules, name = _certified(game)
    folder = None if out is None else Path(out)
    if folder is not None:
        check_folder(folder, CERTIFICATE_FILES)  # replaced as a whole: refused before the work
    settings = Settings(exact=exact)
    if rounds is not None:
        settings = dataclasses.replace(settings, check_rounds=rounds)
    if seed is not None:
        settings = dataclasses.replace(settings, check_seed=seed)
    cert = certify_model(rules, name, PRESETS.get(name), settings, meta=particulars,
                         stages=progress)
    if folder is None:
        return CertificateResult(cert)
    # a stage of its own: a job cancelled during the last figures stops before the files
    stage = "certificate: files (Markdown, HTML, JSON" + (", PDF)" if pdf else ")")
    report(progress, stage, 0, 1)
    written, no_pdf = write_certificate(cert, folder, pdf=pdf)
    report(progress, stage, 1, 1)  # (a finished job showed "done": 0 of 1)
    return CertificateResult(cert, tuple(written), no_pdf)


__all__ = ["CertificateResult", "ComparisonResult", "CountsResult", "EdgeResult", "EorResult",
           "IndicesResult", "SidebetResult", "SimulationResult", "certificate_folder",
           "certify", "compare", "counts", "edge", "eor", "indices", "sidebet", "simulate",
           "slug"]

