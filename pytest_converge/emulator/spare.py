"""A moto process spawned while pytest starts, for the session to adopt.

moto needs about a second of its own core before it answers a first call (its
import, the fidelity layer's install, EC2's models), and a two-run waits for it:
its first ``terraform apply`` configures the provider against it. pytest's own
start-up (its plugins, the conftest files, the options) takes 0.3-0.4 s more
before ``pytest_sessionstart``, where the session would launch moto. When the
command line already says what the session will decide, ``--converge`` with the
moto backend in a process that runs the tests, :func:`launch` spawns moto as the
plugin is imported, and the session's :func:`take` adopts that process.

Under xdist the controller knows, not the workers' command lines: it says so in
the environment its workers inherit (:func:`offer_to_workers`). A spare nobody
adopts (an ini file chose another backend or xdist workers, a usage error) is
stopped by :func:`drop` at ``pytest_sessionstart``, or at exit by the same net as
every moto process (:meth:`.MotoEmulator.launch`).
"""

from __future__ import annotations

import os
import shlex
import threading
from collections.abc import Mapping, Sequence

from ..errors import ConvergeError
from .moto import MotoEmulator

_SPARE: MotoEmulator | None = None
_LOCK = threading.Lock()

#: Options after which this process does not run moto scenarios itself (xdist's
#: controller, a collection, another backend or emulator, a plan gate).
_NOT_HERE = (
    "-n",
    "--numprocesses",
    "-d",
    "--dist",
    "--collect-only",
    "--co",
    "--converge-endpoint",
    "--converge-plan",
    "-h",
    "--help",
    "--version",
    "-V",
)


#: Set by an xdist controller whose workers will run moto scenarios: its pid. A worker's
#: command line is execnet's, so the controller says it; only its own children listen.
FOR_WORKERS = "PYTEST_CONVERGE_SPARE_FOR"


def offer_to_workers() -> None:
    """Tell the xdist workers this process is about to start to spawn their moto early."""
    os.environ[FOR_WORKERS] = str(os.getpid())


def wanted(
    argv: Sequence[str], environ: Mapping[str, str] | None = None, parent: int | None = None
) -> bool:
    """Whether ``argv`` (and ``PYTEST_ADDOPTS``) surely ask this process for moto runs,
    or this is a worker of a controller that said so (:func:`offer_to_workers`)."""
    env = os.environ if environ is None else environ
    if env.get(FOR_WORKERS) == str(os.getppid() if parent is None else parent):
        return bool(env.get("PYTEST_XDIST_WORKER"))
    try:
        args = [*shlex.split(env.get("PYTEST_ADDOPTS", "")), *argv]
    except ValueError:
        return False
    converge = False
    for i, arg in enumerate(args):
        flag, _, value = arg.partition("=")
        if flag in _NOT_HERE or (flag.startswith("-n") and flag[2:].isdigit()):
            return False
        if flag == "--converge":
            converge = True
        elif flag == "--converge-backend":
            backend = value if value else (args[i + 1] if i + 1 < len(args) else "")
            if backend != "moto":
                return False
    return converge


def launch(argv: Sequence[str]) -> None:
    """Spawn a spare moto if :func:`wanted`; a failure is left for the session's own launch."""
    global _SPARE
    if not wanted(argv):
        return
    with _LOCK:
        if _SPARE is not None:
            return
        spare = MotoEmulator()
        try:
            spare.launch()
        except ConvergeError:
            return
        _SPARE = spare


def take() -> MotoEmulator | None:
    """The spare, if it is alive and was spawned with the environment a new one would get."""
    global _SPARE
    with _LOCK:
        spare, _SPARE = _SPARE, None
    if spare is None:
        return None
    if spare.is_spawned_as(MotoEmulator()):
        return spare
    spare.stop()
    return None


def drop() -> None:
    """Stop a spare the session did not adopt."""
    global _SPARE
    with _LOCK:
        spare, _SPARE = _SPARE, None
    if spare is not None:
        spare.stop()
