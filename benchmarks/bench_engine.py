"""The engine's speed as a user meets it, beside Eric Farmer's C++ analyzer.

Every figure is the median of ``--repeat`` fresh processes (the machines are
shared: the load average is printed before and after):

* ``bja --help``;
* ``bja ev --rules RULES --no-cache --json``: process wall, CPU and peak memory;
  the same analysis timed inside the process (``Analysis(rules).ev()``);
* ``bja ev --game NAME --no-cache --json`` for each seed game;
* ``bja ev ... --exact`` (skip with ``--skip-exact``);
* ``bja ev`` of the same rules on an infinite deck (``INF``), exact;
* with ``--reference PATH``, the C++ reference (``strategy``, built from the
  public repository possibly-wrong/blackjack, see the README) on the same
  rules, fed the answers recorded in tests/reference/farmer-ca/, and each
  figure's ratio to it.

It ends with a Markdown table the README quotes.

    python benchmarks/bench_engine.py [--reference PATH] [--repeat 3] [--skip-exact]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from timing import Run, median_run  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RULES = "6D S17 DOA DAS SPL3 LS"
REFERENCE_ANSWERS = ROOT / "tests" / "reference" / "farmer-ca" / "6d-s17-das-spl3-ls-cdz.txt"
GAMES = ("charlie7", "free-bet", "privilege", "four-jacks")
IN_PROCESS = r"""
import json, sys, time
from analyzer.core.rules import parse_spec
from analyzer.engine.analysis import Analysis
start, cpu = time.perf_counter(), time.process_time()
ev = Analysis(parse_spec(sys.argv[1]), jobs=int(sys.argv[2])).ev()
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "ev": float(ev)}))
"""


def bja() -> list[str]:
    """The installed ``bja`` next to this interpreter, else ``python -m analyzer``."""
    script = Path(sys.executable).with_name("bja")
    return [str(script)] if script.exists() else [sys.executable, "-m", "analyzer"]


def reference_input() -> str:
    """The C++ analyzer's stdin for RULES, verbatim from the recorded reference run."""
    text = REFERENCE_ANSWERS.read_text()
    start = text.index("EXACT INPUT PIPED ON STDIN")
    body = text[start:].split("\n", 2)[2]  # past the header and its rule line
    return body[:body.index("=" * 20)].rstrip("\n") + "\n"


def run_reference(path: str, repeat: int) -> tuple[Run, float]:
    """Median run of the reference, and the overall EV (%) its table file prints."""
    with tempfile.TemporaryDirectory() as tmp:
        run = median_run([path], repeat, stdin=reference_input(), cwd=tmp)
        tables = list(Path(tmp).glob("*.txt"))
        total = re.search(r"Total \|\s*(-?[\d.]+)", tables[0].read_text()) if tables else None
    return run, float(total.group(1)) if total else float("nan")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError, StopIteration):
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", help="path to the C++ reference binary (strategy)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default=RULES)
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    if args.reference and args.rules != RULES:
        parser.error(f"the reference answers on record are for {RULES!r}")
    r = args.repeat
    ev_cmd = [*bja(), "ev", "--rules", args.rules, "--no-cache", "--json"]
    rows: list[tuple[str, float, float | None, str]] = []  # (what, bja, reference, unit)
    print(f"{datetime.date.today()}  {machine()}  load average {load()}", flush=True)

    ref = None
    if args.reference:
        ref, ref_ev = run_reference(shutil.which(args.reference) or args.reference, r)
        print(f"C++ reference: {ref.wall:.2f} s wall, {ref.cpu:.2f} s CPU, "
              f"{ref.peak_mb:.0f} MB, overall EV {ref_ev}%", flush=True)

    helped = median_run([*bja(), "--help"], r)
    rows.append(("`bja --help`, wall", helped.wall, None, "s"))
    inproc = [json.loads(median_run([sys.executable, "-c", IN_PROCESS, args.rules, "1"], 1)
                         .stdout) for _ in range(r)]
    rows.append((f"`Analysis({args.rules!r}, jobs=1).ev()` in process, wall",
                 statistics.median(x["wall"] for x in inproc), None, "s"))
    rows.append(("same, CPU", statistics.median(x["cpu"] for x in inproc), None, "s"))
    cli = median_run(ev_cmd, r)
    ev = json.loads(cli.stdout)["ev"]
    rows.append((f'`bja ev --rules "{args.rules}" --no-cache --json`, wall', cli.wall,
                 ref.wall if ref else None, "s"))
    rows.append(("same, CPU (all processes)", cli.cpu, ref.cpu if ref else None, "s"))
    rows.append(("same, peak memory of one process", cli.peak_mb,
                 ref.peak_mb if ref else None, "MB"))
    rows.append(("same, peak memory of all its processes", cli.tree_mb,
                 ref.tree_mb if ref else None, "MB"))
    print(f"bja ev: {cli.wall:.2f} s wall, EV {ev * 100:.9f}%", flush=True)
    for game in args.games:
        g = median_run([*bja(), "ev", "--game", game, "--no-cache", "--json"], r)
        rows.append((f"`bja ev --game {game} --no-cache --json`, wall", g.wall,
                     ref.wall if ref else None, "s"))
        print(f"{game}: {g.wall:.2f} s wall", flush=True)
    if not args.skip_exact:
        x = median_run([*ev_cmd, "--exact"], r)
        exact_ev = json.loads(x.stdout).get("ev_exact", json.loads(x.stdout)["ev"])
        rows.append((f'`bja ev --rules "{args.rules}" --no-cache --json --exact`, wall', x.wall,
                     None, "s"))
        rows.append(("same, peak memory of all its processes", x.tree_mb, None, "MB"))
        print(f"exact: {x.wall:.2f} s wall, EV {exact_ev}", flush=True)
    infinite = " ".join(["INF", *(t for t in args.rules.split()
                                 if not re.fullmatch(r"\d+D", t, re.IGNORECASE))])
    try:
        inf = median_run([*bja(), "ev", "--rules", infinite, "--json", "--exact"], r)
    except RuntimeError:  # e.g. suit bonuses, which an infinite deck cannot hold
        print("infinite deck: refused for these rules (bja ev says why)", flush=True)
    else:
        rows.append((f'`bja ev --rules "{infinite}" --json --exact` (infinite deck), wall',
                     inf.wall, None, "s"))
        print(f"infinite deck: {inf.wall:.2f} s wall, EV {json.loads(inf.stdout)['ev_exact']}",
              flush=True)

    print(f"\nload average after: {load()}\n")
    print("| figure | bja | C++ reference | bja / reference |")
    print("|---|---:|---:|---:|")
    for what, mine, theirs, unit in rows:
        fmt = "{:.2f} s" if unit == "s" else "{:.0f} MB"
        other = fmt.format(theirs) if theirs is not None else "—"
        ratio = f"{mine / theirs:.2f}" if theirs else "—"
        print(f"| {what} | {fmt.format(mine)} | {other} | {ratio} |")
    print(f"\nMedian of {r} runs; {datetime.date.today()}; {machine()}.")


if __name__ == "__main__":
    main()
