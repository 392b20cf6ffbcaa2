"""MiniStack (PyPI ``ministack``, MIT) in a process of its own, run from an environment of its own.

MiniStack pins botocore exactly (1.5.33: ``botocore==1.43.106``), so it is never installed
beside the plugin; :func:`find_ministack` takes the first of:

1. the executable or interpreter named by ``--converge-ministack`` or ``$CONVERGE_MINISTACK``
   (a ``ministack`` console script, a Python that imports ``ministack``, or a venv directory);
2. a ``ministack`` on PATH (``pipx install ministack`` / ``uv tool install ministack``);
3. the venv the plugin provisions once under ``cache_dir()/ministack/<version>``
   (:func:`provision`: the running Python's ``venv`` module, then
   ``pip install ministack==<version>``; ``.ci/install-ministack.sh`` makes the same one).

:class:`MiniStackEmulator` starts it on a free loopback port (``BIND_HOST=127.0.0.1``: it
binds every interface otherwise), in a new process group tracked by the cancel reaper, with
the run's fake account (``MINISTACK_ACCOUNT_ID``), its state, S3 data, pid file and log in a
temp dir, ``DOCKER_HOST`` naming a socket that does not exist there (MiniStack then never
imports the Docker SDK: no service it serves reaches a Docker engine) and its HTTP clients'
proxy a loopback port nothing serves. Readiness is
``GET /_ministack/health``, a reset ``POST /_ministack/reset`` (milliseconds).

Example::

    with MiniStackEmulator() as emulator:
        emulator.client("sqs").create_queue(QueueName="jobs")
        emulator.reset()

What it serves comes from data (``data/ministack_services.json``, written from its own service
registry by ``scripts/ministack_services.py``): ``UNSUPPORTED_SERVICES``
(:func:`pinned_unsupported`) are the aws provider's endpoint names none of whose spellings
MiniStack routes (MemoryDB, RAM, Redshift...). Per operation, the pre-flight reads
``data/served/ministack.json`` (``served("ministack")``, written from its router and its
services' dispatch tables by ``scripts/ministack_operations.py``).
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..awsapi.operations import botocore_services
from ..errors import EmulatorError
from ..isolation import cancel
from ..isolation.fake_account import FAKE_ACCOUNT_ID
from ..isolation.safety import emulator_env
from ..storage import cache_dir, locked
from .base import Emulator, ServerProcess, remove_scratch
from .fidelity import RECORDED_VARIABLE
from .localstack_world import read_world
from .ministack_fidelity import OFF_VARIABLE, STATUS_FILE_VARIABLE, behaviours

#: The MiniStack release the plugin provisions and is tested with.
PINNED_VERSION = "1.5.33"
#: Names the MiniStack to run: an executable, a Python with ``ministack``, or a venv directory.
EXECUTABLE_ENV = "CONVERGE_MINISTACK"

#: Where MiniStack's own HTTP clients are sent for anything not on loopback: the discard
#: port of 127.0.0.1, which nothing serves here (the connection is refused).
NOWHERE_PROXY = "http://127.0.0.1:9"

HEALTH_PATH = "/_ministack/health"
RESET_PATH = "/_ministack/reset"

#: What MiniStack's Python runs instead of ``-m ministack``: its fidelity layer
#: (:mod:`.ministack_fidelity`, loaded by path: the plugin is not installed there),
#: then MiniStack's own main.
BOOT = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location("
    "'converge_ministack_fidelity', {init!r}, submodule_search_locations=[{here!r}])\n"
    "layer = importlib.util.module_from_spec(spec)\n"
    "sys.modules[spec.name] = layer\n"
    "spec.loader.exec_module(layer)\n"
    "layer.boot()\n"
)
FIDELITY_DIR = Path(__file__).resolve().parent / "ministack_fidelity"

DATA = Path(__file__).resolve().parents[1] / "data"
SERVICES_TABLE = DATA / "ministack_services.json"
PROVIDER_BLOCKS = DATA / "aws_provider_blocks.json"

#: The aws provider's endpoint names (and resource type words) that MiniStack routes under
#: another name: ``aws_efs_*`` and ``endpoints { efs }`` are its ``elasticfilesystem``.
PROVIDER_NAMES = {
    "cloudcontrolapi": "cloudcontrol",
    "cloudwatchevents": "events",
    "cloudwatchlog": "logs",
    "cloudwatchlogs": "logs",
    "cognitoidentityprovider": "cognito-idp",
    "configservice": "config",
    "costandusagereportservice": "cur",
    "docdb": "documentdb",
    "efs": "elasticfilesystem",
    "elasticloadbalancingv2": "elasticloadbalancing",
    "elasticsearchservice": "opensearch",
    "emr": "elasticmapreduce",
    "inspectorv2": "inspector2",
    "locationservice": "location",
    "msk": "kafka",
    "opensearchservice": "opensearch",
    "resourcegroupstagging": "tagging",
    "resourcegroupstaggingapi": "tagging",
    "s3api": "s3",
    "sesv2": "ses",
    "sfn": "states",
    "transcribeservice": "transcribe",
}


def _plain(name: str) -> str:
    return name.replace("-", "").replace("_", "").lower()


def served_services(version: str = PINNED_VERSION) -> frozenset[str]:
    """The service names (and aliases) MiniStack ``version`` routes, from the shipped table
    (the pinned version's when ``version`` is not in it)."""
    versions = json.loads(SERVICES_TABLE.read_text())["versions"]
    entry = versions.get(version) or versions[PINNED_VERSION]
    return frozenset(entry["served"])


def unsupported_services(version: str = PINNED_VERSION) -> frozenset[str]:
    """The aws provider's endpoint names (every version in ``aws_provider_blocks.json``) and
    botocore's service names that MiniStack ``version`` serves under no spelling."""
    served = {_plain(name) for name in served_services(version)}
    blocks = json.loads(PROVIDER_BLOCKS.read_text())["versions"]
    names = {name for block in blocks.values() for name in block.get("endpoints", ())}
    names |= botocore_services()
    return frozenset(
        name
        for name in names
        if _plain(name) not in served and _plain(PROVIDER_NAMES.get(name, name)) not in served
    )


def __getattr__(name: str) -> Any:
    """``UNSUPPORTED_SERVICES``: what the pinned MiniStack cannot serve (a module needing
    one fails before its first apply), read from the tables on first use (~0.06 s, which
    a run on moto does not pay at start-up)."""
    if name == "UNSUPPORTED_SERVICES":
        return pinned_unsupported()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def pinned_unsupported() -> frozenset[str]:
    """:func:`unsupported_services` of the pinned MiniStack, read once."""
    return unsupported_services()


# -- finding it --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MiniStackCommand:
    """How to run one MiniStack: ``argv`` and where it was found (for messages)."""

    argv: tuple[str, ...]
    source: str

    def __str__(self) -> str:
        return f"{' '.join(self.argv)} (from {self.source})"


def provisioned_dir(version: str = PINNED_VERSION) -> Path:
    """The venv the plugin provisions MiniStack ``version`` into (and ``.ci`` installs)."""
    return cache_dir() / "ministack" / version


#: Written last by :func:`provision`: a venv without it is half-built and made again.
COMPLETE_MARK = ".converge-complete"


def provisioned_command(version: str = PINNED_VERSION) -> MiniStackCommand | None:
    """The provisioned venv's interpreter, if a complete one is there."""
    venv = provisioned_dir(version)
    python = venv / "bin" / "python"
    if (venv / COMPLETE_MARK).exists() and python.exists():
        return MiniStackCommand((str(python), "-m", "ministack"), f"the plugin's cache {venv}")
    return None


def _named_command(named: str, source: str) -> MiniStackCommand:
    """``named``: a venv directory, a Python interpreter, or an executable."""
    path = Path(named).expanduser()
    if path.is_dir():
        python = path / "bin" / "python"
        if not python.exists():
            raise EmulatorError(f"{named} (from {source}) is a directory without bin/python")
        return MiniStackCommand((str(python), "-m", "ministack"), source)
    found = shutil.which(named) if not path.exists() else str(path)
    if found is None:
        raise EmulatorError(f"{named} (from {source}) not found")
    if Path(found).name.startswith("python"):
        return MiniStackCommand((found, "-m", "ministack"), source)
    return MiniStackCommand((found,), source)


def find_ministack(
    named: str | None = None, version: str = PINNED_VERSION
) -> tuple[MiniStackCommand | None, list[str]]:
    """(command, []) for the first MiniStack found (see the module docstring), else
    (None, what was looked at). Provisions nothing; :func:`ministack_command` does."""
    explicit = named or os.environ.get(EXECUTABLE_ENV, "").strip() or None
    if explicit:
        source = "--converge-ministack" if named else f"${EXECUTABLE_ENV}"
        return _named_command(explicit, source), []
    tried = [f"${EXECUTABLE_ENV} not set"]
    on_path = shutil.which("ministack")
    if on_path:
        return MiniStackCommand((on_path,), "PATH"), []
    tried.append("no ministack on PATH")
    provisioned = provisioned_command(version)
    if provisioned is not None:
        return provisioned, []
    tried.append(f"no provisioned venv at {provisioned_dir(version)}")
    return None, tried


def install_hint(version: str = PINNED_VERSION) -> str:
    """The commands a user runs to get MiniStack without the plugin provisioning it."""
    venv = provisioned_dir(version)
    return (
        f"`python3 -m venv {venv} && {venv}/bin/pip install ministack=={version} && "
        f"touch {venv}/{COMPLETE_MARK}` (what .ci/install-ministack.sh does), or "
        f"`pipx install ministack=={version}`, or name one with ${EXECUTABLE_ENV}"
    )


def ministack_missing(named: str | None = None) -> str | None:
    """None when a MiniStack is installed where :func:`find_ministack` looks, else why not and
    the fix (provisioning would need the package registry)."""
    try:
        command, tried = find_ministack(named)
    except EmulatorError as exc:
        return str(exc)
    if command is not None:
        return None
    return f"no MiniStack installed ({'; '.join(tried)}); install it: {install_hint()}"


def provision(version: str = PINNED_VERSION, timeout: float = 600.0) -> MiniStackCommand:
    """Make the venv of :func:`provisioned_dir` (once; the running Python's ``venv`` module,
    then ``pip install ministack==version``) and return its command.

    Needs the package registry pip is configured with; EmulatorError naming the commands
    to run by hand when it cannot.
    """
    venv = provisioned_dir(version)
    with locked(venv.parent / f".{version}.lock"):
        ready = provisioned_command(version)
        if ready is not None:
            return ready
        steps = [
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
             "--disable-pip-version-check", f"ministack=={version}"],
        ]  # fmt: skip
        for step in steps:
            try:
                done = subprocess.run(
                    step, capture_output=True, text=True, timeout=timeout, check=False
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise EmulatorError(_provision_failed(version, " ".join(step), str(exc))) from None
            if done.returncode != 0:
                said = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
                raise EmulatorError(_provision_failed(version, " ".join(step), said))
        (venv / COMPLETE_MARK).write_text(f"ministack=={version}\n")
    command = provisioned_command(version)
    assert command is not None
    return command


def _provision_failed(version: str, step: str, said: str) -> str:
    return (
        f"MiniStack {version} is not installed and the plugin could not provision it "
        f"(`{step}` failed; it needs the package registry):\n{said}\n"
        f"Install it yourself: {install_hint(version)}."
    )


def ministack_command(named: str | None = None) -> MiniStackCommand:
    """The MiniStack to run: the first :func:`find_ministack` finds, else one provisioned."""
    command, _ = find_ministack(named)
    return command if command is not None else provision()


# -- running it --------------------------------------------------------------------------------


class MiniStackEmulator(ServerProcess, Emulator):
    """MiniStack in a child process on a loopback port (see the module docstring).

    ``command`` is how to run it (default: :func:`ministack_command`, resolved at
    :meth:`start`). ``version`` is what its health document says once started.
    ``fidelity_off`` names behaviours of its fidelity layer (:mod:`.ministack_fidelity`)
    to leave out (``"all"``: MiniStack as released); default ``$CONVERGE_MINISTACK_FIDELITY_OFF``.
    """

    name = "ministack"
    server_label = "the MiniStack emulator"
    # It answers them at once (a 400 "Unsupported service: redshift"): left untested.
    answers_unsupported = True

    def __init__(
        self,
        command: MiniStackCommand | None = None,
        named: str | None = None,
        start_timeout: float = 60.0,
        stop_timeout: float = 10.0,
        fidelity_off: str | None = None,
    ) -> None:
        self.command = command
        self.unsupported_services = pinned_unsupported()
        self._named = named
        self._fidelity_off = fidelity_off
        self._start_timeout = start_timeout
        self._stop_timeout = stop_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._port = 0
        self._tmpdir: str | None = None
        self.log_path: Path | None = None
        #: MiniStack's version, from its health document (set by ``start()``).
        self.version: str | None = None
        self.start_seconds: float | None = None

    def environment(self, scratch: Path) -> dict[str, str]:
        """The server process's whole environment: the emulator allow-list, then MiniStack's
        settings (loopback, port, account, every path under ``scratch``, no Docker)."""
        env = emulator_env(scratch)
        env.update(
            BIND_HOST="127.0.0.1",
            GATEWAY_PORT=str(self._port),
            MINISTACK_HOST="localhost",
            MINISTACK_ACCOUNT_ID=FAKE_ACCOUNT_ID,
            MINISTACK_REGION=self.region,
            TMPDIR=str(scratch),  # its pid file and any temp file
            STATE_DIR=str(scratch / "state"),
            S3_DATA_DIR=str(scratch / "s3"),
            PERSIST_STATE="0",
            S3_PERSIST="0",
            DOCKER_HOST=f"unix://{scratch / 'no-docker.sock'}",
            LOG_LEVEL="WARNING",
        )
        env[STATUS_FILE_VARIABLE] = str(scratch / "fidelity.json")
        off = os.environ.get(OFF_VARIABLE) if self._fidelity_off is None else self._fidelity_off
        if off:
            env[OFF_VARIABLE] = off
        if os.environ.get(RECORDED_VARIABLE):  # a test's stand-in digests (see .fidelity)
            env[RECORDED_VARIABLE] = os.environ[RECORDED_VARIABLE]
        # A call of its own beyond loopback (a Bedrock proxy, a layer download) goes to a
        # loopback port nothing listens on and fails at once; NO_PROXY keeps its calls to
        # itself (SNS to SQS, Lambda's runtime API) direct.
        for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
            env[key] = NOWHERE_PROXY
        return env

    def start(self) -> None:
        """Run MiniStack and wait for its health document; EmulatorError naming why not."""
        if self._proc is not None:
            return
        if self.command is None:
            self.command = ministack_command(self._named)
        started = time.monotonic()
        for _ in range(3):  # the free port may be taken before MiniStack binds it
            self._port = _free_port()
            self._spawn()
            try:
                self._wait_healthy(started + self._start_timeout)
            except _PortTaken:
                self.stop()
                continue
            self.start_seconds = time.monotonic() - started
            return
        raise EmulatorError("MiniStack could not bind a free loopback port three times")

    def _spawn(self) -> None:
        assert self.command is not None
        atexit.register(self.stop)
        self._tmpdir = tempfile.mkdtemp(prefix="converge-ministack-")
        cancel.track_dir(self._tmpdir)  # removed even if pytest is killed
        scratch = Path(self._tmpdir)
        self.log_path = scratch / "ministack.log"
        try:
            with open(self.log_path, "wb") as log:
                self._proc = subprocess.Popen(
                    list(self._argv()),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=self.environment(scratch),
                    cwd=str(scratch),
                    start_new_session=True,  # own process group: stop() reaches all of it
                )
        except OSError as exc:
            self.stop()
            raise EmulatorError(f"cannot run MiniStack {self.command}: {exc}") from exc
        cancel.track(self._proc.pid)  # killed even if pytest dies before stop()

    def _argv(self) -> tuple[str, ...]:
        """The command, its ``-m ministack`` (or a console script's) replaced by :data:`BOOT`
        in the same Python; as given when that Python is not known (the layer is then
        not installed, and :meth:`fidelity` says so)."""
        assert self.command is not None
        argv = self.command.argv
        python = python_of(argv)
        if python is None:
            return argv
        return (
            python,
            "-c",
            BOOT.format(init=str(FIDELITY_DIR / "__init__.py"), here=str(FIDELITY_DIR)),
        )

    def fidelity(self) -> dict[str, Any]:
        """What MiniStack's fidelity layer installed: ``{"ministack": version, "versions":
        pinned, "behaviours": {name: state}}``, each name prefixed ``ministack:``."""
        assert self.command is not None
        status: dict[str, Any]
        if python_of(self.command.argv) is None:
            why = f"not installed: {self.command} is not a Python the plugin can start it in"
            status = {"behaviours": {item.name: why for item in behaviours()}}
        else:
            where = Path(self._tmpdir or "") / "fidelity.json"
            try:
                status = json.loads(where.read_text())
            except (OSError, ValueError) as exc:
                raise EmulatorError(f"MiniStack did not say its fidelity ({where}): {exc}") from exc
        named = {f"ministack:{name}": state for name, state in status["behaviours"].items()}
        return {**status, "behaviours": named}

    def _wait_healthy(self, deadline: float) -> None:
        while True:
            assert self._proc is not None
            if self._proc.poll() is not None:
                tail = self._log_tail()
                code = self._proc.returncode
                if "already in use" in tail:
                    raise _PortTaken()
                self.stop()
                raise EmulatorError(
                    f"MiniStack {self.command} exited with code {code} while starting:\n{tail}"
                )
            try:
                doc = self.health(timeout=2.0)
            except EmulatorError:
                doc = None
            if doc is not None:
                self.version = str(doc.get("version") or "") or None
                return
            if time.monotonic() >= deadline:
                tail = self._log_tail()
                self.stop()
                raise EmulatorError(
                    f"MiniStack did not answer {HEALTH_PATH} within "
                    f"{self._start_timeout:.0f}s:\n{tail}"
                )
            time.sleep(0.1)

    def _log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return "  (no log)"
        text = self.log_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(f"  | {line}" for line in text[-lines:]) or "  (empty log)"

    def stop(self) -> None:
        """SIGTERM its process group, SIGKILL what is left, remove its temp dir; safe twice."""
        atexit.unregister(self.stop)
        self._end_process(self._stop_timeout)
        remove_scratch(self._tmpdir)
        self._tmpdir = None
        self._port = 0

    def _request(self, method: str, path: str, timeout: float) -> bytes:
        data = b"" if method == "POST" else None
        req = urllib.request.Request(self.endpoint + path, method=method, data=data)
        # HTTP(S)_PROXY in a CI environment must never capture loopback traffic.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(req, timeout=timeout) as resp:
            return bytes(resp.read())

    def health(self, timeout: float = 2.0) -> dict[str, Any]:
        """MiniStack's ``/_ministack/health`` document (services, version)."""
        try:
            doc = json.loads(self._request("GET", HEALTH_PATH, timeout))
        except urllib.error.HTTPError as exc:
            raise EmulatorError(f"{HEALTH_PATH} answered HTTP {exc.code}") from None
        except (OSError, ValueError) as exc:
            raise EmulatorError(f"{HEALTH_PATH} did not answer: {exc}") from None
        if not isinstance(doc, dict) or "services" not in doc:
            raise EmulatorError(f"{HEALTH_PATH} is not MiniStack's health document")
        return doc

    def is_alive(self) -> bool:
        if self._proc is None or self._proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", self._port), timeout=2.0):
                return True
        except OSError:
            return False

    def reset(self) -> None:
        """Empty every service (``POST /_ministack/reset``)."""
        try:
            self._request("POST", RESET_PATH, timeout=60.0)
        except (OSError, urllib.error.URLError) as exc:
            raise EmulatorError(
                f"MiniStack at {self.endpoint} did not accept a reset: {exc}"
            ) from exc

    def world(self, regions: Iterable[str] = ()) -> dict[str, Any]:
        """What MiniStack holds of the objects a world is compared on, read through its
        describe and get calls as LocalStack's is (:mod:`.localstack_world`)."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return read_world(self.client, [self.region, *regions], served_services())
        except (BotoCoreError, ClientError) as exc:
            raise EmulatorError(
                f"MiniStack at {self.endpoint} did not return its world: {exc}"
            ) from exc


def python_of(argv: tuple[str, ...]) -> str | None:
    """The Python a MiniStack command runs in: ``python -m ministack``'s, or a console
    script's (its ``#!`` line); None when neither."""
    if argv[1:] == ("-m", "ministack"):
        return argv[0]
    if len(argv) != 1:
        return None
    try:
        with open(argv[0], "rb") as script:
            first = script.readline(4096)
    except OSError:
        return None
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    return words[0] if len(words) == 1 and Path(words[0]).name.startswith("python") else None


class _PortTaken(Exception):
    """MiniStack found its port taken (raced by another process)."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


__all__ = [
    "PINNED_VERSION",
    "MiniStackCommand",
    "MiniStackEmulator",
    "find_ministack",
    "ministack_command",
    "ministack_missing",
    "pinned_unsupported",
    "provision",
    "provisioned_dir",
    "served_services",
    "unsupported_services",
]
