"""A certificate as a document: titled parts of paragraphs, lists and tables of formatted text.

Markdown and HTML (:mod:`analyzer.report.certificate_render`) are two writings
of this one document, so they cannot disagree.  Every number is formatted here,
from the :class:`~analyzer.report.certificate_model.Certificate` alone; exact
fractions are rounded to decimals without passing through a float, so the text
is byte-identical on every machine.  Two blocks are placeholders the renderers
draw themselves: the strategy chart and the plot of the distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.charts.model import LEGEND, UPCARD_LABELS
from analyzer.core.cards import format_value
from analyzer.core.levels import LEVEL_TITLES
from analyzer.report.certificate_model import Certificate
from analyzer.report.certificate_sim import MIN_EXPECTED, P_LIMIT, POOLING_RULE, Z_LIMIT
from analyzer.report.distribution_model import DistributionReport, Extreme, format_result
from analyzer.sidebets.paytable import format_pay
from analyzer.sidebets.render import _fixed
from analyzer.sidebets.stats import CONFIDENCES, ParSheet, rtp_interval


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    name: str = ""  # a class for the HTML table


class ChartBlock:
    """Where the strategy chart goes."""


class PlotBlock:
    """Where the plot of the distribution goes."""


Block = str | tuple[str, ...] | Table | ChartBlock | PlotBlock  # paragraph, list, ...


@dataclass(frozen=True)
class Part:
    title: str
    blocks: tuple[Block, ...]
    level: int = 2


def dec(x: Any, places: int = 10) -> str:
    """A decimal: exact for a fraction, else the float's."""
    return _fixed(x, places) if isinstance(x, Fraction) else f"{float(x):.{places}f}"


def pct(x: Any, places: int = 6) -> str:
    return dec(x * 100, places) + "%"


def frac(x: Any) -> str:
    """```p/q``` (a code span) for an exact fraction, ``-`` for a float."""
    return f"`{x.numerator}/{x.denominator}`" if isinstance(x, Fraction) else "-"


def odds(e: Extreme) -> str:
    n = e.one_in
    return "impossible" if n is None else f"1 in {n:,.1f}"


def _summary(c: Certificate) -> Part:
    d = c.optimal
    chart = c.levels["chart"]
    rows = [("RTP, optimal play (CDZ-)", pct(c.rtp), frac(c.rtp)),
            ("house edge, optimal play (CDZ-)", pct(-c.ev), frac(-c.ev))]
    if chart.computed:
        rows += [("RTP, basic strategy chart", pct(1 + chart.ev), frac(1 + chart.ev))]
    if c.as_dealt is not None:
        a = c.as_dealt
        rows += [(f"RTP as dealt to the cut card ({a.strategy}, simulated)",
                  f"{a.rtp * 100:.4f}% +- {a.se * 100:.4f}% (1 SE)", "-")]
    rows += [("standard deviation of a round (CDZ-)", f"{d.sd:.6f} units", "-"),
             ("hit frequency P(net > 0) (CDZ-)", pct(d.p_win, 4), "-"),
             ("largest win", f"{format_result(d.largest_win.result)} units, "
                             f"{odds(d.largest_win)}", "-"),
             ("simulation cross-check", "agrees" if c.check.agrees else "DISAGREES", "-")]
    if d.dist.error_bound:
        rows += [("distribution: error bound of each probability (resplit rounds past the "
                  "enumeration budget; see the assumptions)", f"{float(d.dist.error_bound):.3g}",
                  "-")]
    decks = f"{c.rules.decks} deck{'s' if c.rules.decks > 1 else ''}"
    about = (f"Rules `{c.spec}`; shoe: {decks} (`{c.shoe}`), shuffled before every round "
             "unless a cut card is stated. Figures per unit initial bet; exact "
             "combinatorial analysis (every "
             "card composition enumerated), no sampling except where marked simulated.")
    return Part("Summary", (about, Table(("figure", "value", "exact"), tuple(rows))))


def _rules(c: Certificate) -> list[Part]:
    parts = [Part("Rules in words", (f"Canonical spec: `{c.spec}`", c.words))]
    if c.readings:
        where = f"rule text {c.source}; readings from GAMES.md" if c.source else "GAMES.md"
        parts.append(Part(f"Readings and assumptions ({where})", (c.readings,)))
    if c.published_rtp:
        parts.append(Part("Published figure", (
            f"The operator publishes an RTP of {c.published_rtp}; this certificate's exact "
            f"CDZ- figure is {pct(c.rtp, 4)}.",)))
    return parts


def _levels(c: Certificate) -> Part:
    rows = []
    for level in c.levels.levels:
        title = LEVEL_TITLES.get(level.name, level.name)
        if level.computed:
            rows.append((level.name, title, pct(level.ev, 9), pct(1 + level.ev, 9),
                         frac(1 + level.ev)))
        else:
            rows.append((level.name, title, "-", "-", level.reason))
    arithmetic = "exact rational arithmetic" if c.levels.exact else "float64 arithmetic"
    return Part("RTP by strategy level", (
        f"Full shoe ({c.levels.shoe}); {arithmetic}. Only split play differs between CDZ-, "
        "CDP1 and CDP" + ("; without resplits CDP is CDP1 by definition (Farmer)."
                          if c.rules.max_hands <= 2 else "."),
        Table(("level", "strategy", "EV", "RTP", "RTP exact"), tuple(rows))))


def _dist_rows(c: Certificate) -> tuple[tuple[str, ...], ...]:
    a, b = c.optimal.probabilities, c.chart_dist.probabilities
    rows = []
    for x in sorted(set(a) | set(b)):
        pa, pb = a.get(x, 0.0), b.get(x, 0.0)
        one_in = f"{1 / float(pa):,.1f}" if pa else "-"
        rows.append((format_result(x), dec(pa, 12), one_in, dec(float(x) * float(pa), 12),
                     dec(pb, 12)))
    rows.append(("total", dec(c.optimal.total, 12), "", dec(c.optimal.mean, 12),
                 dec(c.chart_dist.total, 12)))
    return tuple(rows)


def _figure_rows(d: DistributionReport, e: DistributionReport) -> tuple[tuple[str, ...], ...]:
    def both(f: Any) -> tuple[str, str]:
        return f(d), f(e)

    vi = [" / ".join(f"{v:.4f}" for v in r.volatility().values()) for r in (d, e)]
    rows = [("mean (EV per initial bet)", *both(lambda r: dec(r.mean, 10))),
            ("engine EV of the same play", *both(lambda r: dec(r.ev, 10))),
            ("variance", *both(lambda r: dec(r.variance, 8))),
            ("standard deviation", *both(lambda r: f"{r.sd:.8f}")),
            ("skewness", *both(lambda r: f"{r.skewness:.6f}")),
            ("P(win) = P(net > 0): hit frequency", *both(lambda r: pct(r.p_win, 6))),
            ("P(push) = P(net = 0)", *both(lambda r: pct(r.p_push, 6))),
            ("P(loss) = P(net < 0)", *both(lambda r: pct(r.p_loss, 6))),
            ("largest win", *both(lambda r: f"{format_result(r.largest_win.result)}: "
                                            f"{odds(r.largest_win)}")),
            ("largest loss", *both(lambda r: f"{format_result(r.largest_loss.result)}: "
                                             f"{odds(r.largest_loss)}")),
            ("volatility index 90% / 95% / 99%", vi[0], vi[1]),
            ("error bound per probability", *both(lambda r: f"{float(r.dist.error_bound):.3g}"))]
    return tuple(rows)


def _distribution(c: Certificate) -> list[Part]:
    d = c.optimal
    notes = tuple(dict.fromkeys((*d.dist.notes, *c.chart_dist.dist.notes)))
    intro = ("P(net = x) for every net result x of a round, in units of the initial bet, "
             "under the optimal CDZ- play and under the basic strategy chart; float64 "
             "arithmetic, every round enumerated (splits jointly with the dealer). "
             + ("The mean equals the engine's EV of the same play." if not d.dist.error_bound
                else "Rounds with three or four split hands past the enumeration budget are "
                     "settled approximately (see the assumptions): each probability is within "
                     f"{float(d.dist.error_bound):.3g} of the exact value, so the total and "
                     "the mean differ slightly from 1 and from the engine's exact EV."))
    dist = Table(("net result", "P (CDZ-)", "1 in N (CDZ-)", "contribution (CDZ-)",
                  "P (chart)"), _dist_rows(c), "numbers")
    figures = Table(("figure", "CDZ-", "basic chart"), _figure_rows(d, c.chart_dist), "numbers")
    rows = tuple((f"{n:,}", *(f"{100 * lo:.4f}% .. {100 * hi:.4f}%" for lo, hi in cells.values()))
                 for n, cells in d.intervals())
    ci = Table(("rounds", *(f"{round(100 * k)}%" for k in CONFIDENCES)), rows, "numbers")
    return [Part("Distribution of a round's net result", (intro, dist, PlotBlock(), figures,
                                                          "Assumptions:", notes)),
            Part("Confidence interval of the RTP after n rounds (CDZ-)", (ci,), 3)]


def _insurance(c: Certificate) -> Part:
    ins = c.insurance
    if ins is None:
        return Part("Insurance", ("No ace in the shoe: no insurance offered.",))
    take = "worth taking" if ins.take else "not worth taking"
    hands = ", ".join("".join(format_value(v) for v in h) for h in ins.after_two_cards_take)
    return Part("Insurance", (
        f"Against an ace up, off the full shoe: P(ten in the hole) = {frac(ins.p_ten)} = "
        f"{dec(ins.p_ten, 8)}; EV per unit of the insurance bet {frac(ins.ev)} = "
        f"{pct(ins.ev, 4)} ({take}). Insurance is declined in every other figure.",
        f"Two-card hands after which it is worth taking: {hands or 'none'}."))


def _dealer(c: Certificate) -> Part:
    rows = c.dealer.rows
    names = [name for name, _ in rows[0].outcomes] if rows else []
    body = tuple((format_value(r.upcard), *(dec(v, 6) for _, v in r.outcomes), dec(r.bust, 6))
                 for r in rows)
    rule = "hits" if c.rules.hits_soft_17 else "stands on"
    return Part("Dealer outcomes by upcard", (
        f"Final dealer outcome given the upcard (unconditioned: a peeked blackjack "
        f"included); the dealer {rule} soft 17.",
        Table(("upcard", *names, "bust"), body, "numbers")))


def _chart(c: Certificate) -> Part:
    legend = tuple(f"{code}: {words}" for code, words in LEGEND.items())
    return Part("Basic strategy chart", (
        f"Columns: dealer upcard {' '.join(UPCARD_LABELS)}. This is the chart whose RTP is "
        "the 'chart' level above.", ChartBlock(), "Legend:", legend, "Lookup rules:",
        c.chart.notes))


def _sheet(s: ParSheet) -> tuple[Block, ...]:
    rows = tuple((e.label, format_pay(e.pays), f"{e.combinations:,}", dec(e.probability, 12),
                  dec(e.ret, 12)) for e in s.events)
    figures = (f"RTP {pct(s.rtp, 4)} ({frac(s.rtp)}); EV {frac(s.ev)}; hit frequency "
               f"{pct(s.hit_frequency, 4)}; SD {s.sd:.4f}; 95% interval after 10^6 rounds "
               + "{:.4f}% .. {:.4f}%.".format(*(100 * v for v in rtp_interval(s, 10**6, 0.95))))
    return (f"{s.shoe}; pay table {s.paytable}; pays 'to 1'; combinations: {s.unit}.",
            Table(("event", "pays", "combinations", "probability", "return"), rows, "numbers"),
            figures, s.notes)


def _sidebets(c: Certificate) -> list[Part]:
    if not c.sidebets:
        return []
    parts = [Part("Side bets offered with the game", (
        "Each bet is settled on its own; pay tables of SIDEBETS.md; exact fractions.",))]
    parts += [Part(s.title, _sheet(s), 3) for s in c.sidebets]
    return parts


def _as_dealt(c: Certificate) -> list[Part]:
    a = c.as_dealt
    if a is None:
        return []
    return [Part("RTP as dealt to the cut card", (
        f"The shoe is reshuffled after {a.cut_card} cards. Rounds of one shoe share its cards, "
        "so the RTP as dealt differs from the full-shoe RTP above; it is estimated by the "
        "independent simulator, dealing shoes down to the cut card.",
        Table(("figure", "value"), (
            ("RTP as dealt", f"{a.rtp * 100:.4f}%"),
            ("standard error (per-shoe clusters)", f"{a.se * 100:.4f}%"),
            ("95% interval", f"{(a.rtp - 1.96 * a.se) * 100:.4f}% .. "
                             f"{(a.rtp + 1.96 * a.se) * 100:.4f}%"),
            ("strategy", a.strategy), ("rounds", f"{a.rounds:,}"),
            ("seed / jobs", f"{a.seed} / {a.jobs}")))))]


def _check(c: Certificate) -> Part:
    k = c.check
    rows = tuple((format_result(g.low) if g.low == g.high else
                  f"{format_result(g.low)} .. {format_result(g.high)}",
                  f"{g.observed:,}", f"{g.expected:,.1f}", f"{g.term:.3f}") for g in k.groups)
    verdict = "AGREES" if k.agrees else "DISAGREES"
    return Part("Simulation cross-check", (
        f"The independent simulator played {k.rounds:,} rounds (seed {k.seed}, {k.jobs} jobs), "
        f"each off a freshly shuffled shoe; strategy: {k.strategy}.",
        Table(("figure", "value"), (
            ("simulated mean", f"{k.mean:.6f} +- {k.se:.6f} (1 SE)"),
            ("exact EV", f"{k.exact_ev:.6f}"), ("z-score of the mean", f"{k.z:+.3f}"),
            ("chi-square", f"{k.chi2:.3f}"), ("degrees of freedom", str(k.dof)),
            ("p-value", f"{k.p_value:.4f}"),
            ("results the exact distribution calls impossible", f"{k.unexpected:,}"))),
        f"Pooling rule: {POOLING_RULE} (threshold {MIN_EXPECTED:g} rounds). Agreement "
        f"declared when |z| <= {Z_LIMIT:g} and p >= {P_LIMIT:g}: {verdict}.",
        Table(("net result", "observed", "expected", "(O-E)^2/E"), rows, "numbers")))


def _provenance(c: Certificate) -> list[Part]:
    p, s = c.provenance, c.settings
    refs = tuple((r.source, r.checks, ", ".join(r.tests)) for r in c.verification)
    return [Part("Provenance", (Table(("item", "value"), (
        ("engine", p.engine), ("canonical rules", f"`{p.spec}`"),
        ("SHA-256 of the rules (UTF-8, no newline)", f"`{p.rules_sha256}`"),
        (f"SHA-256 of the source ({len(p.source_files)} files)", f"`{p.source_sha256}`"),
        ("simulation settings", f"cross-check {s.check_rounds:,} rounds, seed {s.check_seed}"
         + (f"; as dealt {s.as_dealt_rounds:,} rounds, seed {s.as_dealt_seed}"
            if c.as_dealt is not None else "") + f"; {s.jobs} jobs"))),
        "The source hash is the SHA-256 of the `sha256sum` listing of the package's .py, "
        ".toml and .c files (paths relative to `analyzer/`, byte order), listed in "
        "certificate.json; in `analyzer/`: `find . -name '*.py' -o -name '*.toml' -o -name "
        "'*.c' | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum | sha256sum`.")),
        Part("Verification record", (
            "Independent references the engine is tested against, and the test files "
            "holding each comparison:", Table(("reference", "checks", "tests"), refs)))]


def document(c: Certificate) -> tuple[str, list[Part]]:
    """The certificate's title and parts, in reading order."""
    title = f"Certificate of mathematical analysis: {c.title}"
    parts = [_summary(c), *_rules(c), _levels(c), *_distribution(c), *_as_dealt(c),
             _insurance(c), _dealer(c), _chart(c), *_sidebets(c), _check(c), *_provenance(c)]
    return title, parts


__all__ = ["Block", "ChartBlock", "Part", "PlotBlock", "Table", "dec", "document", "frac",
           "pct"]
