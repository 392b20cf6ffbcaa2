"""What one clean apply tells collection: a module's fault points and drift targets.

A module's *fault points* are the mutating API calls of a clean apply, each
pinned to the resource whose apply made it (``CreateVpc#1@aws_vpc.main``: the
first CreateVpc of that resource, whatever order terraform walks in); its
*drift targets* the managed resources it leaves.
Both are recorded at collection time, once per module content per session
(and shared between xdist workers, :mod:`.cache`), so ``--collect-only``
lists exactly what would run. Fault points are also kept across sessions
until the module or the toolchain changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ...analysis.labels import FaultPoint
from ...analysis.state import state_resources
from ...analysis.world_check import World
from ...emulator.moto_world import WORLD_FORMAT
from ...errors import ConvergeError, FaultError
from ...run.stack import Stack
from ...terraform.workspace import local_module_root, tree_digest
from ..session import get_session
from .cache import once_per_run
from .discovery import tree_uses_aws
from .stacks import make_stack


@dataclass(frozen=True)
class FaultPoints:
    """The mutating calls of one clean apply, or why they could not be recorded."""

    points: tuple[str, ...] = ()
    error: str | None = None
    seconds: float = 0.0
    #: The world the clean apply left (:meth:`World.to_json`), to check recoveries
    #: against; None when the emulator cannot tell or the module has no type it reads.
    world: dict[str, Any] | None = None
    #: The points in the order the clean apply made their calls (a chain of crashes
    #: follows it), and the state file it left (what a grouped run's leftover stands for,
    #: what depends on what): see :mod:`pytest_converge.run.matrix`.
    walk: tuple[str, ...] = ()
    state: dict[str, Any] | None = None


_points_key = pytest.StashKey[dict[str, FaultPoints]]()

#: Part of a kept list's key: lists of another form (``Op#n`` before pinning) are not read.
_POINTS_FORMAT = "pinned-2"


def module_digest(module: Path) -> str:
    """Content digest of what a workspace copy of ``module`` takes (as Templates keys it)."""
    root = local_module_root(module)
    return tree_digest(root) + "-" + hashlib.sha256(str(module).encode()).hexdigest()[:8]


def ordered(points: Iterable[str]) -> list[str]:
    """Fault points in a stable order: by operation, then resource, then call number.

    Calls of an apply arrive in terraform's walk order, which varies, and every
    worker and every session must collect the same items in the same order.
    """

    return sorted(points, key=lambda point: FaultPoint.parse(point).sort_key())


def fault_points(config: pytest.Config, module: Path) -> FaultPoints:
    """The module's fault points: recorded once per module content, engine and backend.

    A recorded list is kept in the cache dir, so later sessions skip the clean
    apply until the module (or the toolchain) changes. Under xdist every
    worker collects; the first to get here records, the
    others read its file (same result, so all workers collect the same items).
    """
    cache = config.stash.setdefault(_points_key, {})
    key = module_digest(module)
    if key in cache:
        return cache[key]
    if not tree_uses_aws(module):
        cache[key] = FaultPoints()
        return cache[key]

    def compute() -> dict[str, Any]:
        data = _remembered_points(config, key)
        if data is None:
            found = _record(config, module)
            data = {
                "points": list(found.points),
                "error": found.error,
                "seconds": found.seconds,
                "world": found.world,
                "walk": list(found.walk),
                "state": found.state,
            }
            if found.error is None:
                _remember_points(config, key, data)
        return data

    data = once_per_run(config, f"points-{key}", compute)
    cache[key] = FaultPoints(
        tuple(data["points"]),
        data["error"],
        data["seconds"],
        data.get("world"),
        tuple(data.get("walk") or ()),
        data.get("state"),
    )
    return cache[key]


def point_labels(config: pytest.Config, module_dir: str | os.PathLike[str]) -> list[str]:
    """A module's fault points (``["CreateQueue#1@aws_sqs_queue.jobs", ...]``) at collection
    time: ``pytest_converge.fault_points``.

    For ``pytest_generate_tests``: recorded once per module per session (one
    clean apply against the session's emulator), shared by xdist workers.

    >>> def pytest_generate_tests(metafunc):                        # doctest: +SKIP
    ...     metafunc.parametrize("point", fault_points(metafunc.config, "modules/app"))
    """
    found = fault_points(config, Path(module_dir).resolve())
    if found.error:
        raise FaultError(f"could not record the fault points of {module_dir}: {found.error}")
    return list(found.points)


def recorded(config: pytest.Config, module: Path) -> FaultPoints | None:
    """What this run recorded of ``module``'s clean apply (None before it did)."""
    return config.stash.get(_points_key, {}).get(module_digest(module))


def recorded_world(config: pytest.Config, module: Path) -> dict[str, Any] | None:
    """The clean world recorded with ``module``'s fault points in this run, if any."""
    found = config.stash.get(_points_key, {}).get(module_digest(module))
    return found.world if found is not None else None


def remember_world(config: pytest.Config, module: Path, stack: Stack) -> None:
    """Give an item's ``stack`` the clean world recorded with ``module``'s fault points
    (no clean apply of its own to compare the recovered world with)."""
    world = recorded_world(config, module)
    if world is not None:
        stack.worlds.remember(World.from_json(world))


def _points_file(config: pytest.Config, key: str) -> Path:
    """Where the fault points of this module content are kept across sessions.

    Keyed like the initialised templates (module files, engine, version, CLI
    config) plus the backend and parallelism: the same inputs make the same
    clean apply. A stale list cannot pass silently: a fault that never fires
    is an error.
    """

    session = get_session(config)
    tc = session.toolchain()
    ident = json.dumps(
        [
            _POINTS_FORMAT,
            WORLD_FORMAT,
            key,
            tc.flavor,
            tc.version,
            tc.command,
            tc.cli_config.read_text() if tc.cli_config.exists() else "",
            session.settings.backend,
            session.settings.endpoint or "",
            session.settings.parallelism,
        ]
    )
    digest = hashlib.sha256(ident.encode()).hexdigest()[:16]
    return tc.cache_root / "points" / f"{digest}.json"


def _remembered_points(config: pytest.Config, key: str) -> dict[str, Any] | None:
    try:
        data = json.loads(_points_file(config, key).read_text())
    except (OSError, ValueError, ConvergeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("points"), list):
        return None
    return {
        "points": data["points"],
        "error": None,
        "seconds": 0.0,
        "world": data.get("world"),
        "walk": data.get("walk") or [],
        "state": data.get("state"),
    }


def _remember_points(config: pytest.Config, key: str, data: dict[str, Any]) -> None:
    with contextlib.suppress(OSError, ConvergeError):
        path = _points_file(config, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}")
        kept = {k: data.get(k) for k in ("points", "world", "walk", "state")}
        tmp.write_text(json.dumps(kept))
        os.replace(tmp, path)


def _record(config: pytest.Config, module: Path) -> FaultPoints:
    started = time.monotonic()
    try:
        stack = make_stack(config, module, reproduce="")
    except ConvergeError as exc:
        return FaultPoints(error=str(exc), seconds=time.monotonic() - started)
    try:
        points = stack.fault_points()
        world = stack.worlds.recorded()
        state = stack.worlds.recorded_state()
    except ConvergeError as exc:
        return FaultPoints(error=str(exc), seconds=time.monotonic() - started)
    finally:
        stack.close()
    return FaultPoints(
        tuple(ordered(points)),
        None,
        time.monotonic() - started,
        world.to_json() if world is not None else None,
        tuple(points),
        state,
    )


# -- drift targets -------------------------------------------------------
@dataclass(frozen=True)
class DriftTargets:
    """The managed resources of one clean apply (address, type, taggable), or why not."""

    targets: tuple[tuple[str, str, bool], ...] = ()
    error: str | None = None


_targets_key = pytest.StashKey[dict[str, DriftTargets]]()


def drift_targets(config: pytest.Config, module: Path) -> DriftTargets:
    """The module's managed resources after a clean apply: once per module content per session.

    Shared between xdist workers through a file, as the fault points are.
    """
    cache = config.stash.setdefault(_targets_key, {})
    key = module_digest(module)
    if key in cache:
        return cache[key]

    def compute() -> dict[str, Any]:
        found = _record_targets(config, module)
        return {"targets": [list(t) for t in found.targets], "error": found.error}

    data = once_per_run(config, f"drift-targets-{key}", compute)
    cache[key] = DriftTargets(tuple(tuple(t) for t in data["targets"]), data["error"])
    return cache[key]


def _record_targets(config: pytest.Config, module: Path) -> DriftTargets:

    try:
        stack = make_stack(config, module, reproduce="")
    except ConvergeError as exc:
        return DriftTargets(error=str(exc))
    try:
        # A new Stack's state is empty; every recording empties the emulator after itself.
        stack.apply().raise_for_error()
        resources = state_resources(stack.state())
        stack.fresh_start()
    except ConvergeError as exc:
        return DriftTargets(error=str(exc))
    finally:
        stack.close()
    return DriftTargets(
        tuple(
            # A map of tags can be changed out of band on any resource that has one.
            (r.address, r.type, isinstance(r.values.get("tags", []), dict | None))
            for r in resources
            if r.is_managed
        )
    )
