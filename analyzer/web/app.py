"""The ASGI app of ``bja serve``: pages, the JSON API and jobs, over the CLI's own code.

* ``GET /api/<command>?<the CLI's options>``: exactly what ``bja <command> ... --json``
  prints (:mod:`analyzer.web.commands`); a bad value: HTTP 400 and the CLI's line;
* ``POST /api/jobs?command=<command>&...`` (or a JSON body ``{"command": ...,
  "params": {...}}``): the same work as a background job, 202 and its id;
  ``GET /api/jobs/<id>``: its state and progress, ``GET /api/jobs/<id>/result``
  its JSON, ``DELETE /api/jobs/<id>`` cancels it; a certificate job's files at
  ``/api/jobs/<id>/files/certificate.{md,html,pdf,json}``;
* pages (``/game``, ``/effects``, ``/sidebet``, ``/shoe``, ``/certificate``): their
  state in the query string, figures fetched from the API by the page's script.

Every error is one line of text (``bja: error: ...``) with a 4xx status: 400 bad
input, 404 nothing there, 405 wrong method, 413 a request too large, 422 more work
than a request may ask for, 503 (with ``Retry-After``) a full queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from analyzer import __version__
from analyzer.cli.main import one_line
from analyzer.core.errors import AnalyzerError, UsageError
from analyzer.sidebets.bets import BETS
from analyzer.web import commands
from analyzer.web.jobs import Answers, Job, JobPool, QueueFull

MAX_BODY = 64 * 1024  # a job's JSON body is a few hundred bytes
CERTIFICATE_FILES = ("certificate.md", "certificate.html", "certificate.pdf",
                     "certificate.json")
MEDIA = {".md": "text/markdown; charset=utf-8", ".html": "text/html; charset=utf-8",
         ".pdf": "application/pdf", ".json": "application/json"}
RETRY_AFTER = "2"  # seconds: a job of the pool takes about that
PAGES = ("game", "effects", "sidebet", "shoe", "certificate")
HERE = Path(str(resources.files("analyzer.web")))


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """One line of text: ``bja: error: <message>``."""
    return PlainTextResponse(f"bja: error: {one_line(message)}\n", status_code=status,
                             headers=headers)


def _status(err: AnalyzerError) -> int:
    if isinstance(err, commands.TooLong):
        return 413
    return 422 if isinstance(err, commands.WorkLimit) else 400


class _Guard:
    """The outermost checks, as plain ASGI: a request's declared size before the app reads
    a byte of it (413), and a request still waiting on its job when the server stops:
    answered 503 instead of ending in a cancelled task's traceback in the log."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        refusal = None
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            refusal = error(413, f"the request body is larger than {MAX_BODY:,} bytes")
        elif len(scope.get("query_string", b"")) > commands.MAX_QUERY_CHARS:
            refusal = error(413, f"the query is longer than {commands.MAX_QUERY_CHARS:,} "
                            "characters")
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        started = False

        async def tracked(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:
            if not started:
                await error(503, "the server is stopping",
                            {"Retry-After": RETRY_AFTER})(scope, receive, send)


def create_app(*, workers: int = 2, queue: int = 16, jobs: int = 1,
               answers: int = 256) -> FastAPI:
    """The app: ``workers`` threads, ``queue`` jobs at most waiting or running, each
    forking ``jobs`` processes unless a request asks for more (up to every core); the
    last ``answers`` answers of ``/api`` kept for repeated requests (0: none)."""
    pool = JobPool(workers=workers, queue=queue)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.close()  # running jobs told to stop, the jobs' files removed

    app = FastAPI(title="bja", version=__version__, lifespan=lifespan,
                  description="Exact blackjack analysis: the bja commands as a JSON API.")
    app.state.pool = pool
    kept = Answers(entries=answers)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    max_jobs = commands.default_jobs()

    app.add_middleware(_Guard)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> Response:
        messages = {404: "nothing here (see /docs for the API)",
                    405: "method not allowed here"}
        return error(exc.status_code, messages.get(exc.status_code, str(exc.detail)))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> Response:
        return error(400, f"bad request: {exc.errors()[0].get('msg', 'invalid')}")

    def start(command: str, items: list[tuple[str, str]], *, sync: bool) -> Job | Response:
        try:
            cmd = commands.check(command, items, max_jobs=max_jobs)
        except AnalyzerError as err:
            return error(_status(err), str(err))
        return start_checked(cmd, sync=sync)

    def start_checked(cmd: commands.Command, *, sync: bool) -> Job | Response:
        command = cmd.name
        try:
            if command == "certify":
                if sync:
                    return error(400, "certify runs as a job: POST /api/jobs?command=certify"
                                 "&... and download its files")

                def write(job: Job) -> None:
                    assert job.folder is not None
                    commands.certificate(cmd, job.folder, job.report)

                return pool.submit(command, cmd.argv, write, files=True)
            return pool.submit(command, cmd.argv,
                               lambda job: commands.run(cmd, job.report, jobs=jobs))
        except QueueFull:
            return error(503, f"all {pool.queue} places of the job queue are taken: try "
                         "again shortly", {"Retry-After": RETRY_AFTER})

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return RedirectResponse("/game")

    @app.get("/api/jobs/{job_id}")
    async def job_state(job_id: str) -> Response:
        """A job's state and progress (``stage``, ``done`` of ``total``)."""
        job = pool.get(job_id)
        if job is None:
            return error(404, f"no job {job_id[:40]!r}")
        return Response(json.dumps(job.to_dict()), media_type="application/json")

    @app.get("/api/jobs/{job_id}/result")
    async def job_result(job_id: str) -> Response:
        """A finished job's JSON: exactly the CLI's ``--json``."""
        job = pool.get(job_id)
        if job is None:
            return error(404, f"no job {job_id[:40]!r}")
        if job.state == "failed":
            return error(400, job.error or "failed")
        if job.state == "cancelled":  # finished without a result: never one
            return error(404, f"job {job.id} was cancelled: it has no JSON result")
        if job.state != "done":
            return error(409, f"job {job.id} is {job.state}: it has no JSON result yet")
        if job.result is None:
            return error(404, f"job {job.id} has no JSON result: a certificate's answer is "
                         f"its files (/api/jobs/{job.id}/files/certificate.json)")
        return Response(job.result, media_type="application/json")

    @app.get("/api/jobs/{job_id}/files/{name}")
    async def job_file(job_id: str, name: str) -> Response:
        """A certificate job's file, by its fixed name (no other path is served)."""
        job = pool.get(job_id)
        if job is None or name not in CERTIFICATE_FILES or job.command != "certify":
            return error(404, f"no file {name[:40]!r} of job {job_id[:40]!r}")
        if job.state in ("cancelled", "failed"):  # finished without files: never any
            how = "was cancelled" if job.state == "cancelled" else "failed"
            return error(404, f"job {job.id} {how}: it wrote no files")
        if job.state != "done" or job.folder is None:
            return error(409, f"job {job.id} is {job.state}: no files yet")
        path = Path(job.folder) / name
        if not path.is_file() or path.is_symlink():
            return error(404, f"job {job.id} wrote no {name}")
        return FileResponse(path, media_type=MEDIA[path.suffix], filename=name)

    @app.delete("/api/jobs/{job_id}")
    async def job_cancel(job_id: str) -> Response:
        """Cancel a queued or running job (a finished one stays as it is)."""
        job = pool.cancel(job_id)
        if job is None:
            return error(404, f"no job {job_id[:40]!r}")
        return Response(json.dumps(job.to_dict()), media_type="application/json")

    @app.post("/api/jobs", status_code=202)
    async def job_start(request: Request, command: str | None = None) -> Response:
        """Start ``command`` as a background job: the query's options, or a JSON body
        ``{"command": "ev", "params": {"rules": "6D S17", "exact": "1"}}``."""
        if len(request.query_params.getlist("command")) > 1:
            return error(400, "command is given twice (a job runs one command)")
        items = [(k, v) for k, v in request.query_params.multi_items() if k != "command"]
        body = b""
        async for chunk in request.stream():  # a chunked body has no Content-Length
            body += chunk
            if len(body) > MAX_BODY:
                return error(413, f"the request body is larger than {MAX_BODY:,} bytes")
        if body:
            if command is not None or items:
                return error(400, "give the command and its options in the query or in a "
                                  "JSON body, not both")
            try:
                data = json.loads(body, object_pairs_hook=_unique_keys,
                                  parse_float=_JsonNumber)  # its digits, not a float's
                command, items = _body_items(data)
            except (ValueError, RecursionError) as err:  # json's errors (nesting too) and
                return error(400, f"malformed JSON body: {err}")  # UsageError
        if command is None:
            return error(400, "which command? (command=ev, sidebet, certify, ...)")
        started = start(command, items, sync=False)
        if isinstance(started, Response):
            return started
        return Response(json.dumps(started.to_dict()), status_code=202,
                        media_type="application/json",
                        headers={"Location": f"/api/jobs/{started.id}"})

    @app.get("/api/{command}")
    async def api(command: str, request: Request) -> Response:
        """``bja <command> ... --json``: the query string's keys are the CLI's options."""
        if command not in commands.JOB_COMMANDS:
            return error(404, f"unknown command {command[:40]!r} (use "
                         f"{', '.join(commands.COMMANDS)})")
        try:
            cmd = commands.check(command, list(request.query_params.multi_items()),
                                 max_jobs=max_jobs)
        except AnalyzerError as err:
            return error(_status(err), str(err))
        known = kept.get(cmd.argv)
        if known is not None:
            return Response(known, media_type="application/json")
        started = start_checked(cmd, sync=True)
        if isinstance(started, Response):
            return started
        assert started.future is not None
        await asyncio.wrap_future(started.future)
        if started.state != "done" or started.result is None:
            return error(400, started.error or started.state)
        text, started.result = started.result, None  # kept by the pool: no second copy
        if commands.repeatable(cmd):
            kept.put(cmd.argv, text)
        return Response(text, media_type="application/json")

    @app.get("/page/exceptions", include_in_schema=False)
    async def exceptions(request: Request) -> Response:
        """The game page's composition-dependent exceptions (the chart's text of them)."""
        items = [(k, v) for k, v in request.query_params.multi_items() if k == "rules"]
        try:
            cmd = commands.check("chart", items, max_jobs=max_jobs)
        except AnalyzerError as err:
            return error(_status(err), str(err))
        key = ("exceptions", *cmd.argv)
        known = kept.get(key)
        if known is not None:
            return PlainTextResponse(known)

        def text(_job: Job) -> str:
            from analyzer.api import chart

            return str(chart(cmd.args.rules).exceptions_text())

        try:
            job = pool.submit("exceptions", cmd.argv, text)
        except QueueFull:
            return error(503, "the job queue is full: try again shortly",
                         {"Retry-After": RETRY_AFTER})
        assert job.future is not None
        await asyncio.wrap_future(job.future)
        if job.state != "done" or job.result is None:
            return error(400, job.error or job.state)
        kept.put(key, job.result)
        return PlainTextResponse(job.result)

    @app.get("/page/words", include_in_schema=False)
    async def words(request: Request) -> Response:
        """Each ``rules`` spec's rules in words (the effects table's plain-English labels)."""
        from analyzer.api.games import describe

        specs = request.query_params.getlist("rules")
        if len(specs) > 200:
            return error(413, "at most 200 rule sets a request")
        try:
            found = [describe(spec) for spec in specs]
        except AnalyzerError as err:
            return error(400, str(err))
        return Response(json.dumps(found), media_type="application/json")

    for page in PAGES:
        app.add_api_route(f"/{page}", _page(templates, page), include_in_schema=False)
    return app


def _body_items(data: Any) -> tuple[str | None, list[tuple[str, str]]]:
    """A job's JSON body as (command, query items); values are strings or lists of them."""
    if not isinstance(data, dict):
        raise UsageError("expected an object {\"command\": ..., \"params\": {...}}")
    unknown = sorted(set(data) - {"command", "params"})
    if unknown:
        raise UsageError(f"unknown key {unknown[0]!r} (a body holds command and params)")
    command = data.get("command")
    params = data.get("params", {})
    if not isinstance(command, str) or not isinstance(params, dict):
        raise UsageError("command must be a string and params an object")
    items: list[tuple[str, str]] = []
    for key, value in params.items():
        if value == []:  # not "the default": a list of values with none in it
            raise UsageError(f"param {key!r}: an empty list gives no value (leave the key "
                             "out for the default)")
        for one in value if isinstance(value, list) else [value]:
            items.append((str(key), _param_text(key, one)))
    return command, items


class _JsonNumber(str):
    """A JSON number with a fraction or an exponent, kept as its text: read as a float it
    lost digits (``0.9500000000000000000001`` became ``0.95``, a 30-digit seed another)."""


def _param_text(key: str, value: object) -> str:
    """A JSON value as the query string's text, for the CLI's parser to judge: a boolean
    as ``true``/``false`` (a flag's words; an option wanting a number refuses them), a
    number as written (``1e7`` and ``2.0`` are whole numbers, ``10000000`` and ``2``;
    ``0.95`` stays), never NaN or infinity."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _JsonNumber):
        _, _, exponent = value.lower().partition("e")
        if exponent and abs(int(exponent)) > 400:  # no huge power of ten built here
            return str(value)  # as written: the CLI's parser judges it
        exact = Fraction(value)
        return str(exact.numerator) if exact.denominator == 1 else str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    raise UsageError(f"param {key!r}: a string, a finite number, true/false or a list of them")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: a key given twice is refused, as in a
    query string, not read as its last value."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise UsageError(f"key {key!r} given twice in the JSON body")
        found[key] = value
    return found


def _page(templates: Jinja2Templates, page: str) -> Callable[[Request], Awaitable[Response]]:
    async def show(request: Request) -> Response:
        query = dict(request.query_params)
        return templates.TemplateResponse(request, f"{page}.html",
                                          {"page": page, "version": __version__,
                                           "query": query, "spec": _spec_shown(query),
                                           "bets": {n: b.title for n, b in BETS.items()}})

    return show


def _spec_shown(query: dict[str, str]) -> str:
    """The rules form's spec: ``game=`` and ``rules=`` read as the CLI's ``--game`` and
    ``--rules``; a game named is shown as its rules, the tokens the form's controls read
    (a bad one is left as typed, for the page's own request to report)."""
    from analyzer.api.games import is_game_name, resolve
    from analyzer.core.rules import format_spec

    text = " ".join(f"{query.get('game', '')} {query.get('rules', '')}".split())
    if not text or not is_game_name(text.split()[0]):
        return text
    try:
        return format_spec(resolve(text)[0])
    except AnalyzerError:
        return text


__all__ = ["create_app"]
