"""Workspaces: a private, initialised copy of a module, pointed at the emulator.

The user's module is never modified. A module is copied once per session into
a *template* (``terraform init`` runs there, once); each Stack then copies the
template (providers are links into the shared plugin cache, so the copy is
cheap) and writes ``converge_override.tf`` pointing every ``aws`` provider
configuration at its endpoint.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..awsapi.operations import service_of
from ..emulator.base import DEFAULT_REGION, FAKE_SECRET_KEY, TERRAFORM_ACCESS_KEY
from ..errors import Diagnostic, ModuleError, TerraformError, ToolchainError
from ..isolation.safety import ensure_loopback, sdk_endpoint, terraform_env
from ..storage import locked
from .cliconfig import install_failure, provider_address
from .hcl import (
    HclError,
    blocks_of,
    local_source,
    module_blocks,
    module_dirs,
    module_tree,
    parse_file,
    provider_regions,
)
from .provider import AWS_ADDRESS, provider_binary
from .runner import Completed, IsFlagged, Runner, read_json
from .toolchain import Toolchain

OVERRIDE_FILE = "converge_override.tf"
PROVIDER_FILE = "converge_provider.tf"
BACKEND_FILE = "converge_backend_override.tf"
VARS_FILE = "converge.auto.tfvars.json"
_SKIP_DIRS = {".terraform", ".git", "__pycache__", ".pytest_cache"}
_SKIP_SUFFIXES = (".tfstate", ".tfstate.backup", ".tfplan")
#: Marks a finished template in the cross-session cache (written last).
TEMPLATE_META = "converge-template.json"
#: Bump when what a template holds changes: old cache entries are then ignored.
TEMPLATE_FORMAT = 2
#: Cached templates unused for this long are removed.
TEMPLATE_TTL_DAYS = 14
#: Retries the SDK makes per call: enough to ride out Throttle(times=3),
#: few enough that an API the emulator lacks fails in seconds, not minutes.
MAX_RETRIES = 5


def tf_files(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.iterdir() if p.is_file() and p.name.endswith((".tf", ".tf.json"))
    )


def check_module(module_dir: str | os.PathLike[str]) -> Path:
    """Return the module's absolute path or raise ModuleError saying what is wrong."""
    path = Path(module_dir).expanduser().resolve()
    if not path.exists():
        raise ModuleError(f"module directory {path} does not exist")
    if not path.is_dir():
        raise ModuleError(f"{path} is not a directory; pass the directory holding the .tf files")
    if not tf_files(path):
        raise ModuleError(f"{path} holds no .tf or .tf.json files: it is not a Terraform module")
    return path


def local_calls(module: Path) -> set[Path]:
    """Directories the module calls through local ``source`` paths (absolute)."""
    calls = module_blocks(module, "module")
    return {target for call in calls if (target := local_source(call, module)) is not None}


def local_module_root(module: Path) -> Path:
    """The smallest directory holding the module and every local module it calls.

    ``source = "../shared/vpc"`` must still resolve in the copy, so the copy
    starts at the common ancestor, keeping relative layout.
    """
    return Path(os.path.commonpath([module, *module_tree(module)]))


def _ignore(directory: str, names: list[str]) -> set[str]:
    return {n for n in names if n in _SKIP_DIRS or n.endswith(_SKIP_SUFFIXES)}


def _ignore_beneath(*bases: Path):
    """The usual ignores, plus our own scratch dirs when they lie inside the module
    (pytest's basetemp under a module dir would otherwise be copied into itself)."""
    resolved = [base.resolve() for base in bases]

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = _ignore(directory, names)
        for name in names:
            path = (Path(directory) / name).resolve()
            if any(path == base or path in base.parents for base in resolved):
                skipped.add(name)
        return skipped

    return ignore


def tree_digest(root: Path) -> str:
    """A digest of the files a copy would take (names and contents)."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(_SKIP_SUFFIXES):
                continue
            path = Path(dirpath) / name
            digest.update(str(path.relative_to(root)).encode())
            with contextlib.suppress(OSError):
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class ProviderConfig:
    """One ``provider "aws"`` block of the module (alias None = the default one)."""

    alias: str | None
    has_region: bool


def aws_provider_configs(directory: Path) -> list[ProviderConfig]:
    """The ``provider "aws"`` blocks in a module's own files (our own files excluded)."""
    return [
        ProviderConfig(
            alias if isinstance(alias := block.value("alias", None), str) else None,
            "region" in block.attributes,
        )
        for block in blocks_of(module_blocks(directory, "provider"), "provider", "aws")
        if block.file is None or block.file.name not in (OVERRIDE_FILE, PROVIDER_FILE)
    ]


def nested_provider_configs(module: Path) -> dict[str, list[ProviderConfig]]:
    """``provider "aws"`` blocks of the modules ``module`` calls, by directory relative to it.

    A child module may configure aws itself (legacy, still common in public
    modules): its blocks need an override in its own directory, or its calls
    go to AWS.
    """
    root = Path(os.path.abspath(module))
    return {
        os.path.relpath(directory, root): configs
        for directory in module_dirs(root)
        if directory != root and (configs := aws_provider_configs(directory))
    }


def aws_addresses(module: Path) -> list[str]:
    """Addresses of the AWS resources and data sources the module declares
    (``aws_dynamodb_table.locks``, ``data.aws_iam_policy_document.x``): in its own
    files, the local modules it calls and, once initialised, the modules listed in
    ``.terraform/modules/modules.json``. Used to know the services it needs before
    it is applied."""
    found: dict[str, None] = {}
    for directory in module_dirs(module):
        for block in module_blocks(directory, "resource", "data"):
            if len(block.labels) >= 2:
                prefix = "data." if block.type == "data" else ""
                found[f"{prefix}{block.labels[0]}.{block.labels[1]}"] = None
    return [a for a in found if a.removeprefix("data.").startswith("aws_")]


def uses_aws(directory: Path) -> bool:
    """True when the module declares aws resources, data sources, providers or requirements."""
    for block in module_blocks(directory, "resource", "data", "provider", "terraform"):
        label = block.labels[0] if block.labels else ""
        if block.type in ("resource", "data") and label.startswith("aws_"):
            return True
        if block.type == "provider" and label == "aws":
            return True
        if block.type == "terraform":
            declared = block.value("required_providers", None)  # JSON syntax: an attribute
            if isinstance(declared, dict) and "aws" in declared:
                return True
            if any("aws" in r.attributes for r in block.children("required_providers")):
                return True
    return False


def module_services(module: Path) -> tuple[list[str], str]:
    """The AWS services (botocore's names) that :func:`aws_addresses` of ``module`` talk
    to, in the order its files name them, and the region its default aws provider signs
    for (its literal region, else the one the workspace gives it).

        module_services(Path("examples/network"))  # (["ec2", "s3", "sqs", ...], "us-east-1")
    """
    found: dict[str, None] = {}
    for address in aws_addresses(module):
        service = service_of(address.removeprefix("data.").partition(".")[0])
        if service is not None:
            found[service.name] = None
    return list(found), provider_regions(module).get("aws", DEFAULT_REGION)


@dataclass(frozen=True)
class ProviderSchema:
    """What the installed aws provider accepts in its provider block."""

    version: str
    attributes: frozenset[str]
    endpoints: frozenset[str]


def provider_override(
    endpoint: str,
    configs: list[ProviderConfig],
    schema: ProviderSchema,
    access_key: str = TERRAFORM_ACCESS_KEY,
) -> tuple[str, str]:
    """Text of (override file, extra provider file) pointing aws at ``endpoint``.

    Only attributes the installed provider version knows are written (3.x
    and 5.x differ); credentials-related ones are nulled out. Calls are signed
    with ``access_key``: terraform's own, unless another principal (a
    simulated console user) runs terraform in a scratch copy.
    """
    ensure_loopback(endpoint)
    attrs = schema.attributes
    settings: list[tuple[str, str]] = [
        ("access_key", json.dumps(access_key)),
        ("secret_key", json.dumps(FAKE_SECRET_KEY)),
        ("skip_credentials_validation", "true"),
        ("skip_metadata_api_check", "true"),
        # The account id is asked for (sts:GetCallerIdentity, answered by the emulator):
        # a resource whose id is the account id (an ECR registry's scanning or replication
        # configuration) is absent from state without it ("inconsistent result").
        ("skip_requesting_account_id", "false"),
        ("skip_region_validation", "true"),
        ("skip_get_ec2_platforms", "true"),
        ("s3_force_path_style", "true"),
        ("s3_use_path_style", "true"),
        # 5.x: a FIPS or dual-stack endpoint is another host, not the emulator.
        ("use_fips_endpoint", "false"),
        ("use_dualstack_endpoint", "false"),
        ("insecure", "false"),
        ("max_retries", str(MAX_RETRIES)),
    ]
    for nulled in (
        "token",
        "profile",
        "shared_credentials_file",
        "shared_credentials_files",
        "shared_config_files",
        "allowed_account_ids",
        "forbidden_account_ids",
        # 5.x: a proxy of the module's own would carry emulator calls elsewhere
        # (null: the egress guard's, which loopback bypasses); its CA bundle and
        # metadata endpoint are the real account's.
        "http_proxy",
        "https_proxy",
        "no_proxy",
        "custom_ca_bundle",
        "ec2_metadata_service_endpoint",
        "ec2_metadata_service_endpoint_mode",
    ):
        settings.append((nulled, "null"))
    body = [f"  {k} = {v}" for k, v in settings if k in attrs]
    eps = "\n".join(f'    {name} = "{endpoint}"' for name in sorted(schema.endpoints))
    body.append(f"  endpoints {{\n{eps}\n  }}")
    common = "\n".join(body)

    def block(alias: str | None, region: bool) -> str:
        head = [f'  alias = "{alias}"'] if alias else []
        if region:
            head.append(f'  region = "{DEFAULT_REGION}"')
        return 'provider "aws" {\n' + "\n".join([*head, common]) + "\n}\n"

    header = "# Written by pytest-converge: points this aws configuration at the local emulator.\n"
    # A block without a region would make terraform stop and ask for one.
    overrides = [block(c.alias, not c.has_region) for c in configs]
    # An override needs a base block; a module relying on the implicit default
    # provider gets a plain provider file instead.
    extra = "" if any(c.alias is None for c in configs) else block(None, True)
    return header + "\n".join(overrides), (header + extra if extra else "")


class Templates:
    """Initialised module copies, one per module content, shared by a session's Stacks.

    Initialised copies are also kept across sessions in the cache directory
    (``templates/`` beside the plugin cache), keyed by the module's files
    (its lock file included), the engine and its version, and the CLI config
    (the provider set): a second ``pytest`` run of an unchanged module skips
    ``terraform init``. Entries unused for :data:`TEMPLATE_TTL_DAYS` are pruned.
    ``cache=False`` builds in ``base`` only, for this object's lifetime.
    """

    def __init__(self, toolchain: Toolchain, base: Path, cache: bool = True) -> None:
        self.toolchain = toolchain
        self.base = base
        self.cache: Path | None = toolchain.cache_root / "templates" if cache else None
        self._made: dict[str, Template] = {}
        self._schemas: dict[str, ProviderSchema] = {}
        #: How many templates this object took from the cross-session cache / built.
        self.reused = 0
        self.built = 0
        #: Added to every terraform (and provider) environment, e.g. ``GOMAXPROCS``.
        self.extra_env: dict[str, str] = {}

    def get(self, module_dir: str | os.PathLike[str]) -> Template:
        module = check_module(module_dir)
        root = local_module_root(module)
        key = tree_digest(root) + "-" + hashlib.sha256(str(module).encode()).hexdigest()[:8]
        if key not in self._made:
            if self.cache is None:
                dest = self.base / f"template-{module.name}-{key}"
                self._made[key] = self._build(module, root, key, dest)
            else:
                self._made[key] = self._cached(module, root, key)
        return self._made[key]

    def _cached(self, module: Path, root: Path, key: str) -> Template:
        assert self.cache is not None
        tc = self.toolchain
        engine = hashlib.sha256(
            json.dumps(
                [TEMPLATE_FORMAT, key, tc.flavor, tc.version, tc.command, _text(tc.cli_config)]
            ).encode()
        ).hexdigest()[:12]
        name = f"{module.name}-{engine}"
        dest = self.cache / name
        with locked(self.cache / f"{name}.lock"):
            template = _load_template(dest, module)
            if template is not None:
                os.utime(dest / TEMPLATE_META)  # recently used: not pruned
                self.reused += 1
                return template
            if dest.exists():
                shutil.rmtree(dest)  # an interrupted build
            template = self._build(module, root, key, dest)
            _save_template(template)
        _prune(self.cache)
        return template

    def _build(self, module: Path, root: Path, key: str, dest_root: Path) -> Template:
        self.built += 1
        if dest_root.exists():
            shutil.rmtree(dest_root)
        skip = [self.base] if self.cache is None else [self.base, self.cache]
        shutil.copytree(root, dest_root, ignore=_ignore_beneath(*skip), symlinks=True)
        workdir = dest_root / module.relative_to(root)
        (workdir / BACKEND_FILE).write_text(
            "# Written by pytest-converge: state stays local; a module's remote backend\n"
            '# is never contacted.\nterraform {\n  backend "local" {}\n}\n'
        )
        # A root of module calls only may name no aws itself: its children do.
        aws = any(uses_aws(d) for d in module_tree(workdir))
        configs = aws_provider_configs(workdir) if aws else []
        if aws and not any(c.alias is None for c in configs):
            # init must know the default configuration exists.
            (workdir / PROVIDER_FILE).write_text('provider "aws" {}\n')
        runner = Runner(self.toolchain.command, workdir, self.env(dest_root))
        self._init(runner, module)
        provider = provider_binary(workdir)
        # init installed aws for a registry module: the module uses it.
        aws = aws or provider is not None
        schema = self._schema(runner, workdir) if aws else None
        return Template(
            module,
            dest_root,
            workdir.relative_to(dest_root),
            configs,
            schema,
            provider if aws else None,
            nested_provider_configs(workdir) if aws else {},
        )

    def env(self, scratch: Path) -> dict[str, str]:
        return {**terraform_env(self.toolchain.cli_config, scratch), **self.extra_env}

    def _init(self, runner: Runner, module: Path) -> None:
        tc = self.toolchain
        # The plugin cache is not safe for concurrent writers (xdist workers).
        with locked(tc.cache_root / "init.lock"):
            done = runner.run("init", input=False, no_color=IsFlagged)
        if done.returncode == 0:
            return
        diags = done.diagnostics()
        if _provider_missing(diags, done.stderr):
            if tc.direct_config != tc.cli_config:
                # Not on disk: the network sources of the user's config may have it.
                runner.env = {**runner.env, "TF_CLI_CONFIG_FILE": str(tc.direct_config)}
                with locked(tc.cache_root / "init.lock"):
                    retry = runner.run("init", input=False, no_color=IsFlagged)
                runner.env = self.env(runner.working_dir)
                if retry.returncode == 0:
                    return
                diags = retry.diagnostics() or diags
            said = [d.text for d in diags]
            address = _missing_provider(" ".join(said)) or AWS_ADDRESS
            raise ToolchainError(
                install_failure(
                    address, provider_constraints(module, address), tc.sources, tc.user_config
                )
                + "\n  terraform said:\n  "
                + "\n  ".join(said)
            )
        raise TerraformError(
            done.command, done.returncode, diags, done.stdout + done.stderr, str(runner.working_dir)
        )

    def _schema(self, runner: Runner, workdir: Path) -> ProviderSchema:
        """The aws provider block's attribute and endpoint names of the version init chose:
        from this object, the cache, the shipped table (:data:`SHIPPED_BLOCKS`), or else
        ``terraform providers schema -json`` (then written to the cache)."""
        version = _locked_version(workdir / ".terraform.lock.hcl") or "unknown"
        if version in self._schemas:
            return self._schemas[version]
        cached = self.toolchain.cache_root / f"schema-aws-{version}.json"
        data: dict[str, Any] = {}
        if version != "unknown" and cached.exists():
            with contextlib.suppress(ValueError, OSError):
                data = json.loads(cached.read_text())
        if not data:
            data = shipped_provider_block(version) or {}
        if not data:
            done = runner.run("providers schema", json=IsFlagged, check=True)
            data = provider_block(json.loads(done.stdout))
            if version != "unknown":
                tmp = cached.with_name(cached.name + f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(data))
                os.replace(tmp, cached)
        schema = ProviderSchema(
            version, frozenset(data["attributes"]), frozenset(data["endpoints"])
        )
        self._schemas[version] = schema
        return schema


#: The aws provider block of released provider versions (attribute and endpoint names),
#: as ``terraform providers schema -json`` gives it; ``scripts/aws_provider_blocks.py``
#: adds a version. A fresh cache (a CI runner) then skips that command: 3.3 s and 13.6 MB
#: of JSON on aws 5.100.0. A version not in it is read from the provider, as before.
SHIPPED_BLOCKS = Path(__file__).resolve().parents[1] / "data" / "aws_provider_blocks.json"


def provider_block(schemas: dict[str, Any]) -> dict[str, list[str]]:
    """The aws provider block's names in ``terraform providers schema -json`` output."""
    block = next(
        v["provider"]["block"]
        for k, v in schemas["provider_schemas"].items()
        if k.endswith("hashicorp/aws")
    )
    return {
        "attributes": sorted(block.get("attributes", {})),
        "endpoints": sorted(
            block.get("block_types", {}).get("endpoints", {}).get("block", {}).get("attributes", {})
        ),
    }


def shipped_provider_block(version: str) -> dict[str, list[str]] | None:
    """The shipped entry for aws ``version`` (``5.100.0``), or None."""
    try:
        data = json.loads(SHIPPED_BLOCKS.read_text())
        entry = data["versions"][version]
        return {"attributes": list(entry["attributes"]), "endpoints": list(entry["endpoints"])}
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class Template:
    """An initialised copy of one module."""

    module: Path
    root: Path
    #: Where the module sits inside ``root`` (``.`` unless it calls ``../`` modules).
    subdir: Path
    configs: list[ProviderConfig]
    schema: ProviderSchema | None
    #: The aws provider executable init installed (what a reattached provider runs).
    provider: Path | None = None
    #: ``provider "aws"`` blocks of called modules, by directory relative to the module.
    nested: dict[str, list[ProviderConfig]] = field(default_factory=dict)

    @property
    def providers(self) -> dict[str, str]:
        """The provider versions init selected, by address (read from the lock file)."""
        return locked_providers(self.root / self.subdir / ".terraform.lock.hcl")

    def instantiate(self, dest: Path, endpoint: str, variables: dict[str, Any] | None) -> Path:
        """Copy into ``dest`` and point it at ``endpoint``; return the working dir."""
        shutil.copytree(self.root, dest, symlinks=True)
        workdir = dest / self.subdir
        self.point(workdir, endpoint)
        if variables:
            (workdir / VARS_FILE).write_text(json.dumps(variables, indent=2))
        return workdir

    def point(self, workdir: Path, endpoint: str, access_key: str = TERRAFORM_ACCESS_KEY) -> None:
        """(Re)write the provider override of a copy in ``workdir``: ``endpoint``, signed
        with ``access_key``."""
        if self.schema is None:
            return
        override, extra = provider_override(endpoint, self.configs, self.schema, access_key)
        (workdir / OVERRIDE_FILE).write_text(override)
        if extra:
            (workdir / PROVIDER_FILE).write_text(extra)
        elif (workdir / PROVIDER_FILE).exists():
            (workdir / PROVIDER_FILE).unlink()
        for directory, configs in self.nested.items():
            nested, _ = provider_override(endpoint, configs, self.schema, access_key)
            (workdir / directory / OVERRIDE_FILE).write_text(nested)


#: The state file a workspace's runs write (local state: every backend is overridden).
STATE_FILE = "terraform.tfstate"


class Workspace:
    """One Stack's workspace: its copy of a :class:`Template` (``workdir``, inside
    ``root``, the Stack's own directory), the variables written there, whether its
    state holds an apply of this configuration, and the runner of its terraform
    commands (its provider, CLI config, timeouts and egress guard)::

        stack.workspace.terraform("destroy", "-auto-approve", check=True)
        state = stack.workspace.read_state()
    """

    def __init__(
        self,
        template: Template,
        templates: Templates,
        *,
        root: Path,
        workdir: Path,
        variables: dict[str, Any],
        runner: Runner,
        endpoint: str,
        guard_env: Mapping[str, str],
    ) -> None:
        #: The initialised copy of the module this workspace was made from.
        self.template = template
        #: The session's templates (its toolchain, CLI config and plugin cache).
        self.templates = templates
        #: The Stack's own directory (``workdir`` is inside it).
        self.root = root
        #: Where terraform runs: the module's copy, pointed at the fault proxy.
        self.workdir = workdir
        #: The variable values written to :data:`VARS_FILE`.
        self.variables = variables
        #: Runs every terraform command of this workspace.
        self.runner = runner
        #: The state holds a successful apply of this configuration.
        self.applied = False
        self._endpoint = endpoint
        self._guard_env = dict(guard_env)

    @property
    def state_file(self) -> Path:
        """Where its runs keep their (local) state: ``workdir / "terraform.tfstate"``."""
        return self.workdir / STATE_FILE

    def read_state(self) -> dict[str, Any]:
        """The state file as terraform wrote it (``{}`` before any apply)."""
        return read_json(self.state_file)

    def terraform(self, cmd: str, *args: str, **options: Any) -> Completed:
        """Run one terraform command here: :meth:`.runner.Runner.run`'s arguments."""
        return self.runner.run(cmd, *args, **options)

    def note_applied(self) -> None:
        """An apply here succeeded (or, for a loop's cycle run outside the Stack's
        ``apply``, was tried): the state holds this configuration."""
        self.applied = True

    def set_variables(self, variables: Mapping[str, Any]) -> None:
        """Set variable values for the runs that follow (a change landing in the code)."""
        self.variables.update(variables)
        (self.workdir / VARS_FILE).write_text(json.dumps(self.variables, indent=2))

    def adopt_state(self, state_file: Path) -> None:
        """Make ``state_file`` (another workspace's, if it wrote one) this one's state:
        it holds no apply of this configuration yet."""
        if state_file.exists():
            shutil.copyfile(state_file, self.state_file)
        self.applied = False

    def clear_state(self) -> None:
        """Remove the state, its backup and lock: the start of a scenario."""
        for name in (STATE_FILE, f"{STATE_FILE}.backup", f".{STATE_FILE}.lock.info"):
            (self.workdir / name).unlink(missing_ok=True)
        self.applied = False

    def runner_for(self, workdir: Path, root: Path, *, guarded: bool = True) -> Runner:
        """A terraform runner for another workspace of the same Stack (an old revision's,
        a console change's scratch copy, in ``workdir`` under ``root``): the same engine,
        CLI config, endpoint and timeouts; its other hosts refused by the Stack's egress
        guard unless ``guarded`` is False."""
        env = {**self.templates.env(root), **sdk_endpoint(self._endpoint)}
        if guarded:
            env.update(self._guard_env)
        return Runner(self.templates.toolchain.command, workdir, env, self.runner.timeouts)

    def close(self, keep: bool = False) -> None:
        """Stop the runner's provider and (unless ``keep``) delete the Stack's directory."""
        self.runner.close()
        if not keep:
            shutil.rmtree(self.root, ignore_errors=True)


def _text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _save_template(template: Template) -> None:
    """Write the template's description last: its presence means the build finished."""
    schema = template.schema
    data = {
        "module": str(template.module),
        "subdir": str(template.subdir),
        "configs": [[c.alias, c.has_region] for c in template.configs],
        "schema": None
        if schema is None
        else {
            "version": schema.version,
            "attributes": sorted(schema.attributes),
            "endpoints": sorted(schema.endpoints),
        },
        "provider": str(template.provider) if template.provider else None,
        "nested": {
            d: [[c.alias, c.has_region] for c in configs] for d, configs in template.nested.items()
        },
    }
    meta = template.root / TEMPLATE_META
    tmp = meta.with_name(meta.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, meta)


def _load_template(root: Path, module: Path) -> Template | None:
    """A finished template in the cache, or None (absent, partial, or its provider is gone)."""
    try:
        data = json.loads((root / TEMPLATE_META).read_text())
        if data["module"] != str(module):
            return None
        provider = Path(data["provider"]) if data["provider"] else None
        if provider is not None and not provider.is_file():
            return None  # the plugin cache was emptied: init again
        subdir = Path(data["subdir"])
        workdir = root / subdir
        if provider is not None and provider_binary(workdir) != provider:
            return None
        schema = data["schema"]
        return Template(
            module,
            root,
            subdir,
            [ProviderConfig(alias, has_region) for alias, has_region in data["configs"]],
            None
            if schema is None
            else ProviderSchema(
                schema["version"],
                frozenset(schema["attributes"]),
                frozenset(schema["endpoints"]),
            ),
            provider,
            {
                d: [ProviderConfig(alias, has_region) for alias, has_region in configs]
                for d, configs in data["nested"].items()
            },
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _prune(cache: Path) -> None:
    """Remove cached templates unused for TEMPLATE_TTL_DAYS (best effort, never blocks)."""
    limit = time.time() - TEMPLATE_TTL_DAYS * 86400
    for meta in cache.glob(f"*/{TEMPLATE_META}"):
        with contextlib.suppress(OSError):
            if meta.stat().st_mtime < limit:
                lock = meta.parent.with_name(meta.parent.name + ".lock")
                with open(lock, "a") as handle:
                    try:
                        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except OSError:
                        continue  # in use right now
                    shutil.rmtree(meta.parent, ignore_errors=True)
                lock.unlink()


def _provider_missing(diags: list[Diagnostic], stderr: str) -> bool:
    text = " ".join(d.text for d in diags) + stderr
    return "provider" in text and (
        "no available releases" in text
        or "Failed to query" in text
        or "does not have a package" in text
        or "Failed to install provider" in text
    )


def locked_providers(lock_file: Path) -> dict[str, str]:
    """``{"registry.terraform.io/hashicorp/aws": "5.100.0"}``: what a lock file selected."""
    try:
        blocks = parse_file(lock_file)
    except (OSError, HclError):
        return {}
    return {
        b.labels[0]: version
        for b in blocks_of(blocks, "provider")
        if b.labels and isinstance(version := b.value("version", None), str)
    }


def _locked_version(lock_file: Path) -> str | None:
    return locked_providers(lock_file).get(AWS_ADDRESS)


def _missing_provider(text: str) -> str | None:
    """The provider an init diagnostic names (``... for provider hashicorp/aws: ...``)."""
    match = re.search(r"provider\s+((?:[\w.-]+/)?[\w-]+/[\w-]+)", text)
    return provider_address(match.group(1)) if match else None


def provider_constraints(module: Path, address: str) -> list[str]:
    """The version constraints the module and its local modules set on ``address``,
    each with its file and line: ``"~> 5.0" (versions.tf:4)``."""
    found: list[str] = []
    for directory in module_tree(module):
        for block in blocks_of(module_blocks(directory, "terraform"), "terraform"):
            for required in block.children("required_providers"):
                for name, attr in required.attributes.items():
                    value = attr.value
                    source = value.get("source", name) if isinstance(value, dict) else name
                    if not isinstance(source, str) or provider_address(source) != address:
                        continue
                    version = value.get("version") if isinstance(value, dict) else value
                    if isinstance(version, str) and version:
                        where = os.path.relpath(block.file or directory, module)
                        line = (
                            attr.entries["version"].line if "version" in attr.entries else attr.line
                        )
                        found.append(f'"{version}" ({where}:{line})')
    return found


def aws_major(providers: Mapping[str, str]) -> str | None:
    """The major version (``"5"``) of the aws provider in ``providers`` (address to
    version, as init locked them); None when the module locked none."""
    for address, version in providers.items():
        if address.endswith("hashicorp/aws"):
            return version.split(".", 1)[0]
    return None
