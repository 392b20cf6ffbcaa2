"""LocalStack backends: an external instance, a testcontainers container, or a host process.

``localstack_emulator()`` picks the first way that works, in this order:

1. **external**: a LocalStack the user already runs (``endpoint=`` or ``LOCALSTACK_ENDPOINT``),
   loopback only. It is shared, so ``reset()`` deletes nothing (``can_reset`` is False):
   tests must use unique names and the plugin relies on diffing against a baseline.
2. **container**: ``testcontainers``' ``LocalStackContainer`` when a local Docker engine
   answers a ping.
3. **host**: ``python -m localstack.runtime.main`` run by a Python >= 3.13 that has
   ``localstack-core[runtime]`` (``.ci/install-localstack.sh`` creates one), on an ephemeral
   loopback port, in its own process group and temp dir.

Example::

    emulator = localstack_emulator()          # or localstack_emulator("http://127.0.0.1:4566")
    with emulator:
        emulator.client("s3").create_bucket(Bucket="my-bucket")
        emulator.reset()

Known limits: DynamoDB needs Java and a downloaded engine in a host process (avoid it there);
each service loads on its first call (S3 and EC2 take seconds); every region starts with a
default VPC (172.31.0.0/16, six subnets, a default security group, route table and network
ACL) and ~1,200 AMIs, so inventories must be diffed against a baseline taken after a reset
(the default VPC gets a new id on every reset).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ..errors import EmulatorError
from ..isolation import cancel
from ..isolation.safety import is_loopback_url, loopback_target
from ..storage import cache_dir
from .base import (
    DEFAULT_REGION,
    FAKE_ACCESS_KEY,
    FAKE_SECRET_KEY,
    Emulator,
    ServerProcess,
    remove_scratch,
)
from .localstack_world import read_world

#: Environment variables read by ``localstack_emulator()``.
ENDPOINT_ENV = "LOCALSTACK_ENDPOINT"
PYTHON_ENV = "CONVERGE_LOCALSTACK_PYTHON"
VENV_ENV = "CONVERGE_LOCALSTACK_VENV"
AUTH_TOKEN_ENV = "LOCALSTACK_AUTH_TOKEN"

#: The last community image that needs no account token is from before the March 2026
#: consolidation; 4.0.3 (Dec 2024) is pinned so that runs are reproducible.
DEFAULT_IMAGE = "localstack/localstack:4.0.3"

HEALTH_PATH = "/_localstack/health"
#: LocalStack's state reset API (Pro images); the host process serves it via ``_BOOTSTRAP``.
RESET_PATH = "/_localstack/state/reset"

INSTALL_HINT = "run `.ci/install-localstack.sh` (creates {venv})"

#: Environment of the host process on top of a minimal base (PATH, locale).
#: The ``*_DOWNLOAD``/``DNS_ADDRESS`` settings stop LocalStack from calling
#: localstack.cloud at start-up: traffic must never leave 127.0.0.1.
HOST_ENV = {
    "OVERRIDE_IN_DOCKER": "0",
    # "off": queue URLs are http://host:port/<account>/<name>, the only form the
    # 3.x provider parses ("path" adds /queue/<region>: "SQS Url not parsed correctly").
    "SQS_ENDPOINT_STRATEGY": "off",
    "DISABLE_EVENTS": "1",
    "SKIP_SSL_CERT_DOWNLOAD": "1",
    "DNS_ADDRESS": "0",
    "AWS_DEFAULT_REGION": DEFAULT_REGION,
}

# Runs inside the LocalStack interpreter (``python -c``). Community localstack-core has no
# state reset endpoint and a restart costs seconds plus seconds more per service on its first
# call, so this adds LocalStack's own ``POST /_localstack/state/reset`` contract using its
# state visitors (the same stores the persistence feature resets). It also makes the gateway
# bind loopback only: its twisted server ignores the host part of GATEWAY_LISTEN for IPv4.
_BOOTSTRAP = r"""
import runpy, sys, threading, time


def _loopback_only():
    from twisted.internet import endpoints
    original = endpoints.TCP4ServerEndpoint

    def tcp4(reactor, port, backlog=50, interface=""):
        return original(reactor, port, backlog, interface or "127.0.0.1")

    endpoints.TCP4ServerEndpoint = tcp4


def _reset_route():
    from localstack.http import Resource
    from localstack.services.internal import get_internal_apis
    from localstack.services.plugins import SERVICE_PLUGINS, ServiceState
    from localstack.services.stores import AccountRegionBundle
    from localstack.state.core import StateVisitor
    from moto.core.base_backend import BackendDict

    lock = threading.Lock()

    class Reset(StateVisitor):
        def visit(self, state_container):
            if isinstance(state_container, (AccountRegionBundle, BackendDict)):
                state_container.reset()

    class ResetResource:
        def on_post(self, request):
            started = time.monotonic()
            names = []
            with lock:
                for name, state in SERVICE_PLUGINS.get_states().items():
                    if state != ServiceState.RUNNING:
                        continue  # never loaded: nothing to forget
                    service = SERVICE_PLUGINS.get_service(name)
                    service.lifecycle_hook.on_before_state_reset()
                    service.accept_state_visitor(Reset())
                    service.lifecycle_hook.on_after_state_reset()
                    names.append(name)
            return {"reset": names, "seconds": round(time.monotonic() - started, 4)}

    get_internal_apis().add(Resource("/_localstack/state/reset", ResetResource()))


for step in (_loopback_only, _reset_route):
    try:
        step()
    except Exception as exc:  # older/newer LocalStack: run it anyway, reset by restart
        print(f"pytest-converge: {step.__name__} not installed: {exc!r}", file=sys.stderr)
runpy.run_module("localstack.runtime.main", run_name="__main__", alter_sys=True)
"""


class LocalStackEmulator(Emulator):
    """What every LocalStack backend shares: health check, reset API, boto3 via localstack_client.

    ``mode`` says which way it runs (``external``, ``container``, ``host``); ``can_reset``
    is False where ``reset()`` cannot delete anything; ``reset_method`` records how the last
    reset was done (``state-endpoint``, ``restart`` or ``none``).
    """

    name = "localstack"
    mode = "localstack"
    can_reset = True
    #: Services that do not work everywhere: DynamoDB needs Java in a host process.
    unsupported_services: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.reset_method = "none"
        self.reset_count = 0

    def health(self, timeout: float = 2.0) -> dict[str, Any]:
        """LocalStack's ``/_localstack/health`` document (services, edition, version)."""
        return _health(self.endpoint, timeout)

    @property
    def version(self) -> str | None:
        """LocalStack's version as its health document says it (asked once it answers; None
        while it does not): what a report names it by, as it names moto by moto's."""
        known = self.__dict__.get("_version")
        if known is None:
            try:
                known = str(self.health().get("version") or "") or None
            except EmulatorError:
                return None
            self.__dict__["_version"] = known
        return known

    def services(self) -> dict[str, str]:
        """Service name -> state (``available``, ``running``...) from the health document."""
        return dict(self.health().get("services", {}))

    def is_alive(self) -> bool:
        try:
            self.health()
        except EmulatorError:
            return False
        return True

    def _reset_via_endpoint(self) -> bool:
        """POST the state reset API; False when this LocalStack does not serve it."""
        try:
            body = _request(self.endpoint, "POST", RESET_PATH, timeout=60.0)
        except urllib.error.HTTPError as exc:
            if exc.code in (404, 405, 501):
                return False
            raise EmulatorError(
                f"LocalStack at {self.endpoint} refused a state reset: HTTP {exc.code}"
            ) from exc
        except OSError as exc:
            raise EmulatorError(
                f"LocalStack at {self.endpoint} did not answer a reset: {exc}"
            ) from exc
        # An unknown path may be routed to S3; only the reset API answers with JSON.
        try:
            json.loads(body or b"{}")
        except ValueError:
            return False
        self.reset_method = "state-endpoint"
        return True

    def _localstack_host(self) -> str:
        parsed = urllib.parse.urlsplit(self.endpoint)
        return f"{parsed.hostname}:{parsed.port or 80}"

    def session(self) -> Any:
        """A boto3-like session whose clients all go to this LocalStack.

        Built with ``localstack_client.session.Session`` (endpoint baked in). Falls back to a
        plain boto3 Session when that package is missing or would point elsewhere: it obeys
        ``AWS_ENDPOINT_URL`` and ``USE_SSL`` from the environment over its argument.
        """
        return self._session_for(self.region)

    def _session_for(self, region: str) -> Any:
        try:
            from localstack_client.session import Session
        except ImportError:
            return super().session()
        ls_session = Session(
            aws_access_key_id=FAKE_ACCESS_KEY,
            aws_secret_access_key=FAKE_SECRET_KEY,
            region_name=region,  # it overrides any region_name given to .client()
            localstack_host=self._localstack_host(),
        )
        mapping = getattr(ls_session, "_service_endpoint_mapping", {})
        if not mapping or any(url != self.endpoint for url in mapping.values()):
            return super().session()
        return ls_session

    def client(self, service: str, region: str | None = None) -> Any:
        """A boto3 client for ``service`` at this LocalStack (path-style S3, 2 attempts).

        Built from the base class's isolated session, not ``localstack_client``'s: that one
        goes through boto3's default session, which reads ``AWS_PROFILE`` and ``~/.aws``.
        """
        return Emulator.session(self).client(service, **self.client_options(region))

    def world(self, regions: Iterable[str] = ()) -> dict[str, Any]:
        """What LocalStack holds of the objects a scenario's world is compared on, read
        through its describe and get calls (:mod:`.localstack_world`), in its own region
        and ``regions``. What no API returns (an RDS master password) is not compared.
        """
        try:
            running = [name for name, state in self.services().items() if state == "running"]
            return read_world(self.client, [self.region, *regions], running)
        except (BotoCoreError, ClientError) as exc:
            raise EmulatorError(
                f"LocalStack at {self.endpoint} did not return its world: {exc}"
            ) from exc


class ExternalLocalStack(LocalStackEmulator):
    """A LocalStack someone else runs, at a loopback URL. Shared: ``reset()`` deletes nothing."""

    mode = "external"
    can_reset = False

    def __init__(self, endpoint: str) -> None:
        super().__init__()
        self._endpoint = check_loopback(endpoint)

    @property
    def endpoint(self) -> str:
        return self._endpoint

    def start(self) -> None:
        try:
            self.health(timeout=5.0)
        except EmulatorError as exc:
            raise EmulatorError(
                f"the external LocalStack at {self._endpoint} is not healthy: {exc}. "
                f"Start it, or unset {ENDPOINT_ENV} to let pytest-converge run its own."
            ) from None

    def stop(self) -> None:
        """Nothing to stop: the instance belongs to whoever started it."""

    def reset(self) -> None:
        """Record the request only: wiping a shared instance would destroy others' data.

        Tests against an external LocalStack must use unique names; the plugin's inventory
        check compares against a baseline taken before each scenario instead.
        """
        self.reset_count += 1
        self.reset_method = "none"


class ContainerLocalStack(LocalStackEmulator):
    """LocalStack in Docker through testcontainers, published on a fixed loopback port.

    The host port is chosen once so the endpoint stays the same across restarts (an SQS
    queue's id embeds it).
    """

    mode = "container"

    def __init__(
        self,
        image: str = DEFAULT_IMAGE,
        docker_client_factory: Callable[[], Any] | None = None,
        start_timeout: float = 120.0,
    ) -> None:
        super().__init__()
        self.image = image
        self._docker_client_factory = docker_client_factory
        self._start_timeout = start_timeout
        self._container: Any = None
        self._port = 0

    @property
    def endpoint(self) -> str:
        if not self._port:
            raise EmulatorError("the LocalStack container is not running; call start() first")
        return f"http://127.0.0.1:{self._port}"

    def _make_container(self) -> Any:
        container_class = _localstack_container_class()
        if container_class is None:
            raise EmulatorError("testcontainers is not installed (pip install testcontainers)")
        container = container_class(image=self.image, region_name=self.region)
        # Publish on loopback only, at a port that survives restarts.
        container.with_bind_ports(4566, ("127.0.0.1", self._port))
        for key, value in {
            **HOST_ENV,
            "LOCALSTACK_HOST": f"127.0.0.1:{self._port}",
        }.items():
            if key != "OVERRIDE_IN_DOCKER":
                container.with_env(key, value)
        token = os.environ.get(AUTH_TOKEN_ENV)
        if token:
            container.with_env(AUTH_TOKEN_ENV, token)
        return container

    def start(self) -> None:
        if self._container is not None:
            return
        self._port = self._port or free_port()
        container = self._make_container()
        try:
            container.start(timeout=self._start_timeout)
        except Exception as exc:
            with contextlib.suppress(Exception):
                container.stop()
            raise EmulatorError(
                f"the LocalStack container ({self.image}) did not start: {exc}. Newer images "
                f"need {AUTH_TOKEN_ENV}; pass image=... to use another tag."
            ) from exc
        self._container = container
        if not _wait_healthy(self.endpoint, timeout=self._start_timeout):
            self.stop()
            raise EmulatorError(f"LocalStack container at {self.endpoint} never became healthy")

    def stop(self) -> None:
        container, self._container = self._container, None
        if container is not None:
            with contextlib.suppress(Exception):
                container.stop()

    def reset(self) -> None:
        """Use the state reset API if the image has it, else restart on the same port."""
        self.reset_count += 1
        if self._reset_via_endpoint():
            return
        self.stop()
        self.start()
        self.reset_method = "restart"


class HostLocalStack(ServerProcess, LocalStackEmulator):
    """``localstack-core`` run by a separate Python on the host, no Docker.

    Its own process group (so ``stop()`` reaches every child), temp HOME/state dir and log
    file (whose tail is shown on failure), ephemeral loopback port kept across restarts.
    """

    mode = "host"
    server_label = "the LocalStack host process"
    # Engines LocalStack downloads at first use (Java DynamoDB, kinesis-mock):
    # offline they hang, so the inventory does not ask.
    unsupported_services = frozenset({"dynamodb", "dynamodbstreams", "kinesis"})

    def __init__(
        self,
        python: str,
        port: int = 0,
        start_timeout: float = 60.0,
        stop_timeout: float = 2.0,
        extra_env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.python = python
        self._port = port
        self._start_timeout = start_timeout
        # LocalStack needs ~10 s to shut down cleanly; its state is thrown away, so a short
        # grace before SIGKILL is enough.
        self._stop_timeout = stop_timeout
        self._extra_env = dict(extra_env or {})
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmpdir: str | None = None
        self.log_path: Path | None = None
        self.start_seconds: float | None = None

    def _env(self, state: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TZ")}
        env.update(HOST_ENV)
        env.update(
            {
                "GATEWAY_LISTEN": f"127.0.0.1:{self._port}",
                "LOCALSTACK_HOST": f"127.0.0.1:{self._port}",
                "HOME": str(state),
                "CONFIG_DIR": str(state / "config"),
                "FILESYSTEM_ROOT": str(state / "fs"),
            }
        )
        env.update(self._extra_env)
        return env

    def start(self) -> None:
        if self._proc is not None:
            return
        # A script that never calls stop() (an exception on the way) must not
        # leave a LocalStack running after the interpreter exits.
        atexit.register(self.stop)
        fixed_port = bool(self._port)
        for attempt in (1, 2):
            if not fixed_port:
                self._port = free_port()
            try:
                self._spawn_and_wait()
                return
            except _PortTaken:
                # Another process grabbed the port between free_port() and LocalStack's bind.
                if attempt == 2 or fixed_port:
                    raise EmulatorError(
                        f"LocalStack could not bind 127.0.0.1:{self._port}: the port is in use"
                        + ("" if fixed_port else " (twice, with two ephemeral ports)")
                        + ". Use port=0 (the default) or free the port."
                    ) from None

    def _spawn_and_wait(self) -> None:
        self._tmpdir = tempfile.mkdtemp(prefix="converge-localstack-")
        cancel.track_dir(self._tmpdir)  # removed even if pytest is killed
        state = Path(self._tmpdir)
        (state / "tmp").mkdir()
        self.log_path = state / "localstack.log"
        started = time.monotonic()
        try:
            with open(self.log_path, "wb") as log:
                self._proc = subprocess.Popen(
                    [self.python, "-c", _BOOTSTRAP],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=self._env(state),
                    cwd=str(state),
                    start_new_session=True,  # own process group: stop() kills all of it
                )
            cancel.track(self._proc.pid)  # killed even if pytest dies before stop()
        except OSError as exc:
            self._cleanup()
            raise EmulatorError(f"cannot run {self.python}: {_one_line(exc)}") from exc
        deadline = started + self._start_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                tail = self._log_tail()
                code = self._proc.returncode
                self.stop()  # the leader is gone; this reaps anything left in its group
                if "Address already in use" in tail or "Couldn't listen on" in tail:
                    raise _PortTaken()
                raise EmulatorError(
                    f"LocalStack ({self.python}) exited with code {code} while starting:\n{tail}"
                )
            if _is_healthy(self.endpoint):
                self.start_seconds = time.monotonic() - started
                return
            if self._port_taken():
                # LocalStack logs the bind error, prints "Ready." and keeps running.
                self.stop()
                raise _PortTaken()
            time.sleep(0.1)
        tail = self._log_tail()
        self.stop()
        raise EmulatorError(
            f"LocalStack did not answer {HEALTH_PATH} within {self._start_timeout:.0f}s:\n{tail}"
        )

    def _port_taken(self) -> bool:
        if self.log_path is None or not self.log_path.exists():
            return False
        text = self.log_path.read_text(errors="replace")
        return "Couldn't listen on" in text or "Address already in use" in text

    def _log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return "(no log)"
        text = self.log_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(f"  | {line}" for line in text[-lines:]) or "(empty log)"

    def stop(self) -> None:
        self._end_process(self._stop_timeout)
        self._cleanup()

    def _cleanup(self) -> None:
        self._proc = None
        if self._tmpdir is not None:
            remove_scratch(self._tmpdir)
            self._tmpdir = None
            self.log_path = None

    def reset(self) -> None:
        """Empty every loaded service via the state reset API, else restart on the same port."""
        self.reset_count += 1
        if self._proc is not None and self._reset_via_endpoint():
            return
        port = self._port
        self.stop()
        self._port = port
        self.start()
        self.reset_method = "restart"


class _PortTaken(Exception):
    """LocalStack failed to bind its port (raced by another process)."""


# -- resolution -------------------------------------------------------------------------------


def localstack_emulator(
    endpoint: str | None = None,
    python: str | None = None,
    image: str | None = None,
    docker_client_factory: Callable[[], Any] | None = None,
) -> LocalStackEmulator:
    """The first LocalStack backend that can work here (not started yet).

    Order: external ``endpoint`` (argument, else ``$LOCALSTACK_ENDPOINT``); a container
    when Docker answers; a host process run by ``python`` (argument, else
    ``$CONVERGE_LOCALSTACK_PYTHON``, else the venv of ``.ci/install-localstack.sh``, else a
    Python >= 3.13 on PATH or in pyenv that imports localstack).

    An endpoint that was asked for and is unhealthy is an error, not a reason to fall back:
    tests would otherwise silently run somewhere else. Likewise an explicit ``python``.

    Raises UnsafeTargetError for a non-loopback endpoint, EmulatorError naming each way
    tried and why it was unavailable when none works.
    """
    tried: list[str] = []

    url = endpoint or os.environ.get(ENDPOINT_ENV, "").strip() or None
    if url:
        source = "endpoint argument" if endpoint else f"${ENDPOINT_ENV}"
        external = ExternalLocalStack(url)  # UnsafeTargetError for non-loopback
        try:
            external.health(timeout=3.0)
        except EmulatorError as exc:
            raise EmulatorError(
                f"LocalStack at {url} (from {source}) is not healthy: {exc}. "
                f"Start it or unset {ENDPOINT_ENV}."
            ) from None
        return external
    tried.append(f"external: no endpoint given (argument or ${ENDPOINT_ENV})")

    ok, why = docker_reachable(docker_client_factory)
    if ok:
        return ContainerLocalStack(image or DEFAULT_IMAGE, docker_client_factory)
    tried.append(f"container: {why}")

    interpreter, reasons = find_localstack_python(python)
    if interpreter:
        return HostLocalStack(interpreter)
    tried.append("host process: " + "; ".join(reasons))
    raise EmulatorError(_none_available(tried))


def localstack_missing(
    python: str | None = None, docker_client_factory: Callable[[], Any] | None = None
) -> str | None:
    """None when :func:`localstack_emulator` has a way to run LocalStack here, else why not
    (each way tried) and the fix. Starts nothing: ``$LOCALSTACK_ENDPOINT`` counts as a way
    without being asked for its health.

    This is what the ``localstack`` marker skips a test with.
    """
    if os.environ.get(ENDPOINT_ENV, "").strip():
        return None
    ok, why = docker_reachable(docker_client_factory)
    if ok:
        return None
    interpreter, reasons = find_localstack_python(python)
    if interpreter:
        return None
    return _none_available(
        [
            f"external: no endpoint given (${ENDPOINT_ENV})",
            f"container: {why}",
            "host process: " + "; ".join(reasons),
        ]
    )


def _none_available(tried: list[str]) -> str:
    return (
        "no way to run LocalStack was available:\n"
        + "\n".join(f"  - {line}" for line in tried)
        + "\nFix: "
        + INSTALL_HINT.format(venv=default_venv_python())
        + f", or set {ENDPOINT_ENV} to a running LocalStack, or start a Docker engine."
    )


def docker_reachable(
    factory: Callable[[], Any] | None = None, timeout: float = 2.0
) -> tuple[bool, str]:
    """(True, "") when a Docker engine answers a ping, else (False, why not)."""
    if factory is None:
        host = os.environ.get("DOCKER_HOST", "")
        if host and not _docker_host_is_local(host):
            return False, f"DOCKER_HOST={host} is not local (only loopback targets are allowed)"
        try:
            import docker
        except ImportError:
            return False, "the docker SDK is not installed (pip install docker)"

        def factory() -> Any:
            return docker.from_env(timeout=int(max(1, timeout)))

    if _localstack_container_class() is None:
        return False, "testcontainers is not installed (pip install testcontainers)"
    client: Any = None
    try:
        client = factory()
        client.ping()
    except Exception as exc:
        return False, f"no Docker engine reachable ({_one_line(exc)})"
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()
    return True, ""


def _localstack_container_class() -> Any:
    """testcontainers' LocalStackContainer, wherever this version keeps it, or None."""
    try:  # 4.x: the community package (4.15 still has a deprecated top-level alias)
        from testcontainers.community.localstack import LocalStackContainer
    except ImportError:
        try:
            from testcontainers.localstack import LocalStackContainer
        except ImportError:
            return None
    return LocalStackContainer


def default_venv_python() -> Path:
    """Where ``.ci/install-localstack.sh`` puts the LocalStack interpreter."""
    venv = os.environ.get(VENV_ENV)
    if venv:
        return Path(venv) / "bin" / "python"

    return cache_dir() / "localstack-venv" / "bin" / "python"


def find_localstack_python(
    python: str | None = None, probe: Callable[[str], str | None] | None = None
) -> tuple[str | None, list[str]]:
    """(interpreter, reasons): a Python that can run LocalStack, or why none was found.

    ``probe(path)`` returns None when ``path`` works, else the reason; injectable for tests.
    """
    probe = probe or probe_localstack_python
    explicit = python or os.environ.get(PYTHON_ENV, "").strip() or None
    if explicit:
        source = "python argument" if python else f"${PYTHON_ENV}"
        why = probe(explicit)
        return (explicit, []) if why is None else (None, [f"{explicit} (from {source}): {why}"])

    reasons: list[str] = []
    venv_python = default_venv_python()
    if venv_python.exists():
        why = probe(str(venv_python))
        if why is None:
            return str(venv_python), []
        reasons.append(f"{venv_python}: {why}")
    else:
        reasons.append(f"no LocalStack venv at {venv_python}")

    others = _candidate_pythons()
    for candidate in others:
        if probe(candidate) is None:
            return candidate, []
    reasons.append(
        "no Python >= 3.13 with localstack-core[runtime] on PATH or in pyenv"
        + (f" (checked {', '.join(others)})" if others else "")
    )
    return None, reasons


def _candidate_pythons() -> list[str]:
    found: list[str] = []
    for name in ("python3.13", "python3.14"):
        path = shutil.which(name)
        if path:
            found.append(path)
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    if root.is_dir():
        for version in sorted(root.iterdir(), key=lambda p: _version_key(p.name), reverse=True):
            if _version_key(version.name) >= (3, 13) and (version / "bin" / "python").exists():
                found.append(str(version / "bin" / "python"))
    return found


def _version_key(name: str) -> tuple[int, ...]:
    parts = []
    for piece in name.split(".")[:3]:
        if not piece.isdigit():
            break
        parts.append(int(piece))
    return tuple(parts)


@functools.lru_cache(maxsize=32)
def probe_localstack_python(python: str) -> str | None:
    """None when ``python`` can run LocalStack, else a one-line reason.

    Imports ``localstack.aws.components``: it fails without the ``[runtime]`` extra and on
    Python 3.12 (localstack-core 2026.3 uses ``warnings.deprecated``), where the runtime
    would otherwise start and exit with "No component plugins found".
    """
    if not (os.path.isfile(python) or shutil.which(python)):
        return "not found"
    code = (
        "import sys\n"
        "if sys.version_info < (3, 13): sys.exit('Python %d.%d is too old (needs >= 3.13)'"
        " % sys.version_info[:2])\n"
        "import localstack.aws.components\n"
    )
    try:
        result = subprocess.run(
            [python, "-c", code], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run it ({_one_line(exc)})"
    if result.returncode == 0:
        return None
    lines = (result.stderr or result.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit code {result.returncode}"


# -- small pieces -----------------------------------------------------------------------------


def check_loopback(endpoint: str) -> str:
    """``endpoint`` without a trailing slash; UnsafeTargetError unless it is loopback HTTP(S)."""
    loopback_target(endpoint, "LocalStack endpoint")
    return endpoint.rstrip("/")


def _docker_host_is_local(host: str) -> bool:
    if host.startswith(("unix://", "npipe://")):
        return True
    parsed = urllib.parse.urlsplit(host)
    return parsed.scheme == "tcp" and is_loopback_url(f"http://{parsed.netloc}")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request(endpoint: str, method: str, path: str, timeout: float) -> bytes:
    data = b"" if method == "POST" else None
    req = urllib.request.Request(endpoint + path, method=method, data=data)
    # HTTP(S)_PROXY in a CI environment must never capture loopback traffic; LocalStack's
    # certificate is self-signed (the address is checked to be loopback instead).
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}),
        urllib.request.HTTPSHandler(context=ssl._create_unverified_context()),
    )
    with opener.open(req, timeout=timeout) as resp:
        return resp.read()


def _health(endpoint: str, timeout: float) -> dict[str, Any]:
    try:
        doc = json.loads(_request(endpoint, "GET", HEALTH_PATH, timeout))
    except urllib.error.HTTPError as exc:
        raise EmulatorError(f"{endpoint}{HEALTH_PATH} answered HTTP {exc.code}") from None
    except (OSError, ValueError) as exc:
        raise EmulatorError(f"{endpoint}{HEALTH_PATH} did not answer: {_one_line(exc)}") from None
    if not isinstance(doc, dict) or "services" not in doc:
        raise EmulatorError(f"{endpoint}{HEALTH_PATH} is not LocalStack's health document")
    return doc


def _is_healthy(endpoint: str) -> bool:
    try:
        _health(endpoint, timeout=2.0)
    except EmulatorError:
        return False
    return True


def _wait_healthy(endpoint: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _is_healthy(endpoint):
            return True
        time.sleep(0.2)
    return False


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


__all__ = [
    "DEFAULT_IMAGE",
    "ContainerLocalStack",
    "ExternalLocalStack",
    "HostLocalStack",
    "LocalStackEmulator",
    "check_loopback",
    "default_venv_python",
    "docker_reachable",
    "find_localstack_python",
    "localstack_emulator",
    "probe_localstack_python",
]
