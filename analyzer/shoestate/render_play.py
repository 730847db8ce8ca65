"""Renderers of playing indices and of the edge by true count (text, Markdown, JSON)."""

from __future__ import annotations

from typing import TypedDict

from analyzer.core.version import ENGINE
from analyzer.shoestate.counts import CountSystem, builtin_of
from analyzer.shoestate.edge import EdgeByCount
from analyzer.shoestate.indices import IndexResult
from analyzer.shoestate.published import ILLUSTRIOUS_18_FAB_4, SCHLESINGER_SOURCE
from analyzer.util.text import md_literal, md_table, text_table

PUBLISHED = {p.decision: p for p in ILLUSTRIOUS_18_FAB_4}
SHOWN_SHARE = 0.001  # edge table: bins rarer than this with no analysed state are not shown
INDEX_METHOD = (
    "value = EV(first) - EV(second), exact on the shoe at each whole true count "
    "(Griffin's proportional deflection of the unseen cards, as whole shoes), "
    "the index where it crosses 0 (linear between the bracketing counts)")


class IndexJson(TypedDict):
    """One decision's index; ``values`` keyed by true count (``"-2"``, ``"3"``)."""

    decision: str
    label: str
    index: float | None
    rising: bool
    rule: str
    values: dict[str, float]
    published: str | None
    comparison: str | None


class IndicesJson(TypedDict):
    """``bja indices --json``."""

    game: str
    rules: str
    system: str
    engine: str
    method: str
    unseen_cards: int | None
    published_source: str | None
    indices: list[IndexJson]


class BinJson(TypedDict):
    true_count: int
    share: float
    share_se: float
    states: int
    edge: float | None
    edge_se: float | None


class StateJson(TypedDict):
    dealt: int
    true_count: float
    ev: float


class EdgeJson(TypedDict):
    """``bja edge --json``."""

    game: str
    rules: str
    system: str
    engine: str
    cut_card: int
    cut_card_assumed: bool
    seed: int
    count_samples: int
    full_ev: float
    mean_ev: float
    mean_se: float
    bins: list[BinJson]
    states: list[StateJson]


PUBLISHED_SYSTEM = "hi-lo"  # the published indices are Hi-Lo's: no other count is compared


def _compared(system: CountSystem) -> bool:
    """Whether the published indices apply: the count has Hi-Lo's tags (any name)."""
    return builtin_of(system) == PUBLISHED_SYSTEM


def _published(r: IndexResult, system: CountSystem) -> tuple[str, str]:
    pub = PUBLISHED.get(r.decision.key) if _compared(system) else None
    if pub is None:
        return "", ""
    if not r.values:
        return f"{pub.index:+d}", "not computed"
    if r.index is None:
        return f"{pub.index:+d}", "no flip found"
    gap = r.index - pub.index
    return f"{pub.index:+d}", "agrees" if abs(gap) <= 0.5 else f"differs by {gap:+.2f}"


def indices_json(results: list[IndexResult], game: str, spec: str,
                 system: CountSystem) -> IndicesJson:
    return {"game": game, "rules": spec, "system": system.name, "engine": ENGINE,
            "method": INDEX_METHOD, "unseen_cards": results[0].unseen if results else None,
            "published_source": SCHLESINGER_SOURCE if _compared(system) else None,
            "indices": [{"decision": r.decision.key, "label": r.decision.label,
                         "index": r.index, "rising": r.rising, "rule": r.rule,
                         "values": {str(tc): v for tc, v in r.values},
                         "published": _published(r, system)[0] or None,
                         "comparison": _published(r, system)[1] or None} for r in results]}


def indices_text(results: list[IndexResult], game: str, spec: str, system: CountSystem,
                 markdown: bool = False) -> str:
    head = ["decision", "index", "play", "published", "comparison"]
    rows = [[r.decision.label, r.index_text, r.rule,
             *_published(r, system)] for r in results]
    unseen = results[0].unseen if results else 0
    about = [f"rules: {spec}; count: {system.name}; {unseen} cards unseen (true count = centred "
             "running count of every card seen, the upcard and hand included, per 52 unseen)",
             f"method: {INDEX_METHOD}",
             f"published: {SCHLESINGER_SOURCE}; 'agrees' = within 0.5 of the printed integer"
             if _compared(system) else
             f"published: none for {system.name} (the published indices are Hi-Lo's: "
             f"{SCHLESINGER_SOURCE})"]
    if markdown:
        return "\n".join([f"# Playing indices: {game} ({md_literal(system.name)})", "",
                          f"- Engine: {ENGINE}", *[f"- {a}" for a in about], "",
                          *md_table(head, rows, "l" * len(head), compact=True)]) + "\n"
    return "\n".join([f"Playing indices: {game} ({system.name})", *about, "",
                      *text_table(head, rows, align="l" * len(head), strip=False)])


def _pct(x: float | None, digits: int = 3) -> str:
    return "" if x is None else f"{x * 100:+.{digits}f}"


def edge_about(model: EdgeByCount) -> list[str]:
    return [
        f"rules: {model.spec}; count: {model.system}; cut card after {model.cut} cards"
        + (" (assumed: not the game's own)" if model.cut_assumed else "")
        + f"; seed {model.seed}",
        f"EXACT: the EV of each of the {len(model.states)} sampled shoe states (full analysis, "
        "optimal CDZ- play re-optimised on that state, one round)",
        f"SAMPLED: which states (k cards dealt at random, k uniform below the cut card), "
        f"and {model.count_samples:,} count-only states for the true-count distribution; "
        "errors are one standard error",
        f"EV off the top {model.full_ev * 100:+.3f}%; mean over the sampled states (flat bet, "
        f"re-optimising player) {model.mean_ev * 100:+.3f}% +/- {model.mean_se * 100:.3f}%"]


def edge_json(model: EdgeByCount, game: str) -> EdgeJson:
    return {"game": game, "rules": model.spec, "system": model.system,
            "engine": ENGINE, "cut_card": model.cut,
            "cut_card_assumed": model.cut_assumed, "seed": model.seed,
            "count_samples": model.count_samples, "full_ev": model.full_ev,
            "mean_ev": model.mean_ev, "mean_se": model.mean_se,
            "bins": [{"true_count": b.true_count, "share": b.share, "share_se": b.share_se,
                      "states": b.states, "edge": b.edge, "edge_se": b.edge_se}
                     for b in model.bins],
            "states": [{"dealt": k, "true_count": t, "ev": e} for k, t, e in model.states]}


def edge_text(model: EdgeByCount, game: str, markdown: bool = False) -> str:
    head = ["TC", "share %", "+/-", "states", "edge %", "+/-"]
    rows = [[f"{b.true_count:+d}", f"{b.share * 100:.2f}", f"{b.share_se * 100:.2f}",
             str(b.states), _pct(b.edge), _pct(b.edge_se).lstrip("+")] for b in model.bins
            if b.states or b.share >= SHOWN_SHARE]
    about = [*edge_about(model), f"bins holding under {SHOWN_SHARE:.1%} of rounds and no "
             "analysed state are left out of this table (not of the JSON)"]
    if markdown:
        return "\n".join([f"# Edge by true count: {game} ({md_literal(model.system)})", "",
                          f"- Engine: {ENGINE}", *[f"- {a}" for a in about], "",
                          "![edge by true count](edge.png)", "",
                          *md_table(head, rows, "l" * len(head), compact=True)]) + "\n"
    return "\n".join([f"Edge by true count: {game} ({model.system})", *about, "",
                      *text_table(head, rows, align="r" * len(head), strip=False)])


__all__ = ["edge_json", "edge_text", "indices_json", "indices_text"]
