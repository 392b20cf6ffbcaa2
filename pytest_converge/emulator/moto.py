"""moto, embedded: an in-process AWS emulator on an ephemeral loopback port."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

from ..errors import EmulatorError
from .base import Emulator


class MotoEmulator(Emulator):
    """moto's server app served by werkzeug in a daemon thread of this process.

    moto's own ``ThreadedMotoServer`` binds inside its thread, so a port that
    is already taken makes ``start()`` wait forever; binding here first turns
    that into an immediate ``EmulatorError``.
    """

    name = "moto"

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._host = host
        self._port = port
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def endpoint(self) -> str:
        if self._server is None:
            raise EmulatorError("the moto emulator is not running; call start() first")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        if self._server is not None:
            return
        from moto.moto_server.werkzeug_app import (
            DomainDispatcherApplication,
            MotoRequestHandler,
            create_backend_app,
        )
        from werkzeug.serving import make_server

        class QuietHandler(MotoRequestHandler):
            def log_request(self, *args: Any, **kwargs: Any) -> None:
                pass  # one line per API call would drown pytest's output

        app = DomainDispatcherApplication(create_backend_app)
        try:
            self._server = make_server(
                self._host, self._port, app, threaded=True, request_handler=QuietHandler
            )
        except (OSError, SystemExit):
            # werkzeug prints and calls sys.exit(1) when the port is taken.
            raise EmulatorError(
                f"cannot start moto on {self._host}:{self._port}: the port is in use or not "
                "bindable. Use port 0 (an ephemeral port, the default) or free the port."
            ) from None
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="converge-moto", daemon=True
        )
        self._thread.start()
        if not self._wait_ready(timeout=10.0):
            self.stop()
            raise EmulatorError("moto did not answer its health check within 10s")
        # moto builds each service backend on first use (EC2 takes ~3 s); do it
        # now, in the background, while terraform init runs.
        threading.Thread(target=self._warm_up, name="converge-moto-warmup", daemon=True).start()

    def _warm_up(self) -> None:
        calls = (
            ("ec2", "describe_vpcs"),
            ("s3", "list_buckets"),
            ("sqs", "list_queues"),
            ("iam", "list_roles"),
            ("dynamodb", "list_tables"),
            ("sts", "get_caller_identity"),
        )
        for service, method in calls:
            try:
                getattr(self.client(service), method)()
            except Exception:
                return

    def _wait_ready(self, timeout: float) -> bool:
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._answers():
                return True
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _request(self, method: str, path: str, timeout: float = 5.0) -> bytes:
        data = b"" if method == "POST" else None
        req = urllib.request.Request(self.endpoint + path, method=method, data=data)
        with _no_proxy_opener().open(req, timeout=timeout) as resp:
            return resp.read()

    def is_alive(self) -> bool:
        """Serving thread running and the port accepting connections.

        No HTTP round trip: a busy moto (building a backend) is alive, not dead.
        """
        if self._server is None or self._thread is None or not self._thread.is_alive():
            return False
        import socket

        host, port = self._server.server_address[:2]
        try:
            with socket.create_connection((host, port), timeout=2.0):
                return True
        except OSError:
            return False

    def _answers(self) -> bool:
        try:
            # A GET here is refused with 400 and changes nothing: a cheap "are you there".
            self._request("GET", "/moto-api/reset-auth", timeout=2.0)
        except urllib.error.HTTPError:
            return True
        except (OSError, urllib.error.URLError):
            return False
        return True

    def reset(self) -> None:
        try:
            # A reset after SNS/EC2 use takes ~2 s idle, far more on a loaded machine.
            self._request("POST", "/moto-api/reset", timeout=60.0)
        except (OSError, urllib.error.URLError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not accept a reset: {exc}") from exc

    def data(self) -> dict[str, Any]:
        """moto's dump of every backend's objects (``/moto-api/data.json``)."""
        try:
            return json.loads(self._request("GET", "/moto-api/data.json", timeout=30.0))
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not return its data: {exc}") from exc


def _no_proxy_opener() -> urllib.request.OpenerDirector:
    # HTTP(S)_PROXY in a CI environment must never capture loopback traffic.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))
