"""What every AWS emulator backend provides to the rest of the plugin."""

from __future__ import annotations

import abc
import contextlib
import os
import shutil
import signal
import subprocess
import warnings
from collections.abc import Iterable
from typing import Any

from ..awsapi.operations import service_of
from ..errors import EmulatorError, UnsupportedServiceError
from ..isolation import cancel
from ..isolation.fake_account import DEFAULT_REGION, FAKE_ACCESS_KEY, FAKE_SECRET_KEY


def resource_service(type_: str) -> str:
    """The AWS service behind a resource or data source type, as botocore names it
    (``aws_dynamodb_table`` -> ``dynamodb``): the one rule, ``awsapi.operations.service_of``."""
    found = service_of(type_)
    if found is not None:
        return found.name
    parts = type_.split("_")
    return parts[1] if len(parts) > 1 and parts[0] == "aws" else type_


def access_key_for(principal: str) -> str:
    """The fake access key id that signs ``principal``'s calls, e.g. ``"terraform"``.

    Twenty characters starting ``AKIA``: moto and LocalStack map any such key
    to their default account, so every principal sees the same objects, while
    the proxy's record of each call's key tells who made it.

    >>> access_key_for("autoscaler") == access_key_for("autoscaler") != access_key_for("oncall")
    True
    """
    import hashlib

    digest = hashlib.sha256(principal.encode()).hexdigest().upper()
    return "AKIA" + "".join(c for c in digest if c.isalnum())[:16]


#: The key the provider configuration of every workspace signs with: terraform's own.
TERRAFORM_ACCESS_KEY = access_key_for("terraform")


def blind_session(access_key: str, region: str) -> Any:
    """A boto3 Session signing with ``access_key``, blind to the user's AWS config."""
    import boto3
    import botocore.session

    # No env var and no default for "profile": AWS_PROFILE is never looked at.
    core = botocore.session.Session(session_vars={"profile": (None, None, None, None)})
    core.set_config_variable("config_file", os.devnull)
    core.set_config_variable("credentials_file", os.devnull)
    return boto3.session.Session(
        aws_access_key_id=access_key,
        aws_secret_access_key=FAKE_SECRET_KEY,
        region_name=region,
        botocore_session=core,
    )


class Emulator(abc.ABC):
    """A running AWS emulator reachable on loopback.

    ``endpoint`` is the base URL every service is served at (one port for all).
    ``unsupported_services`` names the services this backend cannot serve: a
    module that needs one fails before its first apply (see :meth:`check_served`).
    """

    name: str = "emulator"
    region: str = DEFAULT_REGION
    unsupported_services: frozenset[str] = frozenset()
    #: The backend answers a call of one of its ``unsupported_services`` at once, with an
    #: error: a module that uses one runs, with those resources left untested, instead
    #: of being refused before its first apply (LocalStack's would hang: refused).
    answers_unsupported: bool = False
    #: :meth:`reset` empties it (False: a shared instance, whose reset deletes nothing, so
    #: a scenario's baseline inventory is what it holds of others').
    can_reset: bool = True

    def check_served(self, addresses: Iterable[str], module: str = "the module") -> None:
        """Raise UnsupportedServiceError when a resource of ``addresses`` needs a service
        this backend declares unsupported (``aws_dynamodb_table.locks``, ``data.aws_...``);
        never for a backend that :attr:`answers_unsupported`."""
        if self.answers_unsupported:
            return
        needs: dict[str, list[str]] = {}
        for address in addresses:
            type_ = address.removeprefix("data.").split(".")[0]
            service = resource_service(type_)
            if service in self.unsupported_services:
                needs.setdefault(service, []).append(address)
        if not needs:
            return
        mode = getattr(self, "mode", "")
        backend = self.name + (f" ({mode} mode)" if mode else "")
        lines = [
            f"  {service}: {', '.join(sorted(found))}" for service, found in sorted(needs.items())
        ]
        raise UnsupportedServiceError(
            f"{module} needs {', '.join(sorted(needs))}, which the {backend} backend cannot "
            "serve here:\n"
            + "\n".join(lines)
            + "\nRun it on moto (--converge-backend moto, the default), which serves them, or "
            "on a LocalStack that does (a Docker container; LOCALSTACK_ENDPOINT). To skip such "
            "modules instead of failing: --converge-unsupported=skip.",
            needs,
        )

    @property
    @abc.abstractmethod
    def endpoint(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:41234``."""

    @abc.abstractmethod
    def start(self) -> None:
        """Start and wait until ready; raise EmulatorError on failure."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Stop; safe to call twice and after a failed start."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Forget every object created so far."""

    @abc.abstractmethod
    def is_alive(self) -> bool:
        """True when the emulator answers its health check."""

    def session(self) -> Any:
        """A boto3 Session with the fake credentials, blind to the user's AWS config.

        ``AWS_PROFILE`` and ``~/.aws/config`` must not leak in: a profile that
        does not exist here would break the client, one that does might carry
        an endpoint or a role.
        """
        return blind_session(FAKE_ACCESS_KEY, self.region)

    def client_options(self, region: str | None = None) -> dict[str, Any]:
        """Keyword arguments for ``session.client(service, **options)`` aimed at this emulator.

        Few retries, path-style S3, proxies off (``HTTP(S)_PROXY`` from a CI
        environment must never see emulator traffic), and no certificate check
        for an ``https://`` endpoint (a local emulator's certificate is
        self-signed; the endpoint itself is checked to be loopback).
        """
        from botocore.config import Config

        if self.endpoint.startswith("https://"):
            warnings.filterwarnings(
                "ignore", message=r"Unverified HTTPS request is being made to host '(127\.|::1)"
            )
        return {
            "endpoint_url": self.endpoint,
            "region_name": region or self.region,
            "verify": not self.endpoint.startswith("https://"),
            "config": Config(
                retries={"max_attempts": 2},
                s3={"addressing_style": "path"},
                # None, not "": botocore sends a request to an empty-string proxy in
                # absolute form (``GET http://127.0.0.1:N/path``), which MiniStack's Lambda
                # misroutes; a proxies dict of its own still keeps HTTP(S)_PROXY out.
                proxies={"http": None, "https": None},
            ),
        }

    def client(self, service: str, region: str | None = None) -> Any:
        """A boto3 client for ``service`` pointed at this emulator."""
        return self.session().client(service, **self.client_options(region))

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ServerProcess:
    """A backend that runs as a child process in a process group of its own, on loopback.

    Mixed into the backends that start their server themselves (moto, MiniStack,
    LocalStack's host process): what they share about the process, its port and its
    scratch folder.
    """

    #: How :attr:`endpoint`'s error names the server.
    server_label = "the emulator"
    _proc: subprocess.Popen[bytes] | None = None
    _host = "127.0.0.1"
    _port = 0

    @property
    def endpoint(self) -> str:
        if self._proc is None or not self._port:
            raise EmulatorError(f"{self.server_label} is not running; call start() first")
        return f"http://{self._host}:{self._port}"

    @property
    def pid(self) -> int | None:
        """Process id (and process group id) of the server, if running."""
        return self._proc.pid if self._proc is not None else None

    def _end_process(self, grace: float, *, term: bool = True) -> None:
        """SIGTERM the server (``term``; else it is leaving on its own) and wait ``grace``
        seconds, then SIGKILL its whole group, which also reaps children left behind."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if term and proc.poll() is None:
            signal_group(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=grace)
        signal_group(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        cancel.untrack(proc.pid)


def signal_group(pgid: int, sig: signal.Signals) -> None:
    """Send ``sig`` to process group ``pgid``; one already gone is no error."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def remove_scratch(path: str | None) -> None:
    """Remove a server's scratch folder (its state, its logs), and stop tracking it."""
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)
        cancel.untrack_dir(path)
