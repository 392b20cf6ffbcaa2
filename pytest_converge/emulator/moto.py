"""moto in a process of its own: the default AWS emulator, on an ephemeral loopback port.

Design (kept small on purpose; other parts rely on it):

- ``start()`` runs ``python .../moto_server.py`` (the file, not ``-m``: the
  package's own imports would cost the server 0.4 s of its start) with the
  same interpreter, in a new process group and a scratch ``HOME``, with the
  environment of :func:`pytest_converge.isolation.safety.emulator_env` (an allow-list:
  no ``AWS_PROFILE``, config files, credentials or proxies of the user's shell)
  plus ``MOTO_IAM_LOAD_MANAGED_POLICIES=true`` so AWS-managed IAM policies
  exist as they do in AWS. The user's own ``MOTO_*`` settings pass through,
  and ``CONVERGE_MOTO_FIDELITY_OFF`` (behaviours of the fidelity layer,
  :mod:`.fidelity`, to leave out: ``all`` for raw moto).
- ``launch()`` binds the listening socket here (port 0: the kernel picks one,
  no race) and hands it to the child, so the endpoint is known at once and
  calls made before moto serves wait in the socket's backlog. The child prints
  ``READY <port>`` when it serves; ``start()`` waits for that line and one HTTP
  answer.
- ``reset()`` is ``POST /moto-api/reset``; ``is_alive()`` checks the process
  and the port (a moto busy building a backend is alive, not dead).
- ``stop()`` closes the child's stdin (it exits on EOF), then signals its
  group; it also runs at interpreter exit. Because the child exits when its
  stdin closes, it dies with the pytest process even after a SIGKILL.
- One emulator per pytest process (per xdist worker): each is a separate
  process, so requests are served on another core than the one pytest and the
  fault proxy use.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import EmulatorError
from ..isolation import cancel
from ..isolation.safety import emulator_env
from ..storage import cache_dir
from .base import Emulator, ServerProcess, remove_scratch
from .fidelity import DIGESTS_VARIABLE, OFF_VARIABLE, RECORDED_VARIABLE, STATUS_PATH
from .moto_server import WARM_PATH
from .moto_world import WORLD_PATH

#: moto's own settings for the server process; a user's ``MOTO_*`` variable wins.
MOTO_SETTINGS = {
    # AWS-managed policies (AdministratorAccess, AmazonS3FullAccess ...) exist in AWS;
    # without them every attachment fails with NoSuchEntity.
    "MOTO_IAM_LOAD_MANAGED_POLICIES": "true",
}
#: The server, run as a file (see :mod:`.moto_server`).
SERVER_SCRIPT = Path(__file__).resolve().with_name("moto_server.py")


class MotoEmulator(ServerProcess, Emulator):
    """moto's server app in a child process (see the module docstring).

    ``port=0`` (the default) takes an ephemeral port; a fixed port that is
    taken makes ``start()`` raise ``EmulatorError`` at once. ``fidelity_off``
    names behaviours of the fidelity layer to leave out (``"all"``: moto as
    released); by default the ``CONVERGE_MOTO_FIDELITY_OFF`` of the environment.
    """

    name = "moto"
    server_label = "the moto emulator"

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        start_timeout: float = 60.0,
        fidelity_off: str | None = None,
    ) -> None:
        self._fidelity_off = fidelity_off
        self._host = host
        self._asked_port = port
        self._port = 0
        self._start_timeout = start_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._home: str | None = None
        self.log_path: Path | None = None
        #: Seconds from spawn to the first HTTP answer (set by ``start()``).
        self.start_seconds: float | None = None
        self._launched = 0.0
        self._ready = False
        self._spawn_env: dict[str, str] = {}

    def environment(self, home: Path) -> dict[str, str]:
        """The server process's whole environment."""

        env = emulator_env(home)
        env.update(MOTO_SETTINGS)
        env.update({k: v for k, v in os.environ.items() if k.startswith("MOTO_")})
        off = os.environ.get(OFF_VARIABLE) if self._fidelity_off is None else self._fidelity_off
        if off:
            env[OFF_VARIABLE] = off
        if os.environ.get(RECORDED_VARIABLE):  # a test's stand-in digests (see fidelity)
            env[RECORDED_VARIABLE] = os.environ[RECORDED_VARIABLE]
        # The digests of moto's functions the layer checks, kept across servers.
        env[DIGESTS_VARIABLE] = str(cache_dir() / "moto-digests.json")
        return env

    def launch(self) -> None:
        """Spawn the server process without waiting for it; :meth:`start` waits.

        The session launches moto as soon as it knows a run will need it, so the
        import and the backend warm-up (moto's own core) overlap pytest's collection.
        """
        if self._proc is not None:
            return
        atexit.register(self.stop)
        self._launched = time.monotonic()
        family = socket.AF_INET6 if ":" in self._host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            try:
                listener.bind((self._host, self._asked_port))
                listener.listen(128)
            except OSError as exc:
                raise EmulatorError(
                    f"cannot start moto on {self._host}:{self._asked_port}: {exc.strerror or exc}. "
                    "Use port 0 (an ephemeral port, the default) or free the port."
                ) from None
            self._port = listener.getsockname()[1]
            self._home = tempfile.mkdtemp(prefix="converge-moto-")
            cancel.track_dir(self._home)  # removed even if pytest is killed
            self.log_path = Path(self._home) / "moto.log"
            self._spawn_env = self.environment(Path(self._home))
            with open(self.log_path, "wb") as log:
                self._proc = subprocess.Popen(
                    [sys.executable, str(SERVER_SCRIPT), "--host", self._host,
                     "--port", str(self._port), "--fd", str(listener.fileno())],
                    pass_fds=(listener.fileno(),),
                    stdin=subprocess.PIPE,  # closed by stop(), or by the kernel when we die
                    stdout=subprocess.PIPE,
                    stderr=log,
                    env=self._spawn_env,
                    cwd=self._home,
                    start_new_session=True,  # own process group: stop() reaches all of it
                )  # fmt: skip
        except OSError as exc:
            self.stop()
            raise EmulatorError(f"cannot run {sys.executable} {SERVER_SCRIPT}: {exc}") from exc
        except BaseException:
            self.stop()
            raise
        finally:
            # The child holds it now: once the child is gone, connecting is refused.
            listener.close()
        cancel.track(self._proc.pid)

    def is_spawned_as(self, other: MotoEmulator) -> bool:
        """Whether this launched, still running process is the one ``other`` would spawn
        (same address, same environment): :mod:`.spare` adopts it then."""
        return (
            self._proc is not None
            and self._proc.poll() is None
            and self._home is not None
            and (self._host, self._asked_port, self._start_timeout)
            == (other._host, other._asked_port, other._start_timeout)
            and self._spawn_env == other.environment(Path(self._home))
        )

    def start(self) -> None:
        """Launch (unless :meth:`launch` did) and wait until the server answers."""
        if self._ready:
            return
        self.launch()
        started = self._launched
        try:
            self._read_port(started + self._start_timeout)
            if not self._wait_ready(started + self._start_timeout):
                raise EmulatorError(
                    f"moto did not answer within {self._start_timeout:.0f}s:\n{self._log_tail()}"
                )
        except BaseException:
            self.stop()
            raise
        self._ready = True
        self.start_seconds = time.monotonic() - started

    def _read_port(self, deadline: float) -> int:
        assert self._proc is not None and self._proc.stdout is not None
        line = b""
        with selectors.DefaultSelector() as sel:
            sel.register(self._proc.stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                # Look before giving up: launched long before its first use (at session
                # start), the server wrote its line long ago; the deadline bounds a wait.
                remaining = max(deadline - time.monotonic(), 0.0)
                if not sel.select(timeout=remaining):
                    raise EmulatorError(
                        f"moto did not start within {self._start_timeout:.0f}s:\n"
                        + self._log_tail()
                    )
                chunk = os.read(self._proc.stdout.fileno(), 256)
                if not chunk:
                    break  # exited
                line += chunk
        self._proc.stdout.close()
        word, _, rest = line.decode(errors="replace").strip().partition(" ")
        if word == "READY" and rest.isdigit():
            return int(rest)
        if word == "CANNOT-BIND":
            raise EmulatorError(
                f"cannot start moto on {self._host}:{self._asked_port}: the port is in use or not "
                "bindable. Use port 0 (an ephemeral port, the default) or free the port."
            )
        raise EmulatorError(f"the moto server exited while starting:\n{self._log_tail()}")

    def _wait_ready(self, deadline: float) -> bool:
        while True:  # asks at least once, however late (see _read_port)
            if self._proc is None or self._proc.poll() is not None:
                return False
            if self._answers():
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def _log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return "  (no log)"
        text = self.log_path.read_text(errors="replace").strip().splitlines()
        return "\n".join(f"  | {line}" for line in text[-lines:]) or "  (empty log)"

    def stop(self) -> None:
        """Stop the server process and remove its scratch dir; safe to call twice."""
        atexit.unregister(self.stop)
        proc = self._proc
        self._ready = False
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()  # the server exits on stdin EOF
        self._end_process(2, term=False)
        self._port = 0
        remove_scratch(self._home)
        self._home = None

    def warm(self, services: Iterable[str], region: str) -> None:
        """Tell the launched server which services (botocore's names) the session's
        modules call, in ``region``: its warm-up makes those next, and no others of its
        own list (:class:`.moto_server._WarmPlan`). Sent without waiting: the server may
        still be importing moto, and a hint it never takes costs a first call's time only.
        """
        if self._proc is None or not self._port:
            return
        body = json.dumps({"services": list(services), "region": region}).encode()
        request = urllib.request.Request(self.endpoint + WARM_PATH, data=body, method="POST")

        def send() -> None:
            with contextlib.suppress(OSError), _no_proxy_opener().open(request, timeout=30.0):
                pass

        threading.Thread(target=send, name="converge-moto-warm", daemon=True).start()

    def _request(self, method: str, path: str, timeout: float = 5.0) -> bytes:
        data = b"" if method == "POST" else None
        req = urllib.request.Request(self.endpoint + path, method=method, data=data)
        with _no_proxy_opener().open(req, timeout=timeout) as resp:
            return resp.read()

    def is_alive(self) -> bool:
        """The server process runs and its port accepts connections.

        No HTTP round trip: a busy moto (building a backend) is alive, not dead.
        """
        if self._proc is None or self._proc.poll() is not None:
            return False
        try:
            with socket.create_connection((self._host, self._port), timeout=2.0):
                return True
        except OSError:
            return False

    def _answers(self) -> bool:
        try:
            # A GET here is refused with 400 and changes nothing: a cheap "are you there".
            self._request("GET", "/moto-api/reset-auth", timeout=2.0)
        except urllib.error.HTTPError:
            return True
        except (OSError, urllib.error.URLError):
            return False
        return True

    def reset(self) -> None:
        try:
            # Resetting every backend an inventory of several regions instantiated takes
            # 1-4 s on a loaded 2-core runner (measured): 5 s was too tight.
            self._request("POST", "/moto-api/reset", timeout=60.0)
        except (OSError, urllib.error.URLError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not accept a reset: {exc}") from exc

    def data(self) -> dict[str, Any]:
        """moto's dump of every backend's objects (``/moto-api/data.json``)."""
        try:
            return json.loads(self._request("GET", "/moto-api/data.json", timeout=30.0))
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not return its data: {exc}") from exc

    def fidelity(self) -> dict[str, Any]:
        """What the server's fidelity layer installed (:func:`.fidelity.status`)."""
        try:
            return json.loads(self._request("GET", STATUS_PATH, timeout=30.0))
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not say its fidelity: {exc}") from exc

    def world(self, regions: Iterable[str] = ()) -> dict[str, Any]:
        """What moto's backend model holds of the objects a scenario's world is compared on.

        See :mod:`.moto_world`: ``{"covered": [types], "objects": [...]}``, read
        inside the server process (no describe call returns a master password),
        of every region (``regions`` is for backends that read region by region).
        """

        try:
            return json.loads(self._request("GET", WORLD_PATH, timeout=30.0))
        except urllib.error.HTTPError as exc:
            said = exc.read().decode(errors="replace")[:500]
            raise EmulatorError(
                f"moto at {self.endpoint} did not return its world ({exc.code}): {said}"
            ) from exc
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise EmulatorError(f"moto at {self.endpoint} did not return its world: {exc}") from exc


def _no_proxy_opener() -> urllib.request.OpenerDirector:
    # HTTP(S)_PROXY in a CI environment must never capture loopback traffic.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))
