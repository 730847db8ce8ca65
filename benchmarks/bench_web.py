"""``bja serve`` under load: warm latency of API requests and the server's memory.

Run: ``python benchmarks/bench_web.py [--requests 200] [--port 8765]``.  Starts ``bja serve``
in a fresh process, asks each of a mix of requests (ev of several rule sets, hand, dealer,
chart, side bets) once to warm it (the engine's caches and the on-disk memo, in a
temporary folder), then sends ``--requests`` of them round-robin, one at a time, timing each
on the wall clock, and reads the server's resident set (/proc) before, halfway and after:
memory that keeps growing with requests would show as a difference between the halves.
Every answer is checked to be 200 with the same bytes as its warm-up answer.  Twice: as
``bja serve`` runs (a repeated request answered from the server's last answers), and with
those off (``create_app(answers=0)``: every request computed again on the warm engine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

MIX = [
    "/api/ev?rules=6D+S17+DOA+DAS+SPL3+LS",
    "/api/ev?rules=8D+H17+DOA+DAS+SPL3+LS",
    "/api/ev?rules=1D+H17+DOA+NDAS+SPL1+NS",
    "/api/ev?rules=2D+S17+DOA+DAS+SPL3+LS+RSA",
    "/api/ev?game=charlie7",
    "/api/hand?rules=6D+S17&up=T&cards=T,6",
    "/api/dealer?rules=6D+H17",
    "/api/chart?rules=6D+S17+DOA+DAS+SPL3+LS",
    "/api/sidebet?bet=21%2B3&decks=8",
    "/api/sidebet?bet=hot3&decks=6&pays=777%3D100",
    "/api/sidebet?bet=any-pair&decks=8",
    "/api/rules?action=list",
]


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines()
                if line.startswith("VmRSS:")) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--port", type=int, default=8765)
    opts = parser.parse_args()
    print("bja serve as it runs:")
    bench(opts, [sys.executable, "-m", "analyzer", "serve", "--port", str(opts.port)])
    print("without the server's last answers (every request computed on the warm engine):")
    bench(opts, [sys.executable, "-c", "import uvicorn; from analyzer.web.app import "
                 "create_app; uvicorn.run(create_app(answers=0), port="
                 f"{opts.port}, log_level='warning')"])


def bench(opts: argparse.Namespace, argv: list[str]) -> None:
    env = dict(os.environ, BJA_CACHE_DIR=tempfile.mkdtemp(prefix="bja-bench-web-"))
    server = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{opts.port}"
    try:
        with httpx.Client(base_url=base, timeout=120) as client:
            for _ in range(200):
                try:
                    client.get("/api/rules?action=list")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            start_mb = rss_mb(server.pid)
            cold = time.perf_counter()
            warm = {url: client.get(url).text for url in MIX}
            cold = time.perf_counter() - cold
            warmed_mb = rss_mb(server.pid)
            times, marks = [], []
            for i in range(opts.requests):
                url = MIX[i % len(MIX)]
                t = time.perf_counter()
                r = client.get(url)
                times.append(time.perf_counter() - t)
                assert r.status_code == 200 and r.text == warm[url], url
                if i + 1 in (opts.requests // 2, opts.requests):
                    marks.append(rss_mb(server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)
    q = statistics.quantiles(times, n=100)
    print(f"  {opts.requests} warm requests of {len(MIX)} kinds, one at a time "
          f"(warm-up of the {len(MIX)}: {cold:.1f} s)")
    print(f"  latency: median {statistics.median(times) * 1000:.1f} ms, p95 {q[94] * 1000:.1f} "
          f"ms, max {max(times) * 1000:.1f} ms")
    print(f"  server memory (RSS): {start_mb:.0f} MB started, {warmed_mb:.0f} MB warmed, "
          f"{marks[0]:.0f} MB after {opts.requests // 2}, {marks[1]:.0f} MB after "
          f"{opts.requests}")


if __name__ == "__main__":
    main()
