"""Where the plugin keeps things across sessions: mirrors, plugin caches, templates, parses.

A leaf every layer may import (as ``errors``): ``CONVERGE_CACHE_DIR``, else
``$XDG_CACHE_HOME/pytest-converge``, else ``~/.cache/pytest-converge``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["cache_dir", "locked", "prune_oldest_half"]


def cache_dir() -> Path:
    """Where mirrors, plugin caches and initialised templates live across sessions."""
    explicit = os.environ.get("CONVERGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pytest-converge"


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` for the ``with`` block (xdist workers and sessions
    that share the cache build a thing once, not once each)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def prune_oldest_half(directory: Path, suffix: str, limit: int) -> None:
    """Remove the older half (by modification time) of ``directory``'s files ending in
    ``suffix`` when there are more than ``limit`` of them; best effort, never raises
    (another process may remove one first, a cache may be read-only)."""
    try:
        entries = [e for e in os.scandir(directory) if e.name.endswith(suffix)]
        if len(entries) <= limit:
            return
        entries.sort(key=lambda e: e.stat().st_mtime)
    except OSError:
        return
    for old in entries[: len(entries) // 2]:
        with contextlib.suppress(OSError):
            os.unlink(old.path)
