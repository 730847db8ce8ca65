"""A game's certificate: every figure a test lab files about one rule set, computed once.

:func:`certify` gathers what the library already computes and ties it to the
rules and the code that produced it:

* the rules (canonical spec, in words) and the readings and assumptions of the
  game text (``../shared/GAMES.md``, :mod:`analyzer.core.presets`);
* the RTP at every level of play (basic chart, CDZ-, CDP1, CDP), exact
  fractions (:mod:`analyzer.report.levels`);
* the distribution of a round's net result under the optimal CDZ- play and
  under the basic chart, with its SD, hit frequency and the odds of the largest
  win and loss (:mod:`analyzer.report.distribution_model`);
* insurance, the dealer table, the strategy chart, the par sheet of every side
  bet offered with the game (:mod:`analyzer.sidebets`);
* under a cut card, the RTP as dealt, and for every game the simulation
  cross-check of the exact distribution (:mod:`analyzer.report.certificate_sim`);
* engine version, hashes and the verification record
  (:mod:`analyzer.report.certificate_provenance`).

Every simulation runs at a fixed seed, round count and number of jobs, so a
certificate is a pure function of the rules, the settings and the code.
Renderers (:mod:`analyzer.report.certificate_render`) compute nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analyzer.charts.evaluate import ChartRun, make_chart
from analyzer.charts.model import Chart
from analyzer.charts.strategy import ChartStrategy
from analyzer.core.errors import AnalyzerError
from analyzer.core.presets import Preset
from analyzer.core.rules import Rules, describe_rules, format_spec, parse_spec
from analyzer.core.shoe import Shoe, format_shoe
from analyzer.engine.analysis import Analysis
from analyzer.engine.distribution import round_distribution
from analyzer.report.certificate_provenance import (
    VERIFICATION,
    Provenance,
    Reference,
    provenance,
)
from analyzer.report.certificate_sim import AsDealtFigures, SimCheck, as_dealt, cross_check
from analyzer.report.distribution_model import DistributionReport, make_report
from analyzer.report.levels import Level, Levels, optimal_not_computed
from analyzer.report.model import DealerTable, InsuranceFigures, dealer_table, insurance_figures
from analyzer.sidebets.stats import ParSheet

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
    jobs: int = 2
    workers: int = 2  # processes computing the exact levels side by side
    cache: bool = True  # serve the levels from the disk memo ($BJA_CACHE_DIR) when there


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


def _level_ev(spec: str, level: str, chart: Chart | None, exact: bool,
              _fingerprint: str) -> Any:
    """One level's EV, or why it was not computed (a worker's task, memoized on disk by
    :mod:`analyzer.shoestate.memo` under the engine's fingerprint)."""
    rules = parse_spec(spec)
    try:
        if level == "chart":
            assert chart is not None
            return Analysis(rules, exact=exact, strategy=ChartStrategy(chart, rules)).ev()
        return Analysis(rules, exact=exact, split=level).ev()
    except AnalyzerError as err:
        return f"not computed: {err}"


def strategy_levels_of(rules: Rules, run: ChartRun, settings: Settings) -> Levels:
    """The RTP levels of the certificate: the chart as derived, CDZ-, CDP1, CDP."""
    from analyzer.shoestate.memo import run_all  # joblib: only when certifying

    spec = format_spec(rules)
    # Without resplits CDP is CDP1 by definition (analyzer.engine.postsplit): computed once.
    names = LEVEL_NAMES if rules.max_hands > 2 else tuple(n for n in LEVEL_NAMES if n != "cdp")
    tasks = [(_level_ev, (spec, level, run.chart if level == "chart" else None,
                          settings.exact)) for level in names]
    results = dict(zip(names, run_all(tasks, jobs=settings.workers, use_cache=settings.cache),
                       strict=True))
    results.setdefault("cdp", results["cdp1"])
    found = [Level(level, reason=value) if isinstance(value, str) else Level(level, value)
             for level, value in ((n, results[n]) for n in LEVEL_NAMES)]
    found.append(Level("optimal", reason=optimal_not_computed(
        rules, Shoe.decks(rules.decks).total, settings.exact)))
    return Levels(rules=spec, shoe=format_shoe(Shoe.decks(rules.decks)), exact=settings.exact,
                  levels=tuple(found))


def _distributions(rules: Rules, title: str, run: ChartRun,
                   jobs: int) -> tuple[DistributionReport, DistributionReport]:
    """The round's distribution under CDZ- play and under the chart (float arithmetic)."""
    optimal = make_report(round_distribution(rules, name="optimal (CDZ-)", jobs=jobs), title,
                          run.optimum.ev())
    play = ChartStrategy(run.chart, rules)
    charted = make_report(round_distribution(rules, strategy=play,
                                             name="basic-strategy chart (derived, "
                                                  "total-dependent)", jobs=jobs),
                          title, run.played.ev())
    return optimal, charted


def sidebet_sheets(rules: Rules, bets: tuple[str, ...]) -> tuple[ParSheet, ...]:
    """The par sheet of each bet offered with the game: the game's shoe, seed pay tables."""
    from analyzer.sidebets.bets import BetOptions, get_bet
    from analyzer.sidebets.build import report
    from analyzer.sidebets.paytable import preset
    from analyzer.sidebets.suitshoe import SuitShoe

    shoe = SuitShoe.decks(rules.decks)
    options = BetOptions(hits_soft_17=rules.hits_soft_17)
    sheets = []
    for name in bets:
        bet = get_bet(name)
        sheets.append(report(bet, shoe, bet.outcomes(shoe, options), preset(bet), options))
    return tuple(sheets)


def certify(rules: Rules, name: str, preset: Preset | None = None,
            settings: Settings | None = None,
            progress: Callable[[str], None] | None = None) -> Certificate:
    """Compute every figure of the certificate of ``rules`` (named ``name``)."""
    say = progress or (lambda _msg: None)
    settings = settings or Settings()
    title = f"{preset.title} ({name})" if preset else name
    say(f"{name}: chart and CDZ- analysis")
    run = make_chart(rules, f"{title}: basic strategy")
    say(f"{name}: RTP by level ({'exact' if settings.exact else 'float'})")
    levels = strategy_levels_of(rules, run, settings)
    say(f"{name}: distributions of a round")
    optimal, charted = _distributions(rules, title, run, settings.jobs)
    say(f"{name}: simulation cross-check ({settings.check_rounds:,} rounds)")
    check = cross_check(rules, optimal.probabilities, float(optimal.ev),
                        rounds=settings.check_rounds, seed=settings.check_seed,
                        jobs=settings.jobs)
    dealt = None
    if rules.cut_card:
        say(f"{name}: RTP as dealt ({settings.as_dealt_rounds:,} rounds)")
        dealt = as_dealt(rules, rounds=settings.as_dealt_rounds, seed=settings.as_dealt_seed,
                         jobs=settings.jobs)
    shoe = Shoe.decks(rules.decks)
    return Certificate(
        name=name, title=title, rules=rules, shoe=format_shoe(shoe),
        words=tuple(describe_rules(rules)), source=preset.source if preset else None,
        readings=preset.assumptions if preset else (), published_rtp=(
            preset.published_rtp if preset else None),
        levels=levels, optimal=optimal, chart_dist=charted,
        insurance=insurance_figures(shoe), dealer=dealer_table(run.optimum), chart=run.chart,
        sidebets=sidebet_sheets(rules, preset.sidebets if preset else ()),
        as_dealt=dealt, check=check, provenance=provenance(rules), settings=settings)


__all__ = ["LEVEL_NAMES", "Certificate", "Settings", "certify", "sidebet_sheets",
           "strategy_levels_of"]
