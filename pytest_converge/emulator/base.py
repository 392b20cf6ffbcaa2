"""What every AWS emulator backend provides to the rest of the plugin."""

from __future__ import annotations

import abc
import os
from typing import Any

#: Fake credentials used for every emulator call. They are never valid anywhere.
FAKE_ACCESS_KEY = "AKIACONVERGETEST0000"
FAKE_SECRET_KEY = "converge-fake-secret-key-not-valid-anywhere"
DEFAULT_REGION = "us-east-1"


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
    """

    name: str = "emulator"
    region: str = DEFAULT_REGION

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

    def client(self, service: str, region: str | None = None) -> Any:
        """A boto3 client for ``service`` pointed at this emulator."""
        from botocore.config import Config

        return self.session().client(
            service,
            endpoint_url=self.endpoint,
            region_name=region or self.region,
            config=Config(
                retries={"max_attempts": 2},
                s3={"addressing_style": "path"},
                # HTTP(S)_PROXY from a CI environment must never see emulator traffic.
                proxies={"http": "", "https": ""},
            ),
        )

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
