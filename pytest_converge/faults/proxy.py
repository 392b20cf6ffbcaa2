"""The fault-injecting, recording HTTP proxy between Terraform and the emulator.

One ``Proxy`` lives as long as one Stack: every terraform run of a scenario
talks to the same ``proxy.endpoint`` (an SQS queue id embeds it), while faults
are armed for one run and disarmed after::

    with Proxy(upstream=emulator.endpoint) as proxy:
        proxy.clear()
        proxy.arm([Crash("CreateVpc")], signal=lambda sig: os.killpg(pgid, sig))
        ...  # run terraform against proxy.endpoint
        never_fired = proxy.disarm()
        mutating = [c.label for c in proxy.calls if c.mutating]
"""

from __future__ import annotations

import http.client
import logging
import re
import select
import socket
import socketserver
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from ..analysis.gaps import unimplemented_operation
from ..analysis.stalls import answer_digest, error_code, error_message, request_digest
from ..errors import FaultError
from ..isolation.local_server import serve_in_thread, server_url, shut_down
from ..isolation.safety import LoopbackTarget, loopback_target
from .cut import Gather
from .kinds import SIGNALLING, Crash, Fault, Request, Signal
from .operations import Operation, identify, is_mutating, request_parameters, request_tokens
from .wire import Response

log = logging.getLogger(__name__)

#: ``locate(operation, body, path)``: the resource whose apply makes this call (its
#: request body and path as sent), or None when one cannot tell (see :meth:`Proxy.arm`).
Locate = Callable[[Operation, bytes, str], str | None]
#: ``answered(address, tokens)``: the answer to a call of ``address``'s apply named these.
Answered = Callable[[str | None, frozenset[str]], None]

# RFC 9110 7.6.1: meaningful for one hop only, never forwarded. Content-Length
# and Expect are rebuilt by the proxy itself for each side.
_HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
     "te", "trailer", "trailers", "transfer-encoding", "upgrade", "content-length", "expect"}
)  # fmt: skip
_MAX_LINE = 65536
#: The message of an operation the emulator answered with an error page (see _proxy_one).
_NOT_SERVED_AT_ALL = (
    "the emulator serves nothing of this service; pytest-converge answers it as not "
    "implemented so that it is not retried"
)
_NOT_SERVED = (
    "the emulator has no code for this operation (it answered an error page, not an API "
    "answer); pytest-converge answers it as not implemented so that it is not retried"
)


@dataclass
class Call:
    """One API call seen by the proxy, recorded once it has been answered."""

    seq: int
    service: str
    operation: str
    occurrence: int
    method: str
    path: str
    #: HTTP status the client received; 0 when the connection was dropped (Crash).
    status: int
    access_key: str | None
    started: float
    #: Seconds of the upstream round trip; 0.0 when the call was not forwarded.
    duration: float
    fault: str | None
    forwarded: bool
    mutating: bool
    #: Status the emulator answered with (differs from ``status`` under a fault).
    upstream_status: int | None = None
    #: The region the call was signed for (its SigV4 credential scope), if signed.
    region: str | None = None
    #: The emulator answered that it does not implement this operation (an
    #: HTML error page, ``NotImplemented``): an emulator gap, not a module error.
    unimplemented: bool = False
    #: What identifies the request across repeats (method, path, query, body) and its
    #: answer (status, body without request ids); see :mod:`..analysis.stalls`.
    request_digest: str = ""
    answer_digest: str = ""
    #: The AWS error code of a failed answer (``ResourceNotFoundException``), if any.
    error_code: str | None = None
    #: The resource whose apply made the call (None: not located, or no single
    #: resource's apply was open), and which call of ``operation`` for it this was.
    address: str | None = None
    address_occurrence: int = 0
    #: The emulator could not be reached (refused, reset, no answer): the proxy
    #: answered 502 itself. A dead emulator shows first here.
    unreached: bool = False
    #: What a successful mutating call's answer names (ids, ARNs, URLs, names): the
    #: objects it made, to trace a leftover object to the call, and fault, behind it.
    answered: frozenset[str] = frozenset()
    #: What a successful mutating call's request named (parameter values, path pieces):
    #: a create whose answer does not name its object (``CreateLogGroup``) named it here.
    requested: frozenset[str] = frozenset()
    #: The top-level parameter names that request sent (``VolumeId``, ``Tag``), when its
    #: body has names (query, EC2, JSON): which API members a write carried.
    sent: frozenset[str] = frozenset()
    #: A mutating call the emulator itself refused (4xx, answered as it was): its
    #: error message and the request's parameters (:func:`.operations.request_parameters`),
    #: the evidence of a suspected emulator gap (:mod:`..emulator.moto_facts`); a call
    #: answered with an error page keeps its parameters too. Empty otherwise.
    error_message: str = ""
    parameters: dict[str, str] = field(default_factory=dict)

    @property
    def refused(self) -> bool:
        """The emulator refused this mutating call with a client error (4xx)."""
        return (
            self.mutating
            and self.forwarded
            and self.status == self.upstream_status
            and 400 <= self.status < 500
        )

    @property
    def label(self) -> str:
        """``Operation#occurrence``, e.g. ``CreateVpc#1``: the n-th such call of the run."""
        return f"{self.operation}#{self.occurrence}"

    @property
    def point(self) -> str:
        """The fault point of this call: ``CreateQueue#1@aws_sqs_queue.jobs`` (the first
        CreateQueue of that resource's apply), or :attr:`label` when not located."""
        if self.address is None:
            return self.label
        return f"{self.operation}#{self.address_occurrence}@{self.address}"


#: An id, ARN, URL or name in an answer's body (XML or JSON text).
_TOKEN = re.compile(rb"[A-Za-z0-9][A-Za-z0-9:/._-]{3,}")


def answer_tokens(body: bytes) -> frozenset[str]:
    """The words of an answer that can name an object (``vpc-0a1b2c3d``, an ARN, a URL)."""
    return frozenset(t.decode() for t in _TOKEN.findall(body[:200_000]))


@dataclass
class _Pending:
    """A call between its arrival and its answer."""

    generation: int
    call: Call
    fault: Fault | None
    signal: Signal
    gather: Gather | None = None


class Proxy:
    """A recording HTTP proxy on ``127.0.0.1`` that can inject faults into API calls.

    ``upstream`` must be a loopback ``http://`` or ``https://`` URL (the
    emulator; see :func:`pytest_converge.isolation.safety.loopback_target`); anything else
    raises ``UnsafeTargetError``, so fault tests never reach real AWS.
    """

    def __init__(
        self,
        upstream: str,
        *,
        port: int = 0,
        timeout: float = 300.0,
        unserved: Iterable[str] = (),
    ) -> None:
        self.upstream = upstream.rstrip("/")
        #: Services the upstream serves none of (by signing name, any case, no ``-``): their
        #: calls are answered here as not implemented, never forwarded (MiniStack routes a
        #: REST call of a service it lacks to its S3, which answers as S3 would).
        self.unserved = frozenset(s.replace("-", "").lower() for s in unserved)
        target = loopback_target(self.upstream, "proxy upstream")
        self._port = port
        self._timeout = timeout
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._pool = _UpstreamPool(target, timeout)
        self._generation = 0
        self._seq = 0
        self._counts: dict[str, int] = {}
        self._address_counts: dict[tuple[str, str], int] = {}
        self._locate: Locate | None = None
        self._answered: Answered | None = None
        self._gather: Gather | None = None
        self._calls: list[Call] = []
        self._pending: dict[int, _Pending] = {}
        self._armed: list[Fault] = []
        self._fired: list[Fault] = []
        self._fired_ids: set[int] = set()
        self._signal: Signal | None = None
        #: Headers added to every forwarded request (e.g. moto's ``x-moto-account-id``).
        self.extra_headers: list[tuple[str, str]] = []

    def _unserved(self, service: str) -> bool:
        # Signing names vary in case (aws 3.39 signs RAM's calls "RAM").
        return service.replace("-", "").lower() in self.unserved

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Listen on an ephemeral loopback port; idempotent."""
        if self._server is not None:
            return
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.proxy = self
        self._server = server
        self._thread = serve_in_thread(server, "converge-proxy", poll_interval=0.05)

    @property
    def endpoint(self) -> str:
        """``http://127.0.0.1:<port>``: the URL to give every service endpoint."""
        return server_url(self._server, "the proxy")

    def stop(self) -> None:
        """Stop listening, close every connection and join every thread; idempotent."""
        server, self._server = self._server, None
        thread, self._thread = self._thread, None
        if server is not None:
            shut_down(server)
            server.server_close()
            # Keep-alive clients would hold their handler threads forever.
            server.close_client_connections()
            server.join_handlers(timeout=5.0)
        if thread is not None:
            thread.join(timeout=5.0)
        self._pool.close()

    def __enter__(self) -> Proxy:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- faults ------------------------------------------------------------------------------

    def arm(
        self,
        faults: Iterable[Fault],
        signal: Signal | None = None,
        locate: Locate | None = None,
        *,
        answered: Answered | None = None,
        gather: Gather | None = None,
    ) -> None:
        """Apply ``faults`` to the calls that follow, replacing any armed before.

        ``signal(sig)`` is called by Crash (SIGKILL) and Interrupt (SIGINT);
        the caller delivers it to Terraform's process group. ``locate(operation,
        body, path)`` names the resource whose apply makes a call: it is asked for
        every mutating call and every call of a pinned fault's operation (recorded
        as ``Call.address``), and a pinned fault fires only on its resource's
        calls; ``answered`` hears what each located call's answer named.
        With ``gather`` (:class:`Gather`), crashes make one cut: see there.
        """
        faults = list(faults)
        for fault in faults:
            if not isinstance(fault, Fault):
                raise FaultError(
                    f"not a fault: {fault!r} (use ApiError, LostResponse, Throttle, "
                    "Crash, Interrupt or parse_fault('kind@Op#n'))"
                )
        unlocated = [f.label for f in faults if f.address is not None]
        if unlocated and locate is None:
            raise FaultError(
                f"{', '.join(unlocated)} must know which resource's apply makes a call: "
                "pass arm(..., locate=callable)"
            )
        needs_signal = [f.label for f in faults if isinstance(f, SIGNALLING)]
        if needs_signal and signal is None:
            raise FaultError(
                f"{', '.join(needs_signal)} must stop terraform: pass "
                "arm(..., signal=callable) that delivers the signal to it"
            )
        with self._lock:
            self._armed = faults
            self._fired = []
            self._fired_ids = set()
            self._signal = signal
            self._locate = locate
            self._answered = answered
            self._gather = gather

    def disarm(self) -> list[Fault]:
        """Stop injecting; return the armed faults that never fired."""
        with self._lock:
            unfired = [f for f in self._armed if id(f) not in self._fired_ids]
            self._armed = []
            self._signal = None
            self._locate = None
            self._answered = None
            gather, self._gather = self._gather, None
        if gather is not None:
            gather.release()
        return unfired

    @property
    def armed(self) -> list[Fault]:
        """The faults currently armed."""
        with self._lock:
            return list(self._armed)

    @property
    def fired(self) -> list[Fault]:
        """The faults of the latest ``arm()`` that hit a call, in firing order."""
        with self._lock:
            return list(self._fired)

    # --- recording ---------------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """Calls answered since the last ``clear()``, in arrival order (copies)."""
        with self._lock:
            calls = [replace(c) for c in self._calls]
        return sorted(calls, key=lambda c: c.seq)

    @property
    def in_flight(self) -> list[Call]:
        """Calls that arrived and are not answered yet (``status`` 0), in arrival order."""
        with self._lock:
            calls = [replace(p.call) for p in self._pending.values()]
        return sorted(calls, key=lambda c: c.seq)

    def clear(self) -> None:
        """Forget recorded calls and restart occurrence counting (start of a run)."""
        with self._lock:
            self._generation += 1
            self._seq = 0
            self._counts = {}
            self._address_counts = {}
            self._calls = []
            self._pending = {}

    # --- called by the handler threads -------------------------------------------------------

    def _located(self, op: Operation, body: bytes = b"", path: str = "") -> str | None:
        """The resource whose apply makes this call, when anyone asks (see :meth:`arm`)."""
        with self._lock:
            locate = self._locate
            wanted = is_mutating(op.name) or any(
                f.address is not None and f.op == op.name for f in self._armed
            )
        if locate is None or not wanted:
            return None
        try:
            # Outside the lock: it may wait for terraform's events to be read.
            return locate(op, body, path)
        except Exception:
            log.exception("locating the resource of %s failed", op.name)
            return None

    def _begin(
        self, op: Operation, method: str, path: str, started: float, address: str | None = None
    ) -> _Pending:
        with self._lock:
            self._seq += 1
            occurrence = self._counts[op.name] = self._counts.get(op.name, 0) + 1
            at = 0
            if address is not None:
                key = (address, op.name)
                at = self._address_counts[key] = self._address_counts.get(key, 0) + 1

            def hit(f: Fault) -> bool:
                if f.address is None:
                    return f.hits(op.name, occurrence)
                return f.address == address and f.hits(op.name, at)

            # Once a fault that stops terraform fired, no other fires in this run: the
            # calls still arriving belong to its graceful stop (or die with the process).
            # A gathered cut takes every crash its calls reach until it is made.
            gathering = self._gather is not None and not self._gather.made
            stopping = any(
                isinstance(f, SIGNALLING) and not (gathering and isinstance(f, Crash))
                for f in self._fired
            )
            fault = None if stopping else next((f for f in self._armed if hit(f)), None)
            if fault is not None and id(fault) not in self._fired_ids:
                self._fired_ids.add(id(fault))
                self._fired.append(fault)
                if gathering and isinstance(fault, Crash):
                    self._gather.crashing()  # type: ignore[union-attr]
            call = Call(
                seq=self._seq,
                service=op.service,
                operation=op.name,
                occurrence=occurrence,
                method=method,
                path=path,
                status=0,
                access_key=op.access_key,
                started=started,
                duration=0.0,
                fault=fault.label if fault else None,
                forwarded=False,
                mutating=is_mutating(op.name),
                region=op.region,
                address=address,
                address_occurrence=at,
            )
            pending = _Pending(self._generation, call, fault, self._signaller(self._signal))
            pending.gather = self._gather
            self._pending[call.seq] = pending
            if pending.gather is not None:
                pending.gather.arrived()
            return pending

    def _heard(self, call: Call) -> None:
        with self._lock:
            answered = self._answered
        if answered is not None and call.address is not None:
            try:
                answered(call.address, call.answered)
            except Exception:
                log.exception("the answered callback failed for %s", call.label)

    def _finish(self, pending: _Pending) -> None:
        with self._lock:
            if pending.generation != self._generation:
                return  # arrived before clear(): belongs to no run
            if self._pending.pop(pending.call.seq, None) is not None:  # once per call
                self._calls.append(pending.call)

    @staticmethod
    def _signaller(callback: Signal | None) -> Signal:
        def deliver(sig: int) -> None:
            if callback is None:
                log.warning("a fault wanted to send signal %s but no signal callback is armed", sig)
                return
            try:
                callback(sig)
            except Exception:
                # The proxy must keep answering other calls whatever the callback does.
                log.exception("the fault signal callback failed for signal %s", sig)

        return deliver

    def _forward(
        self,
        method: str,
        target: str,
        headers: Sequence[tuple[str, str]],
        body: bytes,
        had_length: bool,
    ) -> Response:
        connection_tokens = {
            t.strip().lower() for k, v in headers if k.lower() == "connection" for t in v.split(",")
        }
        out = [
            (k, v)
            for k, v in headers
            if k.lower() not in _HOP_BY_HOP and k.lower() not in connection_tokens
        ]
        out.extend(self.extra_headers)
        if body or had_length:
            out.append(("Content-Length", str(len(body))))
        return self._pool.request(method, target, out, body)


class _UpstreamPool:
    """Keep-alive connections to the emulator, shared by the handler threads.

    A connection is checked out for one request and returned after it, so a
    handler thread never holds one while its client is idle, and ``close()``
    can close every idle one.
    """

    def __init__(self, target: LoopbackTarget, timeout: float) -> None:
        self._host = target.host
        self._port = target.port
        self._tls = target.scheme == "https"
        self._timeout = timeout
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()
        self._closed = False

    def _get(self) -> tuple[http.client.HTTPConnection, bool]:
        with self._lock:
            while self._idle:
                conn = self._idle.pop()
                if conn.sock is not None and not _dropped(conn.sock):
                    return conn, True
                conn.close()
        # http.client never consults HTTP(S)_PROXY, so loopback traffic stays loopback.
        if self._tls:
            # A local emulator's certificate is self-signed (LocalStack makes its own):
            # the address is what is checked, by loopback_target.
            context = ssl._create_unverified_context()
            return _TLSConnection(
                self._host, self._port, timeout=self._timeout, context=context
            ), False
        return _Connection(self._host, self._port, timeout=self._timeout), False

    def _put(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(conn)
                return
        conn.close()

    def request(
        self, method: str, target: str, headers: Sequence[tuple[str, str]], body: bytes
    ) -> Response:
        for attempt in (1, 2):
            conn, reused = self._get()
            try:
                conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
                for name, value in headers:
                    conn.putheader(name, value)
                conn.endheaders(body or None)
                resp = conn.getresponse()
                data = resp.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                # A reused keep-alive connection the server closed meanwhile: retry once
                # on a fresh one (the request never reached the application).
                if reused and attempt == 1:
                    continue
                raise
            except BaseException:
                conn.close()
                raise
            if resp.will_close:
                conn.close()
            else:
                self._put(conn)
            return Response(resp.status, resp.getheaders(), data, resp.reason)
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


class _OneWrite:
    """Sends a small request's head and body in one write (mixed into http.client's classes).

    The stock ``_send_output`` writes them separately: two syscalls and two
    wake-ups of the emulator per call, a measurable share of the proxy's cost.
    """

    def _send_output(self, message_body: Any = None, encode_chunked: bool = False) -> None:
        if isinstance(message_body, bytes) and len(message_body) <= 65536:
            self._buffer.extend((b"", b""))  # type: ignore[attr-defined]
            msg = b"\r\n".join(self._buffer) + message_body  # type: ignore[attr-defined]
            del self._buffer[:]  # type: ignore[attr-defined]
            self.send(msg)  # type: ignore[attr-defined]
            return
        super()._send_output(message_body, encode_chunked)  # type: ignore[misc]


class _Connection(_OneWrite, http.client.HTTPConnection):
    """A plain connection to the emulator."""


class _TLSConnection(_OneWrite, http.client.HTTPSConnection):
    """A TLS connection to an emulator served at an ``https://`` loopback URL."""


def _dropped(sock: socket.socket) -> bool:
    """True when the peer closed an idle connection (it is readable: EOF or junk)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer that tracks its connections and threads so stop() can end them."""

    daemon_threads = True
    block_on_close = False  # joined by join_handlers(), with a timeout
    # socketserver's default backlog of 5 drops connections when the provider
    # opens many at once (the client then sees "connection closed").
    request_queue_size = 128
    proxy: Proxy

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        self._live_lock = threading.Lock()
        self._live_sockets: set[socket.socket] = set()
        self._live_threads: set[threading.Thread] = set()
        super().__init__(address, handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls getfqdn(), a DNS lookup that can take seconds.
        socketserver.TCPServer.server_bind(self)
        host, self.server_port = self.server_address[:2]
        self.server_name = host if isinstance(host, str) else bytes(host).decode()

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(
            target=self._serve_connection,
            args=(request, client_address),
            name="converge-proxy-conn",
            daemon=True,
        )
        with self._live_lock:
            self._live_sockets.add(request)
            self._live_threads.add(thread)
        thread.start()

    def _serve_connection(self, request: Any, client_address: Any) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            with self._live_lock:
                self._live_threads.discard(threading.current_thread())

    def shutdown_request(self, request: Any) -> None:
        with self._live_lock:
            self._live_sockets.discard(request)
        super().shutdown_request(request)

    def close_client_connections(self) -> None:
        with self._live_lock:
            sockets = list(self._live_sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def join_handlers(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self._live_lock:
            threads = list(self._live_threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))


def _note_answer(call: Call, response: Response, body: bytes) -> None:
    """Record on ``call`` the answer its client gets (``body`` is the request's)."""
    call.status = 0 if response.drop else response.status
    call.answer_digest = answer_digest(call.status, response.body)
    call.error_code = error_code(call.status, response.body)
    if call.refused:
        call.error_message = error_message(call.status, response.body)
    if call.refused or call.unimplemented:
        # The request an explanation quotes (a refusal, an error page).
        call.parameters = request_parameters(body)


class _Handler(BaseHTTPRequestHandler):
    """Reads one request, lets the armed fault decide, forwards, answers, records."""

    protocol_version = "HTTP/1.1"  # keep-alive with the client
    disable_nagle_algorithm = True
    timeout = 600  # an idle keep-alive client releases its thread eventually
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s - " + format, self.address_string(), *args)

    def handle_one_request(self) -> None:
        # Every method, including PATCH/OPTIONS and ones we never heard of, is proxied.
        try:
            self.raw_requestline = self.rfile.readline(_MAX_LINE + 1)
            if len(self.raw_requestline) > _MAX_LINE:
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            self._proxy_one()
            self.wfile.flush()
        except (TimeoutError, ConnectionError, OSError):
            self.close_connection = True

    def _proxy_one(self) -> None:
        proxy = self.server.proxy
        started = time.monotonic()
        try:
            body = self._read_body()
        except (ValueError, ConnectionError) as exc:
            self.close_connection = True
            self.send_error(400, f"unreadable request body: {exc}")
            return
        method = self.command
        target = self.path
        if target.startswith(("http://", "https://")):
            # Absolute form: the client believes we are a forward proxy.
            split = urlsplit(target)
            target = split.path + ("?" + split.query if split.query else "")
        target = target or "/"
        headers = list(self.headers.items())
        op = identify(method, target, headers, body)
        path = target.split("?", 1)[0]
        pending = proxy._begin(op, method, path, started, proxy._located(op, body, path))
        pending.call.request_digest = request_digest(method, target, body)
        request = Request(op, pending.call.occurrence, method, path, dict(headers))
        try:
            response = self._answer(pending, request, target, headers, body)
            _note_answer(pending.call, response, body)
            # Record before answering: a client that has its answer must find its call.
            proxy._finish(pending)
            self._send(response)
        finally:
            proxy._finish(pending)

    def _answer(
        self,
        pending: _Pending,
        request: Request,
        target: str,
        headers: list[tuple[str, str]],
        body: bytes,
    ) -> Response:
        """What the client gets: the armed fault's own answer, a refusal of a service
        the backend lacks, nothing for a change a cut holds, else the emulator's."""
        proxy = self.server.proxy
        call, fault, gather = pending.call, pending.fault, pending.gather
        if fault is not None:
            response = fault.before(request)
            if response is not None:
                return response
        held = (
            gather
            if gather is not None and fault is None and gather.holds(call.address, call.mutating)
            else None
        )
        if fault is None and proxy._unserved(request.operation.service):
            call.unimplemented = True
            return request.error(501, "NotImplemented", _NOT_SERVED_AT_ALL)
        if held is not None:
            # A cut is being gathered: this change waits for it and never happens.
            held.wait()
            return Response.dropped()
        t0 = time.monotonic()
        try:
            had_length = self.headers.get("Content-Length") is not None
            try:
                response = proxy._forward(request.method, target, headers, body, had_length)
            except (OSError, http.client.HTTPException) as exc:
                log.warning("upstream %s failed for %s: %s", proxy.upstream, call.label, exc)
                call.unreached = True
                return request.error(
                    502, "ServiceUnavailable", f"the emulator did not answer: {exc}"
                )
            return self._forwarded(pending, request, response, body)
        finally:
            call.duration = time.monotonic() - t0

    def _forwarded(
        self, pending: _Pending, request: Request, response: Response, body: bytes
    ) -> Response:
        """Record what the emulator answered, and what the client gets of it (the
        armed fault's say, a cut's hold, not implemented instead of an error page)."""
        proxy = self.server.proxy
        call, fault, gather = pending.call, pending.fault, pending.gather
        call.forwarded = True
        call.upstream_status = response.status
        if gather is not None and call.mutating:
            gather.changed(call.address)
        call.unimplemented = unimplemented_operation(
            response.status, response.headers, response.body
        )
        if call.unimplemented and fault is None:
            # An HTML 500 the SDK would retry (five times, up to a minute per
            # call): answered as not implemented, which no SDK retries, so the
            # resource fails at once and terraform goes on with the rest.
            response = request.error(501, "NotImplemented", _NOT_SERVED)
        if call.mutating and 200 <= response.status < 300:
            call.answered = answer_tokens(response.body)
            call.requested = request_tokens(body, request.path)
            call.sent = frozenset(n.split(".", 1)[0] for n in request_parameters(body))
            proxy._heard(call)
        if gather is not None and isinstance(fault, Crash):
            # Made, unanswered: held until the cut kills terraform.
            gather.hold(pending.signal)
            return Response.dropped()
        if fault is not None:
            return fault.after(request, response, pending.signal) or response
        return response

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks: list[bytes] = []
            while True:
                line = self.rfile.readline(_MAX_LINE + 1)
                size = int(line.split(b";", 1)[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline(_MAX_LINE + 1).strip():
                        pass  # trailers: not forwarded
                    return b"".join(chunks)
                chunks.append(self._read_exact(size))
                self.rfile.readline(_MAX_LINE + 1)  # the CRLF after each chunk
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        size = int(length)
        if size < 0:
            raise ValueError(f"negative Content-Length {length}")
        return self._read_exact(size)

    def _read_exact(self, size: int) -> bytes:
        data = self.rfile.read(size)
        if len(data) != size:
            raise ConnectionError(f"client sent {len(data)} of {size} body bytes")
        return data

    def _send(self, response: Response) -> None:
        if response.drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        status = response.status
        reason = response.reason or self.responses.get(status, ("",))[0]
        head = self.command == "HEAD"
        no_body = head or status in (204, 304) or 100 <= status < 200
        lines = [f"HTTP/1.1 {status} {reason}"]
        for name, value in response.headers:
            lname = name.lower()
            # A HEAD answer keeps the emulator's Content-Length: it is the object's size.
            if lname in _HOP_BY_HOP and not (head and lname == "content-length"):
                continue
            lines.append(f"{name}: {value}")
        if not no_body:
            lines.append(f"Content-Length: {len(response.body)}")
        elif head and response.header("Content-Length") is None:
            lines.append("Content-Length: 0")
        if self.close_connection:
            lines.append("Connection: close")
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        # One write for head and body: with Nagle off either way, it saves a syscall.
        self.wfile.write(data if no_body else data + response.body)
