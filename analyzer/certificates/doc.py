"""A certificate as a document: titled parts of paragraphs, lists and tables of formatted text.

Markdown and HTML (:mod:`analyzer.certificates.render`) are two writings
of this one document, so they cannot disagree.  Every number is formatted here,
from the :class:`~analyzer.certificates.model.Certificate` alone; exact
fractions are rounded to decimals without passing through a float, so the text
is byte-identical on every machine.  Two blocks are placeholders the renderers
draw themselves: the strategy chart and the plot of the distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.certificates.meta import LABELS
from analyzer.certificates.model import Certificate
from analyzer.certificates.sim import MIN_EXPECTED, P_LIMIT, POOLING_RULE, Z_LIMIT
from analyzer.charts.model import LEGEND, UPCARD_LABELS
from analyzer.core.arith import is_exact
from analyzer.core.cards import format_value
from analyzer.core.levels import LEVEL_TITLES
from analyzer.core.presets import READINGS
from analyzer.report.distribution_model import (
    DistributionReport,
    Spots,
    extreme_text,
    format_result,
    one_in_text,
)
from analyzer.sidebets.paytable import format_pay
from analyzer.sidebets.stats import CONFIDENCES, ParSheet, rtp_interval
from analyzer.util.text import fixed, fraction_text


class Literal(str):
    """Text the user wrote (``--meta``): shown as written, never read as markup (the body's
    own text marks code with backticks; a lab's name may hold ``<!--`` or ``[x](y)``)."""

    __slots__ = ()


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
    return fixed(x, places)


def pct(x: Any, places: int = 6) -> str:
    return dec(x * 100, places) + "%"


def frac(x: Any) -> str:
    """```p/q``` (a code span) for an exact fraction, ``-`` for a float."""
    return f"`{fraction_text(x)}`" if is_exact(x) else "-"


FRACTION_INLINE = 24  # characters of p/q printed in the body; longer ones go to the appendix
COUNT_INLINE = 15  # digits of a count printed whole in the body; longer ones as decimals


class Appendix:
    """Exact values too long for the body, numbered A.1, A.2, ... in reading order."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str]] = []

    def add(self, what: str, exact: str) -> str:
        ref = f"A.{len(self.rows) + 1}"
        self.rows.append((ref, what, f"`{exact}`"))
        return ref

    def fraction(self, x: Any, what: str) -> str:
        """``p/q`` inline when short, else a pointer to its appendix row; ``-`` for a float."""
        if not is_exact(x):
            return "-"
        text = fraction_text(x)
        if len(text) <= FRACTION_INLINE:
            return f"`{text}`"
        return f"exact fraction: appendix {self.add(what, text)}"

    def count(self, n: int, what: str) -> str:
        """A whole count inline when short, else a decimal with the integer in the appendix."""
        if len(str(n)) <= COUNT_INLINE:
            return f"{n:,}"
        ref = self.add(what, str(n))
        return f"{scientific(n)} ({ref})"


def scientific(n: int, digits: int = 10) -> str:
    """A huge whole number as ``1.234567890 x 10^36``, rounded exactly (no float)."""
    exponent = len(str(abs(n))) - 1
    mantissa = fixed(Fraction(n, 10**exponent), digits - 1)
    if mantissa.lstrip("-").startswith("10."):  # rounded up to the next power of ten
        exponent += 1
        mantissa = fixed(Fraction(n, 10**exponent), digits - 1)
    return f"{mantissa} x 10^{exponent}"


def _summary(c: Certificate, ax: Appendix) -> Part:
    d = c.optimal
    chart = c.levels["chart"]
    top = " (off the top)" if c.as_dealt is not None else ""
    rows: list[tuple[str, str, str]] = []
    if c.as_dealt is not None:
        a = c.as_dealt
        rows += [("RTP as dealt to the cut card: the RTP the player meets "
                  f"({a.strategy}; simulated, {a.rounds:,} rounds, SE per-shoe clusters)",
                  f"{a.rtp * 100:.4f}% +- {a.se * 100:.4f}% (1 SE)", "-")]
    rows += [(f"RTP, optimal play (CDZ-){top}", pct(c.rtp), ax.fraction(c.rtp, "RTP, CDZ-")),
             (f"house edge, optimal play (CDZ-){top}", pct(-c.ev),
              ax.fraction(-c.ev, "house edge, CDZ-"))]
    if chart.computed:
        rows += [(f"RTP, basic strategy chart{top}", pct(1 + chart.ev),
                  ax.fraction(1 + chart.ev, "RTP, basic strategy chart"))]
    sd_bound = d.sd_bound
    rows += [(f"standard deviation of a round (CDZ-){top}",
              f"{d.sd:.6f} units" + (f" (+- {sd_bound:.2g})" if sd_bound else ""), "-"),
             (f"hit frequency P(net > 0) (CDZ-){top}", pct(d.p_win, 4) + (
                 f" (+- {100 * d.chance_bound(lambda x: x > 0):.2g}%)" if sd_bound else ""),
              "-"),
             (f"largest win (CDZ-){top}",
              extreme_text(d.largest_win, float(d.dist.error_bound), sep=", "), "-"),
             ("simulation cross-check (off the top)", c.check.verdict, "-")]
    if d.dist.error_bound:
        rows += [("distribution: error bound of each probability (resplit rounds past the "
                  "enumeration budget; see the assumptions)", f"{float(d.dist.error_bound):.3g}",
                  "-")]
    decks = f"{c.rules.decks} deck{'s' if c.rules.decks > 1 else ''}"
    dealt = ("dealt to a cut card: the first figure is the RTP as dealt; figures marked "
             "'off the top' are those of a round off a full shoe" if c.as_dealt is not None
             else "shuffled before every round, so the full-shoe figures are the game's")
    about = (f"Rules `{c.spec}`; shoe: {decks} (`{c.shoe}`), {dealt}. Figures per unit "
             "initial bet; exact combinatorial analysis (every card composition "
             "enumerated), no sampling except where marked simulated.")
    return Part("Summary", (about, Table(("figure", "value", "exact"), tuple(rows), "summary")))


def _rules(c: Certificate) -> list[Part]:
    parts = [Part("Rules in words", (f"Canonical spec: `{c.spec}`", c.words))]
    if c.readings:
        read = (f"The rule text read: {c.source}. Each reading is explained in {READINGS}.",)
        parts.append(Part(f"Readings and assumptions ({READINGS})",
                          (*(read if c.source else ()), c.readings)))
    if c.published_rtp:
        blocks: tuple[Block, ...] = (
            f"The operator publishes an RTP of {c.published_rtp}; this certificate's "
            f"{'exact' if c.settings.exact else 'float64'} CDZ- figure for the rules as read "
            f"is {pct(c.rtp, 4)}.",)
        if c.variants:
            rows = tuple((v.change, f"`{v.spec}`", pct(v.rtp, 5)) for v in c.variants)
            blocks += ("The same game with one rule changed at a time (CDZ-, float64 "
                       "arithmetic, computed for this certificate):",
                       Table(("change", "rules", "RTP"), rows, "numbers"),
                       "A total-dependent chart can only do worse than composition-dependent "
                       "play. A published figure differing from the exact one was most likely "
                       "computed for another deck count or split rule, or rounded from a "
                       "simulation; this certificate analyses the rules as stated.")
        parts.append(Part("Published figure", blocks))
    return parts


def _levels(c: Certificate, ax: Appendix) -> Part:
    rows = []
    for level in c.levels.levels:
        title = LEVEL_TITLES.get(level.name, level.name)
        if level.computed:
            rows.append((level.name, title, pct(level.ev, 9), pct(1 + level.ev, 9),
                         ax.fraction(1 + level.ev, f"RTP, level {level.name}")))
        else:
            rows.append((level.name, title, "-", "-", level.reason))
    arithmetic = "exact rational arithmetic" if c.levels.exact else "float64 arithmetic"
    top = ", off the top" if c.as_dealt is not None else ""
    return Part("RTP by strategy level", (
        f"Full shoe ({c.levels.shoe}{top}); {arithmetic}. Only split play differs between CDZ-, "
        "CDP1 and CDP" + ("; without resplits CDP is CDP1 by definition (Farmer)."
                          if c.rules.max_hands <= 2 else "."),
        Table(("level", "strategy", "EV", "RTP", "RTP exact"), tuple(rows))))


def _dist_rows(c: Certificate) -> tuple[tuple[str, ...], ...]:
    a, b = c.optimal.probabilities, c.chart_dist.probabilities
    bound = float(c.optimal.dist.error_bound)
    rows = []
    for x in sorted(set(a) | set(b)):
        pa, pb = a.get(x, 0.0), b.get(x, 0.0)
        one_in = one_in_text(float(pa), bound, say_bound=False).removeprefix("1 in ") \
            if pa or bound else "-"
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
            ("largest win", *both(lambda r: extreme_text(r.largest_win, float(r.dist.error_bound),
                                                         units=""))),
            ("largest loss", *both(lambda r: extreme_text(r.largest_loss,
                                                          float(r.dist.error_bound), units=""))),
            ("volatility index 90% / 95% / 99%", vi[0], vi[1]),
            ("error bound per probability", *both(lambda r: f"{float(r.dist.error_bound):.3g}")),
            ("error bound of the standard deviation", *both(lambda r: f"{r.sd_bound:.3g}"))]
    return tuple(rows)


def _distribution(c: Certificate) -> list[Part]:
    d = c.optimal
    # A note of one play only says whose it is: the two plays' error bounds differ, and
    # only one of them may read suits.
    mine, theirs = d.dist.notes, c.chart_dist.dist.notes
    notes = tuple(dict.fromkeys((*(n if n in theirs else f"CDZ-: {n}" for n in mine),
                                 *(f"basic chart: {n}" for n in theirs if n not in mine))))
    intro = ("P(net = x) for every net result x of a round, in units of the initial bet, "
             "under the optimal CDZ- play and under the basic strategy chart; float64 "
             "arithmetic, every round enumerated (splits jointly with the dealer"
             + (", within an enumeration budget). " if d.dist.error_bound else "). ")
             + ("The mean equals the engine's EV of the same play." if not d.dist.error_bound
                else "Rounds with three or four split hands past the enumeration budget are "
                     "settled approximately (see the assumptions): each probability is within "
                     f"{float(d.dist.error_bound):.3g} of the exact value, so the total "
                     "and the mean are known only to that bound per result, not exactly."))
    bound = [f" +- {float(r.dist.error_bound):.2g}" if r.dist.error_bound else ""
             for r in (d, c.chart_dist)]
    dist = Table(("net result", f"P (CDZ-){bound[0]}", "1 in N (CDZ-)", "contribution (CDZ-)",
                  f"P (chart){bound[1]}"), _dist_rows(c), "numbers")
    figures = Table(("figure", "CDZ-", "basic chart"), _figure_rows(d, c.chart_dist), "numbers")
    rows = tuple((f"{n:,}", *(f"{100 * lo:.4f}% .. {100 * hi:.4f}%" for lo, hi in cells.values()))
                 for n, cells in d.intervals())
    ci = Table(("rounds", *(f"{round(100 * k)}%" for k in CONFIDENCES)), rows, "numbers")
    return [Part("Distribution of a round's net result", (intro, dist, PlotBlock(), figures,
                                                          "Assumptions:", notes)),
            Part("Confidence interval of the RTP after n rounds (CDZ-)", (ci,), 3)]


def _spots(c: Certificate) -> list[Part]:
    k = c.spots
    if k is None:
        return []
    v = float(c.optimal.variance)
    how = ("exact: both spots' cards and the dealer's enumerated jointly (float64)"
           if k.method == "exact" else f"simulated ({k.why_simulated})")
    rows = [("covariance of two spots, same dealer hand (off the top)",
             f"{k.covariance:.6f}" + ("" if k.method == "exact"
                                      else f" +- {k.simulated_se:.6f} (1 SE)"), how),
            ("variance of one spot (off the top)", f"{v:.6f}", "the distribution above")]
    rows += [(f"{Spots.round_label(n)} (off the top)", f"{sd:.6f}",
              f"sqrt({n} v + {n * (n - 1)} c)") for n, sd in k.sd_by_spots(v).items()]
    refused = k.spots_refused(3)
    if refused:
        rows.append((Spots.round_label(k.most_spots + 1, 3), "-", refused))
    if k.method == "exact":
        verdict = "agrees" if k.agrees else "DISAGREES"
        rows.append(("simulated covariance (check)",
                     f"{k.simulated:.6f} +- {k.simulated_se:.6f} (1 SE)",
                     f"{verdict} within 3 SE; {k.rounds:,} rounds, seed {k.seed}"))
    else:
        rows.append(("simulation", f"{k.rounds:,} two-spot rounds", f"seed {k.seed}"))
    return [Part("Several spots", (
        "A player on several spots plays each by the same strategy (CDZ-), and all meet the "
        "same dealer hand from the same shoe: their results are correlated. The variance of "
        "a round on n spots is n v + n(n-1) c (v one spot's variance, c the covariance of "
        "two).", Table(("figure", "value", "how"), tuple(rows))))]


def _insurance(c: Certificate, ax: Appendix) -> Part:
    ins = c.insurance
    if ins is None:
        return Part("Insurance", ("No ace in the shoe: no insurance offered.",))
    take = "worth taking" if ins.take else "not worth taking"
    hands = ", ".join("".join(format_value(v) for v in h) for h in ins.after_two_cards_take)
    return Part("Insurance", (
        f"Against an ace up, off the full shoe: P(ten in the hole) = "
        f"{ax.fraction(ins.p_ten, 'insurance: P(ten in the hole)')} = "
        f"{dec(ins.p_ten, 8)}; EV per unit of the insurance bet "
        f"{ax.fraction(ins.ev, 'insurance: EV')} = "
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


def _sheet(s: ParSheet, ax: Appendix) -> tuple[Block, ...]:
    rows = tuple((e.label, format_pay(e.pays), ax.count(e.combinations,
                                                        f"{s.title}: {e.label}, combinations"),
                  dec(e.probability, 12), dec(e.ret, 12)) for e in s.events)
    figures = (f"RTP {pct(s.rtp, 4)} ({ax.fraction(s.rtp, f'{s.title}: RTP')}); EV "
               f"{ax.fraction(s.ev, f'{s.title}: EV')}; hit frequency "
               f"{pct(s.hit_frequency, 4)}; SD {s.sd:.4f}; 95% interval after 10^6 rounds "
               + "{:.4f}% .. {:.4f}%.".format(*(100 * v for v in rtp_interval(s, 10**6, 0.95))))
    return (f"{s.shoe}; pay table {s.paytable}; pays 'to 1'; combinations: {s.unit}.",
            Table(("event", "pays", "combinations", "probability", "return"), rows, "numbers"),
            figures, s.notes)


def _sidebets(c: Certificate, ax: Appendix) -> list[Part]:
    if not c.sidebets:
        return []
    parts = [Part("Side bets offered with the game", (
        "Each bet is settled on its own; pay tables as in docs/sidebets.md; exact "
        "fractions.",))]
    parts += [Part(s.title, _sheet(s, ax), 3) for s in c.sidebets]
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
    verdict = k.verdict.upper()
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


def _cover(c: Certificate) -> Part:
    m = c.meta
    rows: tuple[tuple[str, str], ...] = tuple((LABELS[name], Literal(m.text(name)))
                                              for name in LABELS)
    rows += (("game analysed", c.title), ("rules analysed", f"`{c.spec}`"),
             ("engine", c.provenance.engine),
             ("source hash (SHA-256, first 16 hex digits)", f"`{c.provenance.source_sha256[:16]}`"))
    return Part("Submission", (Table(("item", "value"), rows, "cover"),))


def _signoff(c: Certificate) -> Part:
    m = c.meta
    rows = tuple((role, Literal(m.text(name)), "", "") for role, name in (
        ("prepared by (mathematician)", "mathematician"), ("reviewed by", "reviewer")))
    return Part("Sign-off", (
        f"The figures of this certificate were computed by {c.provenance.engine} from the rules "
        f"`{c.spec}` and the source whose hash is given under Provenance.",
        Table(("role", "name", "signature", "date"), rows, "signoff")))


def _appendix(ax: Appendix) -> list[Part]:
    if not ax.rows:
        return []
    return [Part("Appendix A: exact values", (
        "Exact fractions and counts too long for the tables above, referred to there as "
        "A.n (certificate.json holds them too).",
        Table(("ref", "figure", "exact value"), tuple(ax.rows), "appendix")))]


def document(c: Certificate) -> tuple[str, list[Part]]:
    """The certificate's title and parts, in reading order."""
    title = f"Certificate of mathematical analysis: {c.title}"
    ax = Appendix()
    parts = [_cover(c), _summary(c, ax), *_rules(c), _levels(c, ax), *_distribution(c),
             *_spots(c), *_as_dealt(c), _insurance(c, ax), _dealer(c), _chart(c), *_sidebets(c, ax),
             _check(c), *_provenance(c), _signoff(c)]
    return title, [*parts, *_appendix(ax)]


__all__ = ["Appendix", "Block", "ChartBlock", "Part", "PlotBlock", "Table", "dec", "document",
           "frac", "pct", "scientific"]
