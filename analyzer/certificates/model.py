"""A game's certificate: every figure a test lab files about one rule set, computed once.

:func:`certify` gathers what the library already computes and ties it to the
rules and the code that produced it:

* the rules (canonical spec, in words) and the readings and assumptions of the
  game text (``docs/games.md``, :mod:`analyzer.core.presets`);
* the RTP at every level of play (basic chart, CDZ-, CDP1, CDP), exact
  fractions (:mod:`analyzer.report.levels`);
* the distribution of a round's net result under the optimal CDZ- play and
  under the basic chart, with its SD, hit frequency and the odds of the largest
  win and loss (:mod:`analyzer.report.distribution_model`);
* insurance, the dealer table, the strategy chart, the par sheet of every side
  bet offered with the game (:mod:`analyzer.sidebets`);
* under a cut card, the RTP as dealt, and for every game the simulation
  cross-check of the exact distribution (:mod:`analyzer.certificates.sim`);
* engine version, hashes and the verification record
  (:mod:`analyzer.certificates.provenance`).

Every simulation runs at a fixed seed, round count and number of jobs, so a
certificate is a pure function of the rules, the settings and the code.
Renderers (:mod:`analyzer.certificates.render`) compute nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from analyzer.certificates.meta import Meta
from analyzer.certificates.provenance import (
    VERIFICATION,
    Provenance,
    Reference,
    provenance,
)
from analyzer.certificates.sim import AsDealtFigures, SimCheck, as_dealt, cross_check
from analyzer.charts.evaluate import ChartRun, chart_ev, make_chart
from analyzer.charts.model import Chart
from analyzer.charts.strategy import ChartStrategy
from analyzer.core.errors import AnalyzerError
from analyzer.core.levels import SplitLevel
from analyzer.core.presets import Preset
from analyzer.core.rules import Rules, describe_rules, format_spec, parse_spec
from analyzer.core.shoe import format_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.dealer import exact_rows_kept
from analyzer.engine.dist_blocks import check_units
from analyzer.engine.dist_splits import STATE_BUDGET
from analyzer.engine.distribution import round_distribution
from analyzer.report.distribution_model import (
    DistributionReport,
    Spots,
    make_report,
    spot_figures,
)
from analyzer.report.levels import Level, Levels, optimal_not_computed
from analyzer.report.model import DealerTable, InsuranceFigures, dealer_table, insurance_figures
from analyzer.sidebets.stats import ParSheet
from analyzer.sim.config import check_counts, check_cut, check_size
from analyzer.util.progress import Progress, ProgressCallback, report

LEVEL_NAMES = ("chart", "cdz", "cdp1", "cdp")


@dataclass(frozen=True)
class Settings:
    """How a certificate is computed: arithmetic of the RTP levels, and every simulation's
    rounds, seed and jobs (fixed, so the figures are reproducible)."""

    exact: bool = True
    check_rounds: int = 20_000_000
    check_seed: int = 20251201
    as_dealt_rounds: int = 800_000_000  # SE about 0.004 points at four-jacks (issue: <= 0.005)
    as_dealt_seed: int = 20251202
    # The simulations' seed streams: a simulation's figures depend on them (each
    # stream deals its own share of the rounds), so they are fixed, not the cores.
    spots_rounds: int = 4_000_000  # two-spot rounds simulated (the covariance's check)
    spots_seed: int = 20251203
    jobs: int = 2
    # Rounds with three or four split hands are enumerated jointly up to this many combined
    # states; past it they are settled as independent hands and the certificate states the
    # error bound that leaves on each probability.
    budget: int = STATE_BUDGET
    workers: int | None = None  # processes for the exact figures (None: every core)
    # Serve the levels and the split rounds' distributions from the disk memo
    # ($BJA_CACHE_DIR) when there.
    cache: bool = True


@dataclass(frozen=True)
class Variant:
    """The game with one rule changed, and its RTP: how a published figure can differ."""

    change: str
    spec: str
    rtp: float  # CDZ- RTP, float64 arithmetic


def published_variants(rules: Rules) -> tuple[Variant, ...]:
    """The RTP of the game with each of the changes a published figure most often assumes:
    another usual deck count, resplits to four hands, no "21 stands"."""
    changes: list[tuple[str, Rules]] = []
    for decks in (6, 8):
        if decks != rules.decks:
            changes.append((f"{decks} decks instead of {rules.decks}", replace(rules, decks=decks)))
    if 1 < rules.max_hands < 4:
        changes.append((f"resplits to 4 hands instead of {rules.max_hands}",
                        replace(rules, max_hands=4)))
    if rules.stand_on_21:
        changes.append(("without '21 stands'", replace(rules, stand_on_21=False)))
    found = []
    for change, variant in changes:
        try:
            rtp = float(1 + Analysis(variant).ev())
        except AnalyzerError:  # a combination the rules refuse: no such variant
            continue
        found.append(Variant(change, format_spec(variant), rtp))
    return tuple(found)


@dataclass(frozen=True)
class Certificate:
    """Every figure of one game's certificate."""

    name: str
    title: str
    rules: Rules
    shoe: str
    words: tuple[str, ...]
    source: str | None
    readings: tuple[str, ...]
    published_rtp: str | None
    levels: Levels
    optimal: DistributionReport
    chart_dist: DistributionReport
    insurance: InsuranceFigures | None
    dealer: DealerTable
    chart: Chart
    sidebets: tuple[ParSheet, ...]
    as_dealt: AsDealtFigures | None
    check: SimCheck
    provenance: Provenance
    settings: Settings
    verification: tuple[Reference, ...] = VERIFICATION
    meta: Meta = Meta()
    variants: tuple[Variant, ...] = ()  # one-change variants explaining a published RTP
    spots: Spots | None = None  # two spots against one dealer hand

    @property
    def spec(self) -> str:
        return format_spec(self.rules)

    @property
    def ev(self) -> Any:
        """The CDZ- EV of a round (exact in exact mode): the certified figure."""
        return self.levels["cdz"].ev

    @property
    def rtp(self) -> Any:
        return 1 + self.ev


def _level_ev(spec: str, level: str, chart: Chart | None, exact: bool) -> Any:
    """One level's EV, or why it was not computed (memoized on disk by
    :func:`strategy_levels_of` under this function's name, the chart's every cell part of
    the key)."""
    rules = parse_spec(spec)
    try:
        if level == "chart":
            assert chart is not None
            return chart_ev(chart, rules, exact=exact)
        return Analysis(rules, exact=exact, split=SplitLevel(level)).ev()
    except AnalyzerError as err:
        return f"not computed: {err}"


def _levels_ev(spec: str, levels: tuple[str, ...], chart: Chart | None,
               exact: bool) -> tuple[Any, ...]:
    """:func:`_level_ev` of each of ``levels``, in one process: in fractions they share
    the dealer rows each would compute again (:func:`exact_rows_kept`)."""
    with exact_rows_kept():
        return tuple(_level_ev(spec, level, chart, exact) for level in levels)


def _level_groups(names: tuple[str, ...], jobs: int) -> list[tuple[str, ...]]:
    """``names`` in ``min(jobs, len(names))`` groups, a worker each: the first levels
    together, each of the last alone.  The chart and CDZ- value the same hands, so CDZ-
    after the chart reads most of its rows; CDP, the costliest where there are resplits,
    takes a worker of its own."""
    if not names:
        return []
    alone = min(jobs, len(names)) - 1
    together = len(names) - alone
    return [names[:together]] + [(name,) for name in names[together:]]


def workers(settings: Settings) -> int:
    """The processes for the exact figures: the settings', else every core."""
    from analyzer.util.pool import every_core

    return every_core() if settings.workers is None else settings.workers


def strategy_levels_of(rules: Rules, run: ChartRun, settings: Settings,
                       progress: ProgressCallback | None = None) -> Levels:
    """The RTP levels of the certificate: the chart as derived, CDZ-, CDP1, CDP."""
    from analyzer.util.pool import Task, run_all

    spec = format_spec(rules)
    # Without resplits CDP is CDP1 by definition (analyzer.engine.postsplit): computed once.
    names = LEVEL_NAMES if rules.max_hands > 2 else tuple(n for n in LEVEL_NAMES if n != "cdp")
    tasks: list[Task[Any]] = [(_level_ev, (spec, n, run.chart if n == "chart" else None,
                                           settings.exact)) for n in names]

    def together(lacking: list[Task[Any]]) -> list[tuple[list[int], Task[Sequence[Any]]]]:
        """The levels the memo lacks in groups that share their dealer rows."""
        levels = tuple(str(args[1]) for _, args in lacking)
        groups: list[tuple[list[int], Task[Sequence[Any]]]] = []
        start = 0
        for group in _level_groups(levels, workers(settings)):
            groups.append((list(range(start, start + len(group))),
                           (_levels_ev, (spec, group, run.chart if "chart" in group else None,
                                         settings.exact))))
            start += len(group)
        return groups

    results = dict(zip(names, run_all(tasks, jobs=workers(settings), use_cache=settings.cache,
                                      progress=progress, stage="levels", together=together),
                       strict=True))
    results.setdefault("cdp", results["cdp1"])
    found = [Level(level, reason=value) if isinstance(value, str) else Level(level, value)
             for level, value in ((n, results[n]) for n in LEVEL_NAMES)]
    found.append(Level("optimal", reason=optimal_not_computed(
        rules, rules.full_shoe().total, settings.exact)))
    return Levels(rules=spec, shoe=format_shoe(rules.full_shoe()), exact=settings.exact,
                  levels=tuple(found))


def _distributions(rules: Rules, title: str, run: ChartRun, jobs: int, budget: int,
                   progress: ProgressCallback | None = None, memo: bool = True,
                   ) -> tuple[DistributionReport, DistributionReport]:
    """The round's distribution under CDZ- play and under the chart (float arithmetic).

    With ``memo`` the chart reads from the on-disk memo the split rounds it plays as
    the optimal play does (most of them in the seed games, few in Spanish 21's:
    :func:`~analyzer.engine.dist_splits.kept_split_distribution`), and a rerun reads
    every one."""
    optimal = make_report(round_distribution(rules, name="optimal (CDZ-)", jobs=jobs,
                                             budget=budget, memo=memo, progress=progress),
                          title, run.optimum.ev())
    play = ChartStrategy(run.chart, rules)
    charted = make_report(round_distribution(rules, strategy=play,
                                             name="basic-strategy chart (derived, "
                                                  "total-dependent)", jobs=jobs,
                                             budget=budget, memo=memo, progress=progress),
                          title, run.played.ev())
    return optimal, charted


def sidebet_sheets(rules: Rules, bets: tuple[str, ...]) -> tuple[ParSheet, ...]:
    """The par sheet of each bet offered with the game: the game's shoe, seed pay tables."""
    from analyzer.sidebets.bets import BetOptions, get_bet
    from analyzer.sidebets.build import report
    from analyzer.sidebets.paytable import preset
    from analyzer.sidebets.suitshoe import SuitShoe

    shoe = SuitShoe.decks(rules.deck_count, spanish=rules.spanish_decks)
    options = BetOptions(hits_soft_17=rules.hits_soft_17)
    sheets = []
    for name in bets:
        bet = get_bet(name)
        sheets.append(report(bet, shoe, bet.outcomes(shoe, options), preset(bet), options))
    return tuple(sheets)


def check_first(rules: Rules, settings: Settings) -> None:
    """Refuse, before the first stage, what would stop a certificate part way: an infinite
    deck (no shoe to deal), pays the distribution cannot count, a simulation past the
    simulator's sizes.  Each in one line, as its stage would have said it minutes later."""
    rules.full_shoe()  # INF: a UsageError
    check_units(rules)
    runs = [(settings.check_rounds, settings.check_seed, 0),
            (settings.spots_rounds, settings.spots_seed, 0)]
    if rules.cut_card:  # the RTP as dealt, only then
        runs.append((settings.as_dealt_rounds, settings.as_dealt_seed, rules.cut_card))
    for rounds, seed, cut in runs:
        check_counts(rounds, settings.jobs, seed)
        check_cut(rules, cut)
        check_size(rules, rounds, settings.jobs, cut)


def certify(rules: Rules, name: str, preset: Preset | None = None,
            settings: Settings | None = None,
            progress: Callable[[str], None] | None = None,
            meta: Meta | None = None, *,
            stages: ProgressCallback | None = None) -> Certificate:
    """Compute every figure of the certificate of ``rules`` (named ``name``).

    ``progress`` hears each stage's name as it starts; ``stages`` hears how far
    each stage has gone (:class:`~analyzer.util.progress.Progress`, its stage
    named ``"certificate k/n: ..."``)."""
    settings = settings or Settings()
    # chart, levels, distributions, cross-check, spots; as dealt; published variants
    count = 5 + bool(rules.cut_card) + bool(preset is not None and preset.published_rtp)
    step = 0

    def say(message: str) -> ProgressCallback | None:
        """Announce the next stage; a callback for its own progress."""
        nonlocal step
        step += 1
        label = f"certificate {step}/{count}: {message}"
        if progress is not None:
            progress(f"{name}: {message}")
        report(stages, label, 0, 1)
        if stages is None:
            return None
        outer = stages
        return lambda p: outer(Progress(f"{label} ({p.stage})", p.done, p.total))

    check_first(rules, settings)
    title = f"{preset.title} ({name})" if preset else name
    say("chart and CDZ- analysis")
    run = make_chart(rules, f"{title}: basic strategy")
    nested = say(f"RTP by level ({'exact' if settings.exact else 'float'})")
    levels = strategy_levels_of(rules, run, settings, nested)
    nested = say("distributions of a round")
    optimal, charted = _distributions(rules, title, run, workers(settings), settings.budget,
                                      nested, memo=settings.cache)
    nested = say(f"simulation cross-check ({settings.check_rounds:,} rounds)")
    check = cross_check(rules, optimal.probabilities, float(optimal.ev),
                        rounds=settings.check_rounds, seed=settings.check_seed,
                        jobs=settings.jobs, progress=nested)
    say(f"two spots against one dealer hand ({settings.spots_rounds:,} rounds simulated "
        "beside)")
    spots = spot_figures(rules, rounds=settings.spots_rounds, seed=settings.spots_seed,
                         jobs=settings.jobs)  # the simulation's streams: sim.spots.STREAMS
    dealt = None
    if rules.cut_card:
        nested = say(f"RTP as dealt ({settings.as_dealt_rounds:,} rounds)")
        dealt = as_dealt(rules, rounds=settings.as_dealt_rounds, seed=settings.as_dealt_seed,
                         jobs=settings.jobs, progress=nested)
    variants: tuple[Variant, ...] = ()
    if preset is not None and preset.published_rtp:
        say("one-change variants beside the published RTP")
        variants = published_variants(rules)
    shoe = rules.full_shoe()
    return Certificate(
        name=name, title=title, rules=rules, shoe=format_shoe(shoe),
        words=tuple(describe_rules(rules)), source=preset.source if preset else None,
        readings=preset.assumptions if preset else (), published_rtp=(
            preset.published_rtp if preset else None),
        levels=levels, optimal=optimal, chart_dist=charted,
        insurance=insurance_figures(shoe), dealer=dealer_table(run.optimum), chart=run.chart,
        sidebets=sidebet_sheets(rules, preset.sidebets if preset else ()),
        as_dealt=dealt, check=check, provenance=provenance(rules), settings=settings,
        meta=meta or Meta(), variants=variants, spots=spots)


__all__ = ["LEVEL_NAMES", "Certificate", "Settings", "Variant", "certify", "check_first",
           "published_variants", "sidebet_sheets", "strategy_levels_of", "workers"]
