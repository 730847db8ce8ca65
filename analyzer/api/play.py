"""The main game of one rule set: its EV, a hand, the dealer, its chart, its distribution.

>>> import analyzer
>>> result = analyzer.analyze("1D H17 DOA NDAS SPL1 NS", jobs=1)
>>> result
<EV 1D H17 DOA NDAS SPL1 NS: -0.168767% CDZ->
>>> list(result.by_upcard)
['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'A']
>>> analyzer.hand("1D H17 DOA NDAS SPL1 NS", "6", "8,8").best
'split'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from analyzer.api.games import Game, callback, flag, jobs_of, resolve, shoe_of
from analyzer.api.result import (
    UPCARD_ORDER,
    UPCARDS,
    Result,
    Row,
    number,
    plain,
    upcard_dict,
)
from analyzer.core.cards import format_value
from analyzer.core.errors import CardNotationError, ChartError, UsageError
from analyzer.core.levels import SPLIT_MODES, SplitLevel
from analyzer.core.numbers import shown
from analyzer.core.rules import Rules, format_spec
from analyzer.core.ruleset import INFINITE
from analyzer.core.shoe import Shoe
from analyzer.core.version import __version__
from analyzer.util.progress import ProgressCallback

if TYPE_CHECKING:
    from analyzer.charts.evaluate import ChartRun
    from analyzer.charts.model import Chart, Evaluation
    from analyzer.report.distribution_model import DistributionReport
    from analyzer.report.model import DealerTable, EvReport, HandReport

SPLIT_LABELS = {"cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP", "optimal": "optimal splitting",
                "exact": "CDZ- (exact splits)"}


def _split(split: str | SplitLevel) -> SplitLevel:
    if str(split) not in [str(m) for m in SPLIT_MODES]:
        raise UsageError(f"unknown split mode {split!r} (use "
                         f"{', '.join(str(m) for m in SPLIT_MODES)})")
    return SplitLevel(str(split))


# -- analyze ------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class EvResult(Result):
    """The EV of a round, by upcard, with insurance and (``levels``) every level of play.

    ``to_frame()``: one row per upcard (``upcard``, ``ev``).
    """

    report: EvReport
    name: str
    columns = ("upcard", "ev")

    @property
    def rules(self) -> Rules:
        return self.report.rules

    @property
    def ev(self) -> float | Fraction:
        """The EV of a round per unit initial bet (a Fraction with ``exact=True``)."""
        return number(self.report.ev)

    @property
    def rtp(self) -> float | Fraction:
        return 1 + self.ev

    @property
    def by_upcard(self) -> dict[str, float | Fraction]:
        """The EV given each upcard, keyed ``"2"``..``"9"``, ``"T"``, ``"A"``."""
        return upcard_dict(dict(self.report.by_upcard))

    def to_dict(self) -> dict[str, Any]:
        from analyzer.report.render import ev_json

        return plain(ev_json(self.report))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.report.render import ev_text

        return ev_text(self.report)

    def rows(self) -> list[Row]:
        return [{"upcard": u, "ev": float(v)} for u, v in self.by_upcard.items()]

    def summary(self) -> str:
        return (f"EV {format_spec(self.rules)}: {float(self.report.ev):.6%} "
                f"{SPLIT_LABELS.get(str(self.report.split), str(self.report.split))}")


def analyze(game: Game, *, shoe: Shoe | str | None = None, split: str = "cdz",
            exact: bool = False, levels: bool = False, jobs: int | None = None,
            cache: bool = True, progress: ProgressCallback | None = None,
            suits: bool = True) -> EvResult:
    """The EV of a round off the top of the shoe, by upcard (``bja ev``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    shoe : Shoe or str, optional
        The shoe (``"A:4,2:4,...,T:16"``); the rules' full decks by default.  Refused
        with an infinite deck (``INF``) and when the rules' cut card is not inside it.
    split : str, default "cdz"
        Play of split hands: ``cdz`` (CDZ-), ``cdp1``, ``cdp``, ``optimal``, ``exact``
        (CDZ- with splits enumerated whole, a cross-check for small shoes only).
    exact : bool, default False
        Exact rational arithmetic: the figures are Fractions.
    levels : bool, default False
        Also the RTP of every level of play: the basic chart, CDZ-, CDP1, CDP (and optimal
        splitting with ``split="optimal"``); several analyses more.  Refused under ``INF``.
    jobs : int, optional
        Processes sharing the upcards, 1 to 256 (default: every core); the same figures.
    cache : bool, default True
        Serve and keep the result in the on-disk memo (``$BJA_CACHE_DIR``).
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as upcards finish.
    suits : bool, default True
        Where suit bonuses pay (B678, B777, SB, BSBJ), the player reads the suits of his
        first two cards and of the upcard where they can change a decision.  False: every
        decision on the ranks alone, each suit bonus met at its average over the suits
        (``--rank-only``; at most the usual figure, equal where no suit pays).

    Returns
    -------
    EvResult
        The EV and RTP of a round, the EV by upcard, insurance and (``levels``) the levels.

    Raises
    ------
    AnalyzerError
        A bad game or shoe; a UsageError for an unknown split, a bad switch or ``jobs``,
        or ``INF`` with a shoe or ``levels``.

    Examples
    --------
    >>> r = analyze("1D H17 DOA NDAS NSPL NS", exact=True, jobs=1)
    >>> r.ev
    Fraction(-3255975161491571, 623402990353143000)
    >>> r.to_dict()["ev_exact"] == str(r.ev)
    True
    """
    progress = callback(progress)
    from analyzer.report.cache import cached_ev_report

    rules, name = resolve(game)
    if rules.decks == INFINITE:  # exact and quick: no shoe, no memo
        from analyzer.report.model import infinite_report

        if shoe is not None:
            raise UsageError("INF with a shoe: an infinite deck has no shoe to give (leave "
                             "out the shoe)")
        if flag(levels, "levels"):
            raise UsageError("INF with levels: the levels of play are not computed on an "
                             "infinite deck (every level but CDZ- under BNS gives bja ev's "
                             "figure there)")
        # (suit bonuses are refused on an infinite deck: ranks are all a play reads there)
        return EvResult(dataclasses.replace(infinite_report(rules, exact=flag(exact, "exact"),
                                                            split=_split(split)),
                                            suits=flag(suits, "suits")), name)
    found = shoe_of(rules, shoe)
    report = cached_ev_report(rules, found, exact=flag(exact, "exact"), split=_split(split),
                              levels=flag(levels, "levels"), use_cache=flag(cache, "cache"),
                              jobs=jobs_of(jobs), progress=progress, suits=flag(suits, "suits"))
    return EvResult(report, name)


# -- hand ---------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class HandResult(Result):
    """Every action of one hand against one upcard.  ``to_frame()``: one row per action."""

    report: HandReport
    columns = ("action", "ev")

    @property
    def best(self) -> str:
        """The best action (``""`` for a natural: no decision)."""
        return self.report.best

    @property
    def actions(self) -> dict[str, float | Fraction]:
        return {a: number(v) for a, v in self.report.actions}

    def to_dict(self) -> dict[str, Any]:
        from analyzer.report.render import hand_json

        return plain(hand_json(self.report))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.report.render import hand_text

        return hand_text(self.report)

    def rows(self) -> list[Row]:
        return [{"action": a, "ev": float(v)} for a, v in self.actions.items()]

    def summary(self) -> str:
        cards = ",".join(format_value(c) for c in self.report.cards)
        return (f"Hand {cards} v {format_value(self.report.upcard)} "
                f"{format_spec(self.report.rules)}: {self.best or 'blackjack'}")


def _analysis(rules: Rules, shoe: Shoe | str | None, exact: bool, split: str) -> Any:
    from analyzer.oracle.split_mode import new_analysis

    return new_analysis(rules, shoe_of(rules, shoe), exact=flag(exact, "exact"),
                        split=_split(split))


def hand(game: Game, upcard: str | int, cards: str | Sequence[int | str], *,
         shoe: Shoe | str | None = None, split: str = "cdz", exact: bool = False,
         unconditioned: bool = False) -> HandResult:
    """The EV of every action of one hand against one upcard (``bja hand``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    upcard : str or int
        The dealer's upcard: ``"A"``, ``"2"``..``"9"``, ``"T"`` (``"10"``, ``"J"``,
        ``"Q"``, ``"K"`` too) or its value 1 (ace) to 10.
    cards : str or sequence of int or str
        The player's cards, two or more: a text like ``"T,6"`` (commas or spaces) or a
        sequence of symbols or values (``["T", 6]``).
    shoe : Shoe or str, optional
        The shoe the upcard and cards are dealt from; the rules' full decks by default.
    split : str, default "cdz"
        Play of split hands (a pair's split EV): ``cdz``, ``cdp1``, ``cdp``, ``optimal``,
        ``exact``, as for :func:`analyze`.
    exact : bool, default False
        Exact rational arithmetic: the EVs are Fractions.
    unconditioned : bool, default False
        Put the dealer's blackjack back in: by default the EVs are conditioned on no dealer
        blackjack wherever the dealer peeks at that upcard.

    Returns
    -------
    HandResult
        Each allowed action's EV and the best one (``""`` for a natural: no decision).

    Raises
    ------
    AnalyzerError
        A HandError for a bad card or a hand the shoe cannot deal; a UsageError for INF
        with a shoe.

    Examples
    --------
    >>> r = hand("1D H17 DOA NDAS SPL1 NS", "T", "T,6")
    >>> r.best, round(r.actions["stand"], 6)
    ('hit', -0.542952)
    >>> hand("1D H17 DOA NDAS SPL1 NS", 10, [10, 6], unconditioned=True).best
    'hit'
    >>> hand("1D H17 DOA NDAS SPL1 NS", "T", "A,T").best  # a natural
    ''
    """
    from analyzer.core.cards import parse_cards, parse_value
    from analyzer.report.model import hand_report, infinite_hand_report

    rules, _name = resolve(game)
    if isinstance(upcard, bool) or not isinstance(upcard, (str, int)):
        raise CardNotationError(f"upcard must be a card such as 'T' or 10, not "
                                f"{shown(upcard)}")
    if not isinstance(cards, (str, list, tuple)):
        raise CardNotationError(f"cards must be text such as 'T,6' or a list of cards, not "
                                f"{shown(cards)}")
    up = int(parse_value(upcard)) if isinstance(upcard, str) else upcard
    if isinstance(cards, str):
        held = tuple(int(c) for c in parse_cards(cards))
    else:
        held = tuple(int(parse_value(c)) if isinstance(c, str) else c for c in cards)
    if rules.decks == INFINITE:
        if shoe is not None:
            raise UsageError("INF with a shoe: an infinite deck has no shoe to give (leave "
                             "out the shoe)")
        return HandResult(infinite_hand_report(
            rules, up, held, exact=flag(exact, "exact"), split=_split(split),
            unconditioned=flag(unconditioned, "unconditioned")))
    report = hand_report(_analysis(rules, shoe, exact, split), up, held,
                         unconditioned=flag(unconditioned, "unconditioned"))
    return HandResult(report)


# -- dealer -------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class DealerResult(Result):
    """The dealer's final outcomes per upcard.  ``to_frame()``: one row per upcard."""

    table: DealerTable
    columns = ("upcard", "17", "18", "19", "20", "21", "blackjack", "bust")

    def to_dict(self) -> dict[str, Any]:
        from analyzer.report.render import dealer_json

        return plain(dealer_json(self.table))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.report.render import dealer_text

        return dealer_text(self.table)

    def frame_columns(self) -> tuple[str, ...]:
        names = [name for name, _ in self.table.rows[0].outcomes] if self.table.rows else []
        return ("upcard", *names, "bust")

    def rows(self) -> list[Row]:
        return [{"upcard": format_value(r.upcard), **{k: float(v) for k, v in r.outcomes},
                 "bust": float(r.bust)} for r in self.table.rows]

    def summary(self) -> str:
        return f"Dealer {format_spec(self.table.rules)}"


def dealer(game: Game, *, shoe: Shoe | str | None = None, exact: bool = False) -> DealerResult:
    """The dealer's outcome table per upcard, unconditioned (``bja dealer``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
        An infinite deck (``INF``) is refused: it has no shoe to deal from.
    shoe : Shoe or str, optional
        The shoe the dealer draws from, each upcard removed in turn; the rules' full decks
        by default.
    exact : bool, default False
        Exact rational arithmetic (the JSON then adds each outcome as a fraction).

    Returns
    -------
    DealerResult
        Per upcard, the chance of a final 17..21, of a blackjack and of a bust.

    Raises
    ------
    AnalyzerError
        A bad game or shoe, or a UsageError for ``INF``.

    Examples
    --------
    >>> r = dealer("1D S17")
    >>> round(r.to_dict()["upcards"]["6"]["bust"], 4)
    0.4208
    """
    from analyzer.report.model import dealer_table

    rules, _name = resolve(game)
    return DealerResult(dealer_table(_analysis(rules, shoe, exact, "cdz")))


# -- charts -------------------------------------------------------------------------------
class ChartFiguresJson(TypedDict):
    """A chart's exact EV beside the CDZ- optimum; ``by_upcard`` keyed A, 2..T."""

    rules: str
    engine: str
    ev: float
    optimum_ev: float
    gap: float
    by_upcard: dict[str, float]


class ChartJson(ChartFiguresJson):
    """``bja chart --json``: the figures and the chart (keyed by section, then row)."""

    title: str
    strategy: str
    chart: dict[str, dict[str, list[str]]]


class ChartOutJson(ChartJson):
    """``bja chart --out FILE --json``: the file written too."""

    out: str


class EvaluateJson(ChartFiguresJson):
    """``bja evaluate --json``: the figures of the chart file played as written."""

    chart: str
    strategy: str


def _figures(rules: Rules, ev: Evaluation) -> ChartFiguresJson:
    return {"rules": format_spec(rules), "engine": f"bja {__version__}",
            "ev": ev.chart_ev, "optimum_ev": ev.optimum_ev, "gap": ev.gap,
            "by_upcard": {format_value(u): ev.by_upcard[u] for u in UPCARD_ORDER
                          if u in ev.by_upcard}}


def _chart_rows(chart: Chart) -> list[Row]:
    return [{"section": s.name, "hand": k.label, "upcard": u, "play": code}
            for s in chart.sections for k, codes in s.ordered()
            for u, code in zip(UPCARDS, codes, strict=False)]


@dataclass(frozen=True, repr=False)
class ChartResult(Result):
    """A basic-strategy chart with its exact EV beside the CDZ- optimum (``bja chart``).

    ``to_frame()``: one row per chart cell (``section``, ``hand``, ``upcard``, ``play``).
    """

    run: ChartRun
    rules: Rules
    columns = ("section", "hand", "upcard", "play")

    @property
    def chart(self) -> Chart:
        return self.run.chart

    @property
    def evaluation(self) -> Evaluation:
        found = self.run.chart.evaluation
        if found is None:  # make_chart always evaluates its chart
            raise UsageError("the chart has no evaluation")
        return found

    @property
    def ev(self) -> float:
        return float(self.evaluation.chart_ev)

    def to_dict(self) -> dict[str, Any]:
        data: ChartJson = {
            **_figures(self.rules, self.evaluation), "title": self.chart.title,
            "strategy": "chart (total-dependent)",
            "chart": {s.name: {k.label: list(c) for k, c in s.ordered()}
                      for s in self.chart.sections}}
        return plain(data)  # type: ignore[no-any-return]

    def render(self, fmt: Literal["txt", "csv", "md", "html"]) -> str:
        from analyzer.charts.build import TEXT_RENDERERS

        return TEXT_RENDERERS[fmt](self.chart)

    def to_text(self) -> str:
        return self.render("txt")

    def to_csv(self) -> str:
        """The chart file (``bja evaluate --chart`` reads it back)."""
        return self.render("csv")

    def to_markdown(self) -> str:
        return self.render("md")

    def to_html(self) -> str:
        return self.render("html")

    def to_png(self) -> bytes:
        from analyzer.charts.render_png import render_png

        return render_png(self.chart)

    def exceptions_text(self) -> str:
        """The composition-dependent exceptions to the chart, as text."""
        from analyzer.charts.exceptions import find_exceptions, render_exceptions

        return render_exceptions(self.chart, self.run.optimum,
                                 find_exceptions(self.chart, self.run.optimum, self.run.deriver))

    def rows(self) -> list[Row]:
        return _chart_rows(self.chart)

    def summary(self) -> str:
        return f"Chart {format_spec(self.rules)}: EV {self.ev:.6%}"


def chart(game: Game, *, by_cards: bool | None = None,
          shoe: Shoe | str | None = None) -> ChartResult:
    """The total-dependent basic-strategy chart of a game, evaluated exactly (``bja chart``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    by_cards : bool, optional
        Add rows qualified by the number of cards (``H16/3``) where that changes the play.
        None: on under a Charlie, DAN or SAH rule; True or False forces it on or off.
    shoe : Shoe or str, optional
        Derive and evaluate the chart off this shoe; the rules' full decks by default.

    Returns
    -------
    ChartResult
        The chart (``to_csv()`` is the chart file), its exact EV beside the CDZ- optimum.

    Raises
    ------
    AnalyzerError
        A bad game or shoe, an infinite deck (``INF``), or a ``by_cards`` not a bool or None.

    Examples
    --------
    >>> r = chart("1D H17 DOA NDAS SPL1 NS")
    >>> r.to_dict()["chart"]["main"]["H16"]
    ['S', 'S', 'S', 'S', 'S', 'H', 'H', 'H', 'H', 'H']
    """
    from analyzer.charts.evaluate import make_chart

    rules, name = resolve(game)
    found = None if shoe is None else shoe_of(rules, shoe)
    run = make_chart(rules, f"{name}: basic strategy", shoe=found, by_cards=by_cards)
    return ChartResult(run, rules)


@dataclass(frozen=True, repr=False)
class EvaluationResult(Result):
    """The exact EV of a chart played as written (``bja evaluate``).

    ``to_frame()``: one row per upcard (``upcard``, ``ev``).
    """

    figures: Evaluation
    rules: Rules
    source: str  # the chart file's path, or the chart's title
    columns = ("upcard", "ev")

    @property
    def ev(self) -> float:
        return float(self.figures.chart_ev)

    def to_dict(self) -> dict[str, Any]:
        data: EvaluateJson = {**_figures(self.rules, self.figures), "chart": self.source,
                              "strategy": "chart as written"}
        return plain(data)  # type: ignore[no-any-return]

    def to_text(self) -> str:
        figures = self.figures
        lines = [f"rules: {format_spec(self.rules)}   chart: {self.source}",
                 " upcard | EV (% of initial bet)", "--------+----------------"]
        for u in UPCARD_ORDER:
            if u in figures.by_upcard:
                lines.append(f"   {format_value(u)}    | {figures.by_upcard[u] * 100:15.9f}")
        lines += ["--------+----------------",
                  f" chart  | {figures.chart_ev * 100:15.9f}",
                  f" CDZ-   | {figures.optimum_ev * 100:15.9f}",
                  f" diff   | {figures.gap * 100:15.9f}"]
        return "\n".join(lines)

    def rows(self) -> list[Row]:
        return [{"upcard": u, "ev": float(v)}
                for u, v in upcard_dict(self.figures.by_upcard).items()]

    def summary(self) -> str:
        return f"Chart {self.source} under {format_spec(self.rules)}: EV {self.ev:.6%}"


def load_chart_input(chart: Path | str | Chart, rules: Rules) -> tuple[Chart, str]:
    """A chart given as a file path, as chart text (it has a newline) or as a
    :class:`~analyzer.charts.model.Chart` (played under ``rules``); and its name."""
    from analyzer.charts.fileformat import load_chart, parse_sections
    from analyzer.charts.model import Chart

    if isinstance(chart, Chart):
        return dataclasses.replace(chart, rules=rules), chart.title
    if isinstance(chart, str) and not chart.strip():  # Path("") is the working folder
        raise ChartError("the chart is empty: a file path, chart text or a Chart")
    if isinstance(chart, str) and "\n" in chart:
        sections = parse_sections(chart, "chart", rules=rules)
        return Chart(rules=rules, sections=sections, title="chart"), "chart"
    if isinstance(chart, (str, Path)):
        return load_chart(Path(chart), rules), str(chart)  # a missing file: one line
    raise ChartError(f"a chart is a file path, chart text or a Chart, not {chart!r}")


def evaluate_chart(game: Game, chart: Path | str | Chart) -> EvaluationResult:
    """Play a chart exactly as written and compare it with the CDZ- optimum (``bja evaluate``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens;
        the chart is played under these rules, off their full decks.
    chart : Path, str or Chart
        A chart file's path, chart text (a string holding a newline: the CSV of
        :meth:`ChartResult.to_csv`) or a :class:`~analyzer.charts.model.Chart`.

    Returns
    -------
    EvaluationResult
        The chart's exact EV as written, by upcard, beside the CDZ- optimum and the gap.

    Raises
    ------
    AnalyzerError
        A ChartError for a file that cannot be read, a bad row or code, or another type.

    Examples
    --------
    >>> text = chart("1D H17 DOA NDAS SPL1 NS").to_csv()
    >>> r = evaluate_chart("1D H17 DOA NDAS SPL1 NS", text)
    >>> r.ev == chart("1D H17 DOA NDAS SPL1 NS").ev
    True
    """
    from analyzer.charts.evaluate import evaluate

    rules, _name = resolve(game)
    loaded, source = load_chart_input(chart, rules)
    figures, _played, _optimum = evaluate(loaded)
    return EvaluationResult(figures, rules, source)


# -- distribution -------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class DistributionResult(Result):
    """The exact distribution of a round's net result (``bja distribution``).

    ``to_frame()``: one row per net result: ``result`` (e.g. ``"+1.5"``), ``net``
    (units of the initial bet), ``probability``.
    """

    report: DistributionReport
    columns = ("result", "net", "probability")

    @property
    def probabilities(self) -> dict[Fraction, float | Fraction]:
        """``{net result: probability}``, results as exact Fractions."""
        return {x: number(p) for x, p in self.report.probabilities.items()}

    @property
    def ev(self) -> float | Fraction:
        return number(self.report.mean)

    @property
    def sd(self) -> float:
        return float(self.report.sd)

    def to_dict(self) -> dict[str, Any]:
        from analyzer.report.distribution_render import report_data

        return plain(report_data(self.report))  # type: ignore[no-any-return]

    def to_text(self) -> str:
        from analyzer.report.distribution_render import render_text

        return render_text(self.report)

    def to_markdown(self) -> str:
        from analyzer.report.distribution_render import render_markdown

        return render_markdown(self.report)

    def to_csv(self) -> str:
        from analyzer.report.distribution_render import render_csv

        return render_csv(self.report)

    def rows(self) -> list[Row]:
        from analyzer.report.distribution_model import format_result

        return [{"result": format_result(x), "net": float(x), "probability": float(p)}
                for x, p in self.report.probabilities.items()]

    def summary(self) -> str:
        return (f"Distribution {format_spec(self.report.dist.rules)}: EV "
                f"{float(self.report.mean):.6%}, SD {self.sd:.4f}")


def distribution(game: Game, *, shoe: Shoe | str | None = None,
                 strategy: str | Path | Chart = "optimal", exact: bool = False,
                 spots: int | None = None, jobs: int | None = None,
                 progress: ProgressCallback | None = None) -> DistributionResult:
    """The exact distribution of a round's net result, its SD and more (``bja distribution``).

    Parameters
    ----------
    game : Rules or str
        A :class:`~analyzer.core.rules.Rules`, a spec, a game name, or a name and tokens.
    shoe : Shoe or str, optional
        The shoe (``"A:4,2:4,...,T:16"``); the rules' full decks by default.
    strategy : str, Path or Chart, default "optimal"
        ``"optimal"`` (CDZ- play), ``"chart"`` (the game's derived chart), or a chart
        played as written: a file's path, chart text or a :class:`Chart`.
    exact : bool, default False
        Exact rational arithmetic: the probabilities and the EV are Fractions.
    spots : int, optional
        1 to 7: also the covariance of two spots against one dealer hand (exact without
        resplits, else simulated) and the SD of a round on 1..N spots; optimal play, no shoe.
    jobs : int, optional
        Processes sharing the upcards, 1 to 256 (default: every core); the same figures.
    progress : callable, optional
        Called with a :class:`~analyzer.util.progress.Progress` as upcards finish.

    Returns
    -------
    DistributionResult
        P(net result) for every net result, with the EV, SD, skewness, hit frequency...

    Raises
    ------
    AnalyzerError
        A ChartError for a chart not found or bad; a UsageError for ``spots`` out of range
        or with a shoe or a chart.

    Examples
    --------
    >>> r = distribution("1D S17 DOA NDAS SPL1 NS", jobs=1)
    >>> round(r.sd, 4), round(sum(r.probabilities.values()), 12)
    (1.1431, 1.0)
    """
    progress = callback(progress)
    from analyzer.charts.strategy import ChartStrategy
    from analyzer.engine.analysis import Analysis
    from analyzer.engine.distribution import round_distribution
    from analyzer.report.distribution_model import make_report

    rules, title = resolve(game)
    found = None if shoe is None else shoe_of(rules, shoe)
    count = jobs_of(jobs)
    if spots is not None:
        from analyzer.report.distribution_model import MAX_SPOTS

        if isinstance(spots, bool) or not isinstance(spots, int) or not 1 <= spots <= MAX_SPOTS:
            raise UsageError(f"spots must be a whole number 1 to {MAX_SPOTS}, not "
                             f"{shown(spots)}")
        if shoe is not None or strategy != "optimal":
            raise UsageError("--spots is computed for the optimal CDZ- play off a full shoe: "
                             "leave out --shoe, --chart and --strategy chart")
    play: ChartStrategy | None = None
    name = "optimal (CDZ-)"
    if strategy == "chart":
        from analyzer.charts.evaluate import make_chart

        play = ChartStrategy(make_chart(rules, title, shoe=found).chart, rules)
        name = "basic-strategy chart (derived, total-dependent)"
    elif strategy != "optimal":
        from analyzer.charts.model import Chart

        if isinstance(strategy, str) and not strategy.strip():
            raise ChartError("the strategy is empty: 'optimal', 'chart' or a chart file")
        if isinstance(strategy, (str, Path)) and "\n" not in str(strategy) \
                and not Path(strategy).exists():  # a folder or a device: the loader says so
            raise ChartError(f"chart file {str(strategy)!r} not found (a strategy is 'optimal', "
                             "'chart' or a chart file)")
        loaded, source = load_chart_input(strategy, rules)
        play = ChartStrategy(loaded, rules)
        given_as_file = not isinstance(strategy, Chart) and "\n" not in str(strategy)
        name = f"chart {Path(source).name if given_as_file else source}"
    dist = round_distribution(rules, found, strategy=play, exact=flag(exact, "exact"),
                              name=name, jobs=count, progress=progress)
    analysis = Analysis(rules, found, exact=exact, strategy=play, jobs=count)
    analysis.by_upcard(progress)
    report = make_report(dist, title, analysis.ev())
    if spots is not None:
        import dataclasses

        from analyzer.report.distribution_model import spot_figures

        report = dataclasses.replace(report, spots=spot_figures(rules, jobs=count),
                                     n_spots=spots)
    return DistributionResult(report)


__all__ = ["ChartResult", "DealerResult", "DistributionResult", "EvResult",
           "EvaluationResult", "HandResult", "analyze", "chart", "dealer", "distribution",
           "evaluate_chart", "hand", "load_chart_input"]
