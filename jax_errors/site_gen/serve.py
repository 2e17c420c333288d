"""Preview a built site on localhost: the standard library's HTTP server, bound to 127.0.0.1."""

from __future__ import annotations

import functools
import sys
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

from jax_errors.exceptions import JaxErrorsError
from jax_errors.site_gen.output import cut_short

HOST = "127.0.0.1"


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves files with the types Pagefind's bundle needs, without a log line per request.

    A path that climbs (`..`, also spelled `%2e%2e`) or holds a NUL is refused with 400: the
    standard handler would drop the `..` and serve another file, or fail on the NUL with a
    stack trace.
    """

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".json": "application/json",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".pagefind": "application/wasm"}

    def send_head(self):
        path = unquote(self.path.split("?", 1)[0].split("#", 1)[0], errors="surrogatepass")  # as the stdlib reads it
        if "\0" in path or ".." in path.replace("\\", "/").split("/"):
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None
        return super().send_head()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's signature
        pass


class SiteServer(ThreadingHTTPServer):
    """A threading HTTP server that reports a failed request in one line, not a stack trace."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError):  # a browser that went away is no error
            print(f"jax-errors serve: a request from {client_address[0]} failed: {type(error).__name__}: {error}",
                  file=sys.stderr)


def make_server(site: str | Path, port: int = 8000) -> ThreadingHTTPServer:
    """A server for `site` on 127.0.0.1:`port` (0 picks a free port); call `serve_forever()` on it.

    Raises:
        JaxErrorsError: the folder holds no built site, a build cut short, or the port cannot be bound.
    """
    folder = Path(site)
    if not (folder / "index.html").is_file():
        raise JaxErrorsError(f"no built site in {folder}: run `jax-errors build --out {folder}` first")
    if cut_short(folder):
        raise JaxErrorsError(f"the build in {folder} was cut short (or is running): "
                             f"run `jax-errors build --out {folder}` again")
    handler = functools.partial(QuietHandler, directory=str(folder.resolve()))
    try:
        return SiteServer((HOST, port), handler)
    except OSError as error:
        raise JaxErrorsError(f"cannot serve on {HOST}:{port}: {error.strerror or error}") from error
