"""``bja serve``: the analyzer in the browser (:mod:`analyzer.web`, the optional ``web`` extra).

Binds to 127.0.0.1 unless ``--host`` says otherwise: the server computes for whoever
reaches it.  FastAPI and uvicorn are imported when the command runs.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from typing import Any

from analyzer.cli.entry import EXIT_INTERRUPTED, INTERRUPTED
from analyzer.cli.options import whole
from analyzer.core.errors import UsageError

MAX_WORKERS = 64  # jobs computed at once (threads; each may fork --jobs processes)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``serve`` to the main CLI."""
    p = sub.add_parser("serve", help="the analyzer in the browser (pages and a JSON API)",
                       description="Start a web server: the Game, Effects, Side bets, Shoe "
                                   "and Certificate pages, and /api/<command> answering "
                                   "exactly the CLI's --json (docs at /docs).")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: "
                   "this machine only)")
    p.add_argument("--port", action=whole(1, 65535), default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the Game page in a browser")
    p.add_argument("--workers", action=whole(1, MAX_WORKERS), default=2, metavar="N",
                   help="job threads (default 2); the engine computes one job at a time, "
                        "and 8 jobs per thread may wait")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from analyzer.web.app import create_app
    except ImportError as err:
        raise UsageError(f"bja serve needs the web extra: pip install 'bja-analyzer[web]' "
                         f"({err.name} is missing)") from None
    _check_address(args.host, args.port)  # a port in use is one line, before the URL
    app = create_app(workers=args.workers, queue=8 * args.workers)
    url = f"http://{args.host}:{args.port}/game"
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()
    print(f"bja serve: {url} (Ctrl-C stops)", flush=True)
    # uvicorn stops on Ctrl-C, then raises the signal again: noted here, not raised as a
    # KeyboardInterrupt into the requests it is cancelling (a traceback in the log)
    stopped: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: stopped.append(signum))
    try:
        # a request waiting on a long job must not hold the shutdown: cut it after 2 s
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=2)
    finally:
        signal.signal(signal.SIGINT, previous)
        _abandon_running(app.state.pool)
    if stopped:
        sys.stderr.write(INTERRUPTED.decode())
        return EXIT_INTERRUPTED
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse an address the server cannot listen on, in one line, before it starts.

    Each address ``host`` names (``""``: every interface, as the server reads it) is
    bound and released as the server's event loop will bind it (SO_REUSEADDR off on
    Windows, IPv6 sockets IPv6 only); uvicorn would log the failure after the URL was
    printed and exit 3.  A port taken in the instant between is uvicorn's to report.
    """
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in dict.fromkeys(found):
            with socket.socket(family, kind, proto) as probe:
                if os.name != "nt":
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except (OSError, UnicodeError) as err:
        raise UsageError(f"cannot listen on {host}:{port}: "
                         f"{getattr(err, 'strerror', None) or err}") from None


def _abandon_running(pool: Any, grace: float = 3.0) -> None:
    """After the server stops (Ctrl-C, SIGTERM): a running job was told to stop and ends at
    its next progress report; one that does not within ``grace`` seconds is abandoned with
    the process, which would otherwise wait for it at exit however long it computes."""
    import os
    import time

    deadline = time.monotonic() + grace
    while pool.active() and time.monotonic() < deadline:
        time.sleep(0.05)
    if pool.active():
        sys.stderr.write(INTERRUPTED.decode())
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)


__all__ = ["register"]
