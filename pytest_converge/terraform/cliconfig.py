"""The user's Terraform CLI config, read the way terraform reads it, and the one each run uses.

Terraform reads ``TF_CLI_CONFIG_FILE`` or else ``~/.terraformrc`` and the
``*.tfrc`` files of ``~/.terraform.d``. Its ``provider_installation`` block
says where providers come from (``filesystem_mirror``, ``network_mirror``,
``direct``, ``dev_overrides``, each with ``include``/``exclude``); without
one, terraform implies a ``filesystem_mirror`` for each local plugin
directory that exists and ``direct`` for every provider they do not hold.

pytest-converge keeps those methods and their restrictions, adds the mirror
of ``--converge-provider-mirror`` and the one bundled by the ``offline``
extra beside them, and carries ``plugin_cache_dir`` (``TF_PLUGIN_CACHE_DIR``),
``credentials``, ``credentials_helper`` and ``host`` blocks into the config it
passes to every terraform it runs. Of all the versions the sources offer,
terraform picks the newest the module allows, as it does for the user.

Two configs are written (:func:`write_configs`). The first asks the network
sources (``direct``, ``network_mirror``) only for providers no local mirror
holds, so a module whose provider is on disk initialises with no network; the
second, tried when the first cannot install a provider, gives the network
sources back everything the user's config lets them install.

    >>> user = read_cli_config()                      # doctest: +SKIP
    >>> [s.describe() for s in user.sources]          # doctest: +SKIP
    ['filesystem_mirror /opt/tf-plugins (TF_CLI_CONFIG_FILE /home/me/ci.tfrc:2)']
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform as _platform
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..analysis.plan import DEFAULT_HOST, short_address
from ..errors import ToolchainError
from .hcl import NOT_LITERAL, Block, HclError, json_object, parse_config

_log = logging.getLogger("pytest_converge")

METHODS = ("filesystem_mirror", "network_mirror", "direct", "dev_overrides")
#: Top-level blocks carried unchanged into the config of every run.
CARRIED_BLOCKS = ("credentials", "credentials_helper", "host")
_PACKED = re.compile(
    r"^terraform-provider-(?P<type>[^_]+)_(?P<version>[0-9][^_]*)_(?P<target>[a-z0-9]+_[a-z0-9]+)\.zip$"
)
_TARGET = re.compile(r"^[a-z0-9]+_[a-z0-9]+$")


def current_platform() -> str:
    """Terraform's name of this machine's platform (``linux_amd64``)."""
    machine = _platform.machine().lower()
    arch = {"x86_64": "amd64", "aarch64": "arm64", "i686": "386", "i386": "386"}.get(
        machine, machine
    )
    system = _platform.system().lower()
    return f"{system}_{arch}"


def provider_address(name: str) -> str:
    """``hashicorp/aws`` -> ``registry.terraform.io/hashicorp/aws`` (lower case)."""
    parts = name.strip().lower().split("/")
    if len(parts) == 2:
        parts.insert(0, DEFAULT_HOST)
    if len(parts) == 1:
        parts = [DEFAULT_HOST, "hashicorp", parts[0]]
    return "/".join(parts)


def matches(pattern: str, address: str) -> bool:
    """Terraform's include/exclude rule: each part equal (case-insensitive) or ``*``."""
    want = provider_address(pattern).split("/")
    have = provider_address(address).split("/")
    return len(want) == len(have) and all(w in ("*", h) for w, h in zip(want, have, strict=True))


@dataclass(frozen=True)
class Source:
    """One provider installation method: where it is, what it may install, who configured it."""

    kind: str
    #: The mirror's directory (``filesystem_mirror``) or URL (``network_mirror``).
    location: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    #: Where it was configured: ``~/.terraformrc:3``, ``implied``, ``bundled`` ...
    origin: str = ""
    #: ``dev_overrides``: (provider address, directory) pairs.
    overrides: tuple[tuple[str, str], ...] = ()

    @property
    def is_network(self) -> bool:
        return self.kind in ("direct", "network_mirror")

    def handles(self, address: str) -> bool:
        """True when include/exclude let this method install ``address``."""
        if self.kind == "dev_overrides":
            return any(provider_address(a) == provider_address(address) for a, _ in self.overrides)
        if self.include and not any(matches(p, address) for p in self.include):
            return False
        return not any(matches(p, address) for p in self.exclude)

    def describe(self) -> str:
        """``filesystem_mirror /opt/tf-plugins (~/.terraformrc:2)``, in a user's words."""
        if self.origin == "bundled":
            return f"the offline mirror {self.location} (bundled by pytest-converge[offline])"
        if self.kind == "direct":
            what = f"direct (the registries: {DEFAULT_HOST} and any other host)"
        elif self.kind == "dev_overrides":
            what = "dev_overrides"
        else:
            what = f"{self.kind} {self.location}"
        if self.origin == "implied":
            return f"{what}, implied (no provider_installation block)"
        return f"{what}, from {self.origin}" if self.origin else what

    def offers(self, address: str, target: str | None = None) -> str:
        """What this source offers for ``address``, in words (never asks the network)."""
        if not self.handles(address):
            return "not asked for it (its include/exclude leave it out)"
        if self.kind == "filesystem_mirror":
            mirror = Path(self.location)
            found = providers_on_disk(mirror).get(provider_address(address), {})
            offered = describe_versions(found, target or current_platform())
            hidden = [
                link
                for link in unfollowed_links(mirror)
                if _on_the_way(link[0], provider_address(address))
            ]
            return f"{offered}; {describe_links(hidden)}" if hidden else offered
        if self.kind == "dev_overrides":
            return "a development build (dev_overrides)"
        return "asked over the network (see terraform's error below)"


@dataclass(frozen=True)
class CarriedBlock:
    """A ``credentials``/``credentials_helper``/``host`` block, rendered as HCL."""

    type: str
    label: str
    #: (name, HCL expression) pairs.
    attributes: tuple[tuple[str, str], ...] = ()

    def render(self) -> str:
        body = "".join(f"  {name} = {expr}\n" for name, expr in self.attributes)
        return f"{self.type} {_hcl(self.label)} {{\n{body}}}\n"


@dataclass(frozen=True)
class CliConfig:
    """What the user's CLI config says about providers, caches and credentials."""

    #: The files read, in terraform's order.
    files: tuple[Path, ...] = ()
    #: ``TF_CLI_CONFIG_FILE`` names a file that does not exist (terraform warns and
    #: goes on without it, and so does pytest-converge).
    missing: Path | None = None
    sources: tuple[Source, ...] = ()
    #: A ``provider_installation`` block was given (else ``sources`` are terraform's implied ones).
    explicit: bool = False
    plugin_cache_dir: Path | None = None
    carried: tuple[CarriedBlock, ...] = field(default=())

    def describe(self) -> str:
        if self.files:
            return ", ".join(str(f) for f in self.files)
        if self.missing is not None:
            return f"TF_CLI_CONFIG_FILE={self.missing} (no such file; terraform ignores it too)"
        return "no CLI config file"


# -- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Node:
    """A block of either syntax: its literal attributes and nested blocks."""

    type: str
    labels: tuple[str, ...]
    attributes: dict[str, Any]
    children: tuple[_Node, ...]
    where: str


def read_cli_config(environ: Mapping[str, str] | None = None) -> CliConfig:
    """The CLI config terraform would use in ``environ`` (default: this process's).

    Raises ToolchainError for a file that does not parse, a ``provider_installation``
    that terraform would refuse, a ``filesystem_mirror`` that does not exist (terraform
    stops at it too) or holds no provider, and a plugin cache directory that does
    not exist (terraform reports it as an error and goes on without a cache).
    """
    env = os.environ if environ is None else environ
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    files: list[Path] = []
    missing = None
    override = env.get("TF_CLI_CONFIG_FILE", "")
    if override:
        path = Path(override).expanduser()
        if path.is_file():
            files.append(path)
        else:
            missing = path
            _log.info("TF_CLI_CONFIG_FILE=%s does not exist: terraform ignores it too", path)
    else:
        if (home / ".terraformrc").is_file():
            files.append(home / ".terraformrc")
        config_dir = home / ".terraform.d"
        if config_dir.is_dir():
            files.extend(
                sorted(
                    p
                    for p in config_dir.iterdir()
                    if p.is_file() and p.name.endswith((".tfrc", ".tfrc.json"))
                )
            )
    attributes: dict[str, tuple[Any, str]] = {}
    nodes: list[_Node] = []
    for path in files:
        found_attrs, found_nodes = _parse(path, home)
        attributes.update(found_attrs)
        nodes.extend(found_nodes)
    installs = [n for n in nodes if n.type == "provider_installation"]
    if len(installs) > 1:
        raise ToolchainError(
            f"the CLI config has {len(installs)} provider_installation blocks "
            f"({', '.join(n.where for n in installs)}); terraform allows one: merge them"
        )
    if installs:
        sources = tuple(_sources(installs[0]))
    else:
        sources = tuple(implied_sources(env, home))
    cache = None
    cache_origin = ""
    if "plugin_cache_dir" in attributes:
        value, cache_origin = attributes["plugin_cache_dir"]
        if isinstance(value, str) and value:
            cache = Path(_expand(value, env))
    if env.get("TF_PLUGIN_CACHE_DIR"):
        cache, cache_origin = Path(env["TF_PLUGIN_CACHE_DIR"]), "TF_PLUGIN_CACHE_DIR"
    if cache is not None and not cache.is_dir():
        raise ToolchainError(
            f"plugin cache directory {cache} ({cache_origin}) does not exist; terraform does "
            f"not create it: `mkdir -p {cache}`, or unset it"
        )
    carried: dict[tuple[str, str], CarriedBlock] = {}
    for node in nodes:
        if node.type in CARRIED_BLOCKS and node.labels:
            rendered = tuple((k, _render_value(v)) for k, v in node.attributes.items())
            # A later file wins, as terraform merges them.
            carried[(node.type, node.labels[0])] = CarriedBlock(node.type, node.labels[0], rendered)
    return CliConfig(tuple(files), missing, sources, bool(installs), cache, tuple(carried.values()))


def implied_sources(environ: Mapping[str, str], home: Path) -> list[Source]:
    """Terraform's implied methods: a mirror per local plugin directory that exists, then
    ``direct`` for every provider those do not hold.

    The directories: ``~/.terraform.d/plugins``, ``$XDG_DATA_HOME/terraform/plugins``
    (``~/.local/share``) and each ``$XDG_DATA_DIRS`` entry's ``terraform/plugins``
    (``/usr/local/share``, ``/usr/share``). The working directory's
    ``terraform.d/plugins`` (a legacy place) is not included.
    """
    data_home = environ.get("XDG_DATA_HOME") or str(home / ".local" / "share")
    data_dirs = (environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share").split(":")
    dirs = [home / ".terraform.d" / "plugins"]
    dirs += [Path(d) / "terraform" / "plugins" for d in [data_home, *data_dirs] if d]
    sources: list[Source] = []
    held: set[str] = set()
    for directory in dict.fromkeys(dirs):
        if directory.is_dir():
            sources.append(Source("filesystem_mirror", str(directory), origin="implied"))
            held.update(providers_on_disk(directory))
    sources.append(Source("direct", exclude=tuple(sorted(held)), origin="implied"))
    return sources


def _parse(path: Path, home: Path) -> tuple[dict[str, tuple[Any, str]], list[_Node]]:
    shown = _shown(path, home)
    try:
        text = path.read_text()
    except OSError as exc:
        raise ToolchainError(f"cannot read the CLI config {shown}: {exc.strerror or exc}") from None
    try:
        if path.name.endswith(".json") or text.lstrip().startswith("{"):
            return _json_nodes(json_object(text, path, "a CLI config holds one JSON object"), shown)
        attributes, blocks = parse_config(text, path)
    except HclError as exc:
        raise ToolchainError(
            f"the CLI config does not parse: {str(exc).replace(str(path), shown)}. Fix it "
            "(terraform reads it too), or point TF_CLI_CONFIG_FILE at another file"
        ) from None
    found = {name: (a.value, f"{shown}:{a.line}") for name, a in attributes.items()}
    return found, [_node(b, shown) for b in blocks]


def _node(block: Block, shown: str) -> _Node:
    attrs = {
        name: (a.value if a.value is not NOT_LITERAL else _Raw(a.expression))
        for name, a in block.attributes.items()
    }
    children = tuple(_node(b, shown) for b in block.blocks)
    return _Node(block.type, block.labels, attrs, children, f"{shown}:{block.line}")


def _json_nodes(data: dict[str, Any], shown: str) -> tuple[dict[str, tuple[Any, str]], list[_Node]]:
    attributes: dict[str, tuple[Any, str]] = {}
    nodes: list[_Node] = []
    for key, value in data.items():
        if key in CARRIED_BLOCKS and isinstance(value, dict):
            for label, body in value.items():
                for item in body if isinstance(body, list) else [body]:
                    if isinstance(item, dict):
                        nodes.append(_Node(key, (label,), dict(item), (), shown))
        elif key == "provider_installation":
            for body in value if isinstance(value, list) else [value]:
                if not isinstance(body, dict):
                    continue
                methods = [
                    _Node(kind, (), dict(item), (), shown)
                    for kind, entries in body.items()
                    for item in (entries if isinstance(entries, list) else [entries])
                    if isinstance(item, dict)
                ]
                nodes.append(_Node(key, (), {}, tuple(methods), shown))
        else:
            attributes[key] = (value, shown)
    return attributes, nodes


def _sources(install: _Node) -> Iterable[Source]:
    for method in install.children:
        if method.type not in METHODS:
            raise ToolchainError(
                f"{method.where}: unknown provider installation method {method.type!r}; "
                f"terraform knows {', '.join(METHODS)}"
            )
        include = _patterns(method, "include")
        exclude = _patterns(method, "exclude")
        if method.type == "dev_overrides":
            pairs = tuple((str(k), str(v)) for k, v in method.attributes.items())
            yield Source("dev_overrides", origin=method.where, overrides=pairs)
            continue
        location = ""
        if method.type == "filesystem_mirror":
            location = _required(method, "path")
            try:
                check_mirror(location, f"{method.where}: filesystem_mirror path")
            except ValueError as exc:
                raise ToolchainError(f"{exc}; fix the path or remove the mirror") from None
        elif method.type == "network_mirror":
            location = _required(method, "url")
        yield Source(method.type, location, include, exclude, method.where)


def _required(method: _Node, name: str) -> str:
    value = method.attributes.get(name)
    if not isinstance(value, str) or not value:
        raise ToolchainError(f'{method.where}: {method.type} needs {name} = "..."')
    return value


def _patterns(method: _Node, name: str) -> tuple[str, ...]:
    value = method.attributes.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ToolchainError(
            f"{method.where}: {method.type} {name} must be a list of provider addresses, "
            'e.g. ["registry.terraform.io/hashicorp/*"]'
        )
    return tuple(value)


def _expand(value: str, environ: Mapping[str, str]) -> str:
    """Go's ``os.ExpandEnv`` (what terraform applies to ``plugin_cache_dir``)."""
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: environ.get(m[1] or m[2], ""), value)


def _shown(path: Path, home: Path) -> str:
    try:
        return "~/" + path.relative_to(home).as_posix()
    except ValueError:
        return str(path)


# -- mirrors on disk -------------------------------------------------------------------------


def providers_on_disk(mirror: Path) -> dict[str, dict[str, set[str]]]:
    """``{address: {version: {targets}}}`` of a filesystem mirror, in either layout:
    packed (``HOST/NS/TYPE/terraform-provider-TYPE_VERSION_TARGET.zip``) or unpacked
    (``HOST/NS/TYPE/VERSION/TARGET/``).

    Only what terraform finds there: it follows no symlinked ``HOST``, ``NS``,
    ``TYPE`` or ``VERSION`` directory (:func:`unfollowed_links`); a symlinked
    ``TARGET`` directory, zip or binary it uses.
    """
    found: dict[str, dict[str, set[str]]] = {}
    for type_dir in _walked(mirror, 3):
        address = "/".join(type_dir.relative_to(mirror).parts).lower()
        versions: dict[str, set[str]] = {}
        try:
            for entry in type_dir.iterdir():
                packed = _PACKED.match(entry.name)
                if packed and entry.is_file():
                    versions.setdefault(packed["version"], set()).add(packed["target"])
                elif entry.name[:1].isdigit() and entry.is_dir() and not entry.is_symlink():
                    targets = {t.name for t in entry.iterdir() if _TARGET.match(t.name)}
                    if targets:
                        versions.setdefault(entry.name, set()).update(targets)
        except OSError:
            continue  # unreadable: terraform cannot install from it either
        if versions:
            found[address] = versions
    return found


def unfollowed_links(mirror: Path) -> list[tuple[str, str]]:
    """The symlinked directories of a filesystem mirror terraform does not follow.

    ``(path inside the mirror, where it points)`` for each ``HOST``, ``NS``,
    ``TYPE`` or ``VERSION`` directory that is a symlink (terraform 1.11 answers
    "no available releases match" for a provider behind one; measured).
    """
    links = []
    for depth in range(4):
        for parent in _walked(mirror, depth):
            for entry in _entries(parent):
                if depth == 3 and not entry.name[:1].isdigit():
                    continue
                if entry.is_symlink() and entry.is_dir():
                    links.append((entry.relative_to(mirror).as_posix(), os.path.realpath(entry)))
    return sorted(links)


def describe_links(links: Iterable[tuple[str, str]]) -> str:
    """The advice for :func:`unfollowed_links`, or ``""`` when there are none."""
    links = list(links)
    if not links:
        return ""
    shown = ", ".join(f"{path} -> {target}" for path, target in links[:3])
    more = f" and {len(links) - 3} more" if len(links) > 3 else ""
    return (
        f"terraform does not follow a symlinked directory in a filesystem mirror ({shown}{more}): "
        "make it a real directory and link the files inside it (or the TARGET directory, "
        "e.g. linux_amd64/) instead"
    )


def _walked(mirror: Path, depth: int) -> list[Path]:
    """The directories ``depth`` levels below ``mirror`` that terraform walks into."""
    level = [mirror] if mirror.is_dir() else []
    for _ in range(depth):
        level = [c for d in level for c in _entries(d) if c.is_dir() and not c.is_symlink()]
    return level


def _entries(directory: Path) -> list[Path]:
    try:
        return sorted(directory.iterdir())
    except OSError:
        return []  # unreadable: terraform cannot install from it either


def _on_the_way(path: str, address: str) -> bool:
    """``path`` (inside a mirror) is a directory of ``address`` or one above it."""
    parts, wanted = path.lower().split("/"), address.split("/")
    return parts[: len(wanted)] == wanted[: len(parts)]


def describe_versions(versions: Mapping[str, set[str]], target: str) -> str:
    """``3.39.0, 5.100.0`` (builds for this platform), plus others' versions marked."""
    here = sorted((v for v, t in versions.items() if target in t), key=_version_key)
    elsewhere = sorted((v for v, t in versions.items() if target not in t), key=_version_key)
    text = ", ".join(here) if here else "nothing"
    if elsewhere:
        text += f" (and {', '.join(elsewhere)} for other platforms than {target})"
    return text


def _version_key(version: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"[.+-]", version))


def check_mirror(path: str | os.PathLike[str], what: str = "--converge-provider-mirror") -> Path:
    """The mirror directory, or ValueError naming what is wrong and the layout expected."""
    mirror = Path(path).expanduser()
    layout = (
        "a filesystem mirror: HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_TARGET.zip "
        "(packed, as `terraform providers mirror DIR` writes) or HOST/NAMESPACE/TYPE/VERSION/"
        "TARGET/ (unpacked)"
    )
    if not mirror.exists():
        raise ValueError(f"{what} {path}: no such directory; expected {layout}")
    if not mirror.is_dir():
        raise ValueError(f"{what} {path}: a file, not a directory; expected {layout}")
    if not providers_on_disk(mirror):
        links = describe_links(unfollowed_links(mirror))
        hint = f" ({links})" if links else ""
        raise ValueError(f"{what} {path}: holds no provider{hint}; expected {layout}")
    return mirror.resolve()


# -- writing ---------------------------------------------------------------------------------


def local_first(sources: Iterable[Source], target: str | None = None) -> list[Source]:
    """``sources`` with every provider a local mirror holds (for this platform) excluded
    from the network ones: such a provider is installed with no network."""
    sources = list(sources)
    target = target or current_platform()
    on_disk: set[str] = set()
    for source in sources:
        if source.kind == "filesystem_mirror":
            for address, versions in providers_on_disk(Path(source.location)).items():
                if source.handles(address) and any(target in t for t in versions.values()):
                    on_disk.add(address)
    return [
        replace(s, exclude=tuple(dict.fromkeys([*s.exclude, *sorted(on_disk)])))
        if s.is_network and on_disk
        else s
        for s in sources
    ]


def render(sources: Iterable[Source], plugin_cache: Path, carried: Iterable[CarriedBlock]) -> str:
    """The text of a CLI config with these installation methods, cache and carried blocks."""
    methods = []
    for s in sources:
        lines = []
        if s.kind == "filesystem_mirror":
            lines.append(f"    path    = {_hcl(s.location)}")
        elif s.kind == "network_mirror":
            lines.append(f"    url     = {_hcl(s.location)}")
        elif s.kind == "dev_overrides":
            lines.extend(f"    {_hcl(a)} = {_hcl(d)}" for a, d in s.overrides)
        if s.include:
            lines.append(f"    include = {_hcl(list(s.include))}")
        if s.exclude:
            lines.append(f"    exclude = {_hcl(list(s.exclude))}")
        origin = f"  # {s.origin}\n" if s.origin else ""
        methods.append(f"{origin}  {s.kind} {{\n" + "".join(f"{x}\n" for x in lines) + "  }\n")
    return (
        "# Written by pytest-converge; passed to every terraform it runs.\n"
        "provider_installation {\n"
        + "".join(methods)
        + "}\n"
        + f"plugin_cache_dir = {_hcl(str(plugin_cache))}\n"
        # Without this, an init with no lock file re-installs into the cache,
        # overwriting a provider binary other runs are executing ("text file busy").
        "plugin_cache_may_break_dependency_lock_file = true\n"
        "disable_checkpoint = true\n" + "".join(b.render() for b in carried)
    )


def write_config(directory: Path, stem: str, text: str) -> Path:
    """Write ``text`` to ``directory/stem-<digest>.rc`` (once) and return the path.

    Named by content, so sessions with other CLI configs never overwrite each
    other's; private (0600) because it may carry credentials.
    """
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    path = directory / f"{stem}-{digest}.rc"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.replace(tmp, path)
    return path


class _Raw(str):
    """An expression that is not a literal: written back as its source text."""


def _render_value(value: Any) -> str:
    return str(value) if isinstance(value, _Raw) else _hcl(value)


def _hcl(value: Any) -> str:
    """A literal as HCL (strings in JSON's escapes, which HCL reads the same)."""
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_hcl(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_hcl(str(k))} = {_hcl(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value))


# -- an install that failed ------------------------------------------------------------------


def install_failure(
    address: str,
    constraints: Iterable[str],
    sources: Iterable[Source],
    config: CliConfig,
) -> str:
    """The words of an init that could not install ``address``: what each source
    offered for it and what the module asks for."""
    asked = list(constraints)
    wanted = "; the module asks for " + ", ".join(asked) if asked else " (no version constraint)"
    lines = [
        f"terraform init could not install {short_address(address)}{wanted}. "
        f"What each provider source offered for it (CLI config: {config.describe()}):"
    ]
    sources = list(sources)
    for source in sources:
        if source.origin == "bundled":
            offered = (
                source.offers(address)
                if source.handles(address)
                else f"nothing for it (only {', '.join(short_address(p) for p in source.include)})"
            )
            lines.append(f"  - the offline mirror has: {offered} ({source.location})")
        else:
            lines.append(f"  - {source.describe()}: {source.offers(address)}")
    if not any(s.is_network and s.handles(address) for s in sources):
        lines.append(
            "  No source may ask the network for it: add a mirror that holds a matching "
            "version (--converge-provider-mirror DIR, or a filesystem_mirror in the CLI config)."
        )
    else:
        lines.append(
            "  Any other version needs the network (the registry or a network mirror), which "
            "could not give it either; or add a mirror that holds it (--converge-provider-mirror "
            "DIR)."
        )
    return "\n".join(lines)
