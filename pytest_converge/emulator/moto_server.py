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
    app = DomainDispatcherApplication(create_backend_app)
    try:
        server = make_server(args.host, args.port, app, threaded=True, request_handler=QuietHandler)
    except (OSError, SystemExit) as exc:
        # werkzeug prints and calls sys.exit(1) when the port is taken.
        print(f"CANNOT-BIND {args.host}:{args.port} {exc}", flush=True)
        return 3
    server.daemon_threads = True
    threading.Thread(target=_exit_with_parent, name="parent-watch", daemon=True).start()
    print(f"READY {server.server_address[1]}", flush=True)
    os.dup2(2, 1)  # the parent stops reading stdout now: anything later goes to the log
    threading.Thread(target=_warm_up, name="warm-up", daemon=True).start()
    server.serve_forever()
    return 0


def _exit_with_parent() -> None:
    """Exit when stdin reaches EOF: the parent closed it, or died."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def _warm_up() -> None:
    from moto.backends import get_backend
    from moto.core import DEFAULT_ACCOUNT_ID

    for service in WARM_UP:
        try:
            backends = get_backend(service)[DEFAULT_ACCOUNT_ID]  # type: ignore[call-overload]
            # Global services (IAM, S3's account part, STS) are keyed by partition.
            backends["us-east-1" if "us-east-1" in backends.regions else "aws"]
        except Exception:
            return  # only a head start: the first real call builds it anyway


if __name__ == "__main__":
    sys.exit(main())
