"""The guard that keeps every run on this machine, with credentials that work nowhere.

Three layers, each enough on its own for the common case:

1. Endpoints: every URL terraform or a client is pointed at must be loopback.
2. Environment: terraform runs with cloud credentials, profiles, proxies and
   ``TF_CLI_ARGS*`` removed, and fake AWS keys and empty config files set;
   an emulator process gets only an allow-list of the user's variables
   (:func:`emulator_env`), so ``AWS_PROFILE``, ``~/.aws`` and proxies play
   no part in what it answers.
3. Configuration: the provider override replaces every endpoint (so even an
   ``assume_role`` goes to the emulator's STS), nulls ``profile`` and the
   shared credential files, and forces a local backend (a module's S3 or
   cloud backend is never contacted).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import UnsafeTargetError
from .fake_account import DEFAULT_REGION, FAKE_ACCESS_KEY, FAKE_SECRET_KEY

#: Environment variables never passed to terraform (prefixes).
SCRUBBED_PREFIXES = (
    "AWS_",
    "TF_CLI_ARGS",
    "TF_VAR_",
    "ARM_",
    "AZURE_",
    "GOOGLE_",
    "GCLOUD_",
    "CLOUDSDK_",
    "DIGITALOCEAN_",
)
SCRUBBED_NAMES = frozenset(
    {
        "TF_CLI_CONFIG_FILE",
        "TF_PLUGIN_CACHE_DIR",
        "TF_WORKSPACE",
        "TF_DATA_DIR",
        "TF_TOKEN_app_terraform_io",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    }
)


@dataclass(frozen=True)
class LoopbackTarget:
    """Where a loopback URL points: ``host`` is an IP literal (``localhost`` -> 127.0.0.1)."""

    scheme: str
    host: str
    port: int


def loopback_target(url: str, what: str = "endpoint") -> LoopbackTarget:
    """The one loopback rule: an ``http``/``https`` URL whose host is 127.0.0.0/8, ::1 or
    ``localhost``. Anything else (another address, a name, another scheme, no port
    where one is garbled) raises UnsafeTargetError naming ``what`` and the fix.

    Names other than ``localhost`` are refused, not resolved: they could resolve
    anywhere. ``localhost`` is mapped to 127.0.0.1 here, never given to a resolver.
    """
    fix = "use the local emulator's URL, e.g. http://127.0.0.1:4566"
    try:
        split = urlsplit(url)
        host = split.hostname or ""
        port = split.port
    except ValueError as exc:
        raise UnsafeTargetError(
            f"refusing to use {what} {url!r}: not a URL ({exc}); pytest-converge only talks to "
            f"emulators on loopback; {fix}"
        ) from None
    if split.scheme not in ("http", "https") or not host:
        raise UnsafeTargetError(
            f"refusing to use {what} {url!r}: not an http(s) URL; pytest-converge only talks to "
            f"emulators on loopback; {fix}"
        )
    if host == "localhost":
        host = "127.0.0.1"
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False  # a name: it could resolve anywhere
    if not loopback:
        raise UnsafeTargetError(
            f"refusing to use {what} {url!r}: it is not on loopback (127.0.0.0/8, ::1, "
            "localhost); pytest-converge only talks to local emulators, so a test can never "
            f"reach a real cloud; {fix}"
        )
    return LoopbackTarget(split.scheme, host, port or (443 if split.scheme == "https" else 80))


def is_loopback_url(url: str) -> bool:
    """True when :func:`loopback_target` accepts ``url``."""
    try:
        loopback_target(url)
    except UnsafeTargetError:
        return False
    return True


def ensure_loopback(url: str, what: str = "endpoint") -> str:
    """Return ``url`` if :func:`loopback_target` accepts it, else raise UnsafeTargetError."""
    loopback_target(url, what)
    return url


#: The only variables of the user's environment an emulator process inherits
#: (plus ``LC_*``): what a Python interpreter needs to start and find its packages.
EMULATOR_KEPT = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "TMPDIR", "PYTHONPATH"})
LOOPBACK_NAMES = "127.0.0.1,localhost,::1"


def emulator_env(home: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment an emulator process starts with: an allow-list, then fakes.

    ``home`` (a scratch directory) stands in for ``HOME``, so no ``~/.aws``
    is ever read; the config files point nowhere and the credentials are the
    fake ones. The caller adds the emulator's own settings.
    """
    source = dict(os.environ if base is None else base)
    env = {k: v for k, v in source.items() if k in EMULATOR_KEPT or k.startswith("LC_")}
    env.update(HOME=str(home), **_blind_aws(home))
    return env


def _blind_aws(scratch: str | Path) -> dict[str, str]:
    """Fake credentials, the default region, no metadata service, no config files
    (paths under ``scratch`` that do not exist) and loopback never proxied."""
    nowhere = str(Path(scratch) / "no-such-aws-config")
    return {
        "AWS_ACCESS_KEY_ID": FAKE_ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": FAKE_SECRET_KEY,
        "AWS_REGION": DEFAULT_REGION,
        "AWS_DEFAULT_REGION": DEFAULT_REGION,
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_CONFIG_FILE": nowhere,
        "AWS_SHARED_CREDENTIALS_FILE": nowhere,
        "NO_PROXY": LOOPBACK_NAMES,
        "no_proxy": LOOPBACK_NAMES,
    }


def sdk_endpoint(endpoint: str) -> dict[str, str]:
    """What points the AWS SDKs and CLI a provisioner runs (``aws s3 sync`` in a
    ``local-exec``) at the emulator, as the provider override points the provider:
    every current SDK reads ``AWS_ENDPOINT_URL``. Without it they reach AWS itself
    (the egress guard refuses them: an ``egress`` finding)."""
    ensure_loopback(endpoint, "emulator endpoint")
    return {"AWS_ENDPOINT_URL": endpoint}


def terraform_env(
    cli_config: Path, scratch: Path, base: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment every terraform command runs with."""
    source = dict(os.environ if base is None else base)
    env = {
        k: v
        for k, v in source.items()
        if not k.startswith(SCRUBBED_PREFIXES) and k not in SCRUBBED_NAMES
    }
    env.update(
        TF_CLI_CONFIG_FILE=str(cli_config),
        TF_IN_AUTOMATION="1",
        TF_INPUT="0",
        CHECKPOINT_DISABLE="1",
        **_blind_aws(scratch),
    )
    return env
