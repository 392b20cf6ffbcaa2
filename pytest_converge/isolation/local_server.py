"""A server of this plugin's own on ``127.0.0.1``, served from a daemon thread.

The fault proxy (:mod:`.faults.proxy`) and the egress guard (:mod:`.egress`)
both listen this way; each keeps its own request handling and stop.
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading


def serve_in_thread(
    server: socketserver.BaseServer, name: str, poll_interval: float
) -> threading.Thread:
    """Start serving ``server`` from a daemon thread called ``name``; returns the thread."""
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": poll_interval},
        name=name,
        daemon=True,
    )
    thread.start()
    return thread


def server_url(server: socketserver.TCPServer | None, what: str) -> str:
    """``http://127.0.0.1:<port>`` of a started ``server``; RuntimeError naming ``what`` if not."""
    if server is None:
        raise RuntimeError(f"{what} is not running; call start() first")
    return f"http://127.0.0.1:{server.server_address[1]}"


def shut_down(server: socketserver.TCPServer) -> None:
    """``server.shutdown()`` without waiting out its poll interval: the loop is woken by a
    connection as soon as it is told to stop (a wait of up to the interval per server
    stopped otherwise: 0.05-0.1 s of every Stack's close). Returns once it has stopped."""
    host, port = server.server_address[:2]
    stopping = threading.Thread(target=server.shutdown, name="converge-shutdown", daemon=True)
    stopping.start()
    while stopping.is_alive():
        with contextlib.suppress(OSError):  # already closed: the loop has ended
            socket.create_connection((str(host), int(port)), timeout=0.5).close()
        stopping.join(timeout=0.01)
