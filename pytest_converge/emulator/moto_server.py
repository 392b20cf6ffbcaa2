"""The moto server process that :class:`~pytest_converge.emulator.moto.MotoEmulator` runs.

``python -m pytest_converge.emulator.moto_server --host 127.0.0.1 --port 0``

Serves moto's app (werkzeug, one thread per request) on loopback, prints one
line ``READY <port>`` on stdout once it listens, then warms up the backends
the plugin uses most. It exits when its stdin closes: the parent holds the
other end, so the server never outlives the pytest process that started it,
whatever killed that process (even SIGKILL).

It only ever sees the environment ``MotoEmulator`` builds for it (fake
credentials, no profile, no config files, no proxies): moto reads botocore's
configuration when a backend is imported.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
from typing import Any

#: Services built right after start-up (EC2's first use takes ~3 s), while
#: terraform init runs in the parent.
WARM_UP = ("ec2", "s3", "sqs", "iam", "dynamodb", "sts")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="moto_server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)

    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )
    from werkzeug.serving import make_server

    class QuietHandler(MotoRequestHandler):
        def log_request(self, *args: Any, **kwargs: Any) -> None:
            pass  # one line per API call would fill the parent's log for nothing

    # http.server's bind asks for the host's fully qualified name: a name lookup that
    # may go to DNS. A loopback server has no use for it.
    socket.getfqdn = lambda name="": name or "localhost"
    _share_aws_managed_policies()
    warmed = threading.Event()
    app = _ResetAfterWarmUp(DomainDispatcherApplication(create_backend_app), warmed)
    try:
        server = make_server(args.host, args.port, app, threaded=True, request_handler=QuietHandler)
    except (OSError, SystemExit) as exc:
        # werkzeug prints and calls sys.exit(1) when the port is taken.
        print(f"CANNOT-BIND {args.host}:{args.port} {exc}", flush=True)
        return 3
    server.daemon_threads = True  # type: ignore[attr-defined]  # a ThreadedWSGIServer
    threading.Thread(target=_exit_with_parent, name="parent-watch", daemon=True).start()
    print(f"READY {server.server_address[1]}", flush=True)
    os.dup2(2, 1)  # the parent stops reading stdout now: anything later goes to the log
    threading.Thread(target=_warm_up, args=(warmed,), name="warm-up", daemon=True).start()
    server.serve_forever()
    return 0


def _exit_with_parent() -> None:
    """Exit when stdin reaches EOF: the parent closed it, or died."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def _warm_up(done: threading.Event) -> None:
    from moto.backends import get_backend
    from moto.core import DEFAULT_ACCOUNT_ID

    try:
        for service in WARM_UP:
            backends = get_backend(service)[DEFAULT_ACCOUNT_ID]  # type: ignore[call-overload]
            # Global services (IAM, S3's account part, STS) are keyed by partition.
            backends["us-east-1" if "us-east-1" in backends.regions else "aws"]
    except Exception:
        pass  # only a head start: the first real call builds it anyway
    finally:
        done.set()


class _ResetAfterWarmUp:
    """WSGI wrapper: ``POST /moto-api/reset`` waits for the warm-up to finish.

    moto's reset walks every backend while the warm-up thread may be adding
    one: run together, the reset fails with a 500.
    """

    def __init__(self, app: Any, warmed: threading.Event) -> None:
        self.app = app
        self.warmed = warmed

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == "/moto-api/reset":
            self.warmed.wait(timeout=120)
        return self.app(environ, start_response)


def _share_aws_managed_policies() -> None:
    """Build moto's ~1,500 AWS-managed IAM policies once per process, not on every reset.

    moto re-creates the IAM backend on each reset (twice: the reset re-initialises
    it, then the first IAM call after it), parsing a 4.7 MB document each time:
    0.2-1.7 s per reset on a busy machine. AWS-managed policies cannot be changed
    by a module; only their attachment count is state, and it restarts at 0.
    """
    from moto.iam import models

    original = models.IAMBackend._init_aws_policies
    built: dict[tuple[str, str], list[Any]] = {}
    lock = threading.Lock()

    def init_aws_policies(self: Any) -> list[Any]:
        key = (self.account_id, self.region_name)
        with lock:
            if key not in built:
                built[key] = original(self)
            policies = built[key]
        for policy in policies:
            policy.attachment_count = 0
        return list(policies)

    models.IAMBackend._init_aws_policies = init_aws_policies  # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(main())
