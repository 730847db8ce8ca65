"""Time ``bja build`` cold, stage by stage: where its minutes go.

Issue 26's bound: ``bja build``, everything it writes (the certificates included), in
at most 5 minutes on 2 cores with a cold memo.  The build runs in a fresh process
with ``$BJA_CACHE_DIR`` pointing at a new empty folder, writing into ``--root`` (the
repository by default: a rebuild of unchanged sources changes no byte, so the working
tree stays as it was; give a clone to leave it alone).  The child stamps the wall clock
at each step the build announces; the parent measures the whole run's wall time, CPU
time (its processes included) and peak memory (:mod:`benchmarks.timing`) and sums the
steps into the build's six stages.

    python benchmarks/bench_build.py [--root PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import Run, measured  # noqa: E402

LIMIT = 300.0  # seconds, the bound

CHILD = r"""
import json, sys, time
from pathlib import Path
start = time.perf_counter()
stamps = []
def say(msg):
    stamps.append((time.perf_counter() - start, msg))
from analyzer.build import build
say("imports")
build(Path(sys.argv[1]), progress=say)
say("end")
print(json.dumps(stamps))
"""

# The build's stages, by the first words of the steps it announces (in its order).
STAGES = (("game reports", "analysing "), ("strategy charts", "strategy charts"),
          ("strategy charts", "chart "), ("side-bet tables", "side-bet tables"),
          ("rule comparisons", "rule effects"), ("shoe-state reports", "shoe state:"),
          ("index page", "index page"))


def stage_of(message: str, current: str) -> str:
    """The stage a step belongs to: named by its prefix; a certificate's steps are
    "<game>: ..." (and the comparisons' last step follows their first)."""
    for name, prefix in STAGES:
        if message.startswith(prefix):
            return name
    if current == "game reports" and ": " in message:
        return "certificates"
    return current


def timed_build(root: str) -> tuple[Run, dict[str, float], dict[str, float]]:
    """One cold build into ``root``: its run, seconds per stage, and per certificate."""
    with tempfile.TemporaryDirectory(prefix="bja-bench-") as tmp:
        env = {**os.environ, "BJA_CACHE_DIR": str(Path(tmp) / "memo")}
        run = measured([sys.executable, "-c", CHILD, root], env=env, cwd=root)
    stamps = [(float(t), str(m)) for t, m in json.loads(run.stdout)]
    totals: dict[str, float] = {}
    by_game: dict[str, float] = {}  # the certificates' stage, game by game
    current = "imports"
    for (at, message), (later, _) in zip(stamps, stamps[1:], strict=False):
        current = stage_of(message, current)
        totals[current] = totals.get(current, 0.0) + later - at
        if current == "certificates":
            game = message.split(": ", 1)[0]
            by_game[game] = by_game.get(game, 0.0) + later - at
    return run, totals, by_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    run, totals, by_game = timed_build(args.root)
    print(f"bja build, cold: {run.wall:.1f} s wall ({run.wall / 60:.1f} min), {run.cpu:.1f} s "
          f"CPU, peak {run.tree_mb:.0f} MiB (all processes)")
    for name, seconds in totals.items():
        print(f"  {seconds:7.1f} s  {name}")
        if name == "certificates":
            for game, spent in by_game.items():
                print(f"  {'':9}  {spent:7.1f} s  {game}")
    verdict = "within" if run.wall <= LIMIT else "OVER"
    print(f"{verdict} the {LIMIT:.0f} s bound")


if __name__ == "__main__":
    main()
