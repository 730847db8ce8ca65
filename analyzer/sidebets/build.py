"""Par sheets as the CLI prints them and as ``bja build`` writes them under ``tables/sidebets``.

The tables are the seed pay tables on full 1-, 2-, 6- and 8-deck shoes with the
default rule switches; each is written atomically, and holds no timestamp, so a
rebuild that changes nothing changes no byte.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from analyzer.report.output import write_atomic
from analyzer.sidebets.bets import BETS, BetOptions, SideBet
from analyzer.sidebets.bustit import READINGS
from analyzer.sidebets.outcomes import Outcomes
from analyzer.sidebets.paytable import PayTable, preset
from analyzer.sidebets.render import percent, render_csv, render_markdown
from analyzer.sidebets.stats import ParSheet, par_sheet
from analyzer.sidebets.suitshoe import SuitShoe

TABLE_DECKS = (1, 2, 6, 8)


def report(
    bet: SideBet, shoe: SuitShoe, outcomes: Outcomes, table: PayTable, options: BetOptions
) -> ParSheet:
    """The par sheet of ``outcomes``; Bust It also states its RTP under the other reading."""
    sheet = par_sheet(bet, outcomes, table, shoe.describe())
    if bet.name != "bust-it":
        return sheet
    other = "ignored" if options.reading == "removed" else "removed"
    alt = par_sheet(bet, bet.outcomes(shoe, dataclasses.replace(options, reading=other)),
                    table, sheet.shoe)
    note = f"other reading ({READINGS[other]}): RTP {percent(alt.rtp)}"
    return dataclasses.replace(sheet, notes=(*sheet.notes, note))


def build_sidebet_tables(root: Path) -> list[Path]:
    """Write ``root/tables/sidebets/<bet>-<n>d.{csv,md}``; return the paths written."""
    out_dir = root / "tables" / "sidebets"
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for bet in BETS.values():
        table = preset(bet)
        for decks in TABLE_DECKS:
            shoe = SuitShoe.decks(decks)
            sheet = report(bet, shoe, bet.outcomes(shoe), table, BetOptions())
            for ext, render in (("csv", render_csv), ("md", render_markdown)):
                path = out_dir / f"{bet.name}-{decks}d.{ext}"
                write_atomic(path, render(sheet))
                written.append(path)
    return written
