"""A server of this plugin's own on ``127.0.0.1``, served from a daemon thread.

The fault proxy (:mod:`.faults.proxy`) and the egress guard (:mod:`.egress`)
both listen this way; each keeps its own request handling and stop.
"""

from __future__ import annotations

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
