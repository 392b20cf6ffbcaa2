"""The AWS API's own model (botocore's service models): what a terraform attribute is sent as.

A provider attribute is sent as a member of a create/update/put operation's
input, named the same in another case style (``on_demand_throughput`` ->
``OnDemandThroughput`` of ``CreateTable``/``UpdateTable``), a nested block as a
nested shape, a list as a plural or singular name (``subnet_ids`` ->
``SubnetIds``), and a name as the resource's noun plus the attribute
(``aws_sqs_queue.name`` -> ``QueueName``)::

    >>> [m.dotted for m in api_members("aws_dynamodb_table", "on_demand_throughput")]
    ['OnDemandThroughput']

Only those renamings are tried: an attribute with no such member has none
(nothing is guessed). The service is the type's own (the one rule), the services
then the services the resource's apply called.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..analysis.model_gaps import ApiMember
from .operations import service_of

__all__ = [
    "ReadPath",
    "allowed_values",
    "api_members",
    "endpoint_prefix",
    "known_service",
    "operation_http",
    "operation_input",
    "protocol",
    "read_paths",
    "services_of",
]

#: Verbs of the operations that read a resource back.
READING_VERBS = ("Describe", "Get", "List")
#: How deep an output shape is searched for a member (Reservations.Instances.X is 3).
_OUTPUT_DEPTH = 4

#: Verbs of the operations that send a resource's settings.
MUTATING_VERBS = (
    "Create",
    "Update",
    "Put",
    "Modify",
    "Set",
    "Register",
    "Run",
    "Add",
    "Associate",
    "Enable",
    "Attach",
    "Authorize",
    "Allocate",
    "Import",
    "Replace",
    "Request",
    "Tag",
)


@lru_cache(maxsize=1)
def _loader() -> Any:
    # botocore's data files only: a botocore Session would read the user's AWS config
    # and fail on an AWS_PROFILE it does not find (ProfileNotFound), and nothing here
    # needs a profile, a region or credentials.
    import botocore.loaders

    return botocore.loaders.create_loader()


@lru_cache(maxsize=1)
def _available() -> frozenset[str]:
    return frozenset(_loader().list_available_services("service-2"))


@lru_cache(maxsize=64)
def _model(service: str) -> Any:
    if service not in _available():
        return None
    try:
        from botocore.model import ServiceModel

        return ServiceModel(_loader().load_service_model(service, "service-2"), service)
    except Exception:  # a model botocore lists and cannot load: no member known
        return None


def known_service(service: str) -> bool:
    """botocore has a model of ``service`` (its own name, e.g. ``application-autoscaling``)."""
    return service in _available()


def endpoint_prefix(service: str) -> str:
    """The service's endpoint prefix (``application-autoscaling``), or its name."""
    model = _model(service)
    return str(model.metadata.get("endpointPrefix") or service) if model else service


def services_of(resource_type: str, called: Iterable[str] = ()) -> list[str]:
    """botocore services a resource type's settings are sent to, best first.

    The type's own (the one rule, :func:`.operations.service_of`), then those of
    ``called`` (the services its apply called) that botocore knows.
    """
    found: list[str] = []
    own = service_of(resource_type)
    if own is not None:
        found.append(own.name)
    found.extend(s for s in called if s in _available())
    return list(dict.fromkeys(found))


def api_members(
    resource_type: str,
    attribute: str,
    services: Sequence[str] | None = None,
    operations: Iterable[str] = (),
) -> list[ApiMember]:
    """The API members ``attribute`` (a plan path, indices left out) is sent as.

    One per service and member path, with every mutating operation of the
    resource that carries it: those named after the resource's noun (``Table``
    for ``aws_dynamodb_table``) and ``operations`` (the ones its apply called).
    """
    parts = [p for p in re.sub(r"\[[^\]]*\]", "", attribute).split(".") if p]
    if not parts:
        return []
    found: list[ApiMember] = []
    for service in services if services is not None else services_of(resource_type):
        model = _model(service)
        if model is None:
            continue
        by_path: dict[tuple[str, ...], list[str]] = {}
        shapes: dict[tuple[str, ...], Any] = {}
        for name in _resource_operations(model, resource_type, operations):
            shape = model.operation_model(name).input_shape
            path = _member_path(shape, parts, _nouns(resource_type))
            if path:
                by_path.setdefault(path, []).append(name)
                shapes.setdefault(path, shape)
        for path, names in by_path.items():
            shape = shapes[path]
            wire = shape.members[path[0]].serialization.get("name") or ""
            found.append(
                ApiMember(service, tuple(names), path, shape.name, "" if wire == path[0] else wire)
            )
    return found


def _nouns(resource_type: str) -> list[str]:
    """The type's noun in its longer and shorter forms: ``aws_cloudwatch_log_group`` ->
    ``cloudwatchloggroup``, ``loggroup``, ``group``."""
    words = resource_type.removeprefix("aws_").split("_")
    return ["".join(words[i:]) for i in range(len(words))]


def _resource_operations(model: Any, resource_type: str, called: Iterable[str]) -> list[str]:
    """The mutating operations about the resource: named after its longest noun that
    names any, plus those its apply called."""
    mutating = [
        n
        for n in model.operation_names
        if n.startswith(MUTATING_VERBS) and model.operation_model(n).input_shape is not None
    ]
    chosen: list[str] = []
    for noun in _nouns(resource_type):
        chosen = [n for n in mutating if noun in n.lower()]
        if chosen:
            break
    wanted = set(called)
    chosen.extend(n for n in mutating if n in wanted and n not in chosen)
    return chosen


def _member_path(shape: Any, parts: Sequence[str], nouns: Sequence[str]) -> tuple[str, ...]:
    """The member names ``parts`` lead to from ``shape`` (as far as they match; empty
    when the first does not)."""
    path: list[str] = []
    for i, part in enumerate(parts):
        shape = _element(shape)
        members = getattr(shape, "members", None)
        if not members:
            break
        name = _matching_member(members, part, nouns if i == 0 else ())
        if name is None:
            break
        path.append(name)
        shape = members[name]
    return tuple(path)


def _element(shape: Any) -> Any:
    """A list's element shape (nested blocks are lists of structures); else ``shape``."""
    while getattr(shape, "type_name", "") == "list":
        shape = shape.member
    return shape


def _matching_member(members: Any, attribute: str, nouns: Sequence[str]) -> str | None:
    """The member named ``attribute`` in another case style, as a plural or singular,
    or as a noun of the resource followed by it (``name`` -> ``QueueName``)."""
    want = attribute.replace("_", "").lower()
    forms = {want, want + "s", want.removesuffix("s")}
    if want.endswith("ies"):
        forms.add(want[:-3] + "y")
    exact = [m for m in members if m.lower() in forms]
    if exact:
        return exact[0]
    prefixed = [m for m in members for noun in nouns if m.lower() == noun + want]
    return prefixed[0] if prefixed else None


def operation_input(service: str, operation: str) -> Any:
    """The input shape of ``service``'s ``operation`` (None: unknown)."""
    model = _model(service)
    if model is None or operation not in model.operation_names:
        return None
    return model.operation_model(operation).input_shape


#: Values a member's documentation lists: ``<code>aws:ssm:integration</code>``.
_CODE = re.compile(r"<code>([^<]{1,80})</code>")


def allowed_values(service: str, operation: str, member: str) -> frozenset[str]:
    """The values botocore's model lists for ``member`` (a flattened name as sent,
    ``DataType`` or ``Tags.member.1.Key``) of ``operation``: its enum, or the values
    its documentation quotes. Empty when it lists none."""
    shape = operation_input(service, operation)
    for part in member.split("."):
        shape = _element(shape)
        members = getattr(shape, "members", None) or {}
        if part in members:
            shape = members[part]
        elif not part.isdigit() and part != "member":
            return frozenset()
    if shape is None:
        return frozenset()
    values = set(getattr(shape, "enum", None) or ())
    values.update(_CODE.findall(getattr(shape, "documentation", "") or ""))
    return frozenset(values)


def protocol(service: str) -> str:
    """The service's wire protocol (``query``, ``ec2``, ``json``, ``rest-json``,
    ``rest-xml``); empty when botocore has no model of it."""
    model = _model(service)
    return str(model.metadata.get("protocol") or "") if model else ""


def operation_http(service: str, operation: str) -> dict[str, Any] | None:
    """The operation's ``http`` trait (``method``, ``requestUri``); None: unknown."""
    model = _model(service)
    if model is None or operation not in model.operation_names:
        return None
    return dict(model.operation_model(operation).http)


@dataclass(frozen=True)
class ReadPath:
    """Where a read operation's answer carries a member (botocore's output shape)."""

    service: str
    #: ``DescribeInstances``.
    operation: str
    #: Member names from the output shape down: ``("Reservations", "Instances",
    #: "EnclaveOptions")``.
    path: tuple[str, ...]
    #: The structure shapes that hold each step, outermost first, the output shape left
    #: out: ``("Reservation", "Instance")``; what moto's objects are named after.
    parents: tuple[str, ...]
    #: Other names the member may be read by: its shape's name, its name on the wire.
    aliases: tuple[str, ...] = ()

    def describe(self) -> str:
        """``DescribeInstances Reservations.Instances.EnclaveOptions``."""
        return f"{self.operation} {'.'.join(self.path)}"


def read_paths(
    resource_type: str, member: ApiMember, operations: Iterable[str] = ()
) -> list[ReadPath]:
    """The read operations whose answer carries ``member`` (by its top name), with the path.

    The reads are those of ``operations`` (a resource's calls) and those named after
    the resource's noun (``DescribeInstances`` for ``aws_instance``); the member is
    found by name anywhere in the output shape, a few levels deep.
    """
    model = _model(member.service)
    if model is None:
        return []
    reads = [n for n in model.operation_names if n.startswith(READING_VERBS)]
    wanted = set(operations)
    chosen = [n for n in reads if n in wanted]
    for noun in _nouns(resource_type):
        named = [n for n in reads if n.lower().endswith((noun, noun + "s", noun + "es"))]
        if named:
            chosen.extend(n for n in named if n not in chosen)
            break
    names = {member.path[0].lower(), member.wire.lower()} - {""}
    found = []
    for name in chosen:
        shape = model.operation_model(name).output_shape
        hit = _find_member(shape, names, (), (), _OUTPUT_DEPTH) if shape is not None else None
        if hit is not None:
            found.append(ReadPath(member.service, name, *hit))
    return found


def _find_member(
    shape: Any, names: set[str], path: tuple[str, ...], parents: tuple[str, ...], depth: int
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """The first (shallowest) path to a member named one of ``names``, its holders, and
    the member's other names (shape name, wire name)."""
    shape = _element(shape)
    members = getattr(shape, "members", None)
    if not members or depth == 0:
        return None
    holders = (*parents, shape.name) if path else parents
    for key, sub in members.items():
        if key.lower() in names:
            wire = sub.serialization.get("name") or ""
            aliases = tuple(dict.fromkeys(a for a in (sub.name, wire) if a and a != key))
            return (*path, key), holders, aliases
    for key, sub in members.items():
        found = _find_member(sub, names, (*path, key), holders, depth - 1)
        if found is not None:
            return found
    return None
