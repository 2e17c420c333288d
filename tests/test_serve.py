"""`jax-errors serve`: bad paths get a 4xx and no stack trace, and the server listens on 127.0.0.1 only."""

import re
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from commands import CLI, environment

from jax_errors.exceptions import JaxErrorsError
from jax_errors.site_gen.output import BUILDING, MARKER
from jax_errors.site_gen.serve import make_server

BAD_PATHS = [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/static/..%2f..%2fsecret.txt",
    "/static/%2e%2e/%2e%2e/secret.txt", "/..", "/%00", "/index.html%00.txt", "/static/%00/x",
]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder like a built site, with a secret beside it."""
    (tmp_path / "secret.txt").write_text("not to be served")
    folder = tmp_path / "site"
    (folder / "static").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>home</title>")
    (folder / "static" / "style.css").write_text("body {}")
    return folder


def status_of(port: int, path: str) -> tuple[int, bytes]:
    """The status code the server answers `GET path` with (the path sent as it is), and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.fixture
def served(site: Path):
    """`jax-errors serve` running on a free port: (port, process)."""
    process = subprocess.Popen([*CLI, "serve", "--out", str(site), "--port", "0"], env=environment(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", line)[1])
    yield port, process
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)


def test_bad_paths_get_400_and_no_stack_trace(served):
    port, process = served
    assert status_of(port, "/index.html")[0] == 200 and status_of(port, "/static/style.css")[0] == 200
    assert status_of(port, "/nothing-here.html")[0] == 404
    for path in BAD_PATHS:
        status, body = status_of(port, path)
        assert status == 400, path
        assert b"not to be served" not in body
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "Traceback" not in err and err == "", err


def listening_addresses(port: int) -> list[str]:
    """The local addresses of the TCP sockets listening on `port`, from /proc/net/tcp and tcp6."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, local_port = local.split(":")
            if state == "0A" and int(local_port, 16) == port:  # 0A: LISTEN
                found.append(socket.inet_ntop(socket.AF_INET, bytes.fromhex(address)[::-1])
                             if len(address) == 8 else address)
    return found


def test_the_server_listens_on_localhost_only(served):
    port, _process = served
    assert listening_addresses(port) == ["127.0.0.1"]


def test_a_site_whose_build_was_cut_short_is_not_served(site):
    (site / MARKER).write_text(BUILDING)
    with pytest.raises(JaxErrorsError, match="was cut short"):
        make_server(site, 0)
    (site / MARKER).write_text('{"version": 1, "files": {}}')
    make_server(site, 0).server_close()
