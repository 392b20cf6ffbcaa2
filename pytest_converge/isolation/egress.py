"""The egress guard: a loopback HTTP proxy that refuses every connection and records it.

Terraform and its provider plugins run ``plan`` and ``apply`` with
``HTTP_PROXY``/``HTTPS_PROXY`` pointing here (:meth:`EgressGuard.proxy_env`).
Emulator traffic never comes here: the endpoints are loopback, which Go's
HTTP client (terraform, providers) never proxies, and ``NO_PROXY`` names the
loopback addresses for every other client. Anything else a module or
provider fetches (a Keybase PGP key, an ``http`` data source, a remote
template) arrives as ``CONNECT host:443`` or ``GET http://host/...``: it is
answered ``403`` and recorded as an :class:`Attempt`. Because the client
hands the *name* to the proxy, no DNS lookup leaves the machine either.

A provider started outside terraform (``TF_REATTACH_PROVIDERS``) must be
started with :meth:`EgressGuard.proxy_env` in its environment too.

    with EgressGuard() as guard:
        env = {**terraform_env(...), **guard.proxy_env()}
        ...  # run terraform with env
        for attempt in guard.take():
            print(attempt.host, attempt.port)   # keybase.io 443
"""

from __future__ import annotations

import logging
import socketserver
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from .local_server import serve_in_thread, server_url, shut_down
from .safety import LOOPBACK_NAMES

log = logging.getLogger(__name__)
_MAX_HEAD = 65536


@dataclass(frozen=True)
class Attempt:
    """One connection the guard refused."""

    host: str
    port: int
    #: ``CONNECT`` (HTTPS) or the HTTP method of a plain-HTTP request.
    method: str
    #: ``time.monotonic()`` when it arrived.
    at: float

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"


class EgressGuard:
    """A refusing, recording forward proxy on ``127.0.0.1`` (an ephemeral port)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._attempts: list[Attempt] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._server is not None:
            return
        server = _Server(("127.0.0.1", 0), _Handler)
        server.guard = self
        self._server = server
        self._thread = serve_in_thread(server, "converge-egress", poll_interval=0.1)

    @property
    def url(self) -> str:
        return server_url(self._server, "the egress guard")

    def proxy_env(self) -> dict[str, str]:
        """Environment variables that send every non-loopback request here."""
        return {
            "HTTP_PROXY": self.url,
            "HTTPS_PROXY": self.url,
            "http_proxy": self.url,
            "https_proxy": self.url,
            # Loopback (the emulator, the fault proxy) is never proxied: Go's client skips
            # it whatever NO_PROXY says, other clients read this.
            "NO_PROXY": LOOPBACK_NAMES,
            "no_proxy": LOOPBACK_NAMES,
        }

    @property
    def attempts(self) -> list[Attempt]:
        """Every refused connection since the last :meth:`take`."""
        with self._lock:
            return list(self._attempts)

    def take(self) -> list[Attempt]:
        """The refused connections since the last call, and forget them."""
        with self._lock:
            taken, self._attempts = self._attempts, []
        return taken

    def _record(self, attempt: Attempt) -> None:
        log.warning(
            "refused a connection to %s (%s): runs stay offline", attempt.target, attempt.method
        )
        with self._lock:
            self._attempts.append(attempt)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            shut_down(server)
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> EgressGuard:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(socketserver.ThreadingTCPServer):
    # socketserver's bind, not HTTPServer's: that one calls getfqdn(), a DNS lookup.
    daemon_threads = True
    allow_reuse_address = True
    guard: EgressGuard


class _Handler(socketserver.StreamRequestHandler):
    timeout = 10

    def handle(self) -> None:
        try:
            head = self._read_head()
        except (OSError, ValueError):
            return
        if not head:
            return
        request_line, *header_lines = head
        parts = request_line.split()
        if len(parts) < 2:
            return
        method, target = parts[0].upper(), parts[1]
        host, port = _where(method, target, header_lines)
        self.server.guard._record(Attempt(host, port, method, time.monotonic()))  # type: ignore[attr-defined]
        body = (
            f"pytest-converge refused a connection to {host}:{port}: Terraform runs are kept "
            "offline (only the local emulator is reachable). The test reports it as an "
            "'egress' defect.\n"
        ).encode()
        self.wfile.write(
            b"HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n"
            + f"Content-Length: {len(body)}\r\n".encode()
            + b"Connection: close\r\n\r\n"
            + body
        )

    def _read_head(self) -> list[str]:
        lines: list[str] = []
        size = 0
        while True:
            line = self.rfile.readline(_MAX_HEAD)
            size += len(line)
            if not line or size > _MAX_HEAD:
                return lines
            text = line.decode("latin-1").rstrip("\r\n")
            if not text:
                return lines
            lines.append(text)


def _where(method: str, target: str, headers: list[str]) -> tuple[str, int]:
    """(host, port) a proxied request is for: CONNECT's authority, an absolute URL's, or Host."""
    if method == "CONNECT":
        authority = target
        default = 443
    elif "://" in target:
        split = urlsplit(target)
        authority = split.netloc.rpartition("@")[2]
        default = 443 if split.scheme == "https" else 80
    else:
        authority = next(
            (h.split(":", 1)[1].strip() for h in headers if h.lower().startswith("host:")), "?"
        )
        default = 80
    if authority.startswith("["):  # [::1]:443
        host, _, rest = authority[1:].partition("]")
        port = rest.lstrip(":")
    elif authority.count(":") == 1:
        host, _, port = authority.partition(":")
    else:
        host, port = authority, ""
    return host, int(port) if port.isdigit() else default
