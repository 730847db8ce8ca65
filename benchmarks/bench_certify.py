"""Time a game's certificate cold, stage by stage: where the minute goes.

Issue 23's bound: ``bja certify --game NAME`` cold (an empty memo folder, a fresh
process) in at most 60 s on 2 cores for every seed game.  Each game is certified in
a fresh process with ``$BJA_CACHE_DIR`` pointing at a new empty folder; the child
stamps the wall clock at each stage the certificate reports (chart, RTP levels,
distributions, cross-check, spots, RTP as dealt, files) and the parent measures the
whole run's wall time, CPU time and peak memory (:mod:`benchmarks.timing`).

    python benchmarks/bench_certify.py [--games charlie7 free-bet ...] [--no-pdf]
    (any named game: ``--games spanish21``)
                                       [--quick]

``--quick`` shortens every simulation a hundredfold (the layout and exact stages
unchanged): a smoke run, not the bound.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import measured  # noqa: E402

LIMIT = 60.0  # seconds, the bound per game

CHILD = r"""
import dataclasses, json, sys, time
start = time.perf_counter()
stamps = []
def say(msg):
    stamps.append((time.perf_counter() - start, msg))
from analyzer.certificates.files import write_certificate
from analyzer.certificates.model import Settings, certify
from analyzer.core.presets import PRESETS, game_base
name, out, pdf, quick = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"
settings = Settings()
if quick:
    settings = dataclasses.replace(settings, check_rounds=settings.check_rounds // 100,
                                   as_dealt_rounds=settings.as_dealt_rounds // 100,
                                   spots_rounds=settings.spots_rounds // 100)
say("imports")
preset = PRESETS.get(name)  # a seed game, or any named game (spanish21: not a seed game)
cert = certify(game_base(name), name, preset, settings,
               progress=lambda m: say(m.split(": ", 1)[1]))
say("files (Markdown, HTML, JSON" + (", PDF)" if pdf else ")"))
write_certificate(cert, __import__("pathlib").Path(out), pdf=pdf)
say("end")
print(json.dumps(stamps))
"""


def stages(stamps: list[tuple[float, str]]) -> list[tuple[str, float]]:
    """Each stage's name and the seconds until the next stamp."""
    return [(name, later - at) for (at, name), (later, _) in zip(stamps, stamps[1:],
                                                                  strict=False)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+",
                        default=["charlie7", "free-bet", "privilege", "four-jacks"])
    parser.add_argument("--no-pdf", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    worst = 0.0
    for game in args.games:
        with tempfile.TemporaryDirectory(prefix="bja-bench-") as tmp:
            env = {**__import__("os").environ, "BJA_CACHE_DIR": str(Path(tmp) / "memo")}
            run = measured([sys.executable, "-c", CHILD, game, str(Path(tmp) / "out"),
                            "0" if args.no_pdf else "1", "1" if args.quick else "0"], env=env)
        stamps = [(float(t), str(m)) for t, m in json.loads(run.stdout)]
        print(f"{game}: {run.wall:.1f} s wall, {run.cpu:.1f} s CPU, peak {run.tree_mb:.0f} MiB "
              f"(all processes)")
        for name, seconds in stages(stamps):
            print(f"  {seconds:7.1f} s  {name}")
        worst = max(worst, run.wall)
    verdict = "within" if worst <= LIMIT else "OVER"
    print(f"slowest certificate {worst:.1f} s: {verdict} the {LIMIT:.0f} s bound")


if __name__ == "__main__":
    main()
