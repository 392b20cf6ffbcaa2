"""Before an apply: which planned resources the backend cannot serve, and what depends on them.

Pure: plain data in (terraform's plan JSON, the backend's served operations,
the operations each type makes), frozen results out::

    planned = planned_resources(plan_json)               # from resource_changes
    found = preflight(planned, served("moto"), lambda t: operations_of(t, "5"))
    for r in found.unservable:                           # r.operation never answered
        print(r.address, r.phase.value, r.service, r.operation)
    later = dependents(plan_json["configuration"], [r.address for r in found.unservable])

A resource is unservable when an operation its planned actions make is one
the backend does not serve (a service the backend has no code for at all
counts: every operation of it is missing). Types the operations data knows
nothing about are listed, not guessed. :func:`dependents` reads the
configuration terraform writes into a plan: each resource's expression
``references``, ``depends_on``, ``count``/``for_each``; a module output and a
module call's arguments are followed across modules. Terraform leaves
``locals`` out of that view, so a dependency only through a local is not seen.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .addresses import without_keys

__all__ = [
    "OperationsOf",
    "Phase",
    "PlannedResource",
    "Preflight",
    "ServedOperations",
    "Unservable",
    "config_address",
    "dependents",
    "planned_resources",
    "preflight",
]


class Phase(enum.Enum):
    """The step of a resource's lifecycle an operation belongs to."""

    CREATE = "create"
    READ = "read"
    UPDATE = "update"
    DELETE = "delete"


#: The phases a plan's actions run, in order (a replacement creates, reads, deletes).
_PHASES_OF: dict[str, tuple[Phase, ...]] = {
    "create": (Phase.CREATE, Phase.READ),
    "update": (Phase.UPDATE, Phase.READ),
    "delete": (Phase.DELETE,),
    "read": (Phase.READ,),
    "no-op": (Phase.READ,),
}


class ServedOperations(Protocol):
    """What a backend serves (:class:`pytest_converge.emulator.served.Served`)."""

    @property
    def services(self) -> frozenset[str]: ...

    def serves(self, service: str, operation: str) -> bool | None: ...


class TypeOperations(Protocol):
    """A type's operations per phase (:class:`pytest_converge.awsapi.ResourceOperations`)."""

    @property
    def service(self) -> str: ...

    def of(self, phase: str) -> tuple[str, ...]: ...


#: resource type -> its operations, the provider's major bound by the caller:
#: ``lambda t: operations_of(t, "5")``.
OperationsOf = Callable[[str], "TypeOperations | None"]


@dataclass(frozen=True)
class PlannedResource:
    """One entry of a plan's ``resource_changes``."""

    address: str
    type: str
    actions: tuple[str, ...]
    mode: str = "managed"


@dataclass(frozen=True)
class Unservable:
    """A planned resource the backend cannot serve: the first operation it would wait
    on forever (the provider retries it), and in which phase."""

    address: str
    type: str
    service: str
    operation: str
    phase: Phase
    #: The backend serves nothing of ``service`` (not only this operation).
    service_missing: bool = False


@dataclass(frozen=True)
class Preflight:
    """What a backend cannot serve of a plan, before it is applied."""

    unservable: tuple[Unservable, ...] = ()
    #: Managed resource types the operations data knows nothing about (not checked).
    unknown_types: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Nothing planned is known to be unservable."""
        return not self.unservable

    @property
    def addresses(self) -> frozenset[str]:
        """The unservable resources' addresses."""
        return frozenset(r.address for r in self.unservable)

    def words(self, backend: str) -> str:
        """``moto cannot serve aws_x.y (svc:Op), ...``: the line a user reads first."""
        named = ", ".join(f"{r.address} ({r.service}:{r.operation})" for r in self.unservable)
        return f"{backend} cannot serve {named}" if named else f"{backend} serves every part"


def planned_resources(plan: Mapping[str, Any]) -> list[PlannedResource]:
    """The ``resource_changes`` of terraform's plan JSON (``terraform show -json``)."""
    return [
        PlannedResource(
            change["address"],
            change["type"],
            tuple(change.get("change", {}).get("actions", ())),
            change.get("mode", "managed"),
        )
        for change in plan.get("resource_changes", ())
    ]


def preflight(
    planned: Iterable[PlannedResource],
    served: ServedOperations,
    operations_of: OperationsOf,
) -> Preflight:
    """The planned resources ``served`` cannot serve, and the types not known.

    A backend with no data (``served.services`` empty) can serve anything, as
    far as this can tell. Data sources are checked by their resource type's
    read, and skipped when it is not known.
    """
    unservable: list[Unservable] = []
    unknown: set[str] = set()
    for resource in planned:
        phases = [p for a in resource.actions for p in _PHASES_OF.get(a, ())]
        if resource.mode == "data":
            phases = [Phase.READ]
        if not phases:
            continue
        operations = operations_of(resource.type)
        if operations is None:
            if resource.mode != "data":
                unknown.add(resource.type)
            continue
        missing = _first_missing(resource, operations, dict.fromkeys(phases), served)
        if missing is not None:
            unservable.append(missing)
    return Preflight(tuple(unservable), tuple(sorted(unknown)))


def _first_missing(
    resource: PlannedResource,
    operations: TypeOperations,
    phases: Iterable[Phase],
    served: ServedOperations,
) -> Unservable | None:
    service = operations.service
    for phase in phases:
        for operation in operations.of(phase.value):
            answer = served.serves(service, operation)
            whole = answer is None and bool(served.services) and service not in served.services
            if answer is False or whole:
                return Unservable(resource.address, resource.type, service, operation, phase, whole)
    return None


# -- dependents ------------------------------------------------------------------
#: Reference roots that name no object of the configuration.
_NOT_OBJECTS = {"each", "count", "path", "self", "terraform", "local"}


def config_address(address: str) -> str:
    """An instance's address as its configuration's: ``module.a["x"].aws_s3_bucket.b[0]``
    -> ``module.a.aws_s3_bucket.b``."""
    return without_keys(address)


@dataclass(frozen=True)
class _Module:
    path: str  # "" or "module.a.module.b."
    body: Mapping[str, Any]
    call: Mapping[str, Any]  # the module call that made it ({} for the root)
    parent: _Module | None


def _modules(root: Mapping[str, Any]) -> Iterator[_Module]:
    stack = [_Module("", root, {}, None)]
    while stack:
        module = stack.pop()
        yield module
        for name, call in sorted(module.body.get("module_calls", {}).items()):
            stack.append(
                _Module(f"{module.path}module.{name}.", call.get("module", {}), call, module)
            )


def _references(value: Any) -> Iterator[str]:
    """Every reference in an expression tree (nested blocks included)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "references" and isinstance(item, list):
                yield from (r for r in item if isinstance(r, str))
            else:
                yield from _references(item)
    elif isinstance(value, list):
        for item in value:
            yield from _references(item)


def _resource_of(reference: str) -> str | None:
    """``aws_vpc.main.id`` -> ``aws_vpc.main``; ``data.aws_ami.x.id`` -> ``data.aws_ami.x``."""
    parts = config_address(reference).split(".")
    if parts[0] == "data":
        return ".".join(parts[:3]) if len(parts) >= 3 else None
    if parts[0] in _NOT_OBJECTS or parts[0] in ("var", "module") or len(parts) < 2:
        return None
    return ".".join(parts[:2])


class _Graph:
    """Which configuration objects each resource's configuration reads."""

    def __init__(self, configuration: Mapping[str, Any]) -> None:
        self.modules = {m.path: m for m in _modules(configuration.get("root_module", {}))}
        self.resources: dict[str, tuple[_Module, Mapping[str, Any]]] = {}
        for module in self.modules.values():
            for resource in module.body.get("resources", ()):
                self.resources[module.path + resource["address"]] = (module, resource)

    def inside(self, path: str) -> list[str]:
        """Every resource in the module at ``path`` and the modules it calls."""
        return [a for a in self.resources if a.startswith(path)]

    def needs(self, address: str) -> set[str]:
        """The resources ``address``'s configuration reads, directly or through
        variables, outputs and module calls (not through other resources)."""
        module, resource = self.resources[address]
        found: set[str] = set()
        seen: set[tuple[str, str]] = set()
        self._follow(module, self._own_references(resource), found, seen)
        # Everything in a module waits on its calls' count, for_each and depends_on.
        while module.parent is not None:
            call = module.call
            refs = list(_references(call.get("count_expression")))
            refs += _references(call.get("for_each_expression"))
            refs += call.get("depends_on", ())
            self._follow(module.parent, refs, found, seen)
            module = module.parent
        found.discard(address)
        return found

    @staticmethod
    def _own_references(resource: Mapping[str, Any]) -> list[str]:
        refs = list(_references(resource.get("expressions", {})))
        refs += _references(resource.get("count_expression"))
        refs += _references(resource.get("for_each_expression"))
        refs += resource.get("depends_on", ())
        return refs

    def _follow(
        self,
        module: _Module,
        references: Iterable[str],
        found: set[str],
        seen: set[tuple[str, str]],
    ) -> None:
        references = list(references)
        # ``module.net.name`` comes with a bare ``module.net``: only the output is read.
        paths = [config_address(r).split(".") for r in references]
        specific = {p[1] for p in paths if p[0] == "module" and len(p) > 2}
        for reference in references:
            if (module.path, reference) in seen:
                continue
            seen.add((module.path, reference))
            parts = config_address(reference).split(".")
            if parts[0] == "var" and len(parts) > 1 and module.parent is not None:
                argument = module.call.get("expressions", {}).get(parts[1])
                self._follow(module.parent, _references(argument), found, seen)
            elif parts[0] == "module" and len(parts) > 1:
                child = self.modules.get(f"{module.path}module.{parts[1]}.")
                if child is None:
                    continue
                if len(parts) > 2:
                    output = child.body.get("outputs", {}).get(parts[2], {})
                    refs = list(_references(output.get("expression")))
                    self._follow(child, refs + list(output.get("depends_on", ())), found, seen)
                elif parts[1] not in specific:  # the whole module: depends_on, a bare use
                    found.update(self.inside(child.path))
            else:
                target = _resource_of(reference)
                if target is not None and module.path + target in self.resources:
                    found.add(module.path + target)


def dependents(configuration: Mapping[str, Any], addresses: Iterable[str]) -> set[str]:
    """Every resource that depends on one of ``addresses`` (instance addresses are
    fine), directly or through others; not those given. As configuration addresses
    (``module.cache.aws_elasticache_replication_group.this``; a data source as
    ``module.cache.data.aws_iam_policy_document.d``)."""
    graph = _Graph(configuration)
    needed_by: dict[str, set[str]] = {}
    for address in graph.resources:
        for need in graph.needs(address):
            needed_by.setdefault(need, set()).add(address)
    start = {config_address(a) for a in addresses}
    found: set[str] = set()
    todo: Sequence[str] = sorted(start)
    while todo:
        following: list[str] = []
        for address in todo:
            for user in needed_by.get(address, ()):
                if user not in found and user not in start:
                    found.add(user)
                    following.append(user)
        todo = following
    return found
