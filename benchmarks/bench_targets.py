"""Issue 26's targets in one run: every row of its table measured, with its verdict.

The issue is met when every target holds in one run of the benchmarks on this machine,
each beside its reference where one exists; this script is that run.  Each row is
measured as the other benchmarks measure it (fresh processes, a cold memo folder,
Python's bytecode cache on: :mod:`benchmarks.timing`), the fast commands as the median
of ``--repeat`` runs:

* ``bja build``, cold, into ``--root`` (``bench_build.py``; a rebuild of unchanged
  sources changes no byte of the repository);
* ``bja ev --rules "6D S17 DOA DAS SPL3 LS" --no-cache --json`` against Eric Farmer's
  analyzer (``--reference``, built as docs/speed.md says) on the same rules, the two
  alternating, the ratio taken pair by pair;
* the same with ``--exact``; the studies of ``bench_studies.py``;
* ``bja certify --game NAME`` cold for each game of ``--games`` (the PDF too when
  Chromium is there);
* the simulator against a C build of its own loop (``bench_simulate.py``);
* the README's test command (``bench_tests.py``).

It ends with the Markdown table the README and the closing notes quote, the load
average before and after (a busy neighbour shows there first).

    python benchmarks/bench_targets.py --reference /path/to/strategy [--repeat 3]
        [--only build ev exact studies certify simulate tests] [--games charlie7 ...]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_build  # noqa: E402
import bench_studies  # noqa: E402
import bench_tests  # noqa: E402
from bench_engine import ROOT, RULES, bja, machine, reference_input  # noqa: E402
from timing import Run, measured  # noqa: E402

SEED_GAMES = ("charlie7", "free-bet", "privilege", "four-jacks", "spanish21")
PARTS = ("build", "ev", "exact", "studies", "certify", "simulate", "tests")
# (command after `bja`, target wall seconds): the studies' rows of the issue's table,
# bench_studies.py's commands that have a target
STUDIES = tuple((command, target) for command, target in bench_studies.STUDIES
                if target == target)  # NaN: no target

Row = tuple[str, str, str, str, bool]  # what, measured, reference, target, met


def cold(argv: list[str]) -> Run:
    """``argv`` in a fresh process with an empty memo folder of its own."""
    with tempfile.TemporaryDirectory(prefix="bja-target-") as memo:
        return measured(argv, env={**os.environ, "BJA_CACHE_DIR": memo}, cwd=memo)


def build_row(root: str) -> Row:
    run, _, by_game = bench_build.timed_build(root)
    certs = ", ".join(f"{g} {s:.0f} s" for g, s in by_game.items())
    return ("`bja build`, cold", f"{run.wall / 60:.1f} min ({certs})", "-", "<= 5 min",
            run.wall <= 300)


def ev_row(reference: str | None, repeat: int) -> Row:
    what = f'`bja ev --rules "{RULES}" --no-cache --json`'
    argv = [*bja(), "ev", "--rules", RULES, "--no-cache", "--json"]
    if reference is None:
        run = statistics.median(cold(argv).wall for _ in range(repeat))
        return what, f"{run:.2f} s", "no --reference given", "<= 0.5x the reference", False
    ours, theirs = [], []
    for _ in range(repeat):  # A B A B: each pair under the same load
        ours.append(cold(argv).wall)
        with tempfile.TemporaryDirectory() as tmp:
            theirs.append(measured([reference], stdin=reference_input(), cwd=tmp).wall)
    ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
    return (what, f"{statistics.median(ours):.2f} s ({ratio:.2f}x, median of {repeat} pairs)",
            f"{statistics.median(theirs):.2f} s", "<= 0.5x the reference", ratio <= 0.5)


def exact_row(repeat: int) -> Row:
    argv = [*bja(), "ev", "--rules", RULES, "--no-cache", "--json", "--exact"]
    wall = statistics.median(cold(argv).wall for _ in range(repeat))
    return "the same, `--exact`", f"{wall:.2f} s", "-", "<= 10 s", wall <= 10


def study_rows(repeat: int) -> list[Row]:
    rows = []
    for command, target in STUDIES:
        wall = statistics.median(bench_studies.run(command, None).wall for _ in range(repeat))
        rows.append((f"`bja {command}`", f"{wall:.2f} s", "-", f"<= {target:g} s",
                     wall <= target))
    return rows


def certify_rows(games: list[str]) -> list[Row]:
    pdf = shutil.which("chromium") is not None or shutil.which("chromium-browser") is not None
    rows = []
    for game in games:
        with tempfile.TemporaryDirectory(prefix="bja-cert-") as out:
            argv = [*bja(), "certify", "--game", game, "--out", str(Path(out) / game),
                    "--quiet", *([] if pdf else ["--no-pdf"])]
            run = cold(argv)
        rows.append((f"`bja certify --game {game}`" + ("" if pdf else " (no Chromium: no PDF)"),
                     f"{run.wall:.1f} s", "-", "<= 60 s", run.wall <= 60))
    return rows


def simulate_row(repeat: int) -> Row:
    import bench_simulate

    with tempfile.TemporaryDirectory() as tmp:
        lib = bench_simulate.build_reference(os.environ.get("CC", "cc"), shlex.split("-O2"),
                                             Path(tmp))
        ours, theirs, ratio = bench_simulate.compare(lib, "charlie7", "chart", 5_000_000,
                                                     repeat)
    return ("simulator, one core (charlie7, chart)",
            f"{ours / 1e6:.1f} M rounds/CPU-s ({1 / ratio:.2f}x the C loop's time)",
            f"C build of the same loop: {theirs / 1e6:.1f} M", ">= 10 M, or <= 1.2x the C loop",
            ours >= 10e6 or 1 / ratio <= 1.2)


def tests_row() -> Row:
    wall, summary, _, _ = bench_tests.one_run(0)
    return ("default test run (README command)", f"{wall:.0f} s ({summary})", "-", "<= 180 s",
            wall <= bench_tests.TARGET)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reference", help="Farmer's strategy binary (the ev row's reference)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each fast command")
    parser.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--games", nargs="+", default=list(SEED_GAMES))
    parser.add_argument("--root", default=str(ROOT), help="where `bja build` writes")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    print(f"{machine()}; load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
          flush=True)
    parts: dict[str, Callable[[], list[Row]]] = {
        "build": lambda: [build_row(args.root)],
        "ev": lambda: [ev_row(args.reference, args.repeat)],
        "exact": lambda: [exact_row(args.repeat)],
        "studies": lambda: study_rows(args.repeat),
        "certify": lambda: certify_rows(args.games),
        "simulate": lambda: [simulate_row(args.repeat)],
        "tests": lambda: [tests_row()],
    }
    rows: list[Row] = []
    for name in PARTS:
        if name in args.only:
            rows += parts[name]()
            print(f"  {name}: done, load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| what | measured | reference, same run | target | verdict |")
    print("|---|---|---|---|---|")
    for what, value, reference, target, met in rows:
        print(f"| {what} | {value} | {reference} | {target} | {'met' if met else 'not met'} |")
    missed = sum(not met for *_, met in rows)
    print(f"\n{len(rows) - missed} of {len(rows)} targets met in this run")


if __name__ == "__main__":
    main()
