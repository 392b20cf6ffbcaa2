"""What the API's model and the emulator's source say about a run's findings.

The facts :mod:`.analysis.model_gaps` marks suspected emulator gaps from,
looked up here (botocore's service models through :mod:`.model`, moto's
source through :class:`.emulator.moto_source.SourceIndex`) and handed over as
plain :class:`~.analysis.model_gaps.ModelFacts`::

    facts = model_facts(defects, emulator, calls)      # None: nothing to look up
    mark_emulator_gaps(defects, ..., model=facts)

Only moto has a source index: other emulators get no facts (their findings
keep the catalogue and ``--converge-confirm-with`` as evidence).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ..analysis.defects import Defect
from ..analysis.gaps import emulator_version, resource_type
from ..analysis.model_gaps import (
    ApiMember,
    AttributeFacts,
    ModelFacts,
    Refusal,
    RefusedParameter,
    is_validation_error,
    model_questions,
)
from ..awsapi.model import (
    allowed_values,
    api_members,
    endpoint_prefix,
    known_service,
    read_paths,
    services_of,
)
from .moto_source import SourceIndex, normalise

if TYPE_CHECKING:
    from ..faults import Call
    from .base import Emulator

__all__ = ["model_facts", "refusal_facts", "source_index"]


@lru_cache(maxsize=1)
def source_index() -> SourceIndex:
    """The installed moto's source index (one per process; its words are cached on disk)."""
    return SourceIndex()


def model_facts(
    defects: Sequence[Defect], emulator: Emulator, calls: Sequence[Call] = ()
) -> ModelFacts | None:
    """The facts about ``defects`` and the refused ``calls``, or None (not moto, or
    nothing to look up). ``calls`` are the run's, for the operations each resource's
    apply made and the calls the emulator refused."""
    if getattr(emulator, "name", emulator) != "moto":
        return None
    questions = model_questions(defects)
    refused = [c for c in calls if c.refused]
    if not questions and not refused:
        return None
    index = source_index()
    attributes = []
    for rtype, attribute in questions:
        located = [c for c in calls if c.address and resource_type(c.address) == rtype]
        attributes.extend(
            _attribute_facts(
                index,
                rtype,
                attribute,
                services_of(rtype, {c.service for c in located}),
                {c.operation for c in located},
            )
        )
    return ModelFacts(
        "moto",
        emulator_version(emulator),
        tuple(attributes),
        tuple(_refusal(index, c) for c in refused),
    )


def refusal_facts(emulator: Emulator, calls: Sequence[Call]) -> ModelFacts | None:
    """The facts about the calls the emulator refused (for a failed run's error)."""
    return model_facts([], emulator, calls)


def _attribute_facts(
    index: SourceIndex,
    rtype: str,
    attribute: str,
    services: Sequence[str],
    operations: Iterable[str],
) -> list[AttributeFacts]:
    """One fact per API member the attribute is sent as, in a service moto has.

    A member moto's service never names is never read; one it names is still lost
    when the read that brings it back (``DescribeInstances``) answers without it."""
    found = []
    operations = list(operations)
    for member in api_members(rtype, attribute, services, operations):
        package = index.package_of(member.service, endpoint_prefix(member.service))
        if package is None:
            continue  # moto has no such service: a call to it fails on its own
        carried = any(index.mentions(package, n) for n in (member.path[0], member.wire) if n)
        read = ""
        if carried:
            read = _unanswered_read(index, package, rtype, member, operations)
            carried = not read
        found.append(
            AttributeFacts(rtype, attribute, member, carried, index.source_name(package), read)
        )
    # Sent as several members (two services, two names): dropped only if no one is read.
    if any(f.carried for f in found):
        return [f for f in found if f.carried][:1]
    return found[:1]


def _unanswered_read(
    index: SourceIndex, package: str, rtype: str, member: ApiMember, operations: Sequence[str]
) -> str:
    """The read whose answer moto builds without ``member`` (``DescribeInstances
    Reservations.Instances.EnclaveOptions``), or "" when a read carries it or none
    can be told."""
    missing = ""
    for read in read_paths(rtype, member, operations):
        says = index.response_mentions(
            package, read.operation, read.path[-1], read.parents, read.aliases
        )
        if says:
            return ""
        if says is False and not missing:
            missing = read.describe()
    return missing


def _refusal(index: SourceIndex, call: Call) -> Refusal:
    service = _botocore_service(call.service)
    code = call.error_code or str(call.status)
    parameters = _refused_parameters(index, service, call) if is_validation_error(code) else ()
    return Refusal(
        service or call.service, call.operation, code, call.error_message, call.address, parameters
    )


def _refused_parameters(
    index: SourceIndex, service: str | None, call: Call
) -> tuple[RefusedParameter, ...]:
    """What the model and the emulator's source know of each parameter of a call refused
    for its form. Only such a refusal can have a cause (:meth:`Refusal.cause`): one about
    what exists ("already exists", a retried create's) is never looked up, which spares
    loading the service's model (0.1 s for EC2's) on most failed faulted applies."""
    package = index.package_of(service, endpoint_prefix(service)) if service else None
    message = call.error_message
    parameters = []
    for name, value in call.parameters.items():
        leaf = [p for p in name.split(".") if not p.isdigit() and p != "member"][-1:] or [name]
        named = _quotes(message, value) or _names(message, leaf[0])
        known_value = package is not None and bool(value) and index.mentions_value(package, value)
        parameters.append(
            RefusedParameter(
                name=name,
                value=value,
                named=named,
                listed=service is not None
                and value in allowed_values(service, call.operation, name),
                value_known=package is None or known_value,
                member_known=package is None or index.mentions(package, leaf[0]),
            )
        )
    return tuple(parameters)


def _botocore_service(signing_name: str) -> str | None:
    """botocore's name for a service the proxy knows by its signing name."""
    return signing_name if known_service(signing_name) else None


def _quotes(message: str, value: str) -> bool:
    """``message`` quotes ``value`` (``Value 'aws:ssm:integration' at ...``); a short
    value (``1``, ``true``) only in quotes."""
    if not value:
        return False
    return any(f"{q}{value}{q}" in message for q in "'\"`") or (
        len(value) >= 4 and value in message
    )


def _names(message: str, member: str) -> bool:
    """``message`` names ``member`` in some case style (``at 'dataType'``)."""
    wanted = normalise(member)
    return any(normalise(word) == wanted for word in _words(message))


def _words(text: str) -> list[str]:
    return [w.strip("'\"`:,.()[]{}") for w in text.split()]
