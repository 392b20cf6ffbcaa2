"""Write which AWS operations MiniStack serves, per botocore service, to ``served/ministack.json``.

Run by MiniStack's own interpreter (it pins botocore exactly, so it is not importable
beside the plugin), with this file's path::

    ~/.cache/pytest-converge/ministack/1.5.33/bin/python scripts/ministack_operations.py
    ~/.cache/pytest-converge/ministack/1.5.33/bin/python scripts/ministack_operations.py --check

Read from MiniStack's own dispatch, not from its documentation, in its two steps:

1. **Which service gets a request.** Every operation of every botocore service is
   serialized by MiniStack's botocore, signed and sent to a loopback endpoint as the
   plugin's proxy sends it (captured before it leaves), and MiniStack's
   ``router.detect_service`` names the ``SERVICE_REGISTRY`` entry it reaches. A
   botocore service counts as MiniStack's when its requests reach an entry spelled
   as its name or endpoint prefix, or as its signing name when the entry has a module
   of the service's name (``ses``'s ``ses_v2``; see :func:`_entries`, and
   :data:`_ALSO_NAMED` for the three MiniStack serves under another name). S3, the
   router's fallback for any path it does not know, takes no other service's.
   A service whose requests botocore cannot make here (SigV4A needs awscrt) is
   taken whole by the entry named after it.
2. **Which operations that service's module routes to code.** A service whose
   protocol names the operation in the request (query, ec2, json, cbor: ``Action``
   or ``X-Amz-Target``) hands it to a table in its module's ``handle_request``: a
   module-level dict (EC2's ``_ACTION_MAP``), a dict built in the function (ECR's
   ``handlers``), or ``if action == ...`` (STS). Every string those name (the
   function's constants, its nested functions', the keys of the module dicts it
   reads, and of the functions of the module it calls) that is one of the
   service's operations is served; an operation the router gives the service and
   the table does not name is not.
   A REST service (rest-json, rest-xml: the operation is the HTTP method and path)
   matches paths with regular expressions in code, which this does not read: its
   operations the router gives it are ``unlisted`` (served as far as the data can
   tell), all of them ``whole``. So is an action-named service whose table names
   none of its operations. Services that share a signing name and an endpoint
   (``elb`` and ``elbv2``, ``neptune`` and ``rds``) reach the same table: an operation
   both name is served by the other's code.

The fidelity layer (``pytest_converge/emulator/ministack_fidelity``) is installed the
way the plugin's boot installs it (loaded by path, its ``install()``), and the
operations it adds to a table are listed under ``fidelity`` (none in 1.5.33: its
behaviours replace handlers, they route no new operation). The format is
``data/served/moto.json``'s, read by :mod:`pytest_converge.emulator.served`;
``tests/unit/test_served_ministack.py`` runs ``--check`` when MiniStack is installed.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import inspect
import os
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import served_file

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_converge"
DATA = PACKAGE / "data" / "served" / "ministack.json"
FORMAT = served_file.FORMAT

#: Where the captured requests claim to go: a loopback endpoint, as the plugin's proxy.
ENDPOINT = "http://127.0.0.1:4566"
#: botocore protocols whose operation is the HTTP method and path.
_REST = ("rest-json", "rest-xml")
#: How deep the functions ``handle_request`` calls are read for its table.
_DEPTH = 2


class _Captured(Exception):
    def __init__(self, request: Any) -> None:
        super().__init__()
        self.request = request


def _capture(request: Any, **_: Any) -> None:
    raise _Captured(request)


@functools.cache
def _session() -> Any:
    import botocore.session

    session = botocore.session.Session()
    session.set_credentials("AKIAIOSFODNN7EXAMPLE", "secret")
    return session


def _dummy(shape: Any, depth: int = 0) -> Any:
    """A value of ``shape`` with its required members (enough to serialize a request)."""
    kind = getattr(shape, "type_name", "string")
    if kind == "structure":
        if depth > 4:
            return {}
        members = shape.members
        return {m: _dummy(members[m], depth + 1) for m in shape.required_members}
    return {
        "list": [],
        "map": {},
        "integer": 1,
        "long": 1,
        "boolean": False,
        "double": 1.0,
        "float": 1.0,
        "timestamp": 0,
        "blob": b"x",
    }.get(kind, "x")


def _requests(service: str) -> dict[str, tuple[str, str, dict[str, str], dict[str, Any]]]:
    """operation -> (method, path, headers, query and form params) of the request MiniStack's
    botocore makes for it, signed, against :data:`ENDPOINT`."""
    from botocore.config import Config

    config = Config(
        parameter_validation=False,
        retries={"max_attempts": 0},
        inject_host_prefix=False,
        s3={"addressing_style": "path"},
    )
    try:
        client = _session().create_client(
            service, region_name="us-east-1", endpoint_url=ENDPOINT, config=config
        )
    except Exception:
        return {}
    client.meta.events.register("before-send", _capture)
    model = client.meta.service_model
    names = {v: k for k, v in client.meta.method_to_api_mapping.items()}
    found = {}
    for operation in model.operation_names:
        shape = model.operation_model(operation).input_shape
        params = _dummy(shape) if shape is not None else {}
        try:
            getattr(client, names[operation])(**params)
        except _Captured as captured:
            request = captured.request
        except Exception:
            continue
        url = urlsplit(request.url)
        headers = {k.lower(): _text(v) for k, v in request.headers.items()}
        headers["host"] = url.netloc
        query: dict[str, Any] = parse_qs(url.query, keep_blank_values=True)
        body = request.body
        if isinstance(body, bytes | str) and "x-www-form-urlencoded" in headers.get(
            "content-type", ""
        ):
            form = parse_qs(_text(body), keep_blank_values=True)
            query = {**form, **query}
        found[operation] = (request.method, url.path or "/", headers, query)
    return found


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


@functools.cache
def _model(service: str) -> Any:
    import botocore.loaders

    return botocore.loaders.create_loader().load_service_model(service, "service-2")


#: botocore services MiniStack serves under a registry entry they do not name: DocumentDB
#: (the aws provider's and MiniStack's ``documentdb``), S3 Control (``app.py``'s
#: ``_handle_s3_control_request`` behind the ``s3`` scope) and AgentCore's control plane
#: (``bedrock_agentcore.py`` serves both, its registry comment says).
_ALSO_NAMED = {
    "docdb": "documentdb",
    "s3control": "s3",
    "bedrock-agentcore-control": "bedrock-agentcore",
}
#: Parameters the router reads to tell a request of one service from another's of the
#: same signing name: DocumentDB's signs as ``rds``, and ``Engine=docdb`` claims it.
_HINTS = {"docdb": {"Engine": ["docdb"]}}


def _entries(service: str) -> set[str]:
    """The SERVICE_REGISTRY entries a botocore service's requests may reach: one spelled
    (name or alias) as its name or endpoint prefix; one by its signing name only when the
    entry has a module of the service's name (``ses``'s ``ses_v2`` serves ``sesv2``).
    Signing names are shared (Amazon Connect's participant API signs as ``execute-api``,
    Mail Manager as ``ses``): a request reaching an entry by one alone reaches code
    written for another service."""
    from ministack.app import SERVICE_REGISTRY

    meta = _model(service)["metadata"]
    strict = {service, meta.get("endpointPrefix", ""), _ALSO_NAMED.get(service, "")}
    strict = {n.lower() for n in strict if n}
    signing = (meta.get("signingName") or "").lower()
    found = set()
    for entry, config in SERVICE_REGISTRY.items():
        spelled = {entry, *config.get("aliases", ())}
        modules = {m.replace("_", "") for m in (config["module"], *config.get("sub_modules", ()))}
        if strict & spelled or (signing in spelled and service.replace("-", "") in modules):
            found.add(entry)
    return found


def _module_of(entry: str) -> str | None:
    """The module an entry's requests reach (``appconfigdata``'s is ``appconfig``'s)."""
    from ministack.app import SERVICE_REGISTRY

    config = SERVICE_REGISTRY.get(entry)
    return None if config is None else str(config["module"])


def _routes() -> dict[str, dict[str, str]]:
    """botocore service -> {operation: the SERVICE_REGISTRY entry MiniStack's router
    sends it to}, for the entries that may serve it (:func:`_entries`)."""
    import botocore.loaders
    from ministack.core.router import detect_service

    found: dict[str, dict[str, str]] = {}
    for service in sorted(botocore.loaders.create_loader().list_available_services("service-2")):
        entries = _entries(service)
        if not entries:
            continue
        requests = _requests(service)
        if not requests:
            # botocore cannot make its requests here (CloudFront KeyValueStore signs with
            # SigV4A, which needs awscrt): the entry named after it is taken to get them.
            entry = min(entries)
            found[service] = dict.fromkeys(_model(service)["operations"], entry)
            continue
        routed: dict[str, str] = {}
        for operation, (method, path, headers, query) in requests.items():
            query = {**query, **_HINTS.get(service, {})}
            try:
                entry = detect_service(method, path, headers, query)
            except Exception:
                continue
            if entry in entries or _module_of(entry) in {_module_of(e) for e in entries}:
                routed[operation] = entry
        if routed:
            found[service] = routed
    return found


def _modules(entry: str) -> list[types.ModuleType]:
    """The service modules of a SERVICE_REGISTRY entry (its own, then its sub-modules)."""
    from ministack.app import SERVICE_REGISTRY

    config = SERVICE_REGISTRY[entry]
    return [
        importlib.import_module(f"ministack.services.{name}")
        for name in (config["module"], *config.get("sub_modules", ()))
    ]


def _codes(code: types.CodeType) -> list[types.CodeType]:
    """A code object and every one nested in it (closures, comprehensions)."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found.extend(_codes(const))
    return found


def _strings(consts: Any) -> set[str]:
    """The strings among a code object's constants: a dict literal's keys are one tuple."""
    found: set[str] = set()
    for const in consts:
        if isinstance(const, str):
            found.add(const)
        elif isinstance(const, (tuple, frozenset)):
            found |= _strings(const)
    return found


def _table(module: types.ModuleType) -> set[str] | None:
    """Every string ``module.handle_request`` names as it dispatches (see the module
    docstring); None when the module has no ``handle_request``."""
    handler = getattr(module, "handle_request", None)
    if not callable(handler):
        return None
    strings: set[str] = set()
    seen: set[int] = set()

    def read(function: Any, depth: int) -> None:
        function = inspect.unwrap(function)
        code = getattr(function, "__code__", None)
        if code is None or id(code) in seen:
            return
        seen.add(id(code))
        space = getattr(function, "__globals__", {})
        for part in _codes(code):
            strings.update(_strings(part.co_consts))
            for name in part.co_names:
                value = space.get(name)
                if isinstance(value, dict):
                    strings.update(k for k in value if isinstance(k, str))
                elif isinstance(value, (set, frozenset, tuple, list)):
                    strings.update(k for k in value if isinstance(k, str))
                elif (
                    depth < _DEPTH
                    and inspect.isfunction(value)
                    and value.__module__ == function.__module__
                ):
                    read(value, depth + 1)

    read(handler, 0)
    return strings


def analyse() -> dict[str, dict[str, Any]]:
    """botocore service -> ``{"operations", "unlisted", "whole"}`` as MiniStack routes them now."""
    found: dict[str, dict[str, Any]] = {}
    for service, routed in sorted(_ROUTES().items()):
        model = _model(service)
        every = set(model["operations"])
        rest = model["metadata"].get("protocol") in _REST
        served: set[str] = set()
        unlisted: set[str] = set()
        for entry, operations in _by_entry(routed).items():
            tables = [t for m in _modules(entry) if (t := _table(m)) is not None]
            named = set().union(*tables) & every if tables else set()
            if rest or not named:
                unlisted |= operations
            else:
                served |= operations & named
        if not served and not unlisted:
            continue
        whole = not served and unlisted == every
        found[service] = {
            "operations": sorted(served),
            "unlisted": [] if whole else sorted(unlisted),
        }
        if whole:
            found[service]["whole"] = True
    return found


def _by_entry(routed: dict[str, str]) -> dict[str, set[str]]:
    grouped: dict[str, set[str]] = {}
    for operation, entry in routed.items():
        grouped.setdefault(entry, set()).add(operation)
    return grouped


#: The routing of every service's operations: the fidelity layer changes no routing,
#: so it is read once.
_ROUTES = functools.cache(_routes)


def _load_fidelity() -> Any:
    """MiniStack's fidelity package, loaded by path as the plugin's boot loads it."""
    here = PACKAGE / "emulator" / "ministack_fidelity"
    spec = importlib.util.spec_from_file_location(
        "converge_ministack_fidelity", here / "__init__.py", submodule_search_locations=[str(here)]
    )
    assert spec is not None and spec.loader is not None
    layer = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = layer
    spec.loader.exec_module(layer)
    return layer


def build() -> dict[str, Any]:
    """The data file's content: MiniStack alone, then with the fidelity layer installed."""
    return served_file.build("ministack", analyse, lambda: _load_fidelity().install())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--output", type=Path, default=DATA)
    args = parser.parse_args(argv)
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    # The user's AWS config and a fidelity layer turned off belong to no data file.
    for name in (
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
        "AWS_CONFIG_FILE",
        "CONVERGE_MINISTACK_FIDELITY_OFF",
        "SERVICES",
    ):
        os.environ.pop(name, None)
    data = build()
    status = served_file.write_or_check(served_file.render(data), args.output, args.check, __file__)
    if status or args.check:
        return status
    counts = Counter("whole" if e.get("whole") else "listed" for e in data["services"].values())
    listed = sum(len(e["operations"]) for e in data["services"].values())
    print(
        f"{args.output}: ministack {data['version']}: {len(data['services'])} services "
        f"({counts['listed']} listed, {counts['whole']} whole), {listed} operations listed"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
