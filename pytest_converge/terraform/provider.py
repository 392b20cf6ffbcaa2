"""One AWS provider process per Stack, reattached to every terraform command it runs.

Terraform normally starts a fresh provider plugin for each command (and
sometimes more than one per command); the AWS provider is a 170 MB binary
whose start-up is a large share of a small apply. Started with ``-debug``,
a provider serves over a socket and prints a ``TF_REATTACH_PROVIDERS`` value;
terraform given that value uses the running process instead of starting its
own. Its configuration (endpoints, credentials, region) is sent by each
terraform run, so sequential runs of one Stack share it safely.

Faithfulness: a ``Crash`` fault kills terraform *and* this process, and any
signalled or timed-out run retires it; the next run gets a fresh one, as a
killed CI runner's next job would. Only the ``aws`` provider is reattached;
every other provider a module uses is started by terraform as usual.

    provider = ReattachedProvider(binary, cwd=workdir, env=env)
    env = {**env, **provider.reattach_env()}   # starts it on first use
    ...
    provider.stop()
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..isolation import cancel
from . import schema_proxy

_log = logging.getLogger("pytest_converge")

AWS_ADDRESS = "registry.terraform.io/hashicorp/aws"
#: Seconds a provider may take to print its reattach value (a loaded machine).
START_TIMEOUT = 60.0
_REATTACH = re.compile(r"TF_REATTACH_PROVIDERS='(\{.*\})'")

#: Every provider process still running, for the exit-time and signal safety nets.
_live: set[ReattachedProvider] = set()
_live_lock = threading.Lock()


class ProviderStartError(Exception):
    """The provider did not print a reattach value (it predates ``-debug``, or died)."""


def provider_binary(workdir: Path, address: str = AWS_ADDRESS) -> Path | None:
    """The provider executable ``terraform init`` installed for ``workdir`` (resolved), if any.

    That is exactly the binary terraform itself would start, whatever its
    version and wherever the plugin cache is.
    """
    base = workdir / ".terraform" / "providers" / address
    found = sorted(base.glob("*/*/terraform-provider-*")) if base.is_dir() else []
    executables = [p for p in found if p.is_file() and os.access(p, os.X_OK)]
    return executables[-1].resolve() if len(executables) == 1 else None


class ReattachedProvider:
    """A provider plugin process in debug mode, started in the background.

    ``reattach_env()`` waits for it (starting a new one if it is not
    running) and returns the environment terraform needs to use it.
    ``kill()`` is what a crash does to it; ``stop()`` ends it for good.
    """

    def __init__(
        self,
        binary: Path,
        *,
        cwd: Path,
        env: dict[str, str],
        relay_schema: bool = True,
        per_configuration: bool = False,
    ) -> None:
        self.binary = Path(binary)
        self.cwd = Path(cwd)
        self.env = dict(env)
        self.starts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._value: str | None = None
        self._scratch: Path | None = None
        self._lock = threading.Lock()
        self.supported = True
        #: Answer terraform's repeated schema requests from memory (schema_proxy).
        self.relay_schema = relay_schema
        #: A module with more than one aws configuration: each configuration a command
        #: makes gets a process of its own behind the relay (schema_proxy); no relay,
        #: no reattaching (one process would hold the last configuration only).
        self.per_configuration = per_configuration
        self._relay: schema_proxy.SchemaRelay | None = None
        #: Set by :meth:`_wait_for_value`: the socket the process serves on.
        self.address: str | None = None
        #: The process group the session's reaper kills if pytest dies (a process
        #: started outside the main thread, :meth:`_configuration_process`).
        self.tracked: int | None = None

    # -- life cycle ----------------------------------------------------
    def start(self) -> None:
        """Start the process if none is running; does not wait for it to be ready."""
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return
            self._cleanup_locked()
            # The socket goes in a short private dir (unix socket paths are
            # limited to 108 bytes) that is removed with the process.
            self._scratch = Path(tempfile.mkdtemp(prefix="cvp-"))
            cancel.track_dir(self._scratch)  # removed even if pytest is killed
            out = open(self._scratch / "stdout", "wb")
            try:
                self._proc = subprocess.Popen(
                    [str(self.binary), "-debug"],
                    # The working directory terraform would give it: relative
                    # paths in a module (a lambda's filename) resolve the same.
                    cwd=self.cwd,
                    env={**self.env, "TMPDIR": str(self._scratch)},
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    # Tied to the thread that starts it: only the main thread lives
                    # as long as the session.
                    preexec_fn=_die_with_parent
                    if threading.current_thread() is threading.main_thread()
                    else None,
                )
            finally:
                out.close()
            self._value = None
            self.starts += 1
        with _live_lock:
            _live.add(self)
        if self.relay_schema:
            schema_proxy.import_soon()

    def reattach_env(self, timeout: float = START_TIMEOUT) -> dict[str, str]:
        """``{"TF_REATTACH_PROVIDERS": ...}`` for a running provider (started if need be)."""
        self.start()
        with self._lock:
            if self._value is None:
                self._value = self._wait_for_value(timeout)
            return {"TF_REATTACH_PROVIDERS": self._value}

    def _wait_for_value(self, timeout: float) -> str:
        assert self._proc is not None and self._scratch is not None
        stdout = self._scratch / "stdout"
        deadline = time.monotonic() + timeout
        while True:
            text = stdout.read_text(errors="replace") if stdout.exists() else ""
            match = _REATTACH.search(text)
            if match:
                value = json.loads(match.group(1))
                if AWS_ADDRESS in value and AWS_ADDRESS != _only_key(value):
                    value = {AWS_ADDRESS: value[AWS_ADDRESS]}
                self.address = ((value.get(AWS_ADDRESS) or {}).get("Addr") or {}).get("String")
                self._relay_schema(value)
                return json.dumps(value)
            if self._proc.poll() is not None:
                self.supported = False
                raise ProviderStartError(
                    f"{self.binary.name} -debug exited ({self._proc.returncode}) without "
                    f"a reattach value: {text.strip()[:300] or 'no output'}"
                )
            if time.monotonic() > deadline:
                self.supported = False
                raise ProviderStartError(
                    f"{self.binary.name} -debug printed no reattach value within {timeout:.0f}s"
                )
            time.sleep(0.02)

    def _relay_schema(self, value: dict[str, Any]) -> None:
        """Point ``value`` at a :class:`~.schema_proxy.SchemaRelay` in front of the
        provider's socket, where grpcio is there (else terraform talks to it directly)."""
        assert self._scratch is not None
        entry = value.get(AWS_ADDRESS) or {}
        addr = entry.get("Addr") or {}
        if not self.relay_schema or addr.get("Network") != "unix" or not schema_proxy.available():
            if self.per_configuration:
                raise ProviderStartError(
                    "a module with more than one aws provider configuration is reattached "
                    "only through the relay (grpcio and a unix socket)"
                )
            return
        stat = self.binary.stat()
        relay = schema_proxy.SchemaRelay(
            upstream=addr["String"],
            listen=str(self._scratch / "relay.sock"),
            # What the answers depend on: the build, and the environment (defaults).
            build=(
                str(self.binary.resolve()),
                stat.st_size,
                stat.st_mtime_ns,
                hash(tuple(sorted(self.env.items()))),
            ),
            # Only the types the module's files and state name (schema_proxy.trimmed).
            names=lambda: schema_proxy.names_in_use(self.cwd),
            per_configuration=self._configuration_process if self.per_configuration else None,
        )
        try:
            relay.start()
        except Exception as exc:  # an unusable relay costs speed, never the run
            relay.stop()
            if self.per_configuration:
                raise ProviderStartError(f"provider relay not started: {exc}") from exc
            _log.warning(
                "provider schema relay not started (%s): terraform talks to %s",
                exc,
                self.binary.name,
            )
            return
        self._relay = relay
        addr["String"] = relay.listen
        if self.per_configuration:
            addr["Network"] = "tcp"

    def _configuration_process(self) -> ReattachedProvider:
        """A provider process for one configuration of one command (the relay's
        ``per_configuration``): started from a relay thread, so the session's reaper,
        not the parent-death signal, ends it if pytest dies."""
        process = ReattachedProvider(self.binary, cwd=self.cwd, env=self.env, relay_schema=False)
        process.reattach_env()
        assert process.address is not None and process.pid is not None
        process.tracked = process.pid
        cancel.track(process.pid)
        return process

    def end_command(self) -> None:
        """A terraform command ended: its configurations' processes end too."""
        relay = self._relay
        if relay is not None:
            relay.end_command()

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def kill(self) -> None:
        """SIGKILL the process now (what a crash does); the next use starts a new one."""
        relay = self._relay
        if relay is not None:
            relay.kill_configurations()
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        """End the process and remove its socket dir; safe to call more than once."""
        self.kill()
        with self._lock:
            self._cleanup_locked()
        with _live_lock:
            _live.discard(self)
        tracked, self.tracked = self.tracked, None
        if tracked is not None:
            cancel.untrack(tracked)

    def _cleanup_locked(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        self._value = None
        relay, self._relay = self._relay, None
        if relay is not None:
            relay.stop()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            cancel.untrack_dir(self._scratch)
            self._scratch = None

    def __repr__(self) -> str:
        state = f"pid {self.pid}" if self.alive() else "stopped"
        return f"<ReattachedProvider {self.binary.name} {state}>"


def stop_all() -> None:
    """Stop every provider process this interpreter started (exit and signal safety net)."""
    with _live_lock:
        providers = list(_live)
    for provider in providers:
        with contextlib.suppress(Exception):
            provider.stop()


atexit.register(stop_all)


def _only_key(value: dict[str, object]) -> str | None:
    return next(iter(value)) if len(value) == 1 else None


_prctl: Any
try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux
    _prctl = None


def _die_with_parent() -> None:
    """In the child: get SIGKILL when the process that started it dies (Linux).

    A pytest killed with SIGKILL (or SIGTERM with no handler) cannot clean up;
    without this its providers would run forever, re-parented to init.
    Looked up before the fork: nothing here may take a lock in the child.
    """
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
