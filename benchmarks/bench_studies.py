"""The studies as a user meets them: each command of issue 26's table in a fresh process.

Cold memo (``--no-cache``, and a fresh memo folder for every run), both
cores, median of ``--repeat`` runs (the machines are shared), wall and CPU seconds
beside each target.  With ``--baseline DIR`` each command also runs from the source
tree ``DIR`` (another checkout of this project, with its dealer kernel built), the
two alternating run by run, and the ratio is taken pair by pair: how a change moved a
figure on a machine whose speed drifts.

    python benchmarks/bench_studies.py [--repeat 3] [--baseline /path/to/old/checkout]
                                       [--only counts indices ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from timing import Run, measured  # noqa: E402

# (command after `bja`, target wall seconds from issue 26)
STUDIES: tuple[tuple[str, float], ...] = (
    ("counts --game four-jacks --no-cache --json", 2.0),
    ("indices --game four-jacks --no-cache --json", 2.0),
    ("edge --game four-jacks --samples 2000 --no-cache --json", 20.0),
    ("compare --effects --game charlie7 --no-cache --json", 3.0),
    ("distribution --exact --game charlie7 --json", 10.0),
    ("chart --game free-bet --json", float("nan")),
)


def run(command: str, source: str | None) -> Run:
    """One cold run of ``python -m analyzer COMMAND``, from ``source`` if given."""
    with tempfile.TemporaryDirectory() as memo:
        env = {**os.environ, "BJA_CACHE_DIR": memo}
        if source is not None:
            env["PYTHONPATH"] = source
        # From a folder of its own: `python -m` puts the working folder first on the path.
        return measured([sys.executable, "-m", "analyzer", *command.split()], env=env,
                        cwd=memo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", help="another checkout to compare with, run by run")
    parser.add_argument("--only", nargs="*", default=[],
                        help="run only the commands that start with these words")
    args = parser.parse_args()
    print("| command | wall s | CPU s | target s |" + (
        " baseline wall s | baseline CPU s | wall ratio (pairs' median) |"
        if args.baseline else ""))
    print("|---|---|---|---|" + ("---|---|---|" if args.baseline else ""))
    for command, target in STUDIES:
        if args.only and not any(command.startswith(word) for word in args.only):
            continue
        ours: list[Run] = []
        theirs: list[Run] = []
        for _ in range(args.repeat):  # A B A B: each pair under the same load
            ours.append(run(command, None))
            if args.baseline:
                theirs.append(run(command, args.baseline))
        wall = statistics.median(r.wall for r in ours)
        cpu = statistics.median(r.cpu for r in ours)
        shown = "-" if target != target else f"{target:g}"  # NaN: no target
        row = f"| `bja {command}` | {wall:.2f} | {cpu:.2f} | {shown} |"
        if theirs:
            ratio = statistics.median(a.wall / b.wall for a, b in zip(ours, theirs, strict=True))
            row += (f" {statistics.median(r.wall for r in theirs):.2f} |"
                    f" {statistics.median(r.cpu for r in theirs):.2f} | {ratio:.2f}x |")
        print(row, flush=True)


if __name__ == "__main__":
    main()
