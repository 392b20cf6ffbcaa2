"""The served-operations data file both backends' scripts write: its content, made from
an ``analyse()`` before and after a fidelity layer installs, and ``--check``.

Standard library only: ``scripts/served_operations.py`` runs it in the plugin's Python,
``scripts/ministack_operations.py`` in MiniStack's (each imports it from this folder).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from importlib.metadata import version
from pathlib import Path
from typing import Any

FORMAT = 1

Analysis = dict[str, dict[str, Any]]


def build(
    backend: str, analyse: Callable[[], Analysis], install: Callable[[], Mapping[str, str]]
) -> dict[str, Any]:
    """The data file's content: what ``analyse`` finds, then again once ``install`` (the
    fidelity layer) ran; the operations the layer adds are listed as its own."""
    alone = analyse()
    failed = {name: status for name, status in install().items() if status != "installed"}
    if failed:
        raise SystemExit(f"fidelity behaviours did not install: {failed}")
    services: dict[str, Any] = {}
    for service, entry in sorted(analyse().items()):
        before = alone.get(service, {"operations": []})
        added = sorted(set(entry["operations"]) - set(before["operations"]))
        services[service] = {**entry, "fidelity": added}
    return {
        "format": FORMAT,
        "backend": backend,
        "version": version(backend),
        "botocore": version("botocore"),
        "services": services,
    }


def render(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def write_or_check(text: str, output: Path, check: bool, script: str) -> int:
    """Write ``text`` to ``output``; with ``check``, exit status 1 when the file differs
    in anything but botocore's release (which only informs)."""
    if check:
        current = output.read_text() if output.exists() else ""
        if _comparable(current) != _comparable(text):
            print(f"{output} is stale: run {sys.executable} {script}")
            return 1
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)
    return 0


def _comparable(text: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    data.pop("botocore", None)
    return data
