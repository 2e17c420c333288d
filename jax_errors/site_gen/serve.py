"""Preview a built site on localhost: the standard library's HTTP server, bound to 127.0.0.1."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from jax_errors.exceptions import JaxErrorsError

HOST = "127.0.0.1"


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves files with the types Pagefind's bundle needs, without a log line per request."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".json": "application/json",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".pagefind": "application/wasm"}

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's signature
        pass


def make_server(site: str | Path, port: int = 8000) -> ThreadingHTTPServer:
    """A server for `site` on 127.0.0.1:`port` (0 picks a free port); call `serve_forever()` on it.

    Raises:
        JaxErrorsError: the folder holds no built site, or the port cannot be bound.
    """
    folder = Path(site)
    if not (folder / "index.html").is_file():
        raise JaxErrorsError(f"no built site in {folder}: run `jax-errors build --out {folder}` first")
    handler = functools.partial(QuietHandler, directory=str(folder.resolve()))
    try:
        return ThreadingHTTPServer((HOST, port), handler)
    except OSError as error:
        raise JaxErrorsError(f"cannot serve on {HOST}:{port}: {error.strerror or error}") from error
