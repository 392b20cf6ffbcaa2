"""Gaps found from the emulator's own model, before anyone catalogues them.

A value the emulator never reads is dropped whatever module sends it. So a
``permanent-diff`` classified ``dropped`` or ``default`` on an attribute that is
sent as an API member the emulator's source never mentions is a suspected
emulator gap, with no catalogue entry (:mod:`.gaps` holds the catalogue)::

    aws_dynamodb_table.on_demand_throughput -> dynamodb CreateTable/UpdateTable
    OnDemandThroughput -> moto 5.2.6's dynamodb backend never reads it

A mutating call the emulator refused (a 4xx such as ``ValidationException``) is one
too when its answer names a parameter whose value the API's model lists and the
emulator's source never mentions (moto and SSM's ``DataType=aws:ssm:integration``),
or a parameter the emulator never reads.

Pure: the facts are looked up elsewhere (:mod:`pytest_converge.emulator.moto_facts`, from
botocore's service models and an index of the emulator's source) and handed in as
:class:`ModelFacts`; :func:`model_questions` says which attributes to look up.
:func:`.gaps.mark_emulator_gaps` applies :func:`mark_model_gaps` after the
catalogue, so one rule marks every suspected gap and lowers it to a warning unless
``strict``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import Diagnostic
from .addresses import resource_type
from .defects import ERROR, INFO, WARNING, Defect

__all__ = [
    "ApiMember",
    "AttributeFacts",
    "ModelFacts",
    "Refusal",
    "RefusedParameter",
    "mark_model_gaps",
    "model_questions",
    "plain_path",
    "refusal_notes",
    "resource_type",
    "suspect",
]

#: Classifications of a permanent diff that a value the emulator never reads explains.
EXPLAINED_CLASSES = ("dropped", "default")
#: Findings that carry terraform's error as their observed value.
_FAILED_KINDS = ("recovery-failed", "upgrade-failed")
#: How much of an emulator's error message the evidence quotes.
_MESSAGE_SHOWN = 160


@dataclass(frozen=True)
class ApiMember:
    """Where a terraform attribute goes in the API, from botocore's service model."""

    #: botocore's service name (``dynamodb``, ``logs``).
    service: str
    #: The mutating operations whose input carries it (``CreateTable``, ``UpdateTable``).
    operations: tuple[str, ...]
    #: Member names from the input shape down (``("OnDemandThroughput",)``).
    path: tuple[str, ...]
    #: The input shape of ``operations[0]`` (``CreateTableInput``).
    shape: str = ""
    #: The top member's name on the wire where it differs (``Cache-Control`` for
    #: ``CacheControl``, a header; ``TagSpecification`` for EC2's ``TagSpecifications``).
    wire: str = ""

    @property
    def dotted(self) -> str:
        """``OnDemandThroughput.MaxReadRequestUnits``."""
        return ".".join(self.path)

    def describe(self) -> str:
        """``dynamodb CreateTable/UpdateTable OnDemandThroughput``."""
        shown = list(self.operations[:3]) + (["..."] if len(self.operations) > 3 else [])
        return f"{self.service} {'/'.join(shown)} {self.dotted}"


@dataclass(frozen=True)
class AttributeFacts:
    """What the API's model and the emulator's source say of one attribute of one type."""

    resource_type: str
    #: The plan path looked up, list indices left out (``on_demand_throughput``).
    attribute: str
    member: ApiMember
    #: The emulator's source reads the member (mentions its top name, or its name on
    #: the wire, in any case form).
    carried: bool
    #: Where that source was read, for the evidence (``moto/dynamodb``).
    source: str = ""
    #: The read whose answer, as the emulator builds it, lacks the member though the
    #: service's source names it elsewhere (``DescribeInstances
    #: Reservations.Instances.EnclaveOptions``): not carried back to terraform.
    read: str = ""


@dataclass(frozen=True)
class RefusedParameter:
    """One parameter of a refused call, and what the model and the emulator know of it."""

    #: As sent, flattened (``DataType``, ``Tags.member.1.Key``).
    name: str
    value: str
    #: The emulator's error message names it (its name or its value).
    named: bool
    #: botocore's model lists the value for this member (its enum, or its documentation).
    listed: bool
    #: The emulator's source mentions the value / the member.
    value_known: bool
    member_known: bool

    @property
    def suspicious(self) -> bool:
        """Refused for a value the API takes and the emulator does not know, or for a
        member the emulator never reads."""
        return self.named and ((self.listed and not self.value_known) or not self.member_known)


#: AWS error codes that refuse a request's form (``ValidationException``,
#: ``InvalidParameterValue``, ``InvalidParameterCombination``, ``ValidationError``,
#: ``InvalidRequest``, ``InvalidInput``, ``SerializationException``...).
_VALIDATION = re.compile(
    r"Validation|InvalidParameter|Invalid(Request|Input|Argument|.*Value)|Serialization"
    r"|Malformed|Unsupported"
)
#: Codes about what exists, whatever their wording: never the request's form.
_STATE = re.compile(r"Exists|InUse|Duplicate|Conflict|NotFound|Limit|Throttl|Denied")


def is_validation_error(code: str) -> bool:
    """``code`` refuses the request's form, not the state of the cloud."""
    return bool(_VALIDATION.search(code)) and not _STATE.search(code)


@dataclass(frozen=True)
class Refusal:
    """A mutating call the emulator refused with a client error (4xx)."""

    service: str
    operation: str
    #: The AWS error code and message of the answer.
    code: str
    message: str
    #: The resource whose apply made the call, if one could tell.
    address: str | None
    parameters: tuple[RefusedParameter, ...] = ()

    def cause(self) -> RefusedParameter | None:
        """The parameter the refusal is suspected to be about, if any: only a refusal of
        the request's form (a validation error) can be the emulator's. A conflict with
        what exists ("already exists", "in use", not found, a limit) is what AWS answers
        too, to a retried create above all: a finding of the module, never excused."""
        if not is_validation_error(self.code):
            return None
        return next((p for p in self.parameters if p.suspicious), None)


@dataclass(frozen=True)
class ModelFacts:
    """Everything :func:`mark_model_gaps` needs: plain data about one emulator."""

    emulator: str
    version: str | None = None
    attributes: tuple[AttributeFacts, ...] = ()
    refusals: tuple[Refusal, ...] = ()

    @property
    def named(self) -> str:
        """``moto 5.2.6``."""
        return f"{self.emulator} {self.version}" if self.version else self.emulator


def model_questions(defects: Iterable[Defect]) -> list[tuple[str, str]]:
    """``(resource type, attribute path)`` of each finding the model may explain.

    Permanent diffs classified ``dropped`` or ``default`` that nothing has
    explained yet, whose declared value is not empty (a value was sent and did
    not come back); the path has its list indices left out.
    """
    found: list[tuple[str, str]] = []
    for defect in defects:
        asked = _question(defect)
        if asked is not None and asked not in found:
            found.append(asked)
    return found


def _question(defect: Defect) -> tuple[str, str] | None:
    if defect.emulator_suspected or defect.severity == INFO:
        return None
    if defect.kind != "permanent-diff" or defect.classification not in EXPLAINED_CLASSES:
        return None
    if defect.declared in (None, "", [], {}):
        return None  # the API filled a value in: nothing sent went missing
    rtype = resource_type(defect.address)
    if rtype is None or not defect.attribute:
        return None
    return rtype, plain_path(defect.attribute)


def mark_model_gaps(
    defects: Sequence[Defect], facts: ModelFacts | None, *, strict: bool = False
) -> list[Defect]:
    """Mark the findings the emulator's own model explains; returns the marked ones.

    Each gets ``emulator_suspected`` and the chain of evidence (attribute, API
    member, what the emulator's source lacks); an error becomes a warning
    unless ``strict``.
    """
    if facts is None:
        return []
    by_attribute = {(f.resource_type, f.attribute): f for f in facts.attributes}
    marked = []
    for defect in defects:
        asked = _question(defect)
        if asked is not None:
            known = by_attribute.get(asked)
            if known is None or known.carried:
                continue
            suspect(defect, dropped_evidence(known, facts), strict)
            marked.append(defect)
        elif defect.kind in _FAILED_KINDS and not defect.emulator_suspected:
            refusal = _refusal_of(defect, facts.refusals)
            if refusal is not None:
                suspect(defect, refusal_evidence(refusal, facts), strict)
                marked.append(defect)
    return marked


def _refusal_of(defect: Defect, refusals: Sequence[Refusal]) -> Refusal | None:
    """The suspicious refusal ``defect`` (a failed run) failed on: same resource, or its
    error text quotes the refusal's code and message."""
    said = str(defect.observed or "")
    for refusal in refusals:
        if refusal.cause() is None:
            continue
        same = refusal.address is not None and refusal.address == defect.address
        quoted = refusal.code in said and refusal.message[:60] in said
        if same or quoted:
            return refusal
    return None


def refusal_notes(facts: ModelFacts | None) -> list[Diagnostic]:
    """One sentence per suspicious refusal, to put first in a failed run's error, as a
    record of the refused call (and of the resource whose apply made it, if known)."""
    if facts is None:
        return []
    return [
        Diagnostic(
            f"suspected emulator gap: {refusal_evidence(refusal, facts)}. Test the resource "
            f"on another backend (--converge-backend), or leave that setting out of the "
            f"module under test (converge.tfvars)",
            address=refusal.address,
            service=refusal.service,
            operation=refusal.operation,
        )
        for refusal in facts.refusals
        if refusal.cause() is not None
    ]


def dropped_evidence(known: AttributeFacts, facts: ModelFacts) -> str:
    """The evidence text of a finding on an attribute the emulator never reads, or
    never returns in the answer of the read that reads it back."""
    member = known.member
    if known.read:
        operation, _, path = known.read.partition(" ")
        name = path.rsplit(".", 1)[-1]
        code = f"; {known.source}'s code for that answer never names {name}" if known.source else ""
        return (
            f"{known.resource_type}.{known.attribute} -> {member.describe()} -> "
            f"{facts.named}'s {member.service} {operation} answer never carries it "
            f"(botocore's output {known.read}{code}). Found from the API's model and the "
            "emulator's source, not a catalogue entry"
        )
    shape = f"botocore's shape {member.shape}.{member.dotted}" if member.shape else ""
    source = f"{known.source} never mentions {member.path[0]} in any form" if known.source else ""
    detail = "; ".join(p for p in (shape, source) if p)
    return (
        f"{known.resource_type}.{known.attribute} -> {member.describe()} -> "
        f"{facts.named}'s {member.service} backend never reads it"
        + (f" ({detail})" if detail else "")
        + ". Found from the API's model and the emulator's source, not a catalogue entry"
    )


def refusal_evidence(refusal: Refusal, facts: ModelFacts) -> str:
    """The evidence text of a call refused on a parameter the emulator does not know."""
    cause = refusal.cause()
    assert cause is not None
    sent = f"{cause.name}={cause.value}"
    if cause.listed and not cause.value_known:
        why = (
            f"botocore's {refusal.service} model lists {cause.value!r} for "
            f"{refusal.operation}.{cause.name} and {facts.named}'s {refusal.service} "
            "backend never mentions that value"
        )
    else:
        why = f"{facts.named}'s {refusal.service} backend never reads {cause.name}"
    message = refusal.message
    if len(message) > _MESSAGE_SHOWN:
        message = message[: _MESSAGE_SHOWN - 3] + "..."
    return (
        f"{facts.named} answered {refusal.code} to {refusal.service}:{refusal.operation} "
        f"with {sent}: {why} (it said: {message})"
    )


def suspect(defect: Defect, evidence: str, strict: bool) -> None:
    """Mark ``defect`` a suspected emulator gap; an error becomes a warning unless ``strict``."""
    defect.emulator_suspected = True
    defect.evidence = evidence
    if defect.severity == ERROR and not strict:
        defect.severity = WARNING


def plain_path(path: str) -> str:
    """A plan path without list indices: ``ingress[3].description`` -> ``ingress.description``."""
    return re.sub(r"\[[^\]]*\]", "", path)
