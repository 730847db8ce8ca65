"""``bja serve``: the analyzer in the browser (:mod:`analyzer.web`, the optional ``web`` extra).

Binds to 127.0.0.1 unless ``--host`` says otherwise: the server computes for whoever
reaches it.  FastAPI and uvicorn are imported when the command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

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
                   help="jobs computed at once (default 2); 8 per worker may wait")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from analyzer.web.app import create_app
    except ImportError as err:
        raise UsageError(f"bja serve needs the web extra: pip install 'bja-analyzer[web]' "
                         f"({err.name} is missing)") from None
    app = create_app(workers=args.workers, queue=8 * args.workers)
    url = f"http://{args.host}:{args.port}/game"
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()
    print(f"bja serve: {url} (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


__all__ = ["register"]
