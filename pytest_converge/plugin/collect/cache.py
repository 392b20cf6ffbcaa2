"""Work done once per test run and shared by xdist workers through a locked file.

Under xdist every worker collects. The first worker to ask for a result
computes it; the others wait on the lock and read its file, so all workers
collect the same items in the same order.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def once_per_run(
    config: pytest.Config, name: str, compute: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``compute()`` once per test run, shared by xdist workers through a locked file.

    Every worker collects; the first to get here computes, the others read its
    file (the same result, so all workers collect the same items).
    """
    shared = shared_dir(config) / f"{name}.json"
    shared.parent.mkdir(parents=True, exist_ok=True)
    with open(shared.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if shared.exists():
                return dict(json.loads(shared.read_text()))
            data = compute()
            tmp = shared.with_name(shared.name + f".{os.getpid()}")
            tmp.write_text(json.dumps(data))
            os.replace(tmp, shared)
            return data
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def shared_dir(config: pytest.Config) -> Path:
    """The directory every worker of this run sees (the controller's base temp)."""
    base = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    # xdist workers' base temps are <controller basetemp>/gwN: share the parent.
    return (base.parent if hasattr(config, "workerinput") else base) / "converge-points"
