"""``bja serve``: the analyzer in the browser, a thin shell over the CLI and :mod:`analyzer.api`.

The app (:mod:`analyzer.web.app`) answers ``/api/<command>`` with exactly the
CLI's ``--json`` (the CLI's parser and handlers run: :mod:`analyzer.web.commands`),
runs every computation in a bounded pool of background jobs with progress and
cancellation (:mod:`analyzer.web.jobs`), and serves pages whose state is their
query string.  FastAPI, uvicorn and Jinja2 are the optional ``web`` extra.
"""
