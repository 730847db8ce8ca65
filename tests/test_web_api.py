"""``bja serve``'s JSON API: every command's answer is the CLI's ``--json``, byte for byte;
hostile requests get the right 4xx and one line; the server keeps answering, also under
50 concurrent requests of mixed rules; jobs report progress, finish and cancel."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, httpx) is not installed")
import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from analyzer.cli.main import main as bja  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402

SPEC = "1D H17 DOA NDAS SPL1 NS"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(workers=2, queue=64)) as c:
        yield c


def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``bja ARGV --json`` prints (in-process: the same code as the console script)."""
    capsys.readouterr()
    status = bja([*argv, "--json"])
    out = capsys.readouterr().out
    assert status == 0, out
    return out


# (query items of /api/<command>, the same request as the CLI's argv)
CASES: list[Any] = [
    ("ev", [("rules", SPEC)], ["ev", "--rules", SPEC]),  # the server's jobs=1: same figures
    pytest.param("ev", [("rules", "1D S17 LS"), ("levels", "1"), ("jobs", "1")],
                 ["ev", "--rules", "1D S17 LS", "--levels", "--jobs", "1"],
                 marks=pytest.mark.slow),
    pytest.param("ev", [("game", "charlie7"), ("rules", "1D NSPL"), ("exact", "true")],
                 ["ev", "--game", "charlie7", "--rules", "1D NSPL", "--exact"],
                 marks=pytest.mark.slow),
    ("hand", [("rules", SPEC), ("up", "T"), ("cards", "T,6")],
     ["hand", "--rules", SPEC, "--up", "T", "--cards", "T,6"]),
    ("dealer", [("rules", SPEC)], ["dealer", "--rules", SPEC]),
    ("chart", [("rules", SPEC)], ["chart", "--rules", SPEC]),
    ("distribution", [("rules", "1D NSPL"), ("jobs", "1")],
     ["distribution", "--rules", "1D NSPL", "--jobs", "1"]),
    ("sidebet", [("bet", "21+3"), ("decks", "1")], ["sidebet", "21+3", "--decks", "1"]),
    ("sidebet", [("bet", "hot3"), ("decks", "2"), ("pays", "21-suited=50")],
     ["sidebet", "hot3", "--decks", "2", "--pays", "21-suited=50"]),
    ("sidebet", [("bet", "21+3"), ("decks", "1"), ("solve", "flush"), ("target_rtp", "0.95")],
     ["sidebet", "21+3", "--decks", "1", "--solve", "flush", "--target-rtp", "0.95"]),
    ("compare", [("base", "1D"), ("vary", "S17|H17"), ("no_chart", "1"), ("jobs", "1")],
     ["compare", "--base", "1D", "--vary", "S17|H17", "--no-chart", "--jobs", "1"]),
    pytest.param("eor", [("rules", "1D"), ("jobs", "1")], ["eor", "--rules", "1D", "--jobs", "1"],
                 marks=pytest.mark.slow),
    pytest.param("counts", [("rules", "1D"), ("count", "hi-lo"), ("jobs", "1")],
                 ["counts", "--rules", "1D", "--count", "hi-lo", "--jobs", "1"],
                 marks=pytest.mark.slow),
    ("indices", [("rules", "1D"), ("decision", "16vT:stand-hit"), ("jobs", "1")],
     ["indices", "--rules", "1D", "--decision", "16vT:stand-hit", "--jobs", "1"]),
    ("edge", [("rules", "1D CUT20"), ("states", "2"), ("samples", "100"), ("jobs", "1")],
     ["edge", "--rules", "1D CUT20", "--states", "2", "--samples", "100", "--jobs", "1"]),
    ("simulate", [("rules", "1D"), ("rounds", "20000"), ("seed", "1"), ("jobs", "1")],
     ["simulate", "--rules", "1D", "--rounds", "20000", "--seed", "1", "--jobs", "1"]),
    ("rules", [("action", "list")], ["rules", "list"]),
    ("rules", [("action", "show"), ("name", "free-bet")], ["rules", "show", "free-bet"]),
    ("ev", [("rules", "1D H17 NSPL B678=2:1/3:1/5:1"), ("rank_only", "1"), ("jobs", "1")],
     ["ev", "--rules", "1D H17 NSPL B678=2:1/3:1/5:1", "--rank-only", "--jobs", "1"]),
]


def _values(case: Any) -> tuple[Any, ...]:
    return tuple(case.values) if hasattr(case, "values") else tuple(case)


@pytest.mark.parametrize(("command", "items", "argv"), CASES,
                         ids=[f"{_values(c)[0]}-{i}" for i, c in enumerate(CASES)])
def test_api_is_the_cli_json(client: TestClient, capsys: pytest.CaptureFixture[str],
                             command: str, items: list[tuple[str, str]],
                             argv: list[str]) -> None:
    r = client.get(f"/api/{command}?{urlencode(items)}")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    expected = cli_json(argv, capsys)
    if command == "simulate":  # its timings differ run to run; every figure is compared
        assert _untimed(r.json()) == _untimed(json.loads(expected))
    else:
        assert r.text == expected  # byte for byte


def _untimed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if "second" not in k}


def test_every_json_command_is_tested() -> None:
    from analyzer.web.commands import COMMANDS

    assert {_values(c)[0] for c in CASES} == set(COMMANDS)


# (request, status, words of the one line)
HOSTILE: list[tuple[str, str, int, str]] = [
    ("GET", "/api/ev?rules=6D+X17", 400, "unknown rule token 'X17'"),
    ("GET", "/api/ev?rules=" + "9" * 5000 + "D", 400, "has 5000 digits; at most"),
    ("GET", "/api/ev?rules=6D&exact=maybe", 400, "switch"),
    ("GET", "/api/ev?rules=6D&split=fastest", 400, "invalid choice"),
    ("GET", "/api/ev?rules=6D&jobs=" + "9" * 400, 400, "--jobs"),
    ("GET", "/api/ev?rules=6D&jobs=100000", 400, "--jobs"),
    ("GET", "/api/ev?rules=6D&nonsense=1", 400, "unknown option 'nonsense'"),
    ("GET", "/api/ev?help=1", 400, "not available over HTTP"),
    ("GET", "/api/chart?rules=6D&out=/etc/passwd", 400, "not available over HTTP"),
    ("GET", "/api/sidebet?bet=21%2B3&paytable=../../etc/passwd", 400, "not available"),
    ("GET", "/api/counts?rules=1D&count=../../secret.toml", 400, "count file"),
    ("GET", "/api/hand?rules=1D&up=Z&cards=T,6", 400, "'Z'"),
    ("GET", "/api/hand?rules=1D&up=T&cards=A,A,A,A,A", 400, "bja: error:"),
    ("GET", "/api/sidebet?bet=nope", 400, "nope"),
    ("GET", "/api/sidebet?bet=21%2B3&decks=1000001", 400, "--decks"),
    ("GET", "/api/sidebet?bet=21%2B3&pays=flush%3D-5", 400, "bja: error:"),
    ("GET", "/api/simulate?rules=1D&rounds=1e12", 422, "limit of 10,000,000 rounds"),
    ("GET", "/api/edge?rules=1D&states=5000", 422, "limit of 1,000 shoe states"),
    ("GET", "/api/sidebet?bet=21%2B3&protection=1&shoes=5000000", 422,
     "limit of 100,000 shoes"),
    ("GET", "/api/sidebet?bet=bust-it&played=50000000", 422, "limit of 1,000,000 played rounds"),
    ("GET", "/api/compare?base=1D&" + "&".join(["vary=" + "|".join(["S17", "H17"] * 50)] * 2),
     422, "64 cells"),
    ("GET", "/api/ev?rules=8D&shoe=A:400,T:1600&exact=1", 422, "exact mode"),
    ("GET", "/api/ev?rules=6D&split=optimal", 422, "optimal splitting"),
    ("GET", "/api/distribution?game=spanish21&exact=1", 422, "resplits (up to 4 hands"),
    ("GET", "/api/ev?" + "rules=6D&" * 2000, 413, "8,192"),
    # a positional value is never read as an option (found by an adversarial test: these
    # wrote a file, opened one and connected out)
    ("GET", "/api/compare?games=1D+S17&games=1D+H17&games=--out%3Dpwned.csv", 400,
     "bja: error:"),
    ("GET", "/api/compare?games=--grid%3D/etc/passwd", 400, "bja: error:"),
    ("GET", "/api/compare?games=1D&games=2D&games=--scheduler%3Dtcp://127.0.0.1:1", 400,
     "bja: error:"),
    ("GET", "/api/rules?action=--help", 400, "bja: error:"),
    # every rule set a request names is capped, not only the base
    ("GET", "/api/compare?base=1D&vary=1D%7C1000000D&exact=1&no_chart=1", 422, "exact mode"),
    ("GET", "/api/compare?games=1000000D&games=1D&exact=1", 422, "exact mode"),
    ("GET", "/api/compare?games=8D&games=1D&split=optimal", 422, "optimal splitting"),
    ("GET", "/api/compare?base=1D+SPL1&vary=1D%7C8D&split=optimal", 422, "optimal splitting"),
    ("GET", "/api/ev?rules=1D+SPL3&split=optimal", 422, "resplits"),
    ("GET", "/api/compare?base=2D+SPL1&effects=1&split=optimal", 422, "optimal"),
    # a whole number written with a decimal point passed every cap the handler then read
    # it under (an adversarial test: 10^8 rounds simulated, 10,000 edge states, 256 jobs)
    ("GET", "/api/simulate?rules=1D&rounds=100000000.0&jobs=1", 422, "limit of 10,000,000"),
    ("GET", "/api/edge?rules=1D+CUT20&states=10000.0", 422, "limit of 1,000 shoe states"),
    ("GET", "/api/eor?rules=1D&jobs=256.0", 422, "processes per request"),
    # an explanation values 2^players rule sets a pair: 4,096 exact 8-deck ones were taken
    ("GET", "/api/compare?games=8D+S17+DOA+DAS+SPL3+NS&games=7D+H17+D10+NDAS+SPL2+LS+BJ6:5"
     "+RSA+HSA+CH6+P22+A21+BJW+SNA+SPR&max_players=12&exact=1", 422, "rule sets"),
    ("GET", "/api/ev?rules=1D+SPL3&split=exact&exact=1", 422, "sub-shoes"),
    ("GET", "/api/ev?rules=1D&exact=1&exact=0", 400, "given twice"),
    ("GET", "/api/sidebet?bet=21%2B3&bet=hot3", 400, "'bet' is given twice"),  # was argparse's
    ("GET", "/api/nope", 404, "unknown command 'nope'"),
    ("GET", "/nope/at/all", 404, "nothing here"),
    ("GET", "/static/..%2F..%2Fpyproject.toml", 404, "nothing here"),
    ("GET", "/static/%2e%2e/app.py", 404, "nothing here"),
    ("GET", "/api/certify?rules=1D", 400, "runs as a job"),
    ("GET", "/api/evaluate?chart=/etc/passwd", 404, "unknown command 'evaluate'"),
    ("DELETE", "/api/ev", 405, "method not allowed"),
    ("POST", "/api/jobs", 400, "which command"),
    ("POST", "/api/jobs?command=build", 400, "unknown command 'build'"),
    ("GET", "/api/jobs/0123456789abcdef", 404, "no job"),
    ("DELETE", "/api/jobs/../../etc", 404, "bja: error:"),
    ("GET", "/api/jobs/abc/files/..%2F..%2Fetc%2Fpasswd", 404, "bja: error:"),
]


@pytest.mark.parametrize(("method", "url", "status", "words"), HOSTILE,
                         ids=[f"{i}-{h[2]}" for i, h in enumerate(HOSTILE)])
def test_hostile_request(client: TestClient, method: str, url: str, status: int,
                         words: str) -> None:
    r = client.request(method, url)
    assert r.status_code == status, r.text
    assert r.text.startswith("bja: error: ") and r.text.endswith("\n")
    assert r.text.count("\n") == 1, r.text  # one line
    assert len(r.text) < 400
    assert words in r.text
    assert client.get("/api/rules?action=list").status_code == 200  # still answering


BODIES: list[tuple[bytes, dict[str, str], int, str]] = [
    (b"{not json", {}, 400, "malformed JSON"),
    (b"[1, 2]", {}, 400, "expected an object"),
    (b'{"command": "ev", "params": {"rules": {"x": 1}}}', {}, 400, "a string, a finite number"),
    (b'{"command": 5}', {}, 400, "command must be a string"),
    (b"x" * 70_000, {}, 413, "larger than 65,536 bytes"),
    (b"{}", {"content-length": "99999999999"}, 413, "larger than"),
    (b'{"command": "ev", "params": {"rules": "6D", "out": "/tmp/x"}}', {}, 400,
     "not available over HTTP"),
    (b"[" * 10_000 + b"]" * 10_000, {}, 400, "malformed JSON"),  # was a 500 (RecursionError)
    (b'{"command": "compare", "params": {"games": ["1D", "2D", "--out=x.csv"]}}', {}, 400,
     "bja: error:"),
    (b'{"command": "certify", "params": {"rules": "1000000D"}}', {}, 422, "exact mode"),
    # a key given twice was read as its last value; true was --jobs 1; NaN a param
    (b'{"command": "ev", "params": {"rules": "1D", "rules": "2D"}}', {}, 400, "given twice"),
    (b'{"command": "ev", "params": {"rules": "1D", "jobs": true}}', {}, 400, "--jobs"),
    (b'{"command": "ev", "params": {"rules": "1D", "jobs": NaN}}', {}, 400, "finite number"),
    (b'{"command": "ev", "params": {"rules": []}}', {}, 400, "empty list"),  # was the default
]


def test_json_numbers_and_booleans_reach_the_parser_as_written() -> None:
    """``1e7`` rounds were refused as "not a number"; ``0.95`` (a target RTP) too."""
    from analyzer.web.app import _JsonNumber, _param_text

    values = (_JsonNumber("1e7"), _JsonNumber("0.95"), 3, True, False, "T,6")
    assert [_param_text("x", v) for v in values] == \
        ["10000000", "0.95", "3", "true", "false", "T,6"]


@pytest.mark.parametrize(("body", "headers", "status", "words"), BODIES,
                         ids=[f"body-{i}" for i in range(len(BODIES))])
def test_hostile_bodies(client: TestClient, body: bytes, headers: dict[str, str],
                        status: int, words: str) -> None:
    try:
        r = client.post("/api/jobs", content=body, headers=headers)
    except httpx.HTTPError:  # a client refusing a lying content-length: nothing reached us
        pytest.skip("the HTTP client refuses to send a wrong content-length")
    assert r.status_code == status, r.text
    assert r.text.startswith("bja: error: ") and r.text.count("\n") == 1
    assert words in r.text


def test_a_job_out_of_memory_is_one_line(client: TestClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError in a job (an allocation the system refused) is a 4xx with the CLI's
    line, never an "internal error"."""
    from analyzer.core.errors import OUT_OF_MEMORY
    from analyzer.web import commands

    def no_memory(*args: object, **kwargs: object) -> str:
        raise MemoryError

    monkeypatch.setattr(commands, "run", no_memory)
    r = client.get("/api/ev?rules=2D+H17+NS+SPL2")
    assert r.status_code == 400 and r.text == f"bja: error: {OUT_OF_MEMORY}\n"


def test_exact_distributions_of_games_that_resplit_are_refused() -> None:
    """A round of three or four hands costs a minute or more and gigabytes in exact mode on
    any shoe (four-jacks: 55 s and 1.8 GB; one deck of Spanish 21: three minutes; six
    classic decks: two minutes and 2.7 GB; Spanish 21: thirteen and 4.8 GB): refused
    before any work; two hands a round, or floats, pass."""
    from analyzer.web.commands import WorkLimit, check

    def items(query: str) -> list[tuple[str, str]]:
        return [(k, v.replace("+", " ")) for k, v in (kv.split("=") for kv in query.split("&"))]

    for query in ("rules=8D+SPL1&exact=1", "game=charlie7&exact=1", "game=spanish21",
                  "rules=1D+SPL3"):
        check("distribution", items(query), max_jobs=2)
    for query in ("rules=1D+SPL2&exact=1", "game=privilege&exact=1",
                  "game=spanish21&rules=1D&exact=1"):
        with pytest.raises(WorkLimit, match="resplits"):
            check("distribution", items(query), max_jobs=2)


@pytest.mark.parametrize("query", ["command=sidebet", "command=ev&exact=1"])
def test_a_job_given_in_the_query_and_in_a_body_is_refused(client: TestClient,
                                                           query: str) -> None:
    """The body's command and options silently won over the query's (an adversarial test)."""
    r = client.post(f"/api/jobs?{query}",
                    content=b'{"command": "ev", "params": {"rules": "1D"}}')
    assert r.status_code == 400 and "not both" in r.text and r.text.count("\n") == 1


def test_a_chunked_body_is_capped_as_it_is_read(client: TestClient) -> None:
    """A body sent in chunks has no Content-Length: it is counted as it arrives (413), not
    read whole first."""
    def chunks() -> Iterator[bytes]:
        for _ in range(200):
            yield b"x" * 1024

    r = client.post("/api/jobs", content=chunks())
    assert r.status_code == 413, r.text
    assert r.text.startswith("bja: error: ") and r.text.count("\n") == 1


def test_the_cli_line_is_the_api_line(client: TestClient,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A parse error is the CLI's own line, word for word."""
    capsys.readouterr()
    with pytest.raises(SystemExit):
        bja(["ev", "--rules", "6D", "--split", "fastest"])
    line = capsys.readouterr().err
    assert client.get("/api/ev?rules=6D&split=fastest").text == line


def _wait(client: TestClient, job_id: str, timeout: float = 60) -> dict[str, object]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state: dict[str, object] = client.get(f"/api/jobs/{job_id}").json()
        if state["state"] not in ("queued", "running"):
            return state
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def test_a_job_reports_progress_and_its_json_is_the_cli_json(
        client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    r = client.post("/api/jobs", content=json.dumps(
        {"command": "ev", "params": {"rules": SPEC, "levels": True}}))
    assert r.status_code == 202 and r.headers["location"] == f"/api/jobs/{r.json()['id']}"
    state = _wait(client, r.json()["id"])
    assert state["state"] == "done" and state["total"] and state["done"] == state["total"]
    result = client.get(f"/api/jobs/{state['id']}/result").text
    assert result == cli_json(["ev", "--rules", SPEC, "--levels"], capsys)
    # a finished job that wrote no files: nothing there (404), not "not yet" (409)
    assert client.get(f"/api/jobs/{state['id']}/files/certificate.json").status_code == 404


@pytest.mark.slow  # a server process and a long job: about 7 s
def test_ctrl_c_stops_the_server_with_a_job_running(tmp_path: Any) -> None:
    """Ctrl-C with a long job running and a request waiting on it: the server stops within
    seconds, says one line and exits 130 (it used to wait for the job, or print a
    traceback)."""
    import signal
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=tmp_path)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/rules?action=list", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        slow = "command=distribution&game=spanish21&jobs=1"
        assert httpx.post(f"{base}/api/jobs?{slow}").status_code == 202
        with contextlib.suppress(httpx.HTTPError):  # a request left waiting on the queue
            httpx.get(f"{base}/api/distribution?game=spanish21&jobs=1", timeout=0.5)
        time.sleep(0.5)
        start = time.monotonic()
        server.send_signal(signal.SIGINT)
        _out, err = server.communicate(timeout=30)
        assert time.monotonic() - start < 15
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 130, err
    assert "Traceback" not in err and "bja: interrupted" in err, err


def test_cancel_a_running_job_and_concurrent_cancels() -> None:
    with TestClient(create_app(workers=1, queue=8)) as c:
        slow = c.post("/api/jobs?command=distribution&rules=2D&jobs=1").json()["id"]
        queued = c.post("/api/jobs?command=ev&rules=1D").json()["id"]
        deadline = time.monotonic() + 30
        while c.get(f"/api/jobs/{slow}").json()["state"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        answers = [c.delete(f"/api/jobs/{job}") for job in (slow, queued, slow, queued)]
        assert all(a.status_code == 200 for a in answers)
        assert _wait(c, slow)["state"] == "cancelled"
        assert _wait(c, queued)["state"] == "cancelled"
        # cancelled: finished without a result, which will never come (404, not 409 "yet")
        r = c.get(f"/api/jobs/{slow}/result")
        assert r.status_code == 404 and r.text.count("\n") == 1 and "cancelled" in r.text
        assert c.get("/api/rules?action=list").status_code == 200


def test_a_full_queue_answers_503_with_retry_after() -> None:
    with TestClient(create_app(workers=1, queue=2)) as c:
        started = [c.post("/api/jobs?command=distribution&rules=2D&jobs=1") for _ in range(2)]
        assert [s.status_code for s in started] == [202, 202]
        r = c.get(f"/api/ev?rules={SPEC}")
        assert r.status_code == 503 and r.headers["retry-after"].isdigit()
        assert r.text.startswith("bja: error: ") and r.text.count("\n") == 1
        for s in started:
            c.delete(f"/api/jobs/{s.json()['id']}")
        for s in started:
            _wait(c, s.json()["id"])
        assert c.get(f"/api/ev?rules={SPEC}").status_code == 200


MIXED = [f"/api/ev?rules={d}D+{s}+DOA+{das}+SPL1+NS&jobs=1"
         for d in (1, 2) for s in ("S17", "H17") for das in ("DAS", "NDAS")] + [
    f"/api/sidebet?bet=21%2B3&decks={d}" for d in (1, 2, 4, 6, 8)] + [
    f"/api/hand?rules=1D&up={u}&cards=T,6" for u in ("2", "7", "T", "A")] + [
    "/api/rules?action=list", "/api/ev?rules=6D+X17"]


def test_50_concurrent_mixed_requests(client: TestClient) -> None:
    """Each answer equals the same request's answer alone (computed first, serially)."""
    alone = {url: (r.status_code, r.text) for url in MIXED for r in [client.get(url)]}
    urls = [MIXED[i % len(MIXED)] for i in range(50)]

    async def flood() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as ac:
            return list(await asyncio.gather(*(ac.get(u) for u in urls)))

    answers = asyncio.run(flood())
    for url, r in zip(urls, answers, strict=True):
        assert (r.status_code, r.text) == alone[url], url
    assert sum(r.status_code == 200 for r in answers) >= 48


def test_identical_cold_requests_at_once_are_the_cli_figures() -> None:
    """Two analyses of one rule set at once in one process corrupt the engine's caches
    (wrong figures, then and after): the server computes one job at a time."""
    spec = "3D S17 DOA NDAS SPL2 LS P22"  # in no other test: cold in this process
    cli = subprocess.run([sys.executable, "-m", "analyzer", "ev", "--rules", spec, "--json",
                          "--jobs", "1", "--no-cache"], capture_output=True, text=True,
                         check=True).stdout
    url = "/api/ev?" + urlencode({"rules": spec, "no_cache": "1"})

    async def both() -> list[httpx.Response]:
        app = create_app(workers=2, queue=8)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as ac:
            return list(await asyncio.gather(ac.get(url), ac.get(url), ac.get(url)))

    assert [r.text for r in asyncio.run(both())] == [cli] * 3


def test_pages_and_docs_load(client: TestClient) -> None:
    for page in ("/game", "/effects", "/sidebet", "/shoe", "/certificate", "/docs"):
        r = client.get(page)
        assert r.status_code == 200 and "<html" in r.text.lower(), page
    assert client.get("/").status_code == 200  # redirected to /game
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/openapi.json").json()["paths"]["/api/{command}"]
    r = client.get("/page/exceptions?rules=" + SPEC)
    assert r.status_code == 200 and "exceptions" in r.text


def test_the_side_bets_page_offers_every_bet(client: TestClient) -> None:
    """It offered the free-bet game's four of the sixteen bets the CLI prices."""
    from analyzer.sidebets.bets import BETS

    page = client.get("/sidebet?bet=kings-bounty").text
    for name, bet in BETS.items():
        assert f'<option value="{name}"' in page and f">{bet.title}</option>" in page.replace(
            "&#39;", "'")
    assert '<option value="kings-bounty" selected>' in page


def test_an_address_in_use_is_one_line_before_any_url() -> None:
    """uvicorn logged a port in use after the URL was printed and exited 3."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"bja: error: cannot listen on 127.0.0.1:{port}: ")
    assert done.stderr.count("\n") == 1


def test_serve_is_a_bja_command(capsys: pytest.CaptureFixture[str]) -> None:
    from analyzer.cli.main import build_parser

    args = build_parser().parse_args(["serve", "--port", "8123", "--workers", "3"])
    assert (args.host, args.port, args.workers, args.open) == ("127.0.0.1", 8123, 3, False)
    with pytest.raises(SystemExit) as stop:
        bja(["serve", "--port", "70000"])
    assert stop.value.code == 2 and "--port" in capsys.readouterr().err


def test_the_last_answers_are_bounded_and_never_a_simulation() -> None:
    from analyzer.web.commands import check, repeatable
    from analyzer.web.jobs import Answers

    kept = Answers(entries=3, chars=10_000)
    for i in range(5):
        kept.put(("ev", str(i)), "x" * 100)
    assert [kept.get(("ev", str(i))) is not None for i in range(5)] == [False, False] + [True] * 3
    kept.put(("big",), "x" * 5_000)  # past a quarter of the bytes: not kept
    assert kept.get(("big",)) is None
    assert not repeatable(check("simulate", [("rules", "1D"), ("rounds", "100"),
                                             ("seed", "1")], max_jobs=2))
    assert not repeatable(check("ev", [("rules", "1D"), ("no_cache", "1")], max_jobs=2))
    assert repeatable(check("ev", [("rules", "1D")], max_jobs=2))


def test_rules_in_words_for_the_effects_table(client: TestClient,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The labels are `bja rules show`'s lines for a named game, and any spec's."""
    r = client.get("/page/words?rules=free-bet&rules=1D+H17")
    assert r.status_code == 200
    free_bet, spec = r.json()
    assert free_bet == json.loads(cli_json(["rules", "show", "free-bet"], capsys))["rules"]
    assert spec[:2] == ["1 deck", "dealer hits soft 17"]
    bad = client.get("/page/words?rules=1D+X17")
    assert bad.status_code == 400 and bad.text.count("\n") == 1


def test_a_pool_leaves_no_folder_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its folder is made by the first job with files and removed at close; an app never
    shut down (a bare ASGI transport runs no lifespan) left an empty folder per app."""
    import tempfile

    from analyzer.web.jobs import JobPool

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    JobPool(workers=1, queue=2).close()
    JobPool(workers=1, queue=2)  # never closed
    assert list(tmp_path.iterdir()) == []
    pool = JobPool(workers=1, queue=2)
    job = pool.submit("certify", ("x",), lambda job: None, files=True)
    assert job.folder is not None and Path(job.folder).parent.parent == tmp_path
    job.future.result(timeout=30)  # type: ignore[union-attr]
    pool.close()
    assert list(tmp_path.iterdir()) == []


def test_a_queued_job_waiting_for_the_engine_is_cancelled_at_once() -> None:
    """A job whose thread waits for the engine (another job holds it) stayed "queued"
    after a cancel until the other finished (found by an adversarial test); it is
    "cancelled" at once, and never runs."""
    import threading

    from analyzer.web.jobs import JobPool

    release, ran = threading.Event(), []
    pool = JobPool(workers=2, queue=4)
    try:
        first = pool.submit("ev", (), lambda job: str(release.wait(30)))
        second = pool.submit("ev", (), lambda job: str(ran.append(1)))
        for _ in range(100):
            if first.state == "running":
                break
            time.sleep(0.02)
        time.sleep(0.1)  # the second's thread is waiting for the engine now
        assert second.state == "queued"
        assert pool.cancel(second.id) is second and second.state == "cancelled"
        release.set()
        first.future.result(timeout=30)  # type: ignore[union-attr]
        second.future.result(timeout=30)  # type: ignore[union-attr]
        assert (first.state, second.state, ran) == ("done", "cancelled", [])
    finally:
        release.set()
        pool.close()


def test_a_json_body_s_numbers_are_taken_as_written(client: TestClient,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Read as floats, a body's numbers lost digits: a target RTP of
    0.9500000000000000000001 became 0.95, a 30-digit seed another number (an adversarial
    test).  Their text is passed on; a whole number with a fraction or an exponent is
    that number."""
    params = {"bet": "21+3", "decks": 1, "solve": "flush"}
    body = json.dumps({"command": "sidebet", "params": params})
    body = body[:-2] + ', "target_rtp": 0.9500000000000000000001}}'
    r = client.post("/api/jobs", content=body)
    assert r.status_code == 202, r.text
    assert "--target-rtp=0.9500000000000000000001" in r.json()["argv"]
    state = _wait(client, r.json()["id"])
    assert state["state"] == "done"
    result = client.get(f"/api/jobs/{state['id']}/result").text
    assert result == cli_json(["sidebet", "21+3", "--decks", "1", "--solve", "flush",
                               "--target-rtp", "0.9500000000000000000001"], capsys)
    from analyzer.web.app import _JsonNumber, _param_text

    for written, passed in (("2.0", "2"), ("1e0", "1"), ("123456789012345678901234567890.0",
                                                        "123456789012345678901234567890"),
                            ("1e-5", "1e-5"), ("1e99999", "1e99999")):
        assert _param_text("seed", _JsonNumber(written)) == passed


@pytest.mark.parametrize(("how", "status", "needle"), [
    ("?command=ev&command=hand", 400, "command is given twice"),
    ('{"command": "ev", "params": {}, "extra": 1}', 400, "unknown key 'extra'"),
    ('{"command": "ev", "params": {"rules": "X17"}}', 400, "unknown rule token 'X17'"),
    ("?command=ev&rules=X17", 400, "unknown rule token 'X17'"),
    ('{"command": "ev", "params": {"rules": "' + "1D " * 3000 + '"}}', 413, "8,192"),
])
def test_a_job_request_is_judged_before_it_is_queued(client: TestClient, how: str,
                                                     status: int, needle: str) -> None:
    """A repeated command, an unknown key of a body, bad rules (they were queued, and the
    job failed later) and options longer than a query may be (422 where a long query is
    413) are refused at once, in one line (an adversarial test)."""
    r = client.post(f"/api/jobs{how}") if how.startswith("?") else \
        client.post("/api/jobs", content=how)
    assert r.status_code == status and needle in r.text and r.text.count("\n") == 1, r.text


@pytest.mark.parametrize(("query", "spec"), [
    ("game=charlie7", "8D S17 DOA DAS SPL1 LS CH7 A21"),
    ("game=charlie7&rules=6D", "6D S17 DOA DAS SPL1 LS CH7 A21"),
    ("rules=charlie7+6D", "6D S17 DOA DAS SPL1 LS CH7 A21"),
    ("rules=1D+S17", "1D S17"),  # as typed
    ("game=nosuch", "nosuch"),  # left for the page's request to refuse
])
def test_the_game_page_reads_a_game_as_the_cli_does(client: TestClient, query: str,
                                                    spec: str) -> None:
    """``/game?game=charlie7`` showed the page's default rules (found by a newcomer tester):
    ``game=`` is the CLI's ``--game``, ``rules=`` tokens on top, shown as the rules they
    name (the form's controls read tokens: "charlie7" became an unknown token "CHARLIE7")."""
    page = client.get(f"/game?{query}")
    assert page.status_code == 200
    assert f'id="spec" value="{spec}"' in page.text
