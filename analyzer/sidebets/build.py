"""Par sheets as the CLI prints them and as ``bja build`` writes them.

``bja build`` writes every bet's par sheet for every shipped pay table on full 1-,
2-, 6- and 8-deck shoes (and 6 and 8 Spanish decks for the bets dealt with
Spanish 21), with the game-protection section, under ``tables/sidebets``, and a
summary across bets in ``reports/sidebets/protection.md``.  All of them are
written as one set; none holds a timestamp, and the simulations are seeded, so
a rebuild that changes nothing changes no byte.

File names: ``<bet>-<n>d.{md,csv}`` for the bet's default table,
``<bet>-<n>d-<table>.{md,csv}`` for the others (``<n>spanish`` for Spanish decks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from analyzer.sidebets.bets import BETS, BetOptions, SideBet, get_bet
from analyzer.sidebets.bustit import READINGS, BustItReading
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable, presets
from analyzer.sidebets.protection import DEFAULT_SHOES, SEED, protection, release_deals
from analyzer.sidebets.render import render_csv, render_markdown
from analyzer.sidebets.stats import ParSheet, par_sheet
from analyzer.sidebets.suitshoe import SuitShoe
from analyzer.util.files import write_files
from analyzer.util.pool import run_tasks
from analyzer.util.text import md_table, percent

TABLE_DECKS = (1, 2, 6, 8)
SPANISH_DECKS = (6, 8)
PLAYED_ROUNDS = 100_000  # Bust It's played reading in the built tables


def report(
    bet: SideBet, shoe: SuitShoe, outcomes: Outcomes, table: PayTable, options: BetOptions,
    *, protect: bool = False, shoes: int = DEFAULT_SHOES, seed: int = SEED,
    played_rounds: int = 0,
) -> ParSheet:
    """The par sheet of ``outcomes``; Bust It also states its RTP under the other reading.

    With ``protect`` (``outcomes`` counted with removals) it carries the game-protection
    section: effects of removal, counts, and a counter simulated over ``shoes`` shoes.
    With ``played_rounds``, Bust It states its third reading too (the player's hits dealt
    before the dealer draws), simulated over that many rounds.
    """
    sheet = par_sheet(bet, outcomes, table, shoe.describe())
    full, spanish = shoe.full_decks(), shoe.spanish_decks()
    dealt = (full, False) if full else (spanish, True) if spanish else None
    if table.decks is not None and dealt is not None and dealt != (table.decks, table.spanish):
        sheet = dataclasses.replace(sheet, notes=(*sheet.notes, (
            f"the pay table is published for {_decks(table.decks, table.spanish)}; this shoe "
            f"holds {_decks(*dealt)}" + (": here the bet favours the player"
                                         if sheet.rtp > 1 else ""))))
    if protect:
        sheet = dataclasses.replace(sheet, protection=protection(
            bet, shoe, outcomes, table, options, shoes=shoes, seed=seed))
    if bet.name != "bust-it":
        return sheet
    other: BustItReading = "ignored" if options.reading == "removed" else "removed"
    alt = par_sheet(bet, bet.outcomes(shoe, dataclasses.replace(options, reading=other)),
                    table, sheet.shoe)
    notes = [f"other reading ({READINGS[other]}): RTP {percent(alt.rtp)}"]
    if played_rounds:
        notes.append(_played_note(shoe, table, options, played_rounds, seed))
    return dataclasses.replace(sheet, notes=(*sheet.notes, *notes))


def _decks(n: int, spanish: bool) -> str:
    return f"{n} {'Spanish' if spanish else 'standard'} deck{'s' * (n > 1)}"


def _played_note(shoe: SuitShoe, table: PayTable, options: BetOptions, rounds: int,
                 seed: int) -> str:
    """Bust It's third reading, simulated: the main game's rules at this shoe's size."""
    from analyzer.core.rules import Rules
    from analyzer.sidebets.bustplayed import simulate_played, standard_error

    bet = get_bet("bust-it")
    rules = Rules(decks=max(1, round(shoe.total / 52)), hits_soft_17=options.hits_soft_17)
    played = simulate_played(shoe.values(), rules, rounds, seed)
    pays = {e: float(p) for e, p in {**bet.fixed, **table.pays}.items()}
    mean, se = standard_error(played, pays)
    return (f"played reading (the player's cards dealt as he plays the main game's optimal "
            f"strategy, DAS, up to 4 hands, before the dealer draws; simulated, {rounds:,} "
            f"rounds, seed {seed}): RTP {100 * (1 + mean):.3f}% (SE {100 * se:.3f}%)")


def shoes_of(bet: SideBet) -> list[tuple[str, SuitShoe]]:
    """The shoes ``bet`` is tabled for, with their file-name tags (``6d``, ``6spanish``)."""
    out = [(f"{n}d", SuitShoe.decks(n)) for n in TABLE_DECKS]
    if bet.spanish:
        out += [(f"{n}spanish", SuitShoe.decks(n, spanish=True)) for n in SPANISH_DECKS]
    return out


def _sheets(names: tuple[str, ...], tag: str, shoe: SuitShoe, shoes: int
            ) -> list[list[tuple[str, ParSheet]]]:
    """Every pay table's sheet of some bets on one shoe, bet by bet (a worker's task: the
    bets share the shoe's simulated deal)."""
    options = BetOptions()
    found = []
    for name in names:
        bet = get_bet(name)
        outcomes = bet.outcomes(shoe, options, removals=True)
        out = []
        for table in presets(bet):
            stem = f"{bet.name}-{tag}" + ("" if table.name == bet.default_table else
                                          f"-{table.name}")
            played = PLAYED_ROUNDS if bet.name == "bust-it" and \
                table.name == bet.default_table else 0
            out.append((stem, report(bet, shoe, outcomes, table, options, protect=True,
                                     shoes=shoes, played_rounds=played)))
        found.append(out)
    release_deals()  # a worker keeps no dealt shoes between tasks
    return found


def _summary(sheets: list[ParSheet]) -> str:
    rows = []
    for s in sheets:
        pro = s.protection
        if pro is None:
            continue
        sim = pro.simulated
        trigger = "never" if pro.best.trigger is None else f"{pro.best.trigger:+.2f}"
        rows.append([s.title, s.paytable, s.shoe, percent(-s.ev, 3), str(pro.best.level),
                     f"{pro.best.correlation:.3f}", trigger,
                     "" if sim is None else f"{100 * sim.positive:.2f}%",
                     "" if sim is None else f"{sim.win_per_100:+.3f} ± {sim.win_se:.3f}"])
    return "\n".join([
        "# Side bets: game protection", "",
        "For each bet, pay table and shoe: the house edge off the top (exact), the best "
        "rounded linear count (level 1-3, tags from the exact effects of removal) and its "
        "betting correlation, the true count at which the bet turns positive (linear "
        "estimate), and a counter betting 1 unit only at or above it, dealt to the cut card "
        "(simulated; ± one standard error). Details: tables/sidebets/.", "",
        *md_table(["bet", "pay table", "shoe", "house edge", "count level",
                   "betting correlation", "trigger true count", "rounds bet",
                   "units won per 100 rounds"], rows), ""])


def build_sidebet_tables(root: Path, *, jobs: int = 2, shoes: int = DEFAULT_SHOES,
                         bets: Sequence[str] | None = None) -> list[Path]:
    """Write every par sheet under ``root/tables/sidebets`` and the protection summary under
    ``root/reports/sidebets``, as one set; return the paths written.  ``bets`` (all by
    default) and ``shoes`` (the counter's simulation) are for tests."""
    out_dir = root / "tables" / "sidebets"
    report_dir = root / "reports" / "sidebets"
    chosen = [get_bet(b) for b in bets] if bets is not None else list(BETS.values())
    cases = [(bet.name, tag, shoe) for bet in chosen for tag, shoe in shoes_of(bet)]
    # A task per shoe and share of its bets: the bets of a task share the shoe's
    # simulated deal; ``jobs`` shares keep the workers even.
    groups: dict[str, list[int]] = {}
    for i, (_, tag, _) in enumerate(cases):
        groups.setdefault(tag, []).append(i)
    parts = [part for members in groups.values() for k in range(jobs)
             if (part := members[k::jobs])]
    tasks = [(_sheets, (tuple(cases[i][0] for i in part), cases[part[0]][1],
                        cases[part[0]][2], shoes)) for part in parts]
    sheets: dict[int, list[tuple[str, ParSheet]]] = {}
    for part, found in zip(parts, run_tasks(tasks, jobs=jobs), strict=True):
        sheets.update(zip(part, found, strict=True))
    files: dict[Path, str] = {}
    summary: list[ParSheet] = []
    for i in range(len(cases)):  # bet by bet, as the summary lists them
        for stem, sheet in sheets[i]:
            files[out_dir / f"{stem}.md"] = render_markdown(sheet)
            files[out_dir / f"{stem}.csv"] = render_csv(sheet)
            summary.append(sheet)
    files[report_dir / "protection.md"] = _summary(summary)
    out_dir.mkdir(parents=True, exist_ok=True)
    report_dir.mkdir(parents=True, exist_ok=True)
    return write_files(files)
